// Audit 99: audit 97's known gaps in the findings, on its recordings (test/fixtures/real-audit97) and one new (test/fixtures/real-audit99): one finding for one early retry, no orphan for a wrong id the client took, and why a stateless server's elicitation fails.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

const A97 = `${ROOT}test/fixtures/real-audit97/`;
const A99 = `${ROOT}test/fixtures/real-audit99/`;
const runs = (dir: string) => readdirSync(dir).filter((d) => /^s\d+-/.test(d)).sort();

interface Cell { client: string; server: string; era: string; fault: string; tool: string; policy: string }
interface AppStep { call?: string; attempt?: number; ok?: { isError: boolean; text?: string }; error?: { name: string; message: string } }
interface HopEntry { request: string; id?: number | string; action: string }
interface Observed { cell: Cell; plan: { label: string; tool: string; delays: number[] }[]; app: AppStep[]; serverRan: string[]; hop: HopEntry[] }
interface Finding { code: string; message: string }
interface Attempt { id: number | string; method: string; tool: string | null; outcome: string; attempt: number; ts?: string; detail?: { errorMessage?: string; why?: string }; findings: Finding[] }
interface Report { attempts: Attempt[]; findings: Finding[] }

const observed = (dir: string, run: string) => JSON.parse(readFileSync(`${dir}${run}/observed.json`, 'utf8')) as Observed;
const VIEWS = ['client+server', 'plain', 'har'] as const;
async function report(dir: string, run: string, view: (typeof VIEWS)[number]): Promise<Report> {
  const f = (n: string) => `${dir}${run}/${n}`;
  const args = view === 'client+server' ? ['--client', f('client.ndjson'), '--server', f('server.ndjson')] : view === 'plain' ? [f('client.ndjson'), f('server.ndjson')] : [f('capture.har.ndjson')];
  const r = await cli(['--format', 'json', ...args]);
  expect(r.code).not.toBe(2);
  return JSON.parse(r.stdout) as Report;
}
/** The drawn call's attempts, in order (the app's last call is the follow-up lookup). */
function drawn(o: Observed, r: Report): Attempt[] {
  const calls = r.attempts.filter((a) => a.method === 'tools/call').sort((a, b) => String(a.ts).localeCompare(String(b.ts)));
  return calls.slice(0, -1).filter((a) => a.tool === o.cell.tool);
}
const has = (a: Attempt, code: string) => a.findings.some((f) => f.code === code);
const hopFirst = (o: Observed) => o.hop.find((h) => h.request === `POST tools/call ${o.cell.tool}`)!;

describe('real-audit99: one early retry after a 429 is one finding', () => {
  it('the retry before the 429\'s Retry-After is RETRY_AFTER_IGNORED alone, not RETRY_POLICY too (every view)', async () => {
    const after429 = runs(A97).filter((r) => hopFirst(observed(A97, r)).action === '429');
    expect(after429.length).toBeGreaterThanOrEqual(2);
    for (const run of after429) {
      const o = observed(A97, run);
      for (const view of VIEWS) {
        const retry = drawn(o, await report(A97, run, view))[1];
        expect(retry, `${run} ${view}`).toBeDefined();
        expect(has(retry!, 'RETRY_AFTER_IGNORED'), `${run} ${view}`).toBe(true);
        expect(has(retry!, 'RETRY_POLICY'), `${run} ${view}`).toBe(false);
      }
    }
  });

  it('must not: a retry sooner than the policy after a failure with no Retry-After keeps RETRY_POLICY', async () => {
    // The app's "once" policy waits 50 ms, under the default 200 ms minimum, after a failure time may cure.
    const early = runs(A97).filter((r) => { const o = observed(A97, r); return o.plan[0]!.delays[0]! < 200 && ['delay', 'cut', 'malformed', '500html', '503'].includes(hopFirst(o).action); });
    expect(early.length).toBeGreaterThanOrEqual(2);
    for (const run of early) {
      const retry = drawn(observed(A97, run), await report(A97, run, 'client+server'))[1];
      expect(retry && has(retry, 'RETRY_POLICY'), run).toBe(true);
    }
  });
});

describe('real-audit99: a wrong id on the request\'s own stream is an orphan only where the client dropped it', () => {
  it('ORPHAN_RESPONSE is raised exactly where the app did not get that answer (every view)', async () => {
    const wrong = runs(A97).filter((r) => hopFirst(observed(A97, r)).action === 'wrongid');
    const o = wrong.map((r) => observed(A97, r));
    // both kinds are there: the Python client took it, the v2 client dropped it
    expect(o.some((x) => x.app.find((s) => s.call === x.plan[0]!.label)?.ok !== undefined)).toBe(true);
    expect(o.some((x) => x.app.find((s) => s.call === x.plan[0]!.label)?.error !== undefined)).toBe(true);
    for (const run of wrong) {
      const x = observed(A97, run);
      const took = x.app.find((s) => s.call === x.plan[0]!.label && s.attempt === 1)?.ok !== undefined;
      for (const view of VIEWS) {
        const r = await report(A97, run, view);
        const first = drawn(x, r)[0]!;
        expect(first.outcome, `${run} ${view}`).toBe('INVALID_ENVELOPE');
        const orphans = [...first.findings, ...r.findings].filter((f) => f.code === 'ORPHAN_RESPONSE');
        expect(orphans.length > 0, `${run} ${view}: the app ${took ? 'took' : 'dropped'} it`).toBe(!took);
      }
    }
  });
});

describe('real-audit99: an elicitation on the 1.32.2 server\'s stateless mode', () => {
  const run = runs(A99).find((r) => { const c = observed(A99, r).cell; return c.server === 'ts1' && c.era === 'stateless' && c.tool === 'refund'; })!;
  it('the recording: the client declared elicitation, the app got the server\'s isError', () => {
    expect(run).toBeDefined();
    const client = readFileSync(`${A99}${run}/client.ndjson`, 'utf8');
    expect(client).toMatch(/"capabilities":\{"elicitation":\{"form"/);
    const o = observed(A99, run);
    expect(o.app.find((s) => s.call === o.plan[0]!.label)?.ok?.isError).toBe(true);
  });

  it('TOOL_ERROR with the server\'s text, and a why that says the server had no session to know the client\'s capabilities (every view)', async () => {
    const o = observed(A99, run);
    const got = o.app.find((s) => s.call === o.plan[0]!.label)!.ok!;
    for (const view of VIEWS) {
      const a = drawn(o, await report(A99, run, view))[0]!;
      expect(a.outcome, view).toBe('TOOL_ERROR');
      expect(a.detail?.errorMessage, view).toBe(got.text);
      expect(a.detail?.why, view).toMatch(/no session id, so the server that handled it had none of them .*whatever the client declared/);
    }
  });

  it('must not: the other tool errors (the charge tool\'s isError, with and without a session) get no such why', async () => {
    let seen = 0;
    for (const run2 of runs(A97)) {
      for (const a of (await report(A97, run2, 'client+server')).attempts.filter((x) => x.outcome === 'TOOL_ERROR')) {
        seen++;
        expect(a.detail?.why ?? '', run2).not.toMatch(/capabilities the client declared/);
      }
    }
    expect(seen).toBeGreaterThan(0);
  });
});
