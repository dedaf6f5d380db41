// --fail-on: parsing its list (outcomes, finding codes, a severity threshold), counting what matched, and the stderr line that says so.
import { isOutcome, OUTCOMES, type Outcome } from './outcomes.js';
import { FINDING_CODES, isFindingCode, SEVERITIES, type Severity } from './findings/types.js';
import { nearest } from './suggest.js';
import type { FailOnSummary } from './report/summary.js';
import { redirectFollowed } from './findings/resends.js';
import { trimOldest } from './bounded.js';

/** error ⊃ warning ⊃ info: a severity given to --fail-on means that severity or worse. */
const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

interface FailOn {
  /** The conditions as given, normalized (outcomes and codes upper case, severities lower case), in order, once each. */
  given: string[];
  outcomes: Set<string>;
  codes: Set<string>;
  /** The least severe severity given: findings of it or worse match. Undefined when no severity was given. */
  severity?: Severity;
}

/** What matched among the reported attempts and findings. */
interface FailOnMatches {
  /** Attempts per outcome given. */
  outcomes: Map<string, number>;
  /** Findings per code given. */
  codes: Map<string, number>;
  /** Findings per severity, of those at the threshold or worse. */
  severities: Record<Severity, number>;
  /**
   * Attempts of an outcome given that were left out: server/discover probes an older server refused, after which the
   * client fell back to initialize (versionFallback), the version negotiation the spec expects, not a failure.
   */
  probes: number;
  /** Attempts of an outcome given that the reports count apart: redirects (3xx) their client followed, answers the log does not hold. */
  redirects: number;
  notLogged: number;
}

/** What FailOnCounter reads of an attempt row. */
interface FailOnRow {
  outcome: Outcome;
  findings: readonly { code: string; severity: Severity }[];
  status: number | null;
  call?: string;
  attempt?: number;
  versionFallback?: true;
  answerNotLogged?: true;
  retryOrigin?: { origin: string; how: string };
}

/** Redirect rows remembered until their follow-up (it comes at once). */
const REDIRECTS_KEPT = 4_096;

/** The --fail-on values (each a comma list) as conditions; a string is the usage error. */
export function parseFailOn(values: string[] | undefined): FailOn | string {
  const f: FailOn = { given: [], outcomes: new Set(), codes: new Set() };
  for (const v of (values ?? []).flatMap((x) => x.split(','))) {
    const t = v.trim();
    if (!t) continue;
    const up = t.toUpperCase();
    const low = t.toLowerCase();
    let name: string;
    if (isOutcome(up)) f.outcomes.add((name = up));
    else if (isFindingCode(up)) f.codes.add((name = up));
    else if ((SEVERITIES as string[]).includes(low)) {
      name = low;
      if (f.severity === undefined || RANK[low as Severity] > RANK[f.severity]) f.severity = low as Severity;
    } else {
      const near = nearest(t, [...OUTCOMES, ...FINDING_CODES, ...SEVERITIES]);
      return `--fail-on: "${t}" is not an outcome, a finding code or a severity (error, warning, info)${near ? `; did you mean ${near}?` : ''}`;
    }
    if (!f.given.includes(name)) f.given.push(name);
  }
  return f;
}

/** Counts what matches the conditions, attempt by attempt and finding by finding. */
export class FailOnCounter {
  readonly matches: FailOnMatches = { outcomes: new Map(), codes: new Map(), severities: { error: 0, warning: 0, info: 0 }, probes: 0, redirects: 0, notLogged: 0 };
  /** Matched redirect rows by call#attempt, until their client follows them (then they are a hop of the call, not counted). */
  private redirects = new Map<string, Outcome>();

  constructor(private readonly failOn: FailOn) {}

  /**
   * A reported attempt: its outcome (never a refused version probe the client fell back from, nor an answer the log
   * does not hold, nor a redirect once its client follows it: the reports count those apart) and its findings.
   */
  attempt(row: FailOnRow): void {
    this.followUp(row);
    const outcome = row.outcome;
    if (this.failOn.outcomes.has(outcome)) {
      if (row.versionFallback) this.matches.probes++;
      else if (row.answerNotLogged) this.matches.notLogged++;
      else {
        bump(this.matches.outcomes, outcome);
        if (row.call !== undefined && row.status !== null && row.status >= 300 && row.status < 400) {
          this.redirects.set(`${row.call}#${row.attempt ?? 1}`, outcome);
          trimOldest(this.redirects, REDIRECTS_KEPT);
        }
      }
    }
    for (const f of row.findings) this.finding(f);
  }

  /** An attempt the filters left out: only whether it followed a reported redirect matters. */
  dropped(row: FailOnRow): void {
    this.followUp(row);
  }

  private followUp(row: FailOnRow): void {
    if (this.redirects.size === 0 || row.call === undefined || !redirectFollowed(row)) return;
    const k = `${row.call}#${(row.attempt ?? 1) - 1}`;
    const outcome = this.redirects.get(k);
    if (outcome === undefined) return;
    this.redirects.delete(k);
    const n = (this.matches.outcomes.get(outcome) ?? 0) - 1;
    if (n > 0) this.matches.outcomes.set(outcome, n);
    else this.matches.outcomes.delete(outcome);
    this.matches.redirects++;
  }

  finding(f: { code: string; severity: Severity }): void {
    if (this.failOn.codes.has(f.code)) bump(this.matches.codes, f.code);
    if (this.failOn.severity !== undefined && RANK[f.severity] <= RANK[this.failOn.severity]) this.matches.severities[f.severity]++;
  }

  /** Whether --fail-on gave any condition. */
  get active(): boolean {
    return this.failOn.given.length > 0;
  }

  get failed(): boolean {
    const m = this.matches;
    return m.outcomes.size > 0 || m.codes.size > 0 || SEVERITIES.some((s) => m.severities[s] > 0);
  }

  /** The summary's `failOn` field (JSON and ndjson). */
  summary(): FailOnSummary {
    const m = this.matches;
    return {
      conditions: this.failOn.given,
      failed: this.failed,
      outcomes: Object.fromEntries(m.outcomes),
      codes: Object.fromEntries(m.codes),
      severities: Object.fromEntries(SEVERITIES.filter((s) => m.severities[s] > 0).map((s) => [s, m.severities[s]])),
      ...(m.probes + m.redirects + m.notLogged > 0 ? {
        notCounted: {
          ...(m.probes > 0 ? { versionFallbacks: m.probes } : {}),
          ...(m.redirects > 0 ? { redirectsFollowed: m.redirects } : {}),
          ...(m.notLogged > 0 ? { answersNotLogged: m.notLogged } : {}),
        },
      } : {}),
    };
  }

  /** `mcp-triage: --fail-on warning,HTTP_ERROR: 1 error, 2 warning findings; 3 HTTP_ERROR attempts` (no newline). */
  line(): string {
    const m = this.matches;
    const parts: string[] = [];
    const bySeverity = SEVERITIES.filter((s) => m.severities[s] > 0);
    if (bySeverity.length) {
      const n = bySeverity.reduce((sum, s) => sum + m.severities[s], 0);
      parts.push(`${bySeverity.map((s) => `${m.severities[s]} ${s}`).join(', ')} finding${n === 1 ? '' : 's'}`);
    }
    for (const [code, n] of m.codes) parts.push(`${n} ${code} finding${n === 1 ? '' : 's'}`);
    for (const [outcome, n] of m.outcomes) parts.push(`${n} ${outcome} attempt${n === 1 ? '' : 's'}`);
    return `mcp-triage: --fail-on ${this.failOn.given.join(',')}: ${parts.join('; ')}${notCountedText(m)}`;
  }
}

/** ` (not counted: 3 redirects (HTTP 3xx) the client followed, ...)`: the matching attempts the reports count apart, or ''. */
function notCountedText(m: FailOnMatches): string {
  const parts = [
    ...(m.probes > 0 ? [`${m.probes} server/discover probe${m.probes === 1 ? '' : 's'} an older server refused before the client fell back to initialize`] : []),
    ...(m.redirects > 0 ? [`${m.redirects} redirect${m.redirects === 1 ? '' : 's'} (HTTP 3xx) the client followed, a hop of ${m.redirects === 1 ? 'its call' : 'their calls'}`] : []),
    ...(m.notLogged > 0 ? [`${m.notLogged} answer${m.notLogged === 1 ? '' : 's'} the log does not hold (UNANSWERED, ${m.notLogged === 1 ? 'its' : 'their'} outcome not known)`] : []),
  ];
  return parts.length ? ` (not counted: ${parts.join('; ')})` : '';
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
