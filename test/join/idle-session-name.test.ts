// A session the tracker closed while its client thought for minutes keeps what was known of it when it is used again: its client's name (the next call is that client's, not the retry of another client's call alike), when it began (a session that was already going is another process, no reconnect after a failure), and that the logs saw its initialize announce it.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, ok, post, toolText } from '../helpers/analyze.js';

const A = 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f6a1';
const B = 'b3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f6b2';
const C = 'c3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f6c3';
const init = (t: number, session: string, name: string) =>
  post({
    t, id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version: '1.0.0' } }, status: 200,
    headers: { 'mcp-session-id': session }, body: ok(0, { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } }),
  });
const args = { city: 'Oslo', units: 'metric' };
// Each client makes a call, then thinks for fifteen minutes (longer than the tracker keeps an idle session open). A's
// next call gets a 503, and 20 s later B, or A again, sends the same call (a third client's initialize comes first, as
// in a busy log, so that both sessions are let go before they are used again). (Sessions closed while idle and used again
// once lost their clients' names: B's call, of no known client then, was linked as the retry of A's, of none either.)
const early = (t: number, session: string) => post({ t, id: 1, session, tool: 'search_docs', args: { q: session }, status: 200, body: ok(1, toolText('found')) });
const failed = post({ t: 900_000, id: 2, session: A, tool: 'get_weather', args, status: 503, body: 'upstream unavailable', ct: 'text/plain' });
const weather = (session: string) => post({ t: 920_000, id: session === A ? 3 : 2, session, tool: 'get_weather', args, status: 200, body: ok(session === A ? 3 : 2, toolText('Oslo: 4 C')) });
const log = (second: string, names = ['helpdesk-bot', 'sales-assistant']) => [init(0, A, names[0]!), init(100, B, names[1]!), early(6_000, B), early(10_000, A), init(890_000, C, 'nightly-etl'), failed, weather(second)];

async function toolCalls(lines: unknown[]) {
  const r = await analyzeInputs([{ side: 'client', lines }]);
  return r.attempts.filter((a) => a.method === 'tools/call' && a.tool === 'get_weather');
}

describe('the client name of a session used again after a long idle time', () => {
  it('another client\'s identical call 20 s after a failure is a call of its own', async () => {
    const [first, other] = await toolCalls(log(B));
    expect(first).toMatchObject({ outcome: 'HTTP_ERROR', attempt: 1 });
    expect(other).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(other!.call).not.toBe(first!.call);
  });

  it('the same client sending it again in its own session is its retry', async () => {
    const [first, again] = await toolCalls(log(A));
    expect(again).toMatchObject({ outcome: 'TOOL_SUCCESS', call: first!.call, attempt: 2 });
  });

  it('a client of the same name in a session that was already going is another process: its call is its own', async () => {
    const [first, other] = await toolCalls(log(B, ['helpdesk-bot', 'helpdesk-bot']));
    expect(other).toMatchObject({ attempt: 1 });
    expect(other!.call).not.toBe(first!.call);
  });

  it('a client of the same name in a session begun after the failure (a reconnect) sends its retry', async () => {
    const D = 'd3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f6d4';
    const lines = [...log(A, ['helpdesk-bot', 'helpdesk-bot']).slice(0, -1), init(905_000, D, 'helpdesk-bot'), weather(D)];
    const [first, again] = await toolCalls(lines);
    expect(again).toMatchObject({ call: first!.call, attempt: 2 });
  });
});

describe('a session announced by its initialize, closed while idle and used again', () => {
  const S = 'e3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f6e5';
  const expired = (t: number, session: string) => post({ t, id: 1, session, tool: 'get_weather', args, status: 404, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }) });
  const expiredFinding = async (lines: unknown[]) => (await analyzeInputs([{ side: 'client', lines }])).findings.find((f) => f.code === 'SESSION_EXPIRED')!;

  it('is still one the logs saw announced: its SESSION_EXPIRED does not say the id may have come from elsewhere', async () => {
    const f = await expiredFinding([init(0, S, 'helpdesk-bot'), init(890_000, C, 'nightly-etl'), expired(900_000, S)]);
    expect(f.message).toMatch(/HTTP 404 to tools\/call get_weather id 1/);
    expect(f.message).not.toMatch(/no initialize response in these logs announced this session id/);
  });

  it('must not: a session id no initialize response announced still says so', async () => {
    const f = await expiredFinding([init(0, S, 'helpdesk-bot'), init(890_000, C, 'nightly-etl'), expired(900_000, B)]);
    expect(f.message).toMatch(/no initialize response in these logs announced this session id/);
  });
});
