// Adapter for a developer's own HTTP log line: one exchange a line, as a fetch wrapper or a server middleware writes it (method, URL, status, headers, bodies), read as the canonical exchange.
import type { ExchangeRecord } from '../schema/record.js';
import type { HttpLine } from '../schema/http-line.js';
import { NEEDS_SCHEMAS, schemas } from '../schema/lazy.js';
import type { CanonicalRecord } from '../schema/record.js';
import { FULL_VIEW, type AdapterContext, type AdapterResult, type GatewayAccount, type JsonFormat } from './adapter.js';
import { trimOldest } from '../bounded.js';
import { appLogFormat, loggedTime } from './app-log.js';
import { parseTimestamp } from './time.js';
import { describeZodError } from './zod-error.js';
import { httpStatus, isObj, safeKey, type Obj } from './values.js';

const VERBS = new Set(['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS']);
const METHOD_KEYS = ['method', 'httpMethod', 'http_method', 'verb'];
const URL_KEYS = ['url', 'path', 'originalUrl', 'uri'];
const STATUS_KEYS = ['status', 'statusCode', 'status_code'];
const REQUEST_HEADER_KEYS = ['requestHeaders', 'reqHeaders', 'request_headers', 'headers'];
const RESPONSE_HEADER_KEYS = ['responseHeaders', 'resHeaders', 'response_headers'];
const REQUEST_BODY_KEYS = ['requestBody', 'reqBody', 'request_body', 'body'];
const RESPONSE_BODY_KEYS = ['responseBody', 'resBody', 'response_body', 'response'];
const SESSION_KEYS = ['sessionId', 'session_id', 'mcpSessionId', 'mcp_session_id'];
/** Names a logger gives the time a request took, in milliseconds (pino-http's `responseTime` among them). */
const DURATION_KEYS = ['durationMs', 'duration_ms', 'responseTime', 'response_time_ms', 'elapsedMs', 'elapsed_ms', 'latencyMs', 'latency_ms', 'ms', 'timeMs', 'tookMs', 'took_ms'];

const first = (v: Obj, keys: string[]): unknown => {
  for (const k of keys) if (v[k] !== undefined) return v[k];
  return undefined;
};
const verbOf = (v: unknown): string | undefined => (typeof v === 'string' && VERBS.has(v.toUpperCase()) ? v.toUpperCase() : undefined);
const hasBody = (v: Obj, keys: string[]): boolean => keys.some((k) => v[k] !== undefined && v[k] !== null);
/** A status as logged: a number, or its text (morgan's tokens are text). */
const statusOf = (v: unknown): number | undefined => httpStatus(typeof v === 'string' && /^\d{3}$/.test(v) ? Number(v) : v);
/** Milliseconds as logged: a number, or its text ("12.345", morgan's :response-time). */
const msOf = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/** Own fields only: a key read from a log line is never one of Object's. */
const own = (v: Obj, k: string): unknown => (Object.hasOwn(v, k) ? v[k] : undefined);

/**
 * A field by its dotted name, as Elastic Common Schema and OpenTelemetry name them: nested objects
 * (`{"http": {"request": {"method": ...}}}`), a literal dotted key (`"http.request.method"`), or the two mixed
 * (`"http.request": {"method": ...}`), as ECS loggers and shippers write them.
 */
export function dotted(v: Obj, path: string, depth = 0): unknown {
  const whole = own(v, path);
  if (whole !== undefined || depth > 4) return whole;
  let dot = path.indexOf('.');
  while (dot > 0) {
    const head = own(v, path.slice(0, dot));
    if (isObj(head)) {
      const r = dotted(head, path.slice(dot + 1), depth + 1);
      if (r !== undefined) return r;
    }
    dot = path.indexOf('.', dot + 1);
  }
  return undefined;
}
const firstDotted = (v: Obj, paths: string[]): unknown => {
  for (const p of paths) {
    const x = dotted(v, p);
    if (x !== undefined) return x;
  }
  return undefined;
};

/** ECS's names (and OpenTelemetry's, current and older) of an exchange's fields. */
const ECS_METHOD = ['http.request.method', 'http.method'];
const ECS_URL = ['url.original', 'url.path', 'url.full', 'http.target', 'http.url'];
const ECS_STATUS = ['http.response.status_code', 'http.status_code'];
const ECS_REQUEST_HEADERS = ['http.request.headers'];
const ECS_RESPONSE_HEADERS = ['http.response.headers'];
const ECS_REQUEST_BODY = ['http.request.body.content'];
const ECS_RESPONSE_BODY = ['http.response.body.content'];

/**
 * A structured HTTP logger's line: pino-http's (and Fastify's) `req`/`res` objects, express-winston's under `meta`
 * (its default metaField), or ECS/OpenTelemetry dotted names, each with the request body where the developer added
 * it. `at` is the object the logger's own fields are in (the line, or express-winston's `meta`).
 */
interface Shaped {
  method: unknown;
  url: unknown;
  status: unknown;
  reqHeaders: unknown;
  resHeaders: unknown;
  sent: unknown;
  got: unknown;
  at: Obj;
}

function shaped(v: Obj): Shaped | undefined {
  const at = isObj(v.meta) && isObj(v.meta.req) && isObj(v.meta.res) ? v.meta : v;
  const req = isObj(at.req) ? at.req : undefined;
  const res = isObj(at.res) ? at.res : undefined;
  if (req !== undefined && verbOf(req.method) !== undefined && typeof (req.originalUrl ?? req.url) === 'string' && (res !== undefined || dotted(v, 'http.response') !== undefined)) {
    // pino-http, Fastify, express-winston; with @elastic/ecs-pino-format, pino-http's `req` stays and `res` becomes `http.response`.
    return {
      method: req.method, url: typeof req.originalUrl === 'string' ? req.originalUrl : req.url, status: res?.statusCode ?? firstDotted(v, ECS_STATUS),
      reqHeaders: req.headers, resHeaders: res?.headers ?? firstDotted(v, ECS_RESPONSE_HEADERS), sent: first(at, REQUEST_BODY_KEYS) ?? req.body ?? firstDotted(v, ECS_REQUEST_BODY),
      got: first(at, RESPONSE_BODY_KEYS) ?? res?.body ?? firstDotted(v, ECS_RESPONSE_BODY), at,
    };
  }
  const method = firstDotted(v, ECS_METHOD);
  if (verbOf(method) === undefined) return undefined;
  let url = firstDotted(v, ECS_URL);
  const query = dotted(v, 'url.query');
  if (url === dotted(v, 'url.path') && typeof url === 'string' && typeof query === 'string' && query !== '') url = `${url}?${query}`;
  return {
    method, url, status: firstDotted(v, ECS_STATUS), reqHeaders: firstDotted(v, ECS_REQUEST_HEADERS) ?? otelHeaders(v, 'http.request.header.'),
    resHeaders: firstDotted(v, ECS_RESPONSE_HEADERS) ?? otelHeaders(v, 'http.response.header.'), sent: firstDotted(v, ECS_REQUEST_BODY) ?? first(v, REQUEST_BODY_KEYS),
    got: firstDotted(v, ECS_RESPONSE_BODY), at: v,
  };
}

/** OpenTelemetry's header attributes, one a key (`http.request.header.mcp-session-id: ["..."]`), as a headers object. */
function otelHeaders(v: Obj, prefix: string): Obj | undefined {
  let out: Obj | undefined;
  for (const k of Object.keys(v).slice(0, 200)) {
    if (!k.startsWith(prefix) || k.length === prefix.length) continue;
    (out ??= {})[k.slice(prefix.length)] = v[k];
  }
  return out;
}

/** The error a structured logger wrote for a request cut short: pino-http's "request aborted" (not its "failed with status code N" of any 5xx). */
function abortedBy(v: Obj, at: Obj): string | undefined {
  for (const k of ['msg', 'message']) {
    const m = own(v, k) ?? own(at, k);
    if (typeof m === 'string' && /^request aborted$/i.test(m)) return 'request aborted (the connection closed before the response was finished)';
  }
  return undefined;
}

/**
 * An exchange a line: an HTTP method (GET, POST, DELETE...), a URL or path, and its status or error, as flat fields; a
 * POST only with its body logged (a POST line without one says nothing MCP-level, and stays a skipped log line), a GET
 * or DELETE only with a sign of MCP (mcpHint). Or a structured logger's line (pino-http's `req`/`res`, express-winston's
 * `meta`, ECS/OpenTelemetry names) with the request body the developer added to it: its GET, DELETE and body-less
 * lines are skipped.
 */
function isHttpLine(v: Obj): boolean {
  const s = shaped(v);
  if (s !== undefined) return typeof s.url === 'string' && (statusOf(s.status) !== undefined || typeof v.err === 'string') && s.sent !== undefined && s.sent !== null;
  const verb = verbOf(first(v, METHOD_KEYS));
  if (verb === undefined || typeof first(v, URL_KEYS) !== 'string') return false;
  if (statusOf(first(v, STATUS_KEYS)) === undefined && typeof v.error !== 'string') return false;
  return verb === 'POST' ? hasBody(v, REQUEST_BODY_KEYS) : mcpHint(v);
}

/**
 * A structured HTTP logger's line of a POST without the request body (pino-http's and @elastic/ecs-pino-format's
 * defaults, ECS morgan, express-winston without `body` whitelisted, Fastify's "incoming request"): nothing MCP-level to
 * read, counted for the note that says how to log the body.
 */
export function bodilessHttpPost(v: Obj): boolean {
  const s = shaped(v);
  if (s !== undefined) return verbOf(s.method) === 'POST' && (s.sent === undefined || s.sent === null);
  const req = v.req;
  return isObj(req) && verbOf(req.method) === 'POST' && typeof req.url === 'string' && req.body === undefined && !hasBody(v, REQUEST_BODY_KEYS);
}

/**
 * A GET or DELETE line is MCP traffic when it names a session (a header or a field) or an event stream (the GET
 * stream's Accept, a response's Content-Type): a health check or a page's request is not.
 */
function mcpHint(v: Obj): boolean {
  if (typeof first(v, SESSION_KEYS) === 'string') return true;
  for (const h of [first(v, REQUEST_HEADER_KEYS), first(v, RESPONSE_HEADER_KEYS)]) {
    if (!isObj(h)) continue;
    for (const [k, x] of Object.entries(h)) {
      const name = k.toLowerCase();
      if (name === 'mcp-session-id' && typeof x === 'string' && x !== '') return true;
      if ((name === 'accept' || name === 'content-type') && typeof x === 'string' && x.includes('text/event-stream')) return true;
    }
  }
  return false;
}

function stringHeaders(h: unknown): Record<string, string> | undefined {
  if (!isObj(h)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(h)) {
    if (!safeKey(k)) continue;
    if (typeof x === 'string') out[k.toLowerCase()] = x;
    else if (typeof x === 'number') out[k.toLowerCase()] = String(x);
    else if (Array.isArray(x) && x.every((s) => typeof s === 'string')) out[k.toLowerCase()] = x.join(', ');
  }
  return out;
}

/**
 * Names of the time a request took that HTTP loggers write once the response has finished (pino-http, Fastify's
 * "request completed", express-winston, morgan's `:response-time` token), in milliseconds: the line's time is then the
 * request's end, and its start that time less the duration.
 */
const END_DURATION_KEYS = ['responseTime', 'response_time'];

/** ECS's `event.duration`, in nanoseconds (a number, or its digits as text), as milliseconds. */
const nanosAsMs = (v: unknown): number | undefined => {
  const n = msOf(v);
  return n === undefined ? undefined : n / 1e6;
};

/**
 * A logged time moved back by `ms`, in the form it was logged in: epoch milliseconds stay a number, ISO text with a
 * zone stays ISO text in UTC, ISO text without one stays without (so --timezone still applies to it).
 */
function before(t: string | number, ms: number): string | number | undefined {
  const at = parseTimestamp(t);
  if (at === undefined) return undefined;
  const start = Math.round(at - ms);
  if (typeof t === 'number') return start;
  const iso = new Date(start).toISOString();
  return /(?:[zZ]|[+-]\d\d:?\d\d)$/.test(t.trim()) ? iso : iso.slice(0, -1);
}

const timeValue = (t: unknown): string | number | undefined => (typeof t === 'string' || (typeof t === 'number' && Number.isFinite(t)) ? t : undefined);

/**
 * When the request started: ECS's `event.start`; else `event.end`, or the line's own time, less the duration when the
 * line names it as a logger does that writes once the response has finished (END_DURATION_KEYS, ECS's
 * `event.duration`); else the line's time (a fetch wrapper's `durationMs` beside the time it started).
 */
function startTime(v: Obj, at: Obj, took: number | undefined, endLogged: boolean): string | number | undefined {
  const start = timeValue(dotted(v, 'event.start'));
  if (start !== undefined) return start;
  const end = timeValue(dotted(v, 'event.end'));
  const logged = loggedTime(v) ?? (at !== v ? loggedTime(at) : undefined);
  if (took !== undefined && end !== undefined) return before(end, took) ?? logged;
  if (took !== undefined && endLogged && logged !== undefined) return before(logged, took) ?? logged;
  return logged;
}

/** The fields of the line under the names this reader uses, whichever names its logger gave them. */
function pick(v: Obj): Obj {
  const s = shaped(v);
  const at = s?.at ?? v;
  const line: Obj = {};
  const method = s ? s.method : first(v, METHOD_KEYS);
  if (typeof method === 'string') line.method = method.toUpperCase();
  line.url = s ? s.url : first(v, URL_KEYS);
  line.status = statusOf(s ? s.status : first(v, STATUS_KEYS)) ?? null;
  const endTook = msOf(first(at, END_DURATION_KEYS)) ?? nanosAsMs(dotted(v, 'event.duration'));
  const took = endTook ?? msOf(first(at, DURATION_KEYS));
  const time = startTime(v, at, took, endTook !== undefined);
  if (time !== undefined) line.time = time;
  const reqHeaders = s ? s.reqHeaders : first(v, REQUEST_HEADER_KEYS);
  if (isObj(reqHeaders)) line.requestHeaders = reqHeaders;
  const resHeaders = s ? s.resHeaders : first(v, RESPONSE_HEADER_KEYS);
  if (isObj(resHeaders)) line.responseHeaders = resHeaders;
  const sent = s ? s.sent : first(v, REQUEST_BODY_KEYS);
  if (sent !== undefined) line.requestBody = sent;
  const got = s ? s.got : first(v, RESPONSE_BODY_KEYS);
  if (got !== undefined) line.responseBody = got;
  const session = first(at, SESSION_KEYS);
  if (typeof session === 'string' && session !== '') line.session = session;
  if (took !== undefined) line.durationMs = took;
  const error = s ? (typeof v.err === 'string' ? v.err : abortedBy(v, at)) : v.error;
  if (typeof error === 'string') line.error = error;
  else if (isObj(error) && typeof error.message === 'string') line.error = error.message;
  return line;
}

function toExchange(line: HttpLine): ExchangeRecord {
  const rec: ExchangeRecord = { v: 1, kind: 'exchange', method: line.method, url: line.url, status: line.status } as ExchangeRecord;
  if (line.time !== undefined) rec.ts = line.time as ExchangeRecord['ts'];
  const requestHeaders = stringHeaders(line.requestHeaders);
  if (requestHeaders) rec.requestHeaders = requestHeaders;
  const responseHeaders = stringHeaders(line.responseHeaders);
  if (responseHeaders) rec.responseHeaders = responseHeaders;
  if (line.session !== undefined && requestHeaders?.['mcp-session-id'] === undefined) rec.session = line.session;
  if (typeof line.requestBody === 'string') rec.sendText = line.requestBody;
  else if (line.requestBody !== null && line.requestBody !== undefined) rec.send = line.requestBody;
  // A response body logged (even empty) is the body; none, or null, is a body the logger did not keep.
  if (typeof line.responseBody === 'string') rec.recvText = line.responseBody;
  else if (line.responseBody !== null && line.responseBody !== undefined) rec.recv = line.responseBody;
  if (line.durationMs !== undefined) rec.durationMs = line.durationMs;
  if (line.error !== undefined) {
    rec.error = line.error.slice(0, 1000);
    rec.end = line.status === null ? 'error' : 'aborted';
  }
  return rec;
}

function httpLineRecords(v: Obj): AdapterResult {
  const zod = schemas();
  if (!zod) return { error: NEEDS_SCHEMAS };
  const parsed = zod.HttpLineSchema.safeParse(pick(v));
  if (!parsed.success) return { error: `HTTP log line: ${describeZodError(parsed.error)}` };
  if (parsed.data.time === undefined) return { error: 'HTTP log line without a time (fix: log the time of each request, as ISO 8601 text or epoch milliseconds, under "time", "ts", "timestamp" or "@timestamp")' };
  return [toExchange(parsed.data)];
}

/** Which server logger wrote a body-less POST line, by the fields its README's setup leaves (fixed words, never the line's own). */
function loggerName(v: Obj): string {
  const ecs = dotted(v, 'ecs.version') !== undefined;
  if (isObj(v.meta) && isObj(v.meta.req)) return 'express-winston';
  if (ecs && isObj(v.req)) return '@elastic/ecs-pino-format';
  if (ecs && typeof v.message === 'string' && / HTTP\/\d/.test(v.message)) return 'ECS morgan';
  if (ecs) return 'ECS HTTP logger';
  if (isObj(v.req) && isObj(v.res)) return 'pino-http';
  return 'HTTP logger';
}

/**
 * A server HTTP logger's line of a POST without its body (see bodilessHttpPost) that the server answered with an error
 * (4xx, 5xx) and that has a time: no call (no JSON-RPC body), but the server's own account of that POST, offered to the
 * client's attempt of the same status (and session, where the line has the request's Mcp-Session-Id header) near its
 * start, as a gateway's access line is (src/join/gateway-lines.ts); pino-http's "request aborted" with no status (the
 * connection closed before any response head: a hop in between gave up on it, test/fixtures/real-audit74/hop-statuses)
 * is offered to the client's attempt a hop answered 502, 503 or 504. Its time is the request's start where the logger
 * logs at the end with its duration (pino-http's `responseTime`, ECS's `event.duration`). A 2xx is kept by none: it says
 * nothing the client's log does not (nginx keeps its 2xx only as a re-send, which a server's own logger cannot see).
 */
export function bodilessRecords(v: Obj, ctx: AdapterContext, logger = loggerName(v)): CanonicalRecord[] {
  if (fastifyErrorLine(v)) return [];
  const line = pick(v);
  const status = typeof line.status === 'number' ? line.status : undefined;
  const took = typeof line.durationMs === 'number' ? line.durationMs : undefined;
  // pino-http's "request aborted" with no status: the connection closed before the server sent a response head
  const cut = status === undefined && took !== undefined && typeof line.error === 'string' && line.error.startsWith('request aborted');
  if (line.method !== 'POST' || (!cut && status === undefined) || line.time === undefined) return [];
  const sid = stringHeaders(line.requestHeaders)?.['mcp-session-id'];
  const startKnown = took !== undefined || dotted(v, 'event.start') !== undefined;
  if (!cut && status! < 400) {
    // A POST it answered (or logged as answered, ECS morgan's 200 of a request dropped before any response): nothing to
    // say, but where the log's lines are, for the client's POSTs it has no line of (GatewayLines.unseen)
    const rec = {
      v: 1, kind: 'exchange', side: 'gateway', ts: line.time, method: 'POST', url: typeof line.url === 'string' ? line.url : '/',
      requestHeaders: sid !== undefined ? { 'mcp-session-id': sid } : {}, status, responseHeaders: {}, end: 'complete', ...(took !== undefined ? { durationMs: took } : {}),
    } as ExchangeRecord;
    return [Object.assign(rec, { gatewayAccount: { log: 'http-logger', startKnown, state: '--', retries: 0, beforeServerMs: 0, serverHead: true } as GatewayAccount }) as CanonicalRecord];
  }
  const after = took !== undefined ? ` after ${Math.round(took * 10) / 10} ms` : '';
  const said = cut
    ? `the server's ${logger} line shows this POST reached the server and its connection closed${after} before the server sent any response ("request aborted", ${ctx.file}:${ctx.line}): the status the client got is not the server's but a hop's in between, which gave up on it; the server may have gone on with the call`
    : `the server's ${logger} line shows it answered this POST ${status}${after} (${ctx.file}:${ctx.line}): the server itself sent this status, not a hop in between`;
  const rec = {
    v: 1, kind: 'exchange', side: 'gateway', ts: line.time, method: 'POST', url: typeof line.url === 'string' ? line.url : '/',
    requestHeaders: sid !== undefined ? { 'mcp-session-id': sid } : {}, status: status ?? null, responseHeaders: {}, end: cut ? 'aborted' : 'complete', error: said,
    ...(took !== undefined ? { durationMs: took } : {}),
  } as ExchangeRecord;
  // (no duration and no event.start, as ECS morgan's: the time is when the logger wrote the line, the request's end)
  const account: GatewayAccount = { log: 'http-logger', startKnown, state: '--', retries: 0, beforeServerMs: 0, serverHead: true };
  return [Object.assign(rec, { gatewayAccount: account }) as CanonicalRecord];
}

/**
 * Fastify's error handler's line of a request (`reqId`, `req`, `res`, `err`, the error's message; no `responseTime`):
 * the request's "request completed" line follows with its status and duration, so it is no request of its own
 * (test/fixtures/real-audit74/fastify-errors: one 500 was counted twice). pino-http's "request errored" line, the one
 * line of its request, has its `responseTime` and no `reqId`.
 */
function fastifyErrorLine(v: Obj): boolean {
  return (typeof v.reqId === 'string' || typeof v.reqId === 'number') && isObj(v.err) && isObj(v.req) && isObj(v.res) && v.responseTime === undefined;
}

/** The words of Fastify's own logger on a request's last line (lib/log-controller.js). */
const FASTIFY_DONE = new Set(['request completed', 'request errored', 'stream closed prematurely']);
/** Most requests of a Fastify log waiting for their last line: a log is read in order, and a request ends soon. */
const FASTIFY_OPEN = 4096;

const isRpc = (m: unknown): boolean => (Array.isArray(m) ? m.length > 0 && m.every(isRpc) : isObj(m) && m.jsonrpc === '2.0' && (typeof m.method === 'string' || 'result' in m || 'error' in m));

/**
 * Fastify's own logger writes a request in lines tied by `reqId`: "incoming request" (`req`: method, url; no
 * headers), what the app logged with `req.log` (the `body` its Logging docs' preHandler hook logs, "parsed body"),
 * then "request completed" (`res.statusCode`, `responseTime`), "request errored" or "stream closed prematurely".
 */
function fastifyLine(v: Obj): 'incoming' | 'body' | 'done' | undefined {
  if (typeof v.reqId !== 'string' && typeof v.reqId !== 'number') return undefined;
  const req = v.req;
  const res = v.res;
  if (isObj(req) && res === undefined) return v.msg === 'incoming request' && verbOf(req.method) !== undefined && typeof req.url === 'string' ? 'incoming' : undefined;
  if (isObj(res) && req === undefined) return typeof v.msg === 'string' && FASTIFY_DONE.has(v.msg) && statusOf(res.statusCode) !== undefined ? 'done' : undefined;
  return req === undefined && res === undefined && isRpc(v.body) ? 'body' : undefined;
}

interface FastifyRequest {
  time: string | number | undefined;
  method: string;
  url: string;
  /** The request's headers, where a `req` serializer of the app's own logs them (Fastify's default does not). */
  headers?: Obj;
  body?: unknown;
  /** The line that logged the body, and its number: read as the application log line it is when no last line comes. */
  bodyLine?: Obj;
  line?: number;
}

function fastifyOpen(ctx: AdapterContext): Map<string, FastifyRequest> | undefined {
  if (!ctx.state) return undefined;
  let open = ctx.state.get('http-line:fastify') as Map<string, FastifyRequest> | undefined;
  if (!open) ctx.state.set('http-line:fastify', (open = new Map()));
  return open;
}

/** One request of a Fastify log, from its lines: read as one exchange at its last line, when a body was logged. */
function fastifyRecords(kind: 'incoming' | 'body' | 'done', v: Obj, ctx: AdapterContext): AdapterResult {
  const open = fastifyOpen(ctx);
  const id = String(v.reqId);
  const pending = open?.get(id);
  if (kind === 'incoming') {
    const req = v.req as Obj;
    open?.set(id, { time: loggedTime(v), method: String(req.method).toUpperCase(), url: req.url as string, ...(isObj(req.headers) ? { headers: req.headers } : {}) });
    if (open) trimOldest(open, FASTIFY_OPEN);
    return [];
  }
  if (kind === 'body') {
    if (pending === undefined || pending.body !== undefined) return appLogFormat.toRecords(v, ctx);
    Object.assign(pending, { body: v.body, bodyLine: v, line: ctx.line });
    return [];
  }
  if (pending?.body === undefined) {
    open?.delete(id);
    // A body-less request (Fastify's default logger): its error status offered to the client's attempt of it.
    if (pending === undefined || v.msg !== 'request completed') return [];
    const took = msOf(v.responseTime);
    const logged = loggedTime(v);
    const time = pending.time ?? (logged !== undefined && took !== undefined ? before(logged, took) : logged);
    const line: Obj = { method: pending.method, url: pending.url, status: (v.res as Obj).statusCode, ...(time !== undefined ? { time } : {}), ...(took !== undefined ? { durationMs: took } : {}), ...(pending.headers !== undefined ? { headers: pending.headers } : {}) };
    return bodilessRecords(line, ctx, 'Fastify');
  }
  // The line is read again once the schemas are loaded: the request stays open until then.
  if (!schemas()) return { error: NEEDS_SCHEMAS };
  open?.delete(id);
  const took = msOf(v.responseTime);
  const logged = loggedTime(v);
  const line: Obj = { method: pending.method, url: pending.url, status: statusOf((v.res as Obj).statusCode) ?? null, requestBody: pending.body };
  if (pending.headers !== undefined) line.requestHeaders = pending.headers;
  const time = pending.time ?? (logged !== undefined && took !== undefined ? before(logged, took) : logged);
  if (time !== undefined) line.time = time;
  if (took !== undefined) line.durationMs = took;
  if (v.msg === 'stream closed prematurely') line.error = 'stream closed prematurely (the connection closed before the response was finished)';
  return httpLineRecords(line);
}

/** A Fastify request whose body was logged and whose last line never came (a log cut short): its body line, read as the application log line it is. */
function endOfInput(ctx: AdapterContext): { line: number; records: CanonicalRecord[] }[] {
  const open = ctx.state?.get('http-line:fastify') as Map<string, FastifyRequest> | undefined;
  if (!open) return [];
  const out: { line: number; records: CanonicalRecord[] }[] = [];
  for (const p of open.values()) {
    if (p.bodyLine === undefined || p.line === undefined) continue;
    const records = appLogFormat.toRecords(p.bodyLine, { ...ctx, line: p.line });
    if (Array.isArray(records)) out.push({ line: p.line, records });
  }
  open.clear();
  return out;
}

/** One HTTP exchange a line, logged by the app's own code: tried after every named format. */
export const httpLineFormat: JsonFormat = {
  kind: 'json',
  name: 'http-line',
  detect: (v) => fastifyLine(v) !== undefined || isHttpLine(v),
  toRecords(v, ctx) {
    const fastify = fastifyLine(v);
    return fastify !== undefined ? fastifyRecords(fastify, v, ctx) : httpLineRecords(v);
  },
  endOfInput,
  limits: {
    ...FULL_VIEW,
    notes: [
      "a developer's own log of each HTTP exchange: the line's time is taken as the request's start, less the duration where the line names it as a logger that writes once the response finished does (pino-http's and Fastify's `responseTime`, express-winston's, ECS's `event.duration`; ECS's `event.start` when given); a response body the line does not hold (a middleware that logs the request body and the status) leaves what the server answered unobservable",
    ],
  },
};
