// Turning canonical records into join-engine calls: headers lowercased, sessions found, bodies parsed, SSE split.
import type { CanonicalRecord, Claim, SseEvent } from './schema/record.js';
import type { JoinEngine } from './join/engine.js';
import type { Source, ViewSide } from './join/attempt.js';
import { forEachSseEvent, type ParsedSseEvent } from './sse.js';
import { signatureOf } from './join/fingerprint.js';
import { durationOf, parseTimestamp } from './formats/time.js';
import { MinHeap } from './join/heap.js';
import { legacySessionOf } from './join/attempt.js';

interface RecordContext {
  input: number;
  src: Source;
  /** Side forced by --client/--server for the whole input, else the record's own. */
  sideOverride: ViewSide | undefined;
  /** Timestamp of the record in epoch ms (already parsed). */
  ts: number | undefined;
  /** The line's text (for ids beyond 2^53, read exactly from it); never stored by the join. */
  raw?: string | undefined;
  /** Whether the source has an HTTP layer (false: HTTP outcomes are not observable). */
  http: boolean;
  /** Whether the source stringified ids (a join on them is weak). */
  weakId: boolean;
  /** The source rebuilds responses from metadata (no bodies). */
  rebuilt?: boolean;
  /** The source leaves some responses out. */
  answersUnlogged?: true | undefined;
  /** The record's session id went with it though the source keeps no headers. */
  sessionSent?: true | undefined;
}

export interface ClaimIn {
  input: number;
  ts: number | undefined;
  session: string | null;
  claim: Claim;
  src: Source;
  /** The claim's connection key (Claude Code: the server name of its mcp-logs-<server> folder). */
  conn?: string;
}

/** The headers the analysis reads; the others are not copied (a log record can carry dozens). */
// (authorization: only a signature of it is kept, AttemptView.authDigest, to see whether a re-post after a 401 carried
// new credentials; the value is never shown.)
const USED_HEADERS = new Set(['mcp-session-id', 'content-type', 'retry-after', 'last-event-id', 'mcp-protocol-version', 'user-agent', 'www-authenticate', 'accept', 'origin', 'content-encoding', 'location', 'authorization']);

/** Lowercased map of the headers the analysis uses; a Map, so hostile names like __proto__ are plain keys. */
function headerMap(h: Record<string, string> | undefined): Map<string, string> {
  const m = new Map<string, string>();
  if (!h) return m;
  // for-in: no array of the keys is made (a record's header objects are plain JSON objects, with no inherited keys).
  for (const k in h) {
    if (!Object.hasOwn(h, k)) continue;
    const v = h[k];
    if (typeof v !== 'string') continue;
    const name = USED_HEADERS.has(k) ? k : k.toLowerCase();
    if (USED_HEADERS.has(name)) m.set(name, v);
  }
  return m;
}

/** Headers every HTTP response has: a log that kept one of them kept the response's headers. */
const ALWAYS_SENT = new Set(['date', 'content-length', 'transfer-encoding']);

/**
 * The response had no Content-Type, and the log kept its headers (it shows one that every response has): it had
 * none. Looked at only when the type is missing, which is rare.
 */
function noContentType(used: Map<string, string>, logged: Record<string, string> | undefined): boolean {
  if (used.has('content-type') || logged === undefined) return false;
  for (const k in logged) if (Object.hasOwn(logged, k) && ALWAYS_SENT.has(k.toLowerCase())) return true;
  return false;
}

/**
 * The session a whole exchange's request carried. A writer may name the one its response set instead (an initialize's,
 * or the id a Python server sets on the 400 it refuses a sessionless POST with): when the logged request headers lack
 * Mcp-Session-Id and the response's is that id, the request carried none, as split records would show.
 */
function exchangeSession(named: string | null | undefined, logged: Record<string, string> | undefined, headers: Map<string, string>, resHeaders: Map<string, string>): string | null | undefined {
  const sent = headers.get('mcp-session-id');
  if (named == null) return sent;
  if (logged !== undefined && sent === undefined && resHeaders.get('mcp-session-id') === named) return null;
  return named;
}

function sideOf(r: { side?: string | undefined }, ctx: RecordContext): ViewSide {
  if (r.side === 'client' || r.side === 'server' || r.side === 'gateway') return r.side;
  return ctx.sideOverride ?? 'unknown';
}

/** The request body: `send` as parsed, else `sendText` parsed; a `send` that is text is the raw body (no JSON-RPC message is a string). */
function parseBody(send: unknown, sendText: string | undefined): { body: unknown; text?: string; error?: string } {
  if (typeof send === 'string') return parseBody(undefined, send);
  if (send !== undefined) return { body: send };
  if (sendText === undefined || sendText.trim() === '') return { body: undefined };
  try {
    return { body: JSON.parse(sendText), text: sendText };
  } catch {
    return { body: undefined, error: 'request body is not JSON' };
  }
}

/** A parsed request's params._meta as text ('' without one): cheap, and all the fingerprint does not cover. */
function metaText(body: unknown): string {
  const meta = typeof body === 'object' && body !== null ? (body as { params?: { _meta?: unknown } }).params?._meta : undefined;
  if (meta === undefined) return '';
  try {
    return JSON.stringify(meta);
  } catch {
    return ''; // nested too deep to write out (a hostile log): told apart by the rest of the signature only
  }
}

function looksLikeSse(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('data:') || t.startsWith('event:') || t.startsWith('id:') || t.startsWith(':') || t.startsWith('retry:');
}

/**
 * An event record's data that is a raw SSE frame rather than the event's data field: a logger that wraps res.write
 * logs each chunk whole. Its first line is an SSE field (`event:`, `id:`, `retry:`, `data:`), it has a `data:` line and
 * ends with the blank line that closes an event; a JSON-RPC message (the data an MCP event carries) never starts so.
 */
function isSseFrame(data: string): boolean {
  return /^(?:event|id|retry|data):/.test(data) && /(?:^|\n)data:/.test(data) && /\n\r?\n$/.test(data);
}

/** A later part of a whole exchange (an SSE event, its end), held until the inputs' time reaches it. */
interface Held { ts: number; seq: number; run: () => void }

/** Streaming (split) records of one exchange carry SSE events one at a time; whole records carry the body. */
/** A URL's path asks for OAuth metadata (RFC 9728's protected resource, RFC 8414's authorization server, OIDC discovery). */
const OAUTH_METADATA = /^(?:[a-z][a-z0-9+.-]*:\/\/[^/?#]*)?\/\.well-known\/(?:oauth-protected-resource|oauth-authorization-server|openid-configuration)(?:[/?#]|$)/i;

export class Normalizer {
  private xidCounter = 0;
  private held = new MinHeap<Held>((a, b) => a.ts < b.ts || (a.ts === b.ts && a.seq < b.seq));
  private heldSeq = 0;

  constructor(private readonly engine: JoinEngine, private readonly onClaim: (c: ClaimIn) => void) {}

  /**
   * The endpoints (URL without its query) each client input sent requests to without a session id or a conn, the
   * first few: two or more are two servers whose traffic nothing in the records tells apart (stateless servers, or
   * 2026-07-28 traffic, through one recorder).
   */
  readonly sessionlessEndpoints = new Map<number, Set<string>>();

  /**
   * Called with each request for OAuth metadata a log shows (GET /.well-known/oauth-protected-resource...,
   * oauth-authorization-server, openid-configuration): an SDK's auth flow asks them before it re-sends a request
   * refused with 401 (test/fixtures/real-audit2/oauth-401-after-token, real-audit56/ts-auth-provider).
   */
  onOAuthRequest?: (input: number, side: ViewSide, ts: number | undefined) => void;

  private noteOAuth(input: number, side: ViewSide, url: string | undefined, ts: number | undefined): void {
    if (url !== undefined && this.onOAuthRequest && OAUTH_METADATA.test(url)) this.onOAuthRequest(input, side, ts);
  }

  /**
   * The endpoint (URL without its query, as recorded) of a request sent without a session id, which the call linker
   * keeps calls apart by (two servers' ids and tools may collide); a client input's without a conn are noted too.
   */
  private endpointOf(input: number, side: ViewSide, session: string | null, conn: string | undefined, url: string | undefined, body: unknown): string | undefined {
    if (session !== null || url === undefined) return undefined;
    const q = url.search(/[?#]/);
    // (A trailing slash is the same endpoint: a server that redirects /mcp to /mcp/ is one server.)
    const endpoint = (q === -1 ? url : url.slice(0, q)).replace(/\/+$/, '').slice(0, 300);
    if (side !== 'client' || conn !== undefined) return endpoint;
    const msg = body as { method?: unknown; id?: unknown } | undefined;
    if (typeof msg?.method !== 'string' || msg.id === undefined || msg.method === 'initialize' || msg.method === 'server/discover') return endpoint;
    let set = this.sessionlessEndpoints.get(input);
    if (!set) this.sessionlessEndpoints.set(input, (set = new Set()));
    if (set.size < 4) set.add(endpoint);
    return endpoint;
  }

  /**
   * Gives the engine the held parts of whole exchanges up to `ts` (all of them without it). Called before each record:
   * a whole exchange (a HAR entry) is read at its start, but what it says happened later (its SSE events at their
   * times, else at its end; its end) is told when the other records reach that time, as split records would tell it,
   * so a cancellation or a response on another stream sent meanwhile is seen while the exchange is still open.
   */
  release(ts?: number): void {
    for (let h = this.held.peek(); h !== undefined && (ts === undefined || h.ts <= ts); h = this.held.peek()) {
      this.held.pop();
      h.run();
    }
  }

  /**
   * A whole exchange's end, told when the log reaches it. Made here, not in record(): a closure there would keep the
   * whole record (its headers, request and response) alive while it waits, long enough to be copied by the young
   * generation's collections and promoted; this one keeps only what the end needs.
   */
  private endLater(input: number, xid: string, how: string, error: string | undefined, end: number | undefined, now: number | undefined, src: Source, notCaptured: boolean, endUnknown: boolean): void {
    const e = this.engine;
    this.later(end, now, () => e.end(input, xid, how, error, end, src, notCaptured, endUnknown));
  }

  private later(ts: number | undefined, now: number | undefined, run: () => void): void {
    if (ts === undefined || now === undefined || ts <= now) run();
    else this.held.push({ ts, seq: this.heldSeq++, run });
  }

  record(r: CanonicalRecord, ctx: RecordContext): void {
    const e = this.engine;
    switch (r.kind) {
      case 'exchange': {
        const xid = r.xid ?? `\u0001${this.xidCounter++}`; // never equal to an xid a file gives (those are printable)
        const headers = headerMap(r.requestHeaders);
        const resHeaders = headerMap(r.responseHeaders);
        const session = exchangeSession(r.session, r.requestHeaders, headers, resHeaders) ?? legacySessionOf(r.url);
        const req = parseBody(r.send, r.sendText);
        const endpoint = this.endpointOf(ctx.input, sideOf(r, ctx), session, r.conn, r.url, req.body);
        this.noteOAuth(ctx.input, sideOf(r, ctx), r.url, ctx.ts);
        e.request({
          input: ctx.input, ts: ctx.ts, side: sideOf(r, ctx), xid, session, conn: r.conn, client: r.client, endpoint, addressed: addressedOf(endpoint, r.requestHeaders),
          httpMethod: r.method.toUpperCase(), headers, body: req.body, bodyText: req.text ?? ctx.raw, bodyError: req.error,
          note: r.note, src: ctx.src, http: ctx.http, weakId: ctx.weakId,
          // A whole exchange is a copy of another only if its time, status, duration and body size are the same too.
          // (And its request: its text, or, parsed, its params' _meta, which the fingerprint leaves out: two apps' same
          // request in the same millisecond differ there only, by the client name 2026-07-28 puts in it.)
          signature: signatureOf(`${r.ts}|${r.xid ?? ''}|${r.status}|${r.durationMs ?? ''}|${r.recvText?.length ?? ''}|${r.end ?? ''}|${req.text ?? metaText(req.body)}`),
        });
        const duration = durationOf(r.durationMs);
        const end = ctx.ts !== undefined && duration !== undefined ? ctx.ts + duration : ctx.ts;
        if (r.status !== null) {
          e.response(ctx.input, xid, r.status, resHeaders, ctx.ts, ctx.src, noContentType(resHeaders, r.responseHeaders));
          this.body(xid, ctx, resHeaders.get('content-type'), r.recv, r.recvText, r.events, end, r.ts);
        }
        // No body field at all on a 2xx response means the capture kept none (an empty body is recvText "").
        const notCaptured = r.status !== null && r.status >= 200 && r.status < 300 && r.status !== 202 && r.status !== 204 &&
          r.recv === undefined && r.recvText === undefined && r.events === undefined;
        this.endLater(ctx.input, xid, r.end ?? (r.status === null ? 'error' : 'complete'), r.error, end, ctx.ts, ctx.src, notCaptured, r.endUnknown === true);
        return;
      }
      case 'request': {
        const headers = headerMap(r.requestHeaders);
        const session = r.session ?? headers.get('mcp-session-id') ?? legacySessionOf(r.url);
        const req = parseBody(r.send, r.sendText);
        const side = sideOf(r, ctx);
        const endpoint = this.endpointOf(ctx.input, side, session, r.conn, r.url, req.body);
        this.noteOAuth(ctx.input, side, r.url, ctx.ts);
        e.request({
          input: ctx.input, ts: ctx.ts, side, xid: r.xid, session, conn: r.conn, client: r.client, endpoint, addressed: addressedOf(endpoint, r.requestHeaders),
          httpMethod: r.method.toUpperCase(), headers, body: req.body, bodyText: req.text ?? ctx.raw, bodyError: req.error,
          note: r.note, src: ctx.src, http: ctx.http, weakId: ctx.weakId,
          signature: signatureOf(`${r.ts}|${r.xid}`),
        });
        return;
      }
      case 'response': {
        const headers = headerMap(r.responseHeaders);
        e.response(ctx.input, r.xid, r.status, headers, ctx.ts, ctx.src, noContentType(headers, r.responseHeaders));
        this.body(r.xid, ctx, headers.get('content-type'), r.recv, r.recvText, r.events, ctx.ts);
        return;
      }
      case 'event': {
        if (r.id === undefined && r.event === undefined && isSseFrame(r.data)) {
          // The chunk as the server wrote it ("event: message\ndata: {...}\n\n"), logged whole as the data: its events.
          const rest = forEachSseEvent(r.data, (ev) => e.payload(ctx.input, r.xid, { sse: ev, hasParsed: false, timing: 'order' }, ctx.ts, ctx.src));
          if (rest.foreign !== undefined) e.nonSse(ctx.input, r.xid, rest.foreign);
          if (rest.comments > 0) e.comments(ctx.input, r.xid, rest.comments, ctx.ts);
          return;
        }
        const ev: ParsedSseEvent = { data: r.data, hasData: true };
        if (r.id !== undefined) ev.id = r.id;
        if (r.event !== undefined) ev.event = r.event;
        // Written as it came: its place in the log is its place in time (see EventTiming).
        e.payload(ctx.input, r.xid, { sse: ev, hasParsed: false, timing: 'order' }, ctx.ts, ctx.src);
        return;
      }
      case 'end': {
        if (r.recvText !== undefined && r.recvText !== '') {
          e.payload(ctx.input, r.xid, { text: r.recvText, hasParsed: false }, ctx.ts, ctx.src);
        }
        if (r.nonSseText !== undefined && r.nonSseText !== '') e.nonSse(ctx.input, r.xid, r.nonSseText);
        if (r.comments !== undefined && r.comments > 0) e.comments(ctx.input, r.xid, r.comments, lastCommentAt(r.lastCommentTs, r.ts, ctx.ts));
        e.end(ctx.input, r.xid, r.end, r.error, ctx.ts, ctx.src);
        return;
      }
      case 'message': {
        const session = r.session ?? null;
        e.message({
          input: ctx.input, ts: ctx.ts, side: sideOf(r, ctx), xid: '', session, conn: r.conn, client: r.client,
          httpMethod: '', headers: new Map(), body: r.message, bodyText: ctx.raw, src: ctx.src, http: ctx.http && r.status !== undefined,
          weakId: ctx.weakId, direction: r.direction, status: r.status, rebuilt: ctx.rebuilt === true,
          answersUnlogged: ctx.answersUnlogged === true, error: r.error, durationMs: r.durationMs, noResponse: r.noResponse, bodyUnlogged: r.bodyUnlogged, malformed: r.malformed, invalidEnvelope: r.invalidEnvelope, inputRequired: r.inputRequired, bareStatus: r.bareStatus, retryAfter: r.retryAfter,
          sessionSent: ctx.sessionSent === true,
        });
        return;
      }
      case 'claim': {
        const c: ClaimIn = { input: ctx.input, ts: ctx.ts, session: r.session ?? r.claim.session ?? null, claim: r.claim, src: ctx.src };
        if (r.conn !== undefined) c.conn = r.conn;
        this.onClaim(c);
        return;
      }
    }
  }

  private body(xid: string, ctx: RecordContext, contentType: string | undefined, recv: unknown, recvText: string | undefined, events: SseEvent[] | undefined, ts: number | undefined, recTs?: unknown): void {
    if (events !== undefined) {
      // A whole exchange's events at the times they carry (shifted as the record's own time was), else at its end.
      const own = recTs !== undefined ? parseTimestamp(recTs) : undefined;
      for (const ev of events) {
        const p: ParsedSseEvent = { data: ev.data, hasData: true };
        if (ev.id !== undefined) p.id = ev.id;
        if (ev.event !== undefined) p.event = ev.event;
        const at = ev.ts !== undefined ? parseTimestamp(ev.ts) : undefined;
        const evTs = at !== undefined && own !== undefined && ctx.ts !== undefined && ts !== undefined ? Math.min(Math.max(ctx.ts + at - own, ctx.ts), ts) : ts;
        // Only an event that carries its own time is placed in time; the others are told at the exchange's end.
        const timed = at !== undefined && own !== undefined;
        this.eventLater(ctx.input, xid, timed ? { sse: p, hasParsed: false, timing: 'clock' } : { sse: p, hasParsed: false }, recTs !== undefined ? evTs : undefined, ctx.ts, evTs, ctx.src);
      }
      return;
    }
    // A whole body came at the exchange's end (a split response record's, at once). Only a parsed body needs the line.
    const raw = recv !== undefined && typeof recv !== 'string' ? ctx.raw : undefined;
    const input = ctx.input;
    const src = ctx.src;
    this.later(ts, ctx.ts, () => this.wholeBody(input, src, raw, xid, contentType, recv, recvText, ts));
  }

  /** An SSE event of a whole exchange, told at its time; takes what it needs, not the record (see endLater). */
  private eventLater(input: number, xid: string, p: Parameters<JoinEngine['payload']>[2], at: number | undefined, now: number | undefined, ts: number | undefined, src: Source): void {
    const e = this.engine;
    this.later(at, now, () => e.payload(input, xid, p, ts, src));
  }

  private wholeBody(input: number, src: Source, raw: string | undefined, xid: string, contentType: string | undefined, recv: unknown, recvText: string | undefined, ts: number | undefined): void {
    const e = this.engine;
    // A `recv` that is text is the raw body (a JSON-RPC response is never a string): read as recvText.
    if (typeof recv === 'string' && recvText === undefined) [recv, recvText] = [undefined, recv];
    if (recv !== undefined) {
      e.payload(input, xid, { parsed: recv, hasParsed: true, ...(raw !== undefined ? { text: raw } : {}) }, ts, src);
      return;
    }
    if (recvText === undefined || recvText === '') return;
    const isSse = contentType?.toLowerCase().includes('text/event-stream') ?? looksLikeSse(recvText);
    if (isSse) {
      const rest = forEachSseEvent(recvText, (ev) => e.payload(input, xid, { sse: ev, hasParsed: false }, ts, src));
      if (rest.foreign !== undefined) e.nonSse(input, xid, rest.foreign);
      // A whole body does not tell when its comments came.
      if (rest.comments > 0) e.comments(input, xid, rest.comments, undefined);
    } else {
      e.payload(input, xid, { text: recvText, hasParsed: false }, ts, src);
    }
  }
}

/**
 * When an end record's last SSE comment came, on the record's own clock as the analysis placed it (moved with its
 * `ts` by --timezone or a skew): the comment's time less the record's, from the record's place, never after it.
 */
function lastCommentAt(last: unknown, own: unknown, placed: number | undefined): number | undefined {
  if (last === undefined || placed === undefined) return undefined;
  const at = parseTimestamp(last);
  const mine = parseTimestamp(own);
  if (at === undefined || mine === undefined) return undefined;
  return Math.min(placed + at - mine, placed);
}

/**
 * The endpoint a sessionless request's client addressed, where its record's URL names another host than its Host
 * header (a recording proxy records the target it forwarded to; its client's own log has the proxy's address): that
 * URL with the Host header's authority. Undefined otherwise (most records: no Host header, or the same authority).
 */
function addressedOf(endpoint: string | undefined, headers: Record<string, string> | undefined): string | undefined {
  if (endpoint === undefined || headers === undefined) return undefined;
  // (Read from the record's own headers, not headerMap's: only sessionless requests look, so the rest pay nothing.)
  const host = Object.hasOwn(headers, 'host') ? headers.host : Object.hasOwn(headers, 'Host') ? headers.Host : undefined;
  if (typeof host !== 'string') return undefined;
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/]*)(.*)$/i.exec(endpoint);
  if (m === null || m[2]!.toLowerCase() === host.toLowerCase()) return undefined;
  return `${m[1]}${host.slice(0, 200)}${m[3]}`;
}
