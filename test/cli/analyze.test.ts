// The CLI end to end, in-process: stdout holds only the report, diagnostics go to stderr, exit codes 0 / 1 / 2, filters stated in every format.
import { afterAll, describe, expect, it } from 'vitest';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { NdjsonLineSchema, NdjsonSummarySchema } from '../../src/report/schema.js';
import { VERSION } from '../../src/version.js';
import { BOTH, ROOT, SAMPLES, cli, exchange, spawnCli } from './helpers.js';
import { LARGE_INPUT_BYTES } from '../../src/cli.js';

/** Every stdout line must be a valid ndjson line; returns them parsed. */
function ndjson(stdout: string) {
  const lines = stdout.split('\n');
  expect(lines.pop()).toBe('');
  return lines.map((l, i) => {
    const parsed = NdjsonLineSchema.safeParse(JSON.parse(l));
    expect(parsed.success, `line ${i + 1}: ${parsed.success ? '' : parsed.error.message}`).toBe(true);
    return parsed.data!;
  });
}

describe('--format ndjson', () => {
  it('writes one valid line per attempt and finding, then one summary line; nothing on stderr', async () => {
    const r = await cli([...BOTH, '--format', 'ndjson']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = ndjson(r.stdout);
    expect(lines.at(-1)!.type).toBe('summary');
    expect(lines.filter((l) => l.type === 'summary')).toHaveLength(1);
    const attempts = lines.filter((l) => l.type === 'attempt');
    const summary = NdjsonSummarySchema.parse(lines.at(-1));
    expect(attempts).toHaveLength(summary.attempts);
    // The samples tell one incident in which every outcome but UNANSWERED (message-level logs only) occurs on the wire.
    expect(new Set(attempts.map((a) => a.outcome))).toContain('HTTP_ERROR');
    expect(new Set(attempts.map((a) => a.outcome))).toContain('TOOL_ERROR');
  });

  it('states the filters in the summary line, and only matching attempts come out', async () => {
    const r = await cli([...BOTH, '--format', 'ndjson', '--tool', 'update_ticket', '--outcome', 'HTTP_ERROR']);
    expect(r.code).toBe(0);
    const lines = ndjson(r.stdout);
    const attempts = lines.filter((l) => l.type === 'attempt');
    expect(attempts.length).toBeGreaterThan(0);
    for (const a of attempts) expect(a).toMatchObject({ tool: 'update_ticket', outcome: 'HTTP_ERROR' });
    const summary = lines.at(-1) as { filters: unknown; attempts: number };
    expect(summary.filters).toEqual({ tool: ['update_ticket'], outcome: ['HTTP_ERROR'] });
    expect(summary.attempts).toBe(attempts.length);
  });

  it('--session takes a prefix; --since and --until take ISO times; they combine', async () => {
    const all = ndjson((await cli([...BOTH, '--format', 'ndjson'])).stdout).filter((l) => l.type === 'attempt') as { session: string | null; ts?: string }[];
    const r = await cli([...BOTH, '-f', 'ndjson', '--session', 'a3f1', '--since', '2026-10-17T09:13:00Z', '--until', '2026-10-17T09:14:00Z']);
    const kept = ndjson(r.stdout).filter((l) => l.type === 'attempt') as { session: string | null; ts?: string }[];
    const expected = all.filter((a) => a.session?.startsWith('a3f1') && a.ts! >= '2026-10-17T09:13:00.000Z' && a.ts! < '2026-10-17T09:14:00.000Z');
    expect(expected.length).toBeGreaterThan(1);
    expect(expected.length).toBeLessThan(all.length);
    expect(kept).toEqual(expected);
  });

  it('--session with a session-less group (probe@1.0.0) keeps that group\'s session-level findings, which name it in "group"; another session does not get them', async () => {
    const probe = ndjson((await cli([...BOTH, '-f', 'ndjson', '--session', 'probe'])).stdout);
    const found = probe.filter((l) => l.type === 'finding') as { code: string; session: string | null; group?: string }[];
    expect(found.map((f) => f.code)).toEqual(['CALL_NEVER_SENT']);
    expect(found[0]).toMatchObject({ session: null, group: 'probe@1.0.0' });
    expect(probe.filter((l) => l.type === 'attempt').every((a) => (a as { scope?: string }).scope === 'probe@1.0.0')).toBe(true);
    const other = ndjson((await cli([...BOTH, '-f', 'ndjson', '--session', 'a3f1'])).stdout);
    expect(other.filter((l) => l.type === 'finding').some((f) => (f as { group?: string }).group !== undefined)).toBe(false);
    // Findings of sessions with an id carry no group.
    const all = ndjson((await cli([...BOTH, '-f', 'ndjson'])).stdout).filter((l) => l.type === 'finding') as { session: string | null; group?: string }[];
    expect(all.filter((f) => f.session !== null && f.group !== undefined)).toEqual([]);
  });

  it('a relative --since far in the past keeps everything; a recent one keeps nothing of an old log', async () => {
    const old = ndjson((await cli([...BOTH, '-f', 'ndjson', '--since', '15m'])).stdout);
    expect(old.filter((l) => l.type === 'attempt')).toHaveLength(0);
    expect((old.at(-1) as { filters: { since: string } }).filters.since).toMatch(/^\d{4}-\d\d-\d\dT/);
    const years = ndjson((await cli([...BOTH, '-f', 'ndjson', '--since', '3650d'])).stdout);
    expect(years.filter((l) => l.type === 'attempt').length).toBeGreaterThan(10);
  });
});

describe('filters are stated in every format', () => {
  const args = [...BOTH, '--session', 'a3f1', '--tool', 'create_ticket'];
  it('table: a "filters:" line under the header', async () => {
    const r = await cli([...args]);
    expect(r.code).toBe(0);
    // As JSON or as the flags: either way both filters and their values.
    expect(r.stdout.split('\n')[1]).toMatch(/^filters: .*session.*a3f1.*tool.*create_ticket/);
  });
  it('json: summary.filters', async () => {
    const r = await cli([...args, '--format', 'json']);
    const doc = JSON.parse(r.stdout) as { summary: { filters: unknown }; attempts: { tool: string }[] };
    expect(doc.summary.filters).toEqual({ session: ['a3f1'], tool: ['create_ticket'] });
    expect(doc.attempts.every((a) => a.tool === 'create_ticket')).toBe(true);
  });
  it('markdown: a Filters line after the first paragraph', async () => {
    const r = await cli([...args, '--format', 'markdown']);
    expect(r.stdout.startsWith('# ')).toBe(true);
    expect(r.stdout).toMatch(/\*\*Filters:\*\* `--session a3f1 --tool create_ticket`/);
  });
  it('no filter, no filters line', async () => {
    const r = await cli([...BOTH]);
    expect(r.stdout).not.toMatch(/^filters:/m);
  });
});

describe('exit codes and streams', () => {
  it('0 with only the report on stdout; colour only when asked or on a terminal', async () => {
    const plain = await cli([...BOTH]);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe('');
    expect(plain.stdout).toMatch(/^mcp-triage \d/);
    expect(plain.stdout).not.toContain('\u001b[');
    expect((await cli([...BOTH, '--color', 'always'])).stdout).toContain('\u001b[');
    expect((await cli([...BOTH], { stdoutTTY: true })).stdout).toContain('\u001b[');
    expect((await cli([...BOTH], { stdoutTTY: true, env: { NO_COLOR: '1' } })).stdout).not.toContain('\u001b[');
  });

  it('1 when a --fail-on condition is met among the reported attempts, 0 when the filters leave it out', async () => {
    expect((await cli([...BOTH, '--fail-on', 'HTTP_ERROR'])).code).toBe(1);
    expect((await cli([...BOTH, '--fail-on', 'error'])).code).toBe(1);
    expect((await cli([...BOTH, '--fail-on', 'HTTP_ERROR', '--outcome', 'TOOL_ERROR'])).code).toBe(0);
    expect((await cli([`${SAMPLES}stdio.ndjson`, '--fail-on', 'HTTP_ERROR'])).code).toBe(0);
  });

  describe('--fail-on SEVERITY means that severity or worse (info < warning < error)', () => {
    const pair = (dir: string) => ['--client', `${ROOT}test/fixtures/${dir}/client.ndjson`, '--server', `${ROOT}test/fixtures/${dir}/server.ndjson`];
    const oneError = pair('real-ai-sdk/sse-cut-no-resume'); // 1 error finding, no warning
    // 2 warning findings, no error: the server's log alone (with the client's, each refused handshake is an error)
    const twoWarnings = ['--server', `${ROOT}test/fixtures/real-audit5/session-header-stripped/server.ndjson`];

    it.each([
      ['1 error', 'error', 1], ['1 error', 'warning', 1], ['1 error', 'info', 1],
      ['2 warnings', 'error', 0], ['2 warnings', 'warning', 1], ['2 warnings', 'info', 1],
    ] as const)('%s, --fail-on %s: exit %i', async (input, severity, code) => {
      expect((await cli([...(input === '1 error' ? oneError : twoWarnings), '--fail-on', severity, '-q'])).code).toBe(code);
    });

    it('says on stderr, in one line, what matched and how many; nothing of it on stdout', async () => {
      const r = await cli([...oneError, '--fail-on', 'warning', '-q']);
      expect(r.stderr).toBe('mcp-triage: --fail-on warning: 1 error finding\n');
      expect(r.stdout).not.toContain('--fail-on');
      const w = await cli([...twoWarnings, '--fail-on', 'Info,warning']);
      expect(w.stderr).toBe('mcp-triage: --fail-on info,warning: 2 warning findings\n');
      const samples = await cli([...BOTH, '--fail-on', 'error,HTTP_ERROR,UNSAFE_RETRY', '--format', 'json']);
      expect(samples.code).toBe(1);
      expect(samples.stderr).toMatch(/^mcp-triage: --fail-on error,HTTP_ERROR,UNSAFE_RETRY: \d+ error findings; 1 UNSAFE_RETRY finding; \d+ HTTP_ERROR attempts\n$/);
      expect((await cli([...twoWarnings, '--fail-on', 'error'])).stderr).toBe('');
    });

    it('outcomes and codes still match exactly', async () => {
      expect((await cli([...twoWarnings, '--fail-on', 'NOTIFICATION_REFUSED', '-q'])).code).toBe(1);
      expect((await cli([...twoWarnings, '--fail-on', 'SESSION_EXPIRED,HTTP_ERROR', '-q'])).code).toBe(0);
    });

    it('the JSON and ndjson summaries carry failOn: the conditions, whether they matched, and what did', async () => {
      const json = JSON.parse((await cli([...oneError, '--fail-on', 'warning,HTTP_ERROR', '--format', 'json', '-q'])).stdout) as { summary: unknown };
      expect(NdjsonSummarySchema.parse({ type: 'summary', ...(json.summary as object) }).failOn).toEqual({ conditions: ['warning', 'HTTP_ERROR'], failed: true, outcomes: {}, codes: {}, severities: { error: 1 }, notCounted: { versionFallbacks: 1 } }); // its one HTTP_ERROR is a refused version probe, left out (and now said so)
      const lines = ndjson((await cli([...twoWarnings, '--fail-on', 'error', '--format', 'ndjson'])).stdout);
      expect((lines.at(-1) as { failOn?: unknown }).failOn).toEqual({ conditions: ['error'], failed: false, outcomes: {}, codes: {}, severities: {} });
      expect(ndjson((await cli([...twoWarnings, '--format', 'ndjson'])).stdout).at(-1)).not.toHaveProperty('failOn');
    });
  });

  it('2 for usage errors, with the message on stderr and nothing on stdout', async () => {
    for (const argv of [
      [...BOTH, '--outcome', 'TIMEOUT'],
      [...BOTH, '--since', 'yesterday'],
      [...BOTH, '--fail-on', 'HTTP_EROR'],
      [...BOTH, '--window', '-1'],
      [`${SAMPLES}missing.ndjson`],
      [],
    ]) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout, argv.join(' ')).toBe('');
      expect(r.stderr, argv.join(' ')).toMatch(/^mcp-triage: /);
    }
  });

  it('--input-format with an unknown name lists each known format once', async () => {
    const r = await cli([...BOTH, '--input-format', 'harr']);
    expect(r.code).toBe(2);
    const known = /; known: (.+)$/m.exec(r.stderr)![1]!.split(', ');
    expect(known).toContain('har');
    expect(known).toEqual([...new Set(known)]);
  });

  it('--strict: the line that stops the run is reported once, marked (--strict); other diagnostics still show', async () => {
    const good = (ts: string, id: number) => exchange({ ts, session: 's1', id, side: 'client' });
    const stopped = await cli(['-', '--strict'], { stdin: [good('2026-10-17T10:00:00.000Z', 1), '{"not": "json"', good('2026-10-17T10:00:01.000Z', 2)] });
    expect(stopped.code).toBe(2);
    expect(stopped.stdout).toBe('');
    expect(stopped.stderr).toMatch(/^mcp-triage: <stdin>:2: invalid JSON \([^\n]*\) \(--strict\)\n$/);
    const view = await cli(['sessions', '-', '--strict'], { stdin: [good('2026-10-17T10:00:00.000Z', 1), '{"not": "json"'] });
    expect(view.code).toBe(2);
    expect(view.stderr).toMatch(/^mcp-triage: <stdin>:2: invalid JSON \([^\n]*\) \(--strict\)\n$/);
    // A diagnostic that does not stop the run (time going back) is printed, before the one that does.
    const back = [good('2026-10-17T10:01:00.000Z', 1), good('2026-10-17T10:00:00.000Z', 2), '{"not": "json"'];
    // (in two reads, so that the first is analyzed before the second is read; oldest-first: no look ahead at the order)
    const both = await cli(['-', '--strict', '--input-order', 'oldest-first'], { stdin: Readable.from([Buffer.from(`${back[0]}\n${back[1]}\n`), Buffer.from(`${back[2]}\n`)]) });
    expect(both.code).toBe(2);
    const lines = both.stderr.trimEnd().split('\n');
    expect(lines.filter((l) => /timestamp goes back/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => /invalid JSON/.test(l))).toEqual([expect.stringMatching(/^mcp-triage: <stdin>:3: invalid JSON .*\(--strict\)$/)]);
    // ... and when nothing stops the run.
    const ok = await cli(['-', '--strict', '--input-order', 'oldest-first', '--format', 'json'], { stdin: back.slice(0, 2) });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toMatch(/^mcp-triage: <stdin>:2: timestamp goes back 60\.0 s/);
  });

  it('per-line diagnostics go to stderr, and --quiet silences them (the report still counts them)', async () => {
    const input = [exchange({ ts: '2026-10-17T10:00:00.000Z', session: 's1', id: 1, side: 'client' }), '{"not": "a record"', 'plain text'];
    const loud = await cli(['-', '--format', 'ndjson'], { stdin: input });
    expect(loud.code).toBe(0);
    expect(loud.stderr).toMatch(/<stdin>:2: /);
    expect(loud.stderr).toMatch(/<stdin>:3: /);
    const quiet = await cli(['-', '--format', 'ndjson', '--quiet'], { stdin: input });
    expect(quiet.stderr).toBe('');
    const summary = ndjson(quiet.stdout).at(-1) as { lines: { unusable: number } };
    expect(summary.lines.unusable).toBe(2);
    expect(quiet.stdout).toBe(loud.stdout);
  });
});

describe('an input with no line at all: exit 0, and one stderr line saying so (even under --quiet)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-empty-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const empty = join(dir, 'empty.ndjson');
  writeFileSync(empty, '');
  const emptyToo = join(dir, 'empty-too.ndjson');
  writeFileSync(emptyToo, '');

  it('empty standard input in CI (--fail-on, --quiet) still passes, but says that nothing was read', async () => {
    const r = await spawnCli(['--fail-on', 'error', '--quiet', '--format', 'json'], { stdin: '' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('mcp-triage: no lines were read: standard input was empty\n');
    expect(JSON.parse(r.stdout).summary.lines.read).toBe(0);
  });

  it('names the empty file, or counts the empty inputs; the views say it too', async () => {
    expect((await cli([empty, '--format', 'ndjson'])).stderr).toBe(`mcp-triage: no lines were read: ${empty} is empty\n`);
    expect((await cli([empty, '--client', emptyToo])).stderr).toBe('mcp-triage: no lines were read: the 2 inputs are empty\n');
    const sessions = await cli(['sessions', empty]);
    expect([sessions.code, sessions.stderr]).toEqual([0, `mcp-triage: no lines were read: ${empty} is empty\n`]);
    const timeline = await cli(['timeline', 'a3f1', empty]);
    expect(timeline.code).toBe(2);
    expect(timeline.stderr).toMatch(/^mcp-triage: no lines were read: .*empty\.ndjson is empty\nmcp-triage: no session starts with "a3f1"/);
  });

  it('a blank line is a line read: not that warning, but the one for an input of blank lines only', async () => {
    const r = await cli(['-', '--format', 'json'], { stdin: '\n' });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('no lines were read');
    expect(r.stderr).toBe('mcp-triage: <stdin>: every line of it (1) is blank: nothing in it was analyzed\n');
  });
});

describe('--client and --server take a comma list, as the other list options do', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-lists-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const client = `${SAMPLES}client.ndjson`;
  const claims = `${SAMPLES}claims.ndjson`;
  const server = `${SAMPLES}server.ndjson`;

  it('a comma list reads each file, with its side, as the flag repeated does', async () => {
    const repeated = await cli(['--client', client, '--client', claims, '--server', server, '--format', 'ndjson']);
    expect(repeated.code).toBe(0);
    for (const line of [['--client', `${client},${claims}`, '--server', server], ['--client', `${client}, ${claims},`, '--server', server]]) {
      const listed = await cli([...line, '--format', 'ndjson']);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toBe(repeated.stdout);
    }
    const servers = await cli(['--server', `${server},${claims}`, '--format', 'ndjson']);
    const serversRepeated = await cli(['--server', server, '--server', claims, '--format', 'ndjson']);
    expect(servers.code, servers.stderr).toBe(0);
    expect(servers.stdout).toBe(serversRepeated.stdout);
  });

  it('a file whose name holds a comma is that file, not a list', async () => {
    const odd = join(dir, 'client,2026-10-17.ndjson');
    writeFileSync(odd, readFileSync(client));
    const r = await cli(['--client', odd, '--server', server, '--format', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe((await cli([...BOTH, '--format', 'ndjson'])).stdout.replaceAll(client, odd));
  });

  it('a part of a list that names no file is a usage error that says the value was read as a list', async () => {
    const r = await cli(['--client', `${client},${SAMPLES}nope.ndjson`]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^mcp-triage: cannot read \S*nope\.ndjson: no such file \(--client \S+ is read as a comma list, as no file has that whole name\)/);
  });
});

describe('--version and --help', () => {
  it('--version prints the version of package.json', async () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
    for (const flag of ['--version', '-V']) {
      const r = await cli([flag]);
      expect(r).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    }
  });

  it('--help of the tool and of each command exits 0 and explains its options, exit codes and examples', async () => {
    for (const command of [[], ['sessions'], ['timeline'], ['explain'], ['formats'], ['schema'], ['record']]) {
      const r = await cli([...command, '--help']);
      expect(r.code, command.join(' ')).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout, command.join(' ')).toMatch(/^Examples:\n {2}\$ mcp-triage /m);
    }
    const main = (await cli(['--help'])).stdout;
    for (const flag of ['--client', '--server', '--session', '--method', '--tool', '--outcome', '--code', '--since', '--until', '--format', '--fail-on', '--quiet', '--color', '--no-redact'.replace('no-', '')]) expect(main).toContain(flag);
    expect(main).toMatch(/Exit status: 0 .*; 1 .*; 2 /s);
    expect((await cli(['sessions', '--help'])).stdout).toMatch(/One row per MCP session/);
  });
});

describe('unknown options suggest the nearest valid one, for every command', () => {
  const cases: [string[], RegExp][] = [
    [[...BOTH, '--sesion', 'a3f1'], /unknown option --sesion \(did you mean --session\?\)/],
    [[...BOTH, '--outcomes', 'HTTP_ERROR'], /did you mean --outcome\?/],
    [[...BOTH, '--fail-onn', 'error'], /did you mean --fail-on\?/],
    [['sessions', ...BOTH, '--formt', 'json'], /unknown option --formt \(did you mean --format\?\) for "sessions"/],
    [['sessions', ...BOTH, '--fail-on', 'error'], /unknown option --fail-on \(an option of the analysis: mcp-triage without a command\) for "sessions"$/m],
    [['timeline', 'a3f1', ...BOTH, '--untl', '1h'], /did you mean --until\?.* for "timeline"/],
    [['timeline', 'a3f1', ...BOTH, '--session', 'b7e2'], /timeline takes the session as its first argument/],
    [['explain', 'HTTP_ERROR', '--verbose'], /unknown option --verbose/],
    [['formats', '--hlep'], /did you mean --help\?/],
    [[...BOTH, '--format', 'mardown'], /--format: "mardown" is not one of table, json, ndjson, markdown; did you mean markdown\?/],
    [['sesions', ...BOTH], /no such file \(did you mean the command "sessions"\?\)/],
    [['explain', 'NO_FINAL_RESULTS'], /did you mean NO_FINAL_RESULT\?/],
    // An unknown name is shown as it was written: -x is a short option, a word is an argument the command does not take.
    [[...BOTH, '-x'], /^mcp-triage: unknown option -x\n/],
    [['sessions', ...BOTH, '-x', '--formt', 'json'], /^mcp-triage: unknown option -x, --formt \(did you mean --format\?\) for "sessions"\n/],
    [[...BOTH, '-format', 'json'], /^mcp-triage: unknown option -format \(did you mean --format\?\)\n/],
    [['explain', 'NO_FINAL_RESULT', 'extra'], /^mcp-triage: unexpected argument "extra" for "explain" \(it takes one CODE\)\n/],
    [['explain', 'NO_FINAL_RESULT', 'extra', 'more', '-x'], /^mcp-triage: unknown option -x for "explain"; unexpected arguments "extra", "more" for "explain" \(it takes one CODE\)\n/],
    [['formats', 'all'], /^mcp-triage: unexpected argument "all" for "formats" \(it takes none\)\n/],
  ];
  for (const [argv, message] of cases) {
    it(argv.filter((a) => !a.includes('/')).join(' '), async () => {
      const r = await cli(argv);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    });
  }
});

describe('large inputs', () => {
  // The executable tunes V8's heap for large or piped inputs only (loading node:v8 costs start-up); main() says when through io.largeInput.
  const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-large-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const big = (() => {
    const text = readFileSync(`${SAMPLES}client.ndjson`, 'utf8');
    const file = join(dir, 'client.ndjson');
    writeFileSync(file, text.repeat(Math.ceil((LARGE_INPUT_BYTES + 1) / Buffer.byteLength(text))));
    return file;
  })();

  it('are not announced for the samples', async () => {
    let calls = 0;
    await cli(['--format', 'ndjson', ...BOTH], { largeInput: () => calls++ });
    expect(calls).toBe(0);
  });

  it('are announced once, before reading, for a file over the limit', async () => {
    let calls = 0;
    const r = await cli(['--format', 'ndjson', '--quiet', big], { largeInput: () => calls++ });
    expect(r.code).toBe(0);
    expect(calls).toBe(1);
  });

  it('are announced once, before reading, for a pipe (its size is unknown until it ends), large or small', async () => {
    for (const file of [big, `${SAMPLES}client.ndjson`]) {
      let calls = 0;
      let readBefore = -1;
      const stdin = createReadStream(file);
      const r = await cli(['--format', 'ndjson', '--quiet', '-'], { stdin, largeInput: () => { calls++; readBefore = stdin.bytesRead; } });
      expect(r.code).toBe(0);
      expect(calls).toBe(1);
      expect(readBefore).toBe(0);
    }
  });
});
