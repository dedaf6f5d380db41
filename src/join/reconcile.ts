// Reconciling the two views of one attempt: where the server's view corrects, or explains, what the client's view says.
import type { Attempt } from './match.js';
import { REFUSABLE_HEADERS } from './engine.js';
import { cancelledCallerGot, type AttemptView } from './attempt.js';
import { jsonText } from '../report/text.js';

/**
 * With both views of an attempt joined, each rule below weighs the server's view against the client's (a span that
 * cannot show an isError, a client log that leaves answers out, an error the client's side made) and corrects the
 * attempt, or adds to its why, in this order.
 */
export function reconcileViews(a: Attempt, c: AttemptView, s: AttemptView): void {
  toolErrorFromServer(a, c, s);
  httpErrorFromServer(a, c, s);
  errorBodyOnlyOnServer(a, c, s);
  endedAfterClientGaveUp(c, s);
  cancelledOnServer(a, c, s);
  versionChangedBetween(a, c, s);
  movedToGetStream(a, c, s);
  madeOnClientSide(a, c, s);
  answerOnlyOnServer(a, c, s);
  cutUnseenByServer(a, c, s);
}

/**
 * A client's log that leaves some answers out (the Python SDK's DEBUG log has none the server sent as
 * application/json) shows no answer where the server's view shows one sent: the attempt takes the server's answer,
 * and its why says whose it is. Not when the client's log read progress of the request: that came on the request's
 * SSE stream (neither SDK sends a request's notifications in JSON-response mode), whose answer that log does show.
 */
function answerOnlyOnServer(a: Attempt, c: AttemptView, s: AttemptView): void {
  if (a.primary !== c || c.answersUnlogged !== true || c.outcome !== 'UNANSWERED' || s.responded !== true) return;
  if (c.progress > 0) {
    a.detail = { ...a.detail, why: "the server's log shows its answer sent, and the client's log, which shows this request's SSE stream (its progress came on it), never read it: lost on the way, or not come yet where the log ends" };
    return;
  }
  const said = "the client's log leaves such answers out (see its \"cannot show\"): this is the answer the server's log shows sent";
  // The client had cancelled the request before the server's answer left (its timeout): its caller got that, not the
  // answer, which the SDK clients drop. The attempt says what the client saw; the server's answer is its serverOutcome.
  if (c.cancelledAt !== undefined && s.endTs !== undefined && s.endTs > c.cancelledAt && (s.outcome === 'TOOL_SUCCESS' || s.outcome === 'SUCCESS' || s.outcome === 'TOOL_ERROR')) {
    a.outcome = 'STREAM_INCOMPLETE';
    a.layer = 'transport';
    a.detail = { why: `the client cancelled it (notifications/cancelled) before the server's answer left: its caller got ${cancelledCallerGot(c.cancelReason, c.method)}, not a result; the server's ${s.outcome} answer came ${((s.endTs - c.cancelledAt) / 1000).toFixed(2)} s after that (${said})` };
    return;
  }
  a.outcome = s.outcome!;
  a.layer = s.layer!;
  a.detail = { ...s.detail, why: s.detail?.why ? `${s.detail.why}; ${said}` : said };
}

/**
 * The client's view shows its response stream cut (or no answer), while the server's log has the POST with a 2xx status
 * and no body kept: a line written when the response ended or its connection closed says nothing of the cut
 * (express-winston logs a stream the server dropped as its 200, test/fixtures/real-audit74/sse-cut). The attempt stays
 * the client's view; its why says which view saw what.
 */
function cutUnseenByServer(a: Attempt, c: AttemptView, s: AttemptView): void {
  if (a.primary !== c || (c.outcome !== 'STREAM_INCOMPLETE' && c.outcome !== 'NO_RESPONSE') || s.outcome !== 'UNANSWERED') return;
  if (typeof s.status !== 'number' || s.status < 200 || s.status > 299 || (s.bodyNotCaptured !== true && s.answersUnlogged !== true)) return;
  const took = s.startTs !== undefined && s.endTs !== undefined && s.endTs >= s.startTs ? ` ended after ${Math.round(s.endTs - s.startTs)} ms` : '';
  const said = `the server's log has this POST as HTTP ${s.status}${took} with no body kept, which says nothing of a cut (a logger that writes when the response ends or its connection closes, as express-winston and nginx's access log do, logs a stream that was dropped so): the client's view, which ${c.outcome === 'STREAM_INCOMPLETE' ? 'saw the stream end without the answer' : 'got no response'}, is what tells`;
  a.detail = { ...a.detail, why: a.detail.why ? `${a.detail.why}; ${said}` : said };
  c.detail = a.detail;
}

/**
 * A client's message log (no HTTP layer) shows a JSON-RPC error the server's view never sent (it has no answer, or an
 * HTTP error status): the client's transport or a bridge made it (the Python SDK's -32000 when a stream ends, mcp-remote's
 * -32001 for a failed POST). Its why says so: the error is no answer of the server's.
 */
function madeOnClientSide(a: Attempt, c: AttemptView, s: AttemptView): void {
  if (a.primary !== c || c.http || c.rebuilt === true || s.rebuilt === true || c.outcome !== 'JSONRPC_ERROR' || s.responded === true) return;
  const said = `the server's log shows no such answer (${typeof s.status === 'number' ? `HTTP ${s.status} ` : ''}${s.outcome}): the error was made on the client's side (its transport or a bridge), not sent by the server`;
  a.detail = { ...a.detail, why: a.detail.why ? `${a.detail.why}; ${said}` : said };
  c.detail = a.detail;
}

/** The client got the response on the standalone GET stream while the server wrote it on the POST's own stream. */
function movedToGetStream(a: Attempt, c: AttemptView, s: AttemptView): void {
  if (a.primary !== c || !c.onStandaloneGet || s.resumed || s.responded !== true) return;
  const said = "the server's log has it on the POST's own stream: something between them moved it";
  a.detail = { ...a.detail, why: a.detail.why ? `${a.detail.why}; ${said}` : said };
  c.detail = a.detail;
}

/**
 * An HTTP error for a request whose MCP-Protocol-Version (or, refused with 406 or 415, Accept or Content-Type) the
 * server received other than the client sent it: something between them (a gateway, a proxy) rewrote the header, and
 * the server refused what it got.
 */
function versionChangedBetween(a: Attempt, c: AttemptView, s: AttemptView): void {
  if (a.primary !== c || a.outcome !== 'HTTP_ERROR' || typeof c.status !== 'number' || c.status < 400 || c.status > 499) return;
  const said = headerChanged(c.requestHeaders, s.requestHeaders);
  if (said === undefined) return;
  a.detail = { ...a.detail, why: a.detail.why ? `${a.detail.why}; ${said}` : said };
  c.detail = a.detail;
}

const HEADER_NAMES: Record<string, string> = { 'mcp-protocol-version': 'MCP-Protocol-Version', accept: 'Accept', 'content-type': 'Content-Type' };

/** The first refusable header the two views disagree on. A header the server's view lacks may only be unrecorded, so a dropped one is not claimed. */
export function headerChanged(sentHeaders: Map<string, string> | undefined, gotHeaders: Map<string, string> | undefined): string | undefined {
  if (!sentHeaders || !gotHeaders) return undefined;
  for (const name of REFUSABLE_HEADERS) {
    const sent = sentHeaders.get(name);
    const got = gotHeaders.get(name);
    if (sent === undefined || got === undefined || sent === got) continue;
    return `the client sent ${HEADER_NAMES[name]} ${JSON.stringify(sent.slice(0, 80))}, the server received ${JSON.stringify(got.slice(0, 80))}: something between them changed the header`;
  }
  return undefined;
}

/**
 * A client view rebuilt from metadata (the Python SDK's CLIENT span sets no error.type tool_error) says only that a
 * result came: when the server's view shows that result had isError true, or was an input_required round
 * (2026-07-28), that is what the client got.
 */
function toolErrorFromServer(a: Attempt, c: AttemptView, s: AttemptView): void {
  if (!c.rebuilt || c.outcome !== 'TOOL_SUCCESS' || (s.outcome !== 'TOOL_ERROR' && s.outcome !== 'INPUT_REQUIRED')) return;
  c.outcome = s.outcome;
  c.layer = s.layer;
  const what = s.outcome === 'TOOL_ERROR' ? 'isError' : 'resultType input_required';
  c.detail = { ...s.detail, why: `${s.detail?.why ? `${s.detail.why}; ` : ''}${what} from the server's view (the client's span does not record it)` };
  if (a.primary === c) {
    a.outcome = c.outcome;
    a.layer = c.layer!;
    a.detail = c.detail;
  }
}

/**
 * A client view rebuilt from a span (no HTTP layer) whose JSON-RPC error is the one the server's HTTP error body
 * carried (a 503's -32000, a lost session's 404 -32001): the client's SDK handed its caller the body's error, which the
 * span records as it records an answer in a 200. The server's view shows it was an HTTP error: that is what it was.
 */
function httpErrorFromServer(a: Attempt, c: AttemptView, s: AttemptView): void {
  if (c.rebuilt !== true || c.http || c.outcome !== 'JSONRPC_ERROR' || s.outcome !== 'HTTP_ERROR') return;
  if (s.detail?.errorCode === undefined || s.detail.errorCode !== c.detail?.errorCode) return;
  c.outcome = s.outcome;
  c.layer = s.layer;
  c.status = s.status;
  c.detail = { ...s.detail, why: `${s.detail.why ? `${s.detail.why}; ` : ''}HTTP ${String(s.status)} from the server's view (the client's span records the JSON-RPC error of its body, as its SDK handed it to the caller)` };
  if (a.primary === c) {
    a.outcome = c.outcome;
    a.layer = c.layer!;
    a.detail = c.detail;
    a.status = c.status;
  }
}

/**
 * An HTTP error whose body the client's log leaves out (the Python SDK client's DEBUG log gives httpx's status line
 * only) while the server's view of the same POST has it: the why quotes the server's, so it says what refused the
 * request (the Python SDK's Host check: 421 "Invalid Host header", test/fixtures/real-audit84/py-host-mid).
 */
function errorBodyOnlyOnServer(a: Attempt, c: AttemptView, s: AttemptView): void {
  if (a.primary !== c || c.answersUnlogged !== true || c.outcome !== 'HTTP_ERROR' || s.outcome !== 'HTTP_ERROR' || c.status !== s.status) return;
  if (c.detail?.errorMessage !== undefined || c.detail?.errorCode !== undefined || c.detail?.why?.startsWith('the body says: ')) return;
  const sd = s.detail;
  if (sd === undefined || (sd.errorMessage === undefined && !sd.why?.startsWith('the body says: '))) return;
  const body = sd.errorMessage !== undefined ? `${sd.errorCode !== undefined ? `${sd.errorCode} ` : ''}${jsonText(sd.errorMessage)}${sd.why ? `; ${sd.why}` : ''}` : sd.why!.slice('the body says: '.length);
  const said = `the server's view of this POST has its body: ${body}`;
  a.detail = { ...c.detail, why: c.detail?.why ? `${c.detail.why}; ${said}` : said };
  c.detail = a.detail;
}

/**
 * A server view rebuilt from a span that ended without error after the client's span had ended with an exception
 * (its timeout): the Python SDK's SERVER span of a handler cancelled by notifications/cancelled (or a closed stream)
 * ends the same way as one that returned, so the rebuilt success is not evidence of a result.
 */
function endedAfterClientGaveUp(c: AttemptView, s: AttemptView): void {
  if (!c.rebuilt || !s.rebuilt || c.outcome !== 'UNANSWERED' || c.error === undefined) return;
  if (s.outcome !== 'SUCCESS' && s.outcome !== 'TOOL_SUCCESS') return;
  if (c.endTs === undefined || s.endTs === undefined || s.endTs < c.endTs) return;
  s.outcome = 'UNANSWERED';
  s.layer = 'unknown';
  s.detail = { why: `the server's span ended without error ${((s.endTs - c.endTs) / 1000).toFixed(3)} s after the client's span gave up: a handler stopped by the cancellation ends so too, so whether a result was sent is not in the span` };
}

/**
 * A client view rebuilt from a span that ended without error, for a request the server's view shows cancelled with no
 * result: the Python SDK leaves a span ended by CancelledError (its caller's cancellation) unmarked, so that span is
 * no evidence of a result.
 */
function cancelledOnServer(a: Attempt, c: AttemptView, s: AttemptView): void {
  if (!c.rebuilt || (c.outcome !== 'SUCCESS' && c.outcome !== 'TOOL_SUCCESS')) return;
  if (s.cancelledAt === undefined || s.outcome !== 'UNANSWERED') return;
  c.outcome = 'UNANSWERED';
  c.layer = 'unknown';
  c.detail = { why: "the client's span ended without error, but the server's view shows the request cancelled with no result: a span ended by the caller's cancellation (CancelledError) is left so" };
  if (a.primary === c) {
    a.outcome = c.outcome;
    a.layer = c.layer;
    a.detail = c.detail;
  }
}
