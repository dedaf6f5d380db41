// The third audit round: real SDK traffic (1.32.2, v2 2.4.0 on 2026-07-28) with server-to-client requests, other
// methods than tools/call failing in each layer, tool results, shared sessions, closes and kills, refusals
// (test/fixtures/real-audit3), and what mcp-triage says. Expectations come from observed.json: what the caller saw.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, triageCli, type CliRun } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit3/', import.meta.url));
const FIX = fileURLToPath(new URL('../fixtures/', import.meta.url));

interface Attempt {
  type: 'attempt';
  id: string | number;
  method: string;
  tool: string | null;
  status: number | null;
  outcome: string;
  call: string;
  attempt: number;
  retryOrigin?: { origin: string };
  findings: { code: string; severity: string; message: string }[];
  detail?: { why?: string; errorCode?: number; errorMessage?: string };
}
interface Finding { code: string; severity: string; message: string }
type Run = CliRun<Attempt, Finding>;
interface Step { step: string; ok: boolean; summary?: { isError?: boolean; content?: { text: string; len?: number }[] }; error?: { name: string; message: string; code?: number | string } }

const triage = (args: string[]): Run => triageCli<Attempt, Finding>(args);
const file = (scenario: string, side: string): string => {
  const plain = `${DIR}${scenario}/${side}.ndjson`;
  return existsSync(plain) ? plain : `${plain}.gz`;
};
const cache = new Map<string, Run>();
/** The client's and the server's log together (the default), or only the proxy's. */
function run(scenario: string, view: 'both' | 'proxy' = 'both'): Run {
  const key = `${scenario}|${view}`;
  let r = cache.get(key);
  if (!r) {
    r = view === 'proxy' ? triage([file(scenario, 'proxy')]) : triage(['--client', file(scenario, 'client'), '--server', file(scenario, 'server')]);
    cache.set(key, r);
  }
  return r;
}
const steps = (scenario: string): Step[] => (JSON.parse(readFileSync(`${DIR}${scenario}/observed.json`, 'utf8')) as { steps: Step[] }).steps;
const step = (scenario: string, label: RegExp): Step => {
  const s = steps(scenario).find((x) => label.test(x.step));
  if (!s) throw new Error(`${scenario}: no observed step ${label}`);
  return s;
};

describe('every third-round recording', () => {
  it.each(readdirSync(DIR))('%s: read whole in every view, analyzed without error', (scenario) => {
    // the Python recordings (record-py.py) have the two recording proxies' views, client and server, and no third
    for (const view of !scenario.startsWith('py-') ? (['both', 'proxy'] as const) : (['both'] as const)) {
      const r = run(scenario, view);
      expect(r.code, view).toBe(0);
      expect(r.unusable, view).toBe(0);
    }
  });

  it.each(readdirSync(DIR))('%s: every tool call the caller got a result for is TOOL_SUCCESS or TOOL_ERROR as that result says, in the order the caller made them', (scenario) => {
    // Steps that returned a CallToolResult, in order, against the tools/call attempts whose outcome is a result.
    const results = steps(scenario).filter((s) => s.ok && typeof s.summary?.isError === 'boolean').map((s) => (s.summary!.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS'));
    const got = calls(run(scenario)).filter((a) => a.outcome === 'TOOL_SUCCESS' || a.outcome === 'TOOL_ERROR').map((a) => a.outcome);
    expect(got.length).toBeGreaterThanOrEqual(results.length);
    // Every returned result is among them (a call a 1.x client threw on locally can still be a TOOL_ERROR on the wire).
    expect(got.filter((o) => o === 'TOOL_SUCCESS')).toEqual(results.filter((o) => o === 'TOOL_SUCCESS'));
  });
});

describe('what the third round found, fixed', () => {
  it('two Clients sharing one session id with the same request id: the cancellation belongs to the request still open, not to the one that ended (every view)', () => {
    expect(step('two-clients-one-session', /^a: slow_report/).error).toMatchObject({ code: -32001 });
    expect(step('two-clients-one-session', /^b: send_invoice/).ok).toBe(true);
    for (const view of ['both', 'proxy'] as const) {
      const r = run('two-clients-one-session', view);
      const slow = calls(r).find((a) => a.tool === 'slow_report')!;
      const invoice = calls(r).find((a) => a.tool === 'send_invoice')!;
      expect(slow, view).toMatchObject({ id: 1, outcome: 'STREAM_INCOMPLETE' });
      expect(slow.detail?.why, view).toMatch(/^the client cancelled it \(notifications\/cancelled\) 2\.\d\d s after sending it/);
      // a cancelled request is owed no result: no NO_FINAL_RESULT
      expect(codes(slow), view).toEqual(['CANCELLED']);
      expect(invoice, view).toMatchObject({ id: 1, outcome: 'TOOL_SUCCESS' });
      expect(codes(invoice), view).toEqual(['ID_REUSED']);
      // no "cancellation after the fact" for the request that had ended
      expect(r.findings.map((f) => f.code), view).toEqual([]);
    }
  });

  it('must not: a cancellation for an id whose only request had ended is still a late, session-level CANCELLED (opencode)', () => {
    const r = triage(['--client', `${FIX}real-opencode/baseline/client.ndjson`, '--server', `${FIX}real-opencode/baseline/server.ndjson`]);
    expect(r.findings.length).toBeGreaterThan(0);
    for (const f of r.findings) expect(f).toMatchObject({ code: 'CANCELLED', severity: 'info', message: expect.stringMatching(/cancelled nothing/) });
  });

  it('an isError result whose structuredContent breaks the outputSchema is TOOL_ERROR and says a 1.x client throws -32602 on it (1.x: it did; v2: it returned it)', () => {
    expect(step('tool-error-structured', /^check_stock gone/).error).toMatchObject({ code: -32602, message: expect.stringMatching(/Structured content does not match/) });
    expect(step('v2-tool-error-structured', /^check_stock gone/)).toMatchObject({ ok: true, summary: { isError: true } });
    for (const scenario of ['tool-error-structured', 'v2-tool-error-structured']) {
      const [ok, gone, plain] = calls(run(scenario));
      expect(ok, scenario).toMatchObject({ outcome: 'TOOL_SUCCESS' });
      expect(gone, scenario).toMatchObject({ outcome: 'TOOL_ERROR', detail: { errorMessage: 'sku gone is discontinued' } });
      expect(gone!.detail?.why, scenario).toBe(
        "isError, with structuredContent must have required property 'available', by the outputSchema tools/list declares: a client that checks it (the TypeScript SDK 1.x) throws -32602 instead of returning the error",
      );
      // must not: an error result without structuredContent says nothing of the schema
      expect(plain, scenario).toMatchObject({ outcome: 'TOOL_ERROR', detail: { errorMessage: 'warehouse for err-plain unreachable' } });
      expect(plain!.detail?.why, scenario).toBeUndefined();
    }
  });

  it('the same with the Python SDK on either side: its server cancels its own elicitation too ("caller cancelled"), and the TypeScript server cancels the Python client\'s', () => {
    for (const [scenario, id, reason] of [['py-server-ts-elicitation-never-answered', 1, 'caller cancelled'], ['py-client-ts-elicitation-never-answered', 0, 'McpError: MCP error -32001: Request timed out']] as const) {
      expect(step(scenario, /^confirm_refund/)).toMatchObject({ ok: true });
      const [refund, after] = calls(run(scenario));
      expect(refund, scenario).toMatchObject({ outcome: 'TOOL_ERROR' });
      expect(refund!.detail?.why, scenario).toMatch(new RegExp(`^the server cancelled its own elicitation/create \\(id ${id}\\) 0\\.\\d\\d s into the call, which the client had not answered \\(${reason.replace(/[()]/g, '\\$&')}\\)$`));
      expect(after, scenario).toMatchObject({ tool: 'lookup_order', outcome: 'TOOL_SUCCESS' });
      expect(after!.detail?.why, scenario).toBeUndefined();
    }
  });

  it('a tool that failed because the client never answered (or answered too late) the server\'s elicitation/create says so', () => {
    for (const scenario of ['elicitation-never-answered', 'elicitation-answered-late']) {
      expect(step(scenario, /^confirm_refund/)).toMatchObject({ ok: true, summary: { isError: true, content: [{ text: 'MCP error -32001: Request timed out' }] } });
      for (const view of ['both', 'proxy'] as const) {
        const [refund] = calls(run(scenario, view));
        expect(refund, `${scenario} ${view}`).toMatchObject({ outcome: 'TOOL_ERROR', detail: { errorMessage: 'MCP error -32001: Request timed out' } });
        const cancelled = 'the server cancelled its own elicitation\\/create \\(id 0\\) 0\\.\\d\\d s into the call, which the client had not answered \\(McpError: MCP error -32001: Request timed out\\)';
        // the late answer (a POST 0.4 s after the server's notifications/cancelled) is named; a client that never answered sent none
        const late = scenario === 'elicitation-answered-late' ? "; the client's answer came 0\\.4\\d s after that, when the server no longer waited for it" : '';
        expect(refund!.detail?.why, `${scenario} ${view}`).toMatch(new RegExp(`^${cancelled}${late}$`));
      }
    }
    for (const side of ['client', 'server'] as const) {
      const [refund] = calls(triage([`--${side}`, file('elicitation-answered-late', side)]));
      expect(refund!.detail?.why, side).toMatch(/which the client had not answered \(McpError: MCP error -32001: Request timed out\); the client's answer came 0\.\d\d s after that/);
    }
  });

  it('a tool that failed because the client answered the server\'s request with an error says so (also in the first audit\'s recordings of throwing handlers)', () => {
    for (const s of steps('sampling-roots-unsupported')) expect(s).toMatchObject({ ok: true, summary: { isError: true, content: [{ text: 'MCP error -32601: Method not found' }] } });
    for (const view of ['both', 'proxy'] as const) {
      expect(calls(run('sampling-roots-unsupported', view)).map((a) => [a.outcome, a.detail?.why]), view).toEqual([
        ['TOOL_ERROR', "the client answered the server's sampling/createMessage (id 0) with an error: -32601 Method not found"],
        ['TOOL_ERROR', "the client answered the server's roots/list (id 1) with an error: -32601 Method not found"],
      ]);
    }
    const audit = (scenario: string): Attempt[] => calls(triage(['--client', `${FIX}real-audit/${scenario}/client.ndjson`, '--server', `${FIX}real-audit/${scenario}/server.ndjson`]));
    const [throwing, answered] = audit('sampling-handler-throws');
    expect(throwing!.detail?.why).toBe("the client answered the server's sampling/createMessage (id 0) with an error: -32603 LLM provider quota exceeded");
    expect(answered).toMatchObject({ outcome: 'TOOL_SUCCESS' });
    const [handlerThrew, tooSlow, noCapability] = audit('elicitation-handler-throws');
    expect(handlerThrew!.detail?.why).toBe("the client answered the server's elicitation/create (id 0) with an error: -32603 MCP error -32603: UI not available");
    expect(tooSlow!.detail?.why).toMatch(/^the server cancelled its own elicitation\/create \(id 1\) 3\.0\d s into the call, which the client had not answered/);
    // must not: the server sent no elicitation/create to a client without the capability; the tool failed on its own
    expect(noCapability).toMatchObject({ outcome: 'TOOL_ERROR', detail: { errorMessage: 'Client does not support form elicitation.' } });
    expect(noCapability!.detail?.why).toBeUndefined();
  });

  it('must not: an elicitation the user cancelled in the dialog (a result, not an error) is a tool error without such a why', () => {
    expect(step('elicitation-decline-cancel', /cancelled in the dialog/).summary).toMatchObject({ isError: true });
    const cancelled = calls(run('elicitation-decline-cancel')).find((a) => a.outcome === 'TOOL_ERROR')!;
    expect(cancelled.detail?.why).toBeUndefined();
    for (const a of calls(run('sampling-roots-ping'))) expect(a).toMatchObject({ outcome: 'TOOL_SUCCESS' });
  });

  it('an HTTP error for a request whose MCP-Protocol-Version was rewritten between client and server says so', () => {
    expect(step('protocol-version-mismatch', /header rewritten/).error).toMatchObject({ code: 400, message: expect.stringMatching(/Unsupported protocol version: 2099-01-01/) });
    const [refused, retry] = calls(run('protocol-version-mismatch'));
    expect(refused).toMatchObject({ status: 400, outcome: 'HTTP_ERROR', detail: { errorCode: -32000, errorMessage: expect.stringMatching(/^Bad Request: Unsupported protocol version: 2099-01-01/) } });
    expect(refused!.detail?.why).toBe('the client sent MCP-Protocol-Version "2025-11-25", the server received "2099-01-01": something between them changed the header');
    expect(retry).toMatchObject({ outcome: 'TOOL_SUCCESS', call: refused!.call, attempt: 2, retryOrigin: { origin: 'app' } });
  });

  it('the same on @hono/mcp, whose hop rewrote the header too (it answers 404); must not: a server that refuses the version the client itself sent (v2 client, 1.x server)', () => {
    const hono = triage(['--client', `${FIX}real-servers/hono-protocol-version-404/client.ndjson`, '--server', `${FIX}real-servers/hono-protocol-version-404/server.ndjson`]);
    const [refused] = hono.attempts.filter((a) => a.outcome === 'HTTP_ERROR');
    expect(refused).toMatchObject({ status: 404, detail: { why: 'the client sent MCP-Protocol-Version "2025-11-25", the server received "2099-01-01": something between them changed the header' } });
    const own = triage(['--client', `${FIX}real-interop/v2-client-v1-stateless.client.ndjson`, '--server', `${FIX}real-interop/v2-client-v1-stateless.server.ndjson`]);
    const [probe] = own.attempts;
    expect(probe).toMatchObject({ outcome: 'HTTP_ERROR', detail: { errorMessage: expect.stringContaining('Unsupported protocol version: 2026-07-28') } });
    expect(probe!.detail?.why ?? '').not.toMatch(/changed the header/);
    for (const a of run('refusals-406-415-413').attempts) expect(a.detail?.why ?? '').not.toMatch(/MCP-Protocol-Version/);
  });

  it('a 406 and a 415 refused before the server read the body, whose Accept and Content-Type a hop rewrote, say so too; must not: the 413 (nothing changed)', () => {
    const refused = steps('refusals-406-415-413').filter((s) => !s.ok);
    const r = calls(run('refusals-406-415-413')).filter((a) => a.outcome === 'HTTP_ERROR');
    expect(r.map((a) => a.status)).toEqual(refused.map((s) => s.error!.code));
    expect(r.map((a) => a.status)).toEqual([406, 415, 413]);
    // each keeps the body's message, as the caller's error quotes it
    for (const [i, a] of r.entries()) expect(refused[i]!.error!.message).toContain(JSON.stringify(a.detail?.errorMessage));
    const said = "the server's log has this POST without its body, answered with HTTP";
    expect(r.map((a) => a.detail?.why)).toEqual([
      `${said} 406; the client sent Accept "application/json, text/event-stream", the server received "application/json": something between them changed the header`,
      `${said} 415; the client sent Content-Type "application/json", the server received "text/plain": something between them changed the header`,
      `${said} 413`,
    ]);
    expect(allCodes(run('refusals-406-415-413'))).toEqual([]);
  });

  it("a call sent without a session after the client's DELETE says which session the client dropped and what the DELETE got; must not: the calls before it", () => {
    const r = run('get-delete-405');
    const refused = r.attempts.filter((a) => a.status === 400);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.detail?.why).toMatch(/^sent without a session id \d+ ms after the client's DELETE of session "[0-9a-f-]{36}", which was answered HTTP 405: the client dropped its session id although the server did not end the session/);
    expect(steps('get-delete-405').find((x) => /after the refused DELETE/.test(x.step))!.error!.code).toBe(400);
    for (const a of r.attempts.filter((x) => x.status !== 400)) expect(a.detail?.why ?? '').not.toMatch(/DELETE/);
  });

  it('no DELETE is blamed for a session-less call after the client began anew, for a call that carries a session id, or long after', () => {
    const SID = 'gone-1';
    const at = (ms: number) => new Date(Date.parse('2026-12-03T10:00:00Z') + ms).toISOString();
    const ex = (ms: number, method: string, session: string | null, status: number, send?: unknown) => ({
      v: 1, kind: 'exchange', ts: at(ms), side: 'client', session, method, url: 'http://127.0.0.1:9/mcp',
      requestHeaders: session ? { 'mcp-session-id': session } : {}, ...(send ? { send } : {}), status,
      responseHeaders: { 'content-type': 'application/json' }, ...(status === 400 ? { recvText: '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}' } : {}), durationMs: 2,
    });
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'lookup', arguments: { n: id } } });
    const init = (id: number) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
    const lines = [
      ex(0, 'DELETE', SID, 405),
      ex(10, 'POST', null, 400, init(1)),
      ex(20, 'POST', null, 400, call(2)), // after an initialize: the client began anew
      ex(1000, 'DELETE', SID, 200),
      ex(1010, 'POST', SID, 404, call(3)), // carries the deleted session id
      ex(200_000, 'POST', null, 400, call(4)), // minutes later
    ];
    const dir = mkdtempSync(join(tmpdir(), 'mcpt-delete-'));
    writeFileSync(join(dir, 'client.ndjson'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const r = triage(['--client', join(dir, 'client.ndjson')]);
    expect(r.attempts.map((a) => a.id)).toEqual([1, 2, 3, 4]);
    for (const a of r.attempts) expect(a.detail?.why ?? '').not.toMatch(/DELETE of session/);
  });

  it('a 406 for an Accept the client itself sent as the server received it does not blame a hop', () => {
    // The same recording, with the refused request's Accept in the client's log set to what the server received.
    const lines = readFileSync(file('refusals-406-415-413', 'client'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const xid = lines.find((l) => l.kind === 'response' && l.status === 406)!.xid;
    const request = lines.find((l) => l.kind === 'request' && l.xid === xid)!;
    (request.requestHeaders as Record<string, string>).accept = 'application/json';
    const dir = mkdtempSync(join(tmpdir(), 'mcpt-406-'));
    writeFileSync(join(dir, 'client.ndjson'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const r = triage(['--client', join(dir, 'client.ndjson'), '--server', file('refusals-406-415-413', 'server')]);
    const refused = calls(r).filter((a) => a.status === 406);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.detail?.why).toBe("the server's log has this POST without its body, answered with HTTP 406");
  });

  it('a recording proxy\'s view of a stream the client closed reads as the client closing it: on 2026-07-28 a cancellation, as in the client\'s view', () => {
    expect(step('v2-client-close-in-flight', /client\.close\(\)/).error).toMatchObject({ code: 'CONNECTION_CLOSED' });
    for (const view of ['both', 'proxy'] as const) {
      const slow = calls(run('v2-client-close-in-flight', view)).find((a) => a.tool === 'slow_report')!;
      expect(slow, view).toMatchObject({ outcome: 'STREAM_INCOMPLETE' });
      expect(slow.detail?.why, view).toMatch(/^the client closed the stream 0\.1\d s after sending it, before any response came \(on 2026-07-28 that is the cancellation\)/);
      expect(codes(slow), view).toEqual(['CANCELLED']);
    }
    // 2025-11-25: closing is not cancelling; the proxy's view now says it was the client that closed, as the client's does
    expect(step('client-close-in-flight', /client\.close\(\)/).error).toMatchObject({ code: -32000, message: 'MCP error -32000: Connection closed' });
    for (const view of ['both', 'proxy'] as const) {
      const slow = calls(run('client-close-in-flight', view)).find((a) => a.tool === 'slow_report')!;
      expect(slow.detail?.why, view).toMatch(/^the client closed the stream 0\.1\d s after sending it, before any response came, and sent no notifications\/cancelled/);
      expect(codes(slow), view).toEqual(['NO_FINAL_RESULT']);
    }
  });

  it('must not: a stream cut between proxy and server (the server gone) is no client close, in the proxy\'s view either', () => {
    expect(step('v2-server-gone-mid-stream', /connection cut/).error).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    for (const view of ['both', 'proxy'] as const) {
      const [cut, again] = calls(run('v2-server-gone-mid-stream', view)).filter((a) => a.tool === 'slow_report');
      expect(cut, view).toMatchObject({ outcome: 'STREAM_INCOMPLETE', detail: { why: 'SSE stream ended (error) after 3 events without the response' } });
      // joined, the server's side closed while the client's did not: something between them closed it (the seventh audit),
      // or the server itself behind its log: the client's "other side closed" cannot tell (the sixty-second audit)
      expect(codes(cut!), view).toEqual(view === 'both' ? ['NO_FINAL_RESULT', 'SIDE_DIVERGENCE'] : ['NO_FINAL_RESULT']);
      if (view === 'both') expect(cut!.findings.find((f) => f.code === 'SIDE_DIVERGENCE')!.message).toBe("tools/call slow_report id 1: the server's connection closed before it sent the response, which on 2026-07-28 it takes for the client's cancellation (its SDK aborts the request's signal; whether the tool's work stopped, the log cannot show), but the client did not close its stream (it failed with \"terminated: other side closed (UND_ERR_SOCKET)\"): the server's side closed it: something between them, or the server itself behind its log (a fault injector's abort, a crash); both sides logged HTTP 200 STREAM_INCOMPLETE");
      expect(again, view).toMatchObject({ outcome: 'TOOL_SUCCESS', call: cut!.call, attempt: 2, retryOrigin: { origin: 'unknown' } });
      expect(codes(again!), view).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
    }
  });
});

describe('what the third round recorded, read as the callers saw it', () => {
  it('prompts/get, resources/read and completion/complete: each error the caller got is a JSONRPC_ERROR with its code, in order (1.x and v2)', () => {
    for (const scenario of ['prompts-resources-completion', 'v2-prompts-resources-completion']) {
      const observedCodes = steps(scenario).filter((s) => !s.ok).map((s) => s.error!.code);
      const r = run(scenario);
      const failed = r.attempts.filter((a) => a.outcome !== 'SUCCESS');
      expect(failed.map((a) => a.outcome), scenario).toEqual(observedCodes.map(() => 'JSONRPC_ERROR'));
      expect(failed.map((a) => a.detail?.errorCode), scenario).toEqual(observedCodes);
      expect(allCodes(r), scenario).toEqual([]);
    }
  });

  it('the Python server on prompts/get, resources/read and completion/complete: the codes its client saw, on 2025-11-25 (code 0 for an unknown prompt) and 2026-07-28 (-32603 masked, an unknown resource in HTTP 400)', () => {
    for (const scenario of ['py-client-other-methods-legacy', 'py-client-other-methods-auto']) {
      const observedCodes = steps(scenario).filter((s) => !s.ok).map((s) => s.error!.code);
      const failed = run(scenario).attempts.filter((a) => a.outcome !== 'SUCCESS');
      expect(failed.map((a) => a.detail?.errorCode), scenario).toEqual(observedCodes);
      expect(failed.map((a) => `${a.method} ${a.status} ${a.outcome}`), scenario).toEqual([
        'prompts/get 200 JSONRPC_ERROR', 'prompts/get 200 JSONRPC_ERROR',
        scenario.endsWith('auto') ? 'resources/read 400 HTTP_ERROR' : 'resources/read 200 JSONRPC_ERROR',
        'resources/read 200 JSONRPC_ERROR', 'completion/complete 200 JSONRPC_ERROR',
      ]);
      expect(allCodes(run(scenario)), scenario).toEqual([]);
    }
    expect(step('py-client-other-methods-legacy', /unknown prompt/).error).toMatchObject({ code: 0, message: 'Unknown prompt: no_such_prompt' });
  });

  it('the Python client\'s task cancelled mid-call: on 2025-11-25 notifications/cancelled and the server\'s -32800, on 2026-07-28 the closed stream', () => {
    for (const scenario of ['py-client-cancel-in-flight-legacy', 'py-client-cancel-in-flight-auto']) expect(step(scenario, /cancelled at/).error, scenario).toMatchObject({ name: 'CancelledError' });
    const [legacy] = calls(run('py-client-cancel-in-flight-legacy'));
    expect(legacy).toMatchObject({ tool: 'slow_report', outcome: 'JSONRPC_ERROR', detail: { errorCode: -32800 } });
    expect(legacy!.findings.map((f) => f.code)).toEqual(['CANCELLED']);
    expect(legacy!.findings[0]!.message).toMatch(/the server then answered it with -32800 \(Request cancelled\) \d+\.\d\d s after that: it stopped the request without a result, but what the tool had done by then \(or shields from cancellation, as a commit\) is done$/);
    const [auto] = calls(run('py-client-cancel-in-flight-auto'));
    expect(auto).toMatchObject({ tool: 'slow_report', outcome: 'STREAM_INCOMPLETE' });
    expect(codes(auto!)).toEqual(['CANCELLED']);
  });

  it('other methods than tools/call failing at the HTTP and stream layers: outcome per layer, the noted re-read linked, no tool findings', () => {
    const s = steps('non-tool-http-faults');
    expect(s.map((x) => x.ok)).toEqual([false, false, false, false, true]);
    const r = run('non-tool-http-faults');
    const rows = r.attempts.slice(1).map((a) => `${a.method} ${a.status} ${a.outcome} ${a.call}#${a.attempt} [${codes(a).join(',')}]`);
    const read = r.attempts[1]!.call;
    expect(rows).toEqual([
      `resources/read 503 HTTP_ERROR ${read}#1 []`,
      `resources/read 200 STREAM_INCOMPLETE ${read}#2 [NO_FINAL_RESULT,SIDE_DIVERGENCE,CANCELLED]`,
      expect.stringMatching(/^prompts\/get null NO_RESPONSE c\d+#1 \[\]$/),
      expect.stringMatching(/^completion\/complete 502 HTTP_ERROR c\d+#1 \[\]$/),
      expect.stringMatching(/^resources\/read 200 SUCCESS c\d+#1 \[\]$/),
    ]);
    expect(r.attempts[2]!.retryOrigin).toEqual(expect.objectContaining({ origin: 'app' }));
    expect(r.attempts[4]!.detail?.why).toBe('the body says: 502 Bad Gateway');
  });


  it('the server SIGKILLed mid-stream: the cut call is STREAM_INCOMPLETE, cancelled at the client\'s timeout, and the new Client\'s re-send is its retry', () => {
    expect(step('server-killed-mid-stream', /SIGKILL/).error).toMatchObject({ code: -32001 });
    const [cut, again] = calls(run('server-killed-mid-stream')).filter((a) => a.tool === 'slow_report');
    expect(cut).toMatchObject({ outcome: 'STREAM_INCOMPLETE', detail: { why: 'SSE stream ended (error) after 3 events without the response' } });
    expect(codes(cut!)).toEqual(['NO_FINAL_RESULT', 'CANCELLED']);
    expect(again).toMatchObject({ outcome: 'TOOL_SUCCESS', call: cut!.call, attempt: 2, retryOrigin: { origin: 'unknown' } });
    // no tools/list in the log, so slow_report's read-only annotation is unknown; the killed server had run it
    expect(again!.findings.map((f) => `${f.code} ${f.severity}`)).toEqual(['RETRY_ORIGIN_AMBIGUOUS warning', 'UNSAFE_RETRY error']);
  });

  it('after its DELETE was refused with 405 the 1.x client posts without a session id and gets 400', () => {
    expect(step('get-delete-405', /after the refused DELETE/).error).toMatchObject({ code: 400 });
    const [, after] = calls(run('get-delete-405'));
    expect(after).toMatchObject({ status: 400, outcome: 'HTTP_ERROR', detail: { errorMessage: 'Bad Request: No valid session ID provided' } });
  });

  it('results of 3 and 12 MiB (gzipped logs) are read whole', () => {
    const r = run('big-result');
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(['big_result TOOL_SUCCESS', 'big_result TOOL_SUCCESS', 'lookup_order TOOL_SUCCESS']);
    expect(steps('big-result').map((s) => s.summary?.content?.[0]?.len)).toEqual([3 * 1024 * 1025, 12 * 1024 * 1025, 19]);
  });

  it('escape sequences, bidi controls and emoji in results and tool names never reach the terminal raw', () => {
    const dir = `${DIR}unicode-control-results/`;
    const p = spawnSync(process.execPath, [BIN, '--client', `${dir}client.ndjson`, '--server', `${dir}server.ndjson`], { encoding: 'utf8' });
    expect(p.status).toBe(0);
    expect(p.stdout).toContain('disk full');
    expect(p.stdout).not.toMatch(/[\u001b\u0007\u202e\u202c\u2028\u2029]/);
    const r = calls(run('unicode-control-results'));
    expect(r.map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_ERROR', 'TOOL_ERROR']);
    expect(r[2]!.tool).toBe('no_such_tool_\u001b[31m\u{1F525}');
  });
});
