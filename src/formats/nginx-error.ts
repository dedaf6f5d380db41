// Adapter for nginx's error log: each line about a POST (a refused or timed-out upstream, a cut stream, a body too large, limit_req) as the gateway's reason for how that request failed.
import type { ExchangeRecord } from '../schema/record.js';
import { NEEDS_SCHEMAS, schemas } from '../schema/lazy.js';
import type { AdapterResult, GatewayAccount, TextFormat } from './adapter.js';
import { describeZodError } from './zod-error.js';

/** `2026/12/06 04:32:04 [error] 4213#4213: *1 <message>, client: ..., server: ..., request: "...", ...` */
const ERROR_LINE = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}:\d{2}:\d{2}) \[(debug|info|notice|warn|error|crit|alert|emerg)\] \d+#\d+: (?:\*(\d+) )?(.*)$/s;
const REQUEST = /, request: "([A-Z]+) ((?:[^"\\ ]|\\.)+)(?: HTTP\/[\d.]+)?"/;
const UPSTREAM = /, upstream: "([^"]*)"/;
const HOST = /, host: "([^"]*)"/;
const CLIENT = /, client: ([^,]+)/;

/**
 * What nginx's words mean for the request, by what it was doing when it failed: the part of the why that says whether
 * the MCP server saw the request and who answered the client.
 */
function meaningOf(message: string): string {
  // (first: "client prematurely closed connection, so upstream connection is closed too while reading upstream")
  if (/client prematurely closed connection|client closed connection/.test(message)) return 'the client closed its connection first (nginx logs 499 for it when no response had been sent); nginx then closed the MCP server\'s connection';
  if (/while connecting to upstream/.test(message)) return 'the request never reached that upstream: nginx could not connect to it, and answered the client itself (502, or 504 for a connect timeout) unless it sent the request on to its next upstream (proxy_next_upstream)';
  if (/no live upstreams/.test(message)) return 'nginx had no upstream left to send it to and answered the client itself (502): the MCP server never saw it';
  if (/timed out .*while reading response header from upstream/.test(message)) return 'the MCP server had the request and sent no response head within proxy_read_timeout: nginx closed the server\'s connection and answered the client itself (504) unless it sent the request on to its next upstream (proxy_next_upstream); the tool may have run';
  if (/prematurely closed connection while reading response header from upstream/.test(message)) return 'the MCP server (or its process) closed the connection before any response head: nginx answered the client itself (502) unless it sent the request on to its next upstream (proxy_next_upstream); the tool may have run';
  if (/timed out .*while reading upstream/.test(message)) return 'the MCP server\'s response had begun (its head was sent on) and then it was silent for proxy_read_timeout: nginx cut the stream';
  if (/prematurely closed connection while reading upstream/.test(message)) return 'the MCP server\'s response had begun and its connection closed before the end (the server process died or closed it): nginx cut the stream';
  if (/while sending request to upstream/.test(message)) return 'nginx failed while sending the request on to the MCP server: what the server got of it is not known';
  if (/client intended to send too large body/.test(message)) return 'nginx refused the request before reading its body (client_max_body_size: 413): the MCP server never saw it';
  if (/^limiting requests/.test(message)) return 'nginx\'s limit_req refused the request (503, or limit_req_status) before passing it on: the MCP server never saw it';
  if (/^limiting connections/.test(message)) return 'nginx\'s limit_conn refused the request (503, or limit_conn_status) before passing it on: the MCP server never saw it';
  return 'what the MCP server saw of it is not in this line';
}

function split(line: string): Record<string, unknown> | undefined {
  const m = ERROR_LINE.exec(line);
  if (!m) return undefined;
  const [, y, mo, d, time, level, connection, rest] = m as unknown as string[];
  // The message ends where nginx's context begins: `, client: ` (lines of no request, startup and notices, have none).
  const at = rest!.indexOf(', client: ');
  const req = at === -1 ? null : REQUEST.exec(rest!.slice(at));
  if (!req) return { noRequest: true };
  const ctx = rest!.slice(at);
  return {
    time: `${y}-${mo}-${d} ${time}`,
    level,
    ...(connection !== undefined ? { connection } : {}),
    message: rest!.slice(0, at),
    client: CLIENT.exec(ctx)?.[1],
    request_method: req[1],
    request_uri: req[2],
    upstream: UPSTREAM.exec(ctx)?.[1],
    host: HOST.exec(ctx)?.[1],
  };
}

function errorToRecords(text: string): AdapterResult {
  const parts = split(text);
  if (!parts) return { error: 'not an nginx error log line' };
  // Start-up, signals, worker exits: no request, nothing to analyze (counted as skipped).
  if (parts.noRequest) return [];
  const zod = schemas();
  if (!zod) return { error: NEEDS_SCHEMAS };
  const parsed = zod.NginxErrorLineSchema.safeParse(parts);
  if (!parsed.success) return { error: `nginx error log line: ${describeZodError(parsed.error)}` };
  const line = parsed.data;
  // A GET stream's or a DELETE's failure explains no call (the SDK reconnects a cut GET stream): counted as skipped.
  if (line.request_method !== 'POST') return [];
  const where = line.upstream ? ` (upstream ${line.upstream})` : '';
  const rec: ExchangeRecord = {
    v: 1,
    kind: 'exchange',
    // the gateway's reason for a request it failed: no status (the access log has it), no body, no session; it
    // explains the client's attempt it belongs to (src/join/gateway-lines.ts)
    side: 'gateway',
    ts: line.time,
    method: 'POST',
    url: line.request_uri,
    requestHeaders: {},
    status: null,
    end: 'error',
    // `; ` ends nginx's words (src/join/gateway-lines.ts counts by them)
    error: `nginx's error log [${line.level}]${line.connection !== undefined ? ` *${line.connection}` : ''}: ${line.message}${where}; ${meaningOf(line.message)}`,
  };
  const account: GatewayAccount = { log: 'nginx-error', startKnown: false, state: '--', retries: 0, beforeServerMs: 0, serverHead: false };
  return [Object.assign(rec, { gatewayAccount: account })];
}

export const nginxErrorFormat: TextFormat = {
  kind: 'text',
  name: 'nginx-error',
  detectText: (line) => line.length > 30 && line.charCodeAt(4) === 47 && ERROR_LINE.test(line),
  textToRecords: (line) => errorToRecords(line),
  limits: {
    http: false,
    httpNote: 'no HTTP status (the access log has it)',
    bodies: false,
    session: false,
    // no ids at all (none to stringify)
    typedIds: true,
    gatewayAccount: true,
    notes: [
      "no status, body, JSON-RPC id or session: a line is no attempt; a line about a POST (connect() failed, upstream timed out, upstream prematurely closed connection, client intended to send too large body, limiting requests) is nginx's reason for the client attempt that failed within a second of it (an HTTP error, no response, a cut stream), named in that attempt's why, given with the client's log; alone, such lines are counted in a note, by reason",
      'times are local and have whole seconds (--timezone, default UTC); lines of no request (start-up, signals) and those about GET streams and DELETEs are counted as skipped',
      "the level set by error_log: at the default (error) nginx logs refused and timed-out upstreams, limit_req and too large bodies, not a client that closed first (info)",
    ],
  },
};
