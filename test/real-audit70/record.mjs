// Records test/fixtures/real-audit70/ (the seventieth audit: the JSON HTTP loggers real servers use: pino-http, Fastify's own logger, Elastic's ECS formats, express-winston) around SDK 1.32.2 servers on 127.0.0.1.
// NOT run by `npm test`: CI does not have the logger packages. They live in a scratch folder outside the repository:
//   mkdir -p /work/audit70-scratch && cd /work/audit70-scratch && npm init -y && npm i --save-exact pino@10.4.0 \
//     pino-http@11.0.0 fastify@5.12.8 @elastic/ecs-pino-format@1.5.0 winston@3.19.0 express-winston@4.2.0 \
//     @elastic/ecs-winston-format@1.5.3 @elastic/ecs-morgan-format@1.5.1 morgan@1.12.1
// then, from the repository: npm run build && node test/real-audit70/record.mjs [scenario...]   (AUDIT70_NPM=dir to move it)
// The chain: the SDK 1.32.2 Client, its fetch mcp-triage's recordingFetch (client.ndjson, the truth of the wire) ->
// an Express 5 app (express.json(), then each logger as its README sets it up, each to its own file) in front of the
// SDK's StreamableHTTPServerTransport, one McpServer per session; or (fastify-* scenarios) a Fastify 5 app with its
// default logger written to a file, the transport given req.raw/reply.raw. observed.json: what the app got or threw,
// which tool bodies ran, what the server did on purpose (a restart, a thrown handler, a cut stream).
// Ports 9500-9599 on 127.0.0.1 only.
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const NPM = process.env.AUDIT70_NPM ?? '/work/audit70-scratch';
const need = createRequire(`${NPM}/package.json`);
const { listen, sleep } = await import(`${R}/test/helpers/loopback.mjs`);
const { Client, StreamableHTTPClientTransport, McpServer, StreamableHTTPServerTransport, types, z, text, errOf, short, clean } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { recordingFetch } = await import(`${R}/dist/capture/index.js`);
const { default: express } = await import(`${R}/node_modules/express/index.js`);
const pino = need('pino');
const pinoHttp = need('pino-http');
const { ecsFormat: ecsPino } = need('@elastic/ecs-pino-format');
const winston = need('winston');
const expressWinston = need('express-winston');
const { ecsFormat: ecsWinston } = need('@elastic/ecs-winston-format');
const morgan = need('morgan');
const { ecsFormat: ecsMorgan } = need('@elastic/ecs-morgan-format');
const Fastify = need('fastify');

setTimeout(() => { process.stderr.write('still running after 180 s, giving up\n'); process.exit(2); }, 180_000).unref();
const EXPRESS_FILES = ['pino-http.ndjson', 'pino-http-body.ndjson', 'ecs-pino.ndjson', 'express-winston-ecs.ndjson', 'ecs-morgan.ndjson'];
/** A bearer token the app sends on every request: every logger here writes the request headers. */
const TOKEN = 'Bearer sk-audit70-secret-token-0123456789';
let nextPort = 9500;
const port = () => nextPort++;

/** The tools: lookup_order, refund_order (an isError result), slow_report (3 s), cut_stream (a progress event, then the server drops the connection). */
function buildServer(ran, cuts) {
  const s = new McpServer({ name: 'audit70-shop', version: '1.0.0' });
  s.registerTool('lookup_order', { description: 'Look up an order', inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => { ran.push(`lookup_order ${orderId}`); return text(`order ${orderId}: shipped`); });
  s.registerTool('refund_order', { description: 'Refund an order', inputSchema: { orderId: z.string() } }, async ({ orderId }) => { ran.push(`refund_order ${orderId}`); return { isError: true, content: [{ type: 'text', text: `order ${orderId} was already refunded` }] }; });
  s.registerTool('slow_report', { description: 'Build a sales report (slow)', inputSchema: { month: z.string() }, annotations: { readOnlyHint: true } }, async ({ month }) => { ran.push(`slow_report ${month} start`); await sleep(3000); ran.push(`slow_report ${month} end`); return text(`report ${month}: 42 orders`); });
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

/** The session router every server here uses: a known session to its transport, an initialize to a new one, else 404 (a session given) or 400. */
function sessions(ran, cuts) {
  const transports = new Map();
  return {
    transports,
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

/** Express 5, the loggers as their READMEs set them up, each to its own file. */
async function expressServer(d, ran, cuts) {
  const app = express();
  app.use(express.json());
  // pino-http as its README shows, default serializers: req {id, method, url, query, params, headers, remoteAddress, remotePort}, res {statusCode, headers}, responseTime.
  app.use(pinoHttp({ logger: pino(file(`${d}/pino-http.ndjson`)) }));
  // pino-http with the parsed JSON-RPC body added, the common customProps recipe.
  app.use(pinoHttp({ logger: pino(file(`${d}/pino-http-body.ndjson`)), customProps: (req) => ({ body: req.body }) }));
  // Elastic's ECS format for pino, converting req/res (its README's http example).
  app.use(pinoHttp({ logger: pino(ecsPino({ convertReqRes: true }), file(`${d}/ecs-pino.ndjson`)) }));
  // express-winston with Elastic's ECS winston format, the request body whitelisted (its README's recipe).
  app.use(expressWinston.logger({ transports: [new winston.transports.File({ filename: `${d}/express-winston-ecs.ndjson` })], format: ecsWinston(), requestWhitelist: [...expressWinston.requestWhitelist, 'body'], meta: true, msg: 'HTTP {{req.method}} {{req.url}}' }));
  // morgan with Elastic's ECS morgan format.
  const morganOut = `${d}/ecs-morgan.ndjson`;
  app.use(morgan(ecsMorgan(), { stream: { write: (line) => appendFileSync(morganOut, line) } }));
  const s = sessions(ran, cuts);
  app.get('/health', (_req, res) => { res.json({ ok: true }); });
  app.post('/mcp', async (req, res) => {
    if (req.body?.method === 'tools/call' && req.body?.params?.arguments?.orderId === 'A-6' && !ran.includes('explode thrown')) {
      ran.push('explode thrown');
      throw new Error('database connection refused');
    }
    if (req.body?.method === 'tools/call' && req.body?.params?.name === 'cut_stream') cuts.push(() => res.socket?.destroy());
    await s.post(req, res, req.body);
  });
  app.get('/mcp', (req, res) => s.other(req, res));
  app.delete('/mcp', (req, res) => s.other(req, res));
  const l = await listen(app, port());
  return { url: l.url, restart: () => s.restart(), async close() { await s.restart(); await l.close(); } };
}

/**
 * Fastify 5 with its default logger written to a file; the transport gets the raw req/res and the parsed body.
 * `logBody`: the preHandler hook Fastify's Logging docs give to log `req.body` ("parsed body", tied to the request's
 * "incoming request" and "request completed" lines by reqId).
 */
async function fastifyServer(d, ran, cuts, { logBody = false, logHeaders = false } = {}) {
  // `logHeaders`: the req serializer and redaction of Fastify's Logging docs ("log all HTTP headers except the Authorization header").
  const headers = logHeaders ? { redact: ['req.headers.authorization'], serializers: { req(request) { return { method: request.method, url: request.url, headers: request.headers, host: request.host, remoteAddress: request.ip, remotePort: request.socket.remotePort }; } } } : {};
  const app = Fastify({ logger: { level: 'info', file: `${d}/fastify.ndjson`, ...headers } });
  if (logBody) {
    app.addHook('preHandler', function (req, reply, done) {
      if (req.body) {
        req.log.info({ body: req.body }, 'parsed body');
      }
      done();
    });
  }
  const s = sessions(ran, cuts);
  app.get('/health', async () => ({ ok: true }));
  app.post('/mcp', async (req, reply) => {
    reply.hijack();
    await s.post(req.raw, reply.raw, req.body);
  });
  app.get('/mcp', async (req, reply) => { reply.hijack(); await s.other(req.raw, reply.raw); });
  app.delete('/mcp', async (req, reply) => { reply.hijack(); await s.other(req.raw, reply.raw); });
  const p = port();
  await app.listen({ port: p, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${p}`, restart: () => s.restart(), async close() { await s.restart(); await app.close(); } };
}

async function rig(name, kind = 'express', serverOptions = {}) {
  const d = `${R}/test/fixtures/real-audit70/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const ran = [];
  const cuts = [];
  const server = kind === 'fastify' ? await fastifyServer(d, ran, cuts, serverOptions) : await expressServer(d, ran, cuts);
  const url = new URL(`${server.url}/mcp`);
  const fetch = recordingFetch({ out: `${d}/client.ndjson`, client: 'audit70-app@1.0.0' });
  const observed = [];
  const step = async (label, fn) => {
    try { const r = await fn(); observed.push({ label, ok: short(r) ?? null }); return r; }
    catch (e) { observed.push({ label, error: errOf(e) }); return undefined; }
  };
  const transports = [];
  const connect = async () => {
    const c = new Client({ name: 'audit70-app', version: '1.0.0' });
    c.onerror = (e) => observed.push({ onerror: clean(e?.message ?? e).slice(0, 200) });
    const t = new StreamableHTTPClientTransport(url, { fetch, requestInit: { headers: { authorization: TOKEN } }, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } });
    transports.push(t);
    await c.connect(t);
    return c;
  };
  return { d, server, url, fetch, step, connect, observed, ran, async done(clients, { terminate = true } = {}) {
    await sleep(300);
    if (terminate) for (const t of transports) await step('terminate the session (DELETE)', () => t.terminateSession()).catch(() => {});
    for (const c of clients) await c.close().catch(() => {});
    await sleep(300);
    await server.close();
    await sleep(300);
    for (const f of kind === 'fastify' ? ['fastify.ndjson'] : EXPRESS_FILES) appendFileSync(`${d}/${f}`, '');
    observed.push({ serverRan: ran });
    writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
  } };
}

const call = (c, name, args, opts) => () => c.callTool({ name, arguments: args }, undefined, opts);
/** The app's own probe of the server's health route (a near miss: not MCP). */
const probe = (r) => r.step('GET /health (the app\'s probe)', async () => { const res = await r.fetch(`${r.server.url}/health`); return { status: res.status, body: await res.text() }; });

/** Elasticsearch's `_search` hits of an ECS log, as Kibana's export or a `_search` page hands them over: newest first, one hit a line, the line under `_source` with what Filebeat adds. */
function elasticExport(d, from, to) {
  const lines = readFileSync(`${d}/${from}`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const hits = lines.map((src, i) => ({
    _index: '.ds-logs-mcp.server-default-2026.12.07-000001',
    _id: `hit-${String(i + 1).padStart(4, '0')}`,
    _score: null,
    _source: { ...src, agent: { type: 'filebeat', version: '8.17.0' }, input: { type: 'filestream' }, log: { ...(src.log ?? {}), file: { path: `/var/log/mcp/${from}` }, offset: i * 900 }, data_stream: { type: 'logs', dataset: 'mcp.server', namespace: 'default' } },
    sort: [Date.parse(src['@timestamp'])],
  }));
  hits.reverse();
  writeFileSync(`${d}/${to}`, hits.map((h) => JSON.stringify(h)).join('\n') + '\n');
}

export const scenarios = {
  'tool-ok': async () => {
    // Healthy calls and the near misses: the GET stream, the 202 of notifications/initialized, tools/list, a /health probe, the DELETE.
    const r = await rig('tool-ok');
    const c = await r.connect();
    await r.step('list tools', async () => (await c.listTools()).tools.map((t) => t.name));
    await probe(r);
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'A-1' }));
    await r.done([c]);
  },
  'tool-error': async () => {
    const r = await rig('tool-error');
    const c = await r.connect();
    await r.step('call refund_order', call(c, 'refund_order', { orderId: 'A-2' }));
    await r.done([c]);
  },
  'jsonrpc-error': async () => {
    // prompts/get on a server with no prompts: the SDK server answers JSON-RPC -32601.
    const r = await rig('jsonrpc-error');
    const c = await r.connect();
    await r.step('get prompt summarize', () => c.getPrompt({ name: 'summarize' }));
    await r.done([c]);
  },
  'session-lost': async () => {
    const r = await rig('session-lost');
    const c = await r.connect();
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'A-4' }));
    await r.server.restart();
    r.observed.push({ server: 'restarted: every session forgotten' });
    await sleep(100);
    await r.step('call lookup_order after the restart', call(c, 'lookup_order', { orderId: 'A-4' }));
    const c2 = await r.connect();
    await r.step('call lookup_order on a new session (app retry)', call(c2, 'lookup_order', { orderId: 'A-4' }));
    await r.done([c2]);
  },
  'bad-request': async () => {
    // The app's own POST of a tools/call without a session id: 400.
    const r = await rig('bad-request');
    await r.step('POST tools/call without a session', async () => {
      const res = await r.fetch(r.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: TOKEN }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: 'A-5' } } }) });
      return { status: res.status, body: await res.text() };
    });
    await r.done([], { terminate: false });
  },
  'server-500': async () => {
    // The route handler throws before the transport on the first call of order A-6 (Express's 500 page); the app retries the call once and it works.
    const r = await rig('server-500');
    const c = await r.connect();
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'A-6' }));
    r.observed.push({ server: 'the POST handler threw "database connection refused": Express answered its 500 page' });
    await sleep(200);
    await r.step('call lookup_order again (app retry)', call(c, 'lookup_order', { orderId: 'A-6' }));
    await r.done([c]);
  },
  'sse-cut': async () => {
    // The server drops the POST's SSE stream after the progress event; the client waits for its 2 s timeout.
    const r = await rig('sse-cut');
    const c = await r.connect();
    await r.step('call cut_stream', call(c, 'cut_stream', { orderId: 'A-7' }, { timeout: 2000, onprogress: () => r.observed.push({ progress: 'received' }) }));
    r.observed.push({ server: 'destroyed the socket of the tools/call 200 ms after its progress event' });
    await r.done([c]);
  },
  'slow-tool': async () => {
    // A 3 s tool and a fast call sent during it: the end-logged lines come in the other order.
    const r = await rig('slow-tool');
    const c = await r.connect();
    await Promise.all([
      r.step('call slow_report', call(c, 'slow_report', { month: '2026-11' })),
      (async () => { await sleep(500); await r.step('call lookup_order during slow_report', call(c, 'lookup_order', { orderId: 'A-8' })); })(),
    ]);
    await r.done([c]);
    elasticExport(r.d, 'express-winston-ecs.ndjson', 'elastic-export.ndjson');
  },
  'fastify-tool-ok': async () => {
    const r = await rig('fastify-tool-ok', 'fastify');
    const c = await r.connect();
    await probe(r);
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'F-1' }));
    await r.step('call refund_order', call(c, 'refund_order', { orderId: 'F-2' }));
    await r.done([c]);
  },
  'fastify-tool-error': async () => {
    const r = await rig('fastify-tool-error', 'fastify', { logBody: true });
    const c = await r.connect();
    await r.step('call refund_order', call(c, 'refund_order', { orderId: 'F-5' }));
    await r.step('get prompt summarize', () => c.getPrompt({ name: 'summarize' }));
    await r.done([c]);
  },
  'fastify-slow-tool': async () => {
    const r = await rig('fastify-slow-tool', 'fastify', { logBody: true });
    const c = await r.connect();
    await Promise.all([
      r.step('call slow_report', call(c, 'slow_report', { month: '2026-11' })),
      (async () => { await sleep(500); await r.step('call lookup_order during slow_report', call(c, 'lookup_order', { orderId: 'F-3' })); })(),
    ]);
    await r.done([c]);
  },
  'fastify-session-lost': async () => {
    const r = await rig('fastify-session-lost', 'fastify', { logBody: true, logHeaders: true });
    const c = await r.connect();
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'F-4' }));
    await r.server.restart();
    r.observed.push({ server: 'restarted: every session forgotten' });
    await sleep(100);
    await r.step('call lookup_order after the restart', call(c, 'lookup_order', { orderId: 'F-4' }));
    const c2 = await r.connect();
    await r.step('call lookup_order on a new session (app retry)', call(c2, 'lookup_order', { orderId: 'F-4' }));
    await r.done([c2]);
  },
};

const only = process.argv.slice(2);
for (const [name, run] of Object.entries(scenarios)) {
  if (only.length && !only.includes(name)) continue;
  process.stdout.write(`${name}\n`);
  await run();
}
process.exit(0);
