// Adapter for OpenTelemetry OTLP JSON lines (file exporter): MCP spans (semantic conventions, the Python SDK's, mcpsnoop's) become a request and a reconstructed response message.
import type { CanonicalRecord, Claim, ClaimRecord, MessageRecord, Side } from '../schema/record.js';
import type { AdapterResult, JsonFormat } from './adapter.js';
import { normalizeMethod, senderOfMethod } from './methods.js';
import { isObj, looksLikeJsonRpc, parseJson, parseJsonContainer, str, timeValue, type Obj } from './values.js';

type AttrValue = string | number | boolean | unknown[] | Obj | undefined;

/** OTLP `{"stringValue":..}` / `{"intValue":"5"}` / ... to a plain value (int64 strings become numbers when safe). */
function attrValue(v: unknown): AttrValue {
  if (!isObj(v)) return undefined;
  if (typeof v.stringValue === 'string') return v.stringValue;
  if (v.intValue !== undefined) {
    const n = Number(v.intValue);
    return Number.isSafeInteger(n) ? n : String(v.intValue);
  }
  if (v.doubleValue !== undefined) return Number(v.doubleValue);
  if (typeof v.boolValue === 'boolean') return v.boolValue;
  if (isObj(v.arrayValue)) return Array.isArray(v.arrayValue.values) ? v.arrayValue.values.map(attrValue) : [];
  if (isObj(v.kvlistValue)) return attributes(v.kvlistValue.values);
  return undefined;
}

/** OTLP attribute list to a map keyed by attribute name. */
function attributes(list: unknown): Obj {
  const out: Obj = Object.create(null) as Obj;
  if (!Array.isArray(list)) return out;
  for (const a of list) if (isObj(a) && typeof a.key === 'string') out[a.key] = attrValue(a.value);
  return out;
}

function attrString(attrs: Obj, key: string): string | undefined {
  const v = attrs[key];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

const SERVER_KINDS = new Set<unknown>([2, 'SPAN_KIND_SERVER']);
const CLIENT_KINDS = new Set<unknown>([3, 'SPAN_KIND_CLIENT']);
const ERROR_STATUS = new Set<unknown>([2, 'STATUS_CODE_ERROR']);
const JSONRPC_CODE = /^-?\d+$/;

/**
 * The target a span name carries after its method: `{mcp.method.name} {target}` in the conventions, `MCP send
 * {method} {target}` in the Python SDK's CLIENT spans, which set no gen_ai.tool.name / gen_ai.prompt.name.
 */
function nameTarget(span: Obj, rawMethod: string): string | undefined {
  const name = str(span.name);
  if (name === undefined) return undefined;
  const at = name.indexOf(`${rawMethod} `);
  if (at < 0 || (at > 0 && name[at - 1] !== ' ')) return undefined;
  const target = name.slice(at + rawMethod.length + 1).trim();
  return target === '' ? undefined : target;
}

function requestParams(method: string, attrs: Obj, target: string | undefined): Obj | undefined {
  if (method === 'tools/call') {
    const name = attrString(attrs, 'gen_ai.tool.name') ?? target;
    if (name === undefined) return undefined;
    const args = typeof attrs['gen_ai.tool.call.arguments'] === 'string' ? parseJsonContainer(attrs['gen_ai.tool.call.arguments']) : undefined;
    return isObj(args) ? { name, arguments: args } : { name };
  }
  if (method === 'prompts/get') {
    const name = attrString(attrs, 'gen_ai.prompt.name') ?? target;
    return name === undefined ? undefined : { name };
  }
  if (method === 'resources/read') {
    const uri = attrString(attrs, 'mcp.resource.uri');
    return uri === undefined ? undefined : { uri };
  }
  return undefined;
}

/**
 * The response a span implies: error.type "tool_error" -> a result with isError true; a JSON-RPC code in
 * rpc.response.status_code or error.type -> that error; another error.type (timeout, _OTHER...) or an ERROR status
 * without error attributes -> no response can be rebuilt; no error attributes -> a success result. An ERROR status
 * never makes an error response by itself (Jaeger sets error.type without it).
 */
function responseOf(method: string, id: string, attrs: Obj, span: Obj): Obj | undefined {
  const errorType = attrString(attrs, 'error.type');
  const statusCode = attrString(attrs, 'rpc.response.status_code');
  const toolResult = typeof attrs['gen_ai.tool.call.result'] === 'string' ? parseJsonContainer(attrs['gen_ai.tool.call.result']) : undefined;
  if (errorType === 'tool_error') {
    const result = isObj(toolResult) ? { ...toolResult, isError: true } : { content: [], isError: true };
    return { jsonrpc: '2.0', id, result };
  }
  const code = statusCode !== undefined && JSONRPC_CODE.test(statusCode) ? statusCode : errorType !== undefined && JSONRPC_CODE.test(errorType) ? errorType : undefined;
  if (code !== undefined) {
    const status = isObj(span.status) ? str(span.status.message) : undefined;
    // The Python SDK client's span records the error its transport made itself, for an HTTP error status without a
    // JSON-RPC body or a stream that ended without the response, as it records a server's JSON-RPC error: no answer
    // of the server's (what ended the span is said instead).
    if (CLIENT_KINDS.has(span.kind) && status !== undefined && PYTHON_CLIENT_MADE.test(status)) return undefined;
    return { jsonrpc: '2.0', id, error: { code: Number(code), message: status || `JSON-RPC error ${code}` } };
  }
  if (errorType !== undefined) return undefined;
  // An ERROR status with no error attribute: an exception ended the span (the Python SDK's CLIENT span of a request
  // that timed out or lost its connection: TimeoutError recorded by the OpenTelemetry SDK), not a response.
  if (isObj(span.status) && ERROR_STATUS.has(span.status.code)) return undefined;
  const result = isObj(toolResult) ? toolResult : method === 'tools/call' ? { content: [], isError: false } : {};
  return { jsonrpc: '2.0', id, result };
}

/**
 * The errors the Python SDK client (mcp 2.x, mcp/client/streamable_http.py) makes itself and hands its caller as
 * JSON-RPC errors, which its CLIENT span records as it records a server's: an HTTP error status without a JSON-RPC body
 * (-32603 "Server returned an error response", a 404's -32600 "Session terminated" or -32601 "Not Found"), a body it
 * could not read, and a response stream that ended or failed without the response (-32000).
 */
const PYTHON_CLIENT_MADE = /^(?:Server returned an error response|Session terminated|Not Found|Unexpected content type: |Failed to parse (?:JSON response|SSE message): |SSE stream ended without a response$|SSE stream ended and reconnection attempts were exhausted$|SSE stream failed: )/;

/** What ended a span that has no response: its exception event, else error.type, else its status message. */
function failureOf(attrs: Obj, span: Obj): string | undefined {
  const events = Array.isArray(span.events) ? span.events : [];
  const exception = events.find((e): e is Obj => isObj(e) && e.name === 'exception');
  if (exception) {
    const ea = attributes(exception.attributes);
    const type = attrString(ea, 'exception.type');
    const message = attrString(ea, 'exception.message');
    if (type !== undefined) return message ? `${type}: ${message}` : type;
  }
  const errorType = attrString(attrs, 'error.type');
  const status = isObj(span.status) ? str(span.status.message) : undefined;
  if (errorType !== undefined && CLIENT_KINDS.has(span.kind) && status !== undefined && PYTHON_CLIENT_MADE.test(status)) {
    return `error ${errorType} "${status}", which the Python SDK client makes itself (an HTTP error status without a JSON-RPC body, or a response stream that ended without the response), not the server's answer`;
  }
  if (errorType !== undefined) return `error.type ${errorType}`;
  return status ? `ERROR status: ${status}` : 'ERROR status';
}

/** The process a resource describes (service.name@service.version, its instance id): the client's identity for its CLIENT spans. */
function resourceIdentity(resource: unknown): string | undefined {
  const attrs = attributes(isObj(resource) ? resource.attributes : undefined);
  const name = attrString(attrs, 'service.name');
  if (name === undefined || name === '' || name.startsWith('unknown_service')) return undefined;
  const version = attrString(attrs, 'service.version');
  const instance = attrString(attrs, 'service.instance.id');
  return `${name}${version ? `@${version}` : ''}${instance ? ` ${instance}` : ''}`;
}

/** A request's SERVER span that notifications/cancelled stopped (see cancelledSpans), and when the cancellation came. */
interface Cancelled {
  at: unknown;
  /** How far apart the request span's end and the cancellation span's start were. */
  gapMs: number;
}

/** Spans of one resource and export by kind: the requests a server handled, the cancellations it received. */
const CANCEL_SLACK_NS = 5_000_000n;

/**
 * The Python SDK's SERVER span of a handler stopped by notifications/cancelled ends without error (CancelledError is
 * not recorded), and the notification's own SERVER span names no request: the dispatcher stops the handler as the
 * notification comes, so the stopped request's span ends within a ms or so of that span's start (before it or just
 * after, as recorded). A request span (no error, an id) of the same resource and export that began before a
 * cancellation and ended within 5 ms of its start is taken as the one it stopped (the nearest one when several do).
 */
function cancelledSpans(spans: Obj[]): { cancelled: Map<Obj, Cancelled>; used: Set<Obj> } {
  const cancelled = new Map<Obj, Cancelled>();
  const used = new Set<Obj>();
  const requests: { span: Obj; start: bigint; end: bigint }[] = [];
  const cancels: { span: Obj; start: bigint }[] = [];
  for (const span of spans) {
    if (!SERVER_KINDS.has(span.kind)) continue;
    const attrs = attributes(span.attributes);
    const method = attrString(attrs, 'mcp.method.name');
    if (method === 'notifications/cancelled') {
      const start = nanosOf(span.startTimeUnixNano);
      if (start !== undefined) cancels.push({ span, start });
    } else if (method !== undefined && attrString(attrs, 'jsonrpc.request.id') !== undefined && attrString(attrs, 'error.type') === undefined
      && !(isObj(span.status) && ERROR_STATUS.has(span.status.code))) {
      const start = nanosOf(span.startTimeUnixNano);
      const end = nanosOf(span.endTimeUnixNano);
      if (start !== undefined && end !== undefined) requests.push({ span, start, end });
    }
  }
  for (const c of cancels) {
    const gap = (r: { end: bigint }): bigint => (r.end > c.start ? r.end - c.start : c.start - r.end);
    let best: { span: Obj; start: bigint; end: bigint } | undefined;
    for (const r of requests) {
      if (cancelled.has(r.span) || r.start >= c.start || gap(r) > CANCEL_SLACK_NS) continue;
      if (!best || gap(r) < gap(best)) best = r;
    }
    if (!best) continue;
    cancelled.set(best.span, { at: c.span.startTimeUnixNano, gapMs: Number(gap(best)) / 1e6 });
    used.add(c.span);
  }
  return { cancelled, used };
}

function spanToRecords(span: Obj, identity: string | undefined, cancel?: Cancelled, mcpsnoopSession?: string): MessageRecord[] {
  const attrs = attributes(span.attributes);
  if (attrs['rpc.system'] === 'mcp' && attrString(attrs, 'mcpsnoop.call.state') !== undefined) return mcpsnoopSpan(span, attrs, mcpsnoopSession);
  const rawMethod = attrString(attrs, 'mcp.method.name');
  if (rawMethod === undefined) return [];
  const method = normalizeMethod(rawMethod);
  const id = attrString(attrs, 'jsonrpc.request.id');
  const isNotification = id === undefined;
  const requestDir = senderOfMethod(method, isNotification) === 'server' ? 's2c' : 'c2s';
  // The CLIENT span belongs to the request's sender, the SERVER span to its receiver.
  const sender: Side = requestDir === 'c2s' ? 'client' : 'server';
  const receiver: Side = requestDir === 'c2s' ? 'server' : 'client';
  const side = SERVER_KINDS.has(span.kind) ? receiver : CLIENT_KINDS.has(span.kind) ? sender : undefined;
  const session = attrString(attrs, 'mcp.session.id');
  const traceId = str(span.traceId);

  // No session id (the Python SDK sets none): the trace is the connection key. Each request is a trace of its own
  // there, shared by the client's span and the server's (trace context goes in params._meta), so the two views join.
  // The process that wrote a client's span names the client: calls of its many traces belong to one caller.
  const common = (): Partial<MessageRecord> => ({
    ...(side ? { side } : {}),
    ...(session ? { session } : traceId ? { conn: `trace:${traceId}` } : {}),
    ...(side === 'client' && identity ? { client: identity } : {}),
  });
  const request: Obj = { jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), method };
  const params = requestParams(method, attrs, nameTarget(span, rawMethod));
  // The trace context the request carried in params._meta (SEP-414): the CLIENT span's own id, the SERVER span's
  // parent. The same request on the wire carries it too, so the two logs of one request can be told the same.
  const parent = CLIENT_KINDS.has(span.kind) ? str(span.spanId) : SERVER_KINDS.has(span.kind) ? str(span.parentSpanId) : undefined;
  const traceparent = traceId && parent && /^[0-9a-f]{32}$/i.test(traceId) && /^[0-9a-f]{16}$/i.test(parent) ? `00-${traceId}-${parent}-01` : undefined;
  if (params || traceparent) request.params = { ...(params ?? {}), ...(traceparent ? { _meta: { traceparent } } : {}) };
  const first: MessageRecord = { v: 1, kind: 'message', direction: requestDir, message: request, ...common(), ...timeOf(span.startTimeUnixNano) };
  const out: MessageRecord[] = [first];
  if (id !== undefined && cancel !== undefined) {
    // Stopped by a cancellation (cancelledSpans): no result to rebuild; the cancellation goes to this request's trace.
    const ms = spanMs(span);
    first.error = `the ${side ?? receiver}'s span ended without error${ms !== undefined ? ` after ${(ms / 1000).toFixed(2)} s` : ''} within ${cancel.gapMs.toFixed(1)} ms of a notifications/cancelled span's start: a handler stopped by the cancellation ends so, with no result`;
    if (ms !== undefined) first.durationMs = ms;
    out.push({ v: 1, kind: 'message', direction: 'c2s', message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } }, ...common(), ...timeOf(cancel.at) });
  } else if (id !== undefined) {
    const response = responseOf(method, id, attrs, span);
    if (response) {
      out.push({ v: 1, kind: 'message', direction: requestDir === 'c2s' ? 's2c' : 'c2s', message: response, ...common(), ...timeOf(span.endTimeUnixNano) });
    } else {
      // The span ended without a response it could rebuild: say what ended it, and when.
      const ms = spanMs(span);
      const after = ms !== undefined ? ` after ${(ms / 1000).toFixed(2)} s` : '';
      const failure = failureOf(attrs, span);
      first.error = side === receiver
        ? `the ${receiver}'s span ended with ${failure}${after}; the span does not record the error response sent for it`
        : `the ${side ?? sender}'s span ended with ${failure}${after}, with no response`;
      if (ms !== undefined) first.durationMs = ms;
    }
  }
  return out;
}

/**
 * A span of mcpsnoop (kerlenton/mcpsnoop 0.22.0: `export -T otlp`, or `--otlp-endpoint` streaming completed calls): one
 * call as the proxy saw it, named by its method, `rpc.system` "mcp", `rpc.method`, and `mcpsnoop.call.*`: `id` (the
 * JSON-RPC id), `state` (completed, failed, pending, cancelled), `is_error` and `tool_error` (an isError result; is_error
 * alone: a JSON-RPC error, whose code the span does not keep), `tool_name`, `cancelled_at`/`cancel_reason`. The resource's
 * `mcpsnoop.session.id` is mcpsnoop's own capture session (label-pid-random), not the MCP session: it keys the
 * connection. The proxy is neither side, and its SPAN_KIND_CLIENT says nothing of one: the records have no side.
 */
function mcpsnoopSpan(span: Obj, attrs: Obj, snoopSession: string | undefined): MessageRecord[] {
  const rawMethod = attrString(attrs, 'rpc.method') ?? str(span.name);
  if (rawMethod === undefined) return [];
  const method = normalizeMethod(rawMethod);
  const id = attrString(attrs, 'mcpsnoop.call.id');
  const state = attrString(attrs, 'mcpsnoop.call.state');
  const tool = attrString(attrs, 'mcpsnoop.call.tool_name');
  const conn = snoopSession !== undefined ? { conn: snoopSession } : str(span.traceId) ? { conn: `trace:${str(span.traceId)}` } : {};
  const request: Obj = { jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), method, ...(method === 'tools/call' && tool !== undefined ? { params: { name: tool } } : {}) };
  const first: MessageRecord = { v: 1, kind: 'message', direction: 'c2s', message: request, ...conn, ...timeOf(span.startTimeUnixNano) };
  if (id === undefined) return [first];
  const ms = spanMs(span);
  const answer = (message: Obj): MessageRecord => ({ v: 1, kind: 'message', direction: 's2c', message, ...conn, ...timeOf(span.endTimeUnixNano) });
  if (state === 'completed' || state === 'failed') {
    if (attrs['mcpsnoop.call.tool_error'] === true) return [first, answer({ jsonrpc: '2.0', id, result: { content: [], isError: true } })];
    if (attrs['mcpsnoop.call.is_error'] === true) {
      // A JSON-RPC error answered it (is_error, not tool_error), but the span keeps neither its code nor its message: no
      // error object can be rebuilt without making its code up, so the request says what the span does show.
      first.error = `mcpsnoop's span says a JSON-RPC error answered it (mcpsnoop.call.is_error, not tool_error)${ms !== undefined ? ` after ${(ms / 1000).toFixed(2)} s` : ''}; the span keeps neither its code nor its message`;
      if (ms !== undefined) first.durationMs = ms;
      return [first];
    }
    return [first, answer({ jsonrpc: '2.0', id, result: method === 'tools/call' ? { content: [], isError: false } : {} })];
  }
  if (state === 'cancelled') {
    const reason = attrString(attrs, 'mcpsnoop.call.cancel_reason');
    first.error = `mcpsnoop's span: the client cancelled the call (notifications/cancelled)${reason !== undefined ? `, reason "${reason}"` : ''}, before any response`;
    const at = attrString(attrs, 'mcpsnoop.call.cancelled_at');
    return [first, { v: 1, kind: 'message', direction: 'c2s', message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } }, ...conn, ...(at !== undefined ? { ts: at } : timeOf(span.endTimeUnixNano)) }];
  }
  // pending (or a state this reader does not know): mcpsnoop saw no JSON-RPC response. Its HTTP mode also leaves a
  // request here when the answer was an HTTP error without a JSON-RPC body for this id (401, 404, its own 502).
  first.error = `mcpsnoop's span: no JSON-RPC response for the call (state ${state ?? 'missing'}); an HTTP error status (401, 404, a 502 of mcpsnoop's own) is not in its spans`;
  return [first];
}

/** How long a span lasted, in ms. */
function spanMs(span: Obj): number | undefined {
  const start = nanosOf(span.startTimeUnixNano);
  const end = nanosOf(span.endTimeUnixNano);
  return start !== undefined && end !== undefined && end >= start ? Number(end - start) / 1e6 : undefined;
}

/** An OTLP `*UnixNano` time as a bigint (exact), or undefined. */
function nanosOf(v: unknown): bigint | undefined {
  const s = typeof v === 'string' ? v : typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : undefined;
  return s !== undefined && /^[1-9]\d{0,20}$/.test(s) ? BigInt(s) : undefined;
}

/** An OTLP `*UnixNano` time; "0" (the proto default, written by some exporters for unset times) counts as absent. */
function timeOf(nanos: unknown): { ts?: string | number } {
  const ts = timeValue(nanos);
  return ts === undefined || ts === '0' || ts === 0 ? {} : { ts };
}

/** Gemini CLI's text for a failed call: `MCP tool '<name>' reported tool error for function call: {...} with response: [...]`. */
const GEMINI_WITH_RESPONSE = / with response: (\[.*\])$/s;
/** The JSON-RPC codes the TypeScript SDK client raises itself (connection closed, request timed out): never on the wire. */
const SDK_LOCAL_CODES = new Set([-32000, -32001]);

/**
 * What a failed call's text tells, and only that: the functionResponse Gemini CLI embeds in it holds the result
 * (`isError: true` -> TOOL_ERROR) or the SDK client's error message (`MCP error <code>: ...` -> JSONRPC_ERROR, unless
 * the SDK raised the code itself; `Error POSTing to endpoint (HTTP <status>)` -> HTTP_ERROR; `fetch failed` ->
 * NO_RESPONSE). Its error.type is `mcp_tool_error` for all of them, so it is not used.
 */
function geminiFailure(text: string): Pick<Claim, 'outcome' | 'jsonrpc' | 'status'> {
  const m = GEMINI_WITH_RESPONSE.exec(text);
  const parts = m ? parseJsonContainer(m[1]!) : undefined;
  const fr = Array.isArray(parts) && isObj(parts[0]) && isObj(parts[0].functionResponse) ? parts[0].functionResponse : undefined;
  const response = fr && isObj(fr.response) ? fr.response : undefined;
  if (!response) return {};
  if (response.isError === true) return { outcome: 'TOOL_ERROR' };
  const message = isObj(response.error) ? str(response.error.message) : undefined;
  if (message === undefined) return {};
  const code = /^MCP error (-?\d+): /.exec(message);
  if (code) {
    const n = Number(code[1]);
    return SDK_LOCAL_CODES.has(n) ? { jsonrpc: { errorCode: n } } : { outcome: 'JSONRPC_ERROR', jsonrpc: { errorCode: n } };
  }
  const http = /^Error POSTing to endpoint \(HTTP (\d{3})\)/.exec(message);
  if (http) return { outcome: 'HTTP_ERROR', status: Number(http[1]) };
  if (/fetch failed|ECONNREFUSED|ECONNRESET|socket hang up/.test(message)) return { outcome: 'NO_RESPONSE' };
  return {};
}

/**
 * Gemini CLI's `gemini_cli.tool_call` event for an MCP tool (tool_type "mcp") becomes a claim about one tools/call:
 * function_name is `mcp_<server>_<tool>`, success and the error text tell the outcome, duration_ms the duration. Its
 * tool_call spans are not read: they carry no MCP attribute and an OK status for failed calls too.
 */
function geminiToolCallClaim(rec: Obj, attrs: Obj): ClaimRecord[] {
  const fn = attrString(attrs, 'function_name');
  const server = attrString(attrs, 'mcp_server_name');
  if (fn === undefined || attrs.tool_type !== 'mcp') return [];
  const prefix = server !== undefined ? `mcp_${server}_` : undefined;
  const tool = prefix !== undefined && fn.startsWith(prefix) && fn.length > prefix.length ? fn.slice(prefix.length) : fn;
  const error = attrString(attrs, 'error');
  const fields: Pick<Claim, 'outcome' | 'jsonrpc' | 'status'> = attrs.success === true ? { outcome: 'TOOL_SUCCESS' } : attrs.success === false && error !== undefined ? geminiFailure(error) : {};
  const duration = typeof attrs.duration_ms === 'number' && attrs.duration_ms >= 0 ? attrs.duration_ms : undefined;
  const claim: Claim = {
    client: 'gemini-cli',
    method: 'tools/call',
    tool,
    ...fields,
    ...(error !== undefined ? { message: error } : {}),
    ...(duration !== undefined ? { durationMs: duration } : {}),
  };
  return [{ v: 1, kind: 'claim', side: 'client', ...(server !== undefined ? { conn: server } : {}), claim, ...timeOf(rec.timeUnixNano ?? rec.observedTimeUnixNano) }];
}

/**
 * A log record whose body is a JSON-RPC message (as JSON text) becomes a message; Gemini CLI's tool_call event a
 * claim; others carry nothing to analyze.
 */
function logRecordToRecords(rec: Obj): (MessageRecord | ClaimRecord)[] {
  const eventAttrs = attributes(rec.attributes);
  if (eventAttrs['event.name'] === 'gemini_cli.tool_call') return geminiToolCallClaim(rec, eventAttrs);
  const body = attrValue(rec.body);
  const message = typeof body === 'string' ? parseJson(body) : undefined;
  if (!looksLikeJsonRpc(message) || Array.isArray(message) || !isObj(message)) return [];
  const attrs = attributes(rec.attributes);
  const stated = attrString(attrs, 'mcp.direction') ?? attrString(attrs, 'direction');
  let direction: 'c2s' | 's2c';
  if (stated === 'c2s' || stated === 's2c') direction = stated;
  else if (typeof message.method === 'string') direction = senderOfMethod(message.method, message.id === undefined) === 'server' ? 's2c' : 'c2s';
  else direction = 's2c';
  const session = attrString(attrs, 'mcp.session.id');
  return [{ v: 1, kind: 'message', direction, message, ...(session ? { session } : {}), ...timeOf(rec.timeUnixNano ?? rec.observedTimeUnixNano) }];
}

function otlpToRecords(v: Obj): AdapterResult {
  const out: CanonicalRecord[] = [];
  let containers = 0;
  for (const rs of Array.isArray(v.resourceSpans) ? v.resourceSpans : []) {
    if (!isObj(rs)) continue;
    const identity = resourceIdentity(rs.resource);
    const snoopSession = attrString(attributes(isObj(rs.resource) ? rs.resource.attributes : undefined), 'mcpsnoop.session.id');
    const spans: Obj[] = [];
    for (const ss of Array.isArray(rs.scopeSpans) ? rs.scopeSpans : []) {
      if (!isObj(ss) || !Array.isArray(ss.spans)) continue;
      containers++;
      for (const span of ss.spans) if (isObj(span)) spans.push(span);
    }
    const { cancelled, used } = cancelledSpans(spans);
    for (const span of spans) if (!used.has(span)) out.push(...spanToRecords(span, identity, cancelled.get(span), snoopSession));
  }
  for (const rl of Array.isArray(v.resourceLogs) ? v.resourceLogs : []) {
    if (!isObj(rl)) continue;
    for (const sl of Array.isArray(rl.scopeLogs) ? rl.scopeLogs : []) {
      if (!isObj(sl) || !Array.isArray(sl.logRecords)) continue;
      containers++;
      for (const rec of sl.logRecords) if (isObj(rec)) out.push(...logRecordToRecords(rec));
    }
  }
  if (containers === 0 && out.length === 0 && !isEmptyExport(v)) return { error: 'OTLP line without scopeSpans[].spans[] or scopeLogs[].logRecords[]' };
  return out;
}

function isEmptyExport(v: Obj): boolean {
  const spans = v.resourceSpans;
  const logs = v.resourceLogs;
  return (Array.isArray(spans) && spans.length === 0) || (Array.isArray(logs) && logs.length === 0);
}

export const otlpFormat: JsonFormat = {
  kind: 'json',
  name: 'otlp',
  detect: (v) => Array.isArray(v.resourceSpans) || Array.isArray(v.resourceLogs),
  toRecords: (value) => otlpToRecords(value),
  limits: {
    http: false,
    bodies: false,
    session: true,
    typedIds: false,
    notes: [
      'results reconstructed from span attributes (error.type, rpc.response.status_code), not read from bodies',
      'a span whose error.type is neither tool_error nor a JSON-RPC code (timeout...), or that has an ERROR status without one, has no response',
      "a Python SDK client's span records the JSON-RPC error of an HTTP error's body as it records a server's answer (it cannot be told from one in a 200), and the errors its transport makes itself (\"Server returned an error response\", \"SSE stream ended without a response\"...), which are read as no response",
      "a client span records that a result came, not whether it was a tool's error (isError) or an input_required round: alone it reads as TOOL_SUCCESS, and with the server's span or log that view's outcome is taken; nor does a client span show a cancellation (the Python SDK traces no notifications)",
      'exports are not time-ordered; spans without MCP attributes are skipped: counted, not problems',
      'Gemini CLI (OTLP export): each gemini_cli.tool_call log of an MCP tool is a claim (tool, success, the error text, duration), joined to a wire capture by tool name and time; no JSON-RPC id, HTTP status of a success, or MCP session',
      "mcpsnoop's spans (rpc.system mcp, mcpsnoop.call.*): no arguments, result, JSON-RPC error code (a JSON-RPC error is read as no response, and said) or MCP session (its capture session is the connection); its live stream (--otlp-endpoint) sends no pending or cancelled call",
    ],
  },
};
