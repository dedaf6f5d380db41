// An application's own structured log line (pino, winston, bunyan, structlog, python-json-logger...) that carries JSON-RPC messages in its fields: the messages, with the line's time, session, status and direction.
import type { CanonicalRecord, MessageRecord } from '../schema/record.js';
import { FULL_VIEW, type AdapterContext, type AdapterResult, type JsonFormat } from './adapter.js';
import { jsonRpcFormat } from './jsonrpc.js';
import { parsePythonLiteral, pydanticMessage } from './python-text.js';
import { isObj, parseJsonContainer, type Obj } from './values.js';
import { trimOldest } from '../bounded.js';
import { parseTimestamp } from './time.js';

/** Keys (lowercased, without `-` and `_`) an application names the MCP session id by. */
const SESSION_KEYS = new Set(['session', 'sessionid', 'mcpsessionid']);
/**
 * Objects a logger nests the line's own fields in: loguru's `serialize=True` writes `{"text": ..., "record": {...}}`
 * with the time, level and message in `record` and what the app bound in `record.extra`.
 */
const NESTED_KEYS = ['record', 'extra'];
/**
 * .NET loggers keep a line's template arguments in an object of their own: Microsoft.Extensions.Logging's JSON console
 * formatter in `State` (beside its `{OriginalFormat}`), Serilog's JSON formatter in `Properties`.
 */
const DOTNET_KEYS = ['State', 'Properties'];
/** Keys for the line's own time, in the order they are preferred (.NET's `Timestamp`, Serilog's compact `@t` last). */
const TIME_KEYS = ['ts', 'timestamp', 'time', '@timestamp', 'date', 'datetime', 'asctime', 'Timestamp', '@t'];
/** Keys of a structured logger's message template, the words of which say which way a message went (.NET loggers). */
const TEMPLATE_KEYS = ['{OriginalFormat}', 'MessageTemplate', '@mt'];
/** Keys for the HTTP status of the exchange the line describes. */
const STATUS_KEYS = ['status', 'statusCode', 'status_code', 'http_status', 'httpStatus', 'responseStatus', 'response_status'];
/** Words (in a key, or in the text before a message in a string) that say the writer sent or received the message. */
const SENT_WORDS = new Set(['out', 'outgoing', 'outbound', 'send', 'sending', 'sent', 'tx', 'write', 'wrote', 'writing']);
const RECEIVED_WORDS = new Set(['in', 'incoming', 'inbound', 'recv', 'receive', 'receiving', 'received', 'rx', 'read']);

/** Most fields looked at on one level: a log line is small; a huge object is no log line to search. */
const MAX_KEYS = 64;
/** Longest text before a message inside a string field ("received message: {...}"). */
const MAX_PREFIX = 80;

interface Found {
  message: unknown;
  /** Read from pydantic's text of a message object (a line that has the message itself needs no such copy). */
  fromText?: true;
  /** "in" or "out" relative to the writer, when the key or the text before the message says so. */
  direction?: 'in' | 'out';
}

/** A JSON-RPC 2.0 message (or a non-empty batch of them) by its `jsonrpc` member: an app log's other objects are no messages. */
function isMessage(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0 && v.every(isMessage);
  return isObj(v) && v.jsonrpc === '2.0' && (typeof v.method === 'string' || 'result' in v || 'error' in v);
}

function directionOfWords(text: string): 'in' | 'out' | undefined {
  for (const w of text.toLowerCase().split(/[^a-z]+/)) {
    if (SENT_WORDS.has(w)) return 'out';
    if (RECEIVED_WORDS.has(w)) return 'in';
  }
  return undefined;
}

/** Words of a log line's own text ("mcp message received") that say which way its messages went; free text, so no "in"/"read". */
const TEXT_SENT = new Set(['outgoing', 'outbound', 'send', 'sending', 'sent']);
const TEXT_RECEIVED = new Set(['incoming', 'inbound', 'receive', 'receiving', 'received']);
/** Fields a logger writes its line's own text in. */
const TEXT_KEYS = ['msg', 'message', 'event'];

/** The line and the objects a logger nests its own fields in (loguru's `record`, `record.extra`), outermost first. */
function layersOf(v: Obj): Obj[] {
  const out = [v];
  for (let i = 0; i < out.length && out.length < 4; i++) {
    for (const k of NESTED_KEYS) if (isObj(out[i]![k])) out.push(out[i]![k] as Obj);
  }
  for (const k of DOTNET_KEYS) if (isObj(v[k])) out.push(v[k] as Obj);
  return out;
}

/** A .NET logger's template of the line (`{EndpointName} sending message. Message: '{Message}'.`), when it has one. */
function templateOf(layers: Obj[]): string | undefined {
  for (const v of layers) for (const k of TEMPLATE_KEYS) if (typeof v[k] === 'string') return v[k] as string;
  return undefined;
}

/** The line's time: a time field of the line, else of the object a logger nests its fields in; loguru's `time` is `{ repr, timestamp }`. */
function timeOf(layers: Obj[]): string | number | undefined {
  for (const layer of layers) {
    for (const k of TIME_KEYS) {
      let t = layer[k];
      if (isObj(t)) t = typeof t.repr === 'string' ? t.repr : t.timestamp;
      if (typeof t === 'string' || (typeof t === 'number' && Number.isFinite(t))) return t;
    }
  }
  return undefined;
}

/** A logger line's own time, where any logger this reads puts it (an envelope's time is not to replace it). */
export function loggedTime(v: Obj): string | number | undefined {
  return timeOf(layersOf(v));
}

/** Which way the words of a log line's own text say its message went ("mcp message received"). */
function wordsDirection(text: string): 'in' | 'out' | undefined {
  for (const w of text.toLowerCase().split(/[^a-z]+/)) {
    if (TEXT_SENT.has(w)) return 'out';
    if (TEXT_RECEIVED.has(w)) return 'in';
  }
  return undefined;
}

/**
 * The direction a line's text names, when the messages are in other fields (not in that text): a .NET logger's
 * template first (its words are the code's, not the message's), then the line's text fields.
 */
function textDirection(layers: Obj[], template: string | undefined): 'in' | 'out' | undefined {
  const said = template !== undefined ? wordsDirection(template) : undefined;
  if (said) return said;
  for (const v of layers) for (const k of TEXT_KEYS) {
    const t = v[k];
    if (typeof t !== 'string' || t.includes('"jsonrpc"')) continue;
    const d = wordsDirection(t);
    if (d) return d;
  }
  return undefined;
}

/**
 * Whose log a .NET line is, from the C# SDK's own words: its endpoint name (`Server (NAME VERSION)`, `Client (NAME
 * VERSION)`), else the logger's category (`ModelContextProtocol.Client.…`, `ModelContextProtocol.Server.…`).
 */
function dotnetSide(layers: Obj[]): 'client' | 'server' | undefined {
  for (const v of layers) {
    const name = v.EndpointName;
    if (typeof name === 'string') {
      if (name.startsWith('Server (')) return 'server';
      if (name.startsWith('Client (')) return 'client';
    }
  }
  for (const v of layers) for (const k of ['Category', 'SourceContext']) {
    const c = v[k];
    if (typeof c !== 'string' || !c.startsWith('ModelContextProtocol.')) continue;
    if (c.startsWith('ModelContextProtocol.Client.')) return 'client';
    if (c.startsWith('ModelContextProtocol.Server.') || c.startsWith('ModelContextProtocol.AspNetCore')) return 'server';
  }
  return undefined;
}

/** A Python dict's text of a JSON-RPC message: its `'jsonrpc': '2.0'` (str() of the dict, or an f-string of it). */
const PYTHON_DICT_MESSAGE = /['"]jsonrpc['"]: '2\.0'/;

/**
 * Where a pydantic model's text of a message may start in a string: mcp 1.x's `root=JSONRPCRequest(`, a repr's
 * `JSONRPCRequest(`, or a str()'s first field `jsonrpc='2.0'` (mcp 2.x).
 */
const PYDANTIC_STARTS = [/\broot=[A-Z]\w*\(/, /\b[A-Z]\w*\((?=\w+=)/, /\bjsonrpc='2\.0'/];

/** The message a pydantic model's text in the string is, after a short prefix, with the prefix's direction. */
function pydanticInText(text: string): Found | undefined {
  for (const start of PYDANTIC_STARTS) {
    const at = text.search(start);
    if (at === -1 || at > MAX_PREFIX) continue;
    const message = pydanticMessage(text.slice(at));
    if (message === undefined) continue;
    const direction = at > 0 ? directionOfWords(text.slice(0, at)) : undefined;
    return direction ? { message, direction, fromText: true } : { message, fromText: true };
  }
  return undefined;
}

/**
 * The message a string field holds: the whole string, or the JSON (or a Python dict's text) after a short prefix
 * ("received: {...}"), or a pydantic model's text of one (what `str(message)` of the Python SDK's message writes).
 */
function messageInText(text: string): Found | undefined {
  const json = text.includes('"jsonrpc"');
  if (!json && !PYTHON_DICT_MESSAGE.test(text)) return text.includes("jsonrpc='2.0'") ? pydanticInText(text) : undefined;
  const at = text.search(/[{[]/);
  if (at === -1 || at > MAX_PREFIX) return undefined;
  let message = json ? parseJsonContainer(text.slice(at)) : undefined;
  // python-json-logger's log.info("received %s", message), loguru's logger.info("received {}", message): str() of the dict.
  if (message === undefined && !json) message = parsePythonLiteral(text.slice(at));
  if (!isMessage(message)) return undefined;
  const direction = at > 0 ? directionOfWords(text.slice(0, at)) : undefined;
  return direction ? { message, direction } : { message };
}

/** The messages in a line's fields and in the fields of its objects one level down (req.body, http.response.body...). */
function collect(v: Obj, depth: number, keyDirection: 'in' | 'out' | undefined, out: Found[]): void {
  let n = 0;
  for (const k in v) {
    if (!Object.hasOwn(v, k) || ++n > MAX_KEYS) return;
    const value = v[k];
    const direction = directionOfWords(k) ?? keyDirection;
    if (isMessage(value)) out.push(direction ? { message: value, direction } : { message: value });
    else if (typeof value === 'string') {
      const found = messageInText(value);
      if (found) out.push(found.direction || !direction ? found : { ...found, direction });
    } else if (depth < 2 && isObj(value)) collect(value, depth + 1, direction, out);
  }
}

function sessionOf(v: Obj, depth = 0): string | undefined {
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    const value = v[k];
    const name = k.toLowerCase().replace(/[-_]/g, '');
    if (typeof value === 'string' && value !== '' && SESSION_KEYS.has(name)) return value;
    // A copy of the request's headers (Node's req.headers, a framework's headers object); what a logger nests (loguru's record.extra).
    // requestHeaders/responseHeaders (a fetch wrapper's copies), and the response's: an initialize's session id comes in its headers.
    if (depth < 2 && isObj(value) && (name.endsWith('headers') || name === 'req' || name === 'request' || name === 'res' || name === 'response' || NESTED_KEYS.includes(name) || name === 'state' || name === 'properties')) {
      const inner = sessionOf(value, depth + 1);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

function statusOf(v: Obj): number | undefined {
  for (const k of STATUS_KEYS) {
    const s = v[k];
    if (typeof s === 'number' && Number.isInteger(s) && s >= 100 && s <= 599) return s;
    if (typeof s === 'string' && /^[1-5]\d\d$/.test(s)) return Number(s);
  }
  // pino-http and alike: res.statusCode.
  for (const k of ['res', 'response']) if (isObj(v[k])) {
    const s = statusOf(v[k] as Obj);
    if (s !== undefined) return s;
  }
  return undefined;
}

/** A request (or a batch holding one) is told before a response on the same line: the response answers it. */
function isRequestish(m: unknown): boolean {
  const first = Array.isArray(m) ? m[0] : m;
  return isObj(first) && typeof first.method === 'string';
}

/**
 * The JSON-RPC messages an application's log line carries in its fields (a message object, a JSON string of one, or
 * one after a short prefix such as "received: "), each as a `jsonrpc` line: with the line's time, session id (a
 * `sessionId`-like field or an `mcp-session-id` header), `side`, `direction` (the line's own, else one the key or
 * prefix names: `incoming`, `sent`, ...) and HTTP status (on the response, else on the request). Undefined when the
 * line carries none.
 */
function appLogMessages(v: Obj): Obj[] | undefined {
  let found: Found[] = [];
  collect(v, 0, undefined, found);
  if (found.length === 0) return undefined;
  // A message object's text beside the message itself is a copy of it (a repr logged next to the object).
  if (found.some((f) => !f.fromText)) found = found.filter((f) => !f.fromText);
  // The same message twice on one line is one message logged twice (loguru's `text` repeats `record.message`).
  if (found.length > 1) {
    const seen = new Set<string>();
    found = found.filter((f) => {
      const key = JSON.stringify(f.message);
      return !seen.has(key) && Boolean(seen.add(key));
    });
  }
  found.sort((a, b) => Number(isRequestish(b.message)) - Number(isRequestish(a.message)));
  const layers = layersOf(v);
  const time = timeOf(layers);
  const session = sessionOf(v);
  const status = statusOf(v);
  const lineDirection = typeof v.direction === 'string' ? v.direction : textDirection(layers, templateOf(layers));
  const side = v.side === 'client' || v.side === 'server' ? v.side : dotnetSide(layers);
  const statusOn = found.findIndex((f) => !isRequestish(f.message));
  return found.map((f, i) => ({
    message: f.message,
    ...(time !== undefined ? { ts: time } : {}),
    ...(session !== undefined ? { session } : {}),
    ...(side !== undefined ? { side } : {}),
    ...(lineDirection !== undefined ? { direction: lineDirection } : f.direction ? { direction: f.direction } : {}),
    ...(status !== undefined && i === (statusOn === -1 ? 0 : statusOn) ? { status } : {}),
  }));
}

/** Python's text of a JSON-RPC message object (a pydantic model's str() or repr(): `jsonrpc='2.0' id=1 method='initialize' ...`). */
const PYTHON_OBJECT_MESSAGE = /(?:^|[\s(])jsonrpc='2\.0',? (?:id|method)=/;

/** The field (a dotted path) whose string is a message object's Python text, not JSON: what a logger writes for an object it cannot encode. */
function pythonObjectField(v: Obj, depth = 0, path = ''): string | undefined {
  let n = 0;
  for (const k in v) {
    if (!Object.hasOwn(v, k) || ++n > MAX_KEYS) return undefined;
    const value = v[k];
    if (typeof value === 'string' && (PYTHON_OBJECT_MESSAGE.test(value) || PYTHON_DICT_MESSAGE.test(value))) return `${path}${k}`;
    if (depth < 2 && isObj(value)) {
      const inner = pythonObjectField(value, depth + 1, `${path}${k}.`);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/**
 * Keys (lowercased) of a logger's level and of its message text: a line with both is an application's log line
 * (.NET loggers capitalize them: `LogLevel` and `Message`, Serilog's `Level` and `MessageTemplate`).
 */
const LEVEL_NAMES = new Set(['level', 'levelname', 'severity', 'lvl', 'loglevel', 'log.level']);
const TEXT_NAMES = new Set(['msg', 'message', 'event', 'messagetemplate', 'renderedmessage']);

const HTTP_VERBS = new Set(['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS']);

/**
 * A line of an app's own HTTP log (a fetch wrapper's, a middleware's) that holds no JSON-RPC message: an HTTP method
 * and a URL or path (a GET stream, a DELETE, a request line whose body is logged apart), a URL and an error (a failed
 * request's line), or a status beside headers (a 202's response line). No MCP traffic to read, but no broken line either.
 */
function isHttpLogLine(v: Obj): boolean {
  const verb = v.method ?? v.httpMethod;
  const target = typeof v.url === 'string' || typeof v.path === 'string';
  if (typeof verb === 'string' && HTTP_VERBS.has(verb.toUpperCase()) && target) return true;
  // A failed request's line: its URL and the error (fetch failed), no method.
  if (target && typeof v.error === 'string') return true;
  return statusOf(v) !== undefined && (isObj(v.headers) || isObj(v.responseHeaders) || isObj(v.res));
}

function isLogLine(v: Obj): boolean {
  const logged = (o: Obj) => {
    let level = false;
    let text = false;
    let n = 0;
    for (const k in o) {
      if (++n > MAX_KEYS) break;
      const name = k.toLowerCase();
      level ||= LEVEL_NAMES.has(name);
      text ||= TEXT_NAMES.has(name) && typeof o[k] === 'string';
    }
    return level && text;
  };
  // loguru: the level and message in `record` (the line's `text` is the formatted line). python-json-logger with a
  // format without `%(levelname)s` ("%(asctime)s %(message)s"): Python logging's own `asctime` names the logger.
  // Serilog's compact JSON: `@t` and the template `@mt` (or the text `@m`), the level `@l` left out for Information.
  return logged(v) || (isObj(v.record) && logged(v.record as Obj)) || (typeof v.asctime === 'string' && typeof v.message === 'string') ||
    (typeof v['@t'] === 'string' && (typeof v['@mt'] === 'string' || typeof v['@m'] === 'string'));
}

/**
 * The C# SDK's (ModelContextProtocol) Trace templates of a message it sends: its session's line, and a client's
 * transport's line of the same message just after it (the SDK logs each message a client sends twice).
 */
const CSHARP_SESSION_SEND = /^\{EndpointName\} sending (?:method '\{Method\}' request\. Request|message\. Message): /;
const CSHARP_TRANSPORT_SEND = /^\{EndpointName\} transport sending message\. Message: /;
/** Messages of the session's lines kept to meet their transport's copy (sends interleave under concurrency). */
const CSHARP_SENDS_KEPT = 32;
const CSHARP_LINES_NOTE = "the C# SDK (ModelContextProtocol) writes the JSON-RPC messages to its log only at Trace level (Logging:LogLevel:ModelContextProtocol set to Trace); its other lines (a request handler called or completed) name a method but no id or message, and are skipped";
const CSHARP_SERVER_NOTE = "the C# SDK's server log (ModelContextProtocol at Trace) has the messages the server sent, not the requests it received over HTTP: its answers to requests this log does not show are skipped (counted), as there is nothing to pair them with; the requests and their answers are in the client's log or a capture";

/** A .NET logger's line of the C# SDK's own (its category, or Serilog's SourceContext, in `ModelContextProtocol.`). */
function isCsharpSdkLine(value: Obj): boolean {
  for (const v of layersOf(value)) for (const k of ['Category', 'SourceContext']) {
    const c = v[k];
    if (typeof c === 'string' && c.startsWith('ModelContextProtocol.')) return true;
  }
  return false;
}

/** Requests a C# server's log showed it receiving (its stdio transport logs them; over HTTP it logs none), kept. */
const CSHARP_RECEIVED_KEPT = 4096;
const CSHARP_TRANSPORT_RECEIVED = /^\{EndpointName\} transport received message\. Message: /;

/**
 * What a .NET line of the C# SDK adds to reading its messages: true when the line is to be skipped. The transport's
 * copy of a message the session's line already gave is one; so is a server's answer to a request its log does not
 * show received (the SDK's Streamable HTTP server logs no request it receives: such answers pair with nothing, and
 * each would be an ORPHAN_RESPONSE of the logger's making), which the input's "cannot show" says.
 */
function csharpCopy(value: Obj, lines: Obj[], ctx: AdapterContext): boolean {
  const layers = layersOf(value);
  const template = templateOf(layers);
  if (template === undefined || ctx.state === undefined) return false;
  const server = ctx.side === 'server' || dotnetSide(layers) === 'server';
  if (server && CSHARP_TRANSPORT_RECEIVED.test(template)) {
    let received = ctx.state.get('app-log:csharp-received') as Set<string> | undefined;
    if (received === undefined) ctx.state.set('app-log:csharp-received', (received = new Set()));
    for (const l of lines) if (isObj(l.message) && typeof l.message.method === 'string' && l.message.id !== undefined) received.add(JSON.stringify(l.message.id));
    if (received.size > CSHARP_RECEIVED_KEPT) received.delete(received.values().next().value!);
    return false;
  }
  const session = CSHARP_SESSION_SEND.test(template);
  if (!session && !CSHARP_TRANSPORT_SEND.test(template)) return false;
  if (server && lines.length === 1 && isObj(lines[0]!.message) && lines[0]!.message.method === undefined) {
    const received = ctx.state.get('app-log:csharp-received') as Set<string> | undefined;
    if (!received?.has(JSON.stringify(lines[0]!.message.id))) {
      ctx.note?.(CSHARP_SERVER_NOTE);
      return true;
    }
  }
  let sent = ctx.state.get('app-log:csharp-sends') as string[] | undefined;
  if (sent === undefined) ctx.state.set('app-log:csharp-sends', (sent = []));
  const keys = lines.map((l) => JSON.stringify(l.message));
  if (session) {
    sent.push(...keys);
    if (sent.length > CSHARP_SENDS_KEPT) sent.splice(0, sent.length - CSHARP_SENDS_KEPT);
    return false;
  }
  const at = keys.length === 1 ? sent.indexOf(keys[0]!) : -1;
  if (at === -1) return false;
  sent.splice(at, 1);
  return true;
}

/** Requests the log showed received and not answered yet, per session (its process id too, where the logger writes it). */
interface OpenRequest { id: unknown; session: string | undefined; pid: unknown; src: number }
const OPEN_KEPT = 1024;

/** Keep the requests this line logged (and drop those it answered), for an HTTP request line after them. */
function noteOpen(records: CanonicalRecord[], value: Obj, ctx: AdapterContext): void {
  if (ctx.state === undefined) return;
  let open = ctx.state.get('app-log:open') as OpenRequest[] | undefined;
  for (const r of records) {
    if (r.kind !== 'message' || !isObj(r.message)) continue;
    const m = r.message;
    if (r.direction === 'c2s' && typeof m.method === 'string' && m.id !== undefined && m.id !== null) {
      if (open === undefined) ctx.state.set('app-log:open', (open = []));
      open.push({ id: m.id, session: r.session ?? undefined, pid: value.pid, src: ctx.line });
      if (open.length > OPEN_KEPT) open.shift();
    } else if (r.direction === 's2c' && typeof m.method !== 'string' && open !== undefined) {
      // (An initialize is sent without a session id and answered with one; a refusal may come without it.)
      const said = r.session ?? undefined;
      const at = open.findIndex((o) => o.id === m.id && (o.session === said || o.session === undefined || said === undefined));
      if (at !== -1) open.splice(at, 1);
    }
  }
}

const BOTH_SIDES_NOTE = "this input holds both sides' log lines of the same requests (one logged as sent, one as received, with the same session, id and method): read as one view, each request is taken as sent twice (ID_REUSED, retries); give each side's log on its own with --client and --server";
const SEEN_KEPT = 256;

/** A request this input logged as sent and as received too: two sides' logs in one stream (cat client.log server.log). */
function noteBothSides(lines: { direction?: string }[], records: CanonicalRecord[], ctx: AdapterContext): void {
  if (ctx.state === undefined || ctx.note === undefined || ctx.side !== undefined || lines.length !== records.length) return;
  let seen = ctx.state.get('app-log:seen') as Map<string, string> | undefined;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const said = lines[i]!.direction;
    if (r.kind !== 'message' || !isObj(r.message) || typeof r.message.method !== 'string' || r.message.id === undefined) continue;
    if (said !== 'in' && said !== 'out') continue;
    const key = `${r.session ?? ''} ${JSON.stringify(r.message.id)} ${r.message.method}`;
    if (seen === undefined) ctx.state.set('app-log:seen', (seen = new Map()));
    const before = seen.get(key);
    if (before !== undefined && before !== said) {
      ctx.note(BOTH_SIDES_NOTE);
      return;
    }
    seen.set(key, said);
    trimOldest(seen, SEEN_KEPT);
  }
}

/**
 * An HTTP request line of the app's own (pino-http's `request completed`: `req.method`, `req.headers`, `res.statusCode`,
 * no body) that refused a POST with an error status: the end of the one request the log showed received in that
 * session (and process), not answered since, which the app logged before it refused it (a server that lost the
 * session after a restart answers 404). With none or several such requests, nothing is tied.
 */
function refusedRequest(value: Obj, ctx: AdapterContext): CanonicalRecord | undefined {
  const req = value.req;
  const open = ctx.state?.get('app-log:open') as OpenRequest[] | undefined;
  if (!isObj(req) || req.method !== 'POST' || !isObj(value.res) || open === undefined || open.length === 0) return undefined;
  const status = statusOf(value.res as Obj);
  if (status === undefined || (status >= 200 && status <= 299)) return undefined;
  const headers = isObj(req.headers) ? (req.headers as Obj) : {};
  const sid = headers['mcp-session-id'];
  const session = typeof sid === 'string' && sid !== '' ? sid : undefined;
  const fits = open.filter((o) => o.session === session && (value.pid === undefined || o.pid === undefined || o.pid === value.pid));
  if (fits.length !== 1) return undefined;
  const o = fits[0]!;
  open.splice(open.indexOf(o), 1);
  const time = timeOf(layersOf(value));
  return {
    v: 1, kind: 'message', direction: 's2c', message: { jsonrpc: '2.0', id: o.id }, status,
    error: `HTTP ${status} (the app's HTTP request line for the POST, after its log of the request at line ${o.src}: no body of the answer in the log)`,
    ...(time !== undefined ? { ts: time } : {}),
    ...(session !== undefined ? { session } : {}),
  } as CanonicalRecord;
}

/**
 * An HTTP refusal's error body with id null (the SDKs' 404 "Session not found", 400, 503 answers: the server never
 * read the request's id) on the line of the one request it refused (a fetch wrapper's line per exchange): that
 * request's answer. On a response line of its own it is tied to nothing (see refusalOnItsOwn).
 */
function refusalOfOwnRequest(records: CanonicalRecord[]): void {
  const refusal = records.find((r) => r.kind === 'message' && r.direction === 's2c' && isObj(r.message) && r.message.id === null && isObj(r.message.error) && r.status !== undefined && r.status >= 400);
  if (refusal === undefined || refusal.kind !== 'message') return;
  const own = records.filter((r): r is MessageRecord => r.kind === 'message' && r.direction === 'c2s' && isObj(r.message) && typeof r.message.method === 'string' && r.message.id !== undefined && r.message.id !== null);
  if (own.length !== 1) return;
  refusal.message = { ...(refusal.message as Obj), id: (own[0]!.message as Obj).id };
}

/**
 * A line with a request and the 2xx status of its answer but not the answer (a middleware that logs the parsed body
 * and res.statusCode): the request, and an answer that came in a body the log does not hold. Read as a response with
 * no body, it would be a 200 whose stream ended empty.
 */
function answerNotLogged(records: CanonicalRecord[]): CanonicalRecord[] {
  if (records.length !== 1) return records;
  const r = records[0]!;
  if (r.kind !== 'message' || r.direction !== 'c2s' || r.status === undefined || r.status < 200 || r.status > 299 || r.status === 202) return records;
  const m = r.message;
  if (!isObj(m) || typeof m.method !== 'string' || m.id === undefined || m.id === null) return records;
  const { status, ...request } = r;
  const answer: CanonicalRecord = {
    v: 1, kind: 'message', direction: 's2c', message: { jsonrpc: '2.0', id: m.id }, status, bodyUnlogged: 'json',
    error: `HTTP ${status}: the app's log line has the request and the status of its answer, not the answer's body (what the server answered is not observable here)`,
    ...(r.ts !== undefined ? { ts: r.ts } : {}),
    ...(r.session !== undefined ? { session: r.session } : {}),
    ...(r.side !== undefined ? { side: r.side } : {}),
  } as CanonicalRecord;
  return [request as CanonicalRecord, answer];
}

/**
 * A response line of its own that refuses a request (an error status and an id-null error body, or a body with no
 * JSON-RPC message: a hop's 503 text), or a failed request's error line (fetch failed), while the log shows requests
 * sent and not answered: which one it refused, the line does not say. A GET stream opened or refused in the same
 * moment gets such an answer too (a stateless server's 405, a lost session's 404), so it is tied to none of them, and a
 * note says so.
 */
function refusalOnItsOwn(value: Obj, records: CanonicalRecord[], ctx: AdapterContext): void {
  const open = ctx.state?.get('app-log:open') as OpenRequest[] | undefined;
  if (open === undefined || open.length === 0 || value.method !== undefined || value.req !== undefined) return;
  const status = statusOf(value);
  if (status === undefined ? typeof value.error !== 'string' : status < 400) return;
  if (records.every((r) => r.kind === 'message' && isObj(r.message) && r.message.id === null && r.message.method === undefined)) ctx.note?.(UNTIED_REFUSAL_NOTE);
}

const UNTIED_REFUSAL_NOTE = "an HTTP refusal (an error status with an id-null error body, or with no JSON-RPC message) or a failed request's error came on a response line of its own while requests were open: a log of a line per direction does not say which request a response line answers, and a GET stream's own refusal or failure looks the same, so it is tied to none (those requests read as UNANSWERED); a line per exchange, or the request's JSON-RPC id on its response line, ties them";

const LOGGED_TWICE_NOTE = "the app logs a request it received twice (two log calls on its way in, such as an HTTP middleware's and the MCP handler's: a later line holds the same message under another text, in the same process and session): that line is read as the copy it is and counted as skipped; a request received again comes with its first text again";

/** One receipt of a request as the app logged it: the texts it was logged under so far, its latest line and time. */
interface Receipt { line: number; ms: number | undefined; texts: string[] }
/** Requests logged, by process, session and messages (their JSON), most recent receipt last. */
type LoggedRequests = Map<string, Receipt[]>;
/** How many lines after a receipt's latest line its next log call may come (other requests' lines between them). */
const RECEIPT_LINES = 1024;
/** How long after a receipt's latest line its next log call may come, where the lines have times (ms). */
const RECEIPT_MS = 2000;
/** Requests remembered at most (the latest). */
const RECEIPTS_KEPT = 4096;

/** The line's own text (pino's `msg`, python-json-logger's `message`, structlog's `event`), when the messages are elsewhere. */
function ownText(layers: Obj[]): string | undefined {
  for (const v of layers) for (const k of TEXT_KEYS) {
    const t = v[k];
    if (typeof t === 'string' && !t.includes('jsonrpc')) return t;
  }
  return undefined;
}

/**
 * A server app's second log call of request(s) a line shortly before logged (a middleware's "mcp request", then the
 * handler's "mcp message received"; under concurrent calls, other requests' lines come between them): the same
 * messages, requests or notifications only, under a text that receipt was not yet logged under, in the same process
 * (its pid, where the logger writes it) and session (or none on either: an initialize before and after its session
 * was made), within RECEIPT_LINES lines and RECEIPT_MS of its latest line. A request sent again is logged by the same calls again, its first text
 * first, so it is a new receipt; the newest receipt that lacks the text takes it. Not read in a client's log: an app
 * that logs its own re-send under another text would lose it.
 */
function loggedAgain(value: Obj, lines: Obj[], ctx: AdapterContext): boolean {
  if (ctx.state === undefined || ctx.side === 'client') return false;
  const text = ownText(layersOf(value));
  if (text === undefined || !lines.every((l) => isObj(l.message) && typeof l.message.method === 'string')) return false;
  let seen = ctx.state.get('app-log:requests') as LoggedRequests | undefined;
  if (seen === undefined) ctx.state.set('app-log:requests', (seen = new Map()));
  const key = `${String(value.pid ?? '')}|${sessionOf(value) ?? ''}|${JSON.stringify(lines.map((l) => l.message))}`;
  const logged = loggedTime(value);
  const ms = logged === undefined ? undefined : parseTimestamp(logged, ctx.timezone);
  const live = (r: Receipt) => ctx.line - r.line <= RECEIPT_LINES && (ms === undefined || r.ms === undefined || Math.abs(ms - r.ms) <= RECEIPT_MS);
  const receipts = (seen.get(key) ?? []).filter(live);
  for (let i = receipts.length - 1; i >= 0; i--) {
    const r = receipts[i]!;
    if (r.texts.includes(text)) continue;
    r.texts.push(text);
    r.line = ctx.line;
    r.ms = ms ?? r.ms;
    seen.set(key, receipts);
    ctx.note?.(LOGGED_TWICE_NOTE);
    return true;
  }
  receipts.push({ line: ctx.line, ms, texts: [text] });
  seen.delete(key);
  seen.set(key, receipts);
  trimOldest(seen, RECEIPTS_KEPT);
  return false;
}

/**
 * Tried after every other format and log-platform envelope (ingest.ts): a line with JSON-RPC messages in its fields,
 * or a logger's line (a level and a message text) without any, which is counted as skipped (no MCP traffic).
 */
export const appLogFormat: JsonFormat = {
  kind: 'json',
  name: 'app-log',
  detect: (v) => isLogLine(v) || appLogMessages(v) !== undefined || isHttpLogLine(v),
  toRecords(value, ctx): AdapterResult {
    const records: CanonicalRecord[] = [];
    const lines = appLogMessages(value);
    if (lines === undefined) {
      // python-json-logger, structlog and loguru write an object they cannot encode as its str() or repr(): the line
      // carries a message that cannot be read, which is no line without MCP traffic.
      const field = pythonObjectField(value);
      if (field !== undefined) {
        return { error: `${field}: a JSON-RPC message logged as a Python object's text, not as JSON (fix: log message.model_dump(mode="json", by_alias=True, exclude_unset=True), or json.dumps of a dict)` };
      }
      if (ctx.note && isCsharpSdkLine(value)) ctx.note(CSHARP_LINES_NOTE);
      const refused = refusedRequest(value, ctx);
      if (refused === undefined) refusalOnItsOwn(value, records, ctx);
      return refused !== undefined ? [refused] : records;
    }
    if (lines !== undefined && csharpCopy(value, lines, ctx)) return [];
    if (loggedAgain(value, lines, ctx)) return [];
    for (const line of lines ?? []) {
      const r = jsonRpcFormat.toRecords(line, ctx);
      if (!Array.isArray(r)) return r;
      records.push(...r);
    }
    refusalOfOwnRequest(records);
    refusalOnItsOwn(value, records, ctx);
    const out = answerNotLogged(records);
    noteOpen(out, value, ctx);
    noteBothSides(lines, records, ctx);
    return out;
  },
  limits: {
    ...FULL_VIEW,
    notes: [
      "an application's own log: a message without an HTTP status in its line has no HTTP layer, and one without a session id is told apart by input only (a client's such log is not joined with a server log that names sessions)",
      'on 2026-07-28 a client cancels a request by closing its stream, which a message log does not show: a timed-out call there reads as UNANSWERED, with no CANCELLED',
    ],
  },
};
