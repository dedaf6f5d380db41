// The zod schema of one nginx JSON access log line (the fields nginx-json reads), loaded with the record schemas (lazy.ts).
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
