// The Python SDK's own DEBUG lines in a Python logging text log (`Sending client message: jsonrpc='2.0' ...`, `SSE message: ...`, `Received session ID: ...`; the legacy HTTP+SSE server's too): its messages as it sent and received them, with the session it was given.
import type { CanonicalRecord, JsonRpcId, MessageRecord } from '../schema/record.js';
import { heldLine, type AdapterContext, type AdapterResult, type TextFormat } from './adapter.js';
import { pydanticMessage } from './python-text.js';

// mcp.client.streamable_http (mcp 2.3.0) logs, at DEBUG, every message its client sends (`Sending client message:
// {message}`) and every message it reads from an SSE stream (`SSE message: {message}`), the message formatted by
// pydantic's str() (`jsonrpc='2.0' id=3 method='tools/call' params={'name': ...}`); at INFO the session id the server
// gave (`Received session ID: <id>`). A response the server sent as application/json is not logged.
// The legacy HTTP+SSE transport logs more: its client (mcp.client.sse) `Sending client message: SessionMessage(...)`,
// `Received server message: {message}` and the session in `Received endpoint URL: ...?session_id=<id>`; its server
// (mcp.server.sse) `Validated client message: {message}` and `Sending message via SSE: SessionMessage(...)`, without
// the session on those lines (concurrent sessions' `Parsed session ID` lines interleave with them), and copies of
// what it received (`Received JSON: b'...'`, `Sending session message to writer: ...`), which are skipped.
/** Python logging's own shapes: BASIC_FORMAT (`DEBUG:name:message`), or a line that starts with its asctime (its milliseconds after a comma, or a dot: `%(asctime)s.%(msecs)03d` with a datefmt). */
const BASIC = /^(DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.]+:/;
const ASCTIME = /^\[?(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}[,.]\d{3})\]?\s.*?\b(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\b/;
/**
 * A line's leading asctime, whatever else the format writes (`%(asctime)s %(name)s: %(message)s` has no level), also
 * after a `[%(process)d]` or a level put first (`[4242] %(asctime)s ...`, `%(levelname)s %(asctime)s ...`), with a
 * datefmt's microseconds and zone (`...T21:10:45.595Z`, `+02:00`) when it writes them.
 */
const LEADING_TIME = /^(?:\[\d+\]\s+|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\s+)?\[?(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}[,.]\d{3})(?:\d{3})?(Z|[+-]\d{2}:?\d{2})?(?![\d:])/;
/**
 * `%(name)s - %(levelname)s - %(message)s` (the logging cookbook's format without its asctime): a record's head with
 * no time and no level first. Taken as this log's first line only from the loggers the SDK client's process writes
 * (asyncio's `Using selector`, the SDK's, httpx's, httpcore's): any other program's `name - LEVEL - ` line is not read so.
 */
const NAME_LEVEL = /^[\w.]+ - (?:DEBUG|INFO|WARNING|ERROR|CRITICAL) - /;
const SDK_PROCESS_LOGGER = /^(?:asyncio|mcp|httpx2?|httpcore2?)(?:\.[\w.]+)? - /;
/** A line that starts a logging record (its traceback's lines do not). */
const isHeadLine = (line: string) => BASIC.test(line) || LEADING_TIME.test(line) || NAME_LEVEL.test(line);
/** The time of a line that starts with one (LEADING_TIME): as written, or as ISO 8601 when it names its zone. */
function leadingTime(line: string): string | undefined {
  const m = LEADING_TIME.exec(line);
  if (!m) return undefined;
  return m[2] === undefined ? m[1] : `${m[1]!.replace(' ', 'T').replace(',', '.')}${m[2]}`;
}
const SDK_LINE = /(?:^|[\s:])(Sending client message|SSE message|Received session ID|Received server message|Received endpoint URL|Validated client message|Sending message via SSE|Received JSON|Sending session message to writer|Created new session with ID): (.*)$/s;
/** The Python SDK's Streamable HTTP server logs sessions and errors, never a message: its log shows no call. */
const STREAMABLE_SERVER = /\bmcp\.server\.streamable_http(?:_manager)?[:\s]/;
const STREAMABLE_SERVER_NOTE = "the Python SDK's Streamable HTTP server's own lines hold no JSON-RPC message at any level (at DEBUG, sse-starlette's chunk lines copy the SSE events it wrote, its answers only, without the requests, and are skipped; its lines are sessions opened and closed, a tool's failure, a handler's traceback): the calls are in the client's log, the app's own log of its messages, or a capture";
const SSE_STARLETTE_CHUNK = /\bsse_starlette(?:\.sse)?[:\s].*?\bchunk: b['"]/;
/** httpx's INFO line for each response head it got (`HTTP Request: POST <url> "HTTP/1.1 503 Service Unavailable"`). */
const HTTPX_POST = /\bHTTP Request: POST (\S+) "HTTP\/[\d.]+ (\d{3})(?: ([^"]*))?"/;
/** A client transport starting (`Connecting to StreamableHTTP endpoint: <url>`, the legacy `Connecting to SSE endpoint:`). */
const CONNECTING = /\bConnecting to (?:StreamableHTTP|SSE) endpoint: (\S+)/;
/** A client transport ending its session: httpx's line of the DELETE, or the SDK's warning that it failed. */
const TERMINATED = /\bHTTP Request: DELETE (\S+) "HTTP\/|\bSession termination failed: /;
const INTERLEAVED_NOTE = "the Python SDK client's DEBUG log holds client transports open at once (a second \"Connecting to ... endpoint\" line before the first one's session ended): its lines name no session, so from there on its requests carry no session id and none but an initialize (by the client's name) is linked as a retry of another; an answer is tied to its request by id when one request in flight has that id, or when those that have it are alike (the same method and params: the oldest takes it); and a server's views are joined by id, method, arguments and time";
const AMBIGUOUS_ANSWER_NOTE = "the Python SDK client's DEBUG log with client transports open at once: an answer came whose id more than one request in flight had, not alike (each session counts its ids from 1): it is tied to none, and those requests show as UNANSWERED";
/** Endpoint URLs kept (the latest). */
const MAX_ENDPOINTS = 64;
/** Requests kept waiting for their answer by id (oldest let go beyond it). */
const MAX_OPEN = 10_000;
/** The conn of each request once transports interleave: a scope of its own (no session can be told). */
const INTERLEAVED_CONN = 'python-sdk-log';
/** The client's DEBUG line when a POST's SSE stream failed before its answer (`logger.debug("SSE stream ended", exc_info=True)`). */
const SSE_ENDED = /\bSSE stream ended\s*$/;
/** Its INFO line right after, when the stream had an event id: it resumes the stream (GET with Last-Event-ID). */
const SSE_RESUMING = /\bSSE stream disconnected, reconnecting\b/;
/** httpcore's DEBUG line of a response head, with its headers: whether the next POST's answer is an SSE stream. */
const HTTPCORE_HEAD = /\breceive_response_headers\.complete return_value=\(b'HTTP\/[\d.]+', (\d{3}), /;
const HTTPCORE_SSE = /\(b'content-type', b'text\/event-stream/i;
/** The Content-Type and Content-Length on httpcore's head line (header names in any case, as the server wrote them). */
const HTTPCORE_TYPE = /\(b'content-type', b'([^']{0,120})'\)/i;
const HTTPCORE_LENGTH = /\(b'content-length', b'(\d{1,12})'\)/i;
/** httpcore's head line: the response's Retry-After (seconds or an HTTP date). */
const HTTPCORE_RETRY_AFTER = /\(b'retry-after', b'([^']{1,64})'\)/i;
/** httpcore's DEBUG line when a response body ended: the server closed it (the SDK stops reading once it has its answer). */
const HTTPCORE_BODY_DONE = /\breceive_response_body\.complete\s*$/;
/** httpcore's DEBUG line when a response body starts to be read, with its request's method. */
const BODY_STARTED = /\breceive_response_body\.started request=<Request \[b'([A-Z]+)'\]>/;
/** httpcore's DEBUG line when the client closes a response (after its body ended, or before: the SDK stopped reading). */
const RESPONSE_CLOSED = /\bresponse_closed\.started\s*$/;
/** httpcore's lines closing a response, started and complete (between a JSON body read and the SDK's parse error). */
const RESPONSE_CLOSING = /\bresponse_closed\.(?:started|complete)\s*$/;
/** The SDK's record of a JSON body it could not read as a JSON-RPC message (`_handle_json_response`); its traceback follows. */
const PARSE_ERROR = /\bError parsing JSON response\s*$/;
/** The SDK's record of an SSE event whose data it could not read as a JSON-RPC message (`_handle_sse_event`); its traceback follows. */
const SSE_PARSE_ERROR = /\bError parsing SSE message\s*$/;
/** The start of the text pydantic refused, on that traceback's line: the id it gives (the request whose stream it was). */
const REFUSED_INPUT_ID = /\binput_value='\{"jsonrpc":\s?"2\.0",\s?"id":\s?("(?:[^"\\']|\\.){0,80}"|-?\d{1,15})[,}]/;
/** pydantic's line in that traceback when the body is not JSON at all (not a JSON-RPC shape it refused). */
const JSON_INVALID = /\bInvalid JSON:.*\[type=json_invalid\b/;
/** pydantic's line of another validation error in that traceback: JSON, but no JSON-RPC message (a field missing, say). */
const VALIDATION_LINE = /^\s+.*\[type=(\w+),/;
/** The dispatcher's line of a response whose id no request waits for (the Python SDK drops it). */
const DROPPED_RESPONSE = /\bdropping response for unknown\/late request id (.+?)\s*$/;
/** httpcore's DEBUG line when a request starts waiting for its response head, with the request's method. */
const HEAD_STARTED = /\breceive_response_headers\.started request=<Request \[b'([A-Z]+)'\]>/;
/** httpcore's DEBUG line when waiting for a response head failed, with the exception (httpx's `ReadTimeout`) and its text. */
const HEAD_FAILED = /\breceive_response_headers\.failed exception=(\w+)\((?:\w+\()?(?:(['"])(.{0,200}?)\2)?/;
/**
 * The exceptions of a failed wait for a head that prove no response came: the client's own read timeout, the other end
 * closing the connection (h11's "Server disconnected without sending a response."), a reset. Not a CancelledError: the
 * client stopped waiting itself (the SDK aborting the POST), which its own lines tell.
 */
const NO_HEAD_FAILURE = /^(?:ReadTimeout|RemoteProtocolError|ReadError)$/;
/** httpcore's exceptions of a connect that found no server (refused, unreachable, timed out): nothing was sent. */
const CONNECT_FAILURE = /^(?:ConnectError|ConnectTimeout)$/;
/** httpcore's DEBUG lines of a new connection: its start, and its failure (`ConnectError`: the server is not listening). */
const CONNECT_STARTED = /\bconnect_tcp\.started\b/;
const CONNECT_FAILED = /\bconnect_tcp\.failed exception=(\w+)\((.{0,200}?)\)?\s*$/;
/** httpx's INFO line of any response head it got: the request of that method no longer waits for one. */
const HTTPX_ANY = /\bHTTP Request: ([A-Z]+) \S+ "HTTP\//;
/** httpcore's DEBUG line when reading a response body failed, with the exception (httpx's read timeout: `ReadTimeout`) and its text. */
const HTTPCORE_BODY_FAILED = /\breceive_response_body\.failed exception=(\w+)\((?:\w+\()?(?:(['"])(.{0,300}?)\2)?/;
/**
 * httpcore's exceptions of a body read that the other end or the network caused: h11's RemoteProtocolError ("peer
 * closed connection without sending complete message body"), a ReadError (a reset). Not the client's own close.
 */
const PEER_FAILURE = /^(?:RemoteProtocolError|ReadError)$/;
/**
 * The last line of a traceback the SDK logged with "SSE stream ended" (`exc_info=True`): the exception that ended the
 * stream as httpx raised it (`httpx2.RemoteProtocolError: peer closed connection ...`, `httpx2.ReadTimeout`), its
 * causes (h11's, httpcore's) on earlier lines of the same record. Read when httpcore's own lines are not in the log.
 */
const TRACEBACK_EXCEPTION = /^(?:httpx2?|httpcore2?|h11(?:\._util)?|anyio|ssl)\.(\w+)(?::\s?(.{0,300}))?$/;
/** Lines between httpcore's failure and the SDK's "SSE stream ended" (httpcore's response_closed.started/.complete). */
const BODY_FAILED_WITHIN_LINES = 3;
/** httpcore's own lines, which say nothing of what the SDK does next. */
const HTTPCORE_LINE = /\bhttpcore\d*[.:\s]/;
/** The client's ERROR line when a request's 2xx answer has a Content-Type it does not read (it answers the request -32600 itself). */
const UNEXPECTED_TYPE = /\bUnexpected content type: (.{0,80})$/;
/** The streamable HTTP client's DEBUG line for a 202 (to a request, it resolves the request with its own -32600). */
const RECEIVED_202 = /\bReceived 202 Accepted\s*$/;
/** The client's DEBUG line when it aborts the POST of a request it cancelled: no status line will come for it. */
const ABORTED_POST = /\baborting in-flight POST for cancelled request ('?)([^'\s]+)\1\s*$/;
const AMBIGUOUS_CONNECT_NOTE = "the Python SDK client's DEBUG log: a connection failed (httpcore's \"connect_tcp.failed exception=ConnectError\") while more than one POST was in flight, or more than one connection was being made: httpcore's line names no request, so it is tied to none (those requests show as UNANSWERED, though none of them may have reached the server)";
const AMBIGUOUS_STATUS_NOTE = "the Python SDK client's DEBUG log: an HTTP error status (httpx's \"HTTP Request:\" line) came while more than one POST was in flight: httpx's line names no message, so it is tied to none (those requests show as UNANSWERED)";
/** What an aborted POST proves of its cause: the SDK logs the same line for a timeout and for its caller's cancellation. */
const ABORT_CAUSE = "its caller cancelled it: the Python SDK's own timeout (call_tool's read_timeout_seconds, else the Client's) or the app's own cancellation (an anyio cancel scope, a task cancelled): the SDK logs that line alike for both, so this log cannot tell which (the app got MCPError -32001 \"Request 'tools/call' timed out\" at a timeout); the request had been sent, so the server may have run it";
/** The client's DEBUG line when a non-2xx application/json body held no JSON-RPC error: its caller gets the SDK's own error. */
const NON2XX_FALLBACK = /\bNon-2xx body was not a JSON-RPC error; using fallback\s*$/;
/** The SDK's own lines after which a held tools/call JSON answer is let go (an app's own lines, in its elicitation callback say, are not). */
const RELEASES_HELD = /(?:^|[\s:])(?:Sending client message|SSE message|Received server message|Connecting to (?:StreamableHTTP|SSE) endpoint|Error parsing JSON response|dropping response for unknown\/late request id|Unexpected content type|Received 202 Accepted|SSE stream ended|aborting in-flight POST|Non-2xx body was not a JSON-RPC error|Session termination failed)\b|\bHTTP Request: DELETE /;
const IDLE_NOTE = "the Python SDK client's DEBUG log: a client transport never given a session id (2026-07-28 is sessionless) was taken as ended when the next one started, but a request id then broke the new transport's count (each transport numbers its requests 1, 2, 3, ...): the earlier transport was still open and sent again; no line tells the two apart (the SDK's lines name no transport, httpcore's name no connection on a request's lines), so its requests before this point may be read as the new one's, and from here on each request stands alone, as for transports open at once";
/** POSTs whose status line has not come, beyond this many, are taken as a log without httpx's lines. */
const MAX_IN_FLIGHT = 64;
/** Each phrase: which way its message went and whose log it is. */
const PHRASES: Record<string, { direction: 'c2s' | 's2c'; side: 'client' | 'server' } | undefined> = {
  'Sending client message': { direction: 'c2s', side: 'client' },
  'SSE message': { direction: 's2c', side: 'client' },
  'Received server message': { direction: 's2c', side: 'client' },
  'Validated client message': { direction: 'c2s', side: 'server' },
  'Sending message via SSE': { direction: 's2c', side: 'server' },
};

/** A message the client sent, as it was attributed (a request's id; its session, or its own conn once interleaved). */
interface Sent {
  id?: JsonRpcId;
  /** The 2xx status httpx's line tied to its POST (the only one in flight then). */
  status?: number;
  /** A request's method and params as text: requests alike in all but their session cannot be told apart anyway. */
  what?: string;
  /** Its POST's 2xx answer is an SSE stream (httpcore's head line said text/event-stream), or not; unknown without httpcore's lines. */
  sse?: boolean;
  /** Its POST's 2xx head said application/json (httpcore's head line): the SDK reads that body whole and logs nothing of it. */
  jsonHead?: { status: number; type: string; line: number; unlike?: boolean };
  /** Its POST's 2xx status (httpx's line tied to it) and that line, while its answer is read. */
  head2xx?: { status: number; line: number };
  /** The client sent notifications/cancelled for it. */
  cancelled?: boolean;
  /** The line of that notifications/cancelled. */
  cancelledLine?: number;
  session?: string;
  conn?: string;
}

/** httpcore's head line of the response a status line takes: its Content-Type (null: none), Content-Length: 0, and its line. */
interface Head {
  type: string | null;
  empty: boolean;
  line: number;
  /** Its Retry-After header, as httpcore logged it. */
  retryAfter?: string;
}

/** What broke a stream: httpcore's "receive_response_body.failed" line, or the last exception of the SDK's own traceback. */
interface Failure {
  exception: string;
  line: number;
  text?: string;
  /** Read from the traceback of the "SSE stream ended" record (httpcore's lines were not in the log). */
  traceback?: true;
}

interface PythonLog {
  session?: string;
  /**
   * The client's POSTs sent (each message it sends is one POST) whose httpx status line has not come, by request id
   * (undefined: a notification or a response). A status line is tied to a message only when it is the one POST in
   * flight: httpx's line names the URL, not the message.
   */
  inFlight?: Sent[];
  /** The client's requests waiting for their answer, by id (typeof and value). */
  open?: Map<string, { sent: Sent[]; answered: number }>;
  /** Client transports started and not known to have ended (Connecting lines less terminations). */
  transports?: number;
  /**
   * The URLs the client's transports POST to (each `Connecting to` endpoint; the legacy transport's endpoint URL):
   * httpx's lines of other URLs are the program's own requests (an LLM API's, say), not MCP traffic.
   */
  endpoints?: string[];
  /** Requests whose POST got a 2xx head (httpx's line, tied to them) and no answer yet: their SSE streams are open. */
  streaming?: Sent[];
  /** A 2xx status line came while more than one POST was in flight: which streams are open is not known. */
  streamDoubt?: boolean;
  /** A stream's "SSE stream ended" line, until the next log record says whether the SDK resumes it. */
  ended?: { owner: Sent; line: number; ts?: string; failed?: Failure };
  /**
   * Requests waiting for their response head, by method (httpcore's "started" less httpx's status lines): a head that
   * failed is tied to a POST only when it is the one request waiting. Undefined once that cannot be counted.
   */
  heads?: Map<string, number>;
  /** A head failed while more than one request waited: which one is not known, nor from then on how many wait. */
  headsLost?: boolean;
  /** httpcore's latest "receive_response_body.failed": the exception that broke a body it was reading, and where. */
  bodyFailed?: { exception: string; line: number; text?: string };
  /**
   * A request's SSE stream the server closed without its answer (httpcore's body complete), until the SDK's next line
   * says whether it resumes it ("SSE stream disconnected, reconnecting...").
   */
  closed?: { owner: Sent; line: number; ts?: string };
  /**
   * A tools/call's JSON answer read (jsonRead's record), held until the SDK's next message line: a continuation of that
   * call (the same tool, inputResponses or requestState) proves it was an input_required result.
   */
  heldAnswer?: { record: MessageRecord; tool: string; line: number };
  /**
   * A non-2xx answer whose head said application/json (the SDK reads that body for a JSON-RPC error), held until the
   * SDK's next line says whether it found one ("Non-2xx body was not a JSON-RPC error; using fallback" if not).
   */
  errorBody?: { record: MessageRecord; own: string; said: string; head: number; at: number; read?: number; closed?: boolean };
  /** The current transport started as the one before it ended unsaid (never given a session id): its request ids so far go up by one from `lastId`. */
  successor?: boolean;
  lastId?: number;
  /** The JSON answer last read (jsonRead), until a log record other than httpcore's closing lines follows it. */
  jsonRead?: { owner: Sent; line: number };
  /** The SDK's "Error parsing JSON response" record right after that read, until its traceback says why. */
  parseFailed?: { owner: Sent; line: number; ts?: string };
  /** The SDK's "Error parsing SSE message" record, until its traceback says why and whose (real-audit101). */
  sseParseFailed?: { line: number; ts?: string };
  /**
   * A response to another id in that read body, which the SDK dropped (its caller waits on): put down after the client's
   * notifications/cancelled for the request, or before the next message it sends, whichever comes first.
   */
  dropped?: { owner: Sent; line: number; ts?: string; otherId: string };
  /** The last response head httpcore logged was an SSE stream's (true), another's (false); until a status line takes it. */
  headSse?: boolean;
  /** That head's Content-Type (null: none), and whether it said Content-Length: 0; until a status line takes it. */
  headType?: string | null;
  headEmpty?: boolean;
  headLine?: number;
  headRetryAfter?: string;
  /** The POST just aborted ("aborting in-flight POST") was waiting for its head: httpcore's CancelledError of that wait is its. */
  abortedWait?: boolean;
  /** A POST of the current client transport got a 2xx text/event-stream head: its server answers on SSE streams. */
  sseAnswers?: boolean;
  /** The request whose 2xx status httpx's line tied last, until the next status line: an "Unexpected content type" or "Received 202 Accepted" line is its. */
  refusable?: { owner: Sent; status: number };
  /** The request whose 2xx SSE head the latest status line tied (until the next line but its body's start). */
  tied?: Sent;
  /** That request's body began to be read (httpcore's line right after), and no line since but its notifications. */
  bodyOpen?: { owner: Sent; line: number };
  /** The request whose "Sending client message" line was the last line (or was followed only by its connect_tcp.started): a connection that fails next was its POST's. */
  justSent?: Sent;
  /** httpcore's connect_tcp.started lines since that request's line: a failure is its POST's only when there was one (a GET's reconnect may start one too). */
  justSentConnects?: number;
  /** The method of the request whose body httpcore last began to read: a body's end is a POST's only after a POST's start. */
  bodyMethod?: string;
  /** Set once two client transports were open at once, until none is: no line says which session it is of. */
  interleaved?: boolean;
  /** The current client transport sent a message (since its `Connecting to` line). */
  posted?: boolean;
  /** A held repeated `Connecting to` line is being read: a transport started in the same moment as the one before. */
  twinStart?: boolean;
  /** Requests numbered while interleaved (each its own conn). */
  seq?: number;
  /** POSTs in flight whose message is not known any more: a status line came while more than one was. */
  unknownInFlight?: number;
  /** The log's previous line that starts a record (a traceback's lines are its record's), and whether it was read as a copy. */
  prevHead?: string;
  prevCopy?: boolean;
  /** The record being read is a copy (its traceback's lines are skipped with it). */
  inCopy?: boolean;
  /** The log writes its lines twice (DOUBLED_EVIDENCE came twice in a row). */
  doubled?: boolean;
  /** The log writes records twice in two formats (a second handler with its own formatter). */
  twoFormats?: boolean;
  /**
   * A transport's start that came twice in a row, and the repeat of the message after it, until the log says which;
   * httpx's POST status lines since that message.
   */
  twinConnect?: { line: string; held?: string; statuses?: number };
  /** The legacy server's sessions (their URL form: the UUID's hex), while there is one only; 'many' after a second. */
  serverSession?: string | 'many';
}

/**
 * A log whose lines are written twice (a handler added to the root twice, or the `mcp` logger's own handler beside the
 * root's: each record of those loggers comes twice, one right after the other): a line that cannot come twice in a
 * row but as such a copy says so. The session id a transport was given (logged once per transport: two servers give
 * two ids), and a line naming a live Python object by its address (httpcore's `connect_tcp.complete return_value=<...
 * object at 0x7f...>`, once per connection), or asyncio's `Using selector:` (once per event loop).
 */
const DOUBLED_EVIDENCE = /(?:[\s:]Received session ID: \S|\bobject at 0x[0-9a-f]{6,}>|\basyncio[:\s].*\bUsing selector: )/;
const DOUBLED_NOTE = "the Python DEBUG log writes its lines twice (a logging handler attached twice, or the mcp logger's own handler beside the root's: a line that cannot come twice in a row came so: a session id given, a Python object's address, or one request's answer after one status line): a line identical to the one right before it, its time to the millisecond included, is read as that copy and counted as skipped from there on (a third identical line is read again: a real repeat in a doubled log comes as four)";

/**
 * A line of the log: first told from a copy of the line before it once the log is known to write its lines twice.
 * Until then, a transport's start whose line repeats the one before it (two transports of one URL started in one
 * millisecond, or a copy) waits, with a copy of its first message, until a line of the SDK says which: one without its
 * twin (not doubled: both are read then), or a line that cannot repeat, repeated (doubled: both dropped).
 */
function toRecords(line: string, ctx: AdapterContext): AdapterResult {
  const log: PythonLog = (ctx.state?.get('python-sdk') as PythonLog | undefined) ?? {};
  ctx.state?.set('python-sdk', log);
  if (!isHeadLine(line)) return log.inCopy ? [] : read(line, ctx);
  const twin = log.prevHead === line && !log.prevCopy;
  const prevSdk = log.twinConnect !== undefined && log.prevHead !== undefined && !log.prevCopy && (SDK_LINE.test(log.prevHead) || CONNECTING.test(log.prevHead));
  if (log.twinConnect?.held !== undefined && HTTPX_POST.test(line)) log.twinConnect.statuses = (log.twinConnect.statuses ?? 0) + 1;
  if (twin && (log.doubled || DOUBLED_EVIDENCE.test(line) || answersHeld(log.twinConnect, line))) {
    if (!log.doubled) ctx.note?.(DOUBLED_NOTE);
    log.doubled = true;
    log.twinConnect = undefined;
    log.prevCopy = log.inCopy = true;
    return [];
  }
  if (!twin && log.prevHead !== undefined && !log.prevCopy && otherFormatCopy(log.prevHead, line)) {
    // The record before, written again by a second handler in another format: only one process's two handlers write so.
    if (!log.twoFormats) ctx.note?.(TWO_FORMATS_NOTE);
    log.twoFormats = true;
    log.prevCopy = log.inCopy = true;
    return [];
  }
  log.prevHead = line;
  log.prevCopy = log.inCopy = false;
  if (twin && !log.doubled && !log.interleaved) {
    // A transport's start repeated, and its first message after it: held until the log says which.
    if (log.twinConnect === undefined && CONNECTING.test(line)) {
      log.twinConnect = { line };
      log.prevCopy = true;
      return [];
    }
    if (log.twinConnect !== undefined && log.twinConnect.held === undefined && /(?:^|[\s:])Sending client message: /.test(line)) {
      log.twinConnect.held = line;
      log.prevCopy = true;
      return [];
    }
  }
  if (log.twinConnect !== undefined && prevSdk && !twin) {
    // The SDK's line before this one came once: the log is not doubled, the repeated start was a second transport's.
    const { line: start, held } = log.twinConnect;
    log.twinConnect = undefined;
    const out: CanonicalRecord[] = [];
    for (const l of [start, held, line]) {
      if (l === undefined) continue;
      // The repeated start is a second transport started in the same moment as the first: never the first one's successor.
      log.twinStart = l === start;
      const r = read(l, ctx);
      log.twinStart = false;
      if (!Array.isArray(r)) return r;
      out.push(...r);
    }
    return out;
  }
  return read(line, ctx);
}

const TWO_FORMATS_NOTE = "the Python DEBUG log writes records twice in two formats (two logging handlers with their own formatters, such as logging.basicConfig's and a StreamHandler on the mcp logger): a line that repeats the record right before it (the same logger, level and message, at the same time where both lines have one) in another format is read as that copy and counted as skipped";
const ANY_TIME = /\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}[,.]\d{3}(?:\d{3})?(?:Z|[+-]\d{2}:?\d{2})?/;
const LEVEL_WORD = /^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)$/;

/** A record's head without its time: its words (the level, the logger's name), a process id left out. */
function headWords(prefix: string): string[] {
  return prefix.replace(ANY_TIME, ' ').split(/[\s:|\-[\]()]+/).filter((w) => w !== '' && !/^\d+$/.test(w));
}

/**
 * `line` is the record of `prev` in another handler's format: the two differ in their heads only (the same level and
 * logger name, the same time where both write one), and their message, the rest, is the same. One format writes a
 * record's head the same way each time, so two records of one format never pass (the time differs, or the lines are equal).
 */
function otherFormatCopy(prev: string, line: string): boolean {
  let i = prev.length;
  let j = line.length;
  while (i > 0 && j > 0 && prev.charCodeAt(i - 1) === line.charCodeAt(j - 1)) {
    i--;
    j--;
  }
  if (prev.length - i < 8) return false;
  const a = prev.slice(0, i);
  const b = line.slice(0, j);
  const ta = ANY_TIME.exec(a)?.[0];
  const tb = ANY_TIME.exec(b)?.[0];
  if (ta !== undefined && tb !== undefined && ta.replace(',', '.') !== tb.replace(',', '.')) return false;
  const wa = headWords(a);
  const wb = headWords(b);
  if (wa.length === 0 || wa.length > 3 || wa.filter((w) => LEVEL_WORD.test(w)).length !== 1) return false;
  return wa.length === wb.length && wa.every((w) => wb.includes(w));
}

/**
 * The answer to the held request, twice in a row, after one POST's status line: two transports that each sent that
 * request posted twice, and each answer comes after its own POST's status (httpx logs it before the body is read), so
 * one status line before both answers says one request, logged twice. (The proof where no session id is given: on
 * 2026-07-28, or the `mcp` logger's own handler with httpcore's lines off.)
 */
function answersHeld(pending: PythonLog['twinConnect'], line: string): boolean {
  if (pending?.held === undefined || pending.statuses !== 1) return false;
  const answer = SDK_LINE.exec(line);
  const request = SDK_LINE.exec(pending.held);
  if (answer?.[1] !== 'SSE message' || request === null) return false;
  const a = pydanticMessage(answer[2]!);
  const q = pydanticMessage(request[2]!);
  return a !== undefined && q !== undefined && ('result' in a || 'error' in a) && typeof q.method === 'string' && a.id === q.id && a.id !== undefined;
}

function read(line: string, ctx: AdapterContext): AdapterResult {
  const log = ctx.state?.get('python-sdk') as PythonLog;
  // A held tools/call JSON answer goes out at the SDK's next line of its own (the next message sent says whether it was
  // an input_required result); a held non-2xx JSON answer once the line after its body's close says what the SDK made of it.
  if ((log.heldAnswer !== undefined || log.errorBody !== undefined) && isHeadLine(line)) {
    const out: MessageRecord[] = [];
    if (log.errorBody !== undefined) {
      const eb = log.errorBody;
      if (HTTPCORE_BODY_DONE.test(line)) eb.read = ctx.line;
      else if (eb.read !== undefined && /\bresponse_closed\.complete\s*$/.test(line)) eb.closed = true;
      else if (!HTTPCORE_LINE.test(line) || eb.closed) out.push(errorBodyEnd(log, NON2XX_FALLBACK.test(line) ? ctx.line : undefined));
    }
    if (log.heldAnswer !== undefined && RELEASES_HELD.test(line)) out.push(takeHeld(log, line, ctx));
    if (out.length > 0) {
      if (NON2XX_FALLBACK.test(line)) return out;
      const rest = read(line, ctx);
      return Array.isArray(rest) ? [...out, ...rest] : rest;
    }
  }
  // A JSON answer read, then the SDK's "Error parsing JSON response" (its traceback's lines follow): pydantic's
  // json_invalid says the body was not JSON (MALFORMED_JSON); another validation error leaves the read as it was.
  // Another validation error (a field missing): JSON, but no JSON-RPC message it takes (INVALID_ENVELOPE).
  if (log.dropped !== undefined && isHeadLine(line)) {
    const sdk = SDK_LINE.exec(line);
    if (sdk && sdk[1] === 'Sending client message') {
      const d = log.dropped;
      log.dropped = undefined;
      const wrong = refusedRead(d, ctx, 'dropped', d.otherId);
      const m = pydanticMessage(sdk[2]!) as { method?: unknown; params?: { requestId?: unknown } } | undefined;
      const rest = read(line, ctx);
      if (!Array.isArray(rest)) return rest;
      return m?.method === 'notifications/cancelled' && m.params?.requestId === d.owner.id ? [...rest, wrong] : [wrong, ...rest];
    }
  }
  // An SSE event the SDK could not parse ("Error parsing SSE message"): its traceback's pydantic line starts the text it
  // refused, with the id of the request whose stream it was; the SDK gives that caller MCPError -32700. Not JSON
  // (json_invalid): MALFORMED_JSON; JSON of another shape: INVALID_ENVELOPE. Tied to the one request in flight with that id.
  if (isHeadLine(line) && SSE_PARSE_ERROR.test(line)) {
    const ts = leadingTime(line);
    log.sseParseFailed = { line: ctx.line, ...(ts !== undefined ? { ts } : {}) };
    return [];
  }
  if (log.sseParseFailed !== undefined) {
    if (isHeadLine(line)) log.sseParseFailed = undefined;
    else {
      const how = JSON_INVALID.test(line) ? 'json' : VALIDATION_LINE.exec(line)?.[1];
      if (how !== undefined) {
        const failed = log.sseParseFailed;
        log.sseParseFailed = undefined;
        const owner = sseEventOwner(log, line);
        return owner !== undefined ? [refusedEvent(log, owner, failed, ctx, how)] : [];
      }
    }
  }
  if (log.parseFailed !== undefined) {
    if (!isHeadLine(line)) {
      if (JSON_INVALID.test(line)) {
        const failed = log.parseFailed;
        log.parseFailed = undefined;
        return [refusedRead(failed, ctx, 'json')];
      }
      const other = VALIDATION_LINE.exec(line);
      if (other) {
        const failed = log.parseFailed;
        log.parseFailed = undefined;
        return [refusedRead(failed, ctx, other[1]!)];
      }
    } else log.parseFailed = undefined;
  }
  if (log.jsonRead !== undefined && isHeadLine(line)) {
    const read = log.jsonRead;
    log.jsonRead = undefined;
    const ts = leadingTime(line);
    if (PARSE_ERROR.test(line)) {
      log.parseFailed = { owner: read.owner, line: ctx.line, ...(ts !== undefined ? { ts } : {}) };
      return [];
    }
    // The body held a response to another id (a wrong id): the SDK dropped it, its caller waits on.
    const dropped = DROPPED_RESPONSE.exec(line);
    if (dropped && dropped[1] !== String(read.owner.id)) {
      log.dropped = { owner: read.owner, line: ctx.line, ...(ts !== undefined ? { ts } : {}), otherId: dropped[1]! };
      return [];
    }
    if (RESPONSE_CLOSING.test(line)) log.jsonRead = read;
  }
  // A stream's end waits for the next log record (a traceback's lines are the same record's): the SDK's "reconnecting"
  // line says it resumes the stream; any other says the request ended there without an answer.
  if (log.closed !== undefined && isHeadLine(line) && !HTTPCORE_LINE.test(line)) {
    const closed = log.closed;
    log.closed = undefined;
    if (!SSE_RESUMING.test(line) && log.open?.get(idKey(closed.owner.id!))?.sent.includes(closed.owner)) {
      const end = closedEnd(log, closed);
      const rest = read(line, ctx);
      return Array.isArray(rest) ? [end, ...rest] : rest;
    }
  }
  if (log.ended !== undefined && isHeadLine(line)) {
    const ended = log.ended;
    log.ended = undefined;
    if (!SSE_RESUMING.test(line)) {
      const end = streamEnd(log, ended);
      const rest = read(line, ctx);
      return Array.isArray(rest) ? [end, ...rest] : rest;
    }
  }
  // The POST of the request just sent could not connect (its server down, restarting): the request ended unsent.
  const justSent = log.justSent;
  log.justSent = undefined;
  if (justSent !== undefined && CONNECT_STARTED.test(line)) {
    log.justSent = justSent;
    log.justSentConnects = (log.justSentConnects ?? 0) + 1;
    return [];
  }
  const connectFailed = justSent !== undefined ? CONNECT_FAILED.exec(line) : null;
  const connects = log.justSentConnects ?? 0;
  log.justSentConnects = undefined;
  if (connectFailed) return notConnected(log, justSent!, connects, connectFailed[1]!, connectFailed[2] ?? '', line, ctx);
  const isHead = isHeadLine(line);
  const refusedType = isHead ? UNEXPECTED_TYPE.exec(line) : null;
  if (refusedType) return typeRefused(log, refusedType[1]!.trim(), line);
  if (isHead && log.refusable?.status === 202 && RECEIVED_202.test(line)) return typeRefused(log, undefined, line);
  // A stream's body begun and closed by the client right after, with no line between but its notifications.
  const bodyStart = isHead ? BODY_STARTED.exec(line) : null;
  if (bodyStart) {
    const tied = log.tied;
    log.tied = undefined;
    log.bodyMethod = bodyStart[1]!;
    log.bodyOpen = bodyStart[1] === 'POST' && tied !== undefined && !log.streamDoubt && log.streaming?.length === 1 && log.streaming[0] === tied ? { owner: tied, line: ctx.line } : undefined;
    return [];
  }
  if (isHead && RESPONSE_CLOSED.test(line)) {
    const open = log.bodyOpen;
    log.bodyOpen = undefined;
    log.tied = undefined;
    return open !== undefined && log.streaming?.includes(open.owner) && log.ended === undefined && log.closed === undefined ? [readerFailed(log, open, line, ctx)] : [];
  }
  if (isHead && log.bodyOpen !== undefined && !isNotificationOf(line, log.bodyOpen.owner)) log.bodyOpen = undefined;
  if (isHead && !HTTPX_POST.test(line)) log.tied = undefined;
  const exc = log.ended !== undefined && !isHead ? TRACEBACK_EXCEPTION.exec(line.trim()) : null;
  if (exc) {
    // A line of the "SSE stream ended" record's traceback: its last exception is httpx's (read when httpcore's lines are off).
    if (log.ended!.failed === undefined || log.ended!.failed.traceback) log.ended!.failed = { exception: exc[1]!, line: ctx.line, traceback: true, ...(exc[2] ? { text: exc[2] } : {}) };
    return [];
  }
  const sdk = SDK_LINE.exec(line);
  if (!sdk) {
    const startedHead = HEAD_STARTED.exec(line);
    if (startedHead) {
      if (log.heads !== undefined || !log.headsLost) (log.heads ??= new Map()).set(startedHead[1]!, (log.heads?.get(startedHead[1]!) ?? 0) + 1);
      return [];
    }
    const failedHead = HEAD_FAILED.exec(line);
    if (failedHead && log.abortedWait === true && failedHead[1] === 'CancelledError') {
      // The wait of the POST the SDK just aborted (its record is out): one request fewer waits for its head.
      log.abortedWait = undefined;
      const left = (log.heads?.get('POST') ?? 0) - 1;
      if (left > 0) log.heads!.set('POST', left);
      else log.heads?.delete('POST');
      return [];
    }
    if (failedHead) return headFailed(log, failedHead[1]!, failedHead[3], line, ctx);
    const anyStatus = HTTPX_ANY.exec(line);
    if (anyStatus && log.heads !== undefined) {
      const left = (log.heads.get(anyStatus[1]!) ?? 0) - 1;
      if (left > 0) log.heads.set(anyStatus[1]!, left);
      else log.heads.delete(anyStatus[1]!);
    }
    const head = HTTPCORE_HEAD.exec(line);
    if (head) {
      log.headSse = HTTPCORE_SSE.test(line);
      log.headType = HTTPCORE_TYPE.exec(line)?.[1] ?? null;
      log.headEmpty = HTTPCORE_LENGTH.exec(line)?.[1] === '0';
      log.headLine = ctx.line;
      log.headRetryAfter = HTTPCORE_RETRY_AFTER.exec(line)?.[1];
      return [];
    }
    const post = HTTPX_POST.exec(line);
    if (post) {
      const sse = log.headSse;
      const head: Head | undefined = log.headType !== undefined ? { type: log.headType, empty: log.headEmpty === true, line: log.headLine ?? ctx.line, ...(log.headRetryAfter !== undefined ? { retryAfter: log.headRetryAfter } : {}) } : undefined;
      log.headSse = undefined;
      log.headType = undefined;
      log.headEmpty = undefined;
      log.headRetryAfter = undefined;
      return log.endpoints?.includes(post[1]!) ? statusLine(log, Number(post[2]), post[3] ?? '', line, ctx, sse, head) : [];
    }
    if (HTTPCORE_BODY_DONE.test(line)) {
      // A response body the server ended. When one POST's answer was open, it was that one's: an SSE stream ended
      // without the answer (the SDK logs nothing of it and gives its caller "SSE stream ended without a response"); a
      // JSON answer was read (and not logged).
      const streaming = log.streaming ?? [];
      // (A GET's or a DELETE's body began last: the end is theirs, not the POST's.)
      if (!log.streamDoubt && streaming.length === 1 && (log.bodyMethod === undefined || log.bodyMethod === 'POST')) {
        const owner = streaming[0]!;
        if (owner.sse === false && owner.jsonHead !== undefined && owner.id !== undefined) {
          const record = jsonRead(log, owner, line, ctx);
          const tool = owner.what?.startsWith('["tools/call",') === true ? toolOf(owner.what) : undefined;
          if (tool === undefined) return [record];
          // Held until the SDK's next line: a continuation of this call proves an input_required result.
          const out = log.heldAnswer !== undefined ? [takeHeld(log, '', ctx)] : [];
          log.heldAnswer = { record, tool, line: ctx.line };
          return out;
        }
        if (owner.sse === false) streaming.pop();
        else if (owner.sse === true) {
          const ts = leadingTime(line);
          log.closed = { owner, line: ctx.line, ...(ts !== undefined ? { ts } : {}) };
        }
      }
      return [];
    }
    const connecting = CONNECTING.exec(line);
    if (connecting) {
      (log.endpoints ??= []).push(connecting[1]!);
      if (log.endpoints.length > MAX_ENDPOINTS) log.endpoints.shift();
      // A new transport has no session until its server gives one (`Received session ID`): its initialize is not the
      // earlier session's (a client reconnecting after a 404 when its server restarted).
      // A transport never given a session id ends without a line (the SDK sends a DELETE only with one): once it sent,
      // every POST of it got its status line and no stream of it is open, the next start is taken as its successor.
      const endedUnsaid = !log.twinStart && log.transports === 1 && !log.interleaved && log.session === undefined && log.posted === true
        && log.inFlight?.length === 0 && !log.unknownInFlight && !log.streaming?.length;
      log.session = undefined;
      log.sseAnswers = undefined;
      log.posted = false;
      log.successor = endedUnsaid;
      log.lastId = undefined;
      if (!endedUnsaid) log.transports = (log.transports ?? 0) + 1;
      if ((log.transports ?? 0) > 1 && !log.interleaved) {
        log.interleaved = true;
        ctx.note?.(INTERLEAVED_NOTE);
      }
      return [];
    }
    const terminated = TERMINATED.exec(line);
    if (terminated && (terminated[1] === undefined || log.endpoints?.includes(terminated[1]))) {
      log.transports = Math.max((log.transports ?? 0) - 1, 0);
      if (log.transports === 0) log.interleaved = false;
      return [];
    }
    const bodyFailed = HTTPCORE_BODY_FAILED.exec(line);
    if (bodyFailed) {
      log.bodyFailed = { exception: bodyFailed[1]!, line: ctx.line, ...(bodyFailed[3] ? { text: bodyFailed[3] } : {}) };
      // The one POST whose JSON answer was being read: the other end or the network broke it off (or the read timed out).
      const streaming = log.streaming ?? [];
      const owner = !log.streamDoubt && streaming.length === 1 && (log.bodyMethod === undefined || log.bodyMethod === 'POST') ? streaming[0]! : undefined;
      if (owner?.sse === false && owner.jsonHead !== undefined && owner.id !== undefined && (PEER_FAILURE.test(bodyFailed[1]!) || bodyFailed[1] === 'ReadTimeout')) return [jsonBroke(log, owner, log.bodyFailed, line)];
      return [];
    }
    if (SSE_ENDED.test(line)) {
      // Whose stream: the one request whose POST got its 2xx head and no answer, when that is known. What broke it:
      // httpcore's failure just before (the client's own read timeout, a reset), when the log has its lines.
      const streaming = log.streaming ?? [];
      const failed = log.bodyFailed !== undefined && ctx.line - log.bodyFailed.line <= BODY_FAILED_WITHIN_LINES ? log.bodyFailed : undefined;
      log.bodyFailed = undefined;
      if (!log.streamDoubt && streaming.length === 1) {
        const ts = leadingTime(line);
        log.ended = { owner: streaming[0]!, line: ctx.line, ...(ts !== undefined ? { ts } : {}), ...(failed !== undefined ? { failed } : {}) };
      }
      return [];
    }
    const aborted = ABORTED_POST.exec(line);
    if (aborted) {
      const id: JsonRpcId = aborted[1] === "'" ? aborted[2]! : Number(aborted[2]);
      // Whether httpcore's lines prove where the POST was: the one POST in flight, waiting for its head (its "started"
      // line, no status since), or the one whose 2xx answer was being read.
      const inFlight = log.inFlight ?? [];
      const waitingHead = inFlight.length === 1 && inFlight[0]!.id === id && (log.unknownInFlight ?? 0) === 0 && log.heads?.get('POST') === 1 && log.heads.size === 1;
      forget(log, id);
      // (On 2026-07-28 the SDK cancels a request by closing its POST: no notifications/cancelled goes out.)
      const waiting = log.open?.get(idKey(id));
      if (!waiting || waiting.sent.length !== 1 || waiting.answered !== 0) return [];
      const owner = waiting.sent[0]!;
      const reading = owner.head2xx !== undefined && !log.streamDoubt && log.streaming?.length === 1 && log.streaming[0] === owner ? owner.head2xx : undefined;
      answered(log, owner);
      if (waitingHead) log.abortedWait = true;
      const record: MessageRecord = {
        v: 1, kind: 'message', direction: 's2c', side: 'client', message: { jsonrpc: '2.0', id },
        error: `the client aborted its POST ${waitingHead ? 'before any response head came' : reading !== undefined ? `after its HTTP ${reading.status} head (httpx's line ${reading.line}), before the answer in its body came` : 'before the response'} ("aborting in-flight POST for cancelled request" at line ${ctx.line}; on 2026-07-28 closing the request is the cancellation): ${ABORT_CAUSE}`,
        ...(waitingHead ? { noResponse: 'no-head' as const } : reading !== undefined ? { status: reading.status } : {}),
      };
      const ts = leadingTime(line);
      if (ts !== undefined) record.ts = ts;
      if (owner.session !== undefined) record.session = owner.session;
      if (owner.conn !== undefined) record.conn = owner.conn;
      return [record];
    }
    // Another line of the program's log (httpx, asyncio, the SDK's other lines, a traceback's): no MCP traffic, unless
    // it shows a message this format cannot read. sse-starlette's DEBUG copy of each SSE chunk it wrote (`chunk: b'event: message\r\ndata: {...}'`): the wire's
    // bytes of what the SDK's own line logged.
    if (SSE_STARLETTE_CHUNK.test(line)) return [];
    if (STREAMABLE_SERVER.test(line)) ctx.note?.(STREAMABLE_SERVER_NOTE);
    if (/jsonrpc['"]?\s*[:=]\s*['"]2\.0/.test(line)) return { error: 'a log line (Python logging\'s shape) with a JSON-RPC message that is not the Python SDK\'s own "Sending client message:" or "SSE message:" line: not read' };
    return [];
  }
  const [, what, rest] = sdk as unknown as [string, string, string];
  if (what === 'Received session ID') {
    const id = rest.trim();
    if (id !== '') log.session = id;
    return [];
  }
  if (what === 'Received endpoint URL') {
    const url = rest.trim();
    if (url !== '') {
      (log.endpoints ??= []).push(url);
      if (log.endpoints.length > MAX_ENDPOINTS) log.endpoints.shift();
    }
    const id = /[?&]session_id=([^&\s]+)/.exec(rest)?.[1];
    if (id !== undefined) log.session = id;
    return [];
  }
  if (what === 'Created new session with ID') {
    // The server's UUID, which its endpoint URL (and so the client's log) writes as hex.
    const id = rest.trim().replace(/-/g, '');
    log.serverSession = log.serverSession === undefined || log.serverSession === id ? id : 'many';
    return [];
  }
  const phrase = PHRASES[what];
  // The legacy server's copies of a message it also logs as `Validated client message:`.
  if (phrase === undefined) return [];
  const msg = pydanticMessage(rest);
  if (msg === undefined) return { error: `the Python SDK's "${what}:" line whose message cannot be read (pydantic's text of a JSON-RPC message expected)` };
  const record: MessageRecord = { v: 1, kind: 'message', direction: phrase.direction, message: msg, side: phrase.side };
  const ts = leadingTime(line);
  if (ts !== undefined) record.ts = ts;
  if (phrase.side === 'client') {
    const owner = attribute(log, phrase.direction, msg, ctx);
    if (owner === undefined) return [];
    if (owner.session !== undefined) record.session = owner.session;
    if (owner.conn !== undefined) record.conn = owner.conn;
    if (what === 'Sending client message') {
      sent(log, owner, msg);
      if (owner.id !== undefined) log.justSent = owner;
    }
  }
  // The legacy server's message lines name no session: it is known only while the log has had one session.
  if (phrase.side === 'server' && log.serverSession !== undefined && log.serverSession !== 'many') record.session = log.serverSession;
  return [record];
}

/**
 * A message the client sends goes in a POST of its own. (A notifications/cancelled it sends leaves the request's POST
 * open: its status line may still come. Only an aborted POST, logged as such, has none.)
 */
function sent(log: PythonLog, owner: Sent, msg: unknown): void {
  const m = msg as { id?: unknown; method?: unknown };
  const inFlight = (log.inFlight ??= []);
  log.posted = true;
  inFlight.push(typeof m.method === 'string' && isId(m.id) ? owner : {});
  if (inFlight.length + (log.unknownInFlight ?? 0) > MAX_IN_FLIGHT) {
    // No status line comes (httpx's logger is not at INFO): nothing can be tied.
    log.unknownInFlight = Math.min((log.unknownInFlight ?? 0) + inFlight.length, MAX_IN_FLIGHT);
    log.inFlight = [];
  }
}

function forget(log: PythonLog, id: JsonRpcId): void {
  const at = log.inFlight?.findIndex((x) => x.id === id) ?? -1;
  if (at !== -1) log.inFlight!.splice(at, 1);
}

/**
 * httpx's status line of a POST: tied to the request in flight when it is the only POST in flight, and then, when the
 * status is not 2xx, the request's end (the log has no body of it: the Python SDK gives its caller the body's JSON-RPC
 * error, or an error of its own).
 */
function statusLine(log: PythonLog, status: number, reason: string, line: string, ctx: AdapterContext, sse?: boolean, head?: Head): AdapterResult {
  log.refusable = undefined;
  const inFlight = (log.inFlight ??= []);
  const unknown = log.unknownInFlight ?? 0;
  const failed = status < 200 || status > 299;
  if (inFlight.length === 1 && unknown === 0) {
    const owner = inFlight.pop()!;
    const id = owner.id;
    if (id !== undefined && status >= 200 && status <= 299 && status !== 202) {
      log.refusable = { owner, status };
      owner.status = status;
      if (sse !== undefined) owner.sse = sse;
      owner.head2xx = { status, line: ctx.line };
      if (sse === true) log.sseAnswers = true;
      if (head?.type != null && /^application\/json\b/i.test(head.type)) owner.jsonHead = { status, type: head.type, line: head.line, ...(log.sseAnswers ? { unlike: true } : {}) };
      const streaming = (log.streaming ??= []);
      streaming.push(owner);
      if (sse === true) log.tied = owner;
      if (streaming.length > MAX_IN_FLIGHT) streaming.shift();
    }
    if (id !== undefined && status === 202) log.refusable = { owner, status };
    if (!failed || id === undefined) return [];
    answered(log, owner);
    const own = status === 404 ? (log.session !== undefined ? '-32600 "Session terminated"' : '-32601 "Not Found"') : '-32603 "Server returned an error response"';
    // httpcore's head line with no Content-Type and Content-Length: 0 proves a bare status line (no body to read).
    const bare = head !== undefined && head.type === null && head.empty;
    const said = `HTTP ${status}${reason ? ` ${reason}` : ''} (httpx's "HTTP Request:" line)`;
    // The SDK reads a non-2xx body only when it is application/json, for a JSON-RPC error to give its caller.
    const json = head?.type != null && /^application\/json\b/i.test(head.type);
    const record: MessageRecord = {
      v: 1, kind: 'message', direction: 's2c', side: 'client', message: { jsonrpc: '2.0', id }, status,
      error: bare
        ? `httpcore's head at line ${head.line} shows no Content-Type and Content-Length: 0, httpx's "HTTP Request:" line the status: the Python SDK gives its caller ${own}`
        : head !== undefined && !json
          ? `${said}; the body is not in the Python SDK's log (${head.type === null ? 'no Content-Type' : `Content-Type ${JSON.stringify(head.type)}`}, httpcore's head at line ${head.line}), and the SDK reads only an application/json one, for a JSON-RPC error: its caller got ${own}`
          : `${said}; the body is not in the Python SDK's log: its client gives the caller the body's JSON-RPC error, else ${own}`,
      ...(bare ? { bareStatus: true } : {}),
      ...(head?.retryAfter !== undefined ? { retryAfter: head.retryAfter } : {}),
    };
    const ts = leadingTime(line);
    if (ts !== undefined) record.ts = ts;
    if (owner.session !== undefined) record.session = owner.session;
    if (owner.conn !== undefined) record.conn = owner.conn;
    // A refused initialize ends its transport: the Client's connect raises, and no "terminated" line comes (it has no
    // session to end), so an app's reconnect after it is not a second transport open at once.
    if (owner.what?.startsWith('["initialize",') === true) endTransport(log);
    if (json && !bare) {
      // Held until the SDK's line after the body's close says whether it held a JSON-RPC error.
      const out = log.errorBody !== undefined ? [errorBodyEnd(log, undefined)] : [];
      log.errorBody = { record, own, said, head: head!.line, at: ctx.line };
      return out;
    }
    return [record];
  }
  // One of the POSTs in flight got its status; which one, httpx's line does not say.
  if (!failed) log.streamDoubt = true;
  const left = inFlight.length + unknown - 1;
  log.inFlight = [];
  log.unknownInFlight = Math.max(left, 0);
  if (failed && inFlight.length + unknown > 0) ctx.note?.(AMBIGUOUS_STATUS_NOTE);
  return [];
}

const idKey = (id: JsonRpcId) => `${typeof id}:${id}`;

/**
 * Whose message this is: the session the log last named, while one client transport is open; once several are, a
 * request gets a conn of its own and an answer its request's, when only one request in flight has its id (undefined:
 * an answer that cannot be tied, left out).
 */
function attribute(log: PythonLog, direction: 'c2s' | 's2c', msg: unknown, ctx: AdapterContext): Sent | undefined {
  const m = msg as { id?: unknown; method?: unknown; params?: { requestId?: unknown; progressToken?: unknown } };
  const isRequest = typeof m.method === 'string' && isId(m.id);
  if (direction === 'c2s' && isRequest && !log.interleaved && typeof m.id === 'number') {
    // A transport taken as its ended predecessor's successor numbers its requests 1, 2, 3, ...: an id out of that count
    // is another transport's (the predecessor, still open): from here on no request can be told to be either's.
    if (log.successor === true && log.lastId !== undefined && m.id !== log.lastId + 1) {
      log.interleaved = true;
      log.transports = Math.max(log.transports ?? 0, 2);
      ctx.note?.(IDLE_NOTE);
    } else log.lastId = m.id;
  }
  const here: Sent = log.interleaved ? { conn: INTERLEAVED_CONN } : log.session !== undefined ? { session: log.session } : {};
  if (direction === 'c2s' && isRequest) {
    const owner: Sent = log.interleaved ? { id: m.id as JsonRpcId, conn: `${INTERLEAVED_CONN}#${(log.seq = (log.seq ?? 0) + 1)}` } : { ...here, id: m.id as JsonRpcId };
    owner.what = JSON.stringify([m.method, (m as { params?: unknown }).params ?? null]);
    const open = (log.open ??= new Map());
    const key = idKey(owner.id!);
    const same = open.get(key);
    if (same) same.sent.push(owner);
    else {
      if (open.size >= MAX_OPEN) open.delete(open.keys().next().value!);
      open.set(key, { sent: [owner], answered: 0 });
    }
    return owner;
  }
  // An answer (s2c), or a notification about a request (its cancellation, progress): its request's owner.
  const about = direction === 's2c' && typeof m.method !== 'string' && isId(m.id) ? m.id
    : m.method === 'notifications/cancelled' && isId(m.params?.requestId) ? m.params.requestId
    : m.method === 'notifications/progress' && isId(m.params?.progressToken) ? m.params.progressToken
    : undefined;
  if (about === undefined) return here;
  const waiting = log.open?.get(idKey(about));
  const isAnswer = about === m.id && typeof m.method !== 'string';
  // The client cancelled its request: what its caller got was its own timeout or cancellation, whatever came after.
  if (direction === 'c2s' && m.method === 'notifications/cancelled' && waiting) for (const x of waiting.sent) Object.assign(x, { cancelled: true, cancelledLine: ctx.line });
  if (!log.interleaved) {
    if (isAnswer && waiting) answered(log, waiting.sent.find((x) => x.session === log.session) ?? waiting.sent[0]!);
    return here;
  }
  if (!waiting) return here;
  const left = waiting.sent.length - waiting.answered;
  // One request in flight with this id, or several alike in all but their session (the same method and params: which
  // took which answer cannot be told, and no report line would differ but by time): the oldest.
  if (waiting.answered === 0 && (left === 1 || (isAnswer && waiting.sent.every((x) => x.what === waiting.sent[0]!.what)))) {
    const owner = waiting.sent[0]!;
    if (isAnswer) answered(log, owner);
    return { ...(owner.session !== undefined ? { session: owner.session } : {}), ...(owner.conn !== undefined ? { conn: owner.conn } : {}) };
  }
  if (!isAnswer) return here;
  // Several requests in flight with this id: whose answer it is, the line does not say.
  ctx.note?.(AMBIGUOUS_ANSWER_NOTE);
  waiting.answered++;
  if (waiting.answered >= waiting.sent.length) log.open!.delete(idKey(about));
  return undefined;
}

/**
 * httpcore's "receive_response_headers.failed": when the one request waiting for a head is the one POST in flight, it
 * ended there with no response (a JSON answer's head the client's read timeout gave up on: the Python SDK 2.3.0 does
 * not catch httpx's ReadTimeout there, and it reaches the app as an exception). Otherwise which request is not known.
 */
function headFailed(log: PythonLog, exception: string, text: string | undefined, line: string, ctx: AdapterContext): AdapterResult {
  const heads = log.heads;
  const waiting = heads === undefined ? 0 : [...heads.values()].reduce((a, b) => a + b, 0);
  const inFlight = log.inFlight ?? [];
  if (heads === undefined || waiting !== 1 || heads.get('POST') !== 1 || inFlight.length !== 1 || (log.unknownInFlight ?? 0) !== 0) {
    log.heads = undefined;
    log.headsLost = true;
    return [];
  }
  heads.delete('POST');
  const owner = inFlight.pop()!;
  if (owner.id === undefined) return [];
  answered(log, owner);
  const proven = NO_HEAD_FAILURE.test(exception);
  // The Python SDK 2.3.0 does not catch httpx's error there: it ends the Client's transport (no "terminated" line
  // comes), so a transport started next is not a second one at once.
  if (proven) endTransport(log);
  const said = `httpcore's "receive_response_headers.failed exception=${exception}${text ? `: ${text.slice(0, 120)}` : ''}" at line ${ctx.line}`;
  const uncaught = "the Python SDK's transport does not catch it: the exception ends the transport's tasks and with them the Client's session, the call is cancelled and the app's `async with Client(...)` raises httpx's " + exception + ' in an exception group, not a JSON-RPC error; no later request of that session can be sent';
  const why = exception === 'ReadTimeout'
    ? `no response head came: the client's own read timeout (${said}: nothing came for as long as its httpx client's read timeout allows; ${uncaught}; the server may still be running the request)`
    : proven
      ? `the connection closed before any response head came, closed by the peer (the server, a hop between them, or the network), not by the client (${said}); ${uncaught}; the request had been sent, so the server may have run it`
      : `no response head came (${said})`;
  const record: MessageRecord = { v: 1, kind: 'message', direction: 's2c', side: 'client', message: { jsonrpc: '2.0', id: owner.id }, error: why };
  if (proven) record.noResponse = 'no-head';
  const ts = leadingTime(line);
  if (ts !== undefined) record.ts = ts;
  if (owner.session !== undefined) record.session = owner.session;
  if (owner.conn !== undefined) record.conn = owner.conn;
  return [record];
}

/**
 * httpcore's "connect_tcp.failed" right after a request's "Sending client message" (and its connect_tcp.started): that
 * request's POST found no server, and only when it is the one POST in flight. The Python SDK 2.3.0 does not catch
 * httpx's ConnectError there: it ends the Client's session and reaches the app in an exception group.
 */
function notConnected(log: PythonLog, owner: Sent, connects: number, exception: string, text: string, line: string, ctx: AdapterContext): AdapterResult {
  // (A CancelledError is the client's own teardown, not a server that could not be reached.)
  if (!CONNECT_FAILURE.test(exception)) return [];
  const inFlight = log.inFlight ?? [];
  if (inFlight.length !== 1 || inFlight[0] !== owner || (log.unknownInFlight ?? 0) !== 0 || connects !== 1) {
    // More than one POST in flight, or more than one connection started since the request's line (a GET's reconnect):
    // whose connection failed, the line does not say.
    if (connects > 0) ctx.note?.(AMBIGUOUS_CONNECT_NOTE);
    return [];
  }
  if (owner.id === undefined) return [];
  inFlight.pop();
  answered(log, owner);
  // Its transport ended with it (no "terminated" line comes): a transport started next is not a second one at once.
  endTransport(log);
  const record: MessageRecord = {
    v: 1, kind: 'message', direction: 's2c', side: 'client', message: { jsonrpc: '2.0', id: owner.id }, noResponse: 'connect-failed',
    error: `its POST could not connect, nothing was sent (httpcore's "connect_tcp.failed exception=${exception}" at line ${ctx.line}${text ? `: ${text.slice(0, 120)}` : ''}): the server was not reached; the Python SDK does not catch it: the exception ends the Client's session and reaches the app in an exception group, not as a JSON-RPC error`,
  };
  const ts = leadingTime(line);
  if (ts !== undefined) record.ts = ts;
  if (owner.session !== undefined) record.session = owner.session;
  if (owner.conn !== undefined) record.conn = owner.conn;
  return [record];
}

/** A client transport ended by an exception the SDK does not catch (no "terminated" line comes for it). */
function endTransport(log: PythonLog): void {
  log.transports = Math.max((log.transports ?? 0) - 1, 0);
  if (log.transports === 0) log.interleaved = false;
}

/** The request whose SSE stream ended without its answer, and the SDK did not resume it: its end. */
function streamEnd(log: PythonLog, ended: { owner: Sent; line: number; ts?: string; failed?: Failure }): MessageRecord {
  const { owner, failed } = ended;
  answered(log, owner);
  // Where the exception was read: httpcore's line, or the last line of the SDK's traceback (httpcore's lines off).
  const said = (f: Failure, withText: boolean) => {
    const text = withText && f.text !== undefined ? `: ${f.text}` : '';
    return f.traceback ? `the traceback of "SSE stream ended" ends in "${f.exception}${text}" at line ${f.line}` : `httpcore's "receive_response_body.failed exception=${f.exception}${text}" at line ${f.line}`;
  };
  // httpx's read timeout is the client's own: no byte came for as long as its http client's `read` timeout allows (the
  // SDK's default client waits 300 s; an app's own httpx client may wait less), whatever the server was doing.
  const at = `"SSE stream ended" at line ${ended.line}, not resumed`;
  const how = failed === undefined ? ` (${at})`
    : failed.exception === 'ReadTimeout'
      ? `, at the client's own read timeout (${said(failed, false)}, ${at}: nothing had come on it for as long as its httpx client's read timeout allows, 300 s in the SDK's default client, an app's own may wait less; the server may still be running the tool)`
      // The other end closed it or the connection broke: the server, a hop between them, or the network; not the
      // client's own close, so no cancellation (the words "cut by the peer" say so to the analysis, as an end's error does).
      : PEER_FAILURE.test(failed.exception)
        ? `, cut by the peer (the server, a hop between them, or the network), not closed by the client (${said(failed, true)}, ${at})`
      : ` (${said(failed, false)}, ${at})`;
  const record: MessageRecord = {
    v: 1, kind: 'message', direction: 's2c', side: 'client', message: { jsonrpc: '2.0', id: owner.id }, status: 200,
    error: `its POST's SSE stream broke before the response${how}: the Python SDK gives its caller "SSE stream ended without a response"`,
  };
  if (ended.ts !== undefined) record.ts = ended.ts;
  if (owner.session !== undefined) record.session = owner.session;
  if (owner.conn !== undefined) record.conn = owner.conn;
  return record;
}

/** The tool a tools/call's `what` (its method and params as JSON) names. */
function toolOf(what: string): string | undefined {
  const params = (JSON.parse(what) as [string, { name?: unknown } | null])[1];
  return typeof params?.name === 'string' ? params.name : undefined;
}

/**
 * The held tools/call JSON answer, let go at `line`: an input_required result where that line is the client sending a
 * continuation of the call (the same tool with inputResponses or requestState, which the SDK sends only after one).
 */
function takeHeld(log: PythonLog, line: string, ctx: AdapterContext): MessageRecord {
  const { record, tool, line: at } = log.heldAnswer!;
  log.heldAnswer = undefined;
  heldLine.set(record, at);
  const sdk = /inputResponses|requestState/.test(line) ? SDK_LINE.exec(line) : null;
  if (sdk?.[1] !== 'Sending client message') return record;
  const m = pydanticMessage(sdk[2]!) as { method?: unknown; params?: { name?: unknown; requestState?: unknown; inputResponses?: unknown } } | undefined;
  const p = m?.params;
  const responses = p?.inputResponses !== null && typeof p?.inputResponses === 'object' && !Array.isArray(p.inputResponses) ? p.inputResponses as Record<string, unknown> : undefined;
  if (m?.method !== 'tools/call' || p?.name !== tool || (typeof p.requestState !== 'string' && responses === undefined)) return record;
  const answers = responses === undefined ? [] : Object.entries(responses).slice(0, 3).map(([k, v]) => {
    const action = (v as { action?: unknown } | null)?.action;
    return `${JSON.stringify(k.slice(0, 60))}${typeof action === 'string' ? ` ${JSON.stringify(action.slice(0, 20))}` : ''}`;
  });
  const why = `an input_required result: ${String(record.error).replace(/^answered: /, '').replace(/; the Python SDK's DEBUG log does not hold a JSON body.*$/s, '')}, not logged; the client's next request (line ${ctx.line}) continues the call (tools/call ${JSON.stringify(tool.slice(0, 60))} with ${[responses !== undefined ? 'inputResponses' : '', typeof p.requestState === 'string' ? 'requestState' : ''].filter(Boolean).join(' and ')}), which the SDK sends only after an input_required result${answers.length > 0 ? `; its answers: ${answers.join(', ')}${Object.keys(responses!).length > 3 ? ', ...' : ''}` : ''}`;
  const input: MessageRecord = { ...record, inputRequired: why, error: why };
  heldLine.set(input, at);
  return input;
}

/**
 * The held non-2xx JSON answer, let go at a line after its body's close: its body held a JSON-RPC error the caller got,
 * unless that line is the SDK's saying it used its fallback (`fallback`, its line). At the log's end (`end`) nothing says which.
 */
function errorBodyEnd(log: PythonLog, fallback: number | undefined, end = false): MessageRecord {
  const eb = log.errorBody!;
  log.errorBody = undefined;
  const body = `the body is not in the Python SDK's log (application/json, httpcore's head at line ${eb.head})`;
  if (fallback !== undefined) eb.record.error = `${eb.said}; ${body}: it held no JSON-RPC error, the SDK logged "Non-2xx body was not a JSON-RPC error; using fallback" (line ${fallback}) and gave its caller ${eb.own}`;
  else if (eb.closed && !end) eb.record.error = `${eb.said}; ${body}, read to the end (line ${eb.read}): it held a JSON-RPC error, which the SDK gives its caller as MCPError (it logs "Non-2xx body was not a JSON-RPC error" right after the read when the body holds none, and did not); its code and message are not in the log`;
  heldLine.set(eb.record, eb.at);
  return eb.record;
}

/**
 * A request's application/json answer broken off while the SDK read it (httpcore's "receive_response_body.failed" after
 * its 2xx head): no complete answer came. The Python SDK catches only httpx's StreamError and pydantic's ValidationError
 * around that read; this error ends its transport (test/fixtures/real-audit94: the caller's call cancelled, the Client's
 * `async with` raising an ExceptionGroup).
 */
function jsonBroke(log: PythonLog, owner: Sent, failed: { exception: string; line: number; text?: string }, line: string): MessageRecord {
  answered(log, owner);
  const head = owner.jsonHead!;
  const record: MessageRecord = {
    v: 1, kind: 'message', direction: 's2c', side: 'client', message: { jsonrpc: '2.0', id: owner.id }, status: head.status,
    // (A peer's break is no close by the client: the words "cut by the peer" say so to the analysis, as for an SSE stream.)
    error: `its application/json body (HTTP ${head.status}, httpcore's head at line ${head.line}) broke off before its end${PEER_FAILURE.test(failed.exception) ? ', cut by the peer (the server, a hop between them, or the network), not closed by the client' : ''}: httpcore's "receive_response_body.failed" ${failed.exception}${failed.text !== undefined ? ` ${JSON.stringify(failed.text.slice(0, 160))}` : ''} (line ${failed.line}); the Python SDK does not catch that error while it reads a JSON answer (only httpx's StreamError and pydantic's ValidationError): its transport fails, the Client closes, and its caller gets no MCPError but its call cancelled (CancelledError; the Client's async with raises an ExceptionGroup)`,
  };
  const ts = leadingTime(line);
  if (ts !== undefined) record.ts = ts;
  if (owner.session !== undefined) record.session = owner.session;
  if (owner.conn !== undefined) record.conn = owner.conn;
  return record;
}

/**
 * A request's application/json answer read to its end (httpcore's "receive_response_body.complete" after its 2xx head):
 * answered, though the Python SDK logs nothing of such a body (not the result, not a JSON-RPC error it raises to its
 * caller as MCPError), so what it said is not in the log.
 */
function jsonRead(log: PythonLog, owner: Sent, line: string, ctx: AdapterContext): MessageRecord {
  answered(log, owner);
  log.jsonRead = { owner, line: ctx.line };
  const head = owner.jsonHead!;
  const record: MessageRecord = {
    v: 1, kind: 'message', direction: 's2c', side: 'client', message: { jsonrpc: '2.0', id: owner.id }, status: head.status, bodyUnlogged: head.unlike ? 'unlike' : 'json',
    error: `answered: HTTP ${head.status}, Content-Type ${JSON.stringify(head.type)} (httpcore's head at line ${head.line}), its body read to the end (line ${ctx.line}); the Python SDK's DEBUG log does not hold a JSON body, so what it held is not known here: a result, an isError result, a JSON-RPC error (its caller's MCPError) and a result the SDK refused (its caller's pydantic ValidationError) all read alike (the server's log or a capture says which)${head.unlike ? '; this transport\'s server answered its other requests on SSE streams, so a JSON answer is likely a layer\'s in front of its handler (a fault injector\'s or a gateway\'s JSON-RPC error)' : ''}`,
  };
  const ts = leadingTime(line);
  if (ts !== undefined) record.ts = ts;
  if (owner.session !== undefined) record.session = owner.session;
  if (owner.conn !== undefined) record.conn = owner.conn;
  return record;
}

/**
 * That JSON answer's body refused by the SDK (the body's text is not repeated here): not JSON (`json`: "Error parsing
 * JSON response", pydantic's json_invalid: MALFORMED_JSON), JSON but no JSON-RPC message (another pydantic error type:
 * INVALID_ENVELOPE); both give the caller MCPError -32700 "Failed to parse JSON response". Or (`dropped`) a response to
 * another id, which the dispatcher dropped: INVALID_ENVELOPE, and the caller waits on.
 */
function refusedRead(failed: { owner: Sent; line: number; ts?: string }, ctx: AdapterContext, how: string, otherId?: string): MessageRecord {
  const { owner } = failed;
  const head = owner.jsonHead!;
  const body = `its application/json body (HTTP ${head.status}, httpcore's head at line ${head.line})`;
  const raised = 'and gives its caller MCPError -32700 "Failed to parse JSON response", not a result';
  const why =
    how === 'json'
      ? `${body} is not JSON: the Python SDK logged "Error parsing JSON response" (line ${failed.line}) with pydantic's "Invalid JSON" (json_invalid, line ${ctx.line}), ${raised}`
      : how === 'dropped'
        ? `${body} answered id ${otherId === 'None' ? 'null (None)' : otherId!.slice(0, 40)}, not the request id ${JSON.stringify(owner.id)}: the Python SDK dropped it ("dropping response for unknown/late request id", line ${failed.line}) and its caller went on waiting`
        : `${body} is JSON but no JSON-RPC message the Python SDK takes: it logged "Error parsing JSON response" (line ${failed.line}) with pydantic's validation errors (type=${how}, line ${ctx.line}), ${raised}`;
  const record: MessageRecord = {
    v: 1, kind: 'message', direction: 's2c', side: 'client', message: { jsonrpc: '2.0', id: owner.id }, status: head.status, bodyUnlogged: head.unlike ? 'unlike' : 'json', error: why,
    ...(how === 'json' ? { malformed: why } : { invalidEnvelope: why }),
  };
  if (failed.ts !== undefined) record.ts = failed.ts;
  if (owner.session !== undefined) record.session = owner.session;
  if (owner.conn !== undefined) record.conn = owner.conn;
  return record;
}

/** The request in flight whose id starts the SSE event's text the SDK refused (pydantic's input_value), when only one has it. */
function sseEventOwner(log: PythonLog, line: string): Sent | undefined {
  const m = REFUSED_INPUT_ID.exec(line);
  if (!m) return undefined;
  let id: JsonRpcId;
  try { id = JSON.parse(m[1]!) as JsonRpcId; } catch { return undefined; }
  const waiting = log.open?.get(idKey(id));
  return waiting !== undefined && waiting.sent.length === 1 && waiting.answered === 0 ? waiting.sent[0] : undefined;
}

/** That SSE event's answer record: MALFORMED_JSON (not JSON) or INVALID_ENVELOPE (JSON of another shape); the event's text is not in the log. */
function refusedEvent(log: PythonLog, owner: Sent, failed: { line: number; ts?: string }, ctx: AdapterContext, how: string): MessageRecord {
  const raised = 'and gives its caller MCPError -32700 "Failed to parse SSE message", not a result';
  const why = how === 'json'
    ? `an SSE event on its stream is not JSON: the Python SDK logged "Error parsing SSE message" (line ${failed.line}) with pydantic's "Invalid JSON" (json_invalid, line ${ctx.line}) of a text that starts with this request's id, ${raised}`
    : `an SSE event on its stream is JSON but no JSON-RPC message the Python SDK takes: it logged "Error parsing SSE message" (line ${failed.line}) with pydantic's validation errors (type=${how}, line ${ctx.line}) of a text that starts with this request's id, ${raised}`;
  const record: MessageRecord = {
    // (the SDK parses SSE events only of a 2xx text/event-stream answer: 200, unless httpx's line tied another to it)
    v: 1, kind: 'message', direction: 's2c', side: 'client', message: { jsonrpc: '2.0', id: owner.id! }, status: owner.status ?? 200, bodyUnlogged: 'json', error: why,
    ...(how === 'json' ? { malformed: why } : { invalidEnvelope: why }),
  };
  if (failed.ts !== undefined) record.ts = failed.ts;
  if (owner.session !== undefined) record.session = owner.session;
  if (owner.conn !== undefined) record.conn = owner.conn;
  answered(log, owner);
  return record;
}

/** The SDK's "SSE message:" line of a notification about this request (its progress): the stream is still being read. */
function isNotificationOf(line: string, owner: Sent): boolean {
  const sdk = SDK_LINE.exec(line);
  if (!sdk || sdk[1] !== 'SSE message') return false;
  const m = pydanticMessage(sdk[2]!) as { id?: unknown; method?: unknown; params?: { progressToken?: unknown } } | undefined;
  return m !== undefined && typeof m.method === 'string' && m.id === undefined && (m.params?.progressToken === undefined || m.params.progressToken === owner.id);
}

/**
 * A request's SSE stream the client closed itself right after its body began (httpcore's "response_closed" with no
 * SSE message of its answer, no "SSE stream ended" and no cancellation between): the Python SDK 2.3.0 does so, logging
 * nothing, when httpx's SSE reader raises SSEError (an event over the client's max_sse_event_size), and answers the
 * request with its own error.
 */
function readerFailed(log: PythonLog, open: { owner: Sent; line: number }, line: string, ctx: AdapterContext): MessageRecord {
  const { owner } = open;
  answered(log, owner);
  const record: MessageRecord = {
    v: 1, kind: 'message', direction: 's2c', side: 'client', message: { jsonrpc: '2.0', id: owner.id }, status: 200,
    error: `its POST's SSE stream was given up by the client's own SSE reader without the response: httpcore's "response_closed.started" at line ${ctx.line} right after the body began (line ${open.line}), with no SSE message of the answer, no "SSE stream ended" and no cancellation between; the Python SDK logs nothing when httpx's SSE reader fails (SSEError), as on an event over the client's max_sse_event_size (1,048,576 bytes by default), and gives its caller "SSE stream failed: Server-sent event exceeded the 1048576 byte limit." (whether the event over it was the response, a capture or the server's log says)`,
  };
  const ts = leadingTime(line);
  if (ts !== undefined) record.ts = ts;
  if (owner.session !== undefined) record.session = owner.session;
  if (owner.conn !== undefined) record.conn = owner.conn;
  return record;
}

/** A request whose SSE stream the server closed without its answer, and the SDK did not resume: its end. */
function closedEnd(log: PythonLog, closed: { owner: Sent; line: number; ts?: string }): MessageRecord {
  const { owner } = closed;
  answered(log, owner);
  const record: MessageRecord = {
    v: 1, kind: 'message', direction: 's2c', side: 'client', message: { jsonrpc: '2.0', id: owner.id }, status: 200,
    error: owner.cancelled
      ? `its POST's SSE stream ended without the response, after the client had cancelled it (the server closed it: httpcore's "receive_response_body.complete" at line ${closed.line}): its caller had the client's own timeout or cancellation already`
      // Closed by the server (or a hop in front of it) with a clean end of the body: not the client's own close.
      : `its POST's SSE stream ended without the response, closed by the server or a hop in front of it, not by the client (httpcore's "receive_response_body.complete" at line ${closed.line}; not resumed): the Python SDK gives its caller "SSE stream ended without a response"`,
  };
  if (closed.ts !== undefined) record.ts = closed.ts;
  if (owner.session !== undefined) record.session = owner.session;
  if (owner.conn !== undefined) record.conn = owner.conn;
  return record;
}

/**
 * The SDK's "Unexpected content type" line right after the status line tied a request's 2xx head (type), or its
 * "Received 202 Accepted" after a request's 202 (no type): the SDK read no response from that body (a captive page's
 * text/html, a JSON answer sent as text/plain; a 202 has none for it) and gave its caller its own -32600; the request
 * ends there, with no response (the words "refused unread by the client's own transport" tell the analysis that this
 * close of the client's is no cancellation).
 */
function typeRefused(log: PythonLog, type: string | undefined, line: string): AdapterResult {
  const tied = log.refusable;
  log.refusable = undefined;
  if (tied === undefined || !log.open?.get(idKey(tied.owner.id!))?.sent.includes(tied.owner)) return [];
  const { owner, status } = tied;
  answered(log, owner);
  const record: MessageRecord = {
    v: 1, kind: 'message', direction: 's2c', side: 'client', message: { jsonrpc: '2.0', id: owner.id }, status,
    error: type !== undefined
      ? `its POST's HTTP ${status} answer has Content-Type ${JSON.stringify(type)}, neither application/json nor text/event-stream: refused unread by the client's own transport (its "Unexpected content type" line), which gives its caller its own -32600; no response reached it`
      : `HTTP 202 Accepted to a request (httpx's "HTTP Request:" line, then the SDK's "Received 202 Accepted"): a 202 carries no response, and its body is refused unread by the client's own transport, which resolves the request with its own -32600 "server answered a request with 202 Accepted"`,
  };
  const ts = leadingTime(line);
  if (ts !== undefined) record.ts = ts;
  if (owner.session !== undefined) record.session = owner.session;
  if (owner.conn !== undefined) record.conn = owner.conn;
  return [record];
}

/**
 * The log ended with a stream's end still waiting for the next record to say whether the SDK resumes it (a 2026-07-28
 * client, which ends no session with a DELETE, whose last call's stream broke; an app that exits on that error): no
 * record resumed it, so the request ended there without its answer, as when any other line follows.
 */
function endOfInput(ctx: AdapterContext): { line: number; records: CanonicalRecord[] }[] {
  const log = ctx.state?.get('python-sdk') as PythonLog | undefined;
  if (log === undefined) return [];
  const out: { line: number; records: CanonicalRecord[] }[] = [];
  if (log.errorBody !== undefined) {
    const line = log.errorBody.read ?? log.errorBody.head;
    out.push({ line, records: [errorBodyEnd(log, undefined, true)] });
  }
  if (log.heldAnswer !== undefined) out.push({ line: log.heldAnswer.line, records: [takeHeld(log, '', ctx)] });
  const closed = log.closed;
  log.closed = undefined;
  if (closed !== undefined && log.open?.get(idKey(closed.owner.id!))?.sent.includes(closed.owner)) out.push({ line: closed.line, records: [closedEnd(log, closed)] });
  const ended = log.ended;
  log.ended = undefined;
  if (ended !== undefined) out.push({ line: ended.line, records: [streamEnd(log, ended)] });
  // A request the client cancelled after its POST's SSE head came (tied to it), and whose answer no SSE message brought
  // before the log ended: the log shows every SSE message it read, so none came (the TypeScript SDK's server sends none
  // after a cancellation, and the stream stays open until the client goes). Its view ends so, as a capture's would.
  for (const owner of [...(log.streaming ?? [])]) {
    if (owner.sse !== true || owner.cancelledLine === undefined || owner.id === undefined || !log.open?.get(idKey(owner.id))?.sent.includes(owner)) continue;
    answered(log, owner);
    const record: MessageRecord = {
      v: 1, kind: 'message', direction: 's2c', side: 'client', message: { jsonrpc: '2.0', id: owner.id }, status: 200,
      error: `its POST's SSE stream brought no response before the log ended: the client had cancelled the request (notifications/cancelled at line ${owner.cancelledLine}) after its 2xx head, and no SSE message of the log answers it (its caller had the client's own timeout or cancellation)`,
    };
    if (owner.session !== undefined) record.session = owner.session;
    if (owner.conn !== undefined) record.conn = owner.conn;
    out.push({ line: owner.cancelledLine, records: [record] });
  }
  return out;
}

/** A request has its answer (or its end): no longer waiting. */
function answered(log: PythonLog, owner: Sent): void {
  const streamAt = log.streaming?.indexOf(owner) ?? -1;
  if (streamAt !== -1) log.streaming!.splice(streamAt, 1);
  if (owner.id === undefined) return;
  const key = idKey(owner.id);
  const waiting = log.open?.get(key);
  if (!waiting) return;
  const at = waiting.sent.indexOf(owner);
  if (at === -1) return;
  waiting.sent.splice(at, 1);
  if (waiting.sent.length === 0 || waiting.answered >= waiting.sent.length) log.open!.delete(key);
}

function isId(v: unknown): v is JsonRpcId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
}

/** A Python logging record's level, logger name and text, where JSON formatters put them (python-json-logger, structlog, ECS). */
const RECORD_LEVEL = ['levelname', 'level', 'log.level', 'severity'];
const RECORD_NAME = ['name', 'logger', 'logger_name', 'log.logger'];
const RECORD_TEXT = ['message', 'msg', 'event'];
const RECORD_TIME = ['asctime', 'timestamp', 'time', '@timestamp'];

const firstString = (v: Record<string, unknown>, keys: string[]): string | undefined => {
  for (const k of keys) if (typeof v[k] === 'string' && v[k] !== '') return v[k] as string;
  return undefined;
};

/** A time as the text lines' leading asctime reads it: an asctime as is, an ISO or epoch time as `YYYY-MM-DD HH:MM:SS.mmm` (UTC). */
function asctimeOf(v: unknown): string | undefined {
  if (typeof v === 'string' && LEADING_TIME.test(v)) return leadingTime(v);
  const ms = typeof v === 'number' ? (v > 1e12 ? v : v * 1000) : typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 23).replace('T', ' ') : undefined;
}

/**
 * A Python logging record written as JSON (python-json-logger, structlog's JSONRenderer) whose text is one of the
 * lines this format reads (the SDK's own, httpx's status line, a transport's start or end), as the text line
 * `%(asctime)s %(levelname)s %(name)s: %(message)s` would have written it; once the SDK's lines were seen in the
 * input, any such record while a stream's end waits for the next one. Undefined for every other value: those stay
 * the application-log reader's.
 */
export function pythonRecordLine(v: Record<string, unknown>, state: Map<string, unknown> | undefined): string | undefined {
  const text = firstString(v, RECORD_TEXT);
  const name = firstString(v, RECORD_NAME);
  const level = firstString(v, RECORD_LEVEL);
  if (text === undefined || name === undefined || level === undefined) return undefined;
  const log = state?.get('python-sdk') as PythonLog | undefined;
  const pending = log?.ended !== undefined || log?.closed !== undefined;
  const ours = (SDK_LINE.test(text) && (/jsonrpc='2\.0'/.test(text) || !/^(Sending client message|SSE message|Received server message|Validated client message|Sending message via SSE)/.test(SDK_LINE.exec(text)![1]!))) ||
    HTTPX_POST.test(text) || CONNECTING.test(text) || TERMINATED.test(text) || SSE_ENDED.test(text) || SSE_RESUMING.test(text) || ABORTED_POST.test(text) ||
    HTTPCORE_HEAD.test(text) || HTTPCORE_BODY_DONE.test(text) || BODY_STARTED.test(text) || RESPONSE_CLOSED.test(text);
  // httpx's and httpcore's own records, once the SDK's lines were seen: the text format reads them line by line (a
  // connect that failed right after a request's line, a head that failed), so a JSON log's are read the same way.
  const transportLine = log !== undefined && /^(?:httpx|httpcore)\d*(?:\.|$)/.test(name);
  if (!ours && !pending && !transportLine) return undefined;
  const exc = typeof v.exc_info === 'string' ? `\n${v.exc_info}` : '';
  const time = asctimeOf(firstString(v, RECORD_TIME) ?? v.time ?? v.timestamp);
  const line = `${level.toUpperCase()} ${name}: ${text}${exc}`;
  return time !== undefined ? `${time} ${line}` : line;
}

const firstChar = (line: string) => line.trimStart()[0];

export const pythonSdkLogFormat: TextFormat = {
  kind: 'text',
  name: 'python-sdk',
  // A line in Python logging's own shapes (read if it is the SDK's, else skipped), or the SDK's words in a format of
  // the app's own (`%(message)s`, `[%(process)d] %(asctime)s ...`: a message, or its transport's start); once one was seen, every other line of that log (a traceback's, a multi-line
  // message's) belongs to it.
  detectText: (line, state) => BASIC.test(line) || ASCTIME.test(line) || state?.has('python-sdk') === true || (NAME_LEVEL.test(line) && SDK_PROCESS_LOGGER.test(line) && !/jsonrpc["']?\s*:/.test(line)) || (SDK_LINE.test(line) && /jsonrpc='2\.0'/.test(line)) || (CONNECTING.test(line) && firstChar(line) !== '{'),
  textToRecords: toRecords,
  endOfInput,
  limits: {
    http: false,
    httpNote: "HTTP statuses only as httpx's lines tie them to a message (a non-2xx one: HTTP_ERROR, a bare status line where httpcore's head shows no Content-Type and Content-Length: 0; a 2xx one whose SSE stream then broke, or that the server closed before the answer as httpcore's DEBUG lines show: STREAM_INCOMPLETE); NO_RESPONSE only as httpcore's DEBUG lines prove it for the one POST in flight (its connect failed: nothing sent; its connection closed, the client's read timeout, or the SDK's abort of it on 2026-07-28, before any head; an abort after its 2xx head is STREAM_INCOMPLETE; an abort does not say whether the SDK's own timeout or the app's cancellation caused it); headers only as httpcore's DEBUG head line shows them (Content-Type, Content-Length, an error status's Retry-After, so RETRY_AFTER_IGNORED is checked where the format has times; the session id is taken as sent from the \"Received session ID\" line on, as the SDK sends it, so a 404 is SESSION_EXPIRED)",
    bodies: true,
    session: true,
    typedIds: true,
    answersUnlogged: true,
    sessionSent: true,
    notes: [
      "the Python SDK client's DEBUG log: responses the server sent as application/json (json_response=True) are not logged: alone, such calls show as UNANSWERED (where httpcore's DEBUG lines show the application/json head and the body read to its end, the why says it was answered, a result, an isError result, a JSON-RPC error and a result the SDK refused not told apart; an input_required result where the client's next request continues the call with inputResponses or requestState (INPUT_REQUIRED); a body broken off while read STREAM_INCOMPLETE; and where the SDK then refused that body: its \"Error parsing JSON response\" with pydantic's json_invalid is MALFORMED_JSON, with another validation error INVALID_ENVELOPE, and its \"dropping response for unknown/late request id\" of another id right after the read INVALID_ENVELOPE (a wrong id); where the same transport's other answers came on SSE streams, it is likely a layer's in front of the handler, and the same tools/call after it is linked as its retry), and given with the server's log they take its answer (not one whose progress the log read: that came on its SSE stream, whose answer the log would show); httpx's status line of a POST (\"HTTP Request:\", at INFO) is tied to its message only when that POST was the only one in flight, and a non-2xx one is then the call's HTTP_ERROR (its body is not in the log)",
      'times only when the logging format has %(asctime)s (its local time: --timezone says which, default UTC)',
    ],
  },
};
