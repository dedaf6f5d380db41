// Real traffic against Cloudflare's `agents` McpAgent (a Durable Object per session) and createMcpHandler under wrangler dev (test/fixtures/real-cloudflare), and what mcp-triage says of it.
// The recordings are committed; re-recording needs wrangler and the agents package (see test/fixtures/real-cloudflare/README.md).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, recordedPairs } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-cloudflare/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; serverOutcome?: string;
  call: string; attempt: number; retryOrigin?: { origin: string; how: string }; findings: Finding[]; notSeenByServer?: boolean; cancelled?: boolean;
  sse?: { events: number; progress: number; serverRequests: number }; detail?: { why?: string; errorCode?: number; errorMessage?: string };
}
interface SessionFinding { type: 'finding'; session: string | null; code: string; message: string }
interface Step { step: string; ok?: boolean; got?: unknown; error?: { name: string; message: string; code?: number }; raw?: { status?: number; contentType?: string | null; body?: string } }
interface Observed { steps: Step[]; notes: unknown[] }

const both = recordedPairs<Attempt, SessionFinding>(DIR);
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
const step = (s: string, label: string) => observed(s).steps.find((x) => x.step.startsWith(label))!;
const note = <T>(s: string, key: string) => (observed(s).notes.find((n) => typeof n === 'object' && n !== null && key in n) as Record<string, T>)[key]!;
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/observed.json`));

describe('every recording of McpAgent and createMcpHandler', () => {
  it('has the scenarios the README lists', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(12);
  });

  it.each(scenarios)('%s: read whole (client and server view), analyzed without error', (scenario) => {
    const r = both(scenario);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
    expect(r.attempts.length).toBeGreaterThan(0);
  });

  it.each(scenarios)('%s: the sessions view reads it too', (scenario) => {
    const p = spawnSync(process.execPath, [BIN, 'sessions', '--format', 'json', '--client', `${DIR}${scenario}/client.ndjson`, '--server', `${DIR}${scenario}/server.ndjson`], { encoding: 'utf8' });
    expect(p.status).toBe(0);
    expect((JSON.parse(p.stdout) as { sessions: unknown[] }).sessions.length).toBeGreaterThan(0);
  });
});

describe('McpAgent over Streamable HTTP (/mcp), the SDK 1.32.2 client', () => {
  it('baseline: 2025-11-25, a 64-hex Durable Object id as the session id, every call a success joined to the server\'s view, nothing flagged', () => {
    const r = both('baseline');
    expect(note<string>('baseline', 'protocolVersion')).toBe('2025-11-25');
    expect(r.attempts.map((a) => `${a.method} ${a.outcome} ${a.serverOutcome}`)).toEqual([
      'initialize SUCCESS SUCCESS', 'tools/list SUCCESS SUCCESS', 'tools/call TOOL_SUCCESS TOOL_SUCCESS', 'tools/call TOOL_SUCCESS TOOL_SUCCESS', 'tools/call TOOL_SUCCESS TOOL_SUCCESS', 'ping SUCCESS SUCCESS',
    ]);
    expect(new Set(r.attempts.map((a) => a.session)).size).toBe(1);
    expect(r.attempts[0]!.session).toMatch(/^[0-9a-f]{64}$/);
    expect(allCodes(r)).toEqual([]);
  });

  it('a tool\'s isError, a throwing tool, an unknown tool and bad arguments are all isError results (HTTP 200): TOOL_ERROR, and calling crash again is a new call, not an unsafe retry', () => {
    const r = both('errors');
    expect(calls(r).map((a) => `${a.tool} ${a.status} ${a.outcome}`)).toEqual([
      'validate_quantity 200 TOOL_ERROR', 'crash 200 TOOL_ERROR', 'no_such_tool 200 TOOL_ERROR', 'lookup_order 200 TOOL_ERROR', 'crash 200 TOOL_ERROR',
    ]);
    expect(step('errors', 'crash (the tool throws)').got).toEqual({ text: 'database connection refused', isError: true });
    expect(step('errors', 'no_such_tool').got).toEqual({ text: 'MCP error -32602: Tool no_such_tool not found', isError: true });
    expect(calls(r)[1]!.detail?.errorMessage).toBe('database connection refused');
    const crashes = calls(r).filter((a) => a.tool === 'crash');
    // A TOOL_ERROR is an answer, not a failure: the second call is a call of its own.
    expect(crashes[1]).toMatchObject({ attempt: 1 });
    expect(crashes[1]!.call).not.toBe(crashes[0]!.call);
    expect(allCodes(r)).toEqual([]);
  });

  it('a 503 from the hop, retried by the app: linked, origin app, not seen by the server, nothing unsafe', () => {
    const [failed, retry] = calls(both('http-503-app-retry'));
    expect(failed).toMatchObject({ status: 503, outcome: 'HTTP_ERROR', notSeenByServer: true, detail: { why: 'the body says: upstream unavailable' } });
    expect(step('http-503-app-retry', 'send_invoice 1001 (503').error).toMatchObject({ name: 'StreamableHTTPError', code: 503 });
    expect(retry).toMatchObject({ outcome: 'TOOL_SUCCESS', call: failed!.call, attempt: 2, retryOrigin: { origin: 'app' } });
    expect(codes(retry!)).toEqual([]);
  });

  it('a made-up session id gets 404 -32001 "Session not found" (any shape of id), no session id at all 400 -32000: SESSION_EXPIRED only for the 404s', () => {
    const r = both('unknown-session');
    expect(step('unknown-session', 'tools/call with a made-up 64-hex').raw).toMatchObject({ status: 404, contentType: 'text/plain;charset=UTF-8' });
    const [hex, uuid, none, sdk] = calls(r);
    expect(hex).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', detail: { errorCode: -32001, errorMessage: 'Session not found' } });
    expect(uuid).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', detail: { errorCode: -32001 } });
    expect(none).toMatchObject({ status: 400, session: null, detail: { errorCode: -32000, errorMessage: 'Bad Request: Mcp-Session-Id header is required' } });
    expect(sdk).toMatchObject({ outcome: 'TOOL_SUCCESS' });
    const expired = r.findings.filter((f) => f.code === 'SESSION_EXPIRED');
    expect(expired.map((f) => f.session).sort()).toEqual([hex!.session, uuid!.session].sort());
    expect(expired.every((f) => /no initialize response in these logs announced this session id/.test(f.message))).toBe(true);
    // The 400 and the 404s are errors bodies with id null: no orphan.
    expect(allCodes(r)).not.toContain('ORPHAN_RESPONSE');
  });

  it('DELETE, then the SDK client posts without a session (400) and the app retries on a new client: one call; the deleted id gets 404, said to be the client\'s own ended session', () => {
    const r = both('delete-then-call');
    expect(note<string>('delete-then-call', 'sessionAfterDelete')).toBe('none');
    const [first, refused, deleted, retry] = calls(r);
    expect(first).toMatchObject({ outcome: 'TOOL_SUCCESS' });
    expect(refused).toMatchObject({ status: 400, session: null, outcome: 'HTTP_ERROR', detail: { errorMessage: 'Bad Request: Mcp-Session-Id header is required' } });
    expect(step('delete-then-call', 'lookup_order 1002 after DELETE').error).toMatchObject({ code: 400 });
    expect(deleted).toMatchObject({ id: 50, status: 404, session: first!.session, detail: { errorCode: -32001 } });
    // Fixed: the session-less POST was nobody's (its caller key had no client name), so the app's retry stood alone.
    expect(retry).toMatchObject({ outcome: 'TOOL_SUCCESS', call: refused!.call, attempt: 2, retryOrigin: { origin: 'app' } });
    expect(retry!.session).not.toBe(first!.session);
    const expired = r.findings.filter((f) => f.code === 'SESSION_EXPIRED');
    expect(expired).toHaveLength(1);
    // Fixed: the 404 answers a session the client had ended itself, not one the server lost.
    // (Since the ninth audit: the 404'd request came from the raw connection, not from "app-1", which sent the DELETE.)
    expect(expired[0]!.message).toMatch(/after another client \("app-1"\) had ended this session \(its DELETE at .*client\.ndjson:\d+ was accepted\): the request reused a session id someone else terminated, the server did not lose the session/);
    expect(allCodes(r)).not.toContain('RETRY_ORIGIN_AMBIGUOUS');
  });

  it('wrangler dev restarted between calls: the Durable Object\'s session survives (state under --persist-to), no 404, no finding', () => {
    const r = both('wrangler-restart');
    expect(new Set(r.attempts.map((a) => a.session)).size).toBe(1);
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(['send_invoice TOOL_SUCCESS', 'send_invoice TOOL_SUCCESS', 'lookup_order TOOL_SUCCESS']);
    expect(observed('wrangler-restart').steps.every((s) => s.ok)).toBe(true);
    expect(allCodes(r)).toEqual([]);
  });

  it('wrangler dev restarted while a tool ran: the resumed GET gets 200 and nothing more, the client times out: STREAM_INCOMPLETE, NO_FINAL_RESULT, CANCELLED; the session lives on', () => {
    const r = both('restart-mid-call');
    const [cut, after] = calls(r);
    expect(step('restart-mid-call', 'slow_report').error).toMatchObject({ code: -32001 });
    expect(cut).toMatchObject({ status: 200, outcome: 'STREAM_INCOMPLETE', cancelled: true });
    expect(cut!.detail?.why).toMatch(/the client tried to resume it \d+ times? \(GET with Last-Event-ID\)/);
    expect(cut!.sse?.progress).toBe(note<number[]>('restart-mid-call', 'progressSeen').length);
    expect(codes(cut!)).toEqual(['NO_FINAL_RESULT', 'CANCELLED']);
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS', session: cut!.session, attempt: 1 });
    expect(allCodes(r)).not.toContain('SESSION_EXPIRED');
  });

  it('progress on the call\'s stream, counted as the client saw it; elicitation/create comes on the GET stream (McpAgent.elicitInput), answered by a POST: successes, no orphan', () => {
    const r = both('progress-elicitation');
    const [slow, refund, after] = calls(r);
    expect(slow).toMatchObject({ outcome: 'TOOL_SUCCESS', sse: { progress: note<number[]>('progress-elicitation', 'progressSeen').length } });
    expect(refund).toMatchObject({ outcome: 'TOOL_SUCCESS', sse: { serverRequests: 0 } });
    expect(step('progress-elicitation', 'confirm_refund').got).toEqual({ text: 'refunded 1001', isError: false });
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS' });
    expect(allCodes(r)).toEqual([]);
  });

  it('a stream cut before the result: the client resumes with Last-Event-ID, the Durable Object replays the stored events and the result: TOOL_SUCCESS in one attempt, no NO_FINAL_RESULT', () => {
    const r = both('sse-cut-resume');
    const [slow, after] = calls(r);
    expect(step('sse-cut-resume', 'slow_report').got).toEqual({ text: 'report of 6 steps', isError: false });
    expect(slow).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1, sse: { progress: note<number[]>('sse-cut-resume', 'progressSeen').length } });
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(allCodes(r)).toEqual([]);
  });

  it('a client timeout: notifications/cancelled gets 202, McpAgent keeps the POST stream open without a result: STREAM_INCOMPLETE and CANCELLED, not NO_FINAL_RESULT nor SIDE_DIVERGENCE', () => {
    const r = both('timeout-cancel');
    const [slow, after] = calls(r);
    expect(step('timeout-cancel', 'slow_report').error).toMatchObject({ code: -32001 });
    expect(slow).toMatchObject({ outcome: 'STREAM_INCOMPLETE', cancelled: true });
    expect(codes(slow!)).toEqual(['CANCELLED']);
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS' });
    expect(allCodes(r)).not.toContain('SIDE_DIVERGENCE');
  });
});

describe('McpAgent over the deprecated HTTP+SSE transport (/sse), the SDK 1.32.2 SSEClientTransport', () => {
  it('every POST answered 202, every response on the GET stream: joined as such; a POST to a made-up session id is accepted with 202 and never answered', () => {
    const r = both('legacy-sse');
    const [lookup, invalid, unknown, madeUp] = calls(r);
    expect(r.attempts.filter((a) => a.session === lookup!.session).map((a) => `${a.method} ${a.status} ${a.outcome}`)).toEqual([
      'initialize 202 SUCCESS', 'tools/list 202 SUCCESS', 'tools/call 202 TOOL_SUCCESS', 'tools/call 202 TOOL_ERROR', 'tools/call 202 TOOL_ERROR',
    ]);
    expect(invalid!.detail?.errorMessage).toBe('quantity must be positive, got -3');
    expect(unknown!.detail?.errorMessage).toBe('MCP error -32602: Tool no_such_tool not found');
    expect(step('legacy-sse', 'POST to /sse/message with a made-up').raw).toMatchObject({ status: 202, body: 'Accepted' });
    expect(madeUp).toMatchObject({ id: 9, session: 'b'.repeat(64), status: 202, outcome: 'STREAM_INCOMPLETE' });
    expect(codes(madeUp!)).toEqual(['NO_FINAL_RESULT']);
    expect(allCodes(r).filter((c) => c !== 'NO_FINAL_RESULT')).toEqual([]);
  });
});

describe('createMcpHandler (SDK v2 McpServer, no Durable Object)', () => {
  it('the 1.32.2 client gets no session id; the v2 client negotiates 2026-07-28 after server/discover; a throwing tool is isError, an unknown tool -32602 in HTTP 200', () => {
    const r = both('stateless-handler');
    expect(note<{ sessionId: null; protocolVersion: string }>('stateless-handler', 'v1')).toEqual({ protocolVersion: '2025-11-25', sessionId: null });
    expect(note<{ negotiated: string }>('stateless-handler', 'v2')).toEqual({ negotiated: '2026-07-28' });
    expect(r.attempts.every((a) => a.session === null)).toBe(true);
    expect(r.attempts.map((a) => `${a.method} ${a.tool ?? ''} ${a.status} ${a.outcome}`.replace('  ', ' '))).toEqual([
      'initialize 200 SUCCESS', 'tools/list 200 SUCCESS', 'tools/call lookup_order 200 TOOL_SUCCESS', 'tools/call validate_quantity 200 TOOL_ERROR',
      'tools/call crash 200 TOOL_ERROR', 'tools/call no_such_tool 200 JSONRPC_ERROR',
      'server/discover 200 SUCCESS', 'tools/list 200 SUCCESS', 'tools/call lookup_order 200 TOOL_SUCCESS', 'tools/call crash 200 TOOL_ERROR', 'tools/call no_such_tool 200 JSONRPC_ERROR',
    ]);
    expect(step('stateless-handler', 'v1 no_such_tool').error).toMatchObject({ code: -32602 });
    expect(step('stateless-handler', 'v2 no_such_tool').error).toMatchObject({ name: 'ProtocolError', code: -32602 });
    // Two clients, each numbering its ids from 0, without sessions: no id reuse, no orphan.
    expect(allCodes(r)).toEqual([]);
  });
});
