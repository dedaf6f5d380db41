// Twenty calls alike at once (Promise.all), five refused by a hop's 503, the app retrying those five after the others
// ended (test/fixtures/real-audit32/*-parallel-503): each retry is attempt 2 of a refused call, no sibling is a retry.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze, type AttemptRow } from '../../src/index.js';
import { impossibleLinks, wire } from '../helpers/id-order.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit32/', import.meta.url));
type Side = 'client' | 'server';
const run = async (scenario: string, files: [string, Side?][]) =>
  (await analyze({ inputs: files.map(([f, side]) => ({ path: `${DIR}${scenario}/${f}`, ...(side ? { side } : {}) })), onDiagnostic: () => {} })).attempts;
const syncs = (as: AttemptRow[]) => as.filter((a) => a.tool === 'sync');
const truth = (scenario: string) => readFileSync(`${DIR}${scenario}/truth-client.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { label?: string; ok?: boolean });

describe('calls alike at once, some refused, the app retrying the refused ones (parallel-503)', () => {
  const views: [string, [string, Side?][]][] = [
    ['parallel-503', [['client.ndjson']]],
    ['parallel-503', [['proxy.ndjson', 'client']]],
    ['parallel-503', [['client.ndjson', 'client'], ['server.ndjson', 'server']]],
    ['parallel-503', [['proxy.ndjson', 'client'], ['server.ndjson', 'server']]],
    ['stateless-parallel-503', [['client.ndjson']]],
    ['stateless-parallel-503', [['client.ndjson', 'client'], ['server.ndjson', 'server']]],
    ['ts-py-parallel-503', [['client.ndjson']]],
    ['ts-py-parallel-503', [['client.ndjson', 'client'], ['server.ndjson', 'server']]],
    ['v2-parallel-503', [['client.ndjson']]],
    ['v2-parallel-503', [['client.ndjson', 'client'], ['server.ndjson', 'server']]],
  ];

  it('the truth: 20 calls, 5 refused, 5 app retries that all went well', () => {
    for (const s of ['parallel-503', 'stateless-parallel-503', 'ts-py-parallel-503', 'v2-parallel-503']) {
      const t = truth(s).filter((x) => x.label?.startsWith('sync#'));
      expect(t.filter((x) => !x.label!.includes('retry')).length, s).toBe(20);
      expect(t.filter((x) => x.label!.includes('retry') && x.ok).length, s).toBe(5);
    }
  });

  it('each app retry is attempt 2 of a refused call; the siblings sent at once are calls of their own', async () => {
    for (const [scenario, files] of views) {
      const as = syncs(await run(scenario, files));
      const label = `${scenario} ${files.map((f) => f.join(':')).join(' + ')}`;
      expect(as.length, label).toBe(25);
      const refused = as.filter((a) => a.outcome === 'HTTP_ERROR');
      expect(refused.map((a) => [a.status, a.attempt]), label).toEqual(Array(5).fill([503, 1]));
      const retries = as.filter((a) => a.attempt === 2);
      expect(retries.length, label).toBe(5);
      // each retry follows its own refused call, and after all the siblings: ids above every first attempt's
      expect(new Set(retries.map((a) => a.call)), label).toEqual(new Set(refused.map((a) => a.call)));
      const firstIds = as.filter((a) => a.attempt === 1).map((a) => Number(a.id));
      for (const r of retries) expect(Number(r.id), label).toBeGreaterThan(Math.max(...firstIds));
      expect(retries.every((a) => a.outcome === 'TOOL_SUCCESS'), label).toBe(true);
      expect(new Set(as.map((a) => a.call)).size, label).toBe(20);
      // sync is read-only and the 503 came before the server: no unsafe retry
      expect(as.flatMap((a) => a.findings.map((f) => f.code)), label).not.toContain('UNSAFE_RETRY');
    }
  });

  it("must not: the server's view alone (no 503 in it) shows 20 calls, none a retry", async () => {
    for (const s of ['parallel-503', 'stateless-parallel-503', 'v2-parallel-503']) {
      const as = syncs(await run(s, [['server.ndjson', 'server']]));
      expect(as.map((a) => a.attempt), s).toEqual(Array(20).fill(1));
    }
  });

  it('must not: the lookups at once, five of them isError, are 20 calls of their own', async () => {
    const as = (await run('parallel-503', [['client.ndjson']])).filter((a) => a.tool === 'lookup');
    expect(as.map((a) => a.attempt)).toEqual(Array(20).fill(1));
    expect(as.filter((a) => a.outcome === 'TOOL_ERROR').length).toBe(5);
  });

  it('the Python client on loopback sends a gather() of 20 one by one, in id order, some after the first 503s ended: by the wire (and its ids) those are retries', async () => {
    // asyncio.gather's POSTs reach the wire ~3 ms apart; the hop's 503s came back within ~6 ms, so requests of the same
    // burst began after a refusal ended. The session's id order (test/real-audit33) cannot tell them from retries here:
    // the burst reached the proxy in id order, and no request with a higher id had been sent before any refusal came
    // (the app learnt of its first refusal at .208, after id 7 reached the proxy at .205: the log cannot show that).
    // The app's own retries, 300 ms later, are then calls of their own. Over a real network, where a 503 takes longer
    // than the burst takes to send, the burst is in flight together, as in the runs above.
    const path = `${DIR}py-parallel-503/proxy.ndjson`;
    const w = wire(path, 'sync');
    const ids = [...w].sort((x, y) => x[1].start - y[1].start || x[0] - y[0]).map(([id]) => id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    const firstRefusal = Math.min(...[...w.values()].flatMap((x) => (x.refusedAt === undefined ? [] : [x.refusedAt])));
    const sentBefore = [...w].filter(([, x]) => x.start < firstRefusal).map(([id]) => id);
    const as = syncs(await run('py-parallel-503', [['proxy.ndjson', 'client'], ['server.ndjson', 'server']]));
    expect(as.length).toBe(25);
    // Every link is one the ids allow: a higher id, and none above it sent before the refusal it follows.
    expect(impossibleLinks(as, w)).toEqual([]);
    const linked = as.filter((a) => a.attempt > 1).map((a) => Number(a.id));
    expect(linked.length).toBeGreaterThan(0);
    for (const id of linked) expect(id).toBeGreaterThan(Math.max(...sentBefore));
    expect(as.filter((a) => a.outcome === 'HTTP_ERROR' && a.attempt === 1).length).toBeGreaterThanOrEqual(3);
    expect(new Set(as.map((a) => a.call)).size).toBeLessThan(25);
  });
});

describe('a burst of calls alike rate-limited (429 with Retry-After: 1), the app retrying the refused ones (burst-429-*)', () => {
  it("after 1.1 s, as asked: each retry is attempt 2 of a refused call, no RETRY_AFTER_IGNORED; at once: each says it was ignored", async () => {
    for (const [s, ignored] of [['burst-429-honoured', false], ['burst-429-ignored', true]] as const) {
      for (const files of [[['client.ndjson']], [['client.ndjson', 'client'], ['server.ndjson', 'server']]] as [string, Side?][][]) {
        const as = syncs(await run(s, files));
        const refused = as.filter((a) => a.outcome === 'HTTP_ERROR');
        expect(refused.map((a) => [a.status, a.attempt]), s).toEqual(Array(8).fill([429, 1]));
        const retries = as.filter((a) => a.attempt === 2);
        expect(new Set(retries.map((a) => a.call)), s).toEqual(new Set(refused.map((a) => a.call)));
        expect(new Set(as.map((a) => a.call)).size, s).toBe(20);
        expect(retries.map((a) => a.findings.some((f) => f.code === 'RETRY_AFTER_IGNORED')), s).toEqual(Array(8).fill(ignored));
      }
    }
  });

  it("the recording proxy in front of the server saw the burst's POSTs arrive one by one, in id order, each after the last one's 429 ended: a chain of retries by the wire and by the ids", async () => {
    // The client sent the twenty within 2 ms (its own log); undici opened a connection for each, and the proxy read
    // them 3 to 12 ms apart, in id order, each after the 429 before it had gone back. By the proxy's clock they are
    // retries, each "ignoring" Retry-After, and the ids do not say otherwise (no higher id came before a refusal); the
    // app's own retries 1.1 s later are then calls of their own.
    const path = `${DIR}burst-429-honoured/proxy.ndjson`;
    const w = wire(path, 'sync');
    const order = [...w].sort((x, y) => x[1].start - y[1].start).map(([id]) => id);
    expect(order).toEqual([...order].sort((x, y) => x - y));
    const as = syncs(await run('burst-429-honoured', [['proxy.ndjson']]));
    expect(impossibleLinks(as, w)).toEqual([]);
    expect(Math.max(...as.map((a) => a.attempt))).toBeGreaterThan(2);
  });
});
