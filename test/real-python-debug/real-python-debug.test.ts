// The Python SDK 2.3.0 client's own DEBUG log (Python logging text), recorded by record.mjs against the Python SDK's
// server: its messages read from its "Sending client message:" and "SSE message:" lines, with the session it was given.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-python-debug/', import.meta.url));
const observed = JSON.parse(readFileSync(`${DIR}observed.json`, 'utf8')) as Record<string, string[]>;
const log = (scenario: string) => `${DIR}${scenario}/client.log`;
const linesOf = (scenario: string) => readFileSync(log(scenario), 'utf8').trimEnd().split('\n');
const tmp = (lines: string[]) => {
  const path = join(mkdtempSync(join(tmpdir(), 'py-debug-')), 'client.log');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};
/** What the client saw, as observed.json wrote it, in the outcomes mcp-triage gives the calls. */
const seen = (scenario: string) => observed[scenario]!.map((s) => (s.startsWith('get_prompt: MCPError') ? 'JSONRPC_ERROR' : s.endsWith('isError=True') ? 'TOOL_ERROR' : 'TOOL_SUCCESS'));

describe.each(['sse', 'sse-default-format'])("the Python SDK client's DEBUG log (%s)", (scenario) => {
  it("reads every message the SDK logged and skips the program's other lines (httpx, httpcore, asyncio), none unusable", async () => {
    const r = await analyze({ inputs: [{ path: log(scenario) }] });
    const all = linesOf(scenario);
    const sdk = all.filter((l) => /(Sending client message|SSE message): jsonrpc='2\.0'/.test(l)).length;
    expect(sdk).toBe(13); // sent: 6 requests and notifications/initialized; read from SSE: the 6 answers
    expect(r.summary.lines).toEqual({ read: all.length, used: sdk, blank: 0, skipped: all.length - sdk, unusable: 0 });
    expect(r.summary.inputs[0]!.formats).toEqual({ 'python-sdk': sdk });
  });

  it('each call has the outcome the client saw, in the session the server gave it (its initialize too)', async () => {
    const r = await analyze({ inputs: [{ path: log(scenario) }] });
    expect(r.attempts.map((a) => a.method)).toEqual(['initialize', 'tools/list', 'tools/call', 'tools/call', 'tools/call', 'prompts/get']);
    expect(r.attempts.slice(2).map((a) => a.outcome)).toEqual(seen(scenario));
    expect(r.attempts.slice(0, 2).map((a) => a.outcome)).toEqual(['SUCCESS', 'SUCCESS']);
    const session = /Received session ID: (\S+)/.exec(readFileSync(log(scenario), 'utf8'))![1];
    expect(r.attempts.every((a) => a.session === session && a.side === 'client')).toBe(true);
    expect(r.attempts[5]!.detail).toMatchObject({ errorCode: 0, errorMessage: 'Unknown prompt: missing' });
    expect(r.findings).toEqual([]);
  });
});

describe("the log's times", () => {
  it("come from %(asctime)s, in --timezone (UTC by default); BASIC_FORMAT has none", async () => {
    const r = await analyze({ inputs: [{ path: log('sse') }] });
    const first = /^(\S+ \S+),(\d{3}) DEBUG mcp\.client\.streamable_http: Sending client message: jsonrpc='2\.0' id=1 /m.exec(readFileSync(log('sse'), 'utf8'))!;
    expect(r.attempts[0]!.ts).toBe(`${first[1]!.replace(' ', 'T')}.${first[2]}Z`);
    const east = await analyze({ inputs: [{ path: log('sse') }], timezone: '+01:00' });
    expect(Date.parse(east.attempts[0]!.ts!)).toBe(Date.parse(r.attempts[0]!.ts!) - 3_600_000);
    const none = await analyze({ inputs: [{ path: log('sse-default-format') }] });
    expect(none.attempts.map((a) => a.ts)).toEqual(Array(6).fill(undefined));
  });
});

describe('a server that answers with application/json (json_response=True)', () => {
  it("has no answer in the client's DEBUG log: every call UNANSWERED, and the input says why", async () => {
    expect(observed['json-response']).toEqual(observed.sse);
    const r = await analyze({ inputs: [{ path: log('json-response') }] });
    expect(r.attempts.map((a) => a.outcome)).toEqual(Array(6).fill('UNANSWERED'));
    expect(r.summary.inputs[0]!.cannotShow).toEqual(expect.arrayContaining([expect.stringContaining('responses the server sent as application/json (json_response=True) are not logged')]));
  });
});

describe('mcp 1.x', () => {
  it("reads its client's lines, whose message is a RootModel (str(): root=JSONRPCRequest(...)), as 2.x's", async () => {
    // mcp 1.x logs session_message.message, a JSONRPCMessage RootModel (client/streamable_http.py, post_writer).
    const lines = [
      "2026-03-01 10:00:00,100 DEBUG mcp.client.streamable_http: Sending client message: root=JSONRPCRequest(method='tools/call', params={'name': 'lookup', 'arguments': {'key': 'a'}}, jsonrpc='2.0', id=3)",
      "2026-03-01 10:00:00,140 DEBUG mcp.client.streamable_http: SSE message: root=JSONRPCError(jsonrpc='2.0', id=3, error=ErrorData(code=-32602, message='bad key', data=None))",
      "2026-03-01 10:00:00,150 DEBUG mcp.client.streamable_http: Sending client message: root=JSONRPCNotification(method='notifications/cancelled', params={'requestId': 3}, jsonrpc='2.0')",
    ];
    const r = await analyze({ inputs: [{ path: tmp(lines) }] });
    expect(r.summary.lines).toMatchObject({ read: 3, used: 3, unusable: 0 });
    expect(r.attempts.map((a) => [a.id, a.tool, a.outcome, a.ts])).toEqual([[3, 'lookup', 'JSONRPC_ERROR', '2026-03-01T10:00:00.100Z']]);
    expect(r.attempts[0]!.detail).toMatchObject({ errorCode: -32602, errorMessage: 'bad key' });
  });
});

describe('a logging format of the app\'s own', () => {
  it("without a level name (%(asctime)s %(name)s: %(message)s): the SDK's lines are read, with the time", async () => {
    const r = await analyze({ inputs: [{ path: tmp(["2026-03-01 10:00:00,100 mcp.client.streamable_http: Sending client message: jsonrpc='2.0' id=3 method='tools/call' params={'name': 'x', 'arguments': {}}"]) }] });
    expect(r.attempts.map((a) => [a.id, a.tool, a.ts])).toEqual([[3, 'x', '2026-03-01T10:00:00.100Z']]);
  });
});

describe('must not', () => {
  it("a Python log without the SDK's lines: well-formed lines, skipped; nothing read", async () => {
    const r = await analyze({ inputs: [{ path: tmp(['2026-03-01 10:00:00,120 INFO billing: started', 'INFO:billing:ready', 'Traceback (most recent call last):']) }] });
    expect(r.summary.lines).toMatchObject({ read: 3, used: 0, skipped: 3, unusable: 0 });
  });

  it("a Python log line with a JSON-RPC message in another shape is reported, not skipped", async () => {
    const r = await analyze({ inputs: [{ path: tmp(['INFO:app:received {"jsonrpc": "2.0", "id": 1, "method": "ping"}']) }] });
    expect(r.summary.lines).toMatchObject({ read: 1, used: 0, unusable: 1 });
    expect(r.summary.diagnostics.first[0]!.message).toMatch(/not the Python SDK's own "Sending client message:" or "SSE message:" line/);
  });

  it("the SDK's line cut short is reported with what was expected", async () => {
    const r = await analyze({ inputs: [{ path: tmp(["DEBUG:mcp.client.streamable_http:Sending client message: jsonrpc='2.0' id=3 method='tools/call' params={'name': 'lookup', 'argu"]) }] });
    expect(r.summary.lines).toMatchObject({ read: 1, unusable: 1 });
    expect(r.summary.diagnostics.first[0]!.message).toMatch(/"Sending client message:" line whose message cannot be read/);
  });

  it('a text line in no Python shape, in an input without Python lines, stays unusable as before', async () => {
    const r = await analyze({ inputs: [{ path: tmp(['hello world']) }] });
    expect(r.summary.lines).toMatchObject({ read: 1, unusable: 1 });
    expect(r.summary.diagnostics.first[0]!.message).toBe('line is not JSON and matches no text log format');
  });
});

describe("the client's DEBUG log joined with the server's side of the same traffic (mcp-triage record in front of the server)", () => {
  const joined = (scenario: string) => analyze({ inputs: [{ path: log(scenario), side: 'client' }, { path: `${DIR}${scenario}/server.ndjson`, side: 'server' }] });

  it.each(['sse', 'sse-default-format'])('%s: each request joins its server view by the session the client was given', async (scenario) => {
    const r = await joined(scenario);
    expect(r.attempts).toHaveLength(6);
    for (const a of r.attempts) {
      expect([...new Set(a.sources.map((s) => s.file.split('/').pop()))].sort()).toEqual(['client.log', 'server.ndjson']);
      expect(a.serverStatus).toBe(200);
      expect(a.serverOutcome).toBe(a.outcome);
    }
    expect(r.attempts.slice(2).map((a) => a.outcome)).toEqual(seen(scenario));
    expect(r.findings).toEqual([]);
  });

  it("json-response: the client's log has no answer, the server's shows each sent: the attempt takes the server's answer, and no divergence is claimed", async () => {
    const r = await joined('json-response');
    expect(r.attempts.map((a) => a.outcome)).toEqual(['SUCCESS', 'SUCCESS', ...seen('json-response')]);
    expect(r.attempts.every((a) => a.serverStatus === 200 && a.detail.why?.includes("the client's log leaves such answers out"))).toBe(true);
    // Not SIDE_DIVERGENCE ("a final result the client never got"), not CALL_NEVER_SENT: the client got them (observed.json).
    expect(r.findings).toEqual([]);
  });

  it("json-response alone: UNANSWERED, each why saying it was answered in a body the log does not hold, and no finding built on the missing answers", async () => {
    const r = await analyze({ inputs: [{ path: log('json-response'), side: 'client' }] });
    // (httpcore's lines show each application/json head and its body read: answered; the sixtieth audit)
    expect(r.attempts.map((a) => a.outcome)).toEqual(Array(6).fill('UNANSWERED'));
    for (const a of r.attempts) expect(a.detail.why).toMatch(/^answered: HTTP 200, Content-Type "application\/json" \(httpcore's head at line \d+\), its body read to the end \(line \d+\); the Python SDK's DEBUG log does not hold a JSON body/);
    expect(r.findings).toEqual([]);
  });
});

describe('the legacy HTTP+SSE transport: both ends\' own DEBUG logs (legacy-sse)', () => {
  const client = log('legacy-sse');
  const server = `${DIR}legacy-sse/server.log`;
  const serverLines = () => readFileSync(server, 'utf8').trimEnd().split('\n');

  it("the client's log: its sends (SessionMessage(...)) and what it received, in the session its endpoint URL names", async () => {
    const r = await analyze({ inputs: [{ path: client }] });
    expect(r.summary.lines.unusable).toBe(0);
    expect(r.attempts.slice(2).map((a) => a.outcome)).toEqual(seen('legacy-sse'));
    const session = /Received endpoint URL: \S*[?&]session_id=([0-9a-f]+)/.exec(readFileSync(client, 'utf8'))![1];
    expect(r.attempts.every((a) => a.side === 'client' && a.session === session)).toBe(true);
  });

  it("the server's log: what it validated and sent over SSE; its copies (Received JSON, the session writer, sse-starlette's chunks) and a handler's traceback skipped", async () => {
    const r = await analyze({ inputs: [{ path: server }] });
    const all = serverLines();
    const messages = all.filter((l) => /(Validated client message|Sending message via SSE): /.test(l)).length;
    expect(all.filter((l) => /sse_starlette\.sse: chunk: b'/.test(l)).length).toBeGreaterThan(5);
    expect(all.some((l) => l.startsWith('Traceback'))).toBe(true);
    expect(r.summary.lines).toMatchObject({ used: messages, unusable: 0 });
    expect(r.attempts.slice(2).map((a) => a.outcome)).toEqual(seen('legacy-sse'));
    // One session in the log: its UUID, written as its URL's hex.
    const uuid = /Created new session with ID: (\S+)/.exec(readFileSync(server, 'utf8'))![1]!;
    expect(r.attempts.every((a) => a.side === 'server' && a.session === uuid.replace(/-/g, ''))).toBe(true);
  });

  it('joined: every request has both views, nothing diverges', async () => {
    const r = await analyze({ inputs: [{ path: client, side: 'client' }, { path: server, side: 'server' }] });
    expect(r.attempts).toHaveLength(6);
    expect(r.attempts.every((a) => a.serverOutcome === a.outcome)).toBe(true);
    expect(r.findings).toEqual([]);
  });

  it("must not: once the server's log has had a second session, its message lines (which name none) get no session", async () => {
    const all = serverLines();
    const second = all.find((l) => l.includes('Created new session with ID: '))!.replace(/ID: \S+/, 'ID: 0b6e2f7a-1c3d-4e5f-8a9b-0c1d2e3f4a5b');
    const at = all.findIndex((l) => l.includes('Validated client message: ')) + 1;
    const r = await analyze({ inputs: [{ path: tmp([...all.slice(0, at), second, ...all.slice(at)]), side: 'server' }] });
    expect(r.attempts[0]!.session).not.toBeNull();
    expect(r.attempts.slice(1).every((a) => a.session === null)).toBe(true);
  });
});

describe("the Python SDK's Streamable HTTP server's own DEBUG log (streamable-server)", () => {
  const server = `${DIR}streamable-server/server.log`;

  it('has no message in it: every line skipped, none unusable, and "cannot show" says why', async () => {
    const all = readFileSync(server, 'utf8').trimEnd().split('\n');
    expect(all.some((l) => /Tool 'nope' failed/.test(l))).toBe(true);
    const r = await analyze({ inputs: [{ path: server, side: 'server' }] });
    expect(r.summary.lines).toMatchObject({ read: all.length, used: 0, unusable: 0 });
    expect(r.summary.inputs[0]!.cannotShow).toEqual([expect.stringContaining("the Python SDK's Streamable HTTP server's own lines hold no JSON-RPC message at any level")]);
  });

  it("given beside the client's DEBUG log, the client's calls are read as alone (the server's log adds nothing, claims nothing)", async () => {
    const alone = await analyze({ inputs: [{ path: log('streamable-server'), side: 'client' }] });
    const both = await analyze({ inputs: [{ path: log('streamable-server'), side: 'client' }, { path: server, side: 'server' }] });
    expect(both.attempts.map((a) => [a.id, a.outcome])).toEqual(alone.attempts.map((a) => [a.id, a.outcome]));
    expect(both.attempts.slice(2).map((a) => a.outcome)).toEqual(seen('streamable-server'));
    expect(both.findings).toEqual([]);
  });
});

describe("HTTP errors in the client's DEBUG log: httpx's status line tied to the one POST in flight (http-errors)", () => {
  // Recorded behind fault-proxy.mjs: set_flag's first POST got 503 (the app sent it again), lookup k2's 500 with a
  // JSON-RPC error body, then lookup k3 and k4 went at once and k4's got 503 while both were in flight.
  const path = log('http-errors');
  const lines = () => linesOf('http-errors');
  const row = (a: { id: unknown; tool: string | null; status: number | null; outcome: string; call?: string; attempt?: number }) => [a.id, a.tool, a.status, a.outcome, a.call, a.attempt];

  it('a non-2xx status of the only POST in flight is its request\'s HTTP_ERROR; one that came while two were in flight is tied to neither', async () => {
    expect(observed['http-errors']).toEqual([
      'set_flag#1: MCPError: Server returned an error response',
      'set_flag#2: isError=False',
      'lookup: MCPError: gateway: upstream reset',
      'lookup k3: isError=False',
      'lookup k4: MCPError: Server returned an error response',
    ]);
    const r = await analyze({ inputs: [{ path }] });
    expect(r.summary.lines.unusable).toBe(0);
    expect(r.attempts.slice(2).map(row)).toEqual([
      [3, 'set_flag', 503, 'HTTP_ERROR', 'c3', 1],
      [4, 'set_flag', null, 'TOOL_SUCCESS', 'c3', 2],
      [5, 'lookup', 500, 'HTTP_ERROR', 'c4', 1],
      [6, 'lookup', null, 'TOOL_SUCCESS', 'c5', 1],
      // k4's 503 came while k3's POST was in flight too: httpx's line names neither, so neither takes it.
      [7, 'lookup', null, 'UNANSWERED', 'c6', 1],
    ]);
    expect(r.attempts[2]!.layer).toBe('transport');
    // (Since the ninety-fourth audit httpcore's head line's Content-Type says what the SDK made of the body: a text/plain one it does not read.)
    expect(r.attempts[2]!.detail.why).toMatch(/^HTTP 503 Service Unavailable \(httpx's "HTTP Request:" line\); the body is not in the Python SDK's log \(Content-Type "text\/plain", httpcore's head at line \d+\), and the SDK reads only an application\/json one, for a JSON-RPC error: its caller got -32603 "Server returned an error response"$/);
    expect(r.attempts[4]!.detail.why).toMatch(/^HTTP 500 Internal Server Error \(httpx's "HTTP Request:" line\)/);
    expect(r.attempts[2]!.sources.map((s) => s.line)).toEqual([lines().findIndex((l) => l.includes("id=3 method='tools/call'")) + 1, lines().findIndex((l) => l.includes('"HTTP/1.1 503')) + 1]);
    expect(r.summary.inputs[0]!.cannotShow).toEqual(expect.arrayContaining([expect.stringContaining('came while more than one POST was in flight')]));
  });

  it("joined with the server's side: the three the proxy refused have no server view; the rest take the server's", async () => {
    const r = await analyze({ inputs: [{ path, side: 'client' }, { path: `${DIR}http-errors/server.ndjson`, side: 'server' }] });
    expect(r.attempts.map((a) => [a.id, a.outcome, a.serverOutcome])).toEqual([
      [1, 'SUCCESS', 'SUCCESS'],
      [2, 'SUCCESS', 'SUCCESS'],
      [3, 'HTTP_ERROR', undefined],
      [4, 'TOOL_SUCCESS', 'TOOL_SUCCESS'],
      [5, 'HTTP_ERROR', undefined],
      [6, 'TOOL_SUCCESS', 'TOOL_SUCCESS'],
      [7, 'UNANSWERED', undefined],
    ]);
  });

  it("must not: without set_flag's 503 line, its POST is UNANSWERED, and as it may still be in flight no later status is tied; 2xx lines end nothing", async () => {
    const first503 = lines().findIndex((l) => l.includes('"HTTP/1.1 503'));
    const r = await analyze({ inputs: [{ path: tmp(lines().filter((_, i) => i !== first503)) }] });
    expect(r.attempts.slice(2).map((a) => [a.id, a.outcome])).toEqual([[3, 'UNANSWERED'], [4, 'TOOL_SUCCESS'], [5, 'UNANSWERED'], [6, 'TOOL_SUCCESS'], [7, 'UNANSWERED']]);
    // The sse recording: every POST line 200 or 202, every call as the client saw it (see above), no status made up.
    const sse = await analyze({ inputs: [{ path: log('sse') }] });
    expect(sse.attempts.every((a) => a.status === null)).toBe(true);
  });

  const at = (ms: number) => `2026-03-01 10:00:00,${String(ms).padStart(3, '0')}`;
  const send = (ms: number, id: number) => `${at(ms)} DEBUG mcp.client.streamable_http: Sending client message: jsonrpc='2.0' id=${id} method='tools/call' params={'name': 'lookup', 'arguments': {'key': 'k${id}'}}`;
  const status = (ms: number, code: string, url = 'http://127.0.0.1:8000/mcp') => `${at(ms)} INFO httpx: HTTP Request: POST ${url} "HTTP/1.1 ${code}"`;
  const connecting = `${at(50)} DEBUG mcp.client.streamable_http: Connecting to StreamableHTTP endpoint: http://127.0.0.1:8000/mcp`;

  it("a request whose POST the client aborted (its cancellation) is out of flight: the next POST's status is tied to the next request", async () => {
    const cancelled = [
      connecting,
      send(100, 3),
      `${at(200)} DEBUG mcp.client.streamable_http: aborting in-flight POST for cancelled request 3`,
      send(300, 4),
      status(310, '404 Not Found'),
    ];
    const r = await analyze({ inputs: [{ path: tmp(cancelled) }] });
    expect(r.attempts.map((a) => [a.id, a.status, a.outcome])).toEqual([[3, null, 'UNANSWERED'], [4, 404, 'HTTP_ERROR']]);
    // No session yet: the SDK gives its caller -32601 "Not Found" for a 404 that is not a JSON-RPC error.
    expect(r.attempts[1]!.detail.why).toContain('else -32601 "Not Found"');
    // Must not: without the abort line, two POSTs are in flight and the 404 is tied to neither.
    const both = await analyze({ inputs: [{ path: tmp([cancelled[0]!, cancelled[1]!, cancelled[3]!, cancelled[4]!]) }] });
    expect(both.attempts.map((a) => [a.id, a.status, a.outcome])).toEqual([[3, null, 'UNANSWERED'], [4, null, 'UNANSWERED']]);
  });

  it("must not: after a status line that came with two in flight, the one left is not known, so the next request's status is not guessed", async () => {
    // 3 and 4 in flight; one 200 line (whose?); 5 sent; a 503 line: it may be 3's, 4's or 5's.
    const r = await analyze({ inputs: [{ path: tmp([connecting, send(100, 3), send(110, 4), status(120, '200 OK'), send(130, 5), status(140, '503 Service Unavailable')]) }] });
    expect(r.attempts.every((a) => a.status === null && a.outcome === 'UNANSWERED')).toBe(true);
  });

  it("must not: httpx's line of a POST to another URL (the program's own call to an LLM API) is not the MCP request's", async () => {
    const other = status(105, '503 Service Unavailable', 'https://api.example.com/v1/messages');
    const r = await analyze({ inputs: [{ path: tmp([connecting, send(100, 3), other, status(120, '500 Internal Server Error')]) }] });
    // The LLM API's 503 is not tied (nor does it take the MCP request out of flight): the MCP POST's own 500 is.
    expect(r.attempts.map((a) => [a.id, a.status, a.outcome])).toEqual([[3, 500, 'HTTP_ERROR']]);
    // A log that starts after the transport's "Connecting to" line names no endpoint: no status is tied.
    const headless = await analyze({ inputs: [{ path: tmp([send(100, 3), status(120, '500 Internal Server Error')]) }] });
    expect(headless.attempts.map((a) => [a.id, a.status, a.outcome])).toEqual([[3, null, 'UNANSWERED']]);
  });
});
