// Adapter for Caddy's logs (2.6, JSON or `format console`): its access log (the `log` directive, http.log.access.*) and the errors of its default logger (http.log.error.*, reverse_proxy's "aborting with incomplete response"), as a gateway's account of each POST it failed, with the session id the request carried.
import type { ExchangeRecord } from '../schema/record.js';
import type { CaddyLine } from '../schema/access-log.js';
import { NEEDS_SCHEMAS, schemas } from '../schema/lazy.js';
import type { AdapterContext, AdapterResult, GatewayAccount, JsonFormat, SourceLimits, TextFormat } from './adapter.js';
import { parseTimestamp } from './time.js';
import { describeZodError } from './zod-error.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The loggers read: the access log, the error log of a site, and reverse_proxy's own lines (a stream it cut). */
const isAccess = (logger: string): boolean => logger === 'http.log.access' || logger.startsWith('http.log.access.');
const isError = (logger: string): boolean => logger === 'http.log.error' || logger.startsWith('http.log.error.');
const PROXY = 'http.handlers.reverse_proxy';

/** A Caddy log line about a request: `level`, `ts`, `logger`, `msg`, and for the access log a `request` object. */
function isCaddyLine(v: Obj): boolean {
  if (typeof v.logger !== 'string' || typeof v.msg !== 'string' || typeof v.level !== 'string') return false;
  if (typeof v.ts !== 'number' && typeof v.ts !== 'string') return false;
  if (isAccess(v.logger)) return isObj(v.request) && typeof v.request.method === 'string';
  return isError(v.logger) || v.logger === PROXY;
}

/** A header's first value (Caddy writes each as Go keeps it: a list of values, under its canonical name). */
function header(h: CaddyLine['resp_headers'], name: string): string | undefined {
  if (!h) return undefined;
  for (const [k, v] of Object.entries(h)) {
    if (k.toLowerCase() !== name) continue;
    const first = Array.isArray(v) ? v[0] : v;
    return typeof first === 'string' && first !== '' ? first : undefined;
  }
  return undefined;
}

const GO_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `duration`: seconds (Caddy's default), or a Go duration's text (`duration_format string`: "1.5s", "2m3.1s"). */
function durationMs(d: CaddyLine['duration']): number | undefined {
  if (typeof d === 'number') return Number.isFinite(d) && d >= 0 ? d * 1000 : undefined;
  if (typeof d !== 'string' || !/^(?:\d+(?:\.\d+)?(?:ns|us|µs|μs|ms|s|m|h))+$/.test(d)) return undefined;
  let ms = 0;
  for (const m of d.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|μs|ms|s|m|h)/g)) ms += Number(m[1]) * GO_UNITS[m[2]!]!;
  return ms;
}

/** `ts`: epoch seconds (Caddy's default; milliseconds or nanoseconds with another time_format), or a text time. */
function timeMs(ts: CaddyLine['ts'], timezone: string | undefined): number | undefined {
  if (typeof ts === 'string') return parseTimestamp(ts, timezone);
  if (!Number.isFinite(ts) || ts <= 0) return undefined;
  return ts < 1e11 ? ts * 1000 : ts < 1e14 ? ts : ts / 1e6;
}

/** Caddy's own words about a proxied request, and what they mean for it: whether the MCP server saw it and who answered. */
function meaningOf(words: string, stream: boolean): string {
  if (/context canceled/.test(words)) return 'the client closed its connection first: Caddy stopped waiting for the MCP server (its access log has status 0 for a request no response head was sent to)';
  if (/dial tcp|connect: connection refused|no such host/.test(words)) return 'the request never reached that upstream: Caddy could not connect to it and answered the client itself (502) once its retries (lb_try_duration, lb_retries) were spent';
  if (/no upstreams available/.test(words)) return 'Caddy had no upstream it could send it to and answered the client itself (503): the MCP server never saw it';
  if (/timeout awaiting response headers/.test(words)) return 'the MCP server had the request and sent no response head within response_header_timeout: Caddy closed the server\'s connection and answered the client itself (504); the tool may have run';
  if (/invalid Read on closed Body/.test(words)) return 'Caddy tried this POST on another upstream (lb_try_duration, lb_retries) after a try that failed, but that try had already read the request body and Caddy 2.6 keeps none for a retry: it answered the client itself (502); the upstream in this line never got the request, the one tried before may have had it (after a timeout) or not (after a refused connection)';
  if (/requestbody|request body too large/.test(words)) return 'Caddy\'s request_body max_size stopped the request body while it was being passed on: Caddy answered 502 itself (not 413), and the MCP server got only part of the body';
  if (stream && /i\/o timeout/.test(words)) return 'the MCP server\'s response had begun (its head was sent on) and then it was silent for read_timeout: Caddy cut the stream';
  if (stream && /EOF|connection reset|broken pipe/.test(words)) return 'the MCP server\'s response had begun and its connection closed before the end (the server process died or closed it): Caddy cut the stream';
  if (/i\/o timeout/.test(words)) return 'the MCP server was silent past read_timeout or write_timeout before any response head: Caddy answered the client itself (502); the tool may have run';
  if (/EOF|connection reset|broken pipe/.test(words)) return 'the MCP server\'s connection closed or was reset before any response head (its process died, or the connection was left broken by an earlier request): Caddy answered the client itself (502); the tool may have run';
  return 'what the MCP server saw of it is not in this line';
}

const short = (s: string, n = 200): string => (s.length > n ? `${s.slice(0, n)}...` : s);

function account(log: 'caddy-access' | 'caddy-error', startKnown: boolean, extra: Partial<GatewayAccount> = {}): GatewayAccount {
  return { log, startKnown, state: '--', retries: 0, beforeServerMs: 0, serverHead: false, ...extra };
}

function exchange(line: CaddyLine, ts: number, took: number | undefined, status: number | null, end: 'complete' | 'error', said: string): ExchangeRecord {
  const sid = header(line.request?.headers, 'mcp-session-id');
  return {
    v: 1,
    kind: 'exchange',
    // a gateway's account: Caddy is the server of its clients and the client of its upstream, and its lines hold no
    // JSON-RPC request, so they are no attempts; they answer the client's (src/join/gateway-lines.ts)
    side: 'gateway',
    ts,
    method: line.request?.method ?? 'POST',
    url: line.request?.uri ?? '',
    // only the session id is kept (the line's Authorization and Cookie are Caddy's to redact: 2.6 writes them empty)
    requestHeaders: sid !== undefined ? { 'mcp-session-id': sid } : {},
    status,
    responseHeaders: {},
    end,
    error: said,
    ...(took !== undefined ? { durationMs: Math.round(took) } : {}),
  } as ExchangeRecord;
}

/** One access log line: a POST Caddy failed (4xx, 5xx), one the client left before any head (status 0), or an SSE stream that carried no byte. */
function accessRecords(line: CaddyLine, endMs: number): AdapterResult {
  const req = line.request!;
  // GET streams, DELETEs, OPTIONS: no call (the SDK reconnects a cut GET stream): counted as skipped
  if (req.method !== 'POST') return [];
  const status = line.status ?? 0;
  const size = line.size ?? 0;
  const took = durationMs(line.duration);
  const type = header(line.resp_headers, 'content-type');
  // Caddy's own answer carries no header of the upstream's (its error responses have Server alone)
  const own = Object.keys(line.resp_headers ?? {}).every((k) => k.toLowerCase() === 'server');
  const after = took !== undefined ? ` after ${Math.round(took)} ms` : '';
  let said: string;
  if (status === 0) said = `Caddy's access log has this POST with status 0${after}: the client closed its connection before any response head, and Caddy sent it nothing`;
  else if (status >= 400) said = `Caddy's access log has this POST answered with HTTP ${status}${after}${own ? ': Caddy answered it itself (no header of the upstream\'s in resp_headers; its error log says why)' : ': the upstream\'s own answer, passed on (its headers are in resp_headers)'}`;
  else if (status >= 200 && status < 300 && size === 0 && type?.startsWith('text/event-stream')) said = `Caddy's access log has this POST answered ${status} (text/event-stream)${after} with no body byte sent (size 0): the stream's head went out and nothing after it (the stream was cut, or the client left before its answer; Caddy's error log says which)`;
  // a 2xx with a body: nothing a client's or server's log does not show (the access log keeps no body)
  else return [];
  const ts = took !== undefined ? endMs - took : endMs;
  const rec = exchange(line, ts, took, status === 0 ? null : status, status === 0 ? 'error' : 'complete', said);
  return [Object.assign(rec, { gatewayAccount: account('caddy-access', took !== undefined) })];
}

/** One error log line about a request (http.log.error: reverse_proxy's error for the status Caddy sent). */
function errorRecords(line: CaddyLine, endMs: number): AdapterResult {
  if (!line.request || line.request.method !== 'POST') return [];
  const took = durationMs(line.duration);
  const status = line.status ?? null;
  const said = `Caddy's error log [${short(line.level, 10)}]${line.err_id !== undefined ? ` ${short(line.err_id, 40)}` : ''}: ${short(line.msg)}${status !== null ? ` (HTTP ${status})` : ''}; ${meaningOf(line.msg, false)}`;
  const rec = exchange(line, took !== undefined ? endMs - took : endMs, took, status, 'error', said);
  return [Object.assign(rec, { gatewayAccount: account('caddy-error', took !== undefined) })];
}

/**
 * reverse_proxy's "aborting with incomplete response" (its `error`: "unexpected EOF", "read tcp ...: i/o timeout"): a
 * response that had begun, cut. The line names no request: it is offered to a client attempt whose stream ended then.
 * Its "reading from backend" line before it says the same (skipped), and "context canceled" is a client that closed a
 * stream (each GET stream at the end of a session): skipped.
 */
function proxyRecords(line: CaddyLine, endMs: number): AdapterResult {
  if (line.msg !== 'aborting with incomplete response' || line.error === undefined || /context canceled/.test(line.error)) return [];
  const said = `Caddy's error log [${short(line.level, 10)}]: reverse_proxy aborting with incomplete response (${short(line.error)}); ${meaningOf(line.error, true)}`;
  const rec = exchange(line, endMs, undefined, null, 'error', said);
  return [Object.assign(rec, { gatewayAccount: account('caddy-error', false, { unnamed: true }) })];
}

function caddyToRecords(v: Obj, ctx: AdapterContext): AdapterResult {
  const zod = schemas();
  if (!zod) return { error: NEEDS_SCHEMAS };
  const parsed = zod.CaddyLineSchema.safeParse(v);
  if (!parsed.success) return { error: `Caddy log line: ${describeZodError(parsed.error)}` };
  const line = parsed.data;
  const endMs = timeMs(line.ts, ctx.timezone);
  if (endMs === undefined) return { error: `Caddy log line whose ts is no time: ${JSON.stringify(String(line.ts).slice(0, 40))}` };
  if (isAccess(line.logger)) return line.request ? accessRecords(line, endMs) : [];
  if (isError(line.logger)) return errorRecords(line, endMs);
  return proxyRecords(line, endMs);
}

/** `format console`: `2026/12/06 19:39:20.097<TAB>INFO<TAB>(the level in ANSI colours, to a file too) http.log.access.log0<TAB>handled request<TAB>{...}` (local time). */
const CONSOLE = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)\t(?:\x1b\[\d+m)?([A-Z]+)(?:\x1b\[0m)?\t(http\.log\.(?:access|error)(?:\.[\w.-]+)?|http\.handlers\.reverse_proxy)\t([^\t]*)(?:\t(\{.*\}))?$/s;

function consoleToRecords(text: string, ctx: AdapterContext): AdapterResult {
  const m = CONSOLE.exec(text);
  if (!m) return { error: 'not a Caddy console log line' };
  let fields: unknown = {};
  if (m[8] !== undefined) {
    try {
      fields = JSON.parse(m[8]);
    } catch {
      return { error: 'Caddy console log line whose fields are not JSON' };
    }
  }
  if (!isObj(fields)) return { error: 'Caddy console log line whose fields are not a JSON object' };
  return caddyToRecords({ ...fields, level: m[5]!.toLowerCase(), ts: `${m[1]}-${m[2]}-${m[3]} ${m[4]}`, logger: m[6], msg: m[7] }, ctx);
}

const LIMITS: SourceLimits = {
  http: true,
  bodies: false,
  bodiesNote: 'no bodies, no JSON-RPC method or id: no attempts of its own',
  session: true,
  // no ids at all (none to stringify)
  typedIds: true,
  gatewayAccount: true,
  notes: [
    "no request or response body: a line is no attempt; a POST Caddy answered with an error (4xx, 5xx), logged with status 0 (the client left before any head), or answered 200 text/event-stream with no byte of body, answers the client's attempt of that status, session (Mcp-Session-Id) and start (ts less duration, within a second), given with the client's log (with the server's log alone, the server's request of that start and session that got no answer, or the server's own error of that status); its error log's reason (dial tcp, timeout awaiting response headers, request_body's max_size, reverse_proxy aborting with incomplete response) is named in the why of the attempt it explains; alone, such lines are counted in a note, by status or reason; other 2xx lines, GET streams and DELETEs are counted as skipped",
    "reverse_proxy's \"aborting with incomplete response\" names no request: it joins the client attempt whose stream ended within a second of it; Caddy's retries (lb_try_duration, lb_retries) are not in its logs: a line is one request, however many upstreams it tried",
  ],
};

export const caddyFormat: JsonFormat = {
  kind: 'json',
  name: 'caddy',
  detect: (v) => isCaddyLine(v),
  toRecords: (v, ctx) => caddyToRecords(v, ctx),
  limits: LIMITS,
};

export const caddyConsoleFormat: TextFormat = {
  kind: 'text',
  name: 'caddy-console',
  detectText: (line) => line.length > 30 && line.charCodeAt(4) === 47 && line.includes('\thttp.') && CONSOLE.test(line),
  textToRecords: (line, ctx) => consoleToRecords(line, ctx),
  limits: { ...LIMITS, notes: [...LIMITS.notes, 'the console format\'s time is local with no zone (--timezone, default UTC), to the millisecond'] },
};
