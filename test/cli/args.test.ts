// The quick reader of plain analysis command lines gives exactly what yargs gives, and leaves everything else to yargs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANALYZE_OPTION_NAMES, COMMAND_OPTIONS, argsFromYargs, plainAnalyzeArgs } from '../../src/cli.js';
import type { PlainArgs } from '../../src/cli-args.js';
import { cli, SAMPLES } from './helpers.js';

/** The keys the analysis handler reads, in a fixed order; or the usage error. */
const pick = (r: PlainArgs | undefined) => {
  if (r === undefined || 'error' in r) return r;
  const o = r.args;
  return Object.fromEntries([...ANALYZE_OPTION_NAMES, 'files'].map((k) => [k, o[k]]).filter(([, v]) => v !== undefined));
};

describe('the quick argument reader', () => {
  const plain: string[][] = [
    [],
    ['a.ndjson'],
    ['--client', 'c.ndjson', '--server', 's.ndjson'],
    ['--client', '-', 's.ndjson'],
    ['--client=c', '--client', 'd', '--format', 'json', '-q', '--no-redact'],
    ['-f', 'ndjson', '--max-rows', '20', '--window', '1.5', 'x', '--', '--odd-name.ndjson', '-'],
    ['--tool', 'create_ticket', '--outcome', 'HTTP_ERROR,TOOL_ERROR', '--since', '2026-10-17T09:12:00Z', '--fail-on', 'error'],
    ['--strict', 'a', '--color', 'never', '--redact', '--idempotent', 'search'],
    ['--timezone', 'Europe/Paris', '--input-format', 'har', '--unwrap', 'a.b', '123', '2026-10-17.ndjson'],
  ];
  it.each(plain.map((a) => [a.join(' ') || '(nothing)', a]))('reads %s as yargs does', async (_name, argv) => {
    const quick = plainAnalyzeArgs(argv as string[]);
    expect(quick).toHaveProperty('args');
    expect(pick(quick)).toEqual(pick(await argsFromYargs(argv as string[])));
  });

  const unusual: string[][] = [
    ['--help'], ['-h'], ['--version'], ['-V'], ['--formt', 'json'], ['--format', 'xml'], ['--format', 'json', '--format', 'xml'],
    ['--window', 'abc'], ['--window', '-1'], ['--strict', 'true'], ['--strict=false'], ['-qf', 'json'], ['--client'], ['--tool', ''],
    ['--maxRows', '3'], ['--since', '-5m'], ['--no-format'], ['--window', '1e3'], ['--format'], ['a', '-f'], ['--format', 'json', '--format'],
    ['--since', 'x', '--since', 'y', '--bogus'], ['--strict', '--strict'],
  ];
  it.each(unusual.map((a) => [a.join(' '), a]))('leaves %s to yargs', (_name, argv) => {
    expect(plainAnalyzeArgs(argv as string[])).toBeUndefined();
  });

  // An option that takes one value, given twice: yargs made an array of it, which the handler took for something else
  // (`-f json -f json` printed the table; `--since a --since b` crashed). Both readers now refuse it, in the same words.
  const repeated: [string[], string][] = [
    [['a', '-f', 'json', '-f', 'json'], '--format given twice; give it once'],
    [['a', '--format', 'markdown', '--format=json'], '--format given twice; give it once'],
    [['a', '--color', 'always', '--color', 'always'], '--color given twice; give it once'],
    [['a', '--since', '2026-10-17T09:00:00Z', '--since', '2026-10-17T10:00:00Z'], '--since given twice; give it once'],
    [['a', '--input-format', 'har', '--input-format', 'har'], '--input-format given twice; give it once'],
    [['a', '--unwrap', 'a', '--unwrap', 'b'], '--unwrap given twice; give it once'],
    [['a', '--max-line-bytes', '100000', '--max-line-bytes', '100000'], '--max-line-bytes given twice; give it once'],
    [['a', '--window', '1', '--window', '2', '--window', '3'], '--window given 3 times; give it once'],
    [['a', '--window', '1', '--format', 'json', '--window', '2', '--format', 'json'], '--format given twice; give it once'], // the first in the options' order
    // yargs adds up a number option given the value 1 (a counter): 5 then 1 was 6, with no error.
    [['a', '--window', '5', '--window', '1'], '--window given twice; give it once'],
    [['a', '--max-rows', '1', '--max-rows', '1'], '--max-rows given twice; give it once'],
  ];
  it.each(repeated.map(([a, m]) => [a.join(' '), a, m]))('refuses %s, as yargs does', async (_name, argv, message) => {
    expect(plainAnalyzeArgs(argv as string[])).toEqual({ error: message });
    expect(await argsFromYargs(argv as string[])).toEqual({ error: message });
  });

  it('every option that takes one value refuses to be given twice, through either reader', async () => {
    for (const [name, o] of Object.entries(COMMAND_OPTIONS.analyze)) {
      if (o.array || o.type === 'boolean') continue;
      const value = o.choices ? String((o.choices as unknown[])[0]) : o.type === 'number' ? '1' : 'x';
      const argv = ['a', `--${name}`, value, `--${name}`, value];
      expect(plainAnalyzeArgs(argv), name).toEqual({ error: `--${name} given twice; give it once` });
      expect(await argsFromYargs([...argv, '--strict=false']), name).toEqual({ error: `--${name} given twice; give it once` });
    }
  });

  it('yargs refuses a repeat however the option is spelled', async () => {
    expect(await argsFromYargs(['a', '--maxRows', '1', '--max-rows', '1'])).toEqual({ error: '--max-rows given twice; give it once' });
    expect(await argsFromYargs(['a', '-qf', 'json', '--format=json'])).toEqual({ error: '--format given twice; give it once' });
    expect(await argsFromYargs(['a', '--strict', '--no-strict', '--redact', '--no-redact'])).toHaveProperty('args.strict', false); // flags: the last wins
  });

  it('never disagrees with yargs on generated command lines, and reads most of them itself', async () => {
    const names = ['--client', '--server', '--format', '-f', '--tool', '--window', '--max-rows', '--strict', '--no-redact', '--redact', '-q', '--quiet', '--color', '--since', '--fail-on', '--idempotent', '--input-format'];
    const values = ['a.ndjson', '-', 'json', 'table', 'markdown', '12', '1', '1.5', 'never', 'HTTP_ERROR,TOOL_ERROR', 'true', '', '-x', 'search', 'canonical', '--', '0'];
    const token = fc.oneof(fc.constantFrom(...names), fc.constantFrom(...values), fc.constantFrom(...names).chain((n) => fc.constantFrom(...values).map((v) => `${n}=${v}`)));
    let read = 0;
    await fc.assert(fc.asyncProperty(fc.array(token, { maxLength: 6 }), async (argv) => {
      const quick = plainAnalyzeArgs(argv);
      if (quick === undefined) return;
      read++;
      expect(pick(quick)).toEqual(pick(await argsFromYargs(argv)));
    }), { numRuns: 300, seed: 7 });
    expect(read).toBeGreaterThan(60);
  });

  it('files after -- are read, whichever reader takes the command line', async () => {
    const viaQuick = await cli(['--format', 'ndjson', '--', `${SAMPLES}stdio.ndjson`]);
    const viaYargs = await cli(['--format', 'ndjson', '--strict=false', '--', `${SAMPLES}stdio.ndjson`]);
    expect(viaQuick.code).toBe(0);
    expect(viaQuick.stdout).toContain('"type":"attempt"');
    expect(plainAnalyzeArgs(['--strict=false'])).toBeUndefined();
    expect(viaYargs.code).toBe(0);
    expect(viaYargs.stdout).toBe(viaQuick.stdout);
  });

  it('a lone "-" among the files reads standard input as well, whichever reader takes the command line', async () => {
    const stdin = (await import('node:fs')).readFileSync(`${SAMPLES}stdio.ndjson`, 'utf8');
    const files = [`${SAMPLES}capture.har.ndjson`, '-'];
    const quick = await cli(['--format', 'ndjson', ...files], { stdin });
    const yargsRead = await cli(['--format', 'ndjson', '--strict=false', ...files], { stdin });
    const sessions = await cli(['sessions', '--format', 'json', ...files], { stdin });
    for (const r of [quick, yargsRead, sessions]) {
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('<stdin>');
    }
    expect(yargsRead.stdout).toBe(quick.stdout);
  });
});
