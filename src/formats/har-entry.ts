// Adapter for HAR 1.2 entries, one per line (`jq -c '.log.entries[]'`, or items of a whole HAR file): one exchange record each.
import type { ExchangeRecord, Headers, MessageRecord } from '../schema/record.js';
import { FULL_VIEW, type AdapterContext, type AdapterResult, type JsonFormat } from './adapter.js';
import { httpStatus, isObj, num, parseJsonContainer, safeKey, str, type Obj } from './values.js';
import { normalizeMethod } from './methods.js';
import { durationOf } from './time.js';

/**
 * HAR `{name,value}` header list to a flat object: names lowercased, repeated names joined with ", ". A header whose
 * name or value is not text is left out, and `bad` is told which (its index in the list) and why.
 */
export function harHeaders(list: unknown, bad?: (index: number, why: string) => void): Headers | undefined {
  if (!Array.isArray(list)) return undefined;
  const out: Headers = {};
  for (let i = 0; i < list.length; i++) {
    const h: unknown = list[i];
    if (!isObj(h) || typeof h.name !== 'string' || typeof h.value !== 'string') {
      bad?.(i, headerFault(h));
      continue;
    }
    const name = h.name.toLowerCase();
    if (!safeKey(name)) continue;
    out[name] = Object.hasOwn(out, name) ? `${out[name]}, ${h.value}` : h.value;
  }
  return out;
}

/**
 * Decodes `content.text` (or `postData.text`), base64 when its `encoding` says so. Undefined when the capture kept no
 * body: no text and a size other than 0, or a text that is null, which is how mitmproxy 10+'s exporter writes a body
 * it streamed and did not store (its `size` is then 0, which must not read as an empty body).
 */
function bodyText(content: Obj): string | undefined {
  if (content.text === null) return undefined;
  const text = str(content.text);
  if (text === undefined) return (num(content.size) ?? -1) === 0 ? '' : undefined;
  if (content.encoding === 'base64') return Buffer.from(text, 'base64').toString('utf8');
  return text;
}

/** Entries that cannot be MCP traffic (page assets, preflights) are recognized and dropped (tshark.ts drops such requests too). */
export function looksLikeMcp(method: string, reqHeaders: Headers | undefined, resHeaders: Headers | undefined, sendText: string | undefined): boolean {
  if (sendText !== undefined && sendText.includes('"jsonrpc"')) return true;
  const rq = reqHeaders ?? {};
  const rs = resHeaders ?? {};
  if ('mcp-session-id' in rq || 'mcp-protocol-version' in rq || 'mcp-session-id' in rs) return true;
  if (method === 'GET' && ((rq.accept ?? '').includes('text/event-stream') || 'last-event-id' in rq)) return true;
  return false;
}

/** Why a HAR header item cannot be read, naming it by its name when that is text (never quoting its value). */
function headerFault(h: unknown): string {
  if (!isObj(h)) return `is ${kindOf(h)}, not an object {name, value}`;
  if (typeof h.name !== 'string') return `has a name that is ${kindOf(h.name)}, not text`;
  const name = h.name.length > 64 ? `${h.name.slice(0, 64)}…` : h.name;
  return `(${JSON.stringify(name)}) has a value that is ${kindOf(h.value)}, not text`;
}

function kindOf(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (typeof v === 'number') return 'a number';
  return typeDescription(v);
}

/** Maps one HAR entry to an exchange record; [] for entries that are not MCP traffic. */
function harEntryToRecords(entry: Obj, ctx?: Pick<AdapterContext, 'diagnose'>): AdapterResult {
  const request = entry.request;
  if (!isObj(request) || typeof request.method !== 'string') return { error: 'HAR entry has no request.method' };
  // A field of another type than HAR 1.2 gives it is a broken entry, named: read as absent, a body of a number was a
  // request with no JSON-RPC message (its attempt lost) and a response text of an object read as "no body kept".
  const wrong = wrongType(entry, request);
  if (wrong !== undefined) return { error: `HAR entry whose ${wrong}` };
  if (isMcpsnoopEntry(request)) return mcpsnoopEntry(entry, request);
  const method = request.method.toUpperCase();
  // A header that is not text is left out and said (which list, which item); the rest of the entry is read.
  const badHeader = (list: string) => (i: number, why: string) =>
    ctx?.diagnose?.('har-header', `HAR entry's ${list}[${i}] ${why} (HAR 1.2): that header is left out, the rest of the entry is read`);
  const requestHeaders = harHeaders(request.headers, badHeader('request.headers'));
  const postData = isObj(request.postData) ? request.postData : undefined;
  // A request body the capture did not store (mitmproxy streams it with stream_large_bodies and writes null): the
  // JSON-RPC message is unknown, so no attempt can be read from the entry; say so rather than read nothing silently.
  if (postData?.text === null) return { error: `HAR entry whose request body the capture did not store (postData.text is null: mitmproxy streamed it, stream_large_bodies): the JSON-RPC message it carried is not in the capture` };
  // HAR 1.2 has no encoding for postData, but some proxies' exports give it one, as for content (base64).
  const sendText = postData ? bodyText(postData) : undefined;
  const response = isObj(entry.response) ? entry.response : undefined;
  const responseHeaders = response ? harHeaders(response.headers, badHeader('response.headers')) : undefined;
  if (!looksLikeMcp(method, requestHeaders, responseHeaders, sendText)) return [];

  // A status of another type ("200" as text) is a broken entry, not a request that got no response (status 0).
  if (response && response.status !== undefined && response.status !== null && num(response.status) === undefined) return { error: `HAR entry whose response.status is ${typeDescription(response.status)}, not a number (HAR 1.2: the HTTP status as a number, 0 when no response came)` };
  const rawStatus = response ? num(response.status) : undefined;
  if (rawStatus !== undefined && rawStatus > 0 && httpStatus(rawStatus) === undefined) return { error: 'HAR entry with an impossible response.status' };
  // mitmproxy writes `response._error`; Chrome writes `_error` on the response or the entry; Playwright's HAR
  // recorder writes `_failureText` (net::ERR_INCOMPLETE_CHUNKED_ENCODING for a stream cut after its head).
  const errorText = str(response?._error) ?? str(entry._error) ?? str(response?._failureText) ?? str(entry._failureText);
  const noResponse = !response || rawStatus === undefined || rawStatus <= 0;
  const content = response && isObj(response.content) ? response.content : undefined;

  const record: ExchangeRecord = { v: 1, kind: 'exchange', method, status: noResponse ? null : rawStatus };
  const ts = str(entry.startedDateTime);
  if (ts !== undefined) record.ts = ts;
  const url = str(request.url);
  if (url !== undefined) record.url = url;
  if (requestHeaders) record.requestHeaders = requestHeaders;
  if (sendText !== undefined) record.sendText = sendText;
  if (!noResponse) {
    const headers = { ...(responseHeaders ?? {}) };
    const mime = content ? str(content.mimeType) : undefined;
    if (!('content-type' in headers) && mime && mime !== 'x-unknown') headers['content-type'] = mime;
    record.responseHeaders = headers;
    const recvText = content ? bodyText(content) : undefined;
    if (recvText !== undefined) record.recvText = recvText;
  }
  if (noResponse) {
    record.end = 'error';
    record.error = errorText ?? (response ? 'no HTTP response (status 0)' : 'no response recorded');
  } else if (errorText !== undefined) {
    // A status was received, then the stream failed (e.g. Chrome net::ERR_ABORTED on an SSE body).
    record.end = /time(?:d)?\s*out/i.test(errorText) ? 'timeout' : 'aborted';
    record.error = errorText;
  } else {
    record.end = 'complete';
  }
  const time = num(entry.time);
  if (durationOf(time) !== undefined) record.durationMs = time;
  if (endUnknown(entry, errorText)) record.endUnknown = true;
  const session = sessionHeader(requestHeaders) ?? sessionHeader(responseHeaders);
  if (session !== undefined) record.session = session;
  return [record];
}

/** mcpsnoop's HAR export (`mcpsnoop export -T har`, 0.22.0): an entry per JSON-RPC call, its url `mcp://<label>/<method>[/<tool>]`, its httpVersion "JSON-RPC/2.0". */
function isMcpsnoopEntry(request: Obj): boolean {
  return request.httpVersion === 'JSON-RPC/2.0' && typeof request.url === 'string' && request.url.startsWith('mcp://');
}

/**
 * One call of mcpsnoop's HAR export, which is not HTTP at all (its stdio captures too): postData.text holds the
 * request's params, content.text the result or the error object; status 200 is a result, 500 ("Error") an isError
 * result or a JSON-RPC error, 0 ("pending") no response, 0 ("Cancelled") a call the client cancelled. It keeps no
 * JSON-RPC id, no header, no MCP session and no HTTP status: an HTTP error without a JSON-RPC body (a 401, a 404 of a
 * lost session, mcpsnoop's own 502) reads as pending, as a client's timeout does. The entry becomes the request and its
 * answer as messages, with an id made from the entry's start (unique in the file, named as made: never joined on), on
 * the connection of the label (the proxy's view: no side).
 */
function mcpsnoopEntry(entry: Obj, request: Obj): AdapterResult {
  const url = request.url as string;
  const slash = url.indexOf('/', 'mcp://'.length);
  const label = slash < 0 ? url.slice('mcp://'.length) : url.slice('mcp://'.length, slash);
  let path = slash < 0 ? '' : url.slice(slash + 1);
  const started = str(entry.startedDateTime);
  if (path === '' || started === undefined) return { error: "mcpsnoop HAR entry without a method in its url (mcp://<label>/<method>) or a startedDateTime" };
  const postData = isObj(request.postData) ? request.postData : undefined;
  const paramsText = postData ? str(postData.text) : undefined;
  const params = paramsText !== undefined && paramsText !== '' ? parseJsonContainer(paramsText) : undefined;
  if (paramsText !== undefined && paramsText !== '' && !isObj(params)) return { error: 'mcpsnoop HAR entry whose postData.text (the request params) is not a JSON object' };
  // tools/call's url ends with the tool's name, which params.name holds too.
  const name = isObj(params) ? str(params.name) : undefined;
  if (name !== undefined && path.endsWith(`/${name}`)) path = path.slice(0, -name.length - 1);
  const method = normalizeMethod(path);
  const id = `mcpsnoop-har ${started}`;
  const conn = `mcpsnoop:${label}`;
  const first: MessageRecord = { v: 1, kind: 'message', direction: 'c2s', conn, ts: started, message: { jsonrpc: '2.0', id, method, ...(isObj(params) ? { params } : {}) } };
  const response = isObj(entry.response) ? entry.response : undefined;
  const status = response ? num(response.status) : undefined;
  const statusText = response ? str(response.statusText) : undefined;
  const content = response && isObj(response.content) ? response.content : undefined;
  const body = content ? str(content.text) : undefined;
  const time = num(entry.time);
  const startMs = Date.parse(started);
  const endTs = Number.isFinite(startMs) && time !== undefined && durationOf(time) !== undefined ? new Date(startMs + time).toISOString() : started;
  if (status === 200 || status === 500) {
    const value = body !== undefined ? parseJsonContainer(body) : undefined;
    if (!isObj(value)) return { error: `mcpsnoop HAR entry whose response.content.text (the ${status === 200 ? 'result' : 'error'}) is not a JSON object` };
    // 500 is an isError result or a JSON-RPC error object ({code, message}); 200 a result.
    const isRpcError = status === 500 && value.isError === undefined && 'code' in value;
    return [first, { v: 1, kind: 'message', direction: 's2c', conn, ts: endTs, message: { jsonrpc: '2.0', id, ...(isRpcError ? { error: value } : { result: value }) } }];
  }
  if (status === 0 && statusText === 'Cancelled') {
    first.error = "mcpsnoop's HAR: the client cancelled the call (status 0 \"Cancelled\"), before any response";
    return [first, { v: 1, kind: 'message', direction: 'c2s', conn, ts: endTs, message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } } }];
  }
  first.error = `mcpsnoop's HAR: no response to the call (status ${status ?? 'missing'}${statusText ? ` "${statusText}"` : ''}); an HTTP error without a JSON-RPC body (401, 404, mcpsnoop's own 502) or a client's timeout reads so, the export keeps no HTTP status`;
  return [first];
}

/**
 * mitmproxy's exporter times an exchange that failed (its `_error`: the client disconnected, the stream broke) only up
 * to its response head: the failure has no end time there, so `receive` is 0 and `time` ends at the head. When such an
 * exchange really ended is not in the entry, and its `time` must not be read as its end (a client that gave up a
 * second later would seem to have seen its stream end first): the record says the end is unknown.
 */
function endUnknown(entry: Obj, errorText: string | undefined): boolean {
  if (errorText === undefined) return false;
  const timings = isObj(entry.timings) ? entry.timings : undefined;
  return timings !== undefined && num(timings.receive) === 0;
}

function sessionHeader(h: Headers | undefined): string | undefined {
  const v = h?.['mcp-session-id'];
  return v === undefined || v === '' ? undefined : v;
}

export const harEntryFormat: JsonFormat = {
  kind: 'json',
  name: 'har',
  detect: (v) =>
    isObj(v.request) && isObj(v.response) &&
    (typeof v.startedDateTime === 'string' || Array.isArray(v.request.headers)),
  toRecords: (value, ctx) => harEntryToRecords(value, ctx),
  limits: {
    ...FULL_VIEW,
    notes: [
      'bodies absent where the capture kept none (sanitized export, streamed or in-flight SSE): such exchanges have no recvText',
      'entries that are not MCP traffic (page assets, preflights) are skipped: counted, not problems',
    ],
  },
};

/** The first field of the entry whose type is not HAR 1.2's, as `request.headers is an object, not a list (HAR 1.2)`. */
function wrongType(entry: Obj, request: Obj): string | undefined {
  const response = isObj(entry.response) ? entry.response : undefined;
  const postData = isObj(request.postData) ? request.postData : undefined;
  const content = response && isObj(response.content) ? response.content : undefined;
  const fields: [string, unknown, 'a list' | 'an object' | 'text'][] = [
    ['request.url', request.url, 'text'],
    ['request.headers', request.headers, 'a list'],
    ['request.postData', request.postData, 'an object'],
    ['request.postData.text', postData?.text, 'text'],
    ['response', entry.response, 'an object'],
    ['response.headers', response?.headers, 'a list'],
    ['response.content', response?.content, 'an object'],
    ['response.content.text', content?.text, 'text'],
  ];
  for (const [field, v, want] of fields) {
    if (v === undefined || v === null) continue; // absent (a body not kept is null): read as such
    const ok = want === 'a list' ? Array.isArray(v) : want === 'an object' ? isObj(v) : typeof v === 'string';
    if (!ok) return `${field} is ${typeof v === 'number' ? 'a number' : typeDescription(v)}, not ${want} (HAR 1.2)`;
  }
  return undefined;
}

/** What type a wrong-typed value has, for a diagnostic (never the value itself: a log's text is not repeated). */
function typeDescription(v: unknown): string {
  if (typeof v === 'string') return 'text';
  if (typeof v === 'number') return 'a number too large to read';
  return Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
