// Records test/fixtures/real-audit89/ (the eighty-ninth audit: which side a plain input is, when its records do not say it with a `side`) on 127.0.0.1, ports 10350-10399.
// NOT run by `npm test` (it starts servers and the Python SDK). Needs only the repository's devDependencies
// (@modelcontextprotocol/sdk 1.32.2 and its express, @modelcontextprotocol/client 2.4.0) and /work/py-venv (Python mcp 2.3.0, uvicorn):
//   npm run build && node test/real-audit89/record.mjs [scenario...]
// Scenarios (every file of a folder is meant to be given together, WITHOUT --client/--server; no file name says a side):
//   http-loggers: an SDK 1.32.2 client app whose own fetch wrapper logs each POST and DELETE as a JSON line with the full
//     URL and both bodies (app-fetch.log) -> an Express 5 app with its own request-logging middleware (a JSON line per
//     request when the response is done: method, path, the caller's address, session id, status, ms, request and
//     response body: express-access.log) around the SDK 1.32.2 McpServer (StreamableHTTPServerTransport, sessions).
//   silent-head: the Python SDK 2.3.0 client (its DEBUG log: app-debug.log) -> `mcp-triage record` without --side
//     (proxy.ndjson) -> the Python SDK 2.3.0 MCPServer on uvicorn, its `mcp` logger at DEBUG in a file (mcp-debug.log:
//     the server's SDK logs no message, so its first lines give no record).
//   banner: the Python SDK 2.3.0 client app that first logs its own start-up section (19 INFO lines: its settings) and
//     then the SDK's DEBUG lines (app.log) -> `mcp-triage record` without --side (proxy.ndjson) -> the SDK 1.32.2 server.
//   concat: the Python SDK 2.3.0 client (DEBUG log) -> `mcp-triage record` without --side (proxy.ndjson) -> the SDK 1.32.2
//     server behind recordingHandler (its log); then the two logs concatenated into one file as they reach a ticket
//     (`cat client-debug server > all.log`; the two pieces are not kept apart). Given: all.log and proxy.ndjson.
//   console-har: an SDK v2 2.4.0 client app whose fetch writes HAR entries, one a line (har-lines.ndjson; POST and
//     DELETE) -> the Python SDK 2.3.0 MCPServer on uvicorn at log level info (its console: uvicorn.log).
// Every app calls lookup_order (read-only), send_invoice (its first run is a tool error; the app retries it once) and
// refund (always a tool error). observed.json: what the app got or threw at each step, which tool bodies ran.
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { invoiceServer, expressAccessLogger, loggingFetch } = await import(`${R}/test/helpers/app-loggers.mjs`);
const { startRecordingProxy, recordingHandler } = await import(`${R}/dist/capture/index.js`);
const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
const express = (await import(`${R}/node_modules/express/index.js`)).default;
const v2c = await import(`${R}/node_modules/@modelcontextprotocol/client/dist/index.mjs`);
const PY = '/work/py-venv/bin/python';

setTimeout(() => { process.stderr.write('still running after 120 s, giving up\n'); process.exit(2); }, 120_000).unref();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const uuid = /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/g;
const clean = (s) => String(s).replace(uuid, '<session>').replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>').slice(0, 300);
const short = (x) => (x && typeof x === 'object' && 'content' in x ? { isError: !!x.isError, text: x.content?.map((b) => b.text).join(' ').slice(0, 120) } : x);
const PLAN = (id) => [{ tool: 'lookup_order', orderId: id }, { tool: 'send_invoice', orderId: id, retry: 1 }, { tool: 'refund', orderId: id }];

/** A fetch that writes each POST's and DELETE's exchange as a HAR entry line (its response read whole first); GET passes through. */
function harFetch(out) {
  return async (url, init) => {
    const req = new Request(url, init);
    if (req.method === 'GET') return fetch(req);
    const started = new Date();
    const sent = await req.clone().text();
    const res = await fetch(req);
    const text = await res.text();
    const time = Date.now() - started.getTime();
    const headers = (h) => [...h].map(([name, value]) => ({ name, value }));
    appendFileSync(out, `${JSON.stringify({
      startedDateTime: started.toISOString(), time,
      request: { method: req.method, url: req.url, httpVersion: 'HTTP/1.1', headers: headers(req.headers), queryString: [], cookies: [], headersSize: -1, bodySize: Buffer.byteLength(sent), ...(sent ? { postData: { mimeType: req.headers.get('content-type') ?? '', text: sent } } : {}) },
      response: { status: res.status, statusText: res.statusText, httpVersion: 'HTTP/1.1', headers: headers(res.headers), cookies: [], content: { size: Buffer.byteLength(text), mimeType: res.headers.get('content-type') ?? '', text }, redirectURL: '', headersSize: -1, bodySize: Buffer.byteLength(text) },
      cache: {}, timings: { send: 0, wait: time, receive: 0 },
    })}\n`);
    return new Response(res.status === 204 || res.status === 202 ? null : text, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** The TypeScript app: the plan's calls, a failed one retried once on the same Client. */
async function runTsApp(ClientC, TransportC, url, fetchFn, observed) {
  const c = new ClientC({ name: 'audit89-ts-app', version: '1.0.0' });
  const note = (step, ok, x) => observed.steps.push({ step, ...(ok ? { ok: short(x) } : { threw: { name: x?.constructor?.name, message: clean(x?.message ?? x), ...(x?.code !== undefined ? { code: x.code } : {}) } }) });
  const transport = new TransportC(new URL(url), { fetch: fetchFn });
  try { await c.connect(transport); note('connect', true, 'connected'); } catch (e) { note('connect', false, e); return; }
  for (const s of PLAN(observed.orderId)) {
    for (let i = 0; i <= (s.retry ?? 0); i++) {
      const label = `${s.tool} ${s.orderId}${i ? " (the app's retry)" : ''}`;
      try { const r = await c.callTool({ name: s.tool, arguments: { orderId: s.orderId } }); note(label, true, r); if (!r.isError) break; } catch (e) { note(label, false, e); }
      await sleep(200);
    }
  }
  await transport.terminateSession?.().catch(() => {});
  await c.close();
}

function runPyApp(url, log, observed, banner = false) {
  return new Promise((resolve) => {
    const p = spawn(PY, [`${R}/test/real-audit89/py_app.py`, url, JSON.stringify(PLAN(observed.orderId)), log, ...(banner ? ['banner'] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => process.stderr.write(d));
    p.on('close', () => { for (const l of out.split('\n').filter(Boolean)) observed.steps.push(JSON.parse(l)); resolve(); });
  });
}

/** The Python server on uvicorn; its console (stdout and stderr as a terminal shows them) is returned when it stops. */
async function startPyServer(port, dir, observed, debugLog) {
  const ran = `${dir}/.ran`;
  const py = spawn(PY, [`${R}/test/real-audit89/py_server.py`, String(port), ran, ...(debugLog ? [debugLog] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((r) => py.on('close', r));
  let console = '';
  py.stderr.on('data', (d) => { console += d; });
  py.stdout.on('data', (d) => { console += d; });
  for (let i = 0; i < 50 && !console.includes('Uvicorn running'); i++) await sleep(100);
  return async () => {
    py.kill('SIGINT');
    await exited;
    observed.serverRan.push(...readFileSync(ran, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).ran));
    rmSync(ran);
    return console;
  };
}

const listen = (handler, port) => new Promise((r) => { const s = createServer(handler); s.listen(port, '127.0.0.1', () => r(s)); });
const close = (s) => new Promise((r) => { s.closeAllConnections?.(); s.close(() => r()); });

const SCENARIOS = {
  async 'http-loggers'(dir, observed) {
    observed.sdk = 'client SDK 1.32.2 (its fetch wrapped by the app\'s own logger); server SDK 1.32.2 McpServer + StreamableHTTPServerTransport (sessions) in Express 5.3.0 with its own request logger';
    observed.chain = 'client (app-fetch.log: full URLs) -> Express (express-access.log: paths and the caller\'s address) -> server';
    const app = express();
    app.use(express.json());
    app.use(expressAccessLogger(`${dir}/express-access.log`));
    const mcp = invoiceServer(observed, { name: 'audit89-ts' });
    app.all('/mcp', (req, res) => { mcp(req, res, req.body).catch(() => res.destroy()); });
    const server = await new Promise((r) => { const s = app.listen(10350, '127.0.0.1', () => r(s)); });
    await runTsApp(Client, StreamableHTTPClientTransport, 'http://127.0.0.1:10350/mcp', loggingFetch(`${dir}/app-fetch.log`), observed);
    await sleep(300);
    await close(server);
  },
  async 'silent-head'(dir, observed) {
    observed.sdk = 'client Python mcp 2.3.0 (DEBUG log); server Python mcp 2.3.0 MCPServer on uvicorn (logger `mcp` at DEBUG in a file)';
    observed.chain = 'client (app-debug.log) -> mcp-triage record, no --side (proxy.ndjson) -> server (mcp-debug.log)';
    const stop = await startPyServer(10360, dir, observed, `${dir}/mcp-debug.log`);
    const proxy = await startRecordingProxy({ listen: '127.0.0.1:10361', target: 'http://127.0.0.1:10360', out: `${dir}/proxy.ndjson` });
    await runPyApp('http://127.0.0.1:10361/mcp', `${dir}/app-debug.log`, observed);
    await sleep(300);
    await proxy.close();
    await stop();
  },
  async banner(dir, observed) {
    observed.sdk = 'client Python mcp 2.3.0 (DEBUG log, after the app\'s own start-up section); server SDK 1.32.2 McpServer + StreamableHTTPServerTransport (sessions)';
    observed.chain = 'client (app.log: 19 lines of start-up, then the SDK\'s DEBUG lines) -> mcp-triage record, no --side (proxy.ndjson) -> server';
    const mcp = invoiceServer(observed, { name: 'audit89-ts' });
    const server = await listen((req, res) => mcp(req, res), 10390);
    const proxy = await startRecordingProxy({ listen: '127.0.0.1:10391', target: 'http://127.0.0.1:10390', out: `${dir}/proxy.ndjson` });
    await runPyApp('http://127.0.0.1:10391/mcp', `${dir}/app.log`, observed, true);
    await sleep(300);
    await proxy.close(); await close(server);
  },
  async concat(dir, observed) {
    observed.sdk = 'client Python mcp 2.3.0 (DEBUG log); server SDK 1.32.2 McpServer + StreamableHTTPServerTransport (sessions) behind recordingHandler';
    observed.chain = 'client (DEBUG log) -> mcp-triage record, no --side (proxy.ndjson) -> server (recordingHandler\'s log); all.log = the DEBUG log, then the server\'s log';
    const mcp = invoiceServer(observed, { name: 'audit89-ts' });
    const server = await listen(recordingHandler((req, res) => mcp(req, res), { out: `${dir}/.server` }), 10370);
    const proxy = await startRecordingProxy({ listen: '127.0.0.1:10371', target: 'http://127.0.0.1:10370', out: `${dir}/proxy.ndjson` });
    await runPyApp('http://127.0.0.1:10371/mcp', `${dir}/.client`, observed);
    await sleep(300);
    await proxy.close(); await close(server);
    const client = readFileSync(`${dir}/.client`, 'utf8');
    writeFileSync(`${dir}/all.log`, client + readFileSync(`${dir}/.server`, 'utf8'));
    observed.concatenated = { clientLines: client.split('\n').length - 1, serverFrom: client.split('\n').length };
    rmSync(`${dir}/.client`); rmSync(`${dir}/.server`);
  },
  async 'console-har'(dir, observed) {
    observed.sdk = 'client SDK v2 2.4.0 (@modelcontextprotocol/client) with a fetch writing HAR entry lines; server Python mcp 2.3.0 MCPServer on uvicorn (log level info)';
    observed.chain = 'client (har-lines.ndjson: its POSTs and DELETE) -> server (uvicorn.log: its console)';
    const stop = await startPyServer(10380, dir, observed);
    await runTsApp(v2c.Client, v2c.StreamableHTTPClientTransport, 'http://127.0.0.1:10380/mcp', harFetch(`${dir}/har-lines.ndjson`), observed);
    await sleep(300);
    writeFileSync(`${dir}/uvicorn.log`, await stop());
  },
};

for (const name of process.argv.length > 2 ? process.argv.slice(2) : Object.keys(SCENARIOS)) {
  const dir = `${R}/test/fixtures/real-audit89/${name}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const observed = { scenario: name, orderId: `${name.split('-')[0].toUpperCase()}-1001`, steps: [], serverRan: [] };
  await SCENARIOS[name](dir, observed);
  writeFileSync(`${dir}/observed.json`, `${JSON.stringify(observed, null, 1)}\n`);
  process.stdout.write(`${name}: ${observed.steps.length} steps, ${observed.serverRan.length} tool runs\n`);
}
process.exit(0);
