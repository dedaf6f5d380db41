// Unit tests for src/formats/mcpsnoop.ts: mcpsnoop session frames (stdio and HTTP) mapped to message records.
import { describe, expect, it } from 'vitest';
import { detectJsonFormat } from '../../src/formats/index.js';
import { mcpsnoopFormat } from '../../src/formats/mcpsnoop.js';
import { errorOf, messages, records, sampleJson } from './helpers.js';

const ctx = { file: 'notes-31337.jsonl', line: 4 };
const frame = (over: Record<string, unknown>) => ({ session_id: 'notes-31337', server_label: 'notes', seq: 4, ts: '2026-07-06T15:04:06.2Z', direction: 's2c', transport: 'stdio', ...over });

describe('mcpsnoop adapter', () => {
  it('is detected by session_id + seq + direction, before the plain JSON-RPC format', () => {
    expect(detectJsonFormat(frame({ raw: { jsonrpc: '2.0', id: 3, result: {} } }))?.name).toBe('mcpsnoop');
  });

  it('maps a request and a successful response, keeping the id type and the capture session as the connection', () => {
    const rq = messages(mcpsnoopFormat.toRecords(frame({ direction: 'c2s', seq: 3, raw: { jsonrpc: '2.0', id: '3', method: 'tools/call', params: { name: 'find' } } }), ctx));
    expect(rq[0]).toMatchObject({ direction: 'c2s', conn: 'notes-31337', ts: '2026-07-06T15:04:06.2Z', message: { id: '3' } });
    expect(rq[0]!.session).toBeUndefined();
  });

  it('keeps a JSON-RPC error and the HTTP status recorded on an HTTP response frame; on HTTP the capture is the caller, not the TCP connection', () => {
    const r = messages(mcpsnoopFormat.toRecords(frame({ transport: 'http', status: 200, conn_id: '127.0.0.1:5514', raw: { jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'Method not found' } } }), ctx));
    expect(r[0]).toMatchObject({ direction: 's2c', status: 200, client: 'notes-31337', message: { error: { code: -32601 } } });
    expect(r[0]!.conn).toBeUndefined();
  });

  it('keeps a tool error result as sent', () => {
    const r = messages(mcpsnoopFormat.toRecords(frame({ raw: { jsonrpc: '2.0', id: 3, result: { content: [], isError: true } } }), ctx));
    expect(r[0]!.message).toEqual({ jsonrpc: '2.0', id: 3, result: { content: [], isError: true } });
    expect(r[0]!.status).toBeUndefined();
  });

  it('keeps a bodiless response (a 401 challenge, a 502 made up by the proxy) as a null message with its status', () => {
    const r = messages(mcpsnoopFormat.toRecords(frame({ transport: 'http', status: 401, auth_challenge: 'Bearer resource_metadata="https://x/.well-known/oauth-protected-resource"' }), ctx));
    expect(r[0]).toMatchObject({ direction: 's2c', status: 401, message: null });
  });

  it('skips stderr and meta frames', () => {
    expect(records(mcpsnoopFormat.toRecords(frame({ direction: 'stderr', text: 'Traceback (most recent call last):' }), ctx))).toEqual([]);
    expect(records(mcpsnoopFormat.toRecords(frame({ direction: 'meta', raw: { command: ['python', 'server.py'] } }), ctx))).toEqual([]);
  });

  it('reports broken frames: not JSON (text), cut at the cap, unknown direction, empty', () => {
    expect(errorOf(mcpsnoopFormat.toRecords(frame({ text: 'Loading model weights...' }), ctx))).toMatch(/not JSON/);
    expect(errorOf(mcpsnoopFormat.toRecords(frame({ text: '{"jsonrpc":"2.0","id":3,"res', truncated: true }), ctx))).toMatch(/frame-size cap/);
    expect(errorOf(mcpsnoopFormat.toRecords(frame({ direction: 'sideways', raw: {} }), ctx))).toMatch(/unknown direction/);
    expect(errorOf(mcpsnoopFormat.toRecords(frame({}), ctx))).toMatch(/without raw/);
  });

  it('maps the HTTP sample, including the bodiless 202 to notifications/initialized (its meta frame skipped)', () => {
    const state = new Map<string, unknown>();
    const out = sampleJson('mcpsnoop.jsonl').flatMap((v) => messages(mcpsnoopFormat.toRecords(v, { ...ctx, state })));
    expect(out).toHaveLength(10);
    expect(out.filter((m) => m.message === null).map((m) => m.status)).toEqual([202]);
    expect(out.filter((m) => m.direction === 's2c').every((m) => m.status !== undefined)).toBe(true);
  });

  describe('an answer without a JSON-RPC id on an HTTP connection (mcpsnoop 0.22.0, test/fixtures/real-audit72)', () => {
    const http = (over: Record<string, unknown>) => frame({ transport: 'http', conn_id: '127.0.0.1:60786', ...over });
    const post = (id: number | string, conn = '127.0.0.1:60786') => http({ direction: 'c2s', conn_id: conn, raw: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'lookup_order' } } });
    const run = (frames: Record<string, unknown>[]) => {
      const state = new Map<string, unknown>();
      return frames.map((f) => mcpsnoopFormat.toRecords(f, { ...ctx, state }));
    };

    it('a 404 whose body is a JSON-RPC error for id null answers the POST in flight on that connection', () => {
      const [, r] = run([post(2), http({ status: 404, raw: { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, transport_headers: { content_type: 'application/json' } })]);
      expect(messages(r!)[0]).toMatchObject({ direction: 's2c', status: 404, message: { jsonrpc: '2.0', id: 2 }, error: expect.stringMatching(/id null.*-32001: Session not found/) });
    });

    it('a 401 with an OAuth error body, and a bare 502 the proxy made up, answer the POST in flight too', () => {
      const [, a] = run([post('a'), http({ status: 401, raw: { error: 'invalid_token', error_description: 'missing or bad bearer token' }, auth_challenge: 'Bearer realm="x"', transport_headers: { content_type: 'application/json' } })]);
      expect(messages(a!)[0]).toMatchObject({ status: 401, message: { id: 'a' }, error: 'the body says: invalid_token (missing or bad bearer token)' });
      const [, b] = run([post(7), http({ status: 502 })]);
      expect(messages(b!)[0]).toMatchObject({ status: 502, message: { id: 7 }, bareStatus: true, error: expect.stringMatching(/mcpsnoop answered 502 itself/) });
    });

    it('near misses: another connection\'s POST, a 202 to a notification, a bodiless status with nothing in flight, a 2xx', () => {
      const [, other] = run([post(2, '127.0.0.1:1111'), http({ status: 404, raw: { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null } })]);
      expect(messages(other!)[0]).toMatchObject({ status: 404, message: { id: null } });
      const [, accepted] = run([http({ direction: 'c2s', raw: { jsonrpc: '2.0', method: 'notifications/initialized' } }), http({ status: 202, transport_headers: {} })]);
      expect(messages(accepted!)[0]).toMatchObject({ status: 202, message: null });
      const [deleted] = run([http({ status: 200, transport_headers: {} })]);
      expect(messages(deleted!)[0]).toMatchObject({ status: 200, message: null });
      const [, answered, late] = run([post(3), http({ status: 200, raw: { jsonrpc: '2.0', id: 3, result: {} } }), http({ status: 404, transport_headers: { content_type: 'application/json' }, raw: { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null } })]);
      expect(messages(answered!)[0]).toMatchObject({ message: { id: 3 } });
      expect(messages(late!)[0]).toMatchObject({ message: { id: null } });
    });

    it('an error page\'s text (an escape sequence, line breaks) becomes one clean line of the why', () => {
      const [, r] = run([post(4), http({ status: 500, text: '<h1>\u001b[31mInternal\u001b[0m</h1>\nTraceback', transport_headers: { content_type: 'text/html' } })]);
      expect(messages(r!)[0]).toMatchObject({ status: 500, message: { id: 4 }, error: 'the body says: <h1>Internal</h1>⏎Traceback' });
    });

    it('a 502 the proxy made up with no request frame before it (it never read the body) is reported, not dropped silently', () => {
      expect(errorOf(mcpsnoopFormat.toRecords(http({ status: 502 }), { ...ctx, state: new Map() }))).toMatch(/answered 502 itself.*never read/);
    });
  });

  it('a non-JSON line a stdio server printed on stdout is reported as such', () => {
    expect(errorOf(mcpsnoopFormat.toRecords(frame({ text: 'debug: looking up A-1' }), ctx))).toMatch(/stray print on stdout/);
  });
});
