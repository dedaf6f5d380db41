// Unit tests for src/formats/caddy.ts: Caddy 2.6's access and error log lines (JSON and console) read as a gateway's account, and the lines that must not be.
import { beforeAll, describe, expect, it } from 'vitest';
import { detectJsonFormat, detectTextFormat } from '../../src/formats/index.js';
import { caddyConsoleFormat, caddyFormat } from '../../src/formats/caddy.js';
import { loadSchemas } from '../../src/schema/lazy.js';
import { exchange, records } from './helpers.js';

const ctx = { file: 'access.json', line: 1 };
const SID = '462f98b7-2c54-454b-8e7b-d1cf73b73db5';
/** An access log line as Caddy 2.6.2 wrote it (test/fixtures/real-audit65), with the fields a test changes. */
function access(over: Record<string, unknown> = {}, request: Record<string, unknown> = {}) {
  return {
    level: 'error', ts: 1796586072.7852485, logger: 'http.log.access.log0', msg: 'handled request',
    request: { remote_ip: '127.0.0.1', remote_port: '59122', proto: 'HTTP/1.1', method: 'POST', host: '127.0.0.1:9116', uri: '/mcp', headers: { 'Content-Type': ['application/json'], 'Mcp-Session-Id': [SID], Authorization: [] }, ...request },
    user_id: '', duration: 0.001355434, size: 0, status: 502, resp_headers: { Server: ['Caddy'] },
    ...over,
  };
}
const errorLine = (over: Record<string, unknown> = {}) => ({
  level: 'error', ts: 1796586072.7852485, logger: 'http.log.error.log0', msg: 'dial tcp 127.0.0.1:9115: connect: connection refused',
  request: { method: 'POST', uri: '/mcp', headers: { 'Mcp-Session-Id': [SID] } }, duration: 0.001355434, status: 502, err_id: 'redzmmdrw', err_trace: 'reverseproxy.statusError (reverseproxy.go:1272)',
  ...over,
});
const said = (r: unknown) => (r as { error?: string }).error ?? '';

beforeAll(async () => {
  await loadSchemas();
});

describe('Caddy adapter', () => {
  it('is detected by its logger beside level, ts and msg: the access log, the error log, reverse_proxy\'s lines', () => {
    expect(detectJsonFormat(access())?.name).toBe('caddy');
    expect(detectJsonFormat(errorLine())?.name).toBe('caddy');
    expect(detectJsonFormat({ level: 'error', ts: 1796585961.72, logger: 'http.handlers.reverse_proxy', msg: 'aborting with incomplete response', error: 'unexpected EOF' })?.name).toBe('caddy');
  });

  it('must not take: Caddy\'s start-up lines, a pino line, a Kong log, an app line whose logger merely starts with http', () => {
    expect(detectJsonFormat({ level: 'info', ts: 1796585813.9, logger: 'http.log', msg: 'server running', name: 'srv0' })?.name).not.toBe('caddy');
    expect(detectJsonFormat({ level: 'info', ts: 1796585813.9, msg: 'serving initial configuration' })?.name).not.toBe('caddy');
    expect(detectJsonFormat({ level: 30, time: 1796585813900, msg: 'handled request', req: { method: 'POST' } })?.name).not.toBe('caddy');
    expect(detectJsonFormat({ request: { method: 'POST', uri: '/mcp', headers: {} }, response: { status: 200, headers: {} }, ai: { mcp: { rpc: [] } } })?.name).toBe('kong');
    // an access logger's line with no request object is no request
    expect(detectJsonFormat({ level: 'info', ts: 1, logger: 'http.log.access.log0', msg: 'handled request' })?.name).not.toBe('caddy');
  });

  it("a POST Caddy answered 502 itself: the gateway's exchange of it, its start (ts less duration), the session it carried", () => {
    const ex = exchange(caddyFormat.toRecords(access(), ctx));
    expect(ex).toMatchObject({ side: 'gateway', method: 'POST', url: '/mcp', status: 502, durationMs: 1, requestHeaders: { 'mcp-session-id': SID } });
    expect(ex.ts).toBeCloseTo(1796586072785.2485 - 1.355434, 0);
    expect(said(ex)).toMatch(/Caddy answered it itself/);
  });

  it("an upstream's own error is named as such (its headers passed on), status 0 as a client that left", () => {
    expect(said(exchange(caddyFormat.toRecords(access({ status: 404, size: 81, resp_headers: { Server: ['Caddy'], 'Content-Type': ['application/json'] } }), ctx)))).toMatch(/the upstream's own answer/);
    const left = exchange(caddyFormat.toRecords(access({ status: 0, duration: 1.514 }), ctx));
    expect(left).toMatchObject({ status: null, end: 'error', durationMs: 1514 });
    expect(said(left)).toMatch(/status 0 .*the client closed its connection before any response head/);
  });

  it('an SSE stream of no byte is kept; near miss: a 2xx with a body, a GET stream, a DELETE are skipped', () => {
    const sse = { status: 200, size: 0, duration: 3.013, resp_headers: { Server: ['Caddy'], 'Content-Type': ['text/event-stream'], 'Mcp-Session-Id': [SID] } };
    expect(said(exchange(caddyFormat.toRecords(access(sse), ctx)))).toMatch(/no body byte sent \(size 0\)/);
    expect(caddyFormat.toRecords(access({ ...sse, size: 485 }), ctx)).toEqual([]);
    // a 202 to a notification (no body, not SSE)
    expect(caddyFormat.toRecords(access({ status: 202, size: 0, resp_headers: { Server: ['Caddy'], Date: ['x'] } }), ctx)).toEqual([]);
    expect(caddyFormat.toRecords(access({}, { method: 'GET' }), ctx)).toEqual([]);
    expect(caddyFormat.toRecords(access({ status: 404 }, { method: 'DELETE' }), ctx)).toEqual([]);
  });

  it("the error log's reason says what it means: a refused dial, response_header_timeout, request_body's 502, a retry with no body", () => {
    expect(said(exchange(caddyFormat.toRecords(errorLine(), ctx)))).toMatch(/dial tcp .*connection refused \(HTTP 502\); the request never reached that upstream/);
    expect(said(exchange(caddyFormat.toRecords(errorLine({ msg: 'net/http: timeout awaiting response headers', status: 504 }), ctx)))).toMatch(/response_header_timeout.*the tool may have run/);
    expect(said(exchange(caddyFormat.toRecords(errorLine({ msg: 'readfrom tcp 127.0.0.1:41622->127.0.0.1:9135: {id=hbywu67me} requestbody.errorWrapper.Read (requestbody.go:63): HTTP 413: http: request body too large' }), ctx)))).toMatch(/502 itself \(not 413\)/);
    expect(said(exchange(caddyFormat.toRecords(errorLine({ msg: 'readfrom tcp 127.0.0.1:48144->127.0.0.1:9170: http: invalid Read on closed Body' }), ctx)))).toMatch(/Caddy 2.6 keeps none for a retry/);
    // a GET stream's error explains no call
    expect(caddyFormat.toRecords(errorLine({ request: { method: 'GET', uri: '/mcp' } }), ctx)).toEqual([]);
  });

  it("reverse_proxy's cut of a stream is a reason that names no request; its \"reading from backend\" twin and a client's context canceled are skipped", () => {
    const cut = { level: 'error', ts: 1796585961.72, logger: 'http.handlers.reverse_proxy', msg: 'aborting with incomplete response', error: 'read tcp 127.0.0.1:56516->127.0.0.1:9125: i/o timeout' };
    const [rec] = records(caddyFormat.toRecords(cut, ctx));
    expect(said(rec)).toMatch(/silent for read_timeout: Caddy cut the stream/);
    expect((rec as { gatewayAccount?: { unnamed?: boolean } }).gatewayAccount?.unnamed).toBe(true);
    expect(caddyFormat.toRecords({ ...cut, msg: 'reading from backend' }, ctx)).toEqual([]);
    expect(caddyFormat.toRecords({ ...cut, error: 'context canceled' }, ctx)).toEqual([]);
  });

  it('keeps no Authorization or Cookie, even where Caddy was told to log credentials', () => {
    const ex = exchange(caddyFormat.toRecords(access({}, { headers: { Authorization: ['Bearer sk-live-65'], Cookie: ['sid=cookie-65'], 'Mcp-Session-Id': [SID] } }), ctx));
    expect(JSON.stringify(ex)).not.toMatch(/sk-live-65|cookie-65/);
  });

  it('reads other time and duration formats: a text ts, a Go duration', () => {
    const ex = exchange(caddyFormat.toRecords(access({ ts: '2026-12-06T19:41:20.002Z', duration: '3.015s' }), ctx));
    expect(ex.ts).toBe(Date.parse('2026-12-06T19:41:20.002Z') - 3015);
    expect(caddyFormat.toRecords(access({ ts: 'yesterday' }), ctx)).toMatchObject({ error: expect.stringMatching(/ts is no time/) });
  });

  it('the console format (format console: local time, the level in ANSI colours) is read the same; near miss: nginx\'s error log line', () => {
    const text = `2026/12/06 19:51:31.078\t\u001b[31mERROR\u001b[0m\thttp.log.access.log0\thandled request\t${JSON.stringify({ request: access().request, duration: 0.002, size: 0, status: 502, resp_headers: { Server: ['Caddy'] } })}`;
    expect(detectTextFormat(text)?.name).toBe('caddy-console');
    const ex = exchange(caddyConsoleFormat.textToRecords(text, ctx));
    expect(ex).toMatchObject({ status: 502, requestHeaders: { 'mcp-session-id': SID } });
    expect(ex.ts).toBe(Date.parse('2026-12-06T19:51:31.078Z') - 2);
    expect(detectTextFormat('2026/12/06 04:32:04 [error] 4213#4213: *1 connect() failed (111: Connection refused) while connecting to upstream, client: 127.0.0.1, server: , request: "POST /mcp HTTP/1.1", upstream: "http://127.0.0.1:7610/mcp", host: "127.0.0.1:7611"')?.name).toBe('nginx-error');
  });
});
