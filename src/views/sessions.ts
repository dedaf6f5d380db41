// The `sessions` view: one small record per session folded from the attempt stream, rendered as a table, Markdown or JSON.
import { escapeJsonControls, plural } from '../report/text.js';
import { filteredOutText, scopeName, type AttemptRow, type Summary } from '../report/summary.js';
import type { Finding, Severity } from '../findings/types.js';
import { OUTCOMES, type Outcome } from '../outcomes.js';
import { filtersText } from '../filter.js';
import { httpClientResend, redirectFollowed } from '../findings/resends.js';
import { trimOldest } from '../bounded.js';
import { redactionLine } from '../report/notes.js';
import { isoTime } from '../formats/time.js';
import { cell, clock, NOT_LOGGED, nameCell, dateTime, isSuccess, markdownTable, mdCell, mdText, OUTCOME_COLOR, paint, severityCounts, span, terminalTable } from './style.js';
import { DEFAULT_WIDTH, displayWidth, keepTail, maxOf, widestFirst, wrapAround, wrapColumn, type ColumnFit } from '../report/grid.js';

/** One session as the view shows it. A log without session ids groups by connection or client key (`scope`). */
export interface SessionRow {
  /** The MCP session id, or null when the traffic had none. */
  session: string | null;
  /** The connection, client or input key that stands in for a missing session id. */
  scope?: string;
  /** The client: clientInfo name/version from initialize, else the log's client name, else the User-Agent. */
  client?: string;
  /** The server: serverInfo name/version from the initialize result. */
  server?: string;
  /** Negotiated in initialize, else the MCP-Protocol-Version header the requests carried. */
  protocolVersion?: string;
  /** Which views were logged: client, server, gateway. */
  sides: string[];
  attempts: number;
  /** Attempts whose outcome is neither SUCCESS nor TOOL_SUCCESS. */
  failures: number;
  /** Outcomes of those failed attempts. */
  failed: Partial<Record<Outcome, number>>;
  /** Attempts answered in a body the log does not hold (UNANSWERED, their outcome not known): not among the failures. */
  notLogged: number;
  /**
   * The session never became usable, whatever its attempts say: its notifications/initialized was refused (the
   * TypeScript SDK's connect() throws) and no request worked in it after that. Says what refused it.
   */
  unusable?: string;
  /** Attempts after the first of a call (retries and continuations). */
  retries: number;
  /** Attempt-level and session-level findings. */
  findings: Record<Severity, number>;
  first?: string;
  last?: string;
}

interface Acc extends SessionRow {
  /** Line range per input file (session-less scopes only), to place a session finding that has no session id. */
  lines?: Map<string, [number, number]>;
  firstMs: number;
  lastMs: number;
  order: number;
  clientFromInit: boolean;
  clientsFromInit?: string[];
  serversFromInit?: string[];
  versionFromInit: boolean;
}

/** Folds attempts and session findings into one record per session; memory grows with the number of sessions only. */
/** Redirect rows remembered until their follow-up (it comes at once: a few per open call are plenty). */
const REDIRECTS_KEPT = 4_096;

export class SessionsCollector {
  private sessions = new Map<string, Acc>();
  /** The last session-less scope seen: a session-level finding without a session id belongs there. */
  private lastScopeless: Acc | undefined;
  /** Redirect (3xx) rows whose follow-up may still come, by call#attempt: the session they were counted in (the last REDIRECTS_KEPT). */
  private redirects = new Map<string, Acc>();
  /**
   * What the attempts the filters dropped said of their sessions (client, server, protocol): a filter that drops a
   * session's initialize (--tool, a time filter) keeps the rest of the session named as it was. Not rows of their own.
   */
  private learned = new Map<string, Identity>();

  private acc(session: string | null, scope: string | undefined): Acc {
    const key = session ?? `\0${scope ?? ''}`;
    let s = this.sessions.get(key);
    if (!s) {
      s = {
        session, sides: [], attempts: 0, failures: 0, failed: {}, notLogged: 0, retries: 0, findings: { error: 0, warning: 0, info: 0 },
        firstMs: Infinity, lastMs: -Infinity, order: this.sessions.size, clientFromInit: false, versionFromInit: false,
      };
      if (session === null && scope !== undefined) s.scope = scope;
      this.sessions.set(key, s);
    }
    if (session === null && scope !== undefined) this.lastScopeless = s;
    return s;
  }

  attempt(row: AttemptRow): void {
    const s = this.acc(row.session, row.scope);
    s.attempts++;
    if (row.answerNotLogged) s.notLogged++;
    else if (!isSuccess(row.outcome) && !row.versionFallback) {
      s.failures++;
      s.failed[row.outcome] = (s.failed[row.outcome] ?? 0) + 1;
    }
    this.roundAnswered(s, row);
    // The redirect its HTTP client followed was a hop of the call, and this request no retry (the analysis's note says
    // so): the redirect is taken off the failures of the session it was counted in (an initialize's 3xx has none yet).
    if (row.call !== undefined && row.status !== null && row.status >= 300 && row.status < 400 && !isSuccess(row.outcome)) {
      this.redirects.set(`${row.call}#${row.attempt ?? 1}`, s);
      trimOldest(this.redirects, REDIRECTS_KEPT);
    }
    this.followUp(row);
    if ((row.attempt ?? 1) > 1 && !row.continuation && !httpClientResend(row)) s.retries++;
    if (row.session === null) {
      s.lines ??= new Map();
      for (const src of row.sources) {
        const r = s.lines.get(src.file);
        if (!r) s.lines.set(src.file, [src.line, src.line]);
        else if (src.line < r[0]) r[0] = src.line;
        else if (src.line > r[1]) r[1] = src.line;
      }
    }
    for (const f of row.findings) s.findings[f.severity]++;
    for (const side of [row.side, row.serverOutcome !== undefined ? 'server' : undefined]) {
      if (side && !s.sides.includes(side)) s.sides.push(side);
    }
    learn(s, row);
    const t = row.ts ? Date.parse(row.ts) : Number.NaN;
    if (!Number.isNaN(t)) {
      const end = t + (row.durationMs ?? 0);
      if (t < s.firstMs) s.firstMs = t;
      if (end > s.lastMs) s.lastMs = end;
    }
  }

  /** A request its HTTP client sent to a redirect's Location (kept or dropped by the filters): the redirect is taken off the failures. */
  private followUp(row: AttemptRow): void {
    const at = row.call !== undefined && redirectFollowed(row) ? `${row.call}#${(row.attempt ?? 1) - 1}` : undefined;
    const counted = at !== undefined ? this.redirects.get(at) : undefined;
    if (counted !== undefined && (counted.failed.HTTP_ERROR ?? 0) > 0) {
      this.redirects.delete(at!);
      counted.failures--;
      if (--counted.failed.HTTP_ERROR! === 0) delete counted.failed.HTTP_ERROR;
    }
  }

  /** The input_required round this follow-up answers was a step of the call, not a failure. */
  private roundAnswered(s: Acc | undefined, row: AttemptRow): void {
    if (s !== undefined && row.continuation && (s.failed.INPUT_REQUIRED ?? 0) > 0) {
      s.failures--;
      if (--s.failed.INPUT_REQUIRED! === 0) delete s.failed.INPUT_REQUIRED;
    }
  }

  /**
   * An attempt the filters dropped: what it says of its session's client, server and protocol is kept, and whether it
   * followed a kept redirect or answered a kept input_required round.
   */
  dropped(row: AttemptRow): void {
    this.followUp(row);
    this.roundAnswered(this.sessions.get(row.session ?? `\0${row.scope ?? ''}`), row);
    const key = row.session ?? `\0${row.scope ?? ''}`;
    let s = this.learned.get(key);
    if (!s) this.learned.set(key, (s = { clientFromInit: false, versionFromInit: false }));
    learn(s, row);
  }

  /** A session's names from its dropped attempts, where its kept ones did not say them. */
  private finish(s: Acc, key: string): void {
    const d = this.learned.get(key);
    if (!d) return;
    // What the dropped attempts said first (an initialize comes before the rest), then what the kept ones added.
    if (d.clientFromInit) {
      s.clientsFromInit = [...new Set([...d.clientsFromInit!, ...(s.clientsFromInit ?? [])])];
      s.client = s.clientsFromInit.join(', ');
    } else if (!s.clientFromInit && s.client === undefined && d.client !== undefined) s.client = d.client;
    if (d.serversFromInit) {
      s.serversFromInit = [...new Set([...d.serversFromInit, ...(s.serversFromInit ?? [])])].slice(0, SERVERS_NAMED);
      s.server = s.serversFromInit.join(', ');
    }
    if (d.protocolVersion !== undefined && ((d.versionFromInit && !s.versionFromInit) || s.protocolVersion === undefined)) s.protocolVersion = d.protocolVersion;
    this.learned.delete(key);
  }

  finding(f: Finding): void {
    const session = f.session ?? null;
    const s = session === null ? this.scopelessOf(f) ?? this.acc(null, undefined) : this.acc(session, undefined);
    s.findings[f.severity]++;
    if (f.unusable !== undefined) s.unusable ??= f.unusable;
  }

  /** The session-less scope the finding names (when it has attempts here), else the one whose lines hold its evidence, else the last one seen. */
  private scopelessOf(f: Finding): Acc | undefined {
    const named = f.group !== undefined ? this.sessions.get(`\0${f.group}`) : undefined;
    if (named) return named;
    for (const src of f.sources) {
      for (const s of this.sessions.values()) {
        const r = s.session === null ? s.lines?.get(src.file) : undefined;
        if (r && src.line >= r[0] && src.line <= r[1]) return s;
      }
    }
    return this.lastScopeless;
  }

  /** The sessions in order of their first attempt (sessions without times last, in the order they were seen). */
  rows(): SessionRow[] {
    for (const [key, s] of this.sessions) this.finish(s, key);
    return [...this.sessions.values()]
      .sort((a, b) => (a.firstMs === b.firstMs ? a.order - b.order : a.firstMs - b.firstMs))
      .map(({ firstMs, lastMs, order: _o, clientFromInit: _c, clientsFromInit: _cs, serversFromInit: _ss, versionFromInit: _v, lines: _l, ...row }) => {
        const first = isoTime(firstMs);
        const last = isoTime(lastMs);
        if (first !== undefined) row.first = first;
        if (last !== undefined) row.last = last;
        return row;
      });
  }
}

/** What a session's clients, server and protocol are called, as its attempts' initialize (or else their requests) says. */
interface Identity {
  client?: string;
  server?: string;
  protocolVersion?: string;
  clientFromInit: boolean;
  /** Every distinct clientInfo the scope's initializes named, in order: a log without session ids holds every client of a stateless server. */
  clientsFromInit?: string[];
  /** Every distinct serverInfo their results named (the first SERVERS_NAMED): one client's log without session ids of two stateless servers. */
  serversFromInit?: string[];
  versionFromInit: boolean;
}

/** Servers named per session at most: a scope without session ids holds one client's servers, a few. */
const SERVERS_NAMED = 8;

/** Take what an attempt says of its session's client, server and protocol. */
function learn(s: Identity, row: AttemptRow): void {
  const init = row.initialize;
  if (init?.clientInfo) {
    // Two apps against a stateless server (@rekog/mcp-nest's default) share the one scope of a log without session
    // ids: each initialize names its own client, and the scope is theirs together, not the last one's.
    s.clientsFromInit ??= [];
    if (!s.clientsFromInit.includes(init.clientInfo)) s.clientsFromInit.push(init.clientInfo);
    s.client = s.clientsFromInit.join(', ');
    s.clientFromInit = true;
  } else if (!s.clientFromInit && row.client) s.client = row.client;
  else if (!s.client && init?.userAgent) s.client = init.userAgent;
  if (init?.serverInfo) {
    s.serversFromInit ??= [];
    if (!s.serversFromInit.includes(init.serverInfo) && s.serversFromInit.length < SERVERS_NAMED) s.serversFromInit.push(init.serverInfo);
    s.server = s.serversFromInit.join(', ');
  }
  if (row.method === 'initialize' && row.protocolVersion) {
    s.protocolVersion = row.protocolVersion;
    s.versionFromInit = true;
  } else if (!s.versionFromInit && row.protocolVersion && !s.protocolVersion) s.protocolVersion = row.protocolVersion;
}

/**
 * How long a client's or server's name may be in its cell before it is cut: `name/version` whole (the version is what a
 * postmortem asks; `triage-fixture-server/1.0.0` lost it at 24), a cap for hostile strings only. The cell wraps.
 */
const NAME_CELL = 40;
/** The client's cell: NAME_CELL characters a name, room for three when a scope without session ids holds several clients. */
const clientCell = (r: SessionRow): string => cell(r.client ?? '', NAME_CELL * Math.min(3, (r.client ?? '').split(', ').length));
/** A client or server cell: its name, or NOT_LOGGED when no record of the session named it. */
const nameOr = (name: string, color: boolean): string => (name === '' ? paint(color, '2', NOT_LOGGED) : name);
const serverCell = (r: SessionRow): string => cell(r.server ?? '', NAME_CELL);
/** The session id; without one, the key that stands in for it (`input#N` named by its file) and "no session id". */
const nameOf = (r: SessionRow, summary: Summary): string => scopeName(r.session, r.scope, summary.inputs);
/**
 * The failed attempts by outcome: `1 HTTP_ERROR` (one outcome: its count is the total); with several, the total and
 * each outcome, `3 (2 HTTP_ERROR, 1 TOOL_ERROR)` on one line (sep `, `), or `3` over one outcome a line (sep `\n`).
 * Then the answers the log does not hold (`2 answers not logged`), which are neither.
 */
const failedText = (r: SessionRow, color: boolean, sep: string) => {
  const parts = OUTCOMES.filter((o) => r.failed[o]).map((o) => paint(color, OUTCOME_COLOR[o], `${r.failed[o]} ${o}`));
  const one = parts.length === 1 && OUTCOMES.some((o) => r.failed[o] === r.failures);
  const failed = r.failures === 0 || parts.length === 0 ? String(r.failures) : one ? parts[0]! : sep === '\n' ? `${r.failures}\n${parts.join(sep)}` : `${r.failures} (${parts.join(sep)})`;
  // Answers the log does not hold are neither failed nor succeeded: said beside the failures, not among them.
  const counted = r.notLogged > 0 ? `${failed}${sep}${paint(color, '2', `${plural(r.notLogged, 'answer')} not logged`)}` : failed;
  // A session whose handshake was refused failed though every attempt in it succeeded (its initialize).
  return r.unusable === undefined ? counted : `${counted}${sep}${paint(color, '31', `never usable (${r.unusable})`)}`;
};
const spanOf = (r: SessionRow) => (r.first && r.last ? span(Date.parse(r.last) - Date.parse(r.first)) : '');
const lastOf = (r: SessionRow) => (r.first && r.last && r.first.slice(0, 10) === r.last.slice(0, 10) ? clock(r.last) : dateTime(r.last));

/**
 * How the sessions table gives way to the width: a session id stays whole (a label wraps at its spaces, its file name
 * shortened from the left to the id's width); client and server names wrap after their `/`, then after a `-`; the
 * times wrap between date and time; the failures keep one outcome a line, or leave the table (their cells go under
 * their rows, as a why does).
 */
function sessionsFit(rows: SessionRow[], idWidth: number): Record<string, ColumnFit> {
  return {
    session: wrapColumn(idWidth),
    client: nameColumn(rows.map((r) => clientCell(r))),
    server: nameColumn(rows.map((r) => serverCell(r))),
    sides: wrapColumn(7),
    failed: failedColumn(rows),
    first: wrapColumn(12),
    last: wrapColumn(12),
    span: wrapColumn(6),
  };
}

/** The session column's narrowest: its widest session id (a UUID's 36), within these bounds; 32 without ids. */
const ID_WIDTH = { least: 19, most: 40, none: 32 };

function idWidth(rows: SessionRow[]): number {
  const ids = rows.flatMap((r) => (r.session !== null ? [displayWidth(cell(r.session, 90))] : []));
  return ids.length === 0 ? ID_WIDTH.none : Math.min(ID_WIDTH.most, maxOf(ID_WIDTH.least, ids));
}

/** Names split after `/` (`acme-agent/` over `2.4.1`) while other columns can give; then after `-` as well. */
function nameColumn(names: string[]): ColumnFit {
  const longest = (re: RegExp) => maxOf(6, names.flatMap((n) => n.split(re).map((p) => displayWidth(p))));
  return { mode: 'wrap', min: longest(/(?<=[/-])/), keep: longest(/(?<=\/)/) };
}

function failedColumn(rows: SessionRow[]): ColumnFit {
  const widest = maxOf(0, rows.flatMap((r) => failedText(r, false, '\n').split('\n').map((l) => l.length)));
  return { mode: 'wrap', min: 8, spill: widest, keep: widest };
}

/**
 * The narrow layout's fit: the session id stays in the table while the other columns can give, else it goes across the
 * table above its row (`session: a3f1...`), whole; client over server wrap as in the wide layout, protocol over sides
 * after the sides' `+`, the counts one a line, the times between date and time; the failures as in the wide layout.
 */
function narrowFit(rows: SessionRow[], idWidth: number): Record<string, ColumnFit> {
  const names = rows.flatMap((r) => [clientCell(r), serverCell(r)]);
  return {
    session: { mode: 'wrap', min: 7, spill: idWidth, above: true },
    'client / server': nameColumn(names),
    'protocol / sides': wrapColumn(10),
    counts: { ...wrapColumn(8), keep: maxOf(-Infinity, rows.flatMap((r) => countsText(r, false).split('\n').map((l) => l.length))) },
    failed: failedColumn(rows),
    'first / last / span': wrapColumn(12),
  };
}

/** Attempts, retries and findings named, one a line (`16 attempts`, `4 retries`, `6 errors`, `1 warning`), for a stacked cell. */
function countsText(r: SessionRow, color: boolean): string {
  const findings = severityCounts(r.findings, color);
  return [plural(r.attempts, 'attempt'), plural(r.retries, 'retry', 'retries'), findings === '-' ? 'no findings' : findings.replace(/, /g, '\n')].join('\n');
}

/** The session id, or the label of a scope without one, its input's name shortened from the left to fit `width` (`input#1 (no session id; …/real-har/sse-cut.har)`). */
function sessionCell(r: SessionRow, summary: Summary, width: number): string {
  if (r.session !== null || !r.scope?.startsWith('input#')) return nameCell(nameOf(r, summary), 90);
  const inputs = summary.inputs.map((i) => ({ name: displayWidth(i.name) >= width ? keepTail(i.name, width - 1) : i.name }));
  return nameCell(scopeName(null, r.scope, inputs), 90);
}

export function renderSessionsTable(rows: SessionRow[], summary: Summary, color: boolean, width = DEFAULT_WIDTH): string {
  const out: string[] = [];
  out.push(`${paint(color, '1', 'mcp-triage sessions')}: ${plural(rows.length, 'session')}, ${plural(summary.attempts, 'attempt')}`);
  const filters = filtersText(summary.filters);
  if (filters) out.push(`filters: ${cell(filters, 300)}${filteredOutText(summary) ? ` (${filteredOutText(summary)})` : ''}`);
  out.push('');
  if (rows.length === 0) out.push('No sessions: no JSON-RPC request passed the input and the filters.');
  else {
    const ids = idWidth(rows);
    // Wide: a column per field. Narrow (when that does not fit): fields stacked in fewer columns, the id above its row when it must.
    const wide = () => {
      const t = terminalTable(['session', 'client', 'server', 'protocol', 'sides', 'attempts', 'retries', 'failed', 'findings', 'first', 'last', 'span'], color, width, sessionsFit(rows, ids));
      for (const r of rows) {
        t.push([sessionCell(r, summary, ids), nameOr(clientCell(r), color), nameOr(serverCell(r), color), cell(r.protocolVersion ?? '', 12), r.sides.join('+') || '-', String(r.attempts), String(r.retries),
          failedText(r, color, '\n'), severityCounts(r.findings, color).replace(/, /g, '\n'), dateTime(r.first), lastOf(r), spanOf(r)]);
      }
      return t;
    };
    const narrow = () => {
      const t = terminalTable(['session', 'client / server', 'protocol / sides', 'counts', 'failed', 'first / last / span'], color, width, narrowFit(rows, ids));
      for (const r of rows) {
        t.push([sessionCell(r, summary, ids), `${nameOr(clientCell(r), color)}\n${nameOr(serverCell(r), color)}`, `${cell(r.protocolVersion || '-', 12)}\n${r.sides.join('+') || '-'}`, countsText(r, color),
          failedText(r, color, '\n'), [dateTime(r.first), lastOf(r), spanOf(r)].filter(Boolean).join('\n')]);
      }
      return t;
    };
    out.push(widestFirst(width, wide, narrow));
  }
  out.push('', `Next: mcp-triage timeline SESSION [the same files] shows every exchange of one session (a prefix of the id is enough).`);
  out.push(redactionLine(summary, (code, text) => paint(color, code, text)));
  // The lines around the table (the header, the filters, the next step) wrap at spaces to the width, as in the analysis.
  return `${wrapAround(out.join('\n'), width)}\n`;
}

export function renderSessionsMarkdown(rows: SessionRow[], summary: Summary): string {
  const out: string[] = ['# MCP sessions', ''];
  out.push(`Generated by ${mdCell(summary.tool)}: ${plural(rows.length, 'session')}, ${plural(summary.attempts, 'attempt')}. ${summary.redaction ? 'Secrets are redacted.' : '**Redaction is off**: secrets from the logs appear as they are.'}`, '');
  const filters = filtersText(summary.filters);
  if (filters) out.push(`**Filters:** \`${filters.replace(/`/g, "'")}\`${filteredOutText(summary) ? ` (${filteredOutText(summary)})` : ''}`, '');
  if (rows.length === 0) out.push('No sessions: no JSON-RPC request passed the input and the filters.', '');
  else {
    out.push(markdownTable(['session', 'client', 'server', 'protocol', 'sides', 'attempts', 'retries', 'failed', 'findings', 'first', 'last', 'span'], rows.map((r) => [
      mdCell(nameOf(r, summary), 120), mdName(r.client), mdName(r.server), mdCell(r.protocolVersion ?? ''), r.sides.join('+') || '-', String(r.attempts), String(r.retries),
      mdText(failedText(r, false, ', ')), severityCounts(r.findings), dateTime(r.first), lastOf(r), spanOf(r),
    ])), '');
  }
  return `${out.join('\n')}\n`;
}

/** A client or server name in a Markdown cell, or NOT_LOGGED in italics (no name reads as it). */
const mdName = (name: string | undefined): string => (name ? mdCell(name) : `*${NOT_LOGGED}*`);

/** `{"version":1,"view":"sessions","sessions":[...],"summary":{...}}` */
export function sessionsJson(rows: SessionRow[], summary: Summary): string {
  return `${escapeJsonControls(JSON.stringify({ version: 1, view: 'sessions', sessions: rows, summary }))}\n`;
}
