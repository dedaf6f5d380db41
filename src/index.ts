// The library API: analyze() for whole results, streamAnalysis() for attempts and findings as they become final; the CLI runs on it.
import { runAnalysis, callHorizonMs, DEFAULTS, type AnalyzeOptions, type RunResult } from './analyze.js';
import { attemptRow, SummaryBuilder, type AttemptRow, type Summary } from './report/summary.js';
import type { Finding } from './findings/types.js';
import { buildFilter, FilterError, type FilterOptions } from './filter.js';
import { checkOptions, OptionError } from './options.js';
import { redactText } from './redact.js';
import { VERSION } from './version.js';

export interface AnalysisOptions extends Omit<AnalyzeOptions, 'inputs'> {
  /**
   * The logs to read: files as `{ path, side? }` (side `client` or `server` sets the view of every record in it), and
   * `{ path: '-' }` for the `stdin` stream. Default: `[{ path: '-' }]` when `stdin` is given.
   */
  inputs?: AnalyzeOptions['inputs'];
  /** Any readable stream (a file stream, a socket, Readable.from(lines)); read for the input whose path is "-". */
  stdin?: NodeJS.ReadableStream;
  /** Redact secrets in attempt rows and finding messages (default true). */
  redact?: boolean;
  /** Keep only some attempts and findings (the CLI's --session, --method, --tool, --outcome, --code, --since, --until). */
  filter?: FilterOptions;
  /** The time relative filters (`since: '15m'`) count back from; default Date.now(). */
  now?: number;
}

/** @deprecated the earlier name of AnalysisOptions. */
export type LibraryOptions = AnalysisOptions;

export interface AnalysisHandlers {
  /** Each attempt that passed the filters, as soon as it is final (roughly in time order). */
  attempt?(row: AttemptRow): void;
  /** Each session-level finding that passed the filters (attempt-level findings are inside each attempt). */
  finding?(finding: Finding): void;
  /** Each attempt the filters dropped (to count or name what was left out). */
  filtered?(row: AttemptRow): void;
  /** Return a promise while the consumer cannot take more (a slow pipe); reading waits for it. */
  backpressure?(): Promise<void> | undefined;
}

export interface AnalysisResult {
  /** Every attempt that passed the filters, in the order it became final (roughly time order). */
  attempts: AttemptRow[];
  /** Session-level findings (attempt-level findings are inside each attempt). */
  findings: Finding[];
  summary: Summary;
}

function inputsOf(options: AnalysisOptions): AnalyzeOptions['inputs'] {
  if (options.inputs && options.inputs.length > 0) return options.inputs;
  if (options.stdin) return [{ path: '-' }];
  throw new TypeError('mcp-triage: give inputs ([{ path }]) or a stdin stream');
}

/**
 * Analyze logs, handing each attempt and session finding to the handlers as soon as it is final; resolves to the summary.
 * Memory follows the open calls, not the log size. Throws (before reading anything) OptionError for an option name it does not know or an option with a
 * value it cannot take and FilterError for an invalid filter; rejects with InputError for an unreadable input and, with
 * `strict`, StrictStop at the first unusable line.
 */
export async function streamAnalysis(options: AnalysisOptions, on: AnalysisHandlers = {}): Promise<Summary> {
  checkOptions(options);
  const redact = options.redact !== false;
  const filter = buildFilter(options.filter ?? {}, { now: options.now, timezone: options.timezone, naming: 'api' });
  if (typeof filter === 'string') throw new FilterError(filter);
  const inputs = inputsOf(options);
  const builder = new SummaryBuilder({ redact, keepAll: false, maxRows: 0, toolName: `mcp-triage ${VERSION}`, filters: { ...filter.describe() }, callHorizonMs: callHorizonMs(options) });
  const run: RunResult = await runAnalysis({ ...options, inputs }, {
    attempt: (a) => {
      const row = attemptRow(a, redact);
      if (!filter.attempt(row)) {
        builder.dropped(row);
        on.filtered?.(row);
        return;
      }
      builder.attempt(row);
      on.attempt?.(row);
    },
    finding: (f) => {
      // Redacted first, as attempt rows are, so --session matches a session-less group as the report shows it.
      const g = redact ? { ...f, message: redactText(f.message), ...(f.group !== undefined ? { group: redactText(f.group.slice(0, 300)) } : {}) } : f;
      if (!filter.finding(g)) {
        builder.droppedFinding();
        return;
      }
      builder.finding(g);
      on.finding?.(g);
    },
    backpressure: on.backpressure ? () => on.backpressure!() : undefined,
  });
  return builder.build(run);
}

/** Analyze logs and return every attempt, the session-level findings and the summary (all held in memory). */
export async function analyze(options: AnalysisOptions): Promise<AnalysisResult> {
  const attempts: AttemptRow[] = [];
  const findings: Finding[] = [];
  const summary = await streamAnalysis(options, {
    attempt: (a) => attempts.push(a),
    finding: (f) => findings.push(f),
  });
  return { attempts, findings, summary };
}

export { DEFAULTS, VERSION, FilterError, OptionError };
export { MIN_LINE_BYTES } from './options.js';
export type { AnalyzeOptions, AttemptRow, Summary, Finding, FilterOptions };
export type { FilterDescription } from './filter.js';
export { InputError, StrictStop } from './ingest.js';
export type { InputSpec, InputAccount } from './ingest.js';
export type { Outcome, Layer } from './outcomes.js';
export { OUTCOMES, OUTCOME_INFO } from './outcomes.js';
export { FINDING_CODES, SEVERITIES } from './findings/types.js';
export type { FindingCode, Severity } from './findings/types.js';
export type { CanonicalRecord } from './schema/record.js';
