// Linking attempts into logical calls (retries) and raising the attempt- and session-level findings; retry-origin.ts says who sent a retry.
import type { Attempt } from './join/match.js';
import { learnToolList } from './join/tool-lists.js';
import { saysProtocolVersionRefused, type SessionState } from './join/sessions.js';
import type { SessionPairs } from './join/gateway.js';
import { scopeKeyOf, type AttemptView, type Source } from './join/attempt.js';
import type { Finding } from './findings/types.js';
import { isFailure } from './outcomes.js';
import { whoseAnswer } from './findings/crossed.js';
import { addToChain, checkAttempt, checkGatewayResend, checkRetry, checkSession, crossedResultFinding, CROSSED_WITHIN_MS, doneAt, gaveUpAtProgress, MISDIRECTED_RESEND, newRetryChain, OPENS, unknownSessionRefusal, type CallPolicy, type RetryChain, type SessionCalls } from './findings/rules.js';
import type { ToolSafety } from './findings/annotations.js';
import { jsonText } from './report/text.js';
import { trimOldest } from './bounded.js';
import { IdOrder } from './id-order.js';
import { signatureOf } from './join/fingerprint.js';
import { misdirectedResend, noteOf, notedOrigin, redirectFollowUp, retryOrigin, type Begin, type Opening } from './retry-origin.js';

interface CallsOptions {
  /** How long after a failed attempt a repeat still counts as its retry. */
  retryWindowMs: number;
  policy: CallPolicy;
  /** Tools declared idempotent with --idempotent. */
  idempotent: Set<string>;
  onAttempt: (a: Attempt) => void;
  onFinding: (f: Finding) => void;
  /**
   * The earliest start among the attempts not handed over yet (still open in the join, held by the matcher, or not
   * read): no later attempt can start before it. Calls whose retry window ended before it are forgotten; without it,
   * only the starts already seen are known, and a retry that ran long (released after shorter, later attempts) found
   * the call it repeats forgotten.
   */
  pendingFrom?: () => number;
  /** A request's crossed timeout (see MatchEngine.takeCrossedTimeout), by its view's scope and id: taken once. */
  crossedTimeout?: (scopeKey: string, idKey: string) => { ts: number; ms: number } | undefined;
  /** Client and server session ids a gateway rewrote (see SessionPairs): a server session's findings are told under the client's id. */
  pairs?: SessionPairs;
}

/** The last attempt of a call, kept while a retry of it may still come. */
interface CallTail {
  call: string;
  /** The name its client gave itself, when known. */
  who?: string | undefined;
  /** Its attempts, as the retry rules need them (a count and the last three, not a list: a retry loop can be endless). */
  chain: RetryChain;
  /**
   * Its attempts refused for an expired session not yet marked retriedInNewSession, by session: a retry in another
   * session marks those of every other session, each once (only the expired-session findings read the mark).
   */
  unmarked: Map<string | null, Attempt[]>;
  last: Attempt;
  expires: number;
  /** The failed call alike of another client of its shared scope (otherClientsId) that its first attempt was told apart from. */
  alike?: string;
}

export class CallLinker {
  private tails = new Map<string, CallTail>();
  private continuations = new Map<string, CallTail>();
  /**
   * Calls the application named with withCallNote (a request's note.call), by caller and name: a later request with
   * the same note.call (and note.attempt above 1, or none) is an attempt of that call whatever the outcome before it.
   * Forgotten as the other calls are, once no retry can come.
   */
  private noted = new Map<string, CallTail>();
  /** Calls whose tools/call created a task, by client and taskId: its tasks/get, tasks/result and tasks/cancel join them. */
  private tasks = new Map<string, CallTail>();
  /** Tool annotations from tools/list responses, per caller (the last TOOL_LISTS_KEPT): a first page replaces them, a later page adds to them. */
  private tools = new Map<string, Map<string, ToolSafety>>();
  /** The latest tools/list of each session (scope), the last TOOL_LISTS_KEPT of them: asked before the client's. */
  private scopeTools = new Map<string, Map<string, ToolSafety>>();
  private anyToolsList = false;
  /** The first tools/list asked whose answer the log leaves out (the Python SDK's DEBUG log shows no JSON answers). */
  private toolsListUnlogged: Source | undefined;
  private callSeq = 0;
  private lastToolsCall = new Map<string, number>();
  private lastInitialize = new Map<string, number>();
  /**
   * When each named client (caller and the name it gave itself) last began a connect (initialize, server/discover),
   * worked or not: a retry after one waited for a new Client's connect too (see Attempt.reconnectedBefore).
   */
  private lastConnect = new Map<string, number>();
  private lastInitializeFailed = new Map<string, number>();
  /** Per client, the last line of an untimed initialize that worked: what came after what, in a log without times. */
  private lastInitializeAt = new Map<string, Source>();
  /** The last initialize that worked in each log (side|input), whoever sent it: what followed a refusal in a scope without calls. */
  private lastInitializeInLog = new Map<string, number>();
  private sessions = new Map<string, SessionCalls>();
  /**
   * Per scope with an identity of its own (a session id, or a conn such as recordingFetch's per Client): when its first
   * request started, and the latest attempt of each call in it with that call's tail. A retry is looked for in its own
   * scope first: several processes with one client name make the same calls at once. Each call keeps its failed
   * tails not yet retried (the latest SCOPE_FAILURES_KEPT): calls alike sent at once (Promise.all) fail and are
   * retried each on its own.
   */
  private scopeCalls = new Map<string, { first: number; byCall: Map<number, ScopeFailure[]> }>();
  /** Per caller and call, the latest tail whose last attempt failed (a later call of another scope took the key). */
  private failedTails = new Map<string, CallTail>();
  /**
   * Calls whose latest attempt went well, by its session and id, for RESEND_WITHIN_MS after their end (the last
   * RESENDABLE_KEPT of them): the same request (same id, same params) posted again in its session is a re-send of it
   * (an HTTP client's retry below the SDK, a hop's), as no client may reuse an id in a session, whatever the log
   * showed of the first one's end.
   */
  private resendable = new Map<string, { tail: CallTail; until: number }>();
  /**
   * A server's view alone of a request that failed there (a gateway's try the client never saw), by JSON-RPC id and
   * request fingerprint: the gateway's re-send of it (its line counts retries) is a later attempt of its call.
   */
  private gatewayTries = new Map<string, { tail: CallTail; start: number; until: number }>();
  /**
   * Calls whose latest attempt has a client view answered 421, by session and JSON-RPC id (the last GATEWAY_TRIES_KEPT):
   * a server's view alone of the same request right after it is the HTTP client's re-send (misdirectedResend), which a
   * client's fetch log never shows, and an attempt of that call.
   */
  private misdirected = new Map<string, CallTail>();
  /** The last initialize or server/discover of each scope (side|scope) without a session: where a client began anew. */
  private begins = new Map<string, Begin>();
  /** How each open session began (side|scope): its initialize's id, and the lowest numeric id sent in it since. */
  private openings = new Map<string, Opening>();
  /** ORPHAN_RESPONSE messages raised per session id, and how often: the client's and the server's view see the same ones. */
  private orphansRaised = new Map<string, number>();
  /**
   * SESSION_EXPIRED that only a joined view's log shows (the server's body of a GET refused with 400), held by session
   * id until the primary view's session closes: raised then unless that view raised its own, else at the end.
   */
  private heldExpired = new Map<string, Finding>();
  /** Session ids whose primary view raised SESSION_EXPIRED (recent ones), so a joined view's one is not raised after. */
  private expiredRaised = new Set<string>();
  /** The client each open session's initialize named (side|scope -> name/version). */
  private sessionClients = new Map<string, string>();
  /**
   * Sessions closed while idle (the latest CLOSED_KEPT): their client's name and when they began. A client that thinks
   * for minutes between calls sends its next request in the same session after the tracker let it go; that request is
   * still its client's (without the name, it could be taken for the retry of another client's call alike), in a session
   * that began when it began (not then: a session that was already going is no new session after another's failure).
   */
  private closedScopes = new Map<string, { name: string | undefined; first: number | undefined }>();
  /** The client names of sessions ended by an accepted DELETE (side|scope): their client's next request goes without one. */
  private deletedNames = new Map<string, string>();
  /**
   * The client the last initialize of each connection named (side|caller, for records with a `conn`), for the requests
   * it sends without a session: after its DELETE the SDK client posts on with no session id (McpAgent answers 400).
   */
  private connClients = new Map<string, string>();
  /**
   * Sessionless scopes no connection tells apart (side|scope) whose initialize requests named more than one client
   * (Clients of a stateless server behind one recording proxy): the last one's name is not the name of the client that
   * sends the next request there.
   */
  private mixedScopes = new Set<string>();
  /** The caller (callerOf) of each open session's attempts (side|scope), for its findings at close. */
  private sessionCallers = new Map<string, string>();
  /** Recent tools/call results by side, id and result digest: the same answer to another session's request shows. */
  private recentResults = new Map<string, Attempt>();
  /** The order each session's client took its ids in: a request made before an attempt failed is no retry of it. */
  private idOrder = new IdOrder();

  /** The latest time of any attempt so far (0 before any has one): an untimed attempt's "now". */
  private latestTime = 0;

  /** The times of the latest OAuth metadata requests each log showed (side|input, the last OAUTH_KEPT): see noteOAuth. */
  private oauthRequests = new Map<string, number[]>();

  constructor(private readonly opts: CallsOptions) {}

  /**
   * A log showed a request for OAuth metadata (GET /.well-known/oauth-protected-resource...): an SDK's auth flow asks it
   * before it re-sends a request refused with 401, which a person's new run with another token does not.
   */
  /** The most keys any of the callers' last-time maps holds (for tests of bounded memory: not one per connection of the log). */
  get callerTimesCount(): number {
    return Math.max(this.lastToolsCall.size, this.lastInitialize.size, this.lastInitializeFailed.size, this.lastConnect.size, this.lastInitializeAt.size);
  }

  noteOAuth(input: number, side: string, ts: number | undefined): void {
    if (ts === undefined) return;
    const k = `${side}|${input}`;
    let l = this.oauthRequests.get(k);
    if (!l) {
      this.oauthRequests.set(k, (l = []));
      trimOldest(this.oauthRequests, 256);
    }
    l.push(ts);
    if (l.length > OAUTH_KEPT) l.splice(0, l.length - OAUTH_KEPT);
  }

  /** Whether the log of `a`'s primary view showed an OAuth metadata request after `previous` began and before `a` began. */
  private oauthBetween(a: Attempt, previous: Attempt): boolean {
    const from = previous.startTs;
    const to = a.startTs;
    if (from === undefined || to === undefined) return false;
    for (const v of [a.primary, a.client, a.server]) {
      if (!v) continue;
      const l = this.oauthRequests.get(`${v.side}|${v.input}`);
      if (l?.some((t) => t >= from && t <= to)) return true;
    }
    return false;
  }

  attempt(a: Attempt): void {
    const view = a.primary;
    // Its client's own timeout ran out after its answer had ended in the log: the caller got the timeout, not the answer.
    // (Taken from every view; kept on the client's view, whose own times a client's log has. A server's log alone keeps
    // its session-level CANCELLED only: there the cancellation also follows answers a hop held or lost on the way, whose
    // like request after it the application may not have sent as a retry.)
    if (a.method === 'tools/call' && this.opts.crossedTimeout) {
      for (const v of [a.client, a.server]) {
        const c = v ? this.opts.crossedTimeout(v.scopeKey, v.idKey) : undefined;
        if (c === undefined || v === undefined || v !== a.client) continue;
        v.crossedTimeout = c;
        const said = `its client's notifications/cancelled for its own timeout came ${Math.round(c.ms)} ms after this answer had ended in this log: the caller got the timeout error, not this answer`;
        a.detail = { ...a.detail, why: a.detail.why ? `${a.detail.why}; ${said}` : said };
      }
    }
    // The scope's key and the client's name, made once: every map below is keyed by them.
    const scopeKey = view.scopeKey;
    if (this.closedScopes.size > 0) this.reopen(a, scopeKey);
    const who = this.identity(a, scopeKey);
    const clientKey = this.callerOf(a, who);
    this.sessionCallers.set(scopeKey, clientKey);
    // A request without a session id: the endpoint it went to keeps its call, retries and tools/list apart from those
    // of another server the same client calls (stateless servers' ids and tool names collide).
    const at = linkEndpoint(a) ?? '';
    const linkScope = at === '' ? scopeKey : `${scopeKey}${at}`;
    if (a.method === 'tools/list') this.learnTools(clientKey, a, linkScope, who);
    if (a.method === 'tools/call' && a.startTs !== undefined) {
      // Kept per caller and, for a named client, per caller and name: the named clients of one log share a caller.
      latest(this.lastToolsCall, clientKey, a.startTs);
      if (who !== undefined) latest(this.lastToolsCall, `${clientKey}|${who}`, a.startTs);
      // A second log's view of the same request (two logs of one side: see MatchEngine's twinOf) is that log's caller's
      // tools/call too: its scope's failed opening was not the last word (no CALL_NEVER_SENT for it).
      for (const o of a.others) {
        const k = this.callerOfView(o, who);
        if (k === clientKey) continue;
        latest(this.lastToolsCall, k, a.startTs);
        if (who !== undefined) latest(this.lastToolsCall, `${k}|${who}`, a.startTs);
      }
    }
    if (a.method === 'initialize' && a.startTs !== undefined) {
      // A re-initialize that failed (a server with one session per process refusing it) is kept apart from one that worked.
      const m = initializeFailed(a) ? this.lastInitializeFailed : this.lastInitialize;
      latest(m, clientKey, a.startTs);
      if (who !== undefined) latest(m, `${clientKey}|${who}`, a.startTs);
      // A named initialize whose answer and session the log does not show (express-winston's, Fastify's lines keep the
      // status alone): the sessions of its input whose client is not named may be its client's.
      const caller = (a.client ?? a.primary).caller;
      if (a.session === null && a.primary.bodyNotCaptured === true && who !== undefined && caller !== clientKey) latest(m, caller, a.startTs);
      if (!initializeFailed(a)) for (const v of [a.primary, a.client, a.server]) if (v) latest(this.lastInitializeInLog, `${v.side}|${v.input}`, a.startTs);
    } else if (a.method === 'initialize' && !initializeFailed(a)) {
      const at = view.sources[0]!;
      for (const k of who !== undefined ? [clientKey, `${clientKey}|${who}`] : [clientKey]) {
        const known = this.lastInitializeAt.get(k);
        if (known !== undefined && known.file === at.file && known.line >= at.line) continue;
        this.lastInitializeAt.delete(k);
        this.lastInitializeAt.set(k, at);
        trimOldest(this.lastInitializeAt, CALLER_TIMES_KEPT);
      }
    }
    if ((a.method === 'initialize' || a.method === 'server/discover') && who !== undefined && a.startTs !== undefined) {
      latest(this.lastConnect, `${clientKey}|${who}`, a.startTs);
      if (at !== '') latest(this.lastConnect, `${clientKey}|${who}${at}`, a.startTs);
    }
    if ((a.method === 'initialize' || a.method === 'server/discover') && a.session === null && a.startTs !== undefined) {
      if ((this.begins.get(scopeKey)?.ts ?? -Infinity) <= a.startTs) this.begins.set(scopeKey, { ts: a.startTs, method: a.method, id: a.id });
    }
    // The server's view alone of its HTTP client's re-send after a 421: an attempt of the client's call, whose failure
    // that call's own scope counts (one CALL_NEVER_SENT, not one per view).
    const misTail = this.misdirectedTry(a);
    this.noteSession(a, scopeKey, misTail !== undefined);
    this.idOrder.note(a);
    if (ownScope(a) && a.startTs !== undefined) {
      const sc = this.scopeCalls.get(scopeKey);
      if (!sc) this.scopeCalls.set(scopeKey, { first: a.startTs, byCall: new Map() });
      else if (a.startTs < sc.first) sc.first = a.startTs;
    }
    // An attempt without a time (an untimed client log's, where no other log gave it one) is taken at the latest time
    // seen: its retry window is not counted from 1970, so a timed attempt after it (its retry, joined with a server's
    // view) still finds it.
    const now = a.startTs ?? a.endTs ?? this.latestTime;
    if (now > this.latestTime) this.latestTime = now;
    const taskId = taskIdOf(a, 'taskId');
    const task = taskId !== undefined ? this.tasks.get(`${clientKey}|task:${taskId}`) : undefined;
    if (task && a.method.startsWith('tasks/')) {
      // A request about a task continues the call whose tools/call created it; it is not a call of its own.
      addToChain(task.chain, a);
      task.last = a;
      task.expires = Math.max(task.expires, (a.endTs ?? now) + this.opts.retryWindowMs);
      a.call = task.call;
      a.attempt = task.chain.count;
      a.continuation = true;
      a.retryOrigin = { origin: 'none', how: `${a.method} of the task its tools/call created` };
      a.findings.push(...checkAttempt(a, {}));
      this.opts.onAttempt(a);
      this.expire(now);
      return;
    }
    // Calls are told apart by caller: the log's client identity, then the name the client gave itself (two agents with
    // the same arguments are two calls). An attempt whose client is unnamed can still be retried by a named one.
    // Every call is also kept under the unnamed key: an attempt whose client is not named (its session's initialize is
    // not in the log) may retry any of them; a named one only its own, or one whose client was not named.
    // An MRTR follow-up by the server's word when the primary view logged no params (an OpenTelemetry span): it does
    // not say what the server's view of the same request shows (its inputResponses/requestState).
    const continuation = view.continuation || (view.noArgs === true && a.server !== undefined && a.server !== view && a.server.continuation);
    const unnamed = `${clientKey}||${view.fingerprint}${at}`;
    const key = who === undefined ? unnamed : `${clientKey}|${who}|${view.fingerprint}${at}`;
    // A call kept under the endpoint is kept under the key without it too, for a retry in a session (the request a
    // client posts without one after its DELETE, retried in a new session); one with an endpoint finds only its own.
    const plain = at === '' ? undefined : [`${clientKey}||${view.fingerprint}`, who === undefined ? undefined : `${clientKey}|${who}|${view.fingerprint}`];
    const linkPrint = at === '' ? view.fingerprint : signatureOf(`${view.fingerprint}${at}`);
    // The application's own word on which call this is (withCallNote): it beats the heuristics.
    const note = noteOf(a);
    const notedKey = note?.call !== undefined ? `${clientKey}|${who ?? ''}|note:${note.call}` : undefined;
    let byNote = notedKey !== undefined && !continuation && (note!.attempt ?? 2) > 1 ? this.noted.get(notedKey) : undefined;
    if (byNote && (byNote.expires < now || byNote.last === a)) byNote = undefined;
    let tail: CallTail | undefined;
    const scoped = ownScope(a) ? this.scopeCalls.get(scopeKey) : undefined;
    const own = continuation ? undefined : ownFailure(scoped?.byCall.get(linkPrint), a, (prev) => !this.idOrder.madeBefore(a, prev));
    if (continuation) tail = this.continuationOf(a, key);
    else if (own) tail = own.tail;
    else {
      if (who === undefined) tail = this.tailOf(a, unnamed, plain?.[0]);
      else {
        tail = this.tailOf(a, key, plain?.[1]);
        const other = tail ? undefined : this.tailOf(a, unnamed, plain?.[0]);
        if (other && other.who === undefined) tail = other;
      }
      // Two logs of one side, without a session: the earlier attempt may stand on the other log's view (its caller and
      // URL): its call is kept under that view's key too (twinKeys).
      if (!tail && a.others.length > 0 && a.session === null) for (const k of this.twinKeys(a, who, view.fingerprint)) if ((tail = this.tails.get(k)) !== undefined) break;
      // The latest such call may be another process's that went well: the latest that failed, in another scope (this
      // scope's own failed call is found above while it is its latest), is looked at then.
      if (scoped && (!tail || !failedForCaller(tail.last))) {
        const failed = this.tailOf(a, who === undefined ? unnamed : key, who === undefined ? plain?.[0] : plain?.[1], this.failedTails);
        if (failed && failed.last.primary.scopeKey !== scopeKey) tail = failed;
      }
      // Another scope's attempt is retried from this one only when this one began after it (a new session after a 404):
      // a scope that was already going is another process's, whose own calls are its own.
      // (An HTTP client's re-send after a 421 that only the server's log shows is of the attempt before it: its scope counts.)
      const anchor = tail && misdirectedLast(tail) ? tail.chain.previous! : tail?.last;
      if (tail && anchor && scoped && ownScope(anchor) && anchor.primary.scopeKey !== scopeKey && anchor.startTs !== undefined && scoped.first < anchor.startTs) tail = undefined;
      // A request its client made before it could know of the failure (the session's ids say so) is no retry of it.
      if (tail && !byNote && this.idOrder.madeBefore(a, tail.last)) tail = undefined;
    }
    // The same request posted again in its session: a re-send of the call that went well as far as this log shows.
    const resentKey = view.session !== null && !continuation && !view.initialize ? `${scopeKey} ${view.idKey}` : undefined;
    const kept = resentKey !== undefined ? this.resendable.get(resentKey) : undefined;
    const resent = kept && (a.startTs === undefined || a.startTs <= kept.until) ? kept.tail : undefined;
    if (resent && resent.last.primary.fingerprint === view.fingerprint && startedAfter(a, resent.last)) {
      tail = resent;
      this.resendable.delete(resentKey!);
    }
    if (tail && tail.expires < now && tail !== resent) tail = undefined;
    // The gateway re-sent this request (its line counts retries): a server's view of an earlier try of it, which the
    // client never saw, started while the gateway had it, is this call's earlier attempt.
    const gw = continuation ? undefined : this.gatewayTry(a);
    if (gw) tail = gw;
    // The server's view alone of the HTTP client's re-send after a 421, which the client's fetch log never shows.
    const mis = continuation || gw ? undefined : misTail;
    if (mis) tail = mis;
    // A like request of another client of a shared scope, not linked to the failed call it resembles, is told apart from it.
    let othersId = false;
    if (continuation && tail) {
      // An MRTR follow-up continues the call; it is not a retry.
      // (Marked before it joins the chain, which weighs whether the round it continues ran the tool.)
      tail.last.continued = true;
      this.extend(tail, a, key, unnamed, who, true, plain);
      a.continuation = true;
      a.retryOrigin = { origin: 'none', how: 'continuation of an input_required result (inputResponses/requestState)' };
      a.findings.push(...checkAttempt(a, { continuationOf: tail.chain.previous }));
    } else if (gw || mis || byNote || (tail && !continuation && (failedForCaller(tail.last) || tail === resent) && startedAfter(a, tail.last) && sameWebOrigin(a, tail.last) && !this.fellBack(clientKey, tail.last) && !notesPart(a, tail.last) && !serverSawOtherCall(a, tail.last) && !this.sameOneShotRun(a, tail.last, who, scopeKey) && !(othersId = this.otherClientsId(a, tail.last, scopeKey)))) {
      if (byNote && !gw) tail = byNote;
      tail = tail!;
      this.extend(tail, a, key, unnamed, who, false, plain);
      const previous = tail.chain.previous!;
      previous.primary.retried = true;
      // Its client connected again (a new Client: initialize or server/discover under its name) since the attempt
      // before it: the gap holds that connect, no backoff alone. Where there is no session to change, only the name tells.
      const connected = who !== undefined ? this.lastConnect.get(`${clientKey}|${who}${at}`) : undefined;
      if (connected !== undefined && a.method !== 'initialize' && a.method !== 'server/discover' && a.startTs !== undefined && connected <= a.startTs && connected >= (previous.endTs ?? previous.startTs ?? Infinity)) a.reconnectedBefore = true;
      const cli = !gw && !byNote ? oneShotCli(who, a) : undefined;
      for (const [session, attempts] of tail.unmarked) {
        if (session === a.session) continue;
        for (const p of attempts) {
          p.primary.retriedInNewSession = true;
          if (cli) p.primary.rerunBy = `${cli} (${jsonText(who)})`;
        }
        tail.unmarked.delete(session);
      }
      a.retryOrigin = gw ? { origin: 'gateway', how: `the gateway's log counts a re-send of this POST (${a.gatewayLine!.src.file}:${a.gatewayLine!.src.line}, retries ${a.gatewayLine!.retries}), and a server's log has an earlier try of the same request the client never saw` }
        : byNote ? notedOrigin(a, note!.call!)
          : cli ? { origin: 'unknown', how: `${cli} (${jsonText(who)}) sent it again from a new run (${a.session !== null ? 'a new session' : 'a new initialize before it'}): it runs one command per process and re-sends nothing itself, so a person or a script ran the command again; nothing in the logs says which` }
            : retryOrigin(a, previous, this.openings.get(scopeKey), this.begins.get(scopeKey), () => this.oauthBetween(a, previous));
      // Several clients share the scope and another's call alike failed just before: either may be the one repeated.
      if (tail.alike !== undefined && this.mixedScopes.has(scopeKey)) a.retryOrigin = { ...a.retryOrigin, how: `${a.retryOrigin.how}; several clients share these requests without a session id (their initialize requests name more than one client, and no conn tells them apart), and call ${tail.alike}, alike, failed too: which of the two it repeats, this log cannot tell` };
      // Linked only because the client was still waiting for the earlier attempt after its stream ended: the how says so.
      const waited = !gw && !byNote ? waitedOut(previous, tail.who) : undefined;
      if (waited && a.startTs !== undefined && previous.endTs !== undefined && a.startTs - previous.endTs > this.opts.retryWindowMs) {
        a.retryOrigin = { ...a.retryOrigin, how: `${a.retryOrigin.how}; it came ${((a.startTs - previous.endTs) / 1000).toFixed(2)} s after the earlier attempt's stream ended, ${((a.startTs - waited.at) / 1000).toFixed(2)} s after ${waited.how}, so the retry window (--retry-window) runs from then` };
      }
      a.findings.push(...checkAttempt(a, {}));
      a.findings.push(...checkRetry(a, previous, tail.chain, this.safety(clientKey, a.tool, linkScope), { any: this.anyToolsList, unlogged: this.toolsListUnlogged }, this.opts));
    } else {
      const alike = othersId ? tail!.call : undefined;
      tail = { call: `c${++this.callSeq}`, who, chain: newRetryChain(), unmarked: new Map(inExpiredSession(a) ? [[a.session, [a]]] : []), last: a, expires: this.retryableUntil(a, now, who) };
      if (alike !== undefined) tail.alike = alike;
      addToChain(tail.chain, a);
      a.call = tail.call;
      a.attempt = 1;
      a.findings.push(...checkAttempt(a, {}));
      this.tails.set(key, tail);
      if (key !== unnamed) this.tails.set(unnamed, tail);
      if (plain) for (const k of plain) if (k !== undefined) this.tails.set(k, tail);
      if (a.others.length > 0 && a.session === null) for (const k of this.twinKeys(a, who, view.fingerprint)) this.tails.set(k, tail);
      if (awaitsInput(a)) this.awaitContinuation(tail, a, key);
    }
    if (notedKey !== undefined && tail) {
      this.noted.delete(notedKey);
      this.noted.set(notedKey, tail);
    }
    if (tail && !a.continuation) {
      if (scoped) {
        // Only a failed attempt is kept for its scope's retry: after one that went well the next like call is another
        // call, which the cross-scope guard keeps from other scopes' failures (and memory keeps only what may be retried).
        // A like call that went well ends the failed ones that had ended when it began (it retried them, or it is a new
        // call after them), for the requests that begin after it ends; one sent while they ran (Promise.all) does not.
        const list = (scoped.byCall.get(linkPrint) ?? []).filter((e) => e.tail !== tail && e.tail.last.primary.seq === e.seq);
        if (failedForCaller(a)) list.push({ tail, seq: a.primary.seq ?? -1 });
        else for (const e of list) if (startedAfter(a, e.tail.last)) e.clearedAt = Math.min(e.clearedAt ?? Infinity, a.endTs ?? a.startTs ?? -Infinity);
        if (list.length > SCOPE_FAILURES_KEPT) list.splice(0, list.length - SCOPE_FAILURES_KEPT);
        scoped.byCall.delete(linkPrint);
        if (list.length > 0) scoped.byCall.set(linkPrint, list);
        trimOldest(scoped.byCall, SCOPE_CALLS_KEPT);
      }
      // (Kept under the key without the endpoint too, as the tails are: a retry in a session looks there.)
      for (const fk of [who === undefined ? unnamed : key, who === undefined ? plain?.[0] : plain?.[1]]) {
        if (fk === undefined) continue;
        if (failedForCaller(a)) {
          this.failedTails.delete(fk);
          this.failedTails.set(fk, tail);
          trimOldest(this.failedTails, FAILED_TAILS_KEPT);
        } else if (this.failedTails.get(fk) === tail) this.failedTails.delete(fk);
      }
    }
    if (a.server && !a.client && a.method === 'tools/call' && isFailure(a.outcome) && a.startTs !== undefined && tail?.last === a) {
      this.gatewayTries.delete(`${view.idKey}|${view.fingerprint}`);
      this.gatewayTries.set(`${view.idKey}|${view.fingerprint}`, { tail, start: a.startTs, until: (a.endTs ?? a.startTs) + this.opts.retryWindowMs });
      trimOldest(this.gatewayTries, GATEWAY_TRIES_KEPT);
    }
    if (a.client && a.status === 421 && tail?.last === a) {
      const mk = `${a.session ?? ''}|${view.idKey}`;
      this.misdirected.delete(mk);
      this.misdirected.set(mk, tail);
      trimOldest(this.misdirected, GATEWAY_TRIES_KEPT);
    }
    // A gateway's re-send below the client (HAProxy's retries on its line of this POST): the tool may have run twice.
    if (a.gatewayLine && !a.findings.some((f) => f.code === 'UNSAFE_RETRY')) a.findings.push(...checkGatewayResend(a, this.safety(clientKey, a.tool, linkScope), { any: this.anyToolsList, unlogged: this.toolsListUnlogged }));
    this.crossedResult(a);
    this.noteOpening(a, scopeKey);
    const minted = a.outcome === 'TASK_CREATED' ? taskIdOf(a, 'mintedTaskId') : undefined;
    const owner = minted !== undefined ? this.tails.get(key) : undefined;
    if (minted !== undefined && owner?.last === a) this.tasks.set(`${clientKey}|task:${minted}`, owner);
    // A call whose latest attempt went well takes no retry: a like request after it is a call of its own whether its
    // tail is found or not, so it is let go now rather than at the end of the retry window (at a real SDK's call rate,
    // a minute of calls and their attempts). Kept: a failed one, one waiting for its input_required follow-up or its
    // task, and one the application named (its note may link any next attempt).
    if (tail && tail.last === a && !failedForCaller(a) && a.outcome !== 'INPUT_REQUIRED' && a.outcome !== 'TASK_CREATED' && notedKey === undefined) {
      if (this.tails.get(key) === tail) this.tails.delete(key);
      if (this.tails.get(unnamed) === tail) this.tails.delete(unnamed);
      if (plain) for (const k of plain) if (k !== undefined && this.tails.get(k) === tail) this.tails.delete(k);
      if (a.others.length > 0 && a.session === null) for (const k of this.twinKeys(a, who, view.fingerprint)) if (this.tails.get(k) === tail) this.tails.delete(k);
      if (resentKey !== undefined) {
        const end = a.endTs ?? a.startTs;
        this.resendable.set(resentKey, { tail, until: end === undefined ? Infinity : end + RESEND_WITHIN_MS });
        for (const [k, r] of this.resendable) {
          if (this.resendable.size <= RESENDABLE_KEPT && r.until >= now) break;
          this.resendable.delete(k);
        }
      }
    }
    this.opts.onAttempt(a);
    this.expire(now);
  }

  /** The call of an earlier try of this request that the gateway re-sent (see gatewayTries), taken once. */
  /** The call whose client-viewed 421 this server-only attempt re-sends (see misdirected), taken once. */
  private misdirectedTry(a: Attempt): CallTail | undefined {
    if (!a.server || a.client || a.primary !== a.server) return undefined;
    const mk = `${a.session ?? ''}|${a.primary.idKey}`;
    const t = this.misdirected.get(mk);
    if (!t || t.last.primary.fingerprint !== a.primary.fingerprint || !misdirectedResend(a, t.last)) return undefined;
    this.misdirected.delete(mk);
    return t;
  }

  private gatewayTry(a: Attempt): CallTail | undefined {
    const g = a.gatewayLine;
    if (!g || g.retries <= 0 || this.gatewayTries.size === 0) return undefined;
    const k = `${a.primary.idKey}|${a.primary.fingerprint}`;
    const t = this.gatewayTries.get(k);
    if (!t || t.tail.last === a || t.start < g.ts - 1000 || t.start > (g.endTs ?? g.ts) + 1000) return undefined;
    this.gatewayTries.delete(k);
    return t.tail;
  }

  /** A session closed: raise its findings with what the calls in it showed. */
  session(s: SessionState): void {
    // The server's session of a pair whose client had another id (a gateway rewrote it): its findings are the client
    // session's, as the session's attempts are, so the same expiry or stray response in both logs is told once.
    const paired = s.side === 'server' && s.session !== null ? this.opts.pairs?.clientOf(s.session) : undefined;
    if (paired !== undefined) s = { ...s, session: paired };
    const key = s.key;
    const calls = this.sessions.get(key);
    const firstCall = this.scopeCalls.get(key)?.first;
    const began = this.openings.has(key);
    this.sessions.delete(key);
    this.scopeCalls.delete(key);
    this.openings.delete(key);
    this.begins.delete(key);
    this.idOrder.forget(key);
    const name = this.sessionClients.get(key);
    this.sessionClients.delete(key);
    if (s.terminated !== undefined && name !== undefined) {
      this.deletedNames.set(key, name);
      trimOldest(this.deletedNames, CLOSED_KEPT);
    }
    if (s.session !== null && s.terminated === undefined && (name !== undefined || firstCall !== undefined)) {
      this.closedScopes.set(key, { name, first: firstCall });
      trimOldest(this.closedScopes, CLOSED_KEPT);
    }
    this.mixedScopes.delete(key);
    const clientKey = this.sessionCallers.get(key) ?? s.clientKey ?? '';
    this.sessionCallers.delete(key);
    const after = (m: Map<string, number>, k = clientKey, orAt = false) => (ts: number | undefined) => {
      const last = m.get(k);
      return last !== undefined && (ts === undefined || last > ts || (orAt && last === ts));
    };
    // A client that re-initializes at once (Codex: in the millisecond its 404 ended) does so after the failure too.
    // A tools/call or initialize by another client of the same log (another name) is not this session's client's.
    const own = name !== undefined ? `${clientKey}|${name}` : clientKey;
    const timedInitializeAfter = after(this.lastInitialize, own, true);
    const later = {
      toolCallAfter: after(this.lastToolsCall, own),
      // In a log without times, line order within the one file tells what came after.
      initializeAfter: (ts: number | undefined, at?: Source) => {
        if (ts !== undefined || at === undefined) return timedInitializeAfter(ts);
        const last = this.lastInitializeAt.get(own);
        return last !== undefined && last.file === at.file && last.line > at.line;
      }, initializeFailedAfter: after(this.lastInitializeFailed, own, true), began,
      initializeInLogAfter: (log: string, ts: number | undefined) => after(this.lastInitializeInLog, log, true)(ts),
    };
    const counts = new Map<string, number>();
    // A server's cancellation that crossed its answer is told by the client's view of the call when that is the primary one.
    if (!calls && s.side === 'server' && s.cancels?.some((c) => c.after !== undefined)) s = { ...s, cancels: s.cancels.filter((c) => c.after === undefined) };
    const found = checkSession(s, calls, later);
    if (s.session) {
      const sid = s.session;
      if (!calls) {
        // A joined view (no calls of its own): hold its SESSION_EXPIRED until the primary view of the session has spoken.
        const held = found.find((f) => f.code === 'SESSION_EXPIRED');
        if (held && !this.expiredRaised.has(sid)) {
          this.heldExpired.set(sid, held);
          if (this.heldExpired.size > 4096) this.releaseHeld(this.heldExpired.keys().next().value!);
        }
        found.splice(0, found.length, ...found.filter((f) => f.code !== 'SESSION_EXPIRED'));
      } else if (found.some((f) => f.code === 'SESSION_EXPIRED')) {
        this.heldExpired.delete(sid);
        this.expiredRaised.add(sid);
        if (this.expiredRaised.size > 4096) this.expiredRaised.delete(this.expiredRaised.values().next().value!);
      } else {
        this.releaseHeld(sid);
      }
    }
    for (const f of found) {
      // Traffic without a session id is grouped by a scope key, as its attempts are: the filters and views need it.
      if (s.session === null && f.session == null) f.group = s.scope;
      if (f.code === 'ORPHAN_RESPONSE' && s.session) {
        // The same stray response in both views of one session is one finding, not one per log.
        const n = (counts.get(f.message) ?? 0) + 1;
        counts.set(f.message, n);
        if (n <= (this.orphansRaised.get(f.message) ?? 0)) continue;
        this.orphansRaised.delete(f.message);
        this.orphansRaised.set(f.message, n);
        trimOldest(this.orphansRaised, 4096);
      }
      this.opts.onFinding(f);
    }
  }

  private releaseHeld(sid: string): void {
    const f = this.heldExpired.get(sid);
    if (!f) return;
    this.heldExpired.delete(sid);
    this.opts.onFinding(f);
  }

  flush(): void {
    for (const sid of [...this.heldExpired.keys()]) this.releaseHeld(sid);
    this.tails.clear();
    this.noted.clear();
    this.continuations.clear();
    this.tasks.clear();
  }

  private noteSession(a: Attempt, key: string, resend = false): void {
    let c = this.sessions.get(key);
    if (!c) this.sessions.set(key, (c = { requests: 0, toolCalls: 0, failed: [], expired: [] }));
    c.requests++;
    if (a.method === 'tools/call') c.toolCalls++;
    else if (isFailure(a.outcome) && c.failed.length < 4 && !resend) c.failed.push(a);
    if (!isFailure(a.outcome) && a.startTs !== undefined && (c.lastOk === undefined || a.startTs > c.lastOk)) c.lastOk = a.startTs;
    if (!isFailure(a.outcome) && a.endTs !== undefined && (c.lastOkEnd === undefined || a.endTs > c.lastOkEnd)) c.lastOkEnd = a.endTs;
    if (!isFailure(a.outcome) && !OPENS.has(a.method) && a.startTs !== undefined && (c.lastUse === undefined || a.startTs > c.lastUse)) c.lastUse = a.startTs;
    if (a.method === 'initialize' && a.server && c.serverInit === undefined) c.serverInit = { input: a.server.input, src: a.server.sources[0]! };
    if (a.method === 'initialize' && c.init === undefined) c.init = a;
    if (inExpiredSession(a)) c.expired.push(a);
    // -32601 to a request of a feature the session's initialize did not announce (the Python MCPServer's resources/subscribe
    // and logging/setLevel): the server offers no such method, and the client asked all the same; no fault of a hop.
    const cap = CAPABILITY_OF[a.method];
    const init = c.init && (c.init.client ?? c.init.primary);
    if (cap !== undefined && a.outcome === 'JSONRPC_ERROR' && a.detail.errorCode === -32601 && init?.noCaps?.includes(cap)) {
      const said = `the server's initialize had ${cap === 'resources.subscribe' ? 'announced no resource subscriptions (no subscribe: true in its resources capability)' : `announced no ${cap} capability`}: the server does not offer ${a.method}, and the client sent it all the same`;
      a.detail.why = a.detail.why !== undefined ? `${a.detail.why}; ${said}` : said;
    }
    // A log message from a server whose initialize announced no logging (the Python MCPServer's ctx.error): marked for its why.
    if (init?.noCaps?.includes('logging')) for (const v of [a.primary, a.client, a.server]) if (v?.logs) v.logs.undeclared = true;
  }

  /**
   * A server/discover probe that failed and that its client answered by falling back to initialize: the client got what
   * it asked (the server is older), so a later probe (a new connection's) is a call of its own, not a retry of it. The
   * same for a request the server answered -32601 (method not found) when the client initialized again after it.
   */
  private fellBack(clientKey: string, prev: Attempt): boolean {
    if (prev.startTs === undefined) return false;
    if (prev.method === 'server/discover') return (this.lastInitialize.get(clientKey) ?? -Infinity) > prev.startTs;
    // -32601: the server said it has no such method, a whole answer. A client that initialized anew after it (Qwen Code
    // reconnecting after a failed tools/call) asks again as its new connection's discovery (prompts/list,
    // resources/list), a call of its own, not a retry of that answer.
    if (prev.outcome === 'JSONRPC_ERROR' && prev.detail.errorCode === -32601) return (this.lastInitialize.get(clientKey) ?? -Infinity) > (prev.endTs ?? prev.startTs);
    return false;
  }

  /**
   * A one-shot command-line client (oneShotCli) re-sends nothing itself: a like request of its same run (its session, or
   * without sessions no new initialize or server/discover since the failure) is another call of that run (the MCP
   * Inspector's `--load` calls one tool again and again, concurrently, and goes on after an error), not a retry.
   */
  private sameOneShotRun(a: Attempt, prev: Attempt, who: string | undefined, scopeKey: string): boolean {
    if (oneShotCli(who, a) === undefined) return false;
    if (a.session !== null || prev.session !== null) return a.session === prev.session;
    if (prev.primary.scopeKey !== scopeKey) return false;
    const begun = this.begins.get(scopeKey);
    return begun === undefined || prev.startTs === undefined || begun.ts <= prev.startTs;
  }

  /**
   * In a scope without sessions that several clients share (mixedScopes: apps behind one recording proxy, each counting
   * its ids from 0), a request with the numeric id of the failed one it repeats, after an HTTP answer other than 401
   * or 421 (after which an SDK re-sends its request as it was), with no initialize or server/discover in the scope since
   * that one began (an app that retries with a new Client counts from 0 again), is another client's own request: an
   * app's retry gets a new id from its client's counter.
   */
  private otherClientsId(a: Attempt, prev: Attempt, scopeKey: string): boolean {
    if (a.session !== null || typeof a.id !== 'number' || a.primary.idKey !== prev.primary.idKey || prev.primary.scopeKey !== scopeKey) return false;
    if (typeof prev.status !== 'number' || prev.status === 401 || prev.status === 421 || !this.mixedScopes.has(scopeKey)) return false;
    const begun = this.begins.get(scopeKey)?.ts;
    return prev.startTs !== undefined && (begun === undefined || begun < prev.startTs);
  }

  /** Keep how the attempt's session began; a request the client library re-sent from an old session does not count. */
  private noteOpening(a: Attempt, key: string): void {
    const o = this.openings.get(key);
    if (a.method === 'initialize') {
      if (!o) this.openings.set(key, { init: a.primary.idKey, lowest: Infinity });
    } else if (o && typeof a.id === 'number' && a.id < o.lowest && a.retryOrigin?.origin !== 'sdk') o.lowest = a.id;
  }

  private extend(tail: CallTail, a: Attempt, key: string, unnamed: string, who: string | undefined, continuation: boolean, plain?: (string | undefined)[]): void {
    tail.who ??= who;
    addToChain(tail.chain, a);
    if (inExpiredSession(a)) {
      const same = tail.unmarked.get(a.session);
      if (same) same.push(a);
      else tail.unmarked.set(a.session, [a]);
    }
    tail.last = a;
    tail.expires = this.retryableUntil(a, a.startTs ?? 0, tail.who);
    a.call = tail.call;
    a.attempt = tail.chain.count;
    if (continuation) {
      // The round is answered: its entries go (another chain of the same tool and arguments may hold the key now).
      const echoed = stateOf(a, 'echoedState');
      if (echoed !== undefined && this.continuations.get(`${key}|state:${echoed}`) === tail) this.continuations.delete(`${key}|state:${echoed}`);
      if (this.continuations.get(key) === tail) this.continuations.delete(key);
    }
    if (awaitsInput(a)) this.awaitContinuation(tail, a, key);
    this.tails.set(key, tail);
    if (unnamed !== key) this.tails.set(unnamed, tail);
    if (plain) for (const k of plain) if (k !== undefined) this.tails.set(k, tail);
    if (a.others.length > 0 && a.session === null) for (const k of this.twinKeys(a, who, a.primary.fingerprint)) this.tails.set(k, tail);
  }

  /**
   * The call kept under `key`; for a request with an endpoint (`key` names it), else the one kept under `plain` (the
   * key without it) if that call's latest request went in a session, or was redirected and `a` is its HTTP client's
   * request to the Location (redirectFollowUp: the same log, at once): never another endpoint's otherwise.
   */
  private tailOf(a: Attempt, key: string, plain: string | undefined, m = this.tails): CallTail | undefined {
    const t = m.get(key);
    if (t || plain === undefined) return t;
    const p = m.get(plain);
    return p && (linkEndpoint(p.last) === undefined || redirectFollowUp(a, p.last)) ? p : undefined;
  }

  /**
   * The call an MRTR follow-up continues: the one whose input_required result minted the requestState it echoes,
   * else the latest call of the same client, tool and arguments still waiting for input (a result with only
   * inputRequests, or a log without the result's body).
   */
  private continuationOf(a: Attempt, key: string): CallTail | undefined {
    const echoed = stateOf(a, 'echoedState');
    return (echoed !== undefined ? this.continuations.get(`${key}|state:${echoed}`) : undefined) ?? this.continuations.get(key);
  }

  /** An input_required result: the call waits for its follow-up, found by the requestState it minted if any. */
  private awaitContinuation(tail: CallTail, a: Attempt, key: string): void {
    this.continuations.set(key, tail);
    const minted = stateOf(a, 'mintedState');
    if (minted !== undefined) this.continuations.set(`${key}|state:${minted}`, tail);
  }

  /** A tools/list result: a first page replaces what the client knew, a later page (asked with a cursor) adds to it. */
  private learnTools(clientKey: string, a: Attempt, linkScope: string, who: string | undefined): void {
    // The client's view first; a view that holds no answer (the Python SDK's DEBUG log leaves JSON answers out) gives way
    // to one that does.
    const v = [a.client, a.server, a.primary].find((x) => x?.toolList !== undefined) ?? a.client ?? a.server ?? a.primary;
    const list = v.toolList;
    if (!list) {
      // Asked, and its answer is not in this log, which leaves some answers out: not a log without any tools/list.
      const unlogged = [a.client, a.server, a.primary].find((x) => x?.answersUnlogged === true);
      if (unlogged && a.outcome === 'UNANSWERED') this.toolsListUnlogged ??= unlogged.sources[0];
      return;
    }
    learnToolList(this.tools, clientKey, list, v.nextPage === true);
    // Its session's own list too: one client may talk to two servers whose tools share names.
    // (Without a session, the list of the endpoint it was asked at: one client of two stateless servers.)
    if (a.session !== null || linkScope !== a.primary.scopeKey) learnToolList(this.scopeTools, linkScope, list, v.nextPage === true);
    // (Two logs of one side without a session: a later call may stand on the other log's view, its caller and URL.)
    if (a.session === null && a.others.length > 0) {
      for (const o of a.others) {
        if (o.side !== v.side) continue;
        learnToolList(this.tools, this.callerOfView(o, who), list, v.nextPage === true);
        const ep = o.addressed ?? o.endpoint;
        if (ep !== undefined) learnToolList(this.scopeTools, `${o.scopeKey} ${ep}`, list, v.nextPage === true);
      }
    }
    this.anyToolsList = true;
  }

  /**
   * Who makes the call, for linking its attempts: the client identity the log gives, else the name the client gave
   * itself (per input), else the connection or the input. A connection alone does not split an app that reconnects
   * with a new Client and retries (the recorders advise one `conn` per Client instance).
   */
  private callerOf(a: Attempt, who: string | undefined): string {
    return this.callerOfView(a.client ?? a.primary, who);
  }

  /**
   * The keys a sessionless attempt's call is also kept under for its other views (two logs of one side: see the
   * matcher's twinOf): each such view's caller and URL, as the key of an attempt standing on that view would be.
   */
  private twinKeys(a: Attempt, who: string | undefined, fingerprint: number): string[] {
    const side = (a.client ?? a.primary).side;
    const keys: string[] = [];
    for (const o of a.others) {
      if (o.side !== side) continue;
      const k = this.callerOfView(o, who);
      const ep = o.addressed ?? o.endpoint;
      const at = ep === undefined ? '' : ` ${ep}`;
      keys.push(who === undefined ? `${k}||${fingerprint}${at}` : `${k}|${who}|${fingerprint}${at}`);
    }
    return keys;
  }

  /** callerOf for one view of the attempt. */
  private callerOfView(v: AttemptView, who: string | undefined): string {
    if (v.client) return `client:${v.client}`;
    return who !== undefined ? `input#${v.input}|named` : v.caller;
  }

  /** The name the attempt's client gave itself: on the request (2026-07-28 _meta), else in its session's initialize. */
  private identity(a: Attempt, key: string): string | undefined {
    const v = a.client ?? a.primary;
    const conn = v.caller.startsWith('input#') ? undefined : scopeKeyOf(a.primary.side, a.primary.input, v.caller);
    if (a.method === 'initialize' && v.clientName !== undefined) {
      const before = this.sessionClients.get(key);
      if (a.session === null && conn === undefined && before !== undefined && before !== v.clientName) this.mixedScopes.add(key);
      this.sessionClients.set(key, v.clientName);
      if (conn !== undefined) {
        this.connClients.delete(conn);
        this.connClients.set(conn, v.clientName);
        trimOldest(this.connClients, 4096);
      }
    }
    if (a.session === null && conn === undefined && this.mixedScopes.has(key)) return v.clientName;
    return v.clientName ?? this.droppedSessionName(a) ?? this.sessionClients.get(key) ?? (a.session === null ? (conn !== undefined ? this.connClients.get(conn) : undefined) : this.otherSideName(key, a.session));
  }

  /**
   * A request sent without a session id soon after its caller's DELETE of a session (the SDK client posts on without
   * one): its client is that session's, whose name the session's initialize gave.
   */
  private droppedSessionName(a: Attempt): string | undefined {
    const dropped = a.session === null ? (a.client ?? a.primary).afterDelete : undefined;
    if (dropped === undefined) return undefined;
    const key = scopeKeyOf(a.primary.side, a.primary.input, dropped.session);
    return this.sessionClients.get(key) ?? this.deletedNames.get(key);
  }

  /**
   * The name the other side's view of the session holds: a client's log without the session's initialize (a broken
   * line, a log that starts mid-session) beside a server's log that has it, or the other way round.
   */
  private otherSideName(key: string, session: string): string | undefined {
    const other = key.startsWith('client|') ? `server|${session}` : key.startsWith('server|') ? `client|${session}` : undefined;
    return other !== undefined ? this.sessionClients.get(other) : undefined;
  }

  /** A session closed while idle is in use again: what was known of it (its client's name, when it began) comes back. */
  private reopen(a: Attempt, key: string): void {
    const closed = a.session !== null ? this.closedScopes.get(key) : undefined;
    if (closed === undefined) return;
    this.closedScopes.delete(key);
    if (closed.name !== undefined && !this.sessionClients.has(key)) this.sessionClients.set(key, closed.name);
    if (closed.first !== undefined && !this.scopeCalls.has(key)) this.scopeCalls.set(key, { first: closed.first, byCall: new Map() });
  }

  private safety(clientKey: string, tool: string | null, scopeKey?: string): ToolSafety | 'unknown' {
    if (tool === null) return 'unknown';
    if (this.opts.idempotent.has(tool)) return { readOnly: false, idempotent: true, annotated: true, override: true };
    const list = (scopeKey !== undefined ? this.scopeTools.get(scopeKey) : undefined) ?? this.tools.get(clientKey);
    if (!list) {
      for (const m of this.tools.values()) if (m.has(tool)) return m.get(tool)!;
      return 'unknown';
    }
    return list.get(tool) ?? 'unknown'; // not in the list the client has: what it declares is not known
  }

  /**
   * Until when a repeat of this attempt is its retry: --retry-window after its end, plus the wait its response asked
   * for (Retry-After, up to MAX_RETRY_AFTER_MS): a client that waits out a 429's two minutes still retries it.
   */
  private retryableUntil(a: Attempt, now: number, who: string | undefined): number {
    const asked = (a.client ?? a.primary).retryAfterMs;
    return (waitedOut(a, who)?.at ?? a.endTs ?? now) + this.opts.retryWindowMs + (asked !== undefined && asked > 0 ? Math.min(asked, MAX_RETRY_AFTER_MS) : 0);
  }

  private lastExpire = -Infinity;

  /**
   * Drop calls no retry can join any more, at most once every 10 s of log time (a lookup checks expiry itself, so
   * this only bounds memory; sweeping every second cost more than the lookups).
   */
  /**
   * A tools/call result identical to the one a request with the same id in another session got at nearly the same
   * moment (CROSSED_WITHIN_MS), for another tool or other arguments, while both were open, and whose text names an
   * argument value only one of the two requests carried: the other took its answer. A server that keeps one JSON-RPC
   * id space for all its sessions (mcp-framework's HTTP transport writes each response to every session's stream with
   * that id) answers both with whichever finished first. Identical requests may have identical results, and so may
   * different ones whose result names neither ("ok", an empty result, a text naming what both asked for): concurrent
   * healthy clients that number their ids alike get such results all the time, so those are not compared.
   */
  private crossedResult(a: Attempt): void {
    const v = a.primary;
    if (a.method !== 'tools/call' || v.resultSig === undefined || a.session === null || v.endTs === undefined) return;
    // An unsided input's results are compared with its own only (see scopeKeyOf).
    const key = v.side === 'unknown' ? `unknown#${v.input}|${v.idKey}|${v.resultSig}` : `${v.side}|${v.idKey}|${v.resultSig}`;
    const other = this.recentResults.get(key);
    const o = other?.primary;
    // Both open at once (each sent before the other's answer ended): only then can one answer have been taken for both.
    const overlapped = o !== undefined && o.startTs !== undefined && o.endTs !== undefined && v.startTs !== undefined && o.startTs <= v.endTs && v.startTs <= o.endTs;
    if (other && o && overlapped && other.session !== null && other.session !== a.session && o.fingerprint !== v.fingerprint && Math.abs(o.endTs! - v.endTs) <= CROSSED_WITHIN_MS) {
      // The two results are identical: what each request found named in its copy tells whose answer it was.
      const named = whoseAnswer(v.namedArgs, o.namedArgs);
      if (named !== undefined) a.findings.push(crossedResultFinding(a, other, named.whose === 'a' ? 'other' : 'this', named.value));
    }
    this.recentResults.delete(key);
    this.recentResults.set(key, a);
    trimOldest(this.recentResults, 4096);
  }

  private expire(now: number): void {
    if (now < this.lastExpire + 10_000) return;
    this.lastExpire = now;
    // forEach: no entry array per key (these maps hold every call of the last retry window).
    this.recentResults.forEach((o, k, m) => {
      if ((o.primary.endTs ?? -Infinity) + CROSSED_WITHIN_MS < now) m.delete(k);
    });
    // A call whose last attempt failed waits for a retry until no attempt still on its way could be one; one that
    // succeeded is kept only to its window (a repeat of it is a call of its own anyway), which keeps memory down.
    const before = Math.min(now, this.opts.pendingFrom?.() ?? now);
    const stale = (t: CallTail, k: string, m: Map<string, CallTail>) => {
      if (t.expires < before) m.delete(k);
    };
    this.tails.forEach((t, k, m) => {
      if (t.expires < (failedForCaller(t.last) ? before : now)) m.delete(k);
    });
    // The same for the tails a scope's calls and a name's failed calls point to (the scope's start stays, for the guard).
    this.failedTails.forEach((t, k, m) => {
      if (t.expires < before || !failedForCaller(t.last)) m.delete(k);
    });
    this.scopeCalls.forEach((sc) => sc.byCall.forEach((list, k, m) => {
      const kept = list.filter((e) => e.tail.expires >= (failedForCaller(e.tail.last) ? before : now));
      if (kept.length === 0) m.delete(k);
      else if (kept.length < list.length) m.set(k, kept);
    }));
    this.continuations.forEach(stale);
    this.tasks.forEach(stale);
    // A call the application named may be retried after any outcome: kept, as a failed one is, until no retry can come.
    this.noted.forEach(stale);
  }
}

/** The longest Retry-After that widens the retry window (longer waits are read as this long). */
export const MAX_RETRY_AFTER_MS = 300_000;

/**
 * Keys (callers, with or without the name their client gave itself) whose latest time is kept: a recording proxy's log
 * of a stateless server names a caller per connection, and a fleet's log a client per process, so a log of many of
 * them keeps no entry per each to its end. A key that has not come back among the latest this many is let go.
 */
const CALLER_TIMES_KEPT = 8192;

/** Keep the latest time per key; the key moves to the newest place, so that the least recently seen go first. */
function latest(m: Map<string, number>, key: string, ts: number): void {
  const known = m.get(key);
  if (known !== undefined && ts <= known) return;
  if (known !== undefined) m.delete(key);
  m.set(key, ts);
  trimOldest(m, CALLER_TIMES_KEPT);
}

/** The capability a server announces in its initialize result for the requests of each other feature. */
const CAPABILITY_OF: Record<string, string | undefined> = {
  'logging/setLevel': 'logging', 'prompts/list': 'prompts', 'prompts/get': 'prompts', 'completion/complete': 'completions',
  'resources/list': 'resources', 'resources/templates/list': 'resources', 'resources/read': 'resources',
  'resources/subscribe': 'resources.subscribe', 'resources/unsubscribe': 'resources.subscribe',
};

/**
 * The caller got no usable answer from the attempt: it failed, or it succeeded only after the client had cancelled it
 * (the TypeScript SDK drops a response to a request it timed out: "unknown message ID").
 */
/** ` endpoint` of a request sent without a session id whose log recorded its URL (see AttemptView.endpoint), else undefined. */
function linkEndpoint(a: Attempt): string | undefined {
  // (As the client addressed it where a recording proxy's record names its target: the client's own log names that.)
  const v = a.client ?? a.primary;
  const ep = a.session === null ? v.addressed ?? v.endpoint : undefined;
  return ep === undefined ? undefined : ` ${ep}`;
}

/** The attempt's scope is a client's own (a session id, or a conn), not the whole input's. */
function ownScope(a: Attempt): boolean {
  return a.session !== null || !(a.client ?? a.primary).caller.startsWith('input#');
}

/**
 * The attempt may be followed by an MRTR follow-up: its result was input_required, or it is a tools/call whose answer
 * the log does not show (a Python DEBUG log leaves out the server's application/json answers), which a follow-up that
 * carries inputResponses/requestState shows was input_required.
 */
function awaitsInput(a: Attempt): boolean {
  return a.outcome === 'INPUT_REQUIRED' || (a.outcome === 'UNANSWERED' && a.method === 'tools/call');
}

/** Sessions closed while idle remembered (see CallLinker.closedScopes): more than the sessions a busy log keeps open at once. */
const CLOSED_KEPT = 8192;
/** Calls remembered per scope (the latest ones). */
const SCOPE_CALLS_KEPT = 256;
/** Failed tails of one call remembered per scope (the latest ones): calls alike in flight at once. */
const SCOPE_FAILURES_KEPT = 64;
/** Failed tails remembered (the latest ones). */
const FAILED_TAILS_KEPT = 4096;

/**
 * Calls that went well kept for a re-send of their request under its own id: HTTP clients' and hops' retries come
 * within seconds (each holds its attempts: 10 MB of peak RSS on the benchmark's 100 MB pair with 1,024 kept for good).
 */
const RESENDABLE_KEPT = 256;
/** Server-side tries a gateway's re-send may follow, kept at most (the last ones). */
const GATEWAY_TRIES_KEPT = 256;
const RESEND_WITHIN_MS = 10_000;
/** OAuth metadata requests kept per log (CallLinker.noteOAuth): an auth flow asks a handful. */
const OAUTH_KEPT = 32;

function failedForCaller(a: Attempt): boolean {
  const cancelled = (a.client ?? a.primary).cancelledAt;
  // Its answer came, but its client's own timeout had run out first: the caller got the timeout error.
  if ((a.client ?? a.primary).crossedTimeout !== undefined) return true;
  if (isFailure(a.outcome)) {
    // No answer in a log that leaves answers out is no failure (a like request after it is another call), unless the
    // client gave up on it (its notifications/cancelled), or the log read its SSE stream (its progress came on it: that
    // log shows such a stream's answer, and none came). So too a 2xx whose body the capture did not keep (an access
    // log, nginx's: test/fixtures/real-audit48).
    const v = a.client ?? a.primary;
    // A tools/call the log shows answered in a body it does not hold (the Python SDK client's DEBUG log: application/json
    // read to its end) where its server answered the transport's other requests on SSE streams: a layer in front of the
    // handler likely answered it (the MCP test kitchen's injected JSON-RPC error), and the same call after it is linked
    // as its retry. Where every answer is JSON (a JSON-mode server, 2026-07-28) nothing tells an error from a result.
    // (A log without times has the cancellation with no time: its line is kept, cancelSrc.)
    // So too an answer a line proves sent with a 2xx status but does not hold (a route handler's line with the request
    // and res.statusCode: test/fixtures/real-audit68, server-handled): a like request after it is another call.
    if (a.outcome === 'UNANSWERED' && (v.answersUnlogged === true || v.bodyNotCaptured === true || v.unloggedAnswer !== undefined)) return cancelled !== undefined || v.cancelSrc !== undefined || v.progress > 0 || (v.unloggedUnlike === true && a.method === 'tools/call');
    return true;
  }
  return cancelled !== undefined && (a.endTs === undefined || cancelled < a.endTs);
}

/**
 * The application says the two are not one call: it named them differently (note.call), or it numbered this one its
 * call's first attempt (note.attempt 1). A note never joins two calls by the heuristics then.
 */
function notesPart(a: Attempt, prev: Attempt): boolean {
  const mine = noteOf(a);
  if (mine?.attempt === 1) return true;
  const theirs = noteOf(prev)?.call;
  return mine?.call !== undefined && theirs !== undefined && mine.call !== theirs;
}

/** A scope's failed tail of a call: `seq` its failed attempt's; `clearedAt` when a like call begun after it ended well. */
interface ScopeFailure {
  tail: CallTail;
  seq: number;
  clearedAt?: number;
}

/**
 * The scope's failed call that `a` follows: the latest that had ended when `a` began and that no like call, begun after
 * it, had ended well before `a` began; else the latest still open or unanswered when `a` began (no retry of it: a call
 * of its own, as before). A failure that a like call ended well after is none, and so is one that `after` says `a`
 * was made before (its session's ids).
 */
/** The call's latest attempt is the server's view alone of its HTTP client's re-send after a 421 (misdirectedTry). */
function misdirectedLast(tail: CallTail): boolean {
  const l = tail.last;
  return l.client === undefined && l.retryOrigin?.origin === 'sdk' && l.retryOrigin.how.startsWith(MISDIRECTED_RESEND) && tail.chain.previous !== undefined;
}

function ownFailure(list: ScopeFailure[] | undefined, a: Attempt, after: (prev: Attempt) => boolean): ScopeFailure | undefined {
  let open: ScopeFailure | undefined;
  for (let i = (list?.length ?? 0) - 1; i >= 0; i--) {
    const e = list![i]!;
    if (e.tail.last.primary.seq !== e.seq || !after(e.tail.last)) continue;
    if (e.clearedAt !== undefined && (a.startTs === undefined || a.startTs >= e.clearedAt)) continue;
    if (startedAfter(a, e.tail.last)) return e;
    open ??= e;
  }
  return open;
}

/**
 * A retry starts once the caller was done with the attempt it repeats; one sent while that attempt ran is a call of its
 * own. Within a millisecond counts as after: a logger that writes `ts` as whole milliseconds (Date.now()) and durationMs
 * as a float (performance.now()) puts a failed exchange's end up to 1 ms past the retry it sent at once.
 */
function startedAfter(a: Attempt, prev: Attempt): boolean {
  const done = doneAt(prev);
  return a.startTs === undefined || done === undefined || a.startTs > done - 1 || gaveUpAtProgress(prev, a) !== undefined;
}

/**
 * Both requests came from the same web origin, or one of them names none. A browser sends `Origin` and a page cannot
 * change it: a request from another origin is another client (the conformance suite's DNS-rebinding probe, refused
 * with 403, and its localhost request after it), not a retry of the one before.
 */
function sameWebOrigin(a: Attempt, prev: Attempt): boolean {
  const mine = webOriginOf(a);
  const theirs = webOriginOf(prev);
  return mine === undefined || theirs === undefined || mine === theirs;
}

function webOriginOf(a: Attempt): string | undefined {
  return (a.client ?? a.primary).requestHeaders?.get('origin') ?? a.server?.requestHeaders?.get('origin');
}

/**
 * The server's views of the two are of other calls (other arguments) where the client's views cannot tell them apart:
 * a Python client's OTLP span records a tool's name, not its arguments; the server's log has them. Two such attempts
 * are two calls, not a call and its retry.
 */
function serverSawOtherCall(a: Attempt, prev: Attempt): boolean {
  const s = a.server;
  const p = prev.server;
  return s !== undefined && p !== undefined && a.primary !== s && prev.primary !== p && s.fingerprint !== p.fingerprint;
}

/** A taskId an attempt names (tasks/*) or was given (a CreateTaskResult), from the client's view first. */
function taskIdOf(a: Attempt, which: 'taskId' | 'mintedTaskId'): string | undefined {
  return a.client?.[which] ?? a.server?.[which] ?? a.primary[which];
}

/** A requestState hash of an attempt, from the client's view first (it is what the client sent or received). */
function stateOf(a: Attempt, which: 'echoedState' | 'mintedState'): number | undefined {
  return a.client?.[which] ?? a.server?.[which] ?? a.primary[which];
}

/**
 * Clients that run one command per process and re-send no request themselves, by the name their initialize gives
 * (clientInfo.name): the MCP Inspector's CLI (`npx @modelcontextprotocol/inspector --cli`, 2.12.0 measured:
 * test/fixtures/real-audit64) exits after an HTTP error, a lost connection or a timeout, and its `--load` mode counts an
 * error and starts the next call. Not for initialize or server/discover: after a 401 its SDK's OAuth flow re-sends
 * those in the same process, which the wire does not tell from a new run.
 */
const ONE_SHOT_CLIS: Record<string, string> = { 'inspector-cli': "the MCP Inspector's CLI" };

/** What the attempt's client is, when it is such a one-shot CLI (`who` is `name/version`). */
function oneShotCli(who: string | undefined, a: Attempt): string | undefined {
  if (who === undefined || a.method === 'initialize' || a.method === 'server/discover') return undefined;
  const slash = who.lastIndexOf('/');
  return Object.hasOwn(ONE_SHOT_CLIS, slash > 0 ? who.slice(0, slash) : who) ? ONE_SHOT_CLIS[slash > 0 ? who.slice(0, slash) : who] : undefined;
}

/**
 * The TypeScript SDK's default request timeout (DEFAULT_REQUEST_TIMEOUT_MSEC, 60 s in 1.32.2 and in the v2 client 2.x):
 * a call whose SSE stream ended without its answer stays pending until then (measured: test/fixtures/real-audit67).
 */
const TS_SDK_TIMEOUT_MS = 60_000;

/**
 * When the caller stopped waiting for an attempt whose stream ended without its answer (a cut or silent stream), where
 * that is after the end the log shows: the client's own notifications/cancelled (the TypeScript SDK's timeout sends it,
 * as the Python SDK's read timeout does), else, for a client known to run on the TypeScript SDK (its request's
 * User-Agent is Node's fetch, `node`, or it is a one-shot CLI built on it) that sent no cancellation (the MCP
 * Inspector's CLI exits first), the SDK's default timeout after the request. A retry's window runs from then: an app
 * that catches McpError RequestTimeout and calls again, or a person re-running the command, does so after it.
 * Undefined when the log's end is when the caller was done (an answer, an error head, a connection that failed: the
 * SDK rejects at once; the Python SDK also rejects at once on a stream that ends without the answer).
 */
function waitedOut(a: Attempt, who: string | undefined): { at: number; how: string } | undefined {
  if (a.endTs === undefined || a.startTs === undefined || (a.outcome !== 'STREAM_INCOMPLETE' && a.outcome !== 'NO_RESPONSE')) return undefined;
  const v = a.client ?? a.primary;
  const cancelled = v.cancelledAt;
  if (cancelled !== undefined) {
    return cancelled > a.endTs ? { at: cancelled, how: `the client's notifications/cancelled for it (${((cancelled - a.startTs) / 1000).toFixed(2)} s after the request: the client waited for the answer until its own timeout)` } : undefined;
  }
  // No head of a response (the connection failed): the SDK's fetch threw at once.
  if (a.outcome !== 'STREAM_INCOMPLETE' || a.startTs + TS_SDK_TIMEOUT_MS <= a.endTs) return undefined;
  const cli = oneShotCli(who, a);
  const node = [a.client, a.primary, a.server].some((x) => x?.requestHeaders?.get('user-agent') === 'node');
  if (cli === undefined && !node) return undefined;
  return { at: a.startTs + TS_SDK_TIMEOUT_MS, how: `the TypeScript SDK's default 60 s request timeout ran out for it (${cli !== undefined ? `${cli} runs on it` : 'the request\'s User-Agent "node" is Node\'s fetch, as the SDK\'s'}; no notifications/cancelled in the log): the SDK keeps a call whose stream ended without its answer pending until then` };
}

/**
 * An initialize that failed, as far as the log shows: a 2xx answer whose body the log did not keep (a server's
 * middleware that logs the request and the status) but that gave the client a session id, or whose log kept no
 * response headers to tell, did not (the server's transport opens a session for an initialize it takes).
 */
function initializeFailed(a: Attempt): boolean {
  if (!isFailure(a.outcome)) return false;
  // express-winston's and Fastify's lines keep the status alone: no headers to tell; headers kept without a session id do tell.
  const session = a.session !== null || a.primary.noSessionHeader !== true;
  return !(a.outcome === 'UNANSWERED' && session && typeof a.status === 'number' && a.status >= 200 && a.status <= 299 && a.primary.bodyNotCaptured === true);
}

/** An attempt refused because its session was gone (HTTP 404, or a refusal that says the session is unknown). */
function inExpiredSession(a: Attempt): boolean {
  return a.primary.sentSession === true && ((a.status === 404 && !saysProtocolVersionRefused(a.detail.errorMessage)) || unknownSessionRefusal(a) !== undefined);
}
