// Adapter for MCP Inspector exports: protocol history entries (a JSON-RPC message, with its response when one came) and network log entries (whole HTTP exchanges).
import type { ExchangeRecord, MessageRecord } from '../schema/record.js';
import { FULL_VIEW, MESSAGE_LEVEL, type AdapterResult, type JsonFormat } from './adapter.js';
import { httpStatus, isObj, num, safeKey, str, type Obj } from './values.js';
import { durationOf, parseTimestamp } from './time.js';

const DIRECTIONS = new Set(['request', 'response', 'notification']);

/** A protocol entry: `{id, timestamp, direction, origin?, message, response?, duration?}` (Inspector v2 `MessageEntry`). */
function isProtocolEntry(v: Obj): boolean {
  return typeof v.direction === 'string' && DIRECTIONS.has(v.direction) && isObj(v.message) && (v.origin === 'client' || v.origin === 'server' || 'response' in v || 'duration' in v);
}

/** A network entry: `{id, timestamp, method, url, requestHeaders, responseStatus?, ..., category}` (Inspector v2 `FetchRequestEntry`). */
function isNetworkEntry(v: Obj): boolean {
  // (An `error` alone makes no Inspector entry: a fetch wrapper's own line of a failed request has one too, and no `timestamp`.)
  return typeof v.url === 'string' && typeof v.method === 'string' && isObj(v.requestHeaders) && ('responseStatus' in v || ('error' in v && 'timestamp' in v) || v.category === 'transport' || v.category === 'auth');
}

function headers(h: unknown): Record<string, string> | undefined {
  if (!isObj(h)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (safeKey(k) && typeof v === 'string') out[k] = v;
  return out;
}

/**
 * A request the Inspector could not send, recorded with its `clientError` and no response: "HTTP 503 Service
 * Unavailable: Error POSTing to endpoint: <body>" or "fetch failed". It becomes the HTTP exchange that failed, so the
 * outcome is HTTP_ERROR with its status and what the body said, or NO_RESPONSE with the error.
 */
function failedSend(v: Obj, error: string, ts: string | number): ExchangeRecord {
  const rec: ExchangeRecord = { v: 1, kind: 'exchange', ts: ts as string, side: 'client', method: 'POST', send: v.message, status: null };
  const duration = durationOf(num(v.duration));
  if (duration !== undefined) rec.durationMs = duration;
  const http = /^HTTP (\d{3})\b[^:]*(?::\s*(?:Error POSTing to endpoint:\s*)?(.*))?$/s.exec(error);
  const status = http ? httpStatus(Number(http[1])) : undefined;
  if (status !== undefined) {
    rec.status = status;
    rec.recvText = (http![2] ?? '').slice(0, 10_000);
  } else {
    rec.error = error.slice(0, 1000);
    rec.end = 'error';
  }
  return rec;
}

function protocolRecords(v: Obj): AdapterResult {
  // origin says who sent `message` (the Inspector is the client); older exports have none: requests and
  // notifications were then the Inspector's own, responses the server's.
  const origin = v.origin === 'client' || v.origin === 'server' ? v.origin : v.direction === 'response' ? 'server' : 'client';
  const sent: 'c2s' | 's2c' = origin === 'client' ? 'c2s' : 's2c';
  const ts = str(v.timestamp) ?? num(v.timestamp);
  const clientError = str(v.clientError);
  if (clientError !== undefined && v.response === undefined && sent === 'c2s' && v.direction === 'request' && ts !== undefined) return [failedSend(v, clientError, ts)];
  const first: MessageRecord = { v: 1, kind: 'message', direction: sent, message: v.message };
  if (ts !== undefined) first.ts = ts;
  const out: MessageRecord[] = [first];
  if (isObj(v.response)) {
    const back: MessageRecord = { v: 1, kind: 'message', direction: sent === 'c2s' ? 's2c' : 'c2s', message: v.response };
    const start = parseTimestamp(ts);
    const duration = durationOf(num(v.duration));
    if (start !== undefined) back.ts = new Date(start + (duration ?? 0)).toISOString();
    out.push(back);
  }
  return out;
}

function networkRecord(v: Obj): AdapterResult {
  const rec: ExchangeRecord = {
    v: 1,
    kind: 'exchange',
    ts: (str(v.timestamp) ?? num(v.timestamp)) as string,
    side: 'client',
    method: String(v.method),
    url: String(v.url),
    status: httpStatus(v.responseStatus) ?? null,
  };
  const reqHeaders = headers(v.requestHeaders);
  if (reqHeaders) rec.requestHeaders = reqHeaders;
  const resHeaders = headers(v.responseHeaders);
  if (resHeaders) rec.responseHeaders = resHeaders;
  const body = str(v.requestBody);
  if (body !== undefined) rec.sendText = body;
  // The Inspector leaves responseBody out for a long-lived GET stream and when reading the body failed: not captured.
  const recv = str(v.responseBody);
  if (recv !== undefined) rec.recvText = recv;
  const duration = durationOf(num(v.duration));
  if (duration !== undefined) rec.durationMs = duration;
  const error = str(v.error);
  if (error !== undefined) {
    rec.error = error;
    rec.end = rec.status === null ? 'error' : 'aborted';
  }
  return [rec];
}

const hasTime = (v: Obj) => str(v.timestamp) !== undefined || num(v.timestamp) !== undefined;
const OWN_CLIENT = 'the Inspector is its own client: this is what the Inspector sent and got, not what a production client did';

/** The Inspector's History (protocol) export: JSON-RPC messages, no HTTP layer. */
export const inspectorFormat: JsonFormat = {
  kind: 'json',
  name: 'inspector',
  detect: isProtocolEntry,
  toRecords: (v) => (hasTime(v) ? protocolRecords(v) : { error: 'MCP Inspector history entry without a timestamp' }),
  limits: { ...MESSAGE_LEVEL, notes: [OWN_CLIENT] },
};

/** The Inspector's Network export: each HTTP request it made, with status, headers and bodies. */
export const inspectorNetworkFormat: JsonFormat = {
  kind: 'json',
  name: 'inspector-network',
  detect: isNetworkEntry,
  toRecords: (v) => (hasTime(v) ? networkRecord(v) : { error: 'MCP Inspector network entry without a timestamp' }),
  limits: {
    ...FULL_VIEW,
    notes: [OWN_CLIENT, 'durations are time to the response head; the Inspector redacts secrets in the bodies it keeps and keeps no body for a long-lived GET stream'],
  },
};
