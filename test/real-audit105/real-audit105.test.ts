// The hundred-and-fifth audit: real SDK traffic at volume through the streaming join (test/fixtures/real-audit105/), every app's attempt scored against its truth (truth.ndjson.gz) as files, on stdin (plain and gzipped), with small join windows and with the server logs' clocks off.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

const DIR = `${ROOT}test/fixtures/real-audit105/`;
const CLIENTS = ['client-ts', 'client-v2', 'client-py'].map((n) => `${DIR}${n}.ndjson.gz`);
const SERVERS = ['server-ts', 'server-py'].map((n) => `${DIR}${n}.ndjson.gz`);

type Action = '503' | '429' | '404' | 'cut' | 'delay' | 'forward';
interface Hop { ts: number; session: string; id: number; action: Action }
interface TruthAttempt { kind: 'attempt'; sdk: string; call: string; tool: 'lookup' | 'charge' | 'fail'; attempt: number; t0: number; ms?: number; got: 'result' | 'isError' | 'threw'; error?: string; hop: Hop | null }
interface Ran { kind: 'ran'; tag: string; ts: number }
interface Finding { code: string; message: string; session?: string | null }
interface Attempt { session: string | null; id: unknown; method: string; status: number | null; outcome: string; serverOutcome?: string; call?: string; attempt?: number; findings: Finding[]; detail?: { why?: string } }
interface Report { attempts: Attempt[]; findings: Finding[] }

const truthLines = gunzipSync(readFileSync(`${DIR}truth.ndjson.gz`)).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string });
const attempts = truthLines.filter((t): t is TruthAttempt => t.kind === 'attempt');
const ran = truthLines.filter((t): t is Ran => t.kind === 'ran');
/** Each call's attempts in order, as its app made them. */
const calls = new Map<string, TruthAttempt[]>();
for (const t of attempts) calls.set(t.call, Object.assign(calls.get(t.call) ?? [], { [t.attempt - 1]: t }));
const runs = new Map<string, number>();
for (const r of ran) runs.set(r.tag, (runs.get(r.tag) ?? 0) + 1);
const REACHED: Action[] = ['forward', 'cut', 'delay'];

async function report(args: string[], stdin?: string | NodeJS.ReadableStream): Promise<Report> {
  const r = await cli(['--format', 'json', ...args], stdin === undefined ? {} : { stdin });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Report;
}

/**
 * Every way the report departs from the truth, by kind (empty lists: none). The report's row of an app's attempt is the
 * tools/call with the session and JSON-RPC id the hop saw for that POST.
 */
function score(r: Report): Record<string, unknown[]> {
  const p: Record<string, unknown[]> = { unmatched: [], outcome: [], crossedWhy: [], splitCall: [], joinedCalls: [], attemptNumber: [], noFinalResult: [], sideDivergence: [], unsafeRetryMissing: [], unsafeRetryFalse: [], retryAfterMissing: [], retryAfterFalse: [], falseFindings: [], sessionExpired: [], sessionFindings: [] };
  const rows = new Map<string, Attempt[]>();
  for (const a of r.attempts) if (a.method === 'tools/call') rows.set(`${a.session}|${String(a.id)}`, [...(rows.get(`${a.session}|${String(a.id)}`) ?? []), a]);
  // The answers a client's own timeout crossed (the caller got the timeout): said once per session, for that id.
  const crossed = new Set(r.findings.filter((f) => f.code === 'CANCELLED' && /after its answer had ended/.test(f.message)).map((f) => `${f.session}|${/for id (\S+)/.exec(f.message)?.[1]}`));
  const callOfTag = new Map<string, string>();
  for (const [tag, list] of calls) {
    const got: Attempt[] = [];
    for (const t of list) {
      const found = t.hop ? rows.get(`${t.hop.session}|${t.hop.id}`) ?? [] : [];
      if (found.length !== 1) { p.unmatched!.push([tag, t.attempt, found.length]); continue; }
      got.push(found[0]!);
    }
    if (got.length !== list.length) continue;
    if (new Set(got.map((a) => a.call)).size !== 1) p.splitCall!.push([tag, got.map((a) => `${a.call}#${a.attempt}`)]);
    else got.forEach((a, i) => { if (a.attempt !== i + 1) p.attemptNumber!.push([tag, i + 1, a.attempt]); });
    const other = callOfTag.get(got[0]!.call!);
    if (other !== undefined && other !== tag) p.joinedCalls!.push([other, tag, got[0]!.call]);
    callOfTag.set(got[0]!.call!, tag);
    list.forEach((t, i) => {
      const a = got[i]!;
      const h = t.hop!;
      const codes = a.findings.map((f) => f.code);
      // outcome: the hop's own answers as they were; what the app got where the server's answer came through
      if (h.action === '503' || h.action === '429' || h.action === '404') {
        if (a.outcome !== 'HTTP_ERROR' || a.status !== Number(h.action)) p.outcome!.push([tag, t.attempt, h.action, a.outcome, a.status]);
      } else if ((t.got === 'result' && a.outcome !== 'TOOL_SUCCESS') || (t.got === 'isError' && a.outcome !== 'TOOL_ERROR')) p.outcome!.push([tag, t.attempt, t.got, a.outcome]);
      else if (t.got === 'threw' && (a.outcome === 'TOOL_SUCCESS' || a.outcome === 'TOOL_ERROR') && !crossed.has(`${h.session}|${h.id}`)) p.outcome!.push([tag, t.attempt, 'threw', a.outcome]);
      // the row of an answer the client's own timeout crossed says the caller got the timeout; no row the app got says so
      const saysCrossed = /the caller got the timeout error, not this answer/.test(a.detail?.why ?? '');
      if (t.got === 'threw' && (a.outcome === 'TOOL_SUCCESS' || a.outcome === 'TOOL_ERROR') && !saysCrossed) p.crossedWhy!.push([tag, t.attempt, 'missing']);
      if (t.got !== 'threw' && saysCrossed) p.crossedWhy!.push([tag, t.attempt, 'false']);
      // a stream cut after its head: no final result (unless the client had given up before the head came)
      if (h.action === 'cut' && !codes.includes('NO_FINAL_RESULT') && !codes.includes('CANCELLED')) p.noFinalResult!.push([tag, t.attempt, 'missing']);
      if (h.action !== 'cut' && codes.includes('NO_FINAL_RESULT')) p.noFinalResult!.push([tag, t.attempt, h.action]);
      if (h.action === 'cut' && (a.serverOutcome === 'TOOL_SUCCESS' || a.serverOutcome === 'TOOL_ERROR') && !codes.includes('SIDE_DIVERGENCE')) p.sideDivergence!.push([tag, t.attempt, 'missing']);
      if (h.action === 'forward' && t.got !== 'threw' && codes.includes('SIDE_DIVERGENCE')) p.sideDivergence!.push([tag, t.attempt, 'false']);
      if (t.attempt === 1 && h.action === 'forward' && t.got !== 'threw' && codes.length > 0) p.falseFindings!.push([tag, codes]);
      if (t.attempt === 1) return;
      // a retry: unsafe where the tool is not read-only and an earlier attempt's run of it is proven (the tool ran more
      // times than the later attempts reached the server); never for the read-only lookup, nor after refusals alone
      const earlier = list.slice(0, i).map((x) => x.hop!.action);
      const reachedLater = list.slice(i).filter((x) => REACHED.includes(x.hop!.action)).length;
      const unsafe = codes.includes('UNSAFE_RETRY');
      if (t.tool === 'charge' && (runs.get(tag) ?? 0) > reachedLater && !unsafe) p.unsafeRetryMissing!.push([tag, t.attempt, earlier]);
      if ((t.tool === 'lookup' || earlier.every((x) => !REACHED.includes(x))) && unsafe) p.unsafeRetryFalse!.push([tag, t.attempt, earlier]);
      // Retry-After: 1 ignored, by the app's clock (its times are not the wire's: a margin either way)
      const prev = list[i - 1]!;
      const gap = t.t0 - (prev.t0 + (prev.ms ?? 0));
      const early = codes.includes('RETRY_AFTER_IGNORED');
      if (prev.hop!.action === '429' && gap < 900 && !early) p.retryAfterMissing!.push([tag, t.attempt, gap]);
      if ((prev.hop!.action !== '429' || gap > 1100) && early) p.retryAfterFalse!.push([tag, t.attempt, gap]);
    });
  }
  // a lost session's 404 (the hop's): SESSION_EXPIRED for that session, and for no other
  const lost = new Set(attempts.filter((t) => t.hop?.action === '404').map((t) => t.hop!.session));
  const expired = new Set(r.findings.filter((f) => f.code === 'SESSION_EXPIRED').map((f) => f.session));
  for (const s of lost) if (!expired.has(s)) p.sessionExpired!.push(['missing', s]);
  for (const s of expired) if (!lost.has(s!)) p.sessionExpired!.push(['false', s]);
  for (const f of r.findings) if (f.code !== 'SESSION_EXPIRED' && f.code !== 'CANCELLED') p.sessionFindings!.push([f.code, f.message.slice(0, 200)]);
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v.length > 0));
}

const flags = [...CLIENTS.flatMap((f) => ['--client', f]), ...SERVERS.flatMap((f) => ['--server', f])];
/** The five logs one after another, unzipped (each file's records in time order, the whole not). */
const concatenated = () => [...CLIENTS, ...SERVERS].map((f) => gunzipSync(readFileSync(f)).toString('utf8')).join('');

describe('real-audit105: three SDKs at volume through a fault hop, each app attempt held to its truth', () => {
  it('the slice is what observed.json says: sessions, attempts and the hop faults of three SDKs', () => {
    const o = JSON.parse(readFileSync(`${DIR}observed.json`, 'utf8')) as { attempts: number; calls: number; hop: Record<string, number> };
    expect(attempts.length).toBe(o.attempts);
    expect(calls.size).toBe(o.calls);
    for (const a of ['503', '429', '404', 'cut', 'delay'] as const) expect(attempts.filter((t) => t.hop?.action === a).length).toBe(o.hop[a]);
    expect(new Set(attempts.map((t) => t.sdk))).toEqual(new Set(['ts', 'v2', 'py']));
    // retries the apps made: after every kind of fault
    for (const a of ['503', '429', '404', 'cut', 'delay'] as const) expect(attempts.some((t) => t.attempt > 1 && calls.get(t.call)![t.attempt - 2]!.hop?.action === a)).toBe(true);
  });

  // Before (515330d6), in this slice: a request the hop held past the client's timeout, whose retry was answered
  // first, split 3 of the 19 such retried calls in two (held from the server's view, the earlier attempt kept the
  // server's later start, and the retry reached the call linker first); and each of the 46 answers the Python client's
  // own timeout crossed under load (its notifications/cancelled came after the answer had ended in the recording
  // proxy's log) was a success whose retry began a call of its own, 23 retries of a charge that had run without
  // UNSAFE_RETRY.
  it('as files (--client/--server, gzipped): every attempt, call, retry link and finding as the truth has it', async () => {
    expect(score(await report(flags))).toEqual({});
  });

  it('concatenated on stdin (-), plain and gzipped: the same', async () => {
    const all = concatenated();
    expect(score(await report(['-'], all))).toEqual({});
    expect(score(await report(['-'], Readable.from([gzipSync(all)])))).toEqual({});
  });

  it('with a small join window (--window 2 --skew 1 --order-tolerance 0.5): the same', async () => {
    expect(score(await report(['--window', '2', '--skew', '1', '--order-tolerance', '0.5', ...flags]))).toEqual({});
  });

  it('with the server logs\' clocks 300 ms ahead and 450 ms behind (not corrected under 2 s): the same, and every attempt\'s findings as with the clocks in step', async () => {
    const base = await report(flags);
    const findingsOf = (r: Report) => new Map(r.attempts.map((a) => [`${a.session}|${String(a.id)}|${a.method}`, a.findings.map((f) => f.code).sort().join()]));
    const want = findingsOf(base);
    for (const ms of [300, -450]) {
      const dir = mkdtempSync(join(tmpdir(), 'ra105-'));
      const shifted = SERVERS.map((f, i) => {
        const text = gunzipSync(readFileSync(f)).toString('utf8').replace(/"(ts|lastCommentTs)":"([^"]+)"/g, (_m, k: string, v: string) => `"${k}":"${new Date(Date.parse(v) + ms).toISOString()}"`);
        writeFileSync(join(dir, `server-${i}.ndjson`), text);
        return join(dir, `server-${i}.ndjson`);
      });
      const r = await report([...CLIENTS.flatMap((f) => ['--client', f]), ...shifted.flatMap((f) => ['--server', f])]);
      expect(score(r)).toEqual({});
      const got = findingsOf(r);
      const differ = [...want].filter(([k, v]) => got.get(k) !== v).map(([k, v]) => [k, v, got.get(k)]);
      expect(differ).toEqual([]);
    }
  });

  it('must not: the NDJSON report links the same calls as the JSON one, and the sessions view counts every session', async () => {
    const j = await report(flags);
    const n = await cli(['--format', 'ndjson', ...flags]);
    expect(n.code).toBe(0);
    const rows = n.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Attempt & { type: string }).filter((l) => l.type === 'attempt');
    const key = (a: Attempt) => `${a.session}|${String(a.id)}|${a.method}|${a.call}|${a.attempt}|${a.outcome}`;
    expect(rows.map(key).sort()).toEqual(j.attempts.map(key).sort());
    const s = await cli(['sessions', '--format', 'json', ...flags]);
    expect(s.code).toBe(0);
    const sessions = new Set(attempts.map((t) => t.hop?.session).filter(Boolean));
    for (const id of sessions) expect(s.stdout).toContain(id);
  });
});
