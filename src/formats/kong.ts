// Adapter for Kong AI Gateway log objects (ai-mcp-proxy plugin, shipped by http-log/file-log): `ai.mcp.rpc[]` to gateway messages.
import type { MessageRecord } from '../schema/record.js';
import type { AdapterResult, JsonFormat } from './adapter.js';
import { normalizeMethod } from './methods.js';
import { httpStatus, isObj, looksLikeJsonRpc, num, parseJson, str, type Obj } from './values.js';

/** Kong logs headers as an object of string or string[] values; names may be in any case. */
function header(headers: unknown, name: string): string | undefined {
  if (!isObj(headers)) return undefined;
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== name) continue;
    if (typeof v === 'string') return v;
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  }
  return undefined;
}

/** JSON-RPC messages in a logged payload: a JSON text, or an SSE body whose `data:` lines hold them. */
function payloadMessages(text: unknown): Obj[] | undefined {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  const whole = parseJson(text);
  if (whole !== undefined) {
    const list = Array.isArray(whole) ? whole : [whole];
    return list.every(looksLikeJsonRpc) ? (list as Obj[]) : undefined;
  }
  const out: Obj[] = [];
  for (const block of text.split(/\r?\n\r?\n|\r\r/)) {
    const data = block.split(/\r?\n|\r/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
    if (data === '') continue;
    const m = parseJson(data);
    if (isObj(m) && looksLikeJsonRpc(m)) out.push(m);
  }
  return out.length ? out : undefined;
}

/** Kong's `started_at` is epoch milliseconds; the response time adds the rpc latency. */
function times(v: Obj, latency: number | undefined): { start?: number; end?: number } {
  const start = num(v.started_at);
  if (start === undefined) return {};
  return latency === undefined ? { start } : { start, end: start + latency };
}

function kongToRecords(v: Obj): AdapterResult {
  const ai = isObj(v.ai) ? v.ai : undefined;
  const mcp = ai && isObj(ai.mcp) ? ai.mcp : undefined;
  if (!mcp) return { error: 'Kong log object without ai.mcp' };
  const rpcs = Array.isArray(mcp.rpc) ? mcp.rpc : [];
  const request = isObj(v.request) ? v.request : undefined;
  const response = isObj(v.response) ? v.response : undefined;
  const session = str(mcp.mcp_session_id) || header(request?.headers, 'mcp-session-id') || header(response?.headers, 'mcp-session-id');
  const status = httpStatus(response?.status);
  const base = (): Partial<MessageRecord> => ({
    side: 'gateway',
    ...(session ? { session } : {}),
    ...(status !== undefined ? { status } : {}),
  });
  const out: MessageRecord[] = [];
  for (const rpc of rpcs) {
    if (!isObj(rpc)) return { error: 'Kong ai.mcp.rpc[] item is not an object' };
    const method = str(rpc.method);
    if (method === undefined) return { error: 'Kong ai.mcp.rpc[] item without a method' };
    const payload = isObj(rpc.payload) ? rpc.payload : {};
    const latency = num(rpc.latency);
    const t = times(v, latency);
    const id = rpc.id === undefined || rpc.id === null || rpc.id === '' ? undefined : String(rpc.id);

    const sent = payloadMessages(payload.request);
    const received = payloadMessages(payload.response);
    // A logged payload keeps the id's real type; use it for both halves so they join.
    const typedId = received?.find((m) => m.method === undefined && id !== undefined && String(m.id) === id)?.id;
    const reqMsg: Obj = sent?.find((m) => typeof m.method === 'string' && (id === undefined || String(m.id) === id)) ?? {
      jsonrpc: '2.0',
      ...(id !== undefined ? { id: typedId ?? id } : {}),
      method: normalizeMethod(method),
      ...(str(rpc.tool_name) ? { params: { name: rpc.tool_name } } : {}),
    };
    out.push({ v: 1, kind: 'message', direction: 'c2s', message: reqMsg, ...base(), ...(t.start !== undefined ? { ts: t.start } : {}) });
    if (id === undefined) continue; // a notification has no response
    const reqId = reqMsg.id ?? id;
    const endTs = t.end !== undefined ? { ts: t.end } : t.start !== undefined ? { ts: t.start } : {};
    if (received) {
      // Notifications and server requests on an SSE body stay on the call's timeline.
      for (const m of received) out.push({ v: 1, kind: 'message', direction: 's2c', message: m, ...base(), ...endTs });
      continue;
    }
    const error = str(rpc.error);
    if (error) {
      // Without log_payloads Kong logs only the error text; the JSON-RPC code is not recorded.
      out.push({ v: 1, kind: 'message', direction: 's2c', message: { jsonrpc: '2.0', id: reqId, error: { code: -32603, message: error } }, ...base(), ...endTs });
    } else if (latency !== undefined && latency >= 0 && status !== undefined) {
      const result = normalizeMethod(method) === 'tools/call' ? { content: [] } : {};
      out.push({ v: 1, kind: 'message', direction: 's2c', message: { jsonrpc: '2.0', id: reqId, result }, ...base(), ...endTs });
    }
  }
  return out;
}

export const kongFormat: JsonFormat = {
  kind: 'json',
  name: 'kong',
  detect: (v) => isObj(v.ai) && isObj(v.ai.mcp),
  toRecords: (value) => kongToRecords(value),
  limits: {
    http: true,
    bodies: false,
    session: true,
    typedIds: false,
    notes: [
      'without log_payloads results are reconstructed: an error shows as code -32603 (the real code is not logged), tool errors are not visible',
      'ids are typed only where payloads were logged',
      "the HTTP status is the gateway's response; a call the gateway denied never reached the server",
    ],
  },
};
