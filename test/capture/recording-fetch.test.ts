// recordingFetch against a local server: unchanged bodies, live SSE events, validated records, redaction, errors.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingFetch, withCallNote } from '../../src/capture/index.js';
import { CanonicalRecordSchema } from '../../src/schema/record.js';
import { listen, mcpLikeHandler, recordCollector, UNICODE_RESULT, waitFor, type TestServer } from './helpers.js';

let server: TestServer;
let release: () => void;
beforeAll(async () => {
  const h = mcpLikeHandler();
  release = h.release;
  server = await listen(h.handler);
});
afterAll(() => server.close());

const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  body: JSON.stringify(body),
});

describe('recordingFetch', () => {
  it('returns the body byte for byte and records request, response and end with the JSON body', async () => {
    const c = recordCollector();
    const f = recordingFetch({ out: c.stream, client: 'test-agent@1.0.0' });
    const res = await f(`${server.url}/json`, post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo' } }, { 'mcp-session-id': 's-1' }));
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.equals(Buffer.from(JSON.stringify(UNICODE_RESULT), 'utf8'))).toBe(true);
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${server.url}/json`);

    const records = c.records();
    expect(records.map((r) => r.kind)).toEqual(['request', 'response', 'end']);
    const [req, head, end] = records;
    expect(req).toMatchObject({ v: 1, side: 'client', client: 'test-agent@1.0.0', session: 's-1', method: 'POST', url: `${server.url}/json` });
    expect(req).toMatchObject({ send: { jsonrpc: '2.0', id: 7, method: 'tools/call' } });
    // The request's session keys the exchange; the different id the response carried stays in its headers.
    expect(head).toMatchObject({ status: 200, session: 's-1', responseHeaders: { 'mcp-session-id': 'sess-json-1' } });
    expect(end).toMatchObject({ end: 'complete', recvText: JSON.stringify(UNICODE_RESULT) });
    expect(new Set(records.map((r) => (r as { xid?: string }).xid)).size).toBe(1);
    for (const r of records) expect(Number.isNaN(Date.parse(String(r.ts)))).toBe(false);
  });

  it('takes the session from the response when the request had none (initialize)', async () => {
    const c = recordCollector();
    const f = recordingFetch({ out: c.stream });
    await (await f(`${server.url}/json`, post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }))).text();
    expect(c.records().map((r) => r.session)).toEqual([null, 'sess-json-1', 'sess-json-1']);
  });

  it('hands each SSE event to the reader before the stream ends, and records it when it passes', async () => {
    const c = recordCollector();
    const f = recordingFetch({ out: c.stream });
    const res = await f(`${server.url}/sse`, post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: {} }));
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while (!seen.includes('notifications/progress')) {
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended before the progress event');
      seen += decoder.decode(value, { stream: true });
    }
    // The server is still holding the result back: the reader already has two events, the log has them too.
    expect(c.records().filter((r) => r.kind === 'event')).toHaveLength(2);
    expect(c.records().some((r) => r.kind === 'end')).toBe(false);
    release();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
    expect(seen).toContain('"id":3,"result"');
    const events = c.records().filter((r) => r.kind === 'event');
    expect(events).toEqual([
      expect.objectContaining({ id: 'ev-1', data: '' }),
      expect.objectContaining({ event: 'message', data: '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}' }),
      expect.objectContaining({ event: 'message', data: '{"jsonrpc":"2.0","id":3,"result":{"content":[]}}' }),
    ]);
    const end = c.records().at(-1)!;
    expect(end).toMatchObject({ kind: 'end', end: 'complete' });
    expect(end).not.toHaveProperty('recvText');
  });

  it('records a refused connection as end:error and still throws the original error to the caller', async () => {
    const c = recordCollector();
    const f = recordingFetch({ out: c.stream });
    const dead = await listen(() => {});
    const url = dead.url;
    await dead.close();
    await expect(f(`${url}/mcp`, post({ jsonrpc: '2.0', id: 1, method: 'ping' }))).rejects.toThrow(/fetch failed/);
    const records = c.records();
    expect(records.map((r) => r.kind)).toEqual(['request', 'end']);
    expect(records[1]).toMatchObject({ end: 'error', error: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('records a socket destroyed before the response as end:error, and one destroyed mid-stream as end:error after the events', async () => {
    const c = recordCollector();
    const f = recordingFetch({ out: c.stream });
    await expect(f(`${server.url}/drop`)).rejects.toThrow();
    expect(c.records().map((r) => r.kind)).toEqual(['request', 'end']);
    expect(c.records()[1]).toMatchObject({ end: 'error' });

    const c2 = recordCollector();
    const f2 = recordingFetch({ out: c2.stream });
    const res = await f2(`${server.url}/cut`);
    await expect(res.text()).rejects.toThrow();
    expect(c2.records().map((r) => r.kind)).toEqual(['request', 'response', 'event', 'end']);
    expect(c2.records()[3]).toMatchObject({ end: 'error', error: expect.any(String) });
  });

  it('records an aborted call as end:aborted', async () => {
    const c = recordCollector();
    const f = recordingFetch({ out: c.stream });
    const ac = new AbortController();
    const res = await f(`${server.url}/cut`, { signal: ac.signal });
    ac.abort();
    await expect(res.text()).rejects.toThrow();
    await waitFor(() => c.raw().length === 3 || c.raw().length === 4);
    expect(c.records().at(-1)).toMatchObject({ kind: 'end', end: 'aborted' });
  });

  it('records a call aborted with a reason of its own (the Vercel AI SDK\'s "Request timed out" error) as end:aborted, with that reason', async () => {
    const c = recordCollector();
    const f = recordingFetch({ out: c.stream });
    const ac = new AbortController();
    const res = await f(`${server.url}/cut`, { signal: ac.signal });
    ac.abort(new Error('Request timed out after 300ms'));
    await expect(res.text()).rejects.toThrow('Request timed out after 300ms');
    await waitFor(() => c.raw().length === 3 || c.raw().length === 4);
    expect(c.records().at(-1)).toMatchObject({ kind: 'end', end: 'aborted', error: 'Request timed out after 300ms' });
  });

  it('records an empty body the reader cancels (the SDK does on 202) as complete, a live stream it cancels as aborted', async () => {
    const c = recordCollector();
    const f = recordingFetch({ out: c.stream });
    const accepted = await f(`${server.url}/accepted`, post({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(accepted.headers.get('content-length')).toBeNull();
    await accepted.body?.cancel();
    expect(c.records().at(-1)).toMatchObject({ kind: 'end', end: 'complete' });
    expect(c.records().at(-1)).not.toHaveProperty('error');

    const live = await f(`${server.url}/cut`);
    await live.body?.cancel();
    expect(c.records().at(-1)).toMatchObject({ kind: 'end', end: 'aborted', error: 'the reader cancelled the body' });
  });

  it('records a body that had arrived whole before the reader cancelled it (the SDK does on a GET 405) as complete, with the body', async () => {
    const c = recordCollector();
    const f = recordingFetch({ out: c.stream });
    const res = await f(`${server.url}/json`, post({ jsonrpc: '2.0', id: 7, method: 'tools/call' }));
    await new Promise((r) => setTimeout(r, 20)); // the body is on its way, nobody reads it
    await res.body?.cancel();
    const end = c.records().at(-1)!;
    expect(end).toMatchObject({ kind: 'end', end: 'complete' });
    expect(end).not.toHaveProperty('error');
    expect(JSON.parse((end as { recvText: string }).recvText)).toMatchObject({ id: 7, result: { isError: false } });
  });

  it('records a body stopped by a timeout signal (the TimeoutError of AbortSignal.timeout) as end:timeout', async () => {
    // A fresh server whose /sse holds its last event until release(), called only after the timeout.
    const held = mcpLikeHandler();
    const own = await listen(held.handler);
    try {
      const c = recordCollector();
      const f = recordingFetch({ out: c.stream });
      // The reason AbortSignal.timeout() gives, fired once both events were read (not at a wall-clock time).
      const ac = new AbortController();
      const res = await f(`${own.url}/sse`, { ...post({ jsonrpc: '2.0', id: 4, method: 'tools/call' }), signal: ac.signal });
      const reader = res.body!.getReader();
      let seen = '';
      while (!seen.includes('notifications/progress')) seen += new TextDecoder().decode((await reader.read()).value);
      ac.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
      await expect(reader.read()).rejects.toThrow();
      await waitFor(() => c.raw().some((r) => (r as { kind: string }).kind === 'end'));
      expect(c.records().filter((r) => r.kind === 'event')).toHaveLength(2);
      expect(c.records().at(-1)).toMatchObject({ kind: 'end', end: 'timeout' });
    } finally {
      held.release();
      await own.close();
    }
  });

  it('redacts an Authorization header and an access_token in the URL before writing', async () => {
    const c = recordCollector();
    const f = recordingFetch({ out: c.stream });
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXZhbHVl';
    const res = await f(`${server.url}/json?access_token=${token}&keep=1`, post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization: `Bearer ${token}` }));
    await res.text();
    const line = JSON.stringify(c.raw());
    expect(line).not.toContain(token);
    const req = c.records()[0]!;
    expect(req.kind).toBe('request');
    const r = req as { requestHeaders: Record<string, string>; url: string };
    expect(r.requestHeaders.authorization).toMatch(/redacted/);
    expect(r.url).toContain('keep=1');
  });

  it('writes the application note on the request record of the call made inside withCallNote', async () => {
    const c = recordCollector();
    const f = recordingFetch({ out: c.stream });
    await withCallNote({ retryOrigin: 'app', attempt: 2, call: 'lookup-7' }, async () => {
      await (await f(`${server.url}/json`, post({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'x' } }))).text();
      // A notification inside the same call carries no note: only JSON-RPC requests are annotated.
      await (await f(`${server.url}/json`, post({ jsonrpc: '2.0', id: 10, method: 'tools/call' }))).text();
    });
    await (await f(`${server.url}/json`, post({ jsonrpc: '2.0', id: 11, method: 'tools/call' }))).text();
    const requests = c.records().filter((r) => r.kind === 'request');
    expect(requests[0]).toMatchObject({ note: { retryOrigin: 'app', attempt: 2, call: 'lookup-7' } });
    expect(requests[2]).not.toHaveProperty('note');
  });

  it('appends to a file path, and a failing output never reaches the caller', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'capture-'));
    try {
      const file = join(dir, 'client.ndjson');
      const f = recordingFetch({ out: file });
      await (await f(`${server.url}/json`, post({ jsonrpc: '2.0', id: 1, method: 'ping' }))).text();
      await f.close();
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      expect(lines).toHaveLength(3);
      for (const l of lines) CanonicalRecordSchema.parse(JSON.parse(l));

      const broken = recordingFetch({ out: join(dir, 'missing-dir', 'x.ndjson') });
      const stderr = process.stderr.write;
      const messages: string[] = [];
      process.stderr.write = ((t: string) => (messages.push(String(t)), true)) as typeof process.stderr.write;
      try {
        const res = await broken(`${server.url}/json`, post({ jsonrpc: '2.0', id: 2, method: 'ping' }));
        expect(res.status).toBe(200);
        await res.text();
      } finally {
        process.stderr.write = stderr;
      }
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatch(/cannot write records/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
