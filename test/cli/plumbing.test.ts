// The command line as a ripgrep or jq user meets it (audit 40): a full disk, values a shell hands over empty, missing arguments, colour and width from the environment.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, SAMPLES, cli } from './helpers.js';

const CLIENT = `${SAMPLES}client.ndjson`;
const SERVER = `${SAMPLES}server.ndjson`;
const BOTH = ['--client', CLIENT, '--server', SERVER];

/** The executable with its stdout on a file descriptor of our choosing (/dev/full: every write fails with ENOSPC). */
function runTo(path: string, argv: string[]): { code: number | null; stderr: string } {
  const fd = openSync(path, 'w');
  try {
    const r = spawnSync(process.execPath, [BIN, ...argv], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 30_000 });
    return { code: r.status, stderr: r.stderr };
  } finally {
    closeSync(fd);
  }
}

describe('stdout that cannot be written (> /dev/full)', () => {
  // Every write failed with ENOSPC, and the run still ended 0 with nothing said: a report lost without a word.
  const commands: string[][] = [
    BOTH,
    [...BOTH, '--format', 'json'],
    [...BOTH, '--format', 'ndjson'],
    [...BOTH, '--format', 'markdown'],
    ['sessions', ...BOTH],
    ['timeline', 'a3f1', ...BOTH, '--format', 'json'],
    ['schema'],
    ['formats'],
    ['explain', 'HTTP_ERROR'],
    ['--help'],
    ['--version'],
  ];
  it.runIf(existsSync('/dev/full')).each(commands.map((c) => [c.join(' ').replaceAll(SAMPLES, 'samples/'), c]))('mcp-triage %s > /dev/full: exit 2, said on stderr', (_name, argv) => {
    const r = runTo('/dev/full', argv as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mcp-triage: cannot write the output: no space left on device \(ENOSPC\)$/m);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it('a writable file still gets the whole report, exit 0', () => {
    const r = runTo('/dev/null', [...BOTH, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe('a value the shell handed over empty, or a number yargs would read otherwise', () => {
  // yargs read --window '' and --window= as 0 (a join that waits for nothing), 0x10 as 16, --max-rows 1.5 as 1.5;
  // an empty list (--fail-on "$UNSET", --tool "") set no condition and no filter; each ran, exit 0, without a word.
  const cases: [string[], string][] = [
    [['--window', ''], '--window needs a number in decimal digits (such as 60 or 1.5); got ""'],
    [['--window='], '--window needs a number in decimal digits (such as 60 or 1.5); got ""'],
    [['--retry-window', '0x10'], '--retry-window needs a number in decimal digits (such as 60 or 1.5); got "0x10"'],
    [['--skew', '1e3'], '--skew needs a number in decimal digits (such as 60 or 1.5); got "1e3"'],
    [['--max-rows', '1.5'], '--max-rows needs a whole number (such as 20); got "1.5"'],
    [['--max-retries', '2.5'], '--max-retries needs a whole number (such as 20); got "2.5"'],
    [['--max-line-bytes', '4096.5'], '--max-line-bytes needs a whole number (such as 20); got "4096.5"'],
    [['--max-rows', ''], '--max-rows needs a number in decimal digits (such as 60 or 1.5); got ""'],
    [['--fail-on', ''], '--fail-on needs a value; got "" (an unset shell variable?)'],
    [['--fail-on', ','], '--fail-on needs a value; got "," (an unset shell variable?)'],
    [['--tool', ''], '--tool needs a value; got "" (an unset shell variable?)'],
    [['--session='], '--session needs a value; got "" (an unset shell variable?)'],
    [['--unwrap', ' '], '--unwrap needs a value; got " " (an unset shell variable?)'],
    [['--client', ''], '--client needs a value; got "" (an unset shell variable?)'],
  ];
  for (const [prefix, name] of [[[], 'analysis'], [['sessions'], 'sessions'], [['timeline', 'a3f1'], 'timeline']] as const) {
    it(`each is a usage error naming the option and what it takes (${name})`, async () => {
      for (const [args, message] of cases) {
        if (prefix.length && /max-rows|fail-on/.test(args[0]!)) continue; // analysis-only options
        if (prefix[0] === 'timeline' && args[0]!.startsWith('--session')) continue; // timeline takes SESSION instead
        const r = await cli([...prefix, ...BOTH, ...args]);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr.split('\n')[0], args.join(' ')).toBe(`mcp-triage: ${message}`);
      }
    });
  }

  it('the values that were right stay right: decimals, a comma list with an empty item, a negative number said with what was given', async () => {
    expect((await cli([...BOTH, '--window', '1.5', '--max-rows', '20', '--fail-on', 'error,', '--format', 'json', '-q'])).code).toBe(1);
    expect((await cli([...BOTH, '--outcome', 'HTTP_ERROR,', '--format', 'json'])).code).toBe(0);
    const negative = await cli([...BOTH, '--window', '-5']);
    expect(negative.stderr.split('\n')[0]).toBe('mcp-triage: --window needs a number of 0 or more; got -5');
    // A word is said in the same words as 0x10 or 1e3: what the flag needs and what it got.
    expect((await cli([...BOTH, '--max-rows', '-3'])).stderr.split('\n')[0]).toBe('mcp-triage: --max-rows needs a number of 0 or more; got -3');
    const word = await cli([...BOTH, '--window', 'abc']);
    expect(word.stderr.split('\n')[0]).toBe('mcp-triage: --window needs a number in decimal digits (such as 60 or 1.5); got "abc"');
  });
});

describe('a command argument left out, a word taken for a file', () => {
  // yargs' own words were printed: "Missing required argument: code", "Missing required arguments: listen, target, out".
  const cases: [string[], string][] = [
    [['explain'], 'explain needs a CODE: a finding code or an outcome (mcp-triage explain HTTP_ERROR; mcp-triage explain --help lists them)'],
    [['timeline'], 'timeline needs a SESSION (an id or its first characters; mcp-triage sessions lists them)'],
    [['record'], 'record needs --listen, --target and --out (mcp-triage record --listen 127.0.0.1:8808 --target http://127.0.0.1:3000 --out mcp.ndjson)'],
    [['record', '--listen', '127.0.0.1:0'], 'record needs --target and --out (mcp-triage record --listen 127.0.0.1:8808 --target http://127.0.0.1:3000 --out mcp.ndjson)'],
    // `mcp-triage help` read a file named help; an empty argument printed "cannot read : no such file".
    [['help'], 'cannot read help: no such file (did you mean --help?)'],
    [['version'], 'cannot read version: no such file (did you mean --version?)'],
    [[''], 'cannot read "" (an empty argument): no such file'],
    // a glob the shell found nothing for reaches the command as written
    [['logs/*.ndjson'], 'cannot read logs/*.ndjson: no such file (a shell pattern that matched no file?)'],
    [['--server', 'srv-202?.log'], 'cannot read srv-202?.log: no such file (a shell pattern that matched no file?)'],
  ];
  it.each(cases.map(([a, m]) => [a.join(' ') || '""', a, m]))('mcp-triage %s says what it needs, exit 2', async (_name, argv, message) => {
    const r = await cli(argv as string[]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(`mcp-triage: ${message as string}`);
    expect(r.stderr).toMatch(/^Run 'mcp-triage .*--help' for usage\.$/m);
  });
});

describe('colour and width from the environment', () => {
  const ESC = '\u001b[';
  // FORCE_COLOR was ignored: `FORCE_COLOR=1 mcp-triage ... | less -R` had no colour, as Node and chalk-based tools give.
  it('FORCE_COLOR colours a pipe under --color auto; 0 or false does not; NO_COLOR wins over it; --color never over both', async () => {
    expect((await cli(BOTH, { env: { FORCE_COLOR: '1' } })).stdout).toContain(ESC);
    expect((await cli(BOTH, { env: { FORCE_COLOR: '1', TERM: 'dumb' } })).stdout).toContain(ESC);
    expect((await cli(['sessions', ...BOTH], { env: { FORCE_COLOR: '3' } })).stdout).toContain(ESC);
    expect((await cli(BOTH, { env: { FORCE_COLOR: '0' } })).stdout).not.toContain(ESC);
    expect((await cli(BOTH, { stdoutTTY: true, env: { FORCE_COLOR: 'false' } })).stdout).not.toContain(ESC);
    expect((await cli(BOTH, { env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).stdout).not.toContain(ESC);
    expect((await cli([...BOTH, '--color', 'never'], { env: { FORCE_COLOR: '1' } })).stdout).not.toContain(ESC);
    expect((await cli(BOTH, { env: { FORCE_COLOR: '' } })).stdout).not.toContain(ESC);
    // as before: a terminal gets colour, a pipe none
    expect((await cli(BOTH, { stdoutTTY: true })).stdout).toContain(ESC);
    expect((await cli(BOTH)).stdout).not.toContain(ESC);
  });

  // --help wrapped at the terminal's width or 100, whatever COLUMNS said, while the reports fit COLUMNS.
  it('--help wraps at COLUMNS as the reports do (up to 120); the examples stay one line each', async () => {
    const widest = (text: string) => Math.max(...text.slice(0, text.indexOf('\nExamples:')).split('\n').map((l) => [...l].length));
    const narrow = await cli(['--help'], { env: { COLUMNS: '60' } });
    expect(widest(narrow.stdout)).toBeLessThanOrEqual(60);
    expect(widest(narrow.stdout)).toBeGreaterThan(50);
    expect(widest((await cli(['--help'], { env: { COLUMNS: '200' } })).stdout)).toBe(120);
    expect(widest((await cli(['--help'])).stdout)).toBe(100);
    expect(narrow.stdout).toContain(`  $ mcp-triage --client samples/client.ndjson --server samples/server.ndjson --fail-on error,HTTP_ERROR --quiet\n`);
  });
});

describe('an input of which not one line could be used', () => {
  // A file of broken lines only (the wrong file, a log cut into garbage) had no note of its own, unlike a file of blank
  // lines or of page assets; under --quiet the run said nothing at all, exit 0: a CI gate passed on garbage unremarked.
  const broken = ['garbage, not a log line', '{"not":"mcp"}', '{bad json'];
  it('says so as a note of the report and on stderr', async () => {
    const r = await cli(['-', '--format', 'json'], { stdin: broken });
    expect(r.code).toBe(0);
    const note = '<stdin>: not one line of it could be used (3 unusable): nothing in it was analyzed';
    expect((JSON.parse(r.stdout) as { summary: { notes: string[] } }).summary.notes).toContain(note);
    expect(r.stderr).toContain(`mcp-triage: ${note}\n`);
  });

  it('under --quiet, one stderr line still says that no MCP traffic was found (exit 0, as for an empty input)', async () => {
    const r = await cli(['-', '--quiet', '--fail-on', 'error'], { stdin: broken });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('mcp-triage: no MCP traffic was found: the 3 lines read are 3 unusable (without --quiet, stderr says where)\n');
    // a HAR entry of a page asset: well-formed, skipped
    const asset = JSON.stringify({ startedDateTime: '2026-10-17T10:00:00.000Z', time: 5, request: { method: 'GET', url: 'http://127.0.0.1:3000/logo.png', headers: [] }, response: { status: 200, headers: [], content: { mimeType: 'image/png', size: 10 } } });
    const views = await cli(['sessions', '-', '-q'], { stdin: [...broken, '', asset] });
    expect(views.code).toBe(0);
    expect(views.stderr).toBe('mcp-triage: no MCP traffic was found: the 5 lines read are 3 unusable, 1 well-formed without MCP traffic, 1 blank (without --quiet, stderr says where)\n');
  });

  it('one usable line anywhere, and --quiet stays quiet', async () => {
    const r = await cli([`${SAMPLES}stdio.ndjson`, '-', '--quiet'], { stdin: broken });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe('--help states every exit status the command can end with', () => {
  // The help named 0, 1 and 2 only: not 130 (Ctrl-C), nor that a report that cannot be written is 2.
  it.each([[[]], [['sessions']], [['timeline']]])('%j --help', async (prefix) => {
    const help = (await cli([...prefix, '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(/Exit status: 0 [^]*; 2 usage error, unreadable input, [^;]*output that cannot be written[^;]*; 130 interrupted \(Ctrl-C\)\./);
  });
});

describe('--no-OPTION of an option that takes a value', () => {
  // yargs read --no-X as the value false: --no-window ran with a window of 0, --no-tool kept every call, --no-since
  // crashed ("internal error: value.trim is not a function"), --no-color printed yargs' raw "Invalid values:⏎ ...".
  const cases: [string[], string][] = [
    [['--no-window'], '--no-window is not an option: --window takes a value'],
    [['--no-max-rows'], '--no-max-rows is not an option: --max-rows takes a value'],
    [['--no-tool'], '--no-tool is not an option: --tool takes a value'],
    [['--no-since'], '--no-since is not an option: --since takes a value'],
    [['--no-fail-on'], '--no-fail-on is not an option: --fail-on takes a value'],
    [['--no-color'], '--no-color is not an option: --color takes one of auto, always, never (--color never: no colour)'],
    [['--no-format'], '--no-format is not an option: --format takes one of table, json, ndjson, markdown'],
    [['sessions', '--no-since'], '--no-since is not an option: --since takes a value'],
    [['timeline', 'a3f1', '--no-color'], '--no-color is not an option: --color takes one of auto, always, never (--color never: no colour)'],
  ];
  it.each(cases.map(([a, m]) => [a.join(' '), a, m]))('%s is a usage error that says what the option takes', async (_name, args, message) => {
    const r = await cli([...(args as string[]), ...BOTH]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(`mcp-triage: ${message as string}`);
  });

  it('the flags keep their negation: --no-redact, --no-quiet, --no-strict', async () => {
    const r = await cli([...BOTH, '--no-redact', '--no-quiet', '--no-strict', '--format', 'json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { summary: { redaction: boolean } }).summary.redaction).toBe(false);
  });
});

describe('option names yargs read as something else', () => {
  // Dot notation made an object of the option: --since.a b and --client.a b crashed ("internal error: value.trim is not
  // a function"), --tool.x 1 was a filter that kept every call; a flag given a word (--strict=yes) was taken as set.
  const cases: [string[], string][] = [
    [['--since.a', 'b'], 'unknown option --since.a (did you mean --since?)'],
    [['--client.a', 'b'], 'unknown option --client.a (did you mean --client?)'],
    [['--fail-on.x', 'error'], 'unknown option --fail-on.x (did you mean --fail-on?)'],
    [['--tool.x', '1'], 'unknown option --tool.x (did you mean --tool?)'],
    [['--strict=yes'], '--strict takes no value (--strict, or --no-strict); got "yes"'],
    [['--quiet=maybe'], '--quiet takes no value (--quiet, or --no-quiet); got "maybe"'],
    [['--no-redact=false'], 'unknown option --no-redact (a flag: give it without a value)'],
  ];
  it.each(cases.map(([a, m]) => [a.join(' '), a, m]))('%s is a usage error, not a crash or a silent misreading', async (_name, args, message) => {
    for (const prefix of (args as string[])[0]!.startsWith('--fail-on') ? [[]] : [[], ['sessions']]) {
      const r = await cli([...prefix, ...BOTH, ...(args as string[])]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      const forCommand = prefix.length && (message as string).startsWith('unknown option') ? ' for "sessions"' : '';
      expect(r.stderr.split('\n')[0]).toBe(`mcp-triage: ${message as string}${forCommand}`);
    }
  });

  it('--strict=false and --redact=true still read as written', async () => {
    const r = await cli([...BOTH, '--strict=false', '--redact=true', '--format', 'json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { summary: { redaction: boolean } }).summary.redaction).toBe(true);
  });
});

describe('a log read while it is still being written', () => {
  // Its last line, cut mid-record, was "invalid JSON (Unterminated string ...)" like any broken line in the middle.
  it('the cut last line is said to be the last, with no line break after it', async () => {
    const whole = readFileSync(CLIENT, 'utf8');
    const cut = whole.slice(0, whole.indexOf('\n', 2000) + 200); // three whole lines and the start of the fourth
    const r = await cli(['--client', '-', '--format', 'json'], { stdin: cut });
    expect(r.code).toBe(0);
    const [first] = (JSON.parse(r.stdout) as { summary: { diagnostics: { first: { line: number; message: string }[] } } }).summary.diagnostics.first;
    expect(first!.message).toMatch(/^invalid JSON \(.*\): the last line, with no line break after it \(cut off, or a log still being written\?\)$/);
    expect(r.stderr).toContain(`<stdin>:${first!.line}: invalid JSON (`);
  });

  it('a last line that is whole but has no line break is read as any other; a broken line before the end is not called the last', async () => {
    const lines = readFileSync(CLIENT, 'utf8').trimEnd().split('\n');
    const r = await cli(['--client', '-', '--format', 'json'], { stdin: [lines[0]!, '{"cut": ', ...lines.slice(1)].join('\n') });
    const summary = (JSON.parse(r.stdout) as { summary: { lines: { unusable: number }; diagnostics: { first: { line: number; message: string }[] } } }).summary;
    expect(summary.lines.unusable).toBe(1);
    expect(summary.diagnostics.first[0]!.line).toBe(2);
    expect(summary.diagnostics.first[0]!.message).not.toContain('last line');
  });
});
