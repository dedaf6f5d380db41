// Audit 100 (no new recording): what the counts say of an answer the log does not hold (real-audit94's Python SDK DEBUG log) and of a followed redirect (real-audit95), held to each run's observed.json.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

const PY = `${ROOT}test/fixtures/real-audit94/py-py/`;
const REDIRECT = `${ROOT}test/fixtures/real-audit95/redirect-ts/`;

interface Seen { label?: string; tool?: string; ok?: unknown; error?: { name: string; message: string; code?: number } }
interface Attempt { method: string; outcome: string; answerNotLogged?: true; detail?: { why?: string } }
interface Summary { byOutcome: Record<string, number>; countedApart?: { redirectsFollowed?: number; answersNotLogged?: number } }
interface Report { attempts: Attempt[]; summary: Summary }
interface SessionRow { failures: number; failed: Record<string, number>; notLogged: number }

const json = async (args: string[]): Promise<Report> => JSON.parse((await cli(['--format', 'json', ...args])).stdout) as Report;
const seen = (JSON.parse(readFileSync(`${PY}observed.json`, 'utf8')) as { seen: Seen[] }).seen.filter((s) => s.tool !== undefined);
/** The app's tools/call steps that got an answer: a result (isError or not), or one its SDK refused (pydantic's ValidationError). */
const answered = seen.filter((s) => s.ok !== undefined || s.error?.name === 'ValidationError');
/** The app's tools/call steps that got no answer: its own timeout. */
const timedOut = seen.filter((s) => s.error !== undefined && /timed out/i.test(s.error.message));
/** The redirects the hop answered to a request with an id (an attempt), each followed by the client to its Location. */
const redirects = (JSON.parse(readFileSync(`${REDIRECT}observed.json`, 'utf8')) as { front: { request: string; action: string }[] }).front
  .filter((f) => / id \d+$/.test(f.request) && /^3\d\d Location /.test(f.action));

describe('an answer the Python SDK client DEBUG log does not hold (real-audit94/py-py/client.log)', () => {
  it('is marked on its row, still UNANSWERED (the outcome model), one per tools/call the app got an answer to, and counted apart', async () => {
    const r = await json([`${PY}client.log`]);
    const marked = r.attempts.filter((a) => a.answerNotLogged);
    expect(marked.every((a) => a.outcome === 'UNANSWERED' && a.detail?.why?.startsWith('answered: '))).toBe(true);
    expect(marked.filter((a) => a.method === 'tools/call')).toHaveLength(answered.length);
    expect(r.summary.countedApart?.answersNotLogged).toBe(marked.length);
    // The aborted call (the app's timeout) got no answer: not marked; NO_RESPONSE since the hundred-and-fourth audit
    // (the SDK aborted its POST before any head, as httpcore's lines show), UNANSWERED before.
    expect(r.attempts.filter((a) => a.outcome === 'UNANSWERED' && !a.answerNotLogged)).toHaveLength(0);
    expect(r.attempts.filter((a) => a.outcome === 'NO_RESPONSE' && !a.answerNotLogged)).toHaveLength(timedOut.length);
    expect(r.summary.byOutcome.UNANSWERED).toBe(marked.length);
  });

  it('is no failure in the sessions view (text, Markdown, JSON): counted as not logged, while the timed-out call stays failed', async () => {
    const r = await cli(['sessions', '--format', 'json', `${PY}client.log`]);
    const rows = (JSON.parse(r.stdout) as { sessions: SessionRow[] }).sessions;
    const apart = (await json([`${PY}client.log`])).summary.countedApart!.answersNotLogged!;
    expect(rows.reduce((n, s) => n + s.notLogged, 0)).toBe(apart);
    expect(rows.reduce((n, s) => n + (s.failed.UNANSWERED ?? 0), 0)).toBe(0);
    expect(rows.reduce((n, s) => n + (s.failed.NO_RESPONSE ?? 0), 0)).toBe(timedOut.length);
    const table = (await cli(['sessions', `${PY}client.log`], { env: { COLUMNS: '200' } })).stdout;
    expect(table).toContain(`${apart} answers not logged`);
    expect(table).not.toMatch(new RegExp(`\\b${apart + timedOut.length} UNANSWERED`));
    expect((await cli(['sessions', '--format', 'markdown', `${PY}client.log`])).stdout).toContain(`${apart} answers not logged`);
  });

  it('is left out of the attempts that did not succeed, said in the headline and under the outcome table, and listed when --outcome asks', async () => {
    const apart = (await json([`${PY}client.log`])).summary.countedApart!.answersNotLogged!;
    const text = (await cli([`${PY}client.log`], { env: { COLUMNS: '200' } })).stdout;
    expect(text.split('\n')[0]).toContain(`${apart} answers not logged`);
    expect(text).toContain(`UNANSWERED counts ${apart} attempts answered in bodies the log does not hold`);
    expect(text).not.toContain('answered: HTTP 200');
    const md = (await cli(['--format', 'markdown', `${PY}client.log`])).stdout;
    expect(md).toMatch(new RegExp(`\\| answers not logged \\|[\\s\\S]*\\| ${apart} \\|`));
    expect(md).not.toContain('answered: HTTP 200');
    const asked = (await cli(['--format', 'markdown', '--outcome', 'UNANSWERED', `${PY}client.log`])).stdout;
    expect(asked.match(/answered: HTTP 200/g)).toHaveLength(apart);
  });

  it('must not be said where a log holds the answers (the recording proxy beside it): nothing counted apart', async () => {
    const r = await json([`${PY}client.log`, `${PY}proxy.ndjson`]);
    expect(r.attempts.some((a) => a.answerNotLogged)).toBe(false);
    expect(r.summary.countedApart).toBeUndefined();
    expect((await cli([`${PY}client.log`, `${PY}proxy.ndjson`])).stdout.split('\n')[0]).not.toContain('not logged');
  });
});

describe('a redirect the client followed (real-audit95/redirect-ts)', () => {
  it('stays HTTP_ERROR in byOutcome and the rows (the outcome model), and is counted apart in the summary, the headline and under the outcome table', async () => {
    const r = await json([`${REDIRECT}client.ndjson`]);
    expect(r.summary.countedApart?.redirectsFollowed).toBe(redirects.length);
    expect(r.summary.byOutcome.HTTP_ERROR).toBeGreaterThanOrEqual(redirects.length);
    const text = (await cli([`${REDIRECT}client.ndjson`], { env: { COLUMNS: '200' } })).stdout;
    expect(text.split('\n')[0]).toContain(`${redirects.length} redirects followed`);
    expect(text).toContain(`HTTP_ERROR counts ${redirects.length} redirects (HTTP 3xx) the client followed`);
    const md = (await cli(['--format', 'markdown', `${REDIRECT}client.ndjson`])).stdout;
    expect(md).toMatch(new RegExp(`\\| redirects followed \\|[\\s\\S]*\\| ${redirects.length} \\|`));
  });

  it('must not count a redirect the client did not follow (real-audit21/s13-redirect-307/client.ndjson: its Location another origin)', async () => {
    const r = await json([`${ROOT}test/fixtures/real-audit21/s13-redirect-307/client.ndjson`]);
    expect(r.summary.byOutcome.HTTP_ERROR).toBe(1);
    expect(r.summary.countedApart).toBeUndefined();
  });
});
