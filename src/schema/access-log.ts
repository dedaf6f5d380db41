// The zod schemas of the gateway log lines the readers check where the data enters (nginx's JSON, combined and error log lines, Apache's combined and error log lines; Caddy's access and error log lines), loaded with the record schemas (lazy.ts).
import { z } from 'zod';

/**
 * The fields read, named as the README's `log_format mcpjson` names them (nginx writes every variable as text unless
 * the format leaves its quotes off, as it may for $status, $body_bytes_sent and $request_time; "-" and "" are
 * nginx's "no value").
 */
const text = z.string();
const numberish = z.union([z.number(), z.string()]);
export const NginxAccessLineSchema = z.object({
  request_method: text,
  status: numberish,
  request_time: numberish,
  request_body: text,
  body_bytes_sent: numberish.optional(),
  request_uri: text.optional(),
  msec: numberish.optional(),
  time: text.optional(),
  time_iso8601: text.optional(),
  upstream_addr: text.optional(),
  upstream_status: text.optional(),
  upstream_response_time: numberish.optional(),
  mcp_session_id: text.optional(),
  sent_mcp_session_id: text.optional(),
  content_type: text.optional(),
  request_id: text.optional(),
  remote_addr: text.optional(),
});
export type NginxAccessLine = z.infer<typeof NginxAccessLineSchema>;

/**
 * One line of nginx's default `combined` access log (or `common`, or combined with `$request_time
 * $upstream_response_time $upstream_status $upstream_addr` appended), as src/formats/nginx-combined.ts splits it: every
 * field is nginx's text ("-" for no value).
 */
export const NginxCombinedLineSchema = z.object({
  remote_addr: text,
  /** `$time_local` as an epoch time (ms): when the request ended, to the second. */
  endMs: z.number(),
  request_method: text,
  request_uri: text,
  status: z.number().int().min(100).max(999),
  body_bytes_sent: text,
  request_time: text.optional(),
  upstream_response_time: text.optional(),
  upstream_status: text.optional(),
  upstream_addr: text.optional(),
  /**
   * Apache httpd's line (its `%b` writes "-" for no body byte, which nginx never does, or `%D` appended: microseconds, an
   * integer where nginx's `$request_time` has a decimal point): then endMs is `%t`, when Apache received the request.
   */
  apache: z.literal(true).optional(),
  /** `%D`: the time taken to serve the request, in microseconds. */
  duration_us: text.regex(/^\d+$/).optional(),
  /** `"%{Mcp-Session-Id}i"` and `"%{Mcp-Session-Id}o"` appended after %D: the session id the request sent, and the one answered. */
  session_sent: text.optional(),
  session_answered: text.optional(),
});
export type NginxCombinedLine = z.infer<typeof NginxCombinedLineSchema>;

/**
 * One request line of a server's console, as src/formats/server-console.ts splits it (uvicorn's access line, morgan's
 * dev/tiny/short, hono/logger's `-->`): no time in any of them.
 */
export const ServerConsoleLineSchema = z.object({
  producer: z.enum(['uvicorn', 'morgan', 'hono']),
  method: text.regex(/^[A-Z]{3,7}$/),
  path: text.min(1).max(8192),
  status: z.number().int().min(100).max(599),
  /** The time taken as the line says it (ms): morgan's until the response head, hono/logger's until the handler returned; none in uvicorn's. */
  durationMs: z.number().nonnegative().finite().optional(),
  /** The client's `ip:port` (uvicorn's, morgan short's address). */
  client: text.optional(),
});
export type ServerConsoleLine = z.infer<typeof ServerConsoleLineSchema>;

/**
 * One line of nginx's error log about a request, as src/formats/nginx-error.ts splits it: `<local time> [level]
 * pid#tid: *connection message, client: ..., server: ..., request: "...", upstream: "...", host: "..."`.
 */
/**
 * One line of Apache httpd's error log in its default ErrorLogFormat, as src/formats/apache-error.ts splits it: `[<local
 * time>] [module:level] [pid N:tid N] (errno)text: [client addr:port] AHnnnnn: message`.
 */
export const ApacheErrorLineSchema = z.object({
  /** The local time as written, `YYYY-MM-DD HH:MM:SS[.ffffff]` (no zone: --timezone). */
  time: text,
  module: text.min(1),
  level: text.min(1),
  thread: text,
  /** The system error before the message: `(111)Connection refused`, `(70007)The timeout specified has expired`. */
  os_error: text.optional(),
  client: text.optional(),
  code: text.regex(/^AH\d{5}$/).optional(),
  message: text.min(1),
});
export type ApacheErrorLine = z.infer<typeof ApacheErrorLineSchema>;

export const NginxErrorLineSchema = z.object({
  /** The local time as written, `YYYY-MM-DD HH:MM:SS` (no zone: --timezone). */
  time: text,
  level: z.enum(['debug', 'info', 'notice', 'warn', 'error', 'crit', 'alert', 'emerg']),
  connection: text.optional(),
  message: text.min(1),
  client: text.optional(),
  request_method: text,
  request_uri: text,
  upstream: text.optional(),
  host: text.optional(),
});
export type NginxErrorLine = z.infer<typeof NginxErrorLineSchema>;

/**
 * One JSON line of Caddy's logs about an HTTP request (Caddy 2.6's default encoder, as its `log` directive writes the
 * access log, `http.log.access.*`, and its default logger the errors, `http.log.error.*`, `http.handlers.reverse_proxy`):
 * the fields src/formats/caddy.ts reads. `ts` is epoch seconds (or a text time with `time_format`), `duration` seconds
 * (or a Go duration text with `duration_format`); headers are lists of values, as Go keeps them.
 */
const caddyHeaders = z.record(z.string(), z.union([z.array(z.string()), z.string()]));
export const CaddyLineSchema = z.object({
  level: text,
  ts: z.union([z.number(), text]),
  logger: text,
  msg: text,
  request: z.object({
    method: text,
    uri: text.optional(),
    proto: text.optional(),
    host: text.optional(),
    remote_ip: text.optional(),
    headers: caddyHeaders.optional(),
  }).optional(),
  duration: z.union([z.number(), text]).optional(),
  size: z.number().optional(),
  status: z.number().int().min(0).max(999).optional(),
  resp_headers: caddyHeaders.optional(),
  err_id: text.optional(),
  err_trace: text.optional(),
  error: text.optional(),
});
export type CaddyLine = z.infer<typeof CaddyLineSchema>;
