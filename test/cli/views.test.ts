// The sessions and timeline views end to end: checked against the attempts the ndjson report gives for the same input.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOTH, SAMPLES, cli, exchange } from './helpers.js';
import type { SessionRow } from '../../src/views/sessions.js';

interface Line { type: string; session: string | null; scope?: string; outcome: string; ts?: string; attempt?: number; id: unknown; findings: { severity: string }[] }

async function attemptsOf(argv: string[]): Promise<Line[]> {
  const r = await cli([...argv, '--format', 'ndjson']);
  expect(r.code).toBe(0);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Line).filter((l) => l.type === 'attempt');
}

const ok = (o: string) => o === 'SUCCESS' || o === 'TOOL_SUCCESS';

describe('mcp-triage sessions', () => {
  it('one row per session whose counts agree with the attempts of the analysis', async () => {
    const attempts = await attemptsOf(BOTH);
    const r = await cli(['sessions', ...BOTH, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as { version: number; view: string; sessions: SessionRow[]; summary: { attempts: number } };
    expect(doc).toMatchObject({ version: 1, view: 'sessions' });
    const keys = [...new Set(attempts.map((a) => a.session ?? a.scope))];
    expect(doc.sessions.map((s) => s.session ?? s.scope).sort()).toEqual(keys.sort());
    for (const s of doc.sessions) {
      const mine = attempts.filter((a) => (a.session ?? a.scope) === (s.session ?? s.scope));
      expect(s.attempts).toBe(mine.length);
      expect(s.failures).toBe(mine.filter((a) => !ok(a.outcome)).length);
      expect(s.retries).toBe(mine.filter((a) => (a.attempt ?? 1) > 1).length);
      expect(Object.values(s.failed).reduce((x, y) => x + (y ?? 0), 0)).toBe(s.failures);
      const times = mine.map((a) => a.ts!).sort();
      expect(s.first).toBe(times[0]);
      expect(s.last! >= times.at(-1)!).toBe(true);
    }
    expect(doc.sessions.reduce((n, s) => n + s.attempts, 0)).toBe(doc.summary.attempts);
    // Sessions come in the order they started; the log's client name is known.
    expect(doc.sessions.map((s) => s.first)).toEqual(doc.sessions.map((s) => s.first).sort());
    // clientInfo from initialize (name/version), serverInfo and the version the initialize result settled on.
    expect(doc.sessions[0]).toMatchObject({ client: 'acme-agent/2.4.1', server: 'tickets-mcp/3.1.0', protocolVersion: '2025-11-25' });
    expect(doc.sessions[0]!.sides).toEqual(['client', 'server']);
  });

  it('takes the filters: only sessions with a kept attempt, counted over kept attempts', async () => {
    const r = await cli(['sessions', ...BOTH, '--outcome', 'HTTP_ERROR', '--format', 'json']);
    const doc = JSON.parse(r.stdout) as { sessions: SessionRow[]; summary: { filters: unknown } };
    expect(doc.summary.filters).toEqual({ outcome: ['HTTP_ERROR'] });
    expect(doc.sessions.length).toBeGreaterThan(0);
    for (const s of doc.sessions) {
      expect(s.attempts).toBe(s.failures);
      expect(Object.keys(s.failed)).toEqual(['HTTP_ERROR']);
    }
  });

  it('a terminal table and a Markdown table, the filters stated in both', async () => {
    // Wide enough that the session ids and outcomes are not wrapped (the width test is below).
    const table = await cli(['sessions', ...BOTH, '--tool', 'search_tickets'], { env: { COLUMNS: '1000' } });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^mcp-triage sessions: 2 sessions/);
    // What the filters left out follows them (the attempts of every other method and tool).
    const all = (JSON.parse((await cli([...BOTH, '--format', 'json'])).stdout) as { summary: { attempts: number } }).summary.attempts;
    const kept = (JSON.parse((await cli([...BOTH, '--tool', 'search_tickets', '--format', 'json'])).stdout) as { summary: { attempts: number } }).summary.attempts;
    expect(table.stdout).toMatch(new RegExp(`^filters: --tool search_tickets \\(left out: ${all - kept} of ${all} attempts(, \\d+ session findings?)?\\)$`, 'm'));
    expect(table.stdout).toContain('a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601');
    expect(table.stdout).not.toContain('\u001b[');
    expect((await cli(['sessions', ...BOTH, '--color', 'always'], { env: { COLUMNS: '1000' } })).stdout).toMatch(/\u001b\[31m\d+ HTTP_ERROR/);
    const md = await cli(['sessions', ...BOTH, '--tool', 'search_tickets', '--format', 'markdown']);
    expect(md.stdout).toMatch(/^# MCP sessions\n/);
    expect(md.stdout).toContain('**Filters:** `--tool search_tickets`');
    expect(md.stdout).toMatch(/^\| session \| client \|/m);
    expect(md.stdout.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| session') && !l.startsWith('| ---'))).toHaveLength(2);
  });

  it('groups session-less traffic by connection or input, and names the input', async () => {
    const r = await cli(['sessions', `${SAMPLES}stdio.ndjson`], { env: { COLUMNS: '1000' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/input#0 \(no session id; .*stdio\.ndjson\)/);
  });

  it('keeps the file name of a session-less input readable however deep its path', async () => {
    const dir = await mkdtemp(join(tmpdir(), `${'deeply-nested-directory-'.repeat(4)}`));
    const file = join(dir, 'stdio.ndjson');
    await copyFile(`${SAMPLES}stdio.ndjson`, file);
    const r = await cli(['sessions', file], { env: { COLUMNS: '1000' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/input#0 \(no session id; .*….*stdio\.ndjson\)/);
    await rm(dir, { recursive: true });
  });

  it('says so when nothing passes', async () => {
    const r = await cli(['sessions', ...BOTH, '--tool', 'no_such_tool']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No sessions');
  });

  it('names client and server from initialize, and the protocol version its result settled on (not the one asked for)', async () => {
    const init = JSON.parse(exchange({ ts: '2026-10-17T10:00:00.000Z', session: 'sess-1', id: 0, method: 'initialize', side: 'client', client: 'from-the-log@0', result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'orders', version: '2.0.1' } } })) as { send: { params: unknown } };
    init.send.params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'support-bot', version: '7.3.0' } };
    const call = exchange({ ts: '2026-10-17T10:00:01.000Z', session: 'sess-1', id: 1, side: 'client', client: 'from-the-log@0' });
    const other = exchange({ ts: '2026-10-17T10:00:02.000Z', session: 'sess-2', id: 1, side: 'client', client: 'from-the-log@0' });
    const r = await cli(['sessions', '-', '--format', 'json'], { stdin: [JSON.stringify(init), call, other] });
    const doc = JSON.parse(r.stdout) as { sessions: SessionRow[] };
    expect(doc.sessions[0]).toMatchObject({ session: 'sess-1', client: 'support-bot/7.3.0', server: 'orders/2.0.1', protocolVersion: '2025-06-18' });
    // Without an initialize in the log, the client name the log records.
    expect(doc.sessions[1]).toMatchObject({ session: 'sess-2', client: 'from-the-log@0' });
    expect(doc.sessions[1]!.server).toBeUndefined();
  });
});

describe('the sessions table fits the width', () => {
  // `npm start`'s inputs: seven sessions, with ids and without (a HAR and a stdio log given plain), four clients.
  const START = ['sessions', ...BOTH, `${SAMPLES}claims.ndjson`, `${SAMPLES}capture.har.ndjson`, `${SAMPLES}stdio.ndjson`];
  const widest = (text: string) => Math.max(...text.split('\n').map((l) => [...l].length));
  const table = async (columns: number) => (await cli(START, { env: { COLUMNS: String(columns) } })).stdout;

  it.each([160, 200])('at %i columns: no line is wider, session ids stay whole, the label of an input without ids wraps and keeps its file name', async (columns) => {
    const t = await table(columns);
    expect(widest(t)).toBeLessThanOrEqual(columns);
    expect(t).toContain('a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601');
    expect(t).toMatch(/│ input#1 \(no session id;\s+│/);
    expect(t).toMatch(/│ \S*capture\.har\.ndjson\)\s+│/);
  });

  it('client and server names give way after the session label: whole parts at 180 columns, one line each at 260', async () => {
    // At 180 the failures already go under the row (they do not fit beside it), and the names wrap at their `/`.
    const t = await table(180);
    expect(t).toMatch(/│ acme-agent\/\s+│ tickets-mcp\/\s+│/);
    const wide = await table(260);
    expect(wide).toMatch(/│ acme-agent\/2\.4\.1\s+│ tickets-mcp\/3\.1\.0\s+│/);
    expect(wide).toContain('input#1 (no session id; ');
  });

  it.each([80, 60])('at %i columns it takes its narrow layout (see test/views/narrow.test.ts): no line wider, each id above its row, the failures under it', async (columns) => {
    const t = await table(columns);
    expect(widest(t)).toBeLessThanOrEqual(columns);
    expect(t).toMatch(/^│ session: a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601 +│$/m);
    expect(t).toMatch(/│ failed: 10\s+│\n│ 4 HTTP_ERROR\s+│/);
  });
});

describe('mcp-triage timeline', () => {
  it('every attempt of the one session, in time order, as the analysis counts them', async () => {
    const attempts = (await attemptsOf(BOTH)).filter((a) => a.session?.startsWith('a3f1'));
    const r = await cli(['timeline', 'a3f1', ...BOTH, '--format', 'json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { view: string; session: string; attempts: Line[]; findings: { code: string }[]; summary: { filters: unknown; attempts: number } };
    expect(doc.view).toBe('timeline');
    expect(doc.session).toBe('a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601');
    expect(doc.attempts).toHaveLength(attempts.length);
    expect(doc.summary.attempts).toBe(attempts.length);
    expect(doc.summary.filters).toEqual({ session: ['a3f1'] });
    const times = doc.attempts.map((a) => a.ts!);
    expect(times).toEqual([...times].sort());
    expect(new Set(doc.attempts.map((a) => a.session))).toEqual(new Set([doc.session]));
    expect(doc.findings.map((f) => f.code)).toContain('SESSION_EXPIRED');
  });

  it('shows the client and the server view side by side, retries as call#attempt, SSE and cancellation', async () => {
    // Wide enough that every row is one line (narrower, notes go under their row: see test/report/grid.test.ts).
    const r = await cli(['timeline', 'a3f1', ...BOTH], { env: { COLUMNS: '400' } });
    expect(r.code).toBe(0);
    const rowOf = (re: RegExp) => r.stdout.split('\n').find((l) => re.test(l)) ?? '';
    // The 503 came from something in front of the server: the server never logged the POST.
    expect(rowOf(/│ 3 +│/)).toMatch(/503 HTTP_ERROR +│ not seen by server/);
    // The export: the client saw a cut stream and cancelled, the server had sent its result.
    expect(rowOf(/│ 6 +│/)).toMatch(/200 STREAM_INCOMPLETE +│ 200 TOOL_SUCCESS .*stream aborted.*cancelled by the client/);
    expect(rowOf(/│ 7 +│/)).toMatch(/c\d+#2/);
    expect(r.stdout).toMatch(/^Session a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601: client acme-agent\/2\.4\.1, server tickets-mcp\/3\.1\.0, protocol 2025-11-25;/);
  });

  it('with only the client log, the server column says it was not logged', async () => {
    const r = await cli(['timeline', 'a3f1', '--client', `${SAMPLES}client.ndjson`, '--format', 'json']);
    const doc = JSON.parse(r.stdout) as { attempts: { serverOutcome?: string; notSeenByServer?: boolean }[] };
    expect(doc.attempts.every((a) => a.serverOutcome === undefined && !a.notSeenByServer)).toBe(true);
    const table = await cli(['timeline', 'a3f1', '--client', `${SAMPLES}client.ndjson`]);
    const rows = table.stdout.split('\n').filter((l) => /^│ \d\d:/.test(l));
    expect(rows.length).toBe(doc.attempts.length);
    for (const row of rows) expect(row.split('│')[7]!.trim()).toBe('-');
  });

  it('a log without sides (stdio) shows its one view in the client column and says the side is unknown', async () => {
    const r = await cli(['timeline', 'input#0', `${SAMPLES}stdio.ndjson`]);
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => /^│ \d\d:/.test(l));
    expect(rows.length).toBe(7);
    for (const row of rows) {
      const cells = row.split('│').map((c) => c.trim());
      expect(cells[6]).toMatch(/^- [A-Z_]+$/);
      expect(cells[7]).toBe('(no side)');
    }
    expect(rows[5]).toMatch(/resources\/read .*INVALID_RESULT/);
    expect(rows[6]).toContain('UNANSWERED');
    // The task-augmented call: accepted as a task, then its tasks/get and tasks/result continue the same call.
    expect(rows.slice(2, 5).map((row) => row.split('│')[4]!.trim())).toEqual(['c3#1', 'c3#2', 'c3#3']);
    expect(rows[2]).toContain('TASK_CREATED');
    expect(rows[4]).toMatch(/tasks\/result .*TOOL_SUCCESS/);
  });

  it('as Markdown: the exchanges table and a sequence diagram', async () => {
    const r = await cli(['timeline', 'a3f1', ...BOTH, '--tool', 'create_ticket', '--format', 'markdown']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# Session `a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601`/);
    // The session is the heading's; the filters line states the others only (timeline refuses --session).
    expect(r.stdout).toContain('**Filters:** `--tool create_ticket`');
    expect(r.stdout).not.toContain('--session');
    expect(r.stdout).toContain('```mermaid\nsequenceDiagram');
    const rows = r.stdout.split('\n').filter((l) => /^\| \d\d:/.test(l));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.every((l) => l.includes('create\\_ticket'))).toBe(true);
  });

  it("states the filters besides its session in the terminal table, and none when the session is the only one", async () => {
    const plain = await cli(['timeline', 'a3f1', ...BOTH]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toMatch(/^filters:/m);
    const tool = await cli(['timeline', 'a3f1', ...BOTH, '--tool', 'create_ticket']);
    // What the filter left out of this session follows it: every attempt of the session but the kept ones.
    const count = async (extra: string[]) => (JSON.parse((await cli(['timeline', 'a3f1', ...BOTH, ...extra, '--format', 'json'])).stdout) as { attempts: unknown[] }).attempts.length;
    const all = await count([]);
    const kept = await count(['--tool', 'create_ticket']);
    expect(tool.stdout).toMatch(new RegExp(`^filters: --tool create_ticket \\(left out: ${all - kept} of ${all} attempts of this session\\)$`, 'm'));
    expect(tool.stdout).not.toContain('--session');
  });

  it('exit 2 for a prefix that matches no session (naming the ones seen) or several', async () => {
    const none = await cli(['timeline', 'zzzz', ...BOTH]);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/no session starts with "zzzz"; sessions seen: .*a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601/);
    const log = ['s-alpha', 's-beta'].map((s, i) => exchange({ ts: `2026-10-17T10:00:0${i}.000Z`, session: s, id: 1, side: 'client' }));
    const many = await cli(['timeline', 's-', '-'], { stdin: log });
    expect(many.code).toBe(2);
    expect(many.stderr).toMatch(/"s-" matches 2 sessions: s-alpha, s-beta; give more of the id/);
    const one = await cli(['timeline', 's-b', '-', '--format', 'json'], { stdin: log });
    expect(one.code).toBe(0);
    expect((JSON.parse(one.stdout) as { session: string }).session).toBe('s-beta');
  });

  it('a key that is whole and also the start of another (client-1, client-10) selects the one named exactly', async () => {
    const log = ['client-1', 'client-10'].map((s, i) => exchange({ ts: `2026-10-17T10:00:0${i}.000Z`, session: s, id: 1, side: 'client' }));
    const exact = await cli(['timeline', 'client-1', '-', '--format', 'json'], { stdin: log });
    expect(exact.code).toBe(0);
    expect((JSON.parse(exact.stdout) as { session: string }).session).toBe('client-1');
    expect((await cli(['timeline', 'client-', '-'], { stdin: log })).code).toBe(2);
  });

  it('needs a SESSION', async () => {
    const r = await cli(['timeline']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Missing required argument: session|needs a SESSION/);
  });
});

describe('--no-redact in the views', () => {
  const SECRET = 'skLive5SECRET9';
  // A client whose log names it with its token, and a server that quotes the caller's Authorization header back.
  const log = [
    exchange({ ts: '2026-10-17T10:00:00.000Z', session: 'sess-redact', id: 1, side: 'client', client: `token=${SECRET}` }),
    exchange({ ts: '2026-10-17T10:00:01.000Z', session: 'sess-redact', id: 2, side: 'client', error: { code: -32001, message: `upstream rejected Authorization: Bearer ${SECRET}` } }),
  ];

  it('timeline and sessions say that redaction is off whenever they print secrets, in every format that shows them', async () => {
    for (const view of [['timeline', 'sess'], ['sessions']]) {
      for (const format of ['table', 'markdown']) {
        const name = `${view[0]} --format ${format}`;
        // Wide: no cell wraps, so the secret shows whole when it is printed.
        const env = { COLUMNS: '1000' };
        const off = await cli([...view, '-', '--no-redact', '--format', format], { stdin: log, env });
        expect(off.code, name).toBe(0);
        expect(off.stdout, name).toContain(SECRET);
        expect(off.stdout, name).toMatch(format === 'table' ? /^Redaction is OFF \(--no-redact\): secrets from the logs are shown as they are\.$/m : /\*\*Redaction is off\*\*: secrets from the logs appear as they are\./);
        const on = await cli([...view, '-', '--format', format], { stdin: log, env });
        expect(on.stdout, name).not.toContain(SECRET);
        expect(on.stdout, name).not.toMatch(/Redaction is OFF|Redaction is off/i);
        expect(on.stdout, name).toMatch(/Secrets are redacted/);
      }
    }
  });

  it('the warning is painted like the analysis table paints it', async () => {
    const r = await cli(['timeline', 'sess', '-', '--no-redact', '--color', 'always'], { stdin: log });
    expect(r.stdout).toContain('\u001b[33mRedaction is OFF (--no-redact): secrets from the logs are shown as they are.\u001b[0m');
  });
});

describe('session ids with control characters are chosen by what the reports print', () => {
  // Printed without their control characters: sess-red-1, sess-red-10, bell-2, bell-2.
  const log = [
    exchange({ ts: '2026-10-17T10:00:00.000Z', session: 'sess-\u001b[31mred\u001b[0m-1', id: 1, side: 'client', status: 503 }),
    exchange({ ts: '2026-10-17T10:00:01.000Z', session: 'sess-red-10', id: 2, side: 'client', status: 503 }),
    exchange({ ts: '2026-10-17T10:00:02.000Z', session: 'bell\u0007-2', id: 3, side: 'client' }),
    exchange({ ts: '2026-10-17T10:00:03.000Z', session: 'be\u001b[1mll-2', id: 4, side: 'client' }),
  ];
  const sessionsOf = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l) as Line).filter((l) => l.type === 'attempt').map((a) => a.session);

  it('the sessions table prints the ids without their control characters', async () => {
    const r = await cli(['sessions', '-'], { stdin: log, env: { COLUMNS: '1000' } });
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(r.stdout).toMatch(/│ sess-red-1 +│/);
    expect(r.stdout.match(/│ bell-2 +│/g)).toHaveLength(2);
  });

  it('--session with the printed id keeps that session (and, as a prefix, the longer id), and not the others', async () => {
    const r = await cli(['-', '--session', 'sess-red-1', '--format', 'ndjson'], { stdin: log });
    expect(sessionsOf(r.stdout)).toEqual(['sess-\u001b[31mred\u001b[0m-1', 'sess-red-10']);
    const bell = await cli(['-', '--session', 'bell-', '--format', 'ndjson'], { stdin: log });
    expect(sessionsOf(bell.stdout)).toEqual(['bell\u0007-2', 'be\u001b[1mll-2']);
    // The leftovers of an escape sequence are not the printed form: nothing matches.
    const none = await cli(['-', '--session', 'sess-[31m', '--format', 'ndjson'], { stdin: log });
    expect(sessionsOf(none.stdout)).toEqual([]);
  });

  it('timeline with the printed id shows that session: given whole it wins over a longer id, as a logged id does', async () => {
    const r = await cli(['timeline', 'sess-red-1', '-', '--format', 'json'], { stdin: log });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { session: string; attempts: Line[] };
    expect(doc.session).toBe('sess-\u001b[31mred\u001b[0m-1');
    expect(doc.attempts.map((a) => a.id)).toEqual([1]);
    // The id as logged still works, and the plain id next to it is still its own.
    expect(JSON.parse((await cli(['timeline', 'sess-\u001b[31mred', '-', '--format', 'json'], { stdin: log })).stdout).session).toBe('sess-\u001b[31mred\u001b[0m-1');
    expect(JSON.parse((await cli(['timeline', 'sess-red-10', '-', '--format', 'json'], { stdin: log })).stdout).session).toBe('sess-red-10');
    const table = await cli(['timeline', 'sess-red-1', '-'], { stdin: log, env: { COLUMNS: '1000' } });
    expect(table.stdout.split('\n')[0]).toMatch(/^Session sess-red-1: /);
  });

  it('two ids that print alike are ambiguous by that form: the message shows each as logged, escaped', async () => {
    const r = await cli(['timeline', 'bell-2', '-'], { stdin: log });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('"bell-2" matches 2 sessions: bell-2 (logged as "bell\\u0007-2"), bell-2 (logged as "be\\u001b[1mll-2"); give more of the id (some print alike');
    expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    const logged = await cli(['timeline', 'bell\u0007', '-', '--format', 'json'], { stdin: log });
    expect(JSON.parse(logged.stdout).session).toBe('bell\u0007-2');
    const neither = await cli(['timeline', 'bell-3', '-'], { stdin: log });
    expect(neither.code).toBe(2);
    expect(neither.stderr).toMatch(/no session starts with "bell-3"/);
  });
});
