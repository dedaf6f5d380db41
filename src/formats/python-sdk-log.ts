// The Python SDK client's own DEBUG lines in a Python logging text log (`Sending client message: jsonrpc='2.0' ...`, `SSE message: ...`, `Received session ID: ...`): its messages as it sent and received them, with the session it was given.
import type { MessageRecord } from '../schema/record.js';
import type { AdapterContext, AdapterResult, TextFormat } from './adapter.js';
import { pydanticMessage } from './python-text.js';

// mcp.client.streamable_http (mcp 2.3.0) logs, at DEBUG, every message its client sends (`Sending client message:
// {message}`) and every message it reads from an SSE stream (`SSE message: {message}`), the message formatted by
// pydantic's str() (`jsonrpc='2.0' id=3 method='tools/call' params={'name': ...}`); at INFO the session id the server
// gave (`Received session ID: <id>`). A response the server sent as application/json is not logged.
/** Python logging's own shapes: BASIC_FORMAT (`DEBUG:name:message`), or a line that starts with its asctime. */
const BASIC = /^(DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.]+:/;
const ASCTIME = /^\[?(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2},\d{3})\]?\s.*?\b(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\b/;
const SDK_LINE = /(?:^|[\s:])(Sending client message|SSE message|Received session ID): (.*)$/s;

interface PythonLog {
  session?: string;
}

function toRecords(line: string, ctx: AdapterContext): AdapterResult {
  const log: PythonLog = (ctx.state?.get('python-sdk') as PythonLog | undefined) ?? {};
  ctx.state?.set('python-sdk', log);
  const sdk = SDK_LINE.exec(line);
  if (!sdk) {
    // Another line of the program's log (httpx, asyncio, the SDK's other lines, a traceback's): no MCP traffic, unless
    // it shows a message this format cannot read.
    if (/jsonrpc['"]?\s*[:=]\s*['"]2\.0/.test(line)) return { error: 'a Python log line with a JSON-RPC message that is not the SDK\'s own "Sending client message:" or "SSE message:" line: not read' };
    return [];
  }
  const [, what, rest] = sdk as unknown as [string, string, string];
  if (what === 'Received session ID') {
    const id = rest.trim();
    if (id !== '') log.session = id;
    return [];
  }
  const msg = pydanticMessage(rest);
  if (msg === undefined) return { error: `the Python SDK's "${what}:" line whose message cannot be read (pydantic's text of a JSON-RPC message expected)` };
  const record: MessageRecord = { v: 1, kind: 'message', direction: what === 'Sending client message' ? 'c2s' : 's2c', message: msg, side: 'client' };
  const ts = ASCTIME.exec(line)?.[1];
  if (ts !== undefined) record.ts = ts;
  if (log.session !== undefined) record.session = log.session;
  return [record];
}

export const pythonSdkLogFormat: TextFormat = {
  kind: 'text',
  name: 'python-sdk',
  // A line in Python logging's own shapes (read if it is the SDK's, else skipped), or the SDK's words in a format of
  // the app's own (`%(message)s`); once one was seen, every other line of that log (a traceback's, a multi-line
  // message's) belongs to it.
  detectText: (line, state) => BASIC.test(line) || ASCTIME.test(line) || state?.has('python-sdk') === true || (SDK_LINE.test(line) && line.includes("jsonrpc='2.0'")),
  textToRecords: toRecords,
  limits: {
    http: false,
    bodies: true,
    session: true,
    typedIds: true,
    answersUnlogged: true,
    notes: [
      "the Python SDK client's DEBUG log: responses the server sent as application/json (json_response=True) are not logged, so such calls show as UNANSWERED; HTTP statuses (httpx's \"HTTP Request:\" lines) are not tied to a message",
      'times only when the logging format has %(asctime)s (its local time: --timezone says which, default UTC)',
    ],
  },
};
