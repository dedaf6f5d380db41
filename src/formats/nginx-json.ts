// Adapter for nginx's JSON access log (a `log_format ... escape=json` with the request body): one HTTP exchange per line, its response body never kept.
import type { ExchangeRecord } from '../schema/record.js';
import type { NginxAccessLine as NginxJsonLine } from '../schema/access-log.js';
import { NEEDS_SCHEMAS, schemas } from '../schema/lazy.js';
import type { AdapterResult, JsonFormat } from './adapter.js';
import { describeZodError } from './zod-error.js';
import type { Obj } from './values.js';

/** nginx's text for "no value": "-" (most variables) or "" (an unset header). */
const value = (v: string | undefined): string | undefined => (v === undefined || v === '' || v === '-' ? undefined : v);
const numeric = (v: string | number | undefined): number | undefined => {
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/**
 * nginx writes the line when the request ends: $msec is that time (seconds, ms resolution) and $request_time how long
 * it took, so the request began $request_time before it. $time_iso8601 has whole seconds only.
 */
function times(line: NginxJsonLine): { ts?: number; durationMs?: number } {
  const took = numeric(line.request_time);
  const durationMs = took !== undefined ? Math.round(took * 1000) : undefined;
  const msec = numeric(line.msec);
  const endMs = msec !== undefined ? Math.round(msec * 1000) : Date.parse(value(line.time) ?? value(line.time_iso8601) ?? '');
  if (!Number.isFinite(endMs)) return durationMs !== undefined ? { durationMs } : {};
  return { ts: endMs - (durationMs ?? 0), ...(durationMs !== undefined ? { durationMs } : {}) };
}

/** One upstream nginx sent the request to: its address, the status it logged for it, how long it took (ms). */
interface UpstreamTry {
  addr: string;
  status: number | undefined;
  ms: number | undefined;
}

/**
 * The upstreams nginx tried for one request, when $upstream_addr and $upstream_status list more than one (", " between
 * the servers of one upstream group: proxy_next_upstream sent the request on after an error, a timeout or a 502/503/504
 * from the one before). A list that names another group (" : ", an internal redirect) or whose lengths disagree is not
 * read: that is no re-send of this request.
 */
function upstreamTries(line: NginxJsonLine): UpstreamTry[] | undefined {
  const addrs = value(line.upstream_addr)?.split(', ');
  const statuses = value(line.upstream_status)?.split(', ');
  if (!addrs || !statuses || addrs.length < 2 || addrs.length !== statuses.length) return undefined;
  if ([...addrs, ...statuses].some((x) => x.includes(' : '))) return undefined;
  const times = typeof line.upstream_response_time === 'string' ? line.upstream_response_time.split(', ') : [];
  return addrs.map((addr, i) => {
    const secs = times.length === addrs.length ? numeric(times[i]) : undefined;
    return { addr, status: numeric(statuses[i]), ms: secs !== undefined ? Math.round(secs * 1000) : undefined };
  });
}

/**
 * A request nginx sent to more than one upstream: each try before the last is an exchange of its own (the upstream's
 * status as nginx logged it: 502 for a refused or dropped connection, 504 for proxy_read_timeout, or the upstream's
 * own 502/503/504), and the tries are noted as one call whose later attempts the gateway sent (`retryOrigin`
 * `gateway`). nginx logged the last try's answer as its own status: that one keeps the line's record.
 */
function withTries(rec: ExchangeRecord, last: ExchangeRecord, tries: UpstreamTry[], requestId: string | undefined, lineTs: number | undefined): ExchangeRecord[] {
  const call = `nginx ${requestId ?? `${rec.xid ?? ''}@${lineTs ?? ''}`} upstream tries`;
  const out: ExchangeRecord[] = [];
  let at = lineTs;
  tries.forEach((t, i) => {
    const note = { ...(i > 0 ? { retryOrigin: 'gateway' as const } : {}), attempt: i + 1, call };
    const xid = rec.xid !== undefined ? `${rec.xid}#${i + 1}` : undefined;
    const when = at !== undefined ? { ts: at } : {};
    if (i === tries.length - 1) {
      out.push({ ...last, ...when, ...(xid ? { xid } : {}), ...(t.ms !== undefined ? { durationMs: t.ms } : {}), note } as ExchangeRecord);
      return;
    }
    out.push({
      ...rec,
      ...when,
      ...(xid ? { xid } : {}),
      ...(t.ms !== undefined ? { durationMs: t.ms } : {}),
      status: t.status ?? null,
      responseHeaders: {},
      end: 'complete',
      error: `nginx sent this request to upstream ${t.addr}, logged ${t.status ?? 'no status'} for it ($upstream_status), and sent it on to ${tries[i + 1]!.addr} (proxy_next_upstream)`,
      note,
    } as ExchangeRecord);
    if (at !== undefined && t.ms !== undefined) at += t.ms;
  });
  return out;
}

function nginxToRecords(v: Obj): AdapterResult {
  // zod only once a line was taken for nginx's: the reader loads it and reads this line again
  const zod = schemas();
  if (!zod) return { error: NEEDS_SCHEMAS };
  const parsed = zod.NginxAccessLineSchema.safeParse(v);
  if (!parsed.success) return { error: `nginx JSON access log line: ${describeZodError(parsed.error)}` };
  const line = parsed.data;
  const status = numeric(line.status);
  if (status === undefined || !Number.isInteger(status)) return { error: `nginx JSON access log line with status ${JSON.stringify(line.status).slice(0, 20)}` };
  const { ts, durationMs } = times(line);
  const requestHeaders: Record<string, string> = {};
  const sent = value(line.mcp_session_id);
  if (sent) requestHeaders['mcp-session-id'] = sent;
  const responseHeaders: Record<string, string> = {};
  const given = value(line.sent_mcp_session_id);
  if (given) responseHeaders['mcp-session-id'] = given;
  const ctype = value(line.content_type);
  if (ctype) responseHeaders['content-type'] = ctype;
  const body = line.request_body === '-' ? '' : line.request_body;
  const upstream = value(line.upstream_status);
  const rec: ExchangeRecord = {
    v: 1,
    kind: 'exchange',
    // no side of its own: nginx is the server of its clients and the client of its upstream; --client or --server
    // says which view the log is to join
    ...(ts !== undefined ? { ts } : {}),
    method: line.request_method,
    ...(value(line.request_uri) ? { url: value(line.request_uri) } : {}),
    requestHeaders,
    ...(body !== '' ? { sendText: body } : {}),
    ...(durationMs !== undefined ? { durationMs } : {}),
    ...(value(line.request_id) ? { xid: value(line.request_id) } : {}),
  } as ExchangeRecord;
  if (status === 499) {
    // nginx's own code, sent to no one: the client closed its connection before nginx had answered.
    return [{ ...rec, status: null, end: 'aborted', error: `nginx logged 499: the client closed the connection before the response was complete${upstream ? ` (upstream status ${upstream})` : ''}` }];
  }
  // No response body in an access log: the exchange keeps its status and head, its answer is not observable; but a 2xx
  // to a POST of which nginx sent no body byte at all ($body_bytes_sent 0: not even the chunked body's last chunk)
  // carried no answer (an SSE stream cut by proxy_read_timeout before its first event: test/fixtures/real-audit48).
  const empty = numeric(line.body_bytes_sent) === 0 && status >= 200 && status <= 299 && status !== 202 && status !== 204;
  const answered: ExchangeRecord = { ...rec, status, responseHeaders, ...(empty ? { recvText: '' } : {}), end: 'complete' };
  const tries = upstreamTries(line);
  return tries ? withTries(rec, answered, tries, value(line.request_id), ts) : [answered];
}

export const nginxJsonFormat: JsonFormat = {
  kind: 'json',
  name: 'nginx-json',
  // The four fields a JSON access log must have to be read: no other format's line has request_method and
  // request_body beside status and request_time.
  detect: (v) => typeof v.request_method === 'string' && typeof v.request_body === 'string' && 'status' in v && 'request_time' in v,
  toRecords: (value) => nginxToRecords(value),
  limits: {
    http: true,
    bodies: false,
    bodiesNote: 'no response bodies (the requests\' are kept; INVALID_ENVELOPE, MALFORMED_JSON, INVALID_TOOL_RESULT and INVALID_RESULT not checked)',
    session: true,
    typedIds: true,
    notes: [
      'an access log keeps no response body: a 2xx is not observable past its status (UNANSWERED), so results, JSON-RPC errors and tool errors never show; only a 2xx to a POST of which nginx sent no body byte ($body_bytes_sent 0) is known to have carried no answer',
      'a POST nginx refused before it read the body (client_max_body_size\'s 413, limit_req\'s 503 or 429) has an empty $request_body: no method or id, so no attempt of its own; joined with a client\'s log (this log given with --server), the client\'s request takes its status',
      'a line is written when the request ends: a stream still open when the log was read is not in it, and an SSE stream shows no events',
      "the status is nginx's answer to the client: 499 is nginx's own code for a client that closed the connection first (no response was sent); $upstream_status says what the server answered",
      'a request nginx sent to more than one upstream ($upstream_addr and $upstream_status list them, "a, b": proxy_next_upstream) is one attempt per upstream tried, the later ones the gateway\'s re-sends (retryOrigin gateway); the log alone cannot tell a refused connection (the tool never ran) from a crash or a timeout after the tool ran (both log 502 or 504): nginx\'s error log, or the servers\' logs joined, tell',
    ],
  },
};
