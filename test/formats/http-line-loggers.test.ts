// Unit tests for src/formats/http-line.ts on the shapes the seventieth audit recorded from real JSON HTTP loggers (express-winston's meta, ECS and OpenTelemetry dotted names, ecs-pino's mix, pino-http's end-of-response time and "request aborted"), and the near misses that must not change.
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectJsonFormat } from '../../src/formats/index.js';
import { dotted, httpLineFormat } from '../../src/formats/http-line.js';
import { loadSchemas } from '../../src/schema/lazy.js';
import { analyze } from '../../src/index.js';

const SID = '344be306-5f1a-409b-aa09-843a5bbe3b5a';
const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: 'A-1' } } };
const ctx = { file: 'server.ndjson', line: 1 };
const toRecords = (v: Record<string, unknown>) => httpLineFormat.toRecords(v, ctx) as Record<string, unknown>[];

/** express-winston 4.2.0 with @elastic/ecs-winston-format 1.5.3 and `body` whitelisted, as recorded (headers cut). */
const expressWinston = (over: Record<string, unknown> = {}) => ({
  '@timestamp': '2026-12-07T00:45:47.611Z', 'ecs.version': '8.10.0', 'log.level': 'info', message: 'HTTP POST /mcp',
  meta: { req: { body: call, headers: { 'mcp-session-id': SID, authorization: 'Bearer sk-audit70-secret-token-0123456789' }, httpVersion: '1.1', method: 'POST', originalUrl: '/mcp', query: {}, url: '/mcp' }, res: { statusCode: 200 }, responseTime: 24 },
  ...over,
});
/** @elastic/ecs-morgan-format 1.5.1's ECS fields (nested), with a body the developer added, and event.duration in ns. */
const ecsLine = (over: Record<string, unknown> = {}) => ({
  '@timestamp': '2026-12-07T00:45:47.611Z', 'log.level': 'info', 'ecs.version': '8.10.0',
  http: { version: '1.1', request: { method: 'POST', headers: { 'mcp-session-id': SID }, body: { bytes: 109, content: JSON.stringify(call) } }, response: { status_code: 200, headers: { 'content-type': 'text/event-stream', 'mcp-session-id': SID } } },
  url: { full: 'http://127.0.0.1:9500/mcp', path: '/mcp', domain: '127.0.0.1' }, event: { duration: 24_000_000 },
  ...over,
});

beforeAll(async () => {
  await loadSchemas();
});

describe('dotted names', () => {
  it('finds a field nested, as a literal dotted key, or the two mixed; never an Object member', () => {
    expect(dotted({ http: { request: { method: 'POST' } } }, 'http.request.method')).toBe('POST');
    expect(dotted({ 'http.request.method': 'POST' }, 'http.request.method')).toBe('POST');
    expect(dotted({ 'http.request': { method: 'POST' } }, 'http.request.method')).toBe('POST');
    expect(dotted({ http: { 'request.method': 'POST' } }, 'http.request.method')).toBe('POST');
    expect(dotted({ http: {} }, 'http.constructor')).toBeUndefined();
  });
});

describe('express-winston (meta.req, meta.res, meta.responseTime)', () => {
  it('is an HTTP line: the body whitelisted, the time ECS\'s @timestamp less responseTime (it logs once the response finished)', () => {
    expect(detectJsonFormat(expressWinston())?.name).toBe('http-line');
    expect(toRecords(expressWinston())).toEqual([expect.objectContaining({ method: 'POST', url: '/mcp', status: 200, ts: '2026-12-07T00:45:47.587Z', send: call, durationMs: 24 })]);
  });

  it('near misses: without the body, its GET and its /health lines are not read', () => {
    const noBody = expressWinston();
    delete (noBody.meta.req as Record<string, unknown>).body;
    expect(detectJsonFormat(noBody)?.name).not.toBe('http-line');
    expect(detectJsonFormat(expressWinston({ meta: { req: { method: 'GET', url: '/health', headers: {} }, res: { statusCode: 200 }, responseTime: 1 } }))?.name).not.toBe('http-line');
  });
});

describe('ECS and OpenTelemetry names', () => {
  it('reads ECS nested fields: method, url.path, status, both headers, http.request.body.content; event.duration in ns makes the start', () => {
    expect(detectJsonFormat(ecsLine())?.name).toBe('http-line');
    const [r] = toRecords(ecsLine());
    expect(r).toMatchObject({ method: 'POST', url: '/mcp', status: 200, ts: '2026-12-07T00:45:47.587Z', sendText: JSON.stringify(call), durationMs: 24, requestHeaders: { 'mcp-session-id': SID }, responseHeaders: { 'mcp-session-id': SID } });
  });

  it('reads the same as literal dotted keys (a flattened ECS or OpenTelemetry line), the query kept on url.path', () => {
    const flat = { '@timestamp': '2026-12-07T00:45:47.611Z', 'http.request.method': 'POST', 'url.path': '/mcp', 'url.query': 'x=1', 'http.response.status_code': 404, 'http.request.body.content': JSON.stringify(call), 'event.duration': '2000000' };
    expect(toRecords(flat)[0]).toMatchObject({ method: 'POST', url: '/mcp?x=1', status: 404, ts: '2026-12-07T00:45:47.609Z', durationMs: 2 });
  });

  it('event.start wins; event.end less the duration when no start; OpenTelemetry header attributes are headers', () => {
    expect(toRecords(ecsLine({ event: { start: '2026-12-07T00:45:40.000Z', duration: 24_000_000 } }))[0]!.ts).toBe('2026-12-07T00:45:40.000Z');
    expect(toRecords(ecsLine({ event: { end: '2026-12-07T00:45:50.000Z', duration: 1_000_000_000 } }))[0]!.ts).toBe('2026-12-07T00:45:49.000Z');
    const otel = { time: '2026-12-07T00:45:47.611Z', 'http.request.method': 'POST', 'url.path': '/mcp', 'http.response.status_code': 200, 'http.request.header.mcp-session-id': [SID], 'http.request.body.content': JSON.stringify(call) };
    expect(toRecords(otel)[0]).toMatchObject({ ts: '2026-12-07T00:45:47.611Z', requestHeaders: { 'mcp-session-id': SID } });
  });

  it('near misses: ECS morgan\'s line without a body, a health check, a line with no method', () => {
    const morgan = ecsLine();
    delete ((morgan.http as Record<string, Record<string, unknown>>).request as Record<string, unknown>).body;
    expect(detectJsonFormat(morgan)?.name).not.toBe('http-line');
    expect(detectJsonFormat(ecsLine({ url: { path: '/health' }, http: { request: { method: 'GET' }, response: { status_code: 200 } } }))?.name).not.toBe('http-line');
    expect(detectJsonFormat({ '@timestamp': '2026-12-07T00:45:47.611Z', 'url.path': '/mcp', 'http.response.status_code': 200, 'http.request.body.content': '{}' })?.name).not.toBe('http-line');
  });
});

describe('pino-http', () => {
  const pinoLine = (over: Record<string, unknown> = {}) => ({ level: 30, time: 1796604347530, req: { id: 2, method: 'POST', url: '/mcp', headers: { 'mcp-session-id': SID } }, res: { statusCode: 200, headers: { 'content-type': 'text/event-stream' } }, responseTime: 44, body: call, msg: 'request completed', ...over });

  it('its time is when the response finished: the start is time less responseTime (epoch ms stay a number; ISO text without a zone stays without)', () => {
    expect(toRecords(pinoLine())[0]!.ts).toBe(1796604347486);
    expect(toRecords(pinoLine({ time: '2026-12-07 00:45:47.530' }))[0]!.ts).toBe('2026-12-07T00:45:47.486');
  });

  it('with @elastic/ecs-pino-format: pino-http\'s req stays, the response is ECS\'s http.response, the time @timestamp', () => {
    const ecsPino = { 'log.level': 'info', '@timestamp': '2026-12-07T00:45:47.530Z', req: { id: 2, method: 'POST', url: '/mcp', headers: { 'mcp-session-id': SID } }, responseTime: 44, http: { response: { status_code: 404, headers: {} } }, body: call, message: 'request completed' };
    expect(detectJsonFormat(ecsPino)?.name).toBe('http-line');
    expect(toRecords(ecsPino)[0]).toMatchObject({ status: 404, ts: '2026-12-07T00:45:47.486Z', send: call });
  });

  it('"request aborted" (the connection closed first) is a response cut short; "request errored" of a 5xx is not', () => {
    expect(toRecords(pinoLine({ msg: 'request aborted' }))[0]).toMatchObject({ status: 200, end: 'aborted', error: expect.stringMatching(/^request aborted/) });
    const errored = toRecords(pinoLine({ res: { statusCode: 500 }, err: { type: 'Error', message: 'failed with status code 500' }, msg: 'request errored' }))[0]!;
    expect(errored).toMatchObject({ status: 500 });
    expect(errored).not.toHaveProperty('end');
  });

  it('near miss: a fetch wrapper\'s durationMs beside the time it started keeps that time', () => {
    const [r] = toRecords({ time: '2026-12-06T22:06:29.828Z', method: 'POST', url: '/mcp', requestBody: JSON.stringify(call), status: 200, durationMs: 13 });
    expect(r!.ts).toBe('2026-12-06T22:06:29.828Z');
  });
});

describe('what the analysis makes of it', () => {
  it('lines logged at the end keep the order the calls started in: a slow call before a fast one sent during it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'http-line-loggers-'));
    const path = join(dir, 'server.ndjson');
    const slow = { ...call, id: 1, params: { name: 'slow_report', arguments: { month: '2026-11' } } };
    const lines = [
      { level: 30, time: 1796604350000, req: { method: 'POST', url: '/mcp', headers: { 'mcp-session-id': SID } }, res: { statusCode: 200 }, responseTime: 12, body: call, msg: 'request completed' },
      { level: 30, time: 1796604352500, req: { method: 'POST', url: '/mcp', headers: { 'mcp-session-id': SID } }, res: { statusCode: 200 }, responseTime: 3010, body: slow, msg: 'request completed' },
    ];
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await analyze({ inputs: [{ path, side: 'server' }] });
    const rows = r.attempts as unknown as { tool: string; ts: string }[];
    expect(rows.map((a) => [a.tool, a.ts])).toEqual([['slow_report', '2026-12-07T00:45:49.490Z'], ['lookup_order', '2026-12-07T00:45:49.988Z']]);
    expect(JSON.stringify(r.summary)).not.toMatch(/not-time-ordered/);
  });

  it('the Authorization header a logger wrote is redacted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'http-line-loggers-'));
    const path = join(dir, 'server.ndjson');
    writeFileSync(path, JSON.stringify(expressWinston()) + '\n');
    const r = await analyze({ inputs: [{ path, side: 'server' }] });
    expect(r.attempts).toHaveLength(1);
    expect(JSON.stringify(r)).not.toContain('sk-audit70-secret');
  });

  it('a log of body-less HTTP logger lines says how to log the body; a log of health checks does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'http-line-loggers-'));
    const bodiless = join(dir, 'pino.ndjson');
    writeFileSync(bodiless, [
      { level: 30, time: 1796604347445, req: { id: 1, method: 'POST', url: '/mcp', headers: {} }, res: { statusCode: 200 }, responseTime: 44, msg: 'request completed' },
      { level: 30, time: 1796604369877, reqId: 'req-1', req: { method: 'POST', url: '/mcp', host: '127.0.0.1:9508' }, msg: 'incoming request' },
    ].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const health = join(dir, 'health.ndjson');
    writeFileSync(health, JSON.stringify({ level: 30, time: 1796604347445, req: { id: 1, method: 'GET', url: '/health', headers: {} }, res: { statusCode: 200 }, responseTime: 1, msg: 'request completed' }) + '\n');
    const notes = async (path: string) => ((await analyze({ inputs: [{ path, side: 'server' }] })).summary as unknown as { notes: string[] }).notes.join('\n');
    expect(await notes(bodiless)).toMatch(/2 of its lines are an HTTP logger's line of a POST without the request body .*customProps/);
    expect(await notes(health)).not.toMatch(/without the request body/);
  });
});

describe('Fastify\'s own logger: the lines of one request tied by reqId', () => {
  const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'audit70-app', version: '1.0.0' } } };
  const incoming = (id: string, time: number, headers?: object) => ({ level: 30, time, pid: 1, hostname: 'vm', reqId: id, req: { method: 'POST', url: '/mcp', host: '127.0.0.1:9502', remoteAddress: '127.0.0.1', remotePort: 60820, ...(headers ? { headers } : {}) }, msg: 'incoming request' });
  const body = (id: string, time: number, b: object) => ({ level: 30, time, pid: 1, hostname: 'vm', reqId: id, body: b, msg: 'parsed body' });
  const done = (id: string, time: number, status: number, took: number, msg = 'request completed') => ({ level: 30, time, pid: 1, hostname: 'vm', reqId: id, res: { statusCode: status }, responseTime: took, msg });
  async function rowsOf(lines: object[]) {
    const dir = mkdtempSync(join(tmpdir(), 'http-line-fastify-'));
    const path = join(dir, 'fastify.ndjson');
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await analyze({ inputs: [{ path, side: 'server' }] });
    return { rows: r.attempts as unknown as { method: string; status: number | null; outcome: string; ts: string; durationMs?: number; session: string | null }[], summary: r.summary as unknown as { inputs: { formats: Record<string, number>; skipped: number }[] } };
  }

  it('reads one exchange at the last line: the start is the incoming line\'s time, the status and responseTime the last line\'s, the session from headers a req serializer logged', async () => {
    const { rows, summary } = await rowsOf([
      incoming('req-1', 1796604847722), body('req-1', 1796604847727, init), done('req-1', 1796604847736, 200, 13.9),
      incoming('req-2', 1796604847800, { 'mcp-session-id': SID }), body('req-2', 1796604847801, call), done('req-2', 1796604847812, 404, 11.2),
    ]);
    expect(rows.map((r) => [r.method, r.status, r.outcome, r.ts, r.durationMs, r.session])).toEqual([
      ['initialize', 200, 'UNANSWERED', '2026-12-07T00:54:07.722Z', 13.9, null],
      ['tools/call', 404, 'HTTP_ERROR', '2026-12-07T00:54:07.800Z', 11.2, SID],
    ]);
    expect(summary.inputs[0]!.formats).toEqual({ 'http-line': 2 });
  });

  it('"stream closed prematurely" is a response cut short', async () => {
    const { rows } = await rowsOf([incoming('req-3', 1796604847722), body('req-3', 1796604847727, call), done('req-3', 1796604847936, 200, 210, 'stream closed prematurely')]);
    expect(rows.map((r) => r.outcome)).toEqual(['STREAM_INCOMPLETE']);
  });

  it('near misses: a body line with no incoming line is the app-log line it was; lines without a body make no call; a log cut before the last line keeps the request', async () => {
    expect((await rowsOf([body('req-9', 1796604847727, call)])).rows.map((r) => [r.method, r.status])).toEqual([['tools/call', null]]);
    expect((await rowsOf([incoming('req-1', 1796604847722), done('req-1', 1796604847736, 200, 13.9)])).rows).toEqual([]);
    expect((await rowsOf([incoming('req-1', 1796604847722), body('req-1', 1796604847727, call)])).rows.map((r) => [r.method, r.status])).toEqual([['tools/call', null]]);
  });
});

