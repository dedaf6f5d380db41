// The command line: flags declared once with yargs, main(argv, io) -> exit code; nothing here reads `process` directly.
import yargs, { type Argv } from 'yargs';
import { runAnalysis, DEFAULTS, type AnalyzeOptions } from './analyze.js';
import { InputError, StrictStop, type InputSpec } from './ingest.js';
import { attemptRow, SummaryBuilder, type AttemptRow } from './report/summary.js';
import type { OutputSink } from './report/sink.js';
import { isOutcome, OUTCOMES } from './outcomes.js';
import { FINDING_CODES, isFindingCode, SEVERITIES, type Finding, type Severity } from './findings/types.js';
import { cleanTerminal } from './report/text.js';
import { redactText } from './redact.js';
import { buildFilter, type FilterArgs } from './filter.js';
import { createProgress, shouldShowProgress } from './progress.js';
import { OutputWriter } from './output.js';
import { VERSION } from './version.js';

export interface CliIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  env: Record<string, string | undefined>;
}

export const EXIT = { ok: 0, failOn: 1, usage: 2 } as const;

const FORMATS = ['table', 'json', 'ndjson', 'markdown'] as const;

const EPILOG = `Outcomes (first match wins): ${OUTCOMES.join(', ')}.
Finding codes: ${FINDING_CODES.join(', ')} (mcp-triage explain CODE).

Exit status: 0 the analysis finished; 1 a --fail-on condition was met; 2 usage error, unreadable input, or (with --strict) an unusable line.
Secrets (Authorization, cookies, tokens, credentials in URLs and bodies) are redacted in every output unless --no-redact.`;

function analyzeOptions(y: Argv) {
  return y
    .positional('files', { type: 'string', array: true, describe: 'Log files to read ("-" or nothing: standard input). Gzip is detected by content.' })
    .option('client', { type: 'string', array: true, describe: 'A client-side log (repeatable); its records are the client view', requiresArg: true })
    .option('server', { type: 'string', array: true, describe: 'A server-side log (repeatable); its records are the server view', requiresArg: true })
    .option('format', { alias: 'f', choices: FORMATS, default: 'table' as const, describe: 'Report format' })
    .option('input-format', { type: 'string', describe: 'Force one input format instead of detecting it per line (see `mcp-triage formats`)', requiresArg: true })
    .option('fail-on', { type: 'string', array: true, describe: 'Exit 1 when any of these occur: outcomes (HTTP_ERROR), finding codes (UNSAFE_RETRY) or severities (error, warning, info); comma lists allowed', requiresArg: true })
    .option('color', { choices: ['auto', 'always', 'never'] as const, default: 'auto' as const, describe: 'Colour in the table report (auto: only on a terminal, and NO_COLOR unset)' })
    .option('redact', { type: 'boolean', default: true, describe: 'Redact secrets in every output (--no-redact to show them)' })
    .option('strict', { type: 'boolean', default: false, describe: 'Stop with exit 2 at the first unusable line' })
    .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'No progress line and no per-line diagnostics on stderr (counts stay in the report)' })
    .option('session', { type: 'string', array: true, describe: 'Only these sessions (prefix match)', requiresArg: true })
    .option('method', { type: 'string', array: true, describe: 'Only these JSON-RPC methods', requiresArg: true })
    .option('tool', { type: 'string', array: true, describe: 'Only these tools', requiresArg: true })
    .option('outcome', { type: 'string', array: true, describe: 'Only attempts with these outcomes', requiresArg: true })
    .option('code', { type: 'string', array: true, describe: 'Only attempts (and session findings) with these finding codes', requiresArg: true })
    .option('since', { type: 'string', describe: 'Only attempts at or after this time: ISO 8601, or a duration before now like 15m, 2h, 1d', requiresArg: true })
    .option('until', { type: 'string', describe: 'Only attempts before this time (same forms as --since)', requiresArg: true })
    .option('idempotent', { type: 'string', array: true, describe: 'Treat these tools as safe to retry, whatever tools/list says', requiresArg: true })
    .option('max-retries', { type: 'number', default: 2, describe: 'Retry policy: most retries a call may have (RETRY_POLICY)' })
    .option('min-retry-delay', { type: 'number', default: 200, describe: 'Retry policy: least delay before the first retry, ms; later delays must not shrink' })
    .option('window', { type: 'number', default: DEFAULTS.windowMs / 1000, describe: 'Seconds an open request waits for its response, a resumption or the other side\'s view' })
    .option('retry-window', { type: 'number', default: DEFAULTS.retryWindowMs / 1000, describe: 'Seconds after a failed attempt in which a repeat counts as its retry' })
    .option('skew', { type: 'number', default: DEFAULTS.skewMs / 1000, describe: 'Extra seconds to wait for the other side\'s view when the two logs\' clocks disagree' })
    .option('order-tolerance', { type: 'number', default: DEFAULTS.orderToleranceMs / 1000, describe: 'Seconds a time-ordered input may jump back before it counts as unordered' })
    .option('max-line-bytes', { type: 'number', default: DEFAULTS.maxLineBytes, describe: 'Longest line read; longer lines are reported and skipped without being held' })
    .option('max-rows', { type: 'number', default: 500, describe: 'Most rows in each table of the table and markdown reports (all are counted)' })
    .option('timezone', { type: 'string', describe: 'Zone for timestamps that carry none: +02:00 or an IANA name (default UTC)', requiresArg: true })
    .option('unwrap', { type: 'string', describe: 'Read each record from this dotted path of the line (an unknown export envelope)', requiresArg: true });
}

type AnalyzeArgs = Awaited<ReturnType<ReturnType<typeof analyzeOptions>['parseAsync']>>;

/** Run the CLI with these arguments; resolves to the exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const err = (s: string) => io.stderr.write(s.endsWith('\n') ? s : `${s}\n`);
  let exitCode: number = EXIT.ok;
  let usageError: string | undefined;
  const parser = yargs(argv)
    .scriptName('mcp-triage')
    .usage('Usage: $0 [files..] [--client FILE]... [--server FILE]... [options]\n\nTells where each MCP tool call really failed: HTTP transport, JSON-RPC protocol, or the tool itself.')
    .command('$0 [files..]', 'Analyze MCP traffic logs (the default command)', analyzeOptions, async (args) => {
      exitCode = await analyzeCommand(args as unknown as AnalyzeArgs, io);
    })
    .command('schema', 'Print the canonical record schema (version 1) as JSON Schema', (y) => y, async () => {
      const { canonicalJsonSchema } = await import('./schema/record.js');
      io.stdout.write(`${JSON.stringify(canonicalJsonSchema(), null, 2)}\n`);
    })
    .command('explain <code>', 'Explain a finding code or an outcome: definition, why it matters, the spec rule, what to do', (y) => y.positional('code', { type: 'string', describe: 'e.g. NO_FINAL_RESULT or HTTP_ERROR' }), async (args) => {
      const { explain } = await import('./findings/catalog.js');
      const text = explain(String(args.code ?? ''));
      if (text) io.stdout.write(text);
      else {
        err(`mcp-triage: unknown code "${cleanTerminal(String(args.code))}"; known: ${[...FINDING_CODES, ...OUTCOMES].join(', ')}`);
        exitCode = EXIT.usage;
      }
    })
    .command('formats', 'List the input formats mcp-triage detects and what each can and cannot show', (y) => y, async () => {
      const { describeFormats } = await import('./formats/describe.js');
      io.stdout.write(describeFormats());
    })
    .command('record', 'Run a transparent recording proxy that writes canonical records (see `record --help`)', async (y) => (await import('./capture/record-command.js')).recordCommand.builder(y), async (args) => {
      const { runRecord } = await import('./capture/record-command.js');
      exitCode = await runRecord(args as never, { stderr: io.stderr });
    })
    .example('$0 --client samples/client.ndjson --server samples/server.ndjson', 'join a client log and a server log and print the report')
    .example('$0 samples/capture.har.ndjson --format ndjson', 'one JSON line per attempt, for jq and scripts')
    .example('zcat export.ndjson.gz | $0 - --format markdown > postmortem.md', 'a postmortem document from a compressed export on stdin')
    .example('$0 --client samples/client.ndjson --fail-on error,HTTP_ERROR', 'exit 1 when a finding of severity error or an HTTP_ERROR occurs')
    .example('$0 explain NO_FINAL_RESULT', 'what a finding means and what to do about it')
    .epilogue(EPILOG)
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version(VERSION)
    .alias('V', 'version')
    .wrap(Math.min(110, io.stdout.columns ?? 100))
    .exitProcess(false)
    .fail((msg, e) => {
      usageError = msg ?? e?.message ?? 'usage error';
    });

  let output = '';
  try {
    await parser.parseAsync(argv, {}, (_e, _a, out) => {
      output = out ?? '';
    });
  } catch (e) {
    if (e instanceof InputError || e instanceof StrictStop) {
      err(`mcp-triage: ${cleanTerminal(e instanceof StrictStop ? `${e.where}: ${e.message} (--strict)` : e.message)}`);
      return EXIT.usage;
    }
    if (usageError === undefined) throw e;
  }
  if (usageError !== undefined) {
    err(`mcp-triage: ${cleanTerminal(suggest(usageError))}`);
    err("Run 'mcp-triage --help' for usage.");
    return EXIT.usage;
  }
  if (output) io.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  return exitCode;
}

const KNOWN_FLAGS = ['client', 'server', 'format', 'input-format', 'fail-on', 'color', 'redact', 'no-redact', 'strict', 'quiet', 'session', 'method', 'tool', 'outcome', 'code', 'since', 'until', 'idempotent', 'max-retries', 'min-retry-delay', 'window', 'retry-window', 'skew', 'order-tolerance', 'max-line-bytes', 'max-rows', 'timezone', 'unwrap', 'help', 'version'];

/** Add "did you mean --x?" to yargs' unknown-argument message. */
function suggest(msg: string): string {
  const m = /Unknown arguments?: (.+)$/.exec(msg);
  if (!m) return msg;
  const hints = m[1]!.split(',').map((s) => s.trim()).map((bad) => {
    const best = nearest(bad.replace(/^-+/, ''), KNOWN_FLAGS);
    return best ? `${bad} (did you mean --${best}?)` : bad;
  });
  return `unknown option ${hints.join(', ')}`;
}

function nearest(word: string, options: string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const o of options) {
    const d = distance(word, o);
    if (d < bestD) {
      bestD = d;
      best = o;
    }
  }
  return bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

function distance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length]!;
}

interface FailOn {
  outcomes: Set<string>;
  codes: Set<string>;
  severities: Set<Severity>;
}

function parseFailOn(values: string[] | undefined): FailOn | string {
  const f: FailOn = { outcomes: new Set(), codes: new Set(), severities: new Set() };
  for (const v of (values ?? []).flatMap((x) => x.split(','))) {
    const t = v.trim();
    if (!t) continue;
    if (isOutcome(t.toUpperCase())) f.outcomes.add(t.toUpperCase());
    else if (isFindingCode(t.toUpperCase())) f.codes.add(t.toUpperCase());
    else if ((SEVERITIES as string[]).includes(t.toLowerCase())) f.severities.add(t.toLowerCase() as Severity);
    else return `--fail-on: "${t}" is not an outcome, a finding code or a severity (error, warning, info)`;
  }
  return f;
}

async function analyzeCommand(args: AnalyzeArgs, io: CliIo): Promise<number> {
  const err = (s: string) => io.stderr.write(`${s}\n`);
  const failOn = parseFailOn(args['fail-on']);
  if (typeof failOn === 'string') {
    err(`mcp-triage: ${failOn}`);
    return EXIT.usage;
  }
  const specs: InputSpec[] = [
    ...(args.files ?? []).map((p) => ({ path: p })),
    ...(args.client ?? []).map((p) => ({ path: p, side: 'client' as const })),
    ...(args.server ?? []).map((p) => ({ path: p, side: 'server' as const })),
  ];
  if (specs.length === 0) {
    if ((io.stdin as { isTTY?: boolean }).isTTY) {
      err('mcp-triage: no input: give log files, --client/--server files, or pipe a log into standard input.');
      err("Run 'mcp-triage --help' for usage.");
      return EXIT.usage;
    }
    specs.push({ path: '-' });
  }
  if (specs.filter((s) => s.path === '-').length > 1) {
    err('mcp-triage: standard input ("-") can be read only once');
    return EXIT.usage;
  }
  for (const [name, v] of [['window', args.window], ['retry-window', args['retry-window']], ['skew', args.skew], ['order-tolerance', args['order-tolerance']], ['max-line-bytes', args['max-line-bytes']], ['max-retries', args['max-retries']], ['min-retry-delay', args['min-retry-delay']], ['max-rows', args['max-rows']]] as const) {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
      err(`mcp-triage: --${name} needs a number of 0 or more`);
      return EXIT.usage;
    }
  }
  if (args['input-format'] !== undefined) {
    const { formatByName, ALL_FORMATS } = await import('./formats/index.js');
    if (args['input-format'] !== 'har' && !formatByName(args['input-format'])) {
      err(`mcp-triage: --input-format: unknown format "${cleanTerminal(args['input-format'])}"; known: har, ${ALL_FORMATS.map((f) => f.name).join(', ')}`);
      return EXIT.usage;
    }
  }
  if (args.timezone !== undefined) {
    const { isValidTimezone } = await import('./formats/time.js');
    if (!isValidTimezone(args.timezone)) {
      err(`mcp-triage: --timezone: "${cleanTerminal(args.timezone)}" is neither an offset like +02:00 nor an IANA zone name`);
      return EXIT.usage;
    }
  }
  const filter = buildFilter(args as FilterArgs);
  if (typeof filter === 'string') {
    err(`mcp-triage: ${filter}`);
    return EXIT.usage;
  }

  const redact = args.redact !== false;
  const colorOn = args.color === 'always' || (args.color === 'auto' && io.stdout.isTTY === true && !io.env.NO_COLOR && io.env.TERM !== 'dumb');
  const out = new OutputWriter(io.stdout);
  const format = args.format;
  const builder = new SummaryBuilder({ redact, keepAll: format === 'markdown', maxRows: format === 'markdown' ? Math.max(args['max-rows'], 5000) : args['max-rows'], toolName: `mcp-triage ${VERSION}`, filters: filter.describe() });
  const sink: OutputSink = await makeSink(format, out, colorOn);
  const progress = createProgress({
    enabled: shouldShowProgress({ stderrIsTTY: io.stderr.isTTY === true, quiet: args.quiet, totalBytes: undefined }),
    stream: io.stderr,
  });
  let failed = false;
  const fail = { outcome: (o: string) => failOn.outcomes.has(o), finding: (code: string, sev: Severity) => failOn.codes.has(code) || failOn.severities.has(sev) };
  const options: AnalyzeOptions = {
    inputs: specs,
    stdin: io.stdin,
    inputFormat: args['input-format'],
    maxLineBytes: args['max-line-bytes'],
    windowMs: args.window * 1000,
    retryWindowMs: args['retry-window'] * 1000,
    skewMs: args.skew * 1000,
    orderToleranceMs: args['order-tolerance'] * 1000,
    timezone: args.timezone,
    unwrap: args.unwrap,
    strict: args.strict,
    idempotent: args.idempotent ?? [],
    policy: { maxRetries: args['max-retries'], minDelayMs: args['min-retry-delay'] },
    onDiagnostic: args.quiet ? undefined : (line) => {
      progress.clear();
      io.stderr.write(`${cleanTerminal(line)}\n`);
    },
    onProgress: (read, total) => progress.update(read),
  };
  void progress;
  const run = await runAnalysis(options, {
    attempt: (a) => {
      const row = attemptRow(a, redact);
      if (!filter.attempt(row)) return;
      if (fail.outcome(row.outcome) || row.findings.some((f) => fail.finding(f.code, f.severity))) failed = true;
      builder.attempt(row);
      if (!out.closed) sink.attempt(row);
    },
    finding: (f: Finding) => {
      if (!filter.finding(f)) return;
      if (fail.finding(f.code, f.severity)) failed = true;
      const message = redact ? redactText(f.message) : f.message;
      builder.finding(f);
      if (!out.closed) sink.finding(f, message);
    },
    backpressure: () => out.drained(),
  });
  progress.done();
  const summary = builder.build(run);
  if (!out.closed) sink.end(summary, builder);
  await out.close();
  if (run.diagnostics.total && args.quiet === false && format !== 'table') {
    err(`mcp-triage: ${summary.lines.unusable} unusable line(s) of ${summary.lines.read}; see the summary for where`);
  }
  return failed ? EXIT.failOn : EXIT.ok;
}

async function makeSink(format: (typeof FORMATS)[number], out: OutputWriter, color: boolean): Promise<OutputSink> {
  const write = (s: string) => out.write(s);
  switch (format) {
    case 'ndjson':
      return new (await import('./report/json.js')).NdjsonSink(write);
    case 'json':
      return new (await import('./report/json.js')).JsonDocumentSink(write);
    case 'markdown':
      return new (await import('./report/markdown.js')).MarkdownSink(write);
    default:
      return new (await import('./report/table.js')).TableSink({ color, write });
  }
}

export type { AttemptRow };
