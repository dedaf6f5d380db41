// Server recorder: the handler reads the same body, the client gets the same bytes, SSE keeps streaming,
// and the official SDK server transport works behind it with and without a pre-parsed body.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { recordingHandler, recordingMiddleware } from '../../src/capture/index.js';
import { listen, readBody, recordCollector, waitFor, type TestServer } from './helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('recordingHandler / recordingMiddleware', () => {
  it('gives the handler the exact request body and the client the exact response, and records both', async () => {
    const c = recordCollector();
    const received: Buffer[] = [];
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'a-1', method: 'tools/call', params: { name: 'größe', arguments: { q: '東京' } } }));
    server = await listen(
      recordingHandler(
        async (req: IncomingMessage, res: ServerResponse) => {
          received.push(await readBody(req));
          res.setHeader('mcp-session-id', 'sess-9');
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"jsonrpc":"2.0","id":"a-1",');
          res.end('"result":{"content":[{"type":"text","text":"ok ✓"}]}}');
        },
        { out: c.stream },
      ),
    );
    const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-session-id': 'sess-9' }, body });
    const text = await res.text();
    expect(received[0]!.equals(body)).toBe(true);
    expect(text).toBe('{"jsonrpc":"2.0","id":"a-1","result":{"content":[{"type":"text","text":"ok ✓"}]}}');
    await waitFor(() => c.raw().length === 3);
    const [req, head, end] = c.records();
    expect(req).toMatchObject({ kind: 'request', side: 'server', session: 'sess-9', method: 'POST', url: `${server.url}/mcp` });
    expect(req).toMatchObject({ send: { id: 'a-1', params: { name: 'größe', arguments: { q: '東京' } } } });
    expect(head).toMatchObject({ kind: 'response', status: 200, responseHeaders: { 'content-type': 'application/json', 'mcp-session-id': 'sess-9' } });
    expect(end).toMatchObject({ kind: 'end', end: 'complete', recvText: text });
  });

  it('records SSE events as the handler writes them, while the client receives them live', async () => {
    const c = recordCollector();
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const app = recordingMiddleware({ out: c.stream });
    server = await listen((req, res) =>
      app(req, res, async () => {
        await readBody(req);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n');
        await released;
        res.end('event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
      }),
    );
    const res = await fetch(`${server.url}/mcp`, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}' });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('notifications/progress');
    await waitFor(() => c.raw().some((r) => (r as { kind: string }).kind === 'event'));
    expect(c.records().some((r) => r.kind === 'end')).toBe(false);
    release();
    while (!(await reader.read()).done);
    await waitFor(() => c.raw().some((r) => (r as { kind: string }).kind === 'end'));
    expect(c.records().map((r) => r.kind)).toEqual(['request', 'response', 'event', 'event', 'end']);
  });

  it("records a body that a compression middleware mounted after it encoded (Express's compression()) decoded, as the client reads it", async () => {
    const { gzipSync, brotliCompressSync } = await import('node:zlib');
    const json = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x'.repeat(2400) }] } });
    for (const [enc, pack] of [['gzip', gzipSync], ['br', brotliCompressSync]] as const) {
      const c = recordCollector();
      const record = recordingMiddleware({ out: c.stream });
      server = await listen((req, res) => {
        record(req, res, () => {
          void readBody(req).then(() => {
            // As compression() does: the app's body goes out encoded, through the write/end the recorder wrapped.
            const end = res.end.bind(res) as (chunk: Buffer) => ServerResponse;
            res.setHeader('content-type', 'application/json');
            res.setHeader('content-encoding', enc);
            res.writeHead(200);
            end(pack(Buffer.from(json)));
          });
        });
      });
      const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big"}}' });
      expect(await res.text(), enc).toBe(json);
      await waitFor(() => c.raw().length === 3);
      const [, head, end] = c.records();
      expect(head, enc).toMatchObject({ kind: 'response', status: 200, responseHeaders: { 'content-encoding': enc } });
      expect(end, enc).toMatchObject({ kind: 'end', end: 'complete', recvText: json });
      await server.close();
      server = undefined;
    }
  });

  it('records the parsed req.body when a body parser mounted before it already read the stream', async () => {
    const c = recordCollector();
    const record = recordingMiddleware({ out: c.stream });
    server = await listen(async (req, res) => {
      // What express.json() does: read the stream, set req.body.
      (req as IncomingMessage & { body?: unknown }).body = JSON.parse((await readBody(req)).toString('utf8'));
      record(req, res, () => {
        res.writeHead(202).end();
      });
    });
    await fetch(`${server.url}/mcp`, { method: 'POST', body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
    await waitFor(() => c.raw().length === 3);
    expect(c.records()[0]).toMatchObject({ kind: 'request', send: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    expect(c.records()[1]).toMatchObject({ kind: 'response', status: 202 });
  });

  it('records a request whose connection the handler destroys as an exchange without a response', async () => {
    const c = recordCollector();
    server = await listen(
      recordingHandler(
        async (req: IncomingMessage) => {
          await readBody(req);
          req.socket.destroy();
        },
        { out: c.stream },
      ),
    );
    await expect(fetch(`${server.url}/mcp`, { method: 'POST', body: '{"jsonrpc":"2.0","id":5,"method":"tools/call"}' })).rejects.toThrow();
    await waitFor(() => c.raw().length === 2);
    expect(c.records()).toEqual([
      expect.objectContaining({ kind: 'request', send: { jsonrpc: '2.0', id: 5, method: 'tools/call' } }),
      expect.objectContaining({ kind: 'end', end: 'aborted', error: expect.stringContaining('before a response') }),
    ]);
  });

  it('records a head set with writeHead only when it is sent: not when the client gave up before any byte left', async () => {
    const c = recordCollector();
    let flush = false;
    server = await listen(
      recordingHandler(
        async (req: IncomingMessage, res: ServerResponse) => {
          await readBody(req);
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          if (flush) res.flushHeaders(); // the head leaves now, with no body yet
          // ...and the tool takes longer than the client waits.
        },
        { out: c.stream },
      ),
    );
    // The client gives up after 150 ms; where the head is flushed it gives up once the head came instead (on a
    // loaded machine the head can take longer than 150 ms, and the test is of what is recorded, not of how fast).
    const call = async () => {
      const ac = new AbortController();
      const pending = fetch(`${server!.url}/mcp`, { method: 'POST', body: '{"jsonrpc":"2.0","id":5,"method":"tools/call"}', signal: ac.signal }).then((r) => r.status, () => 'aborted');
      if (flush) await pending;
      else await new Promise((r) => setTimeout(r, 150));
      ac.abort();
      return pending;
    };
    expect(await call()).toBe('aborted');
    await waitFor(() => c.raw().length === 2);
    expect(c.records()).toEqual([
      expect.objectContaining({ kind: 'request' }),
      expect.objectContaining({ kind: 'end', end: 'aborted', error: expect.stringContaining('a 200 head was set but never sent') }),
    ]);
    // With flushHeaders() the head did reach the client: it is a response, then the stream was cut.
    flush = true;
    expect(await call()).toBe(200);
    await waitFor(() => c.raw().length === 5);
    expect(c.records().slice(2).map((r) => [r.kind, r.kind === 'response' ? r.status : r.kind === 'end' ? r.end : undefined])).toEqual([['request', undefined], ['response', 200], ['end', 'aborted']]);
  });

  for (const preParsed of [true, false]) {
    it(`keeps the SDK's StreamableHTTPServerTransport working behind it (${preParsed ? 'pre-parsed body' : 'transport reads the body'})`, async () => {
      const c = recordCollector();
      server = await listen(
        recordingHandler(
          async (req: IncomingMessage, res: ServerResponse) => {
            const mcp = new McpServer({ name: 'probe', version: '1.0.0' });
            mcp.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
              content: [{ type: 'text', text: String(a + b) }],
            }));
            const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
            res.on('close', () => void transport.close().then(() => mcp.close()));
            await mcp.connect(transport);
            if (req.method !== 'POST') {
              res.writeHead(405).end();
              return;
            }
            if (preParsed) await transport.handleRequest(req, res, JSON.parse((await readBody(req)).toString('utf8')));
            else await transport.handleRequest(req, res);
          },
          { out: c.stream },
        ),
      );
      const client = new Client({ name: 'probe-client', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
      expect(result.content).toEqual([{ type: 'text', text: '42' }]);
      await client.close();
      const isCall = (r: { kind: string; send?: unknown }) => r.kind === 'request' && (r.send as { method?: string } | undefined)?.method === 'tools/call';
      const call = c.records().find(isCall);
      expect(call).toBeDefined();
      const xid = (call as { xid: string }).xid;
      await waitFor(() => c.records().some((r) => r.kind === 'end' && r.xid === xid));
      const records = c.records();
      const mine = records.filter((r) => (r as { xid?: string }).xid === xid);
      expect(mine.map((r) => r.kind)).toEqual(['request', 'response', 'event', 'end']);
      expect(mine[1]).toMatchObject({ status: 200, responseHeaders: { 'content-type': 'text/event-stream' } });
      expect(JSON.parse((mine[2] as { data: string }).data)).toMatchObject({ id: (call as { send: { id: number } }).send.id, result: { content: [{ text: '42' }] } });
      expect(mine[3]).toMatchObject({ end: 'complete' });
    });
  }
});
