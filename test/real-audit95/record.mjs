// Records test/fixtures/real-audit95/ (the ninety-fifth audit: an MCP POST redirected 307/308 within its origin, and an app's connect loop) on 127.0.0.1, ports 10650-10699.
// NOT run by `npm test` (it starts servers and Python). Needs the repository's devDependencies (@modelcontextprotocol/sdk
// 1.32.2, the v2 client 2.4.0) and the Python SDK 2.3.0 (/work/py-venv, or PYTHON); no network:
//   npm run build && node test/real-audit95/record.mjs [scenario...]
// Every scenario has a front (a Node server in the server's process, recorded by recordingHandler: server.ndjson) that
// redirects or faults requests itself and forwards the rest to the real MCP server behind it; observed.json has what the
// app got or threw, what the front did to each request, and the tool bodies that ran.
//   redirect-ts: the SDK 1.32.2 client (recordingFetch: client.ndjson) posts to /old/mcp, which the front answers 307 to
//     /mcp (same origin); /mcp is an SDK 1.32.2 stateless server whose `sync` charges; the first tools/call at /mcp is
//     answered 503 by the front and the app calls again 300 ms later.
//   redirect-v2: the same with the v2 client 2.4.0 (version negotiation auto), 308, and the Python SDK 2.3.0 stateless
//     server (test/real-audit88/py_router.py's B, run as it is).
//   redirect-py: the same with the Python SDK 2.3.0 client (test/real-audit95/py_app.py, recorded by `mcp-triage record
//     --side client`: client.ndjson), 307, and the SDK 1.32.2 stateless server.
//   connect-loop-ts: the SDK 1.32.2 app's connect loop (a new Client 200 ms after each failed connect) through `mcp-triage
//     record` (proxy.ndjson); the front answers the first initialize 503, the second 404, cuts the third's socket, and
//     forwards the fourth to an SDK 1.32.2 stateful server; the app then calls lookup_order.
//   connect-loop-py: the same with the Python client (py_app.py loop; client.ndjson by the recording proxy).
//   two-instances: two instances of one SDK 1.32.2 app (the same clientInfo, each its own recordingFetch: app1.ndjson,
//     app2.ndjson) through one `mcp-triage record` (proxy.ndjson); app 1's initialize gets 503 and it gives up (no retry
//     of its own); app 2 starts 150 ms later and connects.
//   two-instances-overlap: the same, but app 2 starts 50 ms after app 1, while the front holds app 1's initialize 150 ms
//     before its 503: app 2's initialize was sent before app 1's failed.
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync, appendFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { spawn, execFile } from 'node:child_process';
import { promisify } from 'node:util';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { listen, sleep, readBody, sessionHandler, startRecordProxy } = await import(`${R}/test/helpers/loopback.mjs`);
const { Client, StreamableHTTPClientTransport, ClientV2, TransportV2, StreamableHTTPServerTransport, McpServer, z, text, errOf, short, clean, ordersServer, types } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { recordingFetch, recordingHandler } = await import(`${R}/dist/capture/index.js`);
const PY = process.env.PYTHON ?? '/work/py-venv/bin/python';
const PORT = { tsFront: 10650, tsInner: 10651, v2Front: 10652, pyRouter: 10653, pyFront: 10654, pyInner: 10655, loopFront: 10660, loopInner: 10661, loopProxy: 10662, pyLoopFront: 10665, pyLoopInner: 10666, pyLoopProxy: 10667, twoFront: 10670, twoInner: 10671, twoProxy: 10672 };
setTimeout(() => { process.stderr.write('still running after 180 s, giving up\n'); process.exit(2); }, 180_000).unref();

/** An SDK 1.32.2 stateless server (a new McpServer and transport per POST) whose `sync` charges (destructive, not idempotent). */
function statelessServer(ran) {
  const build = () => {
    const s = new McpServer({ name: 'billing', version: '1.0.0' });
    s.registerTool('sync', { description: 'Charge an item', inputSchema: { item: z.string() }, annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false } }, async ({ item }) => {
      ran.push({ ts: new Date().toISOString(), tool: 'sync', item, effect: `charged ${item}` });
      return text(`charged ${item}`);
    });
    return s;
  };
  return async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const mcp = build();
    const t = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void t.close().then(() => mcp.close()));
    await mcp.connect(t);
    await t.handleRequest(req, res);
  };
}

/**
 * The front, in the server's process: `decide({ method, path, rpc, n })` says what to do with each request ('forward',
 * { redirect: status, to: path }, { respond: status, body }, 'cut'); forwarded requests go to `upstream` + `innerPath`.
 */
function front(port, upstream, innerPath, decide, did) {
  const target = new URL(upstream);
  let n = 0;
  return async (req, res) => {
    const raw = await readBody(req);
    let rpc;
    try { rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined; } catch { rpc = undefined; }
    const path = req.url.split('?')[0];
    const what = decide({ method: req.method, path, rpc, n: n++ });
    const request = `${req.method} ${path}${rpc?.method ? ` ${rpc.method}` : ''}${rpc?.params?.name ? ` ${rpc.params.name}` : ''}${rpc?.id !== undefined ? ` id ${rpc.id}` : ''}`;
    did.push({ ts: new Date().toISOString(), request, action: what === 'forward' ? 'forwarded' : what === 'cut' ? 'socket destroyed, no answer' : what.redirect ? `${what.redirect} Location ${what.to}` : `answered ${what.respond} itself` });
    if (what === 'cut') return void req.socket.destroy();
    if (what.redirect) return void res.writeHead(what.redirect, { location: `http://127.0.0.1:${port}${what.to}`, 'content-length': '0' }).end();
    if (what.delay) await sleep(what.delay);
    if (what.respond) return void res.writeHead(what.respond, { 'content-type': 'text/plain' }).end(what.body);
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: `${innerPath}${req.url.slice(path.length)}`, headers: { ...req.headers, host: target.host } });
    up.on('error', () => res.destroy());
    up.on('response', (ures) => { res.writeHead(ures.statusCode, ures.headers); ures.pipe(res); });
    up.end(raw);
  };
}

/** The redirect scenarios' rule: everything at /old/mcp is redirected to /mcp; the first tools/call at /mcp gets 503. */
const redirectRule = (status) => {
  let failed = false;
  return ({ path, rpc }) => {
    if (path === '/old/mcp') return { redirect: status, to: '/mcp' };
    if (rpc?.method === 'tools/call' && !failed) { failed = true; return { respond: 503, body: 'upstream busy' }; }
    return 'forward';
  };
};

/** The connect loop's rule: the first initialize 503, the second 404, the third's socket cut, then every request forwarded. */
const loopRule = () => {
  let k = 0;
  return ({ rpc }) => {
    if (rpc?.method !== 'initialize') return 'forward';
    k++;
    return k === 1 ? { respond: 503, body: 'Service Unavailable' } : k === 2 ? { respond: 404, body: 'Not Found' } : k === 3 ? 'cut' : 'forward';
  };
};

function folder(name) {
  const d = `${R}/test/fixtures/real-audit95/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  return d;
}
const save = (d, o) => writeFileSync(`${d}/observed.json`, `${JSON.stringify(o, null, 1)}\n`);

/** The JS app of the redirect scenarios: connect to /old/mcp, call `sync` inv-1, called again once 300 ms after a failure. */
async function redirectApp({ v2, url, rf, seen }) {
  const c = v2 ? new ClientV2({ name: 'audit95-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } }) : new Client({ name: 'audit95-v1', version: '1.0.0' }, { capabilities: {} });
  await c.connect(v2 ? new TransportV2(new URL(url), { fetch: rf }) : new StreamableHTTPClientTransport(new URL(url), { fetch: rf }));
  seen.push({ step: 'connect', ok: 'connected' });
  for (let attempt = 1; attempt <= 2; attempt++) {
    const t0 = Date.now();
    try {
      const r = await c.callTool({ name: 'sync', arguments: { item: 'inv-1' } });
      seen.push({ step: `sync inv-1 #${attempt}`, ok: short(r), ms: Date.now() - t0 });
      break;
    } catch (e) {
      seen.push({ step: `sync inv-1 #${attempt}`, threw: errOf(e), ms: Date.now() - t0 });
      await sleep(300);
    }
  }
  await c.close();
}

/** The JS app's connect loop: a new Client 200 ms after each failed connect, at most `tries`; then lookup_order A-1. */
async function loopApp({ url, rf, seen, tries, name = 'audit95-app' }) {
  for (let n = 1; n <= tries; n++) {
    const c = new Client({ name, version: '1.0.0' }, { capabilities: {} });
    try {
      await c.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: rf }));
    } catch (e) {
      seen.push({ step: `connect #${n}`, threw: errOf(e) });
      await c.close().catch(() => {});
      await sleep(200);
      continue;
    }
    seen.push({ step: `connect #${n}`, ok: 'connected' });
    seen.push({ step: 'lookup_order A-1', ok: short(await c.callTool({ name: 'lookup_order', arguments: { orderId: 'A-1' } })) });
    await c.transport?.terminateSession?.().catch(() => {});
    await c.close();
    return;
  }
}

const runPy = async (args) => JSON.parse((await promisify(execFile)(PY, [`${R}/test/real-audit95/py_app.py`, ...args], { timeout: 60_000 })).stdout);

async function startPyRouter(d) {
  const ranFile = `${d}/.ran.ndjson`;
  const py = spawn(PY, [`${R}/test/real-audit88/py_router.py`, String(PORT.pyRouter), ranFile], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    await sleep(100);
    if (await fetch(`http://127.0.0.1:${PORT.pyRouter}/b/mcp`).then(() => true, () => false)) break;
  }
  return { stop: async () => { py.kill('SIGTERM'); await new Promise((r) => py.once('exit', r)); }, ran: () => (existsSync(ranFile) ? readFileSync(ranFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []), ranFile };
}

const scenarios = {
  async 'redirect-ts'() {
    const d = folder('redirect-ts');
    const ran = [], did = [], seen = [];
    const inner = await listen(statelessServer(ran), PORT.tsInner);
    const f = await listen(recordingHandler(front(PORT.tsFront, inner.url, '/mcp', redirectRule(307), did), { out: `${d}/server.ndjson` }), PORT.tsFront);
    const rf = recordingFetch({ out: `${d}/client.ndjson`, client: 'audit95-v1@1.0.0' });
    await redirectApp({ v2: false, url: `${f.url}/old/mcp`, rf, seen });
    await sleep(200); await rf.close(); await f.close(); await inner.close();
    save(d, { scenario: 'redirect-ts', client: 'SDK 1.32.2', server: 'SDK 1.32.2 stateless', redirect: 307, endpoints: { asked: `${f.url}/old/mcp`, redirectedTo: `${f.url}/mcp` }, app: seen, front: did, ran });
  },
  async 'redirect-v2'() {
    const d = folder('redirect-v2');
    const did = [], seen = [];
    const py = await startPyRouter(d);
    const f = await listen(recordingHandler(front(PORT.v2Front, `http://127.0.0.1:${PORT.pyRouter}`, '/b/mcp', redirectRule(308), did), { out: `${d}/server.ndjson` }), PORT.v2Front);
    const rf = recordingFetch({ out: `${d}/client.ndjson`, client: 'audit95-v2@1.0.0' });
    await redirectApp({ v2: true, url: `${f.url}/old/mcp`, rf, seen });
    await sleep(200); await rf.close(); await f.close(); await py.stop();
    const ran = py.ran(); rmSync(py.ranFile, { force: true });
    save(d, { scenario: 'redirect-v2', client: 'v2 2.4.0 (versionNegotiation auto)', server: 'Python SDK 2.3.0 stateless', redirect: 308, endpoints: { asked: `${f.url}/old/mcp`, redirectedTo: `${f.url}/mcp` }, app: seen, front: did, ran });
  },
  async 'redirect-py'() {
    const d = folder('redirect-py');
    const ran = [], did = [];
    const inner = await listen(statelessServer(ran), PORT.pyInner);
    const f = await listen(recordingHandler(front(PORT.pyFront, inner.url, '/mcp', redirectRule(307), did), { out: `${d}/server.ndjson` }), PORT.pyFront);
    const proxy = await startRecordProxy(f.url, `${d}/client.ndjson`, 'client');
    const seen = await runPy([`${proxy.url}/old/mcp`, 'call']);
    await sleep(200); await proxy.stop(); await f.close(); await inner.close();
    save(d, { scenario: 'redirect-py', client: 'Python SDK 2.3.0 (mode auto), recorded by mcp-triage record --side client', server: 'SDK 1.32.2 stateless', redirect: 307, endpoints: { asked: `${proxy.url}/old/mcp`, redirectedTo: `${proxy.url}/mcp` }, app: seen, front: did, ran });
  },
  async 'connect-loop-ts'() {
    const d = folder('connect-loop-ts');
    const ran = [], did = [], seen = [];
    const h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer: ordersServer(ran) });
    const inner = await listen(h.handle, PORT.loopInner);
    const f = await listen(recordingHandler(front(PORT.loopFront, inner.url, '/mcp', loopRule(), did), { out: `${d}/server.ndjson` }), PORT.loopFront);
    const proxy = await startRecordProxy(f.url, `${d}/proxy.ndjson`, 'client');
    const rf = recordingFetch({ out: `${d}/client.ndjson`, client: 'audit95-app@1.0.0' });
    await loopApp({ url: `${proxy.url}/mcp`, rf, seen, tries: 5 });
    await sleep(200); await rf.close(); await proxy.stop(); await f.close(); await inner.close();
    save(d, { scenario: 'connect-loop-ts', client: 'SDK 1.32.2, a new Client 200 ms after each failed connect', server: 'SDK 1.32.2 stateful', app: seen, front: did, ran });
  },
  async 'connect-loop-py'() {
    const d = folder('connect-loop-py');
    const ran = [], did = [];
    const h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer: ordersServer(ran) });
    const inner = await listen(h.handle, PORT.pyLoopInner);
    const f = await listen(recordingHandler(front(PORT.pyLoopFront, inner.url, '/mcp', loopRule(), did), { out: `${d}/server.ndjson` }), PORT.pyLoopFront);
    const proxy = await startRecordProxy(f.url, `${d}/client.ndjson`, 'client');
    const seen = await runPy([`${proxy.url}/mcp`, 'loop', '5']);
    await sleep(200); await proxy.stop(); await f.close(); await inner.close();
    save(d, { scenario: 'connect-loop-py', client: 'Python SDK 2.3.0 (mode legacy), a new Client 200 ms after each failed connect, recorded by mcp-triage record --side client', server: 'SDK 1.32.2 stateful', app: seen, front: did, ran });
  },
  'two-instances': () => twoInstances('two-instances', 150, 0),
  'two-instances-overlap': () => twoInstances('two-instances-overlap', 50, 150),
};

/** Two instances of one app, one connect each: app 1's initialize gets 503 (held `hold` ms), app 2 starts `after` ms after app 1. */
async function twoInstances(name, after, hold) {
  {
    const d = folder(name);
    const ran = [], did = [], seen = [];
    const h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer: ordersServer(ran) });
    const inner = await listen(h.handle, PORT.twoInner);
    let k = 0;
    const f = await listen(recordingHandler(front(PORT.twoFront, inner.url, '/mcp', ({ rpc }) => (rpc?.method === 'initialize' && k++ === 0 ? { respond: 503, body: 'Service Unavailable', ...(hold ? { delay: hold } : {}) } : 'forward'), did), { out: `${d}/server.ndjson` }), PORT.twoFront);
    const proxy = await startRecordProxy(f.url, `${d}/proxy.ndjson`, 'client');
    const rf1 = recordingFetch({ out: `${d}/app1.ndjson`, client: 'audit95-app@1.0.0#1' });
    const rf2 = recordingFetch({ out: `${d}/app2.ndjson`, client: 'audit95-app@1.0.0#2' });
    const s1 = [], s2 = [];
    await Promise.all([
      loopApp({ url: `${proxy.url}/mcp`, rf: rf1, seen: s1, tries: 1 }),
      sleep(after).then(() => loopApp({ url: `${proxy.url}/mcp`, rf: rf2, seen: s2, tries: 1 })),
    ]);
    seen.push(...s1.map((s) => ({ app: 1, ...s })), ...s2.map((s) => ({ app: 2, ...s })));
    await sleep(200); await rf1.close(); await rf2.close(); await proxy.stop(); await f.close(); await inner.close();
    save(d, { scenario: name, client: `two instances of one SDK 1.32.2 app (clientInfo audit95-app 1.0.0), each one connect, no retry; app 2 started ${after} ms after app 1`, server: 'SDK 1.32.2 stateful', app: seen, front: did, ran });
  }
}

const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(scenarios);
for (const name of chosen) {
  if (!scenarios[name]) throw new Error(`no scenario ${name}`);
  await scenarios[name]();
  process.stderr.write(`recorded ${name}\n`);
}
process.exit(0);
