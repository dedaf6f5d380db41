// Records test/fixtures/real-audit96/ (the ninety-sixth audit: which side an HTTP logger's log of full URLs is) on 127.0.0.1, ports 10700-10749.
// NOT run by `npm test` (it starts servers and a Python client). Needs the repository's devDependencies (SDK 1.32.2, the
// v2 SDK 2.4.0 packages, Hono 4.13.19 and @hono/node-server 2.1.9 that they bring) and /work/py-venv (Python mcp 2.3.0);
// no network:
//   npm run build && node test/real-audit96/record.mjs [scenario...]
// Every folder's files are meant to be given together, WITHOUT --client/--server (no file name says a side):
//   hono-server-two-logs: a v2 2.4.0 client (not logged) -> Hono 4.13.19 on @hono/node-server, whose Node listener is
//     wrapped by recordingHandler (mcp-handler.ndjson: the server's side) and whose app has the team's own logging
//     middleware (hono-access.log: c.req.url, a full URL; the caller's address from getConnInfo; the request's headers
//     as received; both bodies) -> the v2 2.4.0 McpServer on WebStandardStreamableHTTPServerTransport: two server logs.
//   hono-beside-client: an SDK 1.32.2 client with recordingFetch (app.ndjson: the client's side) -> the same Hono app
//     with its logger (hono-access.log), no recordingHandler: the two views of the same calls.
//   route-handler-proxy: an SDK 1.32.2 client with recordingFetch (app.ndjson) -> a reverse proxy that adds
//     X-Forwarded-For / -Proto / -Host (not logged) -> a Fetch-API route handler, as a Next.js `POST(request)` is
//     written, served by @hono/node-server's getRequestListener, that logs each exchange (route.log: request.url, ip
//     from X-Forwarded-For, the received headers, both bodies) around the v2 transport's handleRequest.
//   client-fetch-v2: a v2 2.4.0 client whose fetch is the app's own logger (app-fetch.log: full URLs, the headers it
//     sent, the response headers it got, both bodies) -> the Hono app behind recordingHandler (mcp-handler.ndjson).
//   py-httpx-hooks: a Python mcp 2.3.0 client whose httpx2 client has event hooks that log each exchange (py-http.log:
//     str(request.url), request.headers as httpx builds them, with Host and User-Agent; both bodies) -> the Hono app
//     behind recordingHandler (mcp-handler.ndjson).
// Every app calls lookup_order (read-only), send_invoice (its first run in a session a tool error; the app calls again
// once) and refund (always a tool error). observed.json: what the app got or threw, which tool bodies ran, which file is
// whose view.
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { loggingFetch } = await import(`${R}/test/helpers/app-loggers.mjs`);
const { recordingHandler, recordingFetch } = await import(`${R}/dist/capture/index.js`);
const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
const { Client: ClientV2, StreamableHTTPClientTransport: TransportV2 } = await import('@modelcontextprotocol/client');
const { McpServer, WebStandardStreamableHTTPServerTransport, isInitializeRequest } = await import('@modelcontextprotocol/server');
const { Hono } = await import('hono');
const { getRequestListener } = await import('@hono/node-server');
const { getConnInfo } = await import('@hono/node-server/conninfo');
const { z } = await import('zod');

setTimeout(() => { process.stderr.write('still running after 150 s, giving up\n'); process.exit(2); }, 150_000).unref();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const uuid = /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/g;
const clean = (s) => String(s).replace(uuid, '<session>').replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>').slice(0, 300);
const short = (x) => (x && typeof x === 'object' && 'content' in x ? { isError: !!x.isError, text: x.content?.map((b) => b.text).join(' ').slice(0, 120) } : x);
const PLAN = (id) => [{ tool: 'lookup_order', orderId: id }, { tool: 'send_invoice', orderId: id, retry: 1 }, { tool: 'refund', orderId: id }];
const text = (t, isError) => ({ content: [{ type: 'text', text: t }], ...(isError ? { isError: true } : {}) });

/** The v2 2.4.0 server of one session: lookup_order (read-only), send_invoice (its first run a tool error), refund (a tool error). */
function invoiceServerV2(observed) {
  let invoices = 0;
  const s = new McpServer({ name: 'audit96-v2', version: '2.4.0' });
  s.registerTool('lookup_order', { inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true } }, async ({ orderId }) => { observed.serverRan.push(`lookup_order ${orderId}`); return text(`order ${orderId}: shipped`); });
  s.registerTool('send_invoice', { inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => { observed.serverRan.push(`send_invoice ${orderId}`); return ++invoices === 1 ? text('mail relay refused the connection', true) : text(`invoice for ${orderId} sent`); });
  s.registerTool('refund', { inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => { observed.serverRan.push(`refund ${orderId}`); return text(`refund of ${orderId} failed: payment gateway busy`, true); });
  return s;
}

/** The MCP endpoint as a Fetch-API handler: a WebStandardStreamableHTTPServerTransport per session. */
function mcpFetchHandler(observed) {
  const transports = new Map();
  return async (request, parsedBody) => {
    const sid = request.headers.get('mcp-session-id');
    let t = sid ? transports.get(sid) : undefined;
    if (!t && !sid && request.method === 'POST' && isInitializeRequest(parsedBody)) {
      t = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => transports.set(id, t) });
      t.onclose = () => { if (t.sessionId) transports.delete(t.sessionId); };
      await invoiceServerV2(observed).connect(t);
    }
    if (!t) return Response.json({ jsonrpc: '2.0', error: { code: sid ? -32001 : -32000, message: sid ? 'Session not found' : 'Bad Request: No valid session ID provided' }, id: null }, { status: sid ? 404 : 400 });
    return t.handleRequest(request, { parsedBody });
  };
}

/**
 * The Hono app; with `log`, the team's own logging middleware, as such code is written: one JSON line per request with
 * c.req.url (a full URL: Hono's request is a Fetch-API Request), the caller's address, the headers as received and both
 * bodies (an event stream's read from a clone in the background, so the response is not held back).
 */
function honoApp(observed, log) {
  const app = new Hono();
  if (log) {
    app.use('*', async (c, next) => {
      const started = Date.now();
      const requestBody = c.req.method === 'POST' ? await c.req.raw.clone().text() : null;
      await next();
      const entry = {
        time: new Date(started).toISOString(), level: 'info', method: c.req.method, url: c.req.url, status: c.res.status, ms: Date.now() - started,
        ip: getConnInfo(c).remote.address ?? null, userAgent: c.req.header('user-agent') ?? null, requestHeaders: Object.fromEntries(c.req.raw.headers),
        requestBody, responseHeaders: Object.fromEntries(c.res.headers),
      };
      const write = (responseBody) => appendFileSync(log, `${JSON.stringify({ ...entry, responseBody })}\n`);
      if (c.req.method === 'GET' || c.res.body === null) write(null);
      else void c.res.clone().text().then(write, () => write(null));
    });
  }
  const mcp = mcpFetchHandler(observed);
  app.all('/mcp', async (c) => mcp(c.req.raw, c.req.method === 'POST' ? await c.req.json().catch(() => undefined) : undefined));
  return app;
}

/** A Fetch-API route handler as a Next.js app writes one (`export async function POST(request)`), logging each exchange itself. */
function routeHandler(observed, out) {
  const mcp = mcpFetchHandler(observed);
  return async (request) => {
    const started = Date.now();
    const body = request.method === 'POST' ? await request.text() : null;
    const req = body === null ? request : new Request(request, { body });
    const res = await mcp(req, body ? JSON.parse(body) : undefined);
    const line = {
      ts: new Date(started).toISOString(), method: request.method, url: request.url, status: res.status, durationMs: Date.now() - started,
      ip: request.headers.get('x-forwarded-for')?.split(',')[0].trim() ?? null, userAgent: request.headers.get('user-agent'), headers: Object.fromEntries(request.headers), body,
    };
    if (request.method === 'GET' || res.body === null) appendFileSync(out, `${JSON.stringify({ ...line, response: null })}\n`);
    else void res.clone().text().then((response) => appendFileSync(out, `${JSON.stringify({ ...line, response })}\n`));
    return res;
  };
}

/** A reverse proxy that adds the X-Forwarded-* headers, as nginx's proxy_set_header lines or a platform's edge do. */
function forwardingHop(target) {
  return (req, res) => {
    const headers = { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress, 'x-forwarded-proto': 'http', 'x-forwarded-host': req.headers.host };
    const up = httpRequest({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers }, (ur) => { res.writeHead(ur.statusCode, ur.headers); ur.pipe(res); });
    up.on('error', () => res.destroy());
    req.pipe(up);
  };
}

const listen = (handler, port) => new Promise((r) => { const s = createServer(handler); s.listen(port, '127.0.0.1', () => r(s)); });
const close = (s) => new Promise((r) => { s.closeAllConnections?.(); s.close(() => r()); });
const note = (observed, app) => (step, ok, x) => observed.steps.push({ app, step, ...(ok ? { ok: short(x) } : { threw: { name: x?.constructor?.name, message: clean(x?.message ?? x), ...(x?.code !== undefined ? { code: x.code } : {}) } }) });

/** A TypeScript app (SDK 1.32.2, or the v2 2.4.0 client): the plan's calls, a tool error called again once. */
async function runTsApp(url, fetchFn, observed, { v2 = false, app = 'app' } = {}) {
  const c = v2 ? new ClientV2({ name: 'audit96-app-v2', version: '2.4.0' }) : new Client({ name: 'audit96-app', version: '1.0.0' });
  const say = note(observed, app);
  const transport = v2 ? new TransportV2(new URL(url), fetchFn ? { fetch: fetchFn } : {}) : new StreamableHTTPClientTransport(new URL(url), fetchFn ? { fetch: fetchFn } : {});
  try { await c.connect(transport); say('connect', true, 'connected'); } catch (e) { say('connect', false, e); return; }
  for (const s of PLAN(observed.orderId)) {
    for (let i = 0; i <= (s.retry ?? 0); i++) {
      const label = `${s.tool} ${s.orderId}${i ? " (the app's call again)" : ''}`;
      try { const r = await c.callTool({ name: s.tool, arguments: { orderId: s.orderId } }); say(label, true, r); if (!r.isError) break; } catch (e) { say(label, false, e); }
      await sleep(150);
    }
  }
  await transport.terminateSession?.().catch(() => {});
  await c.close();
}

/** The Python mcp 2.3.0 app (py_hooks_app.py): its steps as JSON lines on stdout. */
async function runPyApp(url, observed, log) {
  const py = spawn('/work/py-venv/bin/python', [`${R}/test/real-audit96/py_hooks_app.py`, url, JSON.stringify(PLAN(observed.orderId)), log], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  py.stdout.on('data', (c) => { out += c; });
  py.stderr.on('data', (c) => { err += c; });
  await new Promise((r) => py.once('exit', r));
  for (const l of out.split('\n').filter(Boolean)) { const o = JSON.parse(l); observed.steps.push({ app: 'py-app', ...o }); }
  if (py.exitCode !== 0) process.stderr.write(`py app exited ${py.exitCode}: ${err.slice(-800)}\n`);
}

const SCENARIOS = {
  async 'hono-server-two-logs'(dir, observed) {
    observed.chain = 'v2 2.4.0 client (not logged) -> recordingHandler (mcp-handler.ndjson) around @hono/node-server\'s listener -> Hono app with its own logging middleware (hono-access.log: full URLs, caller address, received headers) -> v2 2.4.0 McpServer, WebStandardStreamableHTTPServerTransport';
    observed.views = { 'mcp-handler.ndjson': 'server', 'hono-access.log': 'server' };
    const server = await listen(recordingHandler(getRequestListener(honoApp(observed, `${dir}/hono-access.log`).fetch), { out: `${dir}/mcp-handler.ndjson` }), 10700);
    await runTsApp('http://127.0.0.1:10700/mcp', undefined, observed, { v2: true });
    await sleep(300);
    await close(server);
  },
  async 'hono-beside-client'(dir, observed) {
    observed.chain = 'SDK 1.32.2 client with recordingFetch (app.ndjson) -> Hono app with its own logging middleware (hono-access.log) -> v2 2.4.0 McpServer';
    observed.views = { 'app.ndjson': 'client', 'hono-access.log': 'server' };
    const server = await listen(getRequestListener(honoApp(observed, `${dir}/hono-access.log`).fetch), 10710);
    const rf = recordingFetch({ out: `${dir}/app.ndjson`, client: 'audit96-app@1.0.0' });
    await runTsApp('http://127.0.0.1:10710/mcp', rf, observed);
    await rf.close();
    await sleep(300);
    await close(server);
  },
  async 'route-handler-proxy'(dir, observed) {
    observed.chain = 'SDK 1.32.2 client with recordingFetch (app.ndjson) -> reverse proxy adding X-Forwarded-For/-Proto/-Host (not logged) -> Fetch-API route handler logging each exchange (route.log: request.url, ip from X-Forwarded-For, received headers) -> v2 2.4.0 McpServer';
    observed.views = { 'app.ndjson': 'client', 'route.log': 'server' };
    const server = await listen(getRequestListener(routeHandler(observed, `${dir}/route.log`)), 10720);
    const hop = await listen(forwardingHop(10720), 10721);
    const rf = recordingFetch({ out: `${dir}/app.ndjson`, client: 'audit96-app@1.0.0' });
    await runTsApp('http://127.0.0.1:10721/mcp', rf, observed);
    await rf.close();
    await sleep(300);
    await close(hop);
    await close(server);
  },
  async 'client-fetch-v2'(dir, observed) {
    observed.chain = 'v2 2.4.0 client whose fetch is the app\'s own logger (app-fetch.log: full URLs, sent and received headers) -> recordingHandler (mcp-handler.ndjson) -> Hono app (no logger) -> v2 2.4.0 McpServer';
    observed.views = { 'app-fetch.log': 'client', 'mcp-handler.ndjson': 'server' };
    const server = await listen(recordingHandler(getRequestListener(honoApp(observed).fetch), { out: `${dir}/mcp-handler.ndjson` }), 10730);
    await runTsApp('http://127.0.0.1:10730/mcp', loggingFetch(`${dir}/app-fetch.log`), observed, { v2: true });
    await sleep(300);
    await close(server);
  },
  async 'py-httpx-hooks'(dir, observed) {
    observed.chain = 'Python mcp 2.3.0 client whose httpx2 client logs each exchange by event hooks (py-http.log: full URLs, the headers httpx sends, Host and User-Agent among them) -> recordingHandler (mcp-handler.ndjson) -> Hono app (no logger) -> v2 2.4.0 McpServer';
    observed.views = { 'py-http.log': 'client', 'mcp-handler.ndjson': 'server' };
    const server = await listen(recordingHandler(getRequestListener(honoApp(observed).fetch), { out: `${dir}/mcp-handler.ndjson` }), 10740);
    await runPyApp('http://127.0.0.1:10740/mcp', observed, `${dir}/py-http.log`);
    await sleep(300);
    await close(server);
  },
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(SCENARIOS)) {
  if (wanted.length && !wanted.includes(name)) continue;
  const dir = `${R}/test/fixtures/real-audit96/${name}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const observed = { scenario: name, orderId: `ord-96-${name}`, steps: [], serverRan: [] };
  await run(dir, observed);
  writeFileSync(`${dir}/observed.json`, `${JSON.stringify(observed, null, 2)}\n`);
  process.stdout.write(`${name}: ${observed.steps.length} steps, server ran ${observed.serverRan.length}\n`);
}
process.exit(0);
