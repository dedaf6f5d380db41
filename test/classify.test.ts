// Outcome order: each outcome has a fixture that produces it and a near miss that must not; plus the source article's eleven cases.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeInputs, ok, post, sse, toolText } from './helpers/analyze.js';
import type { Outcome } from '../src/outcomes.js';

async function outcomeOf(rec: Record<string, unknown>): Promise<{ outcome: Outcome; layer: string; detail?: unknown }> {
  const r = await analyzeInputs([{ lines: [rec] }]);
  expect(r.attempts).toHaveLength(1);
  const a = r.attempts[0]!;
  return { outcome: a.outcome, layer: a.layer, detail: a.detail };
}

const good = ok(1, toolText('ok'));

describe('outcome order (first match wins), each with a near miss', () => {
  const cases: { name: string; outcome: Outcome; rec: Record<string, unknown>; nearMiss: Record<string, unknown>; nearOutcome: Outcome }[] = [
    {
      name: 'NO_RESPONSE: connection error, no HTTP response',
      outcome: 'NO_RESPONSE', rec: post({ status: null, error: 'ECONNRESET' }),
      nearMiss: post({ status: 502, body: '' }), nearOutcome: 'HTTP_ERROR',
    },
    {
      name: 'HTTP_ERROR: 500 whatever the body says',
      outcome: 'HTTP_ERROR', rec: post({ status: 500, body: good }),
      nearMiss: post({ status: 299, body: good }), nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'MALFORMED_JSON: body that does not parse',
      outcome: 'MALFORMED_JSON', rec: post({ status: 200, body: '{unclosed' }),
      nearMiss: post({ status: 200, body: ` \n${good}\n` }), nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'MALFORMED_JSON: SSE data payload that does not parse',
      outcome: 'MALFORMED_JSON', rec: post({ status: 200, ct: 'text/event-stream', body: 'event: message\ndata: {"jsonrpc":"2.0","id":1,"res\n\n' }),
      nearMiss: post({ status: 200, ct: 'text/event-stream', body: `: keepalive\n\nid: e0\ndata:\n\nevent: message\ndata: ${good}\n\n` }), nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'STREAM_INCOMPLETE: SSE ended with only a progress notification',
      outcome: 'STREAM_INCOMPLETE', rec: post({ status: 200, ct: 'text/event-stream', body: sse({ data: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } } }) }),
      nearMiss: post({ status: 200, ct: 'text/event-stream', body: sse({ data: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } } }, { data: JSON.parse(good) }) }), nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'STREAM_INCOMPLETE: 202 to a request',
      outcome: 'STREAM_INCOMPLETE', rec: post({ status: 202, body: '' }),
      nearMiss: post({ status: 200, body: good }), nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'STREAM_INCOMPLETE: 202 to a request whose body holds the response (the SDK clients read no body of a 202)',
      outcome: 'STREAM_INCOMPLETE', rec: post({ status: 202, body: good }),
      nearMiss: post({ status: 201, body: good }), nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'STREAM_INCOMPLETE: a JSON body that did not end, though what came parses (fetch\'s json() waits for the end)',
      outcome: 'STREAM_INCOMPLETE', rec: post({ status: 200, body: good, end: 'error', error: 'terminated' }),
      nearMiss: post({ status: 200, body: good, end: 'complete' }), nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'STREAM_INCOMPLETE: no Content-Type, where the log shows the response\'s other headers',
      outcome: 'STREAM_INCOMPLETE', rec: { ...post({ status: 200, body: good }), responseHeaders: { 'content-length': String(good.length), date: 'Sat, 05 Dec 2026 08:01:40 GMT' } },
      nearMiss: { ...post({ status: 200, body: good }), responseHeaders: { 'mcp-session-id': 'S' } }, nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'STREAM_INCOMPLETE: the response sits in an event cut before its blank line',
      outcome: 'STREAM_INCOMPLETE', rec: post({ status: 200, ct: 'text/event-stream', body: `event: message\ndata: ${good}` }),
      nearMiss: post({ status: 200, ct: 'text/event-stream', body: `event: message\ndata: ${good}\n\n` }), nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'STREAM_INCOMPLETE: a JSON answer sent as text/html (the SDK clients refuse a Content-Type that is neither JSON nor SSE)',
      outcome: 'STREAM_INCOMPLETE', rec: post({ status: 200, ct: 'text/html; charset=utf-8', body: good }),
      nearMiss: post({ status: 200, ct: 'Application/JSON; charset=utf-8', body: good }), nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'INVALID_ENVELOPE: jsonrpc is not "2.0"',
      outcome: 'INVALID_ENVELOPE', rec: post({ status: 200, body: JSON.stringify({ jsonrpc: '1.0', id: 1, result: toolText('x') }) }),
      nearMiss: post({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 1, result: toolText('x') }) }), nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'INVALID_ENVELOPE: id of another type ("1" answers 1)',
      outcome: 'INVALID_ENVELOPE', rec: post({ status: 200, id: 1, body: JSON.stringify({ jsonrpc: '2.0', id: '1', result: toolText('x') }) }),
      nearMiss: post({ status: 200, id: '1', body: JSON.stringify({ jsonrpc: '2.0', id: '1', result: toolText('x') }) }), nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'INVALID_ENVELOPE: malformed error object',
      outcome: 'INVALID_ENVELOPE', rec: post({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: '-32602', message: 'bad' } }) }),
      nearMiss: post({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } }) }), nearOutcome: 'JSONRPC_ERROR',
    },
    {
      name: 'JSONRPC_ERROR: a valid error response on HTTP 200',
      outcome: 'JSONRPC_ERROR', rec: post({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params', data: { field: 'q' } } }) }),
      nearMiss: post({ status: 400, body: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params' } }) }), nearOutcome: 'HTTP_ERROR',
    },
    {
      name: 'INPUT_REQUIRED: resultType input_required',
      outcome: 'INPUT_REQUIRED', rec: post({ status: 200, body: ok(1, { resultType: 'input_required', requestState: 's1' }) }),
      nearMiss: post({ status: 200, body: ok(1, { resultType: 'complete', content: [] }) }), nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'INVALID_TOOL_RESULT: input_required with neither inputRequests nor requestState (both SDK clients refuse it)',
      outcome: 'INVALID_TOOL_RESULT', rec: post({ status: 200, requestHeaders: { 'mcp-protocol-version': '2026-07-28' }, body: ok(1, { resultType: 'input_required', inputRequests: {} }) }),
      nearMiss: post({ status: 200, requestHeaders: { 'mcp-protocol-version': '2026-07-28' }, body: ok(1, { resultType: 'input_required', inputRequests: {}, requestState: 's1' }) }), nearOutcome: 'INPUT_REQUIRED',
    },
    {
      name: 'TOOL_SUCCESS: structuredContent that is an array, on 2026-07-28 (any JSON value there; an object before)',
      outcome: 'TOOL_SUCCESS', rec: post({ status: 200, requestHeaders: { 'mcp-protocol-version': '2026-07-28' }, body: ok(1, toolText('[1,2]', { resultType: 'complete', structuredContent: [1, 2] })) }),
      nearMiss: post({ status: 200, requestHeaders: { 'mcp-protocol-version': '2025-11-25' }, body: ok(1, toolText('[1,2]', { structuredContent: [1, 2] })) }), nearOutcome: 'INVALID_TOOL_RESULT',
    },
    {
      name: 'TASK_CREATED: a CreateTaskResult answers a tools/call that asked for a task',
      outcome: 'TASK_CREATED', rec: post({ status: 200, send: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'index', arguments: {}, task: { ttl: 60000 } } }, body: ok(1, { task: { taskId: 't-1', status: 'working' } }) }),
      // The same result to a call that did not ask for a task is not a CallToolResult.
      nearMiss: post({ status: 200, body: ok(1, { task: { taskId: 't-1', status: 'working' } }) }), nearOutcome: 'INVALID_TOOL_RESULT',
    },
    {
      name: 'TOOL_ERROR: tasks/result hands back the CallToolResult of a failed tool',
      outcome: 'TOOL_ERROR', rec: post({ status: 200, method: 'tasks/result', params: { taskId: 't-1' }, body: ok(1, { content: [{ type: 'text', text: 'line 7 has no order id' }], isError: true }) }),
      // A tasks/result of a sampling task is no tool result.
      nearMiss: post({ status: 200, method: 'tasks/result', params: { taskId: 't-2' }, body: ok(1, { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'hi' }] }) }), nearOutcome: 'SUCCESS',
    },
    {
      name: 'INVALID_TOOL_RESULT: isError not boolean',
      outcome: 'INVALID_TOOL_RESULT', rec: post({ status: 200, body: ok(1, { content: [], isError: 'true' }) }),
      nearMiss: post({ status: 200, body: ok(1, { content: [], isError: true }) }), nearOutcome: 'TOOL_ERROR',
    },
    {
      name: 'INVALID_TOOL_RESULT: unknown resultType',
      outcome: 'INVALID_TOOL_RESULT', rec: post({ status: 200, body: ok(1, { resultType: 'partial', content: [] }) }),
      nearMiss: post({ status: 200, body: ok(1, { content: [] }) }), nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'INVALID_TOOL_RESULT: a content block of no known type (the TypeScript and Python SDK clients refuse the result)',
      outcome: 'INVALID_TOOL_RESULT', rec: post({ status: 200, body: ok(1, { content: [{ type: 'text', text: 'a' }, { type: 'unknown_type', text: 'b' }] }) }),
      nearMiss: post({ status: 200, body: ok(1, { content: [{ type: 'text', text: 'a' }, { type: 'resource_link', uri: 'file:///a', name: 'a' }] }) }), nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'INVALID_TOOL_RESULT: an isError result whose content breaks the schema (the caller gets the client\'s error, not the tool\'s)',
      outcome: 'INVALID_TOOL_RESULT', rec: post({ status: 200, body: ok(1, { content: [{ type: 'image', data: 'data:image/png;base64,iVBO', mimeType: 'image/png' }], isError: true }) }),
      nearMiss: post({ status: 200, body: ok(1, { content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }], isError: true }) }), nearOutcome: 'TOOL_ERROR',
    },
    {
      name: 'INVALID_TOOL_RESULT: no resultType on 2026-07-28 (the v2 client refuses it)',
      outcome: 'INVALID_TOOL_RESULT', rec: post({ status: 200, requestHeaders: { 'mcp-protocol-version': '2026-07-28' }, body: ok(1, toolText('ok')) }),
      nearMiss: post({ status: 200, requestHeaders: { 'mcp-protocol-version': '2026-07-28' }, body: ok(1, toolText('ok', { resultType: 'complete' })) }), nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'INVALID_RESULT: resources/read contents without a uri (the MCP test kitchen\'s invalid resource)',
      outcome: 'INVALID_RESULT', rec: post({ method: 'resources/read', params: { uri: 'test://resources/invalid' }, status: 200, body: ok(1, { contents: [{ type: 'blob', blob: 'not-valid-base64!!!', mimeType: 'not-a-mime-type' }] }) }),
      nearMiss: post({ method: 'resources/read', params: { uri: 'test://resources/valid' }, status: 200, body: ok(1, { contents: [{ uri: 'test://resources/valid', mimeType: 'text/plain', text: 'ok' }] }) }), nearOutcome: 'SUCCESS',
    },
    {
      name: 'INVALID_RESULT: no resultType on 2026-07-28; absent means "complete" before it',
      outcome: 'INVALID_RESULT', rec: post({ method: 'prompts/list', status: 200, requestHeaders: { 'mcp-protocol-version': '2026-07-28' }, body: ok(1, { prompts: [] }) }),
      nearMiss: post({ method: 'prompts/list', status: 200, requestHeaders: { 'mcp-protocol-version': '2025-11-25' }, body: ok(1, { prompts: [] }) }), nearOutcome: 'SUCCESS',
    },
    {
      name: 'TOOL_ERROR: isError true',
      outcome: 'TOOL_ERROR', rec: post({ status: 200, body: ok(1, toolText('quota exceeded', { isError: true })) }),
      nearMiss: post({ status: 200, body: ok(1, toolText('quota ok', { isError: false })) }), nearOutcome: 'TOOL_SUCCESS',
    },
    {
      name: 'SUCCESS: a method other than tools/call',
      outcome: 'SUCCESS', rec: post({ method: 'tools/list', status: 200, body: ok(1, { tools: [] }) }),
      nearMiss: post({ method: 'tools/list', status: 200, body: ok(1, 'not an object') }), nearOutcome: 'INVALID_ENVELOPE',
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      expect((await outcomeOf(c.rec)).outcome).toBe(c.outcome);
      expect((await outcomeOf(c.nearMiss)).outcome).toBe(c.nearOutcome);
    });
  }

  it('UNANSWERED: a message-level request with no response; never NO_RESPONSE without an HTTP layer', async () => {
    const r = await analyzeInputs([{ lines: [
      { direction: 'c2s', ts: '2026-10-17T10:00:00Z', message: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'a', arguments: {} } } },
      { direction: 'c2s', ts: '2026-10-17T10:00:01Z', message: { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'a', arguments: {} } } },
      { direction: 's2c', ts: '2026-10-17T10:00:02Z', message: { jsonrpc: '2.0', id: 8, result: { content: [] } } },
    ] }]);
    const byId = Object.fromEntries(r.attempts.map((a) => [a.id, a]));
    expect(byId[7]!.outcome).toBe('UNANSWERED');
    expect(byId[7]!.layer).toBe('unknown');
    expect(byId[7]!.status).toBeNull();
    expect(byId[8]!.outcome).toBe('TOOL_SUCCESS');
  });

  it('INVALID_TOOL_RESULT: a tool whose tools/list declares an outputSchema returns no structuredContent; not when it does', async () => {
    const list = post({ t: 0, id: 1, method: 'tools/list', session: 'S', status: 200, body: ok(1, { tools: [{ name: 'totals', inputSchema: {}, outputSchema: { type: 'object' } }] }) });
    const call = (structured: boolean) => post({ t: 100, id: 2, session: 'S', tool: 'totals', status: 200, body: ok(2, { content: [{ type: 'text', text: '{}' }], ...(structured ? { structuredContent: { total: 3 } } : {}) }) });
    const bad = await analyzeInputs([{ lines: [list, call(false)] }]);
    expect(bad.attempts.find((a) => a.tool === 'totals')).toMatchObject({ outcome: 'INVALID_TOOL_RESULT', detail: { why: expect.stringMatching(/outputSchema/) } });
    const good2 = await analyzeInputs([{ lines: [list, call(true)] }]);
    expect(good2.attempts.find((a) => a.tool === 'totals')!.outcome).toBe('TOOL_SUCCESS');
  });

  it('a response in an SSE event of another type than "message" was not taken: the why names the event; a "message" event is taken', async () => {
    const named = await outcomeOf(post({ status: 200, ct: 'text/event-stream', body: `event: result\ndata: ${good}\n\n` }));
    expect(named).toMatchObject({ outcome: 'STREAM_INCOMPLETE', detail: { why: expect.stringMatching(/an event of type "result" carried the response, but SSE clients take only "message" events/) } });
    expect((await outcomeOf(post({ status: 200, ct: 'text/event-stream', body: `event: message\ndata: ${good}\n\n` }))).outcome).toBe('TOOL_SUCCESS');
    // an event of another type that carries something else (a progress notification) is not named
    const other = await outcomeOf(post({ status: 200, ct: 'text/event-stream', body: `event: progress\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n` }));
    expect(other.detail).not.toMatchObject({ why: expect.stringMatching(/event of type/) });
  });

  it('the 2024-11-05 HTTP+SSE transport: a POST\'s 202 "Accepted" in text/plain is no answer refused; the response comes on the GET stream', async () => {
    const real = readFileSync(new URL('./fixtures/real-audit2/legacy-sse-get-dropped/client.ndjson', import.meta.url), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const typed = real.map((r) => (r.kind === 'response' && r.status === 202 ? { ...r, responseHeaders: { ...(r.responseHeaders as object), 'content-type': 'text/plain; charset=utf-8' } } : r));
    const outcomes = async (lines: Record<string, unknown>[]) => (await analyzeInputs([{ side: 'client', lines }])).attempts.map((a) => `${a.method} ${a.status} ${a.outcome}`);
    expect(typed.filter((r) => r.kind === 'response' && r.status === 202).length).toBeGreaterThan(1);
    const plain = await outcomes(real);
    expect(plain.some((o) => / 202 (SUCCESS|TOOL_SUCCESS)$/.test(o))).toBe(true);
    expect(await outcomes(typed)).toEqual(plain);
  });

  it('a Content-Type the SDK clients refuse is judged only where the log shows it: no header logged, no verdict on it', async () => {
    const bare = post({ status: 200, body: good });
    bare.responseHeaders = {};
    expect((await outcomeOf(bare)).outcome).toBe('TOOL_SUCCESS');
    expect((await outcomeOf(post({ status: 200, ct: 'text/plain', body: good }))).detail).toMatchObject({ why: expect.stringMatching(/Content-Type "text\/plain" is neither application\/json nor text\/event-stream/) });
  });

  it('INVALID_RESULT says what broke and who refuses it: both SDKs, or only the TypeScript SDK (base64)', async () => {
    const read = (blob: string, uri?: string) => outcomeOf(post({ method: 'resources/read', params: { uri: 'file:///logo.png' }, status: 200, body: ok(1, { contents: [{ ...(uri ? { uri } : {}), blob }] }) }));
    expect((await read('aGk=')).detail).toMatchObject({ why: expect.stringMatching(/^contents\[0\]\.uri is missing: the MCP schema of a resources\/read result does not allow it; SDK clients check this and fail the request instead of returning the result \(the TypeScript SDK throws a ZodError, the Python SDK raises a ValidationError\)$/) });
    expect((await read('data:image/png;base64,iVBO', 'file:///logo.png')).detail).toMatchObject({ why: expect.stringMatching(/blob is not base64 .*; the TypeScript SDK client checks this and throws \(a ZodError\) instead of returning the result \(the Python SDK's does not check it\)$/) });
    const list = await outcomeOf(post({ method: 'tools/list', status: 200, body: ok(1, { tools: [{ name: 'broken_tool' }] }) }));
    expect(list).toMatchObject({ outcome: 'INVALID_RESULT', layer: 'protocol', detail: { why: expect.stringMatching(/; a lenient client \(the MCP Inspector\) drops the entry and lists the rest$/) } });
  });

  it('keeps the JSON-RPC error code, message and data', async () => {
    const r = await outcomeOf(post({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params', data: { field: 'q' } } }) }));
    expect(r.detail).toMatchObject({ errorCode: -32602, errorMessage: 'Invalid params', errorData: { field: 'q' } });
  });

  it('layers: transport, protocol, interaction, application', async () => {
    expect((await outcomeOf(post({ status: 503, body: '' }))).layer).toBe('transport');
    expect((await outcomeOf(post({ status: 200, body: '{' }))).layer).toBe('protocol');
    expect((await outcomeOf(post({ status: 200, body: ok(1, { resultType: 'input_required', requestState: 'x' }) }))).layer).toBe('interaction');
    expect((await outcomeOf(post({ status: 200, body: ok(1, toolText('x', { isError: true })) }))).layer).toBe('application');
  });
});

// The source article's eleven synthetic cases, with its expected outcomes (one POST each; the second case has two).
describe('what an HTTP error said', () => {
  const err = (status: number, ct: string, body: string) => outcomeOf(post({ status, ct, body }));
  it('quotes a plain-text or HTML error body (Go and Rust SDKs, proxies), one line, an HTML page by its title', async () => {
    expect(await err(404, 'text/plain; charset=utf-8', 'session not found\n')).toMatchObject({ outcome: 'HTTP_ERROR', detail: { why: 'the body says: session not found' } });
    const nginx = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center></body></html>';
    expect((await err(502, 'text/html', nginx)).detail).toEqual({ why: 'the body says: 502 Bad Gateway' });
    // Express's default 404 (an SSE-only server asked for Streamable HTTP): the title is "Error", the <pre> says what.
    const express = '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot POST /sse</pre>\n</body>\n</html>\n';
    expect((await err(404, 'text/html; charset=utf-8', express)).detail).toEqual({ why: 'the body says: Error: Cannot POST /sse' });
    // Express's error page for an error thrown in a middleware (body-parser's limit): its name and message, not the stack.
    const thrown = express.replace('Cannot POST /sse', 'PayloadTooLargeError: request entity too large<br> &nbsp; &nbsp;at readStream (/srv/node_modules/raw-body/index.js:163:17)<br> &nbsp; &nbsp;at getRawBody (/srv/node_modules/raw-body/index.js:116:12)');
    expect((await err(413, 'text/html; charset=utf-8', thrown)).detail).toEqual({ why: 'the body says: Error: PayloadTooLargeError: request entity too large' });
    // Must not: a <pre> with other markup before its text is not quoted by a piece of it (the title alone).
    expect((await err(500, 'text/html', express.replace('Cannot POST /sse', '<b>x</b>'))).detail).toEqual({ why: 'the body says: Error' });
    expect(((await err(500, 'text/plain', 'x'.repeat(400))).detail as { why: string }).why).toHaveLength('the body says: '.length + 160);
    // a page without a title is quoted by its text, not its tags; text that only mentions a tag keeps it
    expect((await err(503, 'text/html', '<html><body>503 Service Unavailable</body></html>')).detail).toEqual({ why: 'the body says: 503 Service Unavailable' });
    expect((await err(503, 'text/html', '<!DOCTYPE html>\n<html><body>\n<h1>Service Unavailable</h1>\n<p>Try again later.</p>\n</body></html>')).detail).toEqual({ why: 'the body says: Service Unavailable Try again later.' });
    expect((await err(400, 'text/plain', 'expected <json> body')).detail).toEqual({ why: 'the body says: expected <json> body' });
  });
  it('reads a JSON-RPC error envelope, and the Java SDK\'s serialized McpError, as the error; an empty body says nothing', async () => {
    expect((await err(400, 'application/json', JSON.stringify({ jsonrpc: '2.0', id: 'server-error', error: { code: -32600, message: 'Bad Request: Missing session ID' } }))).detail)
      .toEqual({ errorCode: -32600, errorMessage: 'Bad Request: Missing session ID' });
    expect((await err(404, 'application/json', JSON.stringify({ jsonRpcError: { code: -32601, message: 'Session not found: 6f1c' }, message: 'Session not found: 6f1c', stackTrace: [] }))).detail)
      .toEqual({ errorCode: -32601, errorMessage: 'Session not found: 6f1c' });
    // Nothing in the body: the status and its reason phrase say what there is to say (the MCP test kitchen's injected 503).
    expect((await err(503, 'text/plain', '')).detail).toEqual({ why: 'HTTP 503 Service Unavailable, no body in the log' });
  });

  it('says a bare status by its phrase, what the log has of its body and its Retry-After; a status it does not know by its number', async () => {
    expect((await outcomeOf(post({ status: 401, ct: 'text/plain' }))).detail).toEqual({ why: 'HTTP 401 Unauthorized, no body in the log' });
    expect((await outcomeOf(post({ status: 429, body: '', headers: { 'retry-after': '2' } }))).detail).toEqual({ why: 'HTTP 429 Too Many Requests, no body in the log; Retry-After 2 s' });
    expect((await err(599, 'text/plain', '')).detail).toEqual({ why: 'HTTP 599, no body in the log' });
    // A result under an error status: handled, yet no SDK client reads it.
    expect((await outcomeOf(post({ status: 500, body: good }))).detail).toEqual({ why: "HTTP 500 Internal Server Error, though its body holds a JSON-RPC result (the handler's, or a layer's in front of it, as the test kitchen's errors.non_compliant_envelope sends: it does not prove a tool ran), yet the SDK clients fail it on the status and never read that result" });
    // Must not: a body that says something is quoted instead; a JSON-RPC error is the error; a redirect keeps its own why.
    expect((await err(503, 'text/plain', 'upstream connect error')).detail).toEqual({ why: 'the body says: upstream connect error' });
    expect((await err(429, 'application/json', JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'Too many requests' } }))).detail).toEqual({ errorCode: -32000, errorMessage: 'Too many requests' });
    expect(((await outcomeOf(post({ status: 307, headers: { location: '/mcp/' } }))).detail as { why: string }).why).toMatch(/^HTTP 307, a redirect, not a refusal/);
  });
});

describe("the source article's eleven cases", () => {
  const goodResult = { resultType: 'complete', content: [{ type: 'text', text: 'ok' }], isError: false };
  const rpcError = { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'synthetic invalid params' } };
  const wire = (status: number, body: unknown) => post({ status, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const table: [string, Record<string, unknown>, Outcome][] = [
    ['baseline complete', wire(200, { jsonrpc: '2.0', id: 1, result: goodResult }), 'TOOL_SUCCESS'],
    ['HTTP 200 + JSON-RPC error', wire(200, rpcError), 'JSONRPC_ERROR'],
    ['HTTP 200 + isError', wire(200, { jsonrpc: '2.0', id: 1, result: { ...goodResult, isError: true } }), 'TOOL_ERROR'],
    ['HTTP 500 with success-looking body', wire(500, { jsonrpc: '2.0', id: 1, result: goodResult }), 'HTTP_ERROR'],
    ['malformed JSON', wire(200, '{unclosed'), 'MALFORMED_JSON'],
    ['result and error together', wire(200, { jsonrpc: '2.0', id: 1, result: goodResult, error: rpcError.error }), 'INVALID_ENVELOPE'],
    ['wrong JSON-RPC id', wire(200, { jsonrpc: '2.0', id: 99, result: goodResult }), 'INVALID_ENVELOPE'],
    ['input_required', wire(200, { jsonrpc: '2.0', id: 1, result: { resultType: 'input_required', inputRequests: { approval: { method: 'elicitation/create', params: { mode: 'form', message: 'synthetic input' } } } } }), 'INPUT_REQUIRED'],
    ['legacy result without resultType', wire(200, { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'legacy ok' }], isError: false } }), 'TOOL_SUCCESS'],
    ['content not an array', wire(200, { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: 'not-an-array', isError: false } }), 'INVALID_TOOL_RESULT'],
  ];
  for (const [name, rec, expected] of table) {
    it(`${name} -> ${expected}`, async () => {
      expect((await outcomeOf(rec)).outcome).toBe(expected);
    });
  }
  it('503 then an explicit second POST -> HTTP_ERROR then TOOL_SUCCESS, linked as one call', async () => {
    const r = await analyzeInputs([{ lines: [
      post({ t: 0, id: 1, status: 503, body: '{"note":"synthetic outage"}' }),
      post({ t: 500, id: 2, status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 2, result: goodResult }) }),
    ] }]);
    expect(r.attempts.map((a) => a.outcome)).toEqual(['HTTP_ERROR', 'TOOL_SUCCESS']);
    expect(r.attempts[0]!.call).toBe(r.attempts[1]!.call);
    expect(r.attempts.map((a) => a.attempt)).toEqual([1, 2]);
    expect(r.attempts[1]!.retryOrigin?.origin).toBe('unknown');
  });
});

describe('a JSON-RPC error whose code is an HTTP status (Genkit\'s MCP server, test/fixtures/real-audit11/gks-errors)', () => {
  const errorBody = (code: number, message: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code, message } });
  const whyOf = async (code: number, message: string) => (await analyzeInputs([{ side: 'client', lines: [post({ id: 1, tool: 'refund', status: 200, body: errorBody(code, message) })] }])).attempts[0]!;

  it('404 in an HTTP 200: JSONRPC_ERROR, its why says the code is an HTTP status, not the exchange\'s (before: a bare "404 NOT_FOUND: …")', async () => {
    const a = await whyOf(404, "NOT_FOUND: Tried to call tool 'refund' but it could not be found.");
    expect(a).toMatchObject({ outcome: 'JSONRPC_ERROR', status: 200, detail: { errorCode: 404 } });
    expect(a.detail.why).toMatch(/^error code 404 is no JSON-RPC or MCP code but an HTTP status number, not the exchange's own status: .*Genkit's MCP server/);
  });

  it('must not: -32603 and -32000 say nothing of it', async () => {
    expect((await whyOf(-32603, 'database connection refused')).detail.why).toBeUndefined();
    expect((await whyOf(-32000, 'Rate limit exceeded')).detail.why).toBeUndefined();
  });
});
