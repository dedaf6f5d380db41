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
  return [{ ...rec, status, responseHeaders, ...(empty ? { recvText: '' } : {}), end: 'complete' }];
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
    ],
  },
};
