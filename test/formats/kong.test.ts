// Unit tests for src/formats/kong.ts: Kong AI Gateway ai.mcp log objects mapped to gateway messages.
import { describe, expect, it } from 'vitest';
import { detectJsonFormat } from '../../src/formats/index.js';
import { kongFormat } from '../../src/formats/kong.js';
import { errorOf, messages, sampleJson } from './helpers.js';

const ctx = { file: 'kong.log', line: 1 };
function log(rpc: unknown[], over: Record<string, unknown> = {}) {
  return {
    request: { method: 'POST', uri: '/mcp', headers: { 'Mcp-Session-Id': 'hdr-session', 'content-type': 'application/json' } },
    response: { status: 200, headers: { 'content-type': 'application/json' } },
    upstream_status: '200', latencies: { request: 12, kong: 3, proxy: 6 }, started_at: 1767261600000,
    ai: { mcp: { mcp_session_id: 'kong-s-1', rpc } },
    ...over,
  };
}

describe('Kong adapter', () => {
  it('is detected by ai.mcp, before HAR (a Kong log also has request and response)', () => {
    expect(detectJsonFormat(log([]))?.name).toBe('kong');
  });

  it('maps a logged call without payloads: string id, alias method, gateway side, status, latency', () => {
    const out = messages(kongFormat.toRecords(log([{ method: 'call_tool', id: '2', latency: 6, tool_name: 'list_orders', response_body_size: 5030 }]), ctx));
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ direction: 'c2s', side: 'gateway', session: 'kong-s-1', status: 200, ts: 1767261600000, message: { jsonrpc: '2.0', id: '2', method: 'tools/call', params: { name: 'list_orders' } } });
    expect(out[1]).toMatchObject({ direction: 's2c', ts: 1767261600006, message: { jsonrpc: '2.0', id: '2', result: { content: [] } } });
  });

  it('maps an rpc error without payload to a JSON-RPC error whose code is marked unknown (-32603)', () => {
    const out = messages(kongFormat.toRecords(log([{ method: 'tools/call', id: '3', latency: 2, tool_name: 'find', error: 'Invalid params: q' }]), ctx));
    expect(out[1]!.message).toEqual({ jsonrpc: '2.0', id: '3', error: { code: -32603, message: 'Invalid params: q' } });
    expect(kongFormat.limits.notes.join(' ')).toMatch(/-32603/);
  });

  it('uses logged payloads: real typed ids, a tool error result, SSE response bodies', () => {
    const sse = 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\nevent: message\ndata: {"jsonrpc":"2.0","id":4,"result":{"content":[],"isError":true}}\n\n';
    const out = messages(kongFormat.toRecords(log([{ method: 'tools/call', id: '4', latency: 80, tool_name: 'find', payload: { request: '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"find"}}', response: sse } }]), ctx));
    expect(out.map((m) => m.direction)).toEqual(['c2s', 's2c', 's2c']);
    expect(out[0]!.message).toMatchObject({ id: 4 });
    expect(out[2]!.message).toEqual({ jsonrpc: '2.0', id: 4, result: { content: [], isError: true } });
  });

  it('gives the request the typed id of a logged response when only the response payload was kept', () => {
    const out = messages(kongFormat.toRecords(log([{ method: 'tools/list', id: '5', latency: 1, payload: { response: '{"jsonrpc":"2.0","id":5,"result":{"tools":[]}}' } }]), ctx));
    expect((out[0]!.message as { id: unknown }).id).toBe(5);
  });

  it('takes the session from the request header (any case) when ai.mcp has none; a notification gets no response', () => {
    const v = log([{ method: 'notifications/initialized' }]);
    (v.ai.mcp as Record<string, unknown>).mcp_session_id = undefined;
    const out = messages(kongFormat.toRecords(v, ctx));
    expect(out).toHaveLength(1);
    expect(out[0]!.session).toBe('hdr-session');
  });

  it('reports broken rpc items', () => {
    expect(errorOf(kongFormat.toRecords(log([{ id: '1', latency: 1 }]), ctx))).toMatch(/without a method/);
    expect(errorOf(kongFormat.toRecords(log(['tools/call']), ctx))).toMatch(/not an object/);
  });

  it('maps the sample (payload logging on): typed ids kept, 8 messages', () => {
    const out = sampleJson('kong-file-log.jsonl').flatMap((v) => messages(kongFormat.toRecords(v, ctx)));
    expect(out).toHaveLength(8);
    expect(out.filter((m) => m.direction === 's2c').map((m) => (m.message as { id: unknown }).id)).toEqual([1, 2, 3, 4]);
  });
});
