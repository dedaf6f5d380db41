// Adapter for tshark packet exports (`-T ek` lines, `-T json` array items): HTTP/1.1 MCP exchanges rebuilt from dissected packets, per TCP connection.
import { TextDecoder } from 'node:util';
import type { CanonicalRecord, EndRecord, EventRecord, Headers, RequestRecord, ResponseRecord } from '../schema/record.js';
import { FULL_VIEW, type AdapterContext, type AdapterResult, type JsonFormat } from './adapter.js';
import { looksLikeMcp } from './har-entry.js';
import { SseParser, type ParsedSseEvent } from '../sse.js';
import { httpStatus, isObj, safeKey, type Obj } from './values.js';

/**
 * What tshark 4.0 writes (seen on real captures, test/fixtures/real-tshark): a packet's fields per protocol layer,
 * `http_http_request_method` in -T ek and `http.request.method` (nested in subtrees) in -T json; header lines as
 * `http.request.line` / `http.response.line` ("name: value\r\n", a list in -T ek; repeated keys in -T json); the body
 * decoded as text in `http.file_data`. A response is dissected only once it is complete (its Content-Length read, or
 * the last chunk): a text/event-stream body appears whole at its end, and one cut short (FIN or RST before the last
 * chunk) is never dissected at all. So the server's bytes of a pending request are also read here from
 * `tcp.payload`: its response head and each SSE event as they crossed the wire, and what came before a cut.
 */

/** A field value as tshark writes it: a string, a list of them (repeated fields), a boolean (-T ek flags). */
type Field = string | string[] | boolean | undefined;
type Fields = Map<string, Field>;

/** One layer's fields by their -T ek name (`http_http_request_method`); -T json names and subtrees are folded in. */
function layerFields(layer: string, value: unknown, out: Fields = new Map()): Fields {
  if (!isObj(value)) return out;
  for (const [k, v] of Object.entries(value)) {
    if (!safeKey(k)) continue;
    if (isObj(v)) {
      layerFields(layer, v, out);
      continue;
    }
    const name = k.includes('.') ? `${layer}_${k.replaceAll('.', '_')}` : k;
    if (out.has(name)) continue;
    if (typeof v === 'string' || typeof v === 'boolean') out.set(name, v);
    else if (Array.isArray(v)) out.set(name, v.filter((x): x is string => typeof x === 'string'));
  }
  return out;
}

const one = (f: Field): string | undefined => (typeof f === 'string' ? f : Array.isArray(f) ? f[0] : undefined);
const list = (f: Field): string[] => (typeof f === 'string' ? [f] : Array.isArray(f) ? f : []);
const flag = (f: Field): boolean => f === true || f === '1' || f === 'True';
const int = (f: Field): number | undefined => {
  const s = one(f);
  return s !== undefined && /^\d+$/.test(s) ? Number(s) : undefined;
};

/** `aa:bb:cc` (how tshark writes bytes) to a Buffer; undefined for anything else. */
function hexBytes(s: string | undefined): Buffer | undefined {
  if (s === undefined || !/^[0-9a-f]{2}(:[0-9a-f]{2})*$/i.test(s)) return undefined;
  return Buffer.from(s.replaceAll(':', ''), 'hex');
}

/** A body from `http.file_data`: text as tshark 4.0 writes it, or bytes in its hex notation (with a colon) decoded. */
function bodyText(f: Field): string | undefined {
  const s = one(f);
  if (s === undefined) return undefined;
  return s.includes(':') ? (hexBytes(s)?.toString('utf8') ?? s) : s;
}

/** Header lines ("name: value\r\n") to a flat object: names lowercased, repeated names joined with ", ". */
function headerLines(lines: string[], into: Headers = {}): Headers {
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    const value = line.slice(i + 1).trim();
    if (!safeKey(name)) continue;
    into[name] = Object.hasOwn(into, name) ? `${into[name]}, ${value}` : value;
  }
  return into;
}

/** Headers of a dissected message; -T json without --no-duplicate-keys keeps only its last line, so Content-Type is also taken from its own field. */
function messageHeaders(http: Fields, which: 'request' | 'response'): Headers {
  const h = headerLines(list(http.get(`http_http_${which}_line`)));
  const ct = one(http.get('http_http_content_type'));
  if (ct !== undefined && !('content-type' in h)) h['content-type'] = ct;
  return h;
}

/** The server's bytes of the exchange that waits for its response, read as they came: head, then body (de-chunked). */
interface Live {
  bytes: Buffer;
  status?: number;
  headers?: Headers;
  /** The response record was written (a text/event-stream head): events follow as they complete. */
  said: boolean;
  chunked?: boolean;
  /** A Content-Encoding (gzip): the body on the wire is not text; tshark's dissection, decoded, is waited for. */
  encoded?: boolean;
  /** Bytes left in the current chunk (chunked body); -1 while a chunk-size line is awaited. */
  chunkLeft: number;
  body: Buffer[];
  sse?: SseParser;
  decoder?: TextDecoder;
  events: number;
  /** When the last SSE comment (a keep-alive) crossed: the end record carries the count and this time. */
  lastCommentTs?: number;
}

interface Pending {
  xid: string;
  /** What makes a forwarded copy of this MCP request the same request: method, Mcp-Session-Id and body. */
  same?: string;
  /** False for HTTP that is no MCP traffic: kept only so that its answer is told apart, and gives no records. */
  mcp: boolean;
  live: Live;
}

interface Conn {
  serverPort?: string;
  /** Requests sent on the connection whose response is not complete yet, oldest first (what is held: the open ones only). */
  pending: Pending[];
  /** The next server sequence number expected; a gap ends reading the server's bytes here. */
  nextSeq?: number;
  gap?: boolean;
  clientFin?: boolean;
}

interface State {
  conns: Map<string, Conn>;
  /**
   * Server ports found to be the inner leg of a hop in this same capture (a request arrived there that was still
   * waiting for its answer on another port: forwarded), with the outer leg's port: their packets are skipped.
   */
  inner: Map<string, string>;
  /** tls / http2 packets were seen and said once (no HTTP/1.1 layer: nothing to read there). */
  opaque?: true;
}

function stateOf(ctx: AdapterContext): State {
  let s = ctx.state?.get('tshark') as State | undefined;
  if (!s) {
    s = { conns: new Map(), inner: new Map() };
    ctx.state?.set('tshark', s);
  }
  return s;
}

/** The most bytes a response head is looked for in. */
const HEAD_MAX = 64 * 1024;

const newLive = (): Live => ({ bytes: Buffer.alloc(0), said: false, chunkLeft: -1, body: [], events: 0 });

function eventRecord(xid: string, ts: number | undefined, ev: ParsedSseEvent): EventRecord {
  const r: EventRecord = { v: 1, kind: 'event', xid, data: ev.data };
  if (ts !== undefined) r.ts = ts;
  if (ev.id !== undefined) r.id = ev.id;
  if (ev.event !== undefined) r.event = ev.event;
  if (ev.retry !== undefined) r.retry = ev.retry;
  return r;
}

/** Reads what `live` holds so far: the head once complete, then the body; SSE events finished meanwhile are written. */
function readLive(p: Pending, ts: number | undefined, out: CanonicalRecord[]): void {
  const l = p.live;
  if (l.status === undefined) {
    const end = l.bytes.indexOf('\r\n\r\n');
    if (end < 0) {
      if (l.bytes.length > HEAD_MAX) {
        l.status = 0; // no HTTP head in sight: nothing more is read from these bytes
        l.bytes = Buffer.alloc(0);
      }
      return;
    }
    const lines = l.bytes.subarray(0, end).toString('latin1').split('\r\n');
    const status = httpStatus(Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1]));
    if (status === undefined) {
      l.bytes = Buffer.alloc(0);
      l.status = 0; // not an HTTP response head: nothing more is read from these bytes
      return;
    }
    l.status = status;
    l.headers = headerLines(lines.slice(1));
    l.chunked = /chunked/i.test(l.headers['transfer-encoding'] ?? '');
    l.encoded = !/^(identity)?$/i.test((l.headers['content-encoding'] ?? '').trim());
    l.bytes = l.bytes.subarray(end + 4);
    if (/text\/event-stream/i.test(l.headers['content-type'] ?? '')) {
      l.said = true;
      if (!l.encoded) {
        l.sse = new SseParser();
        l.decoder = new TextDecoder();
      }
      const r: ResponseRecord = { v: 1, kind: 'response', xid: p.xid, status, responseHeaders: l.headers };
      if (ts !== undefined) r.ts = ts;
      out.push(r);
    }
  }
  if (l.status === 0 || l.encoded) {
    l.bytes = Buffer.alloc(0);
    return;
  }
  const fresh = takeBody(l);
  if (!fresh.length) return;
  if (!l.sse) {
    l.body.push(...fresh);
    return;
  }
  const comments = l.sse.comments;
  for (const b of fresh) {
    for (const ev of l.sse.push(l.decoder!.decode(b, { stream: true }))) {
      l.events++;
      out.push(eventRecord(p.xid, ts, ev));
    }
  }
  if (l.sse.comments > comments && ts !== undefined) l.lastCommentTs = ts;
}

/** An end record says how many SSE comments its stream carried, and when the last crossed (no record is made for each). */
function withComments(end: EndRecord, count: number, lastTs: number | undefined): void {
  if (count <= 0) return;
  end.comments = count;
  if (lastTs !== undefined) end.lastCommentTs = lastTs;
}

/** The body bytes `l.bytes` holds, chunk framing removed (a chunk not yet whole is taken as far as it came). */
function takeBody(l: Live): Buffer[] {
  if (!l.chunked) {
    const b = l.bytes;
    l.bytes = Buffer.alloc(0);
    return b.length ? [b] : [];
  }
  const out: Buffer[] = [];
  for (;;) {
    if (l.chunkLeft === -1) {
      const nl = l.bytes.indexOf('\r\n');
      if (nl < 0) break;
      const size = parseInt(l.bytes.subarray(0, nl).toString('latin1'), 16);
      l.bytes = l.bytes.subarray(nl + 2);
      if (!Number.isFinite(size) || size === 0) {
        l.bytes = Buffer.alloc(0);
        l.chunkLeft = -2; // the last chunk (or a broken size): the body is over
        break;
      }
      l.chunkLeft = size + 2; // the chunk and its CRLF
    }
    if (l.chunkLeft < 0) break;
    const n = Math.min(l.chunkLeft, l.bytes.length);
    if (n === 0) break;
    const dataLen = Math.max(0, Math.min(n, l.chunkLeft - 2));
    if (dataLen > 0) out.push(l.bytes.subarray(0, dataLen));
    l.bytes = l.bytes.subarray(n);
    l.chunkLeft -= n;
    if (l.chunkLeft === 0) l.chunkLeft = -1;
  }
  return out;
}

/**
 * What makes a forwarded copy of a request the same request: method, Mcp-Session-Id and body. Only a request that
 * carries a session id has one: an `initialize` (none yet) sent by one client to two servers at once is two requests,
 * and two servers never hand out the same session id.
 */
const sameRequest = (method: string, headers: Headers, body: string | undefined): string | undefined => {
  const session = headers['mcp-session-id'];
  return session ? JSON.stringify([method, session, body ?? null]) : undefined;
};

/**
 * The outer leg's server port when this request is a copy of one still waiting on a connection to another port: a
 * hop on the captured host (a proxy, a gateway) forwarded it, and the capture holds both legs of the hop.
 */
function forwardedFrom(st: State, http: Fields, dstPort: string | undefined): string | undefined {
  if (dstPort === undefined) return undefined;
  const method = (one(http.get('http_http_request_method')) ?? '').toUpperCase();
  const headers = messageHeaders(http, 'request');
  const body = bodyText(http.get('http_http_file_data'));
  if (!looksLikeMcp(method, headers, undefined, body)) return undefined;
  const same = sameRequest(method, headers, body);
  if (same === undefined) return undefined;
  for (const c of st.conns.values()) {
    if (c.serverPort === undefined || c.serverPort === dstPort) continue;
    if (c.pending.some((p) => p.same === same)) return c.serverPort;
  }
  return undefined;
}

function request(http: Fields, conn: Conn, xid: string, ts: number | undefined, dstPort: string | undefined): CanonicalRecord[] {
  const method = (one(http.get('http_http_request_method')) ?? '').toUpperCase();
  const requestHeaders = messageHeaders(http, 'request');
  const sendText = bodyText(http.get('http_http_file_data'));
  const mcp = looksLikeMcp(method, requestHeaders, undefined, sendText);
  if (dstPort !== undefined) conn.serverPort = dstPort;
  const same = mcp ? sameRequest(method, requestHeaders, sendText) : undefined;
  conn.pending.push({ xid, mcp, live: newLive(), ...(same !== undefined ? { same } : {}) });
  if (!mcp) return [];
  const r: RequestRecord = { v: 1, kind: 'request', xid, method };
  if (ts !== undefined) r.ts = ts;
  const url = one(http.get('http_http_request_full_uri')) ?? one(http.get('http_http_request_uri'));
  if (url !== undefined) r.url = url;
  r.requestHeaders = requestHeaders;
  if (sendText !== undefined) r.sendText = sendText;
  return [r];
}

function response(http: Fields, conn: Conn, stream: string, ts: number | undefined): AdapterResult {
  const reqFrame = int(http.get('http_http_request_in'));
  const status = httpStatus(Number(one(http.get('http_http_response_code'))));
  if (status === undefined) return { error: 'tshark HTTP response without a valid http.response.code' };
  // HTTP/1.1 answers in order: a response tshark did not link (the second of two requests pipelined in one packet has
  // no http.request_in) answers the oldest request still waiting on its connection; one frame's requests are
  // tcp<stream>/<frame>.<n>.
  const xid = reqFrame === undefined ? undefined : `tcp${stream}/${reqFrame}`;
  const at = xid === undefined ? (conn.pending.length ? 0 : -1) : conn.pending.findIndex((p) => p.xid === xid || p.xid.startsWith(`${xid}.`));
  if (at < 0) {
    if (reqFrame === undefined) return { error: `tshark HTTP response ${status} without http.request_in, and no request waits on its connection: its request is not in the capture` };
    return { error: `tshark HTTP response ${status} to frame ${reqFrame}, whose request is not in the capture (or was answered already)` };
  }
  const [p] = conn.pending.splice(at, 1);
  if (!p!.mcp) return []; // the answer to HTTP that is no MCP traffic
  const pxid = p!.xid;
  const out: CanonicalRecord[] = [];
  const recvText = bodyText(http.get('http_http_file_data'));
  const durationS = Number(one(http.get('http_http_time')));
  let comments: { count: number; lastTs: number | undefined } | undefined;
  if (p!.live.said) {
    // Head and events were written as they crossed the wire: only the events after those, then the end.
    let i = 0;
    const sse = new SseParser();
    for (const ev of [...sse.push(recvText ?? ''), ...sse.end()]) if (i++ >= p!.live.events && !ev.truncated) out.push(eventRecord(pxid, ts, ev));
    // Comments in the tail the live parser had not seen came with this packet.
    comments = { count: sse.comments, lastTs: sse.comments > (p!.live.sse?.comments ?? 0) ? ts : p!.live.lastCommentTs };
  } else {
    const r: ResponseRecord = { v: 1, kind: 'response', xid: pxid, status, responseHeaders: messageHeaders(http, 'response') };
    if (ts !== undefined) r.ts = ts;
    if (recvText !== undefined) r.recvText = recvText;
    out.push(r);
  }
  const end: EndRecord = { v: 1, kind: 'end', xid: pxid, end: 'complete' };
  if (ts !== undefined) end.ts = ts;
  if (Number.isFinite(durationS) && durationS >= 0) end.durationMs = Math.round(durationS * 1e6) / 1e3;
  if (comments) withComments(end, comments.count, comments.lastTs);
  out.push(end);
  return out;
}

/** The connection ended (FIN from the server, or RST) with requests unanswered: each ends, with what the wire held of its response. */
function connectionEnd(conn: Conn, ts: number | undefined, how: string): CanonicalRecord[] {
  const out: CanonicalRecord[] = [];
  for (const p of conn.pending.splice(0)) {
    if (!p.mcp) continue;
    const l = p.live;
    const end: EndRecord = { v: 1, kind: 'end', xid: p.xid, end: 'error', error: `${how}${conn.clientFin ? ', after the client had closed its side (FIN)' : ''}, before any HTTP response` };
    if (l.status !== undefined && l.status > 0) {
      if (!l.said) {
        const r: ResponseRecord = { v: 1, kind: 'response', xid: p.xid, status: l.status, responseHeaders: l.headers ?? {} };
        if (ts !== undefined) r.ts = ts;
        out.push(r);
        const body = Buffer.concat(l.body).toString('utf8');
        if (body) end.recvText = body;
      }
      end.end = 'aborted';
      end.error = `${how}${conn.clientFin ? ', after the client had closed its side (FIN)' : ''}, before the response ended${l.chunked ? ' (no last chunk)' : ''}`;
      if (l.sse) withComments(end, l.sse.comments, l.lastCommentTs);
    }
    if (ts !== undefined) end.ts = ts;
    out.push(end);
  }
  return out;
}

/** One packet (an -T ek document line, or an -T json item's `_source`) to records. */
function tsharkToRecords(v: Obj, ctx: AdapterContext): AdapterResult {
  if (isObj(v.index) && Object.keys(v).length === 1) return []; // -T ek's Elasticsearch bulk index line
  const layers = v.layers;
  if (!isObj(layers)) return { error: 'tshark packet without layers' };
  const frame = layerFields('frame', layers.frame);
  const number = int(frame.get('frame_frame_number'));
  if (number === undefined) return { error: 'tshark packet without frame.number' };
  const epoch = Number(one(frame.get('frame_frame_time_epoch')));
  const ts = Number.isFinite(epoch) && epoch > 0 ? Math.round(epoch * 1e6) / 1e3 : undefined; // epoch ms, to the microsecond
  if (!isObj(layers.tcp)) return []; // not TCP (ARP, UDP, ...): no HTTP/1.1 here
  const tcp = layerFields('tcp', layers.tcp);
  const stream = one(tcp.get('tcp_tcp_stream'));
  if (stream === undefined) return { error: `tshark TCP packet (frame ${number}) without tcp.stream` };
  const st = stateOf(ctx);
  const srcPort = one(tcp.get('tcp_tcp_srcport'));
  const dstPort = one(tcp.get('tcp_tcp_dstport'));
  // The inner leg of a hop whose outer leg this capture holds too: the same calls again, skipped (see below).
  if ((srcPort !== undefined && st.inner.has(srcPort)) || (dstPort !== undefined && st.inner.has(dstPort))) {
    st.conns.delete(stream);
    return [];
  }
  let conn = st.conns.get(stream);
  if (!conn) {
    conn = { pending: [] };
    st.conns.set(stream, conn);
  }
  if (layers.http === undefined && (layers.tls !== undefined || layers.http2 !== undefined) && !st.opaque) {
    st.opaque = true; // said once per input; the other such packets are skipped
    return { error: layers.http2 !== undefined
      ? `tshark packet (frame ${number}) of HTTP/2: mcp-triage reads HTTP/1.1 only; the other HTTP/2 packets are skipped`
      : `tshark packet (frame ${number}) of TLS: encrypted, no HTTP layer without the session keys (tshark -o tls.keylog_file:KEYLOG); the other such packets are skipped` };
  }
  const out: CanonicalRecord[] = [];
  const httpLayers = Array.isArray(layers.http) ? layers.http : layers.http === undefined ? [] : [layers.http];
  const fromServer = conn.serverPort !== undefined && srcPort === conn.serverPort;
  let dissected = false;
  for (const [i, layer] of httpLayers.entries()) {
    if (!isObj(layer)) continue;
    const http = layerFields('http', layer);
    if (http.has('http_http_request_method')) {
      dissected = true;
      const outer = forwardedFrom(st, http, dstPort);
      if (outer !== undefined && dstPort !== undefined) {
        // Both legs of a hop in one capture: read as one view, each call would count twice (and its id as reused).
        // The outer leg (the port the request came to first) is kept as the view of the capture; the inner one skipped.
        st.inner.set(dstPort, outer);
        st.conns.delete(stream);
        return { error: `tshark packet (frame ${number}): a request to port ${dstPort} that repeats one still waiting on port ${outer}: this capture holds both legs of a hop (client to ${outer}, then ${outer}'s hop to ${dstPort}); read as one view, each call would count twice, so port ${dstPort} is skipped and the capture read as the client's view (port ${outer}). To join the two views, split it per leg: tshark -r CAPTURE -Y tcp.port==${outer} -T ek > client-leg.ek.ndjson; tshark -r CAPTURE -Y tcp.port==${dstPort} -T ek > server-leg.ek.ndjson; mcp-triage --client client-leg.ek.ndjson --server server-leg.ek.ndjson` };
      }
      out.push(...request(http, conn, httpLayers.length > 1 ? `tcp${stream}/${number}.${i}` : `tcp${stream}/${number}`, ts, dstPort));
    } else if (http.has('http_http_response_code')) {
      dissected = true;
      const res = response(http, conn, stream, ts);
      if (!Array.isArray(res)) return res;
      out.push(...res);
    }
  }
  // The server's bytes for the oldest request still waiting, read as they come (a response tshark has not dissected yet).
  if (fromServer && !dissected && !conn.gap && conn.pending[0]?.mcp) {
    const payload = hexBytes(one(tcp.get('tcp_tcp_payload')));
    const seq = int(tcp.get('tcp_tcp_seq'));
    if (payload && seq !== undefined) {
      let bytes: Buffer | undefined = payload;
      if (conn.nextSeq !== undefined && seq !== conn.nextSeq) {
        if (seq + payload.length <= conn.nextSeq) bytes = undefined; // a retransmission of bytes already read
        else if (seq < conn.nextSeq) bytes = payload.subarray(conn.nextSeq - seq);
        else conn.gap = true; // bytes missing from the capture: tshark's own dissection is all there is from here
      }
      if (bytes && !conn.gap) {
        conn.nextSeq = seq + payload.length;
        const p = conn.pending[0]!;
        p.live.bytes = Buffer.concat([p.live.bytes, bytes]);
        readLive(p, ts, out);
      }
    }
  } else if (fromServer) {
    const seq = int(tcp.get('tcp_tcp_seq'));
    const len = int(tcp.get('tcp_tcp_len'));
    if (seq !== undefined && len !== undefined) conn.nextSeq = seq + len;
  }
  const rst = flag(tcp.get('tcp_tcp_flags_reset'));
  const fin = flag(tcp.get('tcp_tcp_flags_fin'));
  if ((rst || fin) && conn.serverPort !== undefined && conn.pending.length) {
    if (rst) out.push(...connectionEnd(conn, ts, `connection reset (RST) by the ${fromServer ? 'server' : 'client'}`));
    else if (fromServer) out.push(...connectionEnd(conn, ts, 'the server closed the connection (FIN)'));
    else conn.clientFin = true;
  }
  if (rst || (fin && fromServer)) st.conns.delete(stream);
  return out;
}

/** A tshark packet: `layers` with a `frame` layer (-T ek documents carry `timestamp` too), or the bulk index line before each. */
function isTsharkPacket(v: Obj): boolean {
  if (isObj(v.layers)) return isObj(v.layers.frame) && Object.keys(v).every((k) => k === 'layers' || k === 'timestamp');
  return isObj(v.index) && Object.keys(v).length === 1 && typeof v.index._index === 'string' && v.index._index.startsWith('packets-');
}

export const tsharkFormat: JsonFormat = {
  kind: 'json',
  name: 'tshark',
  detect: isTsharkPacket,
  toRecords: tsharkToRecords,
  limits: {
    ...FULL_VIEW,
    notes: [
      'plain HTTP/1.1 on TCP only: TLS without its keys and HTTP/2 give no records (the first such packet says so), HTTP/3 none either',
      'tshark dissects a response once it is whole; SSE events, and a response cut by FIN or RST, are read from tcp.payload, timed by their packets',
      'a request still waiting when the capture stopped has no end (its response head and events up to then are shown)',
      '-T json without --no-duplicate-keys keeps only the last header line of each message: Mcp-Session-Id is mostly lost (use -T ek)',
      'packets that carry no MCP traffic (handshakes, ACKs, other HTTP) and -T ek index lines are skipped: counted, not problems',
      'one capture of both legs of a hop (client to proxy, proxy to server) is read as the client\'s view once a request with a session id shows the hop: the inner leg is skipped from there (said once; its initialize is read); split it per port (-Y tcp.port==PORT) and give the legs as --client and --server to join them',
    ],
  },
};
