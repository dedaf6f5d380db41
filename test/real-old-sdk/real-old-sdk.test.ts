// Real traffic of older TypeScript SDKs (1.10.2, 1.13.3, 1.17.5, 1.24.3) with 1.32.2 and each other
// (test/fixtures/real-old-sdk), and what mcp-triage says of it, checked against what each caller really got
// (observed.json). The recordings are committed; re-recording needs the old SDKs (see test/real-old-sdk/record.mjs).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordedPairs, triageCli, type CliRun } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-old-sdk/', import.meta.url));
const REAL = fileURLToPath(new URL('../fixtures/real/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string;
  call: string; attempt: number; retryOrigin?: { origin: string; how: string }; findings: Finding[]; notSeenByServer?: boolean; resumed?: boolean;
  serverOutcome?: string; protocolVersion?: string; initialize?: { requestedVersion?: string };
  sse?: { events: number; progress: number }; detail?: { why?: string; errorCode?: number; errorMessage?: string };
}
interface SessionFinding { type: 'finding'; session: string | null; code: string; message: string }
type Run = CliRun<Attempt, SessionFinding>;
interface Step { step: string; ok: boolean; result?: { text?: string; isError?: boolean }; error?: { name: string; message: string; code?: number } }
interface Observed { client: string; server: string; protocolVersion: string | null; steps: Step[]; onerror: string[] }

const triage = (args: string[]): Run => triageCli<Attempt, SessionFinding>(args);
const both = recordedPairs<Attempt, SessionFinding>(DIR);
const clientOnly = (s: string) => triage(['--client', `${DIR}${s}/client.ndjson`]);
const serverOnly = (s: string) => triage(['--server', `${DIR}${s}/server.ndjson`]);
const expired = (r: Run) => r.findings.filter((f) => f.code === 'SESSION_EXPIRED');
const OBSERVED = JSON.parse(readFileSync(`${DIR}observed.json`, 'utf8')) as Record<string, Observed>;
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/client.ndjson`));
const records = (s: string, side: 'client' | 'server') =>
  readFileSync(`${DIR}${s}/${side}.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

/** The outcome a tools/call step of observed.json implies: what the SDK caller really got. */
function outcomeOf(step: Step): string {
  if (step.ok) return step.result?.text === undefined ? 'other' : step.result.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS'; // tools/list, DELETE, connect: no tool result
  if (step.error?.name === 'McpError' && step.error.code !== undefined && step.error.code !== -32001) return 'JSONRPC_ERROR';
  const http = /HTTP (\d{3})/.exec(step.error?.message ?? '')?.[1] ?? (step.error?.name === 'StreamableHTTPError' ? String(step.error.code) : undefined);
  return http !== undefined ? `HTTP_ERROR ${http}` : 'other';
}

describe('every older-SDK recording', () => {
  it('covers the scenarios the README lists, each with what its caller saw', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(20);
    for (const s of scenarios) expect(OBSERVED[s], s).toBeDefined();
  });

  it.each(scenarios)('%s: read whole (client and server view), analyzed without error', (scenario) => {
    const r = both(scenario);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
    expect(r.attempts.length).toBeGreaterThan(0);
  });

  it.each(scenarios)('%s: every tools/call the caller finished has the outcome the caller got', (scenario) => {
    const steps = OBSERVED[scenario]!.steps.filter((s) => outcomeOf(s) !== 'other');
    const got = calls(both(scenario))
      .filter((a) => a.outcome !== 'STREAM_INCOMPLETE' && a.outcome !== 'NO_RESPONSE')
      .map((a) => (a.outcome === 'HTTP_ERROR' ? `HTTP_ERROR ${a.status}` : a.outcome));
    expect(got).toEqual(steps.map(outcomeOf));
  });
});

describe('what the older SDKs put on the wire', () => {
  it('1.10.2 asks for 2024-11-05 over Streamable HTTP and sends no MCP-Protocol-Version header; 1.32.2 accepts it', () => {
    const posts = records('c110-baseline', 'client').filter((r) => r.kind === 'request' && r.method === 'POST');
    expect(posts.length).toBeGreaterThan(3);
    for (const p of posts) expect(Object.keys(p.requestHeaders as object)).not.toContain('mcp-protocol-version');
    const init = both('c110-baseline').attempts.find((a) => a.method === 'initialize')!;
    expect(init).toMatchObject({ outcome: 'SUCCESS', protocolVersion: '2024-11-05', initialize: { requestedVersion: '2024-11-05' } });
  });

  it('a 1.10.2 server answers the 1.32.2 client with 2024-11-05, and the client then sends that version in its header', () => {
    const r = both('s110-baseline');
    expect(r.attempts.find((a) => a.method === 'initialize')).toMatchObject({ protocolVersion: '2024-11-05', initialize: { requestedVersion: '2025-11-25' } });
    const later = records('s110-baseline', 'client').filter((x) => x.kind === 'request' && (x.send as { method?: string } | undefined)?.method === 'tools/call');
    for (const x of later) expect((x.requestHeaders as Record<string, string>)['mcp-protocol-version']).toBe('2024-11-05');
    expect(OBSERVED['s110-baseline']!.protocolVersion).toBe('2024-11-05');
  });

  it('the example servers of 1.10 to 1.24 answer an unknown session with 400, not 404 (POST: -32000 JSON; GET: plain text)', () => {
    const post = records('c117-s117-restart-400', 'server').find((x) => x.kind === 'response' && x.status === 400);
    expect(post).toBeDefined();
    expect(OBSERVED['c117-s117-restart-400']!.steps[1]!.error!.message).toContain('HTTP 400');
    expect(OBSERVED['c117-s117-restart-400']!.steps[1]!.error!.message).toContain('No valid session ID provided');
    const getEnds = records('c117-s117-restart-idle', 'server').filter((x) => x.kind === 'end' && x.recvText === 'Invalid or missing session ID');
    expect(getEnds.length).toBe(2); // 1.17 reconnects the standalone GET twice (no Last-Event-ID), then gives up
    expect(OBSERVED['c117-s117-restart-idle']!.onerror).toContain('Maximum reconnection attempts (2) exceeded.');
  });
});

describe('SESSION_EXPIRED on the older example servers\' 400 for an unknown session', () => {
  it.each([
    ['c110-s110-restart-400', 'Bad Request: No valid session ID provided'],
    ['s110-restart-400', 'Bad Request: No valid session ID provided'],
    ['c117-s117-restart-400', 'Bad Request: No valid session ID provided'],
    // one transport for the whole process: the SDK transport's own check after the restart
    ['c113-s113-single-transport-restart', 'Bad Request: Server not initialized'],
  ])('%s: the call that got 400 "%s" is the expired session, raised once', (scenario, said) => {
    const r = both(scenario);
    const failed = calls(r).find((a) => a.status === 400)!;
    expect(failed).toMatchObject({ outcome: 'HTTP_ERROR', detail: { errorCode: -32000, errorMessage: said } });
    expect(OBSERVED[scenario]!.steps[1]!.error!.message).toContain(said);
    const f = expired(r);
    expect(f).toHaveLength(1);
    expect(f[0]!.session).toBe(failed.session);
    expect(f[0]!.message).toContain('HTTP 400 to tools/call');
    expect(f[0]!.message).toContain(JSON.stringify(said));
    expect(f[0]!.message).toContain('answered 400 where the spec asks 404');
    // The app built a new Client and called again: linked as a retry in a new session (nothing says who sent it,
    // unless the app noted it, as in s110-restart-400).
    const retry = calls(r).find((a) => a.call === failed.call && a.attempt === 2)!;
    expect(retry.outcome).toBe('TOOL_SUCCESS');
    expect(retry.session).not.toBe(failed.session);
    expect(retry.retryOrigin?.origin).toBe(scenario === 's110-restart-400' ? 'app' : 'unknown');
    expect(f[0]!.message).toContain('the client re-initialized and retried the call');
  });

  it('the 1.32.2 server\'s 404 still reads as before (no "400" in the message)', () => {
    const f = expired(both('c110-restart-404'));
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toMatch(/^session \S+: HTTP 404 to tools\/call send_invoice id 2 that carried the session id; the client re-initialized/);
    // 1.24.3 first reconnects its standalone GET (404 twice, then gives up), then the call gets 404: one finding, on the call
    const getsAfter = records('c124-restart-404', 'client').filter((x) => x.kind === 'response' && x.status === 404);
    expect(getsAfter).toHaveLength(3);
    expect(OBSERVED['c124-restart-404']!.onerror).toContain('Maximum reconnection attempts (2) exceeded.');
    const g = expired(both('c124-restart-404'));
    expect(g).toHaveLength(1);
    expect(g[0]!.message).toMatch(/: HTTP 404 to tools\/call lookup_order id 2 that carried the session id; the client re-initialized and retried the call$/);
  });

  it('only the GETs met the unknown session: the server log has their body, so the finding comes from it, once', () => {
    for (const r of [both('c117-s117-restart-idle'), serverOnly('c117-s117-restart-idle')]) {
      const f = expired(r);
      expect(f).toHaveLength(1);
      expect(f[0]!.message).toContain('HTTP 400 to the GET stream, which carried the session id, saying "Invalid or missing session ID"');
      expect(f[0]!.message).toContain('the client did not re-initialize');
    }
    // The 1.17 client never reads the body of a refused GET (recordingFetch has no end for it): a bare 400 says nothing.
    expect(records('c117-s117-restart-idle', 'client').filter((x) => x.kind === 'end' && x.recvText !== undefined)).toHaveLength(0);
    expect(expired(clientOnly('c117-s117-restart-idle'))).toHaveLength(0);
  });

  it('a cancellation (notifications/cancelled) refused with the 400 JSON body names the session expired in the client\'s log alone', () => {
    const f = expired(clientOnly('c117-s117-cut-then-restart'));
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toContain('HTTP 400 to its notifications/cancelled, a POST with no request in it, which carried the session id, saying "Bad Request: No valid session ID provided"');
    expect(expired(both('c117-s117-cut-then-restart'))).toHaveLength(1);
  });

  it('resumption GETs refused with 400 (1.13): named in the call\'s why, and the session is expired', () => {
    const r = both('c113-s113-cut-then-restart');
    const [call] = calls(r);
    expect(call).toMatchObject({ outcome: 'STREAM_INCOMPLETE' });
    expect(codes(call!)).toEqual(['NO_FINAL_RESULT', 'CANCELLED']);
    expect(call!.detail!.why).toContain('the client tried to resume it 2 times (GET with Last-Event-ID), answered HTTP 400, HTTP 400, and none delivered it');
    const f = expired(r);
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toContain('"Invalid or missing session ID"');
  });

  it('must not: the v2 client\'s server/discover probe got the same 400 body, but it carried no session id (nor did mcp-remote\'s probes)', () => {
    for (const s of ['remote-basic', 'remote-sse-cut']) {
      const dir = fileURLToPath(new URL(`../fixtures/real-bridges/${s}/`, import.meta.url));
      expect(readFileSync(`${dir}client.ndjson`, 'utf8')).toContain('No valid session ID provided');
      expect(expired(triage(['--client', `${dir}client.ndjson`, '--server', `${dir}server.ndjson`]))).toEqual([]);
    }
    for (const s of ['v2auto-s110', 'v2auto-s117']) {
      const r = both(s);
      const probe = r.attempts.find((a) => a.method === 'server/discover')!;
      expect(probe).toMatchObject({ status: 400, outcome: 'HTTP_ERROR', session: null, detail: { errorMessage: 'Bad Request: No valid session ID provided' } });
      expect(r.findings).toEqual([]);
      // then initialize on the server's own version, and the call works
      expect(r.attempts.find((a) => a.method === 'initialize')!.protocolVersion).toBe(OBSERVED[s]!.protocolVersion);
      expect(calls(r).map((a) => a.outcome)).toEqual(['TOOL_SUCCESS']);
    }
  });

  it('must not: a 400 under a session id that is not about the session (unsupported protocol version) is no expiry', async () => {
    const { analyzeInputs, at } = await import('../helpers/analyze.js');
    const S = 'sess-1';
    const rec = (kind: string, t: number, xid: string, extra: Record<string, unknown>) => ({ v: 1, kind, ts: at(t), side: 'client', session: S, xid, ...extra });
    const refusal = (message: string) => [
      rec('request', 0, 'x-1', { method: 'POST', requestHeaders: { 'mcp-session-id': S }, send: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'lookup_order', arguments: {} } } }),
      rec('response', 5, 'x-1', { status: 400, responseHeaders: { 'content-type': 'application/json' } }),
      rec('end', 6, 'x-1', { end: 'complete', recvText: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }) }),
    ];
    const notAboutSession = await analyzeInputs([{ side: 'client', lines: refusal('Bad Request: Unsupported protocol version (supported versions: 2025-06-18, 2025-03-26)') }]);
    expect(notAboutSession.findings.filter((f) => f.code === 'SESSION_EXPIRED')).toEqual([]);
    const headerRequired = await analyzeInputs([{ side: 'client', lines: refusal('Bad Request: Mcp-Session-Id header is required') }]);
    expect(headerRequired.findings.filter((f) => f.code === 'SESSION_EXPIRED')).toEqual([]);
    const unknown = await analyzeInputs([{ side: 'client', lines: refusal('Bad Request: No valid session ID provided') }]);
    expect(unknown.findings.filter((f) => f.code === 'SESSION_EXPIRED')).toHaveLength(1);
    const notInitialized = await analyzeInputs([{ side: 'client', lines: refusal('Bad Request: Server not initialized') }]);
    expect(notInitialized.findings.filter((f) => f.code === 'SESSION_EXPIRED')).toHaveLength(1);
  });
});

describe('cut streams: who resumes, by version', () => {
  it.each([
    ['c110-sse-cut-resumed', 'a 1.10.2 client resumes a broken POST stream whose events had ids (GET + Last-Event-ID after 1 s)'],
    ['s110-sse-cut-resumed', 'the 1.32.2 client resumes from a 1.10.2 server\'s event ids (no priming event there)'],
    ['c124-sse-cut-resumed', 'a 1.24.3 client resumes after the 1.32.2 server\'s priming event'],
    ['c124-s124-close-sse-resumed', 'a 1.24.3 server closes the call\'s stream (closeSSEStream) and the 1.24.3 client resumes'],
  ])('%s: %s: one successful, resumed attempt', (scenario) => {
    const r = both(scenario);
    expect(OBSERVED[scenario]!.steps.every((s) => s.ok)).toBe(true);
    const c = calls(r);
    expect(c).toHaveLength(1);
    expect(c[0]).toMatchObject({ outcome: 'TOOL_SUCCESS', resumed: true, attempt: 1 });
    expect(c[0]!.findings).toEqual([]);
    const gets = records(scenario, 'client').filter((x) => x.kind === 'request' && x.method === 'GET' && (x.requestHeaders as Record<string, string>)['last-event-id']);
    expect(gets).toHaveLength(1);
  });

  it('a 1.17.5 client never resumes a POST stream even though its events had ids: the why says no GET asked for the rest', () => {
    const r = both('c117-sse-cut-not-resumed');
    expect(records('c117-sse-cut-not-resumed', 'client').filter((x) => x.kind === 'request' && x.method === 'GET' && (x.requestHeaders as Record<string, string>)['last-event-id'])).toHaveLength(0);
    expect(OBSERVED['c117-sse-cut-not-resumed']!.steps[0]!.error).toMatchObject({ name: 'McpError', code: -32001 });
    const [call] = calls(r);
    expect(call).toMatchObject({ outcome: 'STREAM_INCOMPLETE' });
    expect(codes(call!)).toEqual(['NO_FINAL_RESULT', 'CANCELLED']);
    expect(call!.detail!.why).toBe('SSE stream ended (error) after 1 event without the response; its events carried ids, yet no GET with the last of them (Last-Event-ID) asked for the rest');
  });

  it('must not: without an event store (no ids) the why makes no claim about resumption', () => {
    const [call] = calls(both('c113-s110-sse-cut-no-store'));
    expect(call).toMatchObject({ outcome: 'STREAM_INCOMPLETE' });
    expect(codes(call!)).toEqual(['NO_FINAL_RESULT', 'CANCELLED']);
    expect(call!.detail!.why).toBe('SSE stream ended (error) after 1 event without the response');
  });
});

describe('timeouts, parallel calls, hop errors, stateless', () => {
  it('a 1.17.5 server sends its SSE head only with the first event: a call the client cancelled first is NO_RESPONSE, and the why says the client cancelled it', () => {
    const r = both('c117-s117-parallel-timeout');
    const slow = calls(r).find((a) => a.tool === 'slow_report')!;
    expect(OBSERVED['c117-s117-parallel-timeout']!.steps[2]!.error).toMatchObject({ code: -32001 });
    expect(slow).toMatchObject({ outcome: 'NO_RESPONSE', status: null, serverOutcome: 'NO_RESPONSE' });
    expect(slow.detail!.why).toMatch(/^the client cancelled it \(notifications\/cancelled\) 0\.[23]\d s after sending it, before any response head came; the request then ended: This operation was aborted$/);
    expect(codes(slow)).toEqual(['CANCELLED']);
    const srv = records('c117-s117-parallel-timeout', 'server').filter((x) => x.kind === 'end' && String(x.error ?? '').includes('a 200 head was set but never sent'));
    expect(srv).toHaveLength(1);
    // the two identical calls sent at once are two calls, not a retry
    const invoices = calls(r).filter((a) => a.tool === 'send_invoice');
    expect(invoices.map((a) => [a.outcome, a.attempt])).toEqual([['TOOL_SUCCESS', 1], ['TOOL_SUCCESS', 1]]);
    expect(new Set(invoices.map((a) => a.call)).size).toBe(2);
  });

  it('must not: a NO_RESPONSE with no cancellation keeps the transport\'s own why (socket-destroyed, SDK 1.32.2)', () => {
    const r = triage(['--client', `${REAL}socket-destroyed.client.ndjson`, '--server', `${REAL}socket-destroyed.server.ndjson`]);
    const call = calls(r).find((a) => a.outcome === 'NO_RESPONSE')!;
    expect(call.detail!.why).not.toContain('cancelled');
  });

  it('503 then 429 from a hop to a 1.13.3 client: not seen by the server, one call of three attempts, Retry-After honoured', () => {
    const r = both('c113-503-429-app-retry');
    const c = calls(r);
    expect(c.map((a) => [a.status, a.outcome, a.attempt, a.notSeenByServer ?? false])).toEqual([
      [503, 'HTTP_ERROR', 1, true],
      [429, 'HTTP_ERROR', 2, true],
      [200, 'TOOL_SUCCESS', 3, false],
    ]);
    expect(new Set(c.map((a) => a.call)).size).toBe(1);
    expect(c.flatMap(codes)).not.toContain('RETRY_AFTER_IGNORED');
    expect(c.flatMap(codes)).not.toContain('UNSAFE_RETRY');
  });

  it('two 1.10.2 clients behind one recording proxy on a stateless server send id 1 at once: no ID_REUSED (two id spaces)', () => {
    const log = records('c110-s110-stateless', 'client');
    // what the recording holds: no session, no conn and no client key, two initializes, two id-1 POSTs that overlap
    expect(log.every((x) => x.session === null && x.conn === undefined && x.client === undefined)).toBe(true);
    const sent = log.filter((x) => x.kind === 'request' && x.method === 'POST').map((x) => ({ xid: x.xid as string, ts: Date.parse(x.ts as string), msg: x.send as { id?: number; method: string } }));
    expect(sent.filter((x) => x.msg.method === 'initialize')).toHaveLength(2);
    const ones = sent.filter((x) => x.msg.method === 'tools/call' && x.msg.id === 1);
    expect(ones).toHaveLength(2);
    const firstEnd = Date.parse(log.find((x) => x.kind === 'end' && x.xid === ones[0]!.xid)!.ts as string);
    expect(ones[1]!.ts).toBeLessThan(firstEnd);
    const r = both('c110-s110-stateless');
    expect(calls(r).map((a) => [a.id, a.outcome, a.serverOutcome])).toEqual([[1, 'TOOL_SUCCESS', 'TOOL_SUCCESS'], [1, 'TOOL_SUCCESS', 'TOOL_SUCCESS'], [2, 'TOOL_ERROR', 'TOOL_ERROR']]);
    expect(r.attempts.flatMap(codes)).toEqual([]);
    expect(OBSERVED['c110-s110-stateless']!.steps.every((x) => x.ok)).toBe(true);
  });

  it('the first audit\'s two stateless clients with separate recorders and no conn (stateless-json-separate-recorders): no ID_REUSED either', () => {
    const dir = fileURLToPath(new URL('../fixtures/real-audit/stateless-json-separate-recorders/', import.meta.url));
    const r = triage(['--client', `${dir}client.ndjson`, '--server', `${dir}server.ndjson`]);
    expect(calls(r).map((a) => a.id)).toEqual([1, 1, 2]);
    expect(r.attempts.flatMap(codes)).toEqual([]);
  });

  it('must not: one client (one initialize) without sessions that reuses an id while it is open is still ID_REUSED', async () => {
    const { analyzeInputs, post } = await import('../helpers/analyze.js');
    const init = post({ t: 0, id: 0, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'one', version: '1' } }, status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-03-26', capabilities: {}, serverInfo: { name: 's', version: '1' } } }) });
    const good = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    const r = await analyzeInputs([{ side: 'client', lines: [init, post({ t: 100, id: 1, status: 200, body: good, durationMs: 400, args: { q: 'a' } }), post({ t: 200, id: 1, status: 200, body: good, args: { q: 'b' } })] }]);
    expect(r.attempts.flatMap((a) => a.findings.map((f) => f.code))).toContain('ID_REUSED');
  });

  it('two 1.24.3 clients on a stateless 1.17.5 JSON server: every attempt joined to its server view, nothing flagged', () => {
    const r = both('c124-s117-stateless-json');
    expect(r.attempts).toHaveLength(5);
    for (const a of r.attempts) expect(a.serverOutcome).toBe(a.outcome);
    expect(r.attempts.flatMap(codes)).toEqual([]);
    expect(r.findings).toEqual([]);
  });
});
