// Adapter for nginx's default access log (`combined`, `common`, and combined with $request_time $upstream_response_time $upstream_status $upstream_addr appended) and Apache httpd's, which shares its layout: a gateway's account of each POST it answered with an error, without bodies.
import type { ExchangeRecord } from '../schema/record.js';
import type { NginxCombinedLine } from '../schema/access-log.js';
import { NEEDS_SCHEMAS, schemas } from '../schema/lazy.js';
import type { AdapterResult, GatewayAccount, TextFormat } from './adapter.js';
import { describeZodError } from './zod-error.js';

const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };

/**
 * `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"`
 * (the referer and user agent are what `combined` adds to `common`), then whatever a custom format appends.
 */
const COMBINED = /^(\S+) \S+ \S+ \[(\d{2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})\] "((?:[^"\\]|\\.)*)" (\d{3}) (\d+|-)(?: "(?:[^"\\]|\\.)*" "(?:[^"\\]|\\.)*")?(.*)$/;
/** The request line: `POST /mcp HTTP/1.1` (nginx writes a broken one as it came, which is no request to read). */
const REQUEST = /^([A-Z]+) (\S+)(?: HTTP\/[\d.]+)?$/;
/** What a format appends: `key=value` or `key="value"`, a quoted text, or a bare value (lists as nginx writes them: `a, b`). */
const TAIL_TOKEN = /(\w+)=(?:"([^"]*)"|([^\s,]+(?:, [^\s,]+)*))|"([^"]*)"|([^\s,]+(?:, [^\s,]+)*)/g;
const SECONDS = /^\d+(?:\.\d+)?$/;
const SECONDS_LIST = /^(?:\d+(?:\.\d+)?|-)(?:, (?:\d+(?:\.\d+)?|-))*$/;
const STATUS_LIST = /^(?:\d{3}|-)(?:, (?:\d{3}|-))*$/;

/** The names a custom format gives the appended variables (nginx's blog's `rt=`, `urt=`..., or the variables' own). */
const KEYS: Record<string, 'request_time' | 'upstream_response_time' | 'upstream_status' | 'upstream_addr'> = {
  rt: 'request_time', request_time: 'request_time',
  urt: 'upstream_response_time', upstream_response_time: 'upstream_response_time',
  us: 'upstream_status', ups: 'upstream_status', upstream_status: 'upstream_status',
  ua: 'upstream_addr', upstream: 'upstream_addr', upstream_addr: 'upstream_addr',
};

type Tail = Pick<NginxCombinedLine, 'request_time' | 'upstream_response_time' | 'upstream_status' | 'upstream_addr'>;

/**
 * The appended variables: named ones by their key; bare ones in the order of the README's format (`$request_time
 * $upstream_response_time $upstream_status $upstream_addr`), as long as each looks like what it should be. Anything
 * else (another custom format's fields, `" : "` lists of an internal redirect) is left unread.
 */
function readTail(tail: string): Tail {
  const out: Tail = {};
  if (tail.trim() === '' || tail.includes(' : ')) return out;
  const order = ['request_time', 'upstream_response_time', 'upstream_status', 'upstream_addr'] as const;
  const fits = [SECONDS, SECONDS_LIST, STATUS_LIST, /^\S/] as const;
  let next = 0;
  for (const m of tail.matchAll(TAIL_TOKEN)) {
    if (m[1] !== undefined) {
      const key = KEYS[m[1]];
      if (key) out[key] = m[2] ?? m[3]!;
      continue;
    }
    const v = (m[4] ?? m[5])!;
    if (next < order.length && fits[next]!.test(v)) out[order[next++]!] = v;
    else next = order.length; // the positional reading stops at the first value that does not fit
  }
  return out;
}

/**
 * What Apache's LogFormat appends after `combined`, as the README's `mcp` format has it: `%D` (microseconds: an integer,
 * where nginx's `$request_time` always has a decimal point), then optionally `"%{Mcp-Session-Id}i"` and
 * `"%{Mcp-Session-Id}o"`.
 */
const APACHE_TAIL = /^ (\d+)(?: "([^"\s]*)")?(?: "([^"\s]*)")?(?: .*)?$/;

/** Splits a line, or undefined when it is not nginx's access log (the detector's test too). */
function split(line: string): Record<string, unknown> | undefined {
  const m = COMBINED.exec(line);
  if (!m) return undefined;
  const [, addr, d, mon, y, h, mi, s, sign, zh, zm, request, status, bytes, tail] = m as unknown as string[];
  const month = MONTHS[mon!];
  const req = REQUEST.exec(request!);
  if (month === undefined || !req) return { invalid: `nginx access log line whose request is not "METHOD URI HTTP/x": ${JSON.stringify(request!.slice(0, 60))}` };
  const offsetMin = (sign === '-' ? -1 : 1) * (Number(zh) * 60 + Number(zm));
  const endMs = Date.UTC(Number(y), month, Number(d), Number(h), Number(mi), Number(s)) - offsetMin * 60_000;
  // Apache's line: `%b` writes "-" for a response with no body byte (nginx's $body_bytes_sent writes 0), or %D appended
  const ap = APACHE_TAIL.exec(tail ?? '');
  if (ap || bytes === '-') {
    return {
      remote_addr: addr, endMs, request_method: req[1], request_uri: req[2], status: Number(status), body_bytes_sent: bytes, apache: true,
      ...(ap ? { duration_us: ap[1], ...(ap[2] !== undefined ? { session_sent: ap[2] } : {}), ...(ap[3] !== undefined ? { session_answered: ap[3] } : {}) } : {}),
    };
  }
  return { remote_addr: addr, endMs, request_method: req[1], request_uri: req[2], status: Number(status), body_bytes_sent: bytes, ...readTail(tail ?? '') };
}

const value = (v: string | undefined): string | undefined => (v === undefined || v === '' || v === '-' ? undefined : v);

/** What the line says of the upstream, for the attempt's why: the upstreams nginx tried and what it logged for each. */
function upstreamSaid(line: NginxCombinedLine): string {
  const addrs = value(line.upstream_addr)?.split(', ');
  const statuses = value(line.upstream_status)?.split(', ');
  if (line.upstream_status === undefined && line.upstream_addr === undefined) return '';
  if (!addrs && !statuses) return ': no upstream was tried, nginx answered it itself ($upstream_addr "-")';
  if (addrs && statuses && addrs.length === statuses.length) {
    const tries = addrs.map((a, i) => `${a} ${statuses[i] === '-' ? 'no status' : statuses[i]}`).join(', then ');
    return addrs.length > 1 ? ` (upstreams tried, proxy_next_upstream: ${tries})` : ` (upstream ${tries})`;
  }
  return ` (upstream status ${line.upstream_status ?? '-'}, upstream ${line.upstream_addr ?? '-'})`;
}

function combinedToRecords(text: string): AdapterResult {
  const parts = split(text);
  if (!parts) return { error: 'not an nginx access log line' };
  if (typeof parts.invalid === 'string') return { error: parts.invalid };
  const zod = schemas();
  if (!zod) return { error: NEEDS_SCHEMAS };
  const parsed = zod.NginxCombinedLineSchema.safeParse(parts);
  if (!parsed.success) return { error: `nginx access log line: ${describeZodError(parsed.error)}` };
  const line = parsed.data;
  if (line.apache) return apacheToRecords(line);
  // Only a POST nginx answered with an error (or 499: the client left first) is kept: it may answer a client's attempt
  // that the client's log has. A 2xx, a GET stream or a DELETE says nothing a client's or server's log does not.
  // One exception: a POST nginx sent to more than one upstream ($upstream_addr "a, b": proxy_next_upstream re-sent it),
  // whatever the last one answered: the gateway's re-send, which no client's log shows.
  const resent = (value(line.upstream_addr)?.split(', ').length ?? 0) > 1;
  if (line.request_method !== 'POST' || (line.status < 400 && !resent)) return [];
  const took = line.request_time !== undefined && SECONDS.test(line.request_time) ? Math.round(Number(line.request_time) * 1000) : undefined;
  // $time_local is when the request ended, to the second; with $request_time the start is that much before it.
  const ts = line.endMs - (took ?? 0);
  const said = line.status === 499
    ? `nginx's access log has this POST with 499, its own code for a client that closed the connection before any response${upstreamSaid(line)}`
    : line.status < 400
      ? `nginx's access log has this POST answered with HTTP ${line.status}${upstreamSaid(line)}: the gateway sent it again to its next upstream, which the client's log cannot show`
      : `nginx's access log has this POST answered with HTTP ${line.status}${upstreamSaid(line)}`;
  const rec: ExchangeRecord = {
    v: 1,
    kind: 'exchange',
    // a gateway's account: nginx is the server of its clients and the client of its upstream, and its lines name no
    // session and hold no JSON-RPC request, so they are no attempts; they answer the client's (src/join/gateway-lines.ts)
    side: 'gateway',
    ts,
    method: 'POST',
    url: line.request_uri,
    requestHeaders: {},
    status: line.status,
    responseHeaders: {},
    end: 'complete',
    error: said,
    ...(took !== undefined ? { durationMs: took } : {}),
  };
  const upstreams = value(line.upstream_addr)?.split(', ').length ?? 1;
  const account: GatewayAccount = { log: 'nginx-access', startKnown: took !== undefined, state: '--', retries: upstreams - 1, beforeServerMs: 0, serverHead: false };
  // A re-sent POST answered 2xx: one of the many 2xx POSTs of its second, which whole seconds cannot tell apart.
  if (line.status < 400) account.countOnly = true;
  return [Object.assign(rec, { gatewayAccount: account })];
}

/**
 * Apache httpd's line (told by `%b`'s "-" or `%D` appended): `%t` is when Apache received the request (nginx's
 * `$time_local` is when it ended), `%D` how long it took. Kept: a POST answered with an error (4xx, 5xx), and a POST
 * answered 200 of which Apache sent no body byte (`%b` "-": an SSE stream cut before its first event, or one the client
 * gave up on before any); each goes to the client attempt of that status (and session, with `%{Mcp-Session-Id}i`)
 * that started within a second of it.
 */
function apacheToRecords(line: NginxCombinedLine): AdapterResult {
  const noBody = line.body_bytes_sent === '-';
  if (line.request_method !== 'POST' || !(line.status >= 400 || (line.status === 200 && noBody))) return [];
  const took = line.duration_us !== undefined ? Math.round(Number(line.duration_us) / 1000) : undefined;
  const sent = value(line.session_sent);
  const after = took !== undefined ? ` after ${took} ms` : '';
  const said = line.status >= 400
    ? `Apache's access log has this POST answered with HTTP ${line.status}${after}`
    : `Apache's access log has this POST answered with HTTP 200 and no byte of body${after} (%b "-"): the response head went out and no event followed it (a stream cut before its first event, ProxyTimeout, or a client that gave up before any)`;
  const rec: ExchangeRecord = {
    v: 1,
    kind: 'exchange',
    // a gateway's account, as nginx's lines are (src/join/gateway-lines.ts)
    side: 'gateway',
    ts: line.endMs,
    method: 'POST',
    url: line.request_uri,
    requestHeaders: sent !== undefined ? { 'mcp-session-id': sent } : {},
    status: line.status,
    responseHeaders: {},
    end: 'complete',
    error: said,
    ...(took !== undefined ? { durationMs: took } : {}),
  };
  const account: GatewayAccount = { log: 'apache-access', startKnown: true, state: '--', retries: 0, beforeServerMs: 0, serverHead: false };
  return [Object.assign(rec, { gatewayAccount: account })];
}

export const nginxCombinedFormat: TextFormat = {
  kind: 'text',
  name: 'nginx-combined',
  detectText: (line) => line.length > 40 && line.includes('] "') && COMBINED.test(line),
  textToRecords: (line) => combinedToRecords(line),
  limits: {
    http: true,
    bodies: false,
    bodiesNote: 'no bodies, no JSON-RPC method or id: no attempts of its own',
    session: false,
    // no ids at all (none to stringify)
    typedIds: true,
    gatewayAccount: true,
    notes: [
      "no request or response body and no session id: a line is no attempt; a POST nginx answered with an error (4xx, 5xx) or logged 499 answers the client's attempt of the same status (499: one the client gave up on) that started within a second of it, given with the client's log (the path is not compared: a client's view keeps no URL); alone, such lines are counted in a note, by status; a POST nginx sent to more than one upstream ($upstream_addr \"a, b\": proxy_next_upstream) and answered 2xx is counted in that note (one of many 2xx POSTs of its second: whole seconds cannot say which call it was; nginx-json's log can); other 2xx lines, GET streams and DELETEs are counted as skipped",
      '$time_local has whole seconds and is when the request ended: with $request_time appended (the README\'s format) the start is known to the second, without it only the end',
      'Apache httpd\'s access log in this layout is read too: a line with `%b`\'s "-" or `%D` appended is Apache\'s, its time the start, its `"%{Mcp-Session-Id}i"` after %D the session (Debian\'s `combined`, with %O, reads as nginx\'s)',
      'the status is what nginx sent the client: a 502 or 504 may be nginx\'s own (a refused connection, proxy_read_timeout) or the server\'s; $upstream_status and nginx\'s error log tell which',
    ],
  },
};
