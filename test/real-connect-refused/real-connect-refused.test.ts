// A refused notifications/initialized (test/fixtures/real-connect-refused): what the real SDK clients did (observed.json) and what mcp-triage must say of the session that never became usable. node test/real-connect-refused/record.mjs re-records them (needs dist/).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, recordingRunner, triageCli, type CliRun, type RecordingView as View } from '../helpers/triage-cli.js';
import { allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-connect-refused/', import.meta.url));

interface Attempt { type: 'attempt'; session: string | null; method: string; status: number | null; outcome: string; findings: { code: string }[] }
interface SessionFinding { type: 'finding'; session: string | null; code: string; severity: string; message: string; sources: { file: string; line: number }[] }
type Run = CliRun<Attempt, SessionFinding>;
interface Step { step: string; ok: boolean; error?: { name: string; message: string; code?: number | string; status?: number } }
interface Observed { steps: Step[] }
interface Line { kind: string; xid: string; status?: number; send?: { method?: string } }

const run: (s: string, view?: View) => Run = recordingRunner<Attempt, SessionFinding>(DIR);
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
const lines = (s: string, side: 'client' | 'server') => readFileSync(`${DIR}${s}/${side}.ndjson`, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
/** The status each notifications/initialized POST got, in the order the log shows them. */
const initializedStatuses = (s: string, side: 'client' | 'server') => {
  const l = lines(s, side);
  return l.filter((r) => r.send?.method === 'notifications/initialized').map((r) => l.find((x) => x.kind === 'response' && x.xid === r.xid)?.status);
};
const sessionsView = (args: string[]) => {
  const p = spawnSync(process.execPath, [BIN, 'sessions', '--format', 'json', ...args], { encoding: 'utf8', timeout: 30_000 });
  return (JSON.parse(p.stdout) as { sessions: { session: string | null; failures: number; unusable?: string; findings: { error: number } }[] }).sessions;
};
const NEVER_USABLE = "the session never became usable (the TypeScript SDK's connect(), 1.x and v2, throws on that refusal, and no request worked in this session after it)";

/** scenario, the status the hop gave, the finding it is (a 404 under the session id is a lost session), the app reconnected. */
const REFUSED: [string, number, string, boolean][] = [
  ['v1-initialized-400', 400, 'NOTIFICATION_REFUSED', true],
  ['v1-initialized-404-plain', 404, 'SESSION_EXPIRED', true],
  ['v1-initialized-404-session-not-found', 404, 'SESSION_EXPIRED', true],
  ['v1-initialized-500-after-server', 500, 'NOTIFICATION_REFUSED', true],
  ['v1-initialized-503', 503, 'NOTIFICATION_REFUSED', true],
  ['v1-initialized-503-no-retry', 503, 'NOTIFICATION_REFUSED', false],
  ['v2-initialized-503', 503, 'NOTIFICATION_REFUSED', true],
  ['v2-initialized-404-session-not-found', 404, 'SESSION_EXPIRED', true],
];

describe('what the SDK clients did', () => {
  it.each(REFUSED)('%s: connect() threw with HTTP %i, the SDK did not re-send the notification, and the app\'s new connect worked', (s, status, _code, reconnected) => {
    const o = observed(s);
    expect(o.steps[0]).toMatchObject({ step: 'connect 1', ok: false });
    expect(o.steps[0]!.error!.status ?? o.steps[0]!.error!.code).toBe(status);
    // one notifications/initialized per connect: the refused one, then the new connect's accepted one
    expect(initializedStatuses(s, 'client')).toEqual(reconnected ? [status, 202] : [status]);
    expect(o.steps.slice(1).map((x) => x.ok)).toEqual(reconnected ? [true, true, true] : []);
    // the first session's client sent nothing more: only the initialize went out before the refusal
    const first = lines(s, 'client').filter((r) => r.kind === 'request').map((r) => r.send?.method ?? 'GET');
    expect(first.slice(0, 3)).toEqual(reconnected ? ['initialize', 'notifications/initialized', 'initialize'] : ['initialize', 'notifications/initialized']);
  });

  it('the hop answered for the server except in 500-after-server, where the server had accepted the notification (202)', () => {
    expect(initializedStatuses('v1-initialized-500-after-server', 'server')).toEqual([202, 202]);
    expect(initializedStatuses('v1-initialized-503', 'server')).toEqual([202]);
  });
});

describe('what mcp-triage says of it', () => {
  it.each(REFUSED)('%s: one %s-status finding, an error that says the session never became usable; every attempt succeeded', (s, status, code, reconnected) => {
    for (const view of ['both', 'client'] as View[]) {
      const r = run(s, view);
      expect(r.attempts.map((a) => a.outcome), view).toEqual(reconnected ? ['SUCCESS', 'SUCCESS', 'SUCCESS', 'TOOL_SUCCESS'] : ['SUCCESS']);
      expect(allCodes(r), view).toEqual([code]);
      const f = r.findings[0]!;
      expect(f.severity, view).toBe('error');
      expect(f.session, view).toBe(r.attempts[0]!.session);
      expect(f.message, view).toContain(`HTTP ${status} to its notifications/initialized, a POST with no request in it`);
      expect(f.message, view).toContain(NEVER_USABLE);
      expect(f.message, view).toMatch(reconnected ? /; the client (began a new session \(initialize\) after it|re-initialized)$/ : /; nothing more came in this session$/);
      expect(f.sources.map((x) => x.file), view).toEqual([`${DIR}${s}/client.ndjson`]);
    }
  });

  it.each(REFUSED)('%s: the server\'s log alone shows nothing refused, and says nothing', (s) => {
    expect(run(s, 'server').findings).toEqual([]);
  });

  it.each(REFUSED)('%s: the sessions view counts the first session as never usable, not the new one', (s, status, _code, reconnected) => {
    const rows = sessionsView(['--client', `${DIR}${s}/client.ndjson`, '--server', `${DIR}${s}/server.ndjson`]);
    expect(rows.map((r) => r.unusable)).toEqual(reconnected ? [`HTTP ${status} to notifications/initialized`, undefined] : [`HTTP ${status} to notifications/initialized`]);
    expect(rows.map((r) => [r.failures, r.findings.error])).toEqual(reconnected ? [[0, 1], [0, 0]] : [[0, 1]]);
  });

  it('the terminal and Markdown sessions tables say it in the failed column', () => {
    const args = ['--client', `${DIR}v1-initialized-503/client.ndjson`];
    const md = spawnSync(process.execPath, [BIN, 'sessions', '--format', 'markdown', ...args], { encoding: 'utf8', timeout: 30_000 }).stdout;
    expect(md).toContain('| 0, never usable (HTTP 503 to notifications/initialized) | 1 error |');
    const table = spawnSync(process.execPath, [BIN, 'sessions', ...args], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, COLUMNS: '250', NO_COLOR: '1' } }).stdout;
    expect(table).toContain('never usable (HTTP 503 to notifications/initialized)');
  });
});

describe('must not fire', () => {
  it('v1-initialized-accepted: the notification got 202 and the calls followed: no finding, no session marked', () => {
    for (const view of ['both', 'client', 'server'] as View[]) expect(allCodes(run('v1-initialized-accepted', view)), view).toEqual([]);
    expect(sessionsView(['--client', `${DIR}v1-initialized-accepted/client.ndjson`]).map((r) => r.unusable)).toEqual([undefined]);
  });

  it('v1-cancelled-refused: a refused notifications/cancelled after the call is a warning, and the session went on', () => {
    for (const view of ['both', 'client'] as View[]) {
      const r = run('v1-cancelled-refused', view);
      const f = r.findings.find((x) => x.code === 'NOTIFICATION_REFUSED')!;
      expect([f.severity, f.message], view).toEqual(['warning', expect.stringMatching(/HTTP 503 to its notifications\/cancelled, a POST with no request in it \(saying "queue full"\): it was not accepted; the session went on$/)]);
      expect(f.message).not.toContain('never became usable');
    }
    expect(sessionsView(['--client', `${DIR}v1-cancelled-refused/client.ndjson`]).map((r) => r.unusable)).toEqual([undefined]);
  });

  it('the no-retry capture without its notifications/initialized POST: nothing refused, nothing said', () => {
    const l = readFileSync(`${DIR}v1-initialized-503-no-retry/client.ndjson`, 'utf8').trim().split('\n').map((x) => JSON.parse(x) as Line);
    const note = l.find((r) => r.send?.method === 'notifications/initialized')!;
    const f = join(mkdtempSync(join(tmpdir(), 'connect-refused-')), 'client.ndjson');
    writeFileSync(f, l.filter((r) => r.xid !== note.xid).map((r) => JSON.stringify(r)).join('\n') + '\n');
    const r = triageCli<Attempt, SessionFinding>(['--client', f]);
    expect(r.attempts.map((a) => a.outcome)).toEqual(['SUCCESS']);
    expect(allCodes(r)).toEqual([]);
  });

  it('the refused session with a later request that worked in it (the client went on): a warning that says the session went on', () => {
    // the no-retry capture, and the accepted capture's tools/list put into its session after the refusal
    const refused = readFileSync(`${DIR}v1-initialized-503-no-retry/client.ndjson`, 'utf8').trim().split('\n').map((x) => JSON.parse(x) as Line & { ts: string; session: string | null; requestHeaders?: Record<string, string> });
    const sid = refused.find((r) => r.kind === 'response' && r.status === 200) as unknown as { responseHeaders: Record<string, string> };
    const session = sid.responseHeaders['mcp-session-id']!;
    const last = Date.parse(refused.at(-1)!.ts);
    const ok = readFileSync(`${DIR}v1-initialized-accepted/client.ndjson`, 'utf8').trim().split('\n').map((x) => JSON.parse(x) as Line & { ts: string; session: string | null; requestHeaders?: Record<string, string> });
    const list = ok.find((r) => r.send?.method === 'tools/list')!;
    const t0 = Date.parse(list.ts);
    const moved = ok.filter((r) => r.xid === list.xid).map((r) => ({ ...r, xid: `moved-${r.xid}`, session, ts: new Date(last + 50 + Date.parse(r.ts) - t0).toISOString(), ...(r.requestHeaders ? { requestHeaders: { ...r.requestHeaders, 'mcp-session-id': session } } : {}) }));
    const f = join(mkdtempSync(join(tmpdir(), 'connect-refused-')), 'client.ndjson');
    writeFileSync(f, [...refused, ...moved].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const r = triageCli<Attempt, SessionFinding>(['--client', f]);
    expect(r.attempts.map((a) => [a.method, a.outcome])).toEqual([['initialize', 'SUCCESS'], ['tools/list', 'SUCCESS']]);
    expect(r.findings.map((x) => [x.code, x.severity])).toEqual([['NOTIFICATION_REFUSED', 'warning']]);
    expect(r.findings[0]!.message).toMatch(/it was not accepted \(the TypeScript SDK's connect\(\) throws on that\); the session went on$/);
  });
});
