// The Python SDK's own DEBUG lines in a Python logging text log (`Sending client message: jsonrpc='2.0' ...`, `SSE message: ...`, `Received session ID: ...`; the legacy HTTP+SSE server's too): its messages as it sent and received them, with the session it was given.
import type { MessageRecord } from '../schema/record.js';
import type { AdapterContext, AdapterResult, TextFormat } from './adapter.js';
import { pydanticMessage } from './python-text.js';

// mcp.client.streamable_http (mcp 2.3.0) logs, at DEBUG, every message its client sends (`Sending client message:
// {message}`) and every message it reads from an SSE stream (`SSE message: {message}`), the message formatted by
// pydantic's str() (`jsonrpc='2.0' id=3 method='tools/call' params={'name': ...}`); at INFO the session id the server
// gave (`Received session ID: <id>`). A response the server sent as application/json is not logged.
// The legacy HTTP+SSE transport logs more: its client (mcp.client.sse) `Sending client message: SessionMessage(...)`,
// `Received server message: {message}` and the session in `Received endpoint URL: ...?session_id=<id>`; its server
// (mcp.server.sse) `Validated client message: {message}` and `Sending message via SSE: SessionMessage(...)`, without
// the session on those lines (concurrent sessions' `Parsed session ID` lines interleave with them), and copies of
// what it received (`Received JSON: b'...'`, `Sending session message to writer: ...`), which are skipped.
/** Python logging's own shapes: BASIC_FORMAT (`DEBUG:name:message`), or a line that starts with its asctime. */
const BASIC = /^(DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.]+:/;
const ASCTIME = /^\[?(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2},\d{3})\]?\s.*?\b(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\b/;
/** A line's leading asctime, whatever else the format writes (`%(asctime)s %(name)s: %(message)s` has no level). */
const LEADING_TIME = /^\[?(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2},\d{3})\b/;
const SDK_LINE = /(?:^|[\s:])(Sending client message|SSE message|Received session ID|Received server message|Received endpoint URL|Validated client message|Sending message via SSE|Received JSON|Sending session message to writer|Created new session with ID): (.*)$/s;
/** The Python SDK's Streamable HTTP server logs sessions and errors, never a message: its log shows no call. */
const STREAMABLE_SERVER = /\bmcp\.server\.streamable_http(?:_manager)?[:\s]/;
const STREAMABLE_SERVER_NOTE = "the Python SDK's Streamable HTTP server logs no JSON-RPC message at any level (its lines are sessions opened and closed, a tool's failure, a handler's traceback): the calls are in the client's log, the app's own log of its messages, or a capture";
const SSE_STARLETTE_CHUNK = /\bsse_starlette(?:\.sse)?[:\s].*?\bchunk: b['"]/;
/** Each phrase: which way its message went and whose log it is. */
const PHRASES: Record<string, { direction: 'c2s' | 's2c'; side: 'client' | 'server' } | undefined> = {
  'Sending client message': { direction: 'c2s', side: 'client' },
  'SSE message': { direction: 's2c', side: 'client' },
  'Received server message': { direction: 's2c', side: 'client' },
  'Validated client message': { direction: 'c2s', side: 'server' },
  'Sending message via SSE': { direction: 's2c', side: 'server' },
};

interface PythonLog {
  session?: string;
  /** The legacy server's sessions (their URL form: the UUID's hex), while there is one only; 'many' after a second. */
  serverSession?: string | 'many';
}

function toRecords(line: string, ctx: AdapterContext): AdapterResult {
  const log: PythonLog = (ctx.state?.get('python-sdk') as PythonLog | undefined) ?? {};
  ctx.state?.set('python-sdk', log);
  const sdk = SDK_LINE.exec(line);
  if (!sdk) {
    // Another line of the program's log (httpx, asyncio, the SDK's other lines, a traceback's): no MCP traffic, unless
    // it shows a message this format cannot read. sse-starlette's DEBUG copy of each SSE chunk it wrote (`chunk: b'event: message\r\ndata: {...}'`): the wire's
    // bytes of what the SDK's own line logged.
    if (SSE_STARLETTE_CHUNK.test(line)) return [];
    if (STREAMABLE_SERVER.test(line)) ctx.note?.(STREAMABLE_SERVER_NOTE);
    if (/jsonrpc['"]?\s*[:=]\s*['"]2\.0/.test(line)) return { error: 'a log line (Python logging\'s shape) with a JSON-RPC message that is not the Python SDK\'s own "Sending client message:" or "SSE message:" line: not read' };
    return [];
  }
  const [, what, rest] = sdk as unknown as [string, string, string];
  if (what === 'Received session ID') {
    const id = rest.trim();
    if (id !== '') log.session = id;
    return [];
  }
  if (what === 'Received endpoint URL') {
    const id = /[?&]session_id=([^&\s]+)/.exec(rest)?.[1];
    if (id !== undefined) log.session = id;
    return [];
  }
  if (what === 'Created new session with ID') {
    // The server's UUID, which its endpoint URL (and so the client's log) writes as hex.
    const id = rest.trim().replace(/-/g, '');
    log.serverSession = log.serverSession === undefined || log.serverSession === id ? id : 'many';
    return [];
  }
  const phrase = PHRASES[what];
  // The legacy server's copies of a message it also logs as `Validated client message:`.
  if (phrase === undefined) return [];
  const msg = pydanticMessage(rest);
  if (msg === undefined) return { error: `the Python SDK's "${what}:" line whose message cannot be read (pydantic's text of a JSON-RPC message expected)` };
  const record: MessageRecord = { v: 1, kind: 'message', direction: phrase.direction, message: msg, side: phrase.side };
  const ts = LEADING_TIME.exec(line)?.[1];
  if (ts !== undefined) record.ts = ts;
  if (log.session !== undefined && phrase.side === 'client') record.session = log.session;
  // The legacy server's message lines name no session: it is known only while the log has had one session.
  if (phrase.side === 'server' && log.serverSession !== undefined && log.serverSession !== 'many') record.session = log.serverSession;
  return [record];
}

export const pythonSdkLogFormat: TextFormat = {
  kind: 'text',
  name: 'python-sdk',
  // A line in Python logging's own shapes (read if it is the SDK's, else skipped), or the SDK's words in a format of
  // the app's own (`%(message)s`); once one was seen, every other line of that log (a traceback's, a multi-line
  // message's) belongs to it.
  detectText: (line, state) => BASIC.test(line) || ASCTIME.test(line) || state?.has('python-sdk') === true || (SDK_LINE.test(line) && /jsonrpc='2\.0'/.test(line)),
  textToRecords: toRecords,
  limits: {
    http: false,
    bodies: true,
    session: true,
    typedIds: true,
    answersUnlogged: true,
    notes: [
      "the Python SDK client's DEBUG log: responses the server sent as application/json (json_response=True) are not logged: alone, such calls show as UNANSWERED, and given with the server's log they take its answer; HTTP statuses (httpx's \"HTTP Request:\" lines) are not tied to a message",
      'times only when the logging format has %(asctime)s (its local time: --timezone says which, default UTC)',
    ],
  },
};
