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
