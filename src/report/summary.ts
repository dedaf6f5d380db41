// Folding attempts, findings and the input account into the report model every renderer reads; the JSON shape of an attempt.
import type { Attempt } from '../join/match.js';
import type { Finding, Severity } from '../findings/types.js';
import type { RunResult } from '../analyze.js';
import type { InputAccount } from '../ingest.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Source } from '../join/attempt.js';
import { OUTCOMES, type Layer, type Outcome } from '../outcomes.js';
import { redactText, redactValue } from '../redact.js';
import { boundDepth } from './text.js';
import { isoTime } from '../formats/time.js';

/** One attempt as every output shows it (the ndjson `attempt` line without its `type`). */
export interface AttemptRow {
  session: string | null;
  id: string | number;
  /** Exact text of a numeric id beyond 2^53 (the JSON writers print it unquoted). */
  idText?: string;
  method: string;
  tool: string | null;
  side?: string;
  status: number | null;
  outcome: Outcome;
  layer: Layer;
  serverOutcome?: Outcome;
  claim?: { outcome?: string; retryOrigin?: string; postCount?: number; httpStatuses?: number[]; errorCode?: number | null; source: Source };
  call?: string;
  attempt?: number;
  /** The attempt continues its call after INPUT_REQUIRED (an MRTR follow-up): not a retry. */
  continuation?: true;
  retryOrigin?: { origin: string; how: string };
  findings: { code: string; severity: Severity; message: string }[];
  sources: Source[];
  ts?: string;
  durationMs?: number;
  detail?: { errorCode?: number; errorMessage?: string; errorData?: unknown; why?: string };
  notSeenByServer?: true;
  resumed?: true;
  weakId?: true;
  sse?: { events: number; progress: number; serverRequests: number; end?: string };
  cancelled?: true;
  /** The connection or client key that stands in for a missing session id (only when session is null). */
  scope?: string;
  /** Who sent the request, as the log names the client (a canonical record's `client`), when it does. */
  client?: string;
  /** MCP protocol version: the one an initialize result settled on, else the request's MCP-Protocol-Version header. */
  protocolVersion?: string;
  /** HTTP status in the server's own view, when both sides were logged (next to serverOutcome). */
  serverStatus?: number | null;
  /** What an initialize exchange announced: client and server names and versions, the version asked for. */
  initialize?: { clientInfo?: string; serverInfo?: string; requestedVersion?: string; userAgent?: string };
}

export interface Summary {
  version: 1;
  tool: string;
  redaction: boolean;
  filters: Record<string, unknown>;
  attempts: number;
  calls: number;
  retries: number;
  byOutcome: Partial<Record<Outcome, number>>;
  byLayer: Partial<Record<Layer, number>>;
  byMethod: { method: string; tool: string | null; total: number; outcomes: Partial<Record<Outcome, number>> }[];
  findings: { total: number; bySeverity: Record<Severity, number>; byCode: Record<string, number> };
  claims: { total: number; matched: number; unmatched: Source[] };
  inputs: (Omit<InputAccount, 'limits'> & { accounted: boolean })[];
  lines: { read: number; used: number; blank: number; unusable: number };
  diagnostics: { total: number; byCode: Record<string, number>; first: Diagnostic[] };
  notes: string[];
}

const isoOf = isoTime;

/** The printable row of an attempt; log strings are redacted here when redaction is on. */
export function attemptRow(a: Attempt, redact: boolean): AttemptRow {
  const v = a.primary;
  const row: AttemptRow = {
    session: a.session,
    id: a.id,
    method: a.method,
    tool: a.tool,
    status: a.status ?? null,
    outcome: a.outcome,
    layer: a.layer,
    findings: a.findings.map((f) => ({ code: f.code, severity: f.severity, message: redact ? redactText(f.message) : f.message })),
    sources: sourcesOf(a),
  };
  if (a.idText !== undefined) row.idText = a.idText;
  if (a.side !== 'unknown') row.side = a.side;
  if (a.serverOutcome !== undefined) row.serverOutcome = a.serverOutcome;
  if (a.claim) {
    const c = a.claim.claim;
    row.claim = { source: a.claim.src };
    if (c.outcome !== undefined) row.claim.outcome = c.outcome;
    if (c.retryOrigin !== undefined) row.claim.retryOrigin = c.retryOrigin;
    if (c.postCount !== undefined) row.claim.postCount = c.postCount;
    if (c.httpStatuses !== undefined) row.claim.httpStatuses = c.httpStatuses;
    if (c.jsonrpc?.errorCode !== undefined) row.claim.errorCode = c.jsonrpc.errorCode;
  }
  if (a.call !== undefined) row.call = a.call;
  if (a.attempt !== undefined) row.attempt = a.attempt;
  if (a.continuation) row.continuation = true;
  if (a.retryOrigin) row.retryOrigin = a.retryOrigin;
  const ts = isoOf(a.startTs);
  if (ts) row.ts = ts;
  if (a.startTs !== undefined && a.endTs !== undefined && a.endTs >= a.startTs) row.durationMs = Math.round((a.endTs - a.startTs) * 1000) / 1000;
  const d = a.detail;
  if (d && (d.errorCode !== undefined || d.errorMessage !== undefined || d.why !== undefined || d.errorData !== undefined)) {
    row.detail = {};
    if (d.errorCode !== undefined) row.detail.errorCode = d.errorCode;
    if (d.errorMessage !== undefined) row.detail.errorMessage = redact ? redactText(d.errorMessage) : d.errorMessage;
    if (d.errorData !== undefined) {
      // error.data comes from the log and may nest deeper than JSON.stringify can go: bound it first.
      const data = boundDepth(d.errorData);
      row.detail.errorData = redact ? redactValue(data) : data;
    }
    if (d.why !== undefined) row.detail.why = redact ? redactText(d.why) : d.why;
  }
  if (a.notSeenByServer) row.notSeenByServer = true;
  if (v.resumed) row.resumed = true;
  if (v.weakId || a.client?.weakId || a.server?.weakId) row.weakId = true;
  if (v.sseEvents > 0 || v.progress > 0) {
    row.sse = { events: v.sseEvents, progress: v.progress, serverRequests: v.serverRequests };
    if (v.streamEnd) row.sse.end = v.streamEnd;
  }
  if ((a.client ?? v).cancelled) row.cancelled = true;
  addIdentity(row, a, redact);
  return row;
}

/** `name/version` of an initialize clientInfo or serverInfo object (log text, so untrusted and length-capped). */
function implementationName(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as { name?: unknown; version?: unknown };
  const name = typeof o.name === 'string' ? o.name.slice(0, 200) : undefined;
  const version = typeof o.version === 'string' ? o.version.slice(0, 100) : undefined;
  return name === undefined ? undefined : version === undefined ? name : `${name}/${version}`;
}

/** Session, client and protocol identity of an attempt (the sessions and timeline views read these). */
function addIdentity(row: AttemptRow, a: Attempt, redact: boolean): void {
  const clean = (s: string) => (redact ? redactText(s) : s);
  const views = [a.client, a.server, a.primary].filter((x): x is NonNullable<typeof x> => x !== undefined);
  if (a.session === null && a.primary.scope) row.scope = clean(a.primary.scope.slice(0, 300));
  const clientKey = views.find((x) => x.client)?.client;
  if (clientKey) row.client = clean(clientKey.slice(0, 300));
  if (a.client && a.server) row.serverStatus = a.server.status ?? null;
  const header = views.map((x) => x.requestHeaders?.get('mcp-protocol-version')).find((x) => x !== undefined);
  if (header) row.protocolVersion = clean(header.slice(0, 100));
  if (a.method !== 'initialize' && a.method !== 'server/discover') return;
  const init: NonNullable<AttemptRow['initialize']> = {};
  // What initialize announced: the view's `initialize` note (kept when the response is compacted away), else the response.
  type InitNote = { clientInfo?: unknown; requestedProtocolVersion?: unknown; serverInfo?: unknown; protocolVersion?: unknown };
  const notes = views.map((x) => (x as { initialize?: InitNote }).initialize).filter((x): x is InitNote => typeof x === 'object' && x !== null);
  const response = views.map((x) => x.response).find((x) => x !== undefined) as { result?: InitNote } | undefined;
  if (typeof response?.result === 'object' && response.result !== null) notes.push(response.result);
  const pick = (k: keyof InitNote) => notes.map((n) => n[k]).find((v) => v !== undefined);
  const clientInfo = implementationName(pick('clientInfo'));
  if (clientInfo) init.clientInfo = clean(clientInfo);
  const asked = pick('requestedProtocolVersion');
  if (typeof asked === 'string') init.requestedVersion = clean(asked.slice(0, 100));
  const serverInfo = implementationName(pick('serverInfo'));
  if (serverInfo) init.serverInfo = clean(serverInfo);
  const settled = pick('protocolVersion');
  if (typeof settled === 'string') row.protocolVersion = clean(settled.slice(0, 100));
  const ua = views.map((x) => x.requestHeaders?.get('user-agent')).find((x) => x !== undefined);
  if (ua) init.userAgent = clean(ua.slice(0, 200));
  if (Object.keys(init).length) row.initialize = init;
}

function sourcesOf(a: Attempt): Source[] {
  const out: Source[] = [];
  const seen = new Set<string>();
  for (const v of [a.client, a.server, ...a.others, a.primary]) {
    if (!v) continue;
    for (const s of v.sources) {
      const k = `${s.file}:${s.line}`;
      if (!seen.has(k)) {
        seen.add(k);
        out.push(s);
      }
    }
  }
  return out;
}

export interface BuilderOptions {
  redact: boolean;
  /** Keep every attempt row (markdown sequence diagrams, timelines); otherwise only the failed ones. */
  keepAll: boolean;
  /** At most this many rows are kept for the tables; the rest are only counted. */
  maxRows: number;
  toolName: string;
  filters: Record<string, unknown>;
  /**
   * How long after a call's last attempt ended another attempt of it may still be reported (log time, ms): calls idle
   * for longer are forgotten, so counting distinct calls takes memory for recent calls only (see callHorizonMs()).
   */
  callHorizonMs: number;
}

/** Counts everything as it streams by, keeping only what the human-readable reports print. */
export class SummaryBuilder {
  private byOutcome = new Map<Outcome, number>();
  private byLayer = new Map<Layer, number>();
  private byMethod = new Map<string, { method: string; tool: string | null; total: number; outcomes: Map<Outcome, number> }>();
  private severity: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  private codes = new Map<string, number>();
  /** Recent calls: call id -> when its latest reported attempt ended (ms), to count each call once. */
  private recentCalls = new Map<string, number>();
  private calls = 0;
  private latestMs = -Infinity;
  attempts = 0;
  retries = 0;
  claimsMatched = 0;
  /** Rows kept for the tables (failed attempts, or all with keepAll). */
  rows: AttemptRow[] = [];
  droppedRows = 0;
  /** Attempts that belong to a call with more than one attempt. */
  chains = new Map<string, AttemptRow[]>();
  sessionFindings: Finding[] = [];
  findingRows: { finding: { code: string; severity: Severity; message: string }; sources: Source[]; session: string | null; attempt?: AttemptRow }[] = [];

  constructor(readonly opts: BuilderOptions) {}

  attempt(row: AttemptRow): void {
    this.attempts++;
    this.byOutcome.set(row.outcome, (this.byOutcome.get(row.outcome) ?? 0) + 1);
    this.byLayer.set(row.layer, (this.byLayer.get(row.layer) ?? 0) + 1);
    const mk = `${row.method}\0${row.tool ?? ''}`;
    let m = this.byMethod.get(mk);
    if (!m) this.byMethod.set(mk, (m = { method: row.method, tool: row.tool, total: 0, outcomes: new Map() }));
    m.total++;
    m.outcomes.set(row.outcome, (m.outcomes.get(row.outcome) ?? 0) + 1);
    if (row.call !== undefined) this.countCall(row);
    if ((row.attempt ?? 1) > 1 && !row.continuation) this.retries++;
    if (row.claim) this.claimsMatched++;
    for (const f of row.findings) this.countFinding(f.code, f.severity);
    const failed = row.outcome !== 'TOOL_SUCCESS' && row.outcome !== 'SUCCESS' && row.outcome !== 'TASK_CREATED';
    if (row.continuation && !this.opts.keepAll) this.dropAnsweredInputRound(row);
    if (this.opts.keepAll || failed || row.findings.length > 0) {
      if (this.rows.length < this.opts.maxRows) this.rows.push(row);
      else this.droppedRows++;
    }
    for (const f of row.findings) if (this.findingRows.length < this.opts.maxRows) this.findingRows.push({ finding: f, sources: [], session: row.session, attempt: row });
    if (row.call !== undefined && this.chains.size < this.opts.maxRows) {
      const chain = this.chains.get(row.call);
      if (chain) chain.push(row);
      else if ((row.attempt ?? 1) === 1) this.chains.set(row.call, [row]);
    }
  }

  finding(f: Finding): void {
    this.countFinding(f.code, f.severity);
    const message = this.opts.redact ? redactText(f.message) : f.message;
    if (this.sessionFindings.length < this.opts.maxRows) this.sessionFindings.push({ ...f, message });
    if (this.findingRows.length < this.opts.maxRows) this.findingRows.push({ finding: { code: f.code, severity: f.severity, message }, sources: f.sources, session: f.session ?? null });
  }

  /**
   * An input_required round that its follow-up answered was a step of the call, not an attempt that did not
   * succeed: its row leaves the table (the last rows are searched; a round and its follow-up are close in time).
   */
  private dropAnsweredInputRound(followUp: AttemptRow): void {
    const rows = this.rows;
    for (let i = rows.length - 1; i >= 0 && i >= rows.length - 64; i--) {
      const r = rows[i]!;
      if (r.call === followUp.call && r.attempt === (followUp.attempt ?? 1) - 1 && r.outcome === 'INPUT_REQUIRED' && r.findings.length === 0) {
        rows.splice(i, 1);
        return;
      }
    }
  }

  /** Count a call at its first reported attempt; forget calls that can get no more attempts (every 4096 new calls). */
  private countCall(row: AttemptRow): void {
    const call = row.call!;
    const start = row.ts !== undefined ? Date.parse(row.ts) : NaN;
    const end = Number.isNaN(start) ? this.latestMs : start + (row.durationMs ?? 0);
    const known = this.recentCalls.get(call);
    if (known === undefined) {
      this.calls++;
      if ((this.calls & 4095) === 0) this.forgetIdleCalls();
    }
    this.recentCalls.set(call, known === undefined || end > known ? end : known);
    if (end > this.latestMs) this.latestMs = end;
  }

  private forgetIdleCalls(): void {
    const before = this.latestMs - this.opts.callHorizonMs;
    for (const [call, end] of this.recentCalls) if (end < before) this.recentCalls.delete(call);
  }

  /** How many calls are remembered (for tests of bounded memory). */
  get callsHeld(): number {
    return this.recentCalls.size;
  }

  private countFinding(code: string, severity: Severity): void {
    this.severity[severity]++;
    this.codes.set(code, (this.codes.get(code) ?? 0) + 1);
  }

  /** Calls with more than one attempt (retries or continuations), in order. */
  retryChains(): AttemptRow[][] {
    return [...this.chains.values()].filter((c) => c.length > 1);
  }

  build(run: RunResult): Summary {
    const lines = { read: 0, used: 0, blank: 0, unusable: 0 };
    const inputs = run.accounts.map((acc) => {
      const { limits: _l, ...rest } = acc;
      lines.read += acc.lines;
      lines.used += acc.used;
      lines.blank += acc.blank;
      lines.unusable += acc.unusable;
      return { ...rest, accounted: acc.lines === acc.used + acc.blank + acc.unusable };
    });
    const byOutcome: Partial<Record<Outcome, number>> = {};
    for (const o of OUTCOMES) {
      const n = this.byOutcome.get(o);
      if (n) byOutcome[o] = n;
    }
    return {
      version: 1,
      tool: this.opts.toolName,
      redaction: this.opts.redact,
      filters: this.opts.filters,
      attempts: this.attempts,
      calls: this.calls,
      retries: this.retries,
      byOutcome,
      byLayer: Object.fromEntries(this.byLayer),
      byMethod: [...this.byMethod.values()]
        .sort((a, b) => b.total - a.total || (a.method < b.method ? -1 : a.method > b.method ? 1 : 0)) // code-unit order: no locale, no ICU load
        .map((m) => ({ method: m.method, tool: m.tool, total: m.total, outcomes: Object.fromEntries(m.outcomes) })),
      findings: { total: this.severity.error + this.severity.warning + this.severity.info, bySeverity: { ...this.severity }, byCode: Object.fromEntries(this.codes) },
      claims: { total: run.claims, matched: this.claimsMatched, unmatched: run.unmatchedClaims },
      inputs,
      lines,
      // A diagnostic quotes the log (a HAR entry's URL, a record's keys): redacted like everything else printed.
      diagnostics: {
        total: run.diagnostics.total,
        byCode: Object.fromEntries(run.diagnostics.counts),
        first: this.opts.redact ? run.diagnostics.first.map((d) => ({ ...d, message: redactText(d.message) })) : run.diagnostics.first,
      },
      notes: run.notes,
    };
  }
}

/** Rows in time order (stable; rows without a time keep their place at the end). */
export function byTime(rows: AttemptRow[]): AttemptRow[] {
  return rows.map((r, i) => ({ r, i, t: r.ts ? Date.parse(r.ts) : Infinity })).sort((a, b) => a.t - b.t || a.i - b.i).map((x) => x.r);
}
