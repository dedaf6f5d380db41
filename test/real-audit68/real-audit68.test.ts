// Audit 68's real captures (test/fixtures/real-audit68): logs written by a developer's own loggers without mcp-triage's README (a fetch wrapper's line per exchange or per direction, Express middlewares that log the request body and status, a route handler's line), judged against what the SDK 1.32.2 client app saw (observed.json).
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit68/';
const RUNS = readdirSync(DIR).filter((d) => !d.includes('.'));

type Row = { session: string | null; id: unknown; method: string; tool: string | null; status: number | null; outcome: string; call?: string; attempt?: number; durationMs?: number; findings: { code: string; message: string }[]; detail?: { why?: string; errorMessage?: string } };
type Step = { label?: string; ok?: { isError: boolean; text: string } | null; error?: { name: string; message: string; code?: number } };
type Input = { name: string; formats: Record<string, number>; lines: number; used: number; skipped: number; unusable: number };

const steps = (run: string): Step[] => (JSON.parse(readFileSync(`${DIR}${run}/observed.json`, 'utf8')) as Step[]).filter((s) => s.label !== undefined && !s.label.startsWith('connect'));

async function run(files: string[], sides: { client?: string; server?: string } = {}) {
  const inputs = [
    ...files.map((p) => ({ path: `${DIR}${p}` })),
    ...(sides.client ? [{ path: `${DIR}${sides.client}`, side: 'client' as const }] : []),
    ...(sides.server ? [{ path: `${DIR}${sides.server}`, side: 'server' as const }] : []),
  ];
  const r = await analyze({ inputs });
  const summary = r.summary as unknown as { notes: string[]; inputs: (Input & { limits?: { notes?: string[] } })[]; findings: { byCode: Record<string, number> } };
  const rows = r.attempts as unknown as Row[];
  const findings = r.findings as unknown as { code: string; message: string }[];
  return { rows, calls: rows.filter((x) => x.method === 'tools/call'), inputs: summary.inputs, byCode: summary.findings.byCode, findings, text: JSON.stringify(r.summary) };
}

/** What the app saw, as the outcome of the attempt that carried it. */
function outcomeOf(s: Step): string {
  if (s.ok) return s.ok.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
  if (s.error?.name === 'StreamableHTTPError') return 'HTTP_ERROR';
  if (s.error?.name === 'McpError' && /timed out/.test(s.error.message)) return 'STREAM_INCOMPLETE';
  if (s.error?.name === 'TypeError' && s.error.message === 'fetch failed') return 'NO_RESPONSE';
  throw new Error(`unexpected step ${JSON.stringify(s)}`);
}

describe('real-audit68: a fetch wrapper that logs one line per exchange (fetch-line.ndjson), read alone', () => {
  it.each(RUNS)('%s: each tools/call reads as what the app got, in its session, with the time it took; no line is unusable', async (name) => {
    const { calls, inputs } = await run([`${name}/fetch-line.ndjson`]);
    expect(inputs[0]!.formats).toHaveProperty('http-line');
    expect(inputs[0]!.unusable).toBe(0);
    const want = steps(name);
    expect(calls.map((c) => c.outcome)).toEqual(want.map(outcomeOf));
    for (const [i, s] of want.entries()) {
      const c = calls[i]!;
      // the session id, from the requestHeaders object
      expect(c.session).toMatch(/^[0-9a-f-]{36}$/);
      if (s.error?.name === 'StreamableHTTPError') expect(c.status).toBe(s.error.code);
      if (s.ok) expect(c.status).toBe(200);
      if (s.error?.name === 'TypeError') expect([c.status, c.detail?.why]).toEqual([null, 'other side closed']);
      expect(c.durationMs).toBeGreaterThan(0);
    }
  });

  it('a 404 whose error body has id null, on the line of the request it refused, is that request\'s answer: SESSION_EXPIRED, then the re-initialize and the retry', async () => {
    const { calls, findings } = await run(['session-lost/fetch-line.ndjson']);
    expect(calls[1]!.detail?.errorMessage).toBe('Session not found');
    const expired = findings.find((f) => f.code === 'SESSION_EXPIRED');
    expect(expired?.message).toMatch(/the client re-initialized and retried/);
  });

  it('the hop\'s 503 (text/plain) is the call\'s HTTP_ERROR with what its body says, and the app\'s call after it its retry', async () => {
    const { calls } = await run(['hop-503/fetch-line.ndjson']);
    expect(calls[0]!.detail?.why).toMatch(/upstream unavailable/);
    expect([calls[0]!.call, calls[1]!.call, calls[1]!.attempt]).toEqual([calls[1]!.call, calls[0]!.call, 2]);
  });

  it('a failed fetch\'s line (an error, no status, no timestamp key the MCP Inspector writes) is not taken for an Inspector export', async () => {
    for (const name of RUNS) {
      const { inputs } = await run([`${name}/fetch-line.ndjson`]);
      expect(Object.keys(inputs[0]!.formats)).not.toContain('inspector-network');
    }
  });
});

describe('real-audit68: a fetch wrapper that logs a request line and a response line (fetch-pair.ndjson)', () => {
  it.each(RUNS)('%s: the GET stream, the DELETE and the 202s are lines without MCP traffic (skipped), never unusable; answered calls read as the app saw them', async (name) => {
    const { calls, inputs } = await run([`${name}/fetch-pair.ndjson`]);
    expect(inputs[0]!.unusable).toBe(0);
    expect(inputs[0]!.skipped).toBeGreaterThan(0);
    const want = steps(name);
    expect(calls).toHaveLength(want.length);
    for (const [i, s] of want.entries()) {
      if (s.ok) expect(calls[i]!.outcome).toBe(outcomeOf(s));
    }
  });

  it('a refusal or a failed fetch on a line of its own is tied to no request (a GET stream\'s looks the same): the request reads UNANSWERED and a note says why', async () => {
    for (const name of ['session-lost', 'hop-503', 'session-lost-two-calls', 'fetch-failed']) {
      const { calls, inputs } = await run([`${name}/fetch-pair.ndjson`]);
      const refused = steps(name).map((s, i) => (s.error?.name === 'StreamableHTTPError' || s.error?.name === 'TypeError' ? calls[i]! : undefined)).filter((c) => c !== undefined);
      expect(refused.length).toBeGreaterThan(0);
      for (const c of refused) expect([c.outcome, c.status]).toEqual(['UNANSWERED', null]);
      expect(JSON.stringify(inputs[0])).toMatch(/tied to none/);
    }
  });

  it('near miss: with no refusal in the log, no such note', async () => {
    const { inputs } = await run(['tool-ok/fetch-pair.ndjson']);
    expect(JSON.stringify(inputs[0])).not.toMatch(/tied to none/);
  });
});

describe('real-audit68: server middlewares that log the request body and the status, not the response body', () => {
  for (const file of ['server-status.ndjson', 'server-pino.ndjson']) {
    it.each(RUNS)(`%s/${file}: read as exchanges (http-line) whose 2xx answer is not observable: no STREAM_INCOMPLETE, no NO_FINAL_RESULT, no CALL_NEVER_SENT`, async (name) => {
      const { rows, byCode, inputs } = await run([`${name}/${file}`]);
      expect(inputs[0]!.formats).toHaveProperty('http-line');
      expect(inputs[0]!.unusable).toBe(0);
      expect(byCode.NO_FINAL_RESULT ?? 0).toBe(0);
      expect(byCode.CALL_NEVER_SENT ?? 0).toBe(0);
      for (const r of rows.filter((x) => x.status === 200)) {
        expect(r.outcome).toBe('UNANSWERED');
        expect(r.detail?.why).toMatch(/not observable/);
      }
      // the initialize's session comes from the response's header (res.headers, or the middleware's own field)
      for (const r of rows.filter((x) => x.method === 'initialize')) expect(r.session).toMatch(/^[0-9a-f-]{36}$/);
    });
  }

  it('a lost session\'s 404 is the call\'s HTTP_ERROR, and the new session\'s initialize, whose answer the log does not hold, worked: "re-initialized"', async () => {
    for (const file of ['server-status.ndjson', 'server-pino.ndjson']) {
      const { calls, findings } = await run([`session-lost/${file}`]);
      expect(calls.map((c) => c.status)).toEqual([200, 404, 200]);
      expect(calls[1]!.outcome).toBe('HTTP_ERROR');
      expect(findings.find((f) => f.code === 'SESSION_EXPIRED')?.message).toMatch(/the client re-initialized and retried/);
    }
  });

  it('joined with the client\'s line per exchange, each call has the client\'s outcome and no SIDE_DIVERGENCE', async () => {
    for (const name of RUNS) {
      const { calls, byCode } = await run([], { client: `${name}/fetch-line.ndjson`, server: `${name}/server-status.ndjson` });
      expect(calls.map((c) => c.outcome)).toEqual(steps(name).map(outcomeOf));
      expect(byCode.SIDE_DIVERGENCE ?? 0).toBe(0);
    }
  });
});

describe('real-audit68: a route handler\'s own line with the request and res.statusCode (server-handled.ndjson, app-log)', () => {
  it.each(RUNS)('%s: a request with the 2xx status of its answer and no answer reads as answered, what it said not observable, not as a 200 whose stream ended empty', async (name) => {
    const { rows, byCode, inputs } = await run([`${name}/server-handled.ndjson`]);
    expect(inputs[0]!.formats).toHaveProperty('app-log');
    expect(byCode.NO_FINAL_RESULT ?? 0).toBe(0);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.outcome).toBe('UNANSWERED');
      expect(r.detail?.why).toMatch(/^HTTP 200: the app's log line has the request and the status of its answer, not the answer's body/);
    }
  });

  it('read alone, a like request after one its line shows answered with a 2xx is a call of its own, not that one\'s retry (the new session\'s initialize and call after a restart)', async () => {
    const { rows, byCode } = await run(['session-lost/server-handled.ndjson']);
    // two sessions, each an initialize and a lookup_order: four calls, each its first attempt
    expect(rows.map((r) => [r.method, r.attempt])).toEqual([['initialize', 1], ['tools/call', 1], ['initialize', 1], ['tools/call', 1]]);
    expect(new Set(rows.map((r) => r.call)).size).toBe(4);
    expect(byCode.UNSAFE_RETRY ?? 0).toBe(0);
    expect(byCode.RETRY_ORIGIN_AMBIGUOUS ?? 0).toBe(0);
  });

  it('near miss: the client\'s log of the same run still links the retry of the call its 404 failed, joined with this log or not', async () => {
    for (const sides of [{ client: 'session-lost/fetch-line.ndjson' }, { client: 'session-lost/fetch-line.ndjson', server: 'session-lost/server-handled.ndjson' }]) {
      const { calls } = await run([], sides);
      // lookup_order: went well; failed with 404 after the restart; retried on a new session (the same call)
      expect(calls.map((c) => c.outcome)).toEqual(['TOOL_SUCCESS', 'HTTP_ERROR', 'TOOL_SUCCESS']);
      expect(calls[2]!.call).toBe(calls[1]!.call);
      expect(calls[2]!.attempt).toBe(2);
    }
  });

  it('joined with the client\'s log, no SIDE_DIVERGENCE: the server\'s log shows the answer sent, not what it was', async () => {
    // (with the fetch wrapper's line per exchange too: its 200 beside the server's line of a 2xx answer not held)
    for (const [name, client] of RUNS.flatMap((n) => [[n, 'fetch-pair'], [n, 'fetch-line']])) {
      const { byCode, calls } = await run([], { client: `${name}/${client}.ndjson`, server: `${name}/server-handled.ndjson` });
      expect(byCode.SIDE_DIVERGENCE ?? 0).toBe(0);
      for (const [i, s] of steps(name).entries()) if (s.ok) expect(calls[i]!.outcome).toBe(outcomeOf(s));
    }
  });

  it('near miss: a client that got a hop\'s 502 where the server\'s line shows its 2xx answer sent still diverges', async () => {
    // The real lines of tool-ok, the client's line of the tools/call rewritten as a hop's 502 with a text body.
    const lines = readFileSync(`${DIR}tool-ok/fetch-line.ndjson`, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const at = lines.findIndex((l) => String(l.requestBody).includes('tools/call'));
    lines[at] = { ...lines[at], status: 502, responseHeaders: { 'content-type': 'text/plain' }, responseBody: 'Bad Gateway' };
    const dir = mkdtempSync(join(tmpdir(), 'audit68-'));
    writeFileSync(join(dir, 'client.ndjson'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await analyze({ inputs: [{ path: join(dir, 'client.ndjson'), side: 'client' }, { path: `${DIR}tool-ok/server-handled.ndjson`, side: 'server' }] });
    const calls = (r.attempts as unknown as Row[]).filter((x) => x.method === 'tools/call');
    expect(calls[0]!.status).toBe(502);
    expect(calls[0]!.findings.map((f) => f.code)).toContain('SIDE_DIVERGENCE');
  });
});
