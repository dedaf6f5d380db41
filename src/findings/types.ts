// What a finding is: a stable code, a severity, what it is attached to, a one-line message and its evidence.
import type { Source } from '../join/attempt.js';

export const FINDING_CODES = [
  'OUTCOME_MISMATCH',
  'RETRY_ORIGIN_AMBIGUOUS',
  'NO_FINAL_RESULT',
  'SIDE_DIVERGENCE',
  'UNSAFE_RETRY',
  'RETRY_AFTER_IGNORED',
  'RETRY_POLICY',
  'ID_REUSED',
  'ORPHAN_RESPONSE',
  'PROGRESS_UNMATCHED',
  'CALL_NEVER_SENT',
  'SESSION_EXPIRED',
  'NOTIFICATION_REFUSED',
  'GET_STREAM_REFUSED',
  'LOCAL_ERROR',
  'CANCELLED',
  'DUPLICATE_RECORD',
  'SESSION_ID_CHANGED',
] as const;

export type FindingCode = (typeof FINDING_CODES)[number];
export type Severity = 'error' | 'warning' | 'info';
export const SEVERITIES: Severity[] = ['error', 'warning', 'info'];

export interface Finding {
  code: FindingCode;
  severity: Severity;
  scope: 'attempt' | 'session';
  /** The session the finding belongs to (session-scope findings). */
  session?: string | null;
  /** Session-level findings on traffic without a session id: the connection, client or input key it is grouped by (an attempt's `scope`). */
  group?: string;
  message: string;
  /** file:line of the records that prove it. */
  sources: Source[];
  /**
   * The session never became usable: its notifications/initialized was refused and no request of it worked after that
   * (what refused it, `HTTP 503 to notifications/initialized`). The sessions view counts such a session as failed.
   */
  unusable?: string;
  /**
   * The POST with no request in it that the server refused (NOTIFICATION_REFUSED; SESSION_EXPIRED for a notification):
   * what it carried (`notifications/initialized`), the HTTP status and when (ms). The Markdown report draws it in the
   * session's sequence diagram. Not in the JSON outputs.
   */
  refused?: RefusedMessage;
}

/**
 * A POST with no request in it, or a GET for the server's stream, that got an HTTP error: what it carried (for a GET,
 * what it asked for), the status, when (ms since the epoch), and for a GET how many times it was refused so.
 */
export interface RefusedMessage {
  what: string;
  status: number;
  ts?: number;
  /** The HTTP method, when not POST. */
  method?: 'GET';
  /** How many such requests the finding counts (more than 1: drawn once, with the count). */
  count?: number;
}

export function isFindingCode(s: string): s is FindingCode {
  return (FINDING_CODES as readonly string[]).includes(s);
}
