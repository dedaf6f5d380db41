// The mcp-triage canonical record, version 1: the one zod schema every input format is mapped to.
import { z } from 'zod';

/** A JSON-RPC id as sent: a string or a number (type kept: 1 and "1" are different requests). */
const JsonRpcIdSchema = z.union([z.string(), z.number()]);

/** Which process wrote the record: the MCP client, the MCP server, or a hop between them. */
export const SideSchema = z.enum(['client', 'server', 'gateway']);

/**
 * One header's value: text, or as Node's objects hold it (`res.getHeaders()`'s numbers such as `content-length: 182`,
 * `req.headers`' string arrays), read as text (an array's values joined with ", ", as HTTP combines repeated headers).
 */
const HeaderValueSchema = z
  .union([z.string(), z.number(), z.array(z.string())])
  .transform((v) => (typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : String(v)));

/** HTTP headers as a flat object; names are compared case-insensitively; values are read as text. */
const HeadersSchema = z.record(z.string(), HeaderValueSchema);

/**
 * The text of a connection or stream error: text, or an error object as a logger serialized it (`error: e`): its
 * `message` (with its `code` or `cause`'s, when it has them), else the object as JSON (`{}` for an Error's own JSON).
 */
const ErrorTextSchema = z.union([z.string(), z.record(z.string(), z.unknown())]).transform((v) => {
  if (typeof v === 'string') return v;
  const cause = v.cause !== null && typeof v.cause === 'object' ? (v.cause as Record<string, unknown>) : undefined;
  const code = typeof v.code === 'string' ? v.code : typeof cause?.code === 'string' ? cause.code : undefined;
  const message = typeof v.message === 'string' ? v.message : undefined;
  if (message === undefined) return code ?? JSON.stringify(v);
  return code !== undefined && !message.includes(code) ? `${message} (${code})` : message;
});

/** An exchange id, unique within a file: text, or an integer (a logger's counter), read as its decimal text. */
const XidSchema = z.union([z.string(), z.number().int()]).transform((v) => String(v));

/** A point in time: ISO 8601 text, or epoch seconds, milliseconds or nanoseconds (number or digit string). */
const TimestampSchema = z.union([z.string(), z.number()]);

/** How the response body (or the connection) ended. */
const StreamEndSchema = z.enum(['complete', 'aborted', 'timeout', 'error']);

/** Who sent a second POST of the same call, as the application knows it. */
const RetryOriginSchema = z.enum(['none', 'sdk', 'app', 'user', 'gateway', 'unknown']);

/** One server-sent event, as parsed from a text/event-stream body. */
const SseEventSchema = z.object({
  ts: TimestampSchema.optional(),
  id: z.string().optional(),
  event: z.string().optional(),
  data: z.string(),
  retry: z.number().optional(),
});

/** Optional notes the application adds about the call this exchange belongs to. */
export const NoteSchema = z.object({
  retryOrigin: RetryOriginSchema.optional(),
  attempt: z.number().int().positive().optional(),
  call: z.string().optional(),
});

const common = {
  v: z.literal(1),
  /** When the record's event happened. */
  ts: TimestampSchema.optional(),
  /** Who wrote the record; --client/--server on the command line set it for a whole file. */
  side: SideSchema.optional(),
  /** MCP session id (Mcp-Session-Id). Taken from the headers when absent. */
  session: z.string().nullable().optional(),
  /** Another connection key when there is no session (a socket, a process, a client instance). */
  conn: z.string().optional(),
  /** The client's identity, e.g. "my-agent@1.4.0"; links retries across sessions. */
  client: z.string().optional(),
};

const requestFields = {
  /** HTTP method: POST, GET or DELETE. */
  method: z.string(),
  url: z.string().optional(),
  requestHeaders: HeadersSchema.optional(),
  /** The JSON-RPC message (or batch) the request carried, parsed. */
  send: z.unknown().optional(),
  /** The request body as raw text, when it was not kept parsed. */
  sendText: z.string().optional(),
  note: NoteSchema.optional(),
};

const responseBodyFields = {
  /** The response body, parsed (an application/json body). */
  recv: z.unknown().optional(),
  /** The response body as raw text: JSON text, or a whole text/event-stream body. */
  recvText: z.string().optional(),
  /** The response body as SSE events. */
  events: z.array(SseEventSchema).optional(),
};

/** One whole HTTP exchange: request, response and how it ended (what a HAR entry holds). */
const ExchangeRecordSchema = z.object({
  ...common,
  kind: z.literal('exchange'),
  /** Exchange id, unique within the file (optional for whole exchanges). */
  xid: XidSchema.optional(),
  ...requestFields,
  /** HTTP status; null when no HTTP response exists (connection error, timeout, capture cut). */
  status: z.number().int().nullable(),
  responseHeaders: HeadersSchema.optional(),
  ...responseBodyFields,
  end: StreamEndSchema.optional(),
  /** Text of a connection or stream error (an error object is read as its message). */
  error: ErrorTextSchema.optional(),
  durationMs: z.number().optional(),
  /** The capture does not say when the exchange ended (durationMs, if any, ends earlier): mitmproxy's HAR times a failed exchange only up to its response head. */
  endUnknown: z.boolean().optional(),
});

/** The request half of an exchange written as it happened (streaming captures). */
const RequestRecordSchema = z.object({
  ...common,
  kind: z.literal('request'),
  xid: XidSchema,
  ...requestFields,
});

/** The response head of an exchange (status and headers), possibly with a whole body. */
const ResponseRecordSchema = z.object({
  ...common,
  kind: z.literal('response'),
  xid: XidSchema,
  status: z.number().int(),
  responseHeaders: HeadersSchema.optional(),
  ...responseBodyFields,
});

/** One SSE event of an exchange's response, written as it arrived. */
const EventRecordSchema = z.object({
  ...common,
  kind: z.literal('event'),
  xid: XidSchema,
  id: z.string().optional(),
  event: z.string().optional(),
  data: z.string(),
  retry: z.number().optional(),
});

/** How an exchange ended; a body that was not streamed may be carried here whole. */
const EndRecordSchema = z.object({
  ...common,
  kind: z.literal('end'),
  xid: XidSchema,
  end: StreamEndSchema,
  error: ErrorTextSchema.optional(),
  durationMs: z.number().optional(),
  recvText: z.string().optional(),
  /** Text in the event stream that was no SSE field (an error page a proxy wrote after the head), as the recorders keep it. */
  nonSseText: z.string().optional(),
  /** How many SSE comment lines (`: keepalive`) the event stream carried; recorders write no record for each. */
  comments: z.number().int().nonnegative().optional(),
  /** When the last of those comments came. */
  lastCommentTs: TimestampSchema.optional(),
});

/** One JSON-RPC message with a direction, for logs that have no HTTP layer (stdio, sniffers). */
const MessageRecordSchema = z.object({
  ...common,
  kind: z.literal('message'),
  /** c2s: client to server; s2c: server to client. */
  direction: z.enum(['c2s', 's2c']),
  message: z.unknown(),
  /** HTTP status of the exchange that carried the message, where the source recorded it. */
  status: z.number().int().optional(),
  /** On a request: the writer's wait for its response ended without one, and why (an OpenTelemetry span's exception). */
  error: z.string().optional(),
  /** On a request with `error`: how long the writer waited. */
  durationMs: z.number().nonnegative().optional(),
  /**
   * On an answer record with `error` and no status: the source proves no HTTP response came for the request (NO_RESPONSE),
   * its connection having failed before anything was sent (`connect-failed`: nothing reached the server) or having closed
   * or timed out before a response head (`no-head`).
   */
  noResponse: z.enum(['connect-failed', 'no-head']).optional(),
  /**
   * On an answer record with `error`, no message body (no `result`, no `error`) and a 2xx `status`: the source proves an
   * answer came in a body it does not hold (the Python SDK client's DEBUG log: an application/json body read to its end),
   * and `error` says what it shows of it. The request was answered; what the answer said is not in the log. `unlike`:
   * the same client transport's other answers came on SSE streams, so this one is likely a layer's in front of the
   * server's handler (an error a fault injector or a gateway sent).
   */
  bodyUnlogged: z.enum(['json', 'unlike']).optional(),
  /**
   * On an answer record with `bodyUnlogged`: the source proves that body did not parse as JSON (the Python SDK client's
   * "Error parsing JSON response" with pydantic's json_invalid), and says so: the attempt is MALFORMED_JSON.
   */
  malformed: z.string().optional(),
  /**
   * On an answer record with `bodyUnlogged`: the source proves that body, JSON, was no JSON-RPC response to the request
   * (the Python SDK client refused its shape, or dropped it as the response to another id), and says so: INVALID_ENVELOPE.
   */
  invalidEnvelope: z.string().optional(),
  /**
   * On an answer record with `bodyUnlogged`: the source proves that body was an input_required result (the Python SDK
   * client's next request continues the call with inputResponses/requestState, which it sends only after one), and says
   * so: INPUT_REQUIRED.
   */
  inputRequired: z.string().optional(),
  /** On an answer record with an HTTP error `status`: the source proves the response had no Content-Type and no body (Content-Length: 0). */
  bareStatus: z.boolean().optional(),
  /** On an answer record with an HTTP error `status`: the response's Retry-After header, as the source logged it (seconds or an HTTP date). */
  retryAfter: z.string().max(200).optional(),
});

/** A client's own account of one call (the source article's per-call diagnostic line). */
export const ClaimSchema = z.object({
  client: z.string().optional(),
  protocolVersion: z.string().optional(),
  scenario: z.string().optional(),
  method: z.string().optional(),
  tool: z.string().optional(),
  session: z.string().nullable().optional(),
  postCount: z.number().int().nonnegative().optional(),
  httpStatuses: z.array(z.number().int()).optional(),
  jsonrpc: z
    .object({
      id: JsonRpcIdSchema.nullable().optional(),
      errorCode: z.number().int().nullable().optional(),
    })
    .optional(),
  resultType: z.string().nullable().optional(),
  outcome: z.string().optional(),
  retryOrigin: RetryOriginSchema.optional(),
  /** The client's own words about how the call ended (Claude Code's "failed after 0s: <text>"). */
  message: z.string().optional(),
  /** How long the client says the call took, in ms. */
  durationMs: z.number().nonnegative().optional(),
  /** The HTTP status of the one attempt the claim tells of, where the client's log tells it (httpStatuses: the whole call's). */
  status: z.number().int().optional(),
  /** The transport the client used for the call, where its log says: a stdio call is never joined to HTTP traffic. */
  transport: z.string().optional(),
});

const ClaimRecordSchema = z.object({
  ...common,
  kind: z.literal('claim'),
  claim: ClaimSchema,
});

export const CanonicalRecordSchema = z.discriminatedUnion('kind', [
  ExchangeRecordSchema,
  RequestRecordSchema,
  ResponseRecordSchema,
  EventRecordSchema,
  EndRecordSchema,
  MessageRecordSchema,
  ClaimRecordSchema,
]);

export type CanonicalRecord = z.infer<typeof CanonicalRecordSchema>;
export type ExchangeRecord = z.infer<typeof ExchangeRecordSchema>;
export type RequestRecord = z.infer<typeof RequestRecordSchema>;
export type ResponseRecord = z.infer<typeof ResponseRecordSchema>;
export type EventRecord = z.infer<typeof EventRecordSchema>;
export type EndRecord = z.infer<typeof EndRecordSchema>;
export type MessageRecord = z.infer<typeof MessageRecordSchema>;
export type ClaimRecord = z.infer<typeof ClaimRecordSchema>;
export type Claim = z.infer<typeof ClaimSchema>;
export type SseEvent = z.infer<typeof SseEventSchema>;
export type Note = z.infer<typeof NoteSchema>;
export type Side = z.infer<typeof SideSchema>;
export type StreamEnd = z.infer<typeof StreamEndSchema>;
export type Headers = z.infer<typeof HeadersSchema>;
export type JsonRpcId = z.infer<typeof JsonRpcIdSchema>;

/**
 * The canonical schema as JSON Schema (what `mcp-triage schema` prints): what a reader accepts (the input side, so a
 * numeric xid or header value shows as accepted, and fields it does not know are allowed, as they are).
 */
export function canonicalJsonSchema(): unknown {
  return z.toJSONSchema(CanonicalRecordSchema, { unrepresentable: 'any', io: 'input' });
}

// nginx's JSON access log line (src/formats/nginx-json.ts): loaded with these schemas, as lazy.ts loads this module.
export { ApacheErrorLineSchema, CaddyLineSchema, NginxAccessLineSchema, NginxCombinedLineSchema, NginxErrorLineSchema, ServerConsoleLineSchema } from './access-log.js';

// A developer's own HTTP log line, its fields picked (src/formats/http-line.ts), loaded with these schemas.
export { HttpLineSchema } from './http-line.js';

// The MCP test kitchen's observation rows (src/formats/kitchen.ts), loaded with these schemas.
export { KitchenObservationSchema } from './kitchen.js';
