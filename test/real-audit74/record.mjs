// Records test/fixtures/real-audit74/ (the seventy-fourth audit: body-less server HTTP loggers behind a hop of their own, Fastify's default logger with error statuses, express-winston on a stream the server dropped) around SDK 1.32.2 servers on 127.0.0.1.
// NOT run by `npm test`: CI does not have the logger packages. They live in a scratch folder outside the repository,
// the seventieth audit's (test/real-audit70/record.mjs says how to install it; AUDIT74_NPM=dir to use another):
//   mkdir -p /work/audit70-scratch && cd /work/audit70-scratch && npm init -y && npm i --save-exact pino@10.4.0 \
//     pino-http@11.0.0 fastify@5.12.8 @elastic/ecs-pino-format@1.5.0 winston@3.19.0 express-winston@4.2.0 \
//     @elastic/ecs-winston-format@1.5.3 @elastic/ecs-morgan-format@1.5.1 morgan@1.12.1
// then, from the repository: npm run build && node test/real-audit74/record.mjs [scenario...]
// The chain: the SDK 1.32.2 Client, its fetch mcp-triage's recordingFetch (client.ndjson, the truth of the wire) ->
// (hop-* scenarios) a small Node reverse proxy of this file's (the hop: it answers 502 when the server refuses the
// connection, 504 when the server sends no response head within 1 s, 503 while in maintenance, and its own 500/502 to
// the POSTs of orders H-500/H-502, never logging) -> an Express 5 app (express.json(), pino-http 11 as its README sets
// it up, ECS morgan, express-winston with winston's JSON format (its timestamp and `ms`: the time since winston's previous line, "+12ms") and the body whitelisted, each to its own file) in front
// of the SDK's StreamableHTTPServerTransport; or (fastify-*) a Fastify 5 app with its default logger (no body, no
// headers). observed.json: what the app got or threw, which tool bodies ran, what the hop and the server did.
// Ports 9700-9799 on 127.0.0.1 only.
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const NPM = process.env.AUDIT74_NPM ?? '/work/audit70-scratch';
const need = createRequire(`${NPM}/package.json`);
const { listen, sleep, readBody } = await import(`${R}/test/helpers/loopback.mjs`);
const { Client, StreamableHTTPClientTransport, McpServer, StreamableHTTPServerTransport, types, z, text, errOf, short, clean } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { recordingFetch } = await import(`${R}/dist/capture/index.js`);
const { default: express } = await import(`${R}/node_modules/express/index.js`);
const pino = need('pino');
const pinoHttp = need('pino-http');
const winston = need('winston');
const expressWinston = need('express-winston');
const morgan = need('morgan');
const { ecsFormat: ecsMorgan } = need('@elastic/ecs-morgan-format');
const Fastify = need('fastify');

setTimeout(() => { process.stderr.write('still running after 180 s, giving up\n'); process.exit(2); }, 180_000).unref();
const EXPRESS_FILES = ['pino-http.ndjson', 'ecs-morgan.ndjson', 'express-winston.ndjson'];
const TOKEN = 'Bearer sk-audit74-secret-token-0123456789';
let nextPort = 9700;
const port = () => nextPort++;

/** The tools: lookup_order, cut_stream (a progress event, then the server drops the connection). */
function buildServer(ran, cuts) {
  const s = new McpServer({ name: 'audit74-shop', version: '1.0.0' });
  s.registerTool('lookup_order', { description: 'Look up an order', inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => { ran.push(`lookup_order ${orderId}`); return text(`order ${orderId}: shipped`); });
  s.registerTool('cut_stream', { description: 'Export orders (the server drops the connection mid-stream)', inputSchema: { orderId: z.string() } }, async ({ orderId }, extra) => {
    ran.push(`cut_stream ${orderId}`);
    if (extra._meta?.progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta.progressToken, progress: 1, total: 2 } });
    await sleep(200);
    cuts.shift()?.();
    await sleep(500);
    return text(`export of ${orderId} done`);
  });
  return s;
}

/** A known session to its transport, an initialize to a new one, else 404 (a session given) or 400. `transports` outlives a restart only when given. */
function sessions(ran, cuts) {
  const transports = new Map();
  return {
    async post(req, res, body) {
      const sid = req.headers['mcp-session-id'];
      let t = sid ? transports.get(sid) : undefined;
      if (!t && !sid && types.isInitializeRequest(body)) {
        t = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => transports.set(id, t) });
        await buildServer(ran, cuts).connect(t);
      }
      if (!t) {
        res.writeHead(sid ? 404 : 400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: sid ? -32001 : -32000, message: sid ? 'Session not found' : 'Bad Request: No valid session ID provided' }, id: null }));
        return;
      }
      await t.handleRequest(req, res, body);
    },
    async other(req, res) {
      const t = transports.get(req.headers['mcp-session-id']);
      if (!t) { res.writeHead(404, { 'content-type': 'text/plain' }).end('Session not found'); return; }
      await t.handleRequest(req, res);
    },
    async restart() { const all = [...transports.values()]; transports.clear(); for (const t of all) await t.close().catch(() => {}); },
  };
}

const file = (path) => pino.destination({ dest: path, sync: true });
const orderOf = (body) => body?.method === 'tools/call' ? body?.params?.arguments?.orderId : undefined;

/**
 * Express 5 and the body-less loggers as their READMEs set them up (pino-http's default, ECS morgan), with
 * express-winston (winston's JSON format with its timestamp and ms formats; the body whitelisted) beside them, each appending to its
 * own file: a restart (a new app on the same port) writes on. Order B-500 throws in the route handler (Express's 500);
 * order B-slow waits 2.5 s before the transport.
 */
async function expressServer(d, ran, cuts, at) {
  const app = express();
  app.use(express.json());
  app.use(pinoHttp({ logger: pino(file(`${d}/pino-http.ndjson`)) }));
  app.use(morgan(ecsMorgan(), { stream: { write: (line) => appendFileSync(`${d}/ecs-morgan.ndjson`, line) } }));
  app.use(expressWinston.logger({ transports: [new winston.transports.File({ filename: `${d}/express-winston.ndjson` })], format: winston.format.combine(winston.format.timestamp(), winston.format.ms(), winston.format.json()), requestWhitelist: [...expressWinston.requestWhitelist, 'body'], meta: true, msg: 'HTTP {{req.method}} {{req.url}}' }));
  const s = sessions(ran, cuts);
  app.post('/mcp', async (req, res) => {
    const order = orderOf(req.body);
    if (order === 'B-500') {
      await sleep(120);
      ran.push('B-500 handler threw');
      throw new Error('database connection refused');
    }
    if (order === 'B-slow') { ran.push('B-slow waits 2.5 s before the transport'); await sleep(2500); }
    if (req.body?.method === 'tools/call' && req.body?.params?.name === 'cut_stream') cuts.push(() => res.socket?.destroy());
    await s.post(req, res, req.body);
  });
  app.get('/mcp', (req, res) => s.other(req, res));
  app.delete('/mcp', (req, res) => s.other(req, res));
  const l = await listen(app, at);
  return { url: l.url, async close() { await s.restart(); await l.close(); } };
}

/** Fastify 5 with its default logger to a file (no body, no headers). Order F-500 throws before the transport (Fastify's own 500). */
async function fastifyServer(d, ran, cuts, at) {
  const app = Fastify({ logger: { level: 'info', file: `${d}/fastify.ndjson` } });
  const s = sessions(ran, cuts);
  app.post('/mcp', async (req, reply) => {
    if (orderOf(req.body) === 'F-500') { ran.push('F-500 handler threw'); throw new Error('database connection refused'); }
    reply.hijack();
    await s.post(req.raw, reply.raw, req.body);
  });
  app.get('/mcp', async (req, reply) => { reply.hijack(); await s.other(req.raw, reply.raw); });
  app.delete('/mcp', async (req, reply) => { reply.hijack(); await s.other(req.raw, reply.raw); });
  await app.listen({ port: at, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${at}`, async close() { await s.restart(); await app.close(); } };
}

/**
 * The hop: a reverse proxy that logs nothing. It answers 503 while `mode.maintenance`, its own 500 / 502 to a tools/call
 * of order H-500 / H-502 (as a gateway plugin that refuses a request would), 502 when the server refuses the
 * connection, 504 when no response head came within 1 s (the server's request is dropped), else passes the response on.
 */
async function hop(target, mode, log) {
  return listen(async (req, res) => {
    const body = await readBody(req);
    let rpc;
    try { rpc = JSON.parse(body.toString('utf8')); } catch {}
    const what = `${req.method} ${rpc?.method ?? ''} ${orderOf(rpc) ?? ''}`.trim();
    const own = (status, why) => { log.push({ request: what, hop: `${status} ${why}` }); res.writeHead(status, { 'content-type': 'text/html' }).end(`<html><body><h1>${status}</h1>${why}</body></html>`); };
    if (mode.maintenance) return own(503, 'maintenance');
    const order = orderOf(rpc);
    if (order === 'H-500') return own(500, 'gateway plugin error');
    if (order === 'H-502') return own(502, 'gateway plugin: upstream marked bad');
    const up = httpRequest({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers });
    const timer = setTimeout(() => { up.destroy(); if (!res.headersSent) own(504, 'no response head from the server within 1 s'); }, 1000);
    up.on('response', (r) => {
      clearTimeout(timer);
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
      r.on('error', () => res.destroy());
      r.on('aborted', () => res.destroy());
    });
    up.on('error', (e) => { clearTimeout(timer); if (!res.headersSent) own(502, `server connection failed: ${e.code}`); else res.destroy(); });
    up.end(body);
  }, port());
}

async function rig(name, { kind = 'express', viaHop = false } = {}) {
  const d = `${R}/test/fixtures/real-audit74/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const ran = [];
  const cuts = [];
  const serverPort = port();
  const start = () => (kind === 'fastify' ? fastifyServer(d, ran, cuts, serverPort) : expressServer(d, ran, cuts, serverPort));
  let server = await start();
  const mode = { maintenance: false };
  const hopLog = [];
  const h = viaHop ? await hop(serverPort, mode, hopLog) : null;
  const url = new URL(`${h ? h.url : server.url}/mcp`);
  const fetch = recordingFetch({ out: `${d}/client.ndjson`, client: 'audit74-app@1.0.0' });
  const observed = [];
  const step = async (label, fn) => {
    const t0 = Date.now();
    try { const r = await fn(); observed.push({ label, ok: short(r) ?? null, ms: Date.now() - t0 }); return r; }
    catch (e) { observed.push({ label, error: errOf(e), ms: Date.now() - t0 }); return undefined; }
  };
  const transports = [];
  const connect = async () => {
    const c = new Client({ name: 'audit74-app', version: '1.0.0' });
    c.onerror = (e) => observed.push({ onerror: clean(e?.message ?? e).slice(0, 200) });
    const t = new StreamableHTTPClientTransport(url, { fetch, requestInit: { headers: { authorization: TOKEN } }, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } });
    transports.push(t);
    await c.connect(t);
    return c;
  };
  return { d, url, fetch, step, connect, observed, ran, mode,
    note: (n) => observed.push(n),
    async stop() { await server.close(); observed.push({ server: 'stopped (nothing listens on its port)' }); },
    async start() { server = await start(); observed.push({ server: 'started again: a new process, every session forgotten' }); },
    async done(clients, { terminate = true } = {}) {
      await sleep(300);
      if (terminate) for (const t of transports) await step('terminate the session (DELETE)', () => t.terminateSession()).catch(() => {});
      for (const c of clients) await c.close().catch(() => {});
      await sleep(300);
      await server.close();
      if (h) await h.close();
      await sleep(300);
      for (const f of kind === 'fastify' ? ['fastify.ndjson'] : EXPRESS_FILES) appendFileSync(`${d}/${f}`, '');
      observed.push({ serverRan: ran });
      if (h) observed.push({ hop: hopLog });
      writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
    } };
}

const call = (c, name, args, opts) => () => c.callTool({ name, arguments: args }, undefined, opts);
const lookup = (r, c, id, label = `call lookup_order ${id}`) => r.step(label, call(c, 'lookup_order', { orderId: id }));

export const scenarios = {
  'hop-statuses': async () => {
    // Through the hop: the server's own 500 and (after its restart) 404; the hop's 503 (maintenance), 504 (no head in 1 s) and 502 (the server down).
    const r = await rig('hop-statuses', { viaHop: true });
    const c = await r.connect();
    await lookup(r, c, 'B-1');
    await lookup(r, c, 'B-500', 'call lookup_order B-500 (the route handler throws: the server\'s 500)');
    await sleep(300);
    r.mode.maintenance = true;
    r.note({ hop: 'maintenance on' });
    await lookup(r, c, 'B-2', 'call lookup_order B-2 (the hop in maintenance: 503)');
    r.mode.maintenance = false;
    r.note({ hop: 'maintenance off' });
    await sleep(300);
    await lookup(r, c, 'B-slow', 'call lookup_order B-slow (the server waits 2.5 s: the hop\'s 504 at 1 s)');
    await sleep(2000);
    await r.stop();
    await lookup(r, c, 'B-3', 'call lookup_order B-3 (the server down: the hop\'s 502)');
    await sleep(300);
    await r.start();
    await sleep(200);
    await lookup(r, c, 'B-4', 'call lookup_order B-4 (the restarted server: its 404)');
    const c2 = await r.connect();
    await lookup(r, c2, 'B-4', 'call lookup_order B-4 on a new session (app retry)');
    await r.done([c, c2]);
  },
  'hop-same-status': async () => {
    // The near miss: the hop's own 500 (order H-500) sent 60 ms before a call the server answers 500 (order B-500, after 120 ms), and the hop's 502 (H-502) 60 ms after it.
    const r = await rig('hop-same-status', { viaHop: true });
    const c = await r.connect();
    await Promise.all([
      lookup(r, c, 'H-500', 'call lookup_order H-500 (the hop\'s own 500)'),
      (async () => { await sleep(60); await lookup(r, c, 'B-500', 'call lookup_order B-500 (the server\'s 500)'); })(),
      (async () => { await sleep(120); await lookup(r, c, 'H-502', 'call lookup_order H-502 (the hop\'s own 502)'); })(),
    ]);
    await r.done([c]);
  },
  'fastify-errors': async () => {
    // Fastify's default logger: a 400 (a tools/call POST without a session), Fastify's own 500 (the handler threw), a 404 after a restart.
    const r = await rig('fastify-errors', { kind: 'fastify' });
    const c = await r.connect();
    await lookup(r, c, 'F-1');
    await r.step('POST tools/call without a session (the app\'s own)', async () => {
      const res = await r.fetch(r.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: TOKEN }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: 'F-2' } } }) });
      return { status: res.status, body: await res.text() };
    });
    await lookup(r, c, 'F-500', 'call lookup_order F-500 (the handler throws: Fastify\'s 500)');
    await r.stop();
    await r.start();
    await sleep(200);
    await lookup(r, c, 'F-3', 'call lookup_order F-3 (the restarted server: 404)');
    const c2 = await r.connect();
    await lookup(r, c2, 'F-3', 'call lookup_order F-3 on a new session (app retry)');
    await r.done([c, c2]);
  },
  'sse-cut': async () => {
    // The server drops the POST's SSE stream 200 ms after the progress event; the client waits for its 2 s timeout. A healthy call before it.
    const r = await rig('sse-cut');
    const c = await r.connect();
    await lookup(r, c, 'W-1');
    await r.step('call cut_stream', call(c, 'cut_stream', { orderId: 'W-2' }, { timeout: 2000, onprogress: () => r.observed.push({ progress: 'received' }) }));
    r.note({ server: 'destroyed the socket of the tools/call 200 ms after its progress event' });
    await r.done([c]);
  },
};

const only = process.argv.slice(2);
for (const [name, run] of Object.entries(scenarios)) {
  if (only.length && !only.includes(name)) continue;
  process.stdout.write(`${name}\n`);
  await run();
}
process.exit(0);
