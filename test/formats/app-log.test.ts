// Unit tests for src/formats/app-log.ts: JSON-RPC messages in an application's own log fields, read with the line's time, session, status and direction.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AdapterContext } from '../../src/formats/adapter.js';
import { appLogFormat } from '../../src/formats/app-log.js';
import { parsePythonLiteral } from '../../src/formats/python-text.js';
import { detectJsonFormat } from '../../src/formats/index.js';
import { analyze } from '../../src/index.js';
import { parseTimestamp } from '../../src/formats/time.js';
import { messages } from './helpers.js';

const BIN = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));
const input = (side?: AdapterContext['side']): AdapterContext => ({ file: 'app.log', line: 1, state: new Map(), side });
const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'charge_card', arguments: { cents: 5 } } };
const answer = { jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text', text: 'charged' }] } };
const read = (line: Record<string, unknown>, side?: AdapterContext['side']) => messages(appLogFormat.toRecords(line, input(side)));

describe('app-log: where the messages are', () => {
  it('takes a message object from any field, with the line\'s time and sessionId (pino)', () => {
    const [m] = read({ level: 30, time: 1772359200000, pid: 1, hostname: 'h', sessionId: 's-1', rpc: call, msg: 'mcp message received' }, 'server');
    expect(m).toMatchObject({ kind: 'message', direction: 'c2s', message: call, ts: 1772359200000, session: 's-1' });
  });

  it('parses a message stringified in the text, after a prefix that says its direction (winston)', () => {
    const line = { level: 'info', message: `sending ${JSON.stringify(answer)}`, sessionId: 's-1', timestamp: '2026-03-01T10:00:00.038Z' };
    expect(read(line, 'server')[0]).toMatchObject({ direction: 's2c', message: answer, ts: '2026-03-01T10:00:00.038Z', session: 's-1' });
    // The same words from the client's side: what it sent went to the server.
    expect(read({ level: 'info', message: `sent: ${JSON.stringify(call)}` }, 'client')[0]!.direction).toBe('c2s');
  });

  it('looks one level into objects (req.body), finds the session in the request headers and the status in res.statusCode', () => {
    const line = { level: 30, time: 1, req: { method: 'POST', url: '/mcp', headers: { 'Mcp-Session-Id': 's-9' }, body: call }, res: { statusCode: 503 }, msg: 'request completed' };
    expect(read(line, 'server')[0]).toMatchObject({ direction: 'c2s', message: call, session: 's-9', status: 503 });
  });

  it('tells a request before the response on the same line, the status on the response', () => {
    const rs = read({ level: 30, time: 1, status: 200, response_body: JSON.stringify(answer), request_body: JSON.stringify(call), msg: 'mcp exchange' }, 'server');
    expect(rs.map((r) => [r.direction, 'method' in (r.message as object), r.status])).toEqual([['c2s', true, undefined], ['s2c', false, 200]]);
  });

  it('takes python-json-logger\'s asctime (a comma before the milliseconds) as the line\'s time', () => {
    const [m] = read({ asctime: '2026-03-01 10:00:00,120', levelname: 'INFO', name: 'notes.mcp', message: 'received', rpc: call }, 'server');
    expect(m).toMatchObject({ direction: 'c2s', ts: '2026-03-01 10:00:00,120' });
    expect(parseTimestamp(m!.ts)).toBe(Date.parse('2026-03-01T10:00:00.120Z'));
  });

  it('reads structlog\'s JSONRenderer line: the text in `event`, the bound `session_id`, the ISO `timestamp`', () => {
    const [m] = read({ session_id: 'f3a1', rpc: answer, event: 'mcp message sent', level: 'info', timestamp: '2026-03-01T10:00:00.120345Z' }, 'server');
    expect(m).toMatchObject({ direction: 's2c', message: answer, session: 'f3a1', ts: '2026-03-01T10:00:00.120345Z' });
  });

  it('reads loguru\'s serialize=True line: time, level, text and the bound fields one or two levels down in `record`', () => {
    const record = (extra: Record<string, unknown>, message: string) => ({
      text: `2026-03-01 10:00:00.120 | INFO     | __main__:message:54 - ${message}\n`,
      record: {
        elapsed: { repr: '0:00:01.156102', seconds: 1.156102 }, exception: null, extra, function: 'message',
        level: { icon: 'i', name: 'INFO', no: 20 }, line: 54, message, module: 'app', name: '__main__',
        process: { id: 7, name: 'MainProcess' }, thread: { id: 1, name: 'MainThread' },
        time: { repr: '2026-03-01 10:00:00.120345+00:00', timestamp: 1772359200.120345 },
      },
    });
    const [m] = read(record({ sessionId: 'f3a1', rpc: call }, 'mcp message sent'), 'client');
    // The time from record.time.repr, the session from record.extra.sessionId, the direction from record.message.
    expect(m).toMatchObject({ direction: 'c2s', message: call, session: 'f3a1', ts: '2026-03-01 10:00:00.120345+00:00' });
    expect(parseTimestamp(m!.ts)).toBeCloseTo(Date.parse('2026-03-01T10:00:00.120Z') + 0.345, 3);
    // Without repr, its epoch-seconds timestamp.
    const noRepr = record({ sessionId: 'f3a1', rpc: call }, 'mcp message received');
    delete (noRepr.record.time as { repr?: string }).repr;
    expect(read(noRepr, 'server')[0]).toMatchObject({ direction: 'c2s', ts: 1772359200.120345 });
    // The app's start-up line: a logger's line (level and message in `record`) with no message, skipped.
    const startUp = record({}, 'billing-app listening on http://127.0.0.1:8000/mcp');
    expect(appLogFormat.detect(startUp)).toBe(true);
    expect(appLogFormat.toRecords(startUp, input())).toEqual([]);
  });

  it('reads a message dict formatted into the text as Python writes it (loguru\'s "received {}", python-json-logger\'s "%s", an f-string)', () => {
    const py = "{'jsonrpc': '2.0', 'id': 9, 'method': 'tools/call', 'params': {'name': 'charge_card', 'arguments': {'cents': 5, 'ok': True, 'note': None, 'memo': \"it's \\u00e9\\n\", 'tags': ('a',), 'rate': -1.5e-3}}}";
    const [m] = read({ asctime: '2026-03-01 10:00:00,120', levelname: 'INFO', message: `mcp message received ${py}` }, 'server');
    expect(m).toMatchObject({ direction: 'c2s', message: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'charge_card', arguments: { cents: 5, ok: true, note: null, memo: "it's \u00e9\n", tags: ['a'], rate: -0.0015 } } } });
    // loguru: the message in record.message (its `text` repeats it after a prefix too long to search); the session in record.extra.
    const loguru = { text: `2026-03-01 10:00:00.120 | INFO     | __main__:message:57 - mcp message sent ${py}\n`, record: { level: { name: 'INFO', no: 20 }, message: `mcp message sent ${py}`, extra: { sessionId: 'f3a1' }, time: { repr: '2026-03-01 10:00:00.120000+00:00', timestamp: 1772359200.12 } } };
    expect(read(loguru, 'client')).toMatchObject([{ direction: 'c2s', session: 'f3a1', message: { id: 9 } }]);
  });

  it('reads a batch, and a direction the line itself gives', () => {
    const [m] = read({ level: 30, direction: 'c2s', body: [call, { ...call, id: 10 }], msg: 'batch' });
    expect(m).toMatchObject({ direction: 'c2s', message: [call, { ...call, id: 10 }] });
  });
});

describe('app-log: what it must not take', () => {
  it('needs jsonrpc "2.0": an HTTP access log\'s method and result are no message', () => {
    // (an HTTP log line: taken, so that it is counted as a line without MCP traffic, not as one in no known format)
    expect(appLogFormat.detect({ ts: 1, method: 'POST', path: '/mcp', status: 200, result: 'ok' })).toBe(true);
    expect(appLogFormat.toRecords({ ts: 1, method: 'POST', path: '/mcp', status: 200, result: 'ok' }, input())).toEqual([]);
    expect(appLogFormat.detect({ foo: 1, bar: { baz: 2 } })).toBe(false);
    expect(appLogFormat.detect({ level: 30, payload: { id: 1, method: 'tools/call' }, msg: 'x' })).toBe(true); // a logger's line: detected, but...
    expect(appLogFormat.toRecords({ level: 30, payload: { id: 1, method: 'tools/call' }, msg: 'x' }, input())).toEqual([]); // ...no message in it
  });

  it('counts a logger\'s line without messages as recognized and empty (skipped), not as a record', () => {
    const line = { level: 30, time: 1, pid: 1, hostname: 'h', msg: 'server listening on :8080' };
    expect(appLogFormat.detect(line)).toBe(true);
    expect(appLogFormat.toRecords(line, input())).toEqual([]);
  });

  it('takes a message logged twice on one line once (loguru\'s `text` repeats `record.message`), and no `record` that is no logger\'s', () => {
    const message = `received ${JSON.stringify(call)}`;
    const line = { text: `2026-03-01 10:00:00.120 | INFO     | __main__:on_message:12 - ${message}\n`, record: { level: { name: 'INFO', no: 20 }, message, extra: {}, time: { repr: '2026-03-01 10:00:00.120000+00:00', timestamp: 1772359200.12 } } };
    expect(read(line, 'server')).toHaveLength(1);
    // Two different messages on one line stay two.
    expect(read({ level: 'info', event: 'exchange', request: call, response: answer }, 'server')).toHaveLength(2);
    // A `record` without a logger's level and text is no logger's line; one without a message stays unusable.
    expect(appLogFormat.detect({ text: 'x', record: { message: 'y' } })).toBe(false);
    expect(appLogFormat.detect({ record: { id: 3, level: 2 } })).toBe(false);
  });

  it("reads a message the logger wrote as pydantic's text of the SDK's message object (str() or repr(), mcp 2.x and 1.x)", () => {
    const pjl = { asctime: '2026-03-01 10:00:00,120', levelname: 'INFO', message: 'mcp message received', sessionId: 'f3a1', rpc: "jsonrpc='2.0' id=1 method='initialize' params={'protocolVersion': '2025-11-25'}" };
    expect(read(pjl, 'server')[0]).toMatchObject({ direction: 'c2s', session: 'f3a1', message: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } } });
    const structlog = { rpc: "JSONRPCResponse(jsonrpc='2.0', id=1, result={'content': [], 'isError': True})", event: 'mcp message sent', level: 'info' };
    expect(read(structlog, 'server')[0]).toMatchObject({ direction: 's2c', message: { jsonrpc: '2.0', id: 1, result: { content: [], isError: true } } });
    // Fields written as None are fields the wire left out; mcp 1.x's RootModel is unwrapped.
    const loguru = { text: 'x', record: { level: { name: 'INFO' }, message: 'mcp message sent', extra: { rpc: "jsonrpc='2.0' method='notifications/initialized' params=None" } } };
    expect(read(loguru, 'client')[0]!.message).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const v1 = { level: 'info', message: "sent root=JSONRPCError(jsonrpc='2.0', id=4, error=ErrorData(code=-32602, message='bad', data=None))" };
    expect(read(v1, 'server')[0]).toMatchObject({ direction: 's2c', message: { jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'bad' } } });
    expect(read(v1, 'server')[0]!.message).not.toHaveProperty('error.data');
  });

  it('refuses, with the fix, a line whose Python text of a message cannot be read, rather than skip it as empty', () => {
    // Cut short, or a model's text with fields no message has (a result model inside a dict's text).
    const cut = { asctime: '2026-03-01 10:00:00,120', levelname: 'INFO', message: 'mcp message received', rpc: "jsonrpc='2.0' id=1 method='initialize' params={'protocolVersion': '2025-" };
    expect(appLogFormat.toRecords(cut, input('server'))).toEqual({ error: expect.stringMatching(/^rpc: a JSON-RPC message logged as a Python object's text, not as JSON \(fix: log message\.model_dump\(mode="json"/) });
    const loguru = { text: 'x', record: { level: { name: 'INFO' }, message: 'mcp message sent', extra: { rpc: "jsonrpc='2.0' id=2 result=<object at 0x7f>" } } };
    expect(appLogFormat.toRecords(loguru, input('server'))).toMatchObject({ error: expect.stringMatching(/^record\.extra\.rpc: /) });
    // Must not: a line that mentions it in passing is still a logger's line without traffic; a line with a JSON message is read.
    expect(appLogFormat.toRecords({ level: 'info', message: "expected jsonrpc='2.0' in the request" }, input())).toEqual([]);
    expect(read({ level: 'info', message: 'mcp message received', rpc: call, repr: "jsonrpc='2.0' id=9 method='tools/call'" }, 'server')).toHaveLength(1);
  });

  it('takes python-json-logger\'s line without a level (format "%(asctime)s %(message)s") for a logger\'s line, not a bare message text', () => {
    const startUp = { asctime: '2026-03-01 10:00:00,120', message: 'listening on 8000' };
    expect(appLogFormat.detect(startUp)).toBe(true);
    expect(appLogFormat.toRecords(startUp, input())).toEqual([]);
    // Must not: a line with only a message text (JsonFormatter()'s default) says nothing of who wrote it: unusable.
    expect(appLogFormat.detect({ message: 'listening on 8000' })).toBe(false);
    expect(detectJsonFormat({ asctime: '2026-03-01 10:00:00,120', message: 'x' })).toBeUndefined();
  });

  it('reads a Python literal strictly: anything but JSON values\' text is no message', () => {
    expect(parsePythonLiteral("{'a': [1, 2.5, True, None], 'b': {}}")).toEqual({ a: [1, 2.5, true, null], b: {} });
    for (const bad of [
      "{'jsonrpc': '2.0', 'id': 1, 'result': CallToolResult(content=[])}", // an object's repr inside
      "{'jsonrpc': '2.0', 'id': 1, 'result': {'x': inf}}", // no JSON number
      "{'jsonrpc': '2.0', 'id': 1, 'method': 'tools/call', 'params': {'name': 'a'", // cut
      "{'jsonrpc': '2.0', 'id': 1} and more", // text after it
      "{'a': 'b\\q'}", // an escape Python never writes
      '['.repeat(100) + ']'.repeat(100), // deeper than any message
    ]) expect(parsePythonLiteral(bad)).toBeUndefined();
    // __proto__ is not copied onto the object.
    expect(Object.getPrototypeOf(parsePythonLiteral("{'__proto__': {'x': 1}}"))).toBe(Object.prototype);
    // A dict's text that cannot be read is refused with the fix, not skipped; one that is no message (no jsonrpc) is skipped.
    const cut = { asctime: '2026-03-01 10:00:00,120', levelname: 'INFO', message: "received {'jsonrpc': '2.0', 'id': 1, 'result': CallToolResult(content=[])}" };
    expect(appLogFormat.toRecords(cut, input('server'))).toMatchObject({ error: expect.stringMatching(/^message: a JSON-RPC message logged as a Python object's text, not as JSON \(fix: .*json\.dumps of a dict\)$/) });
    expect(appLogFormat.toRecords({ levelname: 'INFO', asctime: 'x', message: "config {'debug': True}" }, input())).toEqual([]);
  });

  it('does not read a direction from free text that only happens to say "in" or "read"', () => {
    // Without --server the first line decides whose log it is; "read ... in" says nothing, so the default holds: a response goes to the client.
    expect(read({ level: 30, rpc: answer, msg: 'read 3 notes in 20 ms' })[0]!.direction).toBe('s2c');
  });

  it('is never tried before the formats and envelopes: a jsonrpc line, a Cloud Logging entry keep their readers', () => {
    expect(detectJsonFormat({ direction: 'c2s', message: call })?.name).toBe('jsonrpc');
    expect(detectJsonFormat({ level: 30, rpc: call, msg: 'x' })).toBeUndefined();
  });

  it('end to end: a Cloud Logging entry whose jsonPayload holds a direction and a message stays jsonrpc; a pino line of the same is app-log', () => {
    const dir = mkdtempSync(join(tmpdir(), 'app-log-'));
    const file = join(dir, 'mixed.ndjson');
    writeFileSync(file, [
      JSON.stringify({ insertId: 'a', logName: 'projects/p/logs/app', timestamp: '2026-03-01T10:00:00Z', jsonPayload: { direction: 'out', message: call } }),
      JSON.stringify({ insertId: 'b', logName: 'projects/p/logs/app', timestamp: '2026-03-01T10:00:00.100Z', jsonPayload: { direction: 'in', message: answer } }),
      JSON.stringify({ level: 30, time: Date.parse('2026-03-01T10:00:01Z'), rpc: { ...call, id: 10 }, msg: 'mcp message sent' }),
      JSON.stringify({ level: 30, time: Date.parse('2026-03-01T10:00:01.100Z'), rpc: { ...answer, id: 10 }, msg: 'mcp message received' }),
      JSON.stringify({ level: 30, time: Date.parse('2026-03-01T10:00:02Z'), msg: 'shutting down' }),
      JSON.stringify({ foo: 1 }),
    ].join('\n') + '\n');
    const r = spawnSync(process.execPath, [BIN, '--format', 'ndjson', '--client', file], { encoding: 'utf8' });
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const summary = lines.find((l) => l.type === 'summary') as { inputs: { formats: Record<string, number>; skipped: number; unusable: number }[] };
    expect(summary.inputs[0]).toMatchObject({ formats: { jsonrpc: 2, 'app-log': 2 }, skipped: 1, unusable: 1 });
    expect(lines.filter((l) => l.type === 'attempt').map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_SUCCESS']);
    expect(r.stderr).toContain('mixed.ndjson:6: record in no known format (keys: foo)');
  });

  it('end to end: a logged 404 with the session header is an HTTP error of an expired session; a line without a status has no HTTP layer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'app-log-'));
    const file = join(dir, 'http.ndjson');
    const req = (id: number, status?: number) => ({ level: 30, time: Date.parse('2026-03-01T10:00:00Z') + id, req: { method: 'POST', url: '/mcp', headers: { 'mcp-session-id': 'gone-1' }, body: { ...call, id } }, ...(status !== undefined ? { res: { statusCode: status } } : {}), msg: 'request completed' });
    writeFileSync(file, `${JSON.stringify(req(1, 404))}\n${JSON.stringify(req(2))}\n`);
    const r = spawnSync(process.execPath, [BIN, '--format', 'ndjson', '--server', file], { encoding: 'utf8' });
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const attempts = lines.filter((l) => l.type === 'attempt');
    expect(attempts.map((a) => [a.id, a.status, a.outcome])).toEqual([[1, 404, 'HTTP_ERROR'], [2, null, 'UNANSWERED']]);
    expect(lines.filter((l) => l.type === 'finding').map((f) => f.code)).toEqual(['SESSION_EXPIRED']);
  });
});

describe("app-log: a client's own log joined with the server's", () => {
  const t0 = Date.parse('2026-03-01T10:00:00Z');
  const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'agent', version: '1' } } };
  const inited = { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'app', version: '1' } } };
  /** pino lines: [ms after t0, message, text, session id logged with it]. */
  const log = (rows: [number, unknown, string, string?][]) => rows.map(([ms, rpc, msg, sessionId]) => JSON.stringify({ level: 30, time: t0 + ms, ...(sessionId ? { sessionId } : {}), rpc, msg })).join('\n') + '\n';
  const both = (client: string, server: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'app-log-'));
    writeFileSync(join(dir, 'client.ndjson'), client);
    writeFileSync(join(dir, 'server.ndjson'), server);
    return analyze({ inputs: [{ path: join(dir, 'client.ndjson'), side: 'client' }, { path: join(dir, 'server.ndjson'), side: 'server' }] });
  };
  const serverLog = log([[1, init, 'mcp message received', 'S1'], [2, inited, 'mcp message sent', 'S1'], [11, call, 'mcp message received', 'S1'], [12, answer, 'mcp message sent', 'S1']]);

  it("an initialize the client logged before its transport had a session id is answered by the response logged with one: one attempt, both views", async () => {
    // The app logs transport.sessionId: undefined when the initialize is sent, set when its response is delivered.
    const r = await both(log([[0, init, 'mcp message sent'], [3, inited, 'mcp message received', 'S1'], [10, call, 'mcp message sent', 'S1'], [13, answer, 'mcp message received', 'S1']]), serverLog);
    expect(r.attempts.map((a) => [a.method, a.session, a.outcome, a.sources.length])).toEqual([['initialize', 'S1', 'SUCCESS', 4], ['tools/call', 'S1', 'TOOL_SUCCESS', 4]]);
    expect(r.findings.map((f) => f.code)).toEqual([]);
  });

  it('must not: a tools/call logged without a session is not taken by a response under one (only the request that opens the session is)', async () => {
    const r = await both(log([[0, init, 'mcp message sent'], [3, inited, 'mcp message received', 'S1'], [10, call, 'mcp message sent'], [13, answer, 'mcp message received', 'S1']]), serverLog);
    const calls = r.attempts.filter((a) => a.method === 'tools/call' && a.side === 'client');
    // The client's view of it stays unanswered (joined with the server's view, which answered it).
    expect(calls.map((a) => a.outcome)).toEqual(['UNANSWERED']);
    expect(r.findings.map((f) => f.code)).toContain('ORPHAN_RESPONSE');
  });

  it('a client log without session ids beside a server log with them: each request joined to the server\'s view by id, method, arguments and answer, under the server\'s session; the summary says so', async () => {
    const r = await both(log([[0, init, 'mcp message sent'], [3, inited, 'mcp message received'], [10, call, 'mcp message sent'], [13, answer, 'mcp message received']]), serverLog);
    expect(r.attempts.map((a) => [a.side, a.method, a.session, a.outcome, a.serverOutcome, a.sources.length])).toEqual([
      ['client', 'initialize', 'S1', 'SUCCESS', 'SUCCESS', 4],
      ['client', 'tools/call', 'S1', 'TOOL_SUCCESS', 'TOOL_SUCCESS', 4],
    ]);
    expect(r.findings).toEqual([]);
    expect(r.summary.notes).toEqual([expect.stringMatching(/^2 requests of a client log that names no session id .* were joined to the server's view of them by JSON-RPC id, method, arguments, answer and time, not by session/)]);
  });

  it('must not: a session-less client request is not joined to a server request with other arguments, another result, or one that came minutes apart', async () => {
    const other = { ...call, params: { name: 'charge_card', arguments: { cents: 500 } } };
    const otherResult = { jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text', text: 'declined' }] } };
    const cases: [string, string][] = [
      ['other arguments', log([[1, init, 'mcp message received', 'S1'], [2, inited, 'mcp message sent', 'S1'], [11, other, 'mcp message received', 'S1'], [12, answer, 'mcp message sent', 'S1']])],
      ['another result', log([[1, init, 'mcp message received', 'S1'], [2, inited, 'mcp message sent', 'S1'], [11, call, 'mcp message received', 'S1'], [12, otherResult, 'mcp message sent', 'S1']])],
      ['minutes apart', log([[1, init, 'mcp message received', 'S1'], [2, inited, 'mcp message sent', 'S1'], [400_000, call, 'mcp message received', 'S1'], [400_001, answer, 'mcp message sent', 'S1']])],
    ];
    for (const [what, server] of cases) {
      const r = await both(log([[0, init, 'mcp message sent'], [3, inited, 'mcp message received'], [10, call, 'mcp message sent'], [13, answer, 'mcp message received']]), server);
      const calls = r.attempts.filter((a) => a.method === 'tools/call');
      expect(calls.map((a) => [a.side, a.session]), what).toEqual([['client', null], ['server', 'S1']]);
      expect(calls[0]!.notSeenByServer, what).toBeUndefined();
      expect(calls[0]!.detail?.why, what).toContain("no view of it in the server's log: the client's log names no session id, so it was looked for by id, method, arguments and time, and none fits");
    }
  });

  it('among many server sessions that got the same request with the same id and answer, the one nearest in time is joined, and only it', async () => {
    const rows: [number, unknown, string, string?][] = [];
    for (let i = 0; i < 200; i++) rows.push([i * 1000 + 1, call, 'mcp message received', `S${i}`], [i * 1000 + 2, answer, 'mcp message sent', `S${i}`]);
    const r = await both(log([[100_000, call, 'mcp message sent'], [100_003, answer, 'mcp message received']]), log(rows));
    const joined = r.attempts.filter((a) => a.side === 'client');
    expect(joined.map((a) => [a.session, a.serverOutcome, a.sources.length])).toEqual([['S100', 'TOOL_SUCCESS', 4]]);
    expect(r.attempts.filter((a) => a.side === 'server')).toHaveLength(199);
  });

  it('must not: a client log with session ids still says a call the server never logged was not seen by it', async () => {
    const lost = { ...call, id: 7 };
    const r = await both(log([[0, init, 'mcp message sent'], [3, inited, 'mcp message received', 'S1'], [10, call, 'mcp message sent', 'S1'], [13, answer, 'mcp message received', 'S1'], [20, lost, 'mcp message sent', 'S1']]), serverLog);
    const a = r.attempts.find((x) => x.id === 7)!;
    expect(a).toMatchObject({ outcome: 'UNANSWERED', notSeenByServer: true });
    expect(a.detail.why ?? '').not.toContain('names no session id');
  });
});
