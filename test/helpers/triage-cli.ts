// Test helper: runs the built executable (dist/bin.cjs) with --format ndjson, as a user would, and splits its report into attempts, findings and the summary's line counts.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));

/** One run's report: the attempt lines, the finding lines (session level), the unusable line count, the exit code and the summary line. */
export interface CliRun<A, F> {
  attempts: A[];
  findings: F[];
  unusable: number;
  code: number | null;
  summary: Record<string, unknown>;
}

/** Runs `mcp-triage --format ndjson ARGS`; each test file types the lines with the fields it looks at. */
export function triageCli<A = Record<string, unknown>, F = Record<string, unknown>>(args: string[]): CliRun<A, F> {
  const p = spawnSync(process.execPath, [BIN, '--format', 'ndjson', ...args], { encoding: 'utf8', timeout: 30_000 });
  const lines = p.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const summary = lines.find((l) => l.type === 'summary') as { lines: { unusable: number } } | undefined;
  if (!summary) throw new Error(`mcp-triage ${args.join(' ')} wrote no summary (exit ${p.status}): ${p.stderr.slice(0, 500)}`);
  return {
    attempts: lines.filter((l) => l.type === 'attempt') as unknown as A[],
    findings: lines.filter((l) => l.type === 'finding') as unknown as F[],
    unusable: summary.lines.unusable,
    code: p.status,
    summary: summary as unknown as Record<string, unknown>,
  };
}

/** A folder of recordings (DIR/<scenario>/client.ndjson and server.ndjson): each scenario's two logs analyzed together, once. */
export function recordedPairs<A, F>(dir: string): (scenario: string) => CliRun<A, F> {
  const cache = new Map<string, CliRun<A, F>>();
  return (scenario) => {
    let run = cache.get(scenario);
    if (!run) {
      run = triageCli<A, F>(['--client', `${dir}${scenario}/client.ndjson`, '--server', `${dir}${scenario}/server.ndjson`]);
      cache.set(scenario, run);
    }
    return run;
  };
}

export type RecordingView = 'both' | 'client' | 'server';

/**
 * Runs the recordings of a folder (`<dir><scenario>/client.ndjson` and `server.ndjson`) with both logs (`--client`,
 * `--server`) or one, each scenario and view once per test file: later calls get the cached report.
 */
export function recordingRunner<A = Record<string, unknown>, F = Record<string, unknown>>(dir: string): (scenario: string, view?: RecordingView) => CliRun<A, F> {
  const cache = new Map<string, CliRun<A, F>>();
  return (scenario, view = 'both') => {
    const key = `${scenario}|${view}`;
    let r = cache.get(key);
    if (!r) {
      const f = (side: 'client' | 'server') => `${dir}${scenario}/${side}.ndjson`;
      r = triageCli<A, F>(view === 'both' ? ['--client', f('client'), '--server', f('server')] : [`--${view}`, f(view)]);
      cache.set(key, r);
    }
    return r;
  };
}

/** A finding inside an attempt line of the report, with the fields the agent recordings' tests read. */
export interface ReportFinding {
  code: string;
  severity: string;
  message: string;
}
/** An attempt line of the report, with the fields the agent recordings' tests read. */
export interface ReportAttempt {
  type: 'attempt';
  session: string | null;
  id: string | number;
  method: string;
  tool: string | null;
  status: number | null;
  outcome: string;
  layer?: string;
  serverOutcome?: string;
  call: string;
  attempt: number;
  retryOrigin?: { origin: string; how: string };
  findings: ReportFinding[];
  cancelled?: boolean;
  detail?: { why?: string; errorCode?: number };
  initialize?: { clientInfo?: string };
}
/** A session-level finding line of the report. */
export interface ReportSessionFinding {
  type: 'finding';
  session: string | null;
  code: string;
  severity: string;
  message: string;
}
export type AgentRun = CliRun<ReportAttempt, ReportSessionFinding>;

/**
 * An agent CLI's recordings (DIR/<scenario>/, both sides of its MCP wire): each scenario analyzed once, the last
 * attempt of each logical tools/call in order (what the caller finally got), and those as "tool OUTCOME".
 */
export function agentRecordings(dir: string) {
  const finals = (r: AgentRun) => {
    const last = new Map<string, ReportAttempt>();
    for (const a of r.attempts) if (a.method === 'tools/call') last.set(a.call, a);
    return [...last.values()];
  };
  return { both: recordedPairs<ReportAttempt, ReportSessionFinding>(dir), finals, outcomes: (r: AgentRun) => finals(r).map((a) => `${a.tool} ${a.outcome}`) };
}
