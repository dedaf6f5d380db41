// The report filters (--session, --method, --tool, --outcome, --code, --since, --until), applied before the report is built.
import type { AttemptRow } from './report/summary.js';
import type { Finding } from './findings/types.js';
import { isOutcome } from './outcomes.js';
import { isFindingCode } from './findings/types.js';
import { parseTimestamp } from './formats/time.js';

export interface FilterArgs {
  session?: string[];
  method?: string[];
  tool?: string[];
  outcome?: string[];
  code?: string[];
  since?: string;
  until?: string;
}

export interface Filter {
  attempt(row: AttemptRow): boolean;
  finding(f: Finding): boolean;
  /** The filters in force, for the report header. */
  describe(): Record<string, unknown>;
}

const list = (v: string[] | undefined) => (v ?? []).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);

/** A time given as ISO 8601 / epoch, or as a duration before `now` such as 15m, 2h, 1d, 30s. */
export function parseWhen(text: string, now: number): number | undefined {
  const rel = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/.exec(text.trim());
  if (rel) {
    const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
    return now - Number(rel[1]) * unit;
  }
  return parseTimestamp(text);
}

export function buildFilter(args: FilterArgs, now = Date.now()): Filter | string {
  const sessions = list(args.session);
  const methods = list(args.method);
  const tools = list(args.tool);
  const outcomes = list(args.outcome).map((o) => o.toUpperCase());
  const codes = list(args.code).map((c) => c.toUpperCase());
  for (const o of outcomes) if (!isOutcome(o)) return `--outcome: "${o}" is not an outcome`;
  for (const c of codes) if (!isFindingCode(c)) return `--code: "${c}" is not a finding code`;
  const since = args.since !== undefined ? parseWhen(args.since, now) : undefined;
  const until = args.until !== undefined ? parseWhen(args.until, now) : undefined;
  if (args.since !== undefined && since === undefined) return `--since: cannot read "${args.since}" as a time (ISO 8601, or 15m / 2h / 1d)`;
  if (args.until !== undefined && until === undefined) return `--until: cannot read "${args.until}" as a time (ISO 8601, or 15m / 2h / 1d)`;
  const inSession = (s: string | null | undefined) => sessions.length === 0 || (s != null && sessions.some((p) => s.startsWith(p)));
  const described: Record<string, unknown> = {};
  if (sessions.length) described.session = sessions;
  if (methods.length) described.method = methods;
  if (tools.length) described.tool = tools;
  if (outcomes.length) described.outcome = outcomes;
  if (codes.length) described.code = codes;
  if (since !== undefined) described.since = new Date(since).toISOString();
  if (until !== undefined) described.until = new Date(until).toISOString();
  return {
    attempt(row) {
      if (!inSession(row.session)) return false;
      if (methods.length && !methods.includes(row.method)) return false;
      if (tools.length && (row.tool === null || !tools.includes(row.tool))) return false;
      if (outcomes.length && !outcomes.includes(row.outcome)) return false;
      if (codes.length && !row.findings.some((f) => codes.includes(f.code))) return false;
      if (since !== undefined || until !== undefined) {
        const t = row.ts ? Date.parse(row.ts) : undefined;
        if (t === undefined) return false;
        if (since !== undefined && t < since) return false;
        if (until !== undefined && t >= until) return false;
      }
      return true;
    },
    finding(f) {
      if (!inSession(f.session)) return false;
      if (codes.length && !codes.includes(f.code)) return false;
      if (methods.length || tools.length || outcomes.length) return false;
      return true;
    },
    describe: () => described,
  };
}
