// CALL_NEVER_SENT for a named client whose initialize failed while another named client of the same log went on calling tools.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, ok, post, toolText } from '../helpers/analyze.js';

const S = 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601';
const init = (t: number, name: string, status: number, session?: string) =>
  post({
    t, id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1.0.0' } }, status,
    ...(session ? { headers: { 'mcp-session-id': session } } : {}),
    body: status === 200 ? ok(0, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }) : JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: Server already initialized' }, id: null }),
  });

describe('CALL_NEVER_SENT with two named clients in one log', () => {
  it('a second client refused at initialize (one session per server process) never called a tool, though the first one did after', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: [
      init(0, 'agent-alpha', 200, S),
      post({ t: 100, id: 1, tool: 'lookup_order', session: S, status: 200, body: ok(1, toolText('shipped')) }),
      init(200, 'agent-beta', 400),
      post({ t: 300, id: 2, tool: 'lookup_order', session: S, status: 200, body: ok(2, toolText('shipped')) }),
    ] }]);
    expect(r.findings.filter((f) => f.code === 'CALL_NEVER_SENT').map((f) => f.message)).toEqual([expect.stringMatching(/initialize failed \(HTTP_ERROR, HTTP 400\) and no tools\/call was sent afterwards/)]);
  });

  it('the same client (same name) calling after its failed initialize is no CALL_NEVER_SENT', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: [
      init(0, 'agent-alpha', 400),
      init(200, 'agent-alpha', 200, S),
      post({ t: 300, id: 1, tool: 'lookup_order', session: S, status: 200, body: ok(1, toolText('shipped')) }),
    ] }]);
    expect(r.findings.map((f) => f.code)).not.toContain('CALL_NEVER_SENT');
  });
});
