// Real traffic of agent frameworks' MCP clients (LangChain, OpenAI Agents, mcp-use; test/fixtures/real-agents), and what mcp-triage says of it.
// The recordings are committed; re-recording needs the npm packages (see test/fixtures/real-agents/README.md).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, recordedPairs } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-agents/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string;
  serverOutcome?: string; call: string; attempt: number; retryOrigin?: { origin: string; how: string }; findings: Finding[]; notSeenByServer?: boolean;
  resumed?: boolean; protocolVersion?: string; sse?: { events: number; progress: number }; detail?: { why?: string; errorCode?: number; errorMessage?: string };
}
interface SessionFinding { type: 'finding'; session: string | null; code: string; message: string }
interface Step { step: string; ok: boolean; got?: { text?: string; isError?: boolean; tools?: string[]; type?: string } | null; error?: { name: string; message: string; code?: unknown; status?: number; cause?: { message: string; code?: string } } }

const both = recordedPairs<Attempt, SessionFinding>(DIR);
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as { framework: string; steps: Step[]; notes: unknown[]; frameworkLog: string[] };
const step = (s: string, prefix: string) => observed(s).steps.find((x) => x.step.startsWith(prefix))!;
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/observed.json`));
const records = (s: string, side: 'client' | 'server') => readFileSync(`${DIR}${s}/${side}.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; method?: string; url?: string; session?: string | null; send?: { method?: string; params?: Record<string, unknown> }; requestHeaders?: Record<string, string>; status?: number });
const clientRecords = (s: string) => records(s, 'client');

describe('every agent-framework recording', () => {
  it('has the scenarios the README lists, for the three frameworks', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(20);
    expect(new Set(scenarios.map((s) => observed(s).framework))).toEqual(new Set(['langchain', 'openai', 'mcp-use']));
  });

  it.each(scenarios)('%s: read whole (client and server view), analyzed without error, every attempt joined to its server view or marked unseen', (scenario) => {
    const r = both(scenario);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
    expect(r.attempts.length).toBeGreaterThan(0);
    for (const a of r.attempts) expect(a.serverOutcome !== undefined || a.notSeenByServer === true).toBe(true);
  });

  it.each(scenarios)('%s: the tool results the caller got, in order, are the TOOL_SUCCESS and TOOL_ERROR calls on the wire', (scenario) => {
    // What the caller got: isError where the framework returns the whole result; with LangChain a text is a success
    // and a ToolException "returned an error" an isError result (it throws for those).
    const o = observed(scenario);
    const got = (x: Step): string | undefined => {
      if (x.ok && typeof x.got?.isError === 'boolean') return x.got.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
      if (o.framework === 'langchain' && x.ok && typeof x.got?.text === 'string') return 'TOOL_SUCCESS';
      if (o.framework === 'langchain' && !x.ok && / returned an error: /.test(x.error!.message)) return 'TOOL_ERROR';
      // an OpenAI FunctionTool's output is the content item itself (no isError with it; the recordings invoke one on success only)
      if (o.framework === 'openai' && x.ok && x.got?.type === 'text') return 'TOOL_SUCCESS';
      return undefined;
    };
    const tools = /\b(lookup_order|send_invoice|validate_quantity|slow_report|crash|no_such_tool)\b/;
    const seen = o.steps.map((x) => [tools.exec(x.step)?.[1], got(x)]).filter(([t, g]) => t && g).map(([t, g]) => `${t} ${g}`);
    const wire = calls(both(scenario)).filter((a) => a.outcome === 'TOOL_SUCCESS' || a.outcome === 'TOOL_ERROR').map((a) => `${a.tool} ${a.outcome}`);
    expect(wire).toEqual(seen);
  });
});

describe('LangChain @langchain/mcp-adapters 1.1.4 (its SDK: 1.32.2)', () => {
  it('lc-baseline: getTools() is one initialize and one tools/list (the second getTools() is cached), four calls, progress on the call that asked for it; no findings', () => {
    const r = both('lc-baseline');
    expect(r.attempts.map((a) => `${a.method} ${a.tool ?? ''}`.trim())).toEqual(['initialize', 'tools/list', 'tools/call lookup_order', 'tools/call send_invoice', 'tools/call validate_quantity', 'tools/call slow_report']);
    expect(calls(r).every((a) => a.outcome === 'TOOL_SUCCESS' && a.attempt === 1)).toBe(true);
    expect(calls(r).find((a) => a.tool === 'slow_report')!.sse!.progress).toBe(3);
    expect(allCodes(r)).toEqual([]);
    // close() sends no DELETE: the session is left to the server
    expect(clientRecords('lc-baseline').filter((x) => x.kind === 'request' && x.method === 'DELETE')).toEqual([]);
  });

  it('lc-tool-errors: isError and a thrown tool error are TOOL_ERROR (LangChain throws ToolException for both); the call LangChain refused by its own schema never reached the wire', () => {
    const r = both('lc-tool-errors');
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(['validate_quantity TOOL_ERROR', 'crash TOOL_ERROR', 'no_such_tool TOOL_ERROR', 'lookup_order TOOL_SUCCESS']);
    expect(step('lc-tool-errors', 'validate_quantity').error).toMatchObject({ name: 'ToolException' });
    expect(step('lc-tool-errors', 'lookup_order with a number').error!.message).toBe('Received tool input did not match expected schema');
    expect(calls(r).filter((a) => a.tool === 'lookup_order')).toHaveLength(1);
    expect(allCodes(r)).toEqual([]);
  });

  it('lc-http-503: LangChain does not retry a 503; the app\'s own call 1.1 s later is linked to it, origin unknown - and neither unsafe (a 503 ran nothing: the server never saw it) nor too early for its Retry-After', () => {
    const [first, again] = calls(both('lc-http-503'));
    expect(first).toMatchObject({ status: 503, outcome: 'HTTP_ERROR', notSeenByServer: true, detail: { why: 'the body says: upstream unavailable' } });
    expect(again).toMatchObject({ outcome: 'TOOL_SUCCESS', call: first!.call, attempt: 2, retryOrigin: { origin: 'unknown' } });
    expect(codes(again!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
    expect(step('lc-http-503', 'send_invoice 1001 (hop').error!.message).toBe('Error calling tool send_invoice: Error: Streamable HTTP error: Error POSTing to endpoint: upstream unavailable');
  });

  it('lc-initialize-429-sse-fallback: a 429 to initialize sends LangChain to the deprecated HTTP+SSE transport at once - origin sdk (the client falling back), and the Retry-After it ignored is said', () => {
    const r = both('lc-initialize-429-sse-fallback');
    const [refused, fallback] = r.attempts.filter((a) => a.method === 'initialize');
    expect(refused).toMatchObject({ status: 429, outcome: 'HTTP_ERROR', notSeenByServer: true });
    expect(fallback).toMatchObject({ status: 202, outcome: 'SUCCESS', call: refused!.call, attempt: 2, retryOrigin: { origin: 'sdk' } });
    expect(fallback!.retryOrigin!.how).toMatch(/deprecated HTTP\+SSE transport after HTTP 429/);
    expect(codes(fallback!)).toEqual(['RETRY_AFTER_IGNORED']);
    // it tried GET on the MCP URL first (refused, 400), then GET /sse, and the whole session ran there
    const gets = clientRecords('lc-initialize-429-sse-fallback').filter((x) => x.kind === 'request' && x.method === 'GET').map((x) => new URL(x.url!).pathname);
    expect(gets.slice(0, 2)).toEqual(['/mcp', '/sse']);
    expect(calls(r).map((a) => `${a.tool} ${a.status} ${a.outcome}`)).toEqual(['lookup_order 202 TOOL_SUCCESS', 'send_invoice 202 TOOL_SUCCESS']);
    expect(r.findings).toEqual([]);
  });

  it('lc-initialize-429-no-sse: the same fallback against a server without /sse fails (MCPClientError); the app\'s getTools() again is a retry of unknown origin, and no CALL_NEVER_SENT since calls followed', () => {
    const r = both('lc-initialize-429-no-sse');
    expect(step('lc-initialize-429-no-sse', 'getTools() (initialize: 429)').error).toMatchObject({ name: 'MCPClientError' });
    const [refused, again] = r.attempts.filter((a) => a.method === 'initialize');
    expect(refused).toMatchObject({ status: 429, outcome: 'HTTP_ERROR' });
    expect(again).toMatchObject({ outcome: 'SUCCESS', attempt: 2, retryOrigin: { origin: 'unknown' } });
    expect(codes(again!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']); // 1.1 s after Retry-After: 1: no RETRY_AFTER_IGNORED
    expect(allCodes(r)).not.toContain('CALL_NEVER_SENT');
  });

  it('lc-session-expired: no re-initialization on 404 - the same dead session gets the next call too; only the app\'s close() and getTools() open a new one, and its call is linked as attempt 3', () => {
    const r = both('lc-session-expired');
    const sends = calls(r).filter((a) => a.tool === 'send_invoice');
    expect(sends.map((a) => `${a.status} ${a.outcome} #${a.attempt} ${a.retryOrigin?.origin ?? '-'}`)).toEqual(['404 HTTP_ERROR #1 -', '404 HTTP_ERROR #2 unknown', '200 TOOL_SUCCESS #3 unknown']);
    expect(sends[0]!.session).toBe(sends[1]!.session);
    expect(sends[2]!.session).not.toBe(sends[0]!.session);
    // a 404 is corrected by a new session, not waited out: no RETRY_POLICY; the tool ran in no session that 404ed: no UNSAFE_RETRY
    expect(allCodes(r).filter((c) => c === 'RETRY_POLICY' || c === 'UNSAFE_RETRY')).toEqual([]);
    const expired = r.findings.filter((f) => f.code === 'SESSION_EXPIRED');
    // one expiry, one finding: the call re-sent into the dead session got a 404 again before the client re-initialized
    expect(expired).toHaveLength(1);
    expect(expired[0]!.message).toMatch(/HTTP 404 to 2 requests that carried the session id, over 0\.\d\d s \(tools\/call send_invoice id 3, re-sent as id 4 into the expired session\); then the client re-initialized and retried the call$/);
    expect(expired[0]!.sources).toHaveLength(4);
  });

  it('lc-tool-timeout: defaultToolTimeout becomes an abort: notifications/cancelled after about 0.4 s, the SDK\'s local -32001; CANCELLED, and no NO_FINAL_RESULT or SIDE_DIVERGENCE for the result nobody waited for', () => {
    const r = both('lc-tool-timeout');
    const slow = calls(r).find((a) => a.tool === 'slow_report')!;
    expect(slow).toMatchObject({ outcome: 'STREAM_INCOMPLETE' });
    expect(slow.detail!.why).toMatch(/^the client cancelled it \(notifications\/cancelled\) 0\.[34]\d s after sending it/);
    expect(codes(slow)).toEqual(['CANCELLED']);
    expect(step('lc-tool-timeout', 'slow_report').error!.message).toBe('Error calling tool slow_report: McpError: MCP error -32001: TimeoutError: The operation was aborted due to timeout');
    expect(calls(r).find((a) => a.tool === 'lookup_order')!.attempt).toBe(1);
  });

  it('lc-sse-cut-resumed: the reconnect option is the SDK\'s resumption: a GET with Last-Event-ID after its delay brings the result - one attempt, resumed, no findings', () => {
    const r = both('lc-sse-cut-resumed');
    const slow = calls(r).find((a) => a.tool === 'slow_report')!;
    expect(slow).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1, resumed: true, sse: { progress: 4 } });
    expect(allCodes(r)).toEqual([]);
    expect(clientRecords('lc-sse-cut-resumed').filter((x) => x.kind === 'request' && x.requestHeaders?.['last-event-id'])).toHaveLength(1);
  });

  it('lc-sse-cut-timeout: without event ids there is nothing to resume; the call waits for defaultToolTimeout - NO_FINAL_RESULT (the stream was cut before the cancel) and CANCELLED', () => {
    const slow = calls(both('lc-sse-cut-timeout')).find((a) => a.tool === 'slow_report')!;
    expect(slow.outcome).toBe('STREAM_INCOMPLETE');
    expect(slow.resumed).not.toBe(true);
    expect(codes(slow).sort()).toEqual(['CANCELLED', 'NO_FINAL_RESULT']);
  });

  it('lc-socket-destroyed: NO_RESPONSE, not seen by the server; no retry by the framework, the client goes on', () => {
    const r = both('lc-socket-destroyed');
    expect(calls(r).map((a) => `${a.tool} ${a.outcome} #${a.attempt}`)).toEqual(['send_invoice NO_RESPONSE #1', 'lookup_order TOOL_SUCCESS #1']);
    expect(calls(r)[0]!.notSeenByServer).toBe(true);
    expect(step('lc-socket-destroyed', 'send_invoice').error!.message).toBe('Error calling tool send_invoice: TypeError: fetch failed');
    expect(allCodes(r)).toEqual([]);
  });

  it('lc-fork-headers: a beforeToolCall that adds headers opens a new session for every call (initialize, no tools/list); three sessions, nothing misread', () => {
    const r = both('lc-fork-headers');
    const sessions = new Set(r.attempts.map((a) => a.session));
    expect(sessions.size).toBe(3);
    expect(calls(r).map((a) => a.session)).toEqual([...sessions].slice(1));
    expect(r.attempts.filter((a) => a.method === 'initialize')).toHaveLength(3);
    expect(calls(r).every((a) => a.outcome === 'TOOL_SUCCESS' && a.attempt === 1)).toBe(true);
    expect(allCodes(r)).toEqual([]);
    const headers = clientRecords('lc-fork-headers').filter((x) => x.kind === 'request' && x.send?.method === 'tools/call').map((x) => x.requestHeaders?.['x-request-id']);
    expect(headers).toEqual(['req-1', 'req-2']);
  });

  it('lc-sse-transport-restart: over HTTP+SSE a restart ends the stream and nothing reconnects; both calls get 404 in the old session; the reconnect runs on close() and opens a new session', () => {
    const r = both('lc-sse-transport-restart');
    const sends = calls(r).filter((a) => a.tool === 'send_invoice');
    expect(sends.map((a) => `${a.status} ${a.outcome} #${a.attempt}`)).toEqual(['404 HTTP_ERROR #1', '404 HTTP_ERROR #2']);
    expect(sends[0]!.detail!.why).toBe('the body says: Session not found');
    const reopened = r.attempts.filter((a) => a.method === 'initialize')[1]!;
    expect(reopened.session).not.toBe(sends[0]!.session);
    expect(observed('lc-sse-transport-restart').frameworkLog).toContain('@langchain/mcp-adapters:client INFO: HTTP connection for server "orders" closed, attempting to reconnect...');
    // the endpoint event named the session; the call was re-sent only into the expired session, before the re-initialization
    const expired = r.findings.filter((f) => f.code === 'SESSION_EXPIRED').map((f) => f.message);
    expect(expired).toEqual([
      expect.stringMatching(/HTTP 404 to 2 requests that carried the session id, over 0\.\d\d s \(tools\/call send_invoice id 3, re-sent as id 4 into the expired session\); then the client re-initialized but retried the call only in the expired session, before that$/),
    ]);
    expect(expired.join(' ')).not.toMatch(/may have taken it from another response/);
  });
});

describe('OpenAI @openai/agents-core 0.20.0 (its SDK: the v2 client @modelcontextprotocol/client 2.4.0)', () => {
  it('oa-baseline: the v2 client\'s server/discover probe (400), then initialize on 2025-11-25; cacheToolsList keeps the second listTools() off the wire, invalidateToolsCache() does not; close() sends DELETE', () => {
    const r = both('oa-baseline');
    expect(r.attempts.map((a) => `${a.method} ${a.tool ?? ''}`.trim())).toEqual(['server/discover', 'initialize', 'tools/list', 'tools/call lookup_order', 'tools/call send_invoice', 'tools/call validate_quantity', 'tools/list']);
    expect(r.attempts[0]).toMatchObject({ id: 'server-discover-probe-1', status: 400, outcome: 'HTTP_ERROR' });
    expect(calls(r).map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_SUCCESS', 'TOOL_ERROR']);
    expect(step('oa-baseline', 'callToolResult validate_quantity').ok).toBe(true); // isError is returned, not thrown
    expect(allCodes(r)).toEqual([]);
    expect(clientRecords('oa-baseline').filter((x) => x.kind === 'request' && x.method === 'DELETE')).toHaveLength(1);
  });

  it('oa-errors: an unknown tool and invalid arguments come back from the SDK server as isError results (TOOL_ERROR), returned to the caller as content; no findings', () => {
    const r = both('oa-errors');
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(['no_such_tool TOOL_ERROR', 'lookup_order TOOL_ERROR', 'crash TOOL_ERROR', 'lookup_order TOOL_SUCCESS']);
    expect(allCodes(r)).toEqual([]);
  });

  it('oa-function-tool-503: the FunctionTool an Agent gets turns the 503 into "Please try again" for the model; the model\'s call again is a retry of unknown origin, not unsafe (the server never saw the first)', () => {
    const r = both('oa-function-tool-503');
    expect(step('oa-function-tool-503', 'send_invoice tool invoke (hop').got).toEqual({ text: 'An error occurred while running the tool. Please try again.' });
    const [first, again] = calls(r);
    expect(first).toMatchObject({ status: 503, outcome: 'HTTP_ERROR', notSeenByServer: true });
    expect(again).toMatchObject({ outcome: 'TOOL_SUCCESS', call: first!.call, attempt: 2, retryOrigin: { origin: 'unknown' } });
    expect(codes(again!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
  });

  it('oa-session-expired: 404 twice in the same session (no re-initialization); connect() again builds a new Client whose discover probe is a call of its own, not a retry of the first', () => {
    const r = both('oa-session-expired');
    const probes = r.attempts.filter((a) => a.method === 'server/discover');
    expect(probes.map((a) => `${String(a.id)} ${a.outcome} #${a.attempt}`)).toEqual(['server-discover-probe-1 HTTP_ERROR #1', 'server-discover-probe-1 HTTP_ERROR #1']);
    expect(probes.flatMap(codes)).toEqual([]);
    const sends = calls(r).filter((a) => a.tool === 'send_invoice');
    expect(sends.map((a) => `${a.status} ${a.outcome} #${a.attempt}`)).toEqual(['404 HTTP_ERROR #1', '404 HTTP_ERROR #2', '200 TOOL_SUCCESS #3']);
    expect(step('oa-session-expired', 'callTool send_invoice 1001 (old session').error).toMatchObject({ name: 'SdkHttpError', status: 404 });
    expect(observed('oa-session-expired').frameworkLog[0]).toMatch(/^warn Failed to terminate replaced MCP session: SdkHttpError: Failed to terminate session: Not Found/);
    expect(r.findings.filter((f) => f.code === 'SESSION_EXPIRED').map((f) => f.message)).toEqual([
      expect.stringMatching(/: HTTP 404 to 2 requests that carried the session id, over 0\.\d\d s \(tools\/call send_invoice id 3, re-sent as id 4 into the expired session\); then the client re-initialized and retried the call$/),
    ]);
  });

  it('oa-timeout: timeout 400 ms: notifications/cancelled ("SdkError: Request timed out"), CANCELLED only', () => {
    const slow = calls(both('oa-timeout')).find((a) => a.tool === 'slow_report')!;
    expect(slow.outcome).toBe('STREAM_INCOMPLETE');
    expect(codes(slow)).toEqual(['CANCELLED']);
    expect(step('oa-timeout', 'callTool slow_report').error).toMatchObject({ name: 'SdkError', code: 'REQUEST_TIMEOUT' });
  });

  it('oa-sse-cut-resumed: the v2 client resumes the cut stream (GET with Last-Event-ID after reconnectionOptions\' delay): one attempt, resumed, no findings', () => {
    const r = both('oa-sse-cut-resumed');
    expect(calls(r).find((a) => a.tool === 'slow_report')).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1, resumed: true });
    expect(allCodes(r)).toEqual([]);
  });

  it('oa-socket-destroyed: NO_RESPONSE with the fetch error\'s cause; the wrapper does not reconnect or retry it', () => {
    const r = both('oa-socket-destroyed');
    expect(calls(r)[0]).toMatchObject({ tool: 'send_invoice', outcome: 'NO_RESPONSE', notSeenByServer: true, detail: { why: 'fetch failed: other side closed (UND_ERR_SOCKET)' } });
    expect(calls(r).map((a) => a.attempt)).toEqual([1, 1]);
    expect(allCodes(r)).toEqual([]);
  });

  it('oa-close-during-call: close() aborts the call\'s stream without notifications/cancelled and deletes the session; the why says the client closed it, and the server\'s aborted view is no SIDE_DIVERGENCE', () => {
    const r = both('oa-close-during-call');
    const slow = calls(r).find((a) => a.tool === 'slow_report')!;
    expect(slow).toMatchObject({ outcome: 'STREAM_INCOMPLETE', serverOutcome: 'STREAM_INCOMPLETE' });
    expect(slow.detail!.why).toMatch(/^the client closed the stream 0\.\d\d s after sending it, before any response came, and sent no notifications\/cancelled$/);
    expect(codes(slow)).toEqual(['NO_FINAL_RESULT']);
    expect(step('oa-close-during-call', 'callTool slow_report').error).toMatchObject({ message: 'Cannot reconnect a closed streamable HTTP MCP server.', cause: { code: 'CONNECTION_CLOSED' } });
  });
});

describe('mcp-use 1.34.6 (its SDK: 1.26.0)', () => {
  it('mu-baseline: createSession() is initialize and tools/list; isError and an unknown tool are returned as results (TOOL_ERROR); closeAllSessions() sends DELETE', () => {
    const r = both('mu-baseline');
    expect(r.attempts.map((a) => a.method).slice(0, 2)).toEqual(['initialize', 'tools/list']);
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(['lookup_order TOOL_SUCCESS', 'send_invoice TOOL_SUCCESS', 'validate_quantity TOOL_ERROR', 'no_such_tool TOOL_ERROR']);
    expect(allCodes(r)).toEqual([]);
    expect(clientRecords('mu-baseline').filter((x) => x.kind === 'request' && x.method === 'DELETE')).toHaveLength(1);
  });

  it('mu-initialize-503-sse-fallback: a 503 to initialize also sends mcp-use to SSE (a GET on the same URL, refused with 400); the app\'s createSession() again is a retry of unknown origin', () => {
    const r = both('mu-initialize-503-sse-fallback');
    const [refused, again] = r.attempts.filter((a) => a.method === 'initialize');
    expect(refused).toMatchObject({ status: 503, outcome: 'HTTP_ERROR', notSeenByServer: true });
    expect(again).toMatchObject({ outcome: 'SUCCESS', attempt: 2, retryOrigin: { origin: 'unknown' } });
    expect(codes(again!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
    // The SSE transport does not use the fetch mcp-use was given: recordingFetch missed the GET, the server's view has it.
    const sseGet = (side: 'client' | 'server') => records('mu-initialize-503-sse-fallback', side).filter((x) => x.kind === 'request' && x.method === 'GET' && x.session === null);
    expect(sseGet('client')).toEqual([]);
    expect(sseGet('server').map((x) => x.requestHeaders?.accept)).toEqual(['text/event-stream']);
    expect(step('mu-initialize-503-sse-fallback', 'createSession("orders") (initialize: 503)').error).toMatchObject({ code: 503 });
    expect(observed('mu-initialize-503-sse-fallback').frameworkLog).toContain('[mcp-use] error:   SSE: Error: SSE error: Non-200 status code (400)');
  });

  it('mu-session-expired: 404 without re-initialization; the app\'s new session and call again are linked (attempt 2), SESSION_EXPIRED says so', () => {
    const r = both('mu-session-expired');
    const sends = calls(r).filter((a) => a.tool === 'send_invoice');
    expect(sends.map((a) => `${a.status} ${a.outcome} #${a.attempt}`)).toEqual(['404 HTTP_ERROR #1', '200 TOOL_SUCCESS #2']);
    expect(r.findings.filter((f) => f.code === 'SESSION_EXPIRED').map((f) => f.message)).toEqual([expect.stringMatching(/id 3 that carried the session id; the client re-initialized and retried the call$/)]);
    expect(allCodes(r).filter((c) => c === 'RETRY_POLICY' || c === 'UNSAFE_RETRY')).toEqual([]);
  });

  it('mu-timeout: the request timeout option: notifications/cancelled, McpError -32001; CANCELLED only', () => {
    const slow = calls(both('mu-timeout')).find((a) => a.tool === 'slow_report')!;
    expect(codes(slow)).toEqual(['CANCELLED']);
    expect(step('mu-timeout', 'callTool slow_report').error).toMatchObject({ name: 'McpError', code: -32001 });
  });
});

describe('the sessions view', () => {
  it('names each framework\'s client as it named itself', () => {
    const names = (s: string) => {
      const p = spawnSync(process.execPath, [BIN, 'sessions', '--format', 'json', '--client', `${DIR}${s}/client.ndjson`, '--server', `${DIR}${s}/server.ndjson`], { encoding: 'utf8' });
      return [...new Set((JSON.parse(p.stdout) as { sessions: { client: string }[] }).sessions.map((x) => x.client))];
    };
    expect(names('lc-baseline')).toEqual(['@langchain/mcp-adapters/1.1.4']);
    expect(names('oa-baseline')).toEqual(['orders/1.0.0']); // the v2 client is named after the MCPServerStreamableHttp's name
    expect(names('mu-baseline')).toEqual(['mcp-use/1.34.6']);
  });
});
