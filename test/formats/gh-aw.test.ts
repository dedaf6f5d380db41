// Unit tests for src/formats/gh-aw.ts: the gh-aw MCP gateway's rpc-messages.jsonl, requests logged without ids paired in order.
import { describe, expect, it } from 'vitest';
import type { AdapterContext } from '../../src/formats/adapter.js';
import { detectJsonFormat } from '../../src/formats/index.js';
import { ghAwFormat } from '../../src/formats/gh-aw.js';
import { errorOf, messages, records, sampleJson } from './helpers.js';

const input = (): AdapterContext => ({ file: 'rpc-messages.jsonl', line: 1, state: new Map() });
const out = (server: string, payload: unknown, extra: Record<string, unknown> = {}) => ({ timestamp: '2026-03-04T09:12:01.104233511Z', direction: 'OUT', type: 'REQUEST', server_id: server, payload, ...extra });
const back = (server: string, payload: unknown) => ({ timestamp: '2026-03-04T09:12:01.204233511Z', direction: 'IN', type: 'RESPONSE', server_id: server, payload });
const call = (name: string) => ({ jsonrpc: '2.0', method: 'tools/call', params: { name, arguments: {} } });
const ok = (id: number) => ({ jsonrpc: '2.0', id, result: { content: [] } });
const ids = (ctx: AdapterContext, lines: Record<string, unknown>[]) => lines.map((l) => (messages(ghAwFormat.toRecords(l, ctx))[0]!.message as { id?: unknown }).id);

describe('gh-aw adapter', () => {
  it('is detected by server_id + payload + direction, before the plain JSON-RPC format', () => {
    expect(detectJsonFormat(out('github', call('get_me')))?.name).toBe('gh-aw');
    expect(detectJsonFormat({ event: 'rpc_response', server_id: 'notes', payload: ok(1) })?.name).toBe('gh-aw');
    expect(detectJsonFormat({ direction: 'OUT', jsonrpc: '2.0', id: 1, method: 'tools/list' })?.name).toBe('jsonrpc');
  });

  it('maps OUT to client-to-server and IN to server-to-client, the server as the connection, the time kept', () => {
    const ctx = input();
    const [rq] = messages(ghAwFormat.toRecords(out('github', call('get_me')), ctx));
    const [rs] = messages(ghAwFormat.toRecords(back('github', ok(1)), ctx));
    expect(rq).toMatchObject({ direction: 'c2s', conn: 'github', ts: '2026-03-04T09:12:01.104233511Z' });
    expect(rs).toMatchObject({ direction: 's2c', conn: 'github' });
  });

  it('gives a request logged without an id a stand-in id, and the next unmatched response of its server the same id', () => {
    const ctx = input();
    // Two servers interleaved: each response goes to the oldest waiting request of its own server.
    expect(ids(ctx, [out('github', call('a')), out('notes', call('b')), back('notes', ok(1)), back('github', ok(1))])).toEqual(['no-id-1', 'no-id-2', 'no-id-2', 'no-id-1']);
    // First in, first out on one server.
    expect(ids(ctx, [out('github', call('c')), out('github', call('d')), back('github', ok(5)), back('github', ok(6))])).toEqual(['no-id-3', 'no-id-4', 'no-id-3', 'no-id-4']);
  });

  it('keeps ids that were logged, and a response to a logged id does not take a waiting request', () => {
    const ctx = input();
    expect(ids(ctx, [out('notes', call('a')), out('notes', { ...call('b'), id: 7 }), back('notes', { ...ok(7) }), back('notes', ok(1))])).toEqual(['no-id-1', 7, 7, 'no-id-1']);
  });

  it('leaves a response with nothing waiting as logged (an orphan for the join), and notifications without ids', () => {
    const ctx = input();
    expect(ids(ctx, [back('github', ok(9))])).toEqual([9]);
    expect(ids(ctx, [out('github', { jsonrpc: '2.0', method: 'notifications/initialized' })])).toEqual([undefined]);
    expect(ids(ctx, [back('github', ok(10))])).toEqual([10]);
  });

  it('pairs within one input only: a fresh input starts with nothing waiting', () => {
    const a = input();
    ids(a, [out('github', call('a'))]);
    expect(ids(input(), [back('github', ok(1))])).toEqual([1]);
  });

  it('reads the rpc-message/v2 schema (event instead of type) and a payload written as a JSON string', () => {
    const ctx = input();
    const [m] = messages(ghAwFormat.toRecords({ event: 'rpc_request', _schema: 'rpc-message/v2', direction: 'OUT', server_id: 'notes', payload: JSON.stringify(call('find')) }, ctx));
    expect(m!.message).toMatchObject({ method: 'tools/call', id: 'no-id-1' });
  });

  it('skips a DIFC_FILTERED entry (no message was passed on) and reports broken lines', () => {
    const ctx = input();
    expect(records(ghAwFormat.toRecords({ type: 'DIFC_FILTERED', server_id: 'github', tool_name: 'get_issue', payload: null }, ctx))).toEqual([]);
    expect(records(ghAwFormat.toRecords({ event: 'difc_filtered', server_id: 'github', payload: null }, ctx))).toEqual([]);
    expect(errorOf(ghAwFormat.toRecords(out('github', call('a'), { direction: 'UP' }), ctx))).toMatch(/direction "UP", not IN or OUT/);
    expect(errorOf(ghAwFormat.toRecords(out('github', '{"jsonrpc":'), ctx))).toMatch(/string that is not JSON/);
    expect(errorOf(ghAwFormat.toRecords(out('github', null), ctx))).toMatch(/payload is null/);
    expect(errorOf(ghAwFormat.toRecords(out('github', [1]), ctx))).toMatch(/an array/);
  });

  it('keeps at most 10,000 waiting requests per server: the oldest is then left unanswered', () => {
    const ctx = input();
    for (let i = 0; i < 10_001; i++) ghAwFormat.toRecords(out('github', call('a')), ctx);
    expect(ids(ctx, [back('github', ok(1))])).toEqual(['no-id-2']);
  });

  it('maps the sample: ten lines, one filtered entry', () => {
    const ctx = input();
    const results = sampleJson('gh-aw-rpc-messages.jsonl').map((v) => ghAwFormat.toRecords(v, ctx));
    expect(results.filter((r) => Array.isArray(r) && r.length === 0)).toHaveLength(1);
    expect(results.flatMap((r) => messages(r))).toHaveLength(9);
  });
});
