// Real opencode 1.18.33 traffic (test/fixtures/real-opencode): both views of its Streamable HTTP MCP wire, and what mcp-triage says of them.
// The recordings are committed; re-recording needs the npm package (see record.mjs): npm test never runs opencode.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordedPairs, type CliRun } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-opencode/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; layer?: string;
  serverOutcome?: string; call: string; attempt: number; retryOrigin?: { origin: string; how: string }; findings: Finding[]; cancelled?: boolean;
  detail?: { why?: string; errorCode?: number; errorMessage?: string };
}
interface SessionFinding { type: 'finding'; session: string | null; code: string; severity: string; message: string }
type Run = CliRun<Attempt, SessionFinding>;

const both = recordedPairs<Attempt, SessionFinding>(DIR);
/** The last attempt of each logical tools/call, in order: what the caller finally got. */
const finals = (r: Run) => {
  const last = new Map<string, Attempt>();
  for (const a of calls(r)) last.set(a.call, a);
  return [...last.values()];
};
const outcomes = (r: Run) => finals(r).map((a) => `${a.tool} ${a.outcome}`);
interface Observed {
  opencode: string; exit: number; offered: string[]; outbound: string[];
  toolMessages: { toolCallId: string; name: string; content: string }[];
  events: { type: string; tool?: string; status?: string; output?: string; error?: string }[];
  mcpLog: string[];
}
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
interface WireRecord { kind: string; xid?: string; method?: string; url?: string; ts: string; session?: string | null; send?: { method?: string; id?: number; params?: { requestId?: number; reason?: string; name?: string } } }
const wire = (s: string, side: 'client' | 'server') => readFileSync(`${DIR}${s}/${side}.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as WireRecord);
const sent = (s: string) => wire(s, 'client').filter((m) => m.kind === 'request');
const toolEvents = (s: string) => observed(s).events.filter((e) => e.type === 'tool_use');
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/observed.json`));

describe('every opencode recording', () => {
  it('has the recorded scenarios, all from opencode 1.18.33, each run ending with exit 0, none reaching beyond 127.0.0.1 but the npm registry', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(12);
    for (const s of scenarios) {
      expect(observed(s).opencode, s).toBe('1.18.33');
      expect(observed(s).exit, s).toBe(0);
      for (const o of observed(s).outbound) expect(o, s).toBe('CONNECT registry.npmjs.org:443');
    }
  });

  it.each(scenarios)('%s: both views read whole, analyzed with exit 0', (s) => {
    const r = both(s);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
    expect(r.attempts.length).toBeGreaterThan(0);
  });

  it.each(scenarios)('%s: each logical tools/call ended in success on the wire exactly when opencode told the model a result (not an error)', (s) => {
    const told = toolEvents(s).map((e) => (e.status === 'completed' ? 'ok' : 'failed'));
    const read = finals(both(s)).map((a) => (a.outcome === 'TOOL_SUCCESS' ? 'ok' : 'failed'));
    expect(read).toEqual(told);
  });

  it.each(scenarios)('%s: no retry finding fires, and no late cancellation is read as one the client waited on', (s) => {
    const r = both(s);
    expect(allCodes(r)).not.toContain('UNSAFE_RETRY');
    expect(allCodes(r)).not.toContain('RETRY_ORIGIN_AMBIGUOUS');
    expect(allCodes(r)).not.toContain('RETRY_POLICY');
    expect(allCodes(r)).not.toContain('OUTCOME_MISMATCH');
    for (const f of r.findings.filter((x) => x.code === 'CANCELLED')) expect(f.message, f.message).not.toContain('had not taken');
  });
});

describe('opencode 1.18.33 on the wire', () => {
  it('baseline: initialize (clientInfo opencode, 2025-11-25), notifications/initialized, a GET stream, tools/list, then three TOOL_SUCCESS calls; MCP tools are offered as web_<tool>', () => {
    const r = both('baseline');
    expect(r.attempts.map((a) => a.method)).toEqual(['initialize', 'tools/list', 'tools/call', 'tools/call', 'tools/call']);
    expect(outcomes(r)).toEqual(['lookup_order TOOL_SUCCESS', 'validate_quantity TOOL_SUCCESS', 'strict_lookup TOOL_SUCCESS']);
    const methods = sent('baseline').map((m) => m.send?.method ?? m.method);
    expect(methods.slice(0, 4)).toEqual(['initialize', 'notifications/initialized', 'GET', 'tools/list']);
    expect(methods.includes('DELETE')).toBe(false);
    expect(observed('baseline').offered).toContain('web_lookup_order');
    // findings here are only the late cancellations, each info, each saying it cancelled nothing
    for (const f of r.findings) {
      expect(f).toMatchObject({ code: 'CANCELLED', severity: 'info' });
      expect(f.message).toMatch(/after its response \(HTTP 200\) had ended: that response carried the request's answer, so the cancellation came after the fact and cancelled nothing/);
    }
    for (const a of r.attempts) expect(codes(a)).toEqual([]);
  });

  it('every notifications/cancelled with the reason "AbortError: The operation was aborted." names a tools/call of its session that had already ended or been cancelled (timeout: a second cancellation of the timed-out call)', () => {
    let late = 0;
    for (const s of scenarios) {
      const recs = wire(s, 'client');
      const endOf = new Map<string, number>();
      for (const m of recs) if (m.kind === 'end' && m.xid) endOf.set(m.xid, Date.parse(m.ts));
      const callEnd = new Map<string, number | undefined>();
      for (const m of recs) if (m.kind === 'request' && m.send?.method === 'tools/call' && m.xid) callEnd.set(`${m.session} ${m.send.id}`, endOf.get(m.xid));
      for (const m of recs) {
        if (m.kind !== 'request' || m.send?.method !== 'notifications/cancelled' || m.send.params?.reason !== 'AbortError: The operation was aborted.') continue;
        const key = `${m.session} ${m.send.params.requestId}`;
        expect(callEnd.has(key), `${s} id ${m.send.params.requestId}`).toBe(true);
        const ended = callEnd.get(key);
        const cancelledBefore = recs.some((x) => x.kind === 'request' && x.send?.method === 'notifications/cancelled' && `${x.session} ${x.send.params?.requestId}` === key && Date.parse(x.ts) < Date.parse(m.ts));
        expect((ended !== undefined && ended < Date.parse(m.ts)) || cancelledBefore, `${s} id ${m.send.params.requestId}`).toBe(true);
        late++;
      }
    }
    expect(late).toBeGreaterThan(5);
  });

  it('parallel: two calls of one model response go out one after the other, each its own call, not a retry of the other', () => {
    const r = both('parallel');
    expect(outcomes(r)).toEqual(['lookup_order TOOL_SUCCESS', 'lookup_order TOOL_SUCCESS', 'validate_quantity TOOL_SUCCESS']);
    const [a, b] = calls(r);
    expect(a.call).not.toBe(b.call);
    expect(b.attempt).toBe(1);
  });

  it('tool-error: an isError result and a tool that threw are TOOL_ERROR at the application layer; opencode gives the model the text as an error', () => {
    const r = both('tool-error');
    expect(outcomes(r)).toEqual(['validate_quantity TOOL_ERROR', 'crash TOOL_ERROR']);
    for (const a of calls(r)) expect(a.layer).toBe('application');
    expect(allCodes(r)).not.toContain('NO_FINAL_RESULT');
    expect(toolEvents('tool-error').map((e) => e.status)).toEqual(['error', 'error']);
  });

  it('jsonrpc-error: -32602 is JSONRPC_ERROR at the protocol layer, the next call TOOL_SUCCESS; opencode says "MCP error -32602" twice over', () => {
    const r = both('jsonrpc-error');
    expect(outcomes(r)).toEqual(['strict_lookup JSONRPC_ERROR', 'strict_lookup TOOL_SUCCESS']);
    expect(calls(r)[0].layer).toBe('protocol');
    expect(calls(r)[0].detail?.errorCode).toBe(-32602);
    expect(observed('jsonrpc-error').toolMessages[0].content).toMatch(/^MCP error -32602: MCP error -32602: Invalid params/);
  });

  it.each([
    ['http-503', 503],
    ['http-429', 429],
    ['http-401', 401],
  ])('%s: HTTP_ERROR %i at the transport layer, which the server never saw, and no retry (a 429 Retry-After is ignored)', (s, status) => {
    const r = both(s);
    const [failed, ...rest] = calls(r);
    expect(failed.outcome).toBe('HTTP_ERROR');
    expect(failed.status).toBe(status);
    expect(failed.layer).toBe('transport');
    expect(failed.serverOutcome).toBeUndefined();
    expect(allCodes(r)).not.toContain('RETRY_AFTER_IGNORED');
    for (const a of rest) {
      expect(a.outcome).toBe('TOOL_SUCCESS');
      expect(a.call).not.toBe(failed.call);
    }
    expect(calls(r).filter((a) => a.call === failed.call)).toHaveLength(1);
  });

  it.each(['http-503', 'http-429', 'http-401', 'socket-destroyed'])('%s: the cancellation opencode sends after the failed call is read as late (the request had failed there), not as the client waiting on', (s) => {
    const r = both(s);
    const late = r.findings.filter((f) => f.code === 'CANCELLED' && /for id 2 /.test(f.message) && !/never shows/.test(f.message));
    expect(late).toHaveLength(1);
    expect(late[0].message).toMatch(/the request had failed there, with no answer left to wait for, so the cancellation came after the fact and cancelled nothing/);
  });

  it('http-401: the Bearer challenge starts the SDK\'s OAuth discovery (protected resource, authorization server, OpenID, dynamic registration), whose 404 is what the model is told; the call is not re-sent', () => {
    const paths = sent('http-401').map((m) => `${m.method} ${new URL(m.url ?? '').pathname}`);
    expect(paths).toEqual(expect.arrayContaining(['GET /.well-known/oauth-protected-resource/mcp', 'GET /.well-known/oauth-protected-resource', 'GET /.well-known/oauth-authorization-server', 'GET /.well-known/openid-configuration', 'POST /register']));
    expect(observed('http-401').toolMessages[0].content).toMatch(/^HTTP 404: Invalid OAuth error response/);
    expect(calls(both('http-401'))[0].detail?.why).toContain('invalid_token');
  });

  it('http-401-at-start: initialize gets 401, the same OAuth discovery fails, opencode marks the server needs_auth and offers no MCP tool; CALL_NEVER_SENT says the client could not authorize', () => {
    const r = both('http-401-at-start');
    expect(r.attempts.map((a) => `${a.method} ${a.outcome} ${a.status}`)).toEqual(['initialize HTTP_ERROR 401']);
    expect(r.findings.map((f) => f.code)).toEqual(['CALL_NEVER_SENT']);
    expect(r.findings[0].message).toContain('could not authorize');
    expect(observed('http-401-at-start').offered).toEqual([]);
    expect(observed('http-401-at-start').mcpLog.join('\n')).toContain('status=needs_auth');
  });

  it('session-expired: after the 404 the SDK client re-initializes (initialize id 3, a new session) and re-sends the same id 2: one call, origin sdk, SESSION_EXPIRED says it re-initialized and retried', () => {
    const r = both('session-expired');
    const [expired, resent, next] = calls(r);
    expect(expired).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', id: 2 });
    expect(resent).toMatchObject({ outcome: 'TOOL_SUCCESS', id: 2, call: expired.call, attempt: 2 });
    expect(resent.session).not.toBe(expired.session);
    expect(resent.retryOrigin?.origin).toBe('sdk');
    expect(resent.retryOrigin?.how).toMatch(/same id re-sent in a new session after HTTP 404 by the client library, which re-initialized it \(initialize id 3\), as the Go and Rust SDKs do once, and the TypeScript SDK opencode bundles/);
    expect(next.call).not.toBe(expired.call);
    const initIds = r.attempts.filter((a) => a.method === 'initialize').map((a) => a.id);
    expect(initIds).toEqual([0, 3]);
    // the new session gets no tools/list: the client keeps the tools it had
    expect(r.attempts.filter((a) => a.method === 'tools/list')).toHaveLength(1);
    const f = r.findings.find((x) => x.code === 'SESSION_EXPIRED');
    expect(f?.message).toMatch(/the client re-initialized and retried the call/);
    expect(toolEvents('session-expired').map((e) => e.status)).toEqual(['completed', 'completed']);
  });

  it('sse-cut: a call stream cut before its result (no event ids) is not resumed; opencode waits out its 3000 ms timeout: STREAM_INCOMPLETE with NO_FINAL_RESULT, SIDE_DIVERGENCE and CANCELLED', () => {
    const r = both('sse-cut');
    const [cut, next] = calls(r);
    expect(cut.outcome).toBe('STREAM_INCOMPLETE');
    expect(cut.serverOutcome).toBe('TOOL_SUCCESS');
    expect(codes(cut).sort()).toEqual(['CANCELLED', 'NO_FINAL_RESULT', 'SIDE_DIVERGENCE']);
    expect(sent('sse-cut').filter((m) => m.method === 'GET')).toHaveLength(1);
    expect(next.outcome).toBe('TOOL_SUCCESS');
    expect(observed('sse-cut').toolMessages[0].content).toBe('MCP error -32001: Request timed out');
  });

  it('socket-destroyed: NO_RESPONSE that the server never saw, so no SIDE_DIVERGENCE; opencode tells the model Bun\'s socket error', () => {
    const [lost, next] = calls(both('socket-destroyed'));
    expect(lost.outcome).toBe('NO_RESPONSE');
    expect(lost.serverOutcome).toBeUndefined();
    expect(codes(lost)).not.toContain('SIDE_DIVERGENCE');
    expect(next.call).not.toBe(lost.call);
    expect(observed('socket-destroyed').toolMessages[0].content).toContain('socket connection was closed unexpectedly');
  });

  it('response-dropped: NO_RESPONSE on the client, TOOL_SUCCESS on the server: SIDE_DIVERGENCE, and the next call is no retry of it', () => {
    const r = both('response-dropped');
    const [lost, next] = calls(r);
    expect(lost.outcome).toBe('NO_RESPONSE');
    expect(lost.serverOutcome).toBe('TOOL_SUCCESS');
    expect(codes(lost)).toContain('SIDE_DIVERGENCE');
    expect(next.call).not.toBe(lost.call);
  });

  it('timeout: past the server entry\'s timeout (3000 ms) the SDK client sends notifications/cancelled: STREAM_INCOMPLETE with CANCELLED, not NO_FINAL_RESULT; the model is told -32001', () => {
    const r = both('timeout');
    const [slow, next] = calls(r);
    expect(slow.outcome).toBe('STREAM_INCOMPLETE');
    expect(slow.cancelled).toBe(true);
    expect(codes(slow)).toEqual(['CANCELLED']);
    expect(next.outcome).toBe('TOOL_SUCCESS');
    expect(observed('timeout').toolMessages[0].content).toBe('MCP error -32001: Request timed out');
  });

  it('server-down-at-start: initialize gets no response, then opencode tries the old HTTP+SSE transport (a GET) once; no MCP tool is offered and CALL_NEVER_SENT says no call went out', () => {
    const r = both('server-down-at-start');
    expect(r.attempts.map((a) => `${a.method} ${a.outcome}`)).toEqual(['initialize NO_RESPONSE']);
    expect(r.findings.map((f) => f.code)).toEqual(['CALL_NEVER_SENT']);
    expect(sent('server-down-at-start').map((m) => m.send?.method ?? m.method)).toEqual(['initialize', 'GET']);
    expect(observed('server-down-at-start').offered).toEqual([]);
    expect(observed('server-down-at-start').mcpLog.join('\n')).toContain('status=failed');
  });
});
