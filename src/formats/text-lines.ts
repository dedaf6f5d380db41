// Text lines with embedded JSON: Claude Desktop mcp*.log and VS Code MCP output lines (formats), CloudWatch `aws logs tail` lines (split for re-detection).
import type { MessageRecord } from '../schema/record.js';
import { MESSAGE_LEVEL, type AdapterResult, type TextFormat } from './adapter.js';
import { isObj, parseJson } from './values.js';

const LEVELS = new Set(['trace', 'debug', 'info', 'notice', 'warn', 'warning', 'error', 'fatal', 'critical', 'verbose', 'log']);

/** `<ISO time> [a] [b] text` where one of a, b is a log level (mcp.log: [level] [server]; mcp-server-NAME.log: [server] [level]). */
const CLAUDE_LINE = /^(\d{4}-\d{2}-\d{2}T[0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?) \[([^\]]*)\] \[([^\]]*)\] ?(.*)$/s;
const MESSAGE_FROM = /^Message from (client|server): /;
const METADATA_TAIL = ' { metadata:';

interface ClaudeDesktopLine {
  ts: string;
  server: string;
  level: string;
  text: string;
}

/** Splits a Claude Desktop log line into its parts, or undefined when the line does not have that shape. */
export function splitClaudeDesktopLine(line: string): ClaudeDesktopLine | undefined {
  const m = CLAUDE_LINE.exec(line);
  if (!m) return undefined;
  const [, ts, a, b, text] = m as unknown as [string, string, string, string, string];
  const aIsLevel = LEVELS.has(a.toLowerCase());
  const bIsLevel = LEVELS.has(b.toLowerCase());
  if (!aIsLevel && !bIsLevel) return undefined;
  // When both look like levels, the per-server file order ([server] [level]) is assumed.
  return bIsLevel ? { ts, server: a, level: b, text } : { ts, server: b, level: a, text };
}

/** The JSON body of a `Message from ...:` text, without the ` { metadata: undefined }` tail newer versions add. */
function messageBody(text: string): unknown {
  const whole = parseJson(text);
  if (whole !== undefined) return whole;
  const cut = text.lastIndexOf(METADATA_TAIL);
  return cut === -1 ? undefined : parseJson(text.slice(0, cut));
}

function claudeDesktopToRecords(line: string): AdapterResult {
  const parts = splitClaudeDesktopLine(line);
  if (!parts) return { error: 'not a Claude Desktop log line' };
  const from = MESSAGE_FROM.exec(parts.text);
  // Server started..., Client transport closed, Initializing server..., Using MCP server command...: nothing to analyze.
  if (!from) return [];
  const message = messageBody(parts.text.slice(from[0].length));
  if (!isObj(message) && !Array.isArray(message)) {
    return { error: `Claude Desktop "Message from ${from[1]}" body is not one JSON value on this line (multi-line bodies are not supported)` };
  }
  const record: MessageRecord = {
    v: 1,
    kind: 'message',
    ts: parts.ts,
    side: 'client',
    conn: parts.server,
    direction: from[1] === 'client' ? 'c2s' : 's2c',
    message,
  };
  return [record];
}

export const claudeDesktopFormat: TextFormat = {
  kind: 'text',
  name: 'claude-desktop',
  detectText: (line) => line.length > 26 && line.charCodeAt(4) === 45 && line.includes('] [') && splitClaudeDesktopLine(line) !== undefined,
  textToRecords: (line) => claudeDesktopToRecords(line),
  limits: {
    ...MESSAGE_LEVEL,
    notes: [
      'stdio only: calls are joined per server name',
      'server stderr and multi-line metadata lines are not recognized',
    ],
  },
};

/** VS Code's log lines: `<local date> <local time>.<ms> [level] text` (an MCP server's output channel, or its log file). */
const VSCODE_LINE = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?) \[(trace|debug|info|warning|error)\] (.*)$/s;
/** The message markers: `[editor -> server]` / `[server -> editor]` (2025-07 on), `[Client Says]` / `[Server Says]` (before). */
const VSCODE_MESSAGE = /^\[(editor -> server|server -> editor|Client Says|Server Says)\] /;

function vscodeToRecords(line: string): AdapterResult {
  const m = VSCODE_LINE.exec(line);
  if (!m) return { error: 'not a VS Code log line' };
  const [, ts, , text] = m as unknown as [string, string, string, string];
  const marker = VSCODE_MESSAGE.exec(text);
  // Connection state, server stderr, discovery and auth lines: nothing to analyze.
  if (!marker) return [];
  const message = parseJson(text.slice(marker[0].length));
  if (!isObj(message) && !Array.isArray(message)) return { error: `VS Code "[${marker[1]}]" body is not one JSON value on this line` };
  const fromClient = marker[1] === 'editor -> server' || marker[1] === 'Client Says';
  const record: MessageRecord = { v: 1, kind: 'message', ts, side: 'client', direction: fromClient ? 'c2s' : 's2c', message };
  return [record];
}

export const vscodeFormat: TextFormat = {
  kind: 'text',
  name: 'vscode',
  detectText: (line) => line.length > 26 && line.charCodeAt(10) === 32 && VSCODE_LINE.test(line),
  textToRecords: (line) => vscodeToRecords(line),
  limits: {
    ...MESSAGE_LEVEL,
    notes: [
      'one output channel (or log file) per server: calls are joined per input',
      'times are local without a zone: --timezone says which (default UTC)',
      'messages are logged only at the channel\'s debug or trace level',
    ],
  },
};

interface CloudWatchLine {
  /** The line's ISO time (kept for records whose JSON has no time of its own). */
  ts: string;
  /** Log stream name; absent with `aws logs tail --format short`. */
  stream?: string;
  /** The JSON text after the prefix, to be parsed and detected as any JSON format. */
  json: string;
}

const CLOUDWATCH_LINE = /^(\d{4}-\d{2}-\d{2}T[0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)\s+(?:([^\s{[][^\s]*)\s+)?([{[].*)$/s;

/**
 * Splits an `aws logs tail` line (`<ISO time> <stream> {json}`, or `<ISO time> {json}` with --format short).
 * Undefined for other lines. The JSON is returned as text: the reader parses it and detects its format as if it
 * were the whole line, then copies `ts` into it when it has no time (see withTime in unwrap.ts).
 */
/** A plain text line's leading time (ISO 8601 with a T or a space, a zone or none; bare, or in brackets or parentheses). */
const LEADING_TEXT_TIME = /^[[(]?(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?)[\])]?\s+/;

/**
 * A plain text line that carries a JSON-RPC message (`console.log('sent', JSON.stringify(m))`, winston's
 * `<time> info: sending {...}`, `[<time>] --> {...}`), as an application log record: its leading time, if any, and
 * the rest as its message text, for the app-log reader to find the message and its direction in. Undefined for a line
 * that holds no JSON-RPC message.
 */
export function embeddedMessageLine(line: string): { time?: string; msg: string } | undefined {
  if (!line.includes('jsonrpc')) return undefined;
  const m = LEADING_TEXT_TIME.exec(line);
  let msg = (m ? line.slice(m[0].length) : line).trim();
  // Brackets in the words before the message (`[info] send:`, `(client)`) are no JSON: only the message opens one (a
  // batch's `[` just before its first `{` is kept).
  const open = msg.indexOf('{');
  if (open > 0) {
    const batch = /\[\s*$/.exec(msg.slice(0, open));
    const cut = batch ? batch.index : open;
    // Arrows say the direction as words do, from the writer's side (`-->` sent, as koa-logger's `-->` is its answer).
    const prefix = msg.slice(0, cut).replace(/[[\]()]/g, ' ').replace(/(?:-+>|>>)/g, ' sent ').replace(/(?:<-+|<<)/g, ' received ');
    msg = prefix + msg.slice(cut);
  }
  return m ? { time: m[1]!, msg } : { msg };
}

/** An `aws logs tail` line whose message is a text line (a Python logging line): its time, stream and text. */
interface CloudWatchTextLine {
  ts: string;
  stream: string;
  text: string;
}

const CLOUDWATCH_TEXT_LINE = /^(\d{4}-\d{2}-\d{2}T[0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)\s([^\s{[][^\s]*)\s(.*)$/s;

/**
 * Splits an `aws logs tail` line whose message is text (`<ISO time> <stream> <text>`); the stream is required, as
 * without it any timed text line would look so. The caller reads the text as a line of its own, if a text format
 * takes it.
 */
export function splitCloudWatchText(line: string): CloudWatchTextLine | undefined {
  const c0 = line.charCodeAt(0);
  if (c0 < 48 || c0 > 57) return undefined;
  const m = CLOUDWATCH_TEXT_LINE.exec(line);
  return m ? { ts: m[1]!, stream: m[2]!, text: m[3]! } : undefined;
}

export function splitCloudWatchLine(line: string): CloudWatchLine | undefined {
  const c0 = line.charCodeAt(0);
  if (c0 < 48 || c0 > 57) return undefined;
  const m = CLOUDWATCH_LINE.exec(line);
  if (!m || (m[2] === undefined && splitClaudeDesktopLine(line))) return undefined;
  return m[2] === undefined ? { ts: m[1]!, json: m[3]! } : { ts: m[1]!, stream: m[2], json: m[3]! };
}
