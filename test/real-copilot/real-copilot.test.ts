// Real GitHub Copilot CLI 1.0.102 traffic (test/fixtures/real-copilot): both views of its Streamable HTTP MCP wire (`copilot -p`, offline, BYOK), and what mcp-triage says of them.
// The recordings are committed; re-recording needs the npm package (see record.mjs): npm test never runs the Copilot CLI.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agentRecordings } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-copilot/', import.meta.url));

const { both, outcomes } = agentRecordings(DIR);
interface Observed { copilotCli: string; exit: number; offered: string[]; outbound: string[]; toolMessages: { name: string; content: string }[] }
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
interface WireRecord { kind: string; method?: string; send?: { method?: string; id?: number; params?: { requestId?: number; reason?: string } } }
const sent = (s: string) => readFileSync(`${DIR}${s}/client.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as WireRecord).filter((m) => m.kind === 'request');
const sentMethods = (s: string) => sent(s).map((m) => m.send?.method ?? m.method);
const told = (s: string) => observed(s).toolMessages.map((m) => m.content);
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/observed.json`));
const OPENING = ['server/discover', 'initialize', 'notifications/initialized', 'GET', 'tools/list'];

describe('every Copilot CLI recording', () => {
  it('has the recorded scenarios, all from Copilot CLI 1.0.102 in offline mode, exit 0, none reaching beyond 127.0.0.1, none holding the dummy API key', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(10);
    for (const s of scenarios) {
      expect(observed(s).copilotCli, s).toBe('1.0.102');
      expect(observed(s).exit, s).toBe(0);
      expect(observed(s).outbound, s).toEqual([]);
      for (const f of ['client.ndjson', 'server.ndjson', 'observed.json']) expect(readFileSync(`${DIR}${s}/${f}`, 'utf8'), `${s}/${f}`).not.toContain('dummy-copilot-key');
    }
  });

  it.each(scenarios)('%s: both views read whole, analyzed with exit 0; the refused server/discover probe (the server is 1.x) raises nothing and is never retried', (s) => {
    const r = both(s);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
    for (const a of r.attempts.filter((x) => x.method === 'server/discover')) {
      expect(a.attempt).toBe(1);
      expect(a.findings).toEqual([]);
    }
    expect(allCodes(r)).not.toContain('ID_REUSED');
    expect(allCodes(r)).not.toContain('OUTCOME_MISMATCH');
  });
});

describe('Copilot CLI 1.0.102 on the wire (its MCP client is the Rust rmcp)', () => {
  it('baseline: server/discover (400 from a 1.x server), then initialize id 1 (clientInfo copilot-cli/1.0.102), a GET stream, tools/list, three TOOL_SUCCESS, DELETE at exit; tools offered as web-<name>', () => {
    const r = both('baseline');
    expect(r.attempts[0]).toMatchObject({ method: 'server/discover', status: 400, outcome: 'HTTP_ERROR' });
    expect(r.attempts[1]).toMatchObject({ method: 'initialize', id: 1, initialize: { clientInfo: 'copilot-cli/1.0.102' } });
    expect(sentMethods('baseline')).toEqual([...OPENING, 'tools/call', 'tools/call', 'tools/call', 'DELETE']);
    expect(outcomes(r)).toEqual(['lookup_order TOOL_SUCCESS', 'validate_quantity TOOL_SUCCESS', 'strict_lookup TOOL_SUCCESS']);
    expect(observed('baseline').offered).toContain('web-lookup_order');
    expect(allCodes(r)).toEqual([]);
  });

  it('tool-error: isError results are TOOL_ERROR; the model gets the text prefixed "MCP server \'web\': "', () => {
    const r = both('tool-error');
    expect(outcomes(r)).toEqual(['validate_quantity TOOL_ERROR', 'crash TOOL_ERROR']);
    expect(told('tool-error')).toEqual(["MCP server 'web': quantity must be positive, got -3", "MCP server 'web': database connection refused"]);
  });

  it('jsonrpc-error: -32602 is JSONRPC_ERROR at the protocol layer', () => {
    const r = both('jsonrpc-error');
    expect(outcomes(r)).toEqual(['strict_lookup JSONRPC_ERROR', 'strict_lookup TOOL_SUCCESS']);
    expect(calls(r)[0]).toMatchObject({ layer: 'protocol', detail: { errorCode: -32602 } });
  });

  it.each([
    ['http-503', 'HTTP_ERROR', 503],
    ['http-429', 'HTTP_ERROR', 429],
    ['socket-destroyed', 'NO_RESPONSE', null],
  ])('%s: %s, which the server never saw; not re-sent, no reconnect: the next call is its own in the same session', (s, outcome, status) => {
    const r = both(s);
    const [failed, next] = calls(r);
    expect(failed).toMatchObject({ outcome, status, layer: 'transport' });
    expect(failed.serverOutcome).toBeUndefined();
    expect(next).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1, session: failed.session });
    expect(next.call).not.toBe(failed.call);
    expect(told(s)[0]).toMatch(/^MCP server 'web': MCP request failed: Transport send error: /);
  });

  it('session-expired: after the 404 it opens a new session (server/discover and initialize again, ids from 0) and sends the call again as id 3 there: attempt 2, origin unknown (a new client\'s numbering reaches that id too); SESSION_EXPIRED says it re-initialized and retried', () => {
    const r = both('session-expired');
    const [lost, again, next] = calls(r);
    expect(lost).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', id: 3 });
    expect(again).toMatchObject({ call: lost.call, attempt: 2, id: 3, outcome: 'TOOL_SUCCESS' });
    expect(again.session).not.toBe(lost.session);
    expect(again.retryOrigin?.origin).toBe('unknown');
    expect(codes(again)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
    expect(next.call).not.toBe(lost.call);
    expect(sentMethods('session-expired').slice(5, 13)).toEqual(['tools/call', 'DELETE', ...OPENING, 'tools/call']);
    const expired = r.findings.filter((f) => f.code === 'SESSION_EXPIRED');
    expect(expired).toHaveLength(1);
    expect(expired[0]!.message).toMatch(/the client re-initialized and retried the call$/);
    expect(told('session-expired')).toEqual(['order A-10: shipped', 'order A-11: shipped']);
  });

  it('sse-cut: a stream cut before its result is not resumed nor re-sent ("Transport closed" at once): STREAM_INCOMPLETE with NO_FINAL_RESULT and SIDE_DIVERGENCE', () => {
    const r = both('sse-cut');
    const [cut, next] = calls(r);
    expect(cut).toMatchObject({ outcome: 'STREAM_INCOMPLETE', serverOutcome: 'TOOL_SUCCESS' });
    expect(codes(cut).sort()).toEqual(['NO_FINAL_RESULT', 'SIDE_DIVERGENCE']);
    expect(next).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(told('sse-cut')[0]).toBe("MCP server 'web': MCP request failed: Transport closed");
  });

  it('timeout: the server entry\'s timeout 3000 cancels the 10 s slow_report (notifications/cancelled, reason "request timeout"): STREAM_INCOMPLETE, CANCELLED only', () => {
    const r = both('timeout');
    const [slow, next] = calls(r);
    expect(slow).toMatchObject({ outcome: 'STREAM_INCOMPLETE', cancelled: true });
    expect(codes(slow)).toEqual(['CANCELLED']);
    expect(sent('timeout').find((m) => m.send?.method === 'notifications/cancelled')?.send?.params).toMatchObject({ requestId: slow.id, reason: 'request timeout' });
    expect(next.outcome).toBe('TOOL_SUCCESS');
    expect(told('timeout')[0]).toBe("MCP server 'web': McpError: MCP error -32001: Request timed out");
  });

  it('server-down-at-start: server/discover and initialize both refused, no further try; the run goes on without the server (exit 0): CALL_NEVER_SENT', () => {
    const r = both('server-down-at-start');
    expect(r.attempts.map((a) => `${a.method} ${a.outcome} ${a.attempt}`)).toEqual(['server/discover NO_RESPONSE 1', 'initialize NO_RESPONSE 1']);
    expect(r.findings.map((f) => f.code)).toEqual(['CALL_NEVER_SENT']);
    expect(observed('server-down-at-start').offered).toEqual([]);
  });
});
