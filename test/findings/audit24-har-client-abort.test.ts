// The twenty-fourth audit: a HAR given as --client with the server's log, 2026-07-28: the client's own abort before any
// head (status 0, net::ERR_ABORTED) read as a hop's close (SIDE_DIVERGENCE), though the HAR alone reads it as the cancellation.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

/** A HAR line of a 2026-07-28 tools/call the browser's client aborted before any head (status 0, net::ERR_ABORTED). */
function harAborted() {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'slow_export', arguments: {} } });
  return {
    startedDateTime: at(0), time: 501,
    request: { method: 'POST', url: 'http://127.0.0.1:3000/mcp', httpVersion: 'HTTP/1.1', cookies: [], queryString: [], headersSize: -1, bodySize: body.length,
      headers: [{ name: 'content-type', value: 'application/json' }, { name: 'mcp-protocol-version', value: '2026-07-28' }], postData: { mimeType: 'application/json', text: body } },
    response: { status: 0, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: 0, mimeType: '' }, redirectURL: '', headersSize: -1, bodySize: -1, _error: 'net::ERR_ABORTED' },
    cache: {}, timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 501, receive: 0 },
  };
}
/** recordingHandler's records of the same request: the connection closed before the server sent anything. */
const serverSawClose = [
  { v: 1, kind: 'request', ts: at(3), side: 'server', session: null, xid: 's-8', method: 'POST', url: 'http://127.0.0.1:3000/mcp', requestHeaders: { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28' }, send: { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'slow_export', arguments: {} } } },
  { v: 1, kind: 'end', ts: at(504), side: 'server', session: null, xid: 's-8', end: 'aborted', error: 'the connection closed before a response was sent (a 200 head was set but never sent)', durationMs: 501 },
];

describe('a HAR given as the client view with the server log, 2026-07-28', () => {
  it('net::ERR_ABORTED before any head is the client closing the request: CANCELLED, as the HAR alone says (before: SIDE_DIVERGENCE "the client did not close its stream")', async () => {
    const r = await analyzeInputs([{ name: 'capture.har.ndjson', side: 'client', lines: [harAborted()] }, { name: 'server.ndjson', side: 'server', lines: serverSawClose }]);
    const a = r.attempts.find((x) => x.method === 'tools/call')!;
    expect(a.outcome).toBe('NO_RESPONSE');
    expect(a.findings.map((f) => f.code)).toEqual(['CANCELLED']);
  });

  it("must not: the client's abort after the server had sent its status long before (a hop held it) is still a SIDE_DIVERGENCE, saying so", async () => {
    const answered404 = [serverSawClose[0], { v: 1, kind: 'response', ts: at(40), side: 'server', session: null, xid: 's-8', status: 404, responseHeaders: { 'content-type': 'application/json' } },
      { v: 1, kind: 'end', ts: at(41), side: 'server', session: null, xid: 's-8', end: 'complete', recvText: '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Session not found"}}', durationMs: 38 }];
    const r = await analyzeInputs([{ name: 'capture.har.ndjson', side: 'client', lines: [harAborted()] }, { name: 'server.ndjson', side: 'server', lines: answered404 }]);
    const div = r.attempts.find((x) => x.method === 'tools/call')!.findings.find((f) => f.code === 'SIDE_DIVERGENCE');
    expect(div?.message).toMatch(/never got the HTTP 404 head the server sent 0\.46 s before the client gave up: something between them held it/);
  });

  it('must not: a network failure before any head (net::ERR_CONNECTION_RESET) with the server seeing its connection close is still something between them', async () => {
    const e = harAborted();
    e.response._error = 'net::ERR_CONNECTION_RESET';
    const r = await analyzeInputs([{ name: 'capture.har.ndjson', side: 'client', lines: [e] }, { name: 'server.ndjson', side: 'server', lines: serverSawClose }]);
    const a = r.attempts.find((x) => x.method === 'tools/call')!;
    expect(a.findings.map((f) => f.code)).not.toContain('CANCELLED');
  });
});
