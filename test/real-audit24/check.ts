// The per-attempt judge of the real-traffic audits (test/real-audit24, test/real-audit25): each run folder's truth.json
// lists the calls the run made and the format variants to read; every variant's report is held to it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { analyze, type AttemptRow, type Finding } from '../../src/index.js';
import { derive } from './derive.js';

const TRANSPORT = new Set(['NO_RESPONSE', 'HTTP_ERROR', 'STREAM_INCOMPLETE']);

export type Cls = 'http' | 'msg' | 'smsg' | 'server';
export interface Truth {
  key: string;
  outcome: string;
  truth?: string;
  attempt?: number;
  /** a 2026-07-28 round with the client's answers: its attempt is the round's, not the key's ordinal */
  continuation?: boolean;
  alsoOk?: string[];
  msgMayBeUnanswered?: boolean;
  mustFind?: Partial<Record<Cls | 'all', string[]>>;
  mustNotFind?: string[];
  mustNotFindExceptMsg?: string[];
  notIn?: string[];
  only?: string[];
  byClass?: Partial<Record<Cls | 'joinsServerMsg', Partial<Truth>>>;
}
export interface Format { name: string; cls: Cls; args: string[]; skip?: boolean; noCancel?: boolean; joinsServerMsg?: boolean; extraOk?: Record<string, string[]>; override?: Record<string, Partial<Truth>> }
export interface Spec { description: string; calls: Truth[]; formats: Format[]; sessionMust?: Partial<Record<Cls, string[]>>; sessionMustNot?: string[]; ignoreKeys?: string[] }

/**
 * The checks over the runs in `DIR` (a fixtures folder ending in /): their reshaped variants are derived into a
 * temporary folder before the tests (and removed after); triage() reads one format's arguments, mismatchesOf() judges
 * every format of a run.
 */
export function auditRuns(DIR: string, RUNS: string[], tmpPrefix: string) {
  let TMP = '';
  beforeAll(() => {
    TMP = mkdtempSync(join(tmpdir(), tmpPrefix));
    for (const run of RUNS) derive(`${DIR}${run}`, join(TMP, run));
  });
  afterAll(() => {
    if (TMP) rmSync(TMP, { recursive: true, force: true });
  });

  /** The CLI arguments of a truth.json format as library inputs: files first, then --client, then --server (as the CLI orders them); derived/ is the temp dir. */
  function inputsOf(run: string, args: string[]): { path: string; side?: 'client' | 'server' }[] {
    const path = (p: string) => (p.startsWith('derived/') ? join(TMP, run, p.slice('derived/'.length)) : `${DIR}${run}/${p}`);
    const files: { path: string }[] = [];
    const sided: { path: string; side: 'client' | 'server' }[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--client' || a === '--server') sided.push({ path: path(args[++i]!), side: a === '--client' ? 'client' : 'server' });
      else if (a.startsWith('-')) throw new Error(`an option the test does not map: ${a}`);
      else files.push({ path: path(a) });
    }
    return [...files, ...sided.filter((s) => s.side === 'client'), ...sided.filter((s) => s.side === 'server')];
  }

  async function triage(run: string, args: string[]): Promise<{ byKey: Record<string, AttemptRow>; sessionFindings: Finding[]; counts: string }> {
    const r = await analyze({ inputs: inputsOf(run, args) });
    // compare.mjs also checks the table report's header against the ndjson summary; both print the one Summary, so here
    // the summary's counts are checked against the attempts and findings it came with instead
    const s = r.summary;
    const counted = [r.attempts.length, r.attempts.filter((a) => (a.attempt ?? 1) > 1 && !a.continuation).length, r.findings.length + r.attempts.reduce((n, a) => n + a.findings.length, 0)].join(',');
    const counts = [s.attempts, s.retries, s.findings.total].join(',') === counted ? '' : `summary ${s.attempts},${s.retries},${s.findings.total} vs counted ${counted}`;
    const attempts = [...r.attempts].sort((a, b) => String(a.ts ?? '').localeCompare(String(b.ts ?? '')) || (a.sources[0]?.line ?? 0) - (b.sources[0]?.line ?? 0));
    // key each attempt: method[:tool]#ordinal (in time order)
    const n = new Map<string, number>();
    const byKey: Record<string, AttemptRow> = {};
    for (const a of attempts) {
      const base = a.method + (a.tool ? `:${a.tool}` : '');
      n.set(base, (n.get(base) ?? 0) + 1);
      byKey[`${base}#${n.get(base)}`] = a;
    }
    return { byKey, sessionFindings: r.findings, counts };
  }

  const LATE_WELL = new Set(['TOOL_SUCCESS', 'SUCCESS', 'TOOL_ERROR']);

  /** How a format's view of one attempt compares with the truth (compare.mjs's judge; finding messages left out of the text). */
  function judge(truth: Truth, a: AttemptRow | undefined, fmt: Format): string[] {
    const problems: string[] = [];
    if (!a) {
      if (truth.notIn?.includes(fmt.cls) || truth.notIn?.includes(fmt.name)) return problems;
      return ['attempt missing'];
    }
    const okOutcomes = new Set([truth.outcome, ...(truth.alsoOk ?? [])]);
    if ((fmt.cls === 'msg' || fmt.cls === 'smsg') && (TRANSPORT.has(truth.outcome) || truth.msgMayBeUnanswered)) okOutcomes.add('UNANSWERED');
    // A call whose caller timed out and whose answer came only after that: a client's view says what the client saw,
    // STREAM_INCOMPLETE, not the late answer the truth records from the wire (the sixtieth audit).
    if (/\btimed out\b/.test(truth.truth ?? '') && LATE_WELL.has(truth.outcome) && (fmt.cls === 'http' || fmt.cls === 'msg')) {
      okOutcomes.delete(truth.outcome);
      okOutcomes.add('STREAM_INCOMPLETE');
    }
    for (const o of fmt.extraOk?.[truth.key] ?? []) okOutcomes.add(o);
    if (!okOutcomes.has(a.outcome)) problems.push(`outcome ${a.outcome}, expected ${[...okOutcomes].join('|')}`);
    const codes = new Set(a.findings.map((f) => f.code));
    for (const c of truth.mustFind?.[fmt.cls] ?? truth.mustFind?.all ?? []) if (!codes.has(c) && !(c === 'CANCELLED' && fmt.noCancel)) problems.push(`missing ${c}`);
    for (const c of [...(truth.mustNotFind ?? []), ...(fmt.cls !== 'msg' ? truth.mustNotFindExceptMsg ?? [] : [])]) if (codes.has(c)) problems.push(`false ${c}`);
    if (truth.attempt && a.attempt !== truth.attempt) problems.push(`attempt ${a.attempt}, expected ${truth.attempt}`);
    return problems;
  }

  /** Every mismatch of one run, as `<run> <format> <key>: <problems>`, and the number of checks made. */
  async function mismatchesOf(run: string): Promise<{ found: string[]; checks: number; formats: number }> {
    const spec = JSON.parse(readFileSync(`${DIR}${run}/truth.json`, 'utf8')) as Spec;
    const found: string[] = [];
    let checks = 0;
    let formats = 0;
    for (const fmt of spec.formats) {
      if (fmt.skip) continue;
      formats++;
      const r = await triage(run, fmt.args);
      // the calls this class of log can hold (a server's log never sees what a hop answered), numbered as it sees them
      const seenBase: Record<string, number> = {};
      const callList: Truth[] = spec.calls.filter((c) => !(c.notIn ?? []).includes(fmt.cls)).map((c) => {
        const base = c.key.split('#')[0]!;
        const k = `${base}#${(seenBase[base] = (seenBase[base] ?? 0) + 1)}`;
        return { ...c, key: k, ...(c.attempt ? { attempt: c.continuation ? c.attempt : Number(k.split('#')[1]) } : {}), ...(c.byClass?.[fmt.cls] ?? {}), ...(fmt.joinsServerMsg ? c.byClass?.joinsServerMsg ?? {} : {}) };
      });
      for (const t of callList) {
        if (t.only && !t.only.includes(fmt.cls)) continue;
        checks++;
        const problems = judge({ ...t, ...(fmt.override?.[t.key] ?? {}) }, r.byKey[t.key], fmt);
        if (problems.length) found.push(`${run} ${fmt.name} ${t.key}: ${problems.join('; ')}`);
      }
      checks++;
      if (r.counts) found.push(`${run} ${fmt.name} summary: ${r.counts}`);
      // attempts the truth does not know (a format inventing a call)
      for (const k of Object.keys(r.byKey)) if (!callList.some((t) => t.key === k) && !(spec.ignoreKeys ?? []).includes(k)) found.push(`${run} ${fmt.name} ${k}: an attempt the run did not make: ${r.byKey[k]!.outcome}`);
      const sf: string[] = r.sessionFindings.map((f) => f.code);
      for (const c of spec.sessionMust?.[fmt.cls] ?? []) if (!sf.includes(c)) found.push(`${run} ${fmt.name} session: missing ${c}`);
      for (const c of sf) if ((spec.sessionMustNot ?? []).includes(c)) found.push(`${run} ${fmt.name} session: false ${c}`);
    }
    return { found, checks, formats };
  }

  /** Every run's mismatches and counts, together. */
  async function allRuns(): Promise<{ found: string[]; checks: number; formats: number }> {
    const all = { found: [] as string[], checks: 0, formats: 0 };
    for (const run of RUNS) {
      const m = await mismatchesOf(run);
      all.found.push(...m.found);
      all.checks += m.checks;
      all.formats += m.formats;
    }
    return all;
  }

  return { triage, mismatchesOf, allRuns };
}
