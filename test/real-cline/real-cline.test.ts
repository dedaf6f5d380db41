// Real Cline CLI 3.0.65 traffic (test/fixtures/real-cline): both views of its Streamable HTTP MCP wire (`cline --json`), and what mcp-triage says of them.
// The recordings are committed; re-recording needs the npm package (see record.mjs): npm test never runs Cline.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agentRecordings } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-cline/', import.meta.url));

const { both, outcomes } = agentRecordings(DIR);
interface Observed { clineCli: string; exit: number; offered: string[]; outbound: string[]; apiRequests: string[]; toolMessages: { name: string; content: string }[] }
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
interface WireRecord { kind: string; method?: string; send?: { method?: string; id?: number; params?: { requestId?: number; reason?: string } } }
const sent = (s: string) => readFileSync(`${DIR}${s}/client.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as WireRecord).filter((m) => m.kind === 'request');
const sentMethods = (s: string) => sent(s).map((m) => m.send?.method ?? m.method);
const told = (s: string) => observed(s).toolMessages.map((m) => m.content);
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/observed.json`));

describe('every Cline CLI recording', () => {
  it('has the recorded scenarios, all from Cline 3.0.65, exit 0, none holding the dummy API key; the one outbound attempt (data.cline.bot, with telemetry opted out) was refused by the sink', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(10);
    for (const s of scenarios) {
      expect(observed(s).clineCli, s).toBe('3.0.65');
      expect(observed(s).exit, s).toBe(0);
      expect(observed(s).outbound, s).toEqual(['CONNECT data.cline.bot:443']);
      for (const f of ['client.ndjson', 'server.ndjson', 'observed.json']) expect(readFileSync(`${DIR}${s}/${f}`, 'utf8'), `${s}/${f}`).not.toContain('dummy-cline-key');
    }
  });

  it.each(scenarios)('%s: both views read whole, analyzed with exit 0, no ID_REUSED, no OUTCOME_MISMATCH; Cline never sends DELETE', (s) => {
    const r = both(s);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
    expect(allCodes(r)).not.toContain('ID_REUSED');
    expect(allCodes(r)).not.toContain('OUTCOME_MISMATCH');
    expect(sentMethods(s)).not.toContain('DELETE');
  });
});

describe('Cline CLI 3.0.65 on the wire', () => {
  it('baseline: initialize (clientInfo @cline/core/0.0.0), notifications/initialized, a GET stream, tools/list, three TOOL_SUCCESS and no finding; tools offered as web__<name>', () => {
    const r = both('baseline');
    expect(r.attempts[0].initialize?.clientInfo).toBe('@cline/core/0.0.0');
    expect(sentMethods('baseline')).toEqual(['initialize', 'notifications/initialized', 'GET', 'tools/list', 'tools/call', 'tools/call', 'tools/call']);
    expect(outcomes(r)).toEqual(['lookup_order TOOL_SUCCESS', 'validate_quantity TOOL_SUCCESS', 'strict_lookup TOOL_SUCCESS']);
    expect(observed('baseline').offered).toContain('web__lookup_order');
    expect(allCodes(r)).toEqual([]);
  });

  it('tool-error: isError results are TOOL_ERROR at the application layer; Cline hands the model the whole result, isError kept', () => {
    const r = both('tool-error');
    expect(outcomes(r)).toEqual(['validate_quantity TOOL_ERROR', 'crash TOOL_ERROR']);
    expect(told('tool-error')[0]).toBe('{"content":[{"type":"text","text":"quantity must be positive, got -3"}],"isError":true}');
  });

  it('jsonrpc-error: -32602 is JSONRPC_ERROR at the protocol layer; the model is told the SDK\'s "MCP error -32602" message twice over', () => {
    const r = both('jsonrpc-error');
    expect(outcomes(r)).toEqual(['strict_lookup JSONRPC_ERROR', 'strict_lookup TOOL_SUCCESS']);
    expect(calls(r)[0]).toMatchObject({ layer: 'protocol', detail: { errorCode: -32602 } });
    expect(told('jsonrpc-error')[0]).toMatch(/^\{"error":"MCP error -32602: MCP error -32602: Invalid params/);
  });

  it.each([['http-503', 503], ['http-429', 429]])('%s: HTTP_ERROR %i at the transport layer, which the server never saw; not re-sent (Retry-After not waited for), the next call is its own', (s, status) => {
    const r = both(s);
    const [failed, next] = calls(r);
    expect(failed).toMatchObject({ outcome: 'HTTP_ERROR', status, layer: 'transport' });
    expect(failed.serverOutcome).toBeUndefined();
    expect(next).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(next.call).not.toBe(failed.call);
    expect(told(s)[0]).toMatch(/^\{"error":"Streamable HTTP error: Error POSTing to endpoint: /);
    expect(allCodes(r)).not.toContain('RETRY_AFTER_IGNORED');
  });

  it('session-expired: Cline never re-initializes after a 404: both calls meet it, one SESSION_EXPIRED counting them that says the client did not re-initialize', () => {
    const r = both('session-expired');
    expect(calls(r).map((a) => `${a.id} ${a.status} ${a.outcome}`)).toEqual(['2 404 HTTP_ERROR', '3 404 HTTP_ERROR']);
    expect(r.attempts.filter((a) => a.method === 'initialize')).toHaveLength(1);
    const expired = r.findings.filter((f) => f.code === 'SESSION_EXPIRED');
    expect(expired).toHaveLength(1);
    expect(expired[0]!.message).toMatch(/HTTP 404 to 2 requests that carried the session id, .*then the client did not re-initialize$/);
  });

  it('socket-destroyed: the same POST (same id 2) is sent again at once and succeeds: attempt 2 of the call, origin unknown, RETRY_POLICY (well under 200 ms); the model never hears of the failure', () => {
    const r = both('socket-destroyed');
    const [lost, again, next] = calls(r);
    expect(lost).toMatchObject({ outcome: 'NO_RESPONSE', id: 2 });
    expect(lost.serverOutcome).toBeUndefined();
    expect(again).toMatchObject({ outcome: 'TOOL_SUCCESS', id: 2, call: lost.call, attempt: 2 });
    expect(again.retryOrigin?.origin).toBe('unknown');
    expect(codes(again).sort()).toEqual(['RETRY_ORIGIN_AMBIGUOUS', 'RETRY_POLICY']);
    expect(next.call).not.toBe(lost.call);
    expect(told('socket-destroyed')[0]).toBe('{"content":[{"type":"text","text":"order A-14: shipped"}]}');
  });

  it('sse-cut: the same POST (same id 2) re-sent right after the stream broke is attempt 2 of the call, not ID_REUSED: the first STREAM_INCOMPLETE, which the server ran (SIDE_DIVERGENCE), so the re-send is UNSAFE_RETRY', () => {
    const r = both('sse-cut');
    const [cut, again, next] = calls(r);
    expect(cut).toMatchObject({ outcome: 'STREAM_INCOMPLETE', serverOutcome: 'TOOL_SUCCESS', id: 2, attempt: 1 });
    expect(codes(cut).sort()).toEqual(['NO_FINAL_RESULT', 'SIDE_DIVERGENCE']);
    expect(again).toMatchObject({ outcome: 'TOOL_SUCCESS', id: 2, call: cut.call, attempt: 2 });
    expect(codes(again)).toContain('UNSAFE_RETRY');
    expect(next.call).not.toBe(cut.call);
    expect(sentMethods('sse-cut')).not.toContain('notifications/cancelled');
  });

  it('timeout: the server entry\'s timeout 3 (seconds) cancels the 10 s slow_report: STREAM_INCOMPLETE, CANCELLED only; the model is told Cline\'s own timeout message', () => {
    const r = both('timeout');
    const [slow, next] = calls(r);
    expect(slow).toMatchObject({ outcome: 'STREAM_INCOMPLETE', cancelled: true });
    expect(codes(slow)).toEqual(['CANCELLED']);
    expect(sent('timeout').find((m) => m.send?.method === 'notifications/cancelled')?.send?.params).toMatchObject({ requestId: slow.id, reason: 'McpError: MCP error -32001: Request timed out' });
    expect(next.outcome).toBe('TOOL_SUCCESS');
    expect(told('timeout')[0]).toMatch(/timed out after 3s\. Increase the \\"timeout\\" field \(in seconds\)/);
  });

  it('server-down-at-start: one initialize NO_RESPONSE, no second try; Cline goes on without the server and exits 0: CALL_NEVER_SENT', () => {
    const r = both('server-down-at-start');
    expect(r.attempts.map((a) => `${a.method} ${a.outcome}`)).toEqual(['initialize NO_RESPONSE']);
    expect(sentMethods('server-down-at-start')).toEqual(['initialize']);
    expect(r.findings.map((f) => f.code)).toEqual(['CALL_NEVER_SENT']);
    expect(observed('server-down-at-start').offered).toEqual([]);
  });
});
