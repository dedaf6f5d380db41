// Folding attempts, findings and the input account into the report model every renderer reads; the JSON shape of an attempt.
import type { Attempt } from '../join/match.js';
import type { Finding, RefusedMessage, Severity } from '../findings/types.js';
import type { RunResult } from '../analyze.js';
import type { InputAccount } from '../ingest.js';
import type { Diagnostic } from '../diagnostics.js';
import type { AttemptView, Source } from '../join/attempt.js';
import { OUTCOMES, type Layer, type Outcome } from '../outcomes.js';
import { doneAt } from '../findings/rules.js';
import { httpClientResend, redirectFollowed } from '../findings/resends.js';
import { redactEndpoint, redactText, redactValue } from '../redact.js';
import { boundValue, capString, jsonText, plural } from './text.js';
import { isoTime } from '../formats/time.js';
import { TopRows } from './top.js';
import { trimOldest } from '../bounded.js';

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
  /** What a request of another feature acts on: resources/read's uri, prompts/get's prompt name, completion/complete's ref. */
  target?: string;
  outcome: Outcome;
  layer: Layer;
  serverOutcome?: Outcome;
  claim?: { outcome?: string; retryOrigin?: string; postCount?: number; httpStatuses?: number[]; errorCode?: number | null; status?: number; message?: string; only?: true; source: Source };
  call?: string;
  attempt?: number;
  /** The attempt continues its call after INPUT_REQUIRED (an MRTR follow-up): not a retry. */
  continuation?: true;
  /** A server/discover probe an older server refused, after which the client fell back to initialize: not listed among the attempts that did not succeed. */
  versionFallback?: true;
  /**
   * UNANSWERED only because the log does not hold the answer's body (the Python SDK client's DEBUG log: a 2xx JSON body
   * read to its end): answered, its outcome not known. Neither failed nor succeeded in the counts.
   */
  answerNotLogged?: true;
  retryOrigin?: { origin: string; how: string };
  findings: { code: string; severity: Severity; message: string }[];
  sources: Source[];
  ts?: string;
  durationMs?: number;
  detail?: { errorCode?: number; errorMessage?: string; errorData?: unknown; why?: string };
  notSeenByServer?: true;
  resumed?: true;
  weakId?: true;
  sse?: { events: number; resumedEvents?: number; progress: number; serverRequests: number; end?: string };
  cancelled?: true;
  /** The connection or client key that stands in for a missing session id (only when session is null). */
  scope?: string;
  /** The URL (without its query) a request without a session id was sent to, when its log has it (redacted as every URL). */
  endpoint?: string;
  /** Who sent the request, as the log names the client (a canonical record's `client`), when it does. */
  client?: string;
  /** MCP protocol version: the one an initialize result settled on, else the request's MCP-Protocol-Version header. */
  protocolVersion?: string;
  /** HTTP status in the server's own view, when both sides were logged (next to serverOutcome). */
  serverStatus?: number | null;
  /** The server's id of the attempt's session, when it is another than the client's `session` (a gateway rewrote it). */
  serverSession?: string;
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
  /**
   * Attempts byOutcome counts under their outcome that the reports count neither as failed nor as succeeded (only when
   * there are any): redirects (HTTP_ERROR, 3xx) the client's HTTP library followed, a hop of their call; answers
   * (UNANSWERED) whose body the log does not hold, their outcome not known.
   */
  countedApart?: { redirectsFollowed?: number; answersNotLogged?: number };
  /**
   * Only when filters are in force: the attempts they left out (attempts counts the rest) and the session findings
   * they left out (an attempt's own findings go with it).
   */
  filteredOut?: { attempts: number; findings: number };
  byLayer: Partial<Record<Layer, number>>;
  byMethod: { method: string; tool: string | null; total: number; outcomes: Partial<Record<Outcome, number>> }[];
  findings: { total: number; bySeverity: Record<Severity, number>; byCode: Record<string, number> };
  /** matched: joined to a call on the wire; alone: calls of their own (an id-less claim no call on the wire took). */
  claims: { total: number; matched: number; alone: number; unmatched: Source[] };
  inputs: (Omit<InputAccount, 'limits'> & { accounted: boolean })[];
  /** skipped: well-formed lines that carry no MCP traffic (not problems); read = used + blank + skipped + unusable. */
  lines: { read: number; used: number; blank: number; skipped: number; unusable: number };
  diagnostics: { total: number; byCode: Record<string, number>; first: Diagnostic[] };
  notes: string[];
  /** The CLI's --fail-on, when given: its conditions, whether they matched (exit 1), and the non-zero counts of what did. */
  failOn?: FailOnSummary;
}

export interface FailOnSummary {
  conditions: string[];
  failed: boolean;
  /** Attempts per outcome given. */
  outcomes: Record<string, number>;
  /** Findings per code given. */
  codes: Record<string, number>;
  /** Findings per severity, of those at the severity given or worse. */
  severities: Partial<Record<Severity, number>>;
  /**
   * Only when there are any: attempts of an outcome given that did not count, as the reports count them apart: refused
   * server/discover probes the client fell back from, redirects its client followed, answers the log does not hold.
   */
  notCounted?: { versionFallbacks?: number; redirectsFollowed?: number; answersNotLogged?: number };
}

const isoOf = isoTime;

/**
 * What the client claimed, for the claimed column: its outcome and, for a claim joined to a call on the wire, its own
 * words (Claude Code's "timed out after 3s"); a claim read alone has them in its why already.
 */
export function claimedText(c: AttemptRow['claim']): string {
  if (!c) return '';
  // The claim's own words in quotes, as text (each report's cell strips control sequences and escapes for Markdown).
  const said = c.message !== undefined && !c.only ? `"${c.message}"` : '';
  return c.outcome !== undefined && said ? `${c.outcome} ${said}` : c.outcome ?? said;
}

/** The rank of the "warning" log level (debug 0 … emergency 7): log messages from it up are named in an attempt's why. */
const LOG_WARNING = 3;

/** The printable row of an attempt; log strings are redacted here when redaction is on. */
export function attemptRow(a: Attempt, redact: boolean): AttemptRow {
  const v = a.primary;
  const row: AttemptRow = {
    session: a.session,
    id: a.id,
    // Names come from the log too: a key glued into one is redacted like any other log string.
    method: redact ? redactText(a.method) : a.method,
    tool: redact && a.tool !== null ? redactText(a.tool) : a.tool,
    status: a.status ?? null,
    outcome: a.outcome,
    layer: a.layer,
    findings: a.findings.map((f) => ({ code: f.code, severity: f.severity, message: redact ? redactText(f.message) : f.message })),
    sources: sourcesOf(a),
  };
  if (a.idText !== undefined) row.idText = a.idText;
  const target = a.primary.target ?? a.client?.target ?? a.server?.target;
  if (target !== undefined) row.target = redact ? redactText(target) : target;
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
    if (c.status !== undefined) row.claim.status = c.status;
    // The client's own words (Claude Code's "failed after 3s: …", Gemini CLI's error), joined or alone.
    if (c.message !== undefined) row.claim.message = capString(redact ? redactText(c.message) : c.message);
    if (a.claimOnly) row.claim.only = true;
  }
  if (a.call !== undefined) row.call = a.call;
  if (a.attempt !== undefined) row.attempt = a.attempt;
  if (a.continuation) row.continuation = true;
  if (a.retryOrigin) row.retryOrigin = a.retryOrigin;
  const ts = isoOf(a.startTs);
  if (ts) row.ts = ts;
  if (a.startTs !== undefined && a.endTs !== undefined && a.endTs >= a.startTs) row.durationMs = Math.round((a.endTs - a.startTs) * 1000) / 1000;
  const done = doneAt(a);
  if (done !== undefined && a.startTs !== undefined && done !== a.endTs && done >= a.startTs) gaveUpAfter.set(row, Math.round((done - a.startTs) * 1000) / 1000);
  // A stream that ended without the response, cancelled later: the SDK kept the request pending until its timeout, and
  // RETRY_POLICY's delay runs from that cancellation when the retry came after it (the chain said +1143 ms beside a
  // RETRY_POLICY of 202 ms for the same retry: test/fixtures/real-audit87).
  const cancelled = (a.client ?? a.primary).cancelledAt;
  if (a.outcome === 'STREAM_INCOMPLETE' && cancelled !== undefined && done !== undefined && cancelled > done && a.startTs !== undefined) {
    cancelledAfter.set(row, Math.round((cancelled - a.startTs) * 1000) / 1000);
  }
  const d = a.detail;
  if (d && (d.errorCode !== undefined || d.errorMessage !== undefined || d.why !== undefined || d.errorData !== undefined)) {
    row.detail = {};
    if (d.errorCode !== undefined) row.detail.errorCode = d.errorCode;
    // Log strings are redacted before they are cut, so that no secret is cut in two and printed by halves.
    if (d.errorMessage !== undefined) row.detail.errorMessage = capString(redact ? redactText(d.errorMessage) : d.errorMessage);
    if (d.errorData !== undefined) {
      // error.data comes from the log and may nest deeper than JSON.stringify can go: bound its depth first.
      const data = boundValue(d.errorData, 64, Infinity);
      row.detail.errorData = boundValue(redact ? redactValue(data) : data);
    }
    if (d.why !== undefined) row.detail.why = capString(redact ? redactText(d.why) : d.why);
  }
  if (a.notSeenByServer) row.notSeenByServer = true;
  if (answerNotLogged(a)) row.answerNotLogged = true;
  if (a.primary.versionFallback || a.client?.versionFallback || a.server?.versionFallback) {
    row.versionFallback = true;
    const said = 'a version probe the server refused (it predates 2026-07-28); the client fell back to initialize, as the spec asks';
    row.detail ??= {};
    row.detail.why = row.detail.why !== undefined ? `${said}; ${row.detail.why}` : said;
  } else if (a.primary.fellBackAfterFailure || a.client?.fellBackAfterFailure || a.server?.fellBackAfterFailure) {
    const said = 'its client then sent initialize instead (the 2025-11-25 handshake): this was no refusal by a server older than 2026-07-28 (that answers 400, 404, 405 or a JSON-RPC error), so this failure, not the server, put the connection on the older protocol';
    row.detail ??= {};
    row.detail.why = row.detail.why !== undefined ? `${row.detail.why}; ${said}` : said;
  }
  // A ping is answered at once by a live peer: one that got no answer says more of the server than of the request.
  // (Only after a wait a live server would have answered in, and not when a DELETE of the session cut its stream.)
  const waited = done !== undefined && a.startTs !== undefined ? done - a.startTs : undefined;
  // An answer that came after the client gave up (STREAM_INCOMPLETE with the late outcome kept) shows a slow peer, not a dead one.
  const lateAt = (a.client ?? v).lateOutcome !== undefined ? (a.client ?? v).responseTs : undefined;
  if (a.method === 'ping' && (a.outcome === 'STREAM_INCOMPLETE' || a.outcome === 'NO_RESPONSE') && waited !== undefined && waited >= 100 && (a.client ?? v).sessionDeleted === undefined) {
    const said = lateAt !== undefined && a.startTs !== undefined && lateAt > a.startTs
      ? `a ping, which the receiver MUST answer promptly (the SDKs answer it without the application), was answered only ${((lateAt - a.startTs) / 1000).toFixed(2)} s after it was sent: the server, or a hop before it, was slow to respond`
      : `a ping, which the receiver MUST answer promptly (the SDKs answer it without the application), got no answer in ${(waited / 1000).toFixed(2)} s: the server, or a hop before it, was not responding, and the spec lets the sender take the connection as stale`;
    row.detail ??= {};
    row.detail.why = row.detail.why !== undefined ? `${row.detail.why}; ${said}` : said;
  }
  // The same ping answered after the client gave up on it (a stateless server, which cannot stop it, still sends the
  // answer): the peer was alive but slow, and the caller saw a timeout all the same.
  if (a.method === 'ping' && a.outcome === 'SUCCESS' && waited !== undefined && waited >= 100 && a.startTs !== undefined && a.endTs !== undefined && done !== a.endTs && a.endTs > done!) {
    const said = `a ping, which the receiver MUST answer promptly (the SDKs answer it without the application), was answered only ${((a.endTs - a.startTs) / 1000).toFixed(2)} s after it was sent, when the client had given up on it at ${(waited / 1000).toFixed(2)} s: the server, or a hop before it, was slow to respond, and the caller saw its ping fail`;
    row.detail ??= {};
    row.detail.why = row.detail.why !== undefined ? `${row.detail.why}; ${said}` : said;
  }
  // A server's warning or error log on the request's own stream is kept beside the outcome, which it does not change.
  const logs = v.logs ?? a.client?.logs ?? a.server?.logs;
  if (logs && logs.rank >= LOG_WARNING) {
    const clean = (t: string) => (redact ? redactText(t) : t);
    const which = logs.count === 1 ? `a message at level ${jsonText(logs.level)}` : `${logs.count} messages, the most severe at level ${jsonText(logs.level)}`;
    const logger = logs.logger !== undefined ? ` (logger ${jsonText(clean(logs.logger))})` : '';
    const where = logs.onGet ? `${logger} on the session's GET stream, naming no request, while this was the session's only request open` : ` on the request's stream${logger}`;
    const said = `the server logged ${which}${where}: ${jsonText(clean(logs.data))}; a log message is not the request's answer and does not decide its outcome${logs.undeclared ? '; the server\'s initialize had announced no logging capability, which a server that sends log messages MUST declare' : ''}`;
    row.detail ??= {};
    row.detail.why = row.detail.why !== undefined ? `${row.detail.why}; ${said}` : said;
  }
  if (v.resumed) row.resumed = true;
  if (v.weakId || a.client?.weakId || a.server?.weakId) row.weakId = true;
  const resumed = v.resumedEvents ?? 0;
  if (v.sseEvents > 0 || resumed > 0 || v.progress > 0) {
    // Every stream of the request, as progress counts: its own, then those of the GETs that resumed it.
    row.sse = { events: v.sseEvents + resumed, progress: v.progress, serverRequests: v.serverRequests };
    if (resumed > 0) row.sse.resumedEvents = resumed;
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

/** The redacted form of the endpoints seen last: a log's sessionless requests go to a few URLs, redacted once each. */
const REDACTED_ENDPOINTS_KEPT = 64;
const redactedEndpoints = new Map<string, string>();
function redactedEndpoint(url: string): string {
  let r = redactedEndpoints.get(url);
  if (r === undefined) {
    redactedEndpoints.set(url, (r = redactEndpoint(url)));
    trimOldest(redactedEndpoints, REDACTED_ENDPOINTS_KEPT);
  }
  return r;
}

/** Session, client and protocol identity of an attempt (the sessions and timeline views read these). */
function addIdentity(row: AttemptRow, a: Attempt, redact: boolean): void {
  const clean = (s: string) => (redact ? redactText(s) : s);
  const views = [a.client, a.server, a.primary].filter((x): x is NonNullable<typeof x> => x !== undefined);
  if (a.session === null && a.primary.scope) row.scope = clean(a.primary.scope.slice(0, 300));
  // (Two stateless servers of one client share a scope: the URL tells their rows apart.)
  const endpoint = a.session === null ? (a.client ?? a.primary).endpoint : undefined;
  if (endpoint !== undefined) row.endpoint = redact ? redactedEndpoint(endpoint) : endpoint;
  const clientKey = views.find((x) => x.client)?.client;
  if (clientKey) row.client = clean(clientKey.slice(0, 300));
  if (a.client && a.server) row.serverStatus = a.server.status ?? null;
  else if (a.serverUnread) row.serverStatus = a.serverUnread.status;
  if (a.serverSession !== undefined) row.serverSession = a.serverSession;
  let header: string | undefined;
  for (const x of views) if ((header = x.requestHeaders?.get('mcp-protocol-version')) !== undefined) break;
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
  // An attempt has a few sources: a scan of those kept is cheaper than a set of "file:line" strings.
  const out: Source[] = [];
  const add = (s: Source) => {
    for (const o of out) if (o.line === s.line && o.file === s.file) return;
    out.push(s);
  };
  const addAll = (v: AttemptView | undefined) => {
    if (v) for (const s of v.sources) add(s);
  };
  addAll(a.client);
  addAll(a.server);
  for (const v of a.others) addAll(v);
  addAll(a.primary);
  if (a.serverUnread) add(a.serverUnread.src);
  if (a.gatewayLine) add(a.gatewayLine.src);
  if (a.gatewayReason) add(a.gatewayReason.src);
  for (const l of a.serverLines ?? []) add(l.src);
  return out;
}

/** The attempt is UNANSWERED only because its log proves an answer came in a body it does not hold (classify.ts's "answered" why). */
function answerNotLogged(a: Attempt): boolean {
  if (a.outcome !== 'UNANSWERED') return false;
  const v = a.client ?? a.primary;
  return v.unloggedAnswer !== undefined && v.error === undefined && v.openAfterMs === undefined;
}

/** Outcomes the reports do not list among the attempts that did not succeed: completed, or a task accepted (its result comes with tasks/result). */
const succeeded = (o: Outcome): boolean => o === 'SUCCESS' || o === 'TOOL_SUCCESS' || o === 'TASK_CREATED';

/** Most attempts of one call the retry-chain table keeps (the rest are counted): a call retried for hours would grow without end. */
const MAX_CHAIN_STEPS = 20;

/** Most attempt rows kept, over all sessions, for the Markdown report's sequence diagrams (the rest are counted per session). */
const DIAGRAM_ROWS = 5000;
/** DUPLICATE_RECORD rows a session shows in the table and Markdown reports; the rest are counted on the last. */
const DUPLICATE_ROWS_SHOWN = 3;

/** One attempt of a call as the retry-chain table shows it: small, since calls are remembered while a retry may still come. */
interface ChainStep {
  attempt?: number;
  outcome: Outcome;
  status: number | null;
  ts?: string;
  durationMs?: number;
  /** When its caller gave up on it (its notifications/cancelled, or its close), ms after its start, when before its end. */
  doneMs?: number;
  /** Its notifications/cancelled after a stream that ended without the response, ms after its start: the caller gave up then, if the retry came after it. */
  cancelMs?: number;
  continuation?: true;
  retryOrigin?: { origin: string; how: string };
}

/**
 * When the caller gave up on an attempt (doneAt), ms after its start, for the rows whose caller gave up before the
 * attempt ended: kept beside the row, not in it (the machine outputs carry rows as they are), for the retry-chain
 * table's delays, which run from there as RETRY_POLICY's do.
 */
const gaveUpAfter = new WeakMap<AttemptRow, number>();
/** A STREAM_INCOMPLETE row's notifications/cancelled that came after its stream ended, ms after its start (ChainStep.cancelMs). */
const cancelledAfter = new WeakMap<AttemptRow, number>();

/** A call with more than one reported attempt. */
interface CallChain {
  call: string;
  method: string;
  tool: string | null;
  target?: string;
  /** Its first MAX_CHAIN_STEPS attempts. */
  steps: ChainStep[];
  /** How many attempts of it were reported (steps holds the first ones). */
  attempts: number;
  /** Start of its first reported attempt (ms; Infinity when untimed), and when it was first seen: the table's order. */
  startMs: number;
  seq: number;
}

/** A row of the findings table: an attempt's finding (with its attempt) or a session-level one. */
interface FindingRow {
  finding: { code: string; severity: Severity; message: string };
  sources: Source[];
  session: string | null;
  /** The connection or client key of a session-less attempt. */
  scope?: string;
  attempt?: AttemptRow;
}

/** The rows a table shows (at most --max-rows, in the table's order) and how many it has in all. */
interface TableRows<T> {
  rows: T[];
  total: number;
}

/** The attempts of one session (or session-less scope) for a sequence diagram. */
interface DiagramSession {
  session: string | null;
  scope?: string;
  rows: AttemptRow[];
  /** Attempts of it left out once DIAGRAM_ROWS rows were kept. */
  notDrawn: number;
  /** Its notifications (POSTs with no request in them) that the server refused, drawn among its attempts by time. */
  refused?: RefusedMessage[];
}

/** The key a session, or the connection/client/input key standing in for a missing session id, is grouped by (as the sessions view does). */
const scopeKey = (session: string | null, scope?: string): string => session ?? `\0${scope ?? ''}`;

/** How the views name a session: its id, else the key that stands in for it (`input#N` named by its file) and "no session id". */
export function scopeName(session: string | null, scope: string | undefined, inputs: { name: string }[]): string {
  if (session !== null) return session;
  if (!scope) return '(no session id)';
  const input = /^input#(\d+)$/.exec(scope);
  const file = input ? inputs[Number(input[1])]?.name : undefined;
  return `${scope} (no session id${file ? `; ${file}` : ''})`;
}

interface BuilderOptions {
  redact: boolean;
  /** Also keep the attempt rows of every session for the Markdown sequence diagrams (at most DIAGRAM_ROWS of them). */
  keepAll: boolean;
  /** Most rows each table keeps (attempts that did not succeed, findings, calls with several attempts); all are counted. */
  maxRows: number;
  /** False when no report will print the retry chains (JSON, NDJSON): no state is kept per call for them. */
  chains?: boolean;
  toolName: string;
  filters: Record<string, unknown>;
  /**
   * How long after a call's last attempt ended another attempt of it may still be reported (log time, ms): calls idle
   * for longer are forgotten, so counting distinct calls takes memory for recent calls only (see callHorizonMs()).
   */
  callHorizonMs: number;
}

/** What is remembered of a recent call: when its latest attempt ended (ms), how many it had, and (for the tables) its chain. */
interface CallState {
  end: number;
  attempts: number;
  chain?: CallChain;
}

interface Ranked<T> {
  item: T;
  key: number;
  seq: number;
}

const rankedBefore = <T>(a: Ranked<T>, b: Ranked<T>) => a.key < b.key || (a.key === b.key && a.seq < b.seq);
const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const startOf = (row: { ts?: string }) => {
  const t = row.ts !== undefined ? Date.parse(row.ts) : NaN;
  return Number.isNaN(t) ? Infinity : t;
};

/**
 * Counts everything as it streams by and keeps, for each table of the human-readable reports, only the rows it
 * prints: the first maxRows in the table's own order (attempts that did not succeed and calls with several attempts
 * in time order, findings errors first), in bounded heaps; every other row is only counted.
 */
export class SummaryBuilder {
  private byOutcome = new Map<Outcome, number>();
  private byLayer = new Map<Layer, number>();
  private byMethod = new Map<string, { method: string; tool: string | null; total: number; outcomes: Map<Outcome, number> }>();
  private severity: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  private codes = new Map<string, number>();
  /** Recent calls: call id -> what is remembered of it, to count each call once and to build its chain. */
  private recentCalls = new Map<string, CallState>();
  private calls = 0;
  private latestMs = -Infinity;
  private seq = 0;
  private finished = false;
  attempts = 0;
  retries = 0;
  /** Refused server/discover probes their clients answered by falling back to initialize. */
  versionFallbacks = 0;
  /** Redirects (3xx) whose request the client's HTTP library sent to their Location at once (retry-origin.ts, redirectFollowUp). */
  redirectsFollowed = 0;
  /** Attempts answered in a body the log does not hold (AttemptRow.answerNotLogged). */
  answersNotLogged = 0;
  /**
   * Redirect (3xx) rows waiting to learn whether their client followed them (then they are a step of the call, not an
   * attempt that did not succeed): call#attempt -> the row. Released after the call horizon, as pendingRounds.
   */
  private pendingRedirects = new Map<string, { row: AttemptRow; end: number; seq: number }>();
  /** Redirect rows listed at once because --outcome named their outcome, by call#attempt, until their follow-up (the last REDIRECTS_KEPT). */
  private listedRedirects = new Set<string>();
  /** Attempts and session findings the filters left out. */
  filteredOut = 0;
  findingsFilteredOut = 0;
  /** Outcomes asked for with --outcome: a fallback probe of one of them is listed among the attempts that did not succeed. */
  private readonly probesAsked: ReadonlySet<string>;
  claimsMatched = 0;
  claimsAlone = 0;
  private readonly failed: TopRows<Ranked<AttemptRow>>;
  private readonly findingsTop: TopRows<Ranked<FindingRow>>;
  /** Each session's DUPLICATE_RECORD rows shown so far and the last of them; those beyond, counted on it. */
  private readonly duplicateRows = new Map<string, { shown: number; last: FindingRow }>();
  private readonly foldedDuplicates = new Map<FindingRow, number>();
  private readonly chainsTop: TopRows<Ranked<CallChain>>;
  /**
   * INPUT_REQUIRED rounds without findings, waiting to learn whether a follow-up answered them (then they were a step
   * of the call, not an attempt that did not succeed): call#attempt -> the round. Released after the call horizon.
   */
  private pendingRounds = new Map<string, { row: AttemptRow; end: number; seq: number }>();
  /** Markdown diagrams: attempt rows by session key (first seen first), rows left out per key, keys with an error or warning. */
  private diagramRows = new Map<string, AttemptRow[]>();
  private diagramHeld = 0;
  private notDrawn = new Map<string, number>();
  private flagged = new Set<string>();
  /** Evidence of session findings without a session id that raised an error or warning (placed once all rows are in). */
  private scopelessFlags: Source[][] = [];
  /** Notifications the server refused, for the diagrams (a session's, or placed by evidence as scopelessFlags). */
  private refusedMessages: { session: string | null; sources: Source[]; refused: RefusedMessage }[] = [];

  constructor(readonly opts: BuilderOptions) {
    const limit = Math.max(0, Math.floor(opts.maxRows));
    this.failed = new TopRows(limit, rankedBefore);
    this.findingsTop = new TopRows(limit, rankedBefore);
    this.chainsTop = new TopRows(opts.chains === false ? 0 : limit, rankedBefore);
    const asked = opts.filters.outcome;
    this.probesAsked = new Set(Array.isArray(asked) ? (asked as string[]) : []);
  }

  attempt(row: AttemptRow): void {
    const seq = this.seq++;
    this.attempts++;
    this.byOutcome.set(row.outcome, (this.byOutcome.get(row.outcome) ?? 0) + 1);
    this.byLayer.set(row.layer, (this.byLayer.get(row.layer) ?? 0) + 1);
    const mk = `${row.method}\0${row.tool ?? ''}`;
    let m = this.byMethod.get(mk);
    if (!m) this.byMethod.set(mk, (m = { method: row.method, tool: row.tool, total: 0, outcomes: new Map() }));
    m.total++;
    m.outcomes.set(row.outcome, (m.outcomes.get(row.outcome) ?? 0) + 1);
    if (row.call !== undefined) this.countCall(row, seq);
    // The HTTP client's own re-sends (to a redirect's Location, after a 421) are POSTs of the call, not retries.
    const resend = httpClientResend(row);
    if ((row.attempt ?? 1) > 1 && !row.continuation && !resend) this.retries++;
    if (row.claim?.only) this.claimsAlone++;
    else if (row.claim) this.claimsMatched++;
    for (const f of row.findings) {
      this.countFinding(f.code, f.severity);
      const fr: FindingRow = { finding: f, sources: [], session: row.session, attempt: row };
      if (row.scope !== undefined) fr.scope = row.scope;
      this.findingsTop.offer({ item: fr, key: SEVERITY_RANK[f.severity], seq: this.seq++ });
    }
    // The input_required round this follow-up answers was a step of the call, not an attempt that did not succeed.
    if (row.continuation && row.call !== undefined) this.pendingRounds.delete(`${row.call}#${(row.attempt ?? 1) - 1}`);
    this.followUp(row);
    if (row.versionFallback) this.versionFallbacks++;
    if (row.answerNotLogged) this.answersNotLogged++;
    // A fallback probe is not a failure; it is listed only when --outcome asked for its outcome (the user wants to see it).
    if (!succeeded(row.outcome) && (!row.versionFallback || this.probesAsked.has(row.outcome))) {
      if (row.outcome === 'INPUT_REQUIRED' && row.findings.length === 0 && row.call !== undefined) {
        this.pendingRounds.set(`${row.call}#${row.attempt ?? 1}`, { row, end: this.endOf(row), seq });
      } else if (isRedirect(row.status) && row.call !== undefined && !this.probesAsked.has(row.outcome)) {
        this.pendingRedirects.set(`${row.call}#${row.attempt ?? 1}`, { row, end: this.endOf(row), seq });
      } else if (isRedirect(row.status) && row.call !== undefined) {
        // Listed at once (--outcome named its outcome), and still counted apart once its client follows it.
        this.listedRedirects.add(`${row.call}#${row.attempt ?? 1}`);
        trimOldest(this.listedRedirects, REDIRECTS_KEPT);
        this.failed.offer({ item: row, key: startOf(row), seq });
      } else if (!(row.answerNotLogged && row.findings.length === 0 && !this.probesAsked.has(row.outcome))) {
        // An answer the log does not hold is not known to have failed: listed only with a finding, or when --outcome asks.
        this.failed.offer({ item: row, key: startOf(row), seq });
      }
    }
    if (this.opts.keepAll) this.keepForDiagram(row);
  }

  /**
   * An attempt the filters left out: counted as such, and what it says of the kept ones (the request that followed a
   * kept redirect makes the redirect a hop of its call, whether or not that request passed the filters).
   */
  dropped(row: AttemptRow): void {
    this.filteredOut++;
    this.followUp(row);
    // The input_required round this follow-up answers was a step of the call (listed still when --outcome asks for it).
    if (row.continuation && row.call !== undefined && !this.probesAsked.has('INPUT_REQUIRED')) this.pendingRounds.delete(`${row.call}#${(row.attempt ?? 1) - 1}`);
  }

  /** A session finding the filters left out. */
  droppedFinding(): void {
    this.findingsFilteredOut++;
  }

  /** A request its HTTP client sent to the Location of the call's previous attempt: that redirect was a hop, counted apart. */
  private followUp(row: AttemptRow): void {
    if (row.call === undefined || !redirectFollowed(row)) return;
    const k = `${row.call}#${(row.attempt ?? 1) - 1}`;
    if (this.pendingRedirects.delete(k) || this.listedRedirects.delete(k)) this.redirectsFollowed++;
  }

  finding(f: Finding): void {
    this.countFinding(f.code, f.severity);
    // A log whose rows all came twice has one DUPLICATE_RECORD per exchange: a session's first few are rows, the rest
    // are counted on the last of them (every one stays in the JSON and NDJSON reports).
    const dupKey = f.code === 'DUPLICATE_RECORD' ? `${f.session ?? ''}\0${f.group ?? ''}` : undefined;
    const dups = dupKey !== undefined ? this.duplicateRows.get(dupKey) : undefined;
    if (dups !== undefined && dups.shown >= DUPLICATE_ROWS_SHOWN) {
      this.foldedDuplicates.set(dups.last, (this.foldedDuplicates.get(dups.last) ?? 0) + 1);
      return;
    }
    const message = this.opts.redact ? redactText(f.message) : f.message;
    const item: FindingRow = { finding: { code: f.code, severity: f.severity, message }, sources: f.sources, session: f.session ?? null };
    // Traffic without a session id: the key its attempts are grouped by, for the tables' session column (as its attempts show it).
    if (item.session === null && f.group !== undefined) item.scope = f.group;
    if (dupKey !== undefined) this.duplicateRows.set(dupKey, { shown: (dups?.shown ?? 0) + 1, last: item });
    this.findingsTop.offer({ item, key: SEVERITY_RANK[f.severity], seq: this.seq++ });
    if (this.opts.keepAll && f.severity !== 'info') {
      if (f.session != null) this.flagged.add(scopeKey(f.session));
      else this.scopelessFlags.push(f.sources);
    }
    if (this.opts.keepAll && f.refused && this.refusedMessages.length < DIAGRAM_ROWS) {
      const refused = this.opts.redact ? { ...f.refused, what: redactText(f.refused.what) } : f.refused;
      this.refusedMessages.push({ session: f.session ?? null, sources: f.sources, refused });
    }
  }

  private keepForDiagram(row: AttemptRow): void {
    const key = scopeKey(row.session, row.scope);
    if (row.findings.some((f) => f.severity !== 'info')) this.flagged.add(key);
    const list = this.diagramRows.get(key);
    if (this.diagramHeld >= DIAGRAM_ROWS) {
      if (!list) this.diagramRows.set(key, []);
      this.notDrawn.set(key, (this.notDrawn.get(key) ?? 0) + 1);
      return;
    }
    this.diagramHeld++;
    if (list) list.push(row);
    else this.diagramRows.set(key, [row]);
  }

  private endOf(row: AttemptRow): number {
    const start = row.ts !== undefined ? Date.parse(row.ts) : NaN;
    return Number.isNaN(start) ? this.latestMs : start + (row.durationMs ?? 0);
  }

  /** Count a call at its first reported attempt and follow its chain; forget calls that can get no more attempts (every 4096 new calls). */
  private countCall(row: AttemptRow, seq: number): void {
    const call = row.call!;
    const end = this.endOf(row);
    const known = this.recentCalls.get(call);
    // The linker numbers each call's attempts: its first is a new call. Only a report that prints retry chains keeps a
    // state per call (a machine-readable one counts calls by their first attempts and keeps none).
    const first = row.attempt !== undefined ? row.attempt <= 1 && known === undefined : known === undefined;
    if (first) {
      this.calls++;
      if ((this.calls & 4095) === 0) this.forgetIdleCalls();
      if (this.chainsTop.limit > 0 || row.attempt === undefined) {
        const state: CallState = { end, attempts: 1 };
        // The chain is only built when a table will print it (the library's counting builder keeps none).
        if (this.chainsTop.limit > 0) state.chain = { call, method: row.method, tool: row.tool, ...(row.target !== undefined ? { target: row.target } : {}), steps: [stepOf(row)], attempts: 1, startMs: startOf(row), seq };
        this.recentCalls.set(call, state);
      }
    } else if (known === undefined) {
      // A call whose state is not kept (or was forgotten) reaching its second attempt: one more call with several.
      if (row.attempt === 2) this.chainsTop.count();
    } else {
      known.attempts++;
      if (end > known.end) known.end = end;
      const chain = known.chain;
      if (chain) {
        chain.attempts++;
        if (chain.steps.length < MAX_CHAIN_STEPS) chain.steps.push(stepOf(row));
      }
    }
    if (end > this.latestMs) this.latestMs = end;
  }

  private forgetIdleCalls(): void {
    const before = this.latestMs - this.opts.callHorizonMs;
    this.recentCalls.forEach((s, call, calls) => {
      if (s.end < before) {
        calls.delete(call);
        this.closeCall(s);
      }
    });
    // A round no follow-up answered within the horizon did not succeed; nor did a redirect its client did not follow.
    for (const pending of [this.pendingRounds, this.pendingRedirects]) {
      for (const [k, p] of pending) {
        if (p.end < before) {
          pending.delete(k);
          this.failed.offer({ item: p.row, key: startOf(p.row), seq: p.seq });
        }
      }
    }
  }

  /** A call that can get no more attempts: a chain when it had more than one. */
  private closeCall(s: CallState): void {
    if (s.attempts < 2) return;
    if (s.chain) this.chainsTop.offer({ item: s.chain, key: s.chain.startMs, seq: s.chain.seq });
    else this.chainsTop.count();
  }

  /** The stream has ended: every remembered call and waiting round is settled. The table accessors call it. */
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    for (const s of this.recentCalls.values()) this.closeCall(s);
    this.recentCalls.clear();
    for (const p of [...this.pendingRounds.values(), ...this.pendingRedirects.values()]) this.failed.offer({ item: p.row, key: startOf(p.row), seq: p.seq });
    this.pendingRounds.clear();
    this.pendingRedirects.clear();
  }

  /** How many calls are remembered (for tests of bounded memory). */
  get callsHeld(): number {
    return this.recentCalls.size;
  }

  private countFinding(code: string, severity: Severity): void {
    this.severity[severity]++;
    this.codes.set(code, (this.codes.get(code) ?? 0) + 1);
  }

  /**
   * The attempts that did not succeed (any outcome but SUCCESS, TOOL_SUCCESS and TASK_CREATED, less the
   * INPUT_REQUIRED rounds a follow-up answered): the first maxRows in time order, and how many there are. Call after
   * the last attempt.
   */
  failedTable(): TableRows<AttemptRow> {
    this.finish();
    return { rows: this.failed.sorted().map((r) => r.item), total: this.failed.total };
  }

  /** Attempt and session findings, errors first (then in the order they were raised): the first maxRows, and how many of each severity there are. */
  findingTable(): TableRows<FindingRow> & { bySeverity: Record<Severity, number> } {
    this.finish();
    const folded = (r: FindingRow): FindingRow => {
      const more = this.foldedDuplicates.get(r);
      return more === undefined ? r : { ...r, finding: { ...r.finding, message: `${r.finding.message}; and ${plural(more, 'more identical record')} of this session, each counted once (each listed in --format json)` } };
    };
    return { rows: this.findingsTop.sorted().map((r) => folded(r.item)), total: this.findingsTop.total, bySeverity: { ...this.severity } };
  }

  /** Calls with more than one reported attempt (retries or continuations), in the order they started: the first maxRows, and how many there are. */
  chainTable(): TableRows<CallChain> {
    this.finish();
    return { rows: this.chainsTop.sorted().map((r) => r.item), total: this.chainsTop.total };
  }

  /** The sessions (or session-less scopes) with an error or warning finding, in the order they started (as the sessions view lists them), with their kept rows. */
  diagramSessions(): DiagramSession[] {
    this.finish();
    const flagged = new Set(this.flagged);
    for (const sources of this.scopelessFlags) {
      const key = this.scopelessKeyOf(sources);
      if (key !== undefined) flagged.add(key);
    }
    const refused = new Map<string, RefusedMessage[]>();
    for (const r of this.refusedMessages) {
      const key = r.session !== null ? scopeKey(r.session) : this.scopelessKeyOf(r.sources);
      if (key === undefined) continue;
      const list = refused.get(key);
      if (list) list.push(r.refused);
      else refused.set(key, [r.refused]);
    }
    const out: DiagramSession[] = [];
    for (const key of new Set([...this.diagramRows.keys(), ...refused.keys()])) {
      if (!flagged.has(key)) continue;
      const rows = this.diagramRows.get(key) ?? [];
      const first = rows[0];
      const d: DiagramSession = { session: key.startsWith('\0') ? null : key, rows, notDrawn: this.notDrawn.get(key) ?? 0 };
      if (key.startsWith('\0')) d.scope = first?.scope ?? key.slice(1);
      if (refused.has(key)) d.refused = refused.get(key)!;
      out.push(d);
    }
    const first = (d: DiagramSession) => Math.min(...d.rows.map(startOf));
    return out.map((d, i) => ({ d, i, t: first(d) })).sort((a, b) => a.t - b.t || a.i - b.i).map((x) => x.d);
  }

  /** The session-less scope whose attempts' lines hold (or lie nearest to) a finding's evidence. */
  private scopelessKeyOf(sources: Source[]): string | undefined {
    let best: string | undefined;
    let bestDistance = Infinity;
    for (const src of sources) {
      for (const [key, rows] of this.diagramRows) {
        if (!key.startsWith('\0')) continue;
        for (const r of rows) {
          for (const s of r.sources) {
            if (s.file !== src.file) continue;
            const d = Math.abs(s.line - src.line);
            if (d < bestDistance) {
              bestDistance = d;
              best = key;
            }
          }
        }
      }
    }
    return best;
  }

  build(run: RunResult): Summary {
    const lines = { read: 0, used: 0, blank: 0, skipped: 0, unusable: 0 };
    const inputs = run.accounts.map((acc) => {
      const { limits: _l, ...rest } = acc;
      lines.read += acc.lines;
      lines.used += acc.used;
      lines.blank += acc.blank;
      lines.skipped += acc.skipped;
      lines.unusable += acc.unusable;
      return { ...rest, accounted: acc.lines === acc.used + acc.blank + acc.skipped + acc.unusable };
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
      ...(Object.keys(this.opts.filters).length > 0 ? { filteredOut: { attempts: this.filteredOut, findings: this.findingsFilteredOut } } : {}),
      ...(this.redirectsFollowed > 0 || this.answersNotLogged > 0 ? {
        countedApart: {
          ...(this.redirectsFollowed > 0 ? { redirectsFollowed: this.redirectsFollowed } : {}),
          ...(this.answersNotLogged > 0 ? { answersNotLogged: this.answersNotLogged } : {}),
        },
      } : {}),
      byLayer: Object.fromEntries(this.byLayer),
      byMethod: [...this.byMethod.values()]
        .sort((a, b) => b.total - a.total || (a.method < b.method ? -1 : a.method > b.method ? 1 : 0)) // code-unit order: no locale, no ICU load
        .map((m) => ({ method: m.method, tool: m.tool, total: m.total, outcomes: Object.fromEntries(m.outcomes) })),
      findings: { total: this.severity.error + this.severity.warning + this.severity.info, bySeverity: { ...this.severity }, byCode: Object.fromEntries(this.codes) },
      claims: { total: run.claims, matched: this.claimsMatched, alone: this.claimsAlone, unmatched: run.unmatchedClaims },
      inputs,
      lines,
      // A diagnostic quotes the log (a HAR entry's URL, a record's keys): redacted like everything else printed.
      diagnostics: {
        total: run.diagnostics.total,
        byCode: Object.fromEntries(run.diagnostics.counts),
        first: this.opts.redact ? run.diagnostics.first.map((d) => ({ ...d, message: redactText(d.message) })) : run.diagnostics.first,
      },
      notes: [
        ...run.notes,
        ...(this.versionFallbacks > 0 ? [`${this.versionFallbacks === 1 ? '1 server/discover probe was refused by a server older than 2026-07-28 and its client' : `${this.versionFallbacks} server/discover probes were refused by a server older than 2026-07-28 and their clients`} fell back to initialize, as the spec's version negotiation expects: counted under their outcome, not as failures: not listed among the attempts that did not succeed unless --outcome names their outcome`] : []),
        ...(this.redirectsFollowed > 0 ? [`${this.redirectsFollowed === 1 ? '1 redirect (HTTP 3xx) was' : `${this.redirectsFollowed} redirects (HTTP 3xx) were`} followed at once by the client's HTTP library, which sent the same request to the Location: each is an attempt of its call (HTTP_ERROR, its status not 2xx) and the request sent there the next (origin sdk), a hop of one call, not a retry of the application's nor a failure: not counted among the retries, nor listed among the attempts that did not succeed unless --outcome names their outcome`] : []),
        ...(this.answersNotLogged > 0 ? [`${this.answersNotLogged === 1 ? '1 attempt was answered in a body the log does not hold: it is' : `${this.answersNotLogged} attempts were answered in bodies the log does not hold: they are`} counted under UNANSWERED (their why begins "answered"), neither failed nor succeeded, since the log cannot say which: not listed among the attempts that did not succeed unless they raised a finding or --outcome names UNANSWERED; the server's log or a capture of the same calls says what they got`] : []),
      ],
    };
  }
}

/** The headline's counts of the attempts counted apart (`3 redirects followed`, `5 answers not logged`). */
export function apartCounts(summary: Summary): string[] {
  const a = summary.countedApart;
  return [
    ...(a?.redirectsFollowed ? [plural(a.redirectsFollowed, 'redirect') + ' followed'] : []),
    ...(a?.answersNotLogged ? [plural(a.answersNotLogged, 'answer') + ' not logged'] : []),
  ];
}

/**
 * What the filters left out, for the line that states them (`left out: 2 of 6 attempts, 1 session finding`), or ''
 * when no filter is in force.
 */
export function filteredOutText(summary: Pick<Summary, 'attempts' | 'filteredOut'>): string {
  const f = summary.filteredOut;
  if (f === undefined) return '';
  const findings = f.findings > 0 ? `, ${plural(f.findings, 'session finding')}` : '';
  return `left out: ${f.attempts} of ${plural(summary.attempts + f.attempts, 'attempt')}${findings}`;
}

/** The line under the outcome table saying which of its counts are neither failed nor succeeded, or undefined. */
export function apartLine(summary: Summary): string | undefined {
  const a = summary.countedApart;
  const parts = [
    ...(a?.redirectsFollowed ? [`HTTP_ERROR counts ${plural(a.redirectsFollowed, 'redirect')} (HTTP 3xx) the client followed, a hop of ${a.redirectsFollowed === 1 ? 'its call' : 'their calls'}`] : []),
    ...(a?.answersNotLogged ? [`UNANSWERED counts ${plural(a.answersNotLogged, 'attempt')} answered in ${a.answersNotLogged === 1 ? 'a body' : 'bodies'} the log does not hold, ${a.answersNotLogged === 1 ? 'its' : 'their'} outcome not known`] : []),
  ];
  return parts.length ? `${parts.join('; ')}: counted neither as failed nor as succeeded.` : undefined;
}

/** Redirect rows remembered until their follow-up (it comes at once: a few per open call are plenty). */
const REDIRECTS_KEPT = 4_096;

/** A redirect's status (3xx). */
const isRedirect = (status: number | null): boolean => status !== null && status >= 300 && status < 400;

function stepOf(row: AttemptRow): ChainStep {
  const s: ChainStep = { outcome: row.outcome, status: row.status };
  if (row.attempt !== undefined) s.attempt = row.attempt;
  if (row.ts !== undefined) s.ts = row.ts;
  if (row.durationMs !== undefined) s.durationMs = row.durationMs;
  const done = gaveUpAfter.get(row);
  if (done !== undefined) s.doneMs = done;
  const cancel = cancelledAfter.get(row);
  if (cancel !== undefined) s.cancelMs = cancel;
  if (row.continuation) s.continuation = true;
  if (row.retryOrigin) s.retryOrigin = row.retryOrigin;
  return s;
}

/** Rows in time order (stable; rows without a time keep their place at the end). */
export function byTime(rows: AttemptRow[]): AttemptRow[] {
  return rows.map((r, i) => ({ r, i, t: r.ts ? Date.parse(r.ts) : Infinity })).sort((a, b) => a.t - b.t || a.i - b.i).map((x) => x.r);
}
