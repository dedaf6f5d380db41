// Adapter for mcpsnoop session JSONL (proxy capture, stdio shim or HTTP proxy): one frame per line with session, sequence, direction, raw JSON-RPC and HTTP status.
import type { MessageRecord } from '../schema/record.js';
import type { AdapterContext, AdapterResult, JsonFormat } from './adapter.js';
import { cleanTerminal } from '../report/text.js';
import { httpStatus, isObj, str, timeValue, type Obj } from './values.js';

/**
 * What mcpsnoop 0.22.0 really writes (test/fixtures/real-audit72): on HTTP, a c2s frame only for a POST's body (read
 * as the proxy forwards it: a GET, a DELETE, or a POST the proxy answered before reading it leave none), and an s2c
 * frame per JSON-RPC message of the response (each SSE event), or one with only `status` for an empty body; every frame
 * of an exchange carries the client's TCP connection (`conn_id`), which one MCP session spreads over several
 * (keep-alive pooling) and several sessions share. An HTTP/1.1 connection carries one exchange at a time, so an answer
 * without a JSON-RPC id on a connection (a bare 404, 401 or 502, an error body with `id: null`, an error page) is the
 * answer to the POST in flight on it. This keeps that POST per connection.
 */
type InFlight = Map<string, { id: string | number } | 'notification'>;

function inFlightOf(ctx: AdapterContext | undefined): InFlight | undefined {
  const state = ctx?.state;
  if (!state) return undefined;
  let m = state.get('mcpsnoop:in-flight') as InFlight | undefined;
  if (!m) state.set('mcpsnoop:in-flight', (m = new Map()));
  return m;
}

/** The JSON export's requests of a run still unanswered, by id (see mcpsnoop-export.ts). */
function openOf(ctx: AdapterContext | undefined, session: string): Set<string> | undefined {
  const state = ctx?.state;
  if (!state) return undefined;
  let m = state.get('mcpsnoop:open') as Map<string, Set<string>> | undefined;
  if (!m) state.set('mcpsnoop:open', (m = new Map()));
  let set = m.get(session);
  if (!set) m.set(session, (set = new Set()));
  return set;
}

const idKey = (id: string | number): string => `${typeof id}:${id}`;

const isId = (v: unknown): v is string | number => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** What an id-less answer's body says, in a few words, on one line (untrusted: the report redacts it; escape sequences and line breaks of an error page are cleaned here). */
function bodyWords(raw: unknown, text: string | undefined): string | undefined {
  const words = bodyText(raw, text);
  return words === undefined ? undefined : cleanTerminal(words);
}

function bodyText(raw: unknown, text: string | undefined): string | undefined {
  if (isObj(raw)) {
    const e = raw.error;
    if (isObj(e) && (typeof e.message === 'string' || typeof e.code === 'number')) return `JSON-RPC error${typeof e.code === 'number' ? ` ${e.code}` : ''}${typeof e.message === 'string' ? `: ${e.message}` : ''}`.slice(0, 200);
    // an OAuth error body ({"error":"invalid_token","error_description":...}) or another JSON body
    if (typeof e === 'string') return `${e}${typeof raw.error_description === 'string' ? ` (${raw.error_description})` : ''}`.slice(0, 200);
    return undefined;
  }
  if (text !== undefined && text.trim() !== '') return text.trim().slice(0, 200);
  return undefined;
}

function mcpsnoopToRecords(v: Obj, ctx?: AdapterContext): AdapterResult {
  const dir = v.direction;
  // stderr lines of a wrapped stdio server and the session's meta frame carry no JSON-RPC traffic.
  if (dir === 'stderr' || dir === 'meta') return [];
  if (dir !== 'c2s' && dir !== 's2c') return { error: `mcpsnoop frame with unknown direction ${JSON.stringify(typeof dir === 'object' && dir !== null ? (Array.isArray(dir) ? 'an array' : 'an object') : String(dir)).slice(0, 30)}` };
  const status = httpStatus(v.status);
  const hasRaw = v.raw !== undefined && v.raw !== null;
  const text = str(v.text);
  const transport = str(v.transport);
  const session = str(v.session_id);
  const connId = str(v.conn_id);
  // (a frame without `transport` but with a client connection is taken for HTTP, as its status always was)
  const http = transport === 'http' || (transport === undefined && connId !== undefined);
  // A frame made from the JSON export's event (mcpsnoop-export.ts) has no connection: the run's POST in flight is its
  // last request frame, taken for an id-less answer only while it is the one request of the run still unanswered.
  const fromExport = v.export === 'json' && connId === undefined;
  const flight = http && session && (connId || fromExport) ? inFlightOf(ctx) : undefined;
  const key = fromExport ? `${session}\u0000(json export)` : `${session}\u0000${connId}`;
  const open = fromExport && flight ? openOf(ctx, session!) : undefined;
  const record = (message: unknown): MessageRecord => {
    const r: MessageRecord = { v: 1, kind: 'message', direction: dir, message };
    const ts = timeValue(v.ts);
    if (ts !== undefined) r.ts = ts;
    if (session) {
      // stdio: the capture is the one connection. HTTP: the capture session names the proxy's run, which every client
      // that connects to it shares (no Mcp-Session-Id is recorded), and the TCP connection is no session (one session
      // uses several, several share one): the run is the scope, kept as the caller, so a cancellation or a retry sent
      // on another connection still meets its request, and two clients' same ids are told apart as in any shared log.
      if (http) r.client = session;
      else r.conn = session;
    }
    if (status !== undefined && transport !== 'stdio') r.status = status;
    return r;
  };
  const rawMsg = hasRaw ? v.raw : undefined;
  const rpcId = isObj(rawMsg) ? rawMsg.id : undefined;
  if (open) {
    if (dir === 'c2s' && isObj(rawMsg) && typeof rawMsg.method === 'string' && isId(rpcId)) open.add(idKey(rpcId));
    else if (dir === 's2c' && isObj(rawMsg) && typeof rawMsg.method !== 'string' && isId(rpcId)) open.delete(idKey(rpcId));
    else if (dir === 'c2s' && isObj(rawMsg) && rawMsg.method === 'notifications/cancelled' && isObj(rawMsg.params) && isId(rawMsg.params.requestId)) open.delete(idKey(rawMsg.params.requestId));
  }
  if (dir === 'c2s') {
    if (flight) {
      if (isObj(rawMsg) && typeof rawMsg.method === 'string' && isId(rpcId)) flight.set(key, { id: rpcId });
      else if (isObj(rawMsg) && typeof rawMsg.method === 'string') flight.set(key, 'notification');
      else flight.delete(key);
    }
  } else if (flight && http) {
    const pending = flight.get(key);
    const answersById = isObj(rawMsg) && typeof rawMsg.method !== 'string' && isId(rpcId);
    if (answersById) {
      if (pending !== undefined && pending !== 'notification' && pending.id === rpcId) flight.delete(key);
    } else if (!(isObj(rawMsg) && typeof rawMsg.method === 'string') && status !== undefined && v.truncated !== true) {
      // An answer without a JSON-RPC id: the POST in flight on this connection's, when it was a request.
      flight.delete(key);
      // (the export: another request of the run unanswered too, the answer may be either's: tied to none)
      const alone = open === undefined || (pending !== undefined && pending !== 'notification' && open.size === 1 && open.has(idKey(pending.id)));
      if (open !== undefined && open.size > 1 && (status < 200 || status > 299)) {
        // Said, not dropped: the app's calls it may have answered stay unanswered in the report, and this is why.
        const words = bodyWords(rawMsg, text);
        const ids = [...open].slice(0, 3).map((k) => k.slice(k.indexOf(':') + 1).slice(0, 40)).join(', ');
        return { error: `mcpsnoop's JSON export: an HTTP ${status} without a JSON-RPC id${words !== undefined ? ` (${words})` : ''} while ${open.size} requests of the run were unanswered (ids ${ids}${open.size > 3 ? ', ...' : ''}): the export keeps no connection to tell which one it answered (or a GET's or a DELETE's), so it is tied to none; the trace JSONL's conn_id tells` };
      }
      if (pending !== undefined && pending !== 'notification' && (status < 200 || status > 299) && alone) {
        open?.delete(idKey(pending.id));
        const r = record({ jsonrpc: '2.0', id: pending.id });
        const words = bodyWords(rawMsg, text);
        const headers = isObj(v.transport_headers) ? v.transport_headers : undefined;
        const bare = !hasRaw && (text === undefined || text === '');
        if (bare && fromExport && status === 502) r.error = "an HTTP 502 with no body: mcpsnoop's own answer when it could not reach the server, or a bodiless 502 from beyond it (the JSON export keeps no headers to tell them apart)";
        else if (bare && headers === undefined && status === 502) r.error = 'mcpsnoop answered 502 itself: it could not reach the server (no response came from it)';
        else if (words !== undefined) r.error = `${isObj(rawMsg) && isObj(rawMsg.error) && rawMsg.id === null ? 'the body, a JSON-RPC error for id null, says: ' : 'the body says: '}${words}`;
        if (bare && !fromExport && (headers === undefined || headers.content_type === undefined || headers.content_type === '')) r.bareStatus = true;
        return [r];
      }
      if (pending === undefined && !hasRaw && status === 502 && v.transport_headers === undefined && fromExport) {
        return { error: "an HTTP 502 with no body, to no request of mcpsnoop's JSON export that is still unanswered (mcpsnoop's own answer when it could not reach the server, to a POST it could not forward, a GET or a DELETE): no request of the export is tied to it" };
      }
      if (pending === undefined && !hasRaw && status === 502 && v.transport_headers === undefined) {
        return { error: 'mcpsnoop answered 502 itself (it could not reach the server) to a request whose body it never read (a POST it could not forward, a GET or a DELETE): no request of the trace is tied to it' };
      }
      // A status for a request that left no frame (a GET stream, a DELETE, a probe), or a 202 to a notification.
      if (!hasRaw && (text === undefined || text === '')) return [record(null)];
    }
  }
  if (!hasRaw && text !== undefined && text !== '') {
    // mcpsnoop keeps non-JSON protocol frames as text; a message record cannot carry them.
    if (v.truncated === true) return { error: `mcpsnoop ${dir} frame was cut at the frame-size cap` };
    return { error: http ? `mcpsnoop ${dir} frame is not JSON${status !== undefined ? ` (an HTTP ${status} body)` : ''}` : `mcpsnoop ${dir} frame is not JSON: the ${dir === 's2c' ? 'server' : 'client'} wrote a line that is no JSON-RPC message on the stdio protocol channel (a stray print on stdout)` };
  }
  if (!hasRaw && status === undefined) return { error: 'mcpsnoop frame without raw message or status' };
  if (v.truncated === true) return { error: `mcpsnoop ${dir} frame was cut at the frame-size cap` };
  // A bodiless response (401 challenge, 202 to a notification, a 502 made up by the proxy) keeps its status with a null message.
  return [record(hasRaw ? v.raw : null)];
}

export const mcpsnoopFormat: JsonFormat = {
  kind: 'json',
  name: 'mcpsnoop',
  detect: (v) => typeof v.session_id === 'string' && typeof v.seq === 'number' && typeof v.direction === 'string' && 'ts' in v,
  toRecords: (value, ctx) => mcpsnoopToRecords(value, ctx),
  limits: {
    http: true,
    bodies: true,
    session: false,
    typedIds: true,
    notes: [
      "session_id is mcpsnoop's capture (one proxy or shim run), not Mcp-Session-Id: on HTTP every client of the proxy shares it, and an answer without an id is tied to the POST in flight on its TCP connection (conn_id)",
      'HTTP status only on responses of HTTP-mode captures; no headers but Content-Type; GET and DELETE requests and a POST the proxy answered before reading it leave no request frame; a cut SSE stream leaves no frame',
      'on stdio: no record of the server process exiting; stderr lines are skipped',
      'frames that are not JSON or were cut at the size cap are reported, not analyzed',
    ],
  },
};
