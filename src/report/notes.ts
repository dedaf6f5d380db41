// What the table and Markdown reports say around their tables: how many rows are not shown, and why a report is empty.
import type { Summary } from './summary.js';
import type { Severity } from '../findings/types.js';

/** The note after a table's title when it shows fewer rows than it has: `(first 500 of 4235 in time order; 3735 more not shown, ...)`. */
export function moreNote(shown: number, total: number, order: string, rest = ''): string {
  if (total <= shown) return '';
  return shown ? ` (first ${shown} of ${total}${order}; ${total - shown} more not shown${rest})` : ` (${total}, not shown${rest})`;
}

/** What the report says when no attempt is left to list. */
export function emptyText(_summary: Summary): string {
  return 'No JSON-RPC requests found in the input.';
}

/** Findings not shown, by severity: `: 736 error, 878 warning`. */
export function hiddenBySeverity(shown: { finding: { severity: Severity } }[], bySeverity: Record<Severity, number>): string {
  const left = { ...bySeverity };
  for (const r of shown) left[r.finding.severity]--;
  const parts = (['error', 'warning', 'info'] as const).filter((s) => left[s] > 0).map((s) => `${left[s]} ${s}`);
  return parts.length ? `: ${parts.join(', ')}` : '';
}
