// Real Qwen Code 0.24.4 traffic (test/fixtures/real-qwen): both views of its Streamable HTTP MCP wire (`qwen -p`), and what mcp-triage says of them.
// The recordings are committed; re-recording needs the npm package (see record.mjs): npm test never runs Qwen Code.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agentRecordings } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-qwen/', import.meta.url));

const { both, outcomes } = agentRecordings(DIR);
interface Observed { qwenCode: string; exit: number; offered: string[]; outbound: string[]; apiRequests: string[]; stderr: string[]; toolMessages: { name: string; content: { type: string; text: string }[] }[] }
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
interface WireRecord { kind: string; method?: string; session?: string | null; send?: { method?: string; id?: number; params?: { requestId?: number; reason?: string } } }
const sent = (s: string) => readFileSync(`${DIR}${s}/client.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as WireRecord).filter((m) => m.kind === 'request');
const sentMethods = (s: string) => sent(s).map((m) => m.send?.method ?? m.method);
const told = (s: string) => observed(s).toolMessages.map((m) => m.content.map((c) => c.text).join(''));
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/observed.json`));
/** Qwen Code's answer to a call lost on the transport of a tool it may not replay. */
const NOT_REPLAYED = 'MCP tool execution may have completed before the connection failed. Automatic replay was skipped because the call could not be verified as safe to replay. Do not retry automatically; verify the outcome before trying again.';
const DISCOVERY = ['initialize', 'notifications/initialized', 'GET', 'prompts/list', 'resources/list', 'tools/list'];

describe('every Qwen Code recording', () => {
  it('has the recorded scenarios, all from Qwen Code 0.24.4, exit 0, none reaching beyond 127.0.0.1, none holding the dummy API key', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(12);
    for (const s of scenarios) {
      expect(observed(s).qwenCode, s).toBe('0.24.4');
      expect(observed(s).exit, s).toBe(0);
      expect(observed(s).outbound, s).toEqual([]);
      for (const f of ['client.ndjson', 'server.ndjson', 'observed.json']) expect(readFileSync(`${DIR}${s}/${f}`, 'utf8'), `${s}/${f}`).not.toContain('dummy-qwen-key');
    }
  });

  it.each(scenarios)('%s: both views read whole, analyzed with exit 0; its discovery after a reconnect (prompts/list, resources/list answered -32601 before) is never taken for a retry', (s) => {
    const r = both(s);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
    for (const a of r.attempts.filter((x) => x.method !== 'tools/call')) expect(a.attempt, `${s} ${a.method}`).toBe(1);
    expect(allCodes(r)).not.toContain('OUTCOME_MISMATCH');
    expect(allCodes(r)).not.toContain('ID_REUSED');
  });
});

describe('Qwen Code 0.24.4 on the wire', () => {
  it('baseline: initialize (clientInfo qwen-cli-mcp-client-web/0.0.1), a GET stream, prompts/list and resources/list (-32601: the server has neither), tools/list, three TOOL_SUCCESS, DELETE at exit; tools offered as mcp__web__<name>', () => {
    const r = both('baseline');
    expect(r.attempts[0].initialize?.clientInfo).toBe('qwen-cli-mcp-client-web/0.0.1');
    expect(sentMethods('baseline')).toEqual([...DISCOVERY, 'tools/call', 'tools/call', 'tools/call', 'DELETE']);
    expect(r.attempts.filter((a) => a.method.endsWith('s/list') && a.method !== 'tools/list').map((a) => `${a.outcome} ${a.detail?.errorCode}`)).toEqual(['JSONRPC_ERROR -32601', 'JSONRPC_ERROR -32601']);
    expect(outcomes(r)).toEqual(['lookup_order TOOL_SUCCESS', 'validate_quantity TOOL_SUCCESS', 'strict_lookup TOOL_SUCCESS']);
    expect(observed('baseline').offered).toContain('mcp__web__lookup_order');
    expect(allCodes(r)).toEqual([]);
  });

  it('tool-error: isError results are TOOL_ERROR at the application layer; Qwen Code wraps them as "reported tool error" for the model', () => {
    const r = both('tool-error');
    expect(outcomes(r)).toEqual(['validate_quantity TOOL_ERROR', 'crash TOOL_ERROR']);
    for (const a of calls(r)) expect(a.layer).toBe('application');
    expect(told('tool-error')[0]).toMatch(/^MCP tool 'validate_quantity' reported tool error for function call/);
  });

  it('jsonrpc-error: -32602 is JSONRPC_ERROR at the protocol layer and no reconnect follows; the next call TOOL_SUCCESS', () => {
    const r = both('jsonrpc-error');
    expect(outcomes(r)).toEqual(['strict_lookup JSONRPC_ERROR', 'strict_lookup TOOL_SUCCESS']);
    expect(calls(r)[0]).toMatchObject({ layer: 'protocol', detail: { errorCode: -32602 } });
    expect(r.attempts.filter((a) => a.method === 'initialize')).toHaveLength(1);
    expect(told('jsonrpc-error')[0]).toMatch(/^MCP error -32602: Invalid params/);
  });

  // After a transport failure of a call to a tool without readOnlyHint/idempotentHint, Qwen Code ends the session
  // (DELETE), connects anew (a new session, ids from 0 again) and tells the model the call was not replayed.
  it.each([
    ['http-503', 'HTTP_ERROR', 503],
    ['http-429', 'HTTP_ERROR', 429],
    ['socket-destroyed', 'NO_RESPONSE', null],
    ['session-expired', 'HTTP_ERROR', 404],
  ])('%s: %s, then DELETE, a new session with the whole discovery, the call NOT replayed: the next call is its own', (s, outcome, status) => {
    const r = both(s);
    const [failed, next] = calls(r);
    expect(failed).toMatchObject({ outcome, status, layer: 'transport' });
    expect(next).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(next.call).not.toBe(failed.call);
    expect(next.session).not.toBe(failed.session);
    expect(r.attempts.filter((a) => a.method === 'initialize')).toHaveLength(2);
    const m = sentMethods(s);
    expect(m.slice(m.indexOf('tools/call') + 1, m.indexOf('tools/call') + 2 + DISCOVERY.length)).toEqual(['DELETE', ...DISCOVERY]);
    expect(told(s)).toEqual([NOT_REPLAYED, expect.stringMatching(/^order A-\d+: shipped$/)]);
    expect(allCodes(r)).not.toContain('RETRY_ORIGIN_AMBIGUOUS');
  });

  it('session-expired: one SESSION_EXPIRED that says the client re-initialized but did not retry the call', () => {
    const expired = both('session-expired').findings.filter((f) => f.code === 'SESSION_EXPIRED');
    expect(expired).toHaveLength(1);
    expect(expired[0]!.message).toMatch(/the client re-initialized but did not retry the call$/);
  });

  it.each(['replay-503', 'replay-session-expired'])('%s: lookup_order annotated readOnlyHint on a trusted server is replayed in the new session (id 4 again): attempt 2 of the call, TOOL_SUCCESS, origin unknown from the wire, no UNSAFE_RETRY', (s) => {
    const r = both(s);
    const [failed, replay, next] = calls(r);
    expect(failed.outcome).toBe('HTTP_ERROR');
    expect(replay).toMatchObject({ call: failed.call, attempt: 2, outcome: 'TOOL_SUCCESS', id: failed.id });
    expect(replay.session).not.toBe(failed.session);
    expect(replay.retryOrigin?.origin).toBe('unknown');
    expect(codes(replay)).toContain('RETRY_ORIGIN_AMBIGUOUS');
    expect(allCodes(r)).not.toContain('UNSAFE_RETRY');
    expect(next.call).not.toBe(failed.call);
    expect(told(s).every((t) => /^order A-\d+: shipped$/.test(t))).toBe(true);
  });

  it('replay-session-expired: SESSION_EXPIRED says the client re-initialized and retried the call', () => {
    const expired = both('replay-session-expired').findings.filter((f) => f.code === 'SESSION_EXPIRED');
    expect(expired[0]!.message).toMatch(/the client re-initialized and retried the call$/);
  });

  it('sse-cut: the cut call waits out the server timeout (5000 ms), is cancelled ("SdkError: Request timed out"), then Qwen Code reconnects as after any lost call: STREAM_INCOMPLETE with NO_FINAL_RESULT, SIDE_DIVERGENCE, CANCELLED', () => {
    const r = both('sse-cut');
    const [cut, next] = calls(r);
    expect(cut).toMatchObject({ outcome: 'STREAM_INCOMPLETE', serverOutcome: 'TOOL_SUCCESS' });
    expect(codes(cut).sort()).toEqual(['CANCELLED', 'NO_FINAL_RESULT', 'SIDE_DIVERGENCE']);
    expect(sent('sse-cut').find((m) => m.send?.method === 'notifications/cancelled')?.send?.params).toMatchObject({ requestId: cut.id, reason: 'SdkError: Request timed out' });
    expect(next).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(next.session).not.toBe(cut.session);
    expect(told('sse-cut')[0]).toBe(NOT_REPLAYED);
  });

  it('timeout: the server entry\'s timeout 3000 cancels the 10 s slow_report: STREAM_INCOMPLETE, CANCELLED only, and no reconnect (the model is told "Request timed out")', () => {
    const r = both('timeout');
    const [slow, next] = calls(r);
    expect(slow).toMatchObject({ outcome: 'STREAM_INCOMPLETE', cancelled: true });
    expect(codes(slow)).toEqual(['CANCELLED']);
    expect(next.outcome).toBe('TOOL_SUCCESS');
    expect(r.attempts.filter((a) => a.method === 'initialize')).toHaveLength(1);
    expect(told('timeout')[0]).toBe('Request timed out');
  });

  it('server-down-at-start: one initialize NO_RESPONSE (then a HEAD probe, not a JSON-RPC request); Qwen Code goes on without the server and exits 0: CALL_NEVER_SENT', () => {
    const r = both('server-down-at-start');
    expect(r.attempts.map((a) => `${a.method} ${a.outcome}`)).toEqual(['initialize NO_RESPONSE']);
    expect(sentMethods('server-down-at-start')).toEqual(['initialize', 'HEAD']);
    expect(r.findings.map((f) => f.code)).toEqual(['CALL_NEVER_SENT']);
    expect(observed('server-down-at-start').offered).toEqual([]);
    expect(observed('server-down-at-start').stderr.join('\n')).toContain('MCP server(s) failed to start: web');
  });
});
