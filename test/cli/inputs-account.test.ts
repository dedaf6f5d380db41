// The input account on real logs: lines without MCP traffic are skipped (not problems, not fatal with --strict), and a plain input next to --server is the client's view, counted once.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { NdjsonSummarySchema } from '../../src/report/schema.js';
import { analyze } from '../../src/index.js';
import { ROOT, SAMPLES, cli } from './helpers.js';

const CLAUDE = join(ROOT, 'test/fixtures/real-claude-code/timeout/mcp-logs-web.jsonl');
const HAR = join(SAMPLES, 'formats/capture.har');
const CUT = join(ROOT, 'test/fixtures/real-har/sse-cut');

/** The summary of a --format json run. */
const summaryOf = (stdout: string) => (JSON.parse(stdout) as { summary: Record<string, unknown> }).summary as {
  lines: { read: number; used: number; blank: number; skipped: number; unusable: number };
  inputs: { name: string; side?: string; sideAssumed?: boolean; lines: number; used: number; blank: number; skipped: number; unusable: number; reasons: Record<string, number>; accounted: boolean }[];
  diagnostics: { total: number; byCode: Record<string, number> };
  notes: string[];
  attempts: number;
};

describe('lines without MCP traffic are skipped, not problems', () => {
  it("Claude Code's log: its connection and stderr lines are skipped, nothing on stderr, no input problem", async () => {
    const r = await cli([CLAUDE, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const s = summaryOf(r.stdout);
    expect(s.lines).toEqual({ read: 28, used: 1, blank: 0, skipped: 27, unusable: 0 });
    expect(s.inputs[0]!.reasons).toEqual({});
    expect(s.inputs[0]!.accounted).toBe(true);
    expect(s.diagnostics.total).toBe(0);
  });

  it('the table counts them in their own column and prints no "Input problems" line', async () => {
    const r = await cli([CLAUDE]);
    expect(r.stdout).toContain('Inputs (lines = used + blank + skipped + unusable');
    expect(r.stdout).not.toContain('Input problems');
    expect(r.stdout).not.toContain('no-mcp-traffic');
  });

  it('a HAR: the favicon entry is skipped, not reported', async () => {
    const r = await cli([HAR, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const s = summaryOf(r.stdout);
    expect(s.inputs[0]).toMatchObject({ lines: 6, used: 5, skipped: 1, unusable: 0, accounted: true });
  });

  it('--strict does not stop at a skipped line: a normal Claude Code log and the sample HAR finish with exit 0', async () => {
    for (const input of [CLAUDE, HAR]) {
      const r = await cli([input, '--strict', '--format', 'ndjson']);
      expect(r.code, input).toBe(0);
      expect(r.stderr, input).toBe('');
      expect(NdjsonSummarySchema.parse(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).lines).toMatchObject({ unusable: 0 });
    }
  });

  it('a broken line is still a problem, and still fatal with --strict', async () => {
    const lines = ['{"resourceSpans":[]}', '{not json'];
    const r = await cli(['-', '--format', 'json'], { stdin: lines });
    expect(summaryOf(r.stdout).lines).toEqual({ read: 2, used: 0, blank: 0, skipped: 1, unusable: 1 });
    expect(r.stderr).toContain('<stdin>:2: invalid JSON');
    const strict = await cli(['-', '--strict'], { stdin: lines });
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('<stdin>:2: invalid JSON');
  });

  it('an OTLP span without MCP attributes is skipped; an input with nothing but skipped lines is said once on stderr', async () => {
    const span = { name: 'GET /', traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000100000000', attributes: [{ key: 'http.method', value: { stringValue: 'GET' } }] };
    const line = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] });
    const r = await cli(['-', '--strict', '--format', 'json'], { stdin: [line, line] });
    expect(r.code).toBe(0);
    const s = summaryOf(r.stdout);
    expect(s.lines).toMatchObject({ read: 2, skipped: 2, unusable: 0 });
    expect(r.stderr).toBe('mcp-triage: <stdin>: no line of it carries MCP traffic (2 skipped): nothing in it was analyzed\n');
    expect(s.notes).toContain('<stdin>: no line of it carries MCP traffic (2 skipped): nothing in it was analyzed');
  });

  it('an input of blank lines only is said once on stderr and as a note; one with a used line among blank ones is not', async () => {
    const r = await cli(['-', '--format', 'json'], { stdin: ['', '   ', ''] });
    expect(r.code).toBe(0);
    const s = summaryOf(r.stdout);
    expect(s.lines).toMatchObject({ read: 3, blank: 3, used: 0 });
    expect(r.stderr).toBe('mcp-triage: <stdin>: every line of it (3) is blank: nothing in it was analyzed\n');
    expect(s.notes).toContain('<stdin>: every line of it (3) is blank: nothing in it was analyzed');
    const some = await cli(['-', '--format', 'json'], { stdin: ['', readFileSync(join(SAMPLES, 'client.ndjson'), 'utf8').split('\n')[0]!, ''] });
    expect(some.stderr).not.toContain('is blank');
  });

  it('an API page whose records carry no MCP traffic counts as one skipped line', async () => {
    const page = JSON.stringify({ data: [{ attributes: { attributes: { debug: 'Successfully connected', timestamp: '2026-01-01T00:00:00Z', sessionId: 's', cwd: '/' } } }] });
    const r = await cli(['-', '--strict', '--format', 'json'], { stdin: [page] });
    expect(r.code).toBe(0);
    expect(summaryOf(r.stdout).lines).toMatchObject({ read: 1, used: 0, skipped: 1, unusable: 0 });
  });

  it('`mcp-triage formats` says what skipped means', async () => {
    const r = await cli(['formats']);
    expect(r.stdout).toContain('lines = used + blank + skipped + unusable');
    expect(r.stdout).toMatch(/skipped {3}well-formed in its format but no MCP traffic/);
  });
});

describe('a plain input next to --server is the client view', () => {
  it('the real sse-cut HAR given plain next to --server: each call once, as with --client, said once on stderr', async () => {
    const plain = await cli([`${CUT}.har`, '--server', `${CUT}.server.ndjson`, '--format', 'json']);
    const sided = await cli(['--client', `${CUT}.har`, '--server', `${CUT}.server.ndjson`, '--format', 'json']);
    expect(plain.code).toBe(0);
    const p = JSON.parse(plain.stdout) as { attempts: unknown[]; findings: unknown[] };
    const s = JSON.parse(sided.stdout) as { attempts: unknown[]; findings: unknown[] };
    expect(p.attempts).toHaveLength(2);
    expect(p.attempts).toEqual(s.attempts);
    expect(p.findings).toEqual(s.findings);
    const note = `${CUT}.har: given without a side next to server-side logs only, and its records state none: read as the client's view, to be joined to theirs (give it with --client to say so)`;
    expect(plain.stderr).toBe(`mcp-triage: ${note}\n`);
    expect(sided.stderr).toBe('');
    const summary = summaryOf(plain.stdout);
    expect(summary.notes).toEqual([note]);
    expect(summary.inputs[0]).toMatchObject({ side: 'client', sideAssumed: true });
    expect(summaryOf(sided.stdout).inputs[0]!.sideAssumed).toBeUndefined();
  });

  it('the table says the side was assumed; the sessions view sees both sides and two attempts', async () => {
    const table = await cli([`${CUT}.har`, '--server', `${CUT}.server.ndjson`]);
    expect(table.stdout).toMatch(/^mcp-triage \S+: 2 attempts in 2 calls/);
    expect(table.stdout).toContain('client (assumed)');
    const sessions = await cli(['sessions', `${CUT}.har`, '--server', `${CUT}.server.ndjson`], { env: { COLUMNS: '1000' } });
    expect(sessions.stdout).toMatch(/client\+server\s*│\s*2\s*│/);
  });

  it('the library assumes the same', async () => {
    const r = await analyze({ inputs: [{ path: `${CUT}.har` }, { path: `${CUT}.server.ndjson`, side: 'server' }] });
    expect(r.attempts).toHaveLength(2);
    expect(r.attempts.every((a) => a.side === 'client')).toBe(true);
    expect(r.summary.inputs[0]!.sideAssumed).toBe(true);
  });

  it('changes nothing for a plain input alone', async () => {
    const r = await cli([`${CUT}.har`, '--format', 'json']);
    expect(r.stderr).toBe('');
    const s = summaryOf(r.stdout);
    expect(s.notes).toEqual([]);
    expect(s.inputs[0]!.side).toBeUndefined();
    expect(s.attempts).toBe(2);
  });

  it('keeps the side records state: a plain server log (records with "side") next to another --server log', async () => {
    const r = await cli([`${CUT}.server.ndjson`, '--server', `${SAMPLES}server.ndjson`, '--format', 'json']);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { attempts: { side?: string; sources: { file: string }[] }[]; summary: { notes: string[]; inputs: { side?: string }[] } };
    const cut = out.attempts.filter((a) => a.sources[0]!.file.includes('sse-cut'));
    expect(cut.map((a) => a.side)).toEqual(['server', 'server']);
    expect(out.summary.notes).toEqual([]);
    expect(out.summary.inputs[0]!.side).toBeUndefined();
  });
});

describe('two plain files of the same sessions whose names say no side (a client log and a server log given without sides)', () => {
  // The samples' two logs under names that say no side (client.ndjson and server.ndjson would be sided by their names).
  const unnamed = mkdtempSync(join(tmpdir(), 'mcp-triage-plain-'));
  const CLIENT = join(unnamed, 'first.ndjson');
  const SERVER = join(unnamed, 'second.ndjson');
  writeFileSync(CLIENT, readFileSync(`${SAMPLES}client.ndjson`));
  writeFileSync(SERVER, readFileSync(`${SAMPLES}server.ndjson`));
  afterAll(() => rmSync(unnamed, { recursive: true, force: true }));
  const NOTE = `${CLIENT} and ${SERVER} carry the same sessions without saying which side wrote them: they are analyzed apart; give them as --client and --server to join them`;
  type Out = {
    attempts: { sources: { file: string }[]; findings?: { code: string; message: string }[] }[];
    summary: { notes: string[]; findings: { byCode: Record<string, number> } };
  };
  const json = async (argv: string[]) => {
    const r = await cli([...argv, '--format', 'json']);
    return { ...r, out: JSON.parse(r.stdout) as Out };
  };
  /** Each ID_REUSED as [the file of the attempt that raised it, the file of the open request it names]. */
  const reusedFiles = (o: Out) => o.attempts.flatMap((a) => (a.findings ?? []).filter((f) => f.code === 'ID_REUSED').map((f) => [a.sources[0]!.file, /the request at (.+):\d+ /.exec(f.message)?.[1]]));

  it('raises no ID_REUSED from one file against the other: each file keeps only its own', async () => {
    const pair = await json([CLIENT, SERVER]);
    const reused = reusedFiles(pair.out);
    expect(reused.length).toBeGreaterThan(0);
    for (const [file, named] of reused) expect(named).toBe(file);
    const alone = [(await json([CLIENT])).out, (await json([SERVER])).out];
    expect(pair.out.summary.findings.byCode.ID_REUSED).toBe(alone.reduce((n, o) => n + (o.summary.findings.byCode.ID_REUSED ?? 0), 0));
    expect(pair.out.attempts).toHaveLength(alone[0]!.attempts.length + alone[1]!.attempts.length);
  });

  it('says once, on stderr and as a note, that they are apart and how to join them', async () => {
    const pair = await json([CLIENT, SERVER]);
    expect(pair.stderr).toBe(`mcp-triage: ${NOTE}\n`);
    expect(pair.out.summary.notes).toEqual([NOTE]);
    const table = await cli([CLIENT, SERVER]);
    expect(table.stdout.split(NOTE.slice(0, 60)).length - 1).toBe(1);
  });

  it('the library says the same', async () => {
    const r = await analyze({ inputs: [{ path: CLIENT }, { path: SERVER }] });
    expect(r.summary.notes).toEqual([NOTE]);
    expect(r.summary.findings.byCode.ID_REUSED).toBe(2);
  });

  it('says nothing for one plain file, nor for the two given with their sides', async () => {
    const one = await json([CLIENT]);
    expect(one.stderr).toBe('');
    expect(one.out.summary.notes).toEqual([]);
    const sided = await json(['--client', CLIENT, '--server', SERVER]);
    expect(sided.stderr).toBe('');
    expect(sided.out.attempts).toHaveLength(24);
  });

  it("says nothing for `npm start`'s inputs (plain claims, HAR and stdio logs next to both sides)", async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
    const args = pkg.scripts.start.replace(/^node dist\/bin\.cjs /, '').split(' ').map((a) => (a.startsWith('-') ? a : join(ROOT, a)));
    const r = await json(args);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.out.summary.notes.filter((n) => n.includes('carry the same sessions'))).toEqual([]);
  });
});

describe('a file named twice is read once', () => {
  const client = `${SAMPLES}client.ndjson`;
  const server = `${SAMPLES}server.ndjson`;

  it('twice for one side, or by another path: the same report as once, and one line on stderr', async () => {
    const once = await cli(['--client', client, '--server', server, '--format', 'ndjson']);
    const twice = await cli(['--client', client, '--client', `${SAMPLES}../samples/client.ndjson`, '--server', server, '--format', 'ndjson']);
    expect(twice.code).toBe(once.code);
    const strip = (s: string) => s.split('\n').filter((l) => !l.includes('"type":"summary"')).join('\n');
    expect(strip(twice.stdout)).toBe(strip(once.stdout));
    expect(twice.stderr).toBe(`mcp-triage: ${SAMPLES}../samples/client.ndjson is the same file as ${client} (--client, --client): read once, or every call in it would be counted twice\n`);
    // Read twice, every record of the copy came out as a DUPLICATE_RECORD (the samples hold one such record of their own).
    const duplicates = (out: string) => out.split('DUPLICATE_RECORD').length - 1;
    expect(duplicates(twice.stdout)).toBe(duplicates(once.stdout));
  });

  it('once without a side and once with one: read with its side', async () => {
    const r = await cli([client, '--client', client, '--server', server, '--format', 'json']);
    const s = summaryOf(r.stdout);
    expect(s.inputs.map((i) => [i.name.split('/').pop(), i.side])).toEqual([['client.ndjson', 'client'], ['server.ndjson', 'server']]);
    expect(r.stderr).toContain('is given twice (a file argument, --client): read once');
  });

  it('as --client and as --server: a usage error, nothing read', async () => {
    const r = await cli(['--client', client, '--server', client]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${client} is given twice, as --client and as --server: a log is one side's`);
  });

  it('two files with the same content are two inputs (their overlap is told by the analysis, not here)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-once-'));
    try {
      const copy = join(dir, 'client-copy.ndjson');
      writeFileSync(copy, readFileSync(client));
      const r = await cli(['--client', client, '--client', copy, '--server', server, '--format', 'json']);
      expect(summaryOf(r.stdout).inputs).toHaveLength(3);
      expect(r.stderr).not.toContain('read once');
      // (Given both with --client, the analysis takes them for two logs of the client's side: one attempt per request, audit 93.)
      expect(r.stderr).toContain('are two logs of the client\'s side of the same');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
