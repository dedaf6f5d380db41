// Audit 98: a failed opening whose app went on calling, read from two logs of the client's side (real-audit62/py-close-init, real-audit67/v1-401-rerun): no false CALL_NEVER_SENT when the merged attempts stand on either log.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, cli, exchange } from '../cli/helpers.js';

const FIX = `${ROOT}test/fixtures/`;
interface Finding { code: string; message: string }
interface Attempt { method: string; session: string | null; outcome: string; sources: { file: string; line: number }[]; findings: Finding[] }
interface Report { attempts: Attempt[]; findings: Finding[]; summary: { notes: string[] } }

/** Every log of the folder, given plain at once (as the corpus check and a user handing over a folder do). */
const logsOf = (folder: string) => readdirSync(`${FIX}${folder}`).filter((n) => /\.(ndjson|log)$/.test(n)).sort().map((n) => `${FIX}${folder}/${n}`);
async function report(args: string[]): Promise<Report> {
  const r = await cli(['--format', 'json', ...args]);
  expect(r.code).not.toBe(2);
  return JSON.parse(r.stdout) as Report;
}
const allCodes = (r: Report) => [...r.findings, ...r.attempts.flatMap((a) => a.findings)].map((f) => f.code);
const merged = (r: Report) => r.summary.notes.some((n) => /are two logs of the client's side of the same/.test(n));
/** The tools/call attempts whose lines come from more than one log (one request, two logs of the client's side). */
const mergedCalls = (r: Report) => r.attempts.filter((a) => a.method === 'tools/call' && new Set(a.sources.map((s) => s.file)).size > 1);

describe('real-audit98: a failed opening, then the app\'s call, in two logs of the client\'s side (each request reported once)', () => {
  it('real-audit62/py-close-init: the first initialize got no response, the app connected again and its call returned: no CALL_NEVER_SENT', async () => {
    const o = JSON.parse(readFileSync(`${FIX}real-audit62/py-close-init/observed.json`, 'utf8')) as { steps: { step: string; ok: boolean }[] };
    const failedConnect = o.steps.findIndex((s) => s.step.startsWith('connect') && !s.ok);
    const callsAfter = o.steps.slice(failedConnect + 1).filter((s) => s.step.startsWith('call') && s.ok);
    expect(failedConnect).toBeGreaterThanOrEqual(0);
    expect(callsAfter.length).toBeGreaterThan(0);
    const r = await report(logsOf('real-audit62/py-close-init'));
    expect(merged(r)).toBe(true);
    expect(mergedCalls(r).length).toBeGreaterThan(0);
    expect(r.attempts.filter((a) => a.method === 'initialize' && a.outcome === 'NO_RESPONSE').length).toBeGreaterThan(0);
    expect(allCodes(r)).not.toContain('CALL_NEVER_SENT');
  });

  it('real-audit67/v1-401-rerun: 401 to initialize, then the run with the right token called its tool: no CALL_NEVER_SENT', async () => {
    const o = JSON.parse(readFileSync(`${FIX}real-audit67/v1-401-rerun/observed.json`, 'utf8')) as { runs: { steps: { tool?: string }[]; exit: number }[] };
    expect(o.runs.some((run, i) => i > 0 && run.exit === 0 && run.steps.some((s) => s.tool !== undefined))).toBe(true);
    const r = await report(logsOf('real-audit67/v1-401-rerun'));
    expect(merged(r)).toBe(true);
    expect(mergedCalls(r).length).toBeGreaterThan(0);
    expect(r.attempts.some((a) => a.method === 'initialize' && a.outcome === 'HTTP_ERROR')).toBe(true);
    expect(allCodes(r)).not.toContain('CALL_NEVER_SENT');
  });

  it('must-not: real-audit9/py-protocol-version-unsupported (two logs of the client\'s side merged; the client refused the version and never called) keeps its CALL_NEVER_SENT, one per session', async () => {
    const r = await report(logsOf('real-audit9/py-protocol-version-unsupported'));
    expect(merged(r)).toBe(true);
    const sessions = new Set(r.attempts.filter((a) => a.method === 'initialize').map((a) => a.session));
    expect(sessions.size).toBeGreaterThan(0);
    expect(allCodes(r).filter((c) => c === 'CALL_NEVER_SENT')).toHaveLength(sessions.size);
    expect(r.attempts.filter((a) => a.method === 'tools/call')).toHaveLength(0);
  });

  it('must-not: two logs of the client\'s side of one failed initialize and nothing after it: CALL_NEVER_SENT stays, once', async () => {
    // Two loggers of one client (its capture and its app's log): the same 401 to the same initialize, nothing after.
    const dir = mkdtempSync(join(tmpdir(), 'mcpt-a98-'));
    const init = (ts: string) => exchange({ ts, id: 0, method: 'initialize', status: 401, side: 'client' });
    writeFileSync(join(dir, 'capture.ndjson'), init('2026-12-07T10:00:00.000Z') + '\n');
    writeFileSync(join(dir, 'app.ndjson'), init('2026-12-07T10:00:00.001Z') + '\n');
    const r = await report(['--client', join(dir, 'capture.ndjson'), '--client', join(dir, 'app.ndjson')]);
    expect(r.attempts).toHaveLength(1);
    expect(allCodes(r).filter((c) => c === 'CALL_NEVER_SENT')).toHaveLength(1);
  });
});
