// The order in which a session's client took its JSON-RPC ids: a request made before an attempt failed is no retry of it.
import type { Attempt } from './join/match.js';
import { trimOldest } from './bounded.js';

/**
 * The MCP SDKs number a session's requests from one counter per client (the TypeScript SDK's Protocol, the v2 client,
 * the Python SDK's dispatcher), taking the id when the application makes the call, before its POST. A retry is made
 * after its client saw the failure it answers, so its id was taken after that. Within one session:
 *  (a) a request with a lower id than the failed attempt's was made before it, however late it reached the log;
 *  (b) a request with a lower id than one already on the wire before the failed attempt's refusal came was made then.
 * Neither holds for the same id again (a re-send: an HTTP client's retry, the SDK's after a 401), across sessions (a
 * new session may be a new client's counter), for string ids, or where the session's ids do not look like one
 * client's counter (an id seen twice, ids far apart as random ones are, an id below all the others).
 */
export class IdOrder {
  private scopes = new Map<string, Counter>();

  /** A request of a session, as the linker gets it. */
  note(a: Attempt): void {
    const id = counted(a);
    if (id === undefined || a.startTs === undefined) return;
    const key = a.primary.scopeKey;
    let c = this.scopes.get(key);
    if (!c) {
      this.scopes.set(key, (c = { ids: [], ts: [], lowest: id, mixed: false }));
      trimOldest(this.scopes, SCOPES_KEPT);
    } else if (c.mixed) return;
    else if (id < c.lowest || c.ids.includes(id)) {
      // An id again: a re-send (an HTTP client's, the SDK's after a 401), or a second counter in this session (a new
      // client that took the session over counts from the start again, maybe with the same calls): not told apart,
      // so the session's ids are not read from then on. So too from an id below every one before it: a counter
      // started again (a session's first request, its initialize, has its client's lowest id).
      c.mixed = true;
      c.ids = [];
      c.ts = [];
      return;
    }
    c.ids.push(id);
    c.ts.push(a.startTs);
    if (c.ids.length > SENT_KEPT + (SENT_KEPT >> 3)) {
      c.ids.splice(0, c.ids.length - SENT_KEPT);
      c.ts.splice(0, c.ts.length - SENT_KEPT);
    }
  }

  /** The session's ids show that `b` was made before its client could know that `prev` failed: it is no retry of it. */
  madeBefore(b: Attempt, prev: Attempt): boolean {
    const idB = counted(b);
    const idA = counted(prev);
    if (idB === undefined || idA === undefined || idA === idB || b.primary.scopeKey !== prev.primary.scopeKey) return false;
    const c = this.scopes.get(b.primary.scopeKey);
    if (!c || c.mixed || !oneCounter(c.ids, idB)) return false;
    // (a) made before the failed request itself.
    if (idB < idA) return true;
    const known = knownFailedFrom(prev);
    if (known === undefined) return false;
    // (b) numbered before a request sent a full millisecond (whole-ms times) before the failure could be known.
    for (let i = 0; i < c.ids.length; i++) if (c.ids[i]! > idB && c.ts[i]! < known - 1) return true;
    return false;
  }

  /** A session closed: its counter goes. */
  forget(scopeKey: string): void {
    this.scopes.delete(scopeKey);
  }
}

/** Requests kept per session (the latest): more than a burst of calls alike at once usually holds. */
const SENT_KEPT = 64;
/** Ids a session's span may hold beyond twice those seen in it: a burst of calls read out of order leaves gaps. */
const SPAN_SLACK = 16;
/** Sessions kept (the latest to start): closed sessions go at once, these are those still open. */
const SCOPES_KEPT = 8192;

/** A session's requests as the log showed them: each one's id and start, in parallel (no object per request). */
interface Counter {
  ids: number[];
  ts: number[];
  /** The lowest id the session has shown. */
  lowest: number;
  /** The session's ids are not one counter's: the rule is off for it. */
  mixed: boolean;
}

/** The attempt's id, where it is a client's counter value in a session: a whole number, not a string. */
function counted(a: Attempt): number | undefined {
  if (a.session === null || a.primary.session === null) return undefined;
  const id = a.id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : undefined;
}

/**
 * The session's ids look like one client's counter: `id` lies among the others (not below the lowest nor past the
 * highest, as a counter started again or wrapped would), and with it they fill at least half of the span they cover,
 * give or take SPAN_SLACK (random ids do not; a burst whose requests reach the log out of order leaves gaps a while).
 */
function oneCounter(ids: number[], id: number): boolean {
  let min = Infinity;
  let max = -Infinity;
  let others = 0;
  for (const x of ids) {
    if (x === id) continue;
    others++;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  // The ids of a session are distinct (an id seen twice turns the rule off), so they and `id` number others + 1.
  return others > 0 && id >= min && id <= max && (others + 1) * 2 + SPAN_SLACK >= max - min + 1;
}

/**
 * The earliest time the client could know that `a` failed, where the failure is an answer (a refusal, a JSON-RPC error,
 * an isError result) and the client gave up on nothing itself (no cancellation, no progress after which a total
 * timeout could reject it): a refusal's head, else the request's start. Undefined for any other failure (a timeout or
 * a cut stream is known to the client whenever it decides).
 */
function knownFailedFrom(a: Attempt): number | undefined {
  const v = a.client ?? a.primary;
  if (v.cancelledAt !== undefined || v.progress > 0) return undefined;
  if (a.outcome !== 'HTTP_ERROR' && a.outcome !== 'JSONRPC_ERROR' && a.outcome !== 'TOOL_ERROR') return undefined;
  return a.primary.headTs ?? a.startTs;
}
