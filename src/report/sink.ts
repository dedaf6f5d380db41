// The interface every output format implements: attempts and session findings as they stream, then the summary.
import type { AttemptRow, Summary, SummaryBuilder } from './summary.js';
import type { Finding } from '../findings/types.js';

export interface OutputSink {
  attempt(row: AttemptRow): void;
  /** A session-level finding; message is already redacted as the run asks. */
  finding(f: Finding, message: string): void;
  end(summary: Summary, builder: SummaryBuilder): void;
}
