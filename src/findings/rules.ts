// The finding rules: each a small function from the attempt (or retry, or session) to findings with concrete values and evidence.
import { httpClientResend, MISDIRECTED_RESEND } from './resends.js';
export { httpClientResend, MISDIRECTED_RESEND, REDIRECT_FOLLOWED } from './resends.js';
import type { Attempt } from '../join/match.js';
import { PY_TIMEOUT_REASON, type AttemptView, type Orphan, type Source } from '../join/attempt.js';
import { RECENT_TOKEN_MS, saysSessionUnknown, type RefusedPost, type RequestRef, type SessionState, type StrayProgress } from '../join/sessions.js';
import type { Finding, FindingCode, Severity } from './types.js';
import { isFailure, type Outcome } from '../outcomes.js';
import { closedByClient, closedOnServer, closedWithCancel, pythonSdkAgent, recordingStopped, refusedToolResult, requestGuardOf, resumptionAnswer, saysOnlyStatus } from '../classify.js';

import type { ToolSafety } from './annotations.js';
import { jsonText, plural } from '../report/text.js';
import { claimAdmits } from '../join/claim-posts.js';

/**
 * On 2026-07-28 the client closed its stream (the cancellation), and the server's view, which records a connection that
 * closes (its HTTP layer: `recordingHandler`, `mcp-triage record --side server`), shows the exchange complete well after
 * that: the close never reached the server. (Within the margin the two crossed: the answer was on its way.)
 */
function closeNotPassedOn(a: Attempt, c: AttemptView, s: AttemptView): boolean {
  return closedByClient(c) && c.cancelled !== true && s.http === true && s.streamEnd === 'complete' && s.endTs !== undefined && c.endTs !== undefined
    && s.endTs - c.endTs > HELD_ANSWER_MARGIN_MS && protocolOf(a) >= '2026-07-28';
}

/** How much earlier than the client's close a server's HTTP status must have been sent to count as held between them. */
const HELD_ANSWER_MARGIN_MS = 250;

export interface CallPolicy {
  maxRetries: number;
  /** Smallest delay before the first retry, in ms; later delays must not shrink. */
  minDelayMs: number;
}

export const DEFAULT_POLICY: CallPolicy = { maxRetries: 2, minDelayMs: 200 };

function finding(code: FindingCode, severity: Severity, message: string, sources: Source[], scope: 'attempt' | 'session' = 'attempt', session?: string | null): Finding {
  const f: Finding = { code, severity, scope, message, sources: dedupe(sources) };
  if (scope === 'session') f.session = session ?? null;
  return f;
}

function dedupe(sources: Source[]): Source[] {
  const seen = new Set<string>();
  const out: Source[] = [];
  for (const s of sources) {
    const k = `${s.file}:${s.line}`;
    if (!seen.has(k)) {
      seen.add(k);
      out.push(s);
    }
  }
  return out;
}

const idText = (a: Attempt | AttemptView) => ('idText' in a && a.idText !== undefined ? a.idText : jsonText(a.id));
/** An attempt as messages name it: the method and its tool, or what a request of another feature acts on (a resource's uri, a prompt). */
const label = (a: Attempt) => (a.tool ? `${a.method} ${a.tool}` : a.primary.target !== undefined ? `${a.method} ${a.primary.target}` : a.method);
/** Requests of the other server features and utilities: none is a step on a client's way to a tools/call. */
const OTHER_FEATURES = new Set(['resources/list', 'resources/templates/list', 'resources/read', 'resources/subscribe', 'resources/unsubscribe',
  'prompts/list', 'prompts/get', 'completion/complete', 'logging/setLevel', 'ping']);
const secs = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
/**
 * A retry delay next to the policy's: whole ms under 10 s (tenths when not whole, cut, not rounded up), so that a delay
 * below the minimum never prints as the minimum ("0.20 s after the failure; the policy asks at least 0.20 s").
 */
const delayText = (ms: number) => (ms < 10_000 ? `${Number.isInteger(ms) ? ms : Math.floor(ms * 10) / 10} ms` : secs(ms));
/** Log text (an error, a body) said beside a phrase: in parentheses, or after a semicolon when it has parentheses of its own, so that none sits inside another. */
const aside = (text: string) => (/[()]/.test(text) ? `; ${text}` : ` (${text})`);
const statusText = (s: number | null | undefined) => (s === null ? 'no response' : s === undefined ? 'no HTTP status' : `HTTP ${s}`);
/** A view's status and outcome, `HTTP 200 TOOL_SUCCESS`; a view without an HTTP layer (a span, a message log) by its outcome alone, not `no HTTP status TOOL_SUCCESS`. */
const viewText = (status: number | null | undefined, outcome: string | undefined) => (status === undefined ? `${outcome}` : `${statusText(status)} ${outcome}`);

/** Claimed outcome names compared loosely: SUCCESS and TOOL_SUCCESS mean the same for tools/call. */
function sameOutcome(claimed: string, derived: Outcome): boolean {
  const c = claimed.toUpperCase();
  if (c === derived) return true;
  return (c === 'SUCCESS' || c === 'TOOL_SUCCESS') && (derived === 'SUCCESS' || derived === 'TOOL_SUCCESS');
}

const LOCAL_CAUSES: Record<number, string> = {
  [-32001]: "the SDK's own request timeout (TypeScript SDK v1 raises McpError -32001 locally and POSTs notifications/cancelled)",
  [-32000]: 'a connection closed locally (TypeScript SDK v1 rejects pending requests with McpError -32000 on close)',
  [-32600]: 'an output-schema check done by the client SDK (a tool with outputSchema returned no structuredContent)',
  [-32602]: 'structured content that failed the output schema in the client SDK',
};

/** An event id as the TypeScript SDK's InMemoryEventStore makes it: `<stream id>_<Date.now()>_<random base-36>`. */
const MEMORY_STORE_ID = /^(.+)_(\d{10,})_([0-9a-z]+)$/;

/**
 * Why a replay left out a response whose event id the SDK's InMemoryEventStore made in the same millisecond as the
 * Last-Event-ID's and that sorts before it: that store replays the events whose ids sort after the Last-Event-ID.
 */
function sortedBefore(answerId: string | undefined, from: string): string {
  const a = answerId !== undefined ? MEMORY_STORE_ID.exec(answerId) : null;
  const f = MEMORY_STORE_ID.exec(from);
  if (!a || !f || a[1] !== f[1] || a[2] !== f[2] || answerId!.localeCompare(from) >= 0) return '';
  return `; the response's event id (${jsonText(answerId!.slice(-40))}) is of the form the TypeScript SDK's InMemoryEventStore makes, in the same millisecond as the Last-Event-ID (${jsonText(from.slice(-40))}) and sorting before it: that store replays the events whose ids sort after the Last-Event-ID, so it never replays this response`;
}

/** Findings that need only the attempt itself (and, for continuations, the leg it continues). */
export function checkAttempt(a: Attempt, ctx: { continuationOf?: Attempt | undefined }): Finding[] {
  const out: Finding[] = [];
  const v = a.primary;
  // NO_FINAL_RESULT: 2xx stream or empty body, and no response on it or on a resumption; not when the client had
  // cancelled the request first (a server sends no response to a cancelled request: CANCELLED says what happened).
  // On the 2024-11-05 HTTP+SSE transport the POST ends with its 202 at once; the response is due on the GET stream, so
  // a cancellation while it is still awaited came first too.
  const lv = a.client ?? v;
  const legacy = lv.legacySse === true && lv.cancelledAt !== undefined && !(lv.legacyCutAt !== undefined && lv.legacyCutAt <= lv.cancelledAt);
  // On 2026-07-28 the client closing the stream is the cancellation: it came first by definition.
  // (In the server's log alone, a connection that closed before the response: the client or a hop closed it.)
  const closedAsCancel = (closedByClient(lv) || closedOnServer(lv)) && protocolOf(a) >= '2026-07-28';
  // A client that closed the stream itself and cancelled the request at the same moment gave up on it, whichever the
  // log shows first (the FastMCP Client's timeout does both within a few milliseconds).
  const closedAndCancelled = closedWithCancel(lv);
  // The recorder stopped (mcp-triage record's Ctrl-C) with the stream still open: the capture ends there, and whether the
  // result came after is not in the log; the attempt's why says so, and no missing result is claimed.
  const captureStopped = recordingStopped(lv);
  const cancelledFirst = doneAt(a) !== a.endTs || legacy || closedAsCancel || closedAndCancelled || captureStopped;
  const moved = (a.client ?? v).sessionReassigned ?? a.server?.sessionReassigned;
  if (moved !== undefined) {
    out.push(finding('SESSION_ID_CHANGED', 'warning',
      `${label(a)} id ${idText(a)}: the response handed out session id ${jsonText(moved.to)} for a request sent in session ${jsonText(moved.from)}, outside an initialize: the TypeScript SDK clients take it for their next requests (a session they never initialized; what the server kept for the first one stays behind), the Python SDK's keeps the first`,
      v.sources));
  }
  const noFinalResult = a.outcome === 'STREAM_INCOMPLETE' && typeof a.status === 'number' && !cancelledFirst;
  if (noFinalResult) {
    const ct = v.contentType?.split(';')[0]?.trim() ?? 'no content type';
    out.push(finding('NO_FINAL_RESULT', 'error',
      // The why last, after a colon: it has parentheses of its own, and none is put inside another.
      `${label(a)} id ${idText(a)}: HTTP ${a.status} ${ct} but no JSON-RPC response for it, so ${a.status} is not success: ${a.detail.why ?? 'stream ended'}`,
      v.sources));
  }
  // A client's message log (no HTTP layer: a desktop client's stdio log in front of a bridge, an app's own log) joined
  // with the server's view: the HTTP facts are the server's, and the two are compared as messages.
  // (Not a view rebuilt from span metadata, an OpenTelemetry span: what it lacks is judged below.)
  const bridged = a.client !== undefined && a.server !== undefined && !a.client.http && a.client.rebuilt !== true && a.server.rebuilt !== true && !a.notSeenByServer;
  if (bridged) {
    const c = a.client!;
    const s = a.server!;
    // The client had cancelled the request before the server's stream ended: no result was due on it any more.
    const gaveUpFirst = c.cancelledAt !== undefined && (s.endTs === undefined || c.cancelledAt <= s.endTs);
    // (Once: a message log that shows its POST's status (the Python SDK's DEBUG log, with httpx's lines) said it above.)
    if (!noFinalResult && s.outcome === 'STREAM_INCOMPLETE' && typeof s.status === 'number' && !gaveUpFirst && !(closedOnServer(s) && protocolOf(a) >= '2026-07-28')) {
      const ct = s.contentType?.split(';')[0]?.trim() ?? 'no content type';
      out.push(finding('NO_FINAL_RESULT', 'error',
        `${label(a)} id ${idText(a)}: the server sent HTTP ${s.status} ${ct} but no JSON-RPC response for it, so ${s.status} is not success, and the client got ${c.responded ? `${c.outcome}` : 'no answer'}; the server's view: ${s.detail?.why ?? 'stream ended'}`,
        [...s.sources.slice(0, 2), ...c.sources.slice(0, 2)]));
    }
    const what = bridgedDivergence(c, s, gaveUpFirst);
    // On 2026-07-28 the server's connection closed before its response (its cancellation) while the client's log,
    // which tells its own close (the Python SDK's DEBUG log: httpcore's lines), shows a stream it did not close.
    if (closedOnServer(s) && !s.responded && !closedByClient(c) && c.cancelled !== true && !c.responded && protocolOf(a) >= '2026-07-28' && c.status === s.status && c.outcome === s.outcome) {
      out.push(closedBetweenFinding(a, c, s));
    } else if (what === undefined && heldFromMessageLog(c, s) !== undefined) {
      out.push(finding('SIDE_DIVERGENCE', 'error', `${label(a)} id ${idText(a)}: ${heldFromMessageLog(c, s)}`, [...c.sources.slice(0, 2), ...s.sources.slice(0, 2)]));
    } else if (what !== undefined) {
      out.push(finding('SIDE_DIVERGENCE', 'error',
        `${label(a)} id ${idText(a)}: the client's log (no HTTP layer) got ${c.responded ? c.outcome : typeof c.status === 'number' ? `${statusText(c.status)} ${c.outcome} (its status line)` : 'no answer'}, the server sent ${statusText(s.status)} ${s.outcome}: ${what}`,
        [...c.sources.slice(0, 2), ...s.sources.slice(0, 2)]));
    }
  }
  if (a.client && a.server && !a.notSeenByServer && !bridged) {
    const c = a.client;
    const s = a.server;
    const statusDiffers = c.status !== s.status && !(c.status === undefined || s.status === undefined);
    // The client gave up (aborted, timed out) before any response head reached it, and the server sent no result
    // either: both ended without one, and a head the server set but never flushed is no change made in between.
    // (Not when the server's view shows its HTTP status sent well before the client closed: something between them
    // held it, as a hop that delays answers does, until the client gave up.)
    const heldBetween = typeof s.status === 'number' && s.endTs !== undefined && c.endTs !== undefined && s.endTs + HELD_ANSWER_MARGIN_MS < c.endTs;
    // Or its stream had carried events (progress) well before the client closed, of which the client got not even the
    // head: something between them held the whole response (nginx's proxy_buffering, for a server that sends no
    // X-Accel-Buffering: no; test/fixtures/real-audit48/*-noaccel-sse).
    const firstEvent = s.progressAt?.length ? Math.min(...s.progressAt) : undefined;
    const gaveUpAtTs = c.cancelledAt !== undefined && (c.endTs === undefined || c.cancelledAt < c.endTs) ? c.cancelledAt : c.endTs;
    const heldStream = typeof s.status === 'number' && c.status === null && firstEvent !== undefined && gaveUpAtTs !== undefined && firstEvent + HELD_ANSWER_MARGIN_MS < gaveUpAtTs;
    const heldEvents = heldStream ? s.progressAt!.filter((t) => t < gaveUpAtTs!).length : 0;
    const clientGaveUpFirst = c.status === null && closedByClient(c) && !s.responded && !heldBetween && !heldStream;
    // A view rebuilt from metadata (an OpenTelemetry span) that has no response shows nothing to compare: the span of
    // a client that timed out, of a handler whose error response the span does not record.
    // A client span that gave up (its timeout) diverges only from a result the server's view shows sent before that.
    const gaveUpAt = c.rebuilt === true && c.outcome === 'UNANSWERED' ? c.endTs : undefined;
    const unobservable = (c.rebuilt === true && c.outcome === 'UNANSWERED' && !(c.error !== undefined && gaveUpAt !== undefined && s.endTs !== undefined && s.endTs < gaveUpAt && s.responded === true))
      || (s.rebuilt === true && s.outcome === 'UNANSWERED')
      // A capture that kept no body of a response that ended normally (a streamed or sanitized HAR) shows no answer
      // to compare: not one that differs.
      || (c.bodyNotCaptured === true && c.outcome === 'UNANSWERED') || (s.bodyNotCaptured === true && s.outcome === 'UNANSWERED')
      // Nor does a log that leaves some responses out (MCPSpy's slower than 5 s, the Python SDK's JSON answers).
      || (c.answersUnlogged === true && c.outcome === 'UNANSWERED') || (s.answersUnlogged === true && s.outcome === 'UNANSWERED')
      // Nor a server's line that shows the answer sent with a 2xx status but not its body (a route handler's line of the
      // request and res.statusCode: test/fixtures/real-audit68, server-handled), beside a client that got a 2xx too.
      || (s.unloggedAnswer !== undefined && s.outcome === 'UNANSWERED' && typeof c.status === 'number' && c.status >= 200 && c.status <= 299)
      // A server's own message log (no HTTP layer: its app's log of each message) that shows no answer sent, beside a
      // client that got none either (a cut or cancelled stream, no response): both ended without an answer, which
      // differ only in that the server's log has no HTTP status to tell it by. Nothing between them changed anything.
      || (!s.http && s.outcome === 'UNANSWERED' && s.responded !== true && c.responded !== true && (c.outcome === 'STREAM_INCOMPLETE' || c.outcome === 'NO_RESPONSE'))
      // Nor, beside a client's HTTP error, one that has the request and no answer: an HTTP status (the server's HTTP
      // layer's, a hop's) is nothing a message log can show (a JSON-RPC message log joined by the loose join's mirror).
      // (Not a server's line that shows its answer sent with a 2xx status: a hop's 502 in its place still diverges.)
      || (!s.http && s.outcome === 'UNANSWERED' && s.responded !== true && s.unloggedAnswer === undefined && c.outcome === 'HTTP_ERROR');
    // The client cancelled the request and closed its stream, and the server's answer was only the -32800 that
    // acknowledges the cancellation: it reached a stream the client had left (the FastMCP Client's timeout sends
    // notifications/cancelled and its HTTP read timeout closes the stream). No result was lost, nothing changed it.
    const cancelAckAfterClose = closedByClient(c) && c.cancelled === true && s.outcome === 'JSONRPC_ERROR' && s.detail?.errorCode === -32800;
    // A client view rebuilt from a span (no HTTP layer) whose JSON-RPC error is the one the server's HTTP error body
    // carried: the client's SDK handed its caller that body's error (the Python SDK does so for any non-2xx status).
    const surfacedErrorBody = c.rebuilt === true && !c.http && c.outcome === 'JSONRPC_ERROR' && s.outcome === 'HTTP_ERROR' && s.detail?.errorCode !== undefined && s.detail.errorCode === c.detail?.errorCode;
    // On 2026-07-28 the server's connection closed before its response, which it takes for the cancellation, while the
    // client did not close its stream: the two ends saw different things, though both without a result (a hop that
    // wrote an error page into the client's stream and closed the server's).
    const closedBetween = closedOnServer(s) && !s.responded && !closedByClient(c) && c.cancelled !== true && protocolOf(a) >= '2026-07-28';
    if (closedBetween && c.outcome === s.outcome && !statusDiffers && !clientGaveUpFirst && !unobservable && !cancelAckAfterClose) {
      // Status and outcome agree: what differs is who closed what, so that leads.
      out.push(closedBetweenFinding(a, c, s));
    } else if (((c.lateOutcome ?? c.outcome) !== s.outcome || statusDiffers) && !clientGaveUpFirst && !unobservable && !cancelAckAfterClose && !surfacedErrorBody) {
      const lostResult = (s.outcome === 'TOOL_SUCCESS' || s.outcome === 'SUCCESS' || s.outcome === 'TOOL_ERROR') && (c.outcome === 'STREAM_INCOMPLETE' || c.outcome === 'NO_RESPONSE' || (c.rebuilt === true && c.outcome === 'UNANSWERED'));
      const what = lostResult && closeNotPassedOn(a, c, s)
        ? `the server sent a final result the client never got: the client closed its stream ${secs(s.endTs! - c.endTs!)} before it (on ${protocolOf(a)} the cancellation), but the server's connection stayed open until its answer was complete, so the close never reached the server (something between them kept it open, as a hop that does not pass a close on), which ran the request to its end`
        : lostResult ? 'the server sent a final result the client never got'
        : hopAnswered(c, s) ? hopAnsweredText(c, s)
        // No head reached the client of one the server sent: nothing changed a status, the connection broke between them.
        : c.status === null && typeof s.status === 'number' && heldStream && !heldBetween ? `the client never got the HTTP ${s.status} head the server sent, nor any of the ${heldEvents} progress notification${heldEvents === 1 ? '' : 's'} it sent on that stream before the client gave up (the first ${((gaveUpAtTs! - firstEvent!) / 1000).toFixed(2)} s before): something between them held the response back (a proxy that buffers it: nginx with proxy_buffering on, its default, does so for a server that sends no X-Accel-Buffering: no)`
        : c.status === null && typeof s.status === 'number' && heldBetween && closedByClient(c) ? `the client never got the HTTP ${s.status} head the server sent ${((c.endTs! - s.endTs!) / 1000).toFixed(2)} s before the client gave up: something between them held it (a hop that delays answers, a stalled connection)`
        : c.status === null && typeof s.status === 'number' ? `the client never got the HTTP ${s.status} head the server sent: the connection broke between them (a hop or the network cut it)${s.streamEnd === 'aborted' ? ", and the server's stream was aborted too" : ''}`
        : statusDiffers ? 'something between them changed the HTTP status'
        // No body left the server: none was changed. The client's view has an answer all the same.
        : s.status === null && s.responded !== true && c.responded === true ? "the server sent no answer, yet the client's view has one: something between them answered, or the client's log does not record how the request really ended"
        : 'something between them changed the body';
      out.push(finding('SIDE_DIVERGENCE', 'error',
        `${label(a)} id ${idText(a)}: client saw ${viewText(c.status, c.outcome)}, server sent ${viewText(s.status, s.outcome)}: ${what}${s.resumedBeforeAnswer ? sortedBefore(s.resumedBeforeAnswer.answerId, s.resumedBeforeAnswer.from) : ''}`,
        [...c.sources.slice(0, 2), ...s.sources.slice(0, 2)]));
    }
  }
  // One view that is not the client's (the server's log, a proxy's, a HAR) shows the answer sent, then the client's
  // GET resuming that stream from an event before it (its Last-Event-ID names what it had), which replayed no answer:
  // the client never got the result the server sent (a hop cut the stream just before it, and the event store no longer
  // had it). With the client's view too, the comparison above says so.
  const lost = v.resumedBeforeAnswer;
  if (lost && !(a.client && a.server) && v.side !== 'client' && v.responded === true) {
    out.push(finding('SIDE_DIVERGENCE', 'error',
      `${label(a)} id ${idText(a)}: the server sent ${statusText(a.status)} ${a.outcome} on the stream, but the client then resumed that stream from an event before the response (GET with Last-Event-ID at ${lost.src.file}:${lost.src.line}: it had not got it), answered ${resumptionAnswer(lost.got)}, which replayed no response: the server sent a final result the client never got${sortedBefore(lost.answerId, lost.from)}`,
      [...v.sources.slice(0, 2), lost.src]));
  }
  // An attempt whose answer is not known (UNANSWERED in a log that leaves some answers out, as the Python SDK's DEBUG
  // log leaves out JSON ones; a capture that kept no body; a span) has no outcome to contradict the claim. (A whole
  // message log that shows no answer does: the claimed result or error never came.)
  const outcomeView = a.client ?? v;
  const answerUnknown = a.outcome === 'UNANSWERED' && (outcomeView.answersUnlogged === true || outcomeView.bodyNotCaptured === true || outcomeView.rebuilt === true);
  if (a.claim?.claim.outcome && !answerUnknown && !sameOutcome(a.claim.claim.outcome, a.outcome)) {
    out.push(finding('OUTCOME_MISMATCH', 'error',
      `${label(a)} id ${idText(a)}: the client log claims ${a.claim.claim.outcome}, the wire says ${a.outcome}${a.detail.errorCode !== undefined ? ` (code ${a.detail.errorCode})` : ''}`,
      [a.claim.src, ...v.sources.slice(0, 2)]));
  }
  const cancelView = (a.client ?? v).cancelled ? (a.client ?? v) : a.server?.cancelled ? a.server : undefined;
  const closer = a.client ?? v;
  if (cancelView) {
    const at = cancelView.cancelledAt;
    const start = cancelView.startTs;
    const dur = at !== undefined && start !== undefined ? ` after ${secs(Math.max(0, at - start))}` : '';
    // The server's view has the cancellation before the request: it overtook the request on the way.
    const sv = a.server ?? (v.side === 'server' ? v : undefined);
    const overtook = sv?.cancelOvertook !== undefined
      ? `; it reached the server ${secs(sv.cancelOvertook)} before the request itself (something between them held the request back), so the server had no such request to stop then, and answered the request when it came: ${statusText(sv.status)} ${sv.outcome}`
      : '';
    // A result that still came after the cancellation reached nobody: the TypeScript SDK drops it ("unknown message ID").
    // (Not a body the client could not read, a 202's, one of a Content-Type it refuses, one that never ended: its
    // view's outcome says STREAM_INCOMPLETE although a response is in it.)
    // (A client's view whose answer came after its cancellation has what the client saw as its outcome: lateOutcome is the answer's.)
    // (In a log without times, its lines put the answer after the cancellation.)
    const answeredLate = (at !== undefined && cancelView.responded === true && (cancelView.outcome !== 'STREAM_INCOMPLETE' || cancelView.lateOutcome !== undefined) && (cancelView.endTs === undefined || at < cancelView.endTs))
      || (cancelView.answeredAfterCancelInLog !== undefined && cancelView.lateOutcome !== undefined);
    // -32800 (LSP's RequestCancelled) is the server saying it stopped the request, as the Python SDK answers every
    // cancelled request on the 2025 wire: no result was lost, unlike a late result of work that was done.
    const confirmed = answeredLate && a.detail.errorCode === -32800;
    // Over HTTP without a session the notifications/cancelled POST is a request of its own: a stateless server (the
    // Python and TypeScript SDKs' stateless modes) handles it apart from the running request, which it cannot stop.
    const stateless = cancelView.http && a.session === null && !cancelView.legacySse
      ? ': there is no session, and a stateless server takes the cancellation in a request of its own, apart from the running one, which it cannot stop'
      : '';
    // A client's message log whose error after that the server never sent (its view has no answer): the client's side made it.
    const madeLocally = answeredLate && !cancelView.http && cancelView === a.client && a.server !== undefined && a.server.responded !== true && a.outcome === 'JSONRPC_ERROR';
    const after = confirmed && at !== undefined && cancelView.endTs !== undefined ? ` ${secs(Math.max(0, cancelView.endTs - at))} after that` : '';
    const late = confirmed ? `; the server then answered it with -32800 (${a.detail.errorMessage ?? 'request cancelled'})${after}: it stopped the request without a result, but what the tool had done by then (or shields from cancellation, as a commit) is done`
      : madeLocally ? `; the ${a.outcome} its log shows after that is not the server's (the server's log has no answer for it): the client's side made it`
      : answeredLate ? `; its ${cancelView.lateOutcome ?? a.outcome} result came after that, when the client had given up on it${stateless}` : '';
    // The POST that carried it got no response at all (the client aborted it): the server's log beside it says whether it
    // arrived; without that log, it may never have left the client.
    const lost = cancelView.cancelLost === undefined || a.server?.cancelled ? ''
      : a.server && cancelView !== a.server
        ? `; but the POST that carried it ended (${cancelView.cancelLost}) with no response, and the server's log has no notifications/cancelled for it: the cancellation never reached the server, which did not stop the request`
        : `; but the POST that carried it ended (${cancelView.cancelLost}) with no response: the client closed it (as mcporter does, closing its connection right after its timeout), so the server may never have got the cancellation and may have run the request to its end`;
    out.push(finding('CANCELLED', 'warning',
      `${label(a)} id ${idText(a)}: the client sent notifications/cancelled for it${cancelView.cancelOvertook === undefined ? dur : ''}${cancelReasonText(cancelView.cancelReason)}${overtook && cancelView === sv ? '' : late}${overtook}${lost}${cancelView.cancelWithoutSession ? '; it went without the session id, which the client had dropped with its DELETE of the session (a server takes it for no request of a session)' : ''}${cancelView.cancelDoubt ? `; without a session id, ${cancelView.cancelDoubt + 1} requests with id ${idText(a)} from clients sharing this log were open then, and which one it named the log cannot tell: it is put on the one open longest` : ''}`,
      cancelView.sources));
  } else if (a.method === 'tasks/cancel' && a.outcome === 'SUCCESS') {
    out.push(finding('CANCELLED', 'warning',
      `tasks/cancel id ${idText(a)}: the client cancelled task ${jsonText(v.taskId ?? '?')} (the tool call that created it may already have done its work)`,
      v.sources.slice(0, 2)));
  } else if (closedByClient(closer) && !closer.responded && a.outcome !== 'SUCCESS' && !httpRefused(closer) && protocolOf(a) >= '2026-07-28') {
    // (SUCCESS: a subscriptions/listen stream the client closed, which is how a subscription ends. An HTTP error status
    // is the answer: no result was coming to cancel; the Python SDK closes a 503's body unread.)
    // 2026-07-28 has no notifications/cancelled over HTTP: closing the response stream is the cancellation.
    const dur = closer.endTs !== undefined && closer.startTs !== undefined ? ` after ${secs(Math.max(0, closer.endTs - closer.startTs))}` : '';
    out.push(finding('CANCELLED', 'warning',
      `${label(a)} id ${idText(a)}: the client closed the response${dur} before the result (on ${protocolOf(a)} closing the stream is the cancellation; often after its local timeout)`,
      closer.sources.slice(0, 2)));
  } else if (closedOnServer(closer) && !closer.responded && a.outcome !== 'SUCCESS' && !httpRefused(closer) && protocolOf(a) >= '2026-07-28') {
    // The server's log alone: its SDK took the closed connection for the cancellation and stopped the request.
    const dur = closer.endTs !== undefined && closer.startTs !== undefined ? ` after ${secs(Math.max(0, closer.endTs - closer.startTs))}` : '';
    out.push(finding('CANCELLED', 'warning',
      `${label(a)} id ${idText(a)}: the connection closed${dur} before the result was sent (on ${protocolOf(a)} closing the stream is the cancellation; the server's log cannot tell whether the client or something between them closed it)`,
      closer.sources.slice(0, 2)));
  }
  // The Python SDK client took the wrong-id response on its request's own stream as the answer: no orphan to it (the
  // attempt's INVALID_ENVELOPE says the id and what its caller got).
  for (const o of v.orphans ?? []) {
    if (v.strayTakenId !== undefined && o.id === v.strayTakenId) continue;
    out.push(finding('ORPHAN_RESPONSE', 'warning',
      `response with id ${jsonText(o.id)} on the exchange of ${label(a)} id ${idText(a)} ${orphanWhy(o, a.session === null ? 'the same log (there is no session)' : 'its session')}${sameValueOtherType(o.id, a.id) ? `: it is this request's id as a ${typeof o.id}, which the TypeScript SDK (1.x and v2) and the Python SDK take as its answer` : ''}`,
      [o.src]));
  }
  if (v.reusedWhileOpen) {
    out.push(finding('ID_REUSED', 'error',
      `${label(a)} reuses id ${idText(a)} while the request at ${v.reusedWhileOpen.file}:${v.reusedWhileOpen.line} with that id is still open`,
      [v.reusedWhileOpen, v.sources[0]!]));
  }
  if (ctx.continuationOf && ctx.continuationOf.primary.idKey === v.idKey) {
    out.push(finding('ID_REUSED', 'error',
      `${label(a)}: the follow-up to an input_required result reuses id ${idText(a)}; it MUST use a new id`,
      [ctx.continuationOf.primary.sources[0]!, v.sources[0]!]));
  }
  if (a.claim?.claim.jsonrpc?.errorCode !== undefined && a.claim.claim.jsonrpc.errorCode !== null) {
    const code = a.claim.claim.jsonrpc.errorCode;
    if (a.detail.errorCode !== code && a.server?.detail?.errorCode !== code && !wireCarries(a, code)) {
      out.push(finding('LOCAL_ERROR', 'warning',
        `${label(a)} id ${idText(a)}: the client claims error ${code} but no response on the wire carried it; likely ${LOCAL_CAUSES[code] ?? 'an error raised inside the client'}`,
        [a.claim.src, ...v.sources.slice(0, 1)]));
    }
  }
  return out;
}

/**
 * What a cancellation's reason says: the client's own words, and whether they are its timeout (the TypeScript SDK
 * sends "McpError: MCP error -32001: Request timed out"; an AbortSignal's reason as the caller gave it). Without a
 * reason, the usual cause.
 */
function cancelReasonText(reason: string | undefined): string {
  if (reason === undefined) return ' (often after its local timeout)';
  const timeout = /timed? ?out|timeout|-32001/i.test(reason);
  return `, with the reason ${jsonText(reason.length > 120 ? `${reason.slice(0, 120)}…` : reason)} (${timeout ? 'its own timeout' : 'the caller\'s decision'}, not an answer from the server)`;
}

/** A retried attempt's outcome, and that the client had cancelled it itself when it had (a timeout, a stop button). */
/**
 * The caller got the earlier attempt's answer, a result it was not cancelled for, and sent the retry knowing it: the
 * client's own view shows that answer, or the application linked the two with withCallNote (an app that calls again
 * after a tool error). A re-send in a server's or a proxy's log with neither is a sender that did not get the answer.
 */
/** A view of the client's whose tool result (TOOL_SUCCESS) came after the client's notifications/cancelled. */
function lateResult(a: Attempt): boolean {
  return [a.client, a.primary].some((v) => v?.lateOutcome === 'TOOL_SUCCESS');
}

/** A tool's answer (a result or an isError one) that the client's own timeout crossed: the caller got the timeout. */
function crossedResult(a: Attempt): boolean {
  return (a.client ?? a.primary).crossedTimeout !== undefined && (a.outcome === 'TOOL_SUCCESS' || a.outcome === 'TOOL_ERROR');
}

function callerGot(prev: Attempt, retry: Attempt): boolean {
  if (previousOutcome(prev) !== prev.outcome) return false;
  const caller = prev.client;
  if (caller !== undefined) return caller.outcome !== undefined && !isFailure(caller.outcome);
  return !isFailure(prev.outcome) && (retry.client ?? retry.primary).note?.call !== undefined;
}

function previousOutcome(prev: Attempt): string {
  return (prev.client ?? prev.primary).cancelled || prev.server?.cancelled || (prev.client ?? prev.primary).crossedTimeout ? `${prev.outcome}, which the client had cancelled itself` : prev.outcome;
}

/**
 * How close in time two sessions' identical results to different requests with one id must end to count as crossed:
 * a server that writes one response to every session's stream with that id delivers both copies at once (mcp-framework:
 * 11 to 16 ms apart on loopback); healthy concurrent clients' answers also end close together, so the time alone says
 * little, and the result must also name one request's arguments (findings/crossed.ts).
 */
export const CROSSED_WITHIN_MS = 250;

/**
 * ORPHAN_RESPONSE for a result that is another session's answer: `other` got the same result for another request with
 * this id, and the result names `value`, an argument only one of the two carried; `taker` is the one that did not.
 */
export function crossedResultFinding(a: Attempt, other: Attempt, taker: 'this' | 'other', value: string): Finding {
  const gap = Math.abs((a.primary.endTs ?? 0) - (other.primary.endTs ?? 0));
  const sid = other.session ?? '';
  const otherText = `${label(other)} id ${idText(other)} in session ${JSON.stringify(sid.length > 12 ? `${sid.slice(0, 8)}…` : sid)}`;
  const shown = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  const when = `${gap} ms ${(a.primary.endTs ?? 0) >= (other.primary.endTs ?? 0) ? 'before' : 'after'} it`;
  return finding('ORPHAN_RESPONSE', 'warning',
    taker === 'this'
      ? `${label(a)} id ${idText(a)}: its result is identical to the one ${otherText} (another tool or other arguments) got ${when}, and names ${shown}, which only that request carried: this call took the other's answer (a server that keeps one id space for all its sessions writes a response to every session's stream with that id)`
      : `${label(a)} id ${idText(a)}: its result is identical to the one ${otherText} (another tool or other arguments) got ${when}, and names ${shown}, which only this request carried: that call took this one's answer (a server that keeps one id space for all its sessions writes a response to every session's stream with that id)`,
    [...other.primary.sources.slice(0, 1), ...a.primary.sources.slice(0, 1)]);
}

/** The MCP-Protocol-Version the request carried (either view), or "" when no header says. */
function protocolOf(a: Attempt): string {
  for (const v of [a.client, a.server, a.primary]) {
    const p = v?.requestHeaders?.get('mcp-protocol-version');
    if (p !== undefined) return p.trim();
  }
  // A log without headers (a message log): the version a 2026-07-28 request names in its _meta.
  for (const v of [a.client, a.server, a.primary]) if (v?.metaProtocol !== undefined) return v.metaProtocol.trim();
  return '';
}

function wireCarries(a: Attempt, code: number): boolean {
  return [a.client, a.server, a.primary].some((v) => v?.wireErrorCode === code);
}

/**
 * JSON-RPC errors a server gives before running anything: parse error, invalid request, unknown method, invalid params,
 * and URL elicitation required (-32042, 2025-11-25: the request cannot be processed until the user completes the URL
 * elicitation; the spec expects the client to send it again after that).
 */
const REFUSED_BEFORE_RUNNING = new Set([-32700, -32600, -32601, -32602, -32042]);

/**
 * An HTTP client-error status used as the JSON-RPC error code: Genkit's MCP server (@genkit-ai/mcp) throws a GenkitError,
 * whose code is its status's HTTP number, and the SDK Server passes an integer code on: 400 INVALID_ARGUMENT for
 * arguments its schema refused, 404 NOT_FOUND for an unknown tool, 401/403 for a refused caller, 409, 422. Each refuses
 * the request before the tool runs, as -32602 and -32601 do.
 */
const HTTP_STATUS_REFUSAL = new Set([400, 401, 403, 404, 409, 422]);

/**
 * A rate limiter's refusal, given before the request is handled: FastMCP's RateLimitingMiddleware answers -32000
 * "Rate limit exceeded for client: …", "Global rate limit exceeded" or "Rate limit exceeded: N requests per …".
 */
const RATE_LIMIT_EXCEEDED = /^(global )?rate limit exceeded\b/i;

/**
 * The TypeScript SDK's refusal to send a request on a connection it does not have ("Not connected", thrown before
 * anything is sent), which a bridge built on it passes on as a JSON-RPC error when its own connection to the server
 * behind it is gone: mcp-proxy answers -32603 "Not connected" to every call after its stdio server exited.
 */
const NOT_CONNECTED = /^not connected$/i;

/**
 * Did the earlier attempt reach the server (proven: the server's log has it) or may it have (possible)? A request
 * refused as malformed, unknown or with invalid params, or by a rate limiter, ran nothing, whoever logged it.
 */
function executionEvidence(prev: Attempt): 'proven' | 'possible' | 'no' {
  // An input_required result (MRTR) is the server saying the tool needs input before it does its work: a round that
  // asked is no run of it, and the follow-up re-invokes the tool from the start with the answers.
  // (So was a round a follow-up continued, where the log does not show its answer: the Python DEBUG log's JSON ones.)
  // (The server's view of an input_required answer is so too whatever reached the client: a hop that broke or cut it.)
  if (((prev.outcome === 'INPUT_REQUIRED' || prev.continued === true) && prev.serverOutcome === undefined) || prev.serverOutcome === 'INPUT_REQUIRED') return 'no';
  // The server's own record shows its scenario layer answered before the MCP SDK saw the request (the kitchen's
  // observation of an injected -32603 or status): nothing ran, whatever the error's code says on the wire.
  if (prev.answeredBeforeTool !== undefined) return 'no';
  const code = prev.server?.detail?.errorCode ?? prev.detail.errorCode;
  const message = prev.server?.detail?.errorMessage ?? prev.detail.errorMessage;
  // (-32602 that the tool raised while it ran, with arguments that keep its inputSchema, is no refusal.)
  const raised = [prev.server, prev.client, prev.primary].some((v) => v?.toolRaised === true);
  if ((prev.outcome === 'JSONRPC_ERROR' || prev.serverOutcome === 'JSONRPC_ERROR') && code !== undefined && (REFUSED_BEFORE_RUNNING.has(code) || HTTP_STATUS_REFUSAL.has(code)) && !raised) return 'no';
  if ((prev.outcome === 'JSONRPC_ERROR' || prev.serverOutcome === 'JSONRPC_ERROR') && code === -32000 && message !== undefined && RATE_LIMIT_EXCEEDED.test(message.trim())) return 'no';
  // (A bridge's "Not connected": the request went no further than the bridge, whose log may be the "server" one.)
  if ((prev.outcome === 'JSONRPC_ERROR' || prev.serverOutcome === 'JSONRPC_ERROR') && message !== undefined && NOT_CONNECTED.test(message.trim())) return 'no';
  // (An HTTP error the server's view has is proof when the tool raised it: the Python SDK's 400 on 2026-07-28.)
  if (prev.server && !prev.notSeenByServer && (prev.server.outcome !== 'HTTP_ERROR' || raised)) return 'proven';
  // The tool's result came after the client had given up on it: the server's own answer proves the tool ran to its end.
  // So does one that came before the client's own timeout ran out in it (the two crossed).
  if (lateResult(prev) || crossedResult(prev)) return 'proven';
  if (prev.notSeenByServer) return 'no';
  // A POST whose connection could not be made sent nothing: the Python SDK client's log (httpcore's failed connect), or an
  // HTTP client's error for a connect that failed (recordingFetch's `fetch failed: connect ECONNREFUSED ...`, a HAR's
  // `net::ERR_CONNECTION_REFUSED`), where no response came.
  if (!prev.server && [prev.client, prev.primary].some((v) => v?.noResponse === 'connect-failed' || (v !== undefined && neverConnected(v)))) return 'no';
  // (The server's own HTTP error when the client got none: a hop reset the connection after the server refused it.)
  const s = prev.server?.outcome === 'HTTP_ERROR' && typeof prev.server.status === 'number' && typeof prev.status !== 'number' ? prev.server.status : prev.status;
  if (typeof s === 'number' && s >= 300 && s < 500 && !raised) return 'no'; // redirected or refused: nothing ran
  if (s === 503) return 'no';
  // -32800 to a request the client cancelled: the server had it and was running it when it stopped (the Python SDK
  // answers so when the handler returns, which a tool that shields its work finishes first).
  if (code === -32800 && (prev.client ?? prev.primary).cancelledAt !== undefined) return 'possible';
  // Progress the server sent for it shows the tool was running when the error came (the Python SDK answers a request
  // the client cancelled with -32800): the client's log alone then proves a run began, though not how far it went.
  // So does an error the tool raised (raisedByTool in classify.ts), and an internal error (-32603): the server failed
  // while it handled the request (an SDK answers so for an exception its tools/call handler threw), after whatever the
  // tool had done by then (measured: test/fixtures/real-audit44/v1-internal-error-retry).
  if (prev.outcome === 'JSONRPC_ERROR' && progressOf(prev) === 0 && !raised && code !== INTERNAL_ERROR) return 'no';
  return 'possible';
}

/**
 * An HTTP client's own error for a connection it could not make (refused, no such host, no route; undici's, Node's,
 * Chromium's and Python's words): nothing of the request was sent. A reset or a timeout after connecting is not one.
 */
const NEVER_CONNECTED = /\bconnect (?:ECONNREFUSED|EHOSTUNREACH|ENETUNREACH)\b|\bgetaddrinfo (?:ENOTFOUND|EAI_AGAIN)\b|net::ERR_(?:CONNECTION_REFUSED|NAME_NOT_RESOLVED|ADDRESS_UNREACHABLE)\b|\[Errno 111\] Connection refused|All connection attempts failed/;

/** The view got no HTTP response, and its client says the connection was never made. */
function neverConnected(v: AttemptView): boolean {
  return v.outcome === 'NO_RESPONSE' && typeof v.status !== 'number' && v.error !== undefined && NEVER_CONNECTED.test(v.error);
}

/** JSON-RPC's internal error: the server failed while handling the request, not a refusal of it. */
const INTERNAL_ERROR = -32603;

/** The progress notifications that came for an attempt, as its caller's view counted them. */
const progressOf = (a: Attempt): number => (a.client ?? a.primary).progress;

/**
 * When the caller was done with an attempt: when it cancelled it, if that came before the attempt ended, else the end.
 * A stream the log cut before any response (no end record: the client exited, the capture stopped) has no known end,
 * only the last time the log showed it: a cancellation after that is still when the caller gave up.
 */
/**
 * A client's message log that shows neither an answer nor any of the progress the server's view shows sent on the
 * request's stream well before the client cancelled (the Python SDK's DEBUG log logs each SSE message it reads) had
 * read none of it by then: the
 * response was held between them (nginx buffering a server without X-Accel-Buffering: no; real-audit48/py-noaccel-sse).
 */
function heldFromMessageLog(c: AttemptView, s: AttemptView): string | undefined {
  // The log must show this request's progress at all (some came after the cancellation: the held response let go), or
  // a log that never logs notifications (an app's pino log of its calls) would look held.
  if (c.responded || c.progress === 0 || c.cancelledAt === undefined || typeof s.status !== 'number' || typeof c.status === 'number') return undefined;
  // progress the client read before it cancelled (what came after, once the hop let the response go, came too late)
  const before = c.progressAt !== undefined ? c.progressAt.filter((t) => t < c.cancelledAt!).length : c.progress;
  if (before > 0) return undefined;
  const sent = (s.progressAt ?? []).filter((t) => t + HELD_ANSWER_MARGIN_MS < c.cancelledAt!);
  if (sent.length === 0) return undefined;
  return `the client's log (no HTTP layer) shows no answer and none of the ${sent.length} progress notification${sent.length === 1 ? '' : 's'} the server sent on the request's HTTP ${s.status} stream before the client cancelled it (the first ${secs(c.cancelledAt - Math.min(...sent))} before): something between them held the response back (a proxy that buffers it: nginx with proxy_buffering on, its default, does so for a server that sends no X-Accel-Buffering: no)`;
}

/**
 * What differs between a client's message view and the server's HTTP view of one request, compared as messages (the
 * client saw no HTTP): a result the server sent that the client never got (unless it had cancelled first), or another
 * answer in its place (a bridge that made up an error); undefined when they agree, or neither side has a result.
 */
function bridgedDivergence(c: AttemptView, s: AttemptView, gaveUpFirst: boolean): string | undefined {
  const delivered = s.responded === true && (s.status === undefined || (s.status !== null && s.status >= 200 && s.status <= 299));
  // A message log that shows its POST's HTTP status (the Python SDK's DEBUG log: httpx's "HTTP Request:" line) got an
  // HTTP error where the server sent its 2xx answer: that the log leaves the answers' bodies out does not hide it.
  if (delivered && typeof c.status === 'number' && (c.status < 200 || c.status > 299) && c.status !== s.status) return 'something between them changed the HTTP status';
  // A client log that leaves some answers out (the Python SDK's JSON answers) shows none to compare.
  if (delivered && !c.responded) return gaveUpFirst || c.answersUnlogged === true ? undefined : 'the server sent a final result the client never got (something between them lost it: a bridge, a proxy, the client\'s transport)';
  // (A client view whose answer came after it gave up has what it saw as its outcome: the answer's own is lateOutcome.)
  if (delivered && c.responded && (c.lateOutcome ?? c.outcome) !== s.outcome) {
    return c.outcome === 'JSONRPC_ERROR' && c.detail?.errorCode !== undefined && c.wireErrorCode !== s.wireErrorCode
      ? `the client got error ${c.detail.errorCode}${c.detail.errorMessage ? ` (${jsonText(c.detail.errorMessage.slice(0, 120))})` : ''}, not the server's answer: something between them (a bridge, the client's transport) made it up${c.method === 'tools/call' && (s.outcome === 'TOOL_SUCCESS' || s.outcome === 'TOOL_ERROR') ? ', and the tool had run' : ''}`
      : 'something between them changed the answer';
  }
  // (Not when the server's log shows an answer sent whose body it does not hold: the app's line of the request and its status.)
  if (c.responded && !s.responded && s.unloggedAnswer === undefined && (c.outcome === 'SUCCESS' || c.outcome === 'TOOL_SUCCESS')) return "the client got a result the server's log does not show sent";
  return undefined;
}

export function doneAt(a: Attempt): number | undefined {
  const v = a.client ?? a.primary;
  const cancelled = v.cancelledAt;
  // A stream the log never saw end, or saw cut without an answer, was still open when the client cancelled,
  // whatever its last record's time.
  const open = v.endUnseen === true || (v.streamEnd === 'cut' && unanswered(a.outcome));
  return cancelled !== undefined && (a.endTs === undefined || cancelled < a.endTs || open) ? cancelled : a.endTs;
}

/**
 * When the caller gave up on an attempt, for the delay before its retry `next`: doneAt, or, for a stream that ended
 * without the response (the SDK keeps such a request pending, waiting for it) and that the client cancelled later but
 * before `next` began, that cancellation: its own timeout fired then, and its backoff ran from there.
 */
function gaveUpAt(a: Attempt, next: Attempt): number | undefined {
  return gaveUp(a, next)?.at;
}

/**
 * gaveUpAt, and whether that time is when the client's notifications/cancelled reached a log past the client (a
 * proxy's, a gateway's, the server's): only an upper bound on when the caller gave up, late by that POST's own trip
 * through the hops, which under load took up to 223 ms longer than the retry's after it (the chaos audit's streams
 * profile). The client's own log has the cancellation as it was sent: at its timeout.
 */
function gaveUp(a: Attempt, next: Attempt): { at: number; hopCancel: boolean; pyTimeout: boolean } | undefined {
  const done = doneAt(a);
  const v = a.client ?? a.primary;
  const cancelled = v.cancelledAt;
  let at = done;
  if (done !== undefined && cancelled !== undefined && cancelled > done && a.outcome === 'STREAM_INCOMPLETE' && (next.startTs === undefined || cancelled <= next.startTs)) at = cancelled;
  // An answer its client's own timeout crossed: the caller got the timeout error when the cancellation went out.
  const crossed = v.crossedTimeout?.ts;
  if (done !== undefined && at === done && crossed !== undefined && crossed > done && (next.startTs === undefined || crossed <= next.startTs)) at = crossed;
  // A stream that ended without the response and that the client then tried to resume (GETs with Last-Event-ID): the
  // caller got its error when the last resumption failed (the Python SDK: "reconnection attempts were exhausted").
  if (at !== undefined && at === done && at === a.endTs && unanswered(a.outcome) && v.resumptions?.length) {
    let last = -Infinity;
    for (const r of v.resumptions) last = Math.max(last, r.endTs ?? r.startTs ?? -Infinity);
    if (last > at && (next.startTs === undefined || last <= next.startTs)) at = last;
  }
  // The Python SDK's cancellation after its own timeout says how long that was ("timed out after 1.5s"), and goes out
  // after the caller got its error, when its transport gets to the POST (up to some 100 ms later under load): the
  // caller gave up no later than the request's start plus that timeout (its clock started before the request went out).
  const timeout = PY_TIMEOUT_REASON.exec(v.cancelReason ?? '');
  let pyTimeout = false;
  if (at !== undefined && at === cancelled && timeout && a.startTs !== undefined && a.startTs + Number(timeout[1]) * 1000 < at) {
    at = a.startTs + Number(timeout[1]) * 1000;
    pyTimeout = true;
  }
  if (at === undefined) return undefined;
  return { at, hopCancel: (at === cancelled || at === crossed) && v.side !== 'client', pyTimeout };
}

/**
 * Whether `next` (a retry) went out right after the answer to the notifications/cancelled that `a` (the attempt before
 * it) got, the caller having given up on `a` at `gaveUpTs` before that answer came: the Python SDK's transport sends a
 * notification and waits for its answer before it sends the next message, so a cancellation a hop held (1 s, the chaos
 * audit's streams profile) held the retry behind it: the gap to it is that wait, not the app's backoff (its 0.25 s read
 * as 1.02 s, then its 0.5 s as "less than the 1023 ms before it").
 */
function queuedBehindCancel(a: Attempt, next: Attempt, gaveUpTs: number): boolean {
  const answered = (a.client ?? a.primary).cancelAnsweredAt;
  return answered !== undefined && next.startTs !== undefined && answered > gaveUpTs && next.startTs >= answered && next.startTs - answered <= CANCEL_QUEUE_MS;
}

/** How soon after a cancellation's answer the SDK's transport sends the message it held behind it, under load. */
const CANCEL_QUEUE_MS = 50;

/**
 * How much later than the caller's clock began a request may reach a log, relative to the retry after it, when the
 * delay runs from the request's start plus the Python SDK's timeout: its transport task gets to the POST late under
 * load, as to the cancellation after it (some 100 ms). The chaos audit's streams profile with the Python SDK (18 calls
 * in flight, the server restarting) read the app's 250 ms after its timeout as 197 ms so, in every log.
 */
const PY_TIMEOUT_START_MARGIN_MS = 100;

/**
 * How much later than the caller gave up a notifications/cancelled may reach a log past the client, relative to the
 * retry after it: a delay measured from such a cancellation proves a retry too soon (or a shorter step) only by more
 * than this. The chaos audit's streams profile under load: the SDK's cancellation took 60 to 90 ms, and on a busier
 * machine (streams-seed-8) up to 223 ms, longer through the two proxies and the fault hop than the retry sent 250 ms
 * after it, so the app's 250 ms read as 29 ms in the proxy's log. Nothing in such a log bounds that lateness: at the
 * default --min-retry-delay (200 ms) the minimum is not judged from it; a longer minimum, and shrinking steps, are.
 */
const HOP_CANCEL_MARGIN_MS = 250;

const unanswered = (o: Outcome) => o === 'STREAM_INCOMPLETE' || o === 'NO_RESPONSE';

/**
 * The client got a 5xx while the server's log has the request end without any response (its connection closed): a hop
 * answered on its own and dropped the request to the server (nginx's 504 after proxy_read_timeout), it changed no status.
 */
function hopAnswered(c: AttemptView, s: AttemptView): boolean {
  return s.status === null && s.responded !== true && typeof c.status === 'number' && c.status >= 500;
}

function hopAnsweredText(c: AttemptView, s: AttemptView): string {
  const into = s.endTs !== undefined && s.startTs !== undefined ? `, ${((s.endTs - s.startTs) / 1000).toFixed(2)} s into the request,` : '';
  const why = c.status === 504 ? ' (a gateway that stopped waiting for the server: its upstream timeout)' : '';
  return `something between them answered HTTP ${c.status} itself${why} and closed the server's connection${into} before the server answered (no status of the server's was changed); whether the request ran on there is not in its log`;
}

/** The reason the TypeScript SDK's own timeout gives its notifications/cancelled ("McpError: MCP error -32001: Request timed out"). */
const SDK_TIMEOUT_REASON = /\bRequest timed out\b/;

/**
 * When the caller had given up on `prev` before its notifications/cancelled, as `next` shows by coming before it: the
 * TypeScript SDK rejects a call whose maxTotalTimeout is exceeded when a progress notification comes ("Maximum total
 * timeout exceeded"), without cancelling it, and sends the cancellation ("Request timed out") only when the timeout the
 * progress before had set runs out. Seen so: `prev` was cancelled with that reason after `next` was sent, got no answer
 * before, and progress notifications for it came after it was sent and before `next` (two identical calls sent together
 * have none between them). Answers the time of the last of those, which the caller's end was at or before.
 */
export function gaveUpAtProgress(prev: Attempt, next: Attempt): number | undefined {
  const v = prev.client ?? prev.primary;
  const cancelled = v.cancelledAt;
  if (cancelled === undefined || next.startTs === undefined || prev.startTs === undefined || next.startTs >= cancelled) return undefined;
  if (!SDK_TIMEOUT_REASON.test(v.cancelReason ?? '') || !(unanswered(prev.outcome) || (prev.endTs !== undefined && cancelled < prev.endTs))) return undefined;
  let last: number | undefined;
  for (const t of v.progressAt ?? []) if (t > prev.startTs && t <= next.startTs) last = t;
  return last;
}

/** Findings about a retry: who sent it, whether it was safe, whether it honoured Retry-After and the policy. */
/** Most claim lines a RETRY_ORIGIN_AMBIGUOUS finding lists among its sources; the message says how many more there were. */
const MAX_CLAIM_SOURCES = 20;

/**
 * What the retry rules need of a call's whole chain of attempts, kept up to date attempt by attempt (addToChain), so
 * that a call retried a million times (a client in a retry loop) costs neither a walk of its chain per retry nor memory
 * per attempt.
 */
export interface RetryChain {
  /** The attempts so far. */
  count: number;
  /** The latest attempt, the one before it and the one before that. */
  last?: Attempt | undefined;
  previous?: Attempt | undefined;
  beforePrevious?: Attempt | undefined;
  /**
   * The latest attempt before `last` that ran or may have (executionEvidence not "no"), a proven one kept over a later
   * possible one: a retry after a refused attempt (503, 429) still repeats what an attempt before that one ran.
   */
  ranBefore?: Attempt | undefined;
  /** Whether some attempt of the chain has a client view. */
  anyClient: boolean;
  /**
   * The claims of the chain's attempts, in order, each with the number of POSTs it admits (its postCount, or how many
   * statuses it lists), keeping only a claim that admits fewer than every claim before it: the first claim a count of
   * POSTs contradicts is always one of these.
   */
  claims: { claim: ClaimBody; admits: number }[];
  /** Where the chain's claims were logged (the first MAX_CLAIM_SOURCES), and how many more there were. */
  claimSources: Source[];
  moreClaimSources: number;
  /** The chain's HTTP client re-sends after a 421 or a redirect (httpClientResend): POSTs, but no retries of the application's. */
  httpResends: number;
}

type ClaimBody = NonNullable<Attempt['claim']>['claim'];

export function newRetryChain(): RetryChain {
  return { count: 0, anyClient: false, claims: [], claimSources: [], moreClaimSources: 0, httpResends: 0 };
}




/** Count attempt a, the call's latest, into its chain. */
export function addToChain(chain: RetryChain, a: Attempt): void {
  if (chain.last && a.method === 'tools/call') {
    const e = executionEvidence(chain.last);
    if (e === 'proven' || (e === 'possible' && (!chain.ranBefore || executionEvidence(chain.ranBefore) !== 'proven'))) chain.ranBefore = chain.last;
  }
  chain.beforePrevious = chain.previous;
  chain.previous = chain.last;
  chain.last = a;
  chain.count++;
  if (a.client) chain.anyClient = true;
  if (a.claim) {
    const admits = claimAdmits(a.claim.claim);
    const lowest = chain.claims.length ? chain.claims[chain.claims.length - 1]!.admits : Infinity;
    if (admits < lowest) chain.claims.push({ claim: a.claim.claim, admits });
    if (chain.claimSources.length < MAX_CLAIM_SOURCES) chain.claimSources.push(a.claim.src);
    else chain.moreClaimSources++;
  }
}

/** The tools/list requests seen so far: whether any answer listed tools, and the first asked whose answer the log leaves out. */
interface ToolListsSeen {
  any: boolean;
  unlogged?: Source | undefined;
}

/**
 * A retry's claim of its own attempt alone: an app that logs each attempt (the attempt before has a line of its own),
 * whose line for this one tells of one POST (or request) at most and who sent it (not "none" or "unknown"). The same
 * line with no line of the attempt before is the whole call's, and its count is short.
 */
function ownAttemptClaim(a: Attempt, prev: Attempt): boolean {
  const c = a.claim?.claim;
  if (c === undefined || prev.claim === undefined || prev.claim === a.claim) return false;
  return claimAdmits(c) <= 1 && c.retryOrigin !== undefined && c.retryOrigin !== 'none' && c.retryOrigin !== 'unknown';
}

export function checkRetry(a: Attempt, prev: Attempt, chain: RetryChain, safety: ToolSafety | 'unknown', toolLists: ToolListsSeen, opts: { policy: CallPolicy }): Finding[] {
  const out: Finding[] = [];
  const n = chain.count;
  const posts = chain.count;
  // The first claim (in the chain's order, then the call's claim) that admits fewer POSTs than were observed. Not when
  // the app logs each attempt and this retry's line tells of one POST and who sent it: its lines each count their own
  // attempt's POSTs (a whole call's claim that says it was retried admits more than one).
  let contradicted: ClaimBody | undefined;
  if (!ownAttemptClaim(a, prev)) {
    for (const c of chain.claims) if (c.admits < posts) { contradicted = c.claim; break; }
    if (!contradicted && a.callClaim && claimAdmits(a.callClaim.claim) < posts) contradicted = a.callClaim.claim;
  }
  // (The HTTP client's re-send after a 421 is below any fetch wrapper's log: its absence there says nothing.)
  const resend = httpClientResend(a);
  if (resend) chain.httpResends++;
  const serverOnly = a.server && !a.client && chain.anyClient && !resend;
  const origin = a.retryOrigin?.origin ?? 'unknown';
  if (origin === 'unknown' || origin === 'none' || contradicted || serverOnly) {
    // A log without an HTTP layer (stdio, an app's message log) shows requests, not POSTs.
    const post = a.status === undefined && prev.status === undefined ? 'request' : 'POST';
    const why = contradicted
      ? `the client log claims ${contradicted.postCount !== undefined ? `postCount ${contradicted.postCount}` : `httpStatuses ${jsonText(contradicted.httpStatuses)}`} but ${posts} ${post}s were observed`
      : serverOnly ? `the server saw this ${post} but the client log has no record of it`
      : origin === 'none' ? 'the client claims no retry (retryOrigin "none")'
      : `origin unknown: ${a.retryOrigin?.how ?? 'nothing says who sent it'}`;
    const more = chain.moreClaimSources ? ` (the lines of ${chain.moreClaimSources} more claims of the call are not listed)` : '';
    out.push(finding('RETRY_ORIGIN_AMBIGUOUS', 'warning',
      `${label(a)}: ${post} ${n} of the call after ${previousOutcome(prev)}; ${why}${more}`,
      [prev.primary.sources[0]!, a.primary.sources[0]!, ...chain.claimSources, ...(a.callClaim ? [a.callClaim.src] : [])]));
  }
  if (a.method === 'tools/call') {
    // The attempt whose run this retry repeats: the previous one, unless it was refused before anything ran (or only
    // may have run) and an earlier one ran or may have (proven first).
    const earlier = chain.ranBefore !== prev ? chain.ranBefore : undefined;
    const prevExec = executionEvidence(prev);
    const ranAt = earlier && prevExec !== 'proven' && (prevExec === 'no' || executionEvidence(earlier) === 'proven') ? earlier : prev;
    const exec = executionEvidence(ranAt);
    const safe = safety !== 'unknown' && (safety.readOnly || safety.idempotent);
    if (!safe && exec !== 'no') {
      const why = safety === 'unknown'
        ? toolLists.any ? `tool ${a.tool} is not in any tools/list seen before it`
          // The list was asked for, and its answer is not in this log (which leaves JSON answers out): not "no tools/list".
          : toolLists.unlogged ? `its annotations are unknown (the client asked for tools/list at ${toolLists.unlogged.file}:${toolLists.unlogged.line}, but its answer is not in this log, which leaves some answers out; a capture with the answers (the server's, a proxy's) would show its annotations; --idempotent NAME declares a tool safe)`
          : 'its annotations are unknown (no tools/list before it in the logs; --idempotent NAME declares a tool safe)'
        : safety.annotated ? annotatedUnsafeText(safety) : 'it has no annotations, so by the spec defaults it is destructive and not idempotent';
      // A server view that answered the tool's result proves more than a reached server: the tool ran to its end.
      const ran = ranAt.server?.outcome === 'TOOL_SUCCESS' || ranAt.server?.outcome === 'TOOL_ERROR';
      const late = !ran && lateResult(ranAt);
      const progress = progressOf(ranAt);
      const raised = [ranAt.server, ranAt.client, ranAt.primary].some((v) => v?.toolRaised === true);
      // The server's SDK refused the tool's own result (-32602 "Invalid tools/call result"): the tool had run.
      const resultRefused = raised && ranAt.detail.errorCode === -32602 && refusedToolResult(ranAt.server?.detail?.errorMessage ?? ranAt.detail.errorMessage ?? '');
      const refusedText = 'its -32602 is the server\'s SDK refusing the tool\'s result ("Invalid tools/call result"), which it checks after the tool ran';
      const evidence = exec !== 'proven'
        ? progress > 0 ? `the earlier attempt was running: ${plural(progress, 'progress notification')} came for it before it ended`
          : resultRefused ? `the earlier attempt ran: ${refusedText}`
          : raised ? `the earlier attempt's ${ranAt.detail.errorCode ?? 'error'} came from the tool as it ran (its arguments keep the tool's inputSchema: no check of the request refused them)`
          : ranAt.outcome === 'TOOL_ERROR' ? "the earlier attempt got a tool error result (isError): the server handled it, and the tool may have run before it failed"
          : ranAt.detail.errorCode === -32800 ? 'the server answered the earlier attempt -32800 after the client cancelled it: it had the request and was running it, and what the tool did before it stopped is done'
          : ranAt.outcome === 'JSONRPC_ERROR' && ranAt.detail.errorCode === INTERNAL_ERROR ? 'the earlier attempt got -32603 (internal error): the server failed while it handled the request (an SDK answers so for an exception its tools/call handler threw), and the tool may have done its work before that'
          // An HTML error page is no MCP server's answer, but whose page it is (a proxy's, the web framework's) the log does not say.
          : ranAt.outcome === 'HTTP_ERROR' && /html/i.test((ranAt.client ?? ranAt.primary).contentType ?? '') ? `the earlier attempt's HTTP ${ranAt.status} is an HTML page, not the JSON-RPC answer an MCP server sends: a proxy, a web server or the server's web framework answered it, and whether the request reached the tool behind it is not in this log (the server's log would tell)`
          : 'the earlier attempt may have run (no server view proves otherwise)'
        : late ? 'the earlier attempt\'s TOOL_SUCCESS result came after the client had given up on it: the tool ran to its result, which the caller did not get, and its effect happened all the same'
        : !ran && crossedResult(ranAt) ? `the earlier attempt's ${ranAt.outcome} answer ended ${Math.round((ranAt.client ?? ranAt.primary).crossedTimeout!.ms)} ms before the client's notifications/cancelled for its own timeout: the tool ran to its answer, which the caller did not get (the SDK clients drop an answer to a request they cancelled), and its effect happened all the same`
        : ran ? `the server view shows the earlier attempt ran to its result (${ranAt.server!.outcome}), ${callerGot(ranAt, a) && ranAt.outcome === ranAt.server!.outcome ? 'which the caller got before it retried' : 'which the caller did not get'}: its effect happened before this retry`
        : resultRefused ? `the server view shows the earlier attempt reached the server, and ${refusedText}`
        : raised ? `the server view shows the earlier attempt reached the server, and its ${ranAt.detail.errorCode ?? 'error'} came from the tool as it ran (its arguments keep the tool's inputSchema)`
        : 'the server view shows the earlier attempt reached the server';
      const which = ranAt === prev ? '' : `attempt ${ranAt.attempt ?? '?'} of the call, before that one, got ${ranAt.outcome}${typeof ranAt.status === 'number' ? ` (HTTP ${ranAt.status})` : ''}, and `;
      out.push(finding('UNSAFE_RETRY', exec === 'proven' ? 'error' : 'warning',
        `${label(a)} retried after ${prev.outcome}${typeof prev.status === 'number' ? ` (HTTP ${prev.status})` : ''}${previousOutcome(prev) === prev.outcome ? '' : ', which the client had cancelled itself'}: ${why}; ${which}${evidence}`,
        [...(ranAt === prev ? [] : [ranAt.primary.sources[0]!, ...(ranAt.server ? [ranAt.server.sources[0]!] : [])]), prev.primary.sources[0]!, ...(prev.server ? [prev.server.sources[0]!] : []), a.primary.sources[0]!]));
    }
  }
  const prevView = prev.client ?? prev.primary;
  // A retry before a Retry-After at least the policy's minimum delay: RETRY_AFTER_IGNORED says it, not RETRY_POLICY too.
  let earlyForRetryAfter = false;
  if (prevView.retryAfterMs !== undefined && prev.endTs !== undefined && a.startTs !== undefined) {
    const waited = a.startTs - prev.endTs;
    if (waited < prevView.retryAfterMs) {
      earlyForRetryAfter = prevView.retryAfterMs >= opts.policy.minDelayMs;
      out.push(finding('RETRY_AFTER_IGNORED', 'warning',
        `${label(a)}: retried ${secs(Math.max(0, waited))} after HTTP ${prev.status} asked to wait ${secs(prevView.retryAfterMs)} (Retry-After)`,
        [prev.primary.sources[0]!, a.primary.sources[0]!]));
    }
  }
  // The HTTP client's re-sends after a 421 or a redirect are no retries of the application's policy: not counted.
  const retries = n - 1 - chain.httpResends;
  const policy = opts.policy;
  if (resend) {
    // its delay is the HTTP client's (none), not a step of a backoff
  } else if (retries > policy.maxRetries) {
    out.push(finding('RETRY_POLICY', 'warning', `${label(a)}: retry ${retries} exceeds the policy of at most ${plural(policy.maxRetries, 'retry', 'retries')}`, [a.primary.sources[0]!]));
  } else if (doneAt(prev) !== undefined && a.startTs !== undefined && a.retryOrigin?.origin !== 'sdk' && a.retryOrigin?.origin !== 'gateway' && backoffDue(prev.status) && gaveUpAtProgress(prev, a) === undefined) {
    // A retry sent before the cancellation of a call its caller had given up at some progress notification: when, the log does not tell, nor the delay.
    // The SDK's corrective re-sends (auth re-POST, HeaderMismatch) follow at once by design: no backoff is expected.
    // The delay runs from when the caller was done with the failed attempt: its end, or its cancellation.
    const gave = gaveUp(prev, a)!;
    const delay = a.startTs - gave.at;
    // A delay measured from a cancellation that reached this log late may be longer than it reads, by that lateness.
    const margin = gave.hopCancel ? HOP_CANCEL_MARGIN_MS : gave.pyTimeout ? PY_TIMEOUT_START_MARGIN_MS : 0;
    const before = chain.beforePrevious;
    const beforeDone = before ? gaveUpAt(before, prev) : undefined;
    // A retry sent into a new session (the client reconnected after the attempt before it) waited for that reconnect
    // too: its gap is no backoff alone, so it is not the delay to compare with. So does one whose client began a connect
    // under its own name since then (a new Client on 2026-07-28, where there is no session to change).
    const reconnected = (before !== undefined && before.session !== null && prev.session !== null && before.session !== prev.session) || prev.reconnectedBefore === true;
    // Nor is a wait the server asked for: a retry that waited out the Retry-After of the response before it kept the
    // server's delay, not a step of the client's backoff, which may go on shorter after it.
    const askedWait = before !== undefined ? (before.client ?? before.primary).retryAfterMs : undefined;
    const gapBefore = beforeDone !== undefined && prev.startTs !== undefined ? prev.startTs - beforeDone : undefined;
    const serverWait = askedWait !== undefined && gapBefore !== undefined && before!.endTs !== undefined && prev.startTs! - before!.endTs >= askedWait;
    // Nor is the gap after a 2026-07-28 stream that ended without the response, that no cancellation or resumption
    // followed: there a client cancels by closing the stream, so when the caller gave up leaves no trace on the wire
    // (the TypeScript SDK v2 keeps waiting for its own timeout, then retries), and the gap holds that wait. (The
    // Python SDK, its User-Agent httpx's, rejects at once when such a stream ends: there the gap is its backoff.)
    const untracedWait = before !== undefined && before.outcome === 'STREAM_INCOMPLETE' && beforeDone === before.endTs
      && (before.client ?? before.primary).cancelledAt === undefined && protocolOf(before) >= '2026-07-28'
      && ![before.client, before.primary, before.server].some((v) => v !== undefined && pythonSdkAgent(v) !== undefined);
    const prevDelay = gapBefore !== undefined && !reconnected && !serverWait && !untracedWait && !queuedBehindCancel(before!, prev, beforeDone!) ? gapBefore : undefined;
    // (Where the cancellation came late, a delay under the minimum by less than the margin proves nothing.)
    const hopNote = gave.hopCancel ? ` (measured from the client's notifications/cancelled as this log got it, which may have come up to ${delayText(margin)} later than the caller gave up: its trip through the hops)`
      : gave.pyTimeout ? ` (measured from the request's start in this log plus the timeout its notifications/cancelled names, which may be up to ${delayText(margin)} later than the caller's timeout fired: the SDK's transport gets to a POST late under load)` : '';
    if (delay < policy.minDelayMs - margin) {
      if (!earlyForRetryAfter) out.push(finding('RETRY_POLICY', 'warning', `${label(a)}: retry ${retries} came ${delayText(Math.max(0, delay))} after ${isFailure(prev.outcome) || previousOutcome(prev) !== prev.outcome ? 'the failure' : callerGot(prev, a) ? `the earlier attempt ended (${prev.outcome}, which the caller got)` : `the earlier attempt ended (${prev.outcome} in this log: the sender did not get it)`}${hopNote}; the policy asks at least ${delayText(policy.minDelayMs)} (--min-retry-delay)`, [prev.primary.sources[0]!, a.primary.sources[0]!]));
    } else if (prevDelay !== undefined && delay + margin < prevDelay - Math.max(20, prevDelay * 0.1)) {
      // A constant backoff keeps its delays within a few ms of each other: only a delay clearly shorter shrinks.
      out.push(finding('RETRY_POLICY', 'warning', `${label(a)}: retry ${retries} waited ${delayText(delay)}${hopNote}, less than the ${delayText(prevDelay)} before it; the policy asks growing delays`, [prev.primary.sources[0]!, a.primary.sources[0]!]));
    }
  }
  return out;
}

/**
 * A tools/call a gateway re-sent below the client (HAProxy's retries counter on its line of this POST): the client sent
 * it once, the gateway to more than one server or twice to one. UNSAFE_RETRY when the tool is not safe to repeat; a
 * warning, since the line cannot say whether the earlier try reached the tool (a refused connection did not): the
 * servers' logs tell.
 */
export function checkGatewayResend(a: Attempt, safety: ToolSafety | 'unknown', toolLists: ToolListsSeen): Finding[] {
  const g = a.gatewayLine;
  if (!g || g.retries <= 0 || a.method !== 'tools/call') return [];
  if (safety !== 'unknown' && (safety.readOnly || safety.idempotent)) return [];
  const why = safety === 'unknown'
    ? toolLists.any ? `tool ${a.tool} is not in any tools/list seen before it` : 'its annotations are unknown (no tools/list before it in the logs; --idempotent NAME declares a tool safe)'
    : safety.annotated ? annotatedUnsafeText(safety) : 'it has no annotations, so by the spec defaults it is destructive and not idempotent';
  return [finding('UNSAFE_RETRY', 'warning',
    `${label(a)}: the gateway re-sent this POST (${g.said.replace(/ \([^()]*\)$/, '')}), though the client sent it once: ${why}; the tool may have run on each try that reached a server (a refused connection ran nothing: the servers' logs tell)`,
    [a.primary.sources[0]!, g.src])];
}

/**
 * Why an annotated tool is not safe to repeat: what its tools/list annotations say of readOnlyHint and idempotentHint,
 * and, for a hint they leave out, that it takes the spec's default (false), which is no statement of the server's.
 */
function annotatedUnsafeText(safety: ToolSafety): string {
  const ro = safety.given?.readOnlyHint;
  const idem = safety.given?.idempotentHint;
  if (ro === false && idem === false) return 'tools/list says it is neither read-only nor idempotent (readOnlyHint and idempotentHint false)';
  if (ro === undefined && idem === undefined) return 'its annotations in tools/list give neither readOnlyHint nor idempotentHint, so by the spec defaults it is not read-only and not idempotent';
  return ro === false
    ? 'tools/list says it is not read-only (readOnlyHint false) and gives no idempotentHint, so by the spec default it is not idempotent'
    : 'tools/list says it is not idempotent (idempotentHint false) and gives no readOnlyHint, so by the spec default it is not read-only';
}

/**
 * Whether a retry after this HTTP status should have waited. Backoff is for failures that may pass with time (no
 * response, a timeout, a cut stream, 408, 429, 5xx, an error inside a 200); another 4xx is corrected, not waited out:
 * a re-send with credentials after 401, in a new session after 404, with fixed headers after 400.
 */
function backoffDue(status: number | null | undefined): boolean {
  return !(typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429);
}

/** What the call linker knows about a session when it closes. */
export interface SessionCalls {
  requests: number;
  toolCalls: number;
  failed: Attempt[];
  expired: Attempt[];
  /** When the latest request that succeeded (or got a tool's own answer) started. */
  lastOk?: number;
  /** The same, of requests that use a session rather than open one (not initialize, not server/discover). */
  lastUse?: number;
  /** When the latest request that succeeded ended (a call answered on a resumption ends with the GET that brought it). */
  lastOkEnd?: number;
  /** Where the server's log shows the session's initialize (its input and line), when it does. */
  serverInit?: { input: number; src: Source };
  /** The session's first initialize. */
  init?: Attempt;
}

/** Protocol versions the MCP specification has published (a version outside it is a draft's or a server's own). */
const PUBLISHED_VERSIONS = new Set(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']);

/**
 * An initialize answered with another protocol version than the client asked for, after which the client sent nothing
 * in the session (not even notifications/initialized): it did not accept that version. The message, else undefined.
 */
function versionRefused(s: SessionState, calls: SessionCalls): { text: string; init: Attempt } | undefined {
  const init = calls.init;
  if (s.session === null || s.used === true || calls.requests !== 1 || !init || isFailure(init.outcome)) return undefined;
  const v = (init.client ?? init.primary).initialize ?? init.server?.initialize;
  const asked = v?.requestedProtocolVersion;
  const got = v?.protocolVersion;
  if (typeof asked !== 'string' || typeof got !== 'string' || asked === got) return undefined;
  const draft = PUBLISHED_VERSIONS.has(got) ? '' : ', a version no MCP specification has published (a draft\'s or the server\'s own)';
  return {
    init,
    text: `the server answered initialize with protocol version ${jsonText(got.slice(0, 60))}${draft}, not the ${jsonText(asked.slice(0, 60))} the client asked for, and the client sent nothing more in the session${s.deleteSent ? ' but a DELETE of it' : ''} (not even notifications/initialized): it did not accept that version (a client that does not support the server's version SHOULD disconnect; the TypeScript SDK's connect() throws "Server's protocol version is not supported", the Python SDK raises "Unsupported protocol version from the server"), so it never got to call a tool`,
  };
}

/** Why a 400 is read as an expired session: the spec asks 404, which is what clients re-initialize on. */
const not404 = ': the server no longer knows the session but answered 400 where the spec asks 404, so a client that starts a new session on 404 will not';

/**
 * A 400 whose body says the session id the request carried is not valid (the older SDK example servers' answer to an
 * unknown session, where the spec asks 404): the body's text, else undefined.
 */
export function unknownSessionRefusal(a: Attempt): string | undefined {
  if (a.status !== 400 || !a.primary.sentSession) return undefined;
  const text = a.detail.errorMessage ?? (a.detail.why?.startsWith('the body says: ') ? a.detail.why.slice('the body says: '.length) : undefined);
  return saysSessionUnknown(text) ? text : undefined;
}

/** How the client's view of a stream ended, for a finding that says it was not the client that closed it. */
/**
 * SIDE_DIVERGENCE on 2026-07-28 when the server's connection closed and the client did not close it: something between
 * them, or, where the client's side failed as a peer's close does ("other side closed"), the server itself behind its log
 * (a fault injector's abort: the test kitchen's errors.connection_close, test/fixtures/real-audit62; a crash).
 */
function closedBetweenFinding(a: Attempt, c: AttemptView, s: AttemptView): Finding {
  const peer = c.streamEnd === 'error' || (c.status === null && c.error !== undefined);
  const who = peer ? "the server's side closed it: something between them, or the server itself behind its log (a fault injector's abort, a crash)" : 'something between them closed it';
  return finding('SIDE_DIVERGENCE', 'error',
    `${label(a)} id ${idText(a)}: the server's connection closed before it sent the response, which on ${protocolOf(a)} it takes for the client's cancellation (its SDK aborts the request's signal; whether the tool's work stopped, the log cannot show), but the client did not close its stream (${clientEndText(c)}): ${who}; both sides logged ${statusText(c.status)} ${c.outcome}`,
    [...c.sources.slice(0, 2), ...s.sources.slice(0, 2)]);
}

function clientEndText(c: AttemptView): string {
  const how = !c.streamEnd || c.streamEnd === 'complete' ? 'it ended without the response' : c.streamEnd === 'error' ? 'it failed' : c.streamEnd === 'aborted' ? 'it was aborted' : c.streamEnd === 'timeout' ? 'it timed out' : `it ended (${c.streamEnd})`;
  return c.error !== undefined ? `${how} with ${jsonText(c.error.slice(0, 200))}` : how;
}

/**
 * SESSION_EXPIRED for a GET stream or a notification refused because the session is gone (no request got the refusal);
 * an error when it was the session's notifications/initialized and nothing worked in the session after it.
 */
function refusedFinding(s: SessionState, r: NonNullable<SessionState['refused404']>, where: string, later: Later, calls?: SessionCalls): Finding {
  const reinit = later.initializeAfter(r.ts, r.src);
  const unusable = r.initialized === true && calls !== undefined && neverUsable(r.ts, calls);
  const f = finding('SESSION_EXPIRED', unusable ? 'error' : 'warning',
    `${where}: HTTP ${r.status ?? 404} to ${r.what}, which carried the session id${r.said !== undefined ? `, saying ${jsonText(r.said)}${not404}` : ''}${unusable ? neverUsableText(r.ts, calls!, ': ') : ''}; the client ${reinit ? 're-initialized' : reinitFailed(later, r.ts) ? refusedReinit : 'did not re-initialize'}`,
    [r.src], 'session', s.session);
  if (unusable) f.unusable = `HTTP ${r.status ?? 404} to notifications/initialized`;
  // A notification (not a GET stream, not a DELETE): drawn in the session's sequence diagram.
  const carried = /^its (.+), a POST with no request in it$/.exec(r.what)?.[1];
  if (carried !== undefined) f.refused = { what: carried, status: r.status ?? 404, ...(r.ts !== undefined ? { ts: r.ts } : {}) };
  // The session's GET stream, refused for the lost session: drawn as well (a resumption is told in its call's row).
  else if (r.what === 'the GET stream') f.refused = { what: 'stream', method: 'GET', status: r.status ?? 404, ...(r.ts !== undefined ? { ts: r.ts } : {}) };
  return f;
}

/**
 * A session whose notifications/initialized was refused at `ts` never became usable when no request of it worked after
 * that: the TypeScript SDK's connect() (1.x and v2) throws on the refusal and the application never gets the client.
 * A client that went on regardless and was answered (the Python SDK's) had a session.
 */
/** An exchange answered with an HTTP error status (4xx, 5xx): the refusal is its answer, no result was to come. */
const httpRefused = (x: { status?: number | null }) => typeof x.status === 'number' && x.status >= 400;

/** Requests that open a client's exchange with the server rather than use it. */
export const OPENS: ReadonlySet<string> = new Set(['initialize', 'server/discover']);

function neverUsable(ts: number | undefined, calls: SessionCalls): boolean {
  // An initialize that worked later is another handshake (a scope without session ids holds every connect's), not use.
  return calls.lastUse === undefined || (ts !== undefined && calls.lastUse <= ts);
}

/** What a refused notifications/initialized meant, for a session in which nothing worked after it. */
const NEVER_USABLE = "the session never became usable (the TypeScript SDK's connect(), 1.x and v2, throws on that refusal, and no request worked in this session after it)";

/**
 * Why a session whose notifications/initialized was refused never became usable. A client that stopped there (the
 * TypeScript SDK's connect() throws) never used it; one that went on regardless and sent requests in it (the Python
 * SDK ignores a notification's HTTP error) found it unusable by those requests' own failures, not by the refusal.
 */
function neverUsableText(ts: number | undefined, calls: SessionCalls, joint: string): string {
  const n = ts === undefined ? 0 : calls.failed.filter((a) => a.startTs !== undefined && a.startTs > ts && !OPENS.has(a.method)).length;
  if (n === 0) return `${joint}${NEVER_USABLE}`;
  return `${joint === ', so ' ? ', and ' : joint}the session never became usable: the client went on regardless (as the Python SDK does, which ignores that refusal), but ${n === 1 ? 'the request' : `the ${n} requests`} sent in it afterwards failed`;
}

/**
 * NOTIFICATION_REFUSED for a POST with no request in it that got an HTTP error (`calls`: what the session's requests
 * did, when known); an error when it was the session's notifications/initialized and nothing worked in it after that.
 */
function refusedPostFinding(s: SessionState, r: RefusedPost, where: string, later: Later, calls: SessionCalls | undefined): Finding {
  const lastOk = calls?.lastOk;
  const initialized = r.what === 'notifications/initialized';
  const unusable = initialized && calls !== undefined && neverUsable(r.ts, calls);
  // A session in which requests worked after the refusal went on, whatever the client did later (a client that went on
  // after a refused notifications/initialized, as the Python SDK does, may connect again much later, for another reason).
  // Only a scope with a session id can tell: one without holds every connect's traffic, a later connect's success too.
  const wentOn = lastOk !== undefined && r.ts !== undefined && lastOk > r.ts;
  const next = wentOn && s.session && !unusable ? 'the session went on'
    : later.initializeAfter(r.ts, r.src) ? 'the client began a new session (initialize) after it'
      : r.lostId && later.initializeInLogAfter?.(r.lostId.log, r.ts) ? 'an initialize came after it in this log (the client starting again, or another client)'
        : wentOn ? 'the session went on' : 'nothing more came in this session';
  const what = r.what.startsWith('its answer') || r.what.startsWith('a ') ? r.what : `its ${r.what}`;
  const sdk = unusable ? neverUsableText(r.ts, calls!, ', so ') : initialized ? " (the TypeScript SDK's connect() throws on that)" : '';
  const noSession = r.lostId ? lostIdText(r.lostId)
    : r.noSession ? '; the POST carried no Mcp-Session-Id: the client did not have the session id the server asks for (its initialize response reached it without the header: a hop that drops it, or a browser whose CORS policy does not expose it)' : '';
  const f = finding('NOTIFICATION_REFUSED', unusable ? 'error' : 'warning',
    `${where}: HTTP ${r.status} to ${what}, a POST with no request in it${r.said !== undefined ? ` (saying ${jsonText(r.said)})` : ''}: it was not accepted${sdk}${noSession}; ${next}`,
    r.lostId ? [r.src, r.lostId.src] : [r.src], 'session', s.session);
  if (unusable) f.unusable = `HTTP ${r.status} to notifications/initialized`;
  f.refused = { what: r.what, status: r.status, ...(r.ts !== undefined ? { ts: r.ts } : {}) };
  return f;
}

/**
 * What a server's log can say of a sessionless POST refused right after its initialize response set a session id:
 * the id did not come back, and not why (the client's log shows whether its initialize response had the header).
 */
function lostIdText(l: NonNullable<RefusedPost['lostId']>): string {
  const when = l.ms === undefined ? '' : ` ${l.ms < 1000 ? `${Math.round(l.ms)} ms` : secs(l.ms)} before`;
  return `; the POST carried no Mcp-Session-Id, though the server had set one (${l.session}) in its initialize response${when} and no request had carried it back since: the id was lost on its way to the client (a hop that drops the header, a browser whose CORS policy does not expose it) or the client did not send it; the server's log cannot tell which, the client's can`;
}

/**
 * What came after a session, from the same client: a tools/call, an initialize that worked, one that failed; and an
 * initialize that worked in a given log (side|input), by any client (a scope without calls knows no client).
 */
interface Later { toolCallAfter(ts: number | undefined): boolean; initializeAfter(ts: number | undefined, at?: Source): boolean; initializeFailedAfter?(ts: number | undefined): boolean; initializeInLogAfter?(log: string, ts: number | undefined): boolean; began?: boolean }
const reinitFailed = (later: Later, ts: number | undefined) => ts !== undefined && later.initializeFailedAfter?.(ts) === true;
const refusedReinit = 'tried to re-initialize, but its initialize failed';

/** One request refused for the lost session, and what is said of it (the same for every request of one expiry). */
interface Expired { x: Attempt; said: string | undefined; ended: string; elsewhere: string }

/**
 * The requests refused because the session was gone, grouped by what is said of the refusal: one SESSION_EXPIRED per
 * expiry, however many requests met it (a client that retried in the dead session got a 404 each time). Requests that
 * a server instance without the session answered, or that came after the client's own DELETE, are told apart.
 */
function expiryGroups(s: SessionState, calls: SessionCalls): Expired[][] {
  const groups = new Map<string, Expired[]>();
  for (const x of calls.expired) {
    const ts = x.endTs ?? x.startTs;
    // Two server logs, the 404 in one and the session's initialize in the other: another instance answered, one that
    // never had the session (no sticky routing), rather than the session expiring.
    const init = calls.serverInit;
    const elsewhere = x.server && init && x.server.input !== init.input
      ? ` from ${x.server.sources[0]!.file}, a server log that never saw this session's initialize (it is at ${init.src.file}:${init.src.line}): another server instance without the session (sticky routing?)`
      : '';
    const said = x.status === 404 ? undefined : unknownSessionRefusal(x);
    // A DELETE had ended the session (accepted): the server did not lose it, the request reused its id. Who sent the
    // DELETE: this request's caller (a client's log), another caller of a client's log, someone the client's log does
    // not show (only the server's log beside it has the DELETE), or a log that cannot tell (a server's, a proxy's).
    const t = s.terminated;
    const at = t ? `${t.src.file}:${t.src.line}` : '';
    const ended = t !== undefined && (t.ts === undefined || ts === undefined || t.ts <= ts)
      ? t.unseen
        ? ` after a DELETE of this session that the client's log does not show (${at}, accepted): another client, or a tool outside these logs, ended the session; the request reused a terminated session id, the server did not lose the session`
        : t.side !== 'client'
          ? ` after a DELETE of this session (${at}) was accepted (this log does not tell whether this client or another sent it): the request reused a terminated session id, the server did not lose the session`
          : t.caller === x.primary.caller
            ? ` after the client had ended this session itself (its DELETE at ${at} was accepted): the request reused a terminated session id, the server did not lose the session`
            : ` after another client (${callerName(t.caller, t.src)}) had ended this session (its DELETE at ${at} was accepted): the request reused a session id someone else terminated, the server did not lose the session`
      : '';
    const key = `${x.status}|${said ?? ''}|${ended}|${elsewhere}`;
    const g = groups.get(key);
    if (g) g.push({ x, said, ended, elsewhere });
    else groups.set(key, [{ x, said, ended, elsewhere }]);
  }
  return [...groups.values()];
}

/** A caller key as a message names it: a connection or client key, or the input it came from. */
function callerName(caller: string, src: Source): string {
  return caller.startsWith('input#') ? `the one whose log is ${src.file}` : jsonText(caller.slice(0, 80));
}

/** The requests of one expiry: each call with its ids (a call re-sent into the dead session shows several), five at most. */
function expiredList(group: Expired[]): string {
  const byCall = new Map<string, Attempt[]>();
  for (const { x } of group) {
    const k = x.call ?? `${label(x)}#${idText(x)}`;
    const l = byCall.get(k);
    if (l) l.push(x);
    else byCall.set(k, [x]);
  }
  const parts = [...byCall.values()].slice(0, 5).map((l) => `${label(l[0]!)} id ${idText(l[0]!)}${l.length > 1 ? `, re-sent as id ${l.slice(1).map(idText).join(', ')} into the expired session` : ''}`);
  return `${parts.join('; ')}${byCall.size > 5 ? `; and ${plural(byCall.size - 5, 'more call')}` : ''}`;
}

/** Calls named by their first request, three at most. */
function named(calls: { first: Attempt }[]): string {
  const names = calls.slice(0, 3).map((c) => `${label(c.first)} id ${idText(c.first)}`);
  return calls.length > 3 ? `${names.join(', ')} and ${calls.length - 3} more` : names.join(calls.length === 2 ? ' and ' : ', ');
}

/** SESSION_EXPIRED for the requests of one expiry: what met them, then whether the client re-initialized and retried. */
function expiredFinding(s: SessionState, group: Expired[], where: string, later: Later, sessionCalls: SessionCalls): Finding {
  const { x, said, ended, elsewhere } = group[0]!;
  const last = group[group.length - 1]!.x;
  const ts = last.endTs ?? last.startTs;
  const reinit = later.initializeAfter(ts, last.primary.sources[0]);
  // Retried after the re-initialization, or only in the expired session (a 404 again) before it.
  const calls = new Map<string, { first: Attempt; retried: boolean; here: boolean; rerunBy?: string }>();
  for (const { x: y } of group) {
    const k = y.call ?? `${label(y)}#${idText(y)}`;
    const c = calls.get(k) ?? { first: y, retried: false, here: false };
    c.retried ||= y.primary.retriedInNewSession === true;
    c.rerunBy ??= y.primary.rerunBy;
    c.here ||= y.primary.retried === true;
    calls.set(k, c);
  }
  const all = [...calls.values()];
  const retried = all.filter((c) => c.retried).length;
  const one = all.length === 1;
  const retry = retried === all.length ? (one ? ' and retried the call' : ' and retried the calls')
    : retried > 0 ? ` and retried ${named(all.filter((c) => c.retried))}, not ${named(all.filter((c) => !c.retried))}`
      : all.some((c) => c.here) ? (one ? ' but retried the call only in the expired session, before that' : ' but retried the calls only in the expired session, before that')
        : one ? ' but did not retry the call' : ' but did not retry the calls';
  const saying = `${said !== undefined ? `, saying ${jsonText(said)}${ended ? '' : not404}` : ''}${ended}${said !== undefined && ended ? '; the server answered 400 where the spec asks 404 for a terminated session' : ''}${elsewhere}`;
  const first = x.startTs ?? x.endTs;
  const over = group.length > 1 && first !== undefined && ts !== undefined ? `, over ${secs(Math.max(0, ts - first))}` : '';
  const what = group.length === 1
    ? `HTTP ${x.status} to ${label(x)} id ${idText(x)} that carried the session id${saying}; the client`
    : `HTTP ${x.status} to ${group.length} requests that carried the session id${over} (${expiredList(group)})${saying}; then the client`;
  // Each request's lines, for the first 50 of them (the message counts them all).
  const sources = group.slice(0, 50).flatMap((e) => [...e.x.primary.sources.slice(0, 2), ...(e.elsewhere && e.x.server ? [e.x.server.sources[0]!] : [])]);
  // A one-shot CLI exits after the 404: the new session and the call in it came from a new run of it, not from it.
  const rerunBy = reinit && retried === all.length ? all[0]!.rerunBy : undefined;
  if (rerunBy !== undefined && all.every((c) => c.rerunBy !== undefined)) {
    return finding('SESSION_EXPIRED', 'warning',
      `${where}: ${what} did not re-initialize: ${rerunBy} exits after such an error (one command per process, no retry); a new run of it began a new session and sent ${one ? 'the call' : 'the calls'} again (a person or a script ran the command again)`,
      sources, 'session', s.session);
  }
  // The session went on without a new initialize, answered after the 404: the server had not lost it, whatever sent the
  // 404 (a hop in front of it; a load balancer that routed the request to an instance without it, and the next back).
  const wentOn = !reinit && !ended && !elsewhere && ts !== undefined && sessionCalls.lastOkEnd !== undefined && sessionCalls.lastOkEnd > ts
    ? `, and went on in the session, whose later requests were answered: the server had not lost the session${group.every((e) => e.x.notSeenByServer === true) ? ' (its log beside this one does not have the refused POST)' : ''}, something in front of it answered the 404 (a gateway, or a load balancer that sent the request to an instance without the session)`
    : '';
  return finding('SESSION_EXPIRED', 'warning',
    `${where}: ${what} ${reinit ? 're-initialized' : reinitFailed(later, ts) ? refusedReinit : 'did not re-initialize'}${reinit ? retry : ''}${wentOn}${s.session && !s.announced ? ' (no initialize response in these logs announced this session id: the client may have taken it from another response)' : ''}`,
    sources, 'session', s.session);
}

/** Session-level findings, raised when the session closes. */
export function checkSession(s: SessionState, calls: SessionCalls | undefined, later: Later): Finding[] {
  const out: Finding[] = [];
  const where = s.session ? `session ${s.session}` : s.clientKey && !s.clientKey.startsWith('input#') ? `client ${s.clientKey} (no session)` : 'traffic without a session';
  for (const o of s.orphans ?? []) {
    out.push(finding('ORPHAN_RESPONSE', 'warning', `${where}: response with id ${jsonText(o.id)} ${orphanWhy(o, 'the session')}`, [o.src], 'session', s.session));
  }
  const strays = (s.strayProgress ?? []).filter((p) => !p.dup);
  strays.forEach((p, i) => {
    const more = i === strays.length - 1 && s.strayProgressMore ? `; ${plural(s.strayProgressMore, 'more such notification')} for other tokens in this session` : '';
    // The notification's records, then the request it names (so that a filter keeping that call keeps this finding).
    const named = p.after?.request.src ?? p.elsewhere?.request.src;
    out.push(finding('PROGRESS_UNMATCHED', 'warning', `${where}: ${strayProgressText(p)}${more}`, [p.src, ...(p.also ?? []).slice(0, 2), ...(named ? [named] : [])], 'session', s.session));
  });
  for (const c of s.cancels ?? []) {
    if (c.after) {
      const answer = c.after.status === null ? 'its request failed without a response' : `its response${c.after.status !== undefined ? ` (HTTP ${c.after.status})` : ''} had ended`;
      // Only a JSON-RPC body with another id (null) leaves the client waiting (rmcp, until its own timeout). Its own
      // response, an HTTP error without such a body or no response at all ended the request there: a cancellation
      // after that came late (the TypeScript SDK sends one whenever the caller's AbortSignal fires, even afterwards).
      const late = ' (the TypeScript SDK sends one whenever the caller\'s AbortSignal fires, even for a request that has ended)';
      // A client that resumed the stream from an event before the answer (GET with Last-Event-ID), and got no replay of
      // it, never had the answer: its own timeout sent the cancellation (the Python SDK client's too), after the server
      // had finished the request.
      // (Read when the session closes: a resumption held open, which a HAR logs when it ends, may come after the cancel.)
      if (c.after.answer === 'result' && c.reason !== undefined && /request timed out|timed out after/i.test(c.reason)) {
        // The SDK clients clear a request's timer when its answer comes: a cancellation for their timeout was sent before
        // the answer reached the client (or its SDK), which drops an answer to a request it cancelled.
        const sent = s.side === 'server' ? 'the server had sent its answer' : 'its answer had ended in this log';
        out.push(finding('CANCELLED', 'warning', `${where}: notifications/cancelled for id ${jsonText(c.id)} came ${c.after.ms < 1000 ? `${Math.round(c.after.ms)} ms` : secs(c.after.ms)} after ${sent}, with the reason ${jsonText(c.reason)}: the client's own timeout ran out before the answer reached it (the two crossed on the way, or something between them held or dropped the answer); its caller got the timeout error, not this result (the SDK clients drop an answer to a request they cancelled), though this log shows the answer`, [c.src], 'session', s.session));
        continue;
      }
      const why = (c.after.seen?.answer ?? c.after.answer) === 'unread'
        ? 'that response carried the request\'s answer, but the client then resumed the stream from an event before it (GET with Last-Event-ID) and no replay brought it: the client never got the answer and cancelled, most likely at its own timeout; the server had finished the request, so the cancellation cancelled nothing'
        : c.after.answer === 'result'
        ? `that response carried the request's answer, so the cancellation came after the fact and cancelled nothing${late}`
        : c.after.answer === 'failed'
          ? `the request had failed there, with no answer left to wait for, so the cancellation came after the fact and cancelled nothing${late}`
          : 'the client had not taken that as the request\'s answer and waited on (often until its own timeout)';
      out.push(finding('CANCELLED', 'info', `${where}: notifications/cancelled for id ${jsonText(c.id)} ${secs(c.after.ms)} after ${answer}: ${why}`, [c.src], 'session', s.session));
      continue;
    }
    // On the server's side this is news: the client cancelled a request that never reached the server (or its log).
    const notShown = s.side === 'server'
      ? 'a request the server\'s log never shows (it did not reach the server, or the server did not log it)'
      : `a request ${s.side === 'client' ? "the client's log" : 'this log'} never shows`;
    out.push(finding('CANCELLED', 'info', `${where}: notifications/cancelled for id ${jsonText(c.id)}, ${notShown}`, [c.src], 'session', s.session));
  }
  for (const d of s.duplicates ?? []) {
    out.push(finding('DUPLICATE_RECORD', 'info', `${where}: identical record of ${d.what} counted once (log exports duplicate rows; not a retry)`, [d.first, d.dup], 'session', s.session));
  }
  // Raised from whichever log shows it (the engine counts a session's refusals in one log only), calls or none: a
  // client whose only GET was refused has no attempt at all.
  // (A quote is put in parentheses where a colon follows: `"invalid_token": the stream...` would read to the redaction
  // of free text as a secret key with its value.)
  for (const g of s.refusedGets ?? []) {
    if (g.probe || g.counted) continue;
    const times = g.count > 1 ? `, ${g.count} times${g.ts !== undefined && g.lastTs !== undefined ? ` over ${secs(g.lastTs - g.ts)}` : ''}` : '';
    // The TypeScript and Python SDK servers allow one GET stream per session: a second is a 409, as when the client
    // lost its stream (a cut connection) and the server did not notice.
    // A plain GET that the TypeScript SDK sent right after a resumption of a call's stream broke before its first event
    // is its reconnect of that stream (it had no event id to resume from), not a lost standalone stream it reopens.
    const reconnects = g.afterResumption ?? 0;
    const all = reconnects >= g.count;
    const cause = reconnects
      ? `; ${all ? (g.count > 1 ? 'each' : 'it') : `${reconnects} of them`} came right after a GET resuming a call's stream (Last-Event-ID) broke before its first event: the client reconnected that stream without Last-Event-ID (it had no event id of it; the TypeScript SDK, 1.x and v2, does so), which asks for the session's standalone stream, not the call's, so the call's response could not come by it`
      : '';
    const held = g.status === 409
      ? `${cause}; a 409 is how the TypeScript and Python SDK servers refuse a second GET stream while they hold one for the session${all ? '' : ' (one the client may have lost without the server noticing)'}`
      : cause;
    // A GET without a session id and no initialize before it in this log opened no session's stream: it is how a client
    // connects by the old HTTP+SSE transport (2024-11-05), as mcporter falls back to it after its initialize failed.
    const what = g.noOpening
      ? `a GET without a session id, with no initialize before it in this log: that is how a client connects by the old HTTP+SSE transport (2024-11-05), which clients fall back to when their Streamable HTTP initialize failed (mcporter does after any failure but an OAuth one); this endpoint did not serve that transport, so the client got no connection by it`
      : `the stream was not opened, so what the server sends outside a call (list changes, resource updates, its own requests) had no way to the client by it${held}`;
    const f = finding('GET_STREAM_REFUSED', 'warning',
      `${where}: HTTP ${g.status} to ${g.noOpening ? 'a GET' : "the client's GET stream"}${times}${g.said !== undefined ? ` (saying ${jsonText(g.said)})` : ''}: ${what}`,
      [g.src], 'session', s.session);
    // Drawn in the session's sequence diagram, once for its count, at the first refusal.
    f.refused = { what: g.noOpening ? 'without a session id (HTTP+SSE connect)' : 'stream', method: 'GET', status: g.status, ...(g.ts !== undefined ? { ts: g.ts } : {}), ...(g.count > 1 ? { count: g.count } : {}) };
    out.push(f);
  }
  if (!calls) {
    // A view whose attempts are joined to another's (the server's, beside the client's) raises nothing of its own but
    // a GET refused with 400 for an unknown session: only the body says so, and only the server's log has the body of
    // a GET the client never read. Nor does a server log's scope without a session, but for its POSTs refused for the
    // session id the server had just set (lostId): the engine keeps them only where the client's log lacks them.
    if (s.refused404?.said !== undefined) out.push(refusedFinding(s, s.refused404, where, later));
    for (const r of s.refusedPosts ?? []) if (r.lostId) out.push(refusedPostFinding(s, r, where, later, undefined));
    return out;
  }
  for (const group of expiryGroups(s, calls)) out.push(expiredFinding(s, group, where, later, calls));
  // A 404 to a GET resuming a call's stream, after which the server answered a request of the session (a later one, or
  // the call itself on a later resumption): the session was not lost (a hop refused the resumption; the call's why
  // tells it, as for any refused resumption).
  const sessionWentOn = (ts: number | undefined) => ts !== undefined && calls.lastOkEnd !== undefined && calls.lastOkEnd > ts;
  if (calls.expired.length === 0 && s.refused404 && !(s.refused404.resumption && sessionWentOn(s.refused404.ts))) out.push(refusedFinding(s, s.refused404, where, later, calls));
  for (const r of s.refusedPosts ?? []) out.push(refusedPostFinding(s, r, where, later, calls));
  // An OpenTelemetry trace without a session id whose initialize is not in it is no session: the Python SDK starts a
  // trace per request, so "no tools/call in it" says nothing of the session it came from.
  const partOfSession = s.rebuilt === true && s.session === null && later.began !== true;
  const refusedVersion = calls.toolCalls === 0 && calls.failed.length === 0 ? versionRefused(s, calls) : undefined;
  if (refusedVersion) out.push(finding('CALL_NEVER_SENT', 'warning', `${where}: ${refusedVersion.text}`, refusedVersion.init.primary.sources.slice(0, 2), 'session', s.session));
  // A probe the client fell back from to initialize (its session is where that went on, or stopped) stopped nothing;
  // nor did a failed request of another feature (a resources/read of an unknown URI, a prompts/get, a ping): no
  // client needs one to call a tool, and a client that only reads resources never meant to call one.
  // A request without an answer in a log that leaves some answers out, or a 2xx whose body the capture did not keep
  // (an access log's), did not fail as far as anyone can tell.
  const stopping = calls.failed.filter((a) => !(a.method === 'server/discover' && (a.primary.versionFallback || a.client?.versionFallback)) && !OTHER_FEATURES.has(a.method)
    && !(a.outcome === 'UNANSWERED' && ((a.client ?? a.primary).answersUnlogged === true || (a.client ?? a.primary).bodyNotCaptured === true)));
  if (calls.toolCalls === 0 && stopping.length > 0 && !partOfSession) {
    // A server/discover probe refused by a server of the handshake era is followed by the client's initialize: when
    // that failed too (the Python client in auto mode against the 2024-11-05 SSE server), it is what stopped the client.
    const f = stopping.find((a) => a.method !== 'server/discover') ?? stopping[0]!;
    // A session that went on working after the failure (resources, prompts, ping...) was not stopped by it.
    const wentOn = calls.lastOk !== undefined && f.startTs !== undefined && calls.lastOk > f.startTs;
    if (!later.toolCallAfter(f.startTs) && !wentOn) {
      // A 403 is an authorization failure when it challenges (WWW-Authenticate, as OAuth's insufficient_scope does);
      // without one it is some other refusal: an Origin or Host check (DNS-rebinding protection), a firewall rule.
      const challenged = f.primary.authChallenge === true || f.client?.authChallenge === true || f.server?.authChallenge === true;
      const auth = f.status === 401 || (f.status === 403 && challenged);
      const refused = f.status === 403 && !challenged;
      const why = f.detail.why?.startsWith('the body says: ') ? `, ${f.detail.why}` : '';
      // Any other 4xx but a timeout or a rate limit is the server refusing the request as it was (@hono/mcp's one
      // session per process: 400 "Invalid Request: Server already initialized"), not a passing fault.
      const rejected = !auth && !refused && typeof f.status === 'number' && f.status >= 400 && f.status < 500 && f.status !== 408 && f.status !== 429;
      // A JSON-RPC error in a 2xx is the server's answer to that request (tools/list's -32601 from a server without tools), no passing fault.
      const rpcError = f.outcome === 'JSONRPC_ERROR' && typeof f.detail.errorCode === 'number';
      const init = calls.init && (calls.init.client ?? calls.init.primary);
      const noTools = f.method === 'tools/list' && init?.noTools === true;
      // A Host or Origin check in front of the handler (the SDKs' DNS-rebinding protection), by its own words.
      const guard = requestGuardOf(f.status, f.detail);
      const bodyText = guard?.text;
      const guardText = guard ? `: ${guard.check === 'Host' ? 'a Host check (DNS-rebinding protection) refused the Host the request arrived with (behind a reverse proxy or in a container: the name the proxy or the client used; the server\'s allowed hosts must list it)' : 'an Origin check (DNS-rebinding protection) refused the Origin the request carried (the server\'s allowed origins must list it; clients outside a browser send none)'}` : '';
      const said = f.detail.errorMessage !== undefined || (guard && bodyText !== undefined) ? ` (${jsonText((f.detail.errorMessage ?? bodyText)!)})` : why ? aside(why.slice(2)) : '';
      // A passing fault (a 5xx, a 429, a cut stream, no response) keeps what the attempt's why knows of it: what a
      // gateway's body said (Genkit's initialize refused with 503 "no healthy upstream"), that the server never saw it.
      const fault = f.detail.why !== undefined && !(typeof f.status === 'number' && saysOnlyStatus(f.detail.why, f.status)) ? aside(f.detail.why) : '';
      out.push(finding('CALL_NEVER_SENT', 'warning',
        `${where}: ${label(f)} failed (${f.outcome}${typeof f.status === 'number' ? `, HTTP ${f.status}` : ''}) and no tools/call was sent afterwards: ${auth ? 'the client could not authorize, so it never got to call a tool' : refused ? `the server refused the client without an authentication challenge (no WWW-Authenticate${guard ? `; ${jsonText(guard.text)}` : why || (said ? `; ${said.slice(2, -1)}` : '')})${guardText}, so it never got to call a tool` : rejected ? `the server refused it${said}${guardText}, so the client never got to call a tool` : rpcError ? `the server answered it with JSON-RPC error ${f.detail.errorCode}${said}${noTools ? '; its initialize had announced no tools capability: the server offers no tools, so the client never got to call one' : ', so the client never got to call a tool'}` : `a fault meant for tools/call may have hit an earlier request${fault}`}`,
        f.primary.sources.slice(0, 2), 'session', s.session));
    }
  }
  return out;
}

/** PROGRESS_UNMATCHED's message (after the session's name): the token, when it came, whose it was. */
function strayProgressText(p: StrayProgress): string {
  const head = `notifications/progress for token ${p.token}${p.count > 1 ? ` (${p.count} notifications)` : ''} came`;
  const drop = 'a client drops it (the TypeScript SDK reports "a progress notification for an unknown token")';
  const why = p.after
    ? `${head} ${p.after.ms < 1 ? 'in the same millisecond as, and after,' : `${lateText(p.after.ms)} after`} the response to ${requestText(p.after.request)}, which had asked for it, with no other request of the session open with it: progress MUST stop when its request completes, and ${drop}`
    : p.earlier
      ? `${head} with no request of the session open with it: the session's request with id ${p.token} (${p.earlier.file}:${p.earlier.line}) had ended more than ${RECENT_TOKEN_MS / 1000} s before, and ${drop}`
      : `${head} with no request of the session open with it, nor answered in the ${RECENT_TOKEN_MS / 1000} s before: ${drop}`;
  const replay = p.replayedAfter
    ? "; it came on a resumption (GET with Last-Event-ID) after the response that resumption replayed: the server's event store replayed the stream out of order (the TypeScript SDK's InMemoryEventStore sorts a stream's events by id, those of one millisecond by a random part), unless the server sent it after the response"
    : '';
  const elsewhere = p.elsewhere
    ? `; session ${p.elsewhere.session} had ${requestText(p.elsewhere.request)} open with that token then: progress meant for another session reached this one (a server that writes every message to every session's stream, as mcp-framework 0.2.22 does)`
    : '';
  return `${why}${replay}${elsewhere}`;
}

const lateText = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : secs(ms));
const requestText = (r: RequestRef) => `${r.method} id ${r.id} (${r.tool !== null ? `${r.tool}, ` : ''}sent at ${r.src.file}:${r.src.line})`;

/** The same number once as a string and once as a number ("3" and 3): another id, which some clients match anyway. */
function sameValueOtherType(x: unknown, y: unknown): boolean {
  return (typeof x === 'string' || typeof x === 'number') && (typeof y === 'string' || typeof y === 'number') && typeof x !== typeof y && String(x) === String(y);
}

/** Why a response is an orphan: no request had its id, or none was waiting for it when it came. */
function orphanWhy(o: Orphan, scope: string): string {
  if (o.when === 'after') return `came after the request with that id in ${scope} had been answered or had ended: a second response, which a client drops as unknown`;
  if (o.when === 'before') return `came before any request with that id was sent in ${scope}: no request was waiting for it (a client drops it as unknown)`;
  return `matches no request sent in ${scope}`;
}
