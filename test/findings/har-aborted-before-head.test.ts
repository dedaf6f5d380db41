// A HAR entry with no response and net::ERR_ABORTED (the page aborted the request before any head): on 2026-07-28 the client's cancellation, as the other views of it say (the thirteenth audit's py-mdb).
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

/** One HAR line, Chrome-style: a tools/call POST with no response (status 0) and the given _error. */
function entry(version: string, error: string) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'count', arguments: { collection: 'orders' } } });
  return {
    startedDateTime: at(0), time: 503,
    request: { method: 'POST', url: 'http://127.0.0.1:3000/mcp', httpVersion: 'HTTP/1.1', cookies: [], queryString: [], headersSize: -1, bodySize: body.length,
      headers: [{ name: 'content-type', value: 'application/json' }, { name: 'mcp-protocol-version', value: version }], postData: { mimeType: 'application/json', text: body } },
    response: { status: 0, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: 0, mimeType: '' }, redirectURL: '', headersSize: -1, bodySize: -1, _error: error },
    cache: {}, timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 503, receive: 0 },
  };
}
const read = async (version: string, error: string) => (await analyzeInputs([{ name: 'capture.har.ndjson', lines: [entry(version, error)] }])).attempts.find((a) => a.method === 'tools/call')!;

describe('a HAR request aborted before any response head', () => {
  it('on 2026-07-28, net::ERR_ABORTED is the client closing the request: its cancellation, in the why and as CANCELLED (before: the why "net::ERR_ABORTED" alone, no finding)', async () => {
    const a = await read('2026-07-28', 'net::ERR_ABORTED');
    expect(a.outcome).toBe('NO_RESPONSE');
    expect(a.detail.why).toBe('the client closed the request 0.50 s after sending it, before any response head came (on 2026-07-28 that is the cancellation): net::ERR_ABORTED');
    expect(a.findings.map((f) => f.code)).toEqual(['CANCELLED']);
    expect(a.findings[0]!.message).toBe('tools/call count id 6: the client closed the response after 0.50 s before the result (on 2026-07-28 closing the stream is the cancellation; often after its local timeout)');
  });

  it('must not: a network failure before any head (net::ERR_CONNECTION_RESET) is no close by the client', async () => {
    const a = await read('2026-07-28', 'net::ERR_CONNECTION_RESET');
    expect(a.detail.why).toBe('net::ERR_CONNECTION_RESET');
    expect(a.findings.map((f) => f.code)).not.toContain('CANCELLED');
  });

  it('must not: before 2026-07-28 closing the request is no cancellation (the client would send notifications/cancelled)', async () => {
    const a = await read('2025-11-25', 'net::ERR_ABORTED');
    expect(a.detail.why).toBe('net::ERR_ABORTED');
    expect(a.findings.map((f) => f.code)).not.toContain('CANCELLED');
  });
});
