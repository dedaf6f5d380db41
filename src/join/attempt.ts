// One side's view of an attempt (one POST carrying one JSON-RPC request, or one request message) and its identity keys.
import type { Note } from '../schema/record.js';
import type { Layer, Outcome } from '../outcomes.js';
import type { ToolSafety } from '../findings/annotations.js';

export type JsonRpcId = string | number;

/** Where a record came from: input name and 1-based line. */
export interface Source {
  file: string;
  line: number;
}

export type ViewSide = 'client' | 'server' | 'gateway' | 'unknown';

/** A GET that tried to resume a request's stream (Last-Event-ID): its status (null: none came), its end, when it ended, and how many events with an id it carried. */
export interface Resumption { status: number | null; end?: string; startTs?: number; endTs?: number; ids?: number }

/**
 * A plain GET (no Last-Event-ID) that reconnected a broken resumption: its status (null: none came), its end and when,
 * and how long after the failure it follows (the resumption's break, or the refused plain GET before it) it was sent.
 */
export interface PlainGet { status: number | null; end?: string; endTs?: number; gap?: number }

export interface AttemptView {
  side: ViewSide;
  /** Which input the view came from (index into the run's inputs). */
  input: number;
  /** MCP session id, when the traffic had one. */
  session: string | null;
  /** Join scope: session id, else connection or client key, else the input. */
  scope: string;
  /** `side|scope`: the key of the scope's state in the join's maps, made once. */
  scopeKey: string;
  client: string | null;
  /** The caller instance: client identity plus connection key, else the input (ids are told apart by it). */
  caller: string;
  /**
   * The URL (without its query, as its log recorded it) a request without a session id went to: one client's calls to
   * two stateless servers are linked apart by it (not joined by it: a server's log records another URL than its client's).
   */
  endpoint?: string;
  /** That endpoint as the client addressed it (the Host header), where the record's URL names another host: a recording proxy's record of its target. */
  addressed?: string;
  /** What tells this record from an identical copy of it (time, exchange id or response facts): duplicates share it. */
  signature: number;
  id: JsonRpcId;
  /** Exact source text of a numeric id beyond 2^53. */
  idText?: string;
  idKey: string;
  method: string;
  tool: string | null;
  /** Canonical fingerprint of method, tool and arguments (ignoring _meta), for retry linking. */
  fingerprint: number;
  /** Follow-up of an input_required result (carries inputResponses or requestState). */
  continuation: boolean;
  /** A tools/call that asked to run as a task (params.task). */
  taskAugmented?: boolean;
  /** The taskId a tasks/get, tasks/result or tasks/cancel request names. */
  taskId?: string;
  /** The taskId a CreateTaskResult gave this tools/call (kept after compaction). */
  mintedTaskId?: string;
  /** Hash of the requestState a follow-up echoes, to find the input_required result that minted it. */
  echoedState?: number;
  /** A follow-up's first inputResponses entry the client answered other than accept (an elicitation declined or cancelled). */
  inputAnswer?: { key: string; action: string };
  /** Hash of the requestState an input_required result minted (kept after compaction). */
  mintedState?: number;
  /** Whether the source has an HTTP layer (false: HTTP outcomes are not observable). */
  http: boolean;
  /** Whether ids were stringified by the source (a join on them is weak). */
  weakId: boolean;
  /** The response was rebuilt from metadata (OTLP span attributes), not read from a body. */
  rebuilt?: boolean;
  /** The source leaves some responses out (SourceLimits.answersUnlogged): no response in it shows nothing. */
  answersUnlogged?: boolean;
  /** A message log proves no HTTP response came (its record's noResponse): the connection failed before the request was sent, or closed or timed out before a head. */
  noResponse?: 'connect-failed' | 'no-head';
  /** A message log proves an answer came in a body it does not hold (its record's bodyUnlogged): what it shows of it. */
  unloggedAnswer?: string;
  /** That answer came as JSON where the same client transport's other answers came on SSE streams (bodyUnlogged 'unlike'). */
  unloggedUnlike?: boolean;
  /** That answer was no JSON-RPC response to the request, the log shows (its record's invalidEnvelope): why. */
  unloggedEnvelope?: string;
  /** That answer was an input_required result, the log shows (its record's inputRequired: the client continued the call): why. */
  unloggedInput?: string;
  /** The request's W3C trace context (params._meta.traceparent): trace id and parent span id, one per request sent. */
  traceKey?: string;
  startTs: number | undefined;
  endTs: number | undefined;
  /** HTTP status; null: no HTTP response; undefined: not observable or not yet seen. */
  status: number | null | undefined;
  contentType: string | undefined;
  /** Retry-After of the response, in ms after the response ended. */
  retryAfterMs?: number;
  /** When the head of a refusal (HTTP 400 and up) came: the earliest its client could know the attempt failed. */
  headTs?: number;
  /** The JSON-RPC response with this request's id. */
  response?: unknown;
  /** Whether the response came on another exchange (a GET resumption). */
  resumed?: boolean;
  /** When the response with this request's id came (its record's time). */
  responseTs?: number;
  /** The client gave up on the request (its notifications/cancelled) before its response came: the outcome that late response has (the view's own outcome is what the client saw). */
  lateOutcome?: Outcome;
  /** Set when the view is classified: a response with this request's id arrived (response itself is then dropped). */
  responded?: boolean;
  /** The JSON-RPC error code the wire carried for this attempt (response or error body), kept after compaction. */
  wireErrorCode?: number;
  /** For initialize: what it announced, kept after compaction (the sessions and timeline views show it). */
  initialize?: { clientInfo?: unknown; requestedProtocolVersion?: unknown; serverInfo?: unknown; protocolVersion?: unknown };
  /** For tools/list: the tools' retry safety, kept after compaction. */
  toolList?: Map<string, ToolSafety>;
  /** The only response on the exchange, when its id is not this request's. */
  strayResponse?: unknown;
  /** That response's id, kept after compaction, where the Python SDK client took it as this request's answer. */
  strayTakenId?: JsonRpcId;
  /** First payload that did not parse, with why. */
  malformed?: string;
  /** What a non-JSON body of an HTTP error said (its first line, or an HTML page's title), for the report. */
  errorBody?: string;
  /** The protocol version a 2026-07-28 request named in its _meta (io.modelcontextprotocol/protocolVersion). */
  metaProtocol?: string;
  /** Sessionless, in a scope several clients share: how many other requests with this id its cancellation may have named. */
  cancelDoubt?: number;
  /** Only the HTTP status of the request's POST came, tied to it by its log (the Python SDK client's httpx line): why, with no body. */
  statusWhy?: string;
  /** How the response stream ended: complete, aborted, timeout, error, or cut (the log ends first, or the window closed it). */
  streamEnd?: string;
  /** The call was still open when this many ms (the engine's openMs) passed after its last record while the log went on. */
  openAfterMs?: number;
  /** The response was only in an SSE block cut before its blank line. */
  cutEvent?: boolean;
  /** What its event stream carried that was no SSE field (an error page a proxy wrote there), shortened: a client ignores it. */
  nonSseText?: string;
  /** The JSON body began with a byte order mark (U+FEFF), which a JSON parser refuses unless it drops it first. */
  bomBody?: boolean;
  /** The response had no Content-Type, and the log shows its other headers (Date, Content-Length...): it had none. */
  noContentType?: boolean;
  /** An HTTP error that came as a bare status line: no Content-Type (the log shows the other headers) and an empty body, to its end. */
  bareStatus?: boolean;
  /** The type of an SSE event on the stream (not "message") whose data was this request's response: no client took it. */
  namedEvent?: string;
  /** Its response came inside a JSON array although the request was sent alone (a batch of one). */
  batchAnswer?: boolean;
  /** Its response came on the session's standalone GET stream (one opened without Last-Event-ID), not on its own POST's. */
  onStandaloneGet?: boolean;
  /** An initialize whose 2xx response head the log has, with headers but no Mcp-Session-Id. */
  noSessionHeader?: boolean;
  /** The capture kept no response body for a 2xx response (sanitized or streamed capture): what it said is not observable. */
  bodyNotCaptured?: boolean;
  /** A 3xx response's Location (at most 200 characters). */
  redirectTo?: string;
  /** With bodyNotCaptured: the body was kept as sent, compressed (its Content-Encoding), and is not JSON as kept. */
  bodyEncoded?: string;
  /** The stream sent an event id (it can be resumed). */
  primed?: boolean;
  /** The id of the last SSE event of this request's stream (or of a GET resuming it): the Last-Event-ID that resumes it. */
  lastEventId?: string;
  /** subscriptions/listen: its stream carried notifications/subscriptions/acknowledged (the subscription was open). */
  subscribed?: boolean;
  /** The GETs that tried to resume this request's stream (Last-Event-ID): each one's HTTP status (null: none came) and end. */
  resumptions?: Resumption[];
  /**
   * The plain GETs (no Last-Event-ID) the client sent right after its last resumption broke before its first event (the
   * TypeScript SDK 1.x reconnects so: it had no event id of that stream), the first and its retries after a refusal:
   * the session's standalone stream, which does not carry this request's response.
   */
  plainGetAfter?: PlainGet[];
  /**
   * A GET that resumed this answered request's stream from an event before its answer (Last-Event-ID: the client had not
   * got it) and has replayed no answer: where it is, and what it got. Cleared when a replay carries the answer.
   */
  resumedBeforeAnswer?: { src: Source; got: Resumption; from: string; answerId?: string };
  /** SSE events on the request's own stream (a why counts these: what came before it ended). */
  sseEvents: number;
  /** Bytes of the largest SSE event on its own stream, where one may pass the Python SDK client's limit (set only then). */
  largestEvent?: number;
  /** SSE events on the GETs that resumed its stream (Last-Event-ID), where it had any: the report counts both. */
  resumedEvents?: number;
  progress: number;
  /** How long nothing had come on its stream (since its head, its last event or SSE comment) when the stream broke (ended `error` or `aborted`) without the response. */
  quietMs?: number;
  /**
   * SSE comment lines (`: keepalive`, `: ping`) on its own stream, and when the last of them came where the log tells (a
   * streaming recorder's end record does, a whole body does not); set only when there were any.
   */
  keepAlive?: { count: number; lastTs: number | undefined };
  /** When the last of its progress notifications came (at most PROGRESS_TIMES_KEPT), where the log gives each event its time. */
  progressAt?: number[];
  /**
   * The id the client's caller gave this tool call in `_meta.callId` (Codex: the model's function call id): a later
   * request that carries the same one re-sends that call, where a new call by the caller would carry a new one.
   */
  callerCallId?: string;
  /** The progressToken the request asked for (`_meta.progressToken`, as an id key): progress is counted by it. */
  progressToken?: string;
  serverRequests: number;
  /**
   * What a request of another feature acts on, as its params name it: resources/read's (subscribe's) `uri`,
   * prompts/get's prompt `name`, completion/complete's `ref` (a prompt's name or a template's uri). Log text, capped.
   */
  target?: string;
  /**
   * The server's log messages (notifications/message) on this request's stream: how many, and the most severe one
   * (the first of that level), its data as text. A log message is no result: the outcome never reads it. `undeclared`:
   * the session's initialize had announced no logging capability, which a server that sends log messages MUST declare.
   */
  logs?: { count: number; level: string; rank: number; logger?: string; data: string; undeclared?: true; onGet?: true };
  /** For initialize: its result's capabilities have no `tools` (the server offers no tools/list). */
  noTools?: true;
  /** For initialize: the capabilities of other features its result did not announce (logging, prompts, resources, completions, resources.subscribe). */
  noCaps?: string[];
  /** The server's own requests on this attempt's stream (elicitation/create, sampling/createMessage, roots/list, ping). */
  asked?: { id: string | number; method: string; onGet?: boolean }[];
  /** One of them the server cancelled itself (its notifications/cancelled on the stream): the client had not answered. */
  askCancelled?: { id: string | number; method: string; ts: number | undefined; reason: string | undefined; answeredAfterMs?: number };
  /** The client's answer to a request the server sent on this call's stream got an HTTP error on its way (its POST's status). */
  askAnswerRefused?: { id: string | number; status: number };
  /** One of them the client answered with an error (a client without that capability: -32601). */
  askRefused?: { id: string | number; method: string; code: unknown; message: string | undefined };
  /** `name/version` of the client that sent the request, when the request names it (initialize's clientInfo, or the
   * `io.modelcontextprotocol/clientInfo` every 2026-07-28 request carries in its _meta). */
  clientName?: string;
  /** Sent on the 2024-11-05 HTTP+SSE transport: the POST's 202 is its normal answer, the response comes on the GET stream. */
  legacySse?: boolean;
  /** On that transport, when the GET stream that was to carry the response broke. */
  legacyCutAt?: number;
  /** A tools/list request that asked for a later page (it carried a cursor): its tools add to the earlier pages'. */
  nextPage?: boolean;
  /** The cursor a list request (tools/list, resources/list, ...) sent, to tell a nextCursor that hands it back. */
  listCursor?: string;
  /** The client sent notifications/cancelled for this request. */
  cancelled?: boolean;
  /**
   * Its client's notifications/cancelled for its own timeout came `ms` after this request's answer (a result) had
   * ended in this log, at `ts` (the two crossed): its caller got the timeout error, not that answer (see
   * CallLinker: a like request after it is its retry).
   */
  crossedTimeout?: { ts: number; ms: number };
  /** When the cancellation was sent. */
  cancelledAt?: number;
  /** In the server's view: its notifications/cancelled came this many ms before the request itself (it overtook it on the way). */
  cancelOvertook?: number;
  /** Where an untimed log has the cancellation (no cancelledAt): its response, later in the same file, came after it. */
  cancelSrc?: Source;
  /** In a log without times: the response came after the client's notifications/cancelled, by the lines of one file. */
  answeredAfterCancelInLog?: { cancel: Source; answer: Source };
  /** The reason the cancellation gave (`params.reason`: the TypeScript SDK puts the AbortSignal's reason or its timeout error there). */
  cancelReason?: string;
  /**
   * The POST that carried that notifications/cancelled ended without any response (how it ended: aborted, error): the
   * client closed it at once (mcporter closes its whole connection on a timeout), so the cancellation may never have left it.
   */
  cancelLost?: string;
  /** When the POST that carried that notifications/cancelled got its answer's end (a 202): see RETRY_POLICY's queued wait. */
  cancelAnsweredAt?: number;
  /** Connection or stream error text. */
  error?: string;
  /** A 401 or 403 that carried WWW-Authenticate: an authentication challenge (RFC 6750), not some other refusal. */
  authChallenge?: boolean;
  /** The request carried a Mcp-Session-Id header (a 404 then means "session expired"). */
  sentSession: boolean;
  requestHeaders?: Map<string, string>;
  /**
   * A signature of the request's Authorization header (of '' when it had none), when its record kept the request's
   * headers: a request re-sent after a 401 with the same credentials was not the SDK's auth retry (which sends the new token).
   */
  authDigest?: number;
  note?: Note;
  sources: Source[];
  /** The join engine has handed the view on; nothing changes it there any more. */
  final: boolean;
  /** Responses on this attempt's exchange whose ids match no request of the session. */
  orphans?: Orphan[];
  /** A digest of a tools/call result that carried content (kept after compaction): a copy of it in another session is seen. */
  resultSig?: number;
  /** A tools/call's arguments, held only until the view is compacted. */
  callArgs?: unknown;
  /** A tools/call whose request, as logged, has no arguments (an OpenTelemetry span records none; a tool without parameters). */
  noArgs?: boolean;
  /** The response handed out another Mcp-Session-Id than the request was sent with, outside an initialize (SESSION_ID_CHANGED). */
  sessionReassigned?: { from: string; to: string };
  /** Its -32602 came from the tool while it ran (the arguments keep the listed tool's inputSchema), not from a check of the request. */
  toolRaised?: boolean;
  /** The argument values of this tools/call that its result names (findings/crossed.ts): whose answer a crossed result is. */
  namedArgs?: string[];
  /** An earlier request with the same id was still open in the scope when this one was sent. */
  reusedWhileOpen?: Source;
  /**
   * The request went without a session id soon after its caller's DELETE of a session, with no initialize between:
   * the client dropped that session (the TypeScript SDK 1.x does so whatever the server answered the DELETE).
   */
  afterDelete?: DeleteSent;
  /**
   * An accepted DELETE of the session came while this request's stream was open (the stream ends with the session):
   * by this view's caller (`self`), by another caller of a client's log (`other`), in a log that cannot tell who sent it
   * (`unknown`: a server's, a proxy's, a HAR), or only in the server's log beside the client's (`unseen`).
   */
  sessionDeleted?: SessionDeleted;
  /** Its notifications/cancelled went without the session id, which the client had dropped with its DELETE of the session. */
  cancelWithoutSession?: boolean;
  /** That earlier open request: it takes the id back when this one is final (a cancellation then finds it). */
  shadowed?: AttemptView;
  /** The log holds no end of this view's exchange (open at its last record, or closed by the window): the stream may have lasted longer than endTs says. */
  endUnseen?: boolean;
  /** A server/discover probe that failed, after which its client sent initialize in the same scope: an older server, as the spec's era detection expects. */
  versionFallback?: boolean;
  /** A server/discover probe that failed otherwise (not a refusal by an older server), after which its client sent initialize all the same. */
  fellBackAfterFailure?: boolean;
  /** A later attempt was linked to this one as its retry. */
  retried?: boolean;
  /** A later attempt of its call was sent in another session (after a 404: in the one the client re-initialized). */
  retriedInNewSession?: boolean;
  /** That later attempt came from a new run of a one-shot CLI (calls.ts oneShotCli): what it is and its name. */
  rerunBy?: string;
  /** Order of creation, for stable output. */
  seq?: number;
  outcome?: Outcome;
  layer?: Layer;
  /** Details behind the outcome: error code and message, the envelope problem, ... */
  detail?: OutcomeDetail;
}

/** The most bytes the Python SDK client's SSE parser takes in one event by default (max_sse_event_size, httpx2's EventSource). */
export const PY_SSE_EVENT_LIMIT = 1024 * 1024;

/** The fields a view is made with. */
type ViewCore = Pick<
  AttemptView,
  | 'side' | 'input' | 'session' | 'scope' | 'scopeKey' | 'client' | 'caller' | 'signature' | 'id' | 'idKey' | 'method' | 'tool'
  | 'fingerprint' | 'continuation' | 'http' | 'weakId' | 'startTs' | 'endTs' | 'status' | 'contentType' | 'sseEvents'
  | 'progress' | 'serverRequests' | 'sentSession' | 'sources' | 'final'
>;

/**
 * A new view. Its fields, and the optional ones most views get (set to undefined until known), are made in one order,
 * so V8 gives nearly all views one hidden class and the join, the classifier and the report read them quickly; the
 * rare fields are added when needed. A view built field by field took one of hundreds of shapes, and every read of a
 * view went through V8's megamorphic lookup (bench/RESULTS.md, stop 19). Making every optional field present as well
 * cost 12 MB more peak memory on the bench's 1 GB pair.
 */
export function newAttemptView(c: ViewCore): AttemptView {
  return {
    side: c.side,
    input: c.input,
    session: c.session,
    scope: c.scope,
    scopeKey: c.scopeKey,
    client: c.client,
    caller: c.caller,
    signature: c.signature,
    id: c.id,
    idKey: c.idKey,
    method: c.method,
    tool: c.tool,
    fingerprint: c.fingerprint,
    continuation: c.continuation,
    http: c.http,
    weakId: c.weakId,
    startTs: c.startTs,
    endTs: c.endTs,
    status: c.status,
    contentType: c.contentType,
    sseEvents: c.sseEvents,
    progress: c.progress,
    serverRequests: c.serverRequests,
    sentSession: c.sentSession,
    sources: c.sources,
    final: c.final,
    // (Every request without a session id has one: made with the view, not added after it.)
    endpoint: undefined,
    addressed: undefined,
    idText: undefined,
    retryAfterMs: undefined,
    headTs: undefined,
    response: undefined,
    responseTs: undefined,
    strayResponse: undefined,
    strayTakenId: undefined,
    responded: undefined,
    wireErrorCode: undefined,
    initialize: undefined,
    noCaps: undefined,
    streamEnd: undefined,
    primed: undefined,
    lastEventId: undefined,
    progressToken: undefined,
    clientName: undefined,
    requestHeaders: undefined,
    authDigest: undefined,
    note: undefined,
    resultSig: undefined,
    callArgs: undefined,
    noArgs: undefined,
    sessionReassigned: undefined,
    toolRaised: undefined,
    namedArgs: undefined,
    shadowed: undefined,
    seq: undefined,
    outcome: undefined,
    layer: undefined,
    detail: undefined,
  };
}

/** A DELETE of a session by a caller, and what the server answered it (null: nothing; undefined: not yet). */
interface SessionDeleted { src: Source; ts: number | undefined; status: number; who: 'self' | 'other' | 'unknown' | 'unseen'; caller: string }

export interface DeleteSent {
  session: string;
  ts: number | undefined;
  status: number | null | undefined;
}

export interface OutcomeDetail {
  errorCode?: number;
  errorMessage?: string;
  errorData?: unknown;
  resultType?: string;
  why?: string;
}

/** Key of a JSON-RPC id that keeps its type: 1 and "1" differ. */
export function idKeyOf(id: JsonRpcId, idText?: string): string {
  return typeof id === 'string' ? `s:${id}` : `n:${idText ?? String(id)}`;
}

export function isJsonRpcId(v: unknown): v is JsonRpcId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/**
 * The key of a scope's state in the join's maps: `side|scope`. An input given without a side, whose records state none,
 * keys its scopes by itself (`unknown#3|scope`): two plain files (a client's and a server's log of the same sessions)
 * are analyzed apart, so their views never meet as one scope's (no ID_REUSED, duplicate or orphan across them).
 */
export function scopeKeyOf(side: ViewSide, input: number, scope: string): string {
  return side === 'unknown' ? `unknown#${input}|${scope}` : `${side}|${scope}`;
}

/** The caller instance of a request: who sent it (client identity and connection), else which input it came from. */
export function callerKey(client: string | undefined | null, conn: string | undefined | null, input: number): string {
  if (client && conn) return `${client}|${conn}`;
  return client ?? conn ?? `input#${input}`;
}

/** `name/version` of an MCP Implementation object (clientInfo), or undefined when it names nothing. */
export function implementationName(info: unknown): string | undefined {
  if (typeof info !== 'object' || info === null) return undefined;
  const { name, version } = info as { name?: unknown; version?: unknown };
  if (typeof name !== 'string' || name === '') return undefined;
  return (typeof version === 'string' && version !== '' ? `${name}/${version}` : name).slice(0, 200);
}

/**
 * The session of a 2024-11-05 HTTP+SSE POST, which names it in its URL (`/messages?sessionId=...`, from the GET
 * stream's `endpoint` event) instead of a header; null when the URL has none.
 */
export function legacySessionOf(url: string | undefined): string | null {
  if (url === undefined) return null;
  const q = url.indexOf('?');
  if (q === -1) return null;
  const m = /(?:^|&)session_?[iI]d=([^&#]+)/.exec(url.slice(q + 1));
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!).slice(0, 200);
  } catch {
    return m[1]!.slice(0, 200);
  }
}

/**
 * A response no waiting request took: `after` when the request with its id had already been answered or had ended (a
 * second response), `before` when it came before any request with its id was sent; plain when no request had its id.
 */
export interface Orphan {
  id: JsonRpcId;
  src: Source;
  when?: 'after' | 'before';
}

/** The reason the Python SDK (mcp 2.x) gives the notifications/cancelled it sends after its own timeout: "timed out after 1.5s". */
export const PY_TIMEOUT_REASON = /^timed out after (\d+(?:\.\d+)?)s$/;

/**
 * What the caller of a request the client cancelled got, as far as the cancellation's reason proves it: the Python SDK
 * (mcp 2.x) says "timed out after 1s" at its own timeout and "caller cancelled" when its caller cancelled the call;
 * any other reason (or none) proves neither.
 */
export function cancelledCallerGot(reason: string | undefined, method: string | undefined): string {
  const timeout = PY_TIMEOUT_REASON.exec(reason ?? '');
  if (timeout) return `the Python SDK's own timeout, MCPError -32001 "Request '${method ?? '...'}' timed out" (the cancellation's reason "${reason}": the call's read_timeout_seconds, else the session's, ran out)`;
  if (reason === 'caller cancelled') return 'its own cancellation (the cancellation\'s reason "caller cancelled": the app cancelled the call, by an anyio cancel scope or a cancelled task, not the Python SDK\'s timeout)';
  return 'its own timeout or cancellation';
}
