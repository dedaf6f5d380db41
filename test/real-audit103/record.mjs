// Records test/fixtures/real-audit103/ (the hundred-and-third audit: several logs of ONE side of the same calls) on 127.0.0.1, ports 11050-11099.
// NOT run by `npm test` (it starts servers and the recording proxy, and the py-* scenarios need the Python SDK 2.3.0 in
// /work/py-venv; PYTHON=... to move it). No network. From the repository:
//   npm run build && node test/real-audit103/record.mjs [scenario...]
// Every server answers the first POST of `tools/call lookup_order` 503 itself, before its MCP transport (the tool does
// not run). Every app calls lookup_order, send_invoice (its first run a tool error: the app calls again once) and refund
// (always a tool error).
//   py-untimed: the Python SDK 2.3.0 Client (mode legacy: a session) with its DEBUG log in logging's basic format, no
//     time on any line (client.log) -> `mcp-triage record --side client` (proxy.ndjson) -> SDK 1.32.2 server. The 503
//     raises in the app, which calls again (a new id). Give: --client client.log --client proxy.ndjson
//   py-untimed-hop-repost: the same, with a hop between the two logs that re-posts a POST answered 503 once, with the same
//     body (the same JSON-RPC id): client.log shows one POST of lookup_order (answered 200), proxy.ndjson both (503, then
//     200). Give: as py-untimed
//   ts-three: SDK 1.32.2 Client (a session) whose fetch re-posts a 503 once (same id) around recordingFetch
//     (capture.ndjson) around the app's own fetch logger (app-fetch.log) -> `mcp-triage record --side client`
//     (proxy.ndjson) -> SDK 1.32.2 server: three logs of the client's side, each showing both POSTs.
//     Give: --client capture.ndjson --client app-fetch.log --client proxy.ndjson
//   v2-three: the same three logs of the v2 2.4.0 Client (2026-07-28, no session) -> the v2 2.4.0 server
//     (createMcpHandler, no sessions). Give: as ts-three
// observed.json: what each app call got or threw, which tool bodies ran, what the 503 gate and each re-poster did, and
// whose view each file is.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { listen, sleep, readBody } = await import(`${R}/test/helpers/loopback.mjs`);
const { invoiceServer, loggingFetch } = await import(`${R}/test/helpers/app-loggers.mjs`);
const { Client, StreamableHTTPClientTransport, ClientV2, TransportV2, z, errOf, short } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { recordingFetch } = await import(`${R}/dist/capture/index.js`);
const PY = process.env.PYTHON ?? '/work/py-venv/bin/python';
const PORT = { pyServer: 11050, pyProxy: 11051, hop: 11052, hopProxy: 11053, hopServer: 11054, tsServer: 11055, tsProxy: 11056, v2Server: 11060, v2Proxy: 11061 };

setTimeout(() => { process.stderr.write('still running after 120 s, giving up\n'); process.exit(2); }, 120_000).unref();
const close = (s) => s.close();

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

/** The SDK 1.32.2 server behind the gate, as a plain Node handler. */
const gatedServer = (observed) => {
  const mcp = invoiceServer(observed, { name: 'audit103-ts', perSession: true });
  const g = gate(observed);
  return async (req, res) => {
    const raw = req.method === 'POST' ? await readBody(req) : undefined;
    let body;
    try { body = raw?.length ? JSON.parse(raw.toString('utf8')) : undefined; } catch {}
    if (g(body)) return busy(res);
    await mcp(req, res, body);
  };
};

/** The app's fetch: a POST answered 503 is sent again once, 200 ms later, with the same body (the same JSON-RPC id). */
const repostingFetch = (inner, observed, who) => async (url, init) => {
  const res = await inner(url, init);
  if (res.status !== 503 || (init?.method ?? 'GET') !== 'POST') return res;
  await res.text();
  await sleep(200);
  let id;
  try { id = JSON.parse(init.body).id; } catch {}
  observed.reposts.push({ ts: new Date().toISOString(), id, by: who, action: 're-posted the same body after 503 (same JSON-RPC id)' });
  return inner(url, init);
};

/** An HTTP hop that forwards every request to `upstream` and re-posts a POST answered 503 once (same body, same id). */
const repostingHop = (upstream, observed) => async (req, res) => {
  const body = req.method === 'POST' ? await readBody(req) : undefined;
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length', 'transfer-encoding'].includes(k)));
  const ac = new AbortController();
  res.on('close', () => ac.abort());
  const send = () => fetch(`${upstream}${req.url}`, { method: req.method, headers, body, signal: ac.signal });
  try {
    const up = await repostingFetch(send, observed, 'the hop between client.log and proxy.ndjson')(req.url, { method: req.method, body: body?.toString('utf8') });
    res.writeHead(up.status, Object.fromEntries([...up.headers].filter(([k]) => !['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(k))));
    if (up.body) Readable.fromWeb(up.body).on('error', () => res.destroy()).pipe(res);
    else res.end();
  } catch {
    if (!res.headersSent) res.writeHead(502).end();
    else res.destroy();
  }
};

/** `mcp-triage record --side client` from `listenPort` to `target`, writing `out`; resolves once it listens. */
async function recorder(listenPort, target, out) {
  const proxy = spawn(process.execPath, [`${R}/dist/bin.cjs`, 'record', '--listen', `127.0.0.1:${listenPort}`, '--target', target, '--out', out, '--side', 'client'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let perr = '';
  proxy.stderr.on('data', (d) => (perr += d));
  for (let i = 0; i < 100 && !perr.includes('appending'); i++) await sleep(50);
  return { stop: async () => { await sleep(300); await new Promise((r) => { proxy.once('exit', r); proxy.kill('SIGTERM'); }); } };
}

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

async function pyApp(url, dir, observed) {
  const app = spawn(PY, [`${R}/test/real-audit93/py_client.py`, url, `${dir}/client.log`, observed.orderId, 'audit103-py', 'basic'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  app.stdout.on('data', (c) => (out += c));
  await Promise.race([new Promise((r) => app.once('exit', r)), sleep(60_000)]);
  app.kill();
  const line = out.split('\n').find((l) => l.startsWith('{"seen"'));
  observed.steps.push(...(line ? JSON.parse(line).seen : [{ app: 'py', step: 'no output', threw: { message: out.slice(0, 300) } }]));
}

const SCENARIOS = {
  async 'py-untimed'(dir, observed) {
    observed.chain = 'Python SDK 2.3.0 Client (legacy; DEBUG log in the basic format, no times: client.log) -> mcp-triage record --side client (proxy.ndjson) -> SDK 1.32.2 server (503 gate)';
    observed.views = { 'client.log': 'client (no time on any line)', 'proxy.ndjson': 'client' };
    const server = await listen(gatedServer(observed), PORT.pyServer);
    const proxy = await recorder(PORT.pyProxy, `http://127.0.0.1:${PORT.pyServer}`, `${dir}/proxy.ndjson`);
    await pyApp(`http://127.0.0.1:${PORT.pyProxy}/mcp`, dir, observed);
    await proxy.stop();
    await close(server);
  },
  async 'py-untimed-hop-repost'(dir, observed) {
    observed.chain = 'Python SDK 2.3.0 Client (legacy; DEBUG log in the basic format, no times: client.log) -> re-posting hop (503 re-posted once, same id) -> mcp-triage record --side client (proxy.ndjson) -> SDK 1.32.2 server (503 gate)';
    observed.views = { 'client.log': 'client (no time on any line; above the re-post: one POST of lookup_order)', 'proxy.ndjson': 'client (below it: both POSTs)' };
    const server = await listen(gatedServer(observed), PORT.hopServer);
    const proxy = await recorder(PORT.hopProxy, `http://127.0.0.1:${PORT.hopServer}`, `${dir}/proxy.ndjson`);
    const hop = await listen(repostingHop(`http://127.0.0.1:${PORT.hopProxy}`, observed), PORT.hop);
    await pyApp(`http://127.0.0.1:${PORT.hop}/mcp`, dir, observed);
    await close(hop);
    await proxy.stop();
    await close(server);
  },
  async 'ts-three'(dir, observed) {
    observed.chain = 'SDK 1.32.2 Client -> re-posting fetch -> recordingFetch (capture.ndjson) -> fetch logger (app-fetch.log) -> mcp-triage record --side client (proxy.ndjson) -> SDK 1.32.2 server (503 gate)';
    observed.views = { 'capture.ndjson': 'client', 'app-fetch.log': 'client', 'proxy.ndjson': 'client' };
    const server = await listen(gatedServer(observed), PORT.tsServer);
    const proxy = await recorder(PORT.tsProxy, `http://127.0.0.1:${PORT.tsServer}`, `${dir}/proxy.ndjson`);
    const rf = recordingFetch({ out: `${dir}/capture.ndjson`, client: 'audit103-app@1.0.0', fetch: loggingFetch(`${dir}/app-fetch.log`) });
    const c = new Client({ name: 'audit103-app', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${PORT.tsProxy}/mcp`), { fetch: repostingFetch(rf, observed, "the app's fetch, outside the three logs") });
    await c.connect(transport);
    observed.steps.push({ app: 'ts', step: 'connect', ok: 'connected' });
    await runApp(c, observed, 'ts');
    await transport.terminateSession?.().catch(() => {});
    await c.close();
    await rf.close();
    await proxy.stop();
    await close(server);
  },
  async 'v2-three'(dir, observed) {
    observed.chain = 'v2 2.4.0 Client (2026-07-28) -> re-posting fetch -> recordingFetch (capture.ndjson) -> fetch logger (app-fetch.log) -> mcp-triage record --side client (proxy.ndjson) -> v2 2.4.0 server (createMcpHandler, no sessions; 503 gate)';
    observed.views = { 'capture.ndjson': 'client', 'app-fetch.log': 'client', 'proxy.ndjson': 'client' };
    const v2 = { ...(await import('@modelcontextprotocol/server')), ...(await import('@modelcontextprotocol/node')) };
    let invoices = 0;
    const build = () => {
      const s = new v2.McpServer({ name: 'audit103-v2', version: '2.4.0' });
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
    }, PORT.v2Server);
    const proxy = await recorder(PORT.v2Proxy, `http://127.0.0.1:${PORT.v2Server}`, `${dir}/proxy.ndjson`);
    const rf = recordingFetch({ out: `${dir}/capture.ndjson`, client: 'audit103-v2@2.4.0', fetch: loggingFetch(`${dir}/app-fetch.log`) });
    const c = new ClientV2({ name: 'audit103-v2', version: '2.4.0' }, { versionNegotiation: { mode: 'auto' } });
    await c.connect(new TransportV2(new URL(`http://127.0.0.1:${PORT.v2Proxy}/mcp`), { fetch: repostingFetch(rf, observed, "the app's fetch, outside the three logs") }));
    observed.steps.push({ app: 'v2', step: 'connect', ok: 'connected' });
    await runApp(c, observed, 'v2');
    await c.close();
    await rf.close();
    await proxy.stop();
    await close(server);
  },
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(SCENARIOS)) {
  if (wanted.length && !wanted.includes(name)) continue;
  const dir = `${R}/test/fixtures/real-audit103/${name}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const observed = { scenario: name, orderId: `ord-103-${name}`, steps: [], serverRan: [], gate: [], reposts: [] };
  await run(dir, observed);
  writeFileSync(`${dir}/observed.json`, `${JSON.stringify(observed, null, 2)}\n`);
  process.stderr.write(`recorded ${name}\n`);
}
process.exit(0);
