// Shared look of the views in a terminal and in Markdown: colours (the same rules as the table report), cells, times, tables.
import type { Outcome } from '../outcomes.js';
import type { Severity } from '../findings/types.js';
import { cleanTerminal, cutAtWord, escapeMarkdownCell, severityCount, truncate, truncateMiddle } from '../report/text.js';
import { DEFAULT_WIDTH, Grid, type ColumnFit } from '../report/grid.js';

const ESC = '\u001b[';
export const paint = (on: boolean, code: string, s: string): string => (on ? `${ESC}${code}m${s}${ESC}0m` : s);

/** Red for transport and protocol failures, yellow for incomplete or tool errors, magenta for malformed data, green for success. */
export const OUTCOME_COLOR: Record<Outcome, string> = {
  NO_RESPONSE: '31', HTTP_ERROR: '31', MALFORMED_JSON: '35', STREAM_INCOMPLETE: '33', INVALID_ENVELOPE: '35',
  JSONRPC_ERROR: '31', INPUT_REQUIRED: '36', TASK_CREATED: '36', INVALID_TOOL_RESULT: '35', INVALID_RESULT: '35', TOOL_ERROR: '33', TOOL_SUCCESS: '32', SUCCESS: '32', UNANSWERED: '90',
};
export const SEVERITY_COLOR: Record<Severity, string> = { error: '31', warning: '33', info: '36' };

/**
 * What a client or server cell says when no record named it (a session whose initialize is not in the logs): said, not
 * left blank, dimmed in colour so that no name reads as it. JSON leaves the field out.
 */
export const NOT_LOGGED = 'not in the logs';

/** Outcomes that are no failure to count: completed, or a task accepted (its result comes later with tasks/result). */
export const isSuccess = (o: Outcome): boolean => o === 'SUCCESS' || o === 'TOOL_SUCCESS' || o === 'TASK_CREATED';

/** A log string made safe and short for one terminal cell. */
export const cell = (s: string | number | null | undefined, max = 40): string => truncate(cleanTerminal(String(s ?? '')), max);
/** Free text for a terminal cell that wraps (a message, notes): made safe, cut only past MAX_CELL_TEXT. */
export const textCell = (s: string): string => cutAtWord(cleanTerminal(s));
/** A terminal cell for a name whose end matters (a file path): the middle is cut instead of the end. */
export const nameCell = (s: string, max: number): string => truncateMiddle(cleanTerminal(s), max);
/** Free text for one Markdown table cell (a message, notes): whole, cut only past MAX_CELL_TEXT, at a word, saying so. */
export const mdText = (s: string): string => escapeMarkdownCell(cutAtWord(s));
/** The same for one Markdown table cell. */
export const mdCell = (s: string | number | null | undefined, max = 80): string => escapeMarkdownCell(truncate(String(s ?? ''), max));

/** A box-drawn terminal table with bold headers (when colour is on; each line of a header on two lines), fitted to `width`: the columns named in `fit` give way. */
export function terminalTable(head: string[], color: boolean, width = DEFAULT_WIDTH, fit: Record<string, ColumnFit> = {}): Grid {
  return new Grid(head.map((h) => h.split('\n').map((l) => paint(color, '1', l)).join('\n')), { width, fit: head.map((h) => fit[h]) });
}

export function markdownTable(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** `2026-10-17 09:12:00.120` from an ISO time. */
export const dateTime = (iso: string | undefined): string => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 23)}` : '');
/** `09:12:00.120` from an ISO time. */
export const clock = (iso: string | undefined): string => (iso ? iso.slice(11, 23) : '');

/** `850 ms`, `12.4 s`, `3 min 05 s`, `2 h 01 min`. */
export function span(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** `12 errors, 1 warning` (only the non-zero severities), or `-`. */
export function severityCounts(counts: Record<Severity, number>, color = false): string {
  const parts = (['error', 'warning', 'info'] as const).filter((s) => counts[s] > 0).map((s) => paint(color, SEVERITY_COLOR[s], severityCount(counts[s], s)));
  return parts.length ? parts.join(', ') : '-';
}
