// The report filters (--session, --method, --tool, --target, --outcome, --code, --since, --until): parsing, matching, and how they are stated.
import type { AttemptRow } from './report/summary.js';
import type { Finding } from './findings/types.js';
import { isOutcome, OUTCOMES } from './outcomes.js';
import { FINDING_CODES, isFindingCode } from './findings/types.js';
import { distance, nearest } from './suggest.js';
import { parseTimestamp } from './formats/time.js';
import { cleanTerminal } from './report/text.js';

/** What to keep, as the CLI flags or a library caller give it. Lists may also hold comma-separated values. */
export interface FilterOptions {
  /** Session id prefixes (a row without a session id is matched by its connection or client key). */
  session?: string | string[] | undefined;
  /** JSON-RPC request methods; `*` is a wildcard (`resources/*`). */
  method?: string | string[] | undefined;
  /** Tool names (tools/call); `*` is a wildcard. */
  tool?: string | string[] | undefined;
  /**
   * What a request acts on: a tools/call's tool, resources/read's (or subscribe's) uri, prompts/get's prompt name,
   * completion/complete's ref; `*` is a wildcard (`docs://*`). Requests that name nothing never match.
   */
  target?: string | string[] | undefined;
  /** Outcomes such as HTTP_ERROR (case-insensitive). */
  outcome?: string | string[] | undefined;
  /** Finding codes such as UNSAFE_RETRY (case-insensitive). */
  code?: string | string[] | undefined;
  /** Keep attempts that started at or after this time: ISO 8601, epoch, a Date, or a duration before now (15m, 2h, 1d). */
  since?: string | number | Date | undefined;
  /** Keep attempts that started before this time (same forms as since). */
  until?: string | number | Date | undefined;
}

/** The filters in force, as every report states them (JSON summary `filters`). Times are ISO 8601. */
export type FilterDescription = {
  session?: string[];
  method?: string[];
  tool?: string[];
  target?: string[];
  outcome?: string[];
  code?: string[];
  since?: string;
  until?: string;
};

export interface Filter {
  /** Whether any filter is set. */
  readonly active: boolean;
  attempt(row: AttemptRow): boolean;
  /**
   * A session-level finding is kept when its code passes --code and its session passes --session and, with any
   * attempt filter (--method, --tool, --target, --outcome, --since, --until), when the attempt it is about passed them: one of
   * its evidence lines is a line of an attempt kept by those filters. A finding about no attempt the log shows (an
   * orphan response, a cancel of a request never logged) has no method, tool, outcome or time to match: it is left
   * out under attempt filters.
   */
  finding(f: Finding): boolean;
  describe(): FilterDescription;
}

/** A filter that is not valid (an unknown outcome, an unreadable time); the message names the option. */
export class FilterError extends Error {}

const list = (v: string | string[] | undefined): string[] =>
  (v === undefined ? [] : Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(',')).map((x) => x.trim()).filter(Boolean);

const UNITS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** A time given as ISO 8601 / epoch, as a duration before `now` (15m, 2h, 1d, 30s, 1w), or "now"; undefined when unreadable. */
export function parseWhen(value: string | number | Date, now: number, timezone?: string): number | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
  if (typeof value === 'number') return parseTimestamp(value);
  const text = value.trim();
  if (text === 'now') return now;
  const rel = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)(?:\s*ago)?$/.exec(text);
  if (rel) return now - Number(rel[1]) * UNITS[rel[2] as keyof typeof UNITS];
  return parseTimestamp(text, timezone);
}

/** `*` matches any run of characters; everything else is literal. */
function matcher(patterns: string[]): (s: string) => boolean {
  const exact = new Set(patterns.filter((p) => !p.includes('*')));
  const globs = patterns.filter((p) => p.includes('*')).map((p) => p.split('*'));
  return (s) => exact.has(s) || globs.some((g) => globMatch(g, s));
}

/**
 * Whether s is the pattern's literal pieces in order with anything between them (the pieces of "a*b*c" are
 * ["a", "b", "c"]). Each piece is found at its first place after the one before, which is where a match can be if
 * there is one: linear in the length of s for a given pattern. (A regular expression /^a.*b.*c$/ retries from
 * every "a" of a tool name of megabytes: quadratic.)
 */
function globMatch(pieces: string[], s: string): boolean {
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (s.length < first.length + last.length || !s.startsWith(first) || !s.endsWith(last)) return false;
  let at = first.length;
  const end = s.length - last.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const found = s.indexOf(pieces[i]!, at);
    if (found < 0 || found + pieces[i]!.length > end) return false;
    at = found + pieces[i]!.length;
  }
  return true;
}

const sessionKey = (session: string | null | undefined, scope?: string) => session ?? scope ?? '';

/** The mark of a shortened id in the tables (`a3f1c2d4-5b…`, `a3f1…f601`): it stands for the characters left out. */
const ELLIPSIS = '…';

/**
 * The session a name copied from a table stands for: the label of traffic without a session id (scopeName's
 * `input#1 (no session id; …/capture.har.ndjson)`, whole or its first line as a narrow table wraps it) names its key.
 */
export function sessionPattern(text: string): string {
  return /^(\S.*?) \(no session id(?:;.*)?\)?$/s.exec(text)?.[1] ?? text;
}

/**
 * Whether a session key starts with `prefix` as logged, or as the reports print it: an id with control characters
 * (an escape sequence, a BEL) is shown without them (cleanTerminal), and what the user copies from the screen is that.
 * A prefix with `…` is an id as a table shortened it: its visible parts in order, the first at the start
 * (`a3f1c2d4-5b…`, `a3f1…f601`); a label of traffic without a session id stands for its key (sessionPattern).
 */
export function sessionStartsWith(key: string, prefix: string): boolean {
  return sessionMatcher(prefix)(key);
}

/** sessionStartsWith for one prefix, read once: a test for each key. */
export function sessionMatcher(prefix: string): (key: string) => boolean {
  const p = sessionPattern(prefix);
  // An empty last piece leaves the end open: the shortened id is a prefix too, as the plain one is.
  const pieces = p.includes(ELLIPSIS) ? [...p.split(ELLIPSIS), ''] : undefined;
  return (key) => {
    if (key.startsWith(p)) return true;
    const shown = cleanTerminal(key);
    if (shown !== key && shown.startsWith(p)) return true;
    return pieces !== undefined && (globMatch(pieces, key) || (shown !== key && globMatch(pieces, shown)));
  };
}

/** Whether a key is the whole of a shortened id: its visible parts in order, the first at its start and the last at its end (`a3f1…f601`). */
export function sessionIsShortened(key: string, prefix: string): boolean {
  const p = sessionPattern(prefix);
  if (!p.includes(ELLIPSIS)) return false;
  const pieces = p.split(ELLIPSIS);
  const shown = cleanTerminal(key);
  return globMatch(pieces, key) || (shown !== key && globMatch(pieces, shown));
}

/**
 * How far a session key is from a mistyped prefix, in edits (suggest.ts): the start of its printed form as long as the
 * prefix (give or take one character); for a shortened id, its start and its end against the parts before and after `…`.
 */
export function sessionDistance(prefix: string, key: string): number {
  const shown = cleanTerminal(key);
  const parts = sessionPattern(prefix).split(ELLIPSIS);
  const head = parts[0]!;
  if (parts.length === 1) return Math.min(...[-1, 0, 1].map((d) => distance(head, shown.slice(0, Math.max(0, head.length + d)))));
  const tail = parts.at(-1)!;
  return distance(head, shown.slice(0, head.length)) + (tail ? distance(tail, shown.slice(-tail.length)) : 0);
}

/** Build a filter, or return what is wrong with the options (the CLI prints it and exits 2). */
export function buildFilter(opts: FilterOptions, env: { now?: number; timezone?: string | undefined; naming?: 'cli' | 'api' } = {}): Filter | string {
  const now = env.now ?? Date.now();
  // The CLI names its flags (--outcome), the library the option it was given (filter.outcome).
  const name = (key: keyof FilterOptions) => (env.naming === 'api' ? `filter.${key}` : `--${key}`);
  const sessions = list(opts.session);
  const methods = list(opts.method);
  const tools = list(opts.tool);
  const targets = list(opts.target);
  const outcomes = list(opts.outcome).map((o) => o.toUpperCase());
  const codes = list(opts.code).map((c) => c.toUpperCase());
  const hint = (w: string, known: readonly string[]) => {
    const n = nearest(w, known);
    return n ? `; did you mean ${n}?` : `; known: ${known.join(', ')}`;
  };
  for (const o of outcomes) if (!isOutcome(o)) return `${name('outcome')}: "${o}" is not an outcome${hint(o, OUTCOMES)}`;
  for (const c of codes) if (!isFindingCode(c)) return `${name('code')}: "${c}" is not a finding code${hint(c, FINDING_CODES)}`;
  const since = opts.since !== undefined ? parseWhen(opts.since, now, env.timezone) : undefined;
  const until = opts.until !== undefined ? parseWhen(opts.until, now, env.timezone) : undefined;
  if (opts.since !== undefined && since === undefined) return `${name('since')}: cannot read "${String(opts.since)}" as a time (ISO 8601 like 2026-10-17T09:12:00Z, or a duration before now like 15m, 2h, 1d)`;
  if (opts.until !== undefined && until === undefined) return `${name('until')}: cannot read "${String(opts.until)}" as a time (ISO 8601 like 2026-10-17T09:12:00Z, or a duration before now like 15m, 2h, 1d)`;
  if (since !== undefined && until !== undefined && since >= until) return `${name('since')} (${new Date(since).toISOString()}) is not before ${name('until')} (${new Date(until).toISOString()}): nothing can match`;

  const methodOk = matcher(methods);
  const toolOk = matcher(tools);
  const targetOk = matcher(targets);
  const sessionTests = sessions.map(sessionMatcher);
  const inSession = (key: string) => sessionTests.length === 0 || sessionTests.some((test) => test(key));
  const attemptFilters = methods.length > 0 || tools.length > 0 || targets.length > 0 || outcomes.length > 0 || since !== undefined || until !== undefined;
  /** Per input file, the lines of the attempts that passed the attempt filters (only tracked when there are any). */
  const keptLines = new Map<string, LineSet>();

  const described: FilterDescription = {};
  if (sessions.length) described.session = sessions;
  if (methods.length) described.method = methods;
  if (tools.length) described.tool = tools;
  if (targets.length) described.target = targets;
  if (outcomes.length) described.outcome = outcomes;
  if (codes.length) described.code = codes;
  if (since !== undefined) described.since = new Date(since).toISOString();
  if (until !== undefined) described.until = new Date(until).toISOString();

  return {
    active: Object.keys(described).length > 0,
    attempt(row) {
      const key = sessionKey(row.session, row.scope);
      // A session whose id a gateway rewrote is found by the server's id too.
      if (!inSession(key) && (row.serverSession === undefined || !inSession(row.serverSession))) return false;
      if (methods.length && !methodOk(row.method)) return false;
      if (tools.length && (row.tool === null || !toolOk(row.tool))) return false;
      if (targets.length) {
        const target = row.tool ?? row.target;
        if (target === undefined || !targetOk(target)) return false;
      }
      if (outcomes.length && !outcomes.includes(row.outcome)) return false;
      if (since !== undefined || until !== undefined) {
        const t = row.ts ? Date.parse(row.ts) : Number.NaN;
        if (Number.isNaN(t)) return false;
        if (since !== undefined && t < since) return false;
        if (until !== undefined && t >= until) return false;
      }
      if (attemptFilters) {
        // Before --code: a session finding about this attempt (SESSION_EXPIRED of its 404) passes --code on its own.
        for (const src of row.sources) {
          let lines = keptLines.get(src.file);
          if (!lines) keptLines.set(src.file, (lines = new LineSet()));
          lines.add(src.line);
        }
      }
      if (codes.length && !row.findings.some((f) => codes.includes(f.code))) return false;
      return true;
    },
    finding(f) {
      const key = sessionKey(f.session, f.group);
      if (!inSession(key)) return false;
      if (codes.length && !codes.includes(f.code)) return false;
      if (attemptFilters && !f.sources.some((src) => keptLines.get(src.file)?.has(src.line))) return false;
      return true;
    },
    describe: () => described,
  };
}

/** A set of line numbers held in a typed array (8 bytes a line), sorted when first asked after additions. */
class LineSet {
  private lines = new Float64Array(16);
  private size = 0;
  private sorted = true;

  add(line: number): void {
    if (this.size === this.lines.length) {
      const grown = new Float64Array(this.size * 2);
      grown.set(this.lines);
      this.lines = grown;
    }
    if (this.size > 0 && line < this.lines[this.size - 1]!) this.sorted = false;
    this.lines[this.size++] = line;
  }

  has(line: number): boolean {
    const a = this.lines.subarray(0, this.size);
    if (!this.sorted) {
      a.sort();
      this.sorted = true;
    }
    let lo = 0;
    let hi = a.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (a[mid] === line) return true;
      if (a[mid]! < line) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}

/** One line stating the filters, in the words of the CLI flags: `--session a3f1 --since 2026-10-17T09:00:00.000Z`. */
export function filtersText(d: FilterDescription | Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(d)) {
    for (const x of Array.isArray(v) ? v : [v]) parts.push(`--${k} ${String(x)}`);
  }
  return parts.join(' ');
}
