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

  it('keeps a JSON-RPC error and the HTTP status recorded on an HTTP response frame', () => {
    const r = messages(mcpsnoopFormat.toRecords(frame({ transport: 'http', status: 200, conn_id: '127.0.0.1:5514', raw: { jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'Method not found' } } }), ctx));
    expect(r[0]).toMatchObject({ direction: 's2c', status: 200, conn: 'notes-31337/127.0.0.1:5514', message: { error: { code: -32601 } } });
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

  it('maps the HTTP sample, including the bodiless 202 to notifications/initialized', () => {
    const out = sampleJson('mcpsnoop.jsonl').flatMap((v) => messages(mcpsnoopFormat.toRecords(v, ctx)));
    expect(out).toHaveLength(10);
    expect(out.filter((m) => m.message === null).map((m) => m.status)).toEqual([202]);
    expect(out.filter((m) => m.direction === 's2c').every((m) => m.status !== undefined)).toBe(true);
  });
});
