// Unit tests for src/formats/jsonrpc.ts: plain JSON-RPC lines, and directions written relative to whoever logged them.
import { describe, expect, it } from 'vitest';
import type { AdapterContext } from '../../src/formats/adapter.js';
import { inferredWriter, jsonRpcFormat } from '../../src/formats/jsonrpc.js';
import { messages } from './helpers.js';

const input = (side?: AdapterContext['side']): AdapterContext => ({ file: 'mcp.log', line: 1, state: new Map(), side });
const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search' } };
const answer = { jsonrpc: '2.0', id: 2, result: { content: [], isError: true } };
const dirs = (ctx: AdapterContext, lines: Record<string, unknown>[]) => lines.map((l) => messages(jsonRpcFormat.toRecords(l, ctx))[0]!.direction);

describe('jsonrpc adapter: directions', () => {
  it('reads absolute directions as written, whoever logged them', () => {
    expect(dirs(input('server'), [{ direction: 'c2s', message: call }, { direction: 'server-to-client', message: answer }])).toEqual(['c2s', 's2c']);
    expect(dirs(input('client'), [{ direction: 'to-server', message: call }, { dir: 's2c', message: answer }])).toEqual(['c2s', 's2c']);
  });

  it('reads in/out from the client by default: what it sent went to the server', () => {
    expect(dirs(input(), [{ direction: 'out', message: call }, { direction: 'in', message: answer }])).toEqual(['c2s', 's2c']);
    expect(dirs(input('client'), [{ direction: 'sent', message: call }, { direction: 'received', message: answer }])).toEqual(['c2s', 's2c']);
  });

  it('reads in/out from the server when --server says it is the server\'s log', () => {
    expect(dirs(input('server'), [{ direction: 'in', message: call }, { direction: 'out', message: answer }])).toEqual(['c2s', 's2c']);
    expect(dirs(input('server'), [{ direction: 'outgoing', message: { jsonrpc: '2.0', id: 0, method: 'elicitation/create' } }])).toEqual(['s2c']);
  });

  it('reads in/out from the record\'s own side field', () => {
    expect(dirs(input(), [{ side: 'server', direction: 'incoming', message: call }, { side: 'server', direction: 'outgoing', message: answer }])).toEqual(['c2s', 's2c']);
  });

  it('learns whose log it is from the first client-only or server-only method, for the rest of that input', () => {
    const server = input();
    expect(dirs(server, [{ direction: 'in', message: call }, { direction: 'out', message: answer }, { direction: 'in', message: { ...answer, id: 9 } }])).toEqual(['c2s', 's2c', 'c2s']);
    const client = input();
    expect(dirs(client, [{ direction: 'in', message: { jsonrpc: '2.0', id: 0, method: 'roots/list' } }, { direction: 'out', message: { jsonrpc: '2.0', id: 0, result: { roots: [] } } }])).toEqual(['s2c', 'c2s']);
    // A method either side may send (ping) teaches nothing; the default (a client's log) holds until one that does.
    const unknown = input();
    expect(dirs(unknown, [{ direction: 'in', message: { jsonrpc: '2.0', id: 1, method: 'ping' } }, { direction: 'in', message: call }, { direction: 'out', message: answer }])).toEqual(['s2c', 'c2s', 's2c']);
  });

  it('keeps what one input learned to that input', () => {
    dirs(input(), [{ direction: 'in', message: call }]);
    expect(dirs(input(), [{ direction: 'in', message: answer }])).toEqual(['s2c']);
  });

  it('guesses from the method when there is no direction at all', () => {
    expect(dirs(input(), [{ message: call }, { message: { jsonrpc: '2.0', method: 'notifications/message', params: {} } }, { message: answer }])).toEqual(['c2s', 's2c', 's2c']);
  });
});

describe('jsonrpc adapter: whose log it is, for a log given without a side', () => {
  const writerAfter = (ctx: AdapterContext, lines: Record<string, unknown>[]) => {
    for (const l of lines) jsonRpcFormat.toRecords(l, ctx);
    return inferredWriter(ctx.state!);
  };

  it('a tools/call logged as received makes it the server\'s log, one logged as sent the client\'s', () => {
    expect(writerAfter(input(), [{ direction: 'received', message: call }, { direction: 'sent', message: answer }])).toBe('server');
    expect(writerAfter(input(), [{ direction: 'out', message: call }, { direction: 'in', message: answer }])).toBe('client');
  });

  it('near misses: a response before any method, and absolute directions, tell nothing', () => {
    expect(writerAfter(input(), [{ direction: 'received', message: answer }])).toBeUndefined();
    expect(writerAfter(input(), [{ direction: 'c2s', message: call }])).toBeUndefined();
  });
});
