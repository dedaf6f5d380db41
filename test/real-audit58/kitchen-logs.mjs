// The MCP test kitchen's own server-side records (cakewalk-mcp-test-kitchen @ cf2f689), written as the kitchen writes them,
// for test/real-audit58/kitchen.mjs: RequestLoggingMiddleware's line per completed request (JSON console formatter of
// appsettings.json: UTC "O" timestamps, one object a line; and the Development simple formatter: "HH:mm:ss " local time,
// single line, with ASP.NET's hosting lines at Information), and McpProtocolObservationMiddleware's observation per /mcp
// POST (ObservationResponse as JsonSerializerDefaults.Web writes it: camelCase), as the list API's page
// (ObservationListResponse, newest first) and as the SSE stream's `data: <json>` frames (with `: heartbeat` comments).
import { writeFileSync } from 'node:fs';

const CATEGORY = 'McpTestServer.API.Middleware.RequestLoggingMiddleware';
const TEMPLATE = 'HTTP {RequestMethod} {RequestPath} responded {StatusCode} in {ElapsedMs}ms';
const BASE32 = '0123456789ABCDEFGHIJKLMNOPQRSTUV';
const ALLOWED = new Set(['accept', 'content-type', 'content-length', 'host', 'user-agent', 'mcp-protocol-version']);

/** DateTimeOffset.UtcNow.ToString("O"): seven fractional digits, "+00:00". */
const oTime = (ms, sub) => `${new Date(ms).toISOString().slice(0, 19)}.${String(ms % 1000).padStart(3, '0')}${String(sub).padStart(4, '0')}+00:00`;
/** DateTime (Kind Utc) as System.Text.Json writes it: seven digits at most, trailing zeros dropped, "Z". */
const stjTime = (ms, sub) => `${new Date(ms).toISOString().slice(0, 19)}.${`${String(ms % 1000).padStart(3, '0')}${String(sub).padStart(4, '0')}`.replace(/0+$/, '') || '0'}Z`.replace('.0Z', 'Z').replace('.Z', 'Z');
/** The four sub-millisecond digits a .NET clock would add (from the high-resolution clock: not made up per line). */
const subMs = () => Number(process.hrtime.bigint() % 10000n);
/** The McpObservationPhaseMapper's phases. */
const phaseOf = (m) => ({ initialize: 'initialize', 'server/discover': 'server_discover', 'notifications/initialized': 'client_initialized', 'tools/list': 'discovery', 'resources/list': 'discovery', 'prompts/list': 'discovery', 'resources/templates/list': 'discovery', 'tools/call': 'tool_execution', 'resources/read': 'resource_read', 'prompts/get': 'prompt_get' })[m] ?? (m.startsWith('notifications/') ? 'notification' : 'protocol');

/**
 * One kitchen host's records. `caller`: the PAT owner's email (observations with none are neither listed nor streamed);
 * `listen`: the address Kestrel names in its start-up lines and ASP.NET's hosting lines.
 */
export function kitchenLogs({ caller = 'judge@example.com', listen = 'http://[::]:8080' } = {}) {
  const json = [];
  const text = [];
  const observations = [];
  const sse = [];
  const truth = [];
  let connections = 0;
  const conns = new WeakMap();
  const traceId = (req) => {
    let c = conns.get(req.socket);
    if (!c) {
      // Kestrel's connection id: "0H" and eleven base32 digits of a counter seeded by the clock
      const n = BigInt(Date.now()) * 1000n + BigInt(++connections);
      let id = '';
      for (let k = 0n, v = n; k < 11n; k++, v >>= 5n) id = BASE32[Number(v & 31n)] + id;
      conns.set(req.socket, (c = { id: `0H${id}`, n: 0 }));
    }
    c.n++;
    return `${c.id}:${c.n.toString(16).toUpperCase().padStart(8, '0')}`;
  };
  const localTime = (ms) => new Date(ms).toISOString().slice(11, 19);
  const textLine = (ms, level, category, event, message) => text.push(`${localTime(ms)} ${level}: ${category}[${event}] ${message}`);
  // Microsoft.Hosting.Lifetime at Information (Default), in both shapes
  const start = Date.now();
  for (const [event, message, state] of [
    [14, `Now listening on: ${listen}`, { address: listen, '{OriginalFormat}': 'Now listening on: {address}' }],
    [0, 'Application started. Press Ctrl+C to shut down.', { '{OriginalFormat}': 'Application started. Press Ctrl+C to shut down.' }],
    [0, 'Hosting environment: Production', { EnvName: 'Production', '{OriginalFormat}': 'Hosting environment: {EnvName}' }],
  ]) {
    json.push(JSON.stringify({ Timestamp: oTime(start, subMs()), EventId: event, LogLevel: 'Information', Category: 'Microsoft.Hosting.Lifetime', Message: message, State: { Message: message, ...state } }));
    textLine(start, 'info', 'Microsoft.Hosting.Lifetime', event, message.replace('Production', 'Development'));
  }

  /** RequestLoggingMiddleware around `next`: the line when the response is done (its finally), level by status, the skip rules. */
  const requestLog = (next) => async (req, res) => {
    const t0 = performance.now();
    const path = req.url.split('?')[0];
    const url = `http://${req.headers.host}${req.url}`;
    // Development: ASP.NET's hosting lines at Information (Microsoft.AspNetCore: Information there, Warning in production)
    textLine(Date.now(), 'info', 'Microsoft.AspNetCore.Hosting.Diagnostics', 1, `Request starting HTTP/${req.httpVersion} ${req.method} ${url} - ${req.headers['content-type'] ?? '-'} ${req.headers['content-length'] ?? '-'}`);
    res.once('close', () => {
      const elapsed = Math.floor(performance.now() - t0);
      const status = res.statusCode;
      const now = Date.now();
      textLine(now, 'info', 'Microsoft.AspNetCore.Hosting.Diagnostics', 2, `Request finished HTTP/${req.httpVersion} ${req.method} ${url} - ${status} ${res.getHeader('content-length') ?? '-'} ${res.getHeader('content-type') ?? '-'} ${(performance.now() - t0).toFixed(4)}ms`);
      let level = status >= 500 ? 'Error' : status >= 400 ? 'Warning' : undefined;
      const omitted = path.toLowerCase() === '/api/health' || path.toLowerCase().startsWith('/assets/');
      if (level === undefined && !omitted) level = elapsed >= 1000 || !/^(GET|HEAD|OPTIONS)$/.test(req.method) ? 'Information' : undefined;
      if (level === undefined) return;
      const message = `HTTP ${req.method} ${path} responded ${status} in ${elapsed}ms`;
      json.push(JSON.stringify({ Timestamp: oTime(now, subMs()), EventId: 0, LogLevel: level, Category: CATEGORY, Message: message, State: { Message: message, RequestMethod: req.method, RequestPath: path, StatusCode: status, ElapsedMs: elapsed, '{OriginalFormat}': TEMPLATE } }));
      textLine(now, { Error: 'fail', Warning: 'warn', Information: 'info' }[level], CATEGORY, 0, message);
    });
    return next(req, res);
  };

  /** McpProtocolObservationMiddleware around `next`: one row per /mcp POST, written when the response is done. */
  const observe = (next, { scenario }) => async (req, res) => {
    if (req.method !== 'POST') return next(req, res);
    const chunks = [];
    let t0 = performance.now();
    const emit = req.emit;
    req.emit = function (event, ...args) {
      if (event === 'data') chunks.push(Buffer.from(args[0]));
      // the stopwatch starts once the body is buffered
      if (event === 'end') t0 = performance.now();
      return emit.call(this, event, ...args);
    };
    const requestId = traceId(req);
    res.once('close', () => {
      const durationMs = Math.floor(performance.now() - t0);
      const raw = Buffer.concat(chunks);
      let body;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {}
      const method = typeof body?.method === 'string' ? body.method : null;
      let summary = null;
      const p = body?.params;
      if (method === 'initialize' && p) summary = JSON.stringify({ protocolVersion: p.protocolVersion ?? null, clientName: p.clientInfo?.name ?? null, clientVersion: p.clientInfo?.version ?? null });
      else if (method === 'tools/call' && p && 'name' in p) summary = JSON.stringify({ name: p.name });
      else if (p && typeof p === 'object' && !Array.isArray(p) && JSON.stringify(p).length <= 512) summary = JSON.stringify(p);
      const headers = {};
      for (let k = 0; k < req.rawHeaders.length; k += 2) {
        const name = req.rawHeaders[k];
        headers[name] = ALLOWED.has(name.toLowerCase()) ? req.rawHeaders[k + 1] : '[redacted]';
      }
      const resources = method !== null && (method.startsWith('resources/') || method.startsWith('prompts/'));
      const ms = Date.now();
      const row = {
        id: observations.length + 1,
        requestId,
        callerEmail: caller,
        scenarioId: resources ? null : scenario,
        method: method ?? '[malformed]',
        phase: method === null ? 'malformed' : phaseOf(method),
        durationMs,
        statusCode: res.statusCode,
        wasCancelled: !res.writableFinished,
        headersJson: JSON.stringify(headers),
        requestParamsJson: summary,
        clientProtocolVersion: req.headers['mcp-protocol-version'] ?? (method === 'initialize' ? (p?.protocolVersion ?? null) : null),
        occurredAt: stjTime(ms, subMs()),
      };
      observations.push(row);
      // the truth beside it (not in the row: the kitchen keeps no JSON-RPC id): which request this observation was
      truth.push({ requestId, jsonrpcId: body?.id ?? null, method: row.method });
      if (caller) sse.push(`data: ${JSON.stringify(row)}\n\n`);
    });
    return next(req, res);
  };

  /** Writes what a judge could save: console.json.log, console.txt, observations-page.json, observations-stream.txt, observations.ndjson. */
  const write = (dir) => {
    writeFileSync(`${dir}kitchen-console.json.log`, `${json.join('\n')}\n`);
    writeFileSync(`${dir}kitchen-console.txt`, `${text.join('\n')}\n`);
    const items = [...observations].reverse();
    writeFileSync(`${dir}observations-page.json`, JSON.stringify({ items, totalCount: items.length, page: 1, pageSize: 50 }));
    // the stream as `curl -N .../observations/stream > file` keeps it: frames, a heartbeat comment every 30 s
    writeFileSync(`${dir}observations-stream.txt`, `${sse.join('')}: heartbeat\n\n`);
    writeFileSync(`${dir}observations.ndjson`, observations.map((o) => `${JSON.stringify(o)}\n`).join(''));
  };
  return { requestLog, observe, write, observations, truth };
}
