// The sixteenth audit's real captures (test/fixtures/real-audit16/): what an outside judge found wrong on plain apps.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit16/', import.meta.url));
const tmp = (name: string, lines: string[]) => {
  const path = join(mkdtempSync(join(tmpdir(), 'audit16-')), name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};

describe('two Python SDK Clients (mode="auto") that start together against an older server (py-auto-two-clients)', () => {
  // Both probe server/discover, both get 400, both fall back to initialize (app-truth.json: both on 2025-11-25).
  const proxy = `${DIR}py-auto-two-clients/proxy.ndjson`;
  const server = `${DIR}py-auto-two-clients/server.ndjson`;

  it('each refused probe is the version fallback of its client, not a failure', async () => {
    const truth = JSON.parse(readFileSync(`${DIR}py-auto-two-clients/app-truth.json`, 'utf8')) as { protocol: string }[];
    expect(truth.map((t) => t.protocol)).toEqual(['2025-11-25', '2025-11-25']);
    for (const inputs of [[{ path: proxy }], [{ path: proxy, side: 'client' as const }, { path: server, side: 'server' as const }]]) {
      const r = await analyze({ inputs });
      const probes = r.attempts.filter((a) => a.method === 'server/discover');
      expect(probes.map((a) => [a.status, a.outcome])).toEqual([[400, 'HTTP_ERROR'], [400, 'HTTP_ERROR']]);
      expect(probes.every((a) => a.versionFallback === true)).toBe(true);
      expect(r.findings).toEqual([]);
    }
  });

  it('must not: a probe whose client never fell back (its initialize not in the log) stays a failure', async () => {
    const lines = readFileSync(proxy, 'utf8').trimEnd().split('\n');
    // The second initialize's exchange (every record of its xid) taken out.
    const xid = lines.map((l) => JSON.parse(l) as { kind: string; xid: string; send?: { method?: string } }).filter((r) => r.kind === 'request' && r.send?.method === 'initialize')[1]!.xid;
    const r = await analyze({ inputs: [{ path: tmp('proxy.ndjson', lines.filter((l) => (JSON.parse(l) as { xid?: string }).xid !== xid)) }] });
    const probes = r.attempts.filter((a) => a.method === 'server/discover');
    expect(probes.map((a) => a.versionFallback === true)).toEqual([true, false]);
  });
});

describe('a plain app: two SDK 1.32.2 clients, a fault proxy, the server; four captures of the same traffic (app)', () => {
  const f = (name: string) => `${DIR}app/${name}`;
  // ground-truth.json: 14 attempts in 12 calls, 2 retries.
  const truth = JSON.parse(readFileSync(f('ground-truth.json'), 'utf8')) as { expected_totals: { attempts: number; logical_calls: number; retries: number } };

  it('the client and server logs joined give the truth\'s counts', async () => {
    const r = await analyze({ inputs: [{ path: f('client.ndjson'), side: 'client' }, { path: f('server.ndjson'), side: 'server' }] });
    expect([r.summary.attempts, r.summary.calls, r.summary.retries]).toEqual([truth.expected_totals.attempts, truth.expected_totals.logical_calls, truth.expected_totals.retries]);
  });

  it("the proxy's capture given plain beside both: its calls are counted again, and a notice says so and how to avoid it", async () => {
    for (const sides of [true, false]) {
      const said: string[] = [];
      const r = await analyze({
        inputs: [{ path: f('client.ndjson'), ...(sides ? { side: 'client' as const } : {}) }, { path: f('server.ndjson'), ...(sides ? { side: 'server' as const } : {}) }, { path: f('proxy.ndjson') }],
        onDiagnostic: (m) => said.push(m),
      });
      expect(r.summary.attempts).toBe(2 * truth.expected_totals.attempts);
      const note = 'proxy.ndjson carries the same sessions as client.ndjson (client) and server.ndjson (server) but says no side, so its calls are analyzed apart and counted a second time (a third view of the same traffic, such as a recording proxy\'s between them): give it with --client or --server in place of that side\'s log, or leave it out';
      expect(said.map((m) => m.replace(/[^ ]*\/app\//g, ''))).toContain(`mcp-triage: ${note}`);
      expect(r.summary.notes.map((n) => n.replace(/[^ ]*\/app\//g, ''))).toContain(note);
    }
  });

  it('must not: given as the client side in place of the client log, the proxy capture joins the server\'s with no such notice', async () => {
    const said: string[] = [];
    const r = await analyze({ inputs: [{ path: f('proxy.ndjson'), side: 'client' }, { path: f('server.ndjson'), side: 'server' }], onDiagnostic: (m) => said.push(m) });
    expect(r.summary.attempts).toBe(truth.expected_totals.attempts);
    expect(said.some((m) => m.includes('counted a second time'))).toBe(false);
    // Nor two plain inputs (their own notice, unchanged).
    const plain: string[] = [];
    await analyze({ inputs: [{ path: f('proxy.ndjson') }, { path: f('capture.har.ndjson') }], onDiagnostic: (m) => plain.push(m) });
    expect(plain.some((m) => m.includes('counted a second time'))).toBe(false);
    expect(plain.some((m) => m.includes('carry the same sessions without saying which side wrote them'))).toBe(true);
  });

  it("a hop that cut both connections after the server's 200 head: SIDE_DIVERGENCE says the connection broke, not that a status was changed", async () => {
    const r = await analyze({ inputs: [{ path: f('client.ndjson'), side: 'client' }, { path: f('server.ndjson'), side: 'server' }] });
    const cut = r.attempts.find((a) => a.tool === 'slow_report' && a.outcome === 'NO_RESPONSE')!;
    expect([cut.id, cut.serverOutcome, cut.serverStatus]).toEqual([5, 'STREAM_INCOMPLETE', 200]);
    const m = cut.findings.find((x) => x.code === 'SIDE_DIVERGENCE')!.message;
    expect(m).toBe("tools/call slow_report id 5: client saw no response NO_RESPONSE, server sent HTTP 200 STREAM_INCOMPLETE: the client never got the HTTP 200 head the server sent: the connection broke between them (a hop or the network cut it), and the server's stream was aborted too");
    // Must not: no other divergence of this capture is worded as a changed status.
    expect(r.findings.filter((x) => x.code === 'SIDE_DIVERGENCE' && /changed the HTTP status/.test(x.message))).toEqual([]);
  });
});
