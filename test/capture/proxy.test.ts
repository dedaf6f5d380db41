// Recording proxy: byte-for-byte forwarding, live SSE, both directions recorded, loopback-only by default.
import { describe, expect, it, afterEach } from 'vitest';
import { PassThrough } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { startRecordingProxy, runRecord, type RecordingProxy } from '../../src/capture/index.js';
import { parseListen, isLoopback } from '../../src/capture/proxy.js';
import { listen, mcpLikeHandler, readBody, recordCollector, waitFor, type TestServer } from './helpers.js';

let upstream: TestServer | undefined;
let proxy: RecordingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await upstream?.close();
  proxy = undefined;
  upstream = undefined;
});

describe('startRecordingProxy', () => {
  it('forwards a compressed body as it came and records it decoded (gzip, deflate, br)', async () => {
    const json = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}}';
    for (const [enc, pack] of [['gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync]] as const) {
      const packed = pack(Buffer.from(json));
      upstream = await listen(async (req, res) => {
        await readBody(req);
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': enc });
        res.end(packed);
      });
      const c = recordCollector();
      proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: upstream.url, out: c.stream });
      const res = await fetch(`${proxy.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      expect(await res.text(), enc).toBe(json); // fetch decodes what the proxy forwarded untouched
      await waitFor(() => c.raw().length === 3);
      expect(c.records()[2], enc).toMatchObject({ kind: 'end', end: 'complete', recvText: json });
      await proxy.close();
      await upstream.close();
      proxy = undefined;
      upstream = undefined;
    }
  });

  it("points a redirect built from the Host it was sent (Starlette's 307 /mcp -> /mcp/) back at the proxy, so the client follows it; the record keeps the server's header", async () => {
    upstream = await listen(async (req, res) => {
      await readBody(req);
      if (req.url === '/mcp') {
        // As Starlette builds it: from the request's Host, which the proxy set to the target's.
        res.writeHead(307, { location: `http://${req.headers.host}/mcp/` });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
    });
    const c = recordCollector();
    proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: upstream.url, out: c.stream });
    const res = await fetch(`${proxy.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}', redirect: 'manual' });
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe(`${proxy.url}/mcp/`);
    await waitFor(() => c.raw().length === 3);
    const upstreamHost = new URL(upstream.url).host;
    expect(c.records()[1]).toMatchObject({ kind: 'response', status: 307, responseHeaders: { location: `http://${upstreamHost}/mcp/` } });
    // Followed, it goes through the proxy again (and is recorded), not straight to the target.
    const followed = await fetch(`${proxy.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":2,"method":"ping"}' });
    expect(await followed.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    await waitFor(() => c.records().filter((r) => r.kind === 'request').length === 3);
  });

  it('must not: a redirect to another origin, or a relative one, is forwarded as the server sent it (a base path the client does not know is taken off)', async () => {
    const { clientLocation } = await import('../../src/capture/proxy.js');
    const target = new URL('http://127.0.0.1:9000/base');
    expect(clientLocation('https://login.example.com/authorize?x=1', target, '/base', '127.0.0.1:8000')).toBe('https://login.example.com/authorize?x=1');
    expect(clientLocation('http://127.0.0.1:9001/mcp/', target, '/base', '127.0.0.1:8000')).toBe('http://127.0.0.1:9001/mcp/');
    expect(clientLocation('http://127.0.0.1:9000/base/mcp/?a=1', target, '/base', '127.0.0.1:8000')).toBe('http://127.0.0.1:8000/mcp/?a=1');
    expect(clientLocation('/base/mcp/', target, '/base', '127.0.0.1:8000')).toBe('/mcp/');
    expect(clientLocation('mcp/', target, '/base', '127.0.0.1:8000')).toBe('mcp/');
    expect(clientLocation('::not a url', target, '', undefined)).toBe('::not a url');
  });

  it('forwards request and response bodies byte for byte (including invalid UTF-8) and records both', async () => {
    const seen: Buffer[] = [];
    // Bytes that are not valid UTF-8 and a split multi-byte character: the proxy must not re-encode anything.
    const reply = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"result":"'), Buffer.from([0xff, 0xfe]), Buffer.from('東京"}')]);
    upstream = await listen(async (req, res) => {
      seen.push(await readBody(req));
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'up-1', 'x-upstream': 'yes' });
      res.write(reply.subarray(0, 37));
      res.end(reply.subarray(37));
    });
    const c = recordCollector();
    proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: upstream.url, out: c.stream });
    const body = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ümlaut"}}');
    const res = await fetch(`${proxy.url}/mcp?x=1`, { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-session-id': 'up-1' }, body });
    const got = Buffer.from(await res.arrayBuffer());
    expect(got.equals(reply)).toBe(true);
    expect(seen[0]!.equals(body)).toBe(true);
    expect(res.headers.get('x-upstream')).toBe('yes');
    await waitFor(() => c.raw().length === 3);
    const [req, head, end] = c.records();
    expect(req).toMatchObject({ kind: 'request', method: 'POST', url: `${upstream.url}/mcp?x=1`, session: 'up-1', send: { params: { name: 'ümlaut' } } });
    expect(req).not.toHaveProperty('side');
    expect(head).toMatchObject({ kind: 'response', status: 200, session: 'up-1' });
    expect(end).toMatchObject({ kind: 'end', end: 'complete' });
  });

  it('passes SSE events through as they are written, not when the stream ends', async () => {
    const h = mcpLikeHandler();
    upstream = await listen(h.handler);
    const c = recordCollector();
    proxy = await startRecordingProxy({ listen: 0, target: upstream.url, out: c.stream, side: 'gateway' });
    const res = await fetch(`${proxy.url}/sse`, { method: 'POST', body: '{"jsonrpc":"2.0","id":3,"method":"tools/call"}' });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('notifications/progress')) text += new TextDecoder().decode((await reader.read()).value);
    await waitFor(() => c.raw().filter((r) => (r as { kind: string }).kind === 'event').length === 2);
    expect(c.records().some((r) => r.kind === 'end')).toBe(false);
    h.release();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toBe(
      'id: ev-1\ndata: \n\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n' +
        'event: message\r\ndata: {"jsonrpc":"2.0","id":3,"result":{"content":[]}}\r\n\r\n',
    );
    await waitFor(() => c.raw().some((r) => (r as { kind: string }).kind === 'end'));
    expect(c.records().map((r) => r.kind)).toEqual(['request', 'response', 'event', 'event', 'event', 'end']);
    expect(c.records().every((r) => r.side === 'gateway')).toBe(true);
  });

  it('drops the client connection when the upstream drops its own, and records end:error', async () => {
    upstream = await listen(mcpLikeHandler().handler);
    const c = recordCollector();
    proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: upstream.url, out: c.stream });
    await expect(fetch(`${proxy.url}/drop`)).rejects.toThrow(/fetch failed/);
    await waitFor(() => c.raw().length === 2);
    expect(c.records()[1]).toMatchObject({ kind: 'end', end: 'error', error: expect.stringMatching(/socket hang up|ECONNRESET/) });

    const res = await fetch(`${proxy.url}/cut`);
    await expect(res.text()).rejects.toThrow();
    await waitFor(() => c.raw().length === 6);
    expect(c.records().slice(2).map((r) => r.kind)).toEqual(['request', 'response', 'event', 'end']);
    expect(c.records()[5]).toMatchObject({ end: 'error' });
  });

  it('redacts secrets in what it records but forwards them unchanged', async () => {
    let forwardedAuth: string | undefined;
    upstream = await listen(async (req, res) => {
      forwardedAuth = req.headers.authorization;
      await readBody(req);
      res.writeHead(202).end();
    });
    const c = recordCollector();
    proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: upstream.url, out: c.stream });
    const res = await fetch(`${proxy.url}/mcp?access_token=s3cr3t-t0ken-value`, {
      method: 'POST',
      headers: { authorization: 'Bearer s3cr3t-t0ken-value' },
      body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    });
    expect(res.status).toBe(202);
    expect(forwardedAuth).toBe('Bearer s3cr3t-t0ken-value');
    await waitFor(() => c.raw().length === 3);
    expect(JSON.stringify(c.raw())).not.toContain('s3cr3t-t0ken-value');
  });

  it('refuses a non-loopback address unless allowed', async () => {
    await expect(startRecordingProxy({ listen: '0.0.0.0:0', target: 'http://127.0.0.1:1', out: new PassThrough() })).rejects.toThrow(/refusing/);
    expect(parseListen('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseListen(':9000')).toEqual({ host: '127.0.0.1', port: 9000 });
    // A bare port is loopback too (it gave host "": "refusing to listen on :").
    expect(parseListen('4556')).toEqual({ host: '127.0.0.1', port: 4556 });
    expect(parseListen(4556)).toEqual({ host: '127.0.0.1', port: 4556 });
    expect(() => parseListen('localhost')).toThrow();
    expect(isLoopback('127.0.0.5')).toBe(true);
    expect(isLoopback('10.0.0.1')).toBe(false);
  });
});

describe('runRecord', () => {
  it('runs until stopped, then closes, and exits 2 with a message when it cannot start', async () => {
    upstream = await listen((_req, res) => res.writeHead(204).end());
    const messages: string[] = [];
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const done = runRecord({ listen: '127.0.0.1:0', target: upstream.url, out: '/dev/null' }, { stderr: { write: (t: string) => messages.push(t) }, stopped });
    await waitFor(() => messages.length === 1);
    expect(messages[0]).toMatch(/^mcp-triage record: http:\/\/127\.0\.0\.1:\d+ -> /);
    stop();
    expect(await done).toBe(0);
    const bad: string[] = [];
    expect(await runRecord({ listen: '192.0.2.1:80', target: upstream.url, out: '/dev/null' }, { stderr: { write: (t: string) => bad.push(t) } })).toBe(2);
    expect(bad[0]).toMatch(/refusing to listen on 192\.0\.2\.1/);
  });
});
