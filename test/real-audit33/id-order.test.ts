// Calls alike at once read out of order by a recording proxy (test/fixtures/real-audit33): a request its client had made
// before a refusal came (its session's ids say so) is no retry of that refusal; a retry made after it still is.
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { impossibleLinks, wire } from '../helpers/id-order.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit33/', import.meta.url));
const lines = (p: string) => readFileSync(p, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
const syncs = async (path: string, side?: 'client' | 'server') =>
  (await analyze({ inputs: [{ path, ...(side ? { side } : {}) }], onDiagnostic: () => {} })).attempts.filter((a) => a.tool === 'sync');

/**
 * The runs, and the id each SDK gives the first of the 20 calls: the TypeScript SDK numbers them 2..21 in call order
 * (initialize 0, tools/list 1), the Python SDK 3..22 (initialize 1, tools/list 2).
 */
const RUNS = [['later-503', 2], ['atonce-503', 2], ['py-later-503', 3]] as const;
const FIRST = new Map<string, number>(RUNS);

function truth(scenario: string) {
  const t = lines(`${DIR}${scenario}/truth-client.ndjson`) as { label: string; ok: boolean }[];
  const refused = t.filter((x) => !x.label.includes('retry') && !x.ok).map((x) => Number(x.label.slice(5)) + FIRST.get(scenario)!);
  return { refused, retries: t.filter((x) => x.label.includes('retry')), firsts: t.filter((x) => !x.label.includes('retry')) };
}

describe('a burst read out of order by a recording proxy behind a jittery path, five refused (real-audit33)', () => {
  for (const [s, first] of RUNS) {
    it(`${s}: the truth, and the client's own numbering: the 20 ids in call order, the retries above`, () => {
      const t = truth(s);
      expect(t.firsts.length).toBe(20);
      expect(t.refused.length).toBe(5);
      expect(t.retries.length).toBe(5);
      expect(t.retries.every((r) => r.ok)).toBe(true);
      const sent = lines(`${DIR}${s}/client.ndjson`).filter((r) => r.kind === 'request' && r.send?.params?.name === 'sync').map((r) => r.send.id as number);
      expect(sent.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, i) => i + first));
      expect(sent.slice(20).every((id) => id >= first + 20)).toBe(true);
      // The proxy read them out of order: the premise of the test below.
      const order = [...wire(`${DIR}${s}/proxy.ndjson`, 'sync')].sort((x, y) => x[1].start - y[1].start).map(([id]) => id);
      expect(order.slice(0, 20)).not.toEqual([...order.slice(0, 20)].sort((x, y) => x - y));
    });

    it(`${s}: the proxy's view links no request to a refusal its client could not have seen when it made it`, async () => {
      const path = `${DIR}${s}/proxy.ndjson`;
      const as = await syncs(path);
      expect(as.length).toBe(25);
      expect(impossibleLinks(as, wire(path, 'sync'))).toEqual([]);
      // The refused ones are the truth's, each attempt 1 of a call or a retry the ids cannot rule out.
      expect(new Set(as.filter((a) => a.outcome === 'HTTP_ERROR').map((a) => Number(a.id)))).toEqual(new Set(truth(s).refused));
    });

    if (s.startsWith('py-')) continue; // the Python client's own view: see real-audit32's py-parallel-503, the same limit
    it(`${s}: the client's own view (all 20 sent at once) links each app retry to a refused call, as before`, async () => {
      const as = await syncs(`${DIR}${s}/client.ndjson`);
      const retries = as.filter((a) => a.attempt > 1);
      expect(retries.map((a) => a.attempt)).toEqual(Array(5).fill(2));
      expect(retries.every((a) => Number(a.id) > 21)).toBe(true);
      const refusedCalls = new Set(as.filter((a) => a.outcome === 'HTTP_ERROR').map((a) => a.call));
      expect(new Set(retries.map((a) => a.call))).toEqual(refusedCalls);
      expect(new Set(as.map((a) => a.call)).size).toBe(20);
    });
  }

  it("atonce-503: retries made the moment a refusal came, with higher ids, stay retries in the proxy's view", async () => {
    // Each refused call's task retried at once: ids 22..26. Where the proxy had them, above every id it had read
    // before the refusal, nothing rules them out; the others found their refusals taken by siblings the ids could not
    // rule out (a higher id that reached the proxy after the refusal may be a retry; the log cannot tell).
    const as = await syncs(`${DIR}atonce-503/proxy.ndjson`);
    const linked = as.filter((a) => a.attempt > 1 && Number(a.id) > 21);
    expect(linked.length).toBeGreaterThanOrEqual(2);
    for (const a of linked) expect(a.retryOrigin?.origin).toBe('unknown');
  });

  it('must not: with string ids (the same log, its ids made strings) no order is read and the links are as by time alone', async () => {
    const path = `${DIR}later-503/proxy.ndjson`;
    const text = readFileSync(path, 'utf8').replace(/"id":(\d+)/g, '"id":"r-$1"').replace(/\\"id\\":(\d+)/g, '\\"id\\":\\"r-$1\\"');
    const as = (await analyze({ inputs: [{ path: '-' }], stdin: Readable.from([text]), onDiagnostic: () => {} })).attempts.filter((a) => a.tool === 'sync');
    expect(as.length).toBe(25);
    // By time alone, a request that reached the proxy after a refusal ended is its retry, whatever its number.
    const lower = as.filter((a) => a.attempt > 1).filter((a) => {
      const prev = as.find((p) => p.call === a.call && p.attempt === a.attempt - 1)!;
      return Number(String(a.id).slice(2)) < Number(String(prev.id).slice(2));
    });
    expect(lower.length).toBeGreaterThan(0);
  });
  it('must not: a second counter in the session (the retries renumbered from 2, as a new client taking the session over would) reads no order', async () => {
    // The same log with the five retries' ids 22..26 made 2..6: ids seen twice, so the session's ids say nothing from
    // then on and the links are by time alone. The first retry (22, now 2) follows the refusal of id 16 as it did: by
    // the ids alone it would have been "made before" that refusal (2 < 16).
    const path = `${DIR}atonce-503/proxy.ndjson`;
    const text = readFileSync(path, 'utf8').replace(/("id":|\\"id\\":)(2[2-6])\b/g, (_m, k: string, n: string) => `${k}${Number(n) - 20}`);
    expect(text).not.toBe(readFileSync(path, 'utf8'));
    const before = (await syncs(path)).find((a) => Number(a.id) === 22)!;
    const was = (await syncs(path)).find((a) => a.call === before.call && a.attempt === before.attempt - 1)!;
    expect([Number(was.id), before.attempt]).toEqual([16, 2]);
    const as = (await analyze({ inputs: [{ path: '-' }], stdin: Readable.from([text]), onDiagnostic: () => {} })).attempts.filter((a) => a.tool === 'sync');
    expect(as.length).toBe(25);
    const again = as.filter((a) => Number(a.id) === 2 && a.attempt === 2);
    expect(again.length).toBe(1);
    expect(again[0]!.findings.map((f) => f.code)).toContain('ID_REUSED');
    expect(Number(as.find((a) => a.call === again[0]!.call && a.attempt === 1)!.id)).toBe(16);
  });
});
