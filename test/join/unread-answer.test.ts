// A server that answers an error before reading the request body logs the POST without it: the client's attempt was
// still seen by the server (real: an SSE-only server's 404 to the Streamable HTTP initialize, test/fixtures/real-audit2).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at, post } from '../helpers/analyze.js';
import { triageCli } from '../helpers/triage-cli.js';

const FALLBACK = fileURLToPath(new URL('../fixtures/real-audit2/fallback-streamable-to-sse/', import.meta.url));

/** A server-side POST record whose body was never read (no `send`), answered with `status`. */
function unreadPost(t: number, status: number, session?: string): Record<string, unknown> {
  return {
    v: 1, kind: 'exchange', ts: at(t), side: 'server', method: 'POST', url: 'http://127.0.0.1:3000/mcp',
    requestHeaders: { 'content-type': 'application/json', ...(session ? { 'mcp-session-id': session } : {}) },
    status, responseHeaders: { 'content-type': 'text/plain' }, recvText: 'Cannot POST /mcp', durationMs: 1,
  };
}
const clientPost = (t: number, status: number, session?: string) =>
  post({ t, id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'app', version: '1' } }, status, ct: 'text/plain', body: 'Cannot POST /mcp', session, durationMs: 5, side: 'client' });
/** Something the server did log, so the analysis knows a server log was given. */
const serverTraffic = (t: number) => post({ t, id: 7, method: 'ping', status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 7, result: {} }), session: 's-other', side: 'server' });

describe('a POST the server logged without its body', () => {
  it('answers the client attempt with the same error at the same moment: seen by the server, with its status and line', async () => {
    const r = await analyzeInputs([
      { side: 'client', lines: [clientPost(0, 404)] },
      { side: 'server', lines: [unreadPost(2, 404), serverTraffic(5)] },
    ]);
    const a = r.attempts.find((x) => x.method === 'initialize')!;
    expect(a.notSeenByServer).toBeUndefined();
    expect(a.serverOutcome).toBe('HTTP_ERROR');
    expect(a.serverStatus).toBe(404);
    expect(a.detail?.why).toMatch(/the server's log has this POST without its body, answered with HTTP 404/);
    expect(a.sources.map((s) => s.file)).toEqual([expect.stringMatching(/input0/), expect.stringMatching(/input1/)]);
  });

  it('does not answer an attempt with another status, another session, or seconds away: those stay "not seen by the server"', async () => {
    for (const unread of [unreadPost(2, 405), unreadPost(2, 404, 'sess-b'), unreadPost(3_500, 404)]) {
      const r = await analyzeInputs([
        { side: 'client', lines: [clientPost(0, 404)] },
        { side: 'server', lines: [unread, serverTraffic(5)] },
      ]);
      const a = r.attempts.find((x) => x.method === 'initialize')!;
      expect(a.notSeenByServer).toBe(true);
      expect(a.serverStatus).toBeUndefined();
    }
  });

  it('answers one client attempt only: two 404s and one unread POST leave one of them not seen', async () => {
    const r = await analyzeInputs([
      { side: 'client', lines: [clientPost(0, 404), { ...clientPost(10, 404), send: { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} } }] },
      { side: 'server', lines: [unreadPost(11, 404), serverTraffic(20)] },
    ]);
    const inits = r.attempts.filter((x) => x.method === 'initialize');
    expect(inits.map((a) => a.notSeenByServer ?? false).sort()).toEqual([false, true]);
    expect(inits.filter((a) => a.serverStatus === 404)).toHaveLength(1);
  });
});

describe('falling back to the HTTP+SSE transport (real SDK 1.x recording)', () => {
  const inits = triageCli<Record<string, any>>(['--client', `${FALLBACK}client.ndjson`, '--server', `${FALLBACK}server.ndjson`]).attempts.filter((a) => a.method === 'initialize');

  it('the 404 from the SSE-only server was seen by it (its log has the POST without a body)', () => {
    expect(inits[0]).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', serverStatus: 404 });
    expect(inits[0]!.notSeenByServer).toBeUndefined();
  });

  it('the initialize on the old transport is the client falling back (origin sdk), with no retry warnings', () => {
    expect(inits[1]).toMatchObject({ call: inits[0]!.call, attempt: 2, outcome: 'SUCCESS', retryOrigin: { origin: 'sdk' } });
    expect(inits[1]!.retryOrigin.how).toMatch(/deprecated HTTP\+SSE transport after HTTP 404/);
    expect(inits[1]!.findings).toEqual([]);
  });

  it('an initialize repeated on Streamable HTTP after a 404 is no fallback', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: [clientPost(0, 404), { ...clientPost(300, 200), recvText: JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }), responseHeaders: { 'content-type': 'application/json' } }] }]);
    const again = r.attempts.filter((x) => x.method === 'initialize')[1]!;
    expect(again.attempt).toBe(2);
    expect(again.retryOrigin?.origin).not.toBe('sdk');
  });
});
