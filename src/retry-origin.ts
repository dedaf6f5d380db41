// Who sent a retry, told from it and the attempt it repeats (a note or claim, the SDK's re-sends, a new client's ids), and how; calls.ts adds gateways and one-shot CLIs.
import type { Attempt, RetryOriginInfo } from './join/match.js';
import type { JsonRpcId } from './join/attempt.js';
import { gaveUpAtProgress } from './findings/rules.js';
import { MISDIRECTED_RESEND, REDIRECT_FOLLOWED } from './findings/resends.js';
import { jsonText } from './report/text.js';
import { signatureOf } from './join/fingerprint.js';
import { requestGuardOf } from './classify.js';

/** The application's note on an attempt (withCallNote), from the client's view first. */
export function noteOf(a: Attempt): Attempt['primary']['note'] {
  return a.client?.note ?? a.primary.note;
}

/** Who sent an attempt linked to its call by the note.call the application put on both. */
export function notedOrigin(a: Attempt, call: string): RetryOriginInfo {
  const said = noteOf(a)?.retryOrigin;
  const attempt = noteOf(a)?.attempt;
  // Said once: `noted by the application on the request; the application named both ... (note)` told the note three times.
  const named = `named both requests call ${jsonText(call.slice(0, 100))}${attempt !== undefined ? `, this one attempt ${attempt}` : ''}`;
  return said ? { origin: said, how: `noted by the application on the request, which ${named}` } : { origin: 'app', how: `the application's note on the request ${named}` };
}

/** How a session began: the idKey of its initialize, and the lowest numeric id of the requests sent in it since. */
export interface Opening {
  init: string;
  lowest: number;
}

/**
 * Whether a request re-sent under its old id in a new session came from the client library that re-initialized it,
 * not from a new client whose numbering happens to reach the same id. A new client starts at 0 or 1 (or a string
 * ending so: "req-0", a Java SDK's "1a2b3c4d-0") and counts up one by one. A library that re-initialized either gave
 * initialize an id of its own (the Go SDK's "reinitialize-1", mcp-remote's "mcp-remote-reinit-1" before a numeric id) or
 * numbered on (initialize 7), or re-sent initialize with its old id 0 and then the old request with no lower id before
 * it (rmcp: initialize 0, then id 5 again).
 */
function resentByLibrary(o: Opening, a: Attempt): boolean {
  if (o.init.startsWith('s:reinitialize-')) return true;
  // The trailing digits, found by hand: /(\d+)$/ retries from every digit of a long run of digits that does not end
  // the id (an id of megabytes of digits and a letter took minutes).
  let start = o.init.length;
  while (start > 0 && isDigit(o.init.charCodeAt(start - 1))) start--;
  const trailing = start < o.init.length ? o.init.slice(start) : undefined;
  const first = trailing !== undefined && Number(trailing) <= 1 && (o.init.startsWith('n:') || (start > 0 && '-_.:'.includes(o.init[start - 1]!)));
  if (!first) return true;
  // A string initialize id starts a string numbering ("req-0", mcp-remote's "mcp-remote-reinit-1"): a numeric id with
  // no lower one before it is not the next of that numbering but the old request the library re-sends.
  if (o.init.startsWith('s:')) return typeof a.id === 'number' && o.lowest > a.id;
  return o.init.startsWith('n:') && typeof a.id === 'number' && a.id > Number(trailing) + 1 && o.lowest > a.id;
}

/** Where a client without a session began anew: its last initialize or server/discover. */
export interface Begin {
  ts: number;
  method: string;
  id: JsonRpcId;
}

/** Decide (and say how) who sent a retry; `opening` is how the retry's session began, `begun` where a sessionless client last began. */
export function retryOrigin(a: Attempt, previous: Attempt, opening: Opening | undefined, begun?: Begin, oauthBetween: () => boolean = () => false): RetryOriginInfo {
  const claimed = a.primary.note?.retryOrigin ?? a.claim?.claim.retryOrigin ?? a.callClaim?.claim.retryOrigin;
  if (claimed) {
    const how = a.primary.note?.retryOrigin ? 'noted by the application on the request' : a.claim ? 'claimed by the client log' : 'claimed by the client log line of this call';
    return { origin: claimed, how };
  }
  const sameId = a.primary.idKey === previous.primary.idKey && a.session === previous.session;
  // A new request that carries the caller's id of the failed attempt's call (Codex's `_meta.callId`, the model's
  // function call id) is that one call sent again by the application, not a new call its caller (the model) made.
  const callId = (a.client ?? a.primary).callerCallId;
  const sameCallerCall = callId !== undefined && a.primary.idKey !== previous.primary.idKey && callId === (previous.client ?? previous.primary).callerCallId;
  const byApp = (): RetryOriginInfo => ({ origin: 'app', how: `a new request with the same _meta.callId ${jsonText(callId)} as the failed attempt: the application sent the one call its caller made again (Codex gives each of the model's function calls such an id), not a new call` });
  if (a.method === 'initialize' && a.primary.legacySse && !previous.primary.legacySse && typeof previous.status === 'number' && previous.status >= 400 && previous.status < 500) {
    // The spec's backwards compatibility: a 4xx to the Streamable HTTP initialize sends the client to the old transport.
    return { origin: 'sdk', how: `initialize again on the deprecated HTTP+SSE transport after HTTP ${previous.status} to the Streamable HTTP one: the client falling back to an older server's transport, as the spec's backwards compatibility describes` };
  }
  if (a.primary.idKey === previous.primary.idKey && previous.status === 404 && a.session !== null && a.session !== previous.session) {
    // Only a client library re-sends a request under its old id; how the new session began tells it from a new client.
    if (opening !== undefined && resentByLibrary(opening, a)) {
      return { origin: 'sdk', how: `the same id re-sent in a new session after HTTP 404 by the client library, which re-initialized it (initialize id ${opening.init.slice(2)}), as the Go and Rust SDKs do once, and the TypeScript SDK opencode bundles` };
    }
    return { origin: 'unknown', how: 'the same id in a new session after HTTP 404, where ids started again (a new client?); nothing in the logs says who sent it' };
  }
  if (redirectFollowUp(a, previous)) {
    return { origin: 'sdk', how: `${REDIRECT_FOLLOWED} ${previous.status} redirected it: the HTTP client followed the redirect` };
  }
  if (misdirectedResend(a, previous)) {
    return { origin: 'sdk', how: `${MISDIRECTED_RESEND}: the HTTP client's own re-send (the Fetch standard re-sends a request answered 421 once, on a new connection, and Node's fetch, which the TypeScript SDK clients use, does so), not the application's; a log of the client's fetch shows only the second answer` };
  }
  // A Host or Origin check's 403 (the SDKs' DNS-rebinding protection) is no authorization challenge: no client library
  // re-sends a request so refused; the same id again is a new client's first request (the app connecting again, or a
  // new run of it), or a request its application sent again.
  const guard = sameId && previous.status === 403 ? requestGuardOf(previous.status, previous.detail) : undefined;
  if (guard) {
    return { origin: 'unknown', how: `same id re-posted after HTTP 403 from ${guard.check === 'Host' ? 'a Host' : 'an Origin'} check (${jsonText(guard.text.slice(0, 100))}), which is no authorization challenge and which no client library re-sends after: the application connecting again (a new client's first request has the same id), or a new run of it; nothing in the logs says which` };
  }
  if (sameId && (previous.status === 401 || previous.status === 403)) {
    // The SDK's auth retry sends the new token it got; the same credentials again (or none again) may be a retry after
    // a hook that got none (the v2 SDK's onUnauthorized, once) as well as the application connecting anew, whose new
    // client's first request has the same id (initialize 0, the v2 probe): the wire does not tell them apart.
    if (sameCredentials(a, previous)) {
      return { origin: 'unknown', how: `same id re-posted after HTTP ${previous.status} with the same credentials (its Authorization unchanged, or none again): a client library's retry after a hook that got no new token (the v2 SDK's onUnauthorized retries once so) or the application sending it again (a new client's first request has the same id); nothing in the logs says which` };
    }
    // A client's first request (initialize, server/discover) has the same id in every new run of it: re-sent with other
    // credentials and no OAuth request between them, it is as likely a person's new run with another token (or the app
    // connecting again) as the SDK's retry, which asks the OAuth metadata first (test/fixtures/real-audit64/v1-401,
    // real-audit63/py-token-lifecycle; real-audit2/oauth-401-after-token shows the SDK's requests).
    if ((a.method === 'initialize' || a.method === 'server/discover') && !oauthBetween()) {
      return { origin: 'unknown', how: `${a.method} again with the same id ${jsonText(a.id)} after HTTP ${previous.status}, with other credentials or none logged, and no request for OAuth metadata (/.well-known/oauth-protected-resource ...) between them in the log: a new run of the client with another token (a person fixing it) or the application connecting again sends its first request with that id as well, while the SDK's auth retry fetches that metadata first; nothing in the logs says which` };
    }
    return { origin: 'sdk', how: `same id re-posted after HTTP ${previous.status}: the SDK's auth retry` };
  }
  // 2026-07-28: after HeaderMismatch the client re-lists tools and re-sends once, after UnsupportedProtocolVersion it
  // re-sends with a version both support; both are new requests that the client library makes by itself.
  const code = previous.detail?.errorCode;
  if (!sameId && (code === -32020 || code === -32022)) {
    return { origin: 'sdk', how: `a new request after ${code === -32020 ? 'HeaderMismatch (-32020): the client re-lists tools and re-sends once' : 'UnsupportedProtocolVersion (-32022): the client re-sends with a version both support'}, as the 2026-07-28 spec asks` };
  }
  if (sameCallerCall) return byApp();
  if (sameId && a.session === null && begun !== undefined && previous.startTs !== undefined && begun.ts > previous.startTs && (a.startTs === undefined || begun.ts <= a.startTs)) {
    // Without sessions, a client that began anew (a new FastMCP or Python SDK Client: server/discover id 1) numbers
    // from the start again and can reach the failed request's id: that is no re-post of it.
    // The retry can itself be where the client began anew (a second initialize after one that got no answer): then
    // nothing came between them.
    if (begun.ts === a.startTs && begun.method === a.method) {
      return { origin: 'unknown', how: `${a.method} again with the same id ${jsonText(a.id)}, as a new client's first request has it; nothing in the logs says who sent it` };
    }
    return { origin: 'unknown', how: `the same id again after a new ${begun.method} (id ${jsonText(begun.id)}) between them, ids counting from the start as a new client's do; nothing in the logs says who sent it` };
  }
  // A request logged without arguments (an OpenTelemetry span records none) says nothing of them.
  const same = a.method !== 'tools/call' ? `the same method (${a.method.slice(0, 60)}) and params` : (a.client ?? a.primary).noArgs ? 'the same tool and no arguments in the log' : 'the same tool and arguments';
  const gaveUp = gaveUpAtProgress(previous, a);
  const cancelledAt = (previous.client ?? previous.primary).cancelledAt;
  const early = gaveUp !== undefined && cancelledAt !== undefined && a.startTs !== undefined
    ? `, sent ${((cancelledAt - a.startTs) / 1000).toFixed(2)} s before the earlier attempt's notifications/cancelled ("Request timed out") and ${((a.startTs - gaveUp) / 1000).toFixed(2)} s after a progress notification for it: the caller had given up on it already (the TypeScript SDK rejects a call over its maxTotalTimeout when a progress notification comes, "Maximum total timeout exceeded", and cancels it only when its last timeout runs out), how long before is not in the log`
    : '';
  return { origin: 'unknown', how: sameId ? 'same id re-posted with no auth challenge before it' : `a new request with ${same}${early}; nothing in the logs says who sent it` };
}

/** The User-Agent of a fetch implementation: Node's (undici: "node"), Deno's, Bun's, a browser's. */
const FETCH_AGENT = /^(?:node$|Deno\/|Bun\/|Mozilla\/)/;

/** How soon after a 421 its HTTP client's re-send starts: at once (a few ms measured on loopback; a second for a slow path). */
const MISDIRECTED_WITHIN_MS = 1_000;

/**
 * A request posted again under the same id in the same session (or none on both) right after the 421 of the one
 * before: the Fetch standard's one re-send of a request answered "421 Misdirected Request", on a new connection, which
 * Node's fetch (undici) does below the TypeScript SDK clients and below any fetch wrapper's log (recordingFetch sees
 * one exchange, the second's answer). The Python SDK's Host check answers 421 (`test/fixtures/real-audit84`). Once:
 * the re-send's own 421 is final.
 */
export function misdirectedResend(a: Attempt, previous: Attempt): boolean {
  if (a.primary.idKey !== previous.primary.idKey || a.session !== previous.session) return false;
  const prevStatus = previous.server?.status ?? previous.status;
  if (prevStatus !== 421 && previous.status !== 421) return false;
  // Only a fetch re-sends so (Node's, which sends User-Agent "node"; Deno's, Bun's, a browser's): httpx, the Python
  // SDK's, does not, and its app's new Client sends its initialize with the same id within a second
  // (real-audit84/py-host-proxy). A request whose User-Agent the log did not keep is not taken for one.
  if (![a.primary, a.client, a.server].some((v) => v !== undefined && FETCH_AGENT.test(v.requestHeaders?.get('user-agent')?.trim() ?? ''))) return false;
  if (previous.retryOrigin?.how.startsWith(MISDIRECTED_RESEND)) return false;
  // The earlier POST's own end: the server's view of it where joined (the client's view ends with the re-send's answer).
  const end = previous.server?.endTs ?? previous.endTs;
  return a.startTs !== undefined && end !== undefined && a.startTs >= (previous.startTs ?? -Infinity) && a.startTs - end <= MISDIRECTED_WITHIN_MS;
}

/** How soon after a redirect its HTTP client sends the request to the Location: at once (a few ms on loopback). */
const REDIRECT_FOLLOWED_WITHIN_MS = 1_000;

/**
 * The request an HTTP client sent to the Location of the redirect (3xx) that answered `previous`: the same id, in the
 * same log (the same client's), at once, and, where both logs kept the URL (requests without a session id), to the
 * Location's URL. The TypeScript SDK 1.32.2 and v2 clients and the Python SDK 2.3.0 follow a 307 or 308 of a POST
 * themselves, within its origin, and log both (test/fixtures/real-audit95/redirect-*); an app's own retry after an
 * unfollowed redirect, or another run's request in another file, is not one.
 */
export function redirectFollowUp(a: Attempt, previous: Attempt): boolean {
  const status = previous.status;
  if (typeof status !== 'number' || status < 300 || status >= 400 || a.primary.idKey !== previous.primary.idKey) return false;
  const mine = a.client ?? a.primary;
  const theirs = previous.client ?? previous.primary;
  // (One of the logs of the 3xx shows the request after it: one view may be joined to a log the other has not.)
  const inputs = [previous.primary.input, previous.client?.input, previous.server?.input];
  if (![a.primary, a.client, a.server].some((v) => v !== undefined && inputs.includes(v.input))) return false;
  if (mine.endpoint !== undefined && theirs.endpoint !== undefined && !toLocation(mine.endpoint, theirs.endpoint, theirs.redirectTo)) return false;
  const end = previous.endTs;
  return a.startTs !== undefined && end !== undefined && a.startTs >= (previous.startTs ?? -Infinity) && a.startTs - end <= REDIRECT_FOLLOWED_WITHIN_MS;
}

/**
 * Whether `url` (an endpoint as AttemptView keeps it) has the path that `location`, answered to a request to `from`,
 * points to. The path alone: a recording proxy logs the URL it forwards to, while the Location names the one the client
 * used (real-audit2/redirect-trailing-slash), and a server logs its own.
 */
function toLocation(url: string, from: string, location: string | undefined): boolean {
  if (location === undefined) return true;
  try {
    const path = (u: URL) => u.pathname.replace(/\/+$/, '');
    return path(new URL(location, new URL(from, 'http://relative.invalid'))) === path(new URL(url, 'http://relative.invalid'));
  } catch {
    return false;
  }
}

/** The signature of no Authorization header (AttemptView.authDigest). */
const NO_AUTHORIZATION = signatureOf('');

/**
 * Both requests' records kept their headers, and they carried the same Authorization; or both none, after a 401 that
 * challenged nothing (no WWW-Authenticate: a log that leaves Authorization out, as a sanitized HAR does, still has the
 * SDK's retry after a challenge).
 */
function sameCredentials(a: Attempt, previous: Attempt): boolean {
  const mine = (a.client ?? a.primary).authDigest;
  const theirs = (previous.client ?? previous.primary).authDigest;
  if (mine === undefined || mine !== theirs) return false;
  const challenged = previous.primary.authChallenge === true || previous.client?.authChallenge === true || previous.server?.authChallenge === true;
  return mine !== NO_AUTHORIZATION || !challenged;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
