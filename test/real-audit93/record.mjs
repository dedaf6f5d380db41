// Records test/fixtures/real-audit93/ (the ninety-third audit: two logs of ONE side of the same calls, given with the same flag) on 127.0.0.1, ports 10550-10599.
// NOT run by `npm test` (it starts servers, and py-client needs the Python SDK 2.3.0 in /work/py-venv; PYTHON=... to
// move it). No network. From the repository:
//   npm run build && node test/real-audit93/record.mjs [scenario...]
// Every server answers the first POST of `tools/call lookup_order` 503 itself, before its MCP transport (the tool does
// not run). Every app calls lookup_order, send_invoice (its first run a tool error: the app calls again once) and refund
// (always a tool error).
//   ts-client: SDK 1.32.2 Client (2025-11-25, a session) whose fetch re-posts a POST answered 503 once, with the same
//     body and JSON-RPC id (a real re-post on the wire), around recordingFetch (capture.ndjson) around the app's own
//     fetch logger (app-fetch.log: full URLs, both bodies) -> SDK 1.32.2 server. Give: --client capture.ndjson --client app-fetch.log
//   ts-client-inner-repost: the same, with the re-posting fetch BETWEEN the two logs: capture.ndjson shows one POST of
//     lookup_order (the answer after the re-post), app-fetch.log both (503, then 200). Give: as ts-client
//   ts-server: the same client (its recordingFetch: client.ndjson) -> Express 5: recordingMiddleware (mcp-handler.ndjson,
//     mounted first), express.json, the app's request logger (express-access.log: paths, both bodies), then the 503
//     gate and the SDK 1.32.2 server. Give: --client client.ndjson --server mcp-handler.ndjson --server express-access.log
//   py-client: the Python SDK 2.3.0 Client (mode legacy: a 2025-era session) with its mcp/httpx DEBUG log (client.log)
//     -> `mcp-triage record --side client` (proxy.ndjson) -> SDK 1.32.2 server. The Python client does not re-post the
//     503: the app calls again (a new id). Give: --client client.log --client proxy.ndjson
//   v2-sessionless: the v2 2.4.0 Client (2026-07-28, no session) with the re-posting fetch around recordingFetch
//     (capture.ndjson) around the fetch logger (app-fetch.log) -> the v2 2.4.0 server (createMcpHandler, no sessions).
//     Give: --client capture.ndjson --client app-fetch.log
// observed.json: what each app call got or threw, which tool bodies ran, what the 503 gate and the re-posting fetch did,
// and whose view each file is.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { listen, sleep, readBody } = await import(`${R}/test/helpers/loopback.mjs`);
const { invoiceServer, expressAccessLogger, loggingFetch } = await import(`${R}/test/helpers/app-loggers.mjs`);
const { Client, StreamableHTTPClientTransport, ClientV2, TransportV2, z, errOf, short } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { recordingFetch, recordingMiddleware } = await import(`${R}/dist/capture/index.js`);
const express = (await import(`${R}/node_modules/express/index.js`)).default;
const PY = process.env.PYTHON ?? '/work/py-venv/bin/python';
const PORT = { tsClient: 10550, tsServer: 10560, pyServer: 10570, pyProxy: 10571, v2: 10580 };

setTimeout(() => { process.stderr.write('still running after 120 s, giving up\n'); process.exit(2); }, 120_000).unref();
const close = (s) => (typeof s.server === 'object' ? s.close() : new Promise((r) => { s.closeAllConnections?.(); s.close(() => r()); }));

/** The 503 gate: true (and noted) for the first tools/call lookup_order it sees. */
const gate = (observed) => {
  let done = false;
  return (body) => {
    if (done || body?.method !== 'tools/call' || body.params?.name !== 'lookup_order') return false;
    done = true;
    observed.gate.push({ ts: new Date().toISOString(), id: body.id, action: 'answered 503 before the MCP transport (the tool did not run)' });
    return true;
  };
};
const busy = (res) => res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '0' }).end('upstream busy');

/** The app's fetch: a POST answered 503 is sent again once, 200 ms later, with the same body (the same JSON-RPC id). */
const repostingFetch = (inner, observed) => async (url, init) => {
  const res = await inner(url, init);
  if (res.status !== 503 || (init?.method ?? 'GET') !== 'POST') return res;
  await res.text();
  await sleep(200);
  let id;
  try { id = JSON.parse(init.body).id; } catch {}
  observed.reposts.push({ ts: new Date().toISOString(), id, action: 're-posted the same body after 503 (same JSON-RPC id)' });
  return inner(url, init);
};

/** The plan on one Client (v1 or v2): a tool error or a throw is called again once (not refund's). */
async function runApp(c, observed, app) {
  for (const tool of ['lookup_order', 'send_invoice', 'refund']) {
    for (let i = 0; i < (tool === 'refund' ? 1 : 2); i++) {
      const step = `${tool} ${observed.orderId}${i ? " (the app's call again)" : ''}`;
      try {
        const r = await c.callTool({ name: tool, arguments: { orderId: observed.orderId } });
        observed.steps.push({ app, step, ok: short(r) });
        if (!r.isError) break;
      } catch (e) { observed.steps.push({ app, step, threw: errOf(e) }); }
      await sleep(150);
    }
  }
}

async function tsApp(url, fetchFn, observed) {
  const c = new Client({ name: 'audit93-app', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: fetchFn });
  await c.connect(transport);
  observed.steps.push({ app: 'ts', step: 'connect', ok: 'connected' });
  await runApp(c, observed, 'ts');
  await transport.terminateSession?.().catch(() => {});
  await c.close();
}

/** The SDK 1.32.2 server behind the gate, as a plain Node handler. */
const gatedServer = (observed) => {
  const mcp = invoiceServer(observed, { name: 'audit93-ts', perSession: true });
  const g = gate(observed);
  return async (req, res) => {
    const raw = req.method === 'POST' ? await readBody(req) : undefined;
    let body;
    try { body = raw?.length ? JSON.parse(raw.toString('utf8')) : undefined; } catch {}
    if (g(body)) return busy(res);
    await mcp(req, res, body);
  };
};

const SCENARIOS = {
  async 'ts-client'(dir, observed) {
    observed.chain = 'SDK 1.32.2 Client -> re-posting fetch -> recordingFetch (capture.ndjson) -> fetch logger (app-fetch.log) -> SDK 1.32.2 server (503 gate)';
    observed.views = { 'capture.ndjson': 'client', 'app-fetch.log': 'client' };
    const server = await listen(gatedServer(observed), PORT.tsClient);
    const rf = recordingFetch({ out: `${dir}/capture.ndjson`, client: 'audit93-app@1.0.0', fetch: loggingFetch(`${dir}/app-fetch.log`) });
    await tsApp(`http://127.0.0.1:${PORT.tsClient}/mcp`, repostingFetch(rf, observed), observed);
    await rf.close();
    await close(server);
  },
  async 'ts-client-inner-repost'(dir, observed) {
    observed.chain = 'SDK 1.32.2 Client -> recordingFetch (capture.ndjson) -> re-posting fetch -> fetch logger (app-fetch.log) -> SDK 1.32.2 server (503 gate)';
    observed.views = { 'capture.ndjson': 'client (above the re-post: one POST of lookup_order)', 'app-fetch.log': 'client (below it: both POSTs)' };
    const server = await listen(gatedServer(observed), PORT.tsClient + 1);
    const rf = recordingFetch({ out: `${dir}/capture.ndjson`, client: 'audit93-app@1.0.0', fetch: repostingFetch(loggingFetch(`${dir}/app-fetch.log`), observed) });
    await tsApp(`http://127.0.0.1:${PORT.tsClient + 1}/mcp`, rf, observed);
    await rf.close();
    await close(server);
  },
  async 'ts-server'(dir, observed) {
    observed.chain = 'SDK 1.32.2 Client -> re-posting fetch -> recordingFetch (client.ndjson) -> Express 5: recordingMiddleware (mcp-handler.ndjson) -> express.json -> request logger (express-access.log) -> 503 gate -> SDK 1.32.2 server';
    observed.views = { 'client.ndjson': 'client', 'mcp-handler.ndjson': 'server', 'express-access.log': 'server' };
    const app = express();
    app.use(recordingMiddleware({ out: `${dir}/mcp-handler.ndjson` }));
    app.use(express.json());
    app.use(expressAccessLogger(`${dir}/express-access.log`));
    const mcp = invoiceServer(observed, { name: 'audit93-ts', perSession: true });
    const g = gate(observed);
    app.all('/mcp', (req, res) => { if (g(req.body)) return busy(res); mcp(req, res, req.body).catch(() => res.destroy()); });
    const server = await new Promise((r) => { const s = app.listen(PORT.tsServer, '127.0.0.1', () => r(s)); });
    const rf = recordingFetch({ out: `${dir}/client.ndjson`, client: 'audit93-app@1.0.0' });
    await tsApp(`http://127.0.0.1:${PORT.tsServer}/mcp`, repostingFetch(rf, observed), observed);
    await rf.close();
    await sleep(300);
    await close(server);
  },
  async 'py-client'(dir, observed) {
    observed.chain = 'Python SDK 2.3.0 Client (legacy; DEBUG log: client.log) -> mcp-triage record --side client (proxy.ndjson) -> SDK 1.32.2 server (503 gate)';
    observed.views = { 'client.log': 'client', 'proxy.ndjson': 'client' };
    const server = await listen(gatedServer(observed), PORT.pyServer);
    const proxy = spawn(process.execPath, [`${R}/dist/bin.cjs`, 'record', '--listen', `127.0.0.1:${PORT.pyProxy}`, '--target', `http://127.0.0.1:${PORT.pyServer}`, '--out', `${dir}/proxy.ndjson`, '--side', 'client'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let perr = '';
    proxy.stderr.on('data', (d) => (perr += d));
    for (let i = 0; i < 100 && !perr.includes('appending'); i++) await sleep(50);
    const app = spawn(PY, [`${R}/test/real-audit93/py_client.py`, `http://127.0.0.1:${PORT.pyProxy}/mcp`, `${dir}/client.log`, observed.orderId], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    app.stdout.on('data', (c) => (out += c));
    await Promise.race([new Promise((r) => app.once('exit', r)), sleep(60_000)]);
    app.kill();
    await sleep(300);
    await new Promise((r) => { proxy.once('exit', r); proxy.kill('SIGTERM'); });
    await close(server);
    const line = out.split('\n').find((l) => l.startsWith('{"seen"'));
    observed.steps.push(...(line ? JSON.parse(line).seen : [{ app: 'py', step: 'no output', threw: { message: out.slice(0, 300) } }]));
  },
  async 'v2-sessionless'(dir, observed) {
    observed.chain = 'v2 2.4.0 Client (2026-07-28) -> re-posting fetch -> recordingFetch (capture.ndjson) -> fetch logger (app-fetch.log) -> v2 2.4.0 server (createMcpHandler, no sessions; 503 gate)';
    observed.views = { 'capture.ndjson': 'client', 'app-fetch.log': 'client' };
    const v2 = { ...(await import('@modelcontextprotocol/server')), ...(await import('@modelcontextprotocol/node')) };
    let invoices = 0;
    const build = () => {
      const s = new v2.McpServer({ name: 'audit93-v2', version: '2.4.0' });
      s.registerTool('lookup_order', { inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true } }, async ({ orderId }) => { observed.serverRan.push(`lookup_order ${orderId}`); return { content: [{ type: 'text', text: `order ${orderId}: shipped` }] }; });
      s.registerTool('send_invoice', { inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => {
        observed.serverRan.push(`send_invoice ${orderId}`);
        if (++invoices === 1) return { content: [{ type: 'text', text: 'mail relay refused the connection' }], isError: true };
        return { content: [{ type: 'text', text: `invoice for ${orderId} sent` }] };
      });
      s.registerTool('refund', { inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => { observed.serverRan.push(`refund ${orderId}`); return { content: [{ type: 'text', text: `refund of ${orderId} failed: payment gateway busy` }], isError: true }; });
      return s;
    };
    const handle = v2.toNodeHandler(v2.createMcpHandler(() => build(), { responseMode: 'sse', keepAliveMs: 0 }));
    const g = gate(observed);
    const server = await listen(async (req, res) => {
      const raw = req.method === 'POST' ? await readBody(req) : undefined;
      let body;
      try { body = raw?.length ? JSON.parse(raw.toString('utf8')) : undefined; } catch {}
      if (g(body)) return busy(res);
      await handle(req, res, body);
    }, PORT.v2);
    const rf = recordingFetch({ out: `${dir}/capture.ndjson`, client: 'audit93-v2@2.4.0', fetch: loggingFetch(`${dir}/app-fetch.log`) });
    const c = new ClientV2({ name: 'audit93-v2', version: '2.4.0' }, { versionNegotiation: { mode: 'auto' } });
    await c.connect(new TransportV2(new URL(`http://127.0.0.1:${PORT.v2}/mcp`), { fetch: repostingFetch(rf, observed) }));
    observed.steps.push({ app: 'v2', step: 'connect', ok: 'connected' });
    await runApp(c, observed, 'v2');
    await c.close();
    await rf.close();
    await close(server);
  },
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(SCENARIOS)) {
  if (wanted.length && !wanted.includes(name)) continue;
  const dir = `${R}/test/fixtures/real-audit93/${name}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const observed = { scenario: name, orderId: `ord-93-${name}`, steps: [], serverRan: [], gate: [], reposts: [] };
  await run(dir, observed);
  writeFileSync(`${dir}/observed.json`, `${JSON.stringify(observed, null, 2)}\n`);
  process.stdout.write(`${name}: ${observed.steps.length} steps, server ran ${observed.serverRan.length}, reposts ${observed.reposts.length}\n`);
}
process.exit(0);
