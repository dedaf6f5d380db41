// Adapter for the console a server prints by default: uvicorn's access lines and its other `INFO:     ` lines (the Python SDK's server), the Python SDK's own bare INFO lines, morgan's dev/tiny/short lines (Express), hono/logger's `<--`/`-->` lines; tracebacks and the app's own prints between them are skipped. No time, no id, no session, no body: each request line is counted by method, path and status, never joined (the SDK's refusal of a session is, by its id).
import type { ExchangeRecord } from '../schema/record.js';
import type { ServerConsoleLine } from '../schema/access-log.js';
import { NEEDS_SCHEMAS, schemas } from '../schema/lazy.js';
import { cleanTerminal } from '../report/text.js';
import type { AdapterContext, AdapterResult, GatewayAccount, TextFormat } from './adapter.js';
import { describeZodError } from './zod-error.js';

/** The HTTP methods a request line names (anything else is no request line). */
const METHODS = 'GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS';
/**
 * uvicorn's access line, its default format (uvicorn/logging.py AccessFormatter): `%(levelprefix)s %(client_addr)s -
 * "%(request_line)s" %(status_code)s`, the level padded to 10 characters (`INFO:     `), the status with its phrase.
 */
const UVICORN_ACCESS = new RegExp(`^(?:INFO|DEBUG|TRACE|WARNING|ERROR):\\s+(\\S+:\\d+) - "(${METHODS}) (\\S+) HTTP/[\\d.]+" (\\d{3})(?: [A-Za-z' -]+)?$`);
/** uvicorn's other lines (DefaultFormatter `%(levelprefix)s %(message)s`): the level, a colon, spaces (Python logging's own `LEVEL:name:` has none). */
const UVICORN_OTHER = /^(DEBUG|INFO|TRACE|WARNING|ERROR|CRITICAL):\s{1,9}(\S.*)$/;
/** A line of rich's RichHandler (the Python SDK's logging when rich is installed): `[mm/dd/yy hh:mm:ss] LEVEL    text    file.py:123`, or its time left blank under a line of the same second. */
const RICH = /^(?:\[\d{2}\/\d{2}\/\d{2,4} \d{2}:\d{2}:\d{2}\]|\s{11,})\s*(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\s+\S/;
/** morgan's `dev`: `:method :url :status :response-time ms - :res[content-length]` (colored). */
const MORGAN_DEV = new RegExp(`^(${METHODS}) (\\S+) (\\d{3}) (\\d+(?:\\.\\d+)?|-) ms - (\\d+|-)$`);
/** morgan's `tiny`: `:method :url :status :res[content-length] - :response-time ms`. */
const MORGAN_TINY = new RegExp(`^(${METHODS}) (\\S+) (\\d{3}) (\\d+|-) - (\\d+(?:\\.\\d+)?|-) ms$`);
/** morgan's `short`: `:remote-addr :remote-user :method :url HTTP/:http-version :status :res[content-length] - :response-time ms`. */
const MORGAN_SHORT = new RegExp(`^(\\S+) \\S+ (${METHODS}) (\\S+) HTTP/[\\d.]+ (\\d{3}) (\\d+|-) - (\\d+(?:\\.\\d+)?|-) ms$`);
/** hono/logger: `<-- METHOD path` when a request comes in, `--> METHOD path STATUS elapsed` (`12ms`, `3s`, thousands with commas) when its handler returned. */
const HONO_IN = new RegExp(`^<-- (${METHODS}) (\\S+)$`);
const HONO_OUT = new RegExp(`^--> (${METHODS}) (\\S+) (\\d{3}) (\\d[\\d,]*)(ms|s)$`);
/**
 * The Python SDK's server lines at INFO, as its logging prints them when the app set no format (`%(message)s`, no rich)
 * or inside a rich line: what each tells, for the note (null: read, not counted).
 */
const SDK_EVENTS: [RegExp, string | null][] = [
  [/^Created new transport with session ID: \S+$/, 'sessions created (the Python SDK\'s "Created new transport with session ID")'],
  [/^Rejected request with unknown or expired session ID: /, 'requests refused for an unknown or expired session (the Python SDK\'s "Rejected request with unknown or expired session ID": a 404)'],
  [/^Terminating session: \S+$/, 'sessions terminated (a DELETE, or the server shutting down)'],
  [/^Tool '[^']{1,200}' raised an unexpected exception$/, 'tool calls whose tool raised an exception (the Python SDK answers them with an isError result, HTTP 200)'],
  [/^Processing request of type \w+$/, null],
  [/^StreamableHTTP session manager (?:started|shutting down)$/, null],
];
/** Each start of the server: uvicorn's "Started server process [pid]", a Node server's "listening on http://..." (the note says when there were more than one). */
export const STARTED = 'server processes started';

/** uvicorn's own lines that tell something, for the note. */
const UVICORN_EVENTS: [RegExp, string][] = [
  [/^Exception in ASGI application$/, 'exceptions in the app uvicorn printed ("Exception in ASGI application": a 500 when no response head had gone out)'],
  [/^Started server process \[\d+\]$/, STARTED],
  [/^Invalid HTTP request received\.$/, 'requests uvicorn could not parse ("Invalid HTTP request received")'],
];
/** `script`'s typescript header and footer, around a terminal's capture. */
const SCRIPT = /^Script (?:started|done) on \d{4}-\d{2}-\d{2}/;
/** A Node server's own line as it starts (`MCP server listening on http://127.0.0.1:3000/mcp`, `Server running at http://...`). */
const LISTENING = /^.{0,80}\b(?:[Ll]istening|[Rr]unning|[Ss]tarted|[Rr]eady|[Ss]erving)\b.{0,40}\bhttps?:\/\/[\w.:[\]-]+(?:\/\S*)?\s*\.?$/;

const STATE = 'server-console';
/** The Python SDK's refusal of a session it does not know, with the id it was sent (matched exactly to the client's request). */
const REJECTED = /^Rejected request with unknown or expired session ID: ([\x21-\x7e]{1,200})$/;

/** Which producer a request line is, for the note. */
type Producer = ServerConsoleLine['producer'];

/** The line as a terminal showed it: colors and a CRLF's CR removed (cleanTerminal, which also marks other breaks). */
function plain(line: string): string {
  const t = line.endsWith('\r') ? line.slice(0, -1) : line;
  return t.includes('\u001b') || /[\u0000-\u001f]/.test(t) ? cleanTerminal(t) : t;
}

/** The request line's parts, or undefined when the line is none of the producers'. */
function requestLine(t: string): Record<string, unknown> | undefined {
  let m = UVICORN_ACCESS.exec(t);
  if (m) return { producer: 'uvicorn', client: m[1], method: m[2], path: m[3], status: Number(m[4]) };
  if ((m = MORGAN_DEV.exec(t))) return { producer: 'morgan', method: m[1], path: m[2], status: Number(m[3]), ...(m[4] !== '-' ? { durationMs: Number(m[4]) } : {}) };
  if ((m = MORGAN_TINY.exec(t))) return { producer: 'morgan', method: m[1], path: m[2], status: Number(m[3]), ...(m[5] !== '-' ? { durationMs: Number(m[5]) } : {}) };
  if ((m = MORGAN_SHORT.exec(t))) return { producer: 'morgan', client: m[1], method: m[2], path: m[3], status: Number(m[4]), ...(m[6] !== '-' ? { durationMs: Number(m[6]) } : {}) };
  if ((m = HONO_OUT.exec(t))) return { producer: 'hono', method: m[1], path: m[2], status: Number(m[3]), durationMs: Number(m[4]!.replace(/,/g, '')) * (m[5] === 's' ? 1000 : 1) };
  return undefined;
}

/** What a line that is no request line tells (a label for the note), '' for a known line that tells nothing, undefined for no known line. */
function eventOf(t: string): string | undefined {
  if (HONO_IN.test(t) || SCRIPT.test(t)) return '';
  // (a Node server's "listening on" line: only where no other format took it, see serverConsoleRestFormat)
  if (t.includes('://') && !/^\s/.test(t) && LISTENING.test(t)) return STARTED;
  const uv = UVICORN_OTHER.test(t);
  const text = u(t);
  for (const [re, label] of SDK_EVENTS) if (re.test(text)) return label ?? '';
  if (uv) {
    for (const [re, label] of UVICORN_EVENTS) if (re.test(text)) return label;
    return '';
  }
  return RICH.test(t) ? '' : undefined;
}

/** Whether the line is one of the strict shapes this reader knows (a request line, uvicorn's, rich's or the SDK's own words). */
function known(line: string): boolean {
  const t = plain(line);
  if (requestLine(t) !== undefined) return true;
  const e = eventOf(t);
  // (a "listening on" line is taken only by serverConsoleRestFormat, after the other formats)
  return e !== undefined && !(e === STARTED && t.includes('://') && LISTENING.test(t));
}

/** A short path for the note: the query string left out (it may hold anything), cut to 80 characters. */
function shortPath(path: string): string {
  const p = path.split('?')[0]!;
  return p.length > 80 ? `${p.slice(0, 80)}...` : p;
}

function toRecords(line: string, ctx: AdapterContext): AdapterResult {
  const t = plain(line);
  const parts = requestLine(t);
  if (!parts) {
    const label = eventOf(t);
    if (label === undefined) {
      // a traceback's line, an object a console.error printed, the app's own print: part of the console once it is known
      if (ctx.state?.has(STATE)) return [];
      return { error: 'not a line of a server console this reader knows (uvicorn, morgan, hono/logger, the Python SDK)' };
    }
    ctx.state?.set(STATE, true);
    if (label === '') return [];
    return [eventRecord(label, REJECTED.exec(u(t))?.[1])];
  }
  ctx.state?.set(STATE, true);
  const zod = schemas();
  if (!zod) return { error: NEEDS_SCHEMAS };
  const parsed = zod.ServerConsoleLineSchema.safeParse(parts);
  if (!parsed.success) return { error: `server console request line: ${describeZodError(parsed.error)}` };
  const l = parsed.data;
  const who = l.producer === 'uvicorn' ? "uvicorn's access line" : l.producer === 'morgan' ? "morgan's line" : "hono/logger's line";
  const rec: ExchangeRecord = {
    v: 1,
    kind: 'exchange',
    // the server's own account of a request, with no time: counted in the note (src/join/gateway-lines.ts), never joined
    side: 'server',
    method: l.method,
    url: l.path,
    requestHeaders: {},
    status: l.status,
    responseHeaders: {},
    end: 'complete',
    error: `${who}: ${l.method} ${shortPath(l.path)} answered ${l.status}`,
    ...(l.durationMs !== undefined ? { durationMs: Math.round(l.durationMs) } : {}),
  };
  const account: GatewayAccount = { log: 'server-console', startKnown: false, state: '--', retries: 0, beforeServerMs: 0, serverHead: true, producer: l.producer };
  return [Object.assign(rec, { gatewayAccount: account })];
}

/** The text of a line without uvicorn's or rich's level prefix (the SDK's words as its logging wrote them). */
function u(t: string): string {
  const m = UVICORN_OTHER.exec(t);
  return m ? m[2]! : RICH.test(t) ? t.replace(/^\[[^\]]*\]/, '').trim().replace(/^\w+\s+/, '').replace(/\s{2,}\S+\.py:\d+$/, '').trim() : t;
}

/**
 * A line of the console that tells of no request but of an event worth counting (a session refused, an exception);
 * the session id a refusal names, as the header the refused request sent (joined by it, see GatewayLines.refusal).
 */
function eventRecord(label: string, session?: string): ExchangeRecord {
  const rec: ExchangeRecord = { v: 1, kind: 'exchange', side: 'server', method: '', url: '', requestHeaders: session !== undefined ? { 'mcp-session-id': session } : {}, status: null, responseHeaders: {}, end: 'complete', error: label } as unknown as ExchangeRecord;
  const account: GatewayAccount = { log: 'server-console', startKnown: false, state: '--', retries: 0, beforeServerMs: 0, serverHead: false, consoleEvent: label };
  return Object.assign(rec, { gatewayAccount: account });
}

export const serverConsoleFormat: TextFormat = {
  kind: 'text',
  name: 'server-console',
  detectText: (line) => known(line),
  textToRecords: toRecords,
  limits: {
    http: true,
    bodies: false,
    bodiesNote: 'no time, no bodies, no JSON-RPC method or id, no session: each request line is counted by method, path and status in a note, never joined to a call',
    session: false,
    typedIds: true,
    gatewayAccount: true,
    notes: [
      "a server's console: uvicorn's access lines (`INFO:     127.0.0.1:50000 - \"POST /mcp HTTP/1.1\" 200 OK`), morgan's dev, tiny and short lines, hono/logger's `--> POST /mcp 200 12ms`; the Python SDK's own INFO lines (a session created, a session refused, a tool's exception) are counted; tracebacks, stack traces and the app's own prints once such a line was seen are skipped",
      'no time on any of these lines (uvicorn writes its access line when the response head goes out, morgan when the response ends, hono/logger when the handler returns; none with a date): the request lines are counted by method, path and status, never joined to a client\'s attempt, even beside its log (joining by order alone is not done: requests of several connections interleave, a stream\'s line is written at its head or at its end, and a restart starts the console again); beside the client\'s log its POSTs answered with an error are compared with them by status and count, and the Python SDK\'s "Rejected request with unknown or expired session ID" goes to the client\'s 404 of that session, by the id'
    ],
  },
};

/**
 * The catch-all of a console known to be one: a line no other text format takes (a traceback's, a stack trace's, an
 * object printed over several lines) is skipped, not unusable; and a Node server's own "listening on http://..." line,
 * which starts its console before any request line (loose: other formats' lines may say so too, .NET's "Now listening
 * on:"). Tried after every other text format.
 */
export const serverConsoleRestFormat: TextFormat = {
  ...serverConsoleFormat,
  detectText: (line, state) => state?.has(STATE) === true || (line.includes('://') && !/^\s/.test(line) && LISTENING.test(plain(line))),
};

export type { Producer };
