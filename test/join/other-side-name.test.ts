// A session whose initialize only the other side's log shows (a client log that lost that line, or starts mid-session): its client's name comes from the other side's view, so its calls link to the calls of that client, and only of that client.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, ok, post, toolText } from '../helpers/analyze.js';

const A = 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f6a1';
const B = 'b3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f6b2';
const init = (t: number, session: string, name: string) =>
  post({
    t, id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version: '1.0.0' } }, status: 200,
    headers: { 'mcp-session-id': session }, body: ok(0, { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } }),
  });
const args = { city: 'Oslo', units: 'metric' };
const lost = (t: number) => post({ t, id: 1, session: A, tool: 'get_weather', args, status: 404, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }) });
const again = (t: number) => post({ t, id: 1, session: B, tool: 'get_weather', args, status: 200, body: ok(1, toolText('Oslo: 4 C')) });

/** The client's log has A's initialize and both calls, but not B's initialize; the server's log has everything. */
async function run(nameOfB: string) {
  const client = [init(0, A, 'nightly-etl'), lost(1_000), again(1_600)];
  const server = [init(5, A, 'nightly-etl'), lost(1_005), init(1_205, B, nameOfB), again(1_605)].map((r) => ({ ...r, side: 'server' }));
  const r = await analyzeInputs([{ side: 'client', lines: client }, { side: 'server', lines: server }]);
  return r.attempts.filter((a) => a.method === 'tools/call');
}

describe("a session's client name from the other side's view", () => {
  it('the call sent again in the new session of the same client after a 404 is its retry', async () => {
    const [first, retry] = await run('nightly-etl');
    expect(first).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', attempt: 1 });
    expect(retry).toMatchObject({ outcome: 'TOOL_SUCCESS', call: first!.call, attempt: 2 });
  });

  it('the same call from a session the server saw another client open is not', async () => {
    const [first, other] = await run('sales-assistant');
    expect(other).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(other!.call).not.toBe(first!.call);
  });
});
