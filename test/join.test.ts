// The join: typed ids, batches, resumption on GET, client and server views, a missing server view, stateless id reuse, split records.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at, ok, post, sse, toolText } from './helpers/analyze.js';

/** A valid initialize result (the SDK clients refuse one without capabilities or serverInfo). */
const INIT_RESULT = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'srv', version: '1.0.0' } };

const SID = 'sess-1';

describe('join', () => {
  it('keeps id types apart: a response with "1" does not answer request 1', async () => {
    const r = await analyzeInputs([{ lines: [
      { direction: 'c2s', ts: at(0), message: { jsonrpc: '2.0', id: 1, method: 'ping' } },
      { direction: 'c2s', ts: at(1), message: { jsonrpc: '2.0', id: '1', method: 'ping' } },
      { direction: 's2c', ts: at(2), message: { jsonrpc: '2.0', id: '1', result: {} } },
    ] }]);
    const byType = Object.fromEntries(r.attempts.map((a) => [typeof a.id, a.outcome]));
    expect(byType).toEqual({ number: 'UNANSWERED', string: 'SUCCESS' });
  });

  it('splits a 2025-03-26 batch into its members, each answered by id', async () => {
    const r = await analyzeInputs([{ lines: [post({
      status: 200, send: [
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'a', arguments: {} } },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'b', arguments: {} } },
        { jsonrpc: '2.0', method: 'notifications/progress', params: {} },
      ],
      body: JSON.stringify([{ jsonrpc: '2.0', id: 2, result: toolText('b', { isError: true }) }, { jsonrpc: '2.0', id: 1, result: toolText('a') }]),
    })] }]);
    expect(r.attempts.map((a) => [a.id, a.tool, a.outcome]).sort()).toEqual([[1, 'a', 'TOOL_SUCCESS'], [2, 'b', 'TOOL_ERROR']]);
    // a batch answered by an array: nothing to say of the array
    expect(r.attempts.map((a) => (a as { detail?: { why?: string } }).detail?.why ?? '').join()).not.toMatch(/batch of one/);
  });

  it('quotes an error page written into a 200 event stream (a HAR or whole-exchange body), and says nothing of a stream only cut', async () => {
    const call = { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'a', arguments: {} } };
    const why = async (body: string) => {
      const r = await analyzeInputs([{ lines: [post({ status: 200, send: call, ct: 'text/event-stream', body })] }]);
      expect(r.attempts.map((a) => a.outcome)).toEqual(['STREAM_INCOMPLETE']);
      return (r.attempts[0] as { detail?: { why?: string } }).detail?.why;
    };
    const page = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
    expect(await why(`event: ping\ndata: x\n\n${page}`)).toBe('SSE stream ended after 1 event without the response; the stream carried text that is no SSE field, which an SSE client ignores (an error page written into it?): "502 Bad Gateway"');
    expect(await why(`event: ping\ndata: x\n\n`)).toBe('SSE stream ended after 1 event without the response');
  });

  it('names an array around the one response to a request sent alone (a batch of one), and leaves a batch of one request alone', async () => {
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'a', arguments: {} } };
    const answer = JSON.stringify([{ jsonrpc: '2.0', id: 3, result: toolText('a') }]);
    const why = async (send: unknown, ct?: string, body = answer) => {
      const r = await analyzeInputs([{ lines: [post({ status: 200, send, body, ...(ct ? { ct } : {}) })] }]);
      expect(r.attempts.map((a) => a.outcome)).toEqual(['TOOL_SUCCESS']);
      return (r.attempts[0] as { detail?: { why?: string } }).detail?.why;
    };
    expect(await why(call)).toMatch(/^the response came inside a JSON array \(a batch of one\) although the request was sent alone/);
    expect(await why(call, 'text/event-stream', `event: message\ndata: ${answer}\n\n`)).toMatch(/batch of one/);
    expect(await why([call])).toBeUndefined();
    expect(await why(call, undefined, JSON.stringify({ jsonrpc: '2.0', id: 3, result: toolText('a') }))).toBeUndefined();
  });

  it('joins a response delivered on a GET resumption (Last-Event-ID) to its POST', async () => {
    const r = await analyzeInputs([{ lines: [
      post({ t: 0, id: 5, session: SID, status: 200, ct: 'text/event-stream', body: 'id: ev-1\ndata:\n\n' }),
      { v: 1, kind: 'exchange', ts: at(1200), method: 'GET', requestHeaders: { 'mcp-session-id': SID, 'last-event-id': 'ev-1' }, status: 200, responseHeaders: { 'content-type': 'text/event-stream' }, recvText: sse({ id: 'ev-2', event: 'message', data: JSON.parse(ok(5, toolText('done'))) }) },
    ] }]);
    expect(r.attempts).toHaveLength(1);
    expect(r.attempts[0]).toMatchObject({ id: 5, outcome: 'TOOL_SUCCESS', resumed: true });
    expect(r.attempts[0]!.findings).toEqual([]);
    expect(r.attempts[0]!.sources.map((s) => s.line)).toEqual([1, 2]);
  });

  it('a resumption in another session does not answer the request', async () => {
    const r = await analyzeInputs([{ lines: [
      post({ t: 0, id: 5, session: SID, status: 200, ct: 'text/event-stream', body: 'id: ev-1\ndata:\n\n' }),
      { v: 1, kind: 'exchange', ts: at(1200), method: 'GET', requestHeaders: { 'mcp-session-id': 'other' }, status: 200, responseHeaders: { 'content-type': 'text/event-stream' }, recvText: sse({ event: 'message', data: JSON.parse(ok(5, toolText('done'))) }) },
    ] }]);
    expect(r.attempts.map((a) => a.outcome)).toEqual(['STREAM_INCOMPLETE']);
  });

  it('joins the client view and the server view of the same attempt', async () => {
    const r = await analyzeInputs([
      { side: 'client', lines: [post({ t: 0, id: 3, session: SID, status: 200, body: ok(3, toolText('x')) })] },
      { side: 'server', lines: [post({ t: 5, id: 3, session: SID, status: 200, body: ok(3, toolText('x')) })] },
    ]);
    expect(r.attempts).toHaveLength(1);
    expect(r.attempts[0]).toMatchObject({ side: 'client', outcome: 'TOOL_SUCCESS', serverOutcome: 'TOOL_SUCCESS' });
    expect(r.attempts[0]!.sources).toHaveLength(2);
    expect(r.attempts[0]!.notSeenByServer).toBeUndefined();
  });

  it('states when the server never saw an attempt that the client sent', async () => {
    const r = await analyzeInputs([
      { side: 'client', lines: [post({ t: 0, id: 1, session: SID, status: 200, body: ok(1, toolText('x')) }), post({ t: 100, id: 2, session: SID, status: 503, body: '' })] },
      { side: 'server', lines: [post({ t: 5, id: 1, session: SID, status: 200, body: ok(1, toolText('x')) })] },
    ]);
    const two = r.attempts.find((a) => a.id === 2)!;
    expect(two.notSeenByServer).toBe(true);
    expect(two.findings.map((f) => f.code)).not.toContain('SIDE_DIVERGENCE');
  });

  it('joins across clocks that differ by minutes (skew within --skew)', async () => {
    const r = await analyzeInputs([
      { side: 'client', lines: [post({ t: 0, id: 1, session: SID, status: 200, body: ok(1, toolText('x')) }), post({ t: 1000, id: 2, session: SID, status: 200, body: ok(2, toolText('y')) })] },
      { side: 'server', lines: [post({ t: 90_000, id: 1, session: SID, status: 200, body: ok(1, toolText('x')) }), post({ t: 91_000, id: 2, session: SID, status: 200, body: ok(2, toolText('y')) })] },
    ]);
    expect(r.attempts).toHaveLength(2);
    expect(r.attempts.every((a) => a.serverOutcome === 'TOOL_SUCCESS')).toBe(true);
  });

  it('without sessions, an id may be reused once the earlier request completed (no ID_REUSED)', async () => {
    const r = await analyzeInputs([{ lines: [
      post({ t: 0, id: 1, status: 200, body: ok(1, toolText('a')), durationMs: 50, args: { q: 'a' } }),
      post({ t: 1000, id: 1, status: 200, body: ok(1, toolText('b')), durationMs: 50, args: { q: 'b' } }),
    ] }]);
    expect(r.attempts.map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_SUCCESS']);
    expect(r.attempts.flatMap((a) => a.findings.map((f) => f.code))).toEqual([]);
  });

  it('reads split streaming records (request, response, event, end) as one exchange', async () => {
    const r = await analyzeInputs([{ lines: [
      { v: 1, kind: 'request', xid: 'x1', ts: at(0), method: 'POST', send: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 't', arguments: {} } } },
      { v: 1, kind: 'response', xid: 'x1', ts: at(10), status: 200, responseHeaders: { 'content-type': 'text/event-stream' } },
      { v: 1, kind: 'event', xid: 'x1', ts: at(20), event: 'message', data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 9, progress: 1 } }) },
      { v: 1, kind: 'event', xid: 'x1', ts: at(30), event: 'message', data: ok(9, toolText('fine')) },
      { v: 1, kind: 'end', xid: 'x1', ts: at(31), end: 'complete' },
    ] }]);
    expect(r.attempts).toHaveLength(1);
    expect(r.attempts[0]).toMatchObject({ outcome: 'TOOL_SUCCESS', sse: { events: 2, progress: 1 } });
  });

  it('a request whose response never shows up in the log (capture cut) is NO_RESPONSE', async () => {
    const r = await analyzeInputs([{ lines: [
      { v: 1, kind: 'request', xid: 'x1', ts: at(0), method: 'POST', send: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 't', arguments: {} } } },
    ] }]);
    expect(r.attempts[0]).toMatchObject({ outcome: 'NO_RESPONSE', status: null });
  });

  it('takes the session from the initialize response header', async () => {
    const r = await analyzeInputs([{ lines: [
      post({ t: 0, id: 0, method: 'initialize', status: 200, headers: { 'Mcp-Session-Id': 'S-9' }, body: ok(0, { protocolVersion: '2025-11-25' }) }),
      post({ t: 10, id: 1, session: 'S-9', status: 200, body: ok(1, toolText('x')) }),
    ] }]);
    expect(r.attempts.map((a) => a.session)).toEqual(['S-9', 'S-9']);
  });

  it('keeps ids beyond 2^53 exact, as their source text', async () => {
    const big = '9007199254740993123';
    const text = `{"v":1,"kind":"exchange","ts":"${at(0)}","method":"POST","sendText":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":${big},\\"method\\":\\"ping\\"}","status":200,"responseHeaders":{"content-type":"application/json"},"recvText":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":${big},\\"result\\":{}}"}\n`;
    const r = await analyzeInputs([{ lines: text }]);
    expect(r.attempts).toHaveLength(1);
    expect(r.attempts[0]).toMatchObject({ idText: big, outcome: 'SUCCESS' });
  });

  it('an auth re-POST with the same id pairs with the server view that saw the same status', async () => {
    const r = await analyzeInputs([
      { side: 'client', lines: [post({ t: 0, id: 1, session: SID, status: 401, body: '', headers: { 'www-authenticate': 'Bearer' } }), post({ t: 20, id: 1, session: SID, status: 200, body: ok(1, toolText('x')) })] },
      { side: 'server', lines: [post({ t: 22, id: 1, session: SID, status: 200, body: ok(1, toolText('x')) })] },
    ]);
    expect(r.attempts.map((a) => [a.status, a.serverOutcome ?? null, a.notSeenByServer ?? false])).toEqual([[401, null, true], [200, 'TOOL_SUCCESS', false]]);
    expect(r.attempts[1]!.retryOrigin).toMatchObject({ origin: 'sdk' });
    expect(r.attempts[1]!.findings.map((f) => f.code)).toEqual([]);
  });

  it('a new request after HTTP 400 + HeaderMismatch (-32020) is the SDK\'s re-send; after another 400 error nothing says who sent it', async () => {
    const rejected = (code: number) => JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code, message: code === -32020 ? 'Header mismatch: Mcp-Name' : 'Invalid params' } });
    const run = (code: number) => analyzeInputs([{ side: 'client', lines: [
      post({ t: 0, id: 1, status: 400, body: rejected(code), tool: 'refund' }),
      post({ t: 5, id: 2, method: 'tools/list', status: 200, body: ok(2, { tools: [] }) }),
      post({ t: 20, id: 3, status: 200, body: ok(3, toolText('done')), tool: 'refund' }),
    ] }]);
    const mismatch = (await run(-32020)).attempts.filter((a) => a.method === 'tools/call');
    expect(mismatch.map((a) => [a.outcome, a.call, a.attempt])).toEqual([['HTTP_ERROR', 'c1', 1], ['TOOL_SUCCESS', 'c1', 2]]);
    expect(mismatch[1]!.retryOrigin).toMatchObject({ origin: 'sdk', how: expect.stringContaining('HeaderMismatch') });
    expect(mismatch[1]!.findings.map((f) => f.code)).toEqual([]); // no ambiguity, no policy judgement of an immediate re-send
    const other = (await run(-32602)).attempts.filter((a) => a.method === 'tools/call');
    expect(other[1]!.retryOrigin).toMatchObject({ origin: 'unknown' });
    // Who sent it is unknown; an immediate re-send after a 400 is a correction, not a retry that should have waited.
    expect(other[1]!.findings.map((f) => f.code)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
  });

  it('puts a server log whose clock is minutes ahead on the client clock, and says so', async () => {
    const client = Array.from({ length: 12 }, (_, i) => post({ t: i * 10_000, id: i + 1, session: SID, status: i % 4 === 3 ? 503 : 200, body: i % 4 === 3 ? '' : ok(i + 1, toolText('x')), args: { n: i } }));
    const server = Array.from({ length: 12 }, (_, i) => post({ t: 247_000 + i * 10_000 + 3, id: i + 1, session: SID, status: i % 4 === 3 ? 503 : 200, body: i % 4 === 3 ? '' : ok(i + 1, toolText('x')), args: { n: i } }));
    const r = await analyzeInputs([{ side: 'client', lines: client }, { side: 'server', lines: server }]);
    expect(r.attempts).toHaveLength(12);
    expect(r.attempts.every((a) => a.serverOutcome !== undefined && !a.notSeenByServer)).toBe(true);
    expect(r.summary.notes.join(' ')).toMatch(/clock 247\.0 s ahead of the client log's/);
  });

  it('a 2xx response whose body the capture did not keep is UNANSWERED (not observable), never STREAM_INCOMPLETE', async () => {
    const rec = post({ t: 0, id: 3, status: 200, ct: 'text/event-stream' });
    delete rec.recvText;
    const r = await analyzeInputs([{ lines: [rec] }]);
    expect(r.attempts[0]).toMatchObject({ outcome: 'UNANSWERED', status: 200 });
    expect(r.attempts[0]!.findings).toEqual([]);
    const empty = await analyzeInputs([{ lines: [post({ t: 0, id: 3, status: 200, ct: 'text/event-stream', body: '' })] }]);
    expect(empty.attempts[0]!.outcome).toBe('STREAM_INCOMPLETE');
  });

  it('a 2xx stream that the capturing browser saw fail after its head, with no body kept, is STREAM_INCOMPLETE', async () => {
    // As Playwright records a cut SSE stream: status 200, _failureText net::ERR_INCOMPLETE_CHUNKED_ENCODING, no content.text.
    const rec = post({ t: 0, id: 3, status: 200, ct: 'text/event-stream', end: 'aborted', error: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING' });
    const r = await analyzeInputs([{ lines: [rec] }]);
    expect(r.attempts[0]).toMatchObject({ outcome: 'STREAM_INCOMPLETE', status: 200 });
    expect(r.attempts[0]!.detail?.why).toMatch(/failed after its head \(net::ERR_INCOMPLETE_CHUNKED_ENCODING\); the capture kept no body/);
    // The near miss: the same failure text on a stream whose body was kept and holds the answer.
    const kept = await analyzeInputs([{ lines: [post({ t: 0, id: 3, status: 200, ct: 'text/event-stream', end: 'aborted', error: 'net::ERR_ABORTED', body: `event: message\ndata: ${ok(3, toolText('x'))}\n\n` })] }]);
    expect(kept.attempts[0]!.outcome).toBe('TOOL_SUCCESS');
  });

  it('the 2024-11-05 HTTP+SSE transport in whole-exchange records: the GET stream read first answers the POSTs that came after it', async () => {
    // As a HAR holds it: the long-lived GET is one entry, started first, its body every response; each POST got 202 "Accepted".
    const stream = (...ids: number[]) => ({
      v: 1, kind: 'exchange', ts: at(0), method: 'GET', url: 'http://h/sse', requestHeaders: { accept: 'text/event-stream' }, status: 200,
      responseHeaders: { 'content-type': 'text/event-stream' }, durationMs: 5000,
      recvText: `event: endpoint\ndata: /messages?sessionId=abc\n\n${sse(...ids.map((id) => ({ event: 'message', data: JSON.parse(ok(id, toolText('found'))) })))}`,
    });
    const accepted = (t: number, id: number) => ({ ...post({ t, id, status: 202, body: 'Accepted' }), url: 'http://h/messages?sessionId=abc', responseHeaders: {} });
    const r = await analyzeInputs([{ lines: [stream(1, 2), accepted(100, 1), accepted(300, 2)] }]);
    expect(r.attempts.map((a) => [a.id, a.status, a.outcome])).toEqual([[1, 202, 'TOOL_SUCCESS'], [2, 202, 'TOOL_SUCCESS']]);
    expect(r.attempts.flatMap((a) => a.findings.map((f) => f.code))).toEqual([]);
    expect(r.findings).toEqual([]);
    // Near misses: a request that started after the stream ended does not take its response, which stays an orphan;
    // and "Accepted" on a 202 is no broken JSON.
    const late = await analyzeInputs([{ lines: [stream(1, 9), accepted(100, 1), accepted(6000, 2)] }]);
    expect(late.attempts.map((a) => [a.id, a.outcome])).toEqual([[1, 'TOOL_SUCCESS'], [2, 'STREAM_INCOMPLETE']]);
    expect(late.findings.map((f) => [f.code, f.message.match(/id (\d+)/)?.[1]])).toEqual([['ORPHAN_RESPONSE', '9']]);
  });

  it('on HTTP+SSE the GET stream\'s endpoint event announces the session: a 404 after a restart is no session the client "may have taken from another response"', async () => {
    // As LangChain's SSE transport met a restarted server: the stream ended, the next POST to the old endpoint got 404.
    const stream = { v: 1, kind: 'exchange', ts: at(0), method: 'GET', url: 'http://h/sse', requestHeaders: { accept: 'text/event-stream' }, status: 200,
      responseHeaders: { 'content-type': 'text/event-stream' }, durationMs: 1000, recvText: `event: endpoint\ndata: /messages?sessionId=abc\n\n${sse({ event: 'message', data: JSON.parse(ok(1, toolText('found'))) })}` };
    const expired = { ...post({ t: 3000, id: 2, status: 404, ct: 'text/plain', body: 'Session not found' }), url: 'http://h/messages?sessionId=abc' };
    const r = await analyzeInputs([{ lines: [stream, { ...post({ t: 100, id: 1, status: 202, body: 'Accepted' }), url: 'http://h/messages?sessionId=abc', responseHeaders: {} }, expired] }]);
    const found = r.findings.filter((f) => f.code === 'SESSION_EXPIRED');
    expect(found.map((f) => f.message)).toEqual(['session abc: HTTP 404 to tools/call search id 2 that carried the session id; the client did not re-initialize']);
  });

  it('joins a typed id with the same id stringified by OpenTelemetry, and marks the join weak', async () => {
    const attr = (key: string, v: string) => ({ key, value: { stringValue: v } });
    const ns = (ms: number) => String(BigInt(Date.parse(at(ms))) * 1_000_000n);
    const span = { resourceSpans: [{ resource: { attributes: [attr('service.name', 'tickets')] }, scopeSpans: [{ scope: { name: 'mcp' }, spans: [{
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', name: 'tools/call search', kind: 2, startTimeUnixNano: ns(5), endTimeUnixNano: ns(30),
      attributes: [attr('mcp.method.name', 'tools/call'), attr('mcp.session.id', SID), attr('jsonrpc.request.id', '2'), attr('gen_ai.tool.name', 'search'), attr('error.type', 'tool_error')], status: {},
    }] }] }] };
    const r = await analyzeInputs([
      { side: 'client', lines: [post({ t: 0, id: 2, session: SID, status: 200, body: ok(2, toolText('no', { isError: true })) })] },
      { side: 'server', lines: [span] },
    ]);
    expect(r.attempts).toHaveLength(1);
    expect(r.attempts[0]).toMatchObject({ id: 2, outcome: 'TOOL_ERROR', serverOutcome: 'TOOL_ERROR', weakId: true });
  });

  it('a split exchange is not confused with whole exchanges around it, whatever its xid', async () => {
    const r = await analyzeInputs([{ lines: [
      { v: 1, kind: 'request', xid: 'x0', ts: at(0), client: 'a', method: 'POST', send: { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} } },
      post({ t: 5, id: 0, method: 'initialize', client: 'b', status: 200, headers: { 'mcp-session-id': 'B' }, body: ok(0, INIT_RESULT) }),
      post({ t: 6, id: 0, method: 'initialize', client: 'c', status: 200, headers: { 'mcp-session-id': 'C' }, body: ok(0, INIT_RESULT) }),
      { v: 1, kind: 'response', xid: 'x0', ts: at(20), status: 200, responseHeaders: { 'content-type': 'application/json', 'mcp-session-id': 'A' }, recv: { jsonrpc: '2.0', id: 0, result: INIT_RESULT } },
      { v: 1, kind: 'end', xid: 'x0', ts: at(21), end: 'complete' },
    ] }]);
    expect(r.attempts.map((a) => a.session).sort()).toEqual(['A', 'B', 'C']);
    expect(r.attempts.every((a) => a.outcome === 'SUCCESS' && a.findings.length === 0)).toBe(true);
  });

  it('estimates the clock offset also when the sides come from the records, not from --client/--server', async () => {
    const client = Array.from({ length: 8 }, (_, i) => post({ t: i * 10_000, id: i + 1, session: SID, side: 'client', status: 200, body: ok(i + 1, toolText('x')), args: { n: i } }));
    const server = Array.from({ length: 8 }, (_, i) => post({ t: 180_000 + i * 10_000, id: i + 1, session: SID, side: 'server', status: 200, body: ok(i + 1, toolText('x')), args: { n: i } }));
    const r = await analyzeInputs([{ lines: client }, { lines: server }]);
    expect(r.attempts).toHaveLength(8);
    expect(r.attempts.every((a) => a.serverOutcome === 'TOOL_SUCCESS')).toBe(true);
    expect(r.summary.notes.join(' ')).toMatch(/clock 180\.0 s ahead/);
  });
});

describe('claims without a wire', () => {
  it('each claim of one line is its own call: an OTLP export line of several tool_call events of one tool makes no retry', async () => {
    const s = (key: string, v: string) => ({ key, value: { stringValue: v } });
    const event = (ms: number, success: boolean) => ({
      timeUnixNano: `${BigInt(Date.parse(at(ms))) * 1_000_000n}`,
      attributes: [s('event.name', 'gemini_cli.tool_call'), s('function_name', 'mcp_web_lookup'), s('tool_type', 'mcp'), s('mcp_server_name', 'web'), { key: 'success', value: { boolValue: success } },
        ...(success ? [] : [s('error', 'MCP tool \'lookup\' reported tool error for function call: {} with response: [{"functionResponse":{"name":"lookup","response":{"error":{"message":"fetch failed","isError":true}}}}]')])],
    });
    const line = { resourceLogs: [{ resource: {}, scopeLogs: [{ scope: { name: 'gemini-cli' }, logRecords: [event(0, false), event(100, true), event(200, true)] }] }] };
    const r = await analyzeInputs([{ lines: [line] }]);
    expect(r.attempts.map((a) => [a.id, a.outcome, a.attempt])).toEqual([
      ['log line 1', 'NO_RESPONSE', 1],
      ['log line 1, claim 2', 'TOOL_SUCCESS', 1],
      ['log line 1, claim 3', 'TOOL_SUCCESS', 1],
    ]);
    expect(new Set(r.attempts.map((a) => a.call)).size).toBe(3);
    expect(r.attempts.flatMap((a) => a.findings.map((f) => f.code))).toEqual([]);
  });

  it('an initialize that carried a lost session\'s id and was answered with a new one opens the new session; an echoed id or another request\'s changes nothing', async () => {
    const init = (t: number, id: number, session: string | undefined, answered: string) => post({ t, id, method: 'initialize', ...(session ? { session } : {}), status: 200, headers: { 'mcp-session-id': answered }, params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stale', version: '1' } }, body: ok(id, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }) });
    const lost = post({ t: 100, id: 2, session: 'OLD', status: 404, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }) });
    const again = post({ t: 300, id: 4, session: 'NEW', status: 200, body: ok(4, toolText('ok')) });
    const r = await analyzeInputs([{ lines: [init(0, 0, undefined, 'OLD'), lost, init(200, 3, 'OLD', 'NEW'), again] }]);
    expect(r.attempts.map((a) => [a.id, a.method, a.session])).toEqual([[0, 'initialize', 'OLD'], [2, 'tools/call', 'OLD'], [3, 'initialize', 'NEW'], [4, 'tools/call', 'NEW']]);
    // the call in the new session is the lost one's retry, and the client re-initialized
    expect(r.attempts[3]).toMatchObject({ call: r.attempts[1]!.call, attempt: 2 });
    expect(r.findings.find((f) => f.code === 'SESSION_EXPIRED')?.message).toMatch(/the client re-initialized and retried the call$/);
    // a tools/call answered with another session id keeps the one it carried; so do an initialize refused with one and an
    // initialize answered with the id it carried
    const other = await analyzeInputs([{ lines: [init(0, 0, undefined, 'OLD'), post({ t: 100, id: 1, session: 'OLD', status: 200, headers: { 'mcp-session-id': 'ELSE' }, body: ok(1, toolText('ok')) }),
      post({ t: 200, id: 2, method: 'initialize', session: 'OLD', status: 400, headers: { 'mcp-session-id': 'ELSE' }, body: '' }), init(300, 3, 'OLD', 'OLD')] }]);
    expect(other.attempts.map((a) => a.session)).toEqual(['OLD', 'OLD', 'OLD', 'OLD']);
  });
});

describe('join without a session: one id in several POSTs (real-chaos-py/modern-seed-7, -8)', () => {
  // 2026-07-28, no session: each new Python SDK Client numbers from 1 again, so concurrent clients send one id, and a
  // retry on a new Client after a reset has the id and arguments of the attempt before it. The server's line of a POST
  // starts after the client's and ends before it (its answer still has to reach the client).
  const V = { 'mcp-protocol-version': '2026-07-28' };
  const call = (t: number, id: number, key: string, status: number | null, side: 'client' | 'server', end?: 'error') =>
    post({ t, id, tool: 'send_email', args: { key }, status, side, requestHeaders: V, ...(status === 200 ? { body: ok(id, toolText(`sent ${key}`, { resultType: 'complete' })) } : status === 502 ? { body: 'Bad Gateway', ct: 'text/plain' } : {}), ...(end ? { end, error: 'other side closed' } : {}), durationMs: side === 'server' ? 40 : 50 });
  const serverOf = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.filter((a) => a.method === 'tools/call').map((a) => [a.ts, a.outcome, a.serverOutcome ?? null]);

  it('a retry with the same id and arguments after a reset after the tool ran: each attempt takes the server view nearest in time', async () => {
    const r = await analyzeInputs([
      { side: 'client', lines: [call(0, 3, 'a', null, 'client', 'error'), call(800, 3, 'a', 200, 'client')] },
      { side: 'server', lines: [call(5, 3, 'a', 200, 'server'), call(805, 3, 'a', 200, 'server')] },
    ]);
    const got = r.attempts.filter((a) => a.method === 'tools/call').map((a) => [a.ts, a.outcome, a.serverOutcome ?? null, a.attempt, a.sources.map((x) => x.line)]);
    expect(got).toEqual([[at(0), 'NO_RESPONSE', 'TOOL_SUCCESS', 1, [1, 1]], [at(800), 'TOOL_SUCCESS', 'TOOL_SUCCESS', 2, [2, 2]]]);
  });

  it('two clients send id 3 at once with other arguments: each attempt takes the server view of its own arguments, even when the other one is nearer in time', async () => {
    const r = await analyzeInputs([
      { side: 'client', lines: [call(0, 3, 'a', 200, 'client'), call(2, 3, 'b', 200, 'client')] },
      // The server logged b's POST first, nearest a's start.
      { side: 'server', lines: [call(1, 3, 'b', 200, 'server'), call(9, 3, 'a', 200, 'server')] },
    ]);
    const got = r.attempts.filter((a) => a.method === 'tools/call').map((a) => [a.ts, a.sources.map((x) => x.line)]).sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    expect(got).toEqual([[at(0), [1, 2]], [at(2), [2, 1]]]);
    // Must not: a server log that kept no arguments (a source that logs the method and id only) still joins its view.
    const bare = { ...call(1, 3, 'a', 200, 'server'), send: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'send_email' } } };
    const one = await analyzeInputs([{ side: 'client', lines: [call(0, 3, 'a', 200, 'client')] }, { side: 'server', lines: [bare] }]);
    expect(serverOf(one)).toEqual([[at(0), 'TOOL_SUCCESS', 'TOOL_SUCCESS']]);
  });

  it('a retry with the same id and arguments: a reset attempt the server never saw does not take the retry\'s server view', async () => {
    // Attempt 1 reset before forwarding (no server line); attempt 2, on a new Client, got the hop's 502 for the server's 200.
    const r = await analyzeInputs([
      { side: 'client', lines: [call(0, 3, 'a', null, 'client', 'error'), call(800, 3, 'a', 502, 'client')] },
      { side: 'server', lines: [call(805, 3, 'a', 200, 'server')] },
    ]);
    expect(serverOf(r)).toEqual([[at(0), 'NO_RESPONSE', null], [at(800), 'HTTP_ERROR', 'TOOL_SUCCESS']]);
    // Must not: with a session, where ids do not repeat so, the join is unchanged (one POST, one server view).
    const s = await analyzeInputs([
      { side: 'client', lines: [{ ...call(0, 3, 'a', 502, 'client'), requestHeaders: { ...V, 'mcp-session-id': 's1' } }] },
      { side: 'server', lines: [{ ...call(5, 3, 'a', 200, 'server'), requestHeaders: { ...V, 'mcp-session-id': 's1' } }] },
    ]);
    expect(serverOf(s)).toEqual([[at(0), 'HTTP_ERROR', 'TOOL_SUCCESS']]);
  });
});
