// SESSION_EXPIRED is not raised for a 404 whose body refuses the MCP-Protocol-Version (@hono/mcp 0.3's answer to an unsupported version).
import { describe, expect, it } from 'vitest';
import { analyzeInputs, ok, post, toolText } from '../helpers/analyze.js';

const S = 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601';
const refusal = (message: string) => JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });

async function expired(message: string): Promise<string[]> {
  const r = await analyzeInputs([{ side: 'client', lines: [
    post({ t: 0, id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'agent', version: '1' } }, status: 200, headers: { 'mcp-session-id': S }, body: ok(0, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }) }),
    post({ t: 100, id: 1, tool: 'send_invoice', session: S, status: 404, body: refusal(message) }),
    post({ t: 500, id: 2, tool: 'send_invoice', session: S, status: 200, body: ok(2, toolText('sent')) }),
  ] }]);
  return r.findings.filter((f) => f.code === 'SESSION_EXPIRED').map((f) => f.message);
}

describe('HTTP 404 that refuses the protocol version', () => {
  it('is no lost session: Hono says "Bad Request: Unsupported protocol version" with 404, and the session goes on', async () => {
    expect(await expired('Bad Request: Unsupported protocol version (supported versions: 2025-11-25, 2025-06-18)')).toEqual([]);
  });

  it('a 404 "Session not found" still is', async () => {
    expect(await expired('Session not found')).toEqual([expect.stringMatching(/HTTP 404 to tools\/call send_invoice id 1 that carried the session id/)]);
  });
});
