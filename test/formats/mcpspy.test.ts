// Unit tests for src/formats/mcpspy.ts: MCPSpy JSONL lines (HTTP and stdio) mapped to message records.
import { describe, expect, it } from 'vitest';
import { detectJsonFormat } from '../../src/formats/index.js';
import { mcpspyFormat } from '../../src/formats/mcpspy.js';
import { errorOf, messages, sampleJson } from './helpers.js';

const ctx = { file: 'out.jsonl', line: 1 };
const http = { pid: 4242, comm: 'node', host: '127.0.0.1:3000' };

describe('MCPSpy adapter', () => {
  it('reads the older README shape: no http_transport, no error, no raw (direction from the method)', () => {
    const line = { timestamp: '2024-01-15T12:34:56.789Z', transport_type: 'http', type: 'request', id: 7, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'New York' } } };
    expect(detectJsonFormat(line)?.name).toBe('mcpspy');
    expect(messages(mcpspyFormat.toRecords(line, ctx))[0]).toMatchObject({ direction: 'c2s', message: { jsonrpc: '2.0', id: 7, method: 'tools/call' } });
  });

  it('is detected by its transport block', () => {
    const line = { timestamp: '2026-01-10T10:00:00.100000000+02:00', transport_type: 'http', http_transport: { ...http, is_request: true }, type: 'request', id: 7, method: 'tools/call', params: { name: 'search' }, error: {} };
    expect(detectJsonFormat(line)?.name).toBe('mcpspy');
  });

  it('maps an HTTP request (is_request) to c2s and a response (is_request omitted) to s2c, keeping the raw message', () => {
    const rq = messages(mcpspyFormat.toRecords({ timestamp: '2026-01-10T10:00:00.000000000+02:00', transport_type: 'http', http_transport: { ...http, is_request: true }, type: 'request', id: 7, method: 'tools/call', params: { name: 'search' }, error: {}, raw: '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search"}}' }, ctx));
    expect(rq[0]).toMatchObject({ direction: 'c2s', conn: 'http:127.0.0.1:3000', ts: '2026-01-10T10:00:00.000000000+02:00', message: { jsonrpc: '2.0', id: 7, method: 'tools/call' } });
    const rs = messages(mcpspyFormat.toRecords({ timestamp: '2026-01-10T10:00:00.100000000+02:00', transport_type: 'http', http_transport: http, type: 'response', id: 7, result: { content: [], isError: false }, error: {}, request: { type: 'request', id: 7, method: 'tools/call', error: {} }, raw: '{"jsonrpc":"2.0","id":7,"result":{"content":[],"isError":false}}' }, ctx));
    expect(rs[0]!.direction).toBe('s2c');
    expect(rs[0]!.message).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [], isError: false } });
    expect(rs[0]!.status).toBeUndefined();
    expect(rs[0]!.session).toBeUndefined();
  });

  it('does not read the ever-present "error": {} as an error; a code or message does count', () => {
    const ok = messages(mcpspyFormat.toRecords({ timestamp: 't', transport_type: 'stdio', stdio_transport: { from_pid: 2, from_comm: 'srv', to_pid: 1, to_comm: 'cli' }, type: 'response', id: 3, result: { content: [] }, error: {} }, ctx));
    expect(ok[0]!.message).toEqual({ jsonrpc: '2.0', id: 3, result: { content: [] } });
    const bad = messages(mcpspyFormat.toRecords({ timestamp: 't', transport_type: 'stdio', stdio_transport: { from_pid: 2, from_comm: 'srv', to_pid: 1, to_comm: 'cli' }, type: 'response', id: 4, error: { code: -32602, message: 'Invalid params' }, request: { type: 'request', id: 4, method: 'tools/call', error: {} } }, ctx));
    expect(bad[0]!.message).toEqual({ jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'Invalid params' } });
    expect(bad[0]!.direction).toBe('s2c');
    expect(bad[0]!.conn).toBe('stdio:1->2');
  });

  it('keeps a tool error result (isError) as sent', () => {
    const r = messages(mcpspyFormat.toRecords({ timestamp: 't', transport_type: 'http', http_transport: http, type: 'response', id: 7, result: { content: [], isError: true }, error: {}, raw: '{"jsonrpc":"2.0","id":7,"result":{"content":[],"isError":true}}' }, ctx));
    expect((r[0]!.message as { result: { isError: boolean } }).result.isError).toBe(true);
  });

  it('gets stdio direction from the method: a server request (sampling) is s2c, its response c2s', () => {
    const stdio = { from_pid: 20, from_comm: 'srv', to_pid: 10, to_comm: 'cli' };
    const rq = messages(mcpspyFormat.toRecords({ timestamp: 't', transport_type: 'stdio', stdio_transport: stdio, type: 'request', id: 1, method: 'sampling/createMessage', params: {}, error: {} }, ctx));
    expect(rq[0]).toMatchObject({ direction: 's2c', conn: 'stdio:10->20' });
    const rs = messages(mcpspyFormat.toRecords({ timestamp: 't', transport_type: 'stdio', stdio_transport: { from_pid: 10, from_comm: 'cli', to_pid: 20, to_comm: 'srv' }, type: 'response', id: 1, result: {}, error: {}, request: { type: 'request', id: 1, method: 'sampling/createMessage', error: {} } }, ctx));
    expect(rs[0]).toMatchObject({ direction: 'c2s', conn: 'stdio:10->20' });
  });

  it('reports broken lines: unknown type, a response with nothing in it', () => {
    expect(errorOf(mcpspyFormat.toRecords({ timestamp: 't', transport_type: 'http', http_transport: http, type: 'frame' }, ctx))).toMatch(/unknown type/);
    expect(errorOf(mcpspyFormat.toRecords({ timestamp: 't', transport_type: 'http', http_transport: http, type: 'response', id: 9, error: {} }, ctx))).toMatch(/neither a result nor an error/);
  });

  it('states what the source cannot show', () => {
    expect(mcpspyFormat.limits).toMatchObject({ http: false, session: false });
    expect(mcpspyFormat.limits.notes.join('\n')).toMatch(/5 s[\s\S]*2 s[\s\S]*malformed/);
  });

  it('maps the stdio sample: 8 messages alternating c2s/s2c on one connection', () => {
    const out = sampleJson('mcpspy.jsonl').flatMap((v) => messages(mcpspyFormat.toRecords(v, ctx)));
    expect(out.map((m) => m.direction)).toEqual(['c2s', 's2c', 'c2s', 's2c', 'c2s', 's2c', 'c2s', 's2c']);
    expect(new Set(out.map((m) => m.conn))).toEqual(new Set(['stdio:51234->51240']));
  });
});

describe('MCPSpy leaves slow responses out (answersUnlogged)', () => {
  it('a request without a response is UNANSWERED with a why that says the log leaves answers out, and no finding rests on it', async () => {
    const { analyze } = await import('../../src/index.js');
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const path = join(mkdtempSync(join(tmpdir(), 'mcpspy-')), 'spy.jsonl');
    const line = (o: Record<string, unknown>) => JSON.stringify({ transport_type: 'stdio', stdio_transport: { from_pid: 1, from_comm: 'client', to_pid: 2, to_comm: 'server' }, error: {}, ...o });
    // initialize answered slower than 5 s (MCPSpy dropped the answer), then nothing: without the flag this would be CALL_NEVER_SENT.
    writeFileSync(path, `${line({ timestamp: '2026-01-10T10:00:00Z', type: 'request', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })}\n`);
    const r = await analyze({ inputs: [{ path }] });
    expect(r.attempts.map((a) => [a.method, a.outcome])).toEqual([['initialize', 'UNANSWERED']]);
    expect(r.attempts[0]!.detail.why).toMatch(/leaves some responses out/);
    expect(r.findings.map((f) => f.code)).not.toContain('CALL_NEVER_SENT');
  });
});
