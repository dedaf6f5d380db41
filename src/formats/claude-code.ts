// Adapters for Claude Code's MCP logs (mcp-logs-<server>/<time>.jsonl, and the MCP lines of its --debug file): per-call summary lines become claims about each tools/call.
import type { Claim, ClaimRecord } from '../schema/record.js';
import { NEEDS_SCHEMAS, schemas } from '../schema/lazy.js';
import type { AdapterContext, AdapterResult, JsonFormat, TextFormat } from './adapter.js';
import { describeZodError } from './zod-error.js';

/**
 * What one line is, as Claude Code 2.1.197 writes it: `{"debug": text}` or `{"error": text}` (exactly one), then
 * `timestamp` (ISO), `sessionId` (Claude Code's own conversation, not an Mcp-Session-Id) and `cwd`. No JSON-RPC message,
 * id, HTTP status or MCP session id is ever logged: each call is told by the summary lines below.
 */
const CALLING = /^Calling MCP tool: (.+)$/s;
const COMPLETED = /^Tool '(.+)' completed successfully in (\d+)(ms|s)$/s;
const COMPLETED_LONG = /^Tool '(.+)' completed successfully in (\d+)m (\d+)s$/s;
const FAILED = /^Tool '(.+)' failed after (\d+)s: (.*)$/s;
const RETRYING = /^Retrying tool '(.+)' after session recovery$/s;
const CONNECTED = /^Successfully connected \(transport: ([a-z-]+)\) in \d+ms$/;
/** Logged when a POST with a session id got 404, or 400 naming the session (Claude Code's check), before the calls fail. */
const SESSION_EXPIRED = 'MCP session expired (server no longer recognizes session ID), triggering reconnection';
/**
 * Claude Code's test for an expired session: HTTP 404, or 400 whose error text matches this. A `Connection error:` text
 * just before the expiry line that does not match it was therefore a 404.
 */
const SESSION_400 = /Server not initialized|No valid session ID|Mcp-Session-Id header is required/i;
const CONNECTION_ERROR = 'Connection error: ';
/** How long after that line a call failing with -32000 is taken for one that the expired session failed. */
const SESSION_EXPIRED_MS = 1000;
/** The message of a JSON-RPC error the SDK client raised: `MCP error <code>: <message>` (repeated once by Claude Code). */
const MCP_ERROR = /^MCP error (-?\d+): /;
/** The HTTP status some SDK versions add to a failed POST ("Streamable HTTP error: Error POSTing to endpoint (HTTP 503): ..."). */
const HTTP_STATUS = /\(HTTP (\d{3})\)/;
/** Texts that say no HTTP response came at all (Bun's and Node's fetch). */
const NO_CONNECTION = /Unable to connect|ECONNREFUSED|ECONNRESET|fetch failed|socket connection was closed unexpectedly|socket hang up/;
/** JSON-RPC codes the TypeScript SDK client raises itself (never seen on the wire as such). */
const LOCAL_CODES = new Set([-32000, -32001]);

/** Per input: the open calls of each tool (start time of each "Calling MCP tool"), the last `error` line, retries announced. */
interface State {
  calls: Map<string, number[]>;
  lastError: { text: string; ts: number } | undefined;
  retrying: Set<string>;
  /** When Claude Code last logged that the server no longer knew the session, and the status that tells, when it does. */
  sessionExpiredAt: number | undefined;
  sessionExpiredStatus: number | undefined;
  /** The last `Connection error:` text. */
  lastConnectionError: string | undefined;
  /** The transport of the server's last successful connection (stdio, http, sse, ...). */
  transport: string | undefined;
}

const STATE_KEY = 'claude-code';
/** Bounds on what one input may make the adapter hold (hostile input with endless server or tool names). */
const MAX_SERVERS = 256;
const MAX_TOOLS = 1024;

/** Drops a Map's oldest keys beyond `max`. */
function cap<K, V>(m: Map<K, V>, max: number): void {
  for (const k of m.keys()) {
    if (m.size <= max) return;
    m.delete(k);
  }
}

/** The state of one server's lines in this input (a debug file has every server's lines, a JSONL file one server's). */
function stateOf(ctx: AdapterContext, server: string | undefined): State {
  let all = ctx.state?.get(STATE_KEY) as Map<string, State> | undefined;
  if (!all) {
    all = new Map();
    ctx.state?.set(STATE_KEY, all);
  }
  let s = all.get(server ?? '');
  if (!s) {
    s = { calls: new Map(), lastError: undefined, retrying: new Set(), sessionExpiredAt: undefined, sessionExpiredStatus: undefined, lastConnectionError: undefined, transport: undefined };
    all.set(server ?? '', s);
    cap(all, MAX_SERVERS);
  }
  return s;
}

/** The server name Claude Code put in the folder (`mcp-logs-<server>/...`) or in a copied file's name (`mcp-logs-<server>.jsonl`). */
export function serverFromPath(file: string): string | undefined {
  const m = /mcp-logs-([^/\\]+?)(?:\.jsonl)?(?:[/\\][^/\\]*)?$/.exec(file);
  return m ? m[1] : undefined;
}

/** Cheap structural test: the four keys, string-typed, one of debug / error, and no JSON-RPC message beside them. */
function isClaudeCodeLine(v: Record<string, unknown>): boolean {
  return typeof v.sessionId === 'string' && typeof v.cwd === 'string' && typeof v.timestamp === 'string' && (typeof v.debug === 'string') !== (typeof v.error === 'string')
    && v.jsonrpc === undefined && v.message === undefined;
}

/** The outcome, error code and HTTP status a "failed after" text tells, and only what it tells unambiguously. */
export function readFailure(text: string, toolErrorText: string | undefined): Pick<Claim, 'outcome' | 'jsonrpc' | 'status'> {
  // An isError result: Claude Code logs the result's text as an `error` line, then the same text as the failure.
  if (toolErrorText !== undefined && toolErrorText === text) return { outcome: 'TOOL_ERROR' };
  const code = MCP_ERROR.exec(text);
  if (code) {
    const n = Number(code[1]);
    // -32000 (connection closed) and -32001 (request timed out) are raised inside the SDK client: which layer failed is not said.
    return LOCAL_CODES.has(n) ? { jsonrpc: { errorCode: n } } : { outcome: 'JSONRPC_ERROR', jsonrpc: { errorCode: n } };
  }
  if (text.startsWith('Streamable HTTP error: Error POSTing to endpoint')) {
    const status = HTTP_STATUS.exec(text);
    return status ? { outcome: 'HTTP_ERROR', status: Number(status[1]) } : { outcome: 'HTTP_ERROR' };
  }
  if (NO_CONNECTION.test(text)) return { outcome: 'NO_RESPONSE' };
  // Timeouts ("timed out after 3s"), idle aborts, anything else: the text says what Claude Code did, not what answered.
  return {};
}

/** Open calls kept per tool: parallel calls of one tool are few; the rest are calls whose end was never logged. */
const MAX_OPEN_CALLS = 32;

/**
 * The start of the call a completed / failed line ends: among that tool's open "Calling" lines, the one whose distance
 * to this line fits the duration Claude Code logged (to the ms, or floored to whole seconds), nearest to it; taken off
 * the list. Undefined when none fits (the "Calling" line is not in this input, or the times are broken).
 */
function takeStart(state: State, tool: string, when: number, said: number, grain: number): number | undefined {
  const starts = state.calls.get(tool);
  if (!starts || !Number.isFinite(when)) return undefined;
  const slack = 50;
  let best = -1;
  for (let i = 0; i < starts.length; i++) {
    const d = when - starts[i]!;
    if (d < said - slack || d > said + grain + slack) continue;
    if (best === -1 || Math.abs(d - said) < Math.abs(when - starts[best]! - said)) best = i;
  }
  if (best === -1) return undefined;
  const [start] = starts.splice(best, 1);
  if (starts.length === 0) state.calls.delete(tool);
  return start;
}

function durationMs(n: string, unit: string): number {
  return unit === 'ms' ? Number(n) : Number(n) * 1000;
}

function claudeCodeToRecords(value: Record<string, unknown>, ctx: AdapterContext): AdapterResult {
  if (!isClaudeCodeLine(value)) return { error: 'not a Claude Code MCP log line (debug or error, timestamp, sessionId, cwd)' };
  const error = typeof value.error === 'string';
  return readEntry(error ? 'error' : 'debug', (error ? value.error : value.debug) as string, value.timestamp as string, serverFromPath(ctx.file), ctx);
}

/**
 * One logged text of one server, from either file: a JSONL line's `debug` / `error`, or a debug file's
 * `MCP server "<name>": <text>` / `MCP server "<name>" <text>` line. Claims for the end lines; [] for the rest.
 */
function readEntry(kind: 'debug' | 'error', text: string, ts: string, server: string | undefined, ctx: AdapterContext): AdapterResult {
  const when = Date.parse(ts);
  const state = stateOf(ctx, server);
  if (kind === 'error') {
    // A tool's isError text, server stderr, a connection failure: kept to tell an isError result from the failure line.
    state.lastError = { text, ts: when };
    return [];
  }
  const calling = CALLING.exec(text);
  if (calling) {
    if (!Number.isFinite(when)) return [];
    const list = state.calls.get(calling[1]!);
    if (!list) {
      state.calls.set(calling[1]!, [when]);
      cap(state.calls, MAX_TOOLS);
    } else {
      list.push(when);
      // A call Claude Code aborted (the user pressed Esc) logs no end: its start must not linger without bound.
      if (list.length > MAX_OPEN_CALLS) list.shift();
    }
    return [];
  }
  const connected = CONNECTED.exec(text);
  if (connected) {
    state.transport = connected[1];
    return [];
  }
  if (text.startsWith(CONNECTION_ERROR)) {
    state.lastConnectionError = text.slice(CONNECTION_ERROR.length);
    return [];
  }
  if (text === SESSION_EXPIRED) {
    state.sessionExpiredAt = when;
    const said = state.lastConnectionError;
    state.sessionExpiredStatus = said !== undefined && said.startsWith('Streamable HTTP error: Error POSTing to endpoint') && !SESSION_400.test(said) ? 404 : undefined;
    return [];
  }
  const retry = RETRYING.exec(text);
  if (retry) {
    state.retrying.add(retry[1]!);
    if (state.retrying.size > MAX_TOOLS) state.retrying.delete(state.retrying.values().next().value!);
    return [];
  }
  let tool: string;
  let fields: Pick<Claim, 'outcome' | 'jsonrpc' | 'status' | 'message'>;
  let said: number;
  /** How coarse the logged duration is: "73ms" is to the ms, "0s" / "31s" floor whole seconds. */
  let grain = 1000;
  const ok = COMPLETED.exec(text);
  const okLong = ok ? undefined : COMPLETED_LONG.exec(text);
  const failed = ok || okLong ? undefined : FAILED.exec(text);
  if (ok) {
    tool = ok[1]!;
    said = durationMs(ok[2]!, ok[3]!);
    if (ok[3] === 'ms') grain = 1;
    fields = { outcome: 'TOOL_SUCCESS' };
  } else if (okLong) {
    tool = okLong[1]!;
    said = Number(okLong[2]) * 60_000 + Number(okLong[3]) * 1000;
    fields = { outcome: 'TOOL_SUCCESS' };
  } else if (failed) {
    tool = failed[1]!;
    said = Number(failed[2]) * 1000;
    const message = failed[3]!;
    // the isError text is logged in the same millisecond as the failure, or a few before
    const errorText = state.lastError && Number.isFinite(when) && when - state.lastError.ts <= 50 ? state.lastError.text : undefined;
    fields = { ...readFailure(message, errorText), message };
    const expired = state.sessionExpiredAt;
    if (expired !== undefined && when - expired >= 0 && when - expired <= SESSION_EXPIRED_MS && fields.jsonrpc?.errorCode === -32000) {
      // The SDK client failed the call with -32000 because Claude Code closed the transport of a session the server
      // had forgotten: its POST was answered 404 (or 400 naming the session). Which of the two is not logged.
      const status = state.sessionExpiredStatus;
      fields = status !== undefined
        ? { ...fields, outcome: 'HTTP_ERROR', status, message: `${message} (after "MCP session expired": the POST got ${status})` }
        : { ...fields, outcome: 'HTTP_ERROR', message: `${message} (after "MCP session expired": the POST got 404, or 400 naming the session)` };
    }
  } else {
    // Connection lifecycle, auth, "still running", stderr relays: nothing about one call's outcome.
    return [];
  }
  // zod only for the lines that make a claim, and before the state changes: the reader reads this line again once loaded.
  const zod = schemas();
  if (!zod) return { error: NEEDS_SCHEMAS };
  state.lastError = undefined;
  // The call started at the "Calling MCP tool" line its logged duration points at; else the logged duration says.
  const start = takeStart(state, tool, when, said, grain);
  const duration = start !== undefined ? Math.max(0, when - start) : said;
  const retried = state.retrying.delete(tool);
  const parsed = zod.ClaimSchema.safeParse({
    client: 'claude-code',
    method: 'tools/call',
    tool,
    ...fields,
    ...(duration !== undefined ? { durationMs: duration } : {}),
    ...(retried ? { retryOrigin: 'app' } : {}),
    ...(state.transport !== undefined ? { transport: state.transport } : {}),
  });
  if (!parsed.success) return { error: `Claude Code tool line: ${describeZodError(parsed.error)}` };
  const record: ClaimRecord = {
    v: 1,
    kind: 'claim',
    ts,
    side: 'client',
    ...(server !== undefined ? { conn: server } : {}),
    claim: parsed.data,
  };
  return [record];
}

/** What both Claude Code sources lack (the JSONL log and the debug file say the same of each call): no HTTP, body, session or id. */
const SUMMARY_ONLY = { http: false, bodies: false, session: false, typedIds: false } as const;
const JOINED_BY_TOOL = 'joined to a wire capture of the same run by tool name and time; alone, each call is read from what Claude Code says of it';

export const claudeCodeFormat: JsonFormat = {
  kind: 'json',
  name: 'claude-code',
  detect: isClaudeCodeLine,
  toRecords: claudeCodeToRecords,
  limits: {
    ...SUMMARY_ONLY,
    notes: [
      'one summary line per tools/call (completed / failed and the error text): no JSON-RPC message, id or arguments, no HTTP status, no Mcp-Session-Id',
      JOINED_BY_TOOL,
      'which server: from the mcp-logs-<server> folder or file name; sessionId is Claude Code\'s conversation, not the MCP session',
      'connection lines (dropped, refused, reconnecting) and server stderr are read for no call: counted as skipped, not as problems',
    ],
  },
};

/** A line of Claude Code's debug file (`claude --debug`, `--debug-file`): `<ISO time> [LEVEL] text`, levels in capitals. */
const DEBUG_LINE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z) \[(DEBUG|INFO|WARN|ERROR)\] (.*)$/s;
/** Its MCP lines: `MCP server "<name>": <text>` (what the JSONL logs as debug) or `MCP server "<name>" <text>` (as error). */
const DEBUG_MCP = /^MCP server "([^"]*)"(:?) (.*)$/s;
/** A Claude Desktop line with capital levels would look alike: `[INFO] [server] Message from client: ...` stays Claude Desktop's. */
const DESKTOP_MESSAGE = /^\[[^\]]*\] Message from (?:client|server): /;

function claudeCodeDebugToRecords(line: string, ctx: AdapterContext): AdapterResult {
  const m = DEBUG_LINE.exec(line);
  if (!m) return { error: 'not a Claude Code debug-file line' };
  const mcp = DEBUG_MCP.exec(m[3]!);
  // API calls, startup, settings, [MCP] connection summaries, [Stall] tool dispatch: nothing about one MCP call's outcome.
  if (!mcp) return [];
  return readEntry(mcp[2] === ':' ? 'debug' : 'error', mcp[3]!, m[1]!, mcp[1]!, ctx);
}

export const claudeCodeDebugFormat: TextFormat = {
  kind: 'text',
  name: 'claude-code-debug',
  // a cheap guard first (the 'T' of an ISO time, a capital after ' ['), then the pattern
  detectText: (line) => {
    if (line.length < 28 || line.charCodeAt(10) !== 84) return false;
    const b = line.indexOf(' [');
    const c = b === -1 ? 0 : line.charCodeAt(b + 2);
    return c >= 65 && c <= 90 && DEBUG_LINE.test(line) && !DESKTOP_MESSAGE.test(line.slice(line.indexOf('] ') + 2));
  },
  textToRecords: claudeCodeDebugToRecords,
  limits: {
    ...SUMMARY_ONLY,
    notes: [
      'the MCP lines of the debug file say what the mcp-logs JSONL says, with the server name on each line; no JSON-RPC message at any debug level',
      JOINED_BY_TOOL,
      'every other line (API, startup, settings, tool dispatch) and the continuation lines of multi-line messages are read for no call: counted as skipped, not as problems',
    ],
  },
};
