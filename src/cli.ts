// The command line: options declared once as data, commands (analyze, sessions, timeline, ...) over the library API; main(argv, io) -> exit code.
import { lstat, stat } from 'node:fs/promises';
import type { Argv, Options } from 'yargs';
import { negatedOptionError, onceOnly, readPlainArgs, valuesChecked, type PlainArgs } from './cli-args.js';
import { DEFAULTS, callHorizonMs } from './analyze.js';
import { InputError, StrictStop, type InputSpec } from './ingest.js';
import { SummaryBuilder, type AttemptRow, type Summary } from './report/summary.js';
import type { OutputSink } from './report/sink.js';
import { OUTCOMES } from './outcomes.js';
import { FINDING_CODES, type Finding } from './findings/types.js';
import { FailOnCounter, parseFailOn } from './fail-on.js';
import { cleanTerminal, escapeJsonControls, plural } from './report/text.js';
import { unusableText } from './report/notes.js';
import { DEFAULT_WIDTH } from './report/grid.js';
import { FilterError, buildFilter, filtersText, type FilterDescription, type FilterOptions } from './filter.js';
import { createProgress, shouldShowProgress } from './progress.js';
import { OutputWriter } from './output.js';
import { streamAnalysis, type AnalysisOptions } from './index.js';
import { nearest } from './suggest.js';
import { optionError, type CheckedOptions } from './options.js';
import { redactText } from './redact.js';
import { VERSION } from './version.js';

export interface CliIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  env: Record<string, string | undefined>;
  /** Called once, before reading, when the inputs are large (over LARGE_INPUT_BYTES) or of unknown size (a pipe): the executable tunes the heap then. */
  largeInput?: () => void;
  /** Loads yargs (an ES module). The executable passes its own: its bundled CLI runs as a script whose code comes
   * from V8's code cache, where Node 20 cannot run `import()` (src/bundle-loader.ts). */
  importYargs?: () => Promise<typeof import('yargs')>;
}

/** Inputs past this size are large (see CliIo.largeInput). */
export const LARGE_INPUT_BYTES = 16 * 1024 * 1024;

const EXIT = { ok: 0, failOn: 1, usage: 2 } as const;

const ANALYZE_FORMATS = ['table', 'json', 'ndjson', 'markdown'] as const;
const VIEW_FORMATS = ['table', 'json', 'markdown'] as const;
type Group = [title: string, options: Record<string, Options>];

// ---- Options, declared once; each command takes the groups it needs. ----

const INPUT: Group = ['Input:', {
  client: { type: 'string', array: true, nargs: 1, requiresArg: true, describe: 'A client-side log (repeat, or comma list); its records are the client view. "-" reads standard input' },
  server: { type: 'string', array: true, nargs: 1, requiresArg: true, describe: 'A server-side log (repeat, or comma list); its records are the server view' },
  'input-format': { type: 'string', requiresArg: true, describe: 'Force one input format instead of detecting it per line (list: mcp-triage formats)' },
  timezone: { type: 'string', requiresArg: true, describe: 'Zone of timestamps that carry none: +02:00 or an IANA name like Europe/Paris (default UTC)' },
  unwrap: { type: 'string', requiresArg: true, describe: 'Read each record from this dotted path of every line (an unknown export envelope)' },
  'max-line-bytes': { type: 'number', requiresArg: true, default: DEFAULTS.maxLineBytes, describe: 'Longest line read, in bytes (1024 or more); longer lines are reported and skipped without being held' },
  'input-order': { requiresArg: true, choices: ['auto', 'oldest-first', 'newest-first'], default: 'auto', describe: 'Line order of the inputs. auto: an input whose first lines run back in time (gcloud logging read, logcli, search exports) is read from its last line back, through a temporary file' },
  strict: { type: 'boolean', default: false, describe: 'Stop with exit 2 at the first unusable (broken) line; skipped lines (no MCP traffic) are not problems' },
}];

const FILTERS: Group = ['Filters (combine freely; every report states the ones in force and how many attempts they left out):', {
  session: { type: 'string', array: true, nargs: 1, requiresArg: true, describe: 'Only sessions whose id starts with this (a3f1), or that a table shortened to this with … (repeat, or comma list)' },
  method: { type: 'string', array: true, nargs: 1, requiresArg: true, describe: 'Only these JSON-RPC request methods; * is a wildcard (tools/call, resources/*); notifications are no attempts' },
  tool: { type: 'string', array: true, nargs: 1, requiresArg: true, describe: "Only calls of these tools; * is a wildcard (create_ticket, 'search_*')" },
  target: { type: 'string', array: true, nargs: 1, requiresArg: true, describe: 'Only requests acting on these: a tool, a resource uri, a prompt name, a completion ref; * is a wildcard (docs://*)' },
  outcome: { type: 'string', array: true, nargs: 1, requiresArg: true, describe: 'Only attempts with these outcomes (HTTP_ERROR,TOOL_ERROR)' },
  code: { type: 'string', array: true, nargs: 1, requiresArg: true, describe: 'Only attempts with these finding codes, and session findings with them (SIDE_DIVERGENCE,UNSAFE_RETRY)' },
  since: { type: 'string', requiresArg: true, describe: 'Only attempts that started at or after this time: ISO 8601 (2026-10-17T09:12:00Z; without a zone, --timezone applies), epoch seconds or milliseconds, or a duration before now (30s, 15m, 2h, 1d, 1w)' },
  until: { type: 'string', requiresArg: true, describe: 'Only attempts that started before this time (same forms as --since)' },
}];

const OUTPUT_COMMON: Record<string, Options> = {
  color: { requiresArg: true, choices: ['auto', 'always', 'never'], default: 'auto', describe: 'Colour in terminal tables (auto: only when stdout is a terminal, NO_COLOR is unset and TERM is not dumb; FORCE_COLOR=1 colours a pipe too)' },
  redact: { type: 'boolean', default: true, describe: 'Redact secrets in every output (--no-redact shows them as logged)' },
  quiet: { alias: 'q', type: 'boolean', default: false, describe: 'No progress line, no per-line diagnostics and no notes on stderr (the report still counts them)' },
};

const ANALYZE_OUTPUT: Group = ['Report:', {
  format: { alias: 'f', requiresArg: true, choices: ANALYZE_FORMATS, default: 'table', describe: 'table (terminal), json (one document), ndjson (one line per attempt), markdown (postmortem)' },
  'fail-on': { type: 'string', array: true, nargs: 1, requiresArg: true, describe: 'Exit 1 when any of these occur among the reported attempts and findings: outcomes (HTTP_ERROR), finding codes (UNSAFE_RETRY), or a severity or worse (info < warning < error: warning fails on warnings and errors); comma lists allowed (--fail-on error,HTTP_ERROR). An outcome counts only where the report counts a failure: not a redirect the client followed, an answer the log does not hold, a refused server/discover probe. stderr says what matched' },
  'max-rows': { type: 'number', requiresArg: true, default: 500, describe: 'Most rows in each table of the table and markdown reports (all are counted)' },
  ...OUTPUT_COMMON,
}];

const VIEW_OUTPUT: Group = ['Report:', {
  format: { alias: 'f', requiresArg: true, choices: VIEW_FORMATS, default: 'table', describe: 'table (terminal), json, markdown' },
  ...OUTPUT_COMMON,
}];

const ANALYSIS: Group = ['Analysis:', {
  window: { type: 'number', requiresArg: true, default: DEFAULTS.windowMs / 1000, describe: 'Seconds the join waits for a resumption, the other side\'s view or a claim; a call still open is followed through up to 600 s of silence, or this long if longer' },
  'retry-window': { type: 'number', requiresArg: true, default: DEFAULTS.retryWindowMs / 1000, describe: 'Seconds after a failed attempt in which the same call sent again counts as its retry (plus a Retry-After it was given, up to 300)' },
  skew: { type: 'number', requiresArg: true, default: DEFAULTS.skewMs / 1000, describe: 'Extra seconds to wait for the other side\'s view when the two logs\' clocks disagree; also how far apart two sessions\' initialize may be to pair them across a hop that rewrote the session id, and a request in a log without session ids from the server\'s view of it' },
  'order-tolerance': { type: 'number', requiresArg: true, default: DEFAULTS.orderToleranceMs / 1000, describe: 'Seconds a time-ordered input may jump back before it counts as unordered' },
  idempotent: { type: 'string', array: true, nargs: 1, requiresArg: true, describe: 'Tools that are safe to retry, whatever tools/list says' },
  'max-retries': { type: 'number', requiresArg: true, default: 2, describe: 'Retry policy: most retries a call may have (RETRY_POLICY)' },
  'min-retry-delay': { type: 'number', requiresArg: true, default: 200, describe: 'Retry policy: least delay before any retry, ms; later delays must not shrink (judged after a failure with no status or a 2xx, such as a cut stream or a JSON-RPC error, and after 408, 429 and 5xx; not after a 4xx the re-send corrects)' },
}];

/** The number options that count things (rows, retries, bytes): a fraction is a usage error. */
const WHOLE_NUMBERS: ReadonlySet<string> = new Set(['max-rows', 'max-retries', 'max-line-bytes']);

const FILTERS_BUT_SESSION: Group = [FILTERS[0], Object.fromEntries(Object.entries(FILTERS[1]).filter(([k]) => k !== 'session'))];

function addGroups(y: Argv, groups: Group[], argv: string[]): Argv {
  for (const [title, options] of groups) {
    for (const [name, o] of Object.entries(options)) y.option(name, o);
    y.group(Object.keys(options), title);
  }
  // An option that takes one value, given twice, is a usage error (yargs would hand the command an array); so is a
  // value yargs would read silently as another (an empty number as 0, an empty list as none).
  const table = Object.assign({}, ...groups.map(([, o]) => o)) as Record<string, Options>;
  return y.check(onceOnly(table, argv)).check(valuesChecked(table, argv, WHOLE_NUMBERS));
}

// ---- Help text: what each command is for, and examples that run as written from the project folder. ----

const SAMPLES = '--client samples/client.ndjson --server samples/server.ndjson';

/** Examples shown by --help, one `$ command` line and its explanation; a test runs every one. */
const EXAMPLES: Record<string, [command: string, what: string][]> = {
  analyze: [
    [`mcp-triage ${SAMPLES}`, 'Join the client\'s and the server\'s log of the same traffic: where every call that did not succeed really failed'],
    [`mcp-triage ${SAMPLES} --code SIDE_DIVERGENCE`, 'The calls the client and the server saw differently ("the client says it failed, the server says 200")'],
    [`mcp-triage ${SAMPLES} samples/claims.ndjson --tool create_ticket`, 'Add the client\'s own per-call claims, and keep only the create_ticket calls'],
    [`mcp-triage ${SAMPLES} --outcome HTTP_ERROR,TOOL_ERROR --since 2026-10-17T09:12:00Z`, 'Only HTTP errors and tool errors from 09:12 UTC on (--since 15m means "the last 15 minutes")'],
    ['mcp-triage samples/capture.har.ndjson --format ndjson', 'A browser or proxy capture (HAR entries, one per line), as one JSON line per attempt for jq and scripts'],
    ['gzip -c samples/server.ndjson | mcp-triage --server - --format markdown > postmortem.md', 'A compressed log on standard input, written as a Markdown postmortem'],
    ['mcp-triage samples/stdio.ndjson --outcome UNANSWERED', 'A stdio log (JSON-RPC messages with a direction, no HTTP layer), only the requests it shows no answer to'],
    [`mcp-triage ${SAMPLES} --fail-on error,HTTP_ERROR --quiet`, 'Exit 1 when a finding of severity error or an HTTP_ERROR occurs (for CI and alerts)'],
  ],
  sessions: [
    [`mcp-triage sessions ${SAMPLES}`, 'One row per session: client, protocol version, attempts, failures, findings, time span'],
    ['mcp-triage sessions samples/capture.har.ndjson samples/stdio.ndjson --format markdown', 'The sessions of a HAR capture and a stdio log, as a Markdown table'],
    [`mcp-triage sessions ${SAMPLES} --outcome HTTP_ERROR --format json`, 'Only the sessions that had HTTP errors, as JSON'],
  ],
  timeline: [
    [`mcp-triage timeline a3f1 ${SAMPLES}`, 'Every exchange of the session whose id starts with a3f1, client and server view side by side'],
    [`mcp-triage timeline a3f1 ${SAMPLES} --tool create_ticket --format markdown`, 'Only the create_ticket calls of that session, as Markdown with a sequence diagram'],
  ],
  explain: [
    ['mcp-triage explain NO_FINAL_RESULT', 'What a finding means, the spec rule behind it and what to do'],
    ['mcp-triage explain STREAM_INCOMPLETE', 'What an outcome means and which layer it belongs to'],
  ],
  formats: [['mcp-triage formats', 'The input formats detected per line, and what each cannot show']],
  schema: [['mcp-triage schema > canonical-record.schema.json', 'The canonical record format as JSON Schema, for the logs you write yourself']],
  record: [['mcp-triage record --listen 127.0.0.1:8808 --target http://127.0.0.1:3000 --out mcp.ndjson', 'Record the traffic to the MCP server on port 3000: point the client at http://127.0.0.1:8808/mcp, stop with Ctrl-C, then run mcp-triage mcp.ndjson']],
};

const examplesText = (command: string) =>
  `Examples:\n${(EXAMPLES[command] ?? []).map(([cmd, what]) => `  $ ${cmd}\n      ${what}`).join('\n')}`;

const EXIT_TEXT = 'Exit status: 0 the analysis finished (also when the reader closed the pipe: | head); 1 a --fail-on condition was met (one stderr line says which, and how many); 2 usage error, unreadable input, output that cannot be written (a full disk), or (with --strict) an unusable line; 130 interrupted (Ctrl-C).';

const VIEW_EXIT_TEXT = 'Exit status: 0 the view was printed; 2 usage error, unreadable input, output that cannot be written, or (with --strict) an unusable line; 130 interrupted (Ctrl-C).';

/** timeline exits 2 also when SESSION matches no session or several; sessions lists what passes the filters, even none. */
const TIMELINE_EXIT_TEXT = 'Exit status: 0 the view was printed; 2 usage error, unreadable input, a SESSION that matches no session or several, output that cannot be written, or (with --strict) an unusable line; 130 interrupted (Ctrl-C).';

const ANALYZE_EPILOG = `Outcomes (first match wins): ${OUTCOMES.join(', ')}.
Finding codes: ${FINDING_CODES.join(', ')}. (mcp-triage explain CODE)
More views: mcp-triage sessions (one row per session), mcp-triage timeline SESSION (one session, exchange by exchange).
Terminal tables fit COLUMNS, else the terminal's width, else 160 columns (piped): long text wraps in its cell.

${EXIT_TEXT}
Secrets (Authorization, cookies, tokens, credentials in URLs and bodies) are redacted in every output unless --no-redact.`;

/** The commands, and for each the flags it knows (for "did you mean"). */
const COMMANDS = ['sessions', 'timeline', 'schema', 'explain', 'formats', 'record'] as const;
const GLOBAL_FLAGS = ['help', 'version'];
const flagsOf = (groups: Group[]) => groups.flatMap(([, o]) => Object.keys(o)).concat('no-redact', ...GLOBAL_FLAGS);
const COMMAND_FLAGS: Record<string, string[]> = {
  analyze: flagsOf([INPUT, FILTERS, ANALYZE_OUTPUT, ANALYSIS]),
  sessions: flagsOf([INPUT, FILTERS, VIEW_OUTPUT, ANALYSIS]),
  timeline: flagsOf([INPUT, FILTERS_BUT_SESSION, VIEW_OUTPUT, ANALYSIS]),
  schema: GLOBAL_FLAGS,
  explain: GLOBAL_FLAGS,
  formats: GLOBAL_FLAGS,
  record: ['listen', 'target', 'out', 'side', 'allow-remote', 'redact', 'no-redact', ...GLOBAL_FLAGS],
};

/** Which command an argument list runs: the first word that names one, else the default analysis. */
function commandOf(argv: string[]): string {
  for (const a of argv) {
    if (a === '--') break;
    if ((COMMANDS as readonly string[]).includes(a)) return a;
    if (!a.startsWith('-')) return 'analyze';
  }
  return 'analyze';
}

/** `--client -` as `--client=-`: the argument parser would not take a lone "-" as an option's value. */
function joinDashValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if ((a === '--client' || a === '--server') && argv[i + 1] === '-') {
      out.push(`${a}=-`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** The options of the default analysis command, in one table (for the quick reader). */
const ANALYZE_TABLE: Record<string, Options> = Object.assign({}, ...[INPUT, FILTERS, ANALYZE_OUTPUT, ANALYSIS].map(([, o]) => o));

/** The analysis arguments of a plain command line, read without yargs; undefined when yargs must read it. */
export const plainAnalyzeArgs = (argv: string[]): PlainArgs | undefined => readPlainArgs(joinDashValues(argv), ANALYZE_TABLE, WHOLE_NUMBERS);

/** The option names of the default analysis command (for tests comparing the two readers). */
export const ANALYZE_OPTION_NAMES: readonly string[] = Object.keys(ANALYZE_TABLE);

/** The options of each analysing command (for tests: every option that takes one value refuses to be given twice). */
export const COMMAND_OPTIONS: Readonly<Record<'analyze' | 'sessions' | 'timeline', Readonly<Record<string, Options>>>> = {
  analyze: ANALYZE_TABLE,
  sessions: Object.assign({}, ...[INPUT, FILTERS, VIEW_OUTPUT, ANALYSIS].map(([, o]) => o)),
  timeline: Object.assign({}, ...[INPUT, FILTERS_BUT_SESSION, VIEW_OUTPUT, ANALYSIS].map(([, o]) => o)),
};

interface ParseState {
  exitCode: number;
  usageError: string | undefined;
}

/** Run the CLI with these arguments; resolves to the exit code. */
export async function main(rawArgv: string[], io: CliIo): Promise<number> {
  const argv = joinDashValues(rawArgv);
  const err = (s: string) => io.stderr.write(s.endsWith('\n') ? s : `${s}\n`);
  const command = commandOf(argv);
  if (command === 'timeline' && argv.some((a) => a === '--session' || a.startsWith('--session='))) {
    return usage(io, 'timeline takes the session as its first argument (mcp-triage timeline SESSION [files..]), not as --session', 'timeline');
  }
  const state: ParseState = { exitCode: EXIT.ok, usageError: undefined };
  let output = '';
  try {
    // A plain analysis command line skips yargs and its start-up cost; the result is the same (test/cli/args.test.ts).
    const plain = command === 'analyze' ? readPlainArgs(argv, ANALYZE_TABLE, WHOLE_NUMBERS) : undefined;
    if (plain && 'error' in plain) return usage(io, plain.error, command);
    if (plain) return await analyzeCommand(plain.args as unknown as AnalyzeArgs, io);
    const yargsArgv = command === 'analyze' || command === 'sessions' || command === 'timeline' ? markStdin(argv) : argv;
    const parser = await buildParser(yargsArgv, io, state, (args) => analyzeCommand(args, io));
    await parser.parseAsync(yargsArgv, {}, (_e, _a, out) => {
      output = out ?? '';
    });
  } catch (e) {
    if (e instanceof InputError || e instanceof StrictStop) {
      err(`mcp-triage: ${cleanTerminal(e instanceof StrictStop ? `${e.message} (--strict)` : e.message)}`);
      return EXIT.usage;
    }
    if (e instanceof FilterError) {
      err(`mcp-triage: ${cleanTerminal(e.message)}`);
      return EXIT.usage;
    }
    // A parse error of a command with an async builder (record: "Not enough arguments following") is thrown, not failed.
    if (state.usageError === undefined && e instanceof Error && e.name === 'YError') state.usageError = e.message;
    if (state.usageError === undefined) throw e;
  }
  if (state.usageError !== undefined) {
    err(`mcp-triage: ${cleanTerminal(explainUsageError(state.usageError, command, argv))}`);
    err(`Run 'mcp-triage ${command === 'analyze' ? '' : `${command} `}--help' for usage.`);
    return EXIT.usage;
  }
  if (output) {
    // Help: the examples go last, unwrapped, one command per line, so that they can be pasted (and tested) as written.
    const isHelp = output.startsWith('Usage:') || output.includes('\nOptions:');
    const examples = isHelp && EXAMPLES[command] ? `\n\n${examplesText(command)}` : '';
    io.stdout.write(`${output.replace(/\n+$/, '')}${examples}\n`);
  }
  return state.exitCode;
}

/**
 * The analysis arguments yargs gives for this command line, or the usage error it reports (as yargs words it), or
 * undefined when it runs another command. For tests holding the quick reader to yargs' results.
 */
export async function argsFromYargs(argv: string[]): Promise<PlainArgs | undefined> {
  const io: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: {} };
  const state: ParseState = { exitCode: EXIT.ok, usageError: undefined };
  let got: Record<string, unknown> | undefined;
  const parser = await buildParser(markStdin(joinDashValues(argv)), io, state, async (args) => {
    got = { ...args } as Record<string, unknown>;
    return EXIT.ok;
  });
  await parser.parseAsync(markStdin(joinDashValues(argv)), {}, () => undefined);
  if (state.usageError !== undefined) return { error: state.usageError };
  return got && { args: got };
}

/** Stands in for a lone "-" (standard input) among the files while yargs reads the line: yargs would drop it. */
const STDIN_ARG = '\u0000stdin';
const markStdin = (argv: string[]): string[] => {
  const end = argv.indexOf('--');
  return argv.map((a, i) => (a === '-' && (end === -1 || i < end) ? STDIN_ARG : a));
};

/**
 * The files as given: a lone "-" among them is standard input, and arguments after `--` are files too
 * (`mcp-triage -- -odd-name.ndjson`); yargs drops the first and keeps the second apart.
 */
function withRest(args: Record<string, unknown>): Record<string, unknown> {
  const rest = Array.isArray(args['--']) ? (args['--'] as unknown[]).map(String) : [];
  const files = [...((args.files as unknown[] | undefined) ?? []).map(String), ...rest].map((f) => (f === STDIN_ARG ? '-' : f));
  return files.length === 0 ? args : { ...args, files };
}

/** The yargs parser of every command (loaded only when needed: help, sub-commands, unusual command lines). */
async function buildParser(argv: string[], io: CliIo, state: ParseState, onAnalyze: (args: AnalyzeArgs) => Promise<number>): Promise<Argv> {
  const { default: yargs } = await (io.importYargs ?? (() => import('yargs')))();
  const err = (s: string) => io.stderr.write(s.endsWith('\n') ? s : `${s}\n`);
  // yargs calls a command's handler even after a validation failure (exitProcess(false)): run nothing then.
  const guard = <A>(fn: (args: A) => Promise<void> | void) => async (args: A) => {
    if (state.usageError === undefined) await fn(args);
  };
  return yargs(argv)
    .scriptName('mcp-triage')
    .usage('Usage: $0 [files..] [--client FILE]... [--server FILE]... [options]\n\nTells where each MCP tool call really failed: HTTP transport, JSON-RPC protocol, or the tool itself.\nFiles may be NDJSON logs in any supported format (mcp-triage formats), plain or gzip; "-" or a pipe is standard input.')
    .command('$0 [files..]', 'Analyze MCP traffic logs: outcomes, failed attempts, findings, retries (the default command)', (y) => {
      y.positional('files', { type: 'string', array: true, describe: 'Log files to read ("-" or nothing: standard input); gzip is detected by content. Two plain files whose names say client and server (client.ndjson server.ndjson) are read as those sides' });
      return addGroups(y, [INPUT, FILTERS, ANALYZE_OUTPUT, ANALYSIS], argv).epilogue(ANALYZE_EPILOG);
    }, guard(async (args) => {
      state.exitCode = await onAnalyze(withRest(args) as unknown as AnalyzeArgs);
    }))
    .command('sessions [files..]', 'One row per session: client, protocol version, attempts, failures, findings, time span', (y) => {
      y.usage('Usage: $0 sessions [files..] [--client FILE]... [--server FILE]... [options]\n\nOne row per MCP session (or, without session ids, per connection): who the client was, the protocol version, how many attempts failed and how, the findings, and when.\nIt takes the same inputs and filters as the analysis; only a small record per session is kept in memory.');
      y.positional('files', { type: 'string', array: true, describe: 'Log files to read ("-" or nothing: standard input)' });
      return addGroups(y, [INPUT, FILTERS, VIEW_OUTPUT, ANALYSIS], argv).epilogue(VIEW_EXIT_TEXT);
    }, guard(async (args) => {
      state.exitCode = await viewCommand('sessions', withRest(args) as unknown as ViewArgs, io);
    }))
    .command('timeline <session> [files..]', 'Every exchange of one session in time order, client and server side by side', (y) => {
      y.usage('Usage: $0 timeline SESSION [files..] [--client FILE]... [--server FILE]... [options]\n\nEvery attempt of one session in time order: the client\'s and the server\'s view of each (HTTP status and outcome), SSE events, retries (call#attempt), cancellations, resumed streams and findings.\nSESSION is a session id or a prefix of one (mcp-triage sessions lists them), or an id as a table shortened it with … (a3f1c2d4-5b…); without session ids, a connection key.');
      y.positional('session', { type: 'string', describe: 'Session id, its first characters, or as a table shortened it (a3f1…f601)' });
      y.positional('files', { type: 'string', array: true, describe: 'Log files to read ("-" or nothing: standard input)' });
      return addGroups(y, [INPUT, FILTERS_BUT_SESSION, VIEW_OUTPUT, ANALYSIS], argv).epilogue(TIMELINE_EXIT_TEXT);
    }, guard(async (args) => {
      state.exitCode = await viewCommand('timeline', withRest(args) as unknown as ViewArgs, io);
    }))
    .command('schema', 'Print the canonical record schema (version 1) as JSON Schema', (y) => y, guard(async () => {
      const { canonicalJsonSchema } = await import('./schema/record.js');
      io.stdout.write(`${JSON.stringify(canonicalJsonSchema(), null, 2)}\n`);
    }))
    .command('explain <code>', 'Explain a finding code or an outcome: definition, why it matters, the spec rule, what to do', (y) => y.positional('code', { type: 'string', describe: 'e.g. NO_FINAL_RESULT or HTTP_ERROR' }).epilogue(`Outcomes, in the order they are decided (first match wins): ${OUTCOMES.join(', ')}.\nFinding codes: ${FINDING_CODES.join(', ')}.`), guard(async (args) => {
      const { explain } = await import('./findings/catalog.js');
      const code = String(args.code ?? '');
      const text = explain(code) ?? explain(code.toUpperCase());
      if (text) io.stdout.write(text);
      else {
        const near = nearest(code.toUpperCase(), [...FINDING_CODES, ...OUTCOMES]);
        err(`mcp-triage: unknown code "${cleanTerminal(code)}"${near ? `; did you mean ${near}?` : ''}`);
        err(`Known: ${[...FINDING_CODES, ...OUTCOMES].join(', ')}`);
        state.exitCode = EXIT.usage;
      }
    }))
    .command('formats', 'List the input formats mcp-triage detects and what each can and cannot show', (y) => y, guard(async () => {
      const { describeFormats } = await import('./formats/describe.js');
      io.stdout.write(describeFormats());
    }))
    .command('record', 'Run a transparent recording proxy that writes canonical records (see `record --help`)', async (y) => (await import('./capture/record-cli.js')).recordCommand.builder(y), guard(async (args) => {
      const { runRecord } = await import('./capture/record-command.js');
      state.exitCode = await runRecord(args as never, { stderr: io.stderr });
    }))
    // No dot notation: --since.a b made an object of --since (a crash), --tool.x 1 a filter that kept everything.
    .parserConfiguration({ 'populate--': true, 'dot-notation': false })
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version(VERSION)
    .alias('V', 'version')
    .wrap(Math.min(120, helpWidth(io)))
    .exitProcess(false)
    .fail((msg, e) => {
      state.usageError = msg ?? e?.message ?? 'usage error';
    });
}

/**
 * yargs' message, with "did you mean --x?" for an unknown option, the nearest choice for an invalid value, and the
 * choices of an option given without a value; the command line tells how an unknown name was written (-x, --x, or
 * an argument the command does not take).
 */
function explainUsageError(msg: string, command: string, argv: readonly string[] = []): string {
  const missing = /^Not enough arguments following: ([\w-]+)$/.exec(msg.trim());
  if (missing) {
    const name = missing[1]!;
    const options: Readonly<Record<string, Options>> = COMMAND_OPTIONS[command as keyof typeof COMMAND_OPTIONS] ?? {};
    const o = options[name] ?? Object.values(options).find((x) => x.alias === name || (Array.isArray(x.alias) && x.alias.includes(name)));
    const choices = o?.choices as readonly unknown[] | undefined;
    return `${name.length === 1 ? `-${name}` : `--${name}`} needs a value${choices ? `: one of ${choices.join(', ')}` : ''}`;
  }
  // A command's own argument left out: what it takes, and where to find one.
  const required = /^Missing required arguments?: (.+)$/.exec(msg.trim());
  if (required) {
    if (command === 'explain') return 'explain needs a CODE: a finding code or an outcome (mcp-triage explain HTTP_ERROR; mcp-triage explain --help lists them)';
    if (command === 'timeline') return 'timeline needs a SESSION (an id or its first characters; mcp-triage sessions lists them)';
    const names = required[1]!.split(',').map((n) => `--${n.trim()}`);
    const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
    if (command === 'record') return `record needs ${list} (${EXAMPLES.record![0]![0]})`;
  }
  const unknown = /Unknown arguments?: (.+)$/s.exec(msg);
  if (unknown) {
    const known = COMMAND_FLAGS[command] ?? COMMAND_FLAGS.analyze!;
    const kebab = (w: string) => w.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const longHint = (name: string) => {
      const best = nearest(name, known);
      if (best && best !== name) return `--${name} (did you mean --${best}?)`;
      // --no-redact=false: a flag of this command given a value.
      if (known.includes(name)) return `--${name} (a flag: give it without a value)`;
      const owner = Object.entries(COMMAND_FLAGS).find(([c, flags]) => c !== command && flags.includes(name))?.[0];
      return owner ? `--${name} (an option of ${owner === 'analyze' ? 'the analysis: mcp-triage without a command' : `mcp-triage ${owner}`})` : `--${name}`;
    };
    // yargs names them without dashes: how each was written tells an option (--x, -x, a group -xz) from an argument.
    const end = argv.indexOf('--');
    const words = end === -1 ? argv : argv.slice(0, end);
    const longs = new Set(words.filter((w) => w.startsWith('--')).map((w) => w.slice(2).replace(/=.*$/s, '')));
    const shorts = words.filter((w) => /^-[^-\d]/.test(w)).map((w) => w.replace(/=.*$/s, ''));
    const positionals = new Set(words.filter((w) => !w.startsWith('-')));
    const options: string[] = [];
    const extra: string[] = [];
    for (const raw of [...new Set(unknown[1]!.split(',').map((s) => s.trim().replace(/^-+/, '').replace(/=.*$/s, '')))]) {
      const group = raw.length === 1 && !longs.has(raw) ? shorts.find((w) => w.slice(1).includes(raw)) : undefined;
      if (group === undefined) {
        if (!longs.has(raw) && positionals.has(raw)) extra.push(`"${raw}"`);
        else options.push(longHint(kebab(raw)));
        continue;
      }
      if (group.length === 2) options.push(group);
      else {
        // -format: yargs read the letters f, o, r, m, a, t; the word was meant as one option
        const best = nearest(group.slice(1), known);
        options.push(best ? `${group} (did you mean --${best}?)` : group);
      }
    }
    const forCommand = command === 'analyze' ? '' : ` for "${command}"`;
    const takes = command === 'explain' ? ' (it takes one CODE)' : ['formats', 'schema', 'record'].includes(command) ? ' (it takes none)' : '';
    return [
      ...(options.length ? [`unknown option ${[...new Set(options)].join(', ')}${forCommand}`] : []),
      ...(extra.length ? [`unexpected argument${extra.length > 1 ? 's' : ''} ${extra.join(', ')}${forCommand}${takes}`] : []),
    ].join('; ');
  }
  // --no-color, --no-format: yargs reads them as the value false of an option that takes words.
  const negated = /Argument: ([\w-]+), Given: false, Choices: (.+)$/m.exec(msg);
  if (negated) {
    const choices = negated[2]!.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
    return negatedOptionError(negated[1]!, choices);
  }
  const choice = /Argument: ([\w-]+), Given: "([^"]*)", Choices: (.+)$/m.exec(msg);
  if (choice) {
    const choices = choice[3]!.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
    const best = nearest(choice[2]!, choices);
    return `--${choice[1]}: "${choice[2]}" is not one of ${choices.join(', ')}${best ? `; did you mean ${best}?` : ''}`;
  }
  return msg;
}

interface CommonArgs extends FilterOptionsArgs {
  files?: string[];
  client?: string[];
  server?: string[];
  'input-format'?: string;
  timezone?: string;
  unwrap?: string;
  'max-line-bytes': number;
  'input-order': 'auto' | 'oldest-first' | 'newest-first';
  strict: boolean;
  color: 'auto' | 'always' | 'never';
  redact: boolean;
  quiet: boolean;
  window: number;
  'retry-window': number;
  skew: number;
  'order-tolerance': number;
  idempotent?: string[];
  'max-retries': number;
  'min-retry-delay': number;
}
/** The filter options as yargs parses them: the same shape as the filters a report states. */
type FilterOptionsArgs = FilterDescription;
interface AnalyzeArgs extends CommonArgs {
  format: (typeof ANALYZE_FORMATS)[number];
  'fail-on'?: string[];
  'max-rows': number;
}
interface ViewArgs extends CommonArgs {
  format: (typeof VIEW_FORMATS)[number];
}

interface Prepared {
  options: AnalysisOptions;
  totalBytes: number | undefined;
  /** The analysis ended (with this error, if it failed): settle the diagnostics held back and the progress line. */
  done: (error?: unknown) => void;
  color: boolean;
  /** Widest a terminal table may be (tableWidth). */
  width: number;
  /** The filters in force, as the reports state them. */
  filters: FilterDescription;
}

/** The width --help is wrapped to (at most 120): COLUMNS when set, as the tables take it, else the terminal's, else 100. */
const helpWidth = (io: Pick<CliIo, 'stdout' | 'env'>): number => {
  const columns = Number(io.env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : io.stdout.columns ?? 100;
};

/** The width terminal tables are fitted to: COLUMNS when set, else the terminal's, else DEFAULT_WIDTH (not a terminal). */
function tableWidth(io: Pick<CliIo, 'stdout' | 'env'>): number {
  const columns = Number(io.env.COLUMNS);
  if (Number.isInteger(columns) && columns > 0) return columns;
  if (io.stdout.isTTY && io.stdout.columns) return io.stdout.columns;
  return DEFAULT_WIDTH;
}

/**
 * --color auto: NO_COLOR (set, not empty) turns colour off; else FORCE_COLOR (set, not empty) turns it on (off when it
 * is 0 or false), even into a pipe or with TERM=dumb, as Node and chalk read it; else colour when stdout is a terminal
 * and TERM is not dumb.
 */
function autoColor(io: Pick<CliIo, 'stdout' | 'env'>): boolean {
  if (io.env.NO_COLOR) return false;
  const force = io.env.FORCE_COLOR;
  if (force) return force !== '0' && force.toLowerCase() !== 'false';
  return io.stdout.isTTY === true && io.env.TERM !== 'dumb';
}

/** Validate the input, filter and tuning options shared by every analysing command; a string is the usage error. */
async function prepare(args: CommonArgs, filter: FilterOptions, io: CliIo): Promise<Prepared | string> {
  const client = await fileList('client', args.client);
  if (typeof client === 'string') return client;
  const server = await fileList('server', args.server);
  if (typeof server === 'string') return server;
  const specs: InputSpec[] = [
    ...(args.files ?? []).map((p) => ({ path: p })),
    ...client.map((p) => ({ path: p, side: 'client' as const })),
    ...server.map((p) => ({ path: p, side: 'server' as const })),
  ];
  if (specs.length === 0) {
    if ((io.stdin as { isTTY?: boolean }).isTTY) return 'no input: give log files, --client/--server files, or pipe a log into standard input.';
    specs.push({ path: '-' });
  }
  if (specs.filter((s) => s.path === '-').length > 1) return 'standard input ("-") can be read only once';
  const once = await readOnce(specs);
  if (typeof once === 'string') return once;
  specs.splice(0, specs.length, ...once.specs);
  const settings = analysisSettings(args);
  // The same checks as the library's (src/options.ts), worded as the flags.
  const bad = optionError(settings, 'cli');
  if (bad) return bad.message;
  const checked = buildFilter(filter, { timezone: args.timezone });
  if (typeof checked === 'string') return checked;

  // The total size of the inputs (files only; stdin is unknown) decides whether the progress line is worth showing.
  const size = await inputSize(specs);
  if (typeof size === 'object') return size.error;
  const totalBytes = size;

  const progress = createProgress({
    enabled: shouldShowProgress({ stderrIsTTY: io.stderr.isTTY === true, quiet: args.quiet, totalBytes }),
    stream: io.stderr,
    totalBytes,
  });
  // Large inputs get a tuned heap. A pipe's size is known only at its end, and the young generation's cap must come
  // before V8 has grown it (src/bin.ts): an input of unknown size is taken as large from the start; on a small one
  // the tuning changes nothing that shows.
  if (totalBytes === undefined || totalBytes > LARGE_INPUT_BYTES) io.largeInput?.();
  // With --strict the line that stops the run is reported as such by main (with its "(--strict)"); its diagnostic,
  // which comes just before the stop, is held back until the analysis goes on (more is read, another diagnostic) or ends.
  let held: string | undefined;
  const show = (text: string) => {
    progress.clear();
    io.stderr.write(`${text}\n`);
  };
  if (!args.quiet) for (const text of once.said) show(`mcp-triage: ${cleanTerminal(text)}`);
  const release = () => {
    if (held === undefined) return;
    const text = held;
    held = undefined;
    show(text);
  };
  const color = args.color === 'always' || (args.color === 'auto' && autoColor(io));
  const options: AnalysisOptions = {
    ...settings,
    inputs: specs,
    stdin: io.stdin,
    redact: args.redact !== false,
    filter,
    onDiagnostic: args.quiet ? undefined : (line) => {
      const text = cleanTerminal(args.redact !== false ? redactText(line) : line);
      if (!args.strict) return show(text);
      release();
      held = text;
    },
    onProgress: (read, total) => {
      release();
      progress.update(read, total ?? totalBytes);
    },
  };
  const done = (error?: unknown) => {
    // The line that stopped a --strict run is printed once, by main, marked (--strict).
    if (error instanceof StrictStop && held?.includes(`${error.where}: `)) held = undefined;
    release();
    progress.done();
  };
  return { options, totalBytes, done, color, width: tableWidth(io), filters: checked.describe() };
}

/** The analysis settings of the flags, as the library takes them (seconds become milliseconds). */
function analysisSettings(args: CommonArgs): CheckedOptions & Pick<AnalysisOptions, 'unwrap' | 'strict'> {
  return {
    inputFormat: args['input-format'],
    maxLineBytes: args['max-line-bytes'],
    inputOrder: args['input-order'],
    windowMs: args.window * 1000,
    retryWindowMs: args['retry-window'] * 1000,
    skewMs: args.skew * 1000,
    orderToleranceMs: args['order-tolerance'] * 1000,
    timezone: args.timezone,
    unwrap: args.unwrap,
    strict: args.strict,
    // A list option as the others: the flag once per tool or a comma list (`--idempotent search,lookup`).
    idempotent: (args.idempotent ?? []).flatMap((v) => v.split(',')).map((t) => t.trim()).filter(Boolean),
    policy: { maxRetries: args['max-retries'], minDelayMs: args['min-retry-delay'] },
  };
}

/**
 * The files of --client or --server: each value is a file, or a comma list of files (`--client a.ndjson,b.ndjson`, as
 * the other list options take). A file name may hold a comma, so a value is split only when no file (or directory)
 * has that whole name; a string is the usage error for a part of a list that names no file.
 */
async function fileList(option: string, values: string[] | undefined): Promise<string[] | string> {
  const out: string[] = [];
  const exists = (p: string) => lstat(p).then(() => true, () => false);
  for (const v of values ?? []) {
    const parts = v.split(',').map((p) => p.trim()).filter(Boolean);
    if (v === '-' || !v.includes(',') || parts.length === 0 || (await exists(v))) {
      out.push(v);
      continue;
    }
    for (const p of parts) {
      if (p !== '-' && !(await exists(p))) return `cannot read ${p}: no such file (--${option} ${v} is read as a comma list, as no file has that whole name)`;
    }
    out.push(...parts);
  }
  return out;
}

/**
 * Each file read once: a file named twice (the same path, another path to it, a link) would have every call counted
 * twice. Named twice for one side, or once without a side and once with one, it is read once with its side, and said
 * on stderr; named as both --client and --server, it is a usage error (a log is one side's). Files that cannot be
 * looked at are left to the size check's error.
 */
async function readOnce(specs: InputSpec[]): Promise<{ specs: InputSpec[]; said: string[] } | string> {
  const seen = new Map<string, InputSpec>();
  const out: InputSpec[] = [];
  const said: string[] = [];
  const sideOf = (s: InputSpec) => (s.side === undefined ? 'a file argument' : `--${s.side}`);
  for (const s of specs) {
    let key: string | undefined;
    if (s.path !== '-') {
      try {
        const info = await stat(s.path);
        if (info.isFile()) key = `${info.dev}:${info.ino}`;
      } catch {
        // Reported by inputSize.
      }
    }
    const first = key !== undefined ? seen.get(key) : undefined;
    if (first === undefined) {
      if (key !== undefined) seen.set(key, s);
      out.push(s);
      continue;
    }
    const same = first.path === s.path ? `${s.path} is given twice` : `${s.path} is the same file as ${first.path}`;
    if (first.side !== undefined && s.side !== undefined && first.side !== s.side) return `${same}, as ${sideOf(first)} and as ${sideOf(s)}: a log is one side's; give it once, with the side that wrote it`;
    if (first.side === undefined && s.side !== undefined) {
      // Read with the side it was given: in the first one's place.
      out[out.indexOf(first)] = s;
      seen.set(key!, s);
    }
    said.push(`${same} (${sideOf(first)}, ${sideOf(s)}): read once, or every call in it would be counted twice`);
  }
  return { specs: out, said };
}

/**
 * The total size in bytes of the inputs, for the progress line: the sum of the files' sizes, undefined when one is
 * standard input or not a regular file (a pipe); an input that cannot be read is a usage error.
 */
export async function inputSize(specs: InputSpec[]): Promise<number | undefined | { error: string }> {
  let total: number | undefined = 0;
  for (const s of specs) {
    if (s.path === '-') {
      total = undefined;
      continue;
    }
    try {
      const info = await stat(s.path);
      if (info.isDirectory()) return { error: `${s.path} is a directory: give the log files in it (${s.path.replace(/\/?$/, '/')}*.ndjson)` };
      if (total !== undefined) total = info.isFile() ? total + info.size : undefined;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        // `mcp-triage help`, `mcp-triage version`: the flags, as git and cargo take the words.
        const flag = s.path === 'help' || s.path === 'version' ? `--${s.path}` : undefined;
        const near = flag === undefined && !s.path.includes('/') && !s.path.includes('.') ? nearest(s.path, COMMANDS) : undefined;
        // logs/*.ndjson left as written: the shell passes a pattern that matched nothing as it is.
        const glob = /[*?[]/.test(s.path) ? ' (a shell pattern that matched no file?)' : '';
        const hint = flag ? ` (did you mean ${flag}?)` : near ? ` (did you mean the command "${near}"?)` : glob;
        return { error: `cannot read ${s.path === '' ? '"" (an empty argument)' : s.path}: no such file${hint}` };
      }
      return { error: `cannot read ${s.path}: ${(e as Error).message}` };
    }
  }
  return total;
}

const filterOf = (args: FilterOptionsArgs): FilterOptions => ({ session: args.session, method: args.method, tool: args.tool, target: args.target, outcome: args.outcome, code: args.code, since: args.since, until: args.until });

function usage(io: CliIo, message: string, command: string): number {
  io.stderr.write(`mcp-triage: ${cleanTerminal(message)}\n`);
  io.stderr.write(`Run 'mcp-triage ${command === 'analyze' ? '' : `${command} `}--help' for usage.\n`);
  return EXIT.usage;
}

async function analyzeCommand(args: AnalyzeArgs, io: CliIo): Promise<number> {
  const failOn = parseFailOn(args['fail-on']);
  if (typeof failOn === 'string') return usage(io, failOn, 'analyze');
  if (!Number.isFinite(args['max-rows']) || args['max-rows'] < 0) return usage(io, `--max-rows needs a number of 0 or more; got ${args['max-rows']}`, 'analyze');
  const prepared = await prepare(args, filterOf(args), io);
  if (typeof prepared === 'string') return usage(io, prepared, 'analyze');
  const { options, color, width } = prepared;
  const redact = options.redact !== false;
  const out = new OutputWriter(io.stdout);
  const format = args.format;
  // The rows the table and markdown reports print; the counts come from the library's summary.
  const rows = new SummaryBuilder({ redact, keepAll: format === 'markdown', maxRows: args['max-rows'], chains: format !== 'json' && format !== 'ndjson', toolName: `mcp-triage ${VERSION}`, filters: prepared.filters, callHorizonMs: callHorizonMs(options) });
  const sink: OutputSink = await makeSink(format, out, color, width);
  const failing = new FailOnCounter(failOn);
  let summary: Summary;
  try {
    summary = await streamAnalysis(options, {
      attempt: (row: AttemptRow) => {
        failing.attempt(row);
        if (format === 'table' || format === 'markdown') rows.attempt(row);
        if (!out.closed) sink.attempt(row);
      },
      finding: (f: Finding) => {
        failing.finding(f);
        if (format === 'table' || format === 'markdown') rows.finding(f);
        if (!out.closed) sink.finding(f, f.message);
      },
      filtered: (row: AttemptRow) => {
        failing.dropped(row);
        if (format === 'table' || format === 'markdown') rows.dropped(row);
      },
      backpressure: () => out.drained(),
    });
  } catch (e) {
    prepared.done(e);
    throw e;
  }
  prepared.done();
  if (failing.active) summary.failOn = failing.summary();
  if (!out.closed) sink.end(summary, rows);
  await out.close();
  sayNothingRead(io, summary, args.quiet);
  if (summary.diagnostics.total && !args.quiet && format !== 'table') io.stderr.write(problemsLine(summary, 'the summary'));
  if (!failing.failed) return EXIT.ok;
  // Why the exit is 1, on stderr (even with --quiet: it is the answer a CI log needs).
  io.stderr.write(`${failing.line()}\n`);
  return EXIT.failOn;
}

async function makeSink(format: (typeof ANALYZE_FORMATS)[number], out: OutputWriter, color: boolean, width: number): Promise<OutputSink> {
  const write = (s: string) => out.write(s);
  switch (format) {
    case 'ndjson':
      return new (await import('./report/json.js')).NdjsonSink(write);
    case 'json':
      return new (await import('./report/json.js')).JsonDocumentSink(write);
    case 'markdown': {
      const { MarkdownSink } = await import('./report/markdown.js');
      let filters = '';
      const inner = new MarkdownSink(markdownWithFilters(write, () => filters));
      return {
        attempt: () => inner.attempt(),
        finding: (f, m) => inner.finding(f, m),
        end: (summary, builder) => {
          filters = filtersText(summary.filters);
          inner.end(summary, builder);
        },
      };
    }
    default:
      return new (await import('./report/table.js')).TableSink({ color, write, width });
  }
}

/**
 * The Markdown report states the filters in force: when the document itself does not, a "Filters:" line goes after
 * its first paragraph. (The report is written in one piece at the end.)
 */
function markdownWithFilters(write: (s: string) => void, filters: () => string): (s: string) => void {
  return (s: string) => {
    const f = filters();
    if (!f || /^\*\*Filters:?\*\*|^Filters:/m.test(s)) return write(s);
    const at = s.indexOf('\n\n', s.indexOf('Generated by'));
    if (at === -1) return write(s);
    write(`${s.slice(0, at)}\n\n**Filters:** \`${f.replace(/`/g, "'")}\`${s.slice(at)}`);
  };
}

async function viewCommand(view: 'sessions' | 'timeline', args: ViewArgs & { session?: string | string[] }, io: CliIo): Promise<number> {
  const filter = filterOf(args);
  let prefix = '';
  if (view === 'timeline') {
    prefix = String(args.session ?? '');
    if (!prefix) return usage(io, 'timeline needs a SESSION (an id or its first characters; mcp-triage sessions lists them)', view);
  }
  const prepared = await prepare(args, filter, io);
  if (typeof prepared === 'string') return usage(io, prepared, view);
  const { color, width } = prepared;
  const out = new OutputWriter(io.stdout);
  let summary: Summary;
  if (view === 'sessions') {
    const { SessionsCollector, renderSessionsMarkdown, renderSessionsTable, sessionsJson } = await import('./views/sessions.js');
    const collector = new SessionsCollector();
    summary = await collectView(prepared, collector);
    const rows = collector.rows();
    out.write(args.format === 'json' ? sessionsJson(rows, summary) : args.format === 'markdown' ? renderSessionsMarkdown(rows, summary) : renderSessionsTable(rows, summary, color, width));
  } else {
    const { TimelineCollector, renderTimelineMarkdown, renderTimelineTable, timelineJson } = await import('./views/timeline.js');
    const collector = new TimelineCollector(prefix);
    summary = await collectView(prepared, collector);
    const timeline = collector.timeline();
    if (!timeline) {
      sayNothingRead(io, summary, args.quiet);
      const matched = collector.candidates();
      // An id with control characters is printed without them; its logged form is added, escaped, to tell apart two that print alike.
      const name = (s: string) => (cleanTerminal(s) === s ? s : `${cleanTerminal(s)} (logged as ${escapeJsonControls(JSON.stringify(s))})`);
      const list = (names: Iterable<string>, count: number) => `${[...names].slice(0, 10).map(name).join(', ')}${count > 10 ? ', ...' : ''}`;
      const shown = cleanTerminal(prefix);
      const alike = new Set(matched.map((s) => cleanTerminal(s))).size < matched.length;
      if (matched.length > 1) return usage(io, `"${shown}" matches ${matched.length} sessions: ${list(matched, matched.length)}; give more of the id${alike ? ' (some print alike: give such an id as logged, with its control characters)' : ''}`, view);
      const near = collector.nearest();
      const others = collector.otherCount ? `; sessions seen: ${list(collector.others, collector.otherCount)}` : '; no session had attempts passing the input and the filters';
      return usage(io, `no session ${shown.includes('…') ? 'matches' : 'starts with'} "${shown}"${near.length ? ` (did you mean ${near.map(name).join(' or ')}?)` : ''}${others}`, view);
    }
    out.write(args.format === 'json' ? timelineJson(timeline, summary) : args.format === 'markdown' ? renderTimelineMarkdown(timeline, summary) : renderTimelineTable(timeline, summary, color, width));
  }
  await out.close();
  sayNothingRead(io, summary, args.quiet);
  if (summary.diagnostics.total && !args.quiet) io.stderr.write(problemsLine(summary, 'the JSON summary'));
  return EXIT.ok;
}

/**
 * Runs the analysis into a view's collector. The attempts the filters dropped go to it too: they still name their
 * session's client and server (its initialize, under --tool).
 */
async function collectView(prepared: Prepared, collector: { attempt(r: AttemptRow): void; finding(f: Finding): void; dropped(r: AttemptRow): void }): Promise<Summary> {
  let summary: Summary;
  try {
    summary = await streamAnalysis(prepared.options, { attempt: (r) => collector.attempt(r), finding: (f) => collector.finding(f), filtered: (r) => collector.dropped(r) });
  } catch (e) {
    prepared.done(e);
    throw e;
  }
  prepared.done();
  return summary;
}

/** The closing stderr line when the input had problems: unusable lines (a whole HAR's entries), or problems not tied to a line (a damaged gzip). */
function problemsLine(summary: Summary, where: string): string {
  if (summary.lines.unusable > 0) return `mcp-triage: ${unusableText(summary.inputs)}; see ${where} for where\n`;
  return `mcp-triage: ${plural(summary.diagnostics.total, 'input problem')}, no unusable line; see ${where}\n`;
}

/**
 * One stderr line when not one line was read from any input (summary.lines.read is 0), even under --quiet: the exit
 * stays 0 (an empty log is a quiet hour, not an error), but a CI gate over an empty $LOGS must not pass unremarked.
 */
function sayNothingRead(io: CliIo, summary: Summary, quiet: boolean): void {
  // Without --quiet, each input that gave nothing has said so in its own note.
  const line = nothingReadLine(summary) ?? (quiet ? nothingUsedLine(summary) : undefined);
  if (line !== undefined) io.stderr.write(`${line}\n`);
}

/**
 * What a --quiet run says when lines were read and not one was used (every one broken, blank, or well-formed with no
 * MCP traffic: the wrong file): `mcp-triage: no MCP traffic was found: the 3 lines read are 3 unusable (...)`;
 * undefined when a line was used or none was read.
 */
function nothingUsedLine(summary: Pick<Summary, 'lines'>): string | undefined {
  const { read, used, unusable, skipped, blank } = summary.lines;
  if (read === 0 || used > 0) return undefined;
  const parts = [unusable && `${unusable} unusable`, skipped && `${skipped} well-formed without MCP traffic`, blank && `${blank} blank`].filter(Boolean);
  return `mcp-triage: no MCP traffic was found: ${read === 1 ? 'the 1 line read is' : `the ${read} lines read are`} ${parts.join(', ')} (without --quiet, stderr says where)`;
}

/** What a run that read no line says: `mcp-triage: no lines were read: standard input was empty`; undefined when one was. */
function nothingReadLine(summary: Pick<Summary, 'lines' | 'inputs'>): string | undefined {
  if (summary.lines.read > 0) return undefined;
  const [only, ...more] = summary.inputs;
  if (only === undefined) return 'mcp-triage: no lines were read: there were no inputs';
  if (more.length > 0) {
    const how = summary.inputs.every((a) => a.mode === 'lines') ? 'are empty' : 'hold no line or entry';
    return `mcp-triage: no lines were read: the ${summary.inputs.length} inputs ${how}`;
  }
  // A HAR or JSON array document counts its entries as lines: one without any is not empty.
  const stdin = only.name === '<stdin>';
  const what = stdin ? 'standard input' : cleanTerminal(only.name);
  // (A damaged gzip or HAR that broke before its first line is not empty: its diagnostic says where it broke.)
  const unread = only.brokenAt !== undefined ? /\((UTF-32[LB]E), not read\)$/.exec(only.brokenAt) : null;
  if (unread) return `mcp-triage: no lines were read: ${what} ${stdin ? 'was' : 'is'} in ${unread[1]}, which is not read (convert it to UTF-8 with iconv)`;
  if (only.brokenAt !== undefined) return `mcp-triage: no lines were read: ${what} ${stdin ? 'was' : 'is'} damaged before its first ${only.mode === 'lines' ? 'line' : 'entry'}`;
  const how = only.mode === 'lines' ? (stdin ? 'was empty' : 'is empty') : stdin ? 'held no entries' : 'holds no entries';
  return `mcp-triage: no lines were read: ${what} ${how}`;
}
