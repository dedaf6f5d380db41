// SESSION_EXPIRED tells a re-initialize that worked from one that failed, and counts only the session's own client's.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, ok, post, toolText } from '../helpers/analyze.js';

const A = 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601';
const B = 'b3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f602';
const init = (t: number, name: string, status: number, session?: string) =>
  post({
    t, id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1.0.0' } }, status,
    ...(session ? { headers: { 'mcp-session-id': session } } : {}),
    body: status === 200 ? ok(0, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }) : JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: Server already initialized' }, id: null }),
  });
const lost = (t: number) => post({ t, id: 1, tool: 'lookup_order', session: A, status: 404, body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }) });

async function expired(lines: unknown[]): Promise<string[]> {
  const r = await analyzeInputs([{ side: 'client', lines }]);
  return r.findings.filter((f) => f.code === 'SESSION_EXPIRED').map((f) => f.message);
}

describe('SESSION_EXPIRED and the re-initialize after it', () => {
  it('a re-initialize refused with 400 (@hono/mcp, one session per process) is no re-initialize: "tried to re-initialize, but its initialize failed"', async () => {
    expect(await expired([init(0, 'agent-alpha', 200, A), lost(100), init(200, 'agent-alpha', 400)])).toEqual([expect.stringMatching(/the client tried to re-initialize, but its initialize failed$/)]);
  });

  it('another client\'s initialize after the 404 is not this client re-initializing', async () => {
    expect(await expired([init(0, 'agent-alpha', 200, A), lost(100), init(200, 'agent-beta', 200, B)])).toEqual([expect.stringMatching(/the client did not re-initialize$/)]);
  });

  it('its own re-initialize that worked still is one', async () => {
    expect(await expired([init(0, 'agent-alpha', 200, A), lost(100), init(200, 'agent-alpha', 200, B)])).toEqual([expect.stringMatching(/the client re-initialized but did not retry the call$/)]);
  });
});
