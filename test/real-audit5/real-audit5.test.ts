// Fifth audit (test/fixtures/real-audit5): SDK 1.32.2 client and server with a hop between them, and what mcp-triage must say of each against what the caller got (observed.json). The recordings are committed; node test/real-audit5/record.mjs re-records them (needs dist/).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, recordingRunner, triageCli, type CliRun, type RecordingView as View } from '../helpers/triage-cli.js';
import { toolCalls as calls, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit5/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; side: string; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; serverOutcome?: string;
  call: string; attempt: number; findings: Finding[]; detail?: { why?: string; errorCode?: number }; notSeenByServer?: boolean; retryOrigin?: { origin: string };
}
interface SessionFinding { type: 'finding'; code: string; severity: string; message: string; sources: { file: string; line: number }[] }
type Run = CliRun<Attempt, SessionFinding>;
interface Step { step: string; ok: boolean; summary?: { content?: { text: string }[]; isError?: boolean }; error?: { name: string; message: string; code?: number } }
interface Observed { steps: Step[]; onerror: { message: string }[]; notes: Record<string, number[]>[]; serverRan: string[] }

const SCENARIOS = [
  'response-on-get-stream-post-ended', 'response-on-get-stream-post-held', 'abort-between-progress', 'destructive-502-after-run', 'readonly-502-after-run',
  'http-429-retry-after', 'session-expired-new-process', 'json-mode-tool-errors', 'json-mode-lowlevel-errors', 'session-header-stripped',
];
const VIEWS: View[] = ['both', 'client', 'server'];
const run: (s: string, view?: View) => Run = recordingRunner<Attempt, SessionFinding>(DIR);
const codes = (a: Attempt) => a.findings.map((f) => f.code).sort();
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
const step = (s: string, label: RegExp) => observed(s).steps.find((x) => label.test(x.step))!;
const STANDALONE_GET = /the response came on the session's standalone GET stream/;
const HEADER_REMOVED = /which the client's view of it lacks: something between them removed the header/;

describe('fifth audit: every recording', () => {
  it.each(SCENARIOS)('%s: read whole in each view, nothing unusable, no crash', (s) => {
    for (const view of VIEWS) {
      const r = run(s, view);
      expect(r.code === 0 || r.code === 1, view).toBe(true);
      expect(r.unusable, view).toBe(0);
      expect(r.attempts.length, view).toBeGreaterThan(0);
    }
  });

  it.each(SCENARIOS)('%s: the terminal report (the default format) is written whole', (s) => {
    const p = spawnSync(process.execPath, [BIN, '--client', `${DIR}${s}/client.ndjson`, '--server', `${DIR}${s}/server.ndjson`], { encoding: 'utf8', timeout: 30_000 });
    expect(p.status === 0 || p.status === 1).toBe(true);
    expect(p.stderr).toBe('');
    expect(p.stdout).toMatch(/^mcp-triage [\d.]+: \d+ attempts? in \d+ calls?/);
    expect(p.stdout).toMatch(/Secrets are redacted/);
  });
});

describe('fifth audit: the response moved to the standalone GET stream', () => {
  it.each(['response-on-get-stream-post-ended', 'response-on-get-stream-post-held'])('%s: the SDK took the result from the GET stream; TOOL_SUCCESS, no NO_FINAL_RESULT nor ORPHAN_RESPONSE, and the why says where it came', (s) => {
    expect(step(s, /^send_invoice 1001/).summary?.content?.[0]?.text).toBe('invoice for order 1001 sent');
    for (const view of ['both', 'client'] as View[]) {
      const r = run(s, view);
      const [moved, after] = calls(r);
      expect([moved!.outcome, moved!.status, moved!.findings], view).toEqual(['TOOL_SUCCESS', 200, []]);
      expect(moved!.detail?.why, view).toMatch(STANDALONE_GET);
      expect(allCodes(r), view).toEqual([]);
      // the call after it came on its own stream: nothing to say
      expect(after!.detail?.why, view).toBeUndefined();
    }
    // with both logs: the server wrote it on the POST's stream, so something between them moved it
    expect(calls(run(s))[0]!.detail?.why).toMatch(/the server's log has it on the POST's own stream: something between them moved it$/);
    expect(calls(run(s, 'client'))[0]!.detail?.why).not.toMatch(/something between them moved it/);
    // the server's own view: an ordinary result on the POST's stream
    expect(calls(run(s, 'server'))[0]!.detail?.why).toBeUndefined();
  });

  it('a response on a GET that resumes the request\'s stream (Last-Event-ID) is no standalone-GET response', () => {
    const f = fileURLToPath(new URL('../fixtures/real/sse-resumed-last-event-id', import.meta.url));
    const r = triageCli<Attempt, SessionFinding>(['--client', `${f}.client.ndjson`]);
    const call = calls(r)[0]!;
    expect(call.outcome).toBe('TOOL_SUCCESS');
    expect(call.detail?.why ?? '').not.toMatch(STANDALONE_GET);
  });
});

describe('fifth audit: an AbortSignal between two progress notifications', () => {
  it('the caller aborted after progress 2 and re-called; CANCELLED with the reason, no NO_FINAL_RESULT, and the re-call is the retry of a tool that ran', () => {
    const o = observed('abort-between-progress');
    expect(o.notes[0]).toEqual({ progressSeenBeforeAbort: [1, 2] });
    expect(step('abort-between-progress', /aborted after progress 2/).error?.message).toBe('MCP error -32001: Error: user pressed stop');
    expect(o.serverRan).toEqual(['export 2026-11 stopped at step 3', 'export 2026-11 done']);
    for (const view of VIEWS) {
      const [aborted, again] = calls(run('abort-between-progress', view));
      expect([aborted!.outcome, codes(aborted!)], view).toEqual(['STREAM_INCOMPLETE', ['CANCELLED']]);
      expect(aborted!.findings[0]!.message, view).toMatch(/with the reason "Error: user pressed stop"/);
      expect(aborted!.detail?.why, view).toMatch(/^the client cancelled it \(notifications\/cancelled\) 0\.\d\d s after sending it, before any response came \(2 SSE events before that\)(; its last progress notification came 0\.\d\d s before the cancellation)?$/);
      expect([again!.outcome, again!.call, again!.attempt], view).toEqual(['TOOL_SUCCESS', aborted!.call, 2]);
      expect(codes(again!), view).toEqual(['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']);
    }
    // proven where the server's log shows it reached the tool; the server never answered it (the SDK drops the result of a cancelled request)
    const unsafe = (view: View) => calls(run('abort-between-progress', view))[1]!.findings.find((f) => f.code === 'UNSAFE_RETRY')!;
    expect(unsafe('both')).toMatchObject({ severity: 'error', message: expect.stringMatching(/which the client had cancelled itself: .*the server view shows the earlier attempt reached the server$/) });
    expect(unsafe('client').severity).toBe('warning');
  });
});

describe('fifth audit: a 502 after the server ran the tool, then the app retries', () => {
  it('destructive-502-after-run: refund_order (destructiveHint) ran twice; HTTP_ERROR with SIDE_DIVERGENCE, and the retry a proven UNSAFE_RETRY that says the tool ran to its result', () => {
    expect(observed('destructive-502-after-run').serverRan).toEqual(['refund 1001', 'refund 1001']);
    expect(step('destructive-502-after-run', /hop answers 502/).error).toMatchObject({ name: 'StreamableHTTPError', code: 502 });
    const [first, retry] = calls(run('destructive-502-after-run'));
    expect([first!.outcome, first!.status, first!.serverOutcome, codes(first!)]).toEqual(['HTTP_ERROR', 502, 'TOOL_SUCCESS', ['SIDE_DIVERGENCE']]);
    expect(first!.detail?.why).toBe('the body says: 502 Bad Gateway');
    expect([retry!.call, retry!.attempt, retry!.outcome]).toEqual([first!.call, 2, 'TOOL_SUCCESS']);
    expect(retry!.findings.find((f) => f.code === 'UNSAFE_RETRY')).toMatchObject({
      severity: 'error',
      message: 'tools/call refund_order retried after HTTP_ERROR (HTTP 502): tools/list says it is not read-only (readOnlyHint false) and gives no idempotentHint, so by the spec default it is not idempotent; the server view shows the earlier attempt ran to its result (TOOL_SUCCESS), which the caller did not get: its effect happened before this retry',
    });
    // the client's log alone cannot prove it ran: a warning that it may have
    const alone = calls(run('destructive-502-after-run', 'client'))[1]!.findings.find((f) => f.code === 'UNSAFE_RETRY')!;
    expect(alone.severity).toBe('warning');
    // (the hop's 502 is an HTML page: the message says so, and that this log cannot tell whether the tool ran)
    expect(alone.message).toMatch(/the earlier attempt's HTTP 502 is an HTML page, not the JSON-RPC answer an MCP server sends: .* whether the request reached the tool behind it is not in this log \(the server's log would tell\)$/);
  });

  it('readonly-502-after-run: the same 502 after a read-only tool and after a destructive but idempotent one; linked retries, SIDE_DIVERGENCE, no UNSAFE_RETRY', () => {
    expect(observed('readonly-502-after-run').serverRan).toEqual(['status 1001 cancelled', 'status 1001 cancelled']);
    for (const view of ['both', 'client'] as View[]) {
      const r = run('readonly-502-after-run', view);
      expect(calls(r).map((a) => [a.tool, a.outcome, a.attempt]), view).toEqual([
        ['lookup_order', 'HTTP_ERROR', 1], ['lookup_order', 'TOOL_SUCCESS', 2], ['set_order_status', 'HTTP_ERROR', 1], ['set_order_status', 'TOOL_SUCCESS', 2],
      ]);
      expect(allCodes(r), view).not.toContain('UNSAFE_RETRY');
    }
    expect(calls(run('readonly-502-after-run')).filter((a) => a.outcome === 'HTTP_ERROR').map(codes)).toEqual([['SIDE_DIVERGENCE'], ['SIDE_DIVERGENCE']]);
  });
});

describe('fifth audit: 429 with Retry-After', () => {
  it('http-429-retry-after: two 429s the server never saw, the first retried too early (RETRY_AFTER_IGNORED from its HTTP date), the second waited out; no UNSAFE_RETRY', () => {
    expect(observed('http-429-retry-after').serverRan).toEqual(['invoice 1001']);
    for (const view of ['both', 'client'] as View[]) {
      const [a1, a2, a3] = calls(run('http-429-retry-after', view));
      expect([a1, a2, a3].map((a) => [a!.status, a!.outcome, a!.attempt]), view).toEqual([[429, 'HTTP_ERROR', 1], [429, 'HTTP_ERROR', 2], [200, 'TOOL_SUCCESS', 3]]);
      expect(codes(a2!), view).toEqual(['RETRY_AFTER_IGNORED', 'RETRY_ORIGIN_AMBIGUOUS']);
      expect(a2!.findings.find((f) => f.code === 'RETRY_AFTER_IGNORED')!.message, view).toMatch(/^tools\/call send_invoice: retried 0\.2\d s after HTTP 429 asked to wait [12]\.\d\d s \(Retry-After\)$/);
      expect(codes(a3!), view).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
    }
    const both = calls(run('http-429-retry-after'));
    expect(both.map((a) => a.notSeenByServer === true)).toEqual([true, true, false]);
  });
});

describe('fifth audit: the session lost between calls', () => {
  it('session-expired-new-process: 404 to the call, a new process re-initializes and re-calls; SESSION_EXPIRED says so, the re-call is linked, no UNSAFE_RETRY (nothing ran)', () => {
    expect(step('session-expired-new-process', /old session: 404/).error).toMatchObject({ code: 404 });
    expect(observed('session-expired-new-process').serverRan).toEqual(['invoice 1001', 'invoice 1002']);
    for (const view of VIEWS) {
      const r = run('session-expired-new-process', view);
      const [, lost, again] = calls(r);
      expect([lost!.status, lost!.outcome, lost!.detail?.errorCode], view).toEqual([404, 'HTTP_ERROR', -32001]);
      expect([again!.call, again!.attempt, again!.outcome], view).toEqual([lost!.call, 2, 'TOOL_SUCCESS']);
      expect(again!.session, view).not.toBe(lost!.session);
      expect(r.findings.map((f) => f.code), view).toEqual(['SESSION_EXPIRED']);
      expect(r.findings[0]!.message, view).toMatch(/HTTP 404 to tools\/call send_invoice id 3 that carried the session id; the client re-initialized and retried the call$/);
      expect(allCodes(r), view).not.toContain('UNSAFE_RETRY');
      expect(allCodes(r), view).not.toContain('NOTIFICATION_REFUSED');
    }
  });
});

describe('fifth audit: JSON response mode errors', () => {
  it('json-mode-tool-errors (McpServer): isError, a thrown McpError and an unknown tool all reach the caller as isError results; TOOL_ERROR in every view', () => {
    expect(step('json-mode-tool-errors', /charge_card/).summary).toMatchObject({ isError: true, content: [{ text: 'MCP error -32602: card for order 1001 declined' }] });
    for (const view of VIEWS) {
      const r = run('json-mode-tool-errors', view);
      expect(calls(r).map((a) => [a.tool, a.outcome]), view).toEqual([['validate_quantity', 'TOOL_ERROR'], ['charge_card', 'TOOL_ERROR'], ['no_such_tool', 'TOOL_ERROR'], ['lookup_order', 'TOOL_SUCCESS']]);
      expect(allCodes(r), view).toEqual([]);
    }
    expect(calls(run('json-mode-tool-errors'))[1]!.detail).toEqual({ errorMessage: 'MCP error -32602: card for order 1001 declined' });
  });

  it('json-mode-lowlevel-errors (a low-level Server): isError is TOOL_ERROR, a thrown McpError -32602 and a plain Error -32603 are JSONRPC_ERROR, in every view', () => {
    expect(step('json-mode-lowlevel-errors', /throws_mcp_error/).error).toMatchObject({ name: 'McpError', code: -32602 });
    expect(step('json-mode-lowlevel-errors', /throws_plain_error/).error).toMatchObject({ name: 'McpError', code: -32603, message: 'MCP error -32603: database connection lost' });
    for (const view of VIEWS) {
      const r = run('json-mode-lowlevel-errors', view);
      expect(calls(r).map((a) => [a.tool, a.outcome, a.detail?.errorCode ?? null]), view).toEqual([
        ['is_error', 'TOOL_ERROR', null], ['throws_mcp_error', 'JSONRPC_ERROR', -32602], ['throws_plain_error', 'JSONRPC_ERROR', -32603], ['ok_tool', 'TOOL_SUCCESS', null],
      ]);
      expect(allCodes(r), view).toEqual([]);
    }
  });
});

describe('fifth audit: Mcp-Session-Id dropped from the initialize response', () => {
  it('session-header-stripped: connect() threw 400 twice; each refused notifications/initialized is a NOTIFICATION_REFUSED that says the POST had no session id', () => {
    const o = observed('session-header-stripped');
    expect(o.steps.map((x) => [x.step, x.ok, x.error?.code])).toEqual([['connect 1', false, 400], ['connect 2', false, 400]]);
    for (const view of ['both', 'client'] as View[]) {
      const r = run('session-header-stripped', view);
      expect(r.findings.map((f) => f.code), view).toEqual(['NOTIFICATION_REFUSED', 'NOTIFICATION_REFUSED']);
      for (const f of r.findings) expect(f.message, view).toMatch(/HTTP 400 to its notifications\/initialized, a POST with no request in it \(saying "Bad Request: No valid session ID provided"\): it was not accepted, so the session never became usable \(the TypeScript SDK's connect\(\), 1\.x and v2, throws on that refusal, and no request worked in this session after it\); the POST carried no Mcp-Session-Id: the client did not have the session id/);
      expect(r.findings.map((f) => f.severity), view).toEqual(['error', 'error']);
      expect(r.findings[0]!.message, view).toMatch(/; the client began a new session \(initialize\) after it$/);
      expect(r.findings[1]!.message, view).toMatch(/; nothing more came in this session$/);
      // with both logs, each refusal once, as the client's log tells it
      for (const f of r.findings) expect(f.sources.map((x) => x.file), view).toEqual([`${DIR}session-header-stripped/client.ndjson`]);
    }
  });

  it('session-header-stripped, the server\'s log alone: each refused notification is a NOTIFICATION_REFUSED that names the session id its initialize response had set just before', () => {
    const r = run('session-header-stripped', 'server');
    const sids = r.attempts.map((a) => a.session);
    expect(r.findings.map((f) => f.code)).toEqual(['NOTIFICATION_REFUSED', 'NOTIFICATION_REFUSED']);
    r.findings.forEach((f, i) => {
      expect(f.message).toMatch(/^traffic without a session: HTTP 400 to its notifications\/initialized, a POST with no request in it \(saying "Bad Request: No valid session ID provided"\): it was not accepted \(the TypeScript SDK's connect\(\) throws on that\); the POST carried no Mcp-Session-Id, though the server had set one \(([0-9a-f-]{36})\) in its initialize response \d+ ms before and no request had carried it back since: the id was lost on its way to the client .* or the client did not send it; the server's log cannot tell which, the client's can; /);
      expect(f.message).toContain(`had set one (${sids[i]})`);
      // evidence: the refused POST and the initialize response that set the id
      expect(f.sources.map((x) => x.line)).toEqual([[5, 2], [12, 9]][i]);
    });
    expect(r.findings[0]!.message).toMatch(/; an initialize came after it in this log \(the client starting again, or another client\)$/);
    expect(r.findings[1]!.message).toMatch(/; nothing more came in this session$/);
  });

  it('session-header-stripped, both logs, the client\'s read first (its clock 20 ms behind): still one finding per refused POST, the client\'s', () => {
    const lines = readFileSync(`${DIR}session-header-stripped/client.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { ts: string });
    for (const l of lines) l.ts = new Date(Date.parse(l.ts) - 20).toISOString();
    const f = join(mkdtempSync(join(tmpdir(), 'audit5-')), 'client.ndjson');
    writeFileSync(f, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    for (const args of [['--client', f, '--server', `${DIR}session-header-stripped/server.ndjson`], ['--server', `${DIR}session-header-stripped/server.ndjson`, '--client', f]]) {
      const r = triageCli<Attempt, SessionFinding>(args);
      expect(r.findings.map((x) => x.code)).toEqual(['NOTIFICATION_REFUSED', 'NOTIFICATION_REFUSED']);
      for (const x of r.findings) expect(x.sources.map((s) => s.file)).toEqual([f]);
    }
  });

  describe('must not fire: the server\'s log of the same traffic, changed', () => {
    const server = () => readFileSync(`${DIR}session-header-stripped/server.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown> & { xid: string; kind: string; ts: string; session: string | null });
    const inits = (lines: ReturnType<typeof server>) => new Set(lines.filter((l) => (l.send as { method?: string } | undefined)?.method === 'initialize').map((l) => l.xid));
    const triage = (lines: unknown[]) => {
      const f = join(mkdtempSync(join(tmpdir(), 'audit5-')), 'server.ndjson');
      writeFileSync(f, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
      return triageCli<Attempt, SessionFinding>(['--server', f]);
    };
    const LOST = /though the server had set one/;

    it('the server set no session id in its initialize responses: what it said before (the refusal in the scope of its initializes), nothing of an id it had set', () => {
      const lines = server();
      const x = inits(lines);
      const r = triage(lines.map((l) => {
        if (!x.has(l.xid)) return l;
        const headers = { ...(l.responseHeaders as Record<string, string> | undefined) };
        delete headers['mcp-session-id'];
        return { ...l, session: null, ...(l.responseHeaders ? { responseHeaders: headers } : {}) };
      }));
      expect(r.findings.map((f) => f.code)).toEqual(['NOTIFICATION_REFUSED', 'NOTIFICATION_REFUSED']);
      for (const f of r.findings) expect(f.message).not.toMatch(LOST);
    });

    it('the client never initialized (no initialize in the log): nothing, as before', () => {
      const lines = server();
      const x = inits(lines);
      expect(triage(lines.filter((l) => !x.has(l.xid))).findings).toEqual([]);
    });

    it('a request carried the id back between the initialize and the refused notification: nothing, as before', () => {
      const lines = server();
      const x = inits(lines);
      const out: unknown[] = [];
      for (const l of lines) {
        out.push(l);
        if (!x.has(l.xid) || l.kind !== 'end') continue;
        const base = { v: 1, ts: new Date(Date.parse(l.ts) + 1).toISOString(), side: 'server', session: l.session, xid: `${l.xid}-ping` };
        out.push({ ...base, kind: 'request', method: 'POST', url: 'http://127.0.0.1/mcp', requestHeaders: { 'mcp-session-id': l.session, 'content-type': 'application/json' }, send: { jsonrpc: '2.0', id: 1, method: 'ping' } });
        out.push({ ...base, kind: 'response', status: 200, responseHeaders: { 'content-type': 'application/json' } });
        out.push({ ...base, kind: 'end', end: 'complete', recvText: '{"jsonrpc":"2.0","id":1,"result":{}}' });
      }
      const r = triage(out);
      expect(r.attempts.map((a) => a.method)).toEqual(['initialize', 'ping', 'initialize', 'ping']);
      expect(r.findings).toEqual([]);
    });
  });

  it('session-header-stripped: with both logs, each initialize is one attempt seen by both sides, and its why says the header was removed between them', () => {
    const r = run('session-header-stripped');
    expect(r.attempts).toHaveLength(2);
    for (const a of r.attempts) {
      expect([a.method, a.outcome, a.serverOutcome, a.notSeenByServer ?? false]).toEqual(['initialize', 'SUCCESS', 'SUCCESS', false]);
      expect(a.detail?.why).toMatch(/^the server's response set Mcp-Session-Id "[0-9a-f-]{36}", which the client's view of it lacks: something between them removed the header/);
    }
    // each attempt carries the session the server assigned it, one each
    expect(new Set(r.attempts.map((a) => a.session)).size).toBe(2);
    // one view alone has nothing to compare
    for (const view of ['client', 'server'] as View[]) for (const a of run('session-header-stripped', view).attempts) expect(a.detail?.why, view).toBeUndefined();
  });

  it('an initialize whose client view logged no response headers at all is joined only by id, arguments and answer, and says nothing of a dropped header (nothing shows it)', () => {
    const lines = readFileSync(`${DIR}session-header-stripped/client.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const l of lines) if (l.kind === 'response') l.responseHeaders = {};
    const f = join(mkdtempSync(join(tmpdir(), 'audit5-')), 'client.ndjson');
    writeFileSync(f, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = triageCli<Attempt, SessionFinding>(['--client', f, '--server', `${DIR}session-header-stripped/server.ndjson`]);
    // Each initialize is one attempt with both views, under the session the server's log shows (the loose join).
    expect(r.attempts.map((a) => [a.method, a.side, a.outcome])).toEqual([['initialize', 'client', 'SUCCESS'], ['initialize', 'client', 'SUCCESS']]);
    expect(r.attempts.every((a) => a.session !== null)).toBe(true);
    for (const a of r.attempts) expect(a.detail?.why ?? '').not.toMatch(HEADER_REMOVED);
    // the refusals are still one each, the client's (the server's records of them are the same POSTs)
    expect(r.findings.map((x) => [x.code, x.sources[0]!.file])).toEqual([['NOTIFICATION_REFUSED', f], ['NOTIFICATION_REFUSED', f]]);
  });

  it('an initialize that got its session id says nothing of a removed header (every other recording)', () => {
    for (const s of SCENARIOS.filter((x) => x !== 'session-header-stripped')) {
      for (const a of run(s).attempts.filter((x) => x.method === 'initialize')) {
        expect([a.notSeenByServer ?? false, a.detail?.why], s).toEqual([false, undefined]);
      }
    }
  });
});
