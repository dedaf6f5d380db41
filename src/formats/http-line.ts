// Adapter for a developer's own HTTP log line: one exchange a line, as a fetch wrapper or a server middleware writes it (method, URL, status, headers, bodies), read as the canonical exchange.
import type { ExchangeRecord } from '../schema/record.js';
import type { HttpLine } from '../schema/http-line.js';
import { NEEDS_SCHEMAS, schemas } from '../schema/lazy.js';
import { FULL_VIEW, type AdapterResult, type JsonFormat } from './adapter.js';
import { loggedTime } from './app-log.js';
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

/** pino-http's shape: `req` {method, url, headers} and `res` {statusCode, headers} beside the line's own fields. */
function nested(v: Obj): { req: Obj; res: Obj } | undefined {
  return isObj(v.req) && isObj(v.res) && verbOf(v.req.method) !== undefined && typeof v.req.url === 'string' ? { req: v.req, res: v.res } : undefined;
}

/**
 * An exchange a line: an HTTP method (GET, POST, DELETE...), a URL or path, and its status or error, as flat fields; a
 * POST only with its body logged (a POST line without one says nothing MCP-level, and stays a skipped log line), a GET
 * or DELETE only with a sign of MCP (mcpHint). Or pino-http's `req`/`res` objects with the request body beside them.
 */
function isHttpLine(v: Obj): boolean {
  const n = nested(v);
  if (n !== undefined) return (statusOf(n.res.statusCode) !== undefined || typeof v.err === 'string') && (hasBody(v, REQUEST_BODY_KEYS) || hasBody(n.req, ['body']));
  const verb = verbOf(first(v, METHOD_KEYS));
  if (verb === undefined || typeof first(v, URL_KEYS) !== 'string') return false;
  if (statusOf(first(v, STATUS_KEYS)) === undefined && typeof v.error !== 'string') return false;
  return verb === 'POST' ? hasBody(v, REQUEST_BODY_KEYS) : mcpHint(v);
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

/** The fields of the line under the names this reader uses, whichever names its logger gave them. */
function pick(v: Obj): Obj {
  const n = nested(v);
  const line: Obj = {};
  const method = n ? n.req.method : first(v, METHOD_KEYS);
  if (typeof method === 'string') line.method = method.toUpperCase();
  line.url = n ? n.req.url : first(v, URL_KEYS);
  line.status = statusOf(n ? n.res.statusCode : first(v, STATUS_KEYS)) ?? null;
  const time = loggedTime(v);
  if (time !== undefined) line.time = time;
  const reqHeaders = n ? n.req.headers : first(v, REQUEST_HEADER_KEYS);
  if (isObj(reqHeaders)) line.requestHeaders = reqHeaders;
  const resHeaders = n ? n.res.headers : first(v, RESPONSE_HEADER_KEYS);
  if (isObj(resHeaders)) line.responseHeaders = resHeaders;
  const sent = first(v, REQUEST_BODY_KEYS) ?? n?.req.body;
  if (sent !== undefined) line.requestBody = sent;
  const got = first(v, RESPONSE_BODY_KEYS) ?? n?.res.body;
  if (got !== undefined) line.responseBody = got;
  const session = first(v, SESSION_KEYS);
  if (typeof session === 'string' && session !== '') line.session = session;
  const took = msOf(first(v, DURATION_KEYS));
  if (took !== undefined) line.durationMs = took;
  const error = n ? v.err : v.error;
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
  if (parsed.data.time === undefined) return { error: 'HTTP log line without a time (fix: log the time of each request, as ISO 8601 text or epoch milliseconds, under "time", "ts" or "timestamp")' };
  return [toExchange(parsed.data)];
}

/** One HTTP exchange a line, logged by the app's own code: tried after every named format. */
export const httpLineFormat: JsonFormat = {
  kind: 'json',
  name: 'http-line',
  detect: isHttpLine,
  toRecords: httpLineRecords,
  limits: {
    ...FULL_VIEW,
    notes: [
      "a developer's own log of each HTTP exchange: the line's time is taken as the request's start; a response body the line does not hold (a middleware that logs the request body and the status) leaves what the server answered unobservable",
    ],
  },
};
