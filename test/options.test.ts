// Option values: the library throws OptionError for each value the CLI refuses with exit 2, from the one checker both use.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { analyze, streamAnalysis, OptionError, MIN_LINE_BYTES, type AnalysisOptions } from '../src/index.js';
import { SAMPLES, cli } from './cli/helpers.js';

const CLIENT = `${SAMPLES}client.ndjson`;
const KNOWN_FORMATS = /known: har, canonical, claim, .*go-sdk, haproxy-log, nginx-combined, nginx-error, apache-error, caddy-console, kitchen-observation-stream, server-console, dotnet-console, python-sdk$/;

/** Options with a bad value, the option the error names, and what its message says. */
const BAD: [label: string, options: Partial<AnalysisOptions>, option: string, message: RegExp][] = [
  ['an unknown input format', { inputFormat: 'nope' }, 'inputFormat', /^inputFormat: unknown format "nope"; known: har, /],
  ['a misspelt input format', { inputFormat: 'mcpspi' }, 'inputFormat', /^inputFormat: unknown format "mcpspi"; did you mean mcpspy\?; known: /],
  ['a time zone that is no zone', { timezone: 'Mars/Base' }, 'timezone', /^timezone: "Mars\/Base" is neither an offset like \+02:00 nor an IANA zone name$/],
  ['an input order that is none', { inputOrder: 'sideways' as never }, 'inputOrder', /^inputOrder: "sideways" is not one of auto, oldest-first, newest-first$/],
  ['a misspelt input order', { inputOrder: 'newest' as never }, 'inputOrder', /; did you mean newest-first\?$/],
  ['NaN for the window', { windowMs: Number.NaN }, 'windowMs', /^windowMs needs a number of 0 or more \(ms\); got NaN$/],
  ['a negative retry window', { retryWindowMs: -1 }, 'retryWindowMs', /^retryWindowMs needs a number of 0 or more \(ms\); got -1$/],
  ['an infinite skew', { skewMs: Number.POSITIVE_INFINITY }, 'skewMs', /^skewMs needs a number of 0 or more \(ms\); got Infinity$/],
  ['a string for the order tolerance', { orderToleranceMs: '5000' as never }, 'orderToleranceMs', /got "5000"$/],
  ['a line limit of 0 bytes', { maxLineBytes: 0 }, 'maxLineBytes', /^maxLineBytes needs a number of 1024 or more \(bytes\); got 0$/],
  ['a negative retry count', { policy: { maxRetries: -1, minDelayMs: 200 } }, 'policy.maxRetries', /^policy\.maxRetries needs a number of 0 or more \(retries\); got -1$/],
  ['a policy without its delay', { policy: { maxRetries: 2 } as never }, 'policy.minDelayMs', /got undefined$/],
  ['one tool name as idempotent, not a list', { idempotent: 'search' as never }, 'idempotent', /^idempotent needs a list of tool names; got "search"$/],
];

describe('library options: a value the CLI refuses throws OptionError', () => {
  for (const [label, options, option, message] of BAD) {
    it(`${label}: names ${option}, the value and what is allowed`, async () => {
      const stdin = new PassThrough();
      const error = await analyze({ inputs: [{ path: CLIENT }], stdin, ...options }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(OptionError);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as OptionError).option).toBe(option);
      expect((error as OptionError).name).toBe('OptionError');
      expect((error as OptionError).message).toMatch(message);
      expect(stdin.readableFlowing).toBe(null); // thrown before anything is read
    });
  }

  it('a misspelt side of an input names the input, with a did-you-mean (it used to run, showing side "cleint")', async () => {
    const error = await analyze({ inputs: [{ path: CLIENT }, { path: CLIENT, side: 'cleint' as never }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OptionError);
    expect(error).toMatchObject({ option: 'inputs[1].side', value: 'cleint' });
    expect((error as Error).message).toBe('inputs[1].side: "cleint" is not one of client, server (or leave it out: the records say); did you mean client?');
  });

  it('an input without a path names it', async () => {
    await expect(streamAnalysis({ inputs: [{ file: CLIENT } as never] })).rejects.toThrow(/^inputs\[0\]\.path needs a file path, or "-" for the stdin stream; got undefined$/);
  });

  it('checks options before the filter: a bad time zone is not reported as an unreadable --since', async () => {
    await expect(analyze({ inputs: [{ path: CLIENT }], timezone: 'Mars/Base', filter: { since: '2026-10-17T09:00:00' } })).rejects.toBeInstanceOf(OptionError);
  });

  it('takes every value the CLI takes: the limits themselves, an offset zone, a forced format', async () => {
    const { summary } = await analyze({
      inputs: [{ path: CLIENT, side: 'client' }], maxLineBytes: MIN_LINE_BYTES * 64, windowMs: 0, retryWindowMs: 0, skewMs: 0, orderToleranceMs: 0,
      timezone: '+02:00', inputFormat: 'canonical', inputOrder: 'oldest-first', policy: { maxRetries: 0, minDelayMs: 0 }, idempotent: ['search'],
    });
    expect(summary.attempts).toBeGreaterThan(0);
    expect(MIN_LINE_BYTES).toBe(1024);
  });
});

describe('CLI options: the same checker, the flags\' words (exit 2)', () => {
  const cases: [argv: string[], message: RegExp][] = [
    [['--input-format', 'nope'], /^mcp-triage: --input-format: unknown format "nope"; known: har, canonical, /m],
    [['--input-format', 'mcpspi'], /^mcp-triage: --input-format: unknown format "mcpspi"; did you mean mcpspy\?; known: /m],
    [['--timezone', 'Mars/Base'], /^mcp-triage: --timezone: "Mars\/Base" is neither an offset like \+02:00 nor an IANA zone name$/m],
    [['--input-order', 'sideways'], /^mcp-triage: --input-order: "sideways" is not one of auto, oldest-first, newest-first$/m],
    [['--window', 'abc'], /^mcp-triage: --window needs a number in decimal digits \(such as 60 or 1\.5\); got "abc"$/m],
    [['--retry-window', '-1'], /^mcp-triage: --retry-window needs a number of 0 or more; got -1$/m],
    [['--skew', '1e400'], /^mcp-triage: --skew needs a number in decimal digits \(such as 60 or 1\.5\); got "1e400"$/m],
    [['--max-retries', '-2'], /^mcp-triage: --max-retries needs a number of 0 or more; got -2$/m],
    [['--min-retry-delay', 'x'], /^mcp-triage: --min-retry-delay needs a number in decimal digits \(such as 60 or 1\.5\); got "x"$/m],
    [['--max-line-bytes', '0'], /^mcp-triage: --max-line-bytes needs a number of 1024 or more; got 0$/m],
    [['--max-line-bytes', '1023'], /^mcp-triage: --max-line-bytes needs a number of 1024 or more; got 1023$/m],
  ];
  for (const [argv, message] of cases) {
    it(`${argv.join(' ')}: exit 2, ${message.source.slice(1, 60)}…`, async () => {
      const r = await cli([CLIENT, ...argv]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/Run 'mcp-triage --help' for usage\.\n$/);
    });
  }

  it('the input format list is the library\'s', async () => {
    const r = await cli([CLIENT, '--input-format', 'nope']);
    expect(r.stderr.split('\n')[0]).toMatch(KNOWN_FORMATS);
  });

  it('--max-line-bytes 1024 is taken', async () => {
    const r = await cli([CLIENT, '--max-line-bytes', '1024', '--format', 'json']);
    expect(r.code).toBe(0);
  });
});

describe('library options: a name the library does not know throws OptionError (it used to be ignored)', () => {
  const cases: [label: string, options: Record<string, unknown>, option: string, message: string][] = [
    ['a name in the wrong case', { windowMS: 5000 }, 'windowMS', "unknown option 'windowMS'; did you mean 'windowMs'?"],
    ['a CLI flag in kebab-case', { 'max-line-bytes': 4096 }, 'max-line-bytes', "unknown option 'max-line-bytes'; did you mean 'maxLineBytes'?"],
    ['a CLI flag without the unit', { 'retry-window': 5 }, 'retry-window', "unknown option 'retry-window'; did you mean 'retryWindowMs'?"],
    ['a filter given at the top', { session: 'a3f1' }, 'session', "unknown option 'session'; did you mean 'filter.session'?"],
    ['a typo', { timezon: 'UTC' }, 'timezon', "unknown option 'timezon'; did you mean 'timezone'?"],
    ['a misspelt filter', { filter: { tools: 'search_tickets' } }, 'filter.tools', "unknown option 'filter.tools'; did you mean 'filter.tool'?"],
    ['a policy name without its unit', { policy: { maxRetries: 1, minDelay: 100 } }, 'policy.minDelay', "unknown option 'policy.minDelay'; did you mean 'policy.minDelayMs'?"],
    ['a misspelt side key of an input', { inputs: [{ path: CLIENT, sid: 'client' }] }, 'inputs[0].sid', "unknown option 'inputs[0].sid'; did you mean 'inputs[0].side'?"],
  ];
  for (const [label, options, option, message] of cases) {
    it(`${label}: ${option}`, async () => {
      const stdin = new PassThrough();
      const error = await analyze({ inputs: [{ path: CLIENT }], stdin, ...options } as AnalysisOptions).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(OptionError);
      expect(error).toMatchObject({ option, message });
      expect(stdin.readableFlowing).toBe(null); // thrown before anything is read
    });
  }

  it('a CLI-only flag with no near name lists the names there are; streamAnalysis checks too', async () => {
    const error = await streamAnalysis({ inputs: [{ path: CLIENT }], 'fail-on': 'error' } as AnalysisOptions).catch((e: unknown) => e);
    expect(error).toMatchObject({ option: 'fail-on', value: 'error' });
    expect((error as Error).message).toMatch(/^unknown option 'fail-on'; known: inputs, stdin, redact, filter, now, inputFormat, .*onProgress$/);
    await expect(streamAnalysis({ inputs: [{ path: CLIENT }], constructor: 1 } as AnalysisOptions)).rejects.toThrow(/^unknown option 'constructor'/);
  });

  it('takes every name there is, with values left undefined, and leaves the stdin stream and the callbacks unlooked-into', async () => {
    const lines: string[] = [];
    const { summary } = await analyze({
      inputs: [{ path: CLIENT, side: 'client' }], stdin: new PassThrough(), redact: true, now: Date.now(), inputFormat: undefined, maxLineBytes: undefined,
      windowMs: undefined, retryWindowMs: undefined, skewMs: undefined, orderToleranceMs: undefined, timezone: undefined, unwrap: undefined, strict: false,
      inputOrder: undefined, idempotent: undefined, policy: { maxRetries: 2, minDelayMs: 200 }, onDiagnostic: (l) => lines.push(l), onProgress: () => {},
      filter: { session: undefined, method: undefined, tool: undefined, outcome: undefined, code: undefined, since: undefined, until: undefined },
    });
    expect(summary.attempts).toBeGreaterThan(0);
  });
});
