// A request sent without a session on a connection whose initialize named the client is that client's: after its DELETE the SDK client posts on with no session id, and its app's retry in a new session is linked to it.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, ok, post, toolText } from '../helpers/analyze.js';

const A = 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601';
const B = 'b3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f602';
const on = (conn: string, rec: Record<string, unknown>) => ({ ...rec, conn });
const init = (t: number, session: string, name = 'cf-app') =>
  post({
    t, id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1.0.0' } }, status: 200,
    headers: { 'mcp-session-id': session }, body: ok(0, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }),
  });
const refused = post({ t: 200, id: 2, tool: 'lookup_order', args: { orderId: '1002' }, status: 400, body: JSON.stringify({ error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' }, id: null, jsonrpc: '2.0' }) });
const again = post({ t: 500, id: 1, tool: 'lookup_order', args: { orderId: '1002' }, session: B, status: 200, body: ok(1, toolText('order 1002: shipped')) });

async function toolCalls(lines: unknown[]) {
  const r = await analyzeInputs([{ side: 'client', lines }]);
  return r.attempts.filter((a) => a.method === 'tools/call');
}

describe('the client of a session-less request on a named connection', () => {
  it('the 400 to a call sent without a session after DELETE and the call repeated by the same client on a new connection are one call', async () => {
    const [first, retry] = await toolCalls([on('app-1', init(0, A)), on('app-1', refused), on('app-2', init(400, B)), on('app-2', again)]);
    expect(first).toMatchObject({ status: 400, outcome: 'HTTP_ERROR', attempt: 1 });
    expect(retry).toMatchObject({ call: first!.call, attempt: 2 });
  });

  it('another client\'s call on another connection is not linked to it', async () => {
    const [first, other] = await toolCalls([on('app-1', init(0, A)), on('app-1', refused), on('app-2', init(400, B, 'other-app')), on('app-2', again)]);
    expect(other!.call).not.toBe(first!.call);
  });
});
