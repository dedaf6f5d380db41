// Audit 83's real captures (test/fixtures/real-audit83): a stateless server's client, proxy and server logs, the proxy's given plain.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit83/';
const f = (run: string, name: string) => `${DIR}${run}/${name}`;
type Input = { path: string; side?: 'client' | 'server' };

async function run(inputs: Input[]): Promise<{ attempts: number; calls: number; said: string[]; notes: string[] }> {
  const said: string[] = [];
  const r = await analyze({ inputs, onDiagnostic: (m) => said.push(m) });
  return { attempts: r.summary.attempts, calls: r.summary.calls, said, notes: r.summary.notes };
}

const thirdView = (names: string) =>
  `mcp-proxy.ndjson shows the same requests as ${names} (the same JSON-RPC ids, methods and arguments, within a second; no session id to tell them by) but says no side, so its calls are analyzed apart and counted a second time (a third view of the same traffic, such as a recording proxy's between them): give it with --client or --server in place of that side's log, or leave it out`;
const bare = (s: string) => s.replace(/[^ ]*\/stateless(-later)?\//g, '');

describe('real-audit83 stateless: the client, the recording proxy and the server logged the same calls, with no session id', () => {
  const observed = JSON.parse(readFileSync(f('stateless', 'observed.json'), 'utf8')) as { steps: { step: string }[] };
  // initialize and the three tools/calls the app made (notifications/initialized is no attempt)
  const requests = 1 + observed.steps.length;

  it('the logs have no session id (a stateless server)', () => {
    for (const name of ['mcp-client.ndjson', 'mcp-proxy.ndjson', 'mcp-server.ndjson']) {
      const records = readFileSync(f('stateless', name), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { session: string | null });
      expect(records.every((r) => r.session === null)).toBe(true);
    }
  });

  for (const [name, inputs, names] of [
    ['beside the client\'s log', [{ path: f('stateless', 'mcp-client.ndjson') }, { path: f('stateless', 'mcp-proxy.ndjson') }], 'mcp-client.ndjson (client)'],
    ['beside both sides\' logs', [{ path: f('stateless', 'mcp-client.ndjson') }, { path: f('stateless', 'mcp-proxy.ndjson') }, { path: f('stateless', 'mcp-server.ndjson') }], 'mcp-client.ndjson (client) and mcp-server.ndjson (server)'],
    ['beside the server\'s log', [{ path: f('stateless', 'mcp-proxy.ndjson') }, { path: f('stateless', 'mcp-server.ndjson') }], 'mcp-server.ndjson (server)'],
  ] as const) {
    it(`the proxy's capture given plain ${name}: its calls are counted a second time, and a note says so and how to avoid it`, async () => {
      const r = await run([...inputs]);
      expect([r.attempts, r.calls]).toEqual([2 * requests, 2 * requests]);
      expect(r.said.map(bare)).toContain(`mcp-triage: ${thirdView(names)}`);
      expect(r.notes.map(bare)).toContain(thirdView(names));
    });
  }

  it('must not: the proxy given as the server side joins the client\'s calls, counted once, with no such note', async () => {
    const r = await run([{ path: f('stateless', 'mcp-client.ndjson'), side: 'client' }, { path: f('stateless', 'mcp-proxy.ndjson'), side: 'server' }]);
    expect([r.attempts, r.calls]).toEqual([requests, requests]);
    expect(r.said.some((m) => m.includes('counted a second time'))).toBe(false);
  });

  it('must not: a proxy capture of another run (the same ids, methods and arguments, seconds later) is no third view', async () => {
    const r = await run([{ path: f('stateless', 'mcp-client.ndjson') }, { path: f('stateless-later', 'mcp-proxy.ndjson') }]);
    expect(r.attempts).toBe(2 * requests);
    expect(r.said.some((m) => m.includes('counted a second time'))).toBe(false);
  });
});
