// Deciding one attempt's outcome from what its view saw: HTTP first, then the body, the envelope, the result.
import { PY_SSE_EVENT_LIMIT, cancelledCallerGot, type AttemptView, type OutcomeDetail, type Resumption } from './join/attempt.js';
import { OUTCOME_INFO, type Layer, type Outcome } from './outcomes.js';
import { schemaViolation, surelyValid } from './output-schema.js';
import { resultShapeProblem, toolResultProblem, type ShapeProblem } from './result-shape.js';
import { jsonText, plural } from './report/text.js';

interface Classification {
  outcome: Outcome;
  layer: Layer;
  detail: OutcomeDetail;
  /** A tools/call's -32602 that no check of the request gave (a listed tool, arguments that keep its inputSchema): the tool raised it. */
  toolRaised?: boolean;
  /** The client gave up before its response came: the outcome that late response has (the classification is what the client saw). */
  late?: Outcome;
}

/** An error message that refuses the request's arguments: the SDKs' validation ("Invalid arguments for tool x: ...", zod's "Expected string, received number"). */
const SAYS_ARGUMENTS_REFUSED = /\binvalid (arguments?|params|parameters|input)\b|\bvalidation (error|failed)\b|\bexpected\b.{0,80}\breceived\b|\b(is )?required\b|\bunknown tool\b|\btool\b.{0,80}\bnot found\b/i;

/**
 * Invalid params for a listed tool whose arguments keep its inputSchema, with a message that does not refuse them: no
 * check of the request refused it; the tool raised it (the Python SDK passes an MCPError a tool raises on as a JSON-RPC
 * error), or the server's check of the tool's result did (the v2 SDK's outputSchema check). Either way the tool ran.
 * A message that says the arguments were refused still is a refusal (a server's own check may be stricter than the
 * schema it lists: a format, a pattern, a refinement).
 */
function raisedByTool(view: AttemptView, code: number, message: string, tool: ToolContext): boolean {
  return view.method === 'tools/call' && code === -32602 && tool.inputSchema !== undefined && view.callArgs !== undefined && !SAYS_ARGUMENTS_REFUSED.test(message) && surelyValid(view.callArgs, tool.inputSchema);
}

/**
 * The TypeScript SDK server's (1.x Server, v2) refusal of a tool's own result, which it checks against the tools/call
 * result schema after the handler returned: -32602 "Invalid tools/call result: …" (measured:
 * test/fixtures/real-audit44/v1-result-refused-retry). The tool ran; what failed is its result, not the request.
 */
export function refusedToolResult(message: string): boolean {
  return /\bInvalid tools\/call result\b/.test(message);
}

const RESULT_REFUSED_WHY = 'the server\'s SDK checked the tool\'s result against the tools/call result schema after the tool ran and refused it ("Invalid tools/call result", as the TypeScript SDK\'s Server, 1.x and v2, answers): what failed is the tool\'s result, not the request';

const RAN_WHY = "the arguments keep the tool's inputSchema (tools/list): no check of the request refused them, the error came once the tool ran (raised by the tool, or by the server's check of its result)";

/** The why of an HTTP error that came as a bare status line (report/notes.ts adds whether the server's log has it). */
export const BARE_STATUS_WHY = 'a bare status line (no body, no Content-Type): not an answer of the MCP handler (the SDKs\' servers send a JSON-RPC error body) but of a layer in front of it: a middleware (fault injector, rate limiter, auth check) or a proxy';

const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function result(outcome: Outcome, detail: OutcomeDetail = {}): Classification {
  return { outcome, layer: OUTCOME_INFO[outcome].layer, detail };
}

/** What the log told about the tool before this call (from the latest tools/list of the same client). */
interface ToolContext {
  /** The tool declares an outputSchema. */
  outputSchema?: boolean;
  /** That schema, when known. */
  schema?: unknown;
  /** Its inputSchema, when tools/list gave one. */
  inputSchema?: unknown;
}

/** The outcome of one view; first match wins, in the order documented in the README. */
export function classify(view: AttemptView, tool: ToolContext = {}): Classification {
  const c = answeredAfterGivingUp(view, classifyView(view, tool));
  // The client's answer to the server's request on this call's stream was refused on its way (a rate limiter's 429):
  // whatever the call then got (the tool's own timeout of its wait, as an isError result), that is why.
  const refused = view.askAnswerRefused;
  if (refused !== undefined && !(c.detail.why ?? '').includes('on its way')) {
    const ask = view.asked?.find((q) => q.id === refused.id);
    const where = ask?.onGet ? ' (sent on the session\'s GET stream while this call was the only one open in the session)' : '';
    const note = `the client's answer to the server's ${ask ? ask.method.slice(0, 60) : 'request'} (id ${jsonText(refused.id).slice(0, 40)})${where} got HTTP ${refused.status} on its way: the POST that carried it was refused, so the tool never got it`;
    c.detail.why = c.detail.why ? `${c.detail.why}; ${note}` : note;
  }
  if (view.onStandaloneGet && view.response !== undefined) {
    const note = `the response came on the session's standalone GET stream (opened without Last-Event-ID, not a resumption), not on the stream of its own POST: the spec lets a server send a response there only when resuming that request's stream; the TypeScript SDK takes it, a client that waits for it on the POST's stream does not`;
    // The Python SDK's client takes a request's response only on that request's own stream: its caller got an error
    // ("server answered a request with 202 Accepted", "SSE stream ended without a response").
    const py = pythonSdkAgent(view);
    if (py !== undefined && view.http) return result('STREAM_INCOMPLETE', { why: `${note}; this client (User-Agent ${JSON.stringify(py)}) is the Python SDK's, which takes a response only on the request's own stream: its caller got no result` });
    // The caller may well have its result (the TypeScript SDK takes any response on any stream), so the outcome stands.
    c.detail.why = c.detail.why ? `${c.detail.why}; ${note}` : note;
  }
  if (view.bomBody === true && c.outcome !== 'STREAM_INCOMPLETE' && c.outcome !== 'MALFORMED_JSON') {
    const note = 'the JSON body begins with a byte order mark (U+FEFF): fetch\'s json() drops it (the TypeScript SDK took the answer), the Python SDK\'s client refuses it ("Invalid JSON")';
    c.detail.why = c.detail.why ? `${c.detail.why}; ${note}` : note;
  }
  if (view.batchAnswer) {
    const note = 'the response came inside a JSON array (a batch of one) although the request was sent alone: JSON-RPC 2.0 answers a lone request with one object, and MCP has no batches since 2025-06-18';
    const py = pythonSdkAgent(view);
    // The Python SDK's client parses a JSON body as one message and fails on an array: its caller got no result.
    if (py !== undefined) return result('INVALID_ENVELOPE', { why: `${note}; the client (User-Agent ${JSON.stringify(py)}: the Python SDK's HTTP client) reads one object and fails on it ("Failed to parse JSON response", -32700)` });
    // The TypeScript SDK reads an array body as a batch, so for it (and a client not known) the outcome stands.
    const also = `${note}; the TypeScript SDK takes it, the Python SDK fails on it (-32700), a client that expects one object may not`;
    c.detail.why = c.detail.why ? `${c.detail.why}; ${also}` : also;
  }
  return c;
}

/** Outcomes of a response that ends a call well (its caller has what it asked for, or is asked for input). */
/** The TypeScript SDK server's refusals of a request the client's capabilities do not declare (1.x and v2). */
const CAPABILITY_REFUSED = /^(MCP error -?\d+: )?Client does not support (form elicitation|url elicitation|URL elicitation|elicitation|sampling|listing roots)\b/;

const ANSWERED_WELL: ReadonlySet<Outcome> = new Set(['TOOL_SUCCESS', 'SUCCESS', 'TOOL_ERROR', 'INPUT_REQUIRED', 'TASK_CREATED']);

/**
 * A client's view (or one of no known side: a proxy's, a HAR's) whose response came after the client had cancelled the request (notifications/cancelled: its own
 * timeout, its caller's cancellation): its caller got that, not the response, which the SDK clients drop (the
 * TypeScript SDK's "unknown message ID", the Python SDK's "dropping response for unknown/late request id"). The
 * attempt's outcome is what the client saw, a stream that gave it no response before it gave up (STREAM_INCOMPLETE, as
 * for one whose answer never came); the late response's outcome stays in the why and in `late`.
 */
function answeredAfterGivingUp(view: AttemptView, c: Classification): Classification {
  const inLog = view.answeredAfterCancelInLog;
  if (inLog !== undefined && (view.side === 'client' || view.side === 'unknown') && ANSWERED_WELL.has(c.outcome)) {
    // A log without times: its lines, written as the client went, put the cancellation before the answer.
    const why = `the client cancelled it (notifications/cancelled, line ${inLog.cancel.line}) before any response came: its caller got ${cancelledCallerGot(view.cancelReason, view.method)}, not a result; the server's ${c.outcome} answer came after that (line ${inLog.answer.line}; the log has no times), when the client had given up on it (the SDK clients drop such an answer)${c.detail.why ? `; ${c.detail.why}` : ''}`;
    return { ...result('STREAM_INCOMPLETE', { why }), late: c.outcome };
  }
  if ((view.side !== 'client' && view.side !== 'unknown') || view.cancelledAt === undefined || view.responseTs === undefined || view.responseTs <= view.cancelledAt || !ANSWERED_WELL.has(c.outcome)) return c;
  const after = view.startTs !== undefined ? ` ${((view.cancelledAt - view.startTs) / 1000).toFixed(2)} s after sending it` : '';
  const late = ` ${((view.responseTs - view.cancelledAt) / 1000).toFixed(2)} s`;
  const why = `the client cancelled it (notifications/cancelled)${after}, before any response came: its caller got ${cancelledCallerGot(view.cancelReason, view.method)}, not a result; the server's ${c.outcome} answer came${late} after that, when the client had given up on it (the SDK clients drop such an answer)${c.detail.why ? `; ${c.detail.why}` : ''}`;
  return { ...result('STREAM_INCOMPLETE', { why }), late: c.outcome };
}

/**
 * A request of a message log the client cancelled, with no response in the log, where the cancellation's reason says
 * what its caller got (cancelledCallerGot): that, whatever came after; whether an HTTP response had begun is not known.
 */
function cancelledUnanswered(view: AttemptView): string | undefined {
  if (view.cancelled !== true) return undefined;
  const got = cancelledCallerGot(view.cancelReason, view.method);
  if (got === cancelledCallerGot(undefined, undefined)) return undefined;
  return `the client cancelled it (notifications/cancelled) with no response before that in the log: its caller got ${got}, whatever came after${view.answersUnlogged ? '; whether a response had begun the log does not say (it leaves some responses out: see the input\'s "cannot show")' : ''}`;
}

/** A list page whose nextCursor is the cursor its request sent (the test kitchen's catalog.pagination cursor_loop). */
function cursorLoopWhy(cursor: string): string {
  return `its nextCursor ${jsonText(cursor.slice(0, 60))} is the cursor this request sent: a client that follows nextCursor until there is none asks for another page again and again, for as long as the server answers so`;
}

/** The request's User-Agent when it is httpx's, the HTTP client of the Python SDK (`python-httpx/…`, `python-httpx2/…`). */
export function pythonSdkAgent(view: AttemptView): string | undefined {
  const ua = view.requestHeaders?.get('user-agent')?.trim();
  return ua !== undefined && /^python-httpx\d*\//i.test(ua) ? ua.slice(0, 60) : undefined;
}

/**
 * The Python SDK client took the response with another id on this request's own SSE stream as its answer (it sets the id
 * to the request's): the wrong id did not leave the response unmatched for it.
 */
export function pythonTookStray(view: AttemptView): boolean {
  const r = view.strayResponse;
  if (view.response !== undefined || !isObject(r) || pythonSdkAgent(view) === undefined) return false;
  if (view.contentType === undefined || !/event-stream/i.test(view.contentType)) return false;
  // (The same value as another type is a case of its own: every SDK takes it.)
  return !((typeof r.id === 'string' || typeof r.id === 'number') && (typeof view.id === 'string' || typeof view.id === 'number') && typeof r.id !== typeof view.id && String(r.id) === String(view.id));
}

function classifyView(view: AttemptView, tool: ToolContext): Classification {
  if (view.http) {
    if (view.status === null || view.status === undefined) {
      const why = view.error ?? (view.openAfterMs !== undefined ? `no response within ${view.openAfterMs / 1000} s while the log went on` : view.streamEnd === 'cut' ? 'the log ends before any response' : 'no HTTP response');
      if (view.cancelledAt !== undefined && view.startTs !== undefined && (view.endTs === undefined || view.cancelledAt <= view.endTs)) {
        // The caller gave up before any response head (its timeout): a server that sends its SSE head only with the first
        // event (the TypeScript SDK's Node transport, 1.24.3 and before) had sent nothing; the request ended later.
        return result('NO_RESPONSE', { why: `the client cancelled it (notifications/cancelled) ${((view.cancelledAt - view.startTs) / 1000).toFixed(2)} s after sending it, before any response head came; the request then ended: ${why}` });
      }
      const pv = view.requestHeaders?.get('mcp-protocol-version')?.trim();
      if (closedByClient(view) && pv !== undefined && pv >= '2026-07-28') {
        // 2026-07-28 has no notifications/cancelled over HTTP: the client closing the request (its timeout) cancels it.
        const after = view.startTs !== undefined && view.endTs !== undefined ? ` ${((view.endTs - view.startTs) / 1000).toFixed(2)} s after sending it` : '';
        return result('NO_RESPONSE', { why: `the client closed the request${after}, before any response head came (on ${pv} that is the cancellation): ${why}` });
      }
      if (closedOnServer(view) && pv !== undefined && pv >= '2026-07-28') {
        const after = view.startTs !== undefined && view.endTs !== undefined ? ` ${((view.endTs - view.startTs) / 1000).toFixed(2)} s after the request came` : '';
        return result('NO_RESPONSE', { why: `the connection closed${after}, before a response was sent (on ${pv} that is how a client cancels; ${PEER_UNKNOWN})` });
      }
      return result('NO_RESPONSE', { why });
    }
  }
  // A message log that proves no HTTP response came (the Python SDK client's DEBUG log: httpcore's failed connect, or its
  // failed wait for a head, tied to the one POST in flight): the same transport failure a capture shows.
  if (!view.http && view.noResponse !== undefined && view.response === undefined && view.status === undefined) {
    return result('NO_RESPONSE', { why: view.error ?? 'no HTTP response' });
  }
  if (typeof view.status === 'number' && (view.status < 200 || view.status > 299)) {
    const detail = errorDetail(view.response ?? view.strayResponse);
    if (detail.errorMessage === undefined && view.errorBody !== undefined) detail.why = `the body says: ${view.errorBody}`;
    else if (detail.why === undefined && view.statusWhy !== undefined) detail.why = view.bareStatus === true ? `${bareStatusLineWhy(view, view.status)}; ${view.statusWhy}` : `${view.statusWhy}${retryAfter(view)}`;
    else if (detail.why === undefined && detail.errorMessage === undefined && view.bareStatus === true && (view.status < 300 || view.status >= 400)) detail.why = bareStatusLineWhy(view, view.status);
    // A redirect is no refusal: an HTTP client follows it (fetch does, with the method and body for 307 and 308), and
    // what it sends there is the next attempt of the call.
    if (view.status >= 300 && view.status < 400 && detail.why === undefined) {
      // (The Location last: a secret in its query is redacted up to the end of the text.)
      detail.why = `HTTP ${view.status}, a redirect, not a refusal: a client that follows it sends the request to its Location (fetch does, the same request for 307 and 308), its next attempt; one that does not (the TypeScript SDK follows only a redirect to its own origin) has no answer to it${view.redirectTo !== undefined ? `; Location: ${view.redirectTo}` : ''}`;
    }
    // A bare status (the MCP test kitchen's injected 503, a proxy's 502): its phrase, and that no body said more.
    if (detail.why === undefined && detail.errorMessage === undefined && detail.errorCode === undefined) detail.why = bareStatusWhy(view, view.status);
    const dropped = droppedSession(view);
    if (dropped !== undefined) detail.why = detail.why ? `${detail.why}; ${dropped}` : dropped;
    const guard = requestGuard(view.status, detail.errorMessage ?? view.errorBody);
    if (guard !== undefined) detail.why = detail.why ? `${detail.why}; ${guard.why}` : guard.why;
    // The Python SDK's server sends a JSON-RPC error a tool raised in HTTP 400 on 2026-07-28 (-32602 among them): with
    // arguments that keep the tool's inputSchema, that -32602 is the tool's, not a check refusing the request.
    if (detail.errorCode !== undefined && raisedByTool(view, detail.errorCode, detail.errorMessage ?? '', tool) && isObject(view.response)) {
      const ran = `${RAN_WHY}; the server sent it in HTTP ${view.status} (the Python SDK's server does so on 2026-07-28)`;
      detail.why = detail.why ? `${detail.why}; ${ran}` : ran;
      return { ...result('HTTP_ERROR', detail), toolRaised: true };
    }
    return result('HTTP_ERROR', detail);
  }
  const response = view.response ?? view.strayResponse;
  if (view.malformed !== undefined && view.response === undefined) {
    // A JSON body whose transfer failed or was aborted before it ended (the connection reset under its Content-Length,
    // a HAR's net::ERR_INCOMPLETE_CHUNKED_ENCODING): what came is a part of the body, cut on the way, not a body the
    // server sent broken. A body that ended cleanly and does not parse stays MALFORMED_JSON, cut or not.
    if ((view.streamEnd === 'error' || view.streamEnd === 'aborted' || view.streamEnd === 'timeout') && view.contentType?.toLowerCase().includes('application/json')) {
      return result('STREAM_INCOMPLETE', { why: `the JSON body broke off before it ended (${view.error ?? `the transfer ended ${view.streamEnd}`}): no complete response came; what did was cut: ${view.malformed}` });
    }
    // A 2xx body of a Content-Type the SDK clients refuse unread (a captive portal's text/html page) is no JSON body
    // that fails to parse: they never parse it, whatever it holds (test/fixtures/real-audit45, fhtml200).
    const ownBody = view.http && view.rebuilt !== true && view.resumed !== true && view.legacySse !== true && view.onStandaloneGet !== true;
    const refused = ownBody && typeof view.status === 'number' && view.status >= 200 && view.status <= 299 && view.status !== 202 ? refusedMediaType(view, view.malformed) : undefined;
    if (refused !== undefined) return result('STREAM_INCOMPLETE', { why: refused });
    return result('MALFORMED_JSON', { why: view.malformed });
  }
  if (response === undefined) {
    // A message log that ties a 2xx head and the stream's break to the request (the Python SDK client's DEBUG log).
    if (!view.http && view.streamEnd === 'aborted' && typeof view.status === 'number' && view.status >= 200 && view.status <= 299) {
      return result('STREAM_INCOMPLETE', { why: view.error ?? 'the stream broke before the response' });
    }
    if (view.unloggedEnvelope !== undefined) return result('INVALID_ENVELOPE', { why: view.unloggedEnvelope });
    if (view.unloggedInput !== undefined) return result('INPUT_REQUIRED', { why: view.unloggedInput, resultType: 'input_required' });
    if (!view.http) {
      return result('UNANSWERED', {
        why: view.error ?? view.unloggedAnswer ?? (view.openAfterMs !== undefined ? `no response within ${view.openAfterMs / 1000} s while the log went on`
          : cancelledUnanswered(view) ?? (view.answersUnlogged ? 'no response in the log, which leaves some responses out (see the input\'s "cannot show"): not evidence that none came' : 'no response in the log')),
      });
    }
    // The client cancelled the request before the stream was seen to end: no response was due after that, whatever
    // the capture kept (mitmproxy's HAR of a call the SDK timed out: `Client disconnected.`, its end time unknown);
    // the stream's why below says so.
    const cancelledFirst = view.cancelledAt !== undefined && (view.endTs === undefined || view.cancelledAt < view.endTs || view.endUnseen === true);
    if (view.bodyNotCaptured && !view.cutEvent && view.sseEvents === 0 && !(cancelledFirst && view.streamEnd !== 'complete')) {
      // The capturing client saw the stream fail after its head (Chrome's or Playwright's net::ERR_*): it did not end
      // as a stream that delivered its answer does, even though the body itself was not kept.
      if (view.error !== undefined && (view.streamEnd === 'aborted' || view.streamEnd === 'timeout')) {
        const mitm = view.error === MITMPROXY_CLIENT_GONE ? ' (mitmproxy writes that when its client closed the connection, and for a flow still open when mitmdump stops)' : '';
        return result('STREAM_INCOMPLETE', { why: `the stream failed after its head (${view.error})${mitm}; the capture kept no body, so an answer sent before the failure would not show` });
      }
      if (view.bodyEncoded !== undefined) return result('UNANSWERED', { why: `the capture kept the response body as sent, compressed (Content-Encoding: ${view.bodyEncoded}), not decoded (a recorder mounted before a compression middleware): what the server answered is not observable here` });
      return result('UNANSWERED', { why: 'the capture kept no response body (sanitized or streamed capture): what the server answered is not observable' });
    }
    if (view.method === 'subscriptions/listen' && view.subscribed && (view.streamEnd === 'aborted' || view.streamEnd === 'timeout')) {
      // A subscription (2026-07-28) is a request whose stream is the point: it has no response until it ends, and
      // the client ends it by closing the stream. Only a close from the other side is a lost subscription.
      return result('SUCCESS', { why: `the subscription stream (acknowledged, ${plural(view.sseEvents, 'event')}) was closed from the client's side: subscriptions/listen ends so` });
    }
    return result('STREAM_INCOMPLETE', { why: incompleteWhy(view) });
  }
  const unread = unreadBody(view);
  if (unread !== undefined) return result('STREAM_INCOMPLETE', { why: unread });
  const py = view.bomBody === true && !view.resumed && !view.onStandaloneGet ? pythonSdkAgent(view) : undefined;
  if (py !== undefined) return result('MALFORMED_JSON', { why: `the JSON body begins with a byte order mark (U+FEFF), and this client (User-Agent ${JSON.stringify(py)}) is the Python SDK's, whose JSON parser refuses it ("Invalid JSON"; fetch's json(), as the TypeScript SDK reads a body, drops it): its caller got no result, though the body holds a response` });
  const bigEvent = view.largestEvent !== undefined && view.largestEvent > PY_SSE_EVENT_LIMIT && !view.resumed && !view.onStandaloneGet ? pythonSdkAgent(view) : undefined;
  if (bigEvent !== undefined) {
    return result('STREAM_INCOMPLETE', { why: `its stream carried an SSE event of ${view.largestEvent!.toLocaleString('en-US')} bytes, over the ${PY_SSE_EVENT_LIMIT.toLocaleString('en-US')} the Python SDK client takes in one event by default (max_sse_event_size), and this client (User-Agent ${JSON.stringify(bigEvent)}) is the Python SDK's: it failed the request ("Server-sent event exceeded the ${PY_SSE_EVENT_LIMIT} byte limit."), though the stream holds the response (the TypeScript SDK clients take it; a JSON response has no such limit)` });
  }
  return classifyResponse(view, response, tool);
}

/**
 * Why a response that a 2xx body of the request's own exchange holds never reached the caller, or undefined: a 202
 * (the SDK clients read no body of a 202), a Content-Type they refuse, or a JSON body whose transfer did not end
 * (fetch's json() and httpx need the body's end, not bytes that happen to parse). A response that came on another
 * stream (a resumption, the 2024-11-05 transport's GET stream, the standalone GET stream) is not judged by this one.
 */
export function unreadBody(view: AttemptView): string | undefined {
  if (!view.http || view.rebuilt === true || view.resumed === true || view.legacySse === true || view.onStandaloneGet === true || view.response === undefined) return undefined;
  if (typeof view.status !== 'number' || view.status < 200 || view.status > 299) return undefined;
  if (view.status === 202) return 'HTTP 202 Accepted to a request: the SDK clients read no body of a 202 (the TypeScript SDK cancels it unread and waits on, until its timeout; the Python SDK fails the request, "server answered a request with 202 Accepted"), though this one holds the response';
  const refused = refusedMediaType(view);
  if (refused !== undefined) return refused;

  if ((view.streamEnd === 'error' || view.streamEnd === 'aborted' || view.streamEnd === 'timeout') && !recordingStopped(view) && view.contentType?.split(';')[0]!.trim().toLowerCase() === 'application/json' && view.sseEvents === 0) {
    return `the JSON body did not end (${view.error ?? `the transfer ended ${view.streamEnd}`}): the text that came parses, but the SDK clients read a JSON body to its end (fetch's json(), httpx), so theirs failed or waited on; its Content-Length may promise more than the server sent`;
  }
  return undefined;
}

/**
 * A 2xx answer to a request whose Content-Type is neither application/json nor text/event-stream: the SDK clients
 * read no response from it, whatever the body holds (the TypeScript SDK throws "Unexpected content type", the Python
 * SDK answers the request with -32600 of its own); or none, where the log shows the response's other headers (a
 * Date, a Content-Length: a log that keeps no response headers tells nothing of it).
 */
function refusedMediaType(view: AttemptView, notJson?: string): string | undefined {
  // (notJson: why the body does not parse, for one that holds no response: said after the refusal, which comes first.)
  const holds = notJson === undefined ? ', though the body holds a response' : `; nor is the body JSON: ${notJson}`;
  const ct = view.contentType;
  if (ct === undefined) {
    return view.noContentType === true
      ? `the SDK clients take no response from it: it has no Content-Type (the log shows its other headers), so they refuse the body unread (the TypeScript SDK throws StreamableHTTPError "Unexpected content type: null", the Python SDK answers the request with its own -32600)${holds}`
      : undefined;
  }
  const type = ct.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type === 'text/event-stream') return undefined;
  const shown = JSON.stringify(ct.slice(0, 80));
  return `the SDK clients take no response from it: its Content-Type ${shown} is neither application/json nor text/event-stream, so they refuse the body unread (the TypeScript SDK throws StreamableHTTPError "Unexpected content type", the Python SDK answers the request with its own -32600 "Unexpected content type")${holds}`;
}

/** A request refused after the client dropped its session with a DELETE: which session, and what the DELETE got. */
/**
 * A refusal in the words of a request guard in front of the MCP handler: the DNS-rebinding protection of the SDKs'
 * framework helpers and transports (SDK 1.32.2's createMcpExpressApp and its transport's allowedHosts/allowedOrigins,
 * the v2 express and hono helpers: 403 `Invalid Host: x`, `Invalid Host header: x`, `Invalid Origin: x`, `Missing Host
 * header`; the Python SDK's TransportSecurityMiddleware: 421 `Invalid Host header`, 403 `Invalid Origin header`, bodies
 * of plain text). Measured: test/fixtures/real-audit84. `check` names what it checked, `why` says so for an attempt.
 */
export function requestGuard(status: number, text: string | undefined): { check: 'Host' | 'Origin'; why: string } | undefined {
  if ((status !== 403 && status !== 421) || text === undefined) return undefined;
  const t = text.trimStart();
  if (/^(?:Invalid Host(?: header)?(?::|$)|Missing Host header\b)/.test(t)) {
    return { check: 'Host', why: "a Host check refused it before any MCP handler read it, so nothing ran (DNS-rebinding protection, as the MCP SDKs' HTTP helpers and transports have: the Host it arrived with is not among the server's allowed hosts; behind a reverse proxy or in a container, the name the proxy or the client used)" };
  }
  if (status === 403 && /^Invalid Origin(?: header)?(?::|$)/.test(t)) {
    return { check: 'Origin', why: "an Origin check refused it before any MCP handler read it, so nothing ran (DNS-rebinding protection, as the MCP SDKs' HTTP helpers and transports have: the request's Origin, which a browser sends, is not among the server's allowed origins)" };
  }
  return undefined;
}

/** requestGuard of an attempt's outcome detail: its error's message, else a text body (its own, or the server's view's where the client's log leaves it out). */
export function requestGuardOf(status: number | null | undefined, detail: { errorMessage?: string; why?: string } | undefined): { check: 'Host' | 'Origin'; why: string; text: string } | undefined {
  if (typeof status !== 'number' || detail === undefined) return undefined;
  // (the server's view's JSON-RPC error is quoted with its code: `-32000 "Invalid Host: x"`)
  const m = /(?:^|; )(?:the body says|the server's view of this POST has its body): (?:-?\d+ "((?:[^"\\]|\\.)*)"|([^;]*))/.exec(detail.why ?? '');
  const text = detail.errorMessage ?? (m ? m[1] ?? m[2] : undefined);
  const g = requestGuard(status, text);
  return g && text !== undefined ? { ...g, text } : undefined;
}

function droppedSession(view: AttemptView): string | undefined {
  const d = view.afterDelete;
  if (d === undefined) return undefined;
  const after = d.ts !== undefined && view.startTs !== undefined ? ` ${Math.max(0, view.startTs - d.ts)} ms` : '';
  const sid = JSON.stringify(d.session.slice(0, 40));
  const answered = typeof d.status === 'number' && d.status >= 200 && d.status <= 299
    ? `was accepted: the client ended that session and sent on without one`
    : `was answered ${typeof d.status === 'number' ? `HTTP ${d.status}` : 'with no response'}: the client dropped its session id although the server did not end the session (the TypeScript SDK 1.x client does so whatever the answer)`;
  return `sent without a session id${after} after the client's DELETE of session ${sid}, which ${answered}`;
}

/**
 * Error texts of a stream that failed on the network after its head, which some captures still end as `aborted`: a
 * HAR's `_error` (Chrome's net::ERR_INCOMPLETE_CHUNKED_ENCODING, net::ERR_CONNECTION_RESET), the Inspector's fetch
 * error; or that name another party as the one that ended it ("stream reset by proxy", "closed by the gateway").
 * net::ERR_ABORTED and an AbortError are the client's own close.
 */
const NETWORK_FAILURE = /net::ERR_(?!ABORTED\b)|NS_ERROR_NET|ECONNRESET|EPIPE|UND_ERR_SOCKET|socket hang up|other side closed|\breset by (?!the client\b)\w|\b(?:closed|cut|dropped|killed) by (?:the |a |an )?(?:proxy|gateway|load balancer|peer|server|upstream|remote|hop)\b|\bterminated\b/i;

/** What the recording proxy (`mcp-triage record`) writes when the client closed its side of an exchange. */
const PROXY_CLIENT_CLOSED = 'the client closed the connection';

/**
 * mitmproxy's flow error (its HAR's `response._error`) when its client's connection closed; it writes the same for
 * a flow still open when mitmdump stops (test/fixtures/real-mitmproxy/mitm-stopped; or the upstream's protocol error,
 * whichever side it closes first), so it does not tell that the client gave up.
 */
const MITMPROXY_CLIENT_GONE = 'Client disconnected.';

/**
 * The client's own side ended the exchange: it aborted the request or its recorder saw it time out, not a network
 * failure; or, in a recording proxy's view (no side), the client closed its connection before the response ended.
 * A proxy recording the server's side (`--side server`) sees whatever connects to it close, a hop as well as the
 * client: that is closedOnServer.
 */
export function closedByClient(view: AttemptView): boolean {
  if (view.side !== 'client') return view.side !== 'server' && (peerClosedProxy(view) || abortedBeforeHead(view));
  // A HAR given as the client's view (--client) says the same of its own abort before any head: status 0 and
  // net::ERR_ABORTED, which it says alone (no side) too.
  return ((view.streamEnd === 'aborted' || view.streamEnd === 'timeout') && !(view.error !== undefined && (NETWORK_FAILURE.test(view.error) || READER_FAILED.test(view.error))) && !recordingStopped(view))
    || abortedBeforeHead(view);
}

/**
 * The client's own SSE parser refused the stream (the Python SDK's DEBUG log: an event over its max_sse_event_size),
 * or its transport a body's Content-Type (python-sdk-log.ts's words): the client closed it, as a failure of the
 * request, not as its cancellation.
 */
const READER_FAILED = /\bgiven up by the client's own SSE reader\b|\brefused unread by the client's own transport\b/;

/**
 * A HAR (no side: the browser's, or a proxy's written like it) says `net::ERR_ABORTED`, with no response, of a request
 * that its client aborted before any response head came (a page's AbortController, a client's timeout): Chrome's word
 * for the page's own cancel, not a network failure (those are other net::ERR_ codes).
 */
function abortedBeforeHead(view: AttemptView): boolean {
  return (view.status === null || view.status === undefined) && view.error === 'net::ERR_ABORTED';
}

/** What the recording proxy (`mcp-triage record`) writes on the exchanges still open when it is stopped. */
const RECORDING_STOPPED = /^recording stopped(?: by a signal)?$/;

/**
 * The recorder itself stopped (`mcp-triage record` stopped by Ctrl-C, SIGTERM or `proxy.close()`) while the exchange
 * was still open: the capture ends there, as a log that ends does. Nobody closed the stream on purpose, and whether
 * the response came after it is not in the log.
 */
export function recordingStopped(view: AttemptView): boolean {
  return view.streamEnd === 'aborted' && view.error !== undefined && RECORDING_STOPPED.test(view.error);
}

/** A recording proxy's view: the peer in front of it closed its connection before the response ended. */
function peerClosedProxy(view: AttemptView): boolean {
  return view.streamEnd === 'aborted' && view.error === PROXY_CLIENT_CLOSED;
}

/** What `recordingHandler` and `recordingMiddleware` write when the connection closed before the response was complete. */
const SERVER_SAW_CLOSE = /^the connection closed before (the response was complete|a response was sent)/;
const PEER_UNKNOWN = "the server's log cannot tell the client from something between them";

/**
 * The server's side saw the connection close before the response was complete: in its own log (`recordingHandler`), or
 * in a recording proxy's with side server in front of it, whose peer closed. The client or a hop between them closed
 * it, and the server cannot tell which: what is said of it names no closer. On 2026-07-28 that is what cancels the
 * request.
 */
export function closedOnServer(view: AttemptView): boolean {
  return view.side === 'server' && view.streamEnd === 'aborted' && view.error !== undefined && (SERVER_SAW_CLOSE.test(view.error) || view.error === PROXY_CLIENT_CLOSED);
}

/**
 * The client closed the stream itself and cancelled the request at the same moment, the close logged first (by up to
 * 50 ms): one timeout did both, as the FastMCP Client's does (its HTTP read timeout closes the stream, its request
 * timeout sends notifications/cancelled). A cancellation that came later followed a stream that had already ended.
 */
export function closedWithCancel(view: AttemptView): boolean {
  // (In a server-side proxy's view the cancellation that came with the close names the client as the one that closed.)
  return (closedByClient(view) || (view.side === 'server' && peerClosedProxy(view)))
    && view.cancelledAt !== undefined && view.endTs !== undefined && view.cancelledAt >= view.endTs && view.cancelledAt - view.endTs <= 50;
}

/** A client's view that ended `aborted` or `timeout` with an error naming a network failure or another party. */
function abortedElsewhere(view: AttemptView): boolean {
  return view.side !== 'server' && (view.streamEnd === 'aborted' || view.streamEnd === 'timeout') && view.error !== undefined && NETWORK_FAILURE.test(view.error);
}

/**
 * The client's notifications/cancelled after its stream ended (one before it, or with it, is said before this is
 * asked): none, or how much later it came, so that the why agrees with a CANCELLED that came long after the end.
 */
/**
 * A client that closed the stream 60 s after sending the request, cancelling nothing: 60 s is the TypeScript SDK's
 * default request timeout, which a client that sets none keeps; one that exits on it (the MCP Inspector's CLI) closes
 * the stream before its notifications/cancelled goes out (test/fixtures/real-audit64/v1-timeout).
 */
function sdkDefaultTimeout(view: AttemptView): string {
  if (view.cancelledAt !== undefined || view.startTs === undefined || view.endTs === undefined) return '';
  const ms = view.endTs - view.startTs;
  return ms >= 60_000 && ms < 60_500 ? "; 60 s is the TypeScript SDK's default request timeout: a client that keeps it gave up then, and one that exits on it (the MCP Inspector's CLI) is gone before its notifications/cancelled goes out" : '';
}

function cancelAfterEnd(view: AttemptView): string {
  if (view.cancelledAt === undefined || view.endTs === undefined) return 'no notifications/cancelled';
  if (view.cancelledAt - view.endTs < 50) return 'notifications/cancelled as it ended';
  return `notifications/cancelled only ${((view.cancelledAt - view.endTs) / 1000).toFixed(2)} s later`;
}

function incompleteWhy(view: AttemptView): string {
  const base = incompleteWhyOf(view);
  const why = `${base}${keepAliveWhy(view, base.includes(SINCE_COMMENT))}${deletedWhy(view)}`;
  // Text that is no SSE field is dropped by every SSE client: an error page a proxy wrote into the stream shows only here.
  const named = view.namedEvent !== undefined ? `${why}; an event of type ${JSON.stringify(view.namedEvent)} carried the response, but SSE clients take only "message" events (the MCP SDKs ignore the others): the server named the event wrongly` : why;
  return view.nonSseText !== undefined ? `${named}; the stream carried text that is no SSE field, which an SSE client ignores (an error page written into it?): "${view.nonSseText}"` : named;
}

/**
 * SSE comments (keep-alives) on a stream that carried no answer: whoever sent them held the stream open, and on one
 * connection what is sent arrives in order, so an answer sent before the last of them would have come before it. The
 * TypeScript SDK 1.32.2 server sends one every 15 s on each open stream (`: keepalive`), as the Python SDK's does
 * (sse-starlette's `: ping - <time>`), so a client read timeout longer than that never fires on a silent tool (the
 * Python client's 300 s in test/fixtures/real-audit67/py-hang-default).
 */
function keepAliveWhy(view: AttemptView, told: boolean): string {
  const k = view.keepAlive;
  if (k === undefined || view.response !== undefined) return '';
  // After the client's cancellation a comment tells nothing of the tool (the stream may stay open a while; an HTTP
  // client that keeps reading it, as a HAR's browser, gets the next keep-alive): only those before it count.
  if (view.cancelledAt !== undefined && (k.lastTs === undefined || k.lastTs > view.cancelledAt)) return '';
  const what = k.count === 1 ? '1 SSE comment (a keep-alive)' : `${k.count} SSE comments (keep-alives)`;
  const sent = view.side === 'server' ? 'went out' : 'came';
  // told: the silence named before this says how long before the end the last came.
  const last = !told && k.lastTs !== undefined && view.endTs !== undefined && view.endTs >= k.lastTs ? `, the last ${((view.endTs - k.lastTs) / 1000).toFixed(2)} s before it ended` : '';
  const held = k.lastTs !== undefined ? 'the stream was held open and the answer had not been sent by then' : 'the stream was held open while no answer came';
  const timeout = view.side === 'server' ? '' : "; a read timeout longer than their interval never fires on such a stream (the TypeScript SDK 1.32.2 server's `: keepalive` and the Python SDK's `: ping` come every 15 s)";
  return `; ${what} ${sent} on it${last}: ${held} (the tool still ran, or hung)${timeout}`;
}

/** An accepted DELETE of the session came while the request's stream was open: who sent it, and when. */
function deletedWhy(view: AttemptView): string {
  const d = view.sessionDeleted;
  if (d === undefined) return '';
  const at = `${d.src.file}:${d.src.line}, answered ${d.status}`;
  const when = d.ts !== undefined && view.startTs !== undefined ? ` ${((d.ts - view.startTs) / 1000).toFixed(2)} s into the call` : '';
  const who = d.who === 'self' ? `the client's own DELETE of the session (${at}) came${when}`
    : d.who === 'other' ? `a DELETE of the session by another client (${d.caller.startsWith('input#') ? `the one whose log is ${d.src.file}` : jsonText(d.caller.slice(0, 80))}; ${at}) came${when}`
      : d.who === 'unseen' ? `the server's log shows a DELETE of the session (${at})${when}, which the client's log does not (another client, or a tool outside these logs, ended the session)`
        : `a DELETE of the session (${at}) came${when} (this log does not tell whether this client or another sent it)`;
  return `; ${who}, while the stream was open: a deleted session's streams end with it, so the response could not come on them`;
}

function incompleteWhyOf(view: AttemptView): string {
  if (view.status === 202 && !view.legacySse) return '202 Accepted to a request: no response body';
  if (view.legacyCutAt !== undefined && (view.cancelledAt === undefined || view.legacyCutAt <= view.cancelledAt)) {
    const after = view.startTs !== undefined ? ` ${((view.legacyCutAt - view.startTs) / 1000).toFixed(2)} s after the request` : '';
    return `the SSE stream (GET) that was to carry the response broke${after}, before it came (the 2024-11-05 HTTP+SSE transport)`;
  }
  if (view.cancelledAt !== undefined && (view.endTs === undefined || view.cancelledAt < view.endTs || view.legacySse || view.endUnseen === true)) {
    // The caller gave up first (its timeout, an abort): no response is expected once a request is cancelled.
    const after = view.startTs !== undefined ? ` ${((view.cancelledAt - view.startTs) / 1000).toFixed(2)} s after sending it` : '';
    return `the client cancelled it (notifications/cancelled)${after}, before any response came${view.sseEvents ? ` (${plural(view.sseEvents, 'SSE event')} before that)` : ''}${progressAroundCancel(view)}`;
  }
  if (recordingStopped(view) && view.status !== null && view.status !== undefined) {
    // The capture ended with the stream still open, as a log that ends does: what came after is not in it.
    const after = view.startTs !== undefined && view.endTs !== undefined ? ` ${((view.endTs - view.startTs) / 1000).toFixed(2)} s after it was sent` : '';
    return `the recording stopped${after} while the stream was still open (its end says ${jsonText(view.error!)}), before any response came${view.sseEvents ? ` (${plural(view.sseEvents, 'SSE event')} before that)` : ''}: whether the response came after is not in the log`;
  }
  if (closedWithCancel(view) && view.endTs !== undefined && view.cancelledAt !== undefined) {
    const after = view.startTs !== undefined ? ` ${((view.endTs - view.startTs) / 1000).toFixed(2)} s after sending it` : '';
    const gap = view.cancelledAt - view.endTs;
    const when = gap < 2 ? 'at the same time' : gap < 1000 ? `${Math.round(gap)} ms later` : `${(gap / 1000).toFixed(2)} s later`;
    return `the client closed the stream${after} and cancelled it (notifications/cancelled) ${when}, before any response came${view.sseEvents ? ` (${plural(view.sseEvents, 'SSE event')} before that)` : ''}`;
  }
  const pv = view.requestHeaders?.get('mcp-protocol-version')?.trim();
  if (closedByClient(view) && pv !== undefined && pv >= '2026-07-28') {
    // 2026-07-28 has no notifications/cancelled over HTTP: the client closing the response stream is the cancellation.
    const after = view.startTs !== undefined && view.endTs !== undefined ? ` ${((view.endTs - view.startTs) / 1000).toFixed(2)} s after sending it` : '';
    return `the client closed the stream${after}, before any response came (on ${pv} that is the cancellation)${view.sseEvents ? `; ${plural(view.sseEvents, 'SSE event')} came before that` : ''}`;
  }
  if (closedOnServer(view) && pv !== undefined && pv >= '2026-07-28') {
    const after = view.startTs !== undefined && view.endTs !== undefined ? ` ${((view.endTs - view.startTs) / 1000).toFixed(2)} s after the request came` : '';
    return `the connection closed${after}, before the response was sent (on ${pv} that is how a client cancels; ${PEER_UNKNOWN})${view.sseEvents ? `; ${plural(view.sseEvents, 'SSE event')} went out before that` : ''}`;
  }
  if (view.side === 'server' && peerClosedProxy(view) && view.status !== null && view.status !== undefined) {
    // Before 2026-07-28, a recording proxy in front of the server sees its own peer close: the client, or a hop that cut
    // the stream (an error page written in, a proxy that lost its upstream). The server's log cannot tell which.
    const came = view.startTs !== undefined && view.endTs !== undefined ? ` ${((view.endTs - view.startTs) / 1000).toFixed(2)} s after the request came` : '';
    // (A cancellation that came with the close, or before it, was handled above: one here came later, or none did.)
    const cancel = view.cancelledAt !== undefined && view.endTs !== undefined
      ? `; the client's notifications/cancelled came ${((view.cancelledAt - view.endTs) / 1000).toFixed(2)} s after the close`
      : ', and no notifications/cancelled came';
    // A client that then resumed it (GET with Last-Event-ID) had not given the call up: the resumptions say the rest, as
    // in a proxy's log with no side (the Python SDK server's log, a recording proxy in front of it, is this one).
    const resumed = view.primed && view.resumptions?.length ? resumedWhy(view.resumptions, view.plainGetAfter) : '';
    return `the connection closed${came}, before the response was sent (${PEER_UNKNOWN})${cancel}${view.sseEvents ? `; ${plural(view.sseEvents, 'SSE event')} went out before that` : ''}${resumed}`;
  }
  if (closedByClient(view) && view.status !== null && view.status !== undefined) {
    // Before 2026-07-28 a client that closes the stream (its transport closed, its fetch timed out) has not cancelled
    // the request: the server may run on, and the result is lost. Say that it was the client's side that closed it.
    const after = view.startTs !== undefined && view.endTs !== undefined ? ` ${((view.endTs - view.startTs) / 1000).toFixed(2)} s after sending it` : '';
    // A client that then resumed it (GET with Last-Event-ID) did not give the call up: in a proxy's log in front of the
    // server, a hop between it and the client closed the stream as the client's side, and the resumptions say the rest.
    const resumed = view.primed && view.resumptions?.length ? resumedWhy(view.resumptions, view.plainGetAfter) : '';
    return `the client closed the stream${after}${view.streamEnd === 'timeout' ? ' (its fetch timed out)' : ''}, before any response came, and sent ${cancelAfterEnd(view)}${view.sseEvents ? `; ${plural(view.sseEvents, 'SSE event')} came before that` : ''}${sdkDefaultTimeout(view)}${resumed}`;
  }
  if (abortedElsewhere(view) && view.status !== null && view.status !== undefined) {
    // The client's log ended the stream `aborted` (or `timeout`) with an error that names a network failure or another
    // party (a proxy's reset): not the client's own close. Say so, with the error, and what the client did about it.
    const after = view.startTs !== undefined && view.endTs !== undefined ? ` ${((view.endTs - view.startTs) / 1000).toFixed(2)} s after sending it` : '';
    const cancel = pv !== undefined && pv >= '2026-07-28' ? '' : `, and the client sent ${cancelAfterEnd(view)}`;
    // What the client's resumptions of it got (GET with Last-Event-ID), as for a stream that ended: a HAR says
    // `aborted` of a stream whose connection a hop reset, where a client's log says `error`.
    const resumed = view.primed && view.resumptions?.length ? resumedWhy(view.resumptions, view.plainGetAfter) : '';
    return `the stream ${view.streamEnd === 'timeout' ? 'timed out' : 'was aborted'}${after}, before any response came (its end says ${jsonText(view.error!.slice(0, 200))}, not a close by the client)${cancel}${view.sseEvents ? `; ${plural(view.sseEvents, 'SSE event')} came before that` : ''}${resumed}`;
  }
  if (view.cutEvent) return 'the stream was cut inside its last event';
  if (view.legacySse) return 'no response came on the SSE stream (the 2024-11-05 HTTP+SSE transport answers the POST with 202)';
  const ct = view.contentType ?? '';
  if (ct.includes('text/event-stream')) {
    if (view.openAfterMs !== undefined) return `SSE stream still open after ${plural(view.sseEvents, 'event')} and no response for it within ${view.openAfterMs / 1000} s while the log went on`;
    const how = view.streamEnd && view.streamEnd !== 'complete' ? ` (${view.streamEnd})` : '';
    // A server's own recorder writes the end of every stream it serves, even one its client or a hop closed: a log
    // without it stopped with the process (a crash, a kill, a restart) or was cut there.
    const gone = (view.side === 'server' || view.side === 'gateway') && view.endUnseen === true && view.http
      ? "; the server's own log has no end of this stream: the server process stopped while it was open (a crash, a kill or a restart), or the log was cut there"
      : '';
    return `SSE stream ended${how} after ${plural(view.sseEvents, 'event')} without the response${quietWhy(view)}${gone}${view.primed ? resumedWhy(view.resumptions ?? [], view.plainGetAfter) : ''}`;
  }
  if (view.openAfterMs !== undefined) return `no response body within ${view.openAfterMs / 1000} s while the log went on`;
  if (view.streamEnd === 'cut') return 'the log ends before the response body';
  return 'empty response body';
}

/** Silence this long before a stream broke is named: idle timeouts of hops are seconds to minutes (nginx's 60 s). */
const QUIET_NAMED_MS = 1000;

/**
 * How long a stream that broke had been silent, when it was for a second or more: a hop's idle timeout cuts a stream
 * that long silent ("nothing": no event, no head and no SSE comment where the log counts them).
 */
function quietWhy(view: AttemptView): string {
  if (view.quietMs === undefined || view.quietMs < QUIET_NAMED_MS) return '';
  // Comments whose times the log does not give came somewhere in that silence: it was no silence.
  const k = view.keepAlive;
  if (k !== undefined && k.lastTs === undefined) return '';
  // n comments after the head: some gap before the last was at least (last - head) / n long. A final silence shorter
  // than that one was no idle timeout's: one that short would have cut the stream in the longer gap.
  const head = view.headTs ?? view.startTs;
  if (k?.lastTs !== undefined && head !== undefined && view.quietMs < (k.lastTs - head) / k.count) return '';
  const since = quietSinceComment(view) ? SINCE_COMMENT : view.sseEvents ? 'its last event' : 'its head';
  const what = view.side === 'server' ? `nothing had gone out on it for ${(view.quietMs / 1000).toFixed(2)} s (since ${since}) when its connection closed` : `nothing had come on it for ${(view.quietMs / 1000).toFixed(2)} s (since ${since}) when it broke`;
  return `; ${what}: an idle timeout of a hop between (nginx's proxy_read_timeout, a load balancer's) cuts a stream silent that long, and so does the client's own read timeout (an httpx client's \`read\`: the Python SDK's default client waits 300 s, an app's own may wait less); one that progress notifications or SSE comments keep busy passes`;
}

const SINCE_COMMENT = 'its last SSE comment';

/** Whether the silence quietWhy names ran from an SSE comment (a keep-alive), the last thing on the stream. */
function quietSinceComment(view: AttemptView): boolean {
  const last = view.keepAlive?.lastTs;
  return view.quietMs !== undefined && view.quietMs >= QUIET_NAMED_MS && last !== undefined && view.endTs !== undefined && view.endTs - last <= view.quietMs;
}

/**
 * The request's progress around the client's cancellation, where the log gives each its time: how long before it the
 * last came (a tool that went silent and a timeout reset by progress), and how many came after (the tool ran on).
 */
function progressAroundCancel(view: AttemptView): string {
  const at = view.progressAt;
  if (!at?.length || view.cancelledAt === undefined) return '';
  const cancelled = view.cancelledAt;
  const before = at.filter((t) => t <= cancelled);
  const after = at.length - before.length;
  const last = before.length ? `; its last progress notification came ${((cancelled - before[before.length - 1]!) / 1000).toFixed(2)} s before the cancellation` : '';
  // In the server's log one sent after the cancellation came shows the tool ran on; in another, one may have been on its way.
  const ranOn = view.side === 'server' ? ' (sent after it came: the tool ran on)' : '';
  return `${last}${after ? `${last ? ', and' : ';'} ${after} more came after it${ranOn}` : ''}`;
}

/** A resumption held open at least this long with no event before it was aborted is named as one that replayed nothing. */
const EMPTY_RESUMPTION_MS = 1000;

/** How long a resumption answered 2xx stayed open with no event until it was aborted (a second or more), else undefined. */
function emptyResumptionMs(t: Resumption): number | undefined {
  if (t.status === null || t.status < 200 || t.status > 299 || t.ids || t.end !== 'aborted' || t.startTs === undefined || t.endTs === undefined) return undefined;
  return t.endTs - t.startTs >= EMPTY_RESUMPTION_MS ? t.endTs - t.startTs : undefined;
}

/** What one GET resuming a stream (Last-Event-ID) got: its status and end, or that it stayed open with no event. */
export function resumptionAnswer(t: Resumption): string {
  const empty = emptyResumptionMs(t);
  if (empty !== undefined) return `HTTP ${t.status} with no event for ${(empty / 1000).toFixed(2)} s, until it was aborted`;
  return t.status === null ? 'no response' : `HTTP ${t.status}${t.end && t.end !== 'complete' ? ` (stream ${t.end})` : ''}`;
}

/**
 * A resumption answered 2xx whose stream ended complete without an event within a second: it replayed nothing and
 * stayed for nothing (one held open longer, then ended, is not told apart from one the session's end closed).
 */
function endedEmpty(t: Resumption): boolean {
  return t.status !== null && t.status >= 200 && t.status <= 299 && !t.ids && t.end === 'complete'
    && t.startTs !== undefined && t.endTs !== undefined && t.endTs - t.startTs < EMPTY_RESUMPTION_MS;
}

/** What became of the GETs (Last-Event-ID) that tried to resume a stream that ended without the response. */
function resumedWhy(tries: Resumption[], plain?: { status: number | null; end?: string }[]): string {
  if (tries.length === 0) return '; its events carried ids, yet no GET with the last of them (Last-Event-ID) asked for the rest';
  const answer = resumptionAnswer;
  const told = (t: Resumption) => (endedEmpty(t) ? `HTTP ${t.status} (stream ended with no event)` : answer(t));
  // The Python SDK server answers a Last-Event-ID its store gives no stream for (evicted, lost), or whose replay raised
  // (it logs the error), with 200 and an empty stream it ends at once; the Python SDK client resumes again from the
  // same id after each such end, at the server's retry interval, with no limit until its own timeout.
  const empties = tries.filter(endedEmpty);
  const span = empties.length > 2 && empties[0]!.startTs !== undefined && empties[empties.length - 1]!.startTs !== undefined ? ` in ${((empties[empties.length - 1]!.startTs! - empties[0]!.startTs!) / 1000).toFixed(2)} s` : '';
  // (More than two, every one answered alike: said once.)
  const storm = empties.length > 2 && empties.length === tries.length && new Set(tries.map(told)).size === 1;
  const ended = empties.length
    ? `; a resumption answered 2xx that ended with no event replayed nothing after its Last-Event-ID: the server's event store had nothing after that id (the Python SDK server ends such a stream at once when its store no longer has the id, or when the store's replay raised, which only the server's own log tells), unless something between cut it before its first event${storm ? `; the client resumed again from the same id after each one, ${empties.length} times${span} (the Python SDK client does so at the server's retry interval, with no limit, until its own timeout)` : ''}`
    : '';
  // A resumption that replays nothing, not even the response of a request long done: the server's event store did not
  // have the id (evicted, lost, or a store that answers an unknown id with an empty stream, as the SDK's
  // InMemoryEventStore does), unless the tool was still working with nothing to send.
  const nothing = tries.some((t) => emptyResumptionMs(t) !== undefined)
    ? "; a resumption held open with no event replayed nothing after its Last-Event-ID: the server's event store no longer had that id (evicted or lost; the TypeScript SDK's InMemoryEventStore answers an id it does not know with an empty stream it keeps open), or had the events after it in another order (that store replays the ids that sort after it, and one stored in the same millisecond sorts by a random part), or the tool was still running with nothing to send"
    : '';
  // The TypeScript SDK 1.x reconnects a stream that ended before any event with an id without Last-Event-ID: a plain
  // GET, the session's standalone stream, on which the server sends no response to a request (only when resuming it).
  const after = plain?.length
    ? `; the last one ended before its first event, so the client reconnected without Last-Event-ID (it had no event id of that stream: the TypeScript SDK, 1.x and v2, does so), ${plain.length === 1 ? 'a plain GET' : `${plain.length} plain GETs`} for the session's standalone stream, answered ${plain.map(answer).join(', ')}, which could not deliver it (a server sends a request's response there only when resuming that request's stream)`
    : '';
  return `; the client tried to resume it ${tries.length === 1 ? 'once' : `${tries.length} times`} (GET with Last-Event-ID), answered ${storm ? `${told(tries[0]!)} each time` : tries.map(told).join(', ')}, and none delivered it${after}${nothing}${ended}`;
}

function classifyResponse(view: AttemptView, response: unknown, tool: ToolContext): Classification {
  if (!isObject(response)) return result('INVALID_ENVELOPE', { why: Array.isArray(response) ? 'a batch array answers a single request' : `the body is ${typeof response === 'string' ? 'a string' : jsonText(response)?.slice(0, 20)}, not an object` });
  if (response.jsonrpc !== '2.0') return result('INVALID_ENVELOPE', { why: `jsonrpc is ${jsonText(response.jsonrpc) ?? 'missing'}, not "2.0"` });
  const hasResult = has(response, 'result');
  const hasError = has(response, 'error');
  if (hasResult && hasError) return result('INVALID_ENVELOPE', { why: 'both result and error' });
  if (!hasResult && !hasError) return result('INVALID_ENVELOPE', { why: 'neither result nor error' });
  if (view.response === undefined) {
    // The same number as a string (or the reverse) is still another id, but some clients take it: the TypeScript SDK
    // (1.x and v2) looks its pending requests up by Number(id), the Python SDK turns a string of digits into an int (both ways),
    // so their callers got this result; one that compares ids by type drops it.
    const typeOnly = (typeof response.id === 'string' || typeof response.id === 'number') && (typeof view.id === 'string' || typeof view.id === 'number') && typeof response.id !== typeof view.id && String(response.id) === String(view.id);
    const py = pythonSdkAgent(view);
    const takers = py !== undefined
      ? `which this client (User-Agent ${JSON.stringify(py)}: the Python SDK, which reads a string of digits as the number) takes as the answer; a client that compares ids with their type drops it`
      : 'which a client that matches ids by Number() (the TypeScript SDK, 1.x and v2) or reads a string of digits as the number (the Python SDK) takes as the answer and one that compares ids with their type drops';
    // The Python SDK client sets the id of any response on a request's own SSE stream to that request's (a JSON body's
    // it keeps, and drops as unknown): its caller got this answer.
    const sse = view.contentType !== undefined && /event-stream/i.test(view.contentType);
    const pyTook = !typeOnly && py !== undefined && sse
      ? `: this client (User-Agent ${JSON.stringify(py)}: the Python SDK) takes any response on a request's own SSE stream as that request's answer (it sets the id to the request's), so its caller got this ${hasError ? 'error' : isObject(response.result) && response.result.isError === true ? 'tool error (isError)' : 'result'}; the TypeScript SDK clients drop it as an unknown id and wait until their timeout`
      : '';
    const also = typeOnly ? `: the same value as a ${typeof response.id}, ${takers}` : pyTook;
    return result('INVALID_ENVELOPE', { why: `response id ${jsonText(response.id)} is not the request id ${jsonText(view.id)}${also}` });
  }
  if (hasError) {
    const e = response.error;
    if (!isObject(e) || !Number.isInteger(e.code) || typeof e.message !== 'string') {
      return result('INVALID_ENVELOPE', { why: 'malformed error object (needs an integer code and a string message)' });
    }
    const detail = errorDetail(response);
    const url = urlElicitationWhy(e.code as number, e.data);
    if (url !== undefined) detail.why = url;
    const asked = unansweredAsk(view);
    if (asked !== undefined) detail.why = detail.why ? `${detail.why}; ${asked}` : asked;
    // Code 0 is no JSON-RPC or MCP code: the Python SDK's server sends it (before 2026-07-28) for any exception a handler
    // raised but its own MCPError (MCPServer's "Unknown prompt: …"), where JSON-RPC has -32603.
    if (e.code === 0) {
      const zero = 'error code 0 is no JSON-RPC or MCP code: the Python SDK\'s server sends it for any exception a handler raised but an MCPError of its own (where JSON-RPC has -32603, internal error), so the code cannot tell a refused request from a server fault; the message can';
      detail.why = detail.why ? `${detail.why}; ${zero}` : zero;
    }
    // An HTTP status as the code: Genkit's MCP server throws a GenkitError, whose code is its status's HTTP number, and
    // the SDK Server passes an integer code on (404 NOT_FOUND, 400 INVALID_ARGUMENT, 500 INTERNAL), in an HTTP 200.
    if (Number.isInteger(e.code) && (e.code as number) >= 100 && (e.code as number) <= 599) {
      const http = `error code ${e.code as number} is no JSON-RPC or MCP code but an HTTP status number, not the exchange's own status: a server that passes an error's HTTP status on as the code sends it (Genkit's MCP server: 404 NOT_FOUND for an unknown tool, 400 INVALID_ARGUMENT for arguments its schema refused)`;
      detail.why = detail.why ? `${detail.why}; ${http}` : http;
    }
    // The TypeScript SDK's own texts for a connection that is gone, passed on by a bridge built on it (mcp-proxy, in
    // front of a stdio server): "Not connected" before it sent anything, "Connection closed" for a request in flight.
    const gone = connectionGoneWhy(e.message as string);
    if (gone !== undefined) detail.why = detail.why ? `${detail.why}; ${gone}` : gone;
    if (view.method === 'tools/call' && e.code === -32602 && refusedToolResult(e.message)) {
      detail.why = detail.why ? `${detail.why}; ${RESULT_REFUSED_WHY}` : RESULT_REFUSED_WHY;
      return { ...result('JSONRPC_ERROR', detail), toolRaised: true };
    }
    if (raisedByTool(view, e.code as number, e.message, tool)) {
      detail.why = detail.why ? `${detail.why}; ${RAN_WHY}` : RAN_WHY;
      return { ...result('JSONRPC_ERROR', detail), toolRaised: true };
    }
    return result('JSONRPC_ERROR', detail);
  }
  const r = response.result;
  // tasks/result hands back the result of the request the task ran: for a tool, a CallToolResult, read as one.
  const isTool = view.method === 'tools/call' || (view.method === 'tasks/result' && looksLikeToolResult(r));
  if (!isObject(r)) {
    return isTool
      ? result('INVALID_TOOL_RESULT', { why: `result is ${Array.isArray(r) ? 'an array' : r === null ? 'null' : typeof r}, not an object` })
      : result('INVALID_ENVELOPE', { why: 'result is not an object' });
  }
  // 2026-07-28 makes resultType required of the servers that speak it ("absent means complete" is for earlier ones).
  const pv = view.requestHeaders?.get('mcp-protocol-version')?.trim();
  // A result rebuilt from a span's attributes or a log's text is no body: its shape is not the server's.
  const body = view.rebuilt !== true;
  if (body && !has(r, 'resultType') && pv !== undefined && pv >= '2026-07-28') {
    const why = `no resultType, on protocol ${pv.slice(0, 20)}: a server of that version must send it (absent means "complete" only from servers of earlier versions), and the TypeScript SDK v2 client refuses the result (SdkError INVALID_RESULT, "missing required resultType"), as the Python SDK client does (a ValidationError, "resultType Field required"): its caller got an error, not the result`;
    return result(isTool ? 'INVALID_TOOL_RESULT' : 'INVALID_RESULT', { why });
  }
  const resultType = has(r, 'resultType') ? r.resultType : 'complete';
  if (resultType === 'input_required') {
    // An InputRequiredResult MUST carry inputRequests or requestState: with neither, the client has nothing to answer or
    // echo, and both SDK clients refuse it (measured: test/fixtures/real-audit44).
    const asks = isObject(r.inputRequests) && Object.keys(r.inputRequests).length > 0;
    if (body && !asks && typeof r.requestState !== 'string') {
      const why = `resultType "input_required" with neither inputRequests nor requestState (${has(r, 'inputRequests') ? `inputRequests is ${isObject(r.inputRequests) ? 'empty' : (jsonText(r.inputRequests) ?? '').slice(0, 40)}` : 'both absent'}): every input_required result must carry at least one, and the SDK clients refuse it (the TypeScript SDK v2 with SdkError INVALID_RESULT, the Python SDK with a ValidationError): its caller got an error, not a request for input`;
      return result(isTool ? 'INVALID_TOOL_RESULT' : 'INVALID_RESULT', { why, resultType: 'input_required' });
    }
    return result('INPUT_REQUIRED', { resultType: 'input_required' });
  }
  // A task-augmented call answered with a CreateTaskResult (2025-11-25), or resultType "task" (the tasks extension).
  if (view.method === 'tools/call' && (resultType === 'task' || view.taskAugmented) && isObject(r.task) && typeof r.task.taskId === 'string') {
    return result('TASK_CREATED', { why: `task ${jsonText(r.task.taskId.slice(0, 100))}${typeof r.task.status === 'string' ? ` (${r.task.status.slice(0, 40)})` : ''}: the result comes with tasks/result` });
  }
  if (resultType !== 'complete') {
    const why = `unknown resultType ${jsonText(resultType)}`;
    return isTool ? result('INVALID_TOOL_RESULT', { why, resultType: String(resultType) }) : result('INVALID_ENVELOPE', { why });
  }
  if (!isTool) {
    // tasks/get tells how the task stands; a failed or cancelled task shows in the chain of its call.
    if (view.method === 'tasks/get' && typeof r.status === 'string') {
      return result('SUCCESS', { why: `task ${r.status.slice(0, 40)}${typeof r.statusMessage === 'string' ? `: ${r.statusMessage.slice(0, 200)}` : ''}` });
    }
    const off = body ? resultShapeProblem(view.method, r) : undefined;
    if (off === undefined) return result('SUCCESS', view.listCursor !== undefined && r.nextCursor === view.listCursor ? { why: cursorLoopWhy(view.listCursor) } : {});
    const py = off.typescriptOnly ? pythonSdkAgent(view) : undefined;
    // Only the TypeScript SDK refuses it, and this client is the Python SDK's: its caller got the result.
    if (py !== undefined) return result('SUCCESS', { why: pythonTook(off, view.method!, py) });
    return result('INVALID_RESULT', { why: shapeWhy(off, view.method!) });
  }
  if (!Array.isArray(r.content)) {
    return result('INVALID_TOOL_RESULT', { why: has(r, 'content') ? 'content is not an array' : 'content is missing' });
  }
  if (has(r, 'isError') && typeof r.isError !== 'boolean') {
    return result('INVALID_TOOL_RESULT', { why: `isError is ${jsonText(r.isError)}, not a boolean` });
  }
  // 2026-07-28 lets structuredContent be any JSON value (SEP-2106), and the SDK clients take one on that version.
  const blocks = body ? toolResultProblem(r, pv !== undefined && pv >= '2026-07-28') : undefined;
  const pyTook = blocks?.typescriptOnly ? pythonSdkAgent(view) : undefined;
  if (blocks !== undefined && pyTook === undefined) return result('INVALID_TOOL_RESULT', { why: shapeWhy(blocks, 'tools/call') });
  const tookNote = blocks !== undefined && pyTook !== undefined ? pythonTook(blocks, 'tools/call', pyTook) : undefined;
  if (r.isError === true) {
    // An error result may carry structuredContent; one that breaks the declared outputSchema is still the tool's error,
    // but the TypeScript SDK 1.x client checks it anyway and throws -32602 instead of returning the error (v2 does not).
    const off = tool.schema !== undefined && has(r, 'structuredContent') ? schemaViolation(r.structuredContent, tool.schema) : undefined;
    const detail: OutcomeDetail = { errorMessage: firstText(r.content) };
    if (off !== undefined) detail.why = `isError, with ${off}, by the outputSchema tools/list declares: a client that checks it (the TypeScript SDK 1.x) throws -32602 instead of returning the error`;
    // The TypeScript SDK's McpServer (1.x and v2) checks a tool's result against its outputSchema and, when it breaks it,
    // answers this isError in its place: the tool ran, and what failed is its own result, not the arguments.
    else if (detail.errorMessage !== undefined && /(^|: )Output validation error: /.test(detail.errorMessage)) {
      detail.why = 'the server\'s SDK (McpServer) checked the tool\'s result against its outputSchema and sent this error in its place: the tool ran, and its result broke the schema it declares (a fault of the server\'s tool, not of the arguments; the error\'s -32602 is in its text, not a JSON-RPC error)';
    }
    // The TypeScript SDK's server checks a request to the client against the capabilities of the client's initialize;
    // without a session (its stateless mode makes a new server for each request) it never saw one, so it refuses them all.
    else if (detail.errorMessage !== undefined && view.session === null && (pv === undefined || pv < '2026-07-28') && CAPABILITY_REFUSED.test(detail.errorMessage)) {
      detail.why = 'the server\'s SDK refused the request the tool needed to send to the client (an elicitation, sampling or roots request): it checks the capabilities the client declared in initialize, and this request carried no session id, so the server that handled it had none of them (a stateless server, as the TypeScript SDK\'s stateless mode, which makes a new server for each request, never sees the initialize), whatever the client declared; a tool that asks the client needs a server with sessions, or the 2026-07-28 input_required round';
    }
    const asked = unansweredAsk(view);
    if (asked !== undefined) detail.why = detail.why ? `${detail.why}; ${asked}` : asked;
    const declined = declinedInput(view);
    if (declined !== undefined) detail.why = detail.why ? `${detail.why}; ${declined}` : declined;
    return result('TOOL_ERROR', detail);
  }
  // The TypeScript SDK 1.x client checks these itself: its callTool throws although the wire carries a result (the tool ran).
  if (tool.outputSchema && !has(r, 'structuredContent')) {
    return result('INVALID_TOOL_RESULT', { why: 'the tool declares an outputSchema (tools/list) but the result has no structuredContent: the tool ran, and the SDK clients check it and throw instead of returning the result (the TypeScript SDK 1.x -32600 from callTool, v2 a ProtocolError, the Python SDK a RuntimeError)' });
  }
  const broken = tool.schema !== undefined && has(r, 'structuredContent') ? schemaViolation(r.structuredContent, tool.schema) : undefined;
  if (broken !== undefined) return result('INVALID_TOOL_RESULT', { why: `${broken}, by the outputSchema tools/list declares: the tool ran, and a client that checks it (the TypeScript SDK 1.x) throws -32602 from callTool instead of returning the result` });
  // The tool may catch the client's error answer to its elicitation/create and still return a plain result (the SDK's
  // simpleStreamableHttp collect-user-info: "Error collecting contact information: McpError: ..."): say so.
  const refused = view.askRefused !== undefined ? unansweredAsk(view) : undefined;
  if (refused !== undefined) return result('TOOL_SUCCESS', { why: `the result is no isError, but ${refused}${tookNote !== undefined ? `; ${tookNote}` : ''}` });
  return tookNote !== undefined ? result('TOOL_SUCCESS', { why: tookNote }) : result('TOOL_SUCCESS');
}

/** A rule only the TypeScript SDK's client checks, broken for a Python SDK client: it took the result; say so. */
function pythonTook(p: ShapeProblem, method: string, agent: string): string {
  return `${p.text}: the MCP schema of a ${method.slice(0, 60)} result does not allow it, but only the TypeScript SDK's client checks this, and this client (User-Agent ${JSON.stringify(agent)}) is the Python SDK's, which took the result`;
}

/** Why a result its method's schema does not allow failed its caller: which SDK clients refuse it, and how. */
function shapeWhy(p: ShapeProblem, method: string): string {
  const ran = method === 'tools/call' ? 'the tool ran, but ' : '';
  // The MCP Inspector drops a list entry its schema refuses and shows the rest ("Dropped 1 malformed entry").
  const lenient = method.endsWith('/list') && /^\w+\[\d+\]/.test(p.text) ? '; a lenient client (the MCP Inspector) drops the entry and lists the rest' : '';
  return (p.typescriptOnly
    ? `${p.text}: the MCP schema of a ${method.slice(0, 60)} result does not allow it; ${ran}the TypeScript SDK client checks this and throws (a ZodError) instead of returning the result (the Python SDK's does not check it)`
    : `${p.text}: the MCP schema of a ${method.slice(0, 60)} result does not allow it; ${ran}SDK clients check this and fail the request instead of returning the result (the TypeScript SDK throws a ZodError, the Python SDK raises a ValidationError)`) + lenient;
}

/**
 * A request the server sent on the call's stream (elicitation/create, sampling/createMessage, roots/list) that the
 * client answered with an error, or that the server cancelled itself (its wait for the answer ran out): why the call
 * failed.
 */
function unansweredAsk(view: AttemptView): string | undefined {
  const r = view.askRefused;
  if (r !== undefined) {
    const code = typeof r.code === 'number' ? ` ${r.code}` : '';
    return `the client answered the server's ${r.method.slice(0, 60)} (id ${jsonText(r.id).slice(0, 40)}) with an error:${code}${r.message ? ` ${r.message}` : ''}`;
  }
  const c = view.askCancelled;
  if (c === undefined) return undefined;
  const after = c.ts !== undefined && view.startTs !== undefined ? ` ${((c.ts - view.startTs) / 1000).toFixed(2)} s into the call` : '';
  const late = c.answeredAfterMs !== undefined ? `; ${lateAnswerText(c.answeredAfterMs)}` : '';
  const refusedOnWay = view.askAnswerRefused !== undefined && view.askAnswerRefused.id === c.id ? view.askAnswerRefused.status : undefined;
  const unanswered = refusedOnWay !== undefined ? `, whose answer from the client got HTTP ${refusedOnWay} on its way (the POST that carried it was refused, so the answer never reached the request that asked)` : ', which the client had not answered';
  return `the server cancelled its own ${c.method.slice(0, 60)} (id ${jsonText(c.id).slice(0, 40)})${after}${unanswered}${c.reason ? ` (${c.reason})` : ''}${late}`;
}

/**
 * An MRTR follow-up whose inputResponses answered the server's input request decline or cancel: the isError result the
 * server then sent is its answer to that refusal (the wire and the server worked; the user, or the client's elicitation
 * handler, said no).
 */
function declinedInput(view: AttemptView): string | undefined {
  const a = view.inputAnswer;
  if (a === undefined) return undefined;
  return `this request answered the server's input request "${a.key}" with "${a.action}" (its inputResponses): the isError is the server's answer to that ${a.action === 'decline' ? 'refusal' : 'cancellation'}, not a failure of the wire or of the server (the user, or the client's elicitation handler, said no)`;
}

/** What a client's answer to a request the server had already cancelled says: it came, too late. */
export function lateAnswerText(afterMs: number): string {
  return `the client's answer came ${(afterMs / 1000).toFixed(2)} s after that, when the server no longer waited for it`;
}

/** A result shaped like a CallToolResult (content blocks or isError), not a sampling or elicitation result. */
function looksLikeToolResult(r: unknown): boolean {
  if (!isObject(r) || has(r, 'model') || has(r, 'role') || has(r, 'action')) return false;
  return Array.isArray(r.content) || has(r, 'isError') || has(r, 'structuredContent');
}

/**
 * URLElicitationRequiredError (-32042, 2025-11-25): the server cannot process the request until the user completes the
 * URL elicitation(s) in its data (a sign-in, a payment confirmation); the client may send the request again after
 * that (notifications/elicitation/complete tells it when). Says which URL(s) it asked for.
 */
const URL_ELICITATION_REQUIRED = -32042;
function urlElicitationWhy(code: number, data: unknown): string | undefined {
  if (code !== URL_ELICITATION_REQUIRED) return undefined;
  const list = isObject(data) && Array.isArray(data.elicitations) ? data.elicitations.filter(isObject) : [];
  const named = list.slice(0, 3).map((x) => `${typeof x.elicitationId === 'string' ? `${jsonText(x.elicitationId.slice(0, 80))} ` : ''}${typeof x.url === 'string' ? x.url.slice(0, 200) : '(no url)'}`);
  const which = named.length > 0 ? ` (${named.join(', ')}${list.length > 3 ? ` and ${list.length - 3} more` : ''})` : '';
  return `URL elicitation required: the server will not process the request until the user completes the URL elicitation${list.length > 1 ? 's' : ''} it names${which}; a request refused so was not processed, and the client may send it again once the elicitation is completed (notifications/elicitation/complete tells it when)`;
}

/** The reason phrases of the statuses an MCP exchange meets (RFC 9110, 6585), for a why that has nothing else to say. */
const REASON: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  406: 'Not Acceptable', 407: 'Proxy Authentication Required', 408: 'Request Timeout', 409: 'Conflict', 410: 'Gone',
  411: 'Length Required', 413: 'Content Too Large', 414: 'URI Too Long', 415: 'Unsupported Media Type', 421: 'Misdirected Request',
  422: 'Unprocessable Content', 425: 'Too Early', 426: 'Upgrade Required', 428: 'Precondition Required', 429: 'Too Many Requests',
  431: 'Request Header Fields Too Large', 451: 'Unavailable For Legal Reasons', 500: 'Internal Server Error',
  501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout', 505: 'HTTP Version Not Supported',
};

/**
 * An HTTP error that came with nothing to say (no JSON-RPC error, no text): its status and reason phrase, that an HTTP
 * capture has no body for it (or a result the status hides) and the Retry-After it asked for. "HTTP 503 Service
 * Unavailable, no body in the log".
 */
function bareStatusWhy(view: AttemptView, status: number): string {
  return `${statusHead(status)}${bareBody(view)}${retryAfter(view)}`;
}

const retryAfter = (view: AttemptView): string => (view.retryAfterMs !== undefined ? `; Retry-After ${view.retryAfterMs / 1000} s` : '');

/** A bare status line (view.bareStatus): its status and reason phrase, what that says of who sent it, and its Retry-After. "HTTP 503 Service Unavailable: a bare status line ...". */
function bareStatusLineWhy(view: AttemptView, status: number): string {
  return `${statusHead(status)}: ${BARE_STATUS_WHY}${retryAfter(view)}`;
}

/** Whether a why is a bare status line's (bareStatusLineWhy), whatever status, Retry-After or note it carries. */
export function isBareStatusWhy(why: string | undefined): boolean {
  return why !== undefined && why.includes(BARE_STATUS_WHY);
}

const statusHead = (status: number): string => `HTTP ${status}${REASON[status] !== undefined ? ` ${REASON[status]}` : ''}`;

/** Whether a why says no more than the status it came with (a finding that names the status already has no need of it). */
export function saysOnlyStatus(why: string, status: number): boolean {
  return why === statusHead(status) || why === `${statusHead(status)}${EMPTY_BODY}`;
}

const EMPTY_BODY = ', no body in the log';

/** What the log shows of a bare status's body: none (empty, or not kept: the log cannot tell), or a result the status hides. */
function bareBody(view: AttemptView): string {
  const empty = view.http && !view.bodyNotCaptured && view.response === undefined && view.strayResponse === undefined && view.malformed === undefined;
  if (empty) return EMPTY_BODY;
  const answered = isObject(view.response) && has(view.response, 'result');
  return answered ? ", though its body holds a JSON-RPC result (the handler's, or a layer's in front of it, as the test kitchen's errors.non_compliant_envelope sends: it does not prove a tool ran), yet the SDK clients fail it on the status and never read that result" : '';
}

function errorDetail(response: unknown): OutcomeDetail {
  if (!isObject(response)) return {};
  // The Java SDK's servlet transports answer HTTP errors with a serialized McpError, its code and message under jsonRpcError.
  const e = isObject(response.error) ? response.error : isObject(response.jsonRpcError) ? response.jsonRpcError : undefined;
  if (e === undefined) {
    // An OAuth error body (RFC 6750/6749: {"error":"invalid_token","error_description":"..."}) or a plain {"message"}.
    const said = typeof response.error === 'string' ? response.error + (typeof response.error_description === 'string' ? ` (${response.error_description})` : '')
      : typeof response.message === 'string' ? response.message : undefined;
    return said !== undefined && response.jsonrpc === undefined ? { why: `the body says: ${said.slice(0, 200)}` } : {};
  }
  const d: OutcomeDetail = {};
  if (Number.isInteger(e.code)) d.errorCode = e.code as number;
  if (typeof e.message === 'string') d.errorMessage = e.message;
  if (has(e, 'data')) d.errorData = e.data;
  return d;
}

function firstText(content: unknown[]): string | undefined {
  for (const c of content) if (isObject(c) && c.type === 'text' && typeof c.text === 'string') return c.text;
  return undefined;
}

/**
 * What a JSON-RPC error whose message is the TypeScript SDK's text for a lost connection says: a bridge (mcp-proxy)
 * answers with it when its connection to the server behind it (a stdio process) is gone. Undefined for other messages.
 */
function connectionGoneWhy(message: string): string | undefined {
  const m = message.trim();
  if (/^not connected$/i.test(m)) {
    return "\"Not connected\" is the TypeScript SDK's refusal to send on a connection it does not have: a bridge built on it (mcp-proxy) answers so when its connection to the server behind it (a stdio process that exited) is gone; the request went no further than the bridge";
  }
  if (/^connection closed$/i.test(m)) {
    return "\"Connection closed\" is the TypeScript SDK's error for a request still waiting when its connection closed: a bridge built on it (mcp-proxy) answers so when the server behind it (a stdio process) went away during the request, which may have run part of it";
  }
  return undefined;
}
