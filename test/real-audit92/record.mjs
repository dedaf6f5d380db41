// Records test/fixtures/real-audit92/ (the ninety-second audit: the bundles of plain logs a team hands over, and which side each is read as) on 127.0.0.1, ports 10500-10549.
// NOT run by `npm test` (it starts servers). Needs only the repository's devDependencies (@modelcontextprotocol/sdk
// 1.32.2 and its express); no network:
//   npm run build && node test/real-audit92/record.mjs [scenario...]
// Every folder's files are meant to be given together, WITHOUT --client/--server (no file name says a side):
//   client-two-logs: an SDK 1.32.2 client app logging with recordingFetch (app.ndjson: records that state the client's
//     side) around its own fetch wrapper (app-fetch.log: a JSON line per POST/DELETE with the full URL and both bodies),
//     both the client's view of the same calls -> the SDK 1.32.2 server (not given).
//   server-two-logs: an SDK 1.32.2 client (not given) -> Express 5 with recordingMiddleware (mcp-handler.ndjson) and its own request
//     logger (express-access.log: paths, bodies) around the SDK 1.32.2 server: both the server's view.
//   gateway-both: a client with recordingFetch (app.ndjson) -> a small Node reverse proxy writing nginx's combined
//     layout with $request_time appended (access.log; the server answers every POST, so its lines are 2xx) -> the server
//     behind recordingHandler (mcp-handler.ndjson).
//   two-clients: two client apps, each with recordingFetch (app-a.ndjson, app-b.ndjson) -> one server behind
//     recordingHandler (mcp-handler.ndjson).
//   other-run: a client's log of this run (app.ndjson) and of an earlier run of the same app (app-yesterday.ndjson, whose
//     server log is not given) -> the server's log of this run (mcp-handler.ndjson).
//   foreign-json: a client (app.ndjson) -> server (mcp-handler.ndjson), and the app's metrics log beside them (metrics.log:
//     JSON lines no reader knows).
// Every app calls lookup_order (read-only), send_invoice (its first run a tool error; the app calls again once) and refund
// (always a tool error). observed.json: what the app got or threw, which tool bodies ran, which file is whose view.
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { invoiceServer, expressAccessLogger, loggingFetch } = await import(`${R}/test/helpers/app-loggers.mjs`);
const { recordingHandler, recordingFetch, recordingMiddleware } = await import(`${R}/dist/capture/index.js`);
const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
const express = (await import(`${R}/node_modules/express/index.js`)).default;

setTimeout(() => { process.stderr.write('still running after 120 s, giving up\n'); process.exit(2); }, 120_000).unref();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const uuid = /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/g;
const clean = (s) => String(s).replace(uuid, '<session>').replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>').slice(0, 300);
const short = (x) => (x && typeof x === 'object' && 'content' in x ? { isError: !!x.isError, text: x.content?.map((b) => b.text).join(' ').slice(0, 120) } : x);
const PLAN = (id) => [{ tool: 'lookup_order', orderId: id }, { tool: 'send_invoice', orderId: id, retry: 1 }, { tool: 'refund', orderId: id }];

/** A reverse proxy that writes nginx's combined layout with $request_time appended, as a gateway's access log. */
function accessHop(target, out) {
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p2 = (n) => String(n).padStart(2, '0');
  const stamp = (d) => `${p2(d.getUTCDate())}/${month[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} +0000`;
  return (req, res) => {
    const started = Date.now();
    let bytes = 0;
    const up = httpRequest({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers }, (ur) => {
      res.writeHead(ur.statusCode, ur.headers);
      ur.on('data', (d) => { bytes += d.length; res.write(d); });
      ur.on('end', () => {
        res.end();
        const d = new Date();
        appendFileSync(out, `127.0.0.1 - - [${stamp(d)}] "${req.method} ${req.url} HTTP/1.1" ${ur.statusCode} ${bytes} "-" "${req.headers['user-agent'] ?? '-'}" ${((Date.now() - started) / 1000).toFixed(3)}\n`);
      });
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  };
}

/** The TypeScript app: the plan's calls, a tool error called again once on the same Client. */
async function runTsApp(url, fetchFn, observed, app = 'app') {
  const c = new Client({ name: `audit92-${app}`, version: '1.0.0' });
  const note = (step, ok, x) => observed.steps.push({ app, step, ...(ok ? { ok: short(x) } : { threw: { name: x?.constructor?.name, message: clean(x?.message ?? x), ...(x?.code !== undefined ? { code: x.code } : {}) } }) });
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: fetchFn });
  try { await c.connect(transport); note('connect', true, 'connected'); } catch (e) { note('connect', false, e); return; }
  for (const s of PLAN(observed.orderId)) {
    for (let i = 0; i <= (s.retry ?? 0); i++) {
      const label = `${s.tool} ${s.orderId}${i ? " (the app's call again)" : ''}`;
      try { const r = await c.callTool({ name: s.tool, arguments: { orderId: s.orderId } }); note(label, true, r); if (!r.isError) break; } catch (e) { note(label, false, e); }
      await sleep(150);
    }
  }
  await transport.terminateSession?.().catch(() => {});
  await c.close();
}

const listen = (handler, port) => new Promise((r) => { const s = createServer(handler); s.listen(port, '127.0.0.1', () => r(s)); });
const close = (s) => new Promise((r) => { s.closeAllConnections?.(); s.close(() => r()); });
const recorded = (dir) => recordingFetch({ out: `${dir}/app.ndjson`, client: 'audit92-app@1.0.0' });

/** A server on `port` behind recordingHandler (mcp-handler.ndjson). */
const handlerServer = (dir, observed, port) => { const mcp = invoiceServer(observed, { name: 'audit92-ts', perSession: true }); return listen(recordingHandler((req, res) => mcp(req, res), { out: `${dir}/mcp-handler.ndjson` }), port); };

const SCENARIOS = {
  async 'client-two-logs'(dir, observed) {
    observed.chain = 'client app: recordingFetch (app.ndjson) around its own fetch logger (app-fetch.log: full URLs) -> server SDK 1.32.2 (its logs not given)';
    observed.views = { 'app.ndjson': 'client', 'app-fetch.log': 'client' };
    const server = await listen((req, res) => invoiceServer(observed, { name: 'audit92-ts', perSession: true })(req, res), 10500);
    const mcp = invoiceServer(observed, { name: 'audit92-ts', perSession: true });
    server.removeAllListeners('request');
    server.on('request', (req, res) => mcp(req, res));
    const rf = recordingFetch({ out: `${dir}/app.ndjson`, client: 'audit92-app@1.0.0', fetch: loggingFetch(`${dir}/app-fetch.log`) });
    await runTsApp('http://127.0.0.1:10500/mcp', rf, observed);
    await rf.close();
    await close(server);
  },
  async 'server-two-logs'(dir, observed) {
    observed.chain = 'client SDK 1.32.2 (its log not given) -> Express 5 request logger (express-access.log: paths) -> recordingMiddleware (mcp-handler.ndjson, mounted first) -> server SDK 1.32.2';
    observed.views = { 'express-access.log': 'server', 'mcp-handler.ndjson': 'server' };
    const app = express();
    app.use(recordingMiddleware({ out: `${dir}/mcp-handler.ndjson` }));
    app.use(express.json());
    app.use(expressAccessLogger(`${dir}/express-access.log`));
    const mcp = invoiceServer(observed, { name: 'audit92-ts', perSession: true });
    app.all('/mcp', (req, res) => { mcp(req, res, req.body).catch(() => res.destroy()); });
    const server = await new Promise((r) => { const s = app.listen(10510, '127.0.0.1', () => r(s)); });
    await runTsApp('http://127.0.0.1:10510/mcp', fetch, observed);
    await sleep(300);
    await close(server);
  },
  async 'gateway-both'(dir, observed) {
    observed.chain = 'client recordingFetch (app.ndjson) -> reverse proxy, nginx combined + $request_time (access.log) -> recordingHandler (mcp-handler.ndjson) -> server SDK 1.32.2';
    observed.views = { 'app.ndjson': 'client', 'access.log': 'gateway', 'mcp-handler.ndjson': 'server' };
    const server = await handlerServer(dir, observed, 10520);
    const hop = await listen(accessHop(10520, `${dir}/access.log`), 10521);
    const rf = recorded(dir);
    await runTsApp('http://127.0.0.1:10521/mcp', rf, observed);
    await rf.close();
    await sleep(200);
    await close(hop);
    await close(server);
  },
  async 'two-clients'(dir, observed) {
    observed.chain = 'client A recordingFetch (app-a.ndjson) and client B recordingFetch (app-b.ndjson), one after the other -> recordingHandler (mcp-handler.ndjson) -> server SDK 1.32.2';
    observed.views = { 'app-a.ndjson': 'client', 'app-b.ndjson': 'client', 'mcp-handler.ndjson': 'server' };
    const server = await handlerServer(dir, observed, 10530);
    for (const app of ['a', 'b']) {
      const rf = recordingFetch({ out: `${dir}/app-${app}.ndjson`, client: `audit92-app-${app}@1.0.0` });
      await runTsApp('http://127.0.0.1:10530/mcp', rf, observed, `app-${app}`);
      await rf.close();
    }
    await close(server);
  },
  async 'other-run'(dir, observed) {
    observed.chain = 'an earlier run: client recordingFetch (app-yesterday.ndjson) -> server (its log not kept); this run: client recordingFetch (app.ndjson) -> recordingHandler (mcp-handler.ndjson) -> server SDK 1.32.2';
    observed.views = { 'app-yesterday.ndjson': 'client (an earlier run: its server log is not given)', 'app.ndjson': 'client', 'mcp-handler.ndjson': 'server' };
    const earlier = await listen(null, 10540);
    const mcp0 = invoiceServer({ serverRan: observed.earlierServerRan }, { name: 'audit92-ts', perSession: true });
    earlier.on('request', (req, res) => mcp0(req, res));
    const rf0 = recordingFetch({ out: `${dir}/app-yesterday.ndjson`, client: 'audit92-app@1.0.0' });
    await runTsApp('http://127.0.0.1:10540/mcp', rf0, observed, 'app (earlier run)');
    await rf0.close();
    await close(earlier);
    await sleep(1100);
    const server = await handlerServer(dir, observed, 10541);
    const rf = recorded(dir);
    await runTsApp('http://127.0.0.1:10541/mcp', rf, observed);
    await rf.close();
    await close(server);
  },
  async 'foreign-json'(dir, observed) {
    observed.chain = 'client recordingFetch (app.ndjson) -> recordingHandler (mcp-handler.ndjson) -> server SDK 1.32.2; the app\'s metrics log (metrics.log: JSON lines no reader knows)';
    observed.views = { 'app.ndjson': 'client', 'mcp-handler.ndjson': 'server', 'metrics.log': 'neither (no MCP traffic)' };
    const server = await handlerServer(dir, observed, 10545);
    const rf = recorded(dir);
    const tick = setInterval(() => { const m = process.memoryUsage(); appendFileSync(`${dir}/metrics.log`, `${JSON.stringify({ at: new Date().toISOString(), metric: 'process', rssBytes: m.rss, heapUsedBytes: m.heapUsed, eventLoopLagMs: 0 })}\n`); }, 100);
    await runTsApp('http://127.0.0.1:10546/mcp'.replace('10546', '10545'), rf, observed);
    clearInterval(tick);
    await rf.close();
    await close(server);
    observed.foreignLines = readFileSync(`${dir}/metrics.log`, 'utf8').split('\n').filter(Boolean).length;
  },
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(SCENARIOS)) {
  if (wanted.length && !wanted.includes(name)) continue;
  const dir = `${R}/test/fixtures/real-audit92/${name}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const observed = { scenario: name, orderId: `ord-92-${name}`, steps: [], serverRan: [], earlierServerRan: [] };
  await run(dir, observed);
  if (!observed.earlierServerRan.length) delete observed.earlierServerRan;
  writeFileSync(`${dir}/observed.json`, `${JSON.stringify(observed, null, 2)}\n`);
  process.stdout.write(`${name}: ${observed.steps.length} steps, server ran ${observed.serverRan.length}\n`);
}
