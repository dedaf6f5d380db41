// What the table and Markdown reports say in and around their tables: rows not shown, why a report is empty, an attempt's why, who sent each retry, the evidence lines, what an input cannot show and what its counts count (lines, a whole HAR's entries).
import type { AttemptRow, Summary } from './summary.js';
import type { Severity } from '../findings/types.js';
import { filtersText } from '../filter.js';
import { plural, severityCount } from './text.js';
import { isBareStatusWhy } from '../classify.js';

/** The note after a table's title when it shows fewer rows than it has: `(first 500 of 4235 in time order; 3735 more not shown, ...)`. */
export function moreNote(shown: number, total: number, order: string, rest = ''): string {
  if (total <= shown) return '';
  return shown ? ` (first ${shown} of ${total}${order}; ${total - shown} more not shown${rest})` : ` (${total}, not shown${rest})`;
}

/** What the report says when no attempt is left to list: the filters removed them all, or the input had none. */
export function emptyText(summary: Summary, quote: (filters: string) => string = (f) => f): string {
  const filters = filtersText(summary.filters);
  if (!filters) return 'No JSON-RPC requests found in the input.';
  const findings = summary.findings.total ? '; the session findings that pass them are listed below' : '';
  return `No attempt matches the filters (${quote(filters)})${findings}.`;
}

/** Findings not shown, by severity: `: 736 errors, 878 warnings`. */
export function hiddenBySeverity(shown: { finding: { severity: Severity } }[], bySeverity: Record<Severity, number>): string {
  const left = { ...bySeverity };
  for (const r of shown) left[r.finding.severity]--;
  const parts = (['error', 'warning', 'info'] as const).filter((s) => left[s] > 0).map((s) => severityCount(left[s], s));
  return parts.length ? `: ${parts.join(', ')}` : '';
}

/**
 * Why an attempt did not succeed, for the "why" column: "not seen by the server" first (a long error body cut short
 * to fit the cell cannot hide it), then the error code and message, then what the classifier found.
 */
export function whyOf(r: AttemptRow): string {
  const d = r.detail;
  // The error as sent ("-32603 Internal error"), then, apart from it, what the classifier found.
  // The code is left out where the text already says it: an SDK's "MCP error -32602: ..." message, or a why that quotes
  // the error of a code sent without a message ("-32602 MCP error -32602: ..." said the code twice).
  const code = d?.errorCode !== undefined ? String(d.errorCode) : '';
  const said = (t: string | undefined) => code !== '' && t !== undefined && new RegExp(`(^|[^\\d-])${code.replace('-', '\\-')}(?!\\d)`).test(t);
  const showCode = code !== '' && !said(d?.errorMessage) && !(d?.errorMessage === undefined && said(d?.why));
  const error = [showCode ? code : '', d?.errorMessage ?? ''].filter(Boolean).join(' ');
  const text = [error, d?.why ?? ''].filter(Boolean).join('; ');
  // A bare status the server's own log has too: the server's side sent it (a middleware there), no hop in between.
  if (isBareStatusWhy(d?.why) && !r.notSeenByServer && r.serverStatus === r.status) return `${text}; the server's log has it too: sent on the server's side, not by a hop between`;
  if (!r.notSeenByServer) return text;
  return text ? `not seen by the server: ${text}` : 'not seen by the server';
}

/** The last line of every terminal report: whether secrets were redacted (a warning, in colour, when they were not). */
export function redactionLine(summary: Pick<Summary, 'redaction'>, paint: (code: string, s: string) => string): string {
  return summary.redaction ? 'Secrets are redacted (--no-redact shows them).' : paint('33', 'Redaction is OFF (--no-redact): secrets from the logs are shown as they are.');
}

/** An input's side in the Inputs table: as given, "client (assumed)" when assumed for a plain input, "-" when none. */
export function sideCell(i: { side?: string | undefined; sideAssumed?: boolean | undefined }): string {
  return i.side === undefined ? '-' : i.sideAssumed ? `${i.side} (assumed)` : i.side;
}

/**
 * The time between when the caller was done with one attempt (when it gave up on it, else its end; for a stream that
 * ended without its response, its later cancellation) and the next one's
 * start, for the retry-chain tables ("?" without times): RETRY_POLICY's delay. A stream the client abandoned on its
 * timeout may end only when the session closes, long after the retry. "?" too for a retry sent before that moment (a
 * call the TypeScript SDK gave up at a progress notification is cancelled only later): when the caller gave up is not
 * in the log.
 */
export function retryDelay(a: { ts?: string; durationMs?: number; doneMs?: number; cancelMs?: number }, b: { ts?: string }): string {
  if (!a.ts || !b.ts) return '?';
  // A stream that ended without its response and was cancelled later, before the retry: the caller gave up at that
  // cancellation (its timeout), as RETRY_POLICY counts it.
  const cancelled = a.cancelMs !== undefined && Date.parse(b.ts) >= Date.parse(a.ts) + a.cancelMs ? a.cancelMs : undefined;
  const end = Date.parse(a.ts) + (cancelled ?? a.doneMs ?? a.durationMs ?? 0);
  const ms = Date.parse(b.ts) - end;
  if (a.doneMs !== undefined && ms < 0) return '?';
  // Below 10 s as RETRY_POLICY says it (cut to a tenth, never rounded up): a retry 199.6 ms after the failure is not "+200 ms"
  // beside a finding that it came sooner than 200 ms.
  const at = Math.max(0, ms);
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Number.isInteger(at) ? at : Math.floor(at * 10) / 10} ms`;
}

/**
 * Who sent each repeat of a call, for the retry-chain tables: one origin said once. A call retried more than once names
 * the attempts each origin is of (`#2–#4 unknown: ...`, `#2 app: ...; #3 unknown: ...`), so a storm of retries of
 * one origin is one phrase, not the same sentence once a retry.
 */
export function originsText(steps: { attempt?: number; retryOrigin?: { origin: string; how: string } }[]): string {
  const groups = new Map<string, number[]>();
  steps.forEach((r, i) => {
    if (i === 0 || !r.retryOrigin) return;
    const text = `${r.retryOrigin.origin}: ${r.retryOrigin.how}`;
    const at = groups.get(text);
    if (at) at.push(r.attempt ?? i + 1);
    else groups.set(text, [r.attempt ?? i + 1]);
  });
  const said = [...groups].reduce((n, [, at]) => n + at.length, 0);
  if (said <= 1) return [...groups.keys()].join('; ');
  return [...groups].map(([text, at]) => `${attemptList(at)} ${text}`).join('; ');
}

/** Attempt numbers as `#2`, `#2, #3` or, for a run of three or more, `#2–#5`. */
function attemptList(at: number[]): string {
  const runs: number[][] = [];
  for (const n of at) {
    const run = runs.at(-1);
    if (run && n === run.at(-1)! + 1) run.push(n);
    else runs.push([n]);
  }
  return runs.map((r) => (r.length >= 3 ? `#${r[0]}–#${r.at(-1)}` : r.map((n) => `#${n}`).join(', '))).join(', ');
}

/**
 * The first `max` of a finding's or attempt's evidence lines, with every file among them when it can: a client log's
 * three lines first must not hide the one line of the server's log that a SIDE_DIVERGENCE rests on. In their order.
 */
export function evidenceOf<S extends { file: string }>(sources: S[], max: number): S[] {
  if (sources.length <= max) return sources;
  const chosen = new Set<number>();
  const files = new Set<string>();
  sources.forEach((s, i) => {
    if (chosen.size < max && !files.has(s.file)) [files.add(s.file), chosen.add(i)];
  });
  for (let i = 0; i < sources.length && chosen.size < max; i++) chosen.add(i);
  return sources.filter((_, i) => chosen.has(i));
}

/**
 * The evidence lines a table shows (evidenceOf), then how many it left out, `+5 more`: the terminal showed three lines
 * and the Markdown four of the same finding, neither saying there were more (`--format json` lists them all).
 */
export function evidenceLines<S extends { file: string; line: number }>(sources: S[], max: number, show: (s: S) => string): string[] {
  const shown = evidenceOf(sources, max);
  return [...shown.map(show), ...(sources.length > shown.length ? [`+${sources.length - shown.length} more`] : [])];
}

/**
 * What input n cannot show (and where it broke, with --strict), for the Inputs tables; said once for inputs of one
 * format in a row (two mcp-logs files, a client's and a server's app log): the same paragraph again is noise.
 */
export function cannotShowCell(inputs: { cannotShow: string[]; brokenAt?: string | undefined }[], n: number, fmt: (s: string) => string): string {
  const of = (i: (typeof inputs)[number]) => [...i.cannotShow, ...(i.brokenAt ? [`input broken ${i.brokenAt}`] : [])].join('; ');
  const text = of(inputs[n]!);
  return n > 0 && text !== '' && text === of(inputs[n - 1]!) ? 'the same as the input above' : fmt(text);
}

type ReadMode = 'lines' | 'har' | 'array';
/** What an input's counts are of, by how it was read: its lines; the entries of a whole HAR; the items of a JSON array document. */
const UNITS: Record<ReadMode, [one: string, many: string]> = { lines: ['line', 'lines'], har: ['entry', 'entries'], array: ['item', 'items'] };
/** The same, named apart from any table (stderr): `1 unusable HAR entry`. */
const NAMED_UNITS: Record<ReadMode, [one: string, many: string]> = { lines: ['line', 'lines'], har: ['HAR entry', 'HAR entries'], array: ['array item', 'array items'] };

/** An input's count in its unit: `47 lines`, `1 line`, `10 entries` (a whole HAR). */
export const countOf = (n: number, mode: ReadMode): string => plural(n, ...UNITS[mode]);

/**
 * The Inputs tables' count column, whose name says what was counted: `lines`, `entries` when every input is a whole HAR,
 * `lines / entries` for both (each cell then names its unit: `11 lines`, `10 entries`); `about` says what the other
 * units are of (`; entries: of a whole HAR`).
 */
export function readColumn(inputs: { mode: ReadMode }[]): { head: string; cell: (i: { mode: ReadMode; lines: number }) => string; about: string } {
  const modes = (['lines', 'har', 'array'] as const).filter((m) => inputs.some((i) => i.mode === m));
  if (modes.length === 0) modes.push('lines');
  const about = [modes.includes('har') ? '; entries: of a whole HAR' : '', modes.includes('array') ? '; items: of a JSON array document' : ''].join('');
  return { head: modes.map((m) => UNITS[m][1]).join(' / '), cell: (i) => (modes.length > 1 ? countOf(i.lines, i.mode) : String(i.lines)), about };
}

/** The unusable lines (whole HARs' entries, JSON arrays' items) of the inputs, of how many: `24 unusable lines of 87754`, `1 unusable HAR entry of 10`. */
export function unusableText(inputs: { mode: ReadMode; lines: number; unusable: number }[]): string {
  return (['lines', 'har', 'array'] as const).flatMap((m) => {
    const mine = inputs.filter((i) => i.mode === m);
    const unusable = mine.reduce((n, i) => n + i.unusable, 0);
    const [one, many] = NAMED_UNITS[m];
    return unusable > 0 ? [`${plural(unusable, `unusable ${one}`, `unusable ${many}`)} of ${mine.reduce((n, i) => n + i.lines, 0)}`] : [];
  }).join(' and ');
}
