// Real traffic of Mastra's MCP client (@mastra/mcp 2.0.0; test/fixtures/real-mastra), and what mcp-triage says of it.
// The recordings are committed; re-recording needs the npm package (see test/fixtures/real-mastra/README.md).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordedPairs, type CliRun } from '../helpers/triage-cli.js';
import { codesOf as codes, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-mastra/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string;
  serverOutcome?: string; call: string; attempt: number; retryOrigin?: { origin: string; how: string }; findings: Finding[]; notSeenByServer?: boolean;
  resumed?: boolean; sse?: { events: number; progress: number };
}
interface SessionFinding { type: 'finding'; session: string | null; code: string; severity: string; message: string }
type Run = CliRun<Attempt, SessionFinding>;
interface Step { step: string; ok: boolean; got?: { text?: string; isError?: boolean; tools?: string[]; error?: boolean; message?: string } | null; error?: { name: string; message: string; id?: string; code?: unknown; status?: number } }
interface Observed { steps: Step[]; mastraLog: string[] }

const both = recordedPairs<Attempt, SessionFinding>(DIR);
const calls = (r: Run, tool?: string) => r.attempts.filter((a) => a.method === 'tools/call' && (tool === undefined || a.tool === tool));
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
const step = (s: string, prefix: string) => observed(s).steps.find((x) => x.step.startsWith(prefix))!;
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/observed.json`));
const records = (s: string, side: 'client' | 'server') =>
  readFileSync(`${DIR}${s}/${side}.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; method?: string; requestHeaders?: Record<string, string>; send?: { method?: string; params?: { name?: string; reason?: string } } });
const sent = (s: string, side: 'client' | 'server', method: string) => records(s, side).filter((x) => x.kind === 'request' && x.send?.method === method);
const line = (a: Attempt) => `${a.method}${a.tool ? ` ${a.tool}` : ''} ${String(a.id)} ${a.outcome} ${a.call}#${a.attempt}`;

describe('every Mastra recording', () => {
  it('has the scenarios the README lists', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(10);
  });

  it.each(scenarios)('%s: read whole (client and server view), analyzed without error, every attempt joined to its server view or marked unseen', (scenario) => {
    const r = both(scenario);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
    expect(r.attempts.length).toBeGreaterThan(0);
    for (const a of r.attempts) expect(a.serverOutcome !== undefined || a.notSeenByServer === true).toBe(true);
  });

  it.each(scenarios)('%s: every connection begins with the v2 client\'s server/discover probe, which the 1.32.2 server refuses with 400, and nothing is made of it', (scenario) => {
    const probes = both(scenario).attempts.filter((a) => a.method === 'server/discover');
    expect(probes.length).toBeGreaterThan(0);
    expect(probes.every((a) => a.id === 'server-discover-probe-1')).toBe(true);
    // (only where nothing listened did a probe fail otherwise)
    if (scenario !== 'ma-server-down-at-start') expect(probes.map((a) => `${a.status} ${a.outcome}`)).toEqual(['400 HTTP_ERROR']);
  });

  it.each(scenarios)('%s: the tool results the caller got, in order, are the TOOL_SUCCESS and TOOL_ERROR calls on the wire', (scenario) => {
    // Mastra returns a whole result, and throws MCP_CLIENT_TOOL_EXECUTION_FAILED for an isError one
    const got = (x: Step): string | undefined => {
      if (x.ok && typeof x.got?.isError === 'boolean') return x.got.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
      if (!x.ok && x.error?.id === 'MCP_CLIENT_TOOL_EXECUTION_FAILED') return 'TOOL_ERROR';
      return undefined;
    };
    const tools = /\b(lookup_order|send_invoice|validate_quantity|slow_report|crash)\b/;
    const seen = observed(scenario).steps.map((x) => [tools.exec(x.step)?.[1], got(x)]).filter(([t, g]) => t && g).map(([t, g]) => `${t} ${g}`);
    // a call that Mastra re-sent by itself is one result for the caller: the last attempt of each call
    const last = new Map<string, Attempt>();
    for (const a of calls(both(scenario))) last.set(a.call, a);
    const wire = [...last.values()].filter((a) => a.outcome === 'TOOL_SUCCESS' || a.outcome === 'TOOL_ERROR').map((a) => `${a.tool} ${a.outcome}`);
    expect(wire).toEqual(seen);
  });
});

describe('Mastra @mastra/mcp 2.0.0 (its SDK: the v2 client 2.0.0)', () => {
  it('ma-baseline: probe, initialize, tools/list, four calls, tools/list again (listTools() is not cached); no findings, and disconnect() sends no DELETE', () => {
    const r = both('ma-baseline');
    expect(r.attempts.map(line)).toEqual([
      'server/discover server-discover-probe-1 HTTP_ERROR c1#1',
      'initialize 0 SUCCESS c2#1',
      'tools/list 1 SUCCESS c3#1',
      'tools/call lookup_order 2 TOOL_SUCCESS c4#1',
      'tools/call send_invoice 3 TOOL_SUCCESS c5#1',
      'tools/call validate_quantity 4 TOOL_SUCCESS c6#1',
      'tools/call slow_report 5 TOOL_SUCCESS c7#1',
      'tools/list 6 SUCCESS c8#1',
    ]);
    expect(allCodes(r)).toEqual([]);
    expect(records('ma-baseline', 'client').filter((x) => x.kind === 'request' && x.method === 'DELETE')).toEqual([]);
  });

  it('ma-tool-errors: isError and a thrown tool error are TOOL_ERROR (Mastra throws for both); the call Mastra refused by its own schema never reached the wire', () => {
    const r = both('ma-tool-errors');
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(['validate_quantity TOOL_ERROR', 'crash TOOL_ERROR', 'lookup_order TOOL_SUCCESS']);
    expect(step('ma-tool-errors', 'validate_quantity').error).toMatchObject({ id: 'MCP_CLIENT_TOOL_EXECUTION_FAILED', message: 'quantity must be positive, got -3' });
    // the validation failure is returned to the caller, not thrown
    expect(step('ma-tool-errors', 'lookup_order with a number').got).toMatchObject({ error: true });
    expect(allCodes(r)).toEqual([]);
  });

  it('ma-http-503: Mastra does not retry a 503 (not one of its reconnectable errors); the app\'s run 1.1 s later is linked to it, origin unknown - not unsafe (the server never saw it) nor early for its Retry-After', () => {
    const r = both('ma-http-503');
    const [first, again] = calls(r, 'send_invoice');
    expect(first).toMatchObject({ status: 503, outcome: 'HTTP_ERROR', notSeenByServer: true, attempt: 1 });
    expect(again).toMatchObject({ outcome: 'TOOL_SUCCESS', call: first!.call, attempt: 2, session: first!.session, retryOrigin: { origin: 'unknown' } });
    expect(codes(again!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
    expect(allCodes(r)).not.toContain('UNSAFE_RETRY');
    expect(allCodes(r)).not.toContain('RETRY_AFTER_IGNORED');
    expect(allCodes(r)).not.toContain('RETRY_POLICY');
    expect(step('ma-http-503', 'send_invoice 1001 (hop').error).toMatchObject({ name: 'SdkHttpError', status: 503 });
    expect(r.attempts.filter((a) => a.method === 'initialize')).toHaveLength(1);
  });

  it('ma-session-expired: Mastra does not reconnect after a 404 (the v2 error text has no "HTTP 404"); two 404s in the old session, then the app\'s reconnectServer() re-sends with new ids - origin unknown, not the same-id sdk signature', () => {
    const r = both('ma-session-expired');
    const old = r.attempts.find((a) => a.method === 'initialize')!.session;
    const expired = calls(r).filter((a) => a.status === 404);
    expect(expired.map((a) => `${a.tool} ${String(a.id)} ${a.outcome}`)).toEqual(['send_invoice 3 HTTP_ERROR', 'lookup_order 4 HTTP_ERROR']);
    expect(expired.every((a) => a.session === old)).toBe(true);
    for (const prefix of ['send_invoice 1001 (old session', 'lookup_order 1002']) expect(step('ma-session-expired', prefix).error).toMatchObject({ name: 'SdkHttpError', status: 404 });
    expect(observed('ma-session-expired').mastraLog.some((l) => l.includes('attempting reconnection'))).toBe(false);
    // reconnectServer(): initialize with the client's next id, the first probe's verdict reused (no second probe)
    const inits = r.attempts.filter((a) => a.method === 'initialize');
    expect(inits.map((a) => a.id)).toEqual([0, 5]);
    expect(r.attempts.filter((a) => a.method === 'server/discover')).toHaveLength(1);
    const again = calls(r, 'send_invoice')[1]!;
    expect(again).toMatchObject({ id: 6, outcome: 'TOOL_SUCCESS', session: inits[1]!.session, call: expired[0]!.call, attempt: 2, retryOrigin: { origin: 'unknown' } });
    expect(codes(again)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
    const sx = r.findings.filter((f) => f.code === 'SESSION_EXPIRED');
    expect(sx.map((f) => f.message.replace(/^.*?: /, ''))).toEqual([
      'HTTP 404 to 2 requests that carried the session id, over 0.01 s (tools/call send_invoice id 3; tools/call lookup_order id 4); then the client re-initialized and retried tools/call send_invoice id 3, not tools/call lookup_order id 4',
    ]);
    expect(allCodes(r)).not.toContain('UNSAFE_RETRY');
    expect(allCodes(r)).not.toContain('RETRY_POLICY');
  });

  it('ma-sse-cut: a stream cut without event ids is not resumed nor re-sent (a timeout is not reconnectable): STREAM_INCOMPLETE, NO_FINAL_RESULT and CANCELLED after the entry\'s 3 s timeout', () => {
    const r = both('ma-sse-cut');
    const [cut, ...more] = calls(r, 'slow_report');
    expect(more).toEqual([]);
    expect(cut).toMatchObject({ outcome: 'STREAM_INCOMPLETE', sse: { progress: 1 } });
    expect(codes(cut!)).toEqual(['NO_FINAL_RESULT', 'CANCELLED']);
    expect(sent('ma-sse-cut', 'client', 'notifications/cancelled').map((x) => x.send!.params!.reason)).toEqual(['SdkError: Request timed out']);
    expect(step('ma-sse-cut', 'slow_report').error).toMatchObject({ name: 'SdkError', code: 'REQUEST_TIMEOUT' });
    expect(calls(r, 'lookup_order')).toMatchObject([{ outcome: 'TOOL_SUCCESS', session: cut!.session }]);
    expect(allCodes(r)).not.toContain('RETRY_ORIGIN_AMBIGUOUS');
  });

  it('ma-sse-cut-resumed: with event ids the v2 client resumes the cut stream with GET Last-Event-ID: one attempt, resumed, TOOL_SUCCESS, no findings', () => {
    const r = both('ma-sse-cut-resumed');
    expect(calls(r, 'slow_report')).toMatchObject([{ outcome: 'TOOL_SUCCESS', attempt: 1, resumed: true }]);
    expect(records('ma-sse-cut-resumed', 'client').some((x) => x.kind === 'request' && x.method === 'GET' && x.requestHeaders?.['last-event-id'])).toBe(true);
    expect(allCodes(r)).toEqual([]);
  });

  it('ma-socket-destroyed: "fetch failed" makes Mastra reconnect (a new session, initialize with its next id) and re-send the call at once with a new id - a retry of unknown origin, too early for the policy, but not unsafe: the server never saw the first', () => {
    const r = both('ma-socket-destroyed');
    const [lost, again] = calls(r, 'send_invoice');
    expect(lost).toMatchObject({ id: 2, outcome: 'NO_RESPONSE', notSeenByServer: true });
    const inits = r.attempts.filter((a) => a.method === 'initialize');
    expect(inits.map((a) => a.id)).toEqual([0, 3]);
    expect(again).toMatchObject({ id: 4, outcome: 'TOOL_SUCCESS', call: lost!.call, attempt: 2, session: inits[1]!.session, retryOrigin: { origin: 'unknown' } });
    expect(again!.session).not.toBe(lost!.session);
    expect(codes(again!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS', 'RETRY_POLICY']);
    expect(allCodes(r)).not.toContain('UNSAFE_RETRY');
    expect(step('ma-socket-destroyed', 'send_invoice').ok).toBe(true);
    expect(observed('ma-socket-destroyed').mastraLog).toContain('debug [orders] Retrying tool send_invoice after reconnection... ');
  });

  it('ma-response-lost: the server ran send_invoice, the response was lost, Mastra re-sent it: SIDE_DIVERGENCE, then UNSAFE_RETRY proven (error) - the invoice went out twice while the caller saw one result', () => {
    const r = both('ma-response-lost');
    const [lost, again] = calls(r, 'send_invoice');
    expect(lost).toMatchObject({ outcome: 'NO_RESPONSE', serverOutcome: 'TOOL_SUCCESS' });
    expect(codes(lost!)).toEqual(['SIDE_DIVERGENCE']);
    expect(again).toMatchObject({ outcome: 'TOOL_SUCCESS', call: lost!.call, attempt: 2, retryOrigin: { origin: 'unknown' } });
    expect(again!.findings.find((f) => f.code === 'UNSAFE_RETRY')).toMatchObject({ severity: 'error' });
    expect(sent('ma-response-lost', 'server', 'tools/call').filter((x) => x.send!.params!.name === 'send_invoice')).toHaveLength(2);
    expect(step('ma-response-lost', 'send_invoice').got).toMatchObject({ text: 'invoice for order 1001 sent', isError: false });
  });

  it('ma-timeout: the entry\'s timeout cancels the call (reason "SdkError: Request timed out"); no re-send, no NO_FINAL_RESULT (the client cancelled first), the next call in the same session', () => {
    const r = both('ma-timeout');
    const [slow, ...more] = calls(r, 'slow_report');
    expect(more).toEqual([]);
    expect(slow).toMatchObject({ outcome: 'STREAM_INCOMPLETE' });
    expect(codes(slow!)).toEqual(['CANCELLED']);
    expect(sent('ma-timeout', 'client', 'notifications/cancelled').map((x) => x.send!.params!.reason)).toEqual(['SdkError: Request timed out']);
    expect(calls(r, 'lookup_order')).toMatchObject([{ outcome: 'TOOL_SUCCESS', session: slow!.session }]);
    expect(allCodes(r)).not.toContain('NO_FINAL_RESULT');
    expect(allCodes(r)).not.toContain('LOCAL_ERROR');
  });

  it('ma-abort-signal: the caller\'s abortSignal cancels the call with its reason (the SDK labels it REQUEST_TIMEOUT); CANCELLED, no re-send, no NO_FINAL_RESULT', () => {
    const r = both('ma-abort-signal');
    const [slow, ...more] = calls(r, 'slow_report');
    expect(more).toEqual([]);
    expect(codes(slow!)).toEqual(['CANCELLED']);
    expect(sent('ma-abort-signal', 'client', 'notifications/cancelled').map((x) => x.send!.params!.reason)).toEqual(['Error: the agent run was stopped']);
    expect(step('ma-abort-signal', 'slow_report').error).toMatchObject({ name: 'SdkError', code: 'REQUEST_TIMEOUT', message: 'Error: the agent run was stopped' });
    expect(allCodes(r)).not.toContain('NO_FINAL_RESULT');
  });

  it('ma-server-down-at-start: two refused probes (Mastra\'s tool discovery tries once more), listTools() gives {} without an error, the app\'s probe later is refused with 400 and the client goes on; no CALL_NEVER_SENT', () => {
    const r = both('ma-server-down-at-start');
    const probes = r.attempts.filter((a) => a.method === 'server/discover');
    expect(probes.map((a) => `${a.outcome} ${a.call}#${a.attempt} ${a.retryOrigin?.origin ?? '-'}`)).toEqual(['NO_RESPONSE c1#1 -', 'NO_RESPONSE c1#2 unknown', 'HTTP_ERROR c1#3 unknown']);
    // the probe's id is fixed: no other server/discover came between them
    expect(probes[1]!.retryOrigin!.how).toBe("server/discover again with the same id \"server-discover-probe-1\", as a new client's first request has it; nothing in the logs says who sent it");
    expect(step('ma-server-down-at-start', 'listTools() (nothing').got).toEqual({});
    expect(calls(r)).toMatchObject([{ tool: 'lookup_order', outcome: 'TOOL_SUCCESS' }]);
    expect(allCodes(r)).not.toContain('CALL_NEVER_SENT');
  });
});
