// Adapter for MCPSpy JSONL (eBPF sniffer): one JSON-RPC message per line, with a transport block and, on responses, the paired request.
import type { MessageRecord } from '../schema/record.js';
import { MESSAGE_LEVEL, type AdapterResult, type JsonFormat } from './adapter.js';
import { senderOfMethod } from './methods.js';
import { isObj, num, parseJson, str, type Obj } from './values.js';

const TYPES = new Set(['request', 'response', 'notification']);

/** MCPSpy writes `"error": {}` on every line (a Go struct with omitempty); only a code or a message makes it an error. */
function realError(e: unknown): Obj | undefined {
  if (!isObj(e)) return undefined;
  return e.code !== undefined || (typeof e.message === 'string' && e.message !== '') ? e : undefined;
}

/** The JSON-RPC message: the original `raw` text when it parses, else rebuilt from the decoded fields. */
function messageOf(v: Obj): { message: Obj } | { problem: string } {
  const raw = str(v.raw);
  if (raw !== undefined) {
    const parsed = parseJson(raw);
    if (isObj(parsed)) return { message: parsed };
  }
  const type = v.type;
  const m: Obj = { jsonrpc: '2.0' };
  if (v.id !== undefined && v.id !== null) m.id = v.id;
  if (type === 'request' || type === 'notification') {
    if (typeof v.method !== 'string') return { problem: `MCPSpy ${String(type)} without a method` };
    m.method = v.method;
    if (v.params !== undefined) m.params = v.params;
  } else {
    const err = realError(v.error);
    if (err) m.error = err;
    else if (v.result !== undefined) m.result = v.result;
    else return { problem: 'MCPSpy response with neither a result nor an error code/message' };
  }
  return { message: m };
}

function direction(v: Obj, m: Obj): 'c2s' | 's2c' {
  const http = v.http_transport;
  if (isObj(http)) return http.is_request === true ? 'c2s' : 's2c';
  // stdio: the pids do not say which end is the client, the method does.
  if (typeof m.method === 'string') {
    const sender = senderOfMethod(m.method, m.id === undefined);
    return sender === 'server' ? 's2c' : 'c2s';
  }
  const req = isObj(v.request) ? v.request : undefined;
  const reqMethod = req ? str(req.method) : undefined;
  return reqMethod !== undefined && senderOfMethod(reqMethod, false) === 'server' ? 'c2s' : 's2c';
}

function connection(v: Obj, dir: 'c2s' | 's2c'): string | undefined {
  const http = v.http_transport;
  if (isObj(http)) {
    const host = str(http.host);
    return host ? `http:${host}` : undefined;
  }
  const stdio = v.stdio_transport;
  if (isObj(stdio)) {
    const from = num(stdio.from_pid);
    const to = num(stdio.to_pid);
    if (from === undefined || to === undefined) return undefined;
    const [client, server] = dir === 'c2s' ? [from, to] : [to, from];
    return `stdio:${client}->${server}`;
  }
  return undefined;
}

function mcpspyToRecords(v: Obj): AdapterResult {
  if (typeof v.type !== 'string' || !TYPES.has(v.type)) return { error: `MCPSpy line with unknown type ${JSON.stringify(typeof v.type === 'object' && v.type !== null ? (Array.isArray(v.type) ? 'an array' : 'an object') : String(v.type)).slice(0, 40)}` };
  const m = messageOf(v);
  if ('problem' in m) return { error: m.problem };
  const message = m.message;
  const dir = direction(v, message);
  const record: MessageRecord = { v: 1, kind: 'message', direction: dir, message };
  const ts = str(v.timestamp);
  if (ts !== undefined) record.ts = ts;
  const conn = connection(v, dir);
  if (conn !== undefined) record.conn = conn;
  return [record];
}

export const mcpspyFormat: JsonFormat = {
  kind: 'json',
  name: 'mcpspy',
  // Older releases wrote http lines without an http_transport block and without raw/error: transport_type decides.
  detect: (v) => typeof v.transport_type === 'string' && typeof v.type === 'string' && TYPES.has(v.type),
  toRecords: (value) => mcpspyToRecords(value),
  limits: {
    ...MESSAGE_LEVEL,
    answersUnlogged: true,
    notes: [
      'drops responses slower than 5 s and responses to requests it did not see',
      'drops identical messages within 2 s: identical retries are invisible',
      'drops malformed messages: malformed JSON is not observable',
      'no HTTP headers',
    ],
  },
};
