// Real traffic against servers whose Streamable HTTP transport is not the official SDK's (tmcp, @hono/mcp; test/fixtures/real-servers), and what mcp-triage says of it.
// The recordings are committed; re-recording needs the npm packages (see test/fixtures/real-servers/README.md).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, recordedPairs, type CliRun } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-servers/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; serverOutcome?: string;
  call: string; attempt: number; retryOrigin?: { origin: string; how: string }; findings: Finding[]; notSeenByServer?: boolean; continuation?: boolean; cancelled?: boolean;
  sse?: { events: number; progress: number; serverRequests: number }; detail?: { why?: string; errorCode?: number; errorMessage?: string };
}
interface SessionFinding { type: 'finding'; session: string | null; code: string; message: string }
type Run = CliRun<Attempt, SessionFinding>;
interface Observed { steps: { step: string; ok?: boolean; got?: unknown; summary?: unknown; error?: { name: string; message: string; code?: number }; raw?: { status?: number; contentType?: string | null; body?: string } }[]; notes: unknown[] }

const both = recordedPairs<Attempt, SessionFinding>(DIR);
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
const step = (s: string, label: string) => observed(s).steps.find((x) => x.step.startsWith(label))!;
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/observed.json`));
const byId = (r: Run, id: string | number) => r.attempts.find((a) => a.id === id)!;

describe('every recording of another server implementation', () => {
  it('has the scenarios the README lists', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(20);
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

describe('tmcp 1.20.0 with @tmcp/transport-http 0.9.0, the SDK 1.32.2 client', () => {
  it('baseline: 2025-06-18 negotiated (tmcp has no 2025-11-25), every call a success, nothing flagged', () => {
    const r = both('tmcp-baseline');
    expect(observed('tmcp-baseline').notes).toContainEqual(expect.objectContaining({ protocolVersion: '2025-06-18' }));
    expect(r.attempts.map((a) => `${a.method} ${a.outcome}`)).toEqual(['initialize SUCCESS', 'tools/list SUCCESS', 'tools/call TOOL_SUCCESS', 'tools/call TOOL_SUCCESS', 'tools/call TOOL_SUCCESS', 'ping SUCCESS']);
    expect(allCodes(r)).toEqual([]);
  });

  it('an unknown tool and bad arguments are isError results; a tool that throws is a -32603 error with its message, and retrying it is UNSAFE_RETRY', () => {
    const r = both('tmcp-errors');
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual([
      'validate_quantity TOOL_ERROR', 'no_such_tool TOOL_ERROR', 'lookup_order TOOL_ERROR', 'crash JSONRPC_ERROR', 'crash JSONRPC_ERROR',
    ]);
    expect(step('tmcp-errors', 'no_such_tool').got).toEqual({ text: 'Tool no_such_tool not found', isError: true });
    const [first, again] = calls(r).filter((a) => a.tool === 'crash');
    expect(first).toMatchObject({ status: 200, detail: { errorCode: -32603, errorMessage: 'database connection refused' } });
    expect(step('tmcp-errors', 'crash (the tool throws)').error).toMatchObject({ code: -32603 });
    // The tool ran (the error came from inside it) and crash has no annotations: the app's retry is unsafe, and proven so.
    expect(again).toMatchObject({ call: first!.call, attempt: 2, retryOrigin: { origin: 'app' } });
    expect(again!.findings).toEqual([expect.objectContaining({ code: 'UNSAFE_RETRY', severity: 'error' })]);
    expect(r.findings).toEqual([]);
  });

  it('a 503 from the hop, retried by the app after the Retry-After: linked, origin app, and nothing unsafe (the server never saw the first)', () => {
    const [failed, retry] = calls(both('tmcp-503-app-retry'));
    expect(failed).toMatchObject({ status: 503, outcome: 'HTTP_ERROR', notSeenByServer: true, detail: { why: 'the body says: upstream unavailable' } });
    expect(retry).toMatchObject({ outcome: 'TOOL_SUCCESS', call: failed!.call, attempt: 2, retryOrigin: { origin: 'app' } });
    expect(codes(retry!)).toEqual([]);
  });

  it('a restarted server takes the old session id as it is: no 404, no SESSION_EXPIRED; only the lost client capabilities show (-32601 to an elicitation)', () => {
    const r = both('tmcp-server-restart');
    expect(new Set(r.attempts.map((a) => a.session)).size).toBe(1);
    expect(calls(r).map((a) => `${a.tool} ${a.status} ${a.outcome}`)).toEqual([
      'lookup_order 200 TOOL_SUCCESS', 'confirm_refund 200 TOOL_SUCCESS', 'lookup_order 200 TOOL_SUCCESS', 'confirm_refund 200 JSONRPC_ERROR',
    ]);
    expect(calls(r)[3]!.detail).toMatchObject({ errorCode: -32601, errorMessage: expect.stringMatching(/Client doesn't support form mode elicitation/) });
    expect(allCodes(r)).toEqual([]);
  });

  it('DELETE then a call: the SDK client drops its session id, tmcp mints a new one on the tools/call response; the deleted id still works', () => {
    const r = both('tmcp-delete-then-call');
    const [before, after, deleted] = calls(r);
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(after!.session).not.toBeNull();
    expect(after!.session).not.toBe(before!.session);
    expect(deleted).toMatchObject({ id: 50, session: before!.session, status: 200, outcome: 'TOOL_SUCCESS' });
    expect(allCodes(r)).not.toContain('SESSION_EXPIRED');
    expect(allCodes(r)).toEqual([]);
  });

  it('progress and a log message on the call\'s stream: the progress counted as the client saw it', () => {
    const [withToken, without] = calls(both('tmcp-progress-log'));
    const seen = (observed('tmcp-progress-log').notes.find((n) => (n as { progressSeen?: number[] }).progressSeen) as { progressSeen: number[] }).progressSeen;
    expect(withToken).toMatchObject({ outcome: 'TOOL_SUCCESS', sse: { progress: seen.length } });
    expect(without).toMatchObject({ outcome: 'TOOL_SUCCESS', sse: { progress: 0 } });
    expect(allCodes(both('tmcp-progress-log'))).toEqual([]);
  });

  it('elicitation/create and sampling/createMessage on the call\'s stream, answered by POSTs (202, no body): successes, no orphan', () => {
    const r = both('tmcp-elicitation-sampling');
    expect(calls(r).map((a) => `${a.tool} ${a.outcome} ${a.sse?.serverRequests}`)).toEqual(['confirm_refund TOOL_SUCCESS 1', 'summarize_order TOOL_SUCCESS 1', 'lookup_order TOOL_SUCCESS 0']);
    expect(allCodes(r)).toEqual([]);
  });

  it('a stream cut before the result (tmcp\'s events have no ids, so no resumption): STREAM_INCOMPLETE, NO_FINAL_RESULT, CANCELLED', () => {
    const [cut, after] = calls(both('tmcp-sse-cut'));
    expect(cut).toMatchObject({ outcome: 'STREAM_INCOMPLETE' });
    expect(codes(cut!)).toEqual(['NO_FINAL_RESULT', 'CANCELLED']);
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
  });

  it('a client timeout: tmcp does not stop the tool on notifications/cancelled and sends the result, which the SDK client drops', () => {
    const [slow, after] = calls(both('tmcp-timeout-cancel'));
    // (what the client saw: its timeout; the late result is the server's outcome: the sixtieth audit)
    expect(slow).toMatchObject({ outcome: 'STREAM_INCOMPLETE', serverOutcome: 'TOOL_SUCCESS', cancelled: true });
    expect(slow!.findings).toEqual([expect.objectContaining({ code: 'CANCELLED', message: expect.stringMatching(/its TOOL_SUCCESS result came after that, when the client had given up on it$/) })]);
    expect(observed('tmcp-timeout-cancel').notes).toContainEqual({ client: 'servers-app', onerror: expect.objectContaining({ message: expect.stringMatching(/^Received a response for an unknown message ID/) }) });
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
  });

  it('requests the SDK client would not send: a batch (400 -32600), text/plain (415), a tools/call with no session and no initialize (served, in a session minted on its response)', () => {
    const r = both('tmcp-raw-requests');
    expect([byId(r, 101), byId(r, 102)].map((a) => `${a.status} ${a.outcome} ${a.detail?.errorCode}`)).toEqual(['400 HTTP_ERROR -32600', '400 HTTP_ERROR -32600']);
    expect(step('tmcp-raw-requests', 'batch').raw?.body).toMatch(/JSON-RPC batch requests are not supported/);
    expect(byId(r, 103)).toMatchObject({ status: 415, outcome: 'HTTP_ERROR' });
    expect(step('tmcp-raw-requests', 'a second GET stream').raw).toMatchObject({ status: 409 });
    const sdk = byId(r, 0).session;
    const unasked = byId(r, 105);
    expect(unasked).toMatchObject({ status: 200, outcome: 'TOOL_SUCCESS' });
    expect(unasked.session).not.toBeNull();
    expect(unasked.session).not.toBe(sdk);
    // the tools/call with a broken JSON body is no attempt; its 400 Parse error is named, and so is the refused GET
    expect(allCodes(r).sort()).toEqual(['GET_STREAM_REFUSED', 'NOTIFICATION_REFUSED']);
    expect(r.findings.find((f) => f.code === 'NOTIFICATION_REFUSED')!.message).toMatch(/: HTTP 400 to a body that is not JSON, a POST with no request in it \(saying "Parse error"\): it was not accepted; the session went on$/);
    expect(r.findings.find((f) => f.code === 'GET_STREAM_REFUSED')!.message).toMatch(/: HTTP 409 to the client's GET stream \(saying "Conflict: Only one SSE stream is allowed per session"\)/);
  });

  it('2026-07-28 with the v2 client: server/discover, no sessions; an unknown method is a 404 (-32601), which is no SESSION_EXPIRED', () => {
    const r = both('tmcp-per-request-v2');
    expect(r.attempts.every((a) => a.session === null)).toBe(true);
    expect(r.attempts[0]).toMatchObject({ method: 'server/discover', outcome: 'SUCCESS' });
    expect(byId(r, 'raw-1')).toMatchObject({ method: 'resources/list', status: 404, outcome: 'HTTP_ERROR', detail: { errorCode: -32601 } });
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(['lookup_order TOOL_SUCCESS', 'validate_quantity TOOL_ERROR', 'no_such_tool TOOL_ERROR', 'crash JSONRPC_ERROR']);
    expect(allCodes(r)).toEqual([]);
  });

  it('2026-07-28: a rewritten Mcp-Name refused with 400 HeaderMismatch (-32020); the v2 client\'s own re-send is origin sdk, no warning', () => {
    const [refused, resent] = calls(both('tmcp-per-request-header-mismatch'));
    expect(refused).toMatchObject({ status: 400, outcome: 'HTTP_ERROR', detail: { errorCode: -32020 } });
    expect(resent).toMatchObject({ outcome: 'TOOL_SUCCESS', call: refused!.call, attempt: 2, retryOrigin: { origin: 'sdk' } });
    expect(codes(resent!)).toEqual([]);
  });

  it('2026-07-28 elicitation as input_required (MRTR): one call, the follow-up a continuation, no retry findings', () => {
    const r = both('tmcp-per-request-mrtr');
    const [ask, answer, after] = calls(r);
    expect(ask).toMatchObject({ tool: 'confirm_refund', outcome: 'INPUT_REQUIRED' });
    expect(answer).toMatchObject({ outcome: 'TOOL_SUCCESS', call: ask!.call, attempt: 2, continuation: true });
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(allCodes(r)).toEqual([]);
  });
});

describe('@hono/mcp 0.3.2 (StreamableHTTPTransport) with the SDK 1.32.2 McpServer', () => {
  it('baseline: a tool that throws, an unknown tool and bad arguments are all isError results (the SDK McpServer), nothing flagged', () => {
    const r = both('hono-baseline');
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual([
      'lookup_order TOOL_SUCCESS', 'send_invoice TOOL_SUCCESS', 'validate_quantity TOOL_ERROR', 'crash TOOL_ERROR', 'no_such_tool TOOL_ERROR', 'lookup_order TOOL_ERROR',
    ]);
    expect(allCodes(r)).toEqual([]);
  });

  it('a restart: the old session gets 400 "Server not initialized"; SESSION_EXPIRED quotes it; the app\'s call in its new session is linked (origin unknown: not noted)', () => {
    const r = both('hono-restart-not-initialized');
    const [, refused, retry] = calls(r);
    expect(refused).toMatchObject({ status: 400, outcome: 'HTTP_ERROR', detail: { errorMessage: 'Bad Request: Server not initialized' } });
    expect(retry).toMatchObject({ outcome: 'TOOL_SUCCESS', call: refused!.call, attempt: 2, retryOrigin: { origin: 'unknown' } });
    expect(retry!.session).not.toBe(refused!.session);
    expect(codes(retry!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
    expect(r.findings.map((f) => f.message)).toEqual([expect.stringMatching(/saying "Bad Request: Server not initialized".*the client re-initialized and retried the call$/)]);
  });

  it('a restart with another client first: the old session gets 404 "Session not found" (-32001), SESSION_EXPIRED; its client\'s new initialize is refused, and the message says so', () => {
    const r = both('hono-restart-other-client-first');
    const lost = calls(r).find((a) => a.status === 404)!;
    expect(lost).toMatchObject({ outcome: 'HTTP_ERROR', detail: { errorCode: -32001, errorMessage: 'Session not found' } });
    const expired = r.findings.filter((f) => f.code === 'SESSION_EXPIRED');
    expect(expired.map((f) => [f.session, f.message])).toEqual([[lost.session, expect.stringMatching(/HTTP 404 to tools\/call lookup_order id 2 that carried the session id; the client tried to re-initialize, but its initialize failed$/)]]);
    expect(r.findings.filter((f) => f.code === 'CALL_NEVER_SENT').map((f) => f.message)).toEqual([expect.stringMatching(/^client alpha-2 \(no session\): initialize failed .*"Invalid Request: Server already initialized"/)]);
  });

  it('one transport for the process: a second client\'s initialize is refused (400 -32600 "Server already initialized"), and CALL_NEVER_SENT says it never called a tool', () => {
    const r = both('hono-second-client-refused');
    const refused = r.attempts.find((a) => a.method === 'initialize' && a.status === 400)!;
    expect(refused).toMatchObject({ session: null, outcome: 'HTTP_ERROR', detail: { errorCode: -32600, errorMessage: 'Invalid Request: Server already initialized' } });
    expect(calls(r).map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_SUCCESS']);
    expect(r.findings.map((f) => `${f.code} ${f.message}`)).toEqual([
      expect.stringMatching(/^CALL_NEVER_SENT client beta \(no session\): initialize failed \(HTTP_ERROR, HTTP 400\).*: the server refused it \("Invalid Request: Server already initialized"\), so the client never got to call a tool$/),
    ]);
  });

  it('an unsupported MCP-Protocol-Version is answered with 404, not 400: an HTTP_ERROR that says so, and no SESSION_EXPIRED', () => {
    const r = both('hono-protocol-version-404');
    const [refused, retry] = calls(r);
    expect(refused).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', detail: { errorMessage: expect.stringMatching(/^Bad Request: Unsupported protocol version/) } });
    expect(retry).toMatchObject({ outcome: 'TOOL_SUCCESS', session: refused!.session, call: refused!.call, attempt: 2, retryOrigin: { origin: 'app' } });
    expect(allCodes(r)).toEqual([]);
  });

  it('progress and an elicitation on the call\'s stream; the answer POST gets 202 with the body "null": read, nothing flagged', () => {
    const r = both('hono-progress-elicitation');
    expect(calls(r).map((a) => `${a.tool} ${a.outcome} ${a.sse?.progress} ${a.sse?.serverRequests}`)).toEqual(['slow_report TOOL_SUCCESS 4 0', 'confirm_refund TOOL_SUCCESS 0 1']);
    expect(readFileSync(`${DIR}hono-progress-elicitation/server.ndjson`, 'utf8')).toMatch(/"end":"complete","recvText":"null"/);
    expect(allCodes(r)).toEqual([]);
  });

  it('a stream cut before the result: STREAM_INCOMPLETE, NO_FINAL_RESULT, CANCELLED', () => {
    const [cut, after] = calls(both('hono-sse-cut'));
    expect(cut).toMatchObject({ outcome: 'STREAM_INCOMPLETE' });
    expect(codes(cut!)).toEqual(['NO_FINAL_RESULT', 'CANCELLED']);
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
  });

  it('a client timeout: the SDK server drops the result after notifications/cancelled and the stream stays open; CANCELLED, no NO_FINAL_RESULT', () => {
    const [slow, after] = calls(both('hono-timeout-cancel'));
    expect(slow).toMatchObject({ outcome: 'STREAM_INCOMPLETE', cancelled: true });
    expect(codes(slow!)).toEqual(['CANCELLED']);
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
  });

  it('enableJsonResponse: JSON bodies; a 503 retried by the app; a batch answered with a JSON array, each request its own attempt', () => {
    const r = both('hono-json-response');
    expect(step('hono-json-response', 'batch').raw).toMatchObject({ status: 200, contentType: 'application/json' });
    expect(calls(r).map((a) => `${a.id} ${a.status} ${a.outcome}`)).toEqual(['2 200 TOOL_SUCCESS', '3 200 TOOL_ERROR', '4 503 HTTP_ERROR', '5 200 TOOL_SUCCESS', '101 200 TOOL_SUCCESS', '102 200 TOOL_ERROR']);
    expect(byId(r, 5)).toMatchObject({ call: byId(r, 4).call, attempt: 2, retryOrigin: { origin: 'app' } });
    expect(calls(r).every((a) => a.sse === undefined)).toBe(true);
    expect(allCodes(r)).toEqual([]);
  });

  it('the README\'s one sessionless transport for two clients: both count ids alike, the second GET stream gets 409, alpha\'s id 2 never gets its result; no ID_REUSED (two clients behind one recorder)', () => {
    const r = both('hono-shared-transport-two-clients');
    expect(r.attempts.every((a) => a.session === null)).toBe(true);
    const [alpha, beta] = calls(r);
    expect(alpha).toMatchObject({ id: 2, tool: 'slow_report', outcome: 'STREAM_INCOMPLETE' });
    expect(codes(alpha!)).toEqual(['CANCELLED']);
    expect(beta).toMatchObject({ id: 2, tool: 'lookup_order', outcome: 'TOOL_SUCCESS' });
    expect(observed('hono-shared-transport-two-clients').notes).toContainEqual({ client: 'agent-beta', onerror: expect.objectContaining({ code: 409 }) });
    expect(allCodes(r)).not.toContain('ID_REUSED');
    expect(allCodes(r)).not.toContain('ORPHAN_RESPONSE');
  });

  it('DELETE closes the one transport for good: the next call is a 500, a new client is refused at initialize (CALL_NEVER_SENT), yet the deleted session id is still served', () => {
    const r = both('hono-delete-then-call');
    const [before, after, deleted] = calls(r);
    expect(after).toMatchObject({ session: null, status: 500, outcome: 'HTTP_ERROR', detail: { why: expect.stringMatching(/^the body says: Internal Server Error; sent without a session id \d+ ms after the client's DELETE of session "[0-9a-f-]+", which was accepted: the client ended that session and sent on without one$/) } });
    expect(deleted).toMatchObject({ id: 50, session: before!.session, outcome: 'TOOL_SUCCESS' });
    const reinit = r.attempts.filter((a) => a.method === 'initialize');
    expect(reinit.map((a) => `${a.status} ${a.outcome}`)).toEqual(['200 SUCCESS', '400 HTTP_ERROR']);
    expect(r.findings.filter((f) => f.code === 'CALL_NEVER_SENT').map((f) => f.message)).toEqual([expect.stringMatching(/^client app-2 \(no session\): initialize failed .*the server refused it \("Invalid Request: Server already initialized"\)/)]);
    expect(allCodes(r)).not.toContain('SESSION_EXPIRED');
    // The re-connected McpServer handled id 50 twice: two identical result events on its stream, in the same millisecond.
    const events = readFileSync(`${DIR}hono-delete-then-call/client.ndjson`, 'utf8').split('\n').filter((l) => l.includes('"kind":"event"') && l.includes('\\"id\\":50'));
    expect(events.length).toBe(2);
  });
});

describe('the Python SDK 2.3.0 client against tmcp and @hono/mcp', () => {
  it('legacy mode against tmcp: 2025-06-18, the throwing tool a -32603 error, the elicitation answered; nothing flagged', () => {
    const r = both('py-client-tmcp-legacy');
    expect(observed('py-client-tmcp-legacy').notes).toContainEqual({ mode: 'legacy', protocolVersion: '2025-06-18' });
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual([
      'lookup_order TOOL_SUCCESS', 'validate_quantity TOOL_ERROR', 'crash JSONRPC_ERROR', 'no_such_tool TOOL_ERROR', 'slow_report TOOL_SUCCESS', 'confirm_refund TOOL_SUCCESS',
    ]);
    expect(calls(r).find((a) => a.tool === 'confirm_refund')!.sse?.serverRequests).toBe(1);
    expect(allCodes(r)).toEqual([]);
  });

  it('auto mode against tmcp: server/discover, then 2026-07-28 without sessions; the elicitation comes back as input_required and the follow-up continues the call', () => {
    const r = both('py-client-tmcp-auto');
    expect(observed('py-client-tmcp-auto').notes).toContainEqual({ mode: 'auto', protocolVersion: '2026-07-28' });
    expect(r.attempts[0]).toMatchObject({ method: 'server/discover', outcome: 'SUCCESS' });
    expect(r.attempts.every((a) => a.session === null)).toBe(true);
    const [ask, answer] = calls(r).filter((a) => a.tool === 'confirm_refund');
    expect(ask).toMatchObject({ outcome: 'INPUT_REQUIRED' });
    expect(answer).toMatchObject({ outcome: 'TOOL_SUCCESS', call: ask!.call, continuation: true });
    expect(allCodes(r)).toEqual([]);
  });

  it('@hono/mcp restarted: the Python client does not re-initialize after 400 "Server not initialized"; one SESSION_EXPIRED counts the refused calls and says so', () => {
    const r = both('py-client-hono-restart');
    const refused = calls(r).filter((a) => a.status === 400);
    expect(refused.map((a) => `${a.tool} ${a.outcome}`)).toEqual(['send_invoice HTTP_ERROR', 'lookup_order HTTP_ERROR']);
    expect(step('py-client-hono-restart', 'send_invoice 1001 after the restart').error).toMatchObject({ message: 'Bad Request: Server not initialized', code: -32000 });
    const expired = r.findings.filter((f) => f.code === 'SESSION_EXPIRED');
    expect(expired.length).toBe(1);
    expect(expired[0]!.message).toMatch(/HTTP 400 to 2 requests that carried the session id, over 0\.\d\d s \(tools\/call send_invoice id 9; tools\/call lookup_order id 10\), saying "Bad Request: Server not initialized".*; then the client did not re-initialize$/);
  });
});
