// Records test/fixtures/real-audit86/ (the eighty-sixth audit: which side a plain input is, from what its records say, and names among more than two files) on 127.0.0.1, ports 10200-10229.
// NOT run by `npm test` (it starts servers and the Python SDK). Needs only the repository's devDependencies
// (@modelcontextprotocol/sdk 1.32.2, @modelcontextprotocol/client 2.4.0) and /work/py-venv (Python mcp 2.3.0, uvicorn):
//   npm run build && node test/real-audit86/record.mjs [scenario...]
// Scenarios (every file of a folder is meant to be given together, WITHOUT --client/--server):
//   py-proxy-hop: the Python SDK 2.3.0 client (its DEBUG log: client-debug.log) -> `mcp-triage record`'s proxy without
//     --side (proxy.ndjson) -> a reverse-proxy hop of this script's (nginx's combined access lines: access.log; it answers
//     the first tools/call of send_invoice 503 itself) -> an SDK 1.32.2 McpServer (StreamableHTTPServerTransport, sessions).
//   har-uvicorn: an SDK v2 2.4.0 client app whose fetch writes HAR entries, one a line (har-lines.ndjson; POST and DELETE,
//     its GET stream is not written) -> the Python SDK 2.3.0 MCPServer on uvicorn at log level info (its console: uvicorn.log;
//     the SDK's DEBUG lines, logger `mcp`: mcp-debug.log).
//   names-hop: an SDK 1.32.2 client -> a recording proxy without --side (client.ndjson) -> the hop (access.log, 503 for the
//     first send_invoice) -> a second recording proxy without --side (server.ndjson) -> the SDK 1.32.2 server.
// observed.json: what the app got or threw at each step, which tool bodies ran, what the hop did.
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { startRecordingProxy } = await import(`${R}/dist/capture/index.js`);
const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
const { McpServer } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js`);
const { StreamableHTTPServerTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js`);
const { z } = await import(`${R}/node_modules/zod/index.js`);
const v2c = await import(`${R}/node_modules/@modelcontextprotocol/client/dist/index.mjs`);
const PY = '/work/py-venv/bin/python';

setTimeout(() => { process.stderr.write('still running after 120 s, giving up\n'); process.exit(2); }, 120_000).unref();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const uuid = /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/g;
const clean = (s) => String(s).replace(uuid, '<session>').replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>').slice(0, 300);
const short = (x) => (x && typeof x === 'object' && 'content' in x ? { isError: !!x.isError, text: x.content?.map((b) => b.text).join(' ').slice(0, 120) } : x);
const PLAN = (id) => [{ tool: 'lookup_order', orderId: id }, { tool: 'send_invoice', orderId: id, retry: 1 }, { tool: 'refund', orderId: id }];

/** The SDK 1.32.2 server: a transport per session; lookup_order, send_invoice and refund (a tool error). */
function tsServer(observed) {
  const transports = new Map();
  return async (req, res) => {
    const sid = req.headers['mcp-session-id'];
    let t = sid ? transports.get(sid) : undefined;
    if (!t) {
      if (sid) { res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null })); return; }
      const s = new McpServer({ name: 'audit86-ts', version: '1.32.2' });
      s.registerTool('lookup_order', { inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => { observed.serverRan.push(`lookup_order ${orderId}`); return { content: [{ type: 'text', text: `order ${orderId}: shipped` }] }; });
      s.registerTool('send_invoice', { inputSchema: { orderId: z.string() } }, async ({ orderId }) => { observed.serverRan.push(`send_invoice ${orderId}`); return { content: [{ type: 'text', text: `invoice for ${orderId} sent` }] }; });
      s.registerTool('refund', { inputSchema: { orderId: z.string() } }, async ({ orderId }) => { observed.serverRan.push(`refund ${orderId}`); return { content: [{ type: 'text', text: `refund of ${orderId} failed: payment gateway busy` }], isError: true }; });
      t = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (id) => transports.set(id, t) });
      await s.connect(t);
    }
    await t.handleRequest(req, res);
  };
}

/** A reverse-proxy hop: forwards to `upstream`, writes an nginx combined access line per request, answers the first tools/call of send_invoice 503 itself. */
function startHop(port, upstream, log, observed) {
  let failed = false;
  const stamp = (d) => { const p = (n) => String(n).padStart(2, '0'); const M = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']; return `${p(d.getUTCDate())}/${M[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`; };
  const line = (req, status, bytes) => appendFileSync(log, `127.0.0.1 - - [${stamp(new Date())}] "${req.method} ${req.url} HTTP/1.1" ${status} ${bytes} "-" "${(req.headers['user-agent'] ?? '-').replace(/"/g, '')}"\n`);
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let msg;
      try { msg = JSON.parse(body.toString('utf8')); } catch { /* not JSON */ }
      if (!failed && msg?.method === 'tools/call' && msg.params?.name === 'send_invoice') {
        failed = true;
        const text = '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>\n';
        res.writeHead(503, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(text) }).end(text);
        line(req, 503, Buffer.byteLength(text));
        observed.hop.push(`503 to tools/call send_invoice id ${msg.id} (not forwarded)`);
        return;
      }
      const up = httpRequest({ host: '127.0.0.1', port: upstream, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${upstream}` } }, (ur) => {
        let bytes = 0;
        res.writeHead(ur.statusCode, ur.headers);
        ur.on('data', (c) => { bytes += c.length; res.write(c); });
        ur.on('end', () => { res.end(); line(req, ur.statusCode, bytes); });
        ur.on('error', () => res.destroy());
      });
      up.on('error', (e) => { res.writeHead(502).end(); line(req, 502, 0); observed.hop.push(`502: ${e.code}`); });
      up.end(body);
      res.on('close', () => { if (!res.writableEnded) up.destroy(); });
    });
  });
  return new Promise((r) => server.listen(port, '127.0.0.1', () => r(server)));
}

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
  const c = new ClientC({ name: 'audit86-ts-app', version: '1.0.0' });
  const note = (step, ok, x) => observed.steps.push({ step, ...(ok ? { ok: short(x) } : { threw: { name: x?.constructor?.name, message: clean(x?.message ?? x), ...(x?.code !== undefined ? { code: x.code } : {}) } }) });
  try { await c.connect(new TransportC(new URL(url), { fetch: fetchFn })); note('connect', true, 'connected'); } catch (e) { note('connect', false, e); return; }
  for (const s of PLAN(observed.orderId)) {
    for (let i = 0; i <= (s.retry ?? 0); i++) {
      const label = `${s.tool} ${s.orderId}${i ? " (the app's retry)" : ''}`;
      try { const r = await c.callTool({ name: s.tool, arguments: { orderId: s.orderId } }); note(label, true, r); if (!r.isError) break; } catch (e) { note(label, false, e); }
      await sleep(200);
    }
  }
  await c.close();
}

function runPyApp(url, log, observed) {
  return new Promise((resolve) => {
    const p = spawn(PY, [`${R}/test/real-audit86/py_app.py`, url, JSON.stringify(PLAN(observed.orderId)), log], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => process.stderr.write(d));
    p.on('close', () => { for (const l of out.split('\n').filter(Boolean)) observed.steps.push(JSON.parse(l)); resolve(); });
  });
}

const listen = (handler, port) => new Promise((r) => { const s = createServer(handler); s.listen(port, '127.0.0.1', () => r(s)); });
const close = (s) => new Promise((r) => { s.closeAllConnections?.(); s.close(() => r()); });

const SCENARIOS = {
  async 'py-proxy-hop'(dir, observed) {
    observed.sdk = 'client Python mcp 2.3.0 (DEBUG log); server SDK 1.32.2 McpServer + StreamableHTTPServerTransport (sessions)';
    observed.chain = 'client -> mcp-triage record (no --side) -> hop (nginx combined lines; 503 for the first send_invoice) -> server';
    const server = await listen(tsServer(observed), 10200);
    const hop = await startHop(10201, 10200, `${dir}/access.log`, observed);
    const proxy = await startRecordingProxy({ listen: '127.0.0.1:10202', target: 'http://127.0.0.1:10201', out: `${dir}/proxy.ndjson` });
    await runPyApp('http://127.0.0.1:10202/mcp', `${dir}/client-debug.log`, observed);
    await sleep(300);
    await proxy.close(); await close(hop); await close(server);
  },
  async 'har-uvicorn'(dir, observed) {
    observed.sdk = 'client SDK v2 2.4.0 (@modelcontextprotocol/client) with a fetch writing HAR entry lines; server Python mcp 2.3.0 MCPServer on uvicorn (log level info)';
    observed.chain = 'client (HAR lines of its POSTs and DELETE) -> server (uvicorn console; the SDK DEBUG log)';
    const ran = `${dir}/.ran`;
    const py = spawn(PY, [`${R}/test/real-audit86/py_server.py`, '10210', ran, `${dir}/mcp-debug.log`], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((r) => py.on('close', r));
    let console = ''; // (its console as a terminal shows it: stdout's access lines and stderr's others, as they came)
    py.stderr.on('data', (d) => { console += d; });
    py.stdout.on('data', (d) => { console += d; });
    for (let i = 0; i < 50 && !console.includes('Uvicorn running'); i++) await sleep(100);
    await runTsApp(v2c.Client, v2c.StreamableHTTPClientTransport, 'http://127.0.0.1:10210/mcp', harFetch(`${dir}/har-lines.ndjson`), observed);
    await sleep(300);
    py.kill('SIGINT');
    await exited;
    writeFileSync(`${dir}/uvicorn.log`, console);
    observed.serverRan.push(...readFileSync(ran, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).ran));
    rmSync(ran);
  },
  async 'names-hop'(dir, observed) {
    observed.sdk = 'client SDK 1.32.2; server SDK 1.32.2 McpServer + StreamableHTTPServerTransport (sessions)';
    observed.chain = 'client -> mcp-triage record (no --side; client.ndjson) -> hop (access.log; 503 for the first send_invoice) -> mcp-triage record (no --side; server.ndjson) -> server';
    const server = await listen(tsServer(observed), 10220);
    const inner = await startRecordingProxy({ listen: '127.0.0.1:10221', target: 'http://127.0.0.1:10220', out: `${dir}/server.ndjson` });
    const hop = await startHop(10222, 10221, `${dir}/access.log`, observed);
    const outer = await startRecordingProxy({ listen: '127.0.0.1:10223', target: 'http://127.0.0.1:10222', out: `${dir}/client.ndjson` });
    await runTsApp(Client, StreamableHTTPClientTransport, 'http://127.0.0.1:10223/mcp', fetch, observed);
    await sleep(300);
    await outer.close(); await close(hop); await inner.close(); await close(server);
  },
};

for (const name of process.argv.length > 2 ? process.argv.slice(2) : Object.keys(SCENARIOS)) {
  const dir = `${R}/test/fixtures/real-audit86/${name}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const observed = { scenario: name, orderId: `${name.split('-')[0].toUpperCase()}-1001`, steps: [], serverRan: [], hop: [] };
  await SCENARIOS[name](dir, observed);
  writeFileSync(`${dir}/observed.json`, `${JSON.stringify(observed, null, 1)}\n`);
  process.stdout.write(`${name}: ${observed.steps.length} steps, ${observed.serverRan.length} tool runs\n`);
}
process.exit(0);
