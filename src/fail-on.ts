// --fail-on: parsing its list (outcomes, finding codes, a severity threshold), counting what matched, and the stderr line that says so.
import { isOutcome, OUTCOMES, type Outcome } from './outcomes.js';
import { FINDING_CODES, isFindingCode, SEVERITIES, type Severity } from './findings/types.js';
import { nearest } from './suggest.js';
import type { FailOnSummary } from './report/summary.js';

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
}

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
  readonly matches: FailOnMatches = { outcomes: new Map(), codes: new Map(), severities: { error: 0, warning: 0, info: 0 }, probes: 0 };

  constructor(private readonly failOn: FailOn) {}

  /** An attempt's outcome and findings; `probe`: a refused version probe the client fell back from (its outcome never matches). */
  attempt(outcome: Outcome, findings: readonly { code: string; severity: Severity }[], probe = false): void {
    if (this.failOn.outcomes.has(outcome)) {
      if (probe) this.matches.probes++;
      else bump(this.matches.outcomes, outcome);
    }
    for (const f of findings) this.finding(f);
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
    const probes = m.probes > 0 ? ` (not counted: ${m.probes} server/discover probe${m.probes === 1 ? '' : 's'} an older server refused before the client fell back to initialize)` : '';
    return `mcp-triage: --fail-on ${this.failOn.given.join(',')}: ${parts.join('; ')}${probes}`;
  }
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
