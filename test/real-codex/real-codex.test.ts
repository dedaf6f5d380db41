// Real traffic of OpenAI's Codex CLI 0.171.0 (its Rust MCP client, rmcp) (test/fixtures/real-codex), and what mcp-triage says of it.
// The recordings are committed; re-recording needs Codex from npm (see test/fixtures/real-codex/README.md): npm test never runs it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, recordedPairs } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-codex/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string;
  call: string; attempt: number; retryOrigin?: { origin: string; how: string }; findings: Finding[]; notSeenByServer?: boolean; resumed?: boolean;
  cancelled?: boolean; serverOutcome?: string; sse?: { events: number; progress: number }; protocolVersion?: string; detail?: { why?: string; errorCode?: number; errorMessage?: string };
}
interface SessionFinding { type: 'finding'; session: string | null; code: string; severity: string; message: string }
interface Observed {
  exit: number;
  functionCallOutputs: { callId: string; output: { type: string; text: string }[] | string }[];
  toolCalls: { tool: string; arguments: unknown; status: string; error: { message: string } | null }[];
  toolsOffered: string[];
  egressAttempts: string[];
  mcpLog: string[];
}

const both = recordedPairs<Attempt, SessionFinding>(DIR);
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
/** What the model got back for a call: the last text of its function_call_output (Codex puts a "Wall time" line first). */
const told = (o: Observed['functionCallOutputs'][number]) => (typeof o.output === 'string' ? o.output : o.output.at(-1)!.text);
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/observed.json`));

function sessions(s: string): { client: string; protocolVersion: string; session: string | null }[] {
  const p = spawnSync(process.execPath, [BIN, 'sessions', '--format', 'json', '--client', `${DIR}${s}/client.ndjson`, '--server', `${DIR}${s}/server.ndjson`], { encoding: 'utf8' });
  expect(p.status).toBe(0);
  return (JSON.parse(p.stdout) as { sessions: { client: string; protocolVersion: string; session: string | null }[] }).sessions;
}

describe('every Codex recording', () => {
  it('has the scenarios the README lists', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(15);
  });

  it.each(scenarios)('%s: read whole (client and server view), analyzed without error; Codex ran and reached nothing beyond 127.0.0.1', (s) => {
    const r = both(s);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
    expect(calls(r).length).toBeGreaterThan(0);
    expect(observed(s).exit).toBe(0);
    expect(observed(s).egressAttempts).toEqual([]);
  });

  it.each(scenarios)('%s: each call the model made ends on the wire as Codex reported it: an error where the last attempt failed, the tool\'s result (isError or not) where it was answered', (s) => {
    const o = observed(s);
    const r = both(s);
    // one logical call per function call of the model; its last attempt is what Codex answered with. Codex runs the
    // calls one at a time, so its mcp_tool_call items come in the order of the wire.
    const byCall = new Map<string, Attempt>();
    for (const a of calls(r)) byCall.set(a.call, a);
    const finals = [...byCall.values()];
    expect(finals.map((a) => a.tool)).toEqual(o.toolCalls.map((c) => c.tool));
    expect(o.functionCallOutputs.length).toBe(finals.length);
    finals.forEach((a, i) => {
      const reported = o.toolCalls[i]!;
      if (a.outcome === 'TOOL_SUCCESS') expect(reported).toMatchObject({ status: 'completed', error: null });
      else if (a.outcome === 'TOOL_ERROR') expect(reported).toMatchObject({ status: 'failed', error: null });
      else expect(reported.error?.message).toMatch(/^tool call error: tool call failed for `web\//);
    });
  });
});

describe('Codex 0.171.0 on the wire: what rmcp sends', () => {
  it('names itself codex-mcp-client/0.171.0 and offers 2025-06-18; the model sees the tools in one namespace, mcp__web', () => {
    expect(sessions('baseline').map((s) => [s.client, s.protocolVersion])).toEqual([['codex-mcp-client/0.171.0', '2025-06-18']]);
    expect(observed('baseline').toolsOffered).toEqual(expect.arrayContaining(['mcp__web', 'mcp__web__lookup_order', 'mcp__web__place_order']));
    const first = JSON.parse(readFileSync(`${DIR}baseline/client.ndjson`, 'utf8').split('\n')[0]!) as { requestHeaders: Record<string, string>; send: { id: number; method: string } };
    expect(first.send).toMatchObject({ id: 0, method: 'initialize' });
    expect(first.requestHeaders['user-agent']).toBe('codex-mcp-client/0.171.0');
    expect(first.requestHeaders.authorization).toMatch(/^\[redacted/);
  });

  it('baseline: four calls, TOOL_SUCCESS each, no findings', () => {
    const r = both('baseline');
    expect(calls(r).map((a) => `${a.id} ${a.tool} ${a.outcome} ${a.call === calls(r)[0]!.call ? 'first' : ''}`.trim())).toEqual(['2 lookup_order TOOL_SUCCESS first', '3 place_order TOOL_SUCCESS', '4 validate_quantity TOOL_SUCCESS', '5 lookup_order TOOL_SUCCESS']);
    expect(allCodes(r)).toEqual([]);
  });

  it('tool-error: isError results (returned, and thrown by the tool) are TOOL_ERROR with the tool\'s text, and no finding', () => {
    const r = both('tool-error');
    expect(calls(r).map((a) => [a.tool, a.outcome, a.detail?.errorMessage])).toEqual([
      ['validate_quantity', 'TOOL_ERROR', 'quantity must be positive, got -3'],
      ['crash', 'TOOL_ERROR', 'database connection refused'],
    ]);
    expect(allCodes(r)).toEqual([]);
  });

  it('jsonrpc-error: -32602 is JSONRPC_ERROR on HTTP 200 (Codex: "Mcp error: -32602"); the next call with other arguments is no retry', () => {
    const r = both('jsonrpc-error');
    const [bad, good] = calls(r);
    expect(bad).toMatchObject({ status: 200, outcome: 'JSONRPC_ERROR', detail: { errorCode: -32602 } });
    expect(told(observed('jsonrpc-error').functionCallOutputs[0]!)).toMatch(/Mcp error: -32602/);
    expect(good).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(allCodes(r)).toEqual([]);
  });

  it('http-503: a 503 with an id-null JSON-RPC body is HTTP_ERROR, and the cancellation rmcp sends 3 s later says the client had not taken it as the answer', () => {
    const r = both('http-503');
    const [refused, next] = calls(r);
    expect(refused).toMatchObject({ status: 503, outcome: 'HTTP_ERROR', notSeenByServer: true, detail: { errorCode: -32000, errorMessage: 'Service Unavailable' } });
    // Codex told the model it timed out; rmcp logged the body as an error of no request.
    expect(told(observed('http-503').functionCallOutputs[0]!)).toMatch(/timed out awaiting tools\/call after 3s$/);
    expect(observed('http-503').mcpLog.some((l) => l.includes('received id-less peer error'))).toBe(true);
    const cancelled = r.findings.filter((f) => f.code === 'CANCELLED').map((f) => f.message);
    expect(cancelled).toEqual(expect.arrayContaining([expect.stringMatching(/notifications\/cancelled for id 2 [23]\.\d\d s after its response \(HTTP 503\) had ended: the client had not taken that as the request's answer/)]));
    // No retry: the next call is another tool.
    expect(next).toMatchObject({ tool: 'lookup_order', outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(allCodes(r).filter((c) => c !== 'CANCELLED')).toEqual([]);
  });

  it('http-503-plain: a 503 with a text body fails the call at once (no cancellation, no retry); the why quotes the body', () => {
    const r = both('http-503-plain');
    expect(calls(r)[0]).toMatchObject({ status: 503, outcome: 'HTTP_ERROR', attempt: 1, detail: { why: 'the body says: upstream unavailable' } });
    expect(told(observed('http-503-plain').functionCallOutputs[0]!)).toMatch(/unexpected server response: HTTP 503/);
    expect(calls(r).map((a) => a.attempt)).toEqual([1, 1]);
    expect(allCodes(r)).toEqual([]);
  });

  it('http-429-retry-after: no retry, so no RETRY_AFTER_IGNORED', () => {
    const r = both('http-429-retry-after');
    const [limited, next] = calls(r);
    expect(limited).toMatchObject({ status: 429, outcome: 'HTTP_ERROR', detail: { why: 'the body says: Too Many Requests' } });
    expect(next).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(next!.call).not.toBe(limited!.call);
    expect(allCodes(r)).toEqual([]);
  });

  it('session-expired-404: Codex opens a new session and re-sends the call as id 1 with the same _meta.callId: one call of two attempts, the app\'s retry, no warning on it', () => {
    const r = both('session-expired-404');
    const [, refused, resent, after] = calls(r);
    expect(refused).toMatchObject({ id: 3, tool: 'place_order', status: 404, outcome: 'HTTP_ERROR', attempt: 1 });
    expect(resent).toMatchObject({ id: 1, tool: 'place_order', outcome: 'TOOL_SUCCESS', call: refused!.call, attempt: 2, retryOrigin: { origin: 'app' } });
    expect(resent!.session).not.toBe(refused!.session);
    expect(resent!.retryOrigin!.how).toMatch(/same _meta\.callId "call_plan_2"/);
    expect(codes(resent!)).toEqual([]);
    // a new client's numbering: initialize id 0 again in the new session
    expect(r.attempts.filter((a) => a.method === 'initialize').map((a) => a.id)).toEqual([0, 0]);
    expect(after).toMatchObject({ id: 2, outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(r.findings.map((f) => [f.code, f.session])).toEqual([['SESSION_EXPIRED', refused!.session]]);
    expect(r.findings[0]!.message).toMatch(/HTTP 404 to tools\/call place_order id 3 that carried the session id; the client re-initialized and retried the call$/);
    // The server ran place_order once: the 404 refused the first POST before the tool.
    expect(allCodes(r)).not.toContain('UNSAFE_RETRY');
  });

  it('sse-cut-no-event-ids: the cut stream is STREAM_INCOMPLETE with NO_FINAL_RESULT; Codex neither resumes, cancels nor retries', () => {
    const r = both('sse-cut-no-event-ids');
    const [cut, next] = calls(r);
    expect(cut).toMatchObject({ status: 200, outcome: 'STREAM_INCOMPLETE', serverOutcome: 'STREAM_INCOMPLETE' });
    expect(codes(cut!)).toEqual(['NO_FINAL_RESULT']);
    expect(told(observed('sse-cut-no-event-ids').functionCallOutputs[0]!)).toMatch(/Transport closed$/);
    expect(next).toMatchObject({ tool: 'lookup_order', attempt: 1 });
    expect(allCodes(r)).toEqual(['NO_FINAL_RESULT']);
  });

  it('sse-cut-resumable: rmcp resumes at once with GET and Last-Event-ID; the result on the GET completes the same attempt', () => {
    const r = both('sse-cut-resumable');
    const [resumed] = calls(r);
    expect(resumed).toMatchObject({ tool: 'slow_report', outcome: 'TOOL_SUCCESS', serverOutcome: 'TOOL_SUCCESS', resumed: true, attempt: 1 });
    expect(allCodes(r)).toEqual([]);
  });

  it('socket-destroyed: NO_RESPONSE, not seen by the server; no retry', () => {
    const r = both('socket-destroyed');
    expect(calls(r)[0]).toMatchObject({ status: null, outcome: 'NO_RESPONSE', notSeenByServer: true });
    expect(calls(r).map((a) => a.attempt)).toEqual([1, 1]);
    expect(allCodes(r)).toEqual([]);
  });

  it('tool-timeout: after tool_timeout_sec rmcp sends notifications/cancelled and closes the stream: CANCELLED, and no NO_FINAL_RESULT or SIDE_DIVERGENCE', () => {
    const r = both('tool-timeout');
    const [slow, next] = calls(r);
    expect(slow).toMatchObject({ tool: 'slow_report', outcome: 'STREAM_INCOMPLETE', cancelled: true });
    expect(slow!.detail?.why).toMatch(/^the client cancelled it \(notifications\/cancelled\) [12]\.\d\d s after sending it/);
    expect(codes(slow!)).toEqual(['CANCELLED']);
    expect(next).toMatchObject({ tool: 'lookup_order', outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(allCodes(r)).toEqual(['CANCELLED']);
  });

  it('progress-past-timeout: progress does not extend tool_timeout_sec; its progress events count for the call whose progressToken (1) they carry, not for request id 1', () => {
    const r = both('progress-past-timeout');
    const [slow] = calls(r);
    expect(slow).toMatchObject({ id: 2, outcome: 'STREAM_INCOMPLETE', cancelled: true });
    expect(slow!.sse!.progress).toBeGreaterThanOrEqual(4); // every 500 ms until the cancellation at 2 s: 4 or 5
    expect(codes(slow!)).toEqual(['CANCELLED']);
    expect(told(observed('progress-past-timeout').functionCallOutputs[0]!)).toMatch(/timed out awaiting tools\/call after 2s$/);
    expect(allCodes(r)).toEqual(['CANCELLED']);
  });

  it('parallel-calls: three function calls in one model response go out one after another, in no fixed order; four calls, no findings', () => {
    const r = both('parallel-calls');
    const cs = calls(r) as (Attempt & { ts: string; durationMs: number })[];
    expect(cs.map((a) => a.id)).toEqual([2, 3, 4, 5]);
    expect(cs.slice(0, 3).map((a) => a.tool).sort()).toEqual(['lookup_order', 'place_order', 'slow_report']);
    expect(cs[3]!.tool).toBe('lookup_order');
    for (let i = 1; i < cs.length; i++) expect(Date.parse(cs[i]!.ts)).toBeGreaterThanOrEqual(Date.parse(cs[i - 1]!.ts) + cs[i - 1]!.durationMs);
    expect(cs.map((a) => a.attempt)).toEqual([1, 1, 1, 1]);
    expect(allCodes(r)).toEqual([]);
  });

  it('stateless and the v2 server: no session id and no GET stream; nothing misread', () => {
    for (const s of ['stateless', 'v2-server']) {
      const r = both(s);
      expect(r.attempts.every((a) => a.session === null)).toBe(true);
      expect(calls(r).map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_ERROR']);
      expect(allCodes(r)).toEqual([]);
    }
  });

  it('v2-server-2026-07-28: with the feature mcp_2026_07_28 Codex opens with server/discover and names itself in each request\'s _meta', () => {
    const r = both('v2-server-2026-07-28');
    expect(r.attempts.map((a) => `${a.id} ${a.method}`)).toEqual(['0 server/discover', '1 tools/list', '2 tools/call', '3 tools/call']);
    expect(sessions('v2-server-2026-07-28').map((s) => [s.client, s.protocolVersion])).toEqual([['codex-mcp-client/0.171.0', '2026-07-28']]);
    expect(calls(r).map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_ERROR']);
    expect(allCodes(r)).toEqual([]);
  });
});
