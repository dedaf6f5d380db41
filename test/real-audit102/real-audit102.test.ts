// Audit 102 (no new recording): the filters and --fail-on against the counts the reports print, on real recordings (real-audit94's Python SDK log, real-audit95's followed redirects, real-audit97's joined runs), held to each run's observed.json.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

const PY = `${ROOT}test/fixtures/real-audit94/py-py/`;
const REDIRECTS = ['redirect-ts', 'redirect-py', 'redirect-v2'].map((s) => `${ROOT}test/fixtures/real-audit95/${s}/`);
const NOT_FOLLOWED = `${ROOT}test/fixtures/real-audit21/s13-redirect-307/client.ndjson`;
const JOINED = `${ROOT}test/fixtures/real-audit97/s490278-py-py-legacy-404-e32602-once/`;

interface Attempt { ts: string; method: string; status: number | null; outcome: string; answerNotLogged?: true; continuation?: true; call?: string; attempt?: number }
interface FailOn { failed: boolean; outcomes: Record<string, number>; notCounted?: { versionFallbacks?: number; redirectsFollowed?: number; answersNotLogged?: number } }
interface Summary {
  attempts: number;
  byOutcome: Record<string, number>;
  countedApart?: { redirectsFollowed?: number; answersNotLogged?: number };
  filteredOut?: { attempts: number; findings: number };
  findings: { total: number };
  failOn?: FailOn;
}
interface Report { attempts: Attempt[]; summary: Summary }
interface SessionRow { failed: Record<string, number> }

const json = async (args: string[]): Promise<Report & { code: number; stderr: string }> => {
  const r = await cli(['--format', 'json', ...args]);
  return { ...(JSON.parse(r.stdout) as Report), code: r.code, stderr: r.stderr };
};
const sessionsFailed = async (args: string[]): Promise<Record<string, number>> => {
  const rows = (JSON.parse((await cli(['sessions', '--format', 'json', ...args])).stdout) as { sessions: SessionRow[] }).sessions;
  const sum: Record<string, number> = {};
  for (const r of rows) for (const [o, n] of Object.entries(r.failed)) sum[o] = (sum[o] ?? 0) + n;
  return sum;
};
const wide = { env: { COLUMNS: '300' } };
/** The Markdown report's section of attempts that did not succeed ('' when it has none). */
const failedSection = (md: string): string => {
  const at = md.indexOf('## Attempts that did not succeed');
  if (at === -1) return '';
  const end = md.indexOf('\n## ', at + 3);
  return md.slice(at, end === -1 ? undefined : end);
};

/** The redirects the hop in front answered to a request with an id (an attempt), each followed by its client to the Location. */
const frontRedirects = (dir: string): number =>
  (JSON.parse(readFileSync(`${dir}observed.json`, 'utf8')) as { front: { request: string; action: string }[] }).front
    .filter((f) => / id \S+$/.test(f.request) && /^3\d\d Location /.test(f.action)).length;

describe('followed redirects under the filters (real-audit95: the TypeScript, Python and v2 SDK clients following every 307/308)', () => {
  for (const dir of REDIRECTS) {
    const log = `${dir}client.ndjson`;
    const name = dir.split('/').at(-2)!;

    it(`${name}: --outcome HTTP_ERROR still counts the followed redirects apart (summary, headline, line under the outcome table)`, async () => {
      const all = await json([log]);
      const asked = await json([log, '--outcome', 'HTTP_ERROR']);
      expect(all.summary.countedApart?.redirectsFollowed).toBe(frontRedirects(dir));
      expect(asked.summary.countedApart?.redirectsFollowed).toBe(frontRedirects(dir));
      const n = frontRedirects(dir);
      const text = (await cli([log, '--outcome', 'HTTP_ERROR'], wide)).stdout;
      expect(text.split('\n')[0]).toContain(`${n} redirects followed`);
      expect(text).toContain(`HTTP_ERROR counts ${n} redirects (HTTP 3xx) the client followed`);
      // --outcome names their outcome: they are listed (README: Filters), one row each.
      expect(asked.attempts.filter((a) => a.status !== null && a.status >= 300 && a.status < 400)).toHaveLength(n);
    });

    it(`${name}: the sessions view's failures are the same with --outcome HTTP_ERROR as without (a followed redirect is no failure either way)`, async () => {
      const without = await sessionsFailed([log]);
      expect(await sessionsFailed([log, '--outcome', 'HTTP_ERROR'])).toEqual({ ...(without.HTTP_ERROR ? { HTTP_ERROR: without.HTTP_ERROR } : {}) });
    });

    it(`${name}: --fail-on HTTP_ERROR counts the HTTP errors the report counts as failed, and says the followed redirects were not counted`, async () => {
      const r = await json([log, '--fail-on', 'HTTP_ERROR']);
      const apart = r.summary.countedApart!.redirectsFollowed!;
      const failedHttp = r.summary.byOutcome.HTTP_ERROR! - apart - (r.summary.failOn!.notCounted?.versionFallbacks ?? 0);
      expect(r.summary.failOn!.outcomes.HTTP_ERROR).toBe(failedHttp);
      expect(r.summary.failOn!.notCounted?.redirectsFollowed).toBe(frontRedirects(dir));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${failedHttp} HTTP_ERROR attempt${failedHttp === 1 ? '' : 's'} (not counted: `);
      expect(r.stderr).toContain(`${frontRedirects(dir)} redirects (HTTP 3xx) the client followed`);
    });
  }

  it('redirect-ts from the app\'s retry on (after its 503): the only HTTP_ERROR is a followed redirect, so --fail-on HTTP_ERROR passes (exit 0)', async () => {
    const log = `${REDIRECTS[0]}client.ndjson`;
    const all = await json([log]);
    const last503 = all.attempts.filter((a) => a.status === 503).at(-1)!;
    const since = new Date(Date.parse(last503.ts) + 1).toISOString();
    const r = await json([log, '--since', since, '--fail-on', 'HTTP_ERROR']);
    expect(r.summary.byOutcome.HTTP_ERROR).toBeGreaterThan(0);
    expect(r.summary.failOn).toMatchObject({ failed: false, outcomes: {}, notCounted: { redirectsFollowed: r.summary.byOutcome.HTTP_ERROR } });
    expect(r.code).toBe(0);
  });

  it('must not: a redirect its client did not follow (another origin) counts for --outcome and --fail-on HTTP_ERROR', async () => {
    const r = await json([NOT_FOLLOWED, '--outcome', 'HTTP_ERROR', '--fail-on', 'HTTP_ERROR']);
    expect(r.summary.countedApart).toBeUndefined();
    expect(r.summary.failOn).toMatchObject({ failed: true, outcomes: { HTTP_ERROR: r.summary.byOutcome.HTTP_ERROR } });
    expect(r.summary.failOn!.notCounted).toBeUndefined();
    expect(r.code).toBe(1);
    expect(await sessionsFailed([NOT_FOLLOWED, '--outcome', 'HTTP_ERROR'])).toEqual({ HTTP_ERROR: r.summary.byOutcome.HTTP_ERROR });
  });
});

describe('--fail-on UNANSWERED and answers the log does not hold (real-audit94/py-py: the Python SDK 2.3.0 client DEBUG log)', () => {
  const seen = (JSON.parse(readFileSync(`${PY}observed.json`, 'utf8')) as { seen: { tool?: string; error?: { message: string } }[] }).seen;
  const timedOut = seen.filter((s) => s.error !== undefined && /timed out/i.test(s.error.message)).length;

  // The timed-out request's outcome is whatever the reader proves for it (audit 104: NO_RESPONSE, the POST aborted
  // before any head); --fail-on names it and UNANSWERED together, and only the answers not logged go uncounted.
  const lostOutcome = async () => {
    const all = await json([`${PY}client.log`]);
    const lost = all.attempts.filter((a) => a.method === 'tools/call' && (a.outcome === 'UNANSWERED' || a.outcome === 'NO_RESPONSE') && !a.answerNotLogged);
    expect(lost).toHaveLength(timedOut);
    return { all, lost, outcome: lost[0]!.outcome };
  };

  it('counts only the request that got no answer (the app\'s timeout), and says how many answers not logged it did not count', async () => {
    const { outcome } = await lostOutcome();
    const r = await json([`${PY}client.log`, '--fail-on', `UNANSWERED,${outcome}`]);
    expect(r.summary.failOn!.outcomes).toEqual({ [outcome]: timedOut });
    expect(r.summary.failOn!.notCounted?.answersNotLogged).toBe(r.summary.countedApart!.answersNotLogged);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${timedOut} ${outcome} attempt${timedOut === 1 ? '' : 's'}`);
    expect(r.stderr).toContain(`(not counted: ${r.summary.countedApart!.answersNotLogged} answers the log does not hold`);
  });

  it('passes (exit 0) before the timeout, where every UNANSWERED is an answer not logged', async () => {
    const { lost } = await lostOutcome();
    const r = await json([`${PY}client.log`, '--until', lost[0]!.ts, '--fail-on', 'UNANSWERED']);
    expect(r.summary.byOutcome.UNANSWERED).toBeGreaterThan(0);
    expect(r.summary.failOn).toMatchObject({ failed: false, outcomes: {}, notCounted: { answersNotLogged: r.summary.byOutcome.UNANSWERED } });
    expect(r.code).toBe(0);
  });

  it('must not: with the proxy\'s log beside it (every answer known), the timed-out request alone matches and nothing is left uncounted', async () => {
    const { outcome } = await lostOutcome();
    const r = await json([`${PY}client.log`, `${PY}proxy.ndjson`, '--fail-on', `UNANSWERED,${outcome}`]);
    expect(r.summary.failOn).toEqual({ conditions: ['UNANSWERED', outcome], failed: true, outcomes: { [outcome]: timedOut }, codes: {}, severities: {} });
  });
});

describe('an input_required round whose follow-up a time filter leaves out (real-audit94/py-py: two refunds the app got answers to)', () => {
  const rounds = async () => (await json([`${PY}client.log`])).attempts.filter((a) => a.outcome === 'INPUT_REQUIRED');

  it('is a step of its call, not an attempt that did not succeed, in the analysis and the sessions view', async () => {
    const seen = (JSON.parse(readFileSync(`${PY}observed.json`, 'utf8')) as { seen: { label?: string; ok?: unknown }[] }).seen;
    expect(seen.filter((s) => s.label?.startsWith('input_required') && s.ok !== undefined)).toHaveLength((await rounds()).length);
    const all = await json([`${PY}client.log`]);
    const round = (await rounds())[0]!;
    const followUp = all.attempts.find((a) => a.continuation && a.call === round.call)!;
    const until = followUp.ts;
    expect(Date.parse(until)).toBeGreaterThan(Date.parse(round.ts));
    const md = (await cli([`${PY}client.log`, '--until', until, '--format', 'markdown'])).stdout;
    expect(md).toContain('INPUT_REQUIRED');
    expect(failedSection(md)).not.toContain('INPUT_REQUIRED');
    expect((await sessionsFailed([`${PY}client.log`, '--until', until])).INPUT_REQUIRED).toBeUndefined();
  });

  it('must not: --outcome INPUT_REQUIRED still lists the rounds (asked for by name)', async () => {
    const md = (await cli([`${PY}client.log`, '--outcome', 'INPUT_REQUIRED', '--format', 'markdown'])).stdout;
    expect(failedSection(md).match(/INPUT_REQUIRED/g)?.length).toBeGreaterThanOrEqual((await rounds()).length);
  });
});

describe('what the filters left out, in every report (real-audit97: a Python client and server, joined; real-audit95, real-audit94)', () => {
  const cases: [string, string[]][] = [
    ['real-audit97 --method tools/list', [`${JOINED}client.ndjson`, `${JOINED}server.ndjson`, '--method', 'tools/list']],
    ['real-audit97 --code SESSION_EXPIRED', [`${JOINED}client.ndjson`, `${JOINED}server.ndjson`, '--code', 'SESSION_EXPIRED']],
    ['real-audit95 --outcome HTTP_ERROR', [`${REDIRECTS[0]}client.ndjson`, '--outcome', 'HTTP_ERROR']],
    ['real-audit94 --tool refund', [`${PY}client.log`, '--tool', 'refund']],
  ];
  for (const [label, args] of cases) {
    it(`${label}: kept + left out = every attempt, said in JSON, the table, Markdown and the sessions view`, async () => {
      const inputs = args.filter((a) => a.startsWith('/'));
      const all = await json(inputs);
      const r = await json(args);
      expect(r.summary.filteredOut).toBeDefined();
      expect(r.summary.attempts + r.summary.filteredOut!.attempts).toBe(all.summary.attempts);
      // Session findings are left out (or kept) on their own; an attempt's findings go with it.
      expect(r.summary.filteredOut!.findings).toBeGreaterThanOrEqual(0);
      const said = `left out: ${r.summary.filteredOut!.attempts} of ${all.summary.attempts} attempts`;
      expect((await cli(args, wide)).stdout.split('\n')[1]).toContain(said);
      expect((await cli([...args, '--format', 'markdown'])).stdout).toMatch(new RegExp(`\\*\\*Filters:\\*\\* .*\\(${said}`));
      expect((await cli(['sessions', ...args], wide)).stdout.split('\n')[1]).toContain(said);
      const ndjson = (await cli([...args, '--format', 'ndjson'])).stdout.trim().split('\n');
      expect(JSON.parse(ndjson.at(-1)!).filteredOut).toEqual(r.summary.filteredOut);
    });
  }

  it('the session findings a filter leaves out are counted: --method tools/list on real-audit97 leaves out its SESSION_EXPIRED findings', async () => {
    const inputs = [`${JOINED}client.ndjson`, `${JOINED}server.ndjson`];
    const all = await json(inputs);
    const r = await json([...inputs, '--method', 'tools/list']);
    const sessionFindings = (await cli([...inputs, '--format', 'ndjson'])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string }).filter((l) => l.type === 'finding').length;
    expect(all.summary.findings.total).toBeGreaterThan(0);
    expect(r.summary.filteredOut!.findings).toBe(sessionFindings);
  });

  it('the timeline view says how many of its session\'s attempts the other filters left out (table and Markdown)', async () => {
    const inputs = [`${JOINED}client.ndjson`, `${JOINED}server.ndjson`];
    const session = (JSON.parse((await cli(['sessions', '--format', 'json', ...inputs])).stdout) as { sessions: { session: string }[] }).sessions[0]!.session;
    const count = async (extra: string[]) => (JSON.parse((await cli(['timeline', session, ...inputs, ...extra, '--format', 'json'])).stdout) as { attempts: unknown[] }).attempts.length;
    const all = await count([]);
    const kept = await count(['--method', 'tools/call']);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(all);
    const said = `left out: ${all - kept} of ${all} attempts of this session`;
    expect((await cli(['timeline', session, ...inputs, '--method', 'tools/call'], wide)).stdout).toMatch(new RegExp(`^filters: --method tools/call \\(${said}\\)$`, 'm'));
    expect((await cli(['timeline', session, ...inputs, '--method', 'tools/call', '--format', 'markdown'])).stdout).toContain(`(${said})`);
    // must not: the session alone is no filter of its exchanges.
    expect((await cli(['timeline', session, ...inputs], wide)).stdout).not.toContain('left out:');
  });

  it('must not: without filters, no filteredOut and no "left out"', async () => {
    const r = await json([`${JOINED}client.ndjson`, `${JOINED}server.ndjson`]);
    expect(r.summary.filteredOut).toBeUndefined();
    expect((await cli([`${JOINED}client.ndjson`, `${JOINED}server.ndjson`], wide)).stdout).not.toContain('left out:');
  });
});
