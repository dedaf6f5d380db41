// Joining the client view and the server view of the same attempt, attaching client claims, and holding attempts until final.
import { classify, pythonTookStray, requestGuard } from '../classify.js';
import type { ClaimIn } from '../normalize.js';
import { OUTCOME_INFO, isOutcome, type Layer, type Outcome } from '../outcomes.js';
import type { Finding } from '../findings/types.js';
import { MinHeap } from './heap.js';
import { jsonDigest, resultDigest, signatureOf } from './fingerprint.js';
import { namedArguments } from '../findings/crossed.js';
import { readToolAnnotations, type ToolSafety } from '../findings/annotations.js';
import { REFUSABLE_HEADERS, type UnreadAnswer } from './engine.js';
import { SessionPairs, answersAgree, initializeFit, quoteId } from './gateway.js';
import { GatewayLines, type GatewayLine } from './gateway-lines.js';
import { kitchenAnsweredBeforeTool } from '../formats/kitchen.js';
import { idKeyOf, isJsonRpcId, newAttemptView, type AttemptView, type JsonRpcId, type OutcomeDetail, type Source, type ViewSide } from './attempt.js';
import { trimOldest } from '../bounded.js';
import { jsonText, plural } from '../report/text.js';
import { claimAdmits, claimsSeveralPosts } from './claim-posts.js';
import { headerChanged, reconcileViews } from './reconcile.js';
import { TOOL_LISTS_KEPT, learnToolList } from './tool-lists.js';
import { claimFits, claimFitsByTime, claimStart, timeGap } from './claim-fit.js';

export interface RetryOriginInfo {
  origin: 'none' | 'sdk' | 'app' | 'user' | 'gateway' | 'unknown';
  /** How it was decided: "claimed by the client", "same id re-posted after 401", ... */
  how: string;
}

/** One attempt with every view of it joined: what the report and the findings work on. */
export interface Attempt {
  seq: number;
  primary: AttemptView;
  client?: AttemptView;
  server?: AttemptView;
  /** Views that could not be paired (a gateway's, or a second unknown-side copy). */
  others: AttemptView[];
  side: ViewSide;
  session: string | null;
  id: JsonRpcId;
  idText?: string;
  method: string;
  tool: string | null;
  status: number | null | undefined;
  outcome: Outcome;
  layer: Layer;
  detail: OutcomeDetail;
  serverOutcome?: Outcome;
  /**
   * The server's session id, when it is another than the client's (`session`): a gateway between them gives the client
   * session ids of its own, paired by the sessions' initialize exchanges. Also on an attempt of such a session that
   * the server never saw.
   */
  serverSession?: string;
  /** Both sides were logged, and the server view of this attempt is missing. */
  notSeenByServer?: boolean;
  /** The server logged this POST without its body and answered it with this HTTP error: seen, though not read. */
  serverUnread?: { status: number; src: Source };
  /** A gateway's log line of this POST (HAProxy's httplog, nginx's access log) that says more than a normal end: its words and line. */
  gatewayLine?: { said: string; retries: number; src: Source; ts: number; endTs: number | undefined };
  /** nginx's error log's reason for this POST's failure: its words and line. */
  gatewayReason?: { said: string; src: Source };
  /** The MCP test kitchen's own lines of this POST (its request log's, its observation): the server's words and line. */
  serverLines?: { said: string; src: Source }[];
  /** The server's own record shows a layer in front of its MCP SDK answered this POST (the kitchen's scenario layer): no tool ran. */
  answeredBeforeTool?: { said: string; src: Source };
  claim?: ClaimIn;
  /** The claim is this attempt's only view: no call on the wire took it (see Matcher.claimOnly). */
  claimOnly?: boolean;
  /** A claim about the same call (same client, tool and arguments) attached to a later attempt still held. */
  callClaim?: ClaimIn;
  call?: string;
  attempt?: number;
  /** This attempt continues its call after an input_required result (an MRTR follow-up): not a retry. */
  continuation?: boolean;
  /** A follow-up continued this attempt: it was an input_required round, whether or not its log shows the answer. */
  continued?: boolean;
  retryOrigin?: RetryOriginInfo;
  /** A retry whose client began a connect (initialize, server/discover) under its name after the attempt before it ended. */
  reconnectedBefore?: boolean;
  findings: Finding[];
  startTs: number | undefined;
  endTs: number | undefined;
}

/** Views kept per candidate session for pairing across rewritten ids (a session that sends more waits on its own key). */
const CANDIDATE_VIEWS_KEPT = 4096;
/** Initialize exchanges of the other side compared with an ambiguous one at most. */
const CANDIDATES_COMPARED = 32;

/** One side's view of a held attempt (it has it). */
const viewOf = (h: Held, side: 'client' | 'server'): AttemptView => (side === 'client' ? h.attempt.client! : h.attempt.server!);

/** Two sessions' requests (id to fingerprint) agree: one id at least in both with the same call, none with another. */
function sessionsAgree(a: Map<string, number>, b: Map<string, number>): boolean {
  let same = 0;
  for (const [id, fp] of a) {
    const other = b.get(id);
    if (other === undefined) continue;
    if (other !== fp) return false;
    same++;
  }
  return same > 0;
}

interface Held {
  attempt: Attempt;
  deadline: number;
  emitted: boolean;
  /** The request's fingerprint (method, tool, arguments) when it was held: attempts of one call share it. */
  fp: number;
  /** An initialize with one side's view and a session id: its key in Matcher.rewriteInits (see pairRewritten). */
  initKey?: string;
  /** Such an initialize that fitted more than one of the other side's (or one that did): never paired across session ids. */
  apart?: boolean;
  /** Its looseKey, while it waits in Matcher.looseClients or looseServers. */
  loose?: string;
  /** A client's entry there: the server entry that fits it best so far, and how well (see looseFit; the start gap). */
  looseBest?: { h: Held; rank: number; gap: number };
  /** An earlier attempt of a call whose claim moved on to a later attempt (followCall): no other claim takes it. */
  covered?: boolean;
  /** The gateway's lines were looked at for it (takeGatewayLine). */
  gatewayTaken?: boolean;
  /** The inputs whose view of this request on the same side was taken as a second view of it (see twinOf). */
  twins?: number[];
}

/** A place in the release queue; stale when the entry's deadline moved on (it was re-queued). */
interface Slot {
  h: Held;
  deadline: number;
  start: number;
  seq: number;
}

interface MatcherOptions {
  windowMs: number;
  /** Extra wait for the other side's view, for clocks that disagree. */
  skewMs: number;
  /** The inputs were given as client and server logs (--client and --server). */
  bothSides: boolean;
  onAttempt: (a: Attempt) => void;
  /**
   * Whether the join still holds an open view of this request from the other side (same session and id): one whose
   * exchange goes on (a tool the server works on for minutes after the client gave up). Its attempt waits for it.
   */
  otherSideOpen?: (view: AttemptView, session: string | null, nearMs: number) => boolean;
  /** Whether the join still holds open a client's cancelled request of this call that started before `start`. */
  cancelledOpenBefore?: (fingerprint: number, start: number) => boolean;
  /**
   * Client and server session ids paired by their initialize exchanges (a gateway that rewrites Mcp-Session-Id), shared
   * with the rest of the run; the matcher makes the pairs.
   */
  pairs?: SessionPairs;
  /** Whether the log of that side has (still) a session with this id: such a session joins by its own id. */
  seenOn?: (side: ViewSide, session: string) => boolean;
  /**
   * Two inputs or more were given the same side (`--client a --client b`): a view may be another input's view of a
   * request one of them already shows (see twinOf). False leaves that look out (one log per side: the usual run).
   */
  sameSideInputs?: boolean;
}

const isServerish = (s: ViewSide) => s === 'server' || s === 'gateway';

/** How far apart (ms) a client's request and the server's record of it may start for a bodyless answer to match. */
const UNREAD_SLACK_MS = 1000;
/**
 * Whether `o` is a server's view alone of an earlier try of the request `h` is, which the gateway re-sent (its line of
 * h's POST counts retries): the same JSON-RPC id and call, started while the gateway had the request.
 */
function isEarlierTry(h: Held, o: Held): boolean {
  const g = h.attempt.gatewayLine;
  if (!g || g.retries <= 0 || o === h || o.fp !== h.fp || o.attempt.client || !o.attempt.server) return false;
  const start = o.attempt.startTs;
  return o.attempt.id === h.attempt.id && start !== undefined && start >= g.ts - 1000 && start <= (g.endTs ?? g.ts) + 1000;
}

/** Outcomes of an attempt that got its whole answer (see GatewayLines.take). */
const ANSWERED = new Set<Outcome>(['SUCCESS', 'TOOL_SUCCESS', 'TOOL_ERROR', 'JSONRPC_ERROR', 'TASK_CREATED', 'INPUT_REQUIRED']);

export class Matcher {
  /** Held attempts, released by deadline, then start time: a retry never overtakes the attempt it repeats. */
  private queue = new MinHeap<Slot>((a, b) => a.deadline < b.deadline || (a.deadline === b.deadline && (a.start < b.start || (a.start === b.start && a.seq < b.seq))));
  private slotSeq = 0;
  /** The latest tools/list of each client (the last TOOL_LISTS_KEPT), to check results against declared output schemas. */
  private tools = new Map<string, Map<string, ToolSafety>>();
  /**
   * The latest tools/list of each session (scope), the last TOOL_LISTS_KEPT of them: a call is checked against its own
   * session's list first, as one client may talk to two servers whose tools share names.
   */
  private scopeTools = new Map<string, Map<string, ToolSafety>>();
  /** The last page of each paginated list by scope and method (the last TOOL_LISTS_KEPT): a page that repeats the page before it shows. */
  private lastPages = new Map<string, ListPage>();
  /** Unpaired views waiting for their other side: key -> FIFO of held entries. */
  private waiting = new Map<string, Held[]>();
  /** Held entries by id and method, for claims. */
  private byId = new Map<string, Set<Held>>();
  private pendingClaims = new Map<string, ClaimIn[]>();
  /** Held tools/call entries by tool name, for claims that carry no JSON-RPC id (Claude Code's log). */
  private byTool = new Map<string, Set<Held>>();
  /**
   * Held attempts by fingerprint, and those whose release waits for an earlier attempt with the same fingerprint: an
   * attempt is released when its deadline passes, and a deadline follows the latest end among its views, so a retry
   * could otherwise be released before the attempt it repeats (a stream the client saw cut at once while the server
   * worked on for minutes), and the call linker would take the two for two calls.
   */
  private sameCall = new Map<number, Held[]>();
  /**
   * Held attempts whose view of one side has no time (a log without times, read before the timed inputs), by side,
   * session, id and method, in log order: a timed log's view of the same request is taken as their second view
   * (untimedTwinOf). Only with two inputs or more of one side (sameSideInputs).
   */
  private untimedHeld = new Map<string, Held[]>();
  private deferred = new Set<Held>();
  /** Whether a claim came yet: byId and byTool are kept from the first one on. */
  private indexed = false;
  /** Claims without an id waiting for the attempt they describe; those that find none become claim-only attempts. */
  private idlessClaims: ClaimIn[] = [];
  /** The fingerprint of each caller's last claim-only call of a tool, for the client's own re-run of it (retryOrigin app). */
  private lastClaimCall = new Map<string, number>();
  /** How many claim-only calls each source line made so far: one OTLP logs line holds many events, each its own call. */
  private claimsOfLine = new Map<string, number>();
  /** Claims attached to held attempts, by call identity, so earlier attempts of the call can see them. */
  private callClaims = new Map<string, { claim: ClaimIn; holder: Held }>();
  /** Claims for a whole call waiting for more of its attempts (see followCall), by the attempt they sit on, and how many more. */
  private followers = new Map<Held, { claim: ClaimIn; left: number }>();
  private seq = 0;
  readonly sidesSeen = new Set<ViewSide>();
  /** Whether the server-side views seen had an HTTP layer, or none (message logs): "not seen by the server" compares like with like. */
  private serverLayers = { http: false, messages: false };
  /** A server view of a message-level log (no HTTP layer) named a session: a client view without one cannot meet it. */
  private serverMessageSessions = false;
  /** Where each claim that matched no attempt was logged. */
  unmatchedClaims: Source[] = [];
  private lastClaimSweep = -Infinity;
  /** Server-side POSTs logged without a body and answered with an error, oldest first, for the client attempts they answered. */
  private unread: UnreadAnswer[] = [];
  /**
   * Held initialize attempts with one side's view whose sessions cannot meet by key: a client's answered without a
   * session id, a server's that assigned one. A hop that drops Mcp-Session-Id from the response parts them.
   */
  private lonelyInits: Held[] = [];
  /**
   * Held initialize attempts with one side's view, a session id and a 2xx status, by side and what their initialize
   * said (see initializeFit): a gateway that rewrites Mcp-Session-Id parts the client's from the server's.
   */
  private rewriteInits = new Map<string, Set<Held>>();
  /**
   * The views held in each session whose initialize is such a candidate, while it is, by side and session
   * (`client|id`, `server|id`): a client session's are the ones to move under the server's session id if it is paired
   * (no walk over every held view); both sides' tell sessions apart whose initialize exchanges look alike (sessionsAgree).
   */
  private candidateSessions = new Map<string, Held[]>();
  /**
   * A client view and a server view joined by a session id both logs show: a gateway that rewrites session ids
   * rewrites them all, so then a session without its counterpart is one the other log does not cover (another
   * replica, a log that starts later), and no session is paired across ids.
   */
  private sharedSession = false;
  /**
   * Unpaired views that may meet across a session id one side never logged, by id, method and tool (looseKey): a
   * client log's views without session ids (a desktop client's stdio log in front of a bridge, an app's own log, an
   * HTTP log that did not record Mcp-Session-Id) and the server's views with one. Kept from the first such client view
   * on (the server views held then are added).
   */
  private looseClients = new Map<string, Set<Held>>();
  private looseServers = new Map<string, Set<Held>>();
  private looseOn = false;
  /**
   * The mirror: a server's view that names no session id (a server's own message log that leaves it out, mcpsnoop's
   * HTTP trace) may meet a client's view with one the same way. Kept from the first such server view on (the client
   * views with a session held then are added).
   */
  private mirrorOn = false;
  /** A server view without a session id came before any client view: the first client view with one turns the mirror on. */
  private mirrorSeen = false;
  /**
   * The server's session and start of each request joined so, by the server view's id and the request's fingerprint:
   * a bridge that re-initialized after a 404 re-sent it there, and the refused POST in the old session is told so.
   */
  private looseResent = new Map<string, { session: string; start: number | undefined }>();
  /** How many client views were joined so (the summary says it: the join is by id, arguments and time, not by session). */
  looseJoins = 0;
  /** How many server views that named no session id were joined so to a client's view that names one (the mirror). */
  mirrorJoins = 0;
  /**
   * Without a session: how many client views were joined to a server view by id, arguments and time alone (no tool
   * result on both sides to prove it) while another server view of the same request was as open to them (another
   * client's: every client of a stateless server numbers its requests from the same start). The summary says so.
   */
  crossableJoins = 0;
  /** The latest such joins by time alone (see crossableJoins): id, fingerprint and server log, start, and whether counted already. */
  private timeJoins: { key: string; start: number | undefined; counted: boolean }[] = [];
  readonly pairs: SessionPairs;

  constructor(private readonly opts: MatcherOptions) {
    this.pairs = opts.pairs ?? new SessionPairs();
  }

  /**
   * A list page asked with the nextCursor of the page before it whose items are that page's again (the test kitchen's
   * catalog.pagination duplicate_page): the why says so, as a client that gathers the pages lists those items twice.
   */
  private comparePage(view: AttemptView): void {
    const method = view.method!;
    const result = (view.response as { result?: Record<string, unknown> } | undefined)?.result;
    const items = typeof result === 'object' && result !== null ? result[LIST_ITEMS[method]!] : undefined;
    if (!Array.isArray(items)) return;
    const key = `${view.scopeKey}|${method}`;
    const before = this.lastPages.get(key);
    const page: ListPage = { items: items.length, digest: jsonDigest(items), next: typeof result!.nextCursor === 'string' ? result!.nextCursor : undefined };
    this.lastPages.delete(key);
    this.lastPages.set(key, page);
    trimOldest(this.lastPages, TOOL_LISTS_KEPT);
    if (before === undefined || view.listCursor === undefined || before.next !== view.listCursor || items.length === 0 || before.digest !== page.digest || before.items !== page.items) return;
    const why = `its ${plural(items.length, 'item')} are those of the page before it, whose nextCursor ${jsonText(view.listCursor.slice(0, 60))} this request sent: the server sent that page again rather than the next one, so a client that gathers the pages lists them twice${page.next === undefined ? ', and as it gives no nextCursor the list ends there: the items the page asked for never came' : ''}`;
    view.detail = { ...view.detail, why: view.detail?.why ? `${view.detail.why}; ${why}` : why };
  }

  /** The key a view waits under: a client session paired with a server session of another id takes the server's. */
  private keyOf(v: AttemptView): string {
    if (v.side === 'client' && v.session !== null && this.pairs.size > 0) {
      const s = this.pairs.serverOf(v.session);
      if (s !== undefined) return joinKey(v, s);
    }
    return joinKey(v);
  }

  /** A gateway's bodiless lines (HAProxy's httplog): each taken by the attempt of its POST, the rest summed up (see GatewayLines). */
  readonly gatewayLines = new GatewayLines();

  gatewayLine(g: GatewayLine): void {
    this.gatewayLines.add(g);
  }

  /** A server-side POST logged without its body and answered with an HTTP error (a 404 sent before the body was read). */
  unreadAnswer(u: UnreadAnswer): void {
    // An HTTP server log (a recordingHandler in front of a Host or Origin check that refused every POST before its
    // body was read: real-audit84) is one, whether or not it had a request it read.
    this.serverLayers.http = true;
    this.unread.push(u);
  }

  add(view: AttemptView): void {
    this.viewsByInput.set(view.input, (this.viewsByInput.get(view.input) ?? 0) + 1);
    const declared = view.tool !== null ? (this.scopeTools.get(view.scopeKey) ?? this.tools.get(viewClientKey(view)))?.get(view.tool) : undefined;
    const c = classify(view, { outputSchema: declared?.outputSchema === true, schema: declared?.schema, inputSchema: declared?.inputSchema });
    view.outcome = c.outcome;
    view.layer = c.layer;
    view.detail = declared !== undefined ? withVanishedTool(view.tool!, c) : c.detail;
    if (c.toolRaised) view.toolRaised = true;
    if (c.late !== undefined) view.lateOutcome = c.late;
    if (view.outcome === 'SUCCESS' && view.method !== null && LIST_ITEMS[view.method] !== undefined) this.comparePage(view);
    compact(view);
    if (view.toolList) {
      // A later page of a paginated tools/list adds to the earlier pages.
      learnToolList(this.tools, viewClientKey(view), view.toolList, view.nextPage === true);
      if (view.session !== null) learnToolList(this.scopeTools, view.scopeKey, view.toolList, view.nextPage === true);
    }
    this.sidesSeen.add(view.side);
    if (isServerish(view.side)) this.serverLayers[view.http ? 'http' : 'messages'] = true;
    if (isServerish(view.side) && !view.http && view.session !== null) this.serverMessageSessions = true;
    if (this.opts.sameSideInputs && (view.side === 'client' || view.side === 'server')) {
      // (A log without times, the Python SDK's DEBUG log in logging's basic format, beside a timed one: see untimedTwinOf.)
      const twin = view.startTs !== undefined ? this.twinOf(view) ?? this.untimedTwinOf(view) : this.timedTwinOf(view);
      if (twin !== undefined) return this.takeTwin(twin, view);
    }
    const key = this.keyOf(view);
    // A request its client cancelled was done for its caller then (the TypeScript SDK 1.x leaves its stream open until
    // the session closes): it is held from then, so it reaches the call linker before the app's retry sent after it.
    const end = view.side === 'client' && view.cancelledAt !== undefined && view.endTs !== undefined && view.cancelledAt < view.endTs ? view.cancelledAt : view.endTs ?? view.startTs;
    if ((view.side === 'client' && !neverSent(view)) || isServerish(view.side)) {
      const queue = this.waiting.get(key);
      if (queue) {
        // Pair at once only with a view of the other side that saw the same HTTP status (and, without a session, the
        // same arguments and the same tool result, or none on both sides); a view that differs may belong to another
        // POST with the same id (an auth re-POST, another client's call), so it is paired only when released unpaired.
        // Without a session several clients send the same id with the same arguments at once (every Client counts
        // from 0): a tool result names its own request, so one view's result never pairs with another result, the
        // same result first; and a result is not paired at once with a view that has none (a stream cut after its
        // head) while another client's same request is still open, which may be the one that gets it
        // (test/fixtures/real-audit85).
        const fits = (h: Held) => !h.emitted && pairable(h, view.side) && sameId(h, view) && otherStatus(h, view.side) === view.status && (view.session !== null || (h.fp === view.fingerprint && resultsMayFit(otherResult(h, view.side), view.resultSig)));
        let idx = view.session === null && view.resultSig !== undefined ? nearestIndex(queue, (h) => fits(h) && otherResult(h, view.side) === view.resultSig, view) : -1;
        if (idx === -1) idx = nearestIndex(queue, (h) => fits(h) && (view.session !== null || !this.resultMayBeAnother(h, view)), view, view.session === null && view.method === 'tools/call' ? (h) => spanGapTo(h.attempt.primary, view) : undefined);
        if (idx !== -1) {
          const h = queue[idx]!;
          queue.splice(idx, 1);
          if (queue.length === 0) this.waiting.delete(key);
          // An initialize joined by its session id is no candidate for pairing across ids any more.
          if (h.initKey !== undefined) this.unlistInit(h);
          // (A plain input's view of the same request, beside these sided ones, is a third view: see sessionlessThirdViews.)
          if (view.session === null) this.noteSessionlessThirdView(view, this.sameCall.get(h.fp));
          // (A row of a log without times that the other side's timed view gives a time: listed by it now, so a second
          // timed log of either side finds it: see twinOf.)
          const untimedRow = this.opts.sameSideInputs === true && h.attempt.startTs === undefined;
          this.merge(h.attempt, view);
          if (untimedRow && h.attempt.startTs !== undefined) this.listSameCall(h);
          if (view.session === null) this.noteTimeJoin(h, queue);
          if (end !== undefined && end + this.opts.windowMs > h.deadline) {
            h.deadline = end + this.opts.windowMs;
            this.enqueue(h);
          }
          // The client's view of an attempt the server's came first for: now it is one the claim of its call may follow.
          if (view.side === 'client' && this.followers.size && !h.attempt.claim) this.takeFollower(h);
          return;
        }
      }
    }
    if (view.method === 'initialize' && this.pairedAcrossDroppedSession(view)) return;
    const attempt = this.fromView(view);
    // Wait for the other side's view (and its clock skew) only when there is another side to wait for.
    const twoSides = this.opts.bothSides || (this.sidesSeen.has('client') && (this.sidesSeen.has('server') || this.sidesSeen.has('gateway')));
    const h: Held = { attempt, deadline: end === undefined ? Infinity : end + this.opts.windowMs + (twoSides && view.side !== 'unknown' ? this.opts.skewMs : 0), emitted: false, fp: view.fingerprint };
    this.enqueue(h);
    if (looseClient(view) && (this.looseOn || !refusedOpening(view))) {
      if (!this.looseOn) this.looseHeld();
      this.looseAdd(h);
    } else if (this.looseOn && looseServer(view)) this.looseAdd(h);
    else if (mirrorServer(view) && (this.mirrorOn || !refusedOpening(view))) {
      // Only beside a client's log: a server's log alone, or before the client's first view, is only marked. (The
      // held views mirrorHeld takes include this one: it is enqueued.)
      if (this.mirrorOn) this.looseAdd(h);
      else if (this.sidesSeen.has('client')) this.mirrorHeld();
      else this.mirrorSeen = true;
    } else if (mirrorClient(view) && (this.mirrorOn || this.mirrorSeen)) {
      if (this.mirrorOn) this.looseAdd(h);
      else this.mirrorHeld();
    }
    if (view.startTs !== undefined) {
      const same = this.sameCall.get(h.fp);
      if (same) this.noteOverlap(view, same);
      this.listSameCall(h);
    } else if (this.opts.sameSideInputs && (view.side === 'client' || view.side === 'server') && view.session !== null) {
      const k = untimedKey(view);
      const list = this.untimedHeld.get(k);
      if (list) list.push(h);
      else this.untimedHeld.set(k, [h]);
    }
    if (view.side === 'client' || isServerish(view.side)) {
      const q = this.waiting.get(key);
      if (q) q.push(h);
      else this.waiting.set(key, [h]);
      if (view.method === 'initialize' && (view.side === 'client' ? view.session !== null || view.noSessionHeader === true : view.session !== null || headerlessInit(view))) {
        this.lonelyInits = this.lonelyInits.filter((x) => !x.emitted && !(x.attempt.client && x.attempt.server));
        if (this.lonelyInits.length < 64) this.lonelyInits.push(h);
      }
      if (view.method === 'initialize' && view.session !== null && (view.side === 'client' || view.side === 'server') && typeof view.status === 'number' && view.status >= 200 && view.status <= 299) {
        h.initKey = `${view.side}|${initializeFit(view)}`;
        const set = this.rewriteInits.get(h.initKey);
        if (set) set.add(h);
        else this.rewriteInits.set(h.initKey, new Set([h]));
        const sk = `${view.side}|${view.session}`;
        if (!this.candidateSessions.has(sk)) this.candidateSessions.set(sk, []);
      } else if ((view.side === 'client' || view.side === 'server') && view.session !== null && this.candidateSessions.size > 0) {
        const list = this.candidateSessions.get(`${view.side}|${view.session}`);
        if (list && list.length < CANDIDATE_VIEWS_KEPT) list.push(h);
      }
    }
    // Claims come from a client's app log; a run without one never indexes its held attempts for them.
    if (!this.indexed) return;
    this.index(h);
    if (attempt.method === 'tools/call' && attempt.tool !== null && this.idlessClaims.length && !attempt.claim) {
      let best = -1;
      for (let i = 0; i < this.idlessClaims.length; i++) {
        const c = this.idlessClaims[i]!;
        if (claimFitsByTime(c, attempt) && (best === -1 || timeGap(c, attempt) < timeGap(this.idlessClaims[best]!, attempt))) best = i;
      }
      if (best !== -1) this.attach(this.idlessClaims.splice(best, 1)[0]!, h);
    }
    const idk = `${view.idKey}|${view.method}`;
    const pending = this.pendingClaims.get(idk);
    if (pending) {
      const i = pending.findIndex((c) => claimFits(c, attempt));
      if (i !== -1) {
        const c = pending[i]!;
        pending.splice(i, 1);
        if (pending.length === 0) this.pendingClaims.delete(idk);
        this.attach(c, h);
      }
    }
    if (this.followers.size && !attempt.claim) this.takeFollower(h);
  }

  /** Claim c joins held attempt h; a claim for the whole call goes on to the call's final attempt (followCall). */
  private attach(c: ClaimIn, h: Held): void {
    h.attempt.claim = c;
    this.callClaims.set(callKey(h.attempt), { claim: c, holder: h });
    this.followCall(c, h);
  }

  /**
   * A claim for a whole call that went out more than once (its postCount or statuses above one) joined to one of the
   * call's attempts (the id it names: an app may log its first request's id; or by time: the call's start it tells)
   * belongs with the call's final attempt: it moves to the latest later attempt of the call held now that started by the
   * claim's time, as many as it admits beyond those of the call before h (a claim naming the last id stays). When fewer
   * came yet (a claim logged before the last attempt was final), it waits on its latest attempt for the rest.
   */
  private followCall(c: ClaimIn, h: Held): void {
    if (!claimsSeveralPosts(c.claim)) return;
    const list = this.sameCall.get(h.fp);
    const i = list ? list.indexOf(h) : -1;
    if (!list || i === -1) return;
    // Attempts of the call before h that the claim counts: those since the call's start, when it states its duration.
    const from = c.claim.durationMs !== undefined && c.ts !== undefined ? claimStart(c) - 1000 : -Infinity;
    let left = claimAdmits(c.claim) - 1;
    for (let j = 0; j < i; j++) {
      const o = list[j]!;
      if (!o.emitted && !o.attempt.claim && sameCallAs(o, h) && o.attempt.startTs! >= from) left--;
    }
    let at = h;
    for (let j = i + 1; j < list.length && left > 0; j++) {
      const o = list[j]!;
      if (o.emitted || o.attempt.claim || o.covered || !sameCallAs(o, h) || !claimFits(c, o.attempt)) continue;
      if (at !== h) at.covered = true;
      at = o;
      left--;
    }
    if (at !== h) this.moveClaim(c, h, at);
    if (left > 0) this.followers.set(at, { claim: c, left });
  }

  /** A new attempt of a call whose claim waits for more of its attempts (followCall) takes that claim. */
  private takeFollower(h: Held): void {
    const start = h.attempt.startTs;
    if (start === undefined) return;
    for (const [at, f] of this.followers) {
      if (at === h || at.emitted || !sameCallAs(h, at) || !(start > (at.attempt.startTs ?? Infinity)) || !claimFits(f.claim, h.attempt)) continue;
      this.followers.delete(at);
      this.moveClaim(f.claim, at, h);
      if (f.left > 1) this.followers.set(h, { claim: f.claim, left: f.left - 1 });
      return;
    }
  }

  private moveClaim(c: ClaimIn, from: Held, to: Held): void {
    if (from.attempt.claim === c) from.attempt.claim = undefined;
    from.covered = true;
    to.attempt.claim = c;
    const ck = callKey(from.attempt);
    if (this.callClaims.get(ck)?.holder === from) this.callClaims.delete(ck);
    this.callClaims.set(callKey(to.attempt), { claim: c, holder: to });
  }

  /** A held attempt, indexed by id and method, and by tool for a tools/call, for the claims to come. */
  private index(h: Held): void {
    const a = h.attempt;
    const idk = `${a.primary.idKey}|${a.method}`;
    const list = this.byId.get(idk);
    if (list) list.add(h);
    else this.byId.set(idk, new Set([h]));
    if (a.method === 'tools/call' && a.tool !== null) {
      const byTool = this.byTool.get(a.tool);
      if (byTool) byTool.add(h);
      else this.byTool.set(a.tool, new Set([h]));
    }
  }

  /** The first claim: index every attempt still held, in the order they came (a claim takes the latest that fits). */
  private indexHeld(): void {
    this.indexed = true;
    const held = new Set<Held>();
    for (const slot of this.queue.values()) if (!slot.h.emitted) held.add(slot.h);
    for (const h of [...held].sort((x, y) => x.attempt.seq - y.attempt.seq)) this.index(h);
  }

  claim(c: ClaimIn): void {
    if (!this.indexed) this.indexHeld();
    const id = c.claim.jsonrpc?.id;
    const method = c.claim.method ?? 'tools/call';
    if (!isJsonRpcId(id)) {
      if (method === 'tools/call' && c.claim.tool && c.ts !== undefined) this.idlessClaim(c);
      else this.unmatchedClaims.push(c.src);
      return;
    }
    const idk = `${idKeyOf(id)}|${method}`;
    const list = this.byId.get(idk);
    if (list) {
      // The most recent fitting attempt: the claim is logged after the call it describes.
      let best: Held | undefined;
      for (const h of list) if (!h.emitted && !h.attempt.claim && !h.covered && claimFits(c, h.attempt)) best = h;
      if (best) {
        this.attach(c, best);
        return;
      }
    }
    const p = this.pendingClaims.get(idk);
    if (p) p.push(c);
    else this.pendingClaims.set(idk, [c]);
  }

  /**
   * A claim without a JSON-RPC id (a client log that names only the tool and when the call ended) takes the held
   * tools/call of that tool whose start is nearest the call's start the claim tells; else it waits for one.
   */
  private idlessClaim(c: ClaimIn): void {
    let best: Held | undefined;
    for (const h of this.byTool.get(c.claim.tool!) ?? []) {
      if (h.emitted || h.attempt.claim || h.covered || !claimFitsByTime(c, h.attempt)) continue;
      if (!best || timeGap(c, h.attempt) < timeGap(c, best.attempt)) best = h;
    }
    if (best) {
      this.attach(c, best);
      return;
    }
    this.idlessClaims.push(c);
  }

  /**
   * A claim that no attempt on the wire took (no wire was given, or the call never reached it) is the only view of
   * its call: an attempt of its own, with the outcome the claim states, or UNANSWERED when it states none.
   */
  private claimOnly(c: ClaimIn): void {
    const claimed = c.claim.outcome;
    const outcome: Outcome = claimed !== undefined && isOutcome(claimed) ? claimed : 'UNANSWERED';
    const code = c.claim.jsonrpc?.errorCode ?? undefined;
    const start = c.ts !== undefined && c.claim.durationMs !== undefined ? c.ts - c.claim.durationMs : c.ts;
    const who = c.claim.client ?? 'client';
    const said = c.claim.message !== undefined ? `${who} logged: ${c.claim.message}` : `${who} logged it ${outcome === 'TOOL_SUCCESS' ? 'completed' : 'failed'}`;
    const why = outcome === 'UNANSWERED' ? `${said} (its log shows no response: which layer failed is not said${code !== undefined && LOCAL_CODE_NAMES[code] ? `; ${code} is ${LOCAL_CODE_NAMES[code]}` : ''})` : said;
    const detail: OutcomeDetail = { why };
    if (code !== undefined) detail.errorCode = code;
    if (c.claim.message !== undefined && outcome === 'JSONRPC_ERROR') detail.errorMessage = c.claim.message;
    const caller = `${who}|${c.conn ?? `input#${c.input}`}`;
    // The k-th claim of one line (an OTLP export line carries many log records) is told apart from the others by k.
    const lineKey = `${c.src.file}:${c.src.line}`;
    const k = (this.claimsOfLine.get(lineKey) ?? 0) + 1;
    this.claimsOfLine.delete(lineKey);
    this.claimsOfLine.set(lineKey, k);
    trimOldest(this.claimsOfLine, 1024);
    const of = k === 1 ? lineKey : `${lineKey}#${k}`;
    const id = k === 1 ? `log line ${c.src.line}` : `log line ${c.src.line}, claim ${k}`;
    // Each claim is its own call (nothing in the log says two of them sent the same arguments), except the client's
    // own re-run of the call before (Claude Code's "Retrying tool ... after session recovery").
    const callOf = `${caller}|${c.claim.tool ?? ''}`;
    const fp = (c.claim.retryOrigin === 'app' ? this.lastClaimCall.get(callOf) : undefined) ?? signatureOf(`claim|${of}`);
    this.lastClaimCall.delete(callOf);
    this.lastClaimCall.set(callOf, fp);
    // only the last call of each tool matters: a log of endless tool names must not grow this without end
    trimOldest(this.lastClaimCall, 4096);
    const view = newAttemptView({
      side: 'client', input: c.input, session: null, scope: caller, scopeKey: `client|${caller}`, client: who, caller,
      signature: signatureOf(of), id, idKey: idKeyOf(id), method: 'tools/call', tool: c.claim.tool ?? null,
      fingerprint: fp, continuation: false, http: false, weakId: true,
      startTs: start, endTs: c.ts, status: c.claim.status ?? (c.claim.httpStatuses?.length === 1 ? c.claim.httpStatuses[0] : undefined), contentType: undefined,
      sseEvents: 0, progress: 0, serverRequests: 0, sentSession: false, sources: [c.src], final: true,
    });
    view.rebuilt = true;
    view.outcome = outcome;
    view.layer = OUTCOME_INFO[outcome].layer;
    view.detail = detail;
    const a = this.fromView(view);
    a.claim = c;
    a.claimOnly = true;
    this.opts.onAttempt(a);
  }

  private expireIdless(before: number): void {
    if (!this.idlessClaims.length || (this.idlessClaims[0]!.ts ?? Infinity) >= before) return;
    const keep: ClaimIn[] = [];
    for (const c of this.idlessClaims) {
      if (c.ts !== undefined && c.ts < before) this.claimOnly(c);
      else keep.push(c);
    }
    this.idlessClaims = keep;
  }

  advance(watermark: number): void {
    this.gatewayLines.expire(watermark - this.opts.windowMs - this.opts.skewMs);
    for (let top = this.queue.peek(); top && top.deadline <= watermark; top = this.queue.peek()) {
      this.queue.pop();
      if (top.deadline !== top.h.deadline) continue;
      const h = top.h;
      if (!h.emitted && this.awaitsOtherSide(h)) {
        // Not "not seen by the server": its view is still open. Look again a window later (that view ends by then,
        // or the join closes it for silence).
        h.deadline = watermark + this.opts.windowMs;
        this.enqueue(h);
        continue;
      }
      this.release(h);
    }
    if (watermark >= this.lastClaimSweep + 10_000) {
      this.lastClaimSweep = watermark;
      this.expireClaims(watermark - 2 * (this.opts.windowMs + this.opts.skewMs));
      this.expireIdless(watermark - 2 * (this.opts.windowMs + this.opts.skewMs));
      const before = watermark - 2 * (this.opts.windowMs + this.opts.skewMs);
      if (this.unread.length && (this.unread[0]!.ts ?? -Infinity) < before) {
        const keep: UnreadAnswer[] = [];
        for (const u of this.unread) {
          if (u.ts !== undefined && u.ts >= before) keep.push(u);
          else this.noteUnmatchedUnread(u);
        }
        this.unread = keep;
      }
    }
  }

  /**
   * A claim logged before the attempt it describes was final waits for it; one older than this has missed it (the
   * attempt would have been final and added by now), so it is counted as unmatched instead of held to the end.
   */
  private expireClaims(before: number): void {
    for (const [idk, list] of this.pendingClaims) {
      const keep = list.filter((c) => c.ts === undefined || c.ts >= before);
      if (keep.length === list.length) continue;
      for (const c of list) if (c.ts !== undefined && c.ts < before) this.unmatchedClaims.push(c.src);
      if (keep.length) this.pendingClaims.set(idk, keep);
      else this.pendingClaims.delete(idk);
    }
  }

  /** Attempts rebuilt from spans left out at flush as the same requests another log of the run shows (see flush). */
  rebuiltDuplicates = 0;
  /**
   * POSTs a server's log has without their body, refused with an HTTP error (a 401 or 429 of a middleware that runs
   * before the body is read), that no client's view joined: by input and status, how many, and the first.
   */
  readonly unmatchedUnread = new Map<string, { file: string; status: number; count: number; first: Source; sessions: Set<string> }>();

  private noteUnmatchedUnread(u: UnreadAnswer): void {
    const key = `${u.src.file}|${u.status}`;
    const known = this.unmatchedUnread.get(key);
    if (known) {
      known.count++;
      if (u.session !== null && known.sessions.size < 1000) known.sessions.add(u.session);
    } else this.unmatchedUnread.set(key, { file: u.src.file, status: u.status, count: 1, first: u.src, sessions: new Set(u.session !== null ? [u.session] : []) });
  }

  flush(): void {
    const rest: Slot[] = [];
    for (let s = this.queue.pop(); s; s = this.queue.pop()) if (s.deadline === s.h.deadline && !s.h.emitted) rest.push(s);
    // Those waiting for an earlier attempt of their call go out with the rest, in start order.
    for (const h of this.deferred) if (!h.emitted) rest.push({ h, deadline: h.deadline, start: h.attempt.startTs ?? -Infinity, seq: this.slotSeq++ });
    this.deferred.clear();
    rest.sort((a, b) => a.start - b.start || a.seq - b.seq);
    // An OpenTelemetry export given with the wire logs of the same traffic (an OTLP input holds every attempt to the
    // end): an attempt made only of views rebuilt from spans, whose request carries the trace context that a request
    // of another log carried too, is that same request. Its view of a side the other log lacks joins that attempt
    // (server spans with a client's log); one of a side the other log has too is left out, the wire's says more.
    const onWire = new Map<string, Held>();
    const traceKeys = (a: Attempt) => [a.client, a.server, a.primary, ...a.others].flatMap((v) => (v?.traceKey ? [`${v.traceKey}|${String(v.id)}|${v.method}`] : []));
    const rebuiltOnly = (a: Attempt) => [a.client, a.server, a.primary, ...a.others].every((v) => v === undefined || v.rebuilt === true);
    for (const s of rest) if (!rebuiltOnly(s.h.attempt)) for (const k of traceKeys(s.h.attempt)) if (!onWire.has(k)) onWire.set(k, s.h);
    if (onWire.size > 0) {
      for (const s of rest) {
        const r = s.h.attempt;
        if (!rebuiltOnly(r)) continue;
        const w = traceKeys(r).map((k) => onWire.get(k)).find((h) => h !== undefined)?.attempt;
        if (!w) continue;
        if (r.client && !w.client) this.merge(w, r.client);
        if (r.server && !w.server) this.merge(w, r.server);
        s.h.emitted = true;
        this.rebuiltDuplicates++;
      }
    }
    // A request the gateway re-sent goes out after the server's view of its earlier try (see waitsForEarlier).
    for (const s of rest) if (!s.h.emitted) this.takeGatewayLine(s.h);
    for (let i = 0; i < rest.length; i++) {
      const h = rest[i]!.h;
      if (!h.attempt.gatewayLine || h.emitted) continue;
      let j = -1;
      for (let k = i + 1; k < rest.length; k++) if (!rest[k]!.h.emitted && isEarlierTry(h, rest[k]!.h)) j = k;
      if (j !== -1) {
        rest.splice(j + 1, 0, rest[i]!);
        rest.splice(i--, 1);
      }
    }
    for (const s of rest) if (!s.h.emitted) this.emitAfterEarlier(s.h);
    for (const u of this.unread) this.noteUnmatchedUnread(u);
    this.unread = [];
    for (const list of this.pendingClaims.values()) for (const c of list) this.unmatchedClaims.push(c.src);
    this.pendingClaims.clear();
    const idless = this.idlessClaims.sort((x, y) => (x.ts ?? 0) - (y.ts ?? 0));
    this.idlessClaims = [];
    for (const c of idless) this.claimOnly(c);
  }

  /** Callers and sessions whose latest tools/list is kept (for tests of bounded memory). */
  get toolListCount(): { callers: number; sessions: number } {
    return { callers: this.tools.size, sessions: this.scopeTools.size };
  }

  /** Whether the loose join is on, and the views waiting in it (for tests of bounded memory). */
  get looseCount(): { on: boolean; entries: number } {
    let entries = 0;
    for (const map of [this.looseClients, this.looseServers]) for (const set of map.values()) entries += set.size;
    return { on: this.looseOn, entries };
  }

  /** Claims waiting for the attempt they describe (for tests of bounded memory). */
  get pendingClaimCount(): number {
    let n = 0;
    for (const list of this.pendingClaims.values()) n += list.length;
    return n + this.idlessClaims.length;
  }

  /** The earliest start among the attempts held (waiting for a deadline or for an earlier attempt), or Infinity. */
  earliestHeldStart(): number {
    let min = Infinity;
    // Attempts with no time (start -Infinity in the queue) are left out: they cannot be any call's retry by time.
    this.queue.forEach((slot) => {
      if (!slot.h.emitted && Number.isFinite(slot.start) && slot.start < min) min = slot.start;
    });
    for (const h of this.deferred) if (!h.emitted && h.attempt.startTs !== undefined && h.attempt.startTs < min) min = h.attempt.startTs;
    return min;
  }

  /**
   * Inputs that show the same requests: the same side, session, JSON-RPC id, method, arguments and status, started within a
   * second of each other (inputs of no known side: at the same times), in two inputs (by input pair, the lower input first). The same traffic given twice (both
   * forms of one capture, a log and its copy) is analyzed twice; the run says so.
   */
  readonly overlaps = new Map<string, { inputs: [number, number]; count: number; plain: boolean }>();
  /** Views added, by input (an overlap of plain inputs counts only when it is most of one: see analyze). */
  readonly viewsByInput = new Map<number, number>();
  /**
   * Requests without a session id that a plain input (no side) and an input with a side both show: the same JSON-RPC id,
   * method, arguments and status, started within a second (by `plain|sided` input pair). A recording proxy's capture
   * beside the client's log of a stateless server has no session id to tell it is a third view of the same calls.
   */
  readonly sessionlessThirdViews = new Map<string, { plain: number; sided: number; side: ViewSide; count: number }>();

  /**
   * Two logs of one side of the same requests (an app's own log and a capture of that client; a server's recording
   * and its request logger), given with the same flag: by input pair, how many requests both showed and were taken as
   * one attempt (see twinOf), and how many sessionless ones fitted two held requests and were left apart.
   */
  readonly twinViews = new Map<string, { inputs: [number, number]; side: ViewSide; count: number; unsure: number }>();
  /** Rows (attempts) that took a second view of their side, by an input of the row: three logs or more are said as one group by it. */
  readonly twinRows = new Map<number, number>();

  /**
   * The held attempt whose view of this side is another input's view of this very request: the same side, session
   * (without one: the same client where both logs name one, and the same start and end to 5 ms where both saw the
   * HTTP exchange), JSON-RPC id, method and arguments, HTTP status and result where both have one, started within --skew, and no view of this input taken by it yet; the nearest in time. A
   * request sent twice on the wire is two views in each log, each taken by its own. Without a session, a view that two
   * held attempts fit (two clients of a stateless server send the same id and arguments at once) is left apart.
   */
  private twinOf(view: AttemptView): Held | undefined {
    const same = this.sameCall.get(view.fingerprint);
    if (same === undefined) return undefined;
    const start = view.startTs!;
    let best: Held | undefined;
    let bestGap = Infinity;
    let fits = 0;
    let unsure: AttemptView | undefined;
    for (let i = same.length - 1; i >= 0; i--) {
      const h = same[i]!;
      const a = h.attempt;
      if (a.startTs !== undefined && a.startTs < start - this.opts.skewMs) break;
      if (h.emitted || h.twins?.includes(view.input)) continue;
      const o = view.side === 'client' ? a.client : a.server;
      if (o === undefined || o.side !== view.side || o.input === view.input || o.idKey !== view.idKey || o.method !== view.method || o.startTs === undefined) continue;
      if (o.session !== view.session) continue;
      // (Without a session, several clients of a stateless server send the same id and arguments at once: only the
      // same times to a few ms where both logs saw the HTTP exchange make two views one request, as for the overlap.)
      if (view.session === null && !endpointsMeet(o, view)) continue;
      if (view.session === null && !sameTrafficSessionless(o, view)) {
        // (One started with it and its span holds the other's: an inner layer's log may end the exchange sooner, but
        // two clients' requests sent at once look so too: not taken, and said.)
        if (sameSessionlessRequest(o, view)) unsure ??= o;
        continue;
      }
      if (typeof o.status === 'number' && typeof view.status === 'number' && o.status !== view.status) continue;
      if (!resultsMayFit(o.resultSig, view.resultSig)) continue;
      const gap = Math.abs(o.startTs - start);
      if (gap > this.opts.skewMs) continue;
      fits++;
      if (gap < bestGap) {
        best = h;
        bestGap = gap;
      }
    }
    if (best === undefined || (fits > 1 && view.session === null)) {
      const o = best === undefined ? unsure : view.side === 'client' ? best.attempt.client! : best.attempt.server!;
      if (o !== undefined) this.countTwin(o, view, true);
      return undefined;
    }
    return best;
  }

  /**
   * The held attempt whose untimed view of this side (a log without times) is another input's view of this timed view's
   * request: the same side, session (none is not taken: without a time or a session nothing tells two clients' alike
   * requests apart), JSON-RPC id, method and arguments, HTTP status and result where both have one, and no view of
   * this input taken by it yet; the first in its log's order. A request re-sent under its id is two views in each log
   * that saw both sends, paired in order (and by status: a 503 and its re-post's 200).
   */
  private untimedTwinOf(view: AttemptView): Held | undefined {
    if (this.untimedHeld.size === 0 || view.session === null) return undefined;
    const k = untimedKey(view);
    const list = this.untimedHeld.get(k);
    if (list === undefined) return undefined;
    let found: Held | undefined;
    for (let i = 0; i < list.length; i++) {
      const h = list[i]!;
      const o = view.side === 'client' ? h.attempt.client : h.attempt.server;
      if (h.emitted || o === undefined || o.startTs !== undefined) {
        // (Out, or timed now by a view taken earlier: no longer an untimed view to pair.)
        list.splice(i--, 1);
        continue;
      }
      if (o.input === view.input || h.twins?.includes(view.input) || o.fingerprint !== view.fingerprint || !untimedMayFit(o, view)) continue;
      found = h;
      break;
    }
    if (list.length === 0) this.untimedHeld.delete(k);
    return found;
  }

  /**
   * An untimed view (a log without times) arriving after a timed log's view of the same request is held: the first held
   * attempt, in start order, that untimedTwinOf would have given that view (the same side, session, id, method and
   * arguments, status and result where both have one, no view of this input taken yet).
   */
  private timedTwinOf(view: AttemptView): Held | undefined {
    if (view.session === null) return undefined;
    const same = this.sameCall.get(view.fingerprint);
    if (same === undefined) return undefined;
    for (const h of same) {
      const o = view.side === 'client' ? h.attempt.client : h.attempt.server;
      if (h.emitted || o === undefined || o.side !== view.side || o.input === view.input || h.twins?.includes(view.input)) continue;
      if (o.session !== view.session || o.idKey !== view.idKey || o.method !== view.method || !untimedMayFit(o, view)) continue;
      return h;
    }
    return undefined;
  }

  /** Held attempt h (with a start time) into its fingerprint's list, kept in start order (mostly an append). */
  private listSameCall(h: Held): void {
    const start = h.attempt.startTs!;
    const same = this.sameCall.get(h.fp);
    if (!same) this.sameCall.set(h.fp, [h]);
    else {
      let i = same.length;
      while (i > 0 && same[i - 1]!.attempt.startTs! > start) i--;
      same.splice(i, 0, h);
    }
  }

  /** A second view of the request held as h (twinOf): one attempt, the richer of the two views its own, both views' sources. */
  private takeTwin(h: Held, view: AttemptView): void {
    const a = h.attempt;
    const o = view.side === 'client' ? a.client! : a.server!;
    const untimed = a.startTs === undefined;
    if (h.twins === undefined) this.twinRows.set(o.input, (this.twinRows.get(o.input) ?? 0) + 1);
    (h.twins ??= []).push(view.input);
    this.countTwin(o, view, false);
    // (A third log of the side: its view is counted with each log already in the attempt, not only the one standing.)
    if (a.others.length > 0) {
      const counted = [o.input, view.input];
      for (const x of a.others) {
        if (x.side !== view.side || counted.includes(x.input)) continue;
        counted.push(x.input);
        this.countTwin(x, view, false);
      }
    }
    if (evidenceOf(view) <= evidenceOf(o)) {
      a.others.push(view);
    } else {
      // The later view says more (a response where the other log has none, an HTTP status): it stands for the side.
      a.others.push(o);
      if (a.primary === o) {
        a.primary = view;
        a.status = view.status;
        a.outcome = view.outcome!;
        a.layer = view.layer!;
        a.detail = view.detail!;
        a.startTs = view.startTs ?? a.startTs;
        a.endTs = view.endTs ?? a.endTs;
        if (view.side === 'client') a.client = view;
        else a.server = view;
        if (a.client && a.server) this.merge(a, view);
      } else this.merge(a, view);
    }
    const end = view.endTs ?? view.startTs;
    if (untimed && view.startTs !== undefined) {
      // An untimed attempt (a log without times) takes the timed log's times: released by them, and found by a third
      // log's view (twinOf) and by the call linker as any timed attempt.
      a.startTs ??= view.startTs;
      a.endTs ??= view.endTs;
      this.listSameCall(h);
    }
    // (An untimed row, held to the end of input, is released by the timed view's end from now on.)
    if (end !== undefined && (end + this.opts.windowMs > h.deadline || h.deadline === Infinity)) {
      h.deadline = end + this.opts.windowMs;
      this.enqueue(h);
    }
  }

  private countTwin(o: AttemptView, view: AttemptView, unsure: boolean): void {
    const inputs: [number, number] = o.input < view.input ? [o.input, view.input] : [view.input, o.input];
    const key = `${inputs[0]}|${inputs[1]}`;
    let t = this.twinViews.get(key);
    if (!t) this.twinViews.set(key, (t = { inputs, side: view.side, count: 0, unsure: 0 }));
    if (unsure) t.unsure++;
    else t.count++;
  }

  /** A view whose request an attempt of another input already shows (the held attempts with its fingerprint, in start order). */
  private noteOverlap(view: AttemptView, same: Held[]): void {
    const start = view.startTs!;
    if (view.session === null) this.noteSessionlessThirdView(view, same);
    for (let i = same.length - 1; i >= 0; i--) {
      const a = same[i]!.attempt;
      if (a.startTs !== undefined && a.startTs < start - 1000) break;
      const o = view.side === 'client' ? a.client : isServerish(view.side) ? a.server : a.primary;
      // (The same HTTP status too, where both have an HTTP layer: a re-POST of one id, after a 401 or a lost answer, is
      // another request; an app's message log has no status to compare.)
      if (o === undefined || o.input === view.input || o.side !== view.side || o.session !== view.session || o.idKey !== view.idKey || o.method !== view.method) continue;
      if (o.http && view.http && o.status !== view.status) continue;
      if (o.startTs === undefined || Math.abs(o.startTs - start) > 1000) continue;
      // Views of no known side (plain inputs) may be a client's and a server's of one request, a few ms apart: only the
      // same times to the millisecond make them one log given twice.
      if (view.side === 'unknown' && (o.startTs !== start || o.endTs !== view.endTs)) continue;
      // Without a session, several clients of a stateless server send the same id with the same arguments at once
      // (each counts from the same start): two connections (conn) or clients the records name are two, and the same
      // traffic given twice has the same times to a few ms, start and end, and the same result
      // (test/fixtures/real-audit85).
      if (view.session === null && !sameTrafficSessionless(o, view)) continue;
      const inputs: [number, number] = o.input < view.input ? [o.input, view.input] : [view.input, o.input];
      const key = `${inputs[0]}|${inputs[1]}`;
      const known = this.overlaps.get(key);
      if (known) known.count++;
      else this.overlaps.set(key, { inputs, count: 1, plain: view.side === 'unknown' });
      return;
    }
  }

  /**
   * A sessionless view that held attempts of other inputs show too, one of the two views plain and one sided (each pair
   * of inputs counted once per view). Only when a plain input was read: views of sided inputs alone never look.
   */
  private noteSessionlessThirdView(view: AttemptView, same: Held[] | undefined): void {
    if (same === undefined || view.startTs === undefined || !this.sidesSeen.has('unknown')) return;
    const start = view.startTs;
    const plainView = view.side === 'unknown';
    let seen: string[] | undefined;
    for (let i = same.length - 1; i >= 0; i--) {
      const a = same[i]!.attempt;
      if (a.startTs !== undefined && a.startTs < start - 1000) break;
      for (const o of [a.client, a.server, a.primary]) {
        if (o === undefined || o.input === view.input || o.session !== null || (o.side === 'unknown') === plainView) continue;
        if (o.idKey !== view.idKey || o.method !== view.method || (o.http && view.http && o.status !== view.status)) continue;
        if (o.startTs === undefined || Math.abs(o.startTs - start) > 1000) continue;
        // (Another client of a stateless server sends the same id and arguments at once: a different result is its.)
        if (!resultsMayFit(o.resultSig, view.resultSig)) continue;
        const [plain, sided] = plainView ? [view, o] : [o, view];
        const key = `${plain.input}|${sided.input}`;
        if (seen?.includes(key)) continue;
        (seen ??= []).push(key);
        const known = this.sessionlessThirdViews.get(key);
        if (known) known.count++;
        else this.sessionlessThirdViews.set(key, { plain: plain.input, sided: sided.input, side: sided.side, count: 1 });
      }
    }
  }

  private enqueue(h: Held): void {
    this.queue.push({ h, deadline: h.deadline, start: h.attempt.startTs ?? -Infinity, seq: this.slotSeq++ });
  }

  /**
   * Without a session: held entry h and a new view, one with a tool result and the other without (a stream cut after
   * its head, a hop's 502 in place of the answer), while the client side still has the same request open (same id
   * and arguments, within --skew): another client's, whose answer may be that result. They are paired when released.
   */
  private resultMayBeAnother(h: Held, view: AttemptView): boolean {
    const held = view.side === 'client' ? h.attempt.server : h.attempt.client;
    if (!held || !this.opts.otherSideOpen || (held.resultSig === undefined) === (view.resultSig === undefined)) return false;
    const server = view.side === 'client' ? held : view;
    return server.resultSig !== undefined && this.opts.otherSideOpen(server, null, this.opts.skewMs);
  }

  /** An attempt with one side's view whose other side the join still has open (see MatcherOptions.otherSideOpen). */
  private awaitsOtherSide(h: Held): boolean {
    const a = h.attempt;
    if (!this.opts.otherSideOpen || (a.client && a.server)) return false;
    const v = a.client ?? a.server;
    if (v === undefined) return false;
    // Without a session (a stateless server): the other side's view of the same call, started within --skew of it
    // (looked for only when both sides' logs were given).
    if (v.session === null) return (this.opts.bothSides || (this.sidesSeen.has('client') && (this.sidesSeen.has('server') || this.sidesSeen.has('gateway')))) && this.opts.otherSideOpen(v, null, this.opts.skewMs);
    const other = v.side === 'client' ? this.pairs.serverOf(v.session) : this.pairs.clientOf(v.session);
    return this.opts.otherSideOpen(v, other ?? v.session, Infinity);
  }

  /**
   * A gateway's lines of this attempt's POST (HAProxy: the server closed during the data, the client left, HAProxy
   * re-sent it; nginx: the status it answered, its error log's reason), taken once, when the attempt is released: its
   * why says what the gateway saw, and the lines are among its sources.
   */
  private takeGatewayLine(h: Held): void {
    if (h.gatewayTaken) return;
    h.gatewayTaken = true;
    const a = h.attempt;
    let gv = a.client ?? a.server;
    // (every client POST's status, for a server's console that has no time to join by: compared by count in its note)
    if (a.client?.http && typeof a.client.status === 'number' && !neverSent(a.client)) {
      this.gatewayLines.clientPost(a.client.status);
      // A 404 of a session the server's console says its SDK refused as unknown: the server itself refused it (by the id)
      const refusal = a.client.status === 404 && a.client.session ? this.gatewayLines.refusal(a.client.session) : undefined;
      if (refusal) {
        const said = `the server's console (${refusal.file}:${refusal.line}) has the Python SDK's "Rejected request with unknown or expired session ID" for this session: the server itself refused it, no longer knowing the session (a restart, or a session it ended)`;
        (a.serverLines ??= []).push({ said, src: refusal });
        a.detail = { ...a.detail, why: a.detail.why ? `${a.detail.why}; ${said}` : said };
      }
    }
    if (!gv || this.gatewayLines.empty) return;
    // A client view with no HTTP layer (the Python SDK's DEBUG log: no status tied to its messages, its own clock's
    // times) takes its other side's view now, if one waits for it (a proxy's, the server's), and fits the lines by that
    // view's status and times, the wire's: by its own it would take its neighbours' lines.
    if (!gv.http && typeof gv.status !== 'number' && gv.side === 'client' && !a.server && !neverSent(a.client)) {
      this.pairOnRelease(h, this.keyOf(a.primary));
      const paired = a.server as AttemptView | undefined;
      if (paired?.http && typeof paired.status === 'number') gv = paired;
    }
    const open = gv.response === undefined && (gv.streamEnd === undefined || gv.endUnseen === true);
    const probe = {
      side: a.client ? 'client' as const : 'server' as const, session: gv.session, sentSession: gv.sentSession, status: gv.status, startTs: gv.startTs,
      // (An answer whose body the log does not hold, read to its end: answered, as far as the lines go.)
      endTs: gv.endTs, open, answered: ANSWERED.has(a.outcome) || gv.unloggedAnswer !== undefined, outcome: gv.outcome, method: a.method, tool: a.tool,
    };
    const taken = this.gatewayLines.take(probe);
    // A client's POST that got an answer (from something) the kitchen's request log, which covers its time, never logged
    if (!a.server && a.client?.http && typeof a.client.status === 'number' && !neverSent(a.client) && !taken.some((g) => g.log === 'kitchen-log' || g.log === 'aspnet-hosting' || g.log === 'http-logger')) {
      const unseen = this.gatewayLines.unseen(probe);
      if (unseen !== undefined) {
        a.notSeenByServer = true;
        const said = `${unseen.log === 'aspnet-hosting' ? "the server's ASP.NET Core hosting log" : unseen.log === 'http-logger' ? "the server's HTTP logger's log" : "the kitchen's request log"} ${unseen.file}, which has POSTs that ended before this one started and POSTs that started after it ended, has no line of it: the ${unseen.log === 'kitchen-log' ? 'kitchen' : 'server'} never saw it, so its HTTP ${a.client.status} came from something between them (a gateway, a proxy)`;
        a.detail = { ...a.detail, why: a.detail.why ? `${a.detail.why}; ${said}` : said };
      }
    }
    for (let g of taken) {
      if (g.said === '') continue;
      // The kitchen's observation names its scenario: one that answers in its wire layer proves no tool ran
      // (A JSON answer the log does not hold where the transport's other answers came on SSE: likely the scenario's error, not the SDK's.)
      const before = g.log === 'kitchen-observation' && g.scenario !== undefined ? kitchenAnsweredBeforeTool(g.scenario, g.rpcMethod, g.status, gv.status, a.outcome === 'JSONRPC_ERROR' || gv.unloggedUnlike === true) : undefined;
      if (before !== undefined) {
        g = { ...g, said: `${g.said}; ${before}` };
        a.answeredBeforeTool = { said: before, src: g.src };
      }
      if (g.log === 'kitchen-log' || g.log === 'kitchen-observation' || g.log === 'aspnet-hosting' || g.log === 'http-logger') (a.serverLines ??= []).push({ said: g.said, src: g.src });
      else if (g.log === 'nginx-error' || g.log === 'caddy-error' || g.log === 'apache-error') a.gatewayReason = { said: g.said, src: g.src };
      else a.gatewayLine = { said: g.said, retries: g.retries, src: g.src, ts: g.ts, endTs: g.endTs };
      // (each line's words name the gateway: "HAProxy's termination state SD: ...", "nginx's access log has ...")
      a.detail = { ...a.detail, why: a.detail.why ? `${a.detail.why}; ${g.said}` : g.said };
    }
  }

  /** An attempt whose deadline passed: out now, unless an earlier attempt of the same call is still held. */
  private release(h: Held): void {
    if (h.emitted) return;
    this.takeGatewayLine(h);
    if (this.waitsForEarlier(h)) this.deferred.add(h);
    else this.emit(h);
  }

  /** Whether an attempt with the same fingerprint that started earlier is still held (the list is in start order). */
  private waitsForEarlier(h: Held): boolean {
    const start = h.attempt.startTs;
    if (start === undefined) return false;
    const first = this.sameCall.get(h.fp)?.[0];
    if (first !== undefined && first !== h && first.attempt.startTs! < start) return true;
    // A request the gateway re-sent (its line counts retries): it waits for a server's view of an earlier try of it,
    // held still, which started while the gateway had it (that try reaches the call linker first, as the call's first).
    if (h.attempt.gatewayLine && this.sameCall.get(h.fp)?.some((o) => !o.emitted && isEarlierTry(h, o))) return true;
    // A request of the same call its client cancelled, whose stream the join still holds open (the TypeScript SDK 1.x
    // keeps a timed-out call's stream until its session closes): it comes here later, and this one waits for it.
    return h.attempt.client !== undefined && this.opts.cancelledOpenBefore?.(h.fp, start) === true;
  }

  /**
   * Out at the end of input, after the earlier requests of its call in its scope held still (other ids: another log's
   * view of this same request keeps its place): one held from its server's view keeps that view's start in the slot it
   * was queued with, later than its client's when a hop held the request (its retry, answered first, would reach the
   * call linker first).
   */
  private emitAfterEarlier(h: Held): void {
    const start = h.attempt.startTs;
    const list = start === undefined ? undefined : this.sameCall.get(h.fp);
    if (list && list[0] !== h) {
      const { scopeKey, idKey } = h.attempt.primary;
      for (const o of [...list]) {
        if (o === h || o.attempt.startTs! >= start!) break;
        if (!o.emitted && o.attempt.primary.scopeKey === scopeKey && o.attempt.primary.idKey !== idKey) this.emit(o);
      }
    }
    if (!h.emitted) this.emit(h);
  }

  /** An attempt is out (or merged into another): it leaves its fingerprint's list, and (release) those waiting for it go. */
  private unlist(h: Held, release: boolean): void {
    const list = this.sameCall.get(h.fp);
    if (!list) return;
    const i = list.indexOf(h);
    if (i !== -1) list.splice(i, 1);
    if (list.length === 0) {
      this.sameCall.delete(h.fp);
      return;
    }
    if (!release || this.deferred.size === 0) return;
    // The earliest attempts left (one start time) that waited go out now; each one's own unlist frees the next.
    const start = list[0]!.attempt.startTs;
    const due: Held[] = [];
    for (const d of list) {
      if (d.attempt.startTs !== start) break;
      if (this.deferred.has(d)) due.push(d);
    }
    for (const d of due) {
      if (d.emitted) continue;
      this.deferred.delete(d);
      this.emit(d);
    }
  }

  /** h leaves the queue of attempts waiting under key (a queue left empty goes). */
  private unwait(h: Held, key: string): void {
    const q = this.waiting.get(key);
    if (!q) return;
    const at = q.indexOf(h);
    if (at !== -1) q.splice(at, 1);
    if (q.length === 0) this.waiting.delete(key);
  }

  private emit(h: Held): void {
    if (h.emitted) return;
    h.emitted = true;
    this.deferred.delete(h);
    this.followers.delete(h);
    const a = h.attempt;
    const key = this.keyOf(a.primary);
    // (A request that never reached a server pairs with no server's view; a plain input's, of no side, with none.)
    const unpaired = (a.client !== undefined) !== (a.server !== undefined) && !neverSent(a.client);
    if (unpaired && h.initKey !== undefined && !h.apart) this.pairRewritten(h);
    this.unlistInit(h);
    if (unpaired) {
      this.pairOnRelease(h, key);
      this.crossedBy(h);
    }
    if (this.looseOn || this.mirrorOn) {
      if (!(a.client && a.server)) this.pairLoose(h);
      this.looseDrop(h);
      if (this.looseOn && !a.client && a.server && a.server.status === 404 && a.server.sentSession === true) this.resentElsewhere(a, a.server, h.fp);
    }
    this.unwait(h, key);
    this.unindex(h);
    // A client view without an HTTP layer (a desktop client's stdio log) against HTTP server logs talked to something
    // else, a stdio-to-HTTP bridge (mcp-remote) whose requests are the ones the server logs: not "not seen by the server".
    // A message log that gives each request's HTTP status (the Python SDK client's DEBUG log, httpx's line) meets an HTTP
    // server log's bodiless refusals too (real-audit84/v2x-host-mid-py): the status and time tell which.
    const layer = a.client !== undefined && this.serverLayers[a.client.http ? 'http' : 'messages'];
    if (a.client && !a.server && (layer || (typeof a.client.status === 'number' && this.serverLayers.http))) {
      const u = this.unread.length ? this.takeUnread(a) : undefined;
      if (u) {
        a.serverUnread = { status: u.status, src: u.src };
        a.serverOutcome = 'HTTP_ERROR';
        const changed = headerChanged(a.client.requestHeaders, u.headers);
        // The words of its answer where the client's log has none (the Python SDK client's DEBUG log leaves bodies out).
        const guard = u.said !== undefined ? requestGuard(u.status, u.said) : undefined;
        const words = u.said !== undefined && a.detail.errorMessage === undefined && a.detail.errorCode === undefined && !(a.detail.why ?? '').includes('the body says: ') ? `; the server's view of this POST has its body: ${u.said}${guard ? `; ${guard.why}` : ''}` : '';
        const said = `the server's log has this POST without its body, answered with HTTP ${u.status}${changed ? `; ${changed}` : ''}${words}`;
        a.detail = { ...a.detail, why: a.detail.why ? `${a.detail.why}; ${said}` : said };
      }
      else if (!layer) {
        // (a message log's request the HTTP server's log has no refusal of: as before, nothing said)
      }
      else if (!a.client.http && a.client.session === null && this.serverMessageSessions) {
        // (A client's app log that does not log the session id: the server's view of it is under a session it cannot be told from.)
        const said = "no view of it in the server's log: the client's log names no session id, so it was looked for by id, method, arguments and time, and none fits (log the client transport's sessionId with each message to join by session)";
        a.detail = { ...a.detail, why: a.detail.why ? `${a.detail.why}; ${said}` : said };
      } else a.notSeenByServer = true;
    }
    this.takeGatewayLine(h);
    // An attempt of a client session paired with a server session of another id (the server saw it or not) names it.
    if (a.serverSession === undefined && a.client?.session != null && this.pairs.size > 0) {
      const s = this.pairs.serverOf(a.client.session);
      if (s !== undefined) a.serverSession = s;
    }
    const ck = callKey(a);
    const cc = this.callClaims.get(ck);
    if (cc) {
      if (cc.holder === h) this.callClaims.delete(ck);
      else if (!a.claim) a.callClaim = cc.claim;
    }
    this.opts.onAttempt(a);
    this.unlist(h, true);
  }

  /**
   * The server-side POST without a body that answered this client attempt: same session (or none on both), same HTTP
   * error, started within a second of the client's request and its end; the nearest in time when several fit.
   */
  private takeUnread(a: Attempt): UnreadAnswer | undefined {
    const status = a.client?.status;
    const start = a.client?.startTs;
    if (typeof status !== 'number' || status < 400 || start === undefined) return undefined;
    const end = a.client?.endTs ?? start;
    let best = -1;
    for (let i = 0; i < this.unread.length; i++) {
      const u = this.unread[i]!;
      if (u.status !== status || u.session !== (a.client?.session ?? null) || u.ts === undefined) continue;
      if (u.ts < start - UNREAD_SLACK_MS || u.ts > end + UNREAD_SLACK_MS) continue;
      if (best === -1 || Math.abs(u.ts - start) < Math.abs(this.unread[best]!.ts! - start)) best = i;
    }
    return best === -1 ? undefined : this.unread.splice(best, 1)[0];
  }

  /** An unpaired attempt being released takes the oldest unpaired view of the other side with the same key. */
  private pairOnRelease(h: Held, key: string): void {
    const q = this.waiting.get(key);
    if (!q) return;
    const side: ViewSide = h.attempt.client ? 'client' : 'server';
    const fits = (o: Held) => o !== h && !o.emitted && pairable(o, side) && sameId(o, h.attempt.primary) && !answersContradict(h, o);
    // Without a session, a view of the other side whose start the two views' times allow first (the server got the
    // request after the client sent it and before the client's exchange ended), then any: several clients' same
    // requests at once are otherwise told only by the nearest start (test/fixtures/real-audit85).
    const near = h.attempt.session === null && h.attempt.method === 'tools/call' ? (o: Held) => spanGap(h, o) : undefined;
    let i = near ? nearestIndex(q, (o) => fits(o) && inTime(h, o), h.attempt.primary, near) : -1;
    if (i === -1) i = nearestIndex(q, fits, h.attempt.primary, near);
    if (i === -1) return;
    const o = q[i]!;
    // Without a session: not when another unpaired view of h's side is nearer to it (that attempt's own view, whose
    // status differed: a 502 the hop put in place of the server's 200), as a retry that never reached the server is not.
    const oStart = o.attempt.startTs;
    if (h.attempt.session === null && oStart !== undefined && h.attempt.startTs !== undefined) {
      const gap = near ? near(o) : Math.abs(h.attempt.startTs - oStart);
      const other = side === 'client' ? 'server' : 'client';
      // Another unpaired view of h's side with o's arguments when h has other ones is o's own attempt (whatever the
      // time); one nearer to o counts only when it fits o as well as h does (the same arguments if h has them).
      if (h.fp !== o.fp && q.some((x) => x !== h && x !== o && !x.emitted && pairable(x, other) && x.fp === o.fp)) return;
      // Nor one that saw another status than o when h saw o's (a hop's 502 beside a stream cut after the server's 200
      // head: several clients' same requests at once, test/fixtures/real-audit85).
      const sawO = h.attempt.primary.status === o.attempt.primary.status;
      const timely = near !== undefined && inTime(h, o);
      if (q.some((x) => x !== h && x !== o && !x.emitted && pairable(x, other) && (h.fp !== o.fp || x.fp === o.fp) && (!sawO || x.attempt.primary.status === o.attempt.primary.status) && (!timely || inTime(x, o)) && x.attempt.startTs !== undefined && (near ? spanGap(x, o) : Math.abs(x.attempt.startTs - oStart)) < gap)) return;
    }
    q.splice(i, 1);
    if (q.length === 0) this.waiting.delete(key);
    this.absorb(h, o, side);
    if (h.attempt.session === null) this.noteTimeJoin(h, q);
  }

  /**
   * A client view and a server view just joined without a session (held entry h): unless a tool result on both sides
   * proves it, remembered, and counted as crossable when another server view of the same request waits in `rest`.
   */
  private noteTimeJoin(h: Held, rest: Held[]): void {
    const { client: c, server: s } = h.attempt;
    if (!c || !s || c.method !== 'tools/call' || (c.resultSig !== undefined && s.resultSig !== undefined)) return;
    // (Another server view of the same log: one request given twice, in two logs, is said by the overlap note.)
    const other = rest.some((x) => x !== h && !x.emitted && pairable(x, 'client') && x.fp === h.fp && sameId(x, c) && x.attempt.server?.input === s.input);
    if (other) this.crossableJoins++;
    this.timeJoins.push({ key: `${c.idKey}|${h.fp}|${s.input}`, start: c.startTs, counted: other });
    if (this.timeJoins.length > 256) this.timeJoins.shift();
  }

  /** A server view released without a client's (no session): the joins by time of the same request near it were crossable. */
  private crossedBy(h: Held): void {
    const s = h.attempt.server;
    if (!s || h.attempt.client || s.session !== null || s.method !== 'tools/call' || !this.sidesSeen.has('client')) return;
    const key = `${s.idKey}|${h.fp}|${s.input}`;
    for (const j of this.timeJoins) {
      if (j.counted || j.key !== key || (j.start !== undefined && s.startTs !== undefined && Math.abs(j.start - s.startTs) > this.opts.skewMs)) continue;
      j.counted = true;
      this.crossableJoins++;
    }
  }

  /** Held entry h takes the other side's view of o, which is released inside it (o is out of the waiting queues already). */
  private absorb(h: Held, o: Held, side: ViewSide): void {
    this.unlistInit(o);
    o.emitted = true;
    this.deferred.delete(o);
    this.unlist(o, false);
    const other = side === 'client' ? o.attempt.server! : o.attempt.client!;
    this.merge(h.attempt, other);
    if (!h.attempt.claim && o.attempt.claim) h.attempt.claim = o.attempt.claim;
    // o is released inside h: the call claim it held is h's now (emit() drops it with h), or it would outlive its call.
    const ock = callKey(o.attempt);
    const cc = this.callClaims.get(ock);
    if (cc?.holder === o) {
      this.callClaims.delete(ock);
      this.callClaims.set(callKey(h.attempt), { claim: cc.claim, holder: h });
    }
    const f = this.followers.get(o);
    if (f) {
      this.followers.delete(o);
      if (h.attempt.claim === f.claim) this.followers.set(h, f);
    }
    this.unindex(o);
  }

  /** The first client view without a session id: the server views held now become candidates too, in the order they came. */
  private looseHeld(): void {
    this.looseOn = true;
    const held = new Set<Held>();
    for (const slot of this.queue.values()) if (!slot.h.emitted && slot.h.attempt.server && !slot.h.attempt.client && looseServer(slot.h.attempt.server)) held.add(slot.h);
    for (const h of [...held].sort((x, y) => x.attempt.seq - y.attempt.seq)) this.looseAdd(h);
  }

  /**
   * A server view without a session id beside a client's log: the client views with one and the server views without
   * one held now become candidates, in the order they came (the view being added is among them: it is enqueued).
   */
  private mirrorHeld(): void {
    this.mirrorOn = true;
    const held = new Set<Held>();
    for (const slot of this.queue.values()) {
      const a = slot.h.attempt;
      if (slot.h.emitted || (a.client && a.server)) continue;
      if ((a.client && mirrorClient(a.client)) || (a.server && mirrorServer(a.server) && !refusedOpening(a.server))) held.add(slot.h);
    }
    for (const h of [...held].sort((x, y) => x.attempt.seq - y.attempt.seq)) this.looseAdd(h);
  }

  private looseAdd(h: Held): void {
    const k = looseKey(h.attempt.primary);
    const client = h.attempt.client !== undefined;
    const map = client ? this.looseClients : this.looseServers;
    const set = map.get(k);
    if (set) set.add(h);
    else map.set(k, new Set([h]));
    h.loose = k;
    // A client's entry looks once for its best server entry; a later server entry is compared with each waiting client's.
    if (client) h.looseBest = this.bestServer(h);
    else for (const c of this.looseClients.get(k) ?? []) {
      const fit = looseFitOf(c, h, this.opts.skewMs);
      if (!fit) continue;
      const cur = c.looseBest && !c.looseBest.h.emitted && !c.looseBest.h.attempt.client ? c.looseBest : undefined;
      if (!cur || fit.rank > cur.rank || (fit.rank === cur.rank && fit.gap < cur.gap)) c.looseBest = { h, ...fit };
    }
  }

  /** The unpaired server entry that fits a client's entry best (the same answer first, then the nearest start). */
  private bestServer(c: Held, include?: Held): { h: Held; rank: number; gap: number } | undefined {
    let best: { h: Held; rank: number; gap: number } | undefined;
    for (const o of this.looseServers.get(c.loose!) ?? []) {
      const fit = looseFitOf(c, o, this.opts.skewMs, include);
      if (fit && (!best || fit.rank > best.rank || (fit.rank === best.rank && fit.gap < best.gap))) best = { h: o, ...fit };
    }
    return best;
  }

  /** The client entry that fits a server entry best, among those waiting (`include`: the one being released). */
  private bestClient(s: Held, include?: Held): Held | undefined {
    let best: Held | undefined;
    let rank = 0;
    let gap = Infinity;
    for (const c of this.looseClients.get(s.loose!) ?? []) {
      const fit = looseFitOf(c, s, this.opts.skewMs, include);
      if (fit && (fit.rank > rank || (fit.rank === rank && fit.gap < gap))) {
        best = c;
        rank = fit.rank;
        gap = fit.gap;
      }
    }
    return best;
  }

  /**
   * For a client entry whose best server entry is taken (that entry and another waiting client are each other's best:
   * two sessions' alike requests sent a few ms apart), the best server entry left whose best client, among those not
   * so taken elsewhere, is this one.
   */
  private nextFree(h: Held): Held | undefined {
    const fits: { o: Held; rank: number; gap: number }[] = [];
    for (const o of this.looseServers.get(h.loose!) ?? []) {
      const fit = looseFitOf(h, o, this.opts.skewMs, h);
      if (fit) fits.push({ o, ...fit });
    }
    fits.sort((x, y) => y.rank - x.rank || x.gap - y.gap);
    const takenElsewhere = (c: Held, o: Held) => {
      const b = c.looseBest?.h;
      return b !== undefined && b !== o && !b.emitted && !b.attempt.client && this.bestClient(b) === c;
    };
    for (const { o } of fits) {
      let best: Held | undefined;
      let rank = 0;
      let gap = Infinity;
      for (const c of this.looseClients.get(o.loose!) ?? []) {
        if (c !== h && takenElsewhere(c, o)) continue;
        const fit = looseFitOf(c, o, this.opts.skewMs, h);
        if (fit && (fit.rank > rank || (fit.rank === rank && fit.gap < gap))) {
          best = c;
          rank = fit.rank;
          gap = fit.gap;
        }
      }
      if (best === h) return o;
      if (best !== undefined && best.looseBest?.h === o) continue;
      return undefined;
    }
    return undefined;
  }

  private looseDrop(h: Held): void {
    const k = h.loose;
    if (k === undefined) return;
    h.loose = undefined;
    for (const map of [this.looseClients, this.looseServers]) {
      const set = map.get(k);
      if (set?.delete(h) && set.size === 0) map.delete(k);
    }
  }

  /**
   * An attempt being released with one view, a client view without a session id or a server view with one,
   * takes the other side's view of the same request across the session id the client's log lacks: the same id, method,
   * tool and arguments, started within --skew of it, and an answer that does not contradict it (a different result is
   * another call). The best fit first (the same answer, then the nearest start), and only when this attempt is that
   * view's best fit too: a re-sent request's refused first POST (a 404 before the bridge re-initialized) keeps apart.
   */
  private pairLoose(h: Held): void {
    const v = h.attempt.client ?? h.attempt.server;
    if (v === undefined) return;
    const isClient = v.side === 'client';
    if (isClient ? !looseClient(v) && !(this.mirrorOn && mirrorClient(v)) : !looseServer(v) && !(this.mirrorOn && mirrorServer(v))) return;
    if (h.loose === undefined) return;
    let o: Held | undefined;
    if (isClient) {
      // Its best server entry, found again if the one it had is gone; and it must be that entry's best client too.
      let best = h.looseBest;
      if (!best || best.h.emitted || best.h.attempt.client) best = this.bestServer(h, h);
      o = best?.h;
      // Its best server entry is another waiting client's best, and that one's best is it: the next that is free.
      if (!o || this.bestClient(o, h) !== h) o = this.nextFree(h);
      if (!o) return;
    } else {
      // The best waiting client whose best server entry is this one.
      const c = this.bestClient(h, h);
      if (!c || c.looseBest?.h !== h) return;
      o = c;
    }
    this.unwait(o, this.keyOf(o.attempt.primary));
    this.looseDrop(o);
    this.absorb(h, o, isClient ? 'client' : 'server');
    const a = h.attempt;
    if (a.session === null && a.server?.session != null) a.session = a.server.session;
    const s = a.server!;
    if (s.session !== null) {
      this.looseResent.set(`${s.idKey}|${h.fp}`, { session: s.session, start: s.startTs });
      trimOldest(this.looseResent, 4096);
    }
    if (a.client?.session === null) this.looseJoins++;
    else this.mirrorJoins++;
  }

  /**
   * A server view refused with 404 in its session, whose request (same id and arguments) a client log without session
   * ids has joined to a later POST in another session: the client's side (a bridge such as mcp-remote) re-initialized
   * and re-sent it, which the server's log alone shows as another session's request.
   */
  private resentElsewhere(a: Attempt, v: AttemptView, fp: number): void {
    const r = this.looseResent.get(`${v.idKey}|${fp}`);
    if (!r || r.session === v.session || (r.start !== undefined && v.startTs !== undefined && r.start < v.startTs)) return;
    v.retriedInNewSession = true;
    const said = `re-sent with the same id in session ${quoteId(r.session)}, where the client's request (its log names no session id) was joined: the client's side re-initialized and sent it again`;
    v.detail = { ...v.detail, why: v.detail?.why ? `${v.detail.why}; ${said}` : said };
    if (a.primary === v) a.detail = v.detail;
  }

  /** An initialize leaves the candidates for pairing across rewritten session ids. */
  private unlistInit(h: Held): void {
    if (h.initKey === undefined) return;
    const set = this.rewriteInits.get(h.initKey);
    if (set?.delete(h) && set.size === 0) this.rewriteInits.delete(h.initKey);
    const v = h.initKey.startsWith('client|') ? h.attempt.client : h.attempt.server;
    if (v?.session != null) this.candidateSessions.delete(`${v.side}|${v.session}`);
    h.initKey = undefined;
  }

  /**
   * The initialize exchanges of the other side that could be this one's across a rewritten session id: one side's
   * view only, a session id of their own that this side's log does not show (nor this one's in theirs), the same
   * JSON-RPC id, HTTP status, clientInfo and requested protocol version, the same server and negotiated version where
   * both kept them, started within --skew of it. At most two (two mean it is ambiguous). `releasing`: the entry being
   * released (already marked emitted), which still counts.
   */
  private rewriteCandidates(v: AttemptView, side: 'client' | 'server', releasing?: Held, most = 2): Held[] {
    const found: Held[] = [];
    const set = this.rewriteInits.get(`${side}|${initializeFit(v)}`);
    if (!set) return found;
    for (const o of set) {
      const w = side === 'client' ? o.attempt.client : o.attempt.server;
      if ((o.emitted && o !== releasing) || !w || (o.attempt.client && o.attempt.server) || w.session === null || w.session === v.session) continue;
      if (v.startTs !== undefined && w.startTs !== undefined && Math.abs(v.startTs - w.startTs) > this.opts.skewMs) continue;
      if (!answersAgree(v, w) || !this.ownSessionOnly(w)) continue;
      found.push(o);
      if (found.length >= most) break;
    }
    return found;
  }

  /**
   * Initialize exchanges alike on both sides (two workers of one app starting together, a reconnect within --skew):
   * the one of the other side whose session's requests agree with this one's, when exactly one does and this one is
   * the only one of its side that agrees with it. Two sessions agree when they share a JSON-RPC id of a request other
   * than initialize with the same method and arguments (fingerprint), and no id with other ones: the same app doing
   * the same things in both is still ambiguous, and stays apart.
   */
  private disambiguate(h: Held, v: AttemptView, side: 'client' | 'server', other: 'client' | 'server'): Held | undefined {
    const own = this.requestsOf(v);
    if (own.size === 0) return undefined;
    const fitting = this.rewriteCandidates(v, other, undefined, CANDIDATES_COMPARED).filter((o) => sessionsAgree(own, this.requestsOf(viewOf(o, other))));
    if (fitting.length !== 1) return undefined;
    const o = fitting[0]!;
    const theirs = this.requestsOf(viewOf(o, other));
    const back = this.rewriteCandidates(viewOf(o, other), side, h, CANDIDATES_COMPARED).filter((x) => sessionsAgree(theirs, this.requestsOf(viewOf(x, side))));
    return back.length === 1 && back[0] === h ? o : undefined;
  }

  /** The requests a candidate session held besides its initialize: JSON-RPC id to fingerprint. */
  private requestsOf(v: AttemptView): Map<string, number> {
    const out = new Map<string, number>();
    for (const e of this.candidateSessions.get(`${v.side}|${v.session}`) ?? []) {
      const w = v.side === 'client' ? e.attempt.client : e.attempt.server;
      if (w && w.session === v.session && w.method !== 'initialize') out.set(w.idKey, e.fp);
    }
    return out;
  }

  /** The view's session id is not in the other side's log: it cannot join by its own id. */
  private ownSessionOnly(v: AttemptView): boolean {
    const seen = this.opts.seenOn;
    if (!seen || v.session === null) return true;
    return v.side === 'client' ? !seen('server', v.session) && !seen('gateway', v.session) : !seen('client', v.session);
  }

  /**
   * A released initialize with one side's view and a session id that the other side's log does not show: when exactly
   * one initialize of the other side fits it (see rewriteCandidates) and it fits only this one, the two are one
   * exchange whose session id something between them rewrote (a gateway that gives the client ids of its own). They
   * are joined, the client's session id is paired with the server's, and the client session's requests held so far
   * wait under the server's (see keyOf). More than one fitting, the requests the sessions sent after it may tell
   * which (disambiguate); if they do not, they are kept apart, and so are the others that fitted.
   */
  private pairRewritten(h: Held): void {
    const a = h.attempt;
    const v = a.client ?? a.server!;
    const side = v.side === 'client' ? 'client' : 'server';
    const other = side === 'client' ? 'server' : 'client';
    if (v.session === null || this.sharedSession || !this.ownSessionOnly(v)) return;
    const found = this.rewriteCandidates(v, other);
    if (found.length === 0) return;
    let o = found[0]!;
    const back = found.length === 1 && !o.apart ? this.rewriteCandidates(viewOf(o, other), side, h) : [];
    let told = false;
    if (found.length > 1 || o.apart || back.length !== 1 || back[0] !== h) {
      const byRequests = o.apart ? undefined : this.disambiguate(h, v, side, other);
      if (byRequests) [o, told] = [byRequests, true];
      else {
        for (const x of [h, ...found, ...back]) {
          if (x.apart) continue;
          x.apart = true;
          const c = x.attempt.client;
          if (c?.session != null) this.pairs.leftApart(c.session);
        }
        return;
      }
    }
    const w = viewOf(o, other);
    const clientSession = (side === 'client' ? v : w).session!;
    const held = this.candidateSessions.get(`client|${clientSession}`) ?? [];
    this.unwait(o, this.keyOf(w));
    this.absorb(h, o, side);
    const c = a.client!;
    const s = a.server!;
    this.pairs.pair(c.session!, s.session!, told);
    const note = `the client's view of it has the session id ${quoteId(c.session!)}, the server's ${quoteId(s.session!)}: something between them (a gateway) gives the client session ids of its own; ${told ? 'paired by this initialize exchange and the requests after it (more than one initialize of the other log had its JSON-RPC id, HTTP status, clientInfo and protocol version within --skew; only this session sent the same calls under the same JSON-RPC ids)' : 'paired by this initialize exchange (the only one of the other log with its JSON-RPC id, HTTP status, clientInfo and protocol version within --skew)'}, the session's requests are joined by JSON-RPC id`;
    c.detail = { ...c.detail, why: c.detail?.why ? `${c.detail.why}; ${note}` : note };
    a.detail = c.detail;
    this.rekey(held);
  }

  /**
   * A client session paired with a server session of another id: its client views still held (`held`, in the order
   * they came) move from their own session's keys to the server's, each joining the server's view with its JSON-RPC id
   * and HTTP status there (as add() does).
   */
  private rekey(held: Held[]): void {
    for (const e of held) {
      if (e.emitted || e.attempt.server || !e.attempt.client) continue;
      const view = e.attempt.client;
      const old = joinKey(view);
      const from = this.waiting.get(old);
      const at = from?.indexOf(e) ?? -1;
      if (!from || at === -1) continue;
      from.splice(at, 1);
      if (from.length === 0) this.waiting.delete(old);
      const key = this.keyOf(view);
      const q = this.waiting.get(key);
      const idx = q ? q.findIndex((o) => !o.emitted && pairable(o, 'client') && sameId(o, view) && otherStatus(o, 'client') === view.status) : -1;
      if (q && idx !== -1) {
        const o = q[idx]!;
        q.splice(idx, 1);
        if (q.length === 0) this.waiting.delete(key);
        this.absorb(e, o, 'client');
        const end = e.attempt.server!.endTs ?? e.attempt.server!.startTs;
        if (end !== undefined && end + this.opts.windowMs > e.deadline) {
          e.deadline = end + this.opts.windowMs;
          this.enqueue(e);
        }
        continue;
      }
      if (q) q.push(e);
      else this.waiting.set(key, [e]);
    }
  }

  /** A released attempt leaves the claims' indexes. */
  private unindex(h: Held): void {
    if (!this.indexed) return;
    const a = h.attempt;
    const idk = `${a.primary.idKey}|${a.method}`;
    const list = this.byId.get(idk);
    if (list?.delete(h) && list.size === 0) this.byId.delete(idk);
    if (a.tool === null) return;
    const set = this.byTool.get(a.tool);
    if (set?.delete(h) && set.size === 0) this.byTool.delete(a.tool);
  }

  /**
   * An initialize whose client view got no session id, while the server's view of it assigned one (or the reverse
   * order): one attempt, as near in time as the clocks allow, with the same id and status. Its why says the header
   * was lost between them. Only for a client view that logged the response's headers (none was Mcp-Session-Id).
   * Also an initialize whose server's log kept neither its answer nor its response headers (express-winston's,
   * Fastify's lines: the session it gave is not in that log) beside the client's view of it with its session.
   */
  private pairedAcrossDroppedSession(view: AttemptView): boolean {
    const client = view.side === 'client';
    const dropped = client ? view.session === null && view.noSessionHeader === true : isServerish(view.side) && view.session !== null;
    const unlogged = client ? view.session !== null : headerlessInit(view);
    if (!dropped && !unlogged) return false;
    const near = (h: Held) => view.startTs === undefined || h.attempt.startTs === undefined || Math.abs(h.attempt.startTs - view.startTs) <= this.opts.skewMs;
    const i = this.lonelyInits.findIndex((h) => {
      if (h.emitted || !pairable(h, view.side) || !sameId(h, view) || otherStatus(h, view.side) !== view.status || !near(h)) return false;
      const other = client ? h.attempt.server! : h.attempt.client!;
      // What each initialize said, where both views kept it: two clients that start together behind such a hop are
      // told apart by their clientInfo, not by whose answer the hop passed on first.
      if (!sameAsked(other, view) || !answersAgree(other, view)) return false;
      if (!dropped) return client ? headerlessInit(other) : other.session !== null;
      return client ? other.session !== null : other.session === null && other.noSessionHeader === true;
    });
    if (i === -1) return false;
    if (!dropped) return this.pairWithUnloggedSession(this.lonelyInits.splice(i, 1)[0]!, view);
    const h = this.lonelyInits.splice(i, 1)[0]!;
    this.unwait(h, joinKey(h.attempt.client ?? h.attempt.server!));
    this.merge(h.attempt, view);
    const sid = h.attempt.server!.session!;
    h.attempt.session = sid;
    const note = `the server's response set Mcp-Session-Id ${JSON.stringify(sid.slice(0, 80))}, which the client's view of it lacks: something between them removed the header (a browser also hides it when CORS does not expose it), so the client sends its next requests without a session id`;
    const c = h.attempt.client!;
    c.detail = { ...c.detail, why: c.detail?.why ? `${c.detail.why}; ${note}` : note };
    h.attempt.detail = c.detail;
    const end = view.endTs ?? view.startTs;
    if (end !== undefined && end + this.opts.windowMs > h.deadline) {
      h.deadline = end + this.opts.windowMs;
      this.enqueue(h);
    }
    return true;
  }

  /** The client's and the server's views of one initialize, the server's log without the session it gave: the client's session is the attempt's. */
  private pairWithUnloggedSession(h: Held, view: AttemptView): boolean {
    this.unwait(h, joinKey(h.attempt.client ?? h.attempt.server!));
    if (h.initKey !== undefined) this.unlistInit(h);
    this.merge(h.attempt, view);
    h.attempt.session = h.attempt.client!.session;
    const end = view.endTs ?? view.startTs;
    if (end !== undefined && end + this.opts.windowMs > h.deadline) {
      h.deadline = end + this.opts.windowMs;
      this.enqueue(h);
    }
    return true;
  }

  private fromView(view: AttemptView): Attempt {
    const a: Attempt = {
      seq: this.seq++,
      primary: view,
      others: [],
      side: view.side,
      session: view.session,
      id: view.id,
      method: view.method,
      tool: view.tool,
      status: view.status,
      outcome: view.outcome!,
      layer: view.layer!,
      detail: view.detail!,
      findings: [],
      startTs: view.startTs,
      endTs: view.endTs,
      // Every field present from the start, so all attempts share one hidden class (see newAttemptView).
      client: view.side === 'client' ? view : undefined,
      server: isServerish(view.side) ? view : undefined,
      idText: view.idText,
      serverOutcome: undefined,
      serverSession: undefined,
      notSeenByServer: undefined,
      serverUnread: undefined,
      gatewayLine: undefined,
      gatewayReason: undefined,
      claim: undefined,
      claimOnly: undefined,
      callClaim: undefined,
      call: undefined,
      attempt: undefined,
      continuation: undefined,
      continued: undefined,
      retryOrigin: undefined,
      reconnectedBefore: undefined,
    };
    return a;
  }

  private merge(a: Attempt, view: AttemptView): void {
    if (view.side === 'client') {
      a.client = view;
      a.primary = view;
      a.side = 'client';
      a.status = view.status;
      a.outcome = view.outcome!;
      a.layer = view.layer!;
      a.detail = view.detail!;
      if (a.session === null || (view.session !== null && a.server?.session === a.session)) a.session = view.session;
    } else {
      a.server = view;
    }
    if (a.client && a.server) {
      reconcileViews(a, a.client, a.server);
      a.serverOutcome = a.server.outcome!;
      if (a.client.session !== null && a.server.session !== null && a.client.session !== a.server.session) a.serverSession = a.server.session;
      else if (a.client.session !== null && a.client.session === a.server.session) this.sharedSession = true;
    }
    const before = a.startTs;
    if (a.startTs === undefined || (view.startTs !== undefined && view.side === 'client')) a.startTs = view.startTs ?? a.startTs;
    if (view.side === 'client') a.endTs = view.endTs ?? a.endTs;
    if (before !== undefined && a.startTs !== before) this.startMoved(a);
  }

  /**
   * An attempt held from its server's view took its client's, which started at another time (a hop held the request
   * before passing it on): its place among the held attempts of its call (start order) follows, so an earlier attempt
   * of the call still goes to the call linker before a retry of it (see waitsForEarlier and flush).
   */
  private startMoved(a: Attempt): void {
    const start = a.startTs!;
    for (const fp of [a.server?.fingerprint, a.client?.fingerprint]) {
      const list = fp === undefined ? undefined : this.sameCall.get(fp);
      if (!list) continue;
      // (From the end: it went in lately, by its server's start. A list of one popular request can be long.)
      let i = list.length - 1;
      while (i >= 0 && list[i]!.attempt !== a) i--;
      if (i === -1) continue;
      // (Earlier, or later where the server's clock is behind the client's.)
      let j = i;
      while (j > 0 && list[j - 1]!.attempt.startTs! > start) j--;
      if (j === i) while (j < list.length - 1 && list[j + 1]!.attempt.startTs! < start) j++;
      if (j !== i) list.splice(j, 0, list.splice(i, 1)[0]!);
      return;
    }
  }
}

// origin: a request from another web origin is another client (calls.ts)
const KEPT_HEADERS = ['mcp-protocol-version', 'user-agent', 'origin'];

/** Keep what the findings need of the bodies, and let the bodies go: held attempts stay small. */
function compact(view: AttemptView): void {
  view.responded = view.response !== undefined;
  const args = view.callArgs;
  view.callArgs = undefined;
  const body = (view.response ?? view.strayResponse) as { error?: { code?: unknown } } | undefined;
  const code = typeof body === 'object' && body !== null ? body.error?.code : undefined;
  if (typeof code === 'number' && Number.isInteger(code)) view.wireErrorCode = code;
  if (view.outcome === 'TASK_CREATED') {
    const id = (view.response as { result?: { task?: { taskId?: unknown } } } | undefined)?.result?.task?.taskId;
    if (typeof id === 'string') view.mintedTaskId = id.slice(0, 200);
  }
  if (view.outcome === 'INPUT_REQUIRED') {
    const state = (view.response as { result?: { requestState?: unknown } } | undefined)?.result?.requestState;
    if (typeof state === 'string') view.mintedState = signatureOf(state);
  }
  if (view.method === 'tools/call' && view.response !== undefined) {
    const result = (view.response as { result?: { content?: unknown; isError?: unknown; structuredContent?: unknown } }).result;
    if (typeof result === 'object' && result !== null && Array.isArray(result.content) && result.content.length > 0) {
      view.resultSig = resultDigest(result.content, result.isError === true);
      if (view.session !== null && args !== undefined) {
        const named = namedArguments(result.content, args);
        if (named !== undefined) view.namedArgs = named;
      }
    }
  }
  if (view.method === 'tools/list' && view.response !== undefined) {
    const tools = readToolAnnotations(view.response);
    if (tools) view.toolList = tools;
  }
  if (view.initialize && view.response !== undefined) {
    const result = (view.response as { result?: { serverInfo?: unknown; protocolVersion?: unknown } }).result;
    if (typeof result === 'object' && result !== null) {
      if (view.method === 'server/discover') {
        const meta = (result as { _meta?: unknown })._meta;
        if (typeof meta === 'object' && meta !== null) view.initialize.serverInfo = (meta as Record<string, unknown>)['io.modelcontextprotocol/serverInfo'];
      } else {
        view.initialize.serverInfo = result.serverInfo;
        view.initialize.protocolVersion = result.protocolVersion;
        // Capabilities without `tools`: the server offers no tools/list (McpServer without a tool answers it -32601).
        const caps = (result as { capabilities?: unknown }).capabilities;
        if (typeof caps === 'object' && caps !== null && !('tools' in caps)) view.noTools = true;
        // The features of other requests it did not announce (resources.subscribe: absent or false), for a -32601 to them.
        if (typeof caps === 'object' && caps !== null) {
          const c = caps as Record<string, unknown>;
          const missing = ['logging', 'prompts', 'resources', 'completions'].filter((k) => !(k in c));
          const res = c.resources;
          if (typeof res !== 'object' || res === null || (res as { subscribe?: unknown }).subscribe !== true) missing.push('resources.subscribe');
          view.noCaps = missing;
        }
      }
    }
  }
  if (view.strayResponse !== undefined && pythonTookStray(view)) view.strayTakenId = (view.strayResponse as { id: JsonRpcId }).id;
  // Assigned, not deleted: delete would turn every view into a slow dictionary-mode object.
  view.response = undefined;
  view.strayResponse = undefined;
  if (view.requestHeaders) {
    // Only the headers the views show are kept.
    const kept = new Map<string, string>();
    for (const name of KEPT_HEADERS) {
      const v = view.requestHeaders.get(name);
      if (v !== undefined) kept.set(name, v);
    }
    // Refused for its Accept or Content-Type: kept to compare with what the other side's view received.
    if (view.status === 406 || view.status === 415) {
      for (const name of REFUSABLE_HEADERS) {
        const v = view.requestHeaders.get(name);
        if (v !== undefined) kept.set(name, v);
      }
    }
    view.requestHeaders = kept.size ? kept : undefined;
  }
}

/**
 * The key the two sides' views meet on: session, the id's text, method (and tool without a session). The id's text,
 * not its type, so a source that stringifies ids (OpenTelemetry, Kong) can still meet a typed one; sameId() then
 * insists on the type when both sides kept it.
 */
function joinKey(v: AttemptView, session = v.session): string {
  return `${session ?? ''}|${v.idText ?? String(v.id)}|${v.method}|${session === null ? v.tool ?? '' : ''}`;
}

/** The key views meet on across a session id the client's log lacks: the id's text, method and tool. */
function looseKey(v: AttemptView): string {
  return `${v.idText ?? String(v.id)}|${v.method}|${v.tool ?? ''}`;
}

/**
 * A client's view that names no session id: from a message log (no HTTP layer), or from an HTTP log that did not
 * record Mcp-Session-Id (a logger that left the header out). It may meet a server view with a session by looseKey.
 */
const looseClient = (v: AttemptView): boolean => v.side === 'client' && v.session === null && !neverSent(v);
/** A client's request whose connection could not be made (noResponse 'connect-failed'): no server's view can be its. */
const neverSent = (v: AttemptView | undefined): boolean => v?.noResponse === 'connect-failed';
const looseServer = (v: AttemptView): boolean => v.side === 'server' && v.session !== null;
/** The mirror: a server's view that names no session id, and a client's view that names one (see Matcher.mirrorOn). */
const mirrorServer = (v: AttemptView): boolean => v.side === 'server' && v.session === null;
const mirrorClient = (v: AttemptView): boolean => v.side === 'client' && v.session !== null && !neverSent(v);
/**
 * An initialize refused over HTTP (4xx/5xx): it names no session because none was opened, not because the log leaves
 * session ids out, so it does not start the loose join (which then holds every server view for the rest of the run).
 */
const refusedOpening = (v: AttemptView): boolean => v.method === 'initialize' && typeof v.status === 'number' && v.status >= 400;

/**
 * How well a session-less client view and a server view fit as one request: 0 not at all (the server's started
 * more than `skewMs` outside the client's request, or the two got different results), 2 the same answer (result
 * digest, error code, or the same outcome of an answered request), 1 nothing to compare (one side has no answer).
 */
function looseFit(c: AttemptView, s: AttemptView, skewMs: number): number {
  if (c.startTs !== undefined && s.startTs !== undefined && (s.startTs < c.startTs - skewMs || s.startTs > (c.endTs ?? c.startTs) + skewMs)) return 0;
  if (c.resultSig !== undefined && s.resultSig !== undefined) return c.resultSig === s.resultSig ? 2 : 0;
  // A result cannot have come from an HTTP error that carried no response.
  if (c.responded === true && !s.responded && typeof s.status === 'number' && s.status >= 400 && (c.outcome === 'SUCCESS' || c.outcome === 'TOOL_SUCCESS' || c.outcome === 'TOOL_ERROR')) return 0;
  if (c.wireErrorCode !== undefined && s.wireErrorCode !== undefined) return c.wireErrorCode === s.wireErrorCode ? 2 : 1;
  return c.responded === true && s.responded === true && c.outcome === s.outcome ? 2 : 1;
}

/**
 * How a waiting client entry and a server entry fit as one request (looseFit, and the gap between their starts), or
 * undefined: either is out or paired already (`include` counts though released), or they differ in id or arguments.
 */
function looseFitOf(c: Held, s: Held, skewMs: number, include?: Held): { rank: number; gap: number } | undefined {
  if ((c.emitted && c !== include) || (s.emitted && s !== include) || c.fp !== s.fp) return undefined;
  const cv = c.attempt.client;
  const sv = s.attempt.server;
  if (!cv || !sv || c.attempt.server || s.attempt.client || !sameId(s, cv)) return undefined;
  // Across a session id only one of the two logs names: two that both name one (or neither) are joined by it, or not at all.
  if ((cv.session === null) === (sv.session === null)) return undefined;
  const rank = looseFit(cv, sv, skewMs);
  if (rank === 0) return undefined;
  return { rank, gap: cv.startTs === undefined || sv.startTs === undefined ? Infinity : Math.abs(cv.startTs - sv.startTs) };
}

/**
 * Two held entries, a client's message view (no HTTP layer) and a server's view, whose answers cannot be one request's
 * (see looseFit): a desktop's initialize answered over a bridge's fallback transport is not the POST the server refused.
 */
function answersContradict(h: Held, o: Held): boolean {
  const c = h.attempt.client ?? o.attempt.client;
  const s = h.attempt.server ?? o.attempt.server;
  if (!c || !s || c.http) return false;
  return looseFit(c, s, Infinity) === 0;
}

/**
 * The first held entry that fits; without a session, one with the same arguments (fingerprint) before one without,
 * and of those the one whose start is nearest the view's. There one key can hold
 * several POSTs of one call: a client that began anew (a new 2026-07-28 Python SDK Client after a reset) sends its
 * retry with the same id and arguments, and the first that fits may be another attempt's view.
 */
function nearestIndex(queue: Held[], fits: (h: Held) => boolean, view: AttemptView, gapOf?: (h: Held) => number): number {
  if (view.session !== null || view.startTs === undefined) return queue.findIndex(fits);
  let best = -1;
  let bestSame = false;
  let gap = Infinity;
  for (let i = 0; i < queue.length; i++) {
    const h = queue[i]!;
    if (!fits(h)) continue;
    // The same arguments first (clients that share ids call other things), then the nearest in time.
    const same = h.fp === view.fingerprint;
    const d = gapOf ? gapOf(h) : h.attempt.startTs === undefined ? Infinity : Math.abs(h.attempt.startTs - view.startTs);
    if (best === -1 || (same && !bestSame) || (same === bestSame && d < gap)) {
      best = i;
      bestSame = same;
      gap = d;
    }
  }
  return best;
}

/** A server's view of an initialize from a log that kept neither its answer nor its response headers: the session it gave is unknown. */
function headerlessInit(v: AttemptView): boolean {
  return isServerish(v.side) && v.session === null && v.noSessionHeader !== true && v.bodyNotCaptured === true;
}

/**
 * Whether held entries a and b (one a client's view, the other a server's) may be one exchange by their times: the
 * server's view started no earlier than the client's and before the client's ended (true where a time is missing).
 */
function inTime(a: Held, b: Held): boolean {
  const c = a.attempt.client ?? b.attempt.client;
  const s = a.attempt.client ? b.attempt.server : a.attempt.server;
  if (!c || !s || c.startTs === undefined || s.startTs === undefined) return true;
  return s.startTs >= c.startTs && (c.endTs === undefined || s.startTs <= c.endTs);
}

/**
 * How far apart held entries a and b (one view each) are in time: their starts' gap plus their ends' where both
 * ended. A hop in front of a loaded server delays each request's arrival by more than the gap between several
 * clients' same requests sent at once, while a hop's answer in place of the server's (a 502 after it, a stream cut
 * with the server's head) comes as the server's exchange ends: the ends tell them apart (test/fixtures/real-audit85).
 */
function spanGap(a: Held, b: Held): number {
  return spanGapTo(a.attempt.primary, b.attempt.primary);
}

function spanGapTo(x: AttemptView, y: AttemptView): number {
  if (x.startTs === undefined || y.startTs === undefined) return Infinity;
  return Math.abs(x.startTs - y.startTs) + (x.endTs !== undefined && y.endTs !== undefined ? Math.abs(x.endTs - y.endTs) : 0);
}

/**
 * Two sessionless views of one side, in two inputs, that may be one request given twice (see noteOverlap): no two
 * connections or clients the records name, where both logs saw the HTTP exchange the same start and end within 5 ms,
 * and no two different tool results.
 */
function sameTrafficSessionless(a: AttemptView, b: AttemptView): boolean {
  if (!a.scope.startsWith('input#') && !b.scope.startsWith('input#') && a.scope !== b.scope) return false;
  // (Times to 5 ms where both logs saw the HTTP exchange; an app's or a server's own log writes its line of a request
  // or an answer when its code gets to it, so there the second the caller allows stands.)
  if (a.http && b.http) {
    if (a.startTs === undefined || b.startTs === undefined || Math.abs(a.startTs - b.startTs) > 5) return false;
    if (a.endTs !== undefined && b.endTs !== undefined && Math.abs(a.endTs - b.endTs) > 5) return false;
  }
  return resultsMayFit(a.resultSig, b.resultSig);
}

/**
 * Whether two URLs logged for requests without a session may be one: the same, or the same path where one log has
 * the path only (a server's request logger beside a recording of full URLs). One client's calls to two stateless
 * servers, alike at once, differ here.
 */
function sameEndpoint(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined || a === b) return true;
  if (a.includes('://') && b.includes('://')) return false;
  const path = (u: string) => (u.includes('://') ? u.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') || '/' : u);
  return path(a) === path(b);
}

/**
 * Whether two sessionless views' endpoints may be one (sameEndpoint), either as recorded or as the client addressed it
 * (a recording proxy's record names the target it forwarded to, its Host header the proxy the client's own log names).
 */
function endpointsMeet(a: AttemptView, b: AttemptView): boolean {
  return sameEndpoint(a.endpoint, b.endpoint) || (a.addressed !== undefined && sameEndpoint(a.addressed, b.endpoint)) || (b.addressed !== undefined && sameEndpoint(a.endpoint, b.addressed));
}

/**
 * Two sessionless views of one side, in two logs of it, that may be one request: as sameTrafficSessionless, but a log
 * of an inner layer (an app's fetch logger inside recordingFetch) ends its exchange when the headers or the body came,
 * the outer one when the stream was read: the same start to 5 ms, and one span inside the other (to 5 ms) will do.
 */
function sameSessionlessRequest(a: AttemptView, b: AttemptView): boolean {
  if (sameTrafficSessionless(a, b)) return true;
  if (!a.http || !b.http || a.startTs === undefined || b.startTs === undefined || a.endTs === undefined || b.endTs === undefined || Math.abs(a.startTs - b.startTs) > 5) return false;
  if (!a.scope.startsWith('input#') && !b.scope.startsWith('input#') && a.scope !== b.scope) return false;
  const [inner, outer] = a.endTs - a.startTs <= b.endTs - b.startTs ? [a, b] : [b, a];
  return inner.startTs! >= outer.startTs! - 5 && inner.endTs! <= outer.endTs! + 5 && resultsMayFit(a.resultSig, b.resultSig);
}

/** Two views' tool result digests (undefined: none) that may be one request's: not two different results. */
function resultsMayFit(a: number | undefined, b: number | undefined): boolean {
  return a === undefined || b === undefined || a === b;
}

/** The tool result digest of held entry h's view on the other side from `side` (undefined: none, or no tools/call result). */
function otherResult(h: Held, side: ViewSide): number | undefined {
  return side === 'client' ? h.attempt.server?.resultSig : h.attempt.client?.resultSig;
}

function sameId(h: Held, v: AttemptView): boolean {
  const other = h.attempt.client ?? h.attempt.server ?? h.attempt.primary;
  return other.weakId || v.weakId || other.idKey === v.idKey;
}

/** Two initialize views asked alike where both kept it: the same clientInfo and requested protocol version. */
function sameAsked(a: AttemptView, b: AttemptView): boolean {
  const same = (x: unknown, y: unknown) => x === undefined || y === undefined || JSON.stringify(x) === JSON.stringify(y);
  return same(a.initialize?.clientInfo, b.initialize?.clientInfo) && same(a.initialize?.requestedProtocolVersion, b.initialize?.requestedProtocolVersion);
}

/** Whether a held entry lacks the view of the side opposite to `side`. */
function pairable(h: Held, side: ViewSide): boolean {
  return side === 'client' ? !h.attempt.client && !!h.attempt.server : !!h.attempt.client && !h.attempt.server && !neverSent(h.attempt.client);
}

/** The HTTP status the held entry's view saw (the entry has only the side opposite to `side`). */
function otherStatus(h: Held, side: ViewSide): number | null | undefined {
  return side === 'client' ? h.attempt.server?.status : h.attempt.client?.status;
}

/** The field of each paginated list result that holds its items. */
const LIST_ITEMS: Record<string, string | undefined> = { 'tools/list': 'tools', 'resources/list': 'resources', 'resources/templates/list': 'resourceTemplates', 'prompts/list': 'prompts' };

/** What is kept of a list page to tell a repeated one: how many items, their digest, the nextCursor it gave. */
interface ListPage {
  items: number;
  digest: number;
  next: string | undefined;
}

/** A server's refusal of a tool as unknown, naming it: C# "Unknown tool: 'x'", the TypeScript SDK's "Tool x not found". */
const UNKNOWN_TOOL = /unknown tool|\btool\b.*\bnot found\b|no such tool/i;

/**
 * A call refused as an unknown tool although the last tools/list its client got listed that tool: the server's catalog
 * changed after that listing (a tool removed or renamed). Says so in the why; otherwise the detail as classified.
 */
function withVanishedTool(tool: string, c: { outcome: string; detail: OutcomeDetail }): OutcomeDetail {
  const d = c.detail;
  // the TypeScript SDK 1.x server makes it an isError result whose text keeps the code: "MCP error -32602: Tool x not found"
  const refused = (c.outcome === 'JSONRPC_ERROR' && d.errorCode === -32602) || (c.outcome === 'TOOL_ERROR' && d.errorMessage?.includes('-32602') === true);
  const msg = d.errorMessage;
  if (!refused || msg === undefined || !UNKNOWN_TOOL.test(msg) || !msg.includes(tool)) return d;
  const why = `${tool.slice(0, 80)} was in the last tools/list this client got before the call, and the server now refuses it as unknown: its catalog changed after that listing (the tool removed or renamed) and the client called it from the older list (a server announces such a change with notifications/tools/list_changed where it has a stream to send it on; a stateless one has none)`;
  return { ...d, why: d.why ? `${d.why}; ${why}` : why };
}

function viewClientKey(v: AttemptView): string {
  return v.caller;
}

/** The identity of a call: who sent it and what (tool and arguments). */
function callKey(a: Attempt): string {
  const v = a.client ?? a.primary;
  return `${viewClientKey(v)}|${v.fingerprint}`;
}

/** Codes the TypeScript SDK client raises itself, for a claim-only call's why. */
const LOCAL_CODE_NAMES: Record<number, string> = {
  [-32000]: 'raised inside the client SDK when the connection closed',
  [-32001]: "the client SDK's own request timeout",
};

/**
 * Held attempt o is another attempt of h's call: the same request (method, tool, arguments) in the same session (or one
 * without), and a client's view when h has one (the server's view of h itself waits apart when their statuses differ).
 */
function sameCallAs(o: Held, h: Held): boolean {
  if (h.attempt.client !== undefined && o.attempt.client === undefined) return false;
  return o.fp === h.fp && (o.attempt.session === h.attempt.session || o.attempt.session === null || h.attempt.session === null);
}

/**
 * Whether two views of one side, one without a time, may be one request (no time to pair them by): the same HTTP status
 * and result where both have one, and not an answer in one where the other got an HTTP error without one (a 503 that a
 * hop between the two logs re-posted is the other log's alone; its re-post got the answer both logs show).
 */
function untimedMayFit(o: AttemptView, v: AttemptView): boolean {
  if (typeof o.status === 'number' && typeof v.status === 'number' && o.status !== v.status) return false;
  if (!resultsMayFit(o.resultSig, v.resultSig)) return false;
  const refused = (x: AttemptView) => typeof x.status === 'number' && x.status >= 400 && x.responded !== true;
  return !((refused(o) && v.responded === true) || (refused(v) && o.responded === true));
}

/** The key of an untimed held view in Matcher.untimedHeld: side, session, JSON-RPC id and method. */
function untimedKey(v: AttemptView): string {
  return `${v.side}|${v.session}|${v.idKey}|${v.method}`;
}

/** How much a view of one side tells of its request (a response, an HTTP status, an error's body, an end): the richer of two views of it stands for that side. */
function evidenceOf(v: AttemptView): number {
  return (v.responded === true ? 8 : 0) + (typeof v.status === 'number' ? 4 : 0) + (v.errorBody !== undefined ? 2 : 0) + (v.endTs !== undefined ? 1 : 0);
}
