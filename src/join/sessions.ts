// Per-session state the join keeps while a session is active (ids sent, orphans, cancels, duplicates); released when idle.
import type { AttemptView, JsonRpcId, Orphan, Source, ViewSide } from './attempt.js';

interface RequestSeen {
  ts: number | undefined;
  signature: number;
  /** When the exchange that carried it ended (whole-exchange records), to tell concurrent reuse of an id. */
  end?: number | undefined;
  /** The HTTP status of that exchange (null: none came), to say what a cancellation sent after its end came after. */
  status?: number | null | undefined;
  /**
   * What that exchange gave the client: `result` its JSON-RPC response with a 2xx status, `stray` only a JSON-RPC
   * body that names another id (null: an error body the client may not take as this request's), `failed` neither;
   * `unread` its response, but the client then resumed that stream from an event before it and nothing replayed it.
   */
  answer?: 'result' | 'stray' | 'failed' | 'unread' | 'refused';
  fingerprint: number;
  src: Source;
}

/** Small on purpose: a log can hold a million sessions; lists are created only when something goes in them. */
export interface SessionState {
  side: ViewSide;
  scope: string;
  /** Its key in the tracker (see scopeKeyOf), which the views of the scope carry as their scopeKey. */
  key: string;
  /** The MCP session id (null for a scope keyed by connection, client or input). */
  session: string | null;
  firstTs: number | undefined;
  lastTs: number | undefined;
  /** Who the session belongs to: the client identity, else the input. */
  clientKey: string | undefined;
  /** An initialize response in these logs announced this session id (on HTTP+SSE: the GET stream's `endpoint` event). */
  announced?: boolean;
  /** Every request id sent in the session, to tell orphans, duplicates and concurrent reuse. */
  requestIds: Map<string, RequestSeen>;
  /** When each id was answered (message-level), to tell a duplicated response row from an orphan. */
  answered?: Map<string, number | undefined>;
  orphans?: Orphan[];
  /**
   * notifications/cancelled for an id the log never shows, or (`after`) for a request whose exchange had ended more
   * than 50 ms before (`answer` says what that exchange gave the client: a late cancellation, or one it waited on).
   */
  cancels?: { id: JsonRpcId; src: Source; ts?: number; reason?: string; after?: { status: number | null | undefined; ms: number; answer?: 'result' | 'stray' | 'failed' | 'unread' | 'refused'; seen?: RequestSeen } }[];
  /**
   * The first exchange without a request (a GET stream, a notification) refused with 404 under this session id, or
   * with a 400 whose body says the session id is not valid (`said`, see saysSessionUnknown); `initialized`: it was the
   * client's notifications/initialized; `resumption`: a GET with Last-Event-ID (resuming a call's stream).
   */
  refused404?: { what: string; src: Source; ts: number | undefined; status?: number; said?: string; initialized?: boolean; resumption?: boolean };
  /** The scope's server/discover requests without a session id, until an initialize follows each (a client falling back). */
  probes?: AttemptView[];
  /**
   * POSTs with no request in them (notifications, answers to the server) that got another HTTP error (NOTIFICATION_REFUSED),
   * the first few. `lostId`: a server log's sessionless one refused for its missing session id, when that log's
   * last initialize response had set one that no request had carried back since (see RefusedPost).
   */
  refusedPosts?: RefusedPost[];
  /**
   * GETs for the server's stream refused with an HTTP error (GET_STREAM_REFUSED), one entry per status: how often, from
   * when to when. `counted`: the client's log of the session counts them (this log's entry, the server's, is no finding).
   */
  refusedGets?: { status: number; count: number; src: Source; ts: number | undefined; lastTs: number | undefined; said?: string; probe?: boolean; counted?: boolean; afterResumption?: number; noOpening?: boolean }[];
  /** The client's DELETE of this session that the server accepted (2xx): a later 404 answers a session the client ended. */
  terminated?: { src: Source; ts: number | undefined; side: ViewSide; caller: string; unseen?: boolean };
  /** This log sent a DELETE of the session (whatever the answer). */
  deleteSent?: boolean;
  /**
   * A request, notification or GET (not a DELETE) carried this session id: the client went on after its initialize.
   * A session without one never got past the handshake (see CALL_NEVER_SENT: a protocol version the client refused).
   */
  used?: boolean;
  /** A GET stream of this scope announced an `endpoint`: the 2024-11-05 HTTP+SSE transport. */
  legacySse?: boolean;
  /**
   * Requests that open a client's exchange with the server (initialize, server/discover) sent without a session in a
   * scope that no connection key names: more than one means several client instances, each numbering its own ids.
   */
  openings?: number;
  /** The scope's records were rebuilt from metadata (OTLP spans): without a session id it may be one request's trace. */
  rebuilt?: boolean;
  /** Identical records (an export's duplicate rows), counted once: `first` the row `dup` repeats; `of` the exchange's request row (one entry per exchange). */
  duplicates?: { what: string; first: Source; dup: Source; of?: Source }[];
  /** The signatures of the latest exchanges with no request in them (GET streams, notifications), to tell their copies. */
  rowSignatures?: Map<number, Source>;
  /** A task-augmented request was sent: its progress goes on after its response, until the task ends (2025-11-25). */
  tasks?: boolean;
  /** notifications/progress that reached the session for a token no open request of it had asked for (PROGRESS_UNMATCHED), the first few tokens. */
  strayProgress?: StrayProgress[];
  /** Such notifications for further tokens, beyond those kept. */
  strayProgressMore?: number;
}

/**
 * How long (log time) a request that asked for progress is remembered after it ended, to tell progress that came late
 * for it (PROGRESS_UNMATCHED) from progress for a token the session never asked for.
 */
export const RECENT_TOKEN_MS = 5_000;

/** A request as a finding names it: its method, id, tool and where it was sent. */
export interface RequestRef { method: string; id: string; tool: string | null; src: Source }

/** notifications/progress for one token that no open request of the session had asked for, when it came. */
export interface StrayProgress {
  /** The token as an id key, and as the notification wrote it. */
  key: string;
  token: string;
  /** How many came for it, and the first one's record and time. */
  count: number;
  src: Source;
  ts: number;
  /** The session's request that had asked for it had been answered this long before (its progress came late). */
  after?: { ms: number; request: RequestRef };
  /** It came on a resumption (Last-Event-ID) after the response that resumption replayed: a store that replays out of order. */
  replayedAfter?: boolean;
  /** The session sent a request with that id earlier, no longer remembered as open or recently answered. */
  earlier?: Source;
  /** A request of another session that had asked for that token was open then (progress meant for it reached this one). */
  elsewhere?: { session: string; request: RequestRef };
  /** The same notification in another view's log of the session (the client's is the one reported). */
  also?: Source[];
  /** Reported from another view's log of the session instead. */
  dup?: boolean;
}

/** A refused POST with no request in it, as NOTIFICATION_REFUSED tells it. */
export interface RefusedPost {
  what: string;
  status: number;
  src: Source;
  ts: number | undefined;
  said?: string;
  /** It carried no Mcp-Session-Id and the 400's body says the session id is missing or not valid. */
  noSession?: boolean;
  /**
   * The session id the same log's initialize response had set before it (and no request had carried since): where, how
   * long before, and which side and input that log is (to tell whether an initialize followed in it).
   */
  lostId?: { session: string; src: Source; ms: number | undefined; log: string };
}

/**
 * An error body that says the server does not know the session id the request carried: the example servers of the
 * TypeScript SDK 1.10 to 1.24 answer so with HTTP 400 (`Bad Request: No valid session ID provided` to a POST,
 * `Invalid or missing session ID` to a GET or DELETE) where the spec asks 404, and the SDK's transport itself says
 * `Bad Request: Server not initialized` when a server with one transport for the process was restarted. Not
 * "Mcp-Session-Id header is required" (no id sent) nor "must be a single value".
 */
export function saysSessionUnknown(text: string | undefined): boolean {
  if (text === undefined || text.length > 300) return false;
  if (/\bserver not initiali[sz]ed\b/i.test(text)) return true;
  return /\bsession\b/i.test(text) && /\b(no valid|invalid|unknown|not found|expired|does not exist|no such|missing)\b/i.test(text) && !/\brequired\b|single value/i.test(text);
}

/**
 * An error body that refuses the request's MCP-Protocol-Version: @hono/mcp 0.3 answers an unsupported version with
 * HTTP 404 (`Bad Request: Unsupported protocol version (supported versions: ...)`), which is no lost session.
 */
export function saysProtocolVersionRefused(text: string | undefined): boolean {
  return text !== undefined && text.length <= 300 && /\bunsupported protocol version\b/i.test(text);
}

export class SessionTracker {
  private states = new Map<string, SessionState>();
  private lastSweep = -Infinity;
  /**
   * Sessions closed while idle whose initialize response these logs showed (the latest IDLE_ANNOUNCED_KEPT): a client
   * that thinks for minutes sends its next request in the same session after it was let go, and the session it opens
   * again is still one the logs saw announced (a SESSION_EXPIRED must not say the id may have come from elsewhere).
   */
  private idleAnnounced = new Set<string>();

  /**
   * closeAfterMs: a session idle that long is closed. doneAfterMs: an id whose exchange ended that long ago is
   * forgotten by a long-lived session (the join window: a record that late about it was already judged).
   */
  constructor(private readonly closeAfterMs: number, private readonly onClose: (s: SessionState) => void, private readonly doneAfterMs = closeAfterMs) {}

  /** The scope's state, made on its first record; `key` is scopeKeyOf(side, input, scope), made by the caller. */
  touch(side: ViewSide, scope: string, session: string | null, ts: number | undefined, key: string, input: number): SessionState {
    let s = this.states.get(key);
    if (!s) {
      s = { side, scope, key, session, firstTs: ts, lastTs: ts, clientKey: undefined, requestIds: new Map() };
      this.states.set(key, s);
      if (session !== null && this.idleAnnounced.delete(key)) s.announced = true;
      if (session !== null) {
        if (side === 'unknown') this.plainSession(session, input);
        else this.sidedSession(session, input, side);
      }
    } else if (ts !== undefined) {
      if (s.firstTs === undefined || ts < s.firstTs) s.firstTs = ts;
      if (s.lastTs === undefined || ts > s.lastTs) s.lastTs = ts;
    }
    return s;
  }

  /**
   * Inputs without a side that carry a session id another such input carries too (a client's and a server's log given
   * as plain files), in the order found; see plainSession.
   */
  readonly sharedPlain: number[] = [];
  /** Which unsided input first carried each session id (at most PLAIN_KEPT of them). */
  private plainSessions = new Map<string, number>();

  /** A new scope of an unsided input with a session id: another unsided input that carried it shares its sessions. */
  private plainSession(session: string, input: number): void {
    const sided = this.sidedSessions.get(session);
    if (sided !== undefined) this.besideSided(input, sided);
    const first = this.plainSessions.get(session);
    if (first === undefined) {
      if (this.plainSessions.size < PLAIN_KEPT) this.plainSessions.set(session, input);
      return;
    }
    if (first === input) return;
    for (const i of [first, input]) if (!this.sharedPlain.includes(i)) this.sharedPlain.push(i);
  }

  /**
   * Inputs without a side that carry a session id an input with a side carries too (a recording proxy's capture given
   * next to --client and --server logs of the same traffic), each with the sided inputs it shares sessions with: its
   * calls are analyzed apart, so they are counted again.
   */
  readonly plainBesideSided = new Map<number, Map<number, ViewSide>>();
  /** Which sided input first carried each session id, and as which side (at most PLAIN_KEPT of them). */
  private sidedSessions = new Map<string, { input: number; side: ViewSide }>();

  private sidedSession(session: string, input: number, side: ViewSide): void {
    if (!this.sidedSessions.has(session) && this.sidedSessions.size < PLAIN_KEPT) this.sidedSessions.set(session, { input, side });
    const plain = this.plainSessions.get(session);
    if (plain !== undefined) this.besideSided(plain, { input, side });
  }

  private besideSided(plain: number, sided: { input: number; side: ViewSide }): void {
    const with_ = this.plainBesideSided.get(plain);
    if (with_) with_.set(sided.input, sided.side);
    else this.plainBesideSided.set(plain, new Map([[sided.input, sided.side]]));
  }

  get(scopeKey: string): SessionState | undefined {
    return this.states.get(scopeKey);
  }

  /** Close sessions idle for longer than closeAfterMs (swept at most every 30 s of log time). */
  advance(watermark: number): void {
    if (watermark < this.lastSweep + 30_000) return;
    this.lastSweep = watermark;
    const forgetBefore = watermark - this.closeAfterMs;
    const doneBefore = watermark - this.doneAfterMs;
    // forEach: no entry array per session (a log can hold a million).
    this.states.forEach((s, key, states) => {
      if (s.lastTs !== undefined && s.lastTs + this.closeAfterMs < watermark) {
        states.delete(key);
        if (s.announced === true && s.session !== null) this.rememberAnnounced(key);
        this.onClose(s);
      } else if (s.requestIds.size > FORGET_ABOVE) forgetOld(s, forgetBefore, doneBefore);
    });
  }

  private rememberAnnounced(key: string): void {
    this.idleAnnounced.add(key);
    if (this.idleAnnounced.size > IDLE_ANNOUNCED_KEPT) this.idleAnnounced.delete(this.idleAnnounced.values().next().value!);
  }

  flush(): void {
    const all = [...this.states.values()];
    this.states.clear();
    all.sort((a, b) => (a.firstTs ?? 0) - (b.firstTs ?? 0));
    for (const s of all) this.onClose(s);
  }

  get size(): number {
    return this.states.size;
  }
}

/** Sessions closed while idle remembered as announced (more than a busy log keeps open at once). */
const IDLE_ANNOUNCED_KEPT = 8192;
/** Session ids of unsided inputs remembered to tell that two such inputs share sessions (enough to see it early on). */
const PLAIN_KEPT = 10_000;

/** A session remembering this many ids or fewer keeps them until it closes (sweeping thousands of small sessions costs more than it frees). */
const FORGET_ABOVE = 32;

/**
 * A long-lived session would otherwise remember every id it ever sent: an id is dropped once its exchange ended more
 * than the join window ago, or (its end unknown: a message log's) once it was sent more than the close delay ago. At a
 * busy client's rate (hundreds of calls a second) the ids of the close delay alone took 100 MB of a run's peak.
 */
function forgetOld(s: SessionState, before: number, doneBefore: number): void {
  s.requestIds.forEach((seen, k, ids) => {
    if (seen.ts === undefined) return;
    if (seen.ts < before || (seen.end !== undefined && seen.end < doneBefore)) {
      ids.delete(k);
      s.answered?.delete(k);
    }
  });
}
