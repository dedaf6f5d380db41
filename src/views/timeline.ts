// The `timeline` view: every exchange of one session in time order, client and server views side by side.
import { cleanTerminal, escapeJsonControls, jsonText, plural } from '../report/text.js';
import type { AttemptRow, Summary } from '../report/summary.js';
import { byTime } from '../report/summary.js';
import type { Finding } from '../findings/types.js';
import { attemptJson, findingJson } from '../report/json.js';
import { sequenceDiagram } from '../report/markdown.js';
import { filtersText, sessionDistance, sessionIsShortened, sessionMatcher, sessionPattern, type FilterDescription } from '../filter.js';
import { nearestFew } from '../suggest.js';
import { redactionLine } from '../report/notes.js';
import { isoTime } from '../formats/time.js';
import { cell, clock, dateTime, markdownTable, mdCell, mdText, NOT_LOGGED, OUTCOME_COLOR, paint, SEVERITY_COLOR, span, terminalTable, textCell } from './style.js';
import { trimOldest } from '../bounded.js';
import { DEFAULT_WIDTH, displayWidth, maxOf, SPILL_BELOW, underscoreColumn, widestFirst, wrapAround, wrapColumn, type ColumnFit } from '../report/grid.js';

const MAX_OTHER_NAMES = 20;
/** Calls whose latest session is remembered, to say where a chosen session's call went on or came from. */
const CALLS_KEPT = 65_536;

/**
 * Keeps the attempts and session findings of the sessions whose id (or, without one, connection key) starts with the
 * prefix; other sessions are only counted, so memory follows the chosen session.
 */
export class TimelineCollector {
  private bySession = new Map<string, AttemptRow[]>();
  private findingsBySession = new Map<string, Finding[]>();
  /** A few names of sessions that did not match, for the error message. */
  readonly others = new Set<string>();
  otherCount = 0;
  /** Names of other sessions already counted (bounded: after MAX_SEEN only the count may be off). */
  private seen = new Set<string>();
  /** The chosen sessions' initialize attempts that the filters dropped (--tool, a time filter): they still name its client and server. */
  private namedBy = new Map<string, AttemptRow[]>();
  /** The chosen sessions' attempts that the filters besides the session dropped, counted per session key. */
  private leftOut = new Map<string, number>();

  /** The id (or key) starts with the prefix as logged, or as printed (without its control characters), or is the id a table shortened with `…`. */
  private readonly matches: (key: string) => boolean;
  /**
   * The session (key) and attempt of each call's latest attempt so far (the last CALLS_KEPT calls), and the chosen
   * sessions' latest row of each of their calls: a call that moved to a new session (re-initialized after a 404, a new
   * Client after a timeout) is one story, which one session's rows alone do not tell.
   */
  private callAt = new Map<string, { key: string; attempt: number }>();
  private chosenCalls = new Map<string, { key: string; row: AttemptRow }>();
  /** Where a chosen row's call came from or went on, in other sessions (`c6#1, the attempt before it, was in session a3f1…`). */
  private elsewhere = new Map<AttemptRow, string[]>();

  constructor(readonly prefix: string) {
    this.matches = sessionMatcher(prefix);
  }

  /** An attempt the filters dropped: only the name of its session is noted, for the "no such session" message (an initialize of the chosen session, for its names). */
  dropped(row: AttemptRow): void {
    const key = row.session ?? row.scope ?? '';
    this.noteCall(row, key, false);
    if (this.matchesRow(row, key)) {
      this.leftOut.set(key, (this.leftOut.get(key) ?? 0) + 1);
      const list = this.namedBy.get(key) ?? [];
      if (row.initialize && list.length < MAX_OTHER_NAMES) this.namedBy.set(key, [...list, row]);
      return;
    }
    if (this.seen.has(key)) return;
    if (this.seen.size < 100_000) this.seen.add(key);
    this.otherCount++;
    if (this.others.size < MAX_OTHER_NAMES) this.others.add(key);
  }

  /** A session whose id a gateway rewrote is found by the server's id too (its attempts keep the client's). */
  private matchesRow(row: AttemptRow, key: string): boolean {
    return this.matches(key) || (row.serverSession !== undefined && this.matches(row.serverSession));
  }

  attempt(row: AttemptRow): void {
    const key = row.session ?? row.scope ?? '';
    if (!this.matchesRow(row, key)) {
      this.dropped(row);
      return;
    }
    this.noteCall(row, key, true);
    const list = this.bySession.get(key);
    if (list) list.push(row);
    else this.bySession.set(key, [row]);
  }

  /** Links a row to its call's attempts in other sessions: the attempt before it, and (for a chosen row) the one after. */
  private noteCall(row: AttemptRow, key: string, chosen: boolean): void {
    const call = row.call;
    if (call === undefined || row.continuation) return;
    const attempt = row.attempt ?? 1;
    const before = this.callAt.get(call);
    if (chosen && attempt > 1 && before !== undefined && before.key !== key) this.link(row, `${call}#${before.attempt}, the attempt before it, was in session ${before.key}`);
    const mine = this.chosenCalls.get(call);
    if (!chosen && mine !== undefined && mine.key !== key && (mine.row.attempt ?? 1) < attempt) {
      this.link(mine.row, `retried as ${call}#${attempt} in session ${key}`);
      this.chosenCalls.delete(call);
    }
    if (chosen) this.chosenCalls.set(call, { key, row });
    this.callAt.delete(call);
    this.callAt.set(call, { key, attempt });
    trimOldest(this.callAt, CALLS_KEPT);
  }

  private link(row: AttemptRow, text: string): void {
    const l = this.elsewhere.get(row);
    if (l) l.push(text);
    else this.elsewhere.set(row, [text]);
  }

  finding(f: Finding): void {
    const key = f.session ?? '';
    if (!this.matches(key) || key === '') return;
    const list = this.findingsBySession.get(key);
    if (list) list.push(f);
    else this.findingsBySession.set(key, [f]);
  }

  /** Session keys that matched the prefix. */
  matched(): string[] {
    return [...this.bySession.keys()];
  }

  /**
   * The sessions the prefix names: a key given whole wins over longer ones, as logged first, then as printed (`ab`
   * names the session `a\u0007b` next to `abc`), then a shortened id whole (`a3f1…f601` names `a3f1...f601` and not
   * `a3f1...f601-2`); else every key that matched.
   */
  candidates(): string[] {
    const all = this.matched();
    const p = sessionPattern(this.prefix);
    if (all.includes(p)) return [p];
    const printed = all.filter((k) => cleanTerminal(k) === p);
    if (printed.length > 0) return printed;
    const shortened = all.filter((k) => sessionIsShortened(k, p));
    return shortened.length > 0 ? shortened : all;
  }

  /** Up to `limit` names of the sessions seen that are nearest to a prefix that matched none (a typo: `a3f2` for `a3f1...`). */
  nearest(limit = 3): string[] {
    return nearestFew(this.prefix, this.seen, limit, sessionDistance);
  }

  /** The timeline of the one session the prefix names (candidates), undefined unless exactly one. */
  timeline(): Timeline | undefined {
    const keys = this.candidates();
    if (keys.length !== 1) return undefined;
    const key = keys[0]!;
    const rows = byTime(this.bySession.get(key)!);
    // The names as the dropped initialize said them too, as without the filter; the times are the kept attempts'.
    const identity = identityOf(rows);
    const named = identityOf([...(this.namedBy.get(key) ?? []), ...rows]);
    for (const k of ['client', 'server', 'protocolVersion'] as const) if (named[k] !== undefined) identity[k] = named[k];
    return { session: key, rows, findings: this.findingsBySession.get(key) ?? [], identity, elsewhere: this.elsewhere, leftOut: this.leftOut.get(key) ?? 0 };
  }
}

interface Timeline {
  /** The session id (or connection key when the traffic had no session id). */
  session: string;
  rows: AttemptRow[];
  findings: Finding[];
  identity: { client?: string; server?: string; protocolVersion?: string; first?: string; last?: string };
  /** A row's call in other sessions: the attempt before it there, the one after it (see TimelineCollector.noteCall). */
  elsewhere?: Map<AttemptRow, string[]>;
  /** The session's attempts the other filters left out (not in rows). */
  leftOut?: number;
}

/** `list` with `name` added unless it names it already (`a, b`), the first NAMED_KEPT names at most. */
function named(list: string | undefined, name: string): string {
  if (list === undefined) return name;
  const names = list.split(', ');
  return names.includes(name) || names.length >= NAMED_KEPT ? list : `${list}, ${name}`;
}
const NAMED_KEPT = 8;

function identityOf(rows: AttemptRow[]): Timeline['identity'] {
  const id: Timeline['identity'] = {};
  let clientsSeen = 0;
  for (const r of rows) {
    // (Several apps of a stateless server share a scope without session ids: each initialize names its own client.)
    if (r.initialize?.clientInfo) id.client = clientsSeen === 0 ? r.initialize.clientInfo : named(id.client, r.initialize.clientInfo);
    else if (!id.client && r.client) id.client = r.client;
    if (r.initialize?.clientInfo) clientsSeen++;
    // (A scope without session ids may hold two stateless servers of one client: each is named.)
    if (r.initialize?.serverInfo) id.server = named(id.server, r.initialize.serverInfo);
    if (r.method === 'initialize' && r.protocolVersion) id.protocolVersion = r.protocolVersion;
    else if (!id.protocolVersion && r.protocolVersion) id.protocolVersion = r.protocolVersion;
  }
  // A loop, not Math.min(...times): spreading a session of 125,000 attempts as arguments overflows the stack.
  let min = Infinity;
  let max = -Infinity;
  for (const r of rows) {
    const t = r.ts ? Date.parse(r.ts) : Number.NaN;
    if (Number.isNaN(t)) continue;
    if (t < min) min = t;
    if (t + (r.durationMs ?? 0) > max) max = t + (r.durationMs ?? 0);
  }
  const first = min !== Infinity ? isoTime(min) : undefined;
  const last = max !== -Infinity ? isoTime(max) : undefined;
  if (first !== undefined) id.first = first;
  if (last !== undefined) id.last = last;
  return id;
}

/** One side's view of an attempt: `503 HTTP_ERROR`, `not seen`, or `-` when that side was not logged. */
function sideCells(r: AttemptRow): { client: { status: number | null; outcome: string } | 'not logged'; server: { status: number | null; outcome: string } | 'not seen' | 'not logged' | 'no side' } {
  const own = { status: r.status, outcome: r.outcome };
  if (r.side === 'server' || r.side === 'gateway') return { client: 'not logged', server: own };
  // A log that does not say its side (stdio, message logs): its one view goes in the client column.
  if (r.side === undefined && r.serverOutcome === undefined) return { client: own, server: 'no side' };
  const server = r.serverOutcome !== undefined ? { status: r.serverStatus ?? null, outcome: r.serverOutcome } : r.notSeenByServer ? 'not seen' as const : 'not logged' as const;
  return { client: own, server };
}

const statusText = (s: number | null) => (s === null ? '-' : String(s));

function sideText(v: ReturnType<typeof sideCells>['client' | 'server'], color: boolean): string {
  if (typeof v === 'string') return v === 'not seen' ? paint(color, '31', 'not seen by server') : v === 'no side' ? '(no side)' : '-';
  const o = v.outcome as keyof typeof OUTCOME_COLOR;
  return `${statusText(v.status)} ${paint(color, OUTCOME_COLOR[o] ?? '0', v.outcome)}`;
}

function sseText(r: AttemptRow): string {
  if (!r.sse) return '';
  const parts = [`${plural(r.sse.events, 'event')}${r.sse.resumedEvents ? ` (${r.sse.resumedEvents} resumed)` : ''}`];
  if (r.sse.progress) parts.push(`${r.sse.progress} progress`);
  if (r.sse.serverRequests) parts.push(plural(r.sse.serverRequests, 'server request'));
  // `cut` is the engine's word for a stream whose end the log does not have (the log ended first, or the window
  // closed it), not a cut on the wire: "stream cut" beside a TOOL_SUCCESS the app got read as a network fault.
  if (r.sse.end === 'cut') parts.push('its end not in the log');
  else if (r.sse.end && r.sse.end !== 'complete') parts.push(`stream ${r.sse.end}`);
  return parts.join(', ');
}

/** Retries, cancellations, resumptions, the claim, the error and the findings of one row, as short notes. */
function notes(r: AttemptRow, elsewhere?: string[]): string[] {
  const n: string[] = [];
  if (r.continuation) n.push(r.retryOrigin?.how ?? 'continues its call');
  else if ((r.attempt ?? 1) > 1) n.push(`retry${r.retryOrigin ? ` (${r.retryOrigin.origin}: ${r.retryOrigin.how})` : ''}`);
  if (elsewhere) n.push(...elsewhere);
  // The client's own words about a call joined to the wire (Claude Code's, Gemini CLI's): alone, the why has them.
  if (r.claim?.message !== undefined && !r.claim.only) n.push(`client said "${r.claim.message}"`);
  if (r.cancelled) n.push('cancelled by the client');
  if (r.resumed) n.push('response came on a resumed stream');
  if (r.claim?.outcome && r.claim.outcome !== r.outcome) n.push(`client claimed ${r.claim.outcome}`);
  const d = r.detail;
  if (d) {
    const e = [d.errorCode !== undefined ? String(d.errorCode) : '', d.errorMessage ?? '', d.why ?? ''].filter(Boolean).join(' ');
    if (e) n.push(e);
  }
  for (const f of r.findings) n.push(`${f.code}`);
  return n;
}

/**
 * What the client view and server view columns mean, and only the marks the rows shown use: the same three sentences
 * under every timeline, `(no side)` explained where no row had one, were read past as boilerplate.
 */
function legend(rows: AttemptRow[]): string {
  const cells = rows.flatMap((r) => { const s = sideCells(r); return [s.client, s.server]; });
  const parts = ['client view / server view: HTTP status and outcome as each side logged it'];
  if (cells.some((c) => typeof c !== 'string' && c.status === null)) parts[0] += ' ("-" for the status: no HTTP layer in the log)';
  parts[0] += '.';
  if (cells.includes('not seen')) parts.push('"not seen by server": both sides were logged and the server has no record of the attempt.');
  if (cells.includes('no side')) parts.push('"(no side)": the log does not say which side wrote it; its one view is in the client column.');
  return parts.join(' ');
}

const idOf = (r: AttemptRow) => r.idText ?? jsonText(r.id);
/** Whether the rows went to more than one URL (a client's stateless servers in one scope): only then is the endpoint shown. */
function severalEndpoints(rows: AttemptRow[]): boolean {
  let first: string | undefined;
  for (const r of rows) {
    if (r.endpoint === undefined) continue;
    if (first === undefined) first = r.endpoint;
    else if (r.endpoint !== first) return true;
  }
  return false;
}
const whatOf = (r: AttemptRow) => (r.tool ? `${r.method} ${r.tool}` : r.target !== undefined ? `${r.method} ${r.target}` : r.method);
const offset = (t: Timeline, r: AttemptRow) => (t.identity.first && r.ts ? `+${span(Date.parse(r.ts) - Date.parse(t.identity.first))}` : '');
const callOf = (r: AttemptRow) => (r.call ? `${r.call}#${r.attempt ?? 1}` : '');

function header(t: Timeline): string {
  const i = t.identity;
  // An unnamed client or server is said (NOT_LOGGED: its initialize is not in the logs), not left out of the line.
  const parts = [`client ${i.client || NOT_LOGGED}`, `server ${i.server || NOT_LOGGED}`, i.protocolVersion ? `protocol ${i.protocolVersion}` : ''].filter(Boolean);
  const when = i.first ? `${dateTime(i.first)} to ${i.last ? clock(i.last) : '?'}${i.last ? ` (${span(Date.parse(i.last) - Date.parse(i.first))})` : ''}` : '';
  return [parts.join(', '), `${plural(t.rows.length, 'attempt')}${when ? `, ${when}` : ''}`].filter(Boolean).join('; ');
}

const msOf = (r: AttemptRow) => (r.durationMs !== undefined ? String(Math.round(r.durationMs)) : '');

/**
 * The narrow layout's fit: the client view over the server view wraps at spaces and after `_` (`STREAM_` over
 * `INCOMPLETE`) only when the other columns cannot give; id over call keeps an id whole while it can; SSE and notes go
 * under the row when too narrow for their text.
 */
function narrowFit(views: string[], ids: string[]): Record<string, ColumnFit> {
  const longest = (texts: string[], at: RegExp) => maxOf(1, texts.flatMap((v) => v.split(at).map((p) => displayWidth(p))));
  return {
    'time / offset / ms': wrapColumn(12),
    'id / call': { ...wrapColumn(5), keep: longest(ids, /\n/) },
    'method / tool': wrapColumn(10),
    'client view /\nserver view': { ...wrapColumn(longest(views, /(?<=_)| /)), keep: longest(views, / /) },
    // A min under its widest cell (`1 event` is no longer `1 event(s)`), so that it can leave the table when too narrow.
    SSE: wrapColumn(5, 16),
    notes: wrapColumn(16, SPILL_BELOW),
  };
}

/**
 * The filters in force besides the session the view shows (its heading names it): stated as `--session a3f1`, it would
 * read as a flag that timeline refuses (the session is its first argument). The JSON summary keeps every filter.
 */
function otherFilters(summary: Summary): string {
  const { session: _shown, ...others } = summary.filters as FilterDescription;
  return filtersText(others);
}

/** ` (left out: 5 of 8 attempts of this session)` after the filters line. */
function sessionLeftOut(t: Timeline): string {
  const n = t.leftOut ?? 0;
  return ` (left out: ${n} of ${plural(t.rows.length + n, 'attempt')} of this session)`;
}

export function renderTimelineTable(t: Timeline, summary: Summary, color: boolean, width = DEFAULT_WIDTH): string {
  const out: string[] = [];
  out.push(`${paint(color, '1', 'Session')} ${cell(t.session, 80)}: ${cell(header(t), 200)}`);
  const filters = otherFilters(summary);
  if (filters) out.push(`filters: ${cell(filters, 300)}${sessionLeftOut(t)}`);
  out.push('');
  // Wide: a column per field. Narrow (when that does not fit): time, offset and ms stacked, id over call, the two views in one cell.
  // A scope whose requests went to more than one URL (one client's stateless servers): each row says which.
  const urls = severalEndpoints(t.rows);
  const wide = () => {
    const table = terminalTable(['time', 'offset', 'id', 'call#attempt', ...(urls ? ['endpoint'] : []), 'method / tool', 'client view', 'server view', 'ms', 'SSE', 'notes'], color, width, { ...(urls ? { endpoint: wrapColumn(12) } : {}), 'method / tool': wrapColumn(10), SSE: wrapColumn(10), notes: wrapColumn(16, SPILL_BELOW) });
    for (const r of t.rows) {
      const sides = sideCells(r);
      table.push([clock(r.ts), offset(t, r), cell(idOf(r), 14), callOf(r), ...(urls ? [cell(r.endpoint ?? '', 80)] : []), cell(whatOf(r), 40), sideText(sides.client, color), sideText(sides.server, color),
        msOf(r), cell(sseText(r), 52), textCell(notes(r, t.elsewhere?.get(r)).join('; '))]);
    }
    return table;
  };
  const narrow = () => {
    const rows = t.rows.map((r) => {
      const sides = sideCells(r);
      const ms = msOf(r);
      return [[clock(r.ts), offset(t, r), ms && `${ms} ms`].filter(Boolean).join('\n'), [cell(idOf(r), 14), callOf(r)].filter(Boolean).join('\n'), [cell(whatOf(r), 40), urls && r.endpoint !== undefined ? `at ${cell(r.endpoint, 80)}` : ''].filter(Boolean).join('\n'),
        `${sideText(sides.client, color)}\n${sideText(sides.server, color)}`, cell(sseText(r), 52), textCell(notes(r, t.elsewhere?.get(r)).join('; '))];
    });
    // SSE and notes, when no row has any, take no column (and no borders).
    const head = ['time / offset / ms', 'id / call', 'method / tool', 'client view /\nserver view', 'SSE', 'notes'];
    const kept = head.map((_, c) => c < 4 || rows.some((r) => r[c] !== ''));
    const table = terminalTable(head.filter((_, c) => kept[c]), color, width, narrowFit(rows.map((r) => r[3]!), rows.map((r) => r[1]!)));
    for (const row of rows) table.push(row.filter((_, c) => kept[c]));
    return table;
  };
  out.push(widestFirst(width, wide, narrow));
  if (t.findings.length) {
    // A finding's code wraps after its `_` when narrow (NOTIFICATION_ over REFUSED), as in the analysis's findings table.
    const ft = terminalTable(['severity', 'code', 'message'], color, width, { code: underscoreColumn(t.findings.map((f) => f.code)), message: wrapColumn(20) });
    for (const f of t.findings) ft.push([paint(color, SEVERITY_COLOR[f.severity], f.severity), f.code, textCell(f.message)]);
    out.push('', 'Session findings', ft.toString());
  }
  out.push('', legend(t.rows), redactionLine(summary, (code, text) => paint(color, code, text)));
  // The lines around the tables (the header, the legend) wrap at spaces to the width, as in the analysis.
  return `${wrapAround(out.join('\n'), width)}\n`;
}

export function renderTimelineMarkdown(t: Timeline, summary: Summary): string {
  const out: string[] = [`# Session \`${mdCell(t.session, 120).replace(/`/g, "'")}\``, ''];
  out.push(`${mdCell(header(t), 300)}. Generated by ${mdCell(summary.tool)}. ${summary.redaction ? 'Secrets are redacted.' : '**Redaction is off**: secrets from the logs appear as they are.'}`, '');
  const filters = otherFilters(summary);
  if (filters) out.push(`**Filters:** \`${filters.replace(/`/g, "'")}\`${sessionLeftOut(t)}`, '');
  const plain = (v: ReturnType<typeof sideCells>['client' | 'server']) => (typeof v === 'string' ? (v === 'not seen' ? '**not seen by server**' : v === 'no side' ? '(no side)' : '-') : `${statusText(v.status)} \`${v.outcome}\``);
  out.push('## Exchanges', '');
  const urls = severalEndpoints(t.rows);
  out.push(markdownTable(['time', 'offset', 'id', 'call#attempt', ...(urls ? ['endpoint'] : []), 'method / tool', 'client view', 'server view', 'ms', 'SSE', 'notes'], t.rows.map((r) => {
    const sides = sideCells(r);
    return [clock(r.ts), offset(t, r), mdCell(idOf(r), 24), callOf(r), ...(urls ? [mdCell(r.endpoint ?? '', 120)] : []), mdCell(whatOf(r)), plain(sides.client), plain(sides.server),
      r.durationMs !== undefined ? String(Math.round(r.durationMs)) : '', mdCell(sseText(r)), mdText(notes(r, t.elsewhere?.get(r)).join('; '))];
  })), '');
  if (t.findings.length) {
    out.push('## Session findings', '');
    out.push(markdownTable(['severity', 'code', 'message'], t.findings.map((f) => [f.severity, `\`${f.code}\``, mdText(f.message)])), '');
  }
  // The notifications and GET streams the server refused are drawn among the attempts, as in the analysis's Markdown report.
  out.push(legend(t.rows), '', '## Sequence', '', sequenceDiagram(t.rows, t.findings.flatMap((f) => (f.refused ? [f.refused] : []))), '');
  return `${out.join('\n')}\n`;
}

/** `{"version":1,"view":"timeline","session":...,"identity":{...},"attempts":[...],"findings":[...],"summary":{...}}` (ids keep their exact text). */
export function timelineJson(t: Timeline, summary: Summary): string {
  const attempts = t.rows.map((r) => attemptJson(r).replace('{"type":"attempt",', '{'));
  const findings = t.findings.map((f) => findingJson(f, f.message).replace('{"type":"finding",', '{'));
  return `${escapeJsonControls(`{"version":1,"view":"timeline","session":${JSON.stringify(t.session)},"identity":${JSON.stringify(t.identity)},"attempts":[${attempts.join(',')}],"findings":[${findings.join(',')}],"summary":${JSON.stringify(summary)}}`)}\n`;
}
