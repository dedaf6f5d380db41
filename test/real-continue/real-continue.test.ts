// Real Continue CLI 1.5.47 traffic (test/fixtures/real-continue): both views of its Streamable HTTP MCP wire (`cn -p`), and what mcp-triage says of them.
// The recordings are committed; re-recording needs the npm package (see record.mjs): npm test never runs cn.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordedPairs, type CliRun } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-continue/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; layer?: string;
  serverOutcome?: string; call: string; attempt: number; retryOrigin?: { origin: string; how: string }; findings: Finding[]; cancelled?: boolean;
  detail?: { why?: string; errorCode?: number; errorMessage?: string }; initialize?: { clientInfo?: string };
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
  continueCli: string; exit: number; offered: string[]; outbound: string[]; apiRequests: string[]; stdout: string;
  toolMessages: { toolCallId: string; name: string; content: string }[];
  sessionToolStates: { toolCallId: string; name: string; status: string; output: { content: string }[] }[];
  mcpLog: string[];
}
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
interface WireRecord { kind: string; xid?: string; method?: string; url?: string; ts: string; session?: string | null; send?: { method?: string; id?: number; params?: { requestId?: number; reason?: string; name?: string } } }
const wire = (s: string, side: 'client' | 'server') => readFileSync(`${DIR}${s}/${side}.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as WireRecord);
const sent = (s: string) => wire(s, 'client').filter((m) => m.kind === 'request');
const sentMethods = (s: string) => sent(s).map((m) => m.send?.method ?? m.method);
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/observed.json`));
const called = scenarios.filter((s) => s !== 'server-down-at-start');

describe('every Continue CLI recording', () => {
  it('has the recorded scenarios, all from cn 1.5.47, none reaching beyond 127.0.0.1, none holding the dummy API key; only server-down-at-start exits non-zero', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(10);
    for (const s of scenarios) {
      expect(observed(s).continueCli, s).toBe('1.5.47');
      expect(observed(s).exit, s).toBe(s === 'server-down-at-start' ? 1 : 0);
      expect(observed(s).outbound, s).toEqual([]);
      for (const f of ['client.ndjson', 'server.ndjson', 'observed.json']) expect(readFileSync(`${DIR}${s}/${f}`, 'utf8'), `${s}/${f}`).not.toContain('dummy-continue-key');
    }
  });

  it.each(scenarios)('%s: both views read whole, analyzed with exit 0', (s) => {
    const r = both(s);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
    expect(r.attempts.length).toBeGreaterThan(0);
  });

  it.each(called)('%s: cn told the model "Error executing tool" exactly where the wire has no MCP result (an isError result is a result to cn: status done)', (s) => {
    const told = observed(s).toolMessages.map((m) => (m.content.startsWith('Error executing tool ') ? 'failed' : 'result'));
    const read = finals(both(s)).map((a) => (a.outcome === 'TOOL_SUCCESS' || a.outcome === 'TOOL_ERROR' ? 'result' : 'failed'));
    expect(read).toEqual(told);
    expect(observed(s).sessionToolStates.map((t) => (t.status === 'done' ? 'result' : 'failed'))).toEqual(told);
  });

  it.each(scenarios)('%s: cn never re-sends a tools/call, so no call has a second attempt and no retry finding fires on one', (s) => {
    const r = both(s);
    for (const a of calls(r)) expect(a.attempt).toBe(1);
    expect(allCodes(r)).not.toContain('UNSAFE_RETRY');
    expect(allCodes(r)).not.toContain('OUTCOME_MISMATCH');
    // server-down-at-start's second initialize is a retry (see below); RETRY_POLICY there depends on the gap between them
    if (s !== 'server-down-at-start') {
      expect(allCodes(r)).not.toContain('RETRY_ORIGIN_AMBIGUOUS');
      expect(allCodes(r)).not.toContain('RETRY_POLICY');
    }
  });
});

describe('Continue CLI 1.5.47 on the wire', () => {
  it('baseline: initialize (clientInfo continue-cli-client/1.0.0), notifications/initialized, a GET stream, tools/list, then three TOOL_SUCCESS calls and no finding; MCP tools are offered under their bare names', () => {
    const r = both('baseline');
    expect(r.attempts.map((a) => a.method)).toEqual(['initialize', 'tools/list', 'tools/call', 'tools/call', 'tools/call']);
    expect(r.attempts[0].initialize?.clientInfo).toBe('continue-cli-client/1.0.0');
    expect(outcomes(r)).toEqual(['lookup_order TOOL_SUCCESS', 'validate_quantity TOOL_SUCCESS', 'strict_lookup TOOL_SUCCESS']);
    expect(sentMethods('baseline').slice(0, 4)).toEqual(['initialize', 'notifications/initialized', 'GET', 'tools/list']);
    expect(sentMethods('baseline')).not.toContain('DELETE');
    expect(sentMethods('baseline')).not.toContain('notifications/cancelled');
    expect(observed('baseline').offered).toContain('lookup_order');
    expect(allCodes(r)).toEqual([]);
  });

  it('parallel: two calls of one model response are two calls, neither a retry of the other', () => {
    const r = both('parallel');
    expect(outcomes(r)).toEqual(['lookup_order TOOL_SUCCESS', 'lookup_order TOOL_SUCCESS', 'validate_quantity TOOL_SUCCESS']);
    const [a, b] = calls(r);
    expect(a.call).not.toBe(b.call);
    expect(allCodes(r)).toEqual([]);
  });

  it('tool-error: an isError result and a tool that threw are TOOL_ERROR at the application layer; cn hands the model the content alone, isError dropped, and marks the call done', () => {
    const r = both('tool-error');
    expect(outcomes(r)).toEqual(['validate_quantity TOOL_ERROR', 'crash TOOL_ERROR']);
    for (const a of calls(r)) expect(a.layer).toBe('application');
    expect(allCodes(r)).not.toContain('NO_FINAL_RESULT');
    expect(observed('tool-error').toolMessages.map((m) => m.content)).toEqual(['[{"type":"text","text":"quantity must be positive, got -3"}]', '[{"type":"text","text":"database connection refused"}]']);
    expect(observed('tool-error').sessionToolStates.map((t) => t.status)).toEqual(['done', 'done']);
  });

  it('jsonrpc-error: -32602 is JSONRPC_ERROR at the protocol layer, the next call TOOL_SUCCESS; cn says "MCP error -32602" twice over', () => {
    const r = both('jsonrpc-error');
    expect(outcomes(r)).toEqual(['strict_lookup JSONRPC_ERROR', 'strict_lookup TOOL_SUCCESS']);
    expect(calls(r)[0].layer).toBe('protocol');
    expect(calls(r)[0].detail?.errorCode).toBe(-32602);
    expect(observed('jsonrpc-error').toolMessages[0].content).toMatch(/^Error executing tool strict_lookup: MCP error -32602: MCP error -32602: Invalid params/);
  });

  it('http-503: HTTP_ERROR 503 at the transport layer, which the server never saw; not re-sent, the next call is its own', () => {
    const r = both('http-503');
    const [failed, next] = calls(r);
    expect(failed).toMatchObject({ outcome: 'HTTP_ERROR', status: 503, layer: 'transport' });
    expect(failed.serverOutcome).toBeUndefined();
    expect(next.outcome).toBe('TOOL_SUCCESS');
    expect(next.call).not.toBe(failed.call);
    expect(observed('http-503').toolMessages[0].content).toBe('Error executing tool lookup_order: Streamable HTTP error: Error POSTing to endpoint: upstream unavailable');
  });

  it('session-expired: cn never re-initializes after a 404: both calls meet it in the dead session, one SESSION_EXPIRED that counts them and says the client did not re-initialize', () => {
    const r = both('session-expired');
    expect(calls(r).map((a) => `${a.id} ${a.status} ${a.outcome}`)).toEqual(['2 404 HTTP_ERROR', '3 404 HTTP_ERROR']);
    expect(new Set(calls(r).map((a) => a.call)).size).toBe(2);
    expect(r.attempts.filter((a) => a.method === 'initialize')).toHaveLength(1);
    const expired = r.findings.filter((f) => f.code === 'SESSION_EXPIRED');
    // one expiry, one finding that counts both requests
    expect(expired).toHaveLength(1);
    expect(expired[0]!.message).toMatch(/: HTTP 404 to 2 requests that carried the session id, over 0\.\d\d s \(tools\/call lookup_order id 2; tools\/call lookup_order id 3\); then the client did not re-initialize$/);
    expect(expired[0]!.sources).toHaveLength(4);
    expect(allCodes(r)).not.toContain('SIDE_DIVERGENCE');
    for (const m of observed('session-expired').toolMessages) expect(m.content).toContain('Session not found');
  });

  it('sse-cut: a call stream cut before its result (no event ids) is not resumed; the SDK waits out its default 60 s and cancels: STREAM_INCOMPLETE with NO_FINAL_RESULT, SIDE_DIVERGENCE and CANCELLED', () => {
    const r = both('sse-cut');
    const [cut, next] = calls(r);
    expect(cut.outcome).toBe('STREAM_INCOMPLETE');
    expect(cut.serverOutcome).toBe('TOOL_SUCCESS');
    expect(codes(cut).sort()).toEqual(['CANCELLED', 'NO_FINAL_RESULT', 'SIDE_DIVERGENCE']);
    expect(sent('sse-cut').filter((m) => m.method === 'GET')).toHaveLength(1);
    const cancel = sent('sse-cut').find((m) => m.send?.method === 'notifications/cancelled');
    expect(cancel?.send?.params).toMatchObject({ requestId: cut.id, reason: 'McpError: MCP error -32001: Request timed out' });
    expect(next.outcome).toBe('TOOL_SUCCESS');
    expect(next.call).not.toBe(cut.call);
    expect(observed('sse-cut').toolMessages[0].content).toBe('Error executing tool lookup_order: MCP error -32001: Request timed out');
  });

  it('socket-destroyed: NO_RESPONSE that the server never saw, so no SIDE_DIVERGENCE; cn tells the model undici\'s "fetch failed"', () => {
    const r = both('socket-destroyed');
    const [lost, next] = calls(r);
    expect(lost.outcome).toBe('NO_RESPONSE');
    expect(lost.serverOutcome).toBeUndefined();
    expect(codes(lost)).not.toContain('SIDE_DIVERGENCE');
    expect(next.outcome).toBe('TOOL_SUCCESS');
    expect(next.call).not.toBe(lost.call);
    expect(observed('socket-destroyed').toolMessages[0].content).toBe('Error executing tool lookup_order: fetch failed');
  });

  it('timeout: cn passes no timeout to callTool, so the SDK\'s default 60 s cancels the 65 s slow_report: STREAM_INCOMPLETE, cancelled, CANCELLED and not NO_FINAL_RESULT; the model is told -32001', () => {
    const r = both('timeout');
    const [slow, next] = calls(r);
    expect(slow.outcome).toBe('STREAM_INCOMPLETE');
    expect(slow.cancelled).toBe(true);
    expect(codes(slow)).toEqual(['CANCELLED']);
    expect(allCodes(r)).not.toContain('NO_FINAL_RESULT');
    expect(allCodes(r)).not.toContain('SIDE_DIVERGENCE');
    expect(next.outcome).toBe('TOOL_SUCCESS');
    expect(observed('timeout').toolMessages[0].content).toBe('Error executing tool slow_report: MCP error -32001: Request timed out');
  });

  it('server-down-at-start: cn connects twice (its MCP service loads again when the tools are gathered), both initialize NO_RESPONSE, then exits 1 before asking the model; CALL_NEVER_SENT', () => {
    const r = both('server-down-at-start');
    expect(r.attempts.map((a) => `${a.method} ${a.outcome} ${a.call}#${a.attempt}`)).toEqual(['initialize NO_RESPONSE c1#1', 'initialize NO_RESPONSE c1#2']);
    // a new client whose first id is the failed one's: an app re-send, whose origin the logs cannot tell
    expect(r.attempts[1].retryOrigin).toEqual({ origin: 'unknown', how: "initialize again with the same id 0, as a new client's first request has it; nothing in the logs says who sent it" });
    expect(codes(r.attempts[1])).toContain('RETRY_ORIGIN_AMBIGUOUS');
    expect(r.findings.map((f) => f.code)).toEqual(['CALL_NEVER_SENT']);
    expect(sentMethods('server-down-at-start')).toEqual(['initialize', 'initialize']);
    expect(observed('server-down-at-start').apiRequests).toEqual([]);
    expect(observed('server-down-at-start').mcpLog.join('\n')).toContain('MCP server(s) failed to load');
  });
});
