// Real traffic against more npm server frameworks (mcp-framework, the reference server-everything, Vercel's mcp-handler, Mastra's MCPServer; test/fixtures/real-servers2), and what mcp-triage says of it.
// The recordings are committed; re-recording needs the npm packages (see test/fixtures/real-servers2/README.md).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, recordedPairs, triageCli, type CliRun } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-servers2/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; serverOutcome?: string;
  call: string; attempt: number; retryOrigin?: { origin: string; how: string }; findings: Finding[]; notSeenByServer?: boolean; cancelled?: boolean;
  sse?: { events: number; progress: number; serverRequests: number }; detail?: { why?: string; errorCode?: number; errorMessage?: string };
}
interface SessionFinding { type: 'finding'; session: string | null; code: string; message: string }
type Run = CliRun<Attempt, SessionFinding>;
interface Step { step: string; ok?: boolean; got?: { content?: { text: string }[]; isError?: boolean }; error?: { name: string; message: string; code?: number | string }; raw?: { status?: number; contentType?: string | null; body?: string } }
interface Observed { steps: Step[]; notes: unknown[] }

const both = recordedPairs<Attempt, SessionFinding>(DIR);
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
const step = (s: string, label: string) => observed(s).steps.find((x) => x.step.startsWith(label))!;
const text = (st: Step) => st.got?.content?.map((c) => c.text).join(' ');
const progressSeen = (s: string) => (observed(s).notes.find((n) => (n as { progressSeen?: number[] }).progressSeen) as { progressSeen: number[] }).progressSeen;
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/observed.json`));

/** The outcome the caller's step implies: a thrown error after an HTTP error, a JSON-RPC error, or the result's isError. */
function outcomeOf(st: Step): string {
  if (st.ok === false) return typeof st.error?.code === 'number' && st.error.code >= 400 && st.error.code < 600 ? 'HTTP_ERROR' : st.error?.code === -32001 || st.error?.code === 'REQUEST_TIMEOUT' ? 'TIMEOUT' : 'JSONRPC_ERROR';
  return st.got?.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
}

describe('every recording of the server frameworks', () => {
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

  // Where the caller got a result or an error, the attempt's outcome is what it got (timeouts are local: the wire has none).
  const plain = ['mf-baseline', 'mf-errors', 'mf-json-response', 'ev-baseline', 'ev-errors', 'mh-v1-client', 'mh-v2-client'];
  it.each(plain)('%s: each tools/call has the outcome its caller got', (scenario) => {
    const r = both(scenario);
    const got = observed(scenario).steps.filter((st) => st.ok !== undefined && !/^tools\/list|^ping/.test(st.step)).map(outcomeOf);
    const wire = calls(r).filter((a) => a.status === 200 || a.status === 503).map((a) => a.outcome);
    expect(wire).toEqual(got);
  });
});

describe('PROGRESS_UNMATCHED across the recordings', () => {
  /** The progress notifications the SDK client reported through onerror as for an unknown token. */
  const unknownTokens = (s: string) => JSON.stringify(observed(s).notes).split('a progress notification for an unknown token').length - 1;
  /** The notifications PROGRESS_UNMATCHED counts in a run. */
  const counted = (r: Run) => r.findings.filter((f) => f.code === 'PROGRESS_UNMATCHED').reduce((n, f) => n + Number(/\((\d+) notifications\)/.exec(f.message)?.[1] ?? 1), 0);

  it.each(scenarios)('%s: fires exactly for the progress the caller\'s client reported as for an unknown token', (scenario) => {
    expect(counted(both(scenario))).toBe(unknownTokens(scenario));
  });

  // must not fire: progress on the call's stream, progress on the GET stream while the call was open, a resumption
  // stream, a server killed mid-progress (its call's stream cut: it may have run on), stateless SSE answers
  it.each(['ev-progress', 'ev-sse-cut-resume', 'ev-kill-during-call', 'mf-kill-during-call', 'mh-v1-client', 'mh-v2-client'])('%s: progress, none of it unmatched', (scenario) => {
    expect(readFileSync(`${DIR}${scenario}/client.ndjson`, 'utf8')).toContain('notifications/progress');
    expect(allCodes(both(scenario))).not.toContain('PROGRESS_UNMATCHED');
  });
});

describe('mcp-framework 0.2.22 (its HttpStreamTransport: one SDK Server for every session)', () => {
  it('baseline: every call a success; a second GET stream for the session is refused with 409 (no attempt), and named (GET_STREAM_REFUSED)', () => {
    const r = both('mf-baseline');
    expect(r.attempts.map((a) => `${a.method} ${a.outcome}`)).toEqual(['initialize SUCCESS', 'tools/list SUCCESS', 'tools/call TOOL_SUCCESS', 'tools/call TOOL_SUCCESS', 'ping SUCCESS']);
    expect(step('mf-baseline', 'GET /mcp').raw).toMatchObject({ status: 409 });
    expect(allCodes(r)).toEqual(['GET_STREAM_REFUSED']);
    expect(r.findings[0]!.message).toMatch(/^session [0-9a-f-]{36}: HTTP 409 to the client's GET stream \(saying "Conflict: Only one SSE stream is allowed per session"\): the stream was not opened, .*a 409 is how the TypeScript and Python SDK servers refuse a second GET stream/);
  });

  it('a tool that throws and bad arguments are isError results; an unknown tool is -32603 (not -32602), as the caller got it', () => {
    const r = both('mf-errors');
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(['crash TOOL_ERROR', 'lookup_order TOOL_ERROR', 'no_such_tool JSONRPC_ERROR', 'crash TOOL_ERROR']);
    const unknown = calls(r)[2]!;
    expect(step('mf-errors', 'no_such_tool').error).toMatchObject({ code: unknown.detail!.errorCode });
    expect(unknown.detail).toMatchObject({ errorCode: -32603, errorMessage: expect.stringMatching(/^Unknown tool: no_such_tool/) });
    expect(allCodes(r)).toEqual([]);
  });

  it('progress comes on the session\'s GET stream (the framework broadcasts it), and is counted for the call as far as the client saw it', () => {
    const [slow] = calls(both('mf-progress'));
    expect(slow).toMatchObject({ outcome: 'TOOL_SUCCESS', sse: { progress: progressSeen('mf-progress').length } });
    // the last progress came after the result: the SDK client reported it as an unknown token
    expect(observed('mf-progress').notes).toContainEqual({ client: 'servers2-app', onerror: expect.objectContaining({ message: expect.stringMatching(/^Received a progress notification for an unknown token/) }) });
  });

  it('the last step after the result is PROGRESS_UNMATCHED: one finding for the session, naming the call it was late for and both logs\' records', () => {
    const r = both('mf-progress');
    expect(allCodes(r)).toEqual(['PROGRESS_UNMATCHED']);
    const [f] = r.findings;
    expect(f).toMatchObject({ severity: 'warning', session: calls(r)[0]!.session });
    // The client's log: the result at .960, its end and this step at .961 (the client took it for an unknown token).
    expect(f!.message).toMatch(/^session [0-9a-f-]{36}: notifications\/progress for token 1 came 1 ms after the response to tools\/call id 1 \(slow_report, sent at .*mf-progress\/client\.ndjson:9\), which had asked for it, with no other request of the session open with it: progress MUST stop when its request completes/);
    expect((f as unknown as { sources: { file: string; line: number }[] }).sources.map((x) => `${x.file.replace(/^.*\//, '')}:${x.line}`)).toEqual(['client.ndjson:17', 'server.ndjson:17', 'client.ndjson:9']);
    // The server's log alone: the proxy saw the step in the result's millisecond, after it.
    const server = triageCli<Attempt, SessionFinding>(['--server', `${DIR}mf-progress/server.ndjson`]);
    expect(server.findings.map((x) => x.message)).toEqual([expect.stringMatching(/for token 1 came in the same millisecond as, and after, the response to tools\/call id 1/)]);
  });

  it('a client timeout: the tool runs on and its result comes after the cancellation, which the client drops', () => {
    const [slow, after] = calls(both('mf-timeout-cancel'));
    expect(step('mf-timeout-cancel', 'slow_report').error).toMatchObject({ code: -32001 });
    // (what the client saw: its timeout; the late result is the server's outcome: the sixtieth audit)
    expect(slow).toMatchObject({ outcome: 'STREAM_INCOMPLETE', serverOutcome: 'TOOL_SUCCESS', cancelled: true });
    expect(slow!.findings).toEqual([expect.objectContaining({ code: 'CANCELLED', message: expect.stringMatching(/result came after that, when the client had given up on it$/) })]);
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
  });

  it('a restart: the old session gets 404 -32001 "Session not found", SESSION_EXPIRED; the app\'s new session retries (linked)', () => {
    const r = both('mf-restart');
    const [, lost, retry] = calls(r);
    expect(step('mf-restart', 'send_invoice 1002 (old session)').error).toMatchObject({ code: 404 });
    expect(lost).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', detail: { errorCode: -32001, errorMessage: 'Session not found' } });
    expect(retry).toMatchObject({ outcome: 'TOOL_SUCCESS', call: lost!.call, attempt: 2 });
    expect(r.findings.map((f) => `${f.code} ${f.session}`)).toEqual([`SESSION_EXPIRED ${lost!.session}`]);
  });

  it('the process killed during a call: the call\'s stream breaks before the result (progress came on the GET stream); NO_FINAL_RESULT, and CANCELLED at the client\'s timeout', () => {
    const r = both('mf-kill-during-call');
    const [killed, again] = calls(r);
    expect(step('mf-kill-during-call', 'slow_report 10x100').error).toMatchObject({ code: -32001 });
    expect(killed).toMatchObject({ outcome: 'STREAM_INCOMPLETE', sse: { events: 0, progress: progressSeen('mf-kill-during-call').length } });
    expect(codes(killed!)).toEqual(['NO_FINAL_RESULT', 'CANCELLED']);
    // other arguments in the new session: a call of its own, not a retry
    expect(again).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(again!.session).not.toBe(killed!.session);
  });

  it('a client that keeps the lost session\'s id on its new initialize (the framework allows it): the initialize opens the new session it announced, and the call repeated there is the 404\'s retry', () => {
    const r = both('mf-stale-session-reinit');
    const raw = (label: string) => step('mf-stale-session-reinit', label).raw!;
    expect(raw('tools/call send_invoice 1002 (old session)')).toMatchObject({ status: 404 });
    expect(raw('initialize again, still carrying the old session id')).toMatchObject({ status: 200 });
    expect(observed('mf-stale-session-reinit').notes).toContainEqual({ newSessionAnnounced: true });
    const [init, , lost, reinit, again] = r.attempts;
    expect(reinit).toMatchObject({ id: 3, method: 'initialize', outcome: 'SUCCESS' });
    expect(reinit!.session).not.toBe(init!.session);
    expect(again!.session).toBe(reinit!.session);
    expect(again).toMatchObject({ id: 4, outcome: 'TOOL_SUCCESS', call: lost!.call, attempt: 2 });
    expect(r.findings).toEqual([expect.objectContaining({ code: 'SESSION_EXPIRED', session: lost!.session, message: expect.stringMatching(/the client re-initialized and retried the call$/) })]);
  });

  it('DELETE then a call: the SDK client sends on without a session (400, explained by the DELETE); the deleted id gets 404, SESSION_EXPIRED names the connection that ended it', () => {
    const r = both('mf-delete-then-call');
    const [, after, deleted] = calls(r);
    expect(step('mf-delete-then-call', 'lookup_order 1002 after DELETE').error).toMatchObject({ code: 400 });
    expect(after).toMatchObject({ session: null, status: 400, outcome: 'HTTP_ERROR', detail: { why: expect.stringMatching(/after the client's DELETE of session .*which was accepted/) } });
    expect(step('mf-delete-then-call', 'tools/call with the deleted session id').raw).toMatchObject({ status: 404 });
    expect(deleted).toMatchObject({ id: 50, status: 404 });
    // (Since the ninth audit: the request with the deleted id came from the raw connection, the DELETE from "app-1".)
    expect(r.findings).toEqual([expect.objectContaining({ code: 'SESSION_EXPIRED', message: expect.stringMatching(/after another client \("app-1"\) had ended this session/) })]);
    // A broken JSON body is a plain-text 500 from the framework: no attempt (no request could be read)
    expect(step('mf-delete-then-call', 'a broken JSON body').raw).toMatchObject({ status: 500, body: 'Internal Server Error' });
  });

  it('two sessions with id 2 open at once: both callers got the same result, one of them another\'s; ORPHAN_RESPONSE names the pair and the one that took the other\'s answer', () => {
    const r = both('mf-two-clients');
    const alpha = step('mf-two-clients', 'alpha slow_report');
    const beta = step('mf-two-clients', 'beta lookup_order 2002');
    // What the callers saw: alpha's slow_report got beta's lookup_order answer
    expect(text(alpha)).toBe(text(beta));
    expect(text(alpha)).toMatch(/order 2002/);
    const [slow, lookup] = calls(r).filter((a) => a.id === 2);
    expect([slow!.tool, lookup!.tool]).toEqual(['slow_report', 'lookup_order']);
    expect(slow!.session).not.toBe(lookup!.session);
    const crossed = [...codes(slow!), ...codes(lookup!)];
    expect(crossed).toEqual(['ORPHAN_RESPONSE']);
    const f = [...slow!.findings, ...lookup!.findings][0]!;
    // ...and says which: the result names beta's orderId 2002, which alpha's slow_report did not carry
    expect(f.message).toMatch(/^tools\/call lookup_order id 2: its result is identical to the one tools\/call slow_report id 2 in session .* got \d+ ms before it, and names "2002", which only this request carried: that call took this one's answer/);
    // must not fire: the same request from both sessions at once (id 3 each) has the same answer, rightly
    const same = calls(r).filter((a) => a.id === 3);
    expect(same).toHaveLength(2);
    expect(text(step('mf-two-clients', 'alpha lookup_order 3003'))).toBe(text(step('mf-two-clients', 'beta lookup_order 3003')));
    expect(same.flatMap(codes)).toEqual([]);
    expect(allCodes(r)).toEqual(['ORPHAN_RESPONSE']);
  });

  it('JSON response mode ("batch"): JSON bodies; a 503 retried by the app is linked (origin app); progress without a stream is still counted as the client saw it', () => {
    const r = both('mf-json-response');
    const [failed, retry] = calls(r).filter((a) => a.tool === 'send_invoice');
    expect(failed).toMatchObject({ status: 503, outcome: 'HTTP_ERROR', notSeenByServer: true });
    expect(retry).toMatchObject({ outcome: 'TOOL_SUCCESS', call: failed!.call, attempt: 2, retryOrigin: { origin: 'app' } });
    const slow = calls(r).find((a) => a.tool === 'slow_report')!;
    expect(slow).toMatchObject({ outcome: 'TOOL_SUCCESS', sse: { progress: progressSeen('mf-json-response').length } });
    // Its last step came on the GET stream right after the JSON result (the client reported an unknown token).
    expect(allCodes(r)).toEqual(['PROGRESS_UNMATCHED']);
    expect(r.findings[0]!.message).toMatch(/for token 7 came in the same millisecond as, and after, the response to tools\/call id 7 \(slow_report, sent at .*client\.ndjson:27\)/);
  });
});

describe('@modelcontextprotocol/server-everything 2026.8.31 (streamableHttp: Express, a server and an event store per session)', () => {
  it('baseline: successes, structuredContent, nothing flagged', () => {
    const r = both('ev-baseline');
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(['echo TOOL_SUCCESS', 'get-sum TOOL_SUCCESS', 'get-structured-content TOOL_SUCCESS']);
    expect(allCodes(r)).toEqual([]);
  });

  it('an unknown tool, bad arguments and tools the client lacks the capability for are isError results (the SDK McpServer)', () => {
    const r = both('ev-errors');
    expect(calls(r).every((a) => a.outcome === 'TOOL_ERROR' && a.status === 200)).toBe(true);
    expect(text(step('ev-errors', 'get-roots-list'))).toMatch(/Tool get-roots-list not found/);
    expect(allCodes(r)).toEqual([]);
  });

  it('progress on the call\'s stream, every event with an id: counted as the client saw it', () => {
    const [slow] = calls(both('ev-progress'));
    expect(slow).toMatchObject({ outcome: 'TOOL_SUCCESS', sse: { progress: progressSeen('ev-progress').length } });
  });

  it('a client timeout: the SDK server drops the result; the stream ends without it: STREAM_INCOMPLETE and CANCELLED, no NO_FINAL_RESULT', () => {
    const [slow, after] = calls(both('ev-timeout-cancel'));
    expect(step('ev-timeout-cancel', 'trigger-long-running-operation').error).toMatchObject({ code: -32001 });
    expect(slow).toMatchObject({ outcome: 'STREAM_INCOMPLETE', cancelled: true });
    expect(codes(slow!)).toEqual(['CANCELLED']);
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
  });

  it('a restart: the old session gets 400 "No valid session ID provided" (not 404); SESSION_EXPIRED quotes it', () => {
    const r = both('ev-restart');
    const [, lost, retry] = calls(r);
    expect(step('ev-restart', 'echo two (old session)').error).toMatchObject({ code: 400 });
    expect(lost).toMatchObject({ status: 400, outcome: 'HTTP_ERROR', detail: { errorMessage: 'Bad Request: No valid session ID provided' } });
    expect(retry).toMatchObject({ outcome: 'TOOL_SUCCESS', call: lost!.call, attempt: 2 });
    expect(r.findings).toEqual([expect.objectContaining({ code: 'SESSION_EXPIRED', message: expect.stringMatching(/saying "Bad Request: No valid session ID provided": the server no longer knows the session but answered 400 where the spec asks 404/) })]);
  });

  it('the process killed during a call: the client\'s resumption (Last-Event-ID) gets no response; the app\'s same call in a new session is linked, and UNSAFE_RETRY is an error (proven to have run; no tools/list in the logs says the tool is read-only)', () => {
    const r = both('ev-kill-during-call');
    const [killed, retry] = calls(r);
    expect(step('ev-kill-during-call', 'trigger-long-running-operation 1 s').error).toMatchObject({ code: -32001 });
    expect(killed).toMatchObject({ outcome: 'STREAM_INCOMPLETE', sse: { progress: progressSeen('ev-kill-during-call').length } });
    expect(codes(killed!)).toEqual(['NO_FINAL_RESULT', 'CANCELLED']);
    expect(killed!.detail?.why).toMatch(/tried to resume it once \(GET with Last-Event-ID\), answered no response/);
    expect(step('ev-kill-during-call', 'trigger-long-running-operation again').ok).toBe(true);
    expect(retry).toMatchObject({ outcome: 'TOOL_SUCCESS', call: killed!.call, attempt: 2 });
    expect(retry!.findings.find((f) => f.code === 'UNSAFE_RETRY')).toMatchObject({ severity: 'error', message: expect.stringMatching(/annotations are unknown .*the server view shows the earlier attempt reached the server$/) });
  });

  it('DELETE then a call: 400 "Server not initialized" without a session (a new server the example made for it), explained by the DELETE; the deleted id gets 400, and SESSION_EXPIRED reads as one sentence', () => {
    const r = both('ev-delete-then-call');
    const [, after, deleted] = calls(r);
    expect(step('ev-delete-then-call', 'echo two after DELETE').error?.message).toMatch(/Server not initialized/);
    expect(after).toMatchObject({ session: null, status: 400, detail: { why: expect.stringMatching(/after the client's DELETE of session .*which was accepted/) } });
    expect(step('ev-delete-then-call', 'tools/call with the deleted session id').raw).toMatchObject({ status: 400 });
    expect(deleted).toMatchObject({ id: 50, status: 400, outcome: 'HTTP_ERROR' });
    expect(r.findings.map((f) => f.message)).toEqual([
      expect.stringMatching(/saying "Bad Request: No valid session ID provided" after another client \("app-1"\) had ended this session \(its DELETE at .* was accepted\): the request reused a session id someone else terminated, the server did not lose the session; the server answered 400 where the spec asks 404 for a terminated session; the client did not re-initialize$/),
    ]);
  });

  it('a cut stream: the client resumes with Last-Event-ID, but the example\'s event store replays nothing more and the result never comes: STREAM_INCOMPLETE, NO_FINAL_RESULT, the resumption named', () => {
    const [cut, after] = calls(both('ev-sse-cut-resume'));
    expect(step('ev-sse-cut-resume', 'trigger-long-running-operation').error).toMatchObject({ code: -32001 });
    expect(cut).toMatchObject({ outcome: 'STREAM_INCOMPLETE', sse: { progress: progressSeen('ev-sse-cut-resume').length } });
    expect(codes(cut!)).toEqual(['NO_FINAL_RESULT', 'CANCELLED']);
    expect(cut!.detail?.why).toMatch(/tried to resume it once \(GET with Last-Event-ID\)/);
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
  });

  it('two sessions with the same ids at once, each served by its own server: every caller got its own answer, and nothing is flagged', () => {
    const r = both('ev-two-clients');
    expect(text(step('ev-two-clients', 'beta echo beta'))).toBe('Echo: beta');
    expect(calls(r).filter((a) => a.id === 2).map((a) => a.tool)).toEqual(['trigger-long-running-operation', 'echo']);
    expect(text(step('ev-two-clients', 'alpha echo same'))).toBe(text(step('ev-two-clients', 'beta echo same')));
    expect(allCodes(r)).toEqual([]);
  });
});

describe('mcp-handler 2.4.0 (Vercel; the v2 SDK server, stateless)', () => {
  it('the SDK 1.x client: no session id, SSE answers; an unknown tool is -32602, a throwing tool and bad arguments isError; GET and DELETE 405', () => {
    const r = both('mh-v1-client');
    expect(observed('mh-v1-client').notes).toContainEqual({ sessionId: null, protocolVersion: '2025-11-25' });
    expect(r.attempts.every((a) => a.session === null)).toBe(true);
    expect(calls(r).find((a) => a.tool === 'no_such_tool')).toMatchObject({ outcome: 'JSONRPC_ERROR', detail: { errorCode: -32602 } });
    expect(step('mh-v1-client', 'GET /mcp').raw).toMatchObject({ status: 405 });
    expect(step('mh-v1-client', 'DELETE /mcp').raw).toMatchObject({ status: 405 });
    expect(calls(r).find((a) => a.tool === 'slow_report')).toMatchObject({ sse: { progress: progressSeen('mh-v1-client').length } });
    expect(allCodes(r)).toEqual([]);
  });

  it('the v2 client: server/discover, 2026-07-28, the same outcomes, nothing flagged', () => {
    const r = both('mh-v2-client');
    expect(observed('mh-v2-client').notes).toContainEqual({ negotiated: '2026-07-28' });
    expect(r.attempts[0]).toMatchObject({ method: 'server/discover', outcome: 'SUCCESS' });
    expect(calls(r).find((a) => a.tool === 'no_such_tool')).toMatchObject({ outcome: 'JSONRPC_ERROR', detail: { errorCode: -32602 } });
    expect(allCodes(r)).toEqual([]);
  });

  it('timeouts: the 1.x client\'s cancellation does not stop the tool (its result comes after it); the v2 client closes the request, which is the cancellation on 2026-07-28', () => {
    const r = both('mh-timeout-cancel');
    const [v1, , v2] = calls(r);
    expect(step('mh-timeout-cancel', 'slow_report').error).toMatchObject({ code: -32001 });
    expect(v1).toMatchObject({ outcome: 'STREAM_INCOMPLETE', serverOutcome: 'TOOL_SUCCESS', cancelled: true });
    expect(codes(v1!)).toEqual(['CANCELLED']);
    expect(step('mh-timeout-cancel', 'v2: slow_report').error).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(v2!.findings).toEqual([expect.objectContaining({ code: 'CANCELLED', message: expect.stringMatching(/on 2026-07-28 closing the stream is the cancellation/) })]);
    expect(codes(v2!)).not.toContain('NO_FINAL_RESULT');
  });

  it('stateless: a 503 retried by the app is linked; a restart between calls is invisible (no session to lose)', () => {
    const r = both('mh-503-restart');
    const [failed, retry, after] = calls(r);
    expect(failed).toMatchObject({ status: 503, outcome: 'HTTP_ERROR', notSeenByServer: true });
    expect(retry).toMatchObject({ outcome: 'TOOL_SUCCESS', call: failed!.call, attempt: 2, retryOrigin: { origin: 'app' } });
    expect(step('mh-503-restart', 'lookup_order 1002 after the restart').ok).toBe(true);
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(allCodes(r)).toEqual([]);
  });
});

describe('@mastra/mcp 2.0.0 MCPServer (startHTTP; the v2 SDK server 2.0.0, 2026-07-28 only)', () => {
  it('a 2025-era client is refused at initialize (400 -32022); CALL_NEVER_SENT quotes the refusal; the app\'s v2 client then works', () => {
    const r = both('ma-v1-client-refused');
    expect(step('ma-v1-client-refused', 'SDK 1.32.2 client connects').error).toMatchObject({ code: 400, message: expect.stringMatching(/-32022/) });
    const init = r.attempts.find((a) => a.method === 'initialize')!;
    expect(init).toMatchObject({ status: 400, outcome: 'HTTP_ERROR', detail: { errorCode: -32022, errorMessage: 'Unsupported protocol version: 2025-11-25' } });
    expect(r.findings.map((f) => [f.code, f.message])).toEqual([['CALL_NEVER_SENT', expect.stringMatching(/^client app-1 .*initialize failed .*the server refused it \("Unsupported protocol version: 2025-11-25"\)/)]]);
    // must not fire for the client that got in: its call is a success
    expect(step('ma-v1-client-refused', 'lookup_order 1001 (v2)').ok).toBe(true);
    expect(calls(r)).toEqual([expect.objectContaining({ outcome: 'TOOL_SUCCESS', findings: [] })]);
  });

  it('the v2 client: a throwing tool, an unknown tool and bad arguments are isError; a 503 retried by the app is linked; a timeout is the client closing the request', () => {
    const r = both('ma-v2-client');
    expect(observed('ma-v2-client').notes).toContainEqual({ negotiated: '2026-07-28' });
    const byStep = (label: string) => outcomeOf(step('ma-v2-client', label));
    expect(calls(r).slice(0, 4).map((a) => a.outcome)).toEqual(['lookup_order 1001', 'crash', 'no_such_tool', 'lookup_order with a number'].map(byStep));
    const [failed, retry] = calls(r).filter((a) => a.tool === 'send_invoice');
    expect(step('ma-v2-client', 'send_invoice 1001 (503').error).toMatchObject({ status: 503 });
    expect(failed).toMatchObject({ status: 503, outcome: 'HTTP_ERROR', notSeenByServer: true });
    expect(retry).toMatchObject({ outcome: 'TOOL_SUCCESS', call: failed!.call, attempt: 2, retryOrigin: { origin: 'app' } });
    const slow = calls(r).find((a) => a.tool === 'slow_report')!;
    expect(step('ma-v2-client', 'slow_report').error).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(codes(slow)).toEqual(['CANCELLED']);
    expect(step('ma-v2-client', 'GET /mcp').raw).toMatchObject({ status: 405 });
    expect(step('ma-v2-client', 'DELETE /mcp').raw).toMatchObject({ status: 405 });
    expect(allCodes(r)).toEqual(['CANCELLED']);
  });
});
