// The `mcp-triage formats` listing: every input format, how it is detected, what it carries and what it cannot show.
import type { InputFormat } from './adapter.js';
import { ALL_FORMATS } from './index.js';

/** How each format is recognized and what one line of it holds (the README table says the same). */
const ABOUT: Record<string, { detect: string; carries: string }> = {
  canonical: { detect: '"v": 1 and a known "kind"', carries: 'everything the canonical schema v1 holds (mcp-triage schema)' },
  claim: { detect: '"outcome" with postCount / httpStatuses / jsonrpc / retryOrigin', carries: "a client's own account of one call" },
  'claude-code': { detect: '"debug" or "error" text + "timestamp" + "sessionId" + "cwd" (Claude Code mcp-logs-<server>/*.jsonl)', carries: "Claude Code's account of each tools/call: tool, completed or failed, how long, its error text (as a claim joined to the wire by tool and time)" },
  'claude-code-debug': { detect: '"<ISO time> [DEBUG|INFO|WARN|ERROR] ..." lines of Claude Code\'s debug file (claude --debug, --debug-file)', carries: 'the same account of each tools/call as the mcp-logs JSONL, from its \'MCP server "<name>": ...\' lines' },
  kong: { detect: 'an "ai.mcp" object (Kong AI Gateway log)', carries: 'per JSON-RPC call: method, tool, string id, latency, error text, payloads when logged; HTTP status; session' },
  har: { detect: 'a HAR entry ("startedDateTime", request/response with header lists); whole HAR files by their "log" key', carries: 'whole HTTP exchanges: headers, request body, status, response body (SSE included), timing' },
  mcpsnoop: { detect: '"session_id" + "seq" + "direction" + "ts"', carries: 'each JSON-RPC frame as sent, HTTP status on responses (HTTP mode)' },
  mcpspy: { detect: '"transport_type" with an http_transport or stdio_transport block', carries: 'each JSON-RPC message as sniffed (raw), direction' },
  otlp: { detect: '"resourceSpans" or "resourceLogs" (OTLP JSON file exporter)', carries: 'MCP spans: method, tool, session, string id, error.type / status code, start and end times' },
  tshark: { detect: '"layers" with a "frame" layer (tshark -T ek document lines, -T json items under "_source"); -T ek\'s {"index":{"_index":"packets-..."}} lines', carries: 'HTTP/1.1 exchanges off the wire: method, URL, headers, request body, status, response body; SSE events and cut responses read from the TCP payload' },
  'gh-aw': { detect: '"server_id" + "payload" + "direction" (or "type" / "event")', carries: "each JSON-RPC message between the GitHub Agentic Workflows MCP gateway and a backend server (rpc-messages.jsonl), IN or OUT" },
  inspector: { detect: '"direction" request/response/notification + "message" + "origin" or "response" (MCP Inspector History export)', carries: 'each JSON-RPC message the Inspector sent or got, a request with its response and duration' },
  'inspector-network': { detect: '"url" + "method" + "requestHeaders" + "responseStatus" or "error" (MCP Inspector Network export)', carries: 'each HTTP request the Inspector made: status, headers, request and response bodies (SSE text included)' },
  'nginx-json': { detect: '"request_method" + "request_body" (text) + "status" + "request_time": nginx\'s JSON access log, a log_format escape=json with $request_body (the README gives one)', carries: 'one HTTP exchange per line: method, URI, request body (the JSON-RPC request), status, when it ended ($msec) and how long it took ($request_time), Mcp-Session-Id sent and handed out, response Content-Type; no response body' },
  'haproxy-log': { detect: 'HAProxy\'s HTTP log line, raw or after a syslog header: option httplog ("<ip>:<port> [06/Dec/2026:04:33:09.363] <frontend> <backend>/<server> TR/Tw/Tc/Tr/Ta <status> <bytes> - - <state> ac/fc/bc/sc/rc sq/bq {<captured>} \"<request>\""), or option httplog clf', carries: 'one HTTP request as the gateway saw it, no body: method, path, the status the client got, when it came and how long it took (Ta), the termination state (who ended it and in which phase: SD, sH, SC, PR, CD, CH...), the server it went to last, the retries counter (+: redispatched), a captured Mcp-Session-Id; joined to the attempt of its POST, never an attempt of its own' },
  'nginx-combined': { detect: '"<addr> - <user> [<dd/Mon/yyyy:hh:mm:ss zone>] \"<METHOD> <uri> HTTP/x\" <status> <bytes>" lines of nginx\'s default access log (combined or common), also with $request_time $upstream_response_time $upstream_status $upstream_addr (or rt= urt= us= ua=) appended', carries: 'a gateway\'s account: each POST nginx answered with an error (4xx, 5xx) or logged 499, with when it ended (and started, with $request_time) and the upstreams tried; it explains the client\'s attempt of that status within a second, named in its why; POSTs sent to more than one upstream are counted' },
  'nginx-error': { detect: '"<yyyy/mm/dd hh:mm:ss> [<level>] <pid>#<tid>: *<conn> ..." lines of nginx\'s error log', carries: 'nginx\'s reason for each POST it failed (connect() failed, upstream timed out, upstream prematurely closed connection, client intended to send too large body, limiting requests), with the request line, client and upstream; named in the why of the client attempt it explains, with what it means (the MCP server never saw it, nginx answered itself, nginx cut the stream)' },
  caddy: { detect: '"logger" http.log.access.* (with a "request" object), http.log.error.* or http.handlers.reverse_proxy, beside "level", "ts" and "msg": Caddy\'s JSON access log (the log directive) and its default logger\'s errors', carries: 'a gateway\'s account: each POST Caddy failed (4xx, 5xx; status 0: the client left before any head; a 200 SSE stream with no byte), with its start and duration, status and the Mcp-Session-Id it carried, and Caddy\'s reason (dial tcp, timeout awaiting response headers, request_body max_size, aborting with incomplete response); it explains the client\'s attempt of that status and session, named in its why' },
  'caddy-console': { detect: '"<yyyy/mm/dd hh:mm:ss.mmm>\\t<LEVEL>\\thttp.log.access...\\t<msg>\\t{...}" lines of Caddy\'s console log format (format console)', carries: 'the same as caddy: Caddy\'s account of each POST it failed and its reason, with a local time' },
  'kitchen-log': { detect: 'a .NET JSON console line whose "Category" ends in ".RequestLoggingMiddleware" and whose "Message" is "HTTP <METHOD> <path> responded <status> in <n>ms" (the Cakewalk MCP test kitchen\'s request log; its Development text lines "info: McpTestServer.API.Middleware.RequestLoggingMiddleware[0] HTTP POST /mcp responded 200 in 12ms" through dotnet-console)', carries: 'the server\'s own account of each POST /mcp: the status it sent and how long it took, no body, id, method or session; joined to the client\'s attempt of that status that started within a second (its why says the server answered, with the time it took); the rest counted in a note' },
  'aspnet-hosting': { detect: 'a .NET JSON console line whose "Category" is "Microsoft.AspNetCore.Hosting.Diagnostics" and whose "Message" is "Request finished HTTP/1.1 POST http://host/mcp - 200 - text/event-stream 12.3456ms" (or "Request starting ...", read and left out); the same text lines through dotnet-console', carries: 'the server\'s own account of each POST: the status it sent, the response type and how long it took, no body, id, method or session; joined to the client\'s attempt of that status that started within a second (its why says the server answered, with the time it took); the rest counted in a note' },
  'kitchen-observation': { detect: '"requestId" + "method" + "phase" + "durationMs" + "wasCancelled" + "occurredAt" (a Cakewalk MCP test kitchen observation, one a line), or the list API\'s page {"items": [...], "totalCount", "page", "pageSize"} (GET /api/management/observations)', carries: 'the server\'s own account of each /mcp POST past its rate limiter and PAT check: JSON-RPC method, tool, phase, scenario, status (injected ones too), duration, wasCancelled; no id, result, isError or session; joined to the client\'s attempt of that method, tool and status that started within a second' },
  'kitchen-observation-stream': { detect: '"data: {...}" lines holding a kitchen observation, and ": heartbeat" lines (GET /api/management/observations/stream saved as it came)', carries: 'the same observations as kitchen-observation, as the live stream sent them' },
  'app-log': { detect: 'tried after every format above and the log-platform envelopes: a plain text line with a JSON-RPC message after its time and words ("<time> info: sending {...}", "[server] received {...}"), or an application\'s own log line (pino, winston, bunyan, structlog, python-json-logger, .NET\'s JSON console logger, Serilog\'s JSON and compact JSON) with a JSON-RPC 2.0 message in a field, one level down (req.body), or stringified in a text field ("received: {...}", or Python\'s text of a message dict: "received {\'jsonrpc\': \'2.0\', ...}"); loguru\'s serialize=True lines by their record; a logger\'s line (a level and a msg/message/event, or python-json-logger\'s asctime and message) without one is skipped; pydantic\'s text of the SDK\'s message object (jsonrpc=\'2.0\' id=... method=..., JSONRPCResponse(...), root=...) is read, one that cannot be read is refused with the fix', carries: 'each JSON-RPC message with the line\'s time (also loguru\'s record.time), session id (a sessionId-like field, loguru\'s record.extra, or an mcp-session-id header), HTTP status (status, statusCode, res.statusCode) and direction (a direction field, or words such as received/sent in a key, a prefix or the line\'s text); a client\'s log joins a server\'s by the session id both logged (an initialize logged before the id existed takes its response\'s); a server app\'s second log call of the request on the line right before it (another text: a middleware\'s, then the handler\'s) read once' },
  jsonrpc: { detect: 'a JSON-RPC message, bare or under "message", with an optional direction', carries: 'one JSON-RPC message with a direction' },
  'claude-desktop': { detect: '"<time> [server] [level] ..." text lines of mcp.log / mcp-server-NAME.log', carries: 'each JSON-RPC message Claude Desktop exchanged with a stdio server' },
  vscode: { detect: '"<date> <time> [level] ..." lines of a VS Code "MCP: <server>" output channel or its log file', carries: 'each JSON-RPC message VS Code exchanged with the server ([editor -> server], [server -> editor], or the older [Client Says] / [Server Says])' },
  'dotnet-console': { detect: '"<level>: <Category>[<EventId>]" lines of .NET\'s text console logger (trce, dbug, info, warn, fail, crit; a TimestampFormat\'s time before them), the message after it or on the next line indented by six spaces', carries: 'each JSON-RPC message a line carries, read as app-log reads it; the C# SDK\'s Trace lines (ModelContextProtocol) by their words, its client transport\'s copy of a sent message skipped' },
  'python-sdk': { detect: 'Python logging text lines (BASIC_FORMAT "DEBUG:name:message", or a line that starts with its asctime "2026-03-01 10:00:00,120", also with a dot or a T, or in brackets; "name - LEVEL - message" lines of the SDK\'s own, asyncio\'s, httpx\'s or httpcore\'s loggers), or the same records from a JSON formatter (python-json-logger, structlog) whose text is the SDK\'s, httpx\'s or httpcore\'s line, and the Python SDK client\'s "Sending client message: jsonrpc=\'2.0\' ..." / "SSE message: ..." lines in any format; after one, every other line of that log', carries: 'each JSON-RPC message the Python SDK client sent or read from an SSE stream (pydantic\'s text of it), with the session id it was given ("Received session ID: ...", a legacy endpoint URL\'s session_id) and the line\'s asctime; the legacy HTTP+SSE server\'s messages ("Validated client message:", "Sending message via SSE:"); httpcore\'s DEBUG line of a failed connect, or of a failed wait for a head (the connection closed or reset, the client\'s read timeout), of the one POST in flight, as that request\'s NO_RESPONSE; the program\'s other lines skipped; a record its handlers wrote twice (the same line twice in a row once the log shows it doubles, or the same record in another format right after it) read once; a log given as its rotated files (app.log.2, app.log.1, app.log) read as one file, oldest first, so its session goes on across them' },
  'go-sdk': { detect: '"write: {...}" / "read: {...}" lines of the Go SDK\'s LoggingTransport, bare or after a Go log date (2006/01/02 15:04:05)', carries: 'each JSON-RPC message the logging side (client or server) wrote or read' },
};

function shows(f: InputFormat): string {
  const l = f.limits;
  const no = [!l.http && 'HTTP status', !l.bodies && 'bodies', !l.session && 'session id', !l.typedIds && 'typed ids'].filter(Boolean);
  return no.length ? `cannot show: ${no.join(', ')}` : 'full view';
}

/** Plain text for the terminal: one block per format, in detection order. */
export function describeFormats(): string {
  const out: string[] = ['Input formats, in the order they are tried on each line (--input-format NAME forces one):', ''];
  for (const f of ALL_FORMATS) {
    const about = ABOUT[f.name];
    out.push(`${f.name} (${f.kind === 'json' ? 'JSON lines' : 'text lines'}) - ${shows(f)}`);
    if (about) {
      out.push(`  detected by: ${about.detect}`);
      out.push(`  carries:     ${about.carries}`);
    }
    for (const n of f.limits.notes) out.push(`  note:        ${n}`);
    out.push('');
  }
  out.push('Also read:');
  out.push('  whole HAR files ({"log":{"entries":[...]}}, pretty or one line, .har or gzip), streamed entry by entry');
  out.push('  JSON array documents ([{...}, ...] over many lines: the MCP Inspector\'s exports), streamed item by item;');
  out.push('    a line holding an array of records is read like a page');
  out.push('  log-platform envelopes, unwrapped before detection: Google Cloud Logging (jsonPayload, textPayload),');
  out.push('    Datadog (attributes.attributes, attributes.message, API pages {"data":[...]}), Elasticsearch/OpenSearch');
  out.push('    (_source, hits.hits[]), Loki logcli -o jsonl (line); --unwrap a.b.c for any other envelope');
  out.push('  CloudWatch `aws logs tail` lines (<time> <stream> {json}): the JSON is detected as any format above');
  out.push('  container and system logs, each line taken out of its wrapper (told by the first lines) and detected as any');
  out.push('    format above: Docker json-file ({"log":...,"stream":...,"time":...}), the CRI format (<time> stdout F ...),');
  out.push('    docker logs -t, kubectl logs --prefix, docker compose logs (<service>-1  | ...), journalctl -o json, and');
  out.push('    syslog lines (journalctl -o short*, /var/log/syslog); the lines they split (16 KiB, 48 KiB) joined again;');
  out.push('    several compose services or pods in one file: each read as its own log (up to 64 per file)');
  out.push('');
  out.push('Every line is counted (lines = used + blank + skipped + unusable; a whole HAR\'s entries, a JSON array\'s items):');
  out.push('  skipped   well-formed in its format but no MCP traffic (a HAR page asset or preflight, a connection or stderr');
  out.push('            line, a span without MCP attributes, an application\'s log line without a JSON-RPC message): counted in');
  out.push('            the Inputs table, no diagnostic, not fatal with --strict');
  out.push('  unusable  broken (invalid JSON, wrong types, no known format, too long, cut gzip): a diagnostic on stderr,');
  out.push('            and with --strict the run stops with exit 2');
  out.push('');
  return out.join('\n');
}
