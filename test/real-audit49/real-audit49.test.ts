// Audit 49's real captures (test/fixtures/real-audit49): nginx re-sending a POST to a second SDK server, judged against the programs' truth files.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit49/';

type Finding = { code: string; severity: string; message: string };
type Row = { id: unknown; method: string; tool: string | null; status: number | null; outcome: string; call?: string; attempt?: number; retryOrigin?: { origin: string; how: string }; findings: Finding[] };
type ServerTruth = { server: string; tool?: string; id?: number; phase?: string; post?: boolean };
type Access = { upstream_addr: string; upstream_status: string; request_body: string };

const lines = <T>(f: string): T[] => readFileSync(`${DIR}${f}`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);
const nginxRuns = readdirSync(DIR).filter((d) => existsSync(`${DIR}${d}/access.json`));

async function gatewayView(run: string): Promise<Row[]> {
  const r = await analyze({ inputs: [{ path: `${DIR}${run}/access.json` }] });
  return (r.attempts as unknown as Row[]).filter((a) => a.tool === 'charge');
}

describe('real-audit49: nginx\'s JSON access log with $upstream_addr/$upstream_status, read on its own', () => {
  for (const run of nginxRuns) {
    it(`${run}: each upstream nginx tried for the charge is an attempt; a re-send is the gateway's, and unsafe when the tool ran twice`, async () => {
      const truth = lines<ServerTruth>(`${run}/truth-server.ndjson`);
      // the truth: which server processes ran the charge, and which upstreams nginx tried for each request
      const ranOn = truth.filter((t) => t.tool === 'charge' && t.phase === 'charged').map((t) => `${t.server}#${t.id}`);
      const lines_ = lines<Access>(`${run}/access.json`).filter((l) => l.request_body.includes('"charge"'));
      const rows = await gatewayView(run);
      const tried = lines_.reduce((n, l) => n + l.upstream_addr.split(', ').length, 0);
      expect(rows).toHaveLength(tried);
      const resent = lines_.filter((l) => l.upstream_addr.includes(', '));
      const byGateway = rows.filter((a) => a.retryOrigin?.origin === 'gateway');
      expect(byGateway).toHaveLength(resent.reduce((n, l) => n + l.upstream_addr.split(', ').length - 1, 0));
      for (const a of byGateway) {
        // one client request: the same JSON-RPC id, one call, the next attempt of it
        const first = rows.find((r) => r.call === a.call && r.attempt === 1)!;
        expect(first.id).toBe(a.id);
        // nginx's log alone cannot tell a refused connect (A down) from a run tool (A crashed or timed out): a warning
        expect(a.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity).toBe('warning');
        // a gateway re-sends to its next upstream at once by design: not the retry policy's to judge (as the SDK's)
        expect(a.findings.map((f) => f.code)).not.toContain('RETRY_POLICY');
      }
      // where the tool ran on two processes for one JSON-RPC id, the gateway's log shows the re-send
      const twice = new Set(ranOn.map((r) => r.split('#')[1])).size < ranOn.length;
      if (twice && !run.includes('rerun')) expect(byGateway.length).toBeGreaterThan(0);
      // the near misses (the app's own retry, a person running the app again, nginx's default that re-sends no POST)
      if (!run.startsWith('ngx-ni')) expect(byGateway).toHaveLength(0);
    });
  }
});

describe('real-audit49: upstream lists nginx-json does not split', () => {
  // ngx-ni-hang-json's charge line, its lists changed as nginx writes them in the cases that are no re-send of it
  const line = readFileSync(`${DIR}ngx-ni-hang-json/access.json`, 'utf8').split('\n').find((l) => l.includes('charge'))!;
  const variants: [string, Record<string, string>][] = [
    ['an internal redirect to another upstream group (" : ")', { upstream_addr: '127.0.0.1:1 : 127.0.0.1:2', upstream_status: '504 : 200' }],
    ['lists of different lengths', { upstream_addr: '127.0.0.1:1, 127.0.0.1:2', upstream_status: '200' }],
  ];
  for (const [what, fields] of variants) {
    it(`${what}: one attempt, no gateway re-send`, async () => {
      const { mkdtempSync, writeFileSync } = await import('node:fs');
      const dir = mkdtempSync('/tmp/real-audit49-');
      writeFileSync(`${dir}/access.json`, JSON.stringify({ ...JSON.parse(line), ...fields }) + '\n');
      const r = await analyze({ inputs: [{ path: `${dir}/access.json` }] });
      const rows = r.attempts as unknown as Row[];
      expect(rows).toHaveLength(1);
      expect(rows[0]!.retryOrigin).toBeUndefined();
    });
  }
});

describe('real-audit49: nginx\'s log joined with both servers\' logs', () => {
  it('ngx-ni-hang-json: each upstream try is joined with the server it reached; the re-send is the gateway\'s and proven unsafe', async () => {
    const truth = lines<ServerTruth>('ngx-ni-hang-json/truth-server.ndjson');
    expect(truth.filter((t) => t.tool === 'charge' && t.phase === 'charged').map((t) => t.server)).toEqual(['A', 'B']);
    const r = await analyze({ inputs: [{ path: `${DIR}ngx-ni-hang-json/access.json`, side: 'client' }, { path: `${DIR}ngx-ni-hang-json/server-A.ndjson`, side: 'server' }, { path: `${DIR}ngx-ni-hang-json/server-B.ndjson`, side: 'server' }] });
    const rows = (r.attempts as unknown as (Row & { serverOutcome?: string })[]).filter((a) => a.tool === 'charge');
    expect(rows.map((a) => [a.attempt, a.serverOutcome, a.retryOrigin?.origin])).toEqual([[1, 'NO_RESPONSE', undefined], [2, 'TOOL_SUCCESS', 'gateway']]);
    expect(rows[1]!.call).toBe(rows[0]!.call);
    expect(rows[1]!.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity).toBe('error');
  });
});
