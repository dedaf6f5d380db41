// The library API: analyze() for whole results, streamAnalysis() for attempts and findings as they become final.
import { runAnalysis, DEFAULTS, type AnalyzeOptions, type RunResult } from './analyze.js';
import { attemptRow, SummaryBuilder, type AttemptRow, type Summary } from './report/summary.js';
import type { Finding } from './findings/types.js';
import { redactText } from './redact.js';
import { VERSION } from './version.js';

export interface LibraryOptions extends AnalyzeOptions {
  /** Redact secrets in attempt rows and finding messages (default true). */
  redact?: boolean;
}

export interface AnalysisResult {
  /** Every attempt, in the order it became final (roughly time order). */
  attempts: AttemptRow[];
  /** Session-level findings (attempt-level findings are inside each attempt). */
  findings: Finding[];
  summary: Summary;
}

/**
 * Analyze logs and return every attempt, the session-level findings and the summary.
 * Inputs are files ({ path, side? }) or "-" with options.stdin set to any readable stream.
 */
export async function analyze(options: LibraryOptions): Promise<AnalysisResult> {
  const attempts: AttemptRow[] = [];
  const findings: Finding[] = [];
  const summary = await streamAnalysis(options, {
    attempt: (a) => attempts.push(a),
    finding: (f) => findings.push(f),
  });
  return { attempts, findings, summary };
}

/** Analyze logs, handing each attempt and session finding to the callbacks as soon as it is final; resolves to the summary. */
export async function streamAnalysis(options: LibraryOptions, on: { attempt(a: AttemptRow): void; finding(f: Finding): void }): Promise<Summary> {
  const redact = options.redact !== false;
  const builder = new SummaryBuilder({ redact, keepAll: false, maxRows: 0, toolName: `mcp-triage ${VERSION}`, filters: {} });
  const run: RunResult = await runAnalysis(options, {
    attempt: (a) => {
      const row = attemptRow(a, redact);
      builder.attempt(row);
      on.attempt(row);
    },
    finding: (f) => {
      const g = redact ? { ...f, message: redactText(f.message) } : f;
      builder.finding(g);
      on.finding(g);
    },
  });
  return builder.build(run);
}

export { DEFAULTS, VERSION };
export type { AnalyzeOptions, AttemptRow, Summary, Finding };
export type { InputSpec, InputAccount } from './ingest.js';
export type { Outcome, Layer } from './outcomes.js';
export { OUTCOMES, OUTCOME_INFO } from './outcomes.js';
export { FINDING_CODES } from './findings/types.js';
export type { FindingCode, Severity } from './findings/types.js';
export { CanonicalRecordSchema, canonicalJsonSchema } from './schema/record.js';
export type { CanonicalRecord } from './schema/record.js';
export { NdjsonAttemptSchema, NdjsonFindingSchema, NdjsonSummarySchema, NdjsonLineSchema } from './report/json.js';
