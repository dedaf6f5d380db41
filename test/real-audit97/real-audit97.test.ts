// Audit 97's real captures (test/fixtures/real-audit97): a judge's blind run, seeded cells of client SDK x server SDK x era x hop fault x server outcome x the app's retry policy, each report scored automatically against the run's observed.json.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

const DIR = `${ROOT}test/fixtures/real-audit97/`;
const RUNS = readdirSync(DIR).filter((d) => /^s\d+-/.test(d)).sort();

interface Cell { seed: number; client: string; server: string; era: string; fault: string; outcome: string; tool: string; policy: string; notes: boolean }
interface AppStep { label?: string; call?: string; attempt?: number; ok?: { isError: boolean } | boolean; error?: { name: string; message: string; code?: number | string } }
interface HopEntry { request: string; id?: number | string; action: string; answer?: string; serverAnswered?: string; cut?: boolean }
interface Observed { cell: Cell; plan: { label: string; tool: string }[]; app: AppStep[]; serverRan: string[]; hop: HopEntry[] }
interface Finding { code: string; severity: string; message: string }
interface Attempt { id: number | string; method: string; tool: string | null; outcome: string; layer: string; status?: number; serverOutcome?: string; notSeenByServer?: boolean; call: string; attempt: number; ts?: string; retryOrigin?: { origin: string }; findings: Finding[] }
interface Report { attempts: Attempt[]; findings: Finding[] }

/** The seed article's layers, as the README's Outcomes table gives them. */
const LAYER: Record<string, string> = { NO_RESPONSE: 'transport', HTTP_ERROR: 'transport', STREAM_INCOMPLETE: 'transport', MALFORMED_JSON: 'protocol', INVALID_ENVELOPE: 'protocol', JSONRPC_ERROR: 'protocol', INPUT_REQUIRED: 'interaction', TOOL_ERROR: 'application', TOOL_SUCCESS: 'application' };
/** What the hop answered itself, without forwarding: the status. */
const HOP_ANSWERED: Record<string, number> = { 503: 503, 429: 429, 404: 404, '500html': 500 };
/** Findings a judge accepts on an attempt of these runs (each checked below where it must or must not be). */
const ALLOWED = new Set(['CANCELLED', 'SIDE_DIVERGENCE', 'NO_FINAL_RESULT', 'ORPHAN_RESPONSE', 'RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY', 'RETRY_AFTER_IGNORED', 'RETRY_POLICY']);

const observed = (run: string) => JSON.parse(readFileSync(`${DIR}${run}/observed.json`, 'utf8')) as Observed;
type View = 'client+server' | 'plain' | 'har';
async function report(run: string, view: View): Promise<Report> {
  const f = (n: string) => `${DIR}${run}/${n}`;
  const args = view === 'client+server' ? ['--client', f('client.ndjson'), '--server', f('server.ndjson')] : view === 'plain' ? [f('client.ndjson'), f('server.ndjson')] : [f('capture.har.ndjson')];
  const r = await cli(['--format', 'json', ...args]);
  expect(r.code).not.toBe(2);
  return JSON.parse(r.stdout) as Report;
}
const timedOut = (s: AppStep) => s.error !== undefined && (s.error.code === 'REQUEST_TIMEOUT' || /timed out/i.test(s.error.message));
const codes = (a: Attempt) => a.findings.map((f) => f.code);
const has = (a: Attempt, code: string) => codes(a).includes(code);

/**
 * The judge: every way the report of one view differs from what happened (observed.json), as sentences. Per attempt of
 * the drawn call: the outcome and layer the seed article's model gives (the hop's fault, else what the app got), the
 * retry links and origin, NO_FINAL_RESULT, SIDE_DIVERGENCE, CANCELLED, UNSAFE_RETRY, RETRY_AFTER_IGNORED and
 * RETRY_ORIGIN_AMBIGUOUS exactly where they belong, and no other finding.
 */
export function judge(o: Observed, r: Report, view: View): string[] {
  const bad: string[] = [];
  const { cell } = o;
  const serverSeen = view !== 'har';
  // (the app's last call is the follow-up lookup; the drawn call's attempts came before it)
  const calls = r.attempts.filter((a) => a.method === 'tools/call').sort((a, b) => String(a.ts).localeCompare(String(b.ts)));
  const last = calls[calls.length - 1];
  const mine = calls.filter((a) => a.tool === cell.tool && a !== last);
  const hopOf = (a: Attempt) => o.hop.find((h) => h.request === `POST tools/call ${cell.tool}` && h.id === a.id);
  const continuation = (a: Attempt) => a.attempt > 1 && a.retryOrigin?.origin === 'none';
  const appTries = o.app.filter((s) => s.call === o.plan[0]!.label);
  const tries = mine.filter((a) => !continuation(a));
  if (tries.length !== appTries.length) bad.push(`${tries.length} attempts of ${cell.tool}, the app made ${appTries.length}`);
  if (new Set(mine.map((a) => a.call)).size !== 1) bad.push(`the app's attempts of ${cell.tool} are not one logical call: ${mine.map((a) => a.call).join(', ')}`);
  mine.forEach((a, i) => { if (a.attempt !== i + 1) bad.push(`id ${a.id}: attempt ${a.attempt}, is ${i + 1} of the call`); });
  let prevRan = false;
  let prevHop: HopEntry | undefined;
  tries.forEach((a, k) => {
    const h = hopOf(a);
    const app = appTries[k];
    if (!h || !app) return void bad.push(`id ${a.id}: no hop entry or app attempt`);
    const retry = k > 0;
    let want: string[];
    if (h.action in HOP_ANSWERED) want = ['HTTP_ERROR'];
    else if (h.action === 'cut') want = ['STREAM_INCOMPLETE'];
    else if (h.action === 'delay') want = ['NO_RESPONSE', 'STREAM_INCOMPLETE'];
    else if (h.action === 'malformed') want = ['MALFORMED_JSON'];
    else if (h.action === 'wrongid') want = ['INVALID_ENVELOPE'];
    else if (h.serverAnswered === 'input_required') want = ['INPUT_REQUIRED'];
    else if (app.error) want = [h.answer?.startsWith('4') ? 'HTTP_ERROR' : 'JSONRPC_ERROR'];
    else want = [(app.ok as { isError: boolean }).isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS'];
    if (!want.includes(a.outcome)) bad.push(`id ${a.id} (${h.action}): ${a.outcome}, the model says ${want.join(' or ')}`);
    if (a.layer !== LAYER[a.outcome]) bad.push(`id ${a.id}: layer ${a.layer} for ${a.outcome}`);
    if (h.action in HOP_ANSWERED && a.status !== HOP_ANSWERED[h.action]) bad.push(`id ${a.id}: HTTP ${a.status}, the hop answered ${HOP_ANSWERED[h.action]}`);
    if (serverSeen && h.action in HOP_ANSWERED && a.notSeenByServer !== true) bad.push(`id ${a.id}: the hop answered it, yet not said unseen by the server`);
    if (has(a, 'NO_FINAL_RESULT') !== (h.action === 'cut')) bad.push(`id ${a.id} (${h.action}): NO_FINAL_RESULT ${has(a, 'NO_FINAL_RESULT') ? 'raised' : 'missing'}`);
    const diverged = ['cut', 'malformed', 'wrongid'].includes(h.action) || (h.action === 'delay' && h.answer?.startsWith('2') === true);
    if (serverSeen && has(a, 'SIDE_DIVERGENCE') !== diverged) bad.push(`id ${a.id} (${h.action}): SIDE_DIVERGENCE ${diverged ? 'missing' : 'raised'}`);
    if (has(a, 'CANCELLED') !== timedOut(app)) bad.push(`id ${a.id}: CANCELLED ${timedOut(app) ? 'missing (the app timed out)' : 'raised'}`);
    if (has(a, 'ORPHAN_RESPONSE') && h.action !== 'wrongid') bad.push(`id ${a.id}: ORPHAN_RESPONSE without a wrong id`);
    for (const c of codes(a)) if (!ALLOWED.has(c)) bad.push(`id ${a.id}: ${c} raised`);
    // retries: who sent them, whether the tool may have run twice, Retry-After
    const noted = cell.notes && view !== 'har';
    if (retry) {
      const origin = noted ? 'app' : 'unknown';
      if (a.retryOrigin?.origin !== origin) bad.push(`id ${a.id}: origin ${a.retryOrigin?.origin}, the judge says ${origin}`);
      if (has(a, 'RETRY_ORIGIN_AMBIGUOUS') === noted) bad.push(`id ${a.id}: RETRY_ORIGIN_AMBIGUOUS ${noted ? 'raised though the app noted its retry' : 'missing'}`);
      const unsafe = cell.tool !== 'lookup' && prevRan;
      const u = a.findings.find((f) => f.code === 'UNSAFE_RETRY');
      if (unsafe && !u) bad.push(`id ${a.id}: UNSAFE_RETRY missing (the attempt before ran ${cell.tool})`);
      if (!unsafe && u && (serverSeen || u.severity !== 'warning')) bad.push(`id ${a.id}: UNSAFE_RETRY raised (${u.severity}), the attempt before did not run ${cell.tool}`);
      if (has(a, 'RETRY_AFTER_IGNORED') !== (prevHop?.action === '429')) bad.push(`id ${a.id}: RETRY_AFTER_IGNORED ${prevHop?.action === '429' ? 'missing' : 'raised'}`);
    } else {
      for (const c of ['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY', 'RETRY_AFTER_IGNORED', 'RETRY_POLICY']) if (has(a, c)) bad.push(`id ${a.id}: ${c} on a first attempt`);
    }
    prevRan = !(h.action in HOP_ANSWERED) && h.answer?.startsWith('2') === true && h.serverAnswered !== 'input_required';
    prevHop = h;
  });
  for (const a of mine.filter(continuation)) {
    if (a.outcome !== 'TOOL_SUCCESS' || a.findings.length) bad.push(`continuation id ${a.id}: ${a.outcome} [${codes(a).join(',')}]`);
  }
  if (!last || last.tool !== 'lookup' || last.outcome !== 'TOOL_SUCCESS' || last.findings.length || mine.some((m) => m.call === last.call)) bad.push(`the follow-up lookup: ${last?.outcome} [${last ? codes(last).join(',') : ''}]`);
  // A 404 the hop made up, after which the session went on: SESSION_EXPIRED, saying the server had not lost it.
  for (const f of r.findings) {
    if (f.code === 'SESSION_EXPIRED' && o.hop.some((h) => h.action === '404') && f.message.includes('the server had not lost the session')) continue;
    bad.push(`session finding ${f.code}: ${f.message.slice(0, 160)}`);
  }
  if (o.hop.some((h) => h.action === '404') && !r.findings.some((f) => f.code === 'SESSION_EXPIRED')) bad.push('SESSION_EXPIRED missing for the 404');
  return bad;
}

describe('real-audit97: the recordings are the judge\'s draws', () => {
  it('every run has its cell, the app\'s attempts, what the hop did to the drawn call and the tool bodies that ran', () => {
    expect(RUNS.length).toBeGreaterThanOrEqual(12);
    for (const run of RUNS) {
      const o = observed(run);
      expect(run).toBe(`s${o.cell.seed}-${o.cell.client}-${o.cell.server}-${o.cell.era}-${o.cell.fault}-${o.cell.outcome.replace('-', 'e')}-${o.cell.policy}`);
      expect(o.hop.find((h) => h.request === `POST tools/call ${o.cell.tool}`)?.action).toBe(o.cell.fault === 'none' ? 'forward' : o.cell.fault);
      expect(o.app.filter((s) => s.call === o.plan[0]!.label).length).toBeGreaterThan(0);
      expect(o.serverRan.length).toBeGreaterThan(0);
    }
    // the matrix's three client SDKs and three server SDKs, all three eras, each fault of the hop at least once
    const cells = RUNS.map((r) => observed(r).cell);
    for (const k of ['client', 'server'] as const) expect(new Set(cells.map((c) => c[k]))).toEqual(new Set(['ts1', 'v2', 'py']));
    expect(new Set(cells.map((c) => c.era))).toEqual(new Set(['legacy', 'stateless', 'modern']));
  });
});

describe.each(['client+server', 'plain', 'har'] as const)('real-audit97, read as %s: the judge finds nothing wrong', (view) => {
  it.each(RUNS)('%s', async (run) => {
    expect(judge(observed(run), await report(run, view), view)).toEqual([]);
  });
});

describe('real-audit97: what this audit changed, on the runs that show it', () => {
  it('a notifications/cancelled that overtook its request (the hop held the request past the client\'s timeout) is that request\'s, not one for a request the server never saw', async () => {
    for (const run of RUNS.filter((r) => observed(r).cell.fault === 'delay' && observed(r).cell.era !== 'modern')) {
      const o = observed(run);
      const h = o.hop.find((x) => x.action === 'delay')!;
      for (const args of [['--client', `${DIR}${run}/client.ndjson`, '--server', `${DIR}${run}/server.ndjson`], [`${DIR}${run}/server.ndjson`]]) {
        const r = JSON.parse((await cli(['--format', 'json', ...args])).stdout) as Report;
        expect(r.findings.filter((f) => f.code === 'CANCELLED')).toEqual([]);
        const a = r.attempts.find((x) => x.method === 'tools/call' && x.id === h.id)!;
        const c = a.findings.find((f) => f.code === 'CANCELLED')!;
        expect(c.message).toMatch(/reached the server \d+\.\d\d s before the request itself/);
        expect(c.message).toContain(`answered the request when it came: HTTP ${h.answer!.split(' ')[0]}`);
      }
    }
  });

  it('a retry after an answer the server gave as input_required (a hop broke it on the way) is no unsafe retry: the tool had not run', async () => {
    const runs = RUNS.filter((r) => observed(r).hop.some((h) => h.serverAnswered === 'input_required' && h.action !== 'forward'));
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) {
      const r = await report(run, 'client+server');
      expect(r.attempts.filter((a) => a.tool === observed(run).cell.tool && a.attempt > 1).every((a) => !has(a, 'UNSAFE_RETRY'))).toBe(true);
    }
    // (the one whose answer the server ran the tool for is still one: the cut -32602 of set_limit, raised by the tool)
    const ran = RUNS.find((r) => observed(r).cell.fault === 'cut' && observed(r).cell.policy !== 'none')!;
    expect((await report(ran, 'client+server')).attempts.some((a) => has(a, 'UNSAFE_RETRY'))).toBe(true);
  });

  it('a wrong id on a request\'s SSE stream: the why says the Python SDK client took it as the answer (it got the tool error), and not for a TypeScript client', async () => {
    for (const run of RUNS.filter((r) => observed(r).cell.fault === 'wrongid')) {
      const o = observed(run);
      const first = o.app.find((s) => s.call === o.plan[0]!.label)!;
      const r = await report(run, 'client+server');
      const a = r.attempts.find((x) => x.outcome === 'INVALID_ENVELOPE') as Attempt & { detail: { why: string } };
      const took = /takes any response on a request's own SSE stream/.test(a.detail.why);
      expect(took).toBe(o.cell.client === 'py');
      expect(took).toBe(first.ok !== undefined);
      if (took) expect(a.detail.why).toContain((first.ok as { isError: boolean }).isError ? 'tool error (isError)' : 'this result');
    }
  });
});
