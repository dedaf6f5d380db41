// The input-format registry: the order in which formats are tried on each line, and lookup by --input-format name.
import type { InputFormat, JsonFormat, TextFormat } from './adapter.js';
import { canonicalFormat } from './canonical.js';
import { appLogFormat } from './app-log.js';
import { claimFormat } from './claim.js';
import { claudeCodeDebugFormat, claudeCodeFormat } from './claude-code.js';
import { dotnetConsoleFormat } from './dotnet-console.js';
import { pythonSdkLogFormat } from './python-sdk-log.js';
import { jsonRpcFormat } from './jsonrpc.js';
import { ghAwFormat } from './gh-aw.js';
import { goSdkFormat } from './go-sdk.js';
import { haproxyLogFormat } from './haproxy-log.js';
import { httpLineFormat } from './http-line.js';
import { inspectorFormat, inspectorNetworkFormat } from './inspector.js';
import { harEntryFormat } from './har-entry.js';
import { kitchenLogFormat, kitchenObservationFormat, kitchenObservationStreamFormat } from './kitchen.js';
import { aspnetHostingFormat } from './aspnet-hosting.js';
import { kongFormat } from './kong.js';
import { mcpsnoopFormat } from './mcpsnoop.js';
import { mcpspyFormat } from './mcpspy.js';
import { nginxJsonFormat } from './nginx-json.js';
import { nginxCombinedFormat } from './nginx-combined.js';
import { nginxErrorFormat } from './nginx-error.js';
import { apacheErrorFormat } from './apache-error.js';
import { caddyConsoleFormat, caddyFormat } from './caddy.js';
import { otlpFormat } from './otlp.js';
import { tsharkFormat } from './tshark.js';
import { claudeDesktopFormat, vscodeFormat } from './text-lines.js';
import { serverConsoleFormat, serverConsoleRestFormat } from './server-console.js';

/**
 * JSON formats in detection order: the first whose detect() accepts a line wins.
 * Specific shapes first (each keys on fields no other format has: `v`+`kind`, Claude Code's `debug`/`error`+`timestamp`+`sessionId`+`cwd`, `ai.mcp`, HAR's `startedDateTime`/header
 * list, mcpsnoop's `session_id`+`seq`, MCPSpy's `transport_type`, OTLP's `resourceSpans`/`resourceLogs`, tshark's `layers.frame` (and its -T ek index line `{"index":{"_index":"packets-..."}}`), the gh-aw gateway's `server_id`+`payload`, the MCP Inspector's `direction`+`origin`/`response` or `url`+`requestHeaders`+`responseStatus`, nginx's JSON access log's `request_method`+`request_body`+`status`+`request_time`, Caddy's log lines by `logger` `http.log.access.*` (with a `request` object), `http.log.error.*` or `http.handlers.reverse_proxy` beside `level`, `ts` and `msg`, the MCP test kitchen's request log line by its category `*.RequestLoggingMiddleware` and its message `HTTP <METHOD> <path> responded <status> in <n>ms`, and its observations by `requestId`+`method`+`phase`+`durationMs`+`wasCancelled`+`occurredAt` or the list API's page of them); Kong before
 * HAR because a Kong log object also has `request` and `response`; then a developer's own HTTP log line (an HTTP verb
 * as `method`, a `url` or `path`, a status or error), whose field names any of the above may share; the bare JSON-RPC
 * message format last, as it accepts the least structure. Log-platform envelopes are unwrapped before detection (unwrap.ts).
 */
export const JSON_FORMATS: JsonFormat[] = [
  canonicalFormat,
  claimFormat,
  claudeCodeFormat,
  kongFormat,
  harEntryFormat,
  mcpsnoopFormat,
  mcpspyFormat,
  otlpFormat,
  tsharkFormat,
  ghAwFormat,
  inspectorNetworkFormat,
  inspectorFormat,
  nginxJsonFormat,
  caddyFormat,
  kitchenLogFormat,
  kitchenObservationFormat,
  aspnetHostingFormat,
  httpLineFormat,
  jsonRpcFormat,
];

/**
 * Text formats (JSON embedded in a text line), tried on lines that do not start with '{'. Claude Code's debug file
 * before Claude Desktop: its `[DEBUG] [STARTUP] ...` lines would otherwise pass for Claude Desktop's `[level] [server]`.
 * HAProxy's HTTP log line (a fixed run of fields after `ip:port [date]`, or its clf layout), nginx's access log
 * (`<addr> - <user> [<time>] "<request>" ...`, Apache's too) and error log (`<yyyy/mm/dd> <time> [<level>] <pid>#<tid>:`), Apache's error log (`[<Www Mmm dd hh:mm:ss.usec yyyy>] [<module>:<level>] [pid <n>:tid <n>] `), Caddy's console lines (`<yyyy/mm/dd> <time>\t<LEVEL>\thttp.log.access...\t<msg>\t{...}`), and the
 * MCP test kitchen's observation stream saved as it came (`data: {"requestId":...}`, `: heartbeat`) before them:
 * no other format's line starts so. A server's console (server-console.ts: uvicorn's `INFO:     ip:port - "POST /mcp HTTP/1.1" 200 OK`,
 * morgan's `POST /mcp 200 4.2 ms - 12`, hono/logger's `--> POST /mcp 200 3ms`, the Python SDK's own words) before them: its
 * shapes are strict. .NET's console log and Python logging's lines last: their shapes (`info: Category[0]`, `DEBUG:name:`) are the loosest;
 * then the rest of a server's console once a line of it was seen (a traceback's, a stack trace's lines: skipped).
 */
export const TEXT_FORMATS: TextFormat[] = [claudeCodeDebugFormat, claudeDesktopFormat, vscodeFormat, goSdkFormat, haproxyLogFormat, nginxCombinedFormat, nginxErrorFormat, apacheErrorFormat, caddyConsoleFormat, kitchenObservationStreamFormat, serverConsoleFormat, dotnetConsoleFormat, pythonSdkLogFormat, serverConsoleRestFormat];

/**
 * An application's own log lines (JSON-RPC messages in its fields): tried last, after the log-platform envelopes were
 * unwrapped, since any format's or envelope's line may hold a message somewhere in it.
 */
export const FALLBACK_FORMAT: JsonFormat = appLogFormat;

// (the rest of a server's console is the same format as its strict lines': listed once)
export const ALL_FORMATS: InputFormat[] = [...JSON_FORMATS, FALLBACK_FORMAT, ...TEXT_FORMATS.filter((f) => f !== serverConsoleRestFormat)];

export function formatByName(name: string): InputFormat | undefined {
  return ALL_FORMATS.find((f) => f.name === name);
}

/** The first JSON format whose detect() accepts the value (after any envelope was unwrapped), or undefined. */
export function detectJsonFormat(value: Record<string, unknown>): JsonFormat | undefined {
  for (const f of JSON_FORMATS) {
    try {
      if (f.detect(value)) return f;
    } catch {
      // A detector that throws on hostile input is a bug, never a crash: treat as "not this format".
    }
  }
  return undefined;
}

/** The first text format whose detectText() accepts the line, or undefined. */
export function detectTextFormat(line: string): TextFormat | undefined {
  return TEXT_FORMATS.find((f) => f.detectText(line));
}
