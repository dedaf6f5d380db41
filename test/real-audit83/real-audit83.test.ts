// Audit 83's real captures (test/fixtures/real-audit83): a stateless server's client, proxy and server logs, the proxy's given plain.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
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

  it('the proxy\'s capture given plain beside all three: its calls are counted a second time, and a note says so and how to avoid it', async () => {
    for (const order of [['mcp-client.ndjson', 'mcp-proxy.ndjson', 'mcp-server.ndjson'], ['mcp-server.ndjson', 'mcp-proxy.ndjson', 'mcp-client.ndjson']]) {
      const r = await run(order.map((n) => ({ path: f('stateless', n) })));
      expect([r.attempts, r.calls]).toEqual([2 * requests, 2 * requests]);
      const names = order[0] === 'mcp-client.ndjson' ? 'mcp-client.ndjson (client) and mcp-server.ndjson (server)' : 'mcp-server.ndjson (server) and mcp-client.ndjson (client)';
      expect(r.said.map(bare)).toContain(`mcp-triage: ${thirdView(names)}`);
      expect(r.notes.map(bare)).toContain(thirdView(names));
    }
  });

  it('must not: beside a sided log of other calls (a run seconds later, whose requests have the same ids, methods and arguments), no such note', async () => {
    const r = await run([{ path: f('stateless', 'mcp-client.ndjson') }, { path: f('stateless-later', 'mcp-proxy.ndjson') }, { path: f('stateless', 'mcp-server.ndjson') }]);
    expect(r.attempts).toBe(2 * requests);
    expect(r.said.some((m) => m.includes('counted a second time'))).toBe(false);
  });

  for (const [name, plain, sided, assumed] of [
    ['beside the client\'s log alone: the server\'s view', 'mcp-proxy.ndjson', 'mcp-client.ndjson', 'server'],
    ['beside the server\'s log alone: the client\'s view', 'mcp-proxy.ndjson', 'mcp-server.ndjson', 'client'],
  ] as const) {
    it(`the proxy's capture given plain ${name}, as its records state no side and the other log's state one: joined, counted once, said`, async () => {
      const r = await run([{ path: f('stateless', sided) }, { path: f('stateless', plain) }]);
      expect([r.attempts, r.calls]).toEqual([requests, requests]);
      const other = assumed === 'server' ? 'client' : 'server';
      const note = `${plain}: given without a side, and its records state none, next to logs whose records state the ${other}'s side only (as recordingFetch's and recordingHandler's do, and logs that one side only writes: a Python SDK DEBUG log, a client's debug log, a server's console, a server's HTTP logger of request paths): read as the ${assumed}'s view, to be joined to theirs (give it with --${assumed} to say so)`;
      expect(r.notes.map(bare)).toEqual([note]);
      expect(r.said.map(bare)).toEqual([`mcp-triage: ${note}`]);
    });
  }

  // (a text log whose lines give no record, as 'deploy started', no longer keeps the rule off: test/real-audit89)
  it('must not: an input whose side its first records do not tell (bare JSON-RPC with no direction) leaves the proxy\'s capture apart, as before', async () => {
    const text = `${process.env.TMPDIR ?? '/tmp'}/audit83-notes-${process.pid}.log`;
    writeFileSync(text, `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'deploy started' } })}\n`);
    try {
      const r = await run([{ path: f('stateless', 'mcp-client.ndjson') }, { path: f('stateless', 'mcp-proxy.ndjson') }, { path: text }]);
      expect([r.attempts, r.calls]).toEqual([2 * requests, 2 * requests]);
      expect(r.notes.map(bare)).toContain(thirdView('mcp-client.ndjson (client)'));
    } finally {
      rmSync(text, { force: true });
    }
  });

  it('must not: the proxy given as the server side joins the client\'s calls, counted once, with no note', async () => {
    const r = await run([{ path: f('stateless', 'mcp-client.ndjson'), side: 'client' }, { path: f('stateless', 'mcp-proxy.ndjson'), side: 'server' }]);
    expect([r.attempts, r.calls]).toEqual([requests, requests]);
    expect(r.notes).toEqual([]);
  });
});
