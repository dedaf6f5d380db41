// Adapter for OpenTelemetry OTLP JSON lines (file exporter): MCP spans become a request and a reconstructed response message.
import type { CanonicalRecord, MessageRecord, Side } from '../schema/record.js';
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
const JSONRPC_CODE = /^-?\d+$/;

function requestParams(method: string, attrs: Obj): Obj | undefined {
  if (method === 'tools/call') {
    const name = attrString(attrs, 'gen_ai.tool.name');
    if (name === undefined) return undefined;
    const args = typeof attrs['gen_ai.tool.call.arguments'] === 'string' ? parseJsonContainer(attrs['gen_ai.tool.call.arguments']) : undefined;
    return isObj(args) ? { name, arguments: args } : { name };
  }
  if (method === 'prompts/get') {
    const name = attrString(attrs, 'gen_ai.prompt.name');
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
 * rpc.response.status_code or error.type -> that error; another error.type (timeout, _OTHER...) -> no response
 * can be rebuilt; no error attributes -> a success result. Span status is never used.
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
    return { jsonrpc: '2.0', id, error: { code: Number(code), message: status || `JSON-RPC error ${code}` } };
  }
  if (errorType !== undefined) return undefined;
  const result = isObj(toolResult) ? toolResult : method === 'tools/call' ? { content: [], isError: false } : {};
  return { jsonrpc: '2.0', id, result };
}

function spanToRecords(span: Obj): MessageRecord[] {
  const attrs = attributes(span.attributes);
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

  const common = (): Partial<MessageRecord> => ({
    ...(side ? { side } : {}),
    ...(session ? { session } : traceId ? { conn: `trace:${traceId}` } : {}),
  });
  const request: Obj = { jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), method };
  const params = requestParams(method, attrs);
  if (params) request.params = params;
  const out: MessageRecord[] = [{ v: 1, kind: 'message', direction: requestDir, message: request, ...common(), ...timeOf(span.startTimeUnixNano) }];
  if (id !== undefined) {
    const response = responseOf(method, id, attrs, span);
    if (response) {
      out.push({ v: 1, kind: 'message', direction: requestDir === 'c2s' ? 's2c' : 'c2s', message: response, ...common(), ...timeOf(span.endTimeUnixNano) });
    }
  }
  return out;
}

/** An OTLP `*UnixNano` time; "0" (the proto default, written by some exporters for unset times) counts as absent. */
function timeOf(nanos: unknown): { ts?: string | number } {
  const ts = timeValue(nanos);
  return ts === undefined || ts === '0' || ts === 0 ? {} : { ts };
}

/** A log record whose body is a JSON-RPC message (as JSON text) becomes a message; others carry nothing to analyze. */
function logRecordToRecords(rec: Obj): MessageRecord[] {
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

export function otlpToRecords(v: Obj): AdapterResult {
  const out: CanonicalRecord[] = [];
  let containers = 0;
  for (const rs of Array.isArray(v.resourceSpans) ? v.resourceSpans : []) {
    if (!isObj(rs)) continue;
    for (const ss of Array.isArray(rs.scopeSpans) ? rs.scopeSpans : []) {
      if (!isObj(ss) || !Array.isArray(ss.spans)) continue;
      containers++;
      for (const span of ss.spans) if (isObj(span)) out.push(...spanToRecords(span));
    }
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
      'a span whose error.type is neither tool_error nor a JSON-RPC code (timeout...) has no response',
      'exports are not time-ordered; spans without MCP attributes are skipped',
    ],
  },
};
