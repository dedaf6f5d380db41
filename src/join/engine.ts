// The side-local join: exchanges and messages in, one finished AttemptView per JSON-RPC request out, state released when final.
import { isMessageEvent, type ParsedSseEvent } from '../sse.js';
import { unreadBody } from '../classify.js';
import { PY_SSE_EVENT_LIMIT, PY_TIMEOUT_REASON, callerKey, scopeKeyOf, idKeyOf, newAttemptView, implementationName, isJsonRpcId, legacySessionOf, type AttemptView, type DeleteSent, type JsonRpcId, type PlainGet, type Resumption, type Source, type ViewSide } from './attempt.js';
import type { Note } from '../schema/record.js';
import { fingerprint, jsonDigest, signatureOf } from './fingerprint.js';
import { RECENT_TOKEN_MS, SessionTracker, saysSessionUnknown, type RefusedPost, type RequestRef, type SessionState, type StrayProgress } from './sessions.js';
import { describeJsonError } from '../diagnostics.js';
import { jsonText } from '../report/text.js';
import { lateAnswerText } from '../classify.js';
import { trimOldest } from '../bounded.js';

interface RequestIn {
  input: number;
  ts: number | undefined;
  side: ViewSide;
  xid: string;
  session: string | null;
  conn: string | undefined;
  client: string | undefined;
  /** The URL (without its query) a request without a session id went to, as recorded: the linker keeps servers apart by it. */
  endpoint?: string | undefined;
  /** A sessionless request's endpoint as its client addressed it (its Host header), where the URL names another host (a recording proxy's target). */
  addressed?: string | undefined;
  httpMethod: string;
  headers: Map<string, string>;
  /** Parsed body, or undefined when there is none. */
  body: unknown;
  /** Raw body text, for exact big-number ids. */
  bodyText?: string | undefined;
  bodyError?: string | undefined;
  note?: Note | undefined;
  src: Source;
  /** Whether the source has an HTTP layer (false: it keeps none). */
  http: boolean;
  /** Whether the source stringified ids (a join on them is weak). */
  weakId: boolean;
  /** The source rebuilt the response from metadata (OTLP): it tells that a result came, not all it held. */
  rebuilt?: boolean;
  /** The source leaves some responses out: one missing from it is no evidence that none came. */
  answersUnlogged?: boolean;
  /** Its session id went with it, though the source keeps no headers (SourceLimits.sessionSent). */
  sessionSent?: boolean;
  /** Tells this record from an identical copy of it (see AttemptView.signature). */
  signature?: number | undefined;
}

interface Exchange {
  /** The id of the server's request whose answer (a result) this POST carried. */
  answersAsk?: JsonRpcId;
  key: string;
  side: ViewSide;
  /** The input it was read from (an unsided input's scopes are its own: see scopeKeyOf). */
  input: number;
  scopeKey: string;
  session: string | null;
  /**
   * The request carried a session id. `session` may come from the response instead (an Mcp-Session-Id it set: the
   * Python SDK sets a new one on its 400 "Missing session ID"), which the request did not carry.
   */
  sentSession: boolean;
  httpMethod: string;
  attempts: AttemptView[];
  status: number | null | undefined;
  contentType: string | undefined;
  /** The response's Content-Encoding, when it compresses (gzip, br, deflate...): a recorder may have kept its bytes so. */
  encoded?: string;
  lastTs: number | undefined;
  ended: boolean;
  /** For GET streams: deliver responses to open requests of the scope. */
  isGet: boolean;
  /** A GET sent without Last-Event-ID: the session's standalone stream, not a resumption of a request's stream. */
  standaloneGet?: boolean;
  /** An identical copy of an exchange already read (a duplicated log row): its response is no second response. */
  copy?: boolean;
  /** A duplicated row of an exchange with no request in it (see SessionState.rowSignatures): its records are let go. */
  rowCopy?: boolean;
  /** Its request row came twice (a log export's duplicated rows): an event row that comes twice is such a copy too. */
  rowsDuplicated?: boolean;
  /** When the response head came (a duplicated row of it comes at the same time with the same status), and its line. */
  responseTs?: number | undefined;
  responseSrc?: Source;
  /** The last SSE event row of a split exchange (its time, id, data's signature and line), to tell a duplicated row of it. */
  lastEventRow?: { ts: number | undefined; id: string | undefined; data: number; src: Source };
  /** The last response this exchange delivered, to tell a duplicated event row from a second response. */
  lastResponse?: { key: string; ts: number | undefined; text: string | undefined; msg: unknown; src: Source };
  primed: boolean;
  /**
   * A GET whose Last-Event-ID is the last event of an open request's stream: the resumption it tries; or (`replay`) an
   * event that an earlier resumption of an answered request carried: the server replays what followed it, the answer too.
   */
  resumes?: { view: AttemptView; try: Resumption; replay?: boolean };
  /** A GET without Last-Event-ID right after a resumption of this request broke before its first event: the SDK's reconnect. */
  plainFor?: PlainGet;
  /** A GET sent with Last-Event-ID (a resumption, whether or not its request is known). */
  resumeFrom?: string;
  src: Source;
  startTs: number | undefined;
  /** A POST whose log record kept no body at all (a server that answered an error without reading it). */
  bodyless: boolean;
  /** The request body was a JSON array (a batch, 2025-03-26), which an array answers. */
  batchRequest: boolean;
  /** A DELETE of a session: what its response says is kept for the caller's next requests (see AttemptView.afterDelete). */
  deletes?: DeleteSent;
  /** Who sent it (see callerKey). */
  caller: string;
  /** Such a POST's headers that a server refuses before it reads the body (see UnreadAnswer). */
  refusable?: Map<string, string>;
  /**
   * A POST with no request in it: what it carried (a notification's method, or an answer to the server), for
   * NOTIFICATION_REFUSED; a GET: GET_STREAM, for GET_STREAM_REFUSED.
   */
  carried: string | undefined;
  /** What the error body of such a POST said. */
  refusalSaid: string | undefined;
  /** What the error body of a POST logged without its body said (its JSON-RPC error's message, or its text): UnreadAnswer.said. */
  unreadSaid?: string | undefined;
  /** The open requests a notifications/cancelled in this POST cancelled (cancelLost, when the POST gets no response). */
  cancels?: AttemptView[];
  /** The session's SESSION_EXPIRED cause this exchange's 404 set (a DELETE's, withdrawn if its page shows no route). */
  refused404?: SessionState['refused404'];
}

/** A POST that a server-side log has with no body, answered with an error: the client's view of it has the request. */
export interface UnreadAnswer {
  side: ViewSide;
  session: string | null;
  status: number;
  ts: number | undefined;
  src: Source;
  /** The request's Accept, Content-Type and MCP-Protocol-Version as the server received them (those it has). */
  headers?: Map<string, string>;
  /** What its error body said (a JSON-RPC error's message, or its text), where the log kept the response body. */
  said?: string;
}

interface Parked {
  msg: Record<string, unknown>;
  id: JsonRpcId;
  src: Source;
  /** The end of the GET exchange that carried it: a request that started after it cannot be its request. */
  until: number | undefined;
}

interface Pending {
  deadline: number;
  view: AttemptView;
}

interface EngineOptions {
  windowMs: number;
  /**
   * How long a call still open (a request without its response: an HTTP exchange not ended, a message-level request
   * not answered) is followed through silence before it is taken as cut (ms); at least windowMs. A tool may run for
   * minutes without a record while other calls go on.
   */
  openMs: number;
  onView: (view: AttemptView) => void;
  sessions: SessionTracker;
  /** A response, event or end record with no open exchange to go to: it is not analyzed, and the reader is told why. */
  onStray?: (input: number, src: Source, message: string) => void;
  /** A server-side POST logged without its body and answered with an HTTP error (see UnreadAnswer). */
  onUnreadAnswer?: (u: UnreadAnswer) => void;
  /**
   * A request whose id is no JSON-RPC id (null, true, an object, 1e400: read as a notification, so no attempt), or a
   * POST whose JSON body holds no JSON-RPC message at all ([], 5, {}): said, as nothing else would show it.
   */
  onNotARequest?: (src: Source, code: 'invalid-id' | 'no-jsonrpc-message', message: string) => void;
  /** Two inputs (by name) that are one log, the second repeating the first's records (a copy, an overlapping rotated pair). */
  sameLog?: (a: string, b: string) => boolean;
}

/** Lookups of rotated-log continuations kept (each way) before they are forgotten. */
const KEPT_LOOKUPS = 10_000;
/** Per-scope notes that matter for seconds of log time (a broken resumption's reconnects): the latest scopes' only. */
const SCOPES_KEPT = 4096;

/** Calls closed by silence, remembered (by key, with the time of their last record) to name a record that comes later. */
const CLOSED_KEPT = 10_000;

/**
 * The last CLOSED_KEPT to 2 × CLOSED_KEPT keys set, in two generations: when the newer fills up it becomes the older
 * and the older is dropped. Deleting a Map's oldest entry one at a time instead slows down as deleted slots pile up at
 * its front (a log with thousands of unanswered requests spent a tenth of its time there).
 */
class RecentKeys {
  private newer = new Map<string, number>();
  private older = new Map<string, number>();

  get(key: string): number | undefined {
    return this.newer.get(key) ?? this.older.get(key);
  }

  set(key: string, value: number): void {
    if (this.newer.size >= CLOSED_KEPT) {
      this.older = this.newer;
      this.newer = new Map();
    }
    this.newer.set(key, value);
  }

  delete(key: string): void {
    this.newer.delete(key);
    this.older.delete(key);
  }
}

/** How often (log time) scopes with no open request are dropped from the open map. */
const OPEN_SWEEP_MS = 10_000;
/** A notifications/cancelled at most this long before its request, in the server's view, overtook it (see addRequest). */
const OVERTAKEN_MS = 10_000;

/** Requests that asked for progress remembered after they ended (RECENT_TOKEN_MS), at most (an input not in time order is swept only at its end). */
const RECENT_TOKENS_KEPT = 65_536;

/** A request that asked for progress and has ended: when, whether it got its response, and how a finding names it. */
interface TokenClosed { ts: number; answered: boolean; request: RequestRef }

/**
 * How far the log's order tells when an event came: `order`, a record written as it came (its place in the log is its
 * place in time, also within one millisecond); `clock`, a whole exchange's event at the time it carries (two events of
 * two streams in one millisecond come in the order the exchanges were read, which says nothing).
 */
type EventTiming = 'order' | 'clock';

/** Signatures kept per session of exchanges with no request in them (see SessionState.rowSignatures). */
const ROW_SIGNATURES_KEPT = 64;

/** Whether a request body holds a JSON-RPC request (a method and an id). */
function carriesRequest(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  for (const m of messages) if (typeof m === 'object' && m !== null && typeof (m as { method?: unknown }).method === 'string' && isJsonRpcId((m as { id?: unknown }).id)) return true;
  return false;
}

/** What a POST with no request in it carried, for DUPLICATE_RECORD: its first message's method, or an answer. */
function describeCarried(body: unknown): string {
  const m = (Array.isArray(body) ? body[0] : body) as { method?: unknown } | undefined;
  if (typeof m === 'object' && m !== null && typeof m.method === 'string') return m.method.slice(0, 80);
  return body === undefined ? 'an empty body' : 'an answer to the server';
}

/** How much of an SSE event row's data its signature reads (with its length), to tell a duplicated row. */
const EVENT_SIGNED = 4096;
/** Exchanges just ended whose end is remembered, to tell a duplicated row of their last records. */
const RECENT_ENDS_KEPT = 1024;

/** How many of a request's latest progress times are kept (a retry sent before its cancellation is told by them: findings/rules.ts gaveUpAtProgress). */
const PROGRESS_TIMES_KEPT = 32;

/** Most stray-progress tokens kept per session (see SessionState.strayProgress); further ones are only counted. */
const STRAY_PROGRESS_KEPT = 8;
/** server/discover probes of one scope waiting for their clients' fallback (clients that start together). */
const MAX_PENDING_PROBES = 64;

export class JoinEngine {
  private exchanges = new Map<string, Exchange>();
  /** Requests still waiting for a response, per side and scope: scopeKey -> idKey -> view. */
  private open = new Map<string, Map<string, AttemptView>>();
  private queue: Pending[] = [];
  private queueHead = 0;
  /**
   * Responses a GET stream carried for no request seen yet, per scope and id, until the stream's end plus the window.
   * A whole-exchange record (HAR, canonical `exchange`) of a long-lived GET is read at its start time, before the POSTs
   * whose responses it carried (the 2024-11-05 HTTP+SSE transport answers every POST on its GET stream).
   */
  private parked = new Map<string, Map<string, Parked>>();
  private seq = 0;
  private lastOpenSweep = -Infinity;
  /** Each caller's last DELETE of a session (side|caller), until it initializes again. */
  private deletes = new Map<string, DeleteSent>();
  /**
   * The latest refused GETs without a session: the same refusal in a second log is counted once, and one that the
   * client followed with an initialize (in any scope of that log) was a probe.
   */
  private sessionlessRefusals: SessionlessRefusal[] = [];
  /** When each log (side|input) last sent an initialize or server/discover. */
  private lastOpening = new Map<string, number>();
  /**
   * The session id each server log (by input) last set in an initialize response, until a request in that log carries
   * it: a sessionless POST refused for its missing id after that tells of an id that never came back.
   */
  private sessionSet = new Map<string, { session: string; ts: number | undefined; src: Source }>();
  /** The latest sessionless POSTs refused for their missing session id: the same refusal in two logs is counted once. */
  private sessionlessPosts: SessionlessPost[] = [];
  watermark = -Infinity;

  private closed = new RecentKeys();
  /** Requests that asked for progress and ended in the last RECENT_TOKEN_MS, by scope and token (in the order they ended). */
  private closedTokens = new Map<string, TokenClosed>();
  /** The scopes of `open` made for a request without a session (a stateless server's, a connection's): see openOnOtherSide. */
  private readonly sessionlessScopes = new Set<string>();
  /** Message-level requests waiting for their response (no exchange holds them): swept against openMs. */
  private awaiting = new Set<AttemptView>();
  /**
   * The message-level responses answered at the latest answer time, by scope and id, to compare a repeat's content: a
   * different second answer in the same millisecond is a second response, not a duplicated row. Only that one time's
   * answers are kept (the inputs are merged in time order, so a repeated row comes while its time is the latest).
   */
  private answeredLast: { ts: number | undefined; byKey: Map<string, unknown> } = { ts: undefined, byKey: new Map() };
  /** Views whose server cancelled its own request to the client, by scope and that request's id, for lateAnswer (within --window). */
  private cancelledAsks = new Map<string, AttemptView>();
  /**
   * Event ids that a request's stream or its resumptions carried (scope and id -> the request), the latest 4096: a GET
   * that resumes after one of them that was not the stream's last (the server wrote more before it noticed the cut), or
   * after its request was answered (the hop cut the first resumption after the server wrote the answer there), resumes
   * or replays that request's stream: it is no stream of its own.
   */
  private resumedEventIds = new Map<string, AttemptView>();
  /** Message-level requests closed unanswered after openMs (scopeKey and idKey, with their start), to name a late answer. */
  private closedCalls = new RecentKeys();
  /** The exchange last made or found, with its input and xid (see find). */
  private last: Exchange | undefined;
  private lastInput = -1;
  private lastXid = '';
  /** Records of another input that continue an exchange (a rotated log), and those known to continue none. */
  private aliases = new Map<string, Exchange>();
  private unmatched = new Set<string>();

  constructor(private readonly opts: EngineOptions) {}

  /**
   * The open exchange of another input with this xid: a log rotated (or split) in the middle of an exchange goes on in
   * the next file. Only for xids that are not bare numbers (the recorders' are `<random prefix>-<n>`), which another
   * log could reuse; looked up only when the record's own input has no such exchange, so it costs nothing otherwise.
   */
  private continued(input: number, xid: string): Exchange | undefined {
    if (!/\D/.test(xid)) return undefined;
    const key = `${input}:${xid}`;
    // Each record of such an exchange asks again (an SSE stream can have thousands): the answer is kept either way.
    const known = this.aliases.get(key);
    if (known) return this.exchanges.get(known.key) === known ? known : undefined;
    if (this.unmatched.has(key)) return undefined;
    const own = `${input}:`;
    for (const ex of this.exchanges.values()) {
      if (!ex.key.startsWith(own) && ex.key.endsWith(xid) && ex.key.slice(ex.key.indexOf(':') + 1) === xid) {
        if (this.aliases.size >= KEPT_LOOKUPS) this.aliases.clear();
        this.aliases.set(key, ex);
        return ex;
      }
    }
    if (this.unmatched.size >= KEPT_LOOKUPS) this.unmatched.clear();
    this.unmatched.add(key);
    return undefined;
  }

  /**
   * The open exchange a record of this input and xid belongs to. The last one made or found is kept aside: the records
   * of one exchange usually come together (a whole-exchange record is a request, a response and an end in a row).
   */
  private find(input: number, xid: string): Exchange | undefined {
    if (this.last !== undefined && this.lastInput === input && this.lastXid === xid) return this.last;
    const key = `${input}:${xid}`;
    // An exchange this input opened and closed is not looked for in the others: its request is in this input, so its
    // later records continue no other log's exchange. It ended lately (a duplicated row of its end took another log's
    // open exchange of the same id, and closed it), or silence or its client's cancellation closed it (a late end took
    // another packet capture's open exchange: tshark's xids `tcp<stream>/<frame>` restart in every capture).
    const ex = this.exchanges.get(key) ?? (this.closedHere(key) ? undefined : this.continued(input, xid));
    if (ex) this.remember(input, xid, ex);
    return ex;
  }

  /** Whether this input's exchange of this key ended lately, or was closed by silence or after its cancellation. */
  private closedHere(key: string): boolean {
    return this.recentEnds.has(key) || this.cancelledClosed.has(key) || this.closed.get(key) !== undefined;
  }

  private remember(input: number, xid: string, ex: Exchange): void {
    this.last = ex;
    this.lastInput = input;
    this.lastXid = xid;
  }

  /** An exchange ends: it leaves the open map (and the one kept aside). */
  private close(key: string, ex: Exchange): void {
    this.exchanges.delete(key);
    if (this.last === ex) this.last = undefined;
  }

  /** A record for an exchange that is not open: say whether the window closed it or its request was never read. */
  /** Exchanges that had records after --window closed them (counted once each), and the longest silence before one. */
  readonly lateAfterWindow = { exchanges: 0, longestGapMs: 0 };
  private lateKeys = new Set<string>();
  /** Exchanges that ended lately (key -> when, its scope and request record): a duplicated row of their end is no stray. */
  private recentEnds = new Map<string, { ts: number; startTs: number | undefined; scopeKey: string; src: Source; end: Source; head: Source | undefined }>();

  /** Whether every request on an open exchange was cancelled by its client, --window or more before `watermark`. */
  private cancelledOpen(ex: Exchange, watermark: number): boolean {
    // Not without a session: a stateless server takes the cancellation in a request of its own, apart from the running
    // one, which goes on and may still answer on this stream (the SDK 1.x client keeps it open and reads the answer).
    if (ex.session === null) return false;
    for (const v of ex.attempts) {
      if (isFinal(v) || v.response !== undefined || v.cancelledAt === undefined || v.cancelledAt + this.opts.windowMs >= watermark) return false;
    }
    return true;
  }

  private stray(input: number, xid: string, what: string, ts: number | undefined, src: Source): void {
    // The end of a stream closed after its client's cancellation (see advance): expected, and nothing to analyze.
    if (this.cancelledClosed.has(`${input}:${xid}`)) return;
    // A row of an exchange that ended, at a time within its own (from its request to its end): a row read again (a
    // log export's duplicated row, export pages or a shipper's re-send that overlap), not a stray.
    const ended = ts !== undefined ? this.recentEnds.get(`${input}:${xid}`) : undefined;
    if (ended !== undefined && ts! <= ended.ts && ts! >= (ended.startTs ?? ended.ts)) {
      const sess = this.opts.sessions.get(ended.scopeKey);
      const first = ts === ended.ts && what.startsWith('the end') ? ended.end : what.startsWith('the response head') && ended.head ? ended.head : ended.src;
      if (sess && !sess.duplicates?.some((d) => (d.of ?? d.first) === ended.src)) (sess.duplicates ??= []).push({ what: `${what.startsWith('the end') ? 'the end' : what} of exchange ${JSON.stringify(xid.slice(0, 60))}`, first, dup: src, of: ended.src });
      return;
    }
    const last = this.closed.get(`${input}:${xid}`);
    if (last !== undefined) {
      const key = `${input}:${xid}`;
      if (!this.lateKeys.has(key)) {
        this.lateAfterWindow.exchanges++;
        if (this.lateKeys.size >= CLOSED_KEPT) this.lateKeys.clear();
        this.lateKeys.add(key);
      }
      if (ts !== undefined && ts - last > this.lateAfterWindow.longestGapMs) this.lateAfterWindow.longestGapMs = ts - last;
    }
    if (!this.opts.onStray) return;
    const gap = last !== undefined && ts !== undefined ? ` ${((ts - last) / 1000).toFixed(1)} s after the exchange's previous record,` : '';
    this.opts.onStray(input, src, last !== undefined
      ? `${what} of exchange ${JSON.stringify(xid.slice(0, 60))} came${gap} after ${this.opts.openMs / 1000} s of silence had closed it: not analyzed (a longer --window follows slower calls)`
      : `${what} of exchange ${JSON.stringify(xid.slice(0, 60))}, whose request is not in this input (before the log starts, unusable, or already ended): not analyzed`);
  }

  /** A duplicated row of an open exchange's record: said once per exchange (DUPLICATE_RECORD), not analyzed again. */
  private duplicateRow(ex: Exchange, src: Source, first: Source): void {
    const sess = this.opts.sessions.get(ex.scopeKey);
    if (!sess || sess.duplicates?.some((d) => (d.of ?? d.first) === ex.src)) return;
    const v = ex.attempts[0];
    const what = v !== undefined ? `${v.method} id ${v.idText ?? jsonText(v.id)}` : `the ${ex.httpMethod === 'GET' ? 'GET stream' : `${ex.httpMethod}${ex.carried !== undefined && !ex.isGet ? ` of ${ex.carried}` : ''}`}`;
    (sess.duplicates ??= []).push({ what, first, dup: src, of: ex.src });
  }

  /** A request with an id that is not one: MCP's ids are text or integers (JSON-RPC's: text, numbers or null). */
  private badId(src: Source, method: string, id: unknown): void {
    const what = id === null ? 'null' : typeof id === 'number' ? 'a number too large for any float' : Array.isArray(id) ? 'an array' : typeof id === 'object' ? 'an object' : `a ${typeof id}`;
    this.opts.onNotARequest?.(src, 'invalid-id', `request ${JSON.stringify(method.slice(0, 80))} has ${what} as its id, which MCP does not allow (text or an integer): read as a notification, so it is no attempt (its answer, if logged, is an orphan)`);
  }

  /** One HTTP request (or a message-level request batch) starts. */
  request(r: RequestIn): void {
    // The request record of a split exchange read again while that exchange is open, at the same time (a log export's
    // duplicated row): taken as a new exchange, it took the exchange id from the first, which then never got its answer.
    const open = r.ts !== undefined ? this.exchanges.get(`${r.input}:${r.xid}`) : undefined;
    if (open && !open.ended && open.startTs === r.ts && open.httpMethod === r.httpMethod && open.side === r.side) {
      open.rowsDuplicated = true;
      return this.duplicateRow(open, r.src, open.src);
    }
    const scope = r.session ?? r.conn ?? r.client ?? `input#${r.input}`;
    const scopeKey = scopeKeyOf(r.side, r.input, scope);
    const ex: Exchange = {
      key: `${r.input}:${r.xid}`,
      side: r.side,
      input: r.input,
      scopeKey,
      session: r.session,
      sentSession: r.session !== null,
      httpMethod: r.httpMethod,
      attempts: [],
      status: undefined,
      contentType: undefined,
      lastTs: r.ts,
      ended: false,
      isGet: r.httpMethod === 'GET',
      primed: false,
      src: r.src,
      startTs: r.ts,
      bodyless: r.httpMethod === 'POST' && r.body === undefined && r.bodyError === undefined,
      batchRequest: Array.isArray(r.body),
      caller: callerKey(r.client, r.conn, r.input),
      carried: undefined,
      refusalSaid: undefined,
    };
    if (ex.bodyless && r.side !== 'client') ex.refusable = refusableHeaders(r.headers);
    const sess = this.opts.sessions.touch(r.side, scope, r.session, r.ts, scopeKey, r.input);
    sess.clientKey ??= callerKey(r.client, r.conn, r.input);
    if (r.signature !== undefined && r.ts !== undefined && r.session !== null && !carriesRequest(r.body)) {
      // An exchange with no request in it (a GET stream, a notification) seen before in this file, in the same session,
      // same time, same answer: a duplicated row. Its records are read and let go; a request's copies are told by
      // register(). (Without a session, two clients of a stateless server send the same notification in the same
      // millisecond, and a HAR records both alike.)
      // (The record's signature leaves a notification's method and params out: they are mixed in, and a GET's Last-Event-ID.)
      const signature = signatureOf(`${r.signature}|${r.httpMethod}|${r.headers.get('last-event-id') ?? ''}|${jsonDigest(r.body ?? null)}`);
      const rows = (sess.rowSignatures ??= new Map());
      const first = rows.get(signature);
      if (first !== undefined && first.file === r.src.file) {
        ex.rowCopy = true;
        this.exchanges.set(ex.key, ex);
        this.remember(r.input, r.xid, ex);
        if (!sess.duplicates?.some((d) => d.first === first)) (sess.duplicates ??= []).push({ what: `the ${ex.isGet ? 'GET stream' : r.httpMethod}${!ex.isGet ? ` of ${describeCarried(r.body)}` : ''}`, first, dup: r.src });
        return;
      }
      rows.set(signature, r.src);
      trimOldest(rows, ROW_SIGNATURES_KEPT);
    }
    if (r.session !== null && r.side === 'server' && this.sessionSet.get(`${r.side}|${r.input}`)?.session === r.session) this.sessionSet.delete(`${r.side}|${r.input}`);
    const callerOf = scopeKeyOf(r.side, r.input, callerKey(r.client, r.conn, r.input));
    if (r.httpMethod === 'DELETE' && r.session !== null) {
      sess.deleteSent = true;
      ex.deletes = { session: r.session, ts: r.ts, status: undefined };
      this.deletes.delete(callerOf);
      this.deletes.set(callerOf, ex.deletes);
      trimOldest(this.deletes, 4096);
    }
    const deleted = r.session === null ? this.deletes.get(callerOf) : undefined;
    // A body that is not JSON carries no request either: its refusal (a 400 Parse error) is named like a notification's.
    // A form-encoded POST is no MCP traffic: an OAuth token request (RFC 6749), which the client's log records too.
    if (r.bodyError !== undefined && r.httpMethod === 'POST' && !isFormPost(r.headers)) ex.carried = 'a body that is not JSON';
    const messages = Array.isArray(r.body) ? r.body : r.body === undefined ? [] : [r.body];
    for (const m of messages) {
      if (typeof m !== 'object' || m === null) continue;
      const msg = m as Record<string, unknown>;
      if (typeof msg.method === 'string' && isJsonRpcId(msg.id)) {
        const view = this.newView(r, scope, scopeKey, msg, r.bodyText);
        if (msg.method === 'initialize' || msg.method === 'server/discover') {
          this.deletes.delete(callerOf); // the client begins anew
          // A GET without a session refused around it was part of the setup: a probe (mcp-remote asks for an HTTP+SSE
          // stream first, LangChain for one at the MCP URL before /sse) or the old stream's reconnection while a new
          // session was on its way.
          if (r.session === null) sess.refusedGets = undefined;
          // (Whatever session the record names: a whole exchange may carry the one its response announced.)
          if (r.ts !== undefined) this.lastOpening.set(`${r.side}|${r.input}`, r.ts);
          for (const g of this.sessionlessRefusals) {
            if (g.side === r.side && g.input === r.input && r.ts !== undefined && g.entry.lastTs !== undefined && r.ts >= g.entry.lastTs && r.ts - g.entry.lastTs <= this.opts.windowMs) g.entry.probe = true;
          }
          if (r.session === null) this.versionProbe(sess, view, msg.method, r.ts);
        }
        else if (deleted && r.ts !== undefined && deleted.ts !== undefined && r.ts - deleted.ts <= this.opts.windowMs) view.afterDelete = deleted;
        if (this.register(scopeKey, view, sess, r.conn != null)) ex.attempts.push(view);
        else ex.copy = true;
      } else if (typeof msg.method === 'string') {
        if (msg.id !== undefined) this.badId(r.src, msg.method, msg.id);
        ex.carried ??= msg.method.slice(0, 80);
        // (Sent without a session id soon after the caller's DELETE: the client dropped the id, not the request.)
        const dropped = deleted && r.ts !== undefined && deleted.ts !== undefined && r.ts - deleted.ts <= this.opts.windowMs ? scopeKeyOf(r.side, r.input, deleted.session) : undefined;
        this.clientNotification(scopeKey, msg, r.src, sess, r.ts, dropped, ex, r.headers.get('user-agent'));
      } else if (msg.error !== undefined && isJsonRpcId(msg.id)) {
        ex.carried ??= `its answer (an error) to the server's request id ${jsonText(msg.id).slice(0, 40)}`;
        this.clientRefusedAsk(scopeKey, msg);
        this.lateAnswer(scopeKey, msg.id, r.ts);
      } else if (msg.result !== undefined && isJsonRpcId(msg.id)) {
        ex.carried ??= `its answer to the server's request id ${jsonText(msg.id).slice(0, 40)}`;
        ex.answersAsk ??= msg.id;
        this.lateAnswer(scopeKey, msg.id, r.ts);
      }
    }
    // A POST with no JSON-RPC message in its JSON body ([], 5, {}), said (only to an MCP session or protocol version: an
    // OAuth client registration's JSON POST is no MCP traffic).
    if (ex.attempts.length === 0 && ex.carried === undefined && !ex.copy && ex.answersAsk === undefined && r.body !== undefined && r.bodyError === undefined && r.httpMethod === 'POST'
      && (r.session !== null || r.headers.get('mcp-protocol-version') !== undefined)) {
      const what = Array.isArray(r.body) ? (r.body.length === 0 ? 'an empty list' : `a list of ${r.body.length}, none a request, notification or response`) : r.body === null ? 'null' : typeof r.body === 'object' ? 'an object that is no request, notification or response' : `a ${typeof r.body}`;
      this.opts.onNotARequest?.(r.src, 'no-jsonrpc-message', `a POST whose body holds no JSON-RPC message (${what}): nothing in it is analyzed`);
    }
    // The client used the session it opened (a whole exchange of an initialize may name the session its response set).
    if (r.session !== null && r.httpMethod !== 'DELETE' && !ex.attempts.some((v) => v.method === 'initialize' || v.method === 'server/discover')) sess.used = true;
    const lastEventId = ex.isGet ? r.headers.get('last-event-id') : undefined;
    if (ex.isGet && isStreamGet(r.headers, r.session)) ex.carried = GET_STREAM;
    if (lastEventId) {
      ex.resumeFrom = lastEventId;
      this.resumption(ex, lastEventId, r.src);
    }
    else if (ex.isGet) {
      ex.standaloneGet = true;
      this.plainAfterResumption(ex);
    }
    this.exchanges.set(ex.key, ex);
    this.remember(r.input, r.xid, ex);
  }

  /**
   * Era detection (2026-07-28): a dual-era client probes with server/discover and, when an older server refuses it, falls
   * back to initialize. The refused probe that an initialize of the same scope follows within the window is marked so.
   */
  private versionProbe(sess: SessionState, view: AttemptView, method: string, ts: number | undefined): void {
    const probes = (sess.probes ??= []);
    if (method === 'server/discover') {
      // Several clients that start together (workers, an app's clients in a task group) probe before any falls back.
      probes.push(view);
      if (probes.length > MAX_PENDING_PROBES) probes.shift();
      return;
    }
    if (probes.length === 0) return;
    // What an older server answers a method it does not know (a 400 without a session id, 404, 405, or a JSON-RPC
    // error); a 5xx or a cut stream is a failure of its own, whatever the client does next. Each fallback takes the
    // earliest refused probe before it; a probe no request followed within the window is let go.
    const window = this.opts.windowMs;
    const at = probes.findIndex((p) => {
      const end = p.endTs ?? p.startTs;
      const refused = p.status === 400 || p.status === 404 || p.status === 405 || p.outcome === 'JSONRPC_ERROR';
      return refused && ts !== undefined && end !== undefined && ts >= end && ts - end <= window;
    });
    if (at !== -1) {
      probes[at]!.versionFallback = true;
      // (with the probes before it: a redirect it followed, the same opening's)
      probes.splice(0, at + 1);
    } else {
      // A probe answered 429 or 5xx (a hop's, a busy server's: no refusal of an older server) after which the client sent
      // initialize all the same: that answer, not an older server, put the connection on the 2025 handshake
      // (real-audit101). Not a redirect, an auth refusal or a connection that failed: what the client did after those is
      // its own retry or follow-up, not known to be this fallback.
      const failed = probes.findIndex((p) => {
        const end = p.endTs ?? p.startTs;
        const busy = typeof p.status === 'number' && (p.status === 429 || p.status >= 500);
        return busy && ts !== undefined && end !== undefined && ts >= end && ts - end <= window;
      });
      if (failed !== -1) {
        probes[failed]!.fellBackAfterFailure = true;
        probes.splice(failed, 1);
      }
    }
    if (ts !== undefined) sess.probes = probes.filter((p) => { const end = p.endTs ?? p.startTs; return end === undefined || ts - end <= window; });
  }

  /**
   * Per scope, when the session's standalone stream (a plain GET answered 2xx) last ended with no plain GET since: the
   * SDK reconnects it (a plain GET too) after the same delay as a broken resumption, so reconnects come in the order the
   * streams broke.
   */
  private readonly standaloneEnded = new Map<string, number>();
  /**
   * Per scope, the latest chains of plain GETs that reconnected a broken resumption (its retries join it): one per
   * stream, several when several streams of the session broke (the latest PLAIN_CHAINS_KEPT).
   */
  private readonly plainReconnects = new Map<string, PlainGet[][]>();
  /**
   * Per scope, the latest resumption of an answered request's stream from an event before its answer (a log in front
   * of the server: the hop cut the answer on the POST), until a plain GET is taken for its reconnect.
   */
  private readonly unreadResumes = new Map<string, { view: AttemptView; got: Resumption }>();

  /**
   * A GET without Last-Event-ID soon (within PLAIN_RECONNECT_MS) after a GET resuming an open request's stream got its head and
   * then ended before any event with an id: the TypeScript SDK 1.x reconnects so (the stream it resumed had given it no
   * event id to resume from), and that plain GET asks for the session's standalone stream, which does not carry the
   * request's response. Told to the request whose resumption ended first before it and has no plain GET yet (the SDK
   * waits as long after each break, so streams that broke one after another reconnect in that order), one plain GET per
   * request.
   */
  private plainAfterResumption(ex: Exchange): void {
    if (ex.startTs === undefined) return;
    let best: { v: AttemptView; at: number } | undefined;
    // The SDK waits as long before every stream's first plain GET (its initialReconnectionDelay, or the server's
    // `retry:`): once a chain of the session shows that wait, a GET that came much sooner after a resumption broke is
    // not its reconnect (another stream's retry, due about then).
    const firstWait = this.plainReconnects.get(ex.scopeKey)?.at(-1)?.[0]?.gap;
    for (const v of this.open.get(ex.scopeKey)?.values() ?? []) {
      const last = v.resumptions?.[v.resumptions.length - 1];
      if (v.response !== undefined || v.plainGetAfter || !last || last.ids || last.endTs === undefined || typeof last.status !== 'number' || last.status < 200 || last.status > 299) continue;
      if (ex.startTs < last.endTs || ex.startTs - last.endTs > Math.min(PLAIN_RECONNECT_MS, this.opts.windowMs)) continue;
      if (firstWait !== undefined && ex.startTs - last.endTs < PLAIN_FIRST_WAIT_SHARE * firstWait) continue;
      if (!best || last.endTs < best.at) best = { v, at: last.endTs };
    }
    // The first plain GET after the standalone stream ended is that stream's reconnect when the stream ended before the
    // resumption did (the SDK waits as long before either): the resumption's own reconnect comes after it.
    const ended = this.standaloneEnded.get(ex.scopeKey);
    if (ended !== undefined && ex.startTs >= ended) {
      this.standaloneEnded.delete(ex.scopeKey);
      if (best && ended <= best.at && ex.startTs - ended <= Math.min(PLAIN_RECONNECT_MS, this.opts.windowMs)) return;
    }
    const plain: PlainGet = { status: null };
    // Or a resumption of an answered request's stream from before its answer that replayed nothing and ended before its
    // first event (a log in front of the server, where the hop cut the answer on the POST): the client had not got the
    // answer, and its plain GET is that resumption's reconnect too.
    const unread = best ? undefined : this.unreadResumes.get(ex.scopeKey);
    const got = unread?.view.resumedBeforeAnswer?.got === unread?.got ? unread?.got : undefined;
    if (best) {
      plain.gap = ex.startTs - best.at;
      best.v.plainGetAfter = [plain];
      this.keepReconnect(ex.scopeKey, best.v.plainGetAfter);
    } else if (got && !got.ids && got.endTs !== undefined && typeof got.status === 'number' && got.status >= 200 && got.status <= 299
      && ex.startTs >= got.endTs && ex.startTs - got.endTs <= Math.min(PLAIN_RECONNECT_MS, this.opts.windowMs)) {
      this.unreadResumes.delete(ex.scopeKey);
      plain.gap = ex.startTs - got.endTs;
      this.keepReconnect(ex.scopeKey, [plain]);
    } else {
      // The SDK tries a refused plain GET again (up to its maxRetries): a retry of that reconnect, soon after it ended.
      // With several such chains in the session (several streams broke), the one whose refused GET ended first: the SDK
      // waits as long after each failure of a stream's reconnect (at the same retry count), as with the first plain GETs.
      // Not a chain the SDK gave up (its maxRetries) or left (a call it stopped waiting for): its next try would have
      // come within PLAIN_GAP_GROWTH times the wait before its last one (the SDK's delay grows by its
      // reconnectionDelayGrowFactor, 1.5 by default, or stays the server's `retry:`).
      // A stream's try count is its own, though: once a chain of the session shows how the SDK's wait grows (two waits
      // in a row), a chain whose next try is due far from this GET (by its last wait times that growth) is not the one
      // it retries, when another chain's is due about now: a stream refused twice waits longer than one refused once.
      const chains = this.plainReconnects.get(ex.scopeKey) ?? [];
      const candidates: { c: PlainGet[]; prev: PlainGet & { endTs: number } }[] = [];
      for (const c of chains) {
        const prev = c[c.length - 1];
        if (!prev || prev.endTs === undefined || !(prev.status === null || prev.status >= 400)) continue;
        if (ex.startTs < prev.endTs || ex.startTs - prev.endTs > PLAIN_RECONNECT_MS) continue;
        if (prev.gap !== undefined && ex.startTs - prev.endTs > PLAIN_GAP_GROWTH * prev.gap + PLAIN_GAP_SLACK_MS) continue;
        candidates.push({ c, prev: prev as PlainGet & { endTs: number } });
      }
      const growth = plainGapGrowth(chains);
      const due = growth === undefined ? [] : candidates.filter(({ prev }) => prev.gap !== undefined
        && Math.abs(ex.startTs! - (prev.endTs + prev.gap * growth)) <= Math.max(PLAIN_GAP_SLACK_MS, PLAIN_DUE_SHARE * prev.gap * growth));
      let chain: PlainGet[] | undefined;
      let at = 0;
      for (const { c, prev } of due.length > 0 ? due : candidates) if (!chain || prev.endTs < at) { chain = c; at = prev.endTs; }
      if (!chain) return;
      plain.gap = ex.startTs - at;
      chain.push(plain);
    }
    ex.plainFor = plain;
  }

  /** A new plain-GET chain of a scope, kept with the scope's latest chains for the latest SCOPES_KEPT scopes (a chain matters for seconds). */
  private keepReconnect(scopeKey: string, chain: PlainGet[]): void {
    const chains = this.plainReconnects.get(scopeKey) ?? [];
    this.plainReconnects.delete(scopeKey);
    chains.push(chain);
    if (chains.length > PLAIN_CHAINS_KEPT) chains.shift();
    this.plainReconnects.set(scopeKey, chains);
    trimOldest(this.plainReconnects, SCOPES_KEPT);
  }

  /** A GET with Last-Event-ID: the open request whose stream last carried that event id is what it tries to resume. */
  private resumption(ex: Exchange, eventId: string, src: Source): void {
    for (const v of this.open.get(ex.scopeKey)?.values() ?? []) {
      if (v.response !== undefined || v.lastEventId !== eventId) continue;
      const attempt: Resumption = { status: null, startTs: ex.startTs };
      (v.resumptions ??= []).push(attempt);
      if (!v.sources.includes(src)) v.sources.push(src);
      ex.resumes = { view: v, try: attempt };
      return;
    }
    // An earlier event of a request's stream. Answered already (on an earlier resumption that was cut before the client
    // read the answer), the server replays its stream, the answer too. Still open, in a server's log, it is a
    // resumption: that log shows events after it that the client did not get (the server wrote them before it noticed
    // the cut); a client's log shows what the client got, and its GET names the last event it had.
    const done = this.resumedEventIds.get(`${ex.scopeKey} ${eventId}`);
    if (!done) return;
    // (A view classified already has its response dropped: final says it was answered or ended.)
    const answered = done.response !== undefined || isFinal(done);
    if (!answered && ex.side !== 'server') return;
    const attempt: Resumption = { status: null, startTs: ex.startTs };
    if (!done.sources.includes(src)) done.sources.push(src);
    if (answered) {
      ex.resumes = { view: done, try: attempt, replay: true };
      // From an event before the last one of the stream (its answer): the client had not got the answer.
      if (eventId !== done.lastEventId) {
        done.resumedBeforeAnswer = { src, got: attempt, from: eventId, answerId: done.lastEventId };
        this.unreadResumes.delete(ex.scopeKey);
        this.unreadResumes.set(ex.scopeKey, { view: done, got: attempt });
        trimOldest(this.unreadResumes, SCOPES_KEPT);
        // (A cancellation the client sends later is for an answer it never got, not one it had: see clientNotification.)
        const known = this.opts.sessions.get(ex.scopeKey)?.requestIds.get(done.idKey);
        if (known?.answer === 'result') known.answer = 'unread';
      }
    }
    else {
      (done.resumptions ??= []).push(attempt);
      ex.resumes = { view: done, try: attempt };
    }
  }

  /** Remember which request's stream carried an event id (the latest 4096), for a resumption after it. */
  private rememberEventId(scopeKey: string, eventId: string, view: AttemptView): void {
    const key = `${scopeKey} ${eventId}`;
    this.resumedEventIds.delete(key);
    this.resumedEventIds.set(key, view);
    trimOldest(this.resumedEventIds, 4096);
  }

  /**
   * An accepted DELETE of a session: the session is terminated (a later 404 answers a session someone ended), and the
   * requests of it still streaming lose their streams with it. A server's DELETE is also told to the client's view of
   * the session when the client's log lacks it (another client, or a tool outside the logs, sent it).
   */
  private sessionDeleted(ex: Exchange, status: number, ts: number | undefined, src: Source): void {
    const mark = (scopeKey: string, unseen: boolean) => {
      const sess = this.opts.sessions.get(scopeKey);
      // (The client's log has a DELETE of its own for the session, answered or on its way: that one is the client's.)
      if (unseen && (sess === undefined || sess.deleteSent)) return;
      if (sess && (sess.terminated === undefined || (sess.terminated.unseen && !unseen))) sess.terminated = { src, ts, side: ex.side, caller: ex.caller, ...(unseen ? { unseen } : {}) };
      for (const v of this.open.get(scopeKey)?.values() ?? []) {
        // A request the client had cancelled before was not cut by the DELETE: its stream only stayed open until then.
        if (v.response !== undefined || v.method === 'initialize' || v.cancelled) continue;
        if (v.sessionDeleted !== undefined ? !(v.sessionDeleted.who === 'unseen' && !unseen) : v.streamEnd !== undefined) continue;
        const who = unseen ? 'unseen' : ex.side !== 'client' ? 'unknown' : v.caller === ex.caller ? 'self' : 'other';
        v.sessionDeleted = { src, ts, status, who, caller: ex.caller };
      }
    };
    mark(ex.scopeKey, false);
    if (ex.side === 'server' && ex.session !== null) mark(scopeKeyOf('client', ex.input, ex.session), true);
  }

  /** The response head of an exchange. */
  response(input: number, xid: string, status: number | null, headers: Map<string, string>, ts: number | undefined, src: Source, noType = false): void {
    const ex = this.find(input, xid);
    if (!ex) return this.stray(input, xid, `the response head (HTTP ${status ?? 'none'})`, ts, src);
    if (ex.rowCopy) return;
    if (ex.status !== undefined && ts !== undefined && ex.responseTs === ts && ex.status === status) return this.duplicateRow(ex, src, ex.responseSrc ?? ex.src);
    ex.status = status;
    ex.responseTs = ts;
    ex.responseSrc = src;
    ex.contentType = headers.get('content-type');
    const encoding = headers.get('content-encoding')?.trim().toLowerCase();
    if (encoding !== undefined && encoding !== '' && encoding !== 'identity') ex.encoded = encoding.slice(0, 40);
    const location = status !== null && status >= 300 && status < 400 ? headers.get('location') : undefined;
    if (location !== undefined) for (const v of ex.attempts) v.redirectTo = location.slice(0, 200);
    if (ex.deletes) ex.deletes.status = status;
    if (ex.answersAsk !== undefined && status !== null && (status < 200 || status > 299)) {
      // The client's answer to a request the server sent on a call's stream was refused on its way: the call's view
      // that asked it says so (its why must not say the client never answered).
      const id = ex.answersAsk;
      for (const v of this.open.get(ex.scopeKey)?.values() ?? []) if (v.asked?.some((q) => q.id === id)) v.askAnswerRefused = { id, status };
    }
    ex.lastTs = ts ?? ex.lastTs;
    if (ex.resumes) ex.resumes.try.status = status;
    if (ex.plainFor) ex.plainFor.status = status;
    const challenge = (status === 401 || status === 403) && headers.has('www-authenticate');
    const announced = headers.get('mcp-session-id');
    // An initialize sent with the session id of a session the server lost, answered with a new one (mcp-framework takes
    // it as a new initialize, for clients that keep the stale header): it opened the new session, not the old.
    const reinitialized = announced !== undefined && ex.session !== null && announced !== ex.session && status !== null && status >= 200 && status < 300 && ex.attempts.some((v) => v.method === 'initialize');
    // Another session id handed out with the answer to a request of a session, outside an initialize: the SDK clients
    // take it for their next requests (SESSION_ID_CHANGED); the exchange stays in the session it was sent in.
    const reassigned = announced !== undefined && ex.session !== null && announced !== ex.session && !reinitialized ? { from: ex.session.slice(0, 200), to: announced.slice(0, 200) } : undefined;
    const retryAfter = parseRetryAfter(headers.get('retry-after'), ts);
    if (ex.httpMethod === 'DELETE' && status !== null && status >= 200 && status < 300 && ex.session !== null) this.sessionDeleted(ex, status, ts, src);
    if (status === 404 && ex.attempts.length === 0 && ex.session !== null) {
      // A GET stream or a notification refused with 404 under a session id: the session is gone too (SESSION_EXPIRED).
      // A GET resuming a call's stream is marked: a session that went on after its 404 was not lost (the refusal is the
      // call's, told in its why); another refusal, a GET stream's or a notification's, takes its place, but not the
      // client's DELETE as it closes (the Python SDK's), which only meets the loss the resumption met first.
      const sess = this.opts.sessions.get(ex.scopeKey);
      const resumption = ex.resumeFrom !== undefined;
      if (sess && (sess.refused404 === undefined || (sess.refused404.resumption && !resumption && ex.httpMethod !== 'DELETE'))) ex.refused404 = sess.refused404 = { what: refusedWhat(ex), src, ts, ...(ex.carried === INITIALIZED ? { initialized: true } : {}), ...(resumption ? { resumption } : {}) };
    }
    for (const v of ex.attempts) {
      v.status = status;
      v.contentType = ex.contentType;
      // No Content-Type, where the log kept the headers every HTTP response has: the response had none.
      if (noType) v.noContentType = true;
      if (retryAfter !== undefined) v.retryAfterMs = retryAfter;
      if (status !== null && status >= 400 && ts !== undefined) v.headTs = ts;
      if (challenge) v.authChallenge = true;
      if (!v.sources.includes(src)) v.sources.push(src);
      if (announced && (v.session === null || reinitialized)) this.adoptSession(ex, v, announced);
      if (reassigned !== undefined) v.sessionReassigned = reassigned;
      // The client got its initialize answered without a session id (a stateless server, or a hop that dropped it).
      if (!announced && v.method === 'initialize' && headers.size > 0 && status !== null && status >= 200 && status < 300) v.noSessionHeader = true;
    }
    if (announced && (ex.session === null || reinitialized)) {
      ex.session = announced;
      const sess = this.opts.sessions.touch(ex.side, announced, announced, ts, scopeKeyOf(ex.side, ex.input, announced), ex.input);
      if (ex.attempts.some((v) => v.method === 'initialize')) sess.announced = true;
    }
    const opened = announced !== undefined && status !== null && status >= 200 && status < 300 && ex.attempts.some((v) => v.method === 'initialize');
    if (opened && ex.side === 'server') this.sessionSet.set(`${ex.side}|${input}`, { session: announced, ts, src });
  }

  /** One payload of a response: a whole JSON body (text or parsed) or one SSE event. */
  payload(input: number, xid: string, p: { text?: string; parsed?: unknown; hasParsed: boolean; sse?: ParsedSseEvent; timing?: EventTiming }, ts: number | undefined, src: Source): void {
    const ex = this.find(input, xid);
    if (!ex) return this.stray(input, xid, p.sse ? 'an SSE event' : 'the response body', ts, src);
    if (ex.rowCopy) return;
    if (p.sse && p.timing === 'order' && ts !== undefined && ex.rowsDuplicated) {
      // The same event row again (same time, id and data, another line) on an exchange whose request row came twice: a
      // log export's duplicated row. (Without that sign it may be the server's: a server that handled a request twice
      // sent its answer twice in one millisecond. Events of one record, an SSE chunk logged whole, share its line.)
      const last = ex.lastEventRow;
      const data = signatureOf(p.sse.data, EVENT_SIGNED);
      if (last !== undefined && last.ts === ts && last.id === p.sse.id && last.data === data && (last.src.line !== src.line || last.src.file !== src.file)) return this.duplicateRow(ex, src, last.src);
      ex.lastEventRow = { ts, id: p.sse.id, data, src };
    }
    ex.lastTs = ts ?? ex.lastTs;
    if (p.sse) {
      for (const v of ex.attempts) v.sseEvents++;
      // An event that may pass the Python SDK client's 1 MiB (UTF-8 is at most 3 bytes a character): its size, as httpx's SSE parser counts it.
      if (p.sse.data.length > PY_SSE_EVENT_LIMIT / 3) {
        const size = sseEventBytes(p.sse);
        for (const v of ex.attempts) if (size > (v.largestEvent ?? 0)) v.largestEvent = size;
      }
      // A GET resuming a request's stream carries the rest of its events: counted as its, as its progress is.
      if (ex.resumes) ex.resumes.view.resumedEvents = (ex.resumes.view.resumedEvents ?? 0) + 1;
      if (p.sse.id !== undefined && p.sse.id !== '') {
        ex.primed = true;
        for (const v of ex.attempts) v.lastEventId = p.sse.id;
        if (ex.attempts.length === 1) this.rememberEventId(ex.scopeKey, p.sse.id, ex.attempts[0]!);
        if (ex.resumes) {
          ex.resumes.try.ids = (ex.resumes.try.ids ?? 0) + 1;
          ex.resumes.view.lastEventId = p.sse.id;
          this.rememberEventId(ex.scopeKey, p.sse.id, ex.resumes.view);
        }
      }
      if (p.sse.truncated) {
        for (const v of ex.attempts) if (v.response === undefined) v.cutEvent = true;
        return;
      }
      if (p.sse.event === 'endpoint' && ex.isGet) {
        // The 2024-11-05 HTTP+SSE transport: this GET stream carries the responses, and a POST's 202 is its normal
        // answer. The endpoint it announces names the session its POSTs will carry in their URL: the stream joins it.
        const sid = p.sse.data !== undefined ? legacySessionOf(p.sse.data) : null;
        const sidKey = sid !== null ? scopeKeyOf(ex.side, ex.input, sid) : undefined;
        if (sid !== null && ex.session === null) {
          ex.session = sid;
          ex.scopeKey = sidKey!;
        }
        const sess = sid !== null ? this.opts.sessions.touch(ex.side, sid, sid, ts, sidKey!, ex.input) : this.opts.sessions.get(ex.scopeKey);
        if (sess) sess.legacySse = true;
        // The server named the session here, as an initialize response does on Streamable HTTP.
        if (sess && sid !== null) sess.announced = true;
      }
      if (!isMessageEvent(p.sse)) {
        if (p.sse.event !== undefined && p.sse.data.length > 0) this.namedEvent(ex, p.sse.event, p.sse.data);
        return;
      }
    }
    let value: unknown;
    if (p.hasParsed) {
      value = p.parsed;
      // A body parsed with its line: the line's text (when it has long numbers) gives ids beyond 2^53 exactly.
      if (p.text !== undefined && containsUnsafeInteger(value)) value = { __exactText: p.text, value };
    } else {
      let text = p.sse ? p.sse.data : (p.text ?? '');
      if (text.trim() === '') return;
      if (!p.sse && text.charCodeAt(0) === 0xfeff) {
        // A byte order mark before a JSON body: fetch's json() drops it, the Python SDK's client does not (the why says).
        text = text.slice(1);
        for (const v of ex.attempts) v.bomBody = true;
      }
      try {
        value = JSON.parse(text);
      } catch (err) {
        // A 202 carries no message; the text some servers put there ("Accepted", the 2024-11-05 SSE transport's
        // answer to a POST whose response comes on the GET stream) is not a broken one.
        if (ex.status === 202 && !p.sse) return;
        if (!p.sse && typeof ex.status === 'number' && (ex.status < 200 || ex.status > 299)) {
          // An HTTP error in plain text or HTML ("session not found", a proxy's 502 page): keep what it says.
          const said = errorBodyText(text);
          if (said !== undefined) for (const v of ex.attempts) v.errorBody ??= said;
          if (ex.attempts.length === 0) ex.refusalSaid ??= said;
          if (ex.bodyless && ex.attempts.length === 0) ex.unreadSaid ??= said;
          this.refusedUnknownSession(ex, said, ts, src);
          // A DELETE answered 404 with a page that does not say the session is unknown ("Cannot DELETE /mcp", Express's
          // page for a route it lacks: jsonResponseStreamableHttp has no DELETE handler): the server cannot end
          // sessions, it did not lose this one.
          if (ex.httpMethod === 'DELETE' && ex.status === 404 && ex.refused404 !== undefined && !saysSessionUnknown(said)) {
            const sess = this.opts.sessions.get(ex.scopeKey);
            if (sess?.refused404 === ex.refused404) sess.refused404 = undefined;
          }
        }
        // A 2xx body that is a page or plain text (a proxy's 502 page under the server's 200 head): say what it says.
        // Broken JSON (cut, or a bad token inside) is not quoted back.
        const page = !p.sse && typeof ex.status === 'number' && ex.status >= 200 && ex.status <= 299 && !/^\s*[[{"]/.test(text) ? errorBodyText(text) : undefined;
        if (!p.sse && ex.encoded !== undefined) {
          // Kept as sent, compressed (a recorder mounted before a compression middleware): no sign of a broken body.
          for (const v of ex.attempts) {
            if (v.response !== undefined || v.malformed !== undefined) continue;
            v.bodyNotCaptured = true;
            v.bodyEncoded = ex.encoded;
          }
          return;
        }
        const several = !p.sse ? messagesPerLine(text) : undefined;
        const why = `${p.sse ? 'SSE data' : 'body'} is not JSON (${describeJsonError(err)})${page !== undefined ? `; it says: "${page}"` : ''}${several ?? ''}`;
        for (const v of ex.attempts) if (v.response === undefined && v.malformed === undefined) v.malformed = why;
        return;
      }
      if (containsUnsafeInteger(value)) value = { __exactText: text, value };
    }
    const { value: v, text } = unwrapExact(value);
    if (ex.carried !== undefined && ex.attempts.length === 0 && typeof ex.status === 'number' && ex.status >= 400) ex.refusalSaid ??= errorMessageOf(v);
    if (ex.bodyless && ex.attempts.length === 0 && typeof ex.status === 'number' && ex.status >= 400) ex.unreadSaid ??= errorMessageOf(v);
    const items = Array.isArray(v) ? v : [v];
    const isBatchBody = Array.isArray(v);
    for (const item of items) this.deliver(ex, item, isBatchBody ? undefined : v, text, ts, src, p.timing);
    if (isBatchBody && !ex.batchRequest && !ex.isGet) for (const a of ex.attempts) if (a.response !== undefined && items.includes(a.response)) a.batchAnswer = true;
  }

  /**
   * An event of another type than "message" (`event: result`) whose data is a JSON-RPC response to a request of the
   * stream: SSE clients hand only "message" events to the JSON-RPC layer (the MCP SDKs ignore the others), so it was
   * not taken; the request's why says so. Rare: parsed only when its data opens like a JSON object.
   */
  private namedEvent(ex: Exchange, event: string, data: string): void {
    if (ex.attempts.length === 0 || !/^\s*\{/.test(data)) return;
    let m: unknown;
    try {
      m = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof m !== 'object' || m === null || !('id' in m) || !('result' in m || 'error' in m)) return;
    const id = (m as { id: unknown }).id;
    if (!isJsonRpcId(id)) return;
    const key = idKeyOf(id);
    for (const v of ex.attempts) if (v.idKey === key && v.response === undefined) v.namedEvent ??= event.slice(0, 40);
  }

  /** Text in an exchange's event stream that was no SSE field (an HTML error page written after a 200 head). */
  nonSse(input: number, xid: string, text: string): void {
    const ex = this.find(input, xid);
    if (!ex) return;
    const said = errorBodyText(text);
    if (said !== undefined) for (const v of ex.attempts) v.nonSseText ??= said;
  }

  /** SSE comment lines on an exchange's stream (keep-alives), and when the last of them came where the log tells. */
  comments(input: number, xid: string, count: number, lastTs: number | undefined): void {
    const ex = count > 0 ? this.find(input, xid) : undefined;
    if (!ex) return;
    for (const v of ex.attempts) {
      const k = v.keepAlive;
      if (k === undefined) v.keepAlive = { count, lastTs };
      else {
        k.count += count;
        if (lastTs !== undefined && (k.lastTs === undefined || lastTs > k.lastTs)) k.lastTs = lastTs;
      }
    }
  }

  /** An exchange's response ended (or the connection failed). */
  end(input: number, xid: string, how: string, error: string | undefined, ts: number | undefined, src: Source, bodyNotCaptured = false, endUnknown = false): void {
    const ex = this.find(input, xid);
    if (!ex) return this.stray(input, xid, `the end of the response (${how})`, ts, src);
    if (ex.rowCopy) return this.close(`${input}:${xid}`, ex);
    const key = ex.key;
    ex.ended = true;
    if (ex.resumes) {
      ex.resumes.try.end = how;
      ex.resumes.try.endTs = ts ?? ex.lastTs;
    }
    if (ex.plainFor) {
      ex.plainFor.end = how;
      ex.plainFor.endTs = ts ?? ex.lastTs;
    }
    if (ex.standaloneGet && typeof ex.status === 'number' && ex.status >= 200 && ex.status <= 299 && (ts ?? ex.lastTs) !== undefined) {
      this.standaloneEnded.delete(ex.scopeKey);
      this.standaloneEnded.set(ex.scopeKey, (ts ?? ex.lastTs)!);
      trimOldest(this.standaloneEnded, SCOPES_KEPT);
    }
    if (ex.isGet && how !== 'complete' && this.opts.sessions.get(ex.scopeKey)?.legacySse) {
      // The 2024-11-05 transport's only response channel broke: every request still waiting on it lost its answer here.
      for (const v of this.open.get(ex.scopeKey)?.values() ?? []) if (v.legacySse && v.response === undefined && v.legacyCutAt === undefined) v.legacyCutAt = ts ?? ex.lastTs;
    }
    // A stream that broke: how long it had been silent (the why names it; a hop's idle timeout cuts silent streams).
    // A comment that came later (a keep-alive) ends the silence: the quiet runs from it.
    const quiet = (how === 'error' || how === 'aborted') && ts !== undefined && ex.lastTs !== undefined && ex.status !== undefined ? ts - ex.lastTs : undefined;
    if (quiet !== undefined) for (const v of ex.attempts) if (v.response === undefined) v.quietMs = Math.min(quiet, ts! - (v.keepAlive?.lastTs ?? -Infinity));
    ex.lastTs = ts ?? ex.lastTs;
    if (ex.bodyless && (ex.side === 'server' || ex.side === 'gateway') && typeof ex.status === 'number' && ex.status >= 400 && this.opts.onUnreadAnswer) {
      this.opts.onUnreadAnswer({ side: ex.side, session: ex.session, status: ex.status, ts: ex.startTs, src: ex.src, ...(ex.refusable?.size ? { headers: ex.refusable } : {}), ...(ex.unreadSaid !== undefined ? { said: ex.unreadSaid } : {}) });
    }
    if (ex.carried !== undefined && ex.attempts.length === 0 && typeof ex.status === 'number' && ex.status >= 400) this.refusedPost(ex, input);
    // A notifications/cancelled whose POST ended with no response head at all: the client aborted it (mcporter closes its
    // connection right after the SDK's timeout sent it), so it may never have left the client.
    if (ex.cancels && ex.status === undefined && how !== 'complete') for (const v of ex.cancels) if (!v.final) v.cancelLost = how;
    // Its answer came (a 202): when, for a retry the client's transport held behind it (RETRY_POLICY).
    if (ex.cancels && typeof ex.status === 'number' && ex.lastTs !== undefined) for (const v of ex.cancels) v.cancelAnsweredAt = ex.lastTs;
    for (const v of ex.attempts) {
      if (ex.status === undefined) v.status = null;
      if (bodyNotCaptured) v.bodyNotCaptured = true;
      // The capture does not say when it ended: the stream may have lasted longer than endTs says.
      if (endUnknown) v.endUnseen = true;
      v.streamEnd = how;
      v.primed = ex.primed;
      // A non-2xx with no Content-Type whose response ended with nothing in its body: a bare status line (what a
      // middleware in front of the MCP handler sends: a fault injector, a rate limiter, a PAT check).
      if (how === 'complete' && v.noContentType === true && !bodyNotCaptured && typeof v.status === 'number' && (v.status < 200 || v.status > 299) && v.response === undefined && v.strayResponse === undefined && v.errorBody === undefined && v.malformed === undefined && v.sseEvents === 0) v.bareStatus = true;
      if (error) v.error = error;
      v.endTs = ex.lastTs;
      const known = this.opts.sessions.get(ex.scopeKey)?.requestIds.get(v.idKey);
      if (known && known.src === v.sources[0]) {
        known.end = ex.lastTs;
        known.status = v.status;
        known.answer = v.response !== undefined && typeof v.status === 'number' && v.status >= 200 && v.status <= 299 ? (unreadBody(v) === undefined ? 'result' : 'refused') : v.response === undefined && hasIdKey(v.strayResponse) ? 'stray' : 'failed';
      }
      if (!v.sources.includes(src)) v.sources.push(src);
      if (v.response !== undefined || v.status === null || (typeof v.status === 'number' && (v.status < 200 || v.status > 299))) this.finalize(v);
      else this.schedule(v, ex.lastTs);
    }
    this.close(key, ex);
    // (A whole exchange's end comes from its own record: no row of it can come again apart.)
    if (ts !== undefined && !xid.startsWith('\u0001')) {
      this.recentEnds.set(key, { ts, startTs: ex.startTs, scopeKey: ex.scopeKey, src: ex.src, end: src, head: ex.responseSrc });
      trimOldest(this.recentEnds, RECENT_ENDS_KEPT);
    }
  }

  /**
   * A message-level response repeated at its answer's time is a duplicated row when its content is the same, or cannot
   * be compared (its answer is no longer kept: time alone decides, as before content was compared).
   */
  private sameAnswer(ts: number | undefined, key: string, msg: unknown): boolean {
    const first = this.answeredLast.ts === ts ? this.answeredLast.byKey.get(key) : undefined;
    return first === undefined || first === msg || JSON.stringify(first) === JSON.stringify(msg);
  }

  /** A message-level record (no HTTP layer). */
  message(r: RequestIn & { direction: 'c2s' | 's2c'; status?: number | undefined; error?: string | undefined; durationMs?: number | undefined; noResponse?: 'connect-failed' | 'no-head' | undefined; bodyUnlogged?: 'json' | 'unlike' | undefined; malformed?: string | undefined; invalidEnvelope?: string | undefined; inputRequired?: string | undefined; bareStatus?: boolean | undefined; retryAfter?: string | undefined }): void {
    const scope = r.session ?? r.conn ?? r.client ?? `input#${r.input}`;
    const scopeKey = scopeKeyOf(r.side, r.input, scope);
    const sess = this.opts.sessions.touch(r.side, scope, r.session, r.ts, scopeKey, r.input);
    sess.clientKey ??= callerKey(r.client, r.conn, r.input);
    if (r.rebuilt) sess.rebuilt = true;
    // The producer sends only an id its server gave it (the Python SDK's "Received session ID" line): announced.
    if (r.sessionSent && r.session !== null) sess.announced = true;
    const items = Array.isArray(r.body) ? r.body : [r.body];
    for (const m of items) {
      if (typeof m !== 'object' || m === null) continue;
      const msg = m as Record<string, unknown>;
      const isRequest = typeof msg.method === 'string' && isJsonRpcId(msg.id);
      if (r.direction === 'c2s') {
        if (isRequest) {
          const view = this.newView(r, scope, scopeKey, msg, r.bodyText);
          if (r.status !== undefined) view.status = r.status;
          if (!this.register(scopeKey, view, sess, r.conn != null)) continue;
          // A message log's era detection, as an exchange's: its refused server/discover probe then its initialize.
          if (r.session === null && (msg.method === 'initialize' || msg.method === 'server/discover')) this.versionProbe(sess, view, msg.method, r.ts);
          if (r.status !== undefined && (r.status < 200 || r.status > 299)) {
            view.endTs = r.ts;
            this.finalize(view);
          } else if (r.error !== undefined) {
            // The writer's wait ended without a response (a span that ended with an exception); a cancellation of it
            // may still follow in the log.
            view.error = r.error;
            if (r.ts !== undefined && r.durationMs !== undefined) view.endTs = r.ts + r.durationMs;
            this.schedule(view, view.endTs);
          } else if (r.ts === undefined) this.schedule(view, r.ts);
          else this.awaiting.add(view);
        } else if (typeof msg.method === 'string') {
          if (msg.id !== undefined) this.badId(r.src, msg.method, msg.id);
          this.clientNotification(scopeKey, msg, r.src, sess, r.ts);
        }
        continue;
      }
      if (typeof msg.method === 'string') {
        if (!isJsonRpcId(msg.id)) this.serverNotification(scopeKey, msg, r.ts);
        continue;
      }
      const id = msg.id;
      this.answered.add(r.input);
      const views = this.open.get(scopeKey);
      const found = isJsonRpcId(id) ? views?.get(idKeyOf(id, exactIdText(r.bodyText, id))) : undefined;
      // (Another input's request with this id: where two logs of one side hold it, this input's own is answered.)
      const view = !isJsonRpcId(id) ? undefined : found === undefined ? this.openingAnswered(r, id) : found.input === r.input ? found : ownView(found, r.input) ?? this.openingAnswered(r, id) ?? found;
      if (!view) {
        const key = isJsonRpcId(id) ? idKeyOf(id, exactIdText(r.bodyText, id)) : undefined;
        const closedAt = key !== undefined ? this.closedCalls.get(`${scopeKey} ${key}`) : undefined;
        if (closedAt !== undefined) {
          this.closedCalls.delete(`${scopeKey} ${key}`);
          this.lateAfterWindow.exchanges++;
          const gap = r.ts !== undefined ? r.ts - closedAt : undefined;
          if (gap !== undefined && gap > this.lateAfterWindow.longestGapMs) this.lateAfterWindow.longestGapMs = gap;
          this.opts.onStray?.(r.input, r.src, `the response to id ${jsonText(id)} came${gap !== undefined ? ` ${(gap / 1000).toFixed(1)} s after its request,` : ''} after ${this.opts.openMs / 1000} s without it had closed the call as unanswered: not analyzed (a longer --window follows slower calls)`);
          continue;
        }
        const known = key !== undefined ? sess.requestIds.get(key) : undefined;
        const rejected = r.status !== undefined && (r.status < 200 || r.status > 299); // an HTTP rejection's error body (see deliver)
        if (known && sess.answered?.get(key!) === r.ts && this.sameAnswer(r.ts, `${scopeKey} ${key}`, msg)) (sess.duplicates ??= []).push({ what: `the response to id ${jsonText(id)}`, first: known.src, dup: r.src });
        else if (!known && id !== null && id !== undefined && !rejected) (sess.orphans ??= []).push({ id: id as JsonRpcId, src: r.src });
        else if (known && sess.answered?.has(key!) && !rejected) (sess.orphans ??= []).push({ id: id as JsonRpcId, src: r.src, when: 'after' });
        continue;
      }
      if (r.status === undefined && r.error !== undefined && !('result' in msg) && !('error' in msg)) {
        // The client closed the request before any response (the Python SDK client's aborted POST): its end.
        view.streamEnd = 'aborted';
        view.error = r.error;
        if (r.noResponse !== undefined) view.noResponse = r.noResponse;
        view.answersUnlogged = undefined;
        view.endTs = r.ts ?? view.endTs;
        view.sources.push(r.src);
        this.finalize(view);
        continue;
      }
      if (r.bodyUnlogged !== undefined && r.error !== undefined && !('result' in msg) && !('error' in msg)) {
        // An answer came in a body the log does not hold (the Python SDK client's DEBUG log: application/json, read to
        // its end): what is known of it; the view stays open for the other side's view (the server's log has the answer).
        view.unloggedAnswer = r.error;
        if (r.bodyUnlogged === 'unlike') view.unloggedUnlike = true;
        view.endTs = r.ts ?? view.endTs;
        view.sources.push(r.src);
        // (and the log shows that body did not parse, or was no response to it: MALFORMED_JSON or INVALID_ENVELOPE; or
        // that it was an input_required result: INPUT_REQUIRED; whatever the other side's view says; ended here)
        if (r.malformed !== undefined || r.invalidEnvelope !== undefined || r.inputRequired !== undefined) {
          if (r.malformed !== undefined) view.malformed = r.malformed;
          else if (r.invalidEnvelope !== undefined) view.unloggedEnvelope = r.invalidEnvelope;
          else view.unloggedInput = r.inputRequired;
          if (r.status !== undefined) view.status = r.status;
          this.finalize(view);
        }
        continue;
      }
      if (r.status !== undefined && !('result' in msg) && !('error' in msg) && ((r.status < 200 || r.status > 299) || r.error !== undefined)) {
        // Only the HTTP status of the request's POST, tied to it by the log (the Python SDK client's httpx line), or a
        // 2xx head whose SSE stream then broke: its end, with no response (which the log does not leave out, then).
        view.status = r.status;
        if (r.status < 200 || r.status > 299) {
          if (r.error !== undefined) view.statusWhy = r.error;
          if (r.bareStatus === true) view.bareStatus = true;
          const retryAfter = parseRetryAfter(r.retryAfter, r.ts);
          if (retryAfter !== undefined) view.retryAfterMs = retryAfter;
        } else {
          view.streamEnd = 'aborted';
          view.contentType = 'text/event-stream';
          if (r.error !== undefined) view.error = r.error;
          view.answersUnlogged = undefined;
        }
        view.endTs = r.ts ?? view.endTs;
        view.sources.push(r.src);
        this.finalize(view);
        continue;
      }
      (sess.answered ??= new Map()).set(view.idKey, r.ts);
      if (r.ts !== undefined) {
        // (An untimed log keeps none: they would pile up under one "time".)
        if (this.answeredLast.ts !== r.ts) this.answeredLast = { ts: r.ts, byKey: new Map() };
        this.answeredLast.byKey.set(`${scopeKey} ${view.idKey}`, msg);
      }
      view.response = msg;
      if (r.ts !== undefined) view.responseTs = r.ts;
      else noteAnswerAfterCancel(view, r.src);
      if (r.status !== undefined) view.status = r.status;
      view.endTs = r.ts ?? view.endTs;
      view.sources.push(r.src);
      this.finalize(view);
    }
  }

  /**
   * Requests answered with a result whose client's own timeout sent notifications/cancelled after that answer had ended
   * (by scope and id, the latest CLOSED_KEPT): their attempts, final already and on their way to the call linker, are
   * marked as they reach it (takeCrossedTimeout).
   */
  private readonly crossedTimeouts = new Map<string, { ts: number; ms: number }>();

  /** The crossed timeout of the request with this id in this scope, if any (taken once). */
  takeCrossedTimeout(scopeKey: string, idKey: string): { ts: number; ms: number } | undefined {
    if (this.crossedTimeouts.size === 0) return undefined;
    const key = `${scopeKey} ${idKey}`;
    const c = this.crossedTimeouts.get(key);
    if (c !== undefined) this.crossedTimeouts.delete(key);
    return c;
  }

  /** A client's requests it cancelled whose views are not final yet (their stream still open), by call fingerprint. */
  private readonly cancelledByCall = new Map<number, Set<AttemptView>>();

  /**
   * Whether a client's request with this fingerprint, started before `start`, was cancelled by its client and is still
   * open here: an app's retry after a timeout waits for it (see Matcher.release), so the call linker sees it first.
   */
  cancelledOpenBefore(fingerprint: number, start: number): boolean {
    for (const v of this.cancelledByCall.get(fingerprint) ?? []) if (v.startTs !== undefined && v.startTs < start) return true;
    return false;
  }

  /** Exchanges closed --window after their client cancelled every request on them, the stream still open (see advance). */
  private readonly cancelledClosed = new Map<string, number>();
  /** Inputs that have shown an answer (a response message) of a message log. */
  private readonly answered = new Set<number>();
  /** Message-log inputs whose requests were finalized unanswered before the input showed any answer (see finalize). */
  readonly requestsOnly = new Set<number>();

  /** Time has passed: finalize what can no longer receive anything. */
  advance(watermark: number): void {
    if (watermark <= this.watermark) return;
    this.watermark = watermark;
    const q = this.queue;
    while (this.queueHead < q.length) {
      const p = q[this.queueHead]!;
      if (p.deadline > watermark) break;
      this.queueHead++;
      if (!isFinal(p.view)) this.finalize(p.view);
    }
    if (this.queueHead > 4096 && this.queueHead * 2 > q.length) {
      this.queue = q.slice(this.queueHead);
      this.queueHead = 0;
    }
    for (const [key, ex] of this.exchanges) {
      if (ex.lastTs !== undefined && ex.lastTs + this.opts.openMs < watermark) this.abandon(key, ex, true);
      else if (ex.attempts.length > 0 && ex.lastTs !== undefined && ex.lastTs + this.opts.windowMs < watermark && this.cancelledOpen(ex, watermark)) {
        // Every request on it was cancelled by its client, and --window has passed since with the stream still open and
        // silent (the TypeScript SDK 1.x leaves a timed-out call's stream open until its session closes): its caller was
        // done at the cancellation, so the attempt goes on to be linked with the app's retry now, not at the session's end.
        this.cancelledClosed.set(key, ex.lastTs);
        trimOldest(this.cancelledClosed, CLOSED_KEPT);
        this.abandon(key, ex);
      }
    }
    if (this.closedTokens.size) this.sweepTokens(watermark);
    if (watermark >= this.lastOpenSweep + OPEN_SWEEP_MS) {
      this.lastOpenSweep = watermark;
      // In the order the requests came (a Set keeps it), so the walk stops at the first one still in time; one read
      // out of order behind it waits at most the order tolerance longer.
      for (const v of this.awaiting) {
        if (v.startTs! + this.opts.openMs >= watermark) break;
        v.openAfterMs = this.opts.openMs;
        this.closeUnanswered(v);
      }
      if (this.parked.size) this.unpark(watermark);
      for (const [scopeKey, views] of this.open) {
        if (views.size > 0) continue;
        this.open.delete(scopeKey);
        this.sessionlessScopes.delete(scopeKey);
      }
    }
  }

  /** End of all input: everything still open is final now. */
  flush(): void {
    for (const [key, ex] of this.exchanges) this.abandon(key, ex);
    this.unpark(Infinity);
    const rest = [...this.queue.slice(this.queueHead).map((p) => p.view), ...this.awaiting];
    this.queue = [];
    this.queueHead = 0;
    rest.sort((a, b) => (a.startTs ?? 0) - (b.startTs ?? 0));
    for (const v of rest) if (!isFinal(v)) this.finalize(v);
    for (const views of this.open.values()) for (const v of views.values()) if (!isFinal(v)) this.finalize(v);
    this.open.clear();
    this.sessionlessScopes.clear();
  }

  /** The earliest start among the requests still open (not final), or Infinity. */
  earliestOpenStart(): number {
    let min = Infinity;
    for (const views of this.open.values()) {
      for (const v of views.values()) if (!isFinal(v) && v.startTs !== undefined && v.startTs < min) min = v.startTs;
    }
    return min;
  }

  /**
   * Whether a request with this view's session (or the other side's id of it: a gateway that rewrites session ids, see
   * SessionPairs) and id is still open on the other side (client against server or gateway). Without a session: one
   * with its id and call (fingerprint) in a scope without a session, started within `nearMs` of it (the other side's
   * scope is its own connection's or log's, and a stateless server's ids repeat across its clients).
   */
  openOnOtherSide(view: AttemptView, session: string | null = view.session, nearMs = Infinity): boolean {
    const sides: ViewSide[] = view.side === 'client' ? ['server', 'gateway'] : view.side === 'unknown' ? [] : ['client'];
    if (session === null) {
      for (const key of this.sessionlessScopes) {
        if (!sides.some((side) => key.startsWith(`${side}|`))) continue;
        const open = this.open.get(key)?.get(view.idKey);
        if (open === undefined || isFinal(open) || open.fingerprint !== view.fingerprint) continue;
        if (open.startTs === undefined || view.startTs === undefined || Math.abs(open.startTs - view.startTs) <= nearMs) return true;
      }
      return false;
    }
    for (const side of sides) {
      const open = this.open.get(`${side}|${session}`)?.get(view.idKey);
      if (open !== undefined && !isFinal(open)) return true;
    }
    return false;
  }

  /** Number of exchanges and requests still held (for tests of bounded memory). */
  held(): { exchanges: number; open: number; scopes: number; tokens: number; reconnects: number } {
    let open = 0;
    for (const m of this.open.values()) open += m.size;
    return { exchanges: this.exchanges.size, open, scopes: this.open.size, tokens: this.closedTokens.size, reconnects: this.plainReconnects.size + this.unreadResumes.size };
  }

  /** A message-level request that waited openMs for its response while the log went on: final, unanswered. */
  private closeUnanswered(v: AttemptView): void {
    this.closedCalls.set(`${v.scopeKey} ${v.idKey}`, v.startTs!);
    this.finalize(v);
  }

  /** The log ends, or (byWindow) openMs passed since the exchange's last record, before the exchange ended. */
  private abandon(key: string, ex: Exchange, byWindow = false): void {
    this.close(key, ex);
    if (byWindow) {
      this.closed.set(key, ex.lastTs ?? this.watermark);
    }
    for (const v of ex.attempts) {
      if (isFinal(v)) continue;
      if (ex.status === undefined) v.status = null;
      if (byWindow) v.openAfterMs = this.opts.openMs;
      v.streamEnd = v.streamEnd ?? 'cut';
      v.primed = ex.primed;
      v.endTs = v.endTs ?? ex.lastTs;
      // The log shows no end: the stream was still open at its last record (or the window closed it).
      v.endUnseen = true;
      if (v.response !== undefined) this.finalize(v);
      else this.schedule(v, ex.lastTs);
    }
  }

  private newView(r: RequestIn, scope: string, scopeKey: string, msg: Record<string, unknown>, bodyText: string | undefined): AttemptView {
    const id = msg.id as JsonRpcId;
    const idText = exactIdText(bodyText, id);
    const params = (typeof msg.params === 'object' && msg.params !== null ? msg.params : {}) as Record<string, unknown>;
    const tool = msg.method === 'tools/call' && typeof params.name === 'string' ? params.name : null;
    const target = targetOf(msg.method as string, params);
    const view = newAttemptView({
      side: r.side,
      input: r.input,
      session: r.session,
      scope,
      scopeKey,
      client: r.client ?? null,
      caller: callerKey(r.client, r.conn, r.input),
      signature: r.signature ?? signatureOf(`${r.ts}|${r.xid}`),
      id,
      idKey: idKeyOf(id, idText),
      method: msg.method as string,
      tool,
      fingerprint: fingerprint(msg.method as string, tool, params),
      continuation: 'inputResponses' in params || 'requestState' in params,
      http: r.http,
      weakId: r.weakId,
      startTs: r.ts,
      endTs: r.ts,
      status: undefined,
      contentType: undefined,
      sseEvents: 0,
      progress: 0,
      serverRequests: 0,
      sentSession: r.session !== null && (r.http || r.sessionSent === true),
      sources: [r.src],
      final: false,
    });
    if (target !== undefined) view.target = target;
    if (r.endpoint !== undefined) view.endpoint = r.endpoint;
    if (r.addressed !== undefined) view.addressed = r.addressed;
    if (r.rebuilt) view.rebuilt = true;
    if (r.answersUnlogged) view.answersUnlogged = true;
    if (idText !== undefined) view.idText = idText;
    if (typeof params.requestState === 'string') view.echoedState = signatureOf(params.requestState);
    if (tool !== null && typeof params.inputResponses === 'object' && params.inputResponses !== null) {
      const answer = refusedInput(params.inputResponses as Record<string, unknown>);
      if (answer !== undefined) view.inputAnswer = answer;
    }
    if (tool !== null && typeof params.task === 'object' && params.task !== null) view.taskAugmented = true;
    if (typeof params.taskId === 'string' && view.method.startsWith('tasks/')) view.taskId = params.taskId.slice(0, 200);
    const meta = typeof params._meta === 'object' && params._meta !== null ? (params._meta as Record<string, unknown>) : undefined;
    if (meta && isJsonRpcId(meta.progressToken)) view.progressToken = idKeyOf(meta.progressToken);
    if (tool !== null && params.arguments !== undefined) view.callArgs = params.arguments;
    else if (tool !== null) view.noArgs = true;
    if (tool !== null && typeof meta?.callId === 'string' && meta.callId.length <= 200) view.callerCallId = meta.callId;
    const clientName = implementationName(view.method === 'initialize' ? params.clientInfo : meta?.['io.modelcontextprotocol/clientInfo']);
    if (clientName !== undefined) view.clientName = clientName;
    const traceparent = typeof meta?.traceparent === 'string' ? TRACEPARENT.exec(meta.traceparent) : null;
    if (traceparent) view.traceKey = `${traceparent[1]!.toLowerCase()}-${traceparent[2]!.toLowerCase()}`;
    if (view.method === 'tools/list' && params.cursor !== undefined) view.nextPage = true;
    if (typeof params.cursor === 'string' && params.cursor.length <= 200 && view.method.endsWith('/list')) view.listCursor = params.cursor;
    if (view.method === 'initialize') view.initialize = { clientInfo: params.clientInfo, requestedProtocolVersion: params.protocolVersion };
    else if (view.method === 'server/discover') {
      // 2026-07-28 has no initialize: the client names itself in the request's _meta, the server in the result's.
      const meta = (typeof params._meta === 'object' && params._meta !== null ? params._meta : {}) as Record<string, unknown>;
      view.initialize = { clientInfo: meta['io.modelcontextprotocol/clientInfo'], requestedProtocolVersion: meta['io.modelcontextprotocol/protocolVersion'] };
    }
    if (r.note) view.note = r.note;
    if (r.headers.size) {
      view.requestHeaders = r.headers;
      view.authDigest = signatureOf(r.headers.get('authorization') ?? '');
    }
    // A 2026-07-28 request names its protocol version in _meta too: a log without headers still tells it.
    const metaVersion = meta?.['io.modelcontextprotocol/protocolVersion'];
    if (typeof metaVersion === 'string' && metaVersion.length <= 40) view.metaProtocol = metaVersion;
    view.seq = this.seq++;
    return view;
  }

  /** Index a new request; false when it is an identical copy of one already seen (a duplicated log row). */
  private register(scopeKey: string, view: AttemptView, sess: ReturnType<SessionTracker['touch']>, byConn: boolean): boolean {
    if (sess.legacySse) view.legacySse = true;
    if (view.taskAugmented) sess.tasks = true;
    const known = sess.requestIds.get(view.idKey);
    // (An untimed log's identical rows are not told from a request sent again: a log platform's duplicates have times.)
    if (known && view.startTs !== undefined && known.signature === view.signature && known.fingerprint === view.fingerprint && (known.src.file === view.sources[0]!.file || this.opts.sameLog?.(known.src.file, view.sources[0]!.file) === true)) {
      (sess.duplicates ??= []).push({ what: `${view.method} id ${view.idText ?? jsonText(view.id)}`, first: known.src, dup: view.sources[0]! });
      return false;
    }
    let views = this.open.get(scopeKey);
    if (!views) {
      this.open.set(scopeKey, (views = new Map()));
      if (view.session === null) this.sessionlessScopes.add(scopeKey);
    }
    const earlier = views.get(view.idKey);
    // Ids are not shared across callers that a scope cannot tell apart (a server log without sessions), nor across
    // initialize requests sent before their sessions exist (each new session has its own id space).
    // Nor across client instances that share a sessionless scope no connection key names (two Clients behind one
    // recording proxy, on a stateless server): once it saw two initialize (or server/discover) requests, each
    // instance numbers its own ids.
    if (view.session === null && !byConn && (view.method === 'initialize' || view.method === 'server/discover')) sess.openings = (sess.openings ?? 0) + 1;
    const sharedScope = view.session === null && !byConn && (sess.openings ?? 0) > 1;
    const ambiguousScope = (view.side === 'server' && view.scope.startsWith('input#')) || (view.method === 'initialize' && view.session === null) || sharedScope;
    if (earlier && !isFinal(earlier) && !ambiguousScope && earlier.response === undefined && earlier.streamEnd !== undefined && earlier.method === view.method && earlier.fingerprint === view.fingerprint && (earlier.endTs === undefined || view.startTs === undefined || earlier.endTs <= view.startTs)) {
      // The same request posted again under its id once its stream had ended without the response (Cline's client
      // re-sends a tools/call whose SSE stream broke): the client gave that stream up, so the earlier attempt is over
      // (no answer can come for it any more) and this is a re-send of it, not a reuse of an id still open.
      this.finalize(earlier);
    }
    if (earlier && !isFinal(earlier) && !ambiguousScope && secondView(earlier, view) && this.opts.sameLog?.(earlier.sources[0]!.file, view.sources[0]!.file) !== true) {
      // Another input's view of the same request (two logs of one side: an app's own log and a capture of it): no
      // reuse; each keeps its own answers (see ownView), and the matcher takes the two as one attempt.
      view.shadowed = earlier;
    } else if (earlier && !isFinal(earlier) && !ambiguousScope) {
      view.reusedWhileOpen = earlier.sources[0]!;
      view.shadowed = earlier;
    } else if (earlier && !isFinal(earlier) && sharedScope) {
      // Two client instances of a shared sessionless scope sent the same id (no reuse: each numbers its own): the
      // earlier one, still open, owns the id again when this one ends, and a cancellation may be for either.
      view.shadowed = earlier;
    } else if (known && !ambiguousScope && known.end !== undefined && view.startTs !== undefined && known.ts !== undefined && view.startTs >= known.ts && view.startTs < known.end) {
      // A whole-exchange record already ended in the log, but in time it was still open when this one started.
      view.reusedWhileOpen = known.src;
    }
    views.set(view.idKey, view);
    sess.requestIds.set(view.idKey, { ts: view.startTs, signature: view.signature, fingerprint: view.fingerprint, src: view.sources[0]! });
    const parked = this.parked.get(scopeKey)?.get(view.idKey);
    if (parked && (parked.until === undefined || view.startTs === undefined || view.startTs <= parked.until)) {
      // Its response came on a GET stream whose record was read first (see `parked`).
      this.parked.get(scopeKey)!.delete(view.idKey);
      view.response = parked.msg;
      view.sources.push(parked.src);
    }
    // A cancellation read before its request, which started before it: a log whose records are not in time order (a
    // HAR writer that puts each entry down when its stream ends, long after the cancellation's own entry).
    // In the server's view, one that came before its request, by less than OVERTAKEN_MS, overtook it on the way (a hop
    // held the request past the client's timeout; the cancellation, a POST of its own, went through at once).
    const early = sess.cancels?.findIndex((c) => c.after === undefined && c.ts !== undefined && view.startTs !== undefined && (c.ts >= view.startTs || (view.side === 'server' && view.startTs - c.ts <= OVERTAKEN_MS)) && idKeyOf(c.id) === view.idKey) ?? -1;
    if (early >= 0) {
      const c = sess.cancels!.splice(early, 1)[0]!;
      view.cancelled = true;
      view.cancelledAt = c.ts;
      if (c.ts! < view.startTs!) view.cancelOvertook = view.startTs! - c.ts!;
      if (c.reason !== undefined) view.cancelReason = c.reason;
      view.sources.push(c.src);
    }
    return true;
  }

  /**
   * A log without times: a request of the same call its client cancelled earlier in the same file, still unanswered
   * when this one (its re-send, most likely) ends, ends first, as its time would have sent it to the call linker (with
   * no times, nothing else would end it before the input does, and its re-send would reach the linker first).
   */
  private finalizeCancelledBefore(view: AttemptView): void {
    const same = this.cancelledByCall.get(view.fingerprint);
    const at = view.sources[0];
    if (!same || at === undefined) return;
    for (const c of [...same]) {
      const src = c.cancelSrc;
      if (c.startTs !== undefined || c.response !== undefined || src === undefined || c.scopeKey !== view.scopeKey || src.file !== at.file || src.line > at.line) continue;
      this.finalize(c);
    }
  }

  /** Parked responses whose GET stream ended more than a window before `watermark` (all with Infinity) are orphans. */
  private unpark(watermark: number): void {
    for (const [scopeKey, scope] of this.parked) {
      for (const [key, p] of scope) {
        if (p.until !== undefined && p.until + this.opts.windowMs >= watermark) continue;
        scope.delete(key);
        const sess = this.opts.sessions.get(scopeKey);
        const known = sess?.requestIds.get(key);
        if (sess && !known) (sess.orphans ??= []).push({ id: p.id, src: p.src });
        // A request with its id was sent only after the response came (a server that writes every response to every
        // session's stream, as supergateway's SSE mode does): no request was waiting for it.
        else if (sess && p.until !== undefined && known!.ts !== undefined && known!.ts > p.until) (sess.orphans ??= []).push({ id: p.id, src: p.src, when: 'before' });
      }
      if (scope.size === 0) this.parked.delete(scopeKey);
    }
  }

  private adoptSession(ex: Exchange, v: AttemptView, session: string): void {
    const views = this.open.get(ex.scopeKey);
    if (views?.get(v.idKey) === v) views.delete(v.idKey);
    v.session = session;
    v.scope = session;
    const scopeKey = scopeKeyOf(ex.side, ex.input, session);
    v.scopeKey = scopeKey;
    ex.scopeKey = scopeKey;
    let target = this.open.get(scopeKey);
    if (!target) this.open.set(scopeKey, (target = new Map()));
    target.set(v.idKey, v);
    const sess = this.opts.sessions.touch(ex.side, session, session, v.startTs, scopeKey, ex.input);
    sess.requestIds.set(v.idKey, { ts: v.startTs, signature: v.signature, fingerprint: v.fingerprint, src: v.sources[0]! });
  }

  /**
   * A message log (an application's log lines) names the session only once the initialize response set it: a response
   * under a session that answers the same input's initialize (or server/discover) sent without one answers that
   * request, which takes the session, as an HTTP exchange's request does (see adoptSession).
   */
  private openingAnswered(r: RequestIn, id: JsonRpcId): AttemptView | undefined {
    if (r.session === null) return undefined;
    const bare = this.open.get(scopeKeyOf(r.side, r.input, r.conn ?? r.client ?? `input#${r.input}`));
    const v = bare?.get(idKeyOf(id, exactIdText(r.bodyText, id)));
    if (!v || isFinal(v) || v.session !== null || (v.method !== 'initialize' && v.method !== 'server/discover')) return undefined;
    bare!.delete(v.idKey);
    v.session = r.session;
    v.scope = r.session;
    v.scopeKey = scopeKeyOf(r.side, r.input, r.session);
    let target = this.open.get(v.scopeKey);
    if (!target) this.open.set(v.scopeKey, (target = new Map()));
    // Another log of this side already holds the opening under that session (a capture beside the client's own log).
    const there = target.get(v.idKey);
    if (there !== undefined && !isFinal(there) && secondView(there, v)) {
      v.shadowed = there;
    }
    target.set(v.idKey, v);
    const sess = this.opts.sessions.touch(r.side, r.session, r.session, v.startTs, v.scopeKey, r.input);
    sess.requestIds.set(v.idKey, { ts: v.startTs, signature: v.signature, fingerprint: v.fingerprint, src: v.sources[0]! });
    return v;
  }

  /**
   * A GET stream or a notification refused with 400 whose body says the server does not know the session id it carried
   * (the older SDK example servers' answer where the spec asks 404): the session is gone too (SESSION_EXPIRED).
   */
  private refusedUnknownSession(ex: Exchange, said: string | undefined, ts: number | undefined, src: Source): void {
    if (ex.status !== 400 || ex.attempts.length > 0 || !ex.sentSession || !saysSessionUnknown(said)) return;
    const sess = this.opts.sessions.get(ex.scopeKey);
    if (sess && sess.refused404 === undefined) sess.refused404 = { what: refusedWhat(ex), src, ts, status: 400, said, ...(ex.carried === INITIALIZED ? { initialized: true } : {}) };
  }

  /**
   * A POST with no request in it (a notification, an answer to the server) got an HTTP error: kept for the session's
   * NOTIFICATION_REFUSED, unless it is a lost session's 404 (or 400 that says so), which is SESSION_EXPIRED.
   */
  private refusedPost(ex: Exchange, input: number): void {
    const sess = this.opts.sessions.get(ex.scopeKey);
    // A 400 that says the session id is not valid is a lost session only when the POST carried one: without one, the
    // client never had it (a hop dropped the initialize response's Mcp-Session-Id), and the refusal is this one's.
    if (!sess || typeof ex.status !== 'number' || (ex.status === 404 && ex.session !== null) || (ex.status === 400 && ex.sentSession && saysSessionUnknown(ex.refusalSaid))) return;
    if (ex.carried === GET_STREAM) {
      // 405 is how a server says it offers no GET stream (the spec's answer, not a fault); a refused resumption of a
      // call's stream is told in that call's why.
      if (ex.status === 405 || ex.resumes) return;
      if (ex.session === null && this.openedBefore(ex, input)) return;
      // The same refusal in another log of the session (the server's, beside the client's) is one finding: the client's
      // log's, which counts every refusal that reached the client (a hop's too, which the server's log lacks), whichever
      // log showed the first; between other logs, the first one's. A sessionless one, by its status and time.
      if (ex.session !== null) {
        const others = VIEW_SIDES.filter((side) => side !== ex.side).map((side) => this.opts.sessions.get(`${side}|${ex.session}`)?.refusedGets?.find((g) => g.status === ex.status && !g.counted));
        if (ex.side !== 'client' && others.some((g) => g !== undefined)) return;
        for (const g of others) if (g) g.counted = true;
      }
      if (ex.session === null) {
        const near = (g: SessionlessRefusal) => g.side !== ex.side && g.entry.status === ex.status && g.ts !== undefined && ex.startTs !== undefined && Math.abs(g.ts - ex.startTs) <= SAME_REFUSAL_MS;
        if (this.sessionlessRefusals.some(near)) return;
      }
      const gets = (sess.refusedGets ??= []);
      let entry = gets.find((g) => g.status === ex.status);
      if (entry) {
        entry.count++;
        entry.lastTs = ex.startTs ?? entry.lastTs;
      } else if (gets.length < 4) {
        entry = { status: ex.status, count: 1, src: ex.src, ts: ex.startTs, lastTs: ex.startTs, ...(ex.refusalSaid !== undefined ? { said: ex.refusalSaid } : {}),
          // A GET without a session id before any initialize of its log: the old HTTP+SSE transport's connect, no session's stream.
          ...(ex.session === null && !this.lastOpening.has(`${ex.side}|${input}`) ? { noOpening: true } : {}) };
        gets.push(entry);
      }
      // The SDK's reconnect without Last-Event-ID after a resumption of a call's stream broke before its first event.
      if (entry && ex.plainFor) entry.afterResumption = (entry.afterResumption ?? 0) + 1;
      if (ex.session === null && entry) {
        this.sessionlessRefusals.push({ side: ex.side, input, ts: ex.startTs, entry });
        if (this.sessionlessRefusals.length > 16) this.sessionlessRefusals.shift();
      }
      return;
    }
    const list = (sess.refusedPosts ??= []);
    const noSession = !ex.sentSession && ex.status === 400 && saysSessionUnknown(ex.refusalSaid);
    const entry: RefusedPost = { what: ex.carried!, status: ex.status, src: ex.src, ts: ex.startTs, ...(ex.refusalSaid !== undefined ? { said: ex.refusalSaid } : {}), ...(noSession ? { noSession } : {}) };
    const lostId = noSession ? this.lostIdBefore(ex, input) : undefined;
    if (lostId) entry.lostId = lostId;
    if (noSession && this.refusedInClientLog(ex.side, entry, list)) return;
    if (list.length < 8) list.push(entry);
  }

  /**
   * The session id a server log's last initialize response set, not carried back since, within the window before this
   * exchange. (Not a gateway's log: beside the server's and the client's, one refusal would be told twice.)
   */
  private lostIdBefore(ex: Exchange, input: number): RefusedPost['lostId'] {
    const set = ex.side === 'server' ? this.sessionSet.get(`${ex.side}|${input}`) : undefined;
    if (!set) return undefined;
    const ms = set.ts !== undefined && ex.startTs !== undefined ? ex.startTs - set.ts : undefined;
    if (ms !== undefined && (ms < 0 || ms > this.opts.windowMs)) return undefined;
    return { session: set.session, src: set.src, ms, log: `${ex.side}|${input}` };
  }

  /**
   * A sessionless POST refused for its missing session id, in the client's log and in the server's, which knows the
   * id it had set (lostId): one refusal, told once, as the client's log tells it (it knows the id never reached the
   * client). The server's record read first is withdrawn from its scope; one read second is not kept (true).
   */
  private refusedInClientLog(side: ViewSide, entry: RefusedPost, list: RefusedPost[]): boolean {
    const client = side === 'client';
    if (!client && !entry.lostId) return false;
    let other: SessionlessPost | undefined;
    let best = Infinity;
    for (const p of this.sessionlessPosts) {
      if (p.paired || (p.side === 'client') === client || p.entry.status !== entry.status || p.entry.what !== entry.what) continue;
      const gap = p.entry.ts !== undefined && entry.ts !== undefined ? Math.abs(p.entry.ts - entry.ts) : Infinity;
      if (gap <= SAME_REFUSAL_MS && gap < best) [other, best] = [p, gap];
    }
    if (!other) {
      this.sessionlessPosts.push({ side, list, entry, paired: false });
      if (this.sessionlessPosts.length > 16) this.sessionlessPosts.shift();
      return false;
    }
    other.paired = true;
    if (!client) return true;
    const i = other.list.indexOf(other.entry);
    if (i >= 0) other.list.splice(i, 1);
    return false;
  }

  /** The log's client sent an initialize (or server/discover) within the window before this exchange. */
  private openedBefore(ex: Exchange, input: number): boolean {
    const at = this.lastOpening.get(`${ex.side}|${input}`);
    return at !== undefined && (ex.startTs === undefined || ex.startTs - at <= this.opts.windowMs);
  }

  /**
   * A request the server sent outside any call's stream (the standalone GET stream) for a task (its
   * `io.modelcontextprotocol/related-task` metadata, 2025-11-25): it belongs to the open tasks/result waiting on that
   * task, as if it had come on that call's stream (the SDK's servers send a task's elicitation/create there).
   */
  private askForTask(scopeKey: string, id: string | number, msg: Record<string, unknown>): void {
    const meta = (msg.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    const related = typeof meta === 'object' && meta !== null ? meta['io.modelcontextprotocol/related-task'] : undefined;
    const taskId = typeof related === 'object' && related !== null ? (related as { taskId?: unknown }).taskId : undefined;
    if (typeof taskId !== 'string') return;
    for (const v of this.open.get(scopeKey)?.values() ?? []) {
      if (v.method === 'tasks/result' && v.taskId === taskId.slice(0, 200) && v.response === undefined && (v.asked ??= []).length < 16) v.asked.push({ id, method: msg.method as string });
    }
  }

  /**
   * A server log message on the session's standalone GET stream (a server that logs without naming the request: the
   * SDK's sendLoggingMessage) belongs to the call that was running when it came, if the log's order says so and only
   * one request of the session was open then; with two or more open, nothing tells which, and it is tied to none.
   */
  private logOnSessionStream(scopeKey: string, msg: Record<string, unknown>, ts: number): void {
    let only: AttemptView | undefined;
    for (const v of this.open.get(scopeKey)?.values() ?? []) {
      if (v.response !== undefined || isFinal(v) || (v.startTs !== undefined && v.startTs > ts)) continue;
      if (only) return;
      only = v;
    }
    if (!only) return;
    if (logOnStream(only, msg)) only.logs!.onGet = true;
  }

  /** The client answered a request the server sent on an open call's stream with an error: what the call asked of it failed. */
  private clientRefusedAsk(scopeKey: string, msg: Record<string, unknown>): void {
    const error = (typeof msg.error === 'object' && msg.error !== null ? msg.error : {}) as Record<string, unknown>;
    for (const v of this.open.get(scopeKey)?.values() ?? []) {
      const asked = v.asked?.find((q) => q.id === msg.id);
      if (asked && v.askRefused === undefined) v.askRefused = { id: asked.id, method: asked.method, code: error.code, message: typeof error.message === 'string' ? error.message.slice(0, 200) : undefined };
    }
  }

  /** The server cancelled a request it had sent on this attempt's stream (its own timeout): the client had not answered it. */
  private serverCancelledOwn(ex: Exchange, msg: Record<string, unknown>, ts: number | undefined): void {
    const params = (msg.params ?? {}) as Record<string, unknown>;
    for (const v of ex.attempts) {
      const asked = v.asked?.find((q) => q.id === params.requestId);
      if (!asked) continue;
      v.askCancelled = { id: asked.id, method: asked.method, ts, reason: typeof params.reason === 'string' ? params.reason.slice(0, 200) : undefined };
      if (ts === undefined) continue;
      // Kept a while, to name the client's answer if it still comes (see lateAnswer).
      const key = `${v.scopeKey} ${idKeyOf(asked.id)}`;
      this.cancelledAsks.delete(key);
      this.cancelledAsks.set(key, v);
      for (const [k, old] of this.cancelledAsks) {
        if (this.cancelledAsks.size <= 4096 && (old.askCancelled?.ts ?? ts) >= ts - this.opts.windowMs) break;
        this.cancelledAsks.delete(k);
      }
    }
  }

  /**
   * The client answered a request of the server's (elicitation/create, sampling/createMessage, roots/list) that the
   * server had cancelled itself: the answer came too late, and the call's why says so. A view already classified (its
   * call ended) has its why extended while its attempt is still held for the other side's view (within --window of
   * its end); a later answer is not named.
   */
  private lateAnswer(scopeKey: string, id: JsonRpcId, ts: number | undefined): void {
    if (ts === undefined || this.cancelledAsks.size === 0) return;
    const key = `${scopeKey} ${idKeyOf(id)}`;
    const v = this.cancelledAsks.get(key);
    const c = v?.askCancelled;
    if (!v || !c || c.ts === undefined || ts < c.ts || c.answeredAfterMs !== undefined) return;
    this.cancelledAsks.delete(key);
    if (v.final && (v.endTs === undefined || ts - v.endTs >= this.opts.windowMs)) return;
    c.answeredAfterMs = ts - c.ts;
    if (v.detail?.why !== undefined && v.detail.why.includes(`the server cancelled its own ${c.method.slice(0, 60)}`)) v.detail.why = `${v.detail.why}; ${lateAnswerText(c.answeredAfterMs)}`;
  }

  /** The one tools/call of a scope still waiting for its response, when there is exactly one. */
  private onlyOpenCall(scopeKey: string): AttemptView | undefined {
    let found: AttemptView | undefined;
    for (const v of this.open.get(scopeKey)?.values() ?? []) {
      if (v.method !== 'tools/call' || v.response !== undefined || isFinal(v)) continue;
      if (found) return undefined;
      found = v;
    }
    return found;
  }

  private deliver(ex: Exchange, item: unknown, whole: unknown, text: string | undefined, ts: number | undefined, src: Source, timing?: EventTiming): void {
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      const msg = item as Record<string, unknown>;
      if (typeof msg.method === 'string') {
        if (isJsonRpcId(msg.id)) {
          for (const v of ex.attempts) {
            v.serverRequests++;
            if (msg.id !== null && (v.asked ??= []).length < 16) v.asked.push({ id: msg.id, method: msg.method });
          }
          if (ex.attempts.length === 0 && msg.id !== null) {
            this.askForTask(ex.scopeKey, msg.id, msg);
            // On the session's GET stream (a server that sends it with no related request: the TypeScript SDK's
            // elicitInput called without relatedRequestId): it is the call's when one tools/call only is open then.
            const only = ex.isGet ? this.onlyOpenCall(ex.scopeKey) : undefined;
            if (only && (only.asked ??= []).length < 16) only.asked.push({ id: msg.id, method: msg.method, onGet: true });
          }
        } else if (msg.method === 'notifications/progress') {
          this.progressOnStream(ex, msg, timing !== undefined ? ts : undefined);
          // (A replay's order is its own stream's, which a log without event times, a HAR, still gives.)
          const at = ts ?? ex.lastTs;
          if (at !== undefined && (timing !== undefined || this.afterReplayedResponse(ex, msg))) this.progressReached(ex, msg, at, src, timing ?? 'order');
        }
        else if (msg.method === 'notifications/cancelled') this.serverCancelledOwn(ex, msg, ts);
        else if (msg.method === 'notifications/message') {
          for (const v of ex.attempts) logOnStream(v, msg);
          if (ex.attempts.length === 0 && ex.standaloneGet && timing === 'order' && ts !== undefined) this.logOnSessionStream(ex.scopeKey, msg, ts);
        }
        else if (msg.method === 'notifications/subscriptions/acknowledged') for (const v of ex.attempts) v.subscribed = true;
        if (ex.attempts.length === 0) this.serverNotification(ex.scopeKey, msg);
        return;
      }
      const id = msg.id;
      if (isJsonRpcId(id)) {
        const key = idKeyOf(id, exactIdText(text, id));
        const own = ex.attempts.find((v) => v.idKey === key && v.response === undefined);
        // (The response in an identical copy of a record is the copy's: it answers no other request with that id.)
        const target = own ?? ((ex.attempts.length === 0 && !ex.copy) || ex.isGet ? this.open.get(ex.scopeKey)?.get(key) : undefined);
        if (target && target.response === undefined) {
          target.response = msg;
          if (ts !== undefined) target.responseTs = ts;
          else noteAnswerAfterCancel(target, src);
          if (target.progressToken !== undefined && ts !== undefined) this.rememberToken(target, ts);
          ex.lastResponse = { key, ts, text, msg, src };
          if (!own) {
            // On the 2024-11-05 HTTP+SSE transport the GET stream is where responses come, not a resumption. A log that
            // writes each exchange as it ends (HAR lines) has the POSTs before the GET that announced the endpoint: the
            // session is known for that transport only now, from this stream's endpoint event.
            if (!target.legacySse && ex.isGet && this.opts.sessions.get(ex.scopeKey)?.legacySse) target.legacySse = true;
            if (!target.legacySse) {
              target.resumed = true;
              if (ex.standaloneGet) target.onStandaloneGet = true;
            }
            target.sources.push(src);
          }
          target.endTs = ts ?? target.endTs;
          // A response that came before its own POST's head (a server writes it on the GET stream first, then the
          // 202) waits for that head, so the attempt keeps its status; the POST's end finalizes it.
          if (!own && !isFinal(target) && target.status !== undefined) this.finalize(target);
          return;
        }
      }
    }
    // Not a response to anything on this exchange.
    const single = ex.attempts.length === 1 ? ex.attempts[0]! : undefined;
    const id = typeof item === 'object' && item !== null ? (item as Record<string, unknown>).id : undefined;
    if (single && single.response === undefined && single.strayResponse === undefined) single.strayResponse = whole ?? item;
    // The error body of an HTTP rejection (4xx/5xx) answers the POST, not a request: its id is null or a placeholder
    // (the Python SDK writes "server-error" on every 400, 404, 405, 406 and 415), so it is no orphan; it says why
    // every request of a rejected batch failed.
    const rejected = typeof ex.status === 'number' && (ex.status < 200 || ex.status > 299);
    if (rejected && !single) for (const v of ex.attempts) if (v.response === undefined && v.strayResponse === undefined) v.strayResponse = item;
    if (rejected && ex.attempts.length === 0) {
      const error = typeof item === 'object' && item !== null ? (item as Record<string, unknown>).error : undefined;
      const message = typeof error === 'object' && error !== null ? (error as Record<string, unknown>).message : undefined;
      if (typeof message === 'string') this.refusedUnknownSession(ex, message, ts, src);
    }
    if (isJsonRpcId(id) && !rejected) {
      const sess = this.opts.sessions.get(ex.scopeKey);
      const key = idKeyOf(id, exactIdText(text, id));
      if (sess && !sess.requestIds.has(key) && ex.isGet && !single) {
        let scope = this.parked.get(ex.scopeKey);
        if (!scope) this.parked.set(ex.scopeKey, (scope = new Map()));
        if (!scope.has(key)) scope.set(key, { msg: item as Record<string, unknown>, id, src, until: ts });
        return;
      }
      if (sess && !sess.requestIds.has(key)) {
        if (single) (single.orphans ??= []).push({ id, src });
        else (sess.orphans ??= []).push({ id, src });
      } else if (sess && !ex.copy) {
        // The request with this id was answered already, or had ended: a second response, which a client drops.
        // The same event again at the same time on the same stream is a duplicated log row, not a second response.
        const last = ex.lastResponse;
        const waiting = this.open.get(ex.scopeKey)?.get(key);
        // Same content, not only the same id and time: a second, different answer in the same millisecond (a hop that
        // repeats the result with other content, or puts an error before it) is a second response, not a copy.
        if (last && last.key === key && last.ts === ts && last.text === text && (last.msg === item || JSON.stringify(last.msg) === JSON.stringify(item))) {
          if (!sess.duplicates?.some((d) => (d.of ?? d.first) === ex.src)) (sess.duplicates ??= []).push({ what: `the response to id ${jsonText(id)}`, first: last.src, dup: src, of: ex.src });
        } else if (ex.resumes?.replay && ex.resumes.view.idKey === key) {
          // A resumption replaying the stream of a request answered on an earlier resumption that was cut: the server
          // sends the answer again because the client's Last-Event-ID is before it; the client never had it.
          if (!ex.resumes.view.sources.includes(src)) ex.resumes.view.sources.push(src);
          ex.resumes.view.resumedBeforeAnswer = undefined;
          if (this.unreadResumes.get(ex.scopeKey)?.view === ex.resumes.view) this.unreadResumes.delete(ex.scopeKey);
          const known = sess.requestIds.get(key);
          if (known?.answer === 'unread') known.answer = 'result';
        } else if (waiting === undefined || waiting.response !== undefined) {
          if (single) (single.orphans ??= []).push({ id, src, when: 'after' });
          else (sess.orphans ??= []).push({ id, src, when: 'after' });
        }
      }
    }
  }

  /**
   * A notification the client sent. `deletedScope`: it went without a session id soon after its caller's DELETE of a
   * session (the TypeScript SDK 1.x drops the id with the DELETE): a cancellation for no request of its own scope is
   * then for that session's request, still open when the session was deleted.
   */
  private clientNotification(scopeKey: string, msg: Record<string, unknown>, src: Source, sess: ReturnType<SessionTracker['touch']>, ts: number | undefined, deletedScope?: string, ex?: Exchange, ua?: string): void {
    if (msg.method === 'notifications/cancelled') {
      const params = (msg.params ?? {}) as Record<string, unknown>;
      const rid = params.requestId;
      if (isJsonRpcId(rid)) {
        // A sessionless scope that client instances share (each numbers its own ids): which of its requests with that
        // id this is, is told by time (cancelledOf); none that fits is no finding.
        const shared = (sess.openings ?? 0) > 1;
        const holder = this.open.get(scopeKey)?.get(idKeyOf(rid));
        const own = shared ? cancelledOf(holder, ts, params.reason, sess.side, ua) : holder;
        // Others of the scope's requests with that id the cancellation may have named as well: the log cannot tell.
        const doubt = shared && own !== undefined ? cancelCandidates(holder, ts, params.reason, sess.side, ua) - 1 : 0;
        const orphaned = own === undefined && deletedScope !== undefined ? this.open.get(deletedScope)?.get(idKeyOf(rid)) : undefined;
        const view = own ?? (orphaned?.sessionDeleted !== undefined && orphaned.response === undefined ? orphaned : undefined);
        if (view) {
          if (view !== own) view.cancelWithoutSession = true;
          view.cancelled = true;
          if (view.side === 'client' && !isFinal(view)) {
            const same = this.cancelledByCall.get(view.fingerprint);
            if (same) same.add(view);
            else this.cancelledByCall.set(view.fingerprint, new Set([view]));
          }
          if (doubt > 0) view.cancelDoubt = doubt;
          if (ts !== undefined) view.cancelledAt = ts;
          else if (view.response === undefined) view.cancelSrc = src;
          if (typeof params.reason === 'string' && params.reason.trim() !== '') view.cancelReason = params.reason.trim().slice(0, 200);
          view.sources.push(src);
          if (ex) (ex.cancels ??= []).push(view);
        } else {
          const known = sess.requestIds.get(idKeyOf(rid));
          if (!known) (sess.cancels ??= []).push({ id: rid, src, ...(ts !== undefined ? { ts } : {}), ...(typeof params.reason === 'string' && params.reason.trim() !== '' ? { reason: params.reason.trim().slice(0, 200) } : {}) });
          // Cancelled well after its exchange ended, in the client's own view (an HTTP error, or a response it did not
          // read as the answer: rmcp takes an error body with id null for no request's and waits for its own timeout;
          // or a late cancellation of a request already answered or failed: the TypeScript SDK's abort listener outlives it).
          // A server's view only shows that the cancellation crossed a result it had sent; in any view, one that the
          // client's own timeout sent crossed it (the SDK clients clear a request's timer when its answer comes), so its
          // caller got the timeout, not the result, however soon after the answer it came.
          else if (!shared && known.end !== undefined && ts !== undefined && ((ts >= known.end && known.answer === 'result' && timedOutReason(params.reason)) || (sess.side !== 'server' && ts - known.end > 50))) {
            (sess.cancels ??= []).push({ id: rid, src, ...(typeof params.reason === 'string' ? { reason: params.reason.trim().slice(0, 200) } : {}), after: { status: known.status, ms: ts - known.end, answer: known.answer, seen: known } });
            // Its caller got the timeout, not the answer: the call linker takes it as failed (see takeCrossedTimeout).
            if (ts >= known.end && known.answer === 'result' && timedOutReason(params.reason)) {
              const key = `${scopeKey} ${idKeyOf(rid)}`;
              this.crossedTimeouts.delete(key);
              this.crossedTimeouts.set(key, { ts, ms: ts - known.end });
              trimOldest(this.crossedTimeouts, CLOSED_KEPT);
            }
          }
        }
      }
    }
  }

  private serverNotification(scopeKey: string, msg: Record<string, unknown>, ts?: number): void {
    if (msg.method !== 'notifications/progress') return;
    const params = (msg.params ?? {}) as Record<string, unknown>;
    const token = params.progressToken;
    if (!isJsonRpcId(token)) return;
    const view = this.progressOwner(scopeKey, idKeyOf(token));
    if (!view) return;
    view.progress++;
    // a message log's progress keeps its time too: whether it came before the client gave up (real-audit48/py-noaccel-sse)
    if (ts === undefined) return;
    const at = (view.progressAt ??= []);
    if (at.length >= PROGRESS_TIMES_KEPT) at.shift();
    at.push(ts);
  }

  /**
   * Progress on a request's stream counts for the request whose progressToken it carries: a server that writes every
   * notification to the first open stream (supergateway's stateful mode) puts one call's progress on another's.
   */
  private progressOnStream(ex: Exchange, msg: Record<string, unknown>, ts: number | undefined): void {
    const token = ((msg.params ?? {}) as Record<string, unknown>).progressToken;
    const key = isJsonRpcId(token) ? idKeyOf(token) : undefined;
    const own = key === undefined ? [] : ex.attempts.filter((v) => v.progressToken === key);
    if (own.length === 0 && key !== undefined && ex.attempts.length > 0 && ex.attempts.every((v) => v.progressToken !== undefined)) {
      // Not this stream's request's: another open one's, or one already answered (the client drops it as unknown).
      const other = this.progressOwner(ex.scopeKey, key);
      if (other && !ex.attempts.includes(other)) other.progress++;
      return;
    }
    for (const v of own.length ? own : ex.attempts) {
      v.progress++;
      if (ts === undefined) continue;
      const at = (v.progressAt ??= []);
      if (at.length >= PROGRESS_TIMES_KEPT) at.shift();
      at.push(ts);
    }
  }

  /** The open request of a scope that asked for this progressToken (by default the TypeScript SDK's: its request id). */
  private progressOwner(scopeKey: string, key: string): AttemptView | undefined {
    const views = this.open.get(scopeKey);
    if (!views) return undefined;
    for (const v of views.values()) if (v.progressToken === key) return v;
    return views.get(key);
  }

  /**
   * Progress that reached a session on an HTTP stream (a request's, or the standalone GET stream) at a time the log
   * tells: when no open request of the session asked for its token, it is kept for PROGRESS_UNMATCHED, with what is
   * known of the token (a request of the session that had it and was answered before, one of another session that had
   * it open then). Not on a stream that resumes another (Last-Event-ID: a replay), nor in a session that created
   * tasks (a task's progress goes on after its tools/call is answered), nor for a request that ended without its
   * response (a cut stream, a timeout: it may still run on the server, and 2025-era servers may resume it).
   */
  private progressReached(ex: Exchange, msg: Record<string, unknown>, ts: number, src: Source, timing: EventTiming): void {
    const token = ((msg.params ?? {}) as Record<string, unknown>).progressToken;
    if (!isJsonRpcId(token) || token === null) return;
    const key = idKeyOf(token);
    // The usual case first, without a walk: the stream's own request asked for it and is waiting for its response.
    for (const v of ex.attempts) if (v.progressToken === key && v.response === undefined) return;
    // A GET resuming a request's stream (Last-Event-ID) replays that request's events, none of a stream of its own; but
    // its request's progress after the response it replayed, on that one stream, reached no request whatever the clock
    // says: the store replayed the stream out of order (the SDK's InMemoryEventStore sorts one millisecond's events by
    // a random part), and the client drops it.
    const replayedFirst = this.afterReplayedResponse(ex, msg);
    if (ex.isGet && !ex.standaloneGet && !replayedFirst) return;
    const sess = this.opts.sessions.get(ex.scopeKey);
    if (!sess || sess.tasks) return;
    let answered: AttemptView | undefined;
    for (const v of this.open.get(ex.scopeKey)?.values() ?? []) {
      // (A request without a progressToken whose id is the token: a log that kept no _meta is given the benefit.)
      if (v.progressToken !== key && (v.progressToken !== undefined || v.idKey !== key)) continue;
      if (v.response === undefined) return;
      answered ??= v;
    }
    const closed: TokenClosed | undefined = answered ? closedOf(answered, answered.endTs ?? ts) : this.closedTokens.get(`${ex.scopeKey} ${key}`);
    if (closed && !closed.answered) return;
    // Two streams' events in one millisecond: a whole exchange's order among them says nothing.
    if (closed && timing === 'clock' && ts <= closed.ts && !replayedFirst) return;
    const list = (sess.strayProgress ??= []);
    const known = list.find((e) => e.key === key);
    if (known) {
      known.count++;
      return;
    }
    if (list.length >= STRAY_PROGRESS_KEPT) {
      sess.strayProgressMore = (sess.strayProgressMore ?? 0) + 1;
      return;
    }
    const entry: StrayProgress = { key, token: jsonText(token).slice(0, 80), count: 1, src, ts, ...(replayedFirst ? { replayedAfter: true } : {}) };
    if (closed) entry.after = { ms: Math.max(0, ts - closed.ts), request: closed.request };
    else {
      const sent = sess.requestIds.get(key);
      if (sent && (sent.ts === undefined || sent.ts <= ts)) entry.earlier = sent.src;
    }
    const other = ex.session !== null ? this.openElsewhere(ex, key) : undefined;
    if (other) entry.elsewhere = { session: other.session!, request: requestRef(other) };
    this.sameInOtherView(ex, entry);
    list.push(entry);
  }

  /** Progress on a GET resuming a request's stream, for that request's token, after the response that GET replayed. */
  private afterReplayedResponse(ex: Exchange, msg: Record<string, unknown>): boolean {
    const token = ((msg.params ?? {}) as Record<string, unknown>).progressToken;
    if (!ex.isGet || ex.standaloneGet || ex.resumes === undefined || !isJsonRpcId(token) || token === null) return false;
    return ex.resumes.view.progressToken === idKeyOf(token) && ex.lastResponse?.key === ex.resumes.view.idKey;
  }

  /** An open request of another session (same side; of an unsided input, the same input) that asked for this progressToken. */
  private openElsewhere(ex: Exchange, key: string): AttemptView | undefined {
    const side = ex.scopeKey.slice(0, ex.scopeKey.indexOf('|') + 1);
    for (const [scopeKey, views] of this.open) {
      if (scopeKey === ex.scopeKey || !scopeKey.startsWith(side)) continue;
      for (const v of views.values()) if (v.progressToken === key && v.response === undefined && v.session !== null && !isFinal(v)) return v;
    }
    return undefined;
  }

  /**
   * The same stray progress in another view's log of the session (the server's beside the client's) is one finding:
   * the client's, which is what the caller got, else the first one read; the other's record is named with it.
   */
  private sameInOtherView(ex: Exchange, entry: StrayProgress): void {
    if (ex.session === null) return;
    for (const side of VIEW_SIDES) {
      if (side === ex.side) continue;
      const other = this.opts.sessions.get(`${side}|${ex.session}`)?.strayProgress?.find((e) => e.key === entry.key && !e.dup);
      if (!other) continue;
      if (ex.side === 'client') {
        other.dup = true;
        entry.also = [other.src, ...(other.also ?? [])];
      } else {
        entry.dup = true;
        (other.also ??= []).push(entry.src);
      }
      return;
    }
  }

  /** A request that asked for progress got its response, or ended without one, at `ts`: remembered a while (see RECENT_TOKEN_MS). */
  private rememberToken(view: AttemptView, ts: number): void {
    if (!view.http) return;
    const key = `${view.scopeKey} ${view.progressToken}`;
    this.closedTokens.delete(key);
    this.closedTokens.set(key, closedOf(view, ts));
    trimOldest(this.closedTokens, RECENT_TOKENS_KEPT);
  }

  /** Forget the requests that asked for progress and ended more than RECENT_TOKEN_MS before `watermark`. */
  private sweepTokens(watermark: number): void {
    for (const [key, c] of this.closedTokens) {
      if (c.ts + RECENT_TOKEN_MS >= watermark) break;
      this.closedTokens.delete(key);
    }
  }

  private schedule(view: AttemptView, ts: number | undefined): void {
    if (ts === undefined) {
      this.queue.push({ deadline: Infinity, view });
      return;
    }
    this.queue.push({ deadline: ts + this.opts.windowMs, view });
  }

  private finalize(view: AttemptView): void {
    if (isFinal(view)) return;
    if (view.startTs === undefined && !view.cancelled) this.finalizeCancelledBefore(view);
    view.final = true;
    if (view.cancelled) {
      const same = this.cancelledByCall.get(view.fingerprint);
      if (same?.delete(view) && same.size === 0) this.cancelledByCall.delete(view.fingerprint);
    }
    this.awaiting.delete(view);
    // A scope's map stays when it empties (its next request would make a new one); advance() drops empty ones.
    const views = this.open.get(view.scopeKey);
    if (views?.get(view.idKey) === view) {
      // Two requests of one session with the same id (two Clients sharing a session): the earlier one, still open,
      // owns the id again, so a later notifications/cancelled or response for it finds it.
      let back = view.shadowed;
      while (back && isFinal(back)) back = back.shadowed;
      if (back) views.set(view.idKey, back);
      else views.delete(view.idKey);
    } else {
      // One further down the chain of requests holding the id leaves it, so the chain still reaches those behind it.
      for (let n = views?.get(view.idKey); n; n = n.shadowed) if (n.shadowed === view) { n.shadowed = view.shadowed; break; }
    }
    view.shadowed = undefined;
    // (One answered was remembered when its response came.)
    if (view.response === undefined && view.progressToken !== undefined && view.endTs !== undefined) this.rememberToken(view, view.endTs);
    // A server's message log that has shown no answer at all so far logs the requests only (an app that logs what it
    // received): its unanswered request is no evidence that none came. (A client's log of one request never answered,
    // a desktop's in front of a bridge that failed, is.)
    if (view.response === undefined && !view.http && view.status === undefined && !view.answersUnlogged && (view.side === 'server' || view.side === 'gateway') && !this.answered.has(view.input)) {
      view.answersUnlogged = true;
      this.requestsOnly.add(view.input);
    }
    this.opts.onView(view);
  }
}

/** The request headers a server checks before it reads the body (406, 415, a refused protocol version). */
export const REFUSABLE_HEADERS = ['mcp-protocol-version', 'accept', 'content-type'] as const;

const VIEW_SIDES: readonly ViewSide[] = ['client', 'server', 'gateway', 'unknown'];
/**
 * How soon after a resumption broke a plain GET is taken for the TypeScript SDK's reconnect of it: the SDK waits its
 * initialReconnectionDelay (1 s by default; 100 ms in the chaos audit), or the `retry` a server's event set.
 */
const PLAIN_RECONNECT_MS = 5000;
/** The latest plain-GET reconnect chains kept per scope (one per broken stream: a session rarely has more at once). */
const PLAIN_CHAINS_KEPT = 8;
/** How many times the wait before a stream's last plain GET its next retry may wait (the SDK's grow factor: 1.5 by default). */
const PLAIN_GAP_GROWTH = 4;
/** Timer and log jitter allowed on top of that. */
const PLAIN_GAP_SLACK_MS = 50;
/** A plain GET sooner than this share of the session's first wait after a resumption broke is not its reconnect. */
const PLAIN_FIRST_WAIT_SHARE = 0.5;
/** How far (a share of the wait) from when a plain-GET chain's next try is due a GET may come and still be that try. */
const PLAIN_DUE_SHARE = 0.25;

/**
 * How the SDK's wait between a stream's plain GETs grows, as the scope's chains show it: the ratio of the last two
 * waits of the chain that tried last (the SDK's reconnectionDelayGrowFactor; about 1 under a server's `retry:`), or
 * undefined while no chain has two.
 */
function plainGapGrowth(chains: readonly PlainGet[][]): number | undefined {
  let best: { at: number; r: number } | undefined;
  for (const c of chains) {
    const a = c[c.length - 2];
    const b = c[c.length - 1];
    if (!a || !b || a.gap === undefined || b.gap === undefined || a.gap <= 0 || b.endTs === undefined) continue;
    if (!best || b.endTs > best.at) best = { at: b.endTs, r: b.gap / a.gap };
  }
  return best?.r;
}

interface SessionlessRefusal { side: ViewSide; input: number; ts: number | undefined; entry: NonNullable<SessionState['refusedGets']>[number] }
/** A sessionless POST refused for its missing session id, kept in its scope's list (`list`) until paired with another log's record of it. */
interface SessionlessPost { side: ViewSide; list: RefusedPost[]; entry: RefusedPost; paired: boolean }
/** Two logs' records of one refused GET without a session are this close in time (the logs' clocks may differ a little). */
const SAME_REFUSAL_MS = 1000;

/** What a GET for the server's stream carries, as `carried` says it of a POST with no request in it. */
const GET_STREAM = 'the GET stream';
/** The notification that ends the client's side of the handshake: a refusal of it fails the TypeScript SDK's connect(). */
const INITIALIZED = 'notifications/initialized';

/** A GET stream or a POST with no request in it, refused for a lost session, as SESSION_EXPIRED names it. */
function refusedWhat(ex: Exchange): string {
  if (ex.httpMethod === 'GET') return ex.resumeFrom !== undefined ? `a GET resuming a call's stream (Last-Event-ID)` : 'the GET stream';
  if (ex.httpMethod === 'DELETE') return 'its DELETE (the client ending the session)';
  // (`carried`: the notification's method, the client's answer to a server's request, a body not JSON; none when the
  // log kept no body: a server that answers before reading it, a recorder that kept none.)
  if (ex.carried === undefined) return `a ${ex.httpMethod} whose body the log did not keep (a server that refused it before reading it logs none)`;
  if (ex.carried === 'a body that is not JSON') return `a ${ex.httpMethod} with a body that is not JSON`;
  return ex.carried.startsWith('its ') ? `${ex.carried}, a ${ex.httpMethod} with no request in it` : `its ${ex.carried}, a ${ex.httpMethod} with no request in it`;
}

/**
 * A GET for the server's MCP stream: it asks for text/event-stream, as the spec requires (OAuth discovery asks for
 * JSON, a health check for anything); in a log without the Accept header, one that names a session or an event id.
 */
function isStreamGet(headers: Map<string, string>, session: string | null): boolean {
  const accept = headers.get('accept');
  if (accept !== undefined) return /text\/event-stream/i.test(accept);
  return session !== null || headers.has('last-event-id');
}

function refusableHeaders(headers: Map<string, string>): Map<string, string> {
  const kept = new Map<string, string>();
  for (const name of REFUSABLE_HEADERS) {
    const v = headers.get(name);
    if (v !== undefined) kept.set(name, v);
  }
  return kept;
}

/** W3C trace context (SEP-414 puts it in params._meta): version, trace id, parent span id, flags. */
const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/i;

/** Retry-After in ms: delta-seconds, or an HTTP date relative to the response time. */
function parseRetryAfter(value: string | undefined, ts: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v) * 1000;
  const when = Date.parse(v);
  if (Number.isNaN(when) || ts === undefined) return undefined;
  return Math.max(0, when - ts);
}


/**
 * The gist of a non-JSON error body: an HTML page's title (with the first line of its `<pre>` text, where Express's
 * default pages say what failed under the title "Error": "Cannot POST /sse", or an error's name and message above its
 * stack: "PayloadTooLargeError: request entity too large<br> at ..."), else its text on one line, at most 160 characters.
 */
function errorBodyText(text: string): string | undefined {
  const head = text.slice(0, 4096);
  const title = /<title[^>]{0,200}>([^<]{1,200})<\/title>/i.exec(head)?.[1]?.trim();
  const pre = title !== undefined ? /<pre[^>]{0,200}>([^<]{1,300})(?:<\/pre>|<br)/i.exec(head)?.[1]?.trim() : undefined;
  // An HTML page without a <title> (`<html><body>503 Service Unavailable</body></html>`) is quoted by its text.
  const shown = title ?? (/^\s*<(?:!doctype|html|body|head|h1|p|center|div)\b/i.test(head) ? head.replace(/<[^>]{0,300}>/g, ' ') : head);
  const line = (title !== undefined && pre && pre !== title ? `${title}: ${pre}` : shown).replace(/\s+/g, ' ').trim();
  if (line === '') return undefined;
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/** A parsed body that holds integers beyond 2^53 keeps its text so ids can be read exactly. */
function containsUnsafeInteger(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && !Number.isSafeInteger(v);
  if (Array.isArray(v)) return v.some((x) => typeof x === 'object' && x !== null && containsUnsafeInteger((x as Record<string, unknown>).id));
  if (typeof v === 'object' && v !== null) return containsUnsafeInteger((v as Record<string, unknown>).id);
  return false;
}

function unwrapExact(v: unknown): { value: unknown; text: string | undefined } {
  if (typeof v === 'object' && v !== null && '__exactText' in v) {
    const w = v as { __exactText: string; value: unknown };
    return { value: w.value, text: w.__exactText };
  }
  return { value: v, text: undefined };
}

/** A POST whose Content-Type is a form (application/x-www-form-urlencoded): an OAuth token request, never JSON-RPC. */
function isFormPost(headers: Map<string, string>): boolean {
  return (headers.get('content-type') ?? '').trim().toLowerCase().startsWith('application/x-www-form-urlencoded');
}

/** The message of a JSON error body: a JSON-RPC error's, else a plain {"message"} or OAuth-style {"error"}. */
function errorMessageOf(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const e = typeof o.error === 'object' && o.error !== null ? (o.error as Record<string, unknown>) : undefined;
  const m = e ? e.message : typeof o.error === 'string' ? o.error : o.message;
  return typeof m === 'string' ? m.slice(0, 200) : undefined;
}

/** How a finding names a request. */
function requestRef(v: AttemptView): RequestRef {
  return { method: v.method, id: v.idText ?? jsonText(v.id), tool: v.tool, src: v.sources[0]! };
}

/** A request that asked for progress, ended at `ts`. */
function closedOf(v: AttemptView, ts: number): TokenClosed {
  return { ts, answered: v.response !== undefined, request: requestRef(v) };
}

/** The view was handed on (to the matcher); nothing may change it here any more. */
const isFinal = (v: AttemptView): boolean => v.final;

/** The source text of a numeric id that JSON.parse could not keep exactly. */
function exactIdText(text: string | undefined, id: unknown): string | undefined {
  if (typeof id !== 'number' || Number.isSafeInteger(id) || text === undefined) return undefined;
  const re = /"id"\s*:\s*(-?\d+)(?=\s*[,}])/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (Number(m[1]) === id) return m[1];
  }
  return undefined;
}

/** A JSON-RPC body that names an id (null included): one a client may take for another request's answer. */
function hasIdKey(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && 'id' in body;
}

/** RFC 5424's severities, as the spec's logging levels name them: the higher, the more severe. */
const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** A notifications/message on a request's stream: counted, and kept when it is the most severe so far (log text, so capped); whether it was kept. */
function logOnStream(v: AttemptView, msg: Record<string, unknown>): boolean {
  const p = typeof msg.params === 'object' && msg.params !== null ? (msg.params as Record<string, unknown>) : {};
  const level = typeof p.level === 'string' ? p.level.slice(0, 20) : 'unknown';
  const rank = LOG_LEVELS.indexOf(level);
  const logs = (v.logs ??= { count: 0, level, rank, data: '' });
  logs.count++;
  if (logs.count > 1 && rank <= logs.rank) return false;
  let data: string;
  try {
    data = typeof p.data === 'string' ? p.data : JSON.stringify(p.data) ?? '';
  } catch {
    data = '';
  }
  Object.assign(logs, { level, rank, data: data.slice(0, 300) });
  delete logs.onGet;
  if (typeof p.logger === 'string') logs.logger = p.logger.slice(0, 100);
  else delete logs.logger;
  return true;
}

/** What a request of another feature acts on (AttemptView.target): a resource's uri, a prompt's name, a completion's ref. */
function targetOf(method: string, params: Record<string, unknown>): string | undefined {
  const ref = typeof params.ref === 'object' && params.ref !== null ? (params.ref as Record<string, unknown>) : undefined;
  const v = method === 'resources/read' || method === 'resources/subscribe' || method === 'resources/unsubscribe' ? params.uri
    : method === 'prompts/get' ? params.name
      : method === 'completion/complete' ? ref?.name ?? ref?.uri : undefined;
  return typeof v === 'string' && v !== '' ? v.slice(0, 300) : undefined;
}

/**
 * The request a notifications/cancelled names by its id in a sessionless scope shared by client instances (each numbers
 * its own ids; `v` holds the id, the ones it shadows are older): of those with that id, not cancelled yet, one its
 * caller may still have been waiting on when the cancellation came (`ts`: still in flight, or, in a client's view, its
 * 2xx stream ended without its response, which a client may wait out to its timeout), the one open longest (a caller
 * gives up on what it has waited for longest). A newer one, one whose response had come, or one that failed is
 * another's. A reason that names the timeout (the Python SDK's "timed out after 1.5s") takes only one sent that long
 * before (less up to 100 ms: the caller's clock starts before its request reaches a log), and not more than 1 s longer.
 */
/** How many of a shared scope's requests with one id a notifications/cancelled at `ts` could name (see cancelledOf). */
function cancelCandidates(v: AttemptView | undefined, ts: number | undefined, reason: unknown, side: string, ua?: string): number {
  const timeout = typeof reason === 'string' ? PY_TIMEOUT_REASON.exec(reason.trim()) : null;
  const ms = timeout ? Number(timeout[1]) * 1000 : undefined;
  let n = 0;
  for (let b: AttemptView | undefined = v; b; b = b.shadowed) {
    if (isFinal(b) || b.cancelled || (ts !== undefined && b.startTs !== undefined && b.startTs > ts) || otherAgent(b, ua)) continue;
    const ended = b.streamEnd !== undefined && (b.endTs === undefined || (ts !== undefined && b.endTs < ts));
    if (ended && (side === 'server' || !(b.response === undefined && b.malformed === undefined && typeof b.status === 'number' && b.status >= 200 && b.status < 300))) continue;
    // A reason that names the timeout fits only a request sent that long before (as cancelledOf takes it).
    if (ms !== undefined && (ts === undefined || b.startTs === undefined || ts - b.startTs < ms - 100 || ts - b.startTs > ms + 1000)) continue;
    n++;
  }
  return n;
}

/** The request came with another User-Agent than the cancellation (another client program of a shared scope). */
function otherAgent(b: AttemptView, ua: string | undefined): boolean {
  const mine = b.requestHeaders?.get('user-agent');
  return ua !== undefined && mine !== undefined && mine !== ua;
}

function cancelledOf(v: AttemptView | undefined, ts: number | undefined, reason: unknown, side: string, ua?: string): AttemptView | undefined {
  if (v === undefined || ts === undefined) return v;
  const timeout = typeof reason === 'string' ? PY_TIMEOUT_REASON.exec(reason.trim()) : null;
  const ms = timeout ? Number(timeout[1]) * 1000 : undefined;
  let pick: AttemptView | undefined;
  let timed: AttemptView | undefined;
  let timedScore = Infinity;
  for (let b: AttemptView | undefined = v; b; b = b.shadowed) {
    if (isFinal(b) || b.cancelled || (b.startTs !== undefined && b.startTs > ts) || otherAgent(b, ua)) continue;
    const ended = b.streamEnd !== undefined && (b.endTs === undefined || b.endTs < ts);
    if (ended && (side === 'server' || !(b.response === undefined && b.malformed === undefined && typeof b.status === 'number' && b.status >= 200 && b.status < 300))) continue;
    pick = b;
    if (ms !== undefined && b.startTs !== undefined && ts - b.startTs >= ms - 100 && ts - b.startTs <= ms + 1000) {
      // The Python SDK cancels a request still pending at its timeout (one whose stream ended gave its caller an error
      // at once): one in flight first, then the one sent nearest the timeout before the cancellation.
      const score = (ended ? 1e9 : 0) + Math.abs(ts - b.startTs - ms);
      if (score <= timedScore) { timed = b; timedScore = score; }
    }
  }
  return ms !== undefined ? timed : pick;
}

/** A cancellation's reason that names the client SDK's own request timeout (TypeScript "Request timed out", Python "timed out after"). */
function timedOutReason(reason: unknown): boolean {
  return typeof reason === 'string' && /request timed out|timed out after/i.test(reason);
}

/** An SSE event's size as httpx2's parser counts it: the UTF-8 bytes of its field lines, without their line ends. */
function sseEventBytes(ev: ParsedSseEvent): number {
  const lines = ev.data.split('\n');
  let n = Buffer.byteLength(ev.data, 'utf8') - (lines.length - 1) + lines.length * 'data: '.length;
  if (ev.event !== undefined) n += Buffer.byteLength(`event: ${ev.event}`, 'utf8');
  if (ev.id !== undefined) n += Buffer.byteLength(`id: ${ev.id}`, 'utf8');
  return n;
}

/**
 * A body that is no one JSON value but several JSON-RPC messages one per line (the test kitchen's malformed_payload
 * duplicate_response: the same response twice): what it holds, for the why. Looked at only for a short body.
 */
function messagesPerLine(text: string): string | undefined {
  if (text.length > 65_536 || !text.includes('\n')) return undefined;
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 2 || lines.length > 16) return undefined;
  const ids: string[] = [];
  for (const l of lines) {
    let m: unknown;
    try {
      m = JSON.parse(l);
    } catch {
      return undefined;
    }
    if (typeof m !== 'object' || m === null || Array.isArray(m) || !('jsonrpc' in m)) return undefined;
    const id = (m as { id?: unknown }).id;
    if ('result' in m || 'error' in m) ids.push(isJsonRpcId(id) ? jsonText(id) ?? '?' : 'null');
  }
  const same = ids.length === lines.length && ids.every((i) => i === ids[0]);
  return `: it holds ${lines.length} JSON-RPC messages, one per line${same ? `, each a response to id ${ids[0]} (one response sent twice)` : ''}, where a JSON body must be one JSON value: the SDK clients fail to parse it`;
}

/** An untimed log's response to a request its client had cancelled lines before, in the same file: it came after the client gave up. */
function noteAnswerAfterCancel(view: AttemptView, src: Source): void {
  const cancel = view.cancelSrc;
  if (cancel === undefined || view.cancelledAt !== undefined || cancel.file !== src.file || cancel.line >= src.line) return;
  view.answeredAfterCancelInLog = { cancel, answer: src };
}

/**
 * The first of an MRTR follow-up's inputResponses that is an elicitation answered decline or cancel (an ElicitResult's
 * action): the user's (or the client's handler's) refusal the server's result then follows. Looks at 16 entries at most.
 */
function refusedInput(responses: Record<string, unknown>): { key: string; action: string } | undefined {
  let n = 0;
  for (const key in responses) {
    if (++n > 16) break;
    const r = responses[key];
    const action = typeof r === 'object' && r !== null ? (r as { action?: unknown }).action : undefined;
    if (action === 'decline' || action === 'cancel') return { key: key.slice(0, 60), action };
  }
  return undefined;
}

/**
 * Whether `view`, of another input than `earlier` (open, holding its id in the same scope), may be that input's view
 * of the same request: the same method and arguments, and no open request of its own input holding the id (a reuse is
 * told within one log: two logs of one side show a request re-posted on the wire each in their own order, and which
 * of one log's views is which of the other's is for the matcher). Only client and server logs (a plain input's scope is its own).
 */
function secondView(earlier: AttemptView, view: AttemptView): boolean {
  if (earlier.input === view.input || earlier.method !== view.method || earlier.fingerprint !== view.fingerprint || (view.side !== 'client' && view.side !== 'server')) return false;
  for (let v: AttemptView | undefined = earlier; v; v = v.shadowed) if (!isFinal(v) && v.input === view.input) return false;
  return true;
}

/** This input's open request further down the chain of requests holding one id (two logs of one side: see secondView), if any. */
function ownView(view: AttemptView, input: number): AttemptView | undefined {
  for (let v = view.shadowed; v; v = v.shadowed) if (v.input === input && !isFinal(v)) return v;
  return undefined;
}
