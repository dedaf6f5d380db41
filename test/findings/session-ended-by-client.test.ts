// SESSION_EXPIRED after the client's own DELETE says so: the server did not lose the session, the request reused a terminated id (McpAgent's 404 after DELETE).
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at, ok, post } from '../helpers/analyze.js';

const A = 'f9512d430e6a9181743c7671f9d5c31eefd612d08931dc2080580aa7631833e7';
const init = post({
  t: 0, id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cf-app', version: '1.0.0' } }, status: 200,
  headers: { 'mcp-session-id': A }, body: ok(0, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }),
});
const del = (status: number) => ({ v: 1, kind: 'exchange', ts: at(100), method: 'DELETE', requestHeaders: { 'mcp-session-id': A }, status, responseHeaders: {} });
const lost = post({ t: 200, id: 50, tool: 'lookup_order', session: A, status: 404, body: JSON.stringify({ error: { code: -32001, message: 'Session not found' }, id: null, jsonrpc: '2.0' }) });

async function expired(lines: unknown[]): Promise<string[]> {
  const r = await analyzeInputs([{ side: 'client', lines }]);
  return r.findings.filter((f) => f.code === 'SESSION_EXPIRED').map((f) => f.message);
}

describe('SESSION_EXPIRED after the client ended the session itself', () => {
  it('a 404 after an accepted DELETE of the same session names the DELETE: the session was terminated, not lost', async () => {
    const [m] = await expired([init, del(200), lost]);
    expect(m).toMatch(/after the client had ended this session itself \(its DELETE at .*:2 was accepted\): the request reused a terminated session id, the server did not lose the session/);
  });

  it('a DELETE the server refused does not count, nor does a 404 without any DELETE', async () => {
    expect(await expired([init, del(405), lost])).toEqual([expect.not.stringMatching(/ended this session itself/)]);
    expect(await expired([init, lost])).toEqual([expect.not.stringMatching(/ended this session itself/)]);
  });
});
