// Adapter for Claude Code's MCP logs (mcp-logs-<server>/<time>.jsonl): its per-call summary lines become claims about each tools/call.
import type { Claim, ClaimRecord } from '../schema/record.js';
import { NEEDS_SCHEMAS, schemas } from '../schema/lazy.js';
import type { AdapterContext, AdapterResult, JsonFormat } from './adapter.js';
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
}

const STATE_KEY = 'claude-code';

function stateOf(ctx: AdapterContext): State {
  let s = ctx.state?.get(STATE_KEY) as State | undefined;
  if (!s) {
    s = { calls: new Map(), lastError: undefined, retrying: new Set() };
    ctx.state?.set(STATE_KEY, s);
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
export function readFailure(text: string, toolErrorText: string | undefined): Pick<Claim, 'outcome' | 'jsonrpc' | 'httpStatuses'> {
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
    return status ? { outcome: 'HTTP_ERROR', httpStatuses: [Number(status[1])] } : { outcome: 'HTTP_ERROR' };
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

export function claudeCodeToRecords(value: Record<string, unknown>, ctx: AdapterContext): AdapterResult {
  if (!isClaudeCodeLine(value)) return { error: 'not a Claude Code MCP log line (debug or error, timestamp, sessionId, cwd)' };
  const ts = value.timestamp as string;
  const when = Date.parse(ts);
  const state = stateOf(ctx);
  if (typeof value.error === 'string') {
    // A tool's isError text, server stderr, a connection failure: kept to tell an isError result from the failure line.
    state.lastError = { text: value.error, ts: when };
    return [];
  }
  const text = value.debug as string;
  const calling = CALLING.exec(text);
  if (calling) {
    if (!Number.isFinite(when)) return [];
    const list = state.calls.get(calling[1]!);
    if (!list) state.calls.set(calling[1]!, [when]);
    else {
      list.push(when);
      // A call Claude Code aborted (the user pressed Esc) logs no end: its start must not linger without bound.
      if (list.length > MAX_OPEN_CALLS) list.shift();
    }
    return [];
  }
  const retry = RETRYING.exec(text);
  if (retry) {
    state.retrying.add(retry[1]!);
    return [];
  }
  let tool: string;
  let fields: Pick<Claim, 'outcome' | 'jsonrpc' | 'httpStatuses' | 'message'>;
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
  const server = serverFromPath(ctx.file);
  const parsed = zod.ClaimSchema.safeParse({
    client: 'claude-code',
    method: 'tools/call',
    tool,
    ...fields,
    ...(duration !== undefined ? { durationMs: duration } : {}),
    ...(retried ? { retryOrigin: 'app' } : {}),
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

export const claudeCodeFormat: JsonFormat = {
  kind: 'json',
  name: 'claude-code',
  detect: isClaudeCodeLine,
  toRecords: claudeCodeToRecords,
  limits: {
    http: false,
    bodies: false,
    session: false,
    typedIds: false,
    notes: [
      'one summary line per tools/call (completed / failed and the error text): no JSON-RPC message, id or arguments, no HTTP status, no Mcp-Session-Id',
      'joined to a wire capture of the same run by tool name and time; alone, each call is read from what Claude Code says of it',
      'which server: from the mcp-logs-<server> folder or file name; sessionId is Claude Code\'s conversation, not the MCP session',
      'connection lines (dropped, refused, reconnecting) and server stderr are read for no call',
    ],
  },
};
