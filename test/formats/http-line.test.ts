// Unit tests for src/formats/http-line.ts: a developer's own log line of each HTTP exchange read as the canonical exchange, and the lines it must leave to other readers.
import { beforeAll, describe, expect, it } from 'vitest';
import { detectJsonFormat } from '../../src/formats/index.js';
import { httpLineFormat } from '../../src/formats/http-line.js';
import { loadSchemas } from '../../src/schema/lazy.js';
import { analyze } from '../../src/index.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SID = '87c74a2e-c4ef-495f-bd3e-82849ee6c6ce';
const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: 'A-4' } } };
/** A fetch wrapper's line as test/real-audit68/naive-loggers.mjs writes it, with the fields a test changes. */
const fetchLine = (over: Record<string, unknown> = {}) => ({
  time: '2026-12-06T22:06:29.828Z', method: 'POST', url: 'http://127.0.0.1:33249/mcp',
  requestHeaders: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-session-id': SID },
  requestBody: JSON.stringify(call), status: 200, responseHeaders: { 'content-type': 'text/event-stream' },
  responseBody: `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'order A-4: shipped' }] } })}\n\n`,
  durationMs: 13, ...over,
});
const ctx = { file: 'fetch.ndjson', line: 1 };
const toRecords = (v: Record<string, unknown>) => httpLineFormat.toRecords(v, ctx);

async function analyzeLines(lines: object[]) {
  const dir = mkdtempSync(join(tmpdir(), 'http-line-'));
  const path = join(dir, 'log.ndjson');
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const r = await analyze({ inputs: [{ path }] });
  return { rows: r.attempts as unknown as { outcome: string; status: number | null; session: string | null; durationMs?: number; detail?: { why?: string } }[], summary: r.summary as unknown as { inputs: { formats: Record<string, number>; unusable: number; skipped: number; reasons: Record<string, number> }[] } };
}

beforeAll(async () => {
  await loadSchemas();
});

describe('http-line: detection', () => {
  it('takes a fetch wrapper\'s line, a middleware\'s flat line with its body, and pino-http\'s req/res with the body beside them', () => {
    expect(detectJsonFormat(fetchLine())?.name).toBe('http-line');
    expect(detectJsonFormat({ ts: '2026-12-06T22:06:29.838Z', method: 'POST', path: '/mcp', sessionId: SID, status: 404, ms: 1, body: call })?.name).toBe('http-line');
    expect(detectJsonFormat({ level: 30, time: 1, req: { method: 'POST', url: '/mcp', headers: {} }, res: { statusCode: 200 }, responseTime: 3, body: call, msg: 'request completed' })?.name).toBe('http-line');
    expect(detectJsonFormat(fetchLine({ status: undefined, error: 'fetch failed: other side closed' }))?.name).toBe('http-line');
  });

  it('near misses: a POST line without a body, a health check, pino-http without a body, a request line without a status, and other formats\' lines stay theirs', () => {
    expect(detectJsonFormat({ ts: 1, method: 'POST', path: '/mcp', status: 200, ms: 3 })?.name).not.toBe('http-line');
    expect(detectJsonFormat({ ts: 1, method: 'GET', path: '/health', status: 200, ms: 1 })?.name).not.toBe('http-line');
    expect(detectJsonFormat({ level: 30, time: 1, req: { method: 'POST', url: '/mcp' }, res: { statusCode: 200 }, responseTime: 3, msg: 'request completed' })?.name).not.toBe('http-line');
    expect(detectJsonFormat({ ts: 1, dir: 'request', method: 'POST', url: '/mcp', headers: {}, body: call })?.name).not.toBe('http-line');
    // the MCP Inspector's network entry (its timestamp and responseStatus), nginx's JSON line, a bare message
    expect(detectJsonFormat({ id: 'e1', timestamp: '2026-12-06T22:06:29.828Z', method: 'POST', url: '/mcp', requestHeaders: {}, requestBody: JSON.stringify(call), responseStatus: 200 })?.name).toBe('inspector-network');
    expect(detectJsonFormat({ request_method: 'POST', status: '200', request_time: '0.003', request_body: JSON.stringify(call) })?.name).toBe('nginx-json');
    expect(detectJsonFormat({ ...call, direction: 'c2s' })?.name).toBe('jsonrpc');
  });

  it('a GET or DELETE is taken when it names a session or an event stream', () => {
    expect(detectJsonFormat({ time: 1, method: 'GET', url: '/mcp', requestHeaders: { accept: 'text/event-stream' }, status: 405 })?.name).toBe('http-line');
    expect(detectJsonFormat({ time: 1, method: 'DELETE', url: '/mcp', requestHeaders: { 'mcp-session-id': SID }, status: 200 })?.name).toBe('http-line');
    expect(detectJsonFormat({ time: 1, method: 'DELETE', path: '/mcp', sessionId: SID, status: 200 })?.name).toBe('http-line');
  });
});

describe('http-line: the exchange it reads', () => {
  it('maps the fields a fetch wrapper names to the canonical exchange', () => {
    expect(toRecords(fetchLine())).toEqual([{
      v: 1, kind: 'exchange', method: 'POST', url: 'http://127.0.0.1:33249/mcp', status: 200, ts: '2026-12-06T22:06:29.828Z',
      requestHeaders: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-session-id': SID },
      responseHeaders: { 'content-type': 'text/event-stream' }, sendText: JSON.stringify(call), recvText: fetchLine().responseBody, durationMs: 13,
    }]);
  });

  it('reads a middleware\'s flat line: the session field, a parsed body, ms, no response body kept; text statuses and durations (morgan\'s tokens)', () => {
    const [r] = toRecords({ ts: '2026-12-06T22:06:29.838Z', method: 'post', path: '/mcp', sessionId: SID, status: '404', ms: '1.5', body: call }) as Record<string, unknown>[];
    expect(r).toMatchObject({ method: 'POST', url: '/mcp', session: SID, status: 404, send: call, durationMs: 1.5 });
    expect(r).not.toHaveProperty('recvText');
  });

  it('reads pino-http\'s req and res, header values as arrays, and a failed request\'s error', () => {
    const [p] = toRecords({ level: 30, time: 1796551200000, req: { method: 'POST', url: '/mcp', headers: { 'Mcp-Session-Id': [SID] } }, res: { statusCode: 200, headers: { 'content-type': 'text/event-stream' } }, responseTime: 4, body: call, msg: 'request completed' }) as Record<string, unknown>[];
    // pino-http logs once the response finished: the start is its time less responseTime (the seventieth audit).
    expect(p).toMatchObject({ ts: 1796551199996, status: 200, requestHeaders: { 'mcp-session-id': SID }, send: call, durationMs: 4 });
    const [f] = toRecords(fetchLine({ status: undefined, responseHeaders: undefined, responseBody: undefined, error: 'other side closed' })) as Record<string, unknown>[];
    expect(f).toMatchObject({ status: null, error: 'other side closed', end: 'error' });
  });

  it('says what is wrong with a line of the wrong types or without a time', () => {
    expect(toRecords(fetchLine({ status: 700 }))).toEqual({ error: expect.stringMatching(/^HTTP log line: status/) });
    expect(toRecords(fetchLine({ durationMs: -3 }))).toEqual({ error: expect.stringMatching(/^HTTP log line: durationMs/) });
    expect(toRecords(fetchLine({ time: undefined }))).toEqual({ error: expect.stringMatching(/without a time/) });
  });
});

describe('http-line: what the analysis makes of it', () => {
  it('a 2xx line without the response body is UNANSWERED, its answer not observable: never a 200 whose stream ended empty', async () => {
    const { rows } = await analyzeLines([{ ts: '2026-12-06T22:06:29.838Z', method: 'POST', path: '/mcp', sessionId: SID, status: 200, ms: 3, body: call }]);
    expect(rows.map((r) => [r.outcome, r.status, r.session])).toEqual([['UNANSWERED', 200, SID]]);
    expect(rows[0]!.detail?.why).toMatch(/not observable/);
  });

  it('a line with both bodies reads as a capture: the outcome, the session from requestHeaders, the duration', async () => {
    const { rows, summary } = await analyzeLines([fetchLine()]);
    expect(rows.map((r) => [r.outcome, r.status, r.session, r.durationMs])).toEqual([['TOOL_SUCCESS', 200, SID, 13]]);
    expect(summary.inputs[0]!.formats).toEqual({ 'http-line': 1 });
  });

  it('a line of the wrong types is unusable, counted, with its reason; a health check beside it is skipped', async () => {
    const { summary } = await analyzeLines([fetchLine({ status: 700 }), { ts: 1, method: 'GET', path: '/health', status: 200 }]);
    expect([summary.inputs[0]!.unusable, summary.inputs[0]!.skipped]).toEqual([1, 1]);
  });
});
