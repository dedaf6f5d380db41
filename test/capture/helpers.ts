// Test helpers for the capture suite: a local HTTP server with JSON, SSE and failing routes, and a record collector.
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { CanonicalRecordSchema, type CanonicalRecord } from '../../src/schema/record.js';

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

export async function listen(handler: RequestListener): Promise<TestServer> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** A body with multi-byte characters, to catch decoding at chunk boundaries. */
export const UNICODE_RESULT = {
  jsonrpc: '2.0',
  id: 7,
  result: { content: [{ type: 'text', text: 'Zürich → 東京 ✓ “quoted” 🚀' }], isError: false },
};

/**
 * Routes: POST /json echoes a JSON-RPC result; POST /sse sends two events, waits for the test to call
 * `release()` and then sends the result; GET /drop destroys the socket; GET /cut sends SSE headers, one event,
 * then destroys the socket.
 */
export function mcpLikeHandler(): { handler: RequestListener; release: () => void } {
  let release: () => void = () => {};
  const released = new Promise<void>((r) => (release = r));
  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/json') {
      const body = await readBody(req);
      const msg = JSON.parse(body.toString('utf8')) as { id: number };
      const text = JSON.stringify({ ...UNICODE_RESULT, id: msg.id });
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'sess-json-1' });
      res.end(text);
    } else if (path === '/sse') {
      await readBody(req);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
      res.write('id: ev-1\ndata: \n\n');
      res.write('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n');
      await released;
      res.end('event: message\r\ndata: {"jsonrpc":"2.0","id":3,"result":{"content":[]}}\r\n\r\n');
    } else if (path === '/accepted') {
      await readBody(req);
      // Head flushed first, so the empty body is chunked (no Content-Length), as behind a proxy.
      res.writeHead(202);
      res.flushHeaders();
      res.end();
    } else if (path === '/drop') {
      req.socket.destroy();
    } else if (path === '/cut') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n');
      setTimeout(() => res.socket?.destroy(), 20);
    } else {
      res.writeHead(404).end();
    }
  };
  return { handler: (req, res) => void handler(req, res), release: () => release() };
}

/** A stream that collects NDJSON records written to it. */
export function recordCollector(): { stream: PassThrough; records: () => CanonicalRecord[]; raw: () => unknown[] } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (c: Buffer) => (text += c.toString('utf8')));
  const raw = (): unknown[] =>
    text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as unknown);
  return { stream, raw, records: () => raw().map((r) => CanonicalRecordSchema.parse(r)) };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Poll until `check` returns true (bounded). */
export async function waitFor(check: () => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(10);
  }
}
