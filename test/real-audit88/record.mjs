// Records test/fixtures/real-audit88/ (the eighty-eighth audit: sessionless traffic from one client to several servers, and from several apps to one stateless server), with the real SDKs on 127.0.0.1.
// NOT run by `npm test`. It needs the repository's devDependencies (SDK 1.32.2, v2 2.4.0) and, for v2-py-router and
// py-client-ts-router, the Python SDK 2.3.0 in /work/py-venv (PYTHON=... to move it). From the repository:
//   npm run build && node test/real-audit88/record.mjs [v1-two-ports|v2-py-router|py-client-ts-router|two-apps ...]
// Ports: 127.0.0.1:10300-10349 only. Every server is stateless (no Mcp-Session-Id): the TypeScript SDK 1.32.2's
// StreamableHTTPServerTransport with sessionIdGenerator undefined (a new McpServer per POST), or the Python SDK 2.3.0's
// stateless_http=True. Server A's `sync` is read-only (readOnlyHint), server B's is destructive (it charges); both have
// the same name and arguments, and each client counts its JSON-RPC ids from 0, so the ids collide too.
//   v1-two-ports: one app (SDK 1.32.2 Client x2, one recordingFetch without conn: client.ndjson) -> A on 10301, B on
//     10302 (recordingHandler each: serverA.ndjson, serverB.ndjson); each server answers its first tools/call 503
//     before its MCP transport (the tool does not run); the app calls sync inv-1 on both at once, retries each failure
//     300 ms later, then calls B's sync inv-2.
//   v2-py-router: the same app with the v2 2.4.0 Client (versionNegotiation auto) -> `mcp-triage record --side client`
//     (10313: proxy.ndjson) -> a fault hop (10312: the first tools/call of each path gets 502) -> the Python servers
//     mounted at /a/mcp and /b/mcp of one port (10311).
//   py-client-ts-router: the Python SDK 2.3.0 Client, one per server, the same steps -> `mcp-triage record --side
//     client` (10322: proxy.ndjson) -> the two TypeScript servers at /a/mcp and /b/mcp of one port (10321), behind one
//     recordingHandler (server.ndjson), each answering its first tools/call 503.
//   two-apps: two app processes (app.mjs, SDK 1.32.2, each its own recordingFetch: app1.ndjson, app2.ndjson) ->
//     `mcp-triage record --side client` (10332: proxy.ndjson) -> one TypeScript server B (10331, recordingHandler:
//     server.ndjson) that answers its first two tools/call 503. app1 calls sync inv-1 first and retries it 300 ms after
//     its 503; app2 calls the same 100 ms later, gets the second 503 and gives up.
// observed.json: what each app call got or threw (and which server it called), the tool bodies that ran, what each
// fault did.
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { spawn, execFile } from 'node:child_process';
import { promisify } from 'node:util';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { listen, sleep, readBody } = await import(`${R}/test/helpers/loopback.mjs`);
const { Client, StreamableHTTPClientTransport, ClientV2, TransportV2, StreamableHTTPServerTransport, McpServer, z, text, errOf, short, clean } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { recordingFetch, recordingHandler } = await import(`${R}/dist/capture/index.js`);
const PY = process.env.PYTHON ?? '/work/py-venv/bin/python';
const PORT = { a: 10301, b: 10302, pyRouter: 10311, hop: 10312, proxyV2: 10313, tsRouter: 10321, proxyPy: 10322, one: 10331, proxyApps: 10332 };

/** A stateless TypeScript server (a new McpServer and transport per POST) whose `sync` is read-only (A) or charges (B); it answers its first `fail` tools/call 503 itself. */
function statelessServer(label, ran, faults, fail) {
  const readOnly = label === 'A';
  const build = () => {
    const s = new McpServer({ name: `server-${label}`, version: '1.0.0' });
    s.registerTool('sync', { description: readOnly ? 'Check an item (read only)' : 'Charge an item', inputSchema: { item: z.string() }, annotations: readOnly ? { readOnlyHint: true } : { readOnlyHint: false, destructiveHint: true, idempotentHint: false } }, async ({ item }) => {
      ran.push({ ts: new Date().toISOString(), server: label, tool: 'sync', item, effect: readOnly ? 'read only' : `charged ${item}` });
      return text(`${label}: ${readOnly ? 'in sync' : 'charged'} ${item}`);
    });
    return s;
  };
  let failed = 0;
  return async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const raw = await readBody(req);
    let body;
    try { body = JSON.parse(raw.toString('utf8')); } catch { body = undefined; }
    if (body?.method === 'tools/call' && failed < fail) {
      failed++;
      faults.push({ ts: new Date().toISOString(), server: label, id: body.id, request: `tools/call ${body.params?.name} ${JSON.stringify(body.params?.arguments)}`, action: 'answered 503 before the MCP transport (the tool did not run)' });
      return void res.writeHead(503, { 'content-type': 'text/plain' }).end('upstream busy');
    }
    const mcp = build();
    const t = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void t.close().then(() => mcp.close()));
    await mcp.connect(t);
    await t.handleRequest(req, res, body);
  };
}

/** A path router: /a/mcp to A, /b/mcp to B, anything else 404. */
const router = (a, b) => (req, res) => (req.url.startsWith('/a/mcp') ? a(req, res) : req.url.startsWith('/b/mcp') ? b(req, res) : res.writeHead(404).end());

/** `mcp-triage record` (this checkout's build) on `port` in front of `target`. */
async function recordProxy(port, target, out) {
  const child = spawn(process.execPath, [`${R}/dist/bin.cjs`, 'record', '--listen', `127.0.0.1:${port}`, '--target', target, '--out', out, '--side', 'client'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  for (let i = 0; i < 100 && !err.includes('appending'); i++) await sleep(50);
  return { stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }) };
}

/** A hop that forwards to `upstream` and answers the first tools/call of each path 502 itself (an HTML page, as nginx's). */
async function faultHop(port, upstream, faults) {
  const target = new URL(upstream);
  const failed = new Set();
  return listen(async (req, res) => {
    const raw = await readBody(req);
    let rpc;
    try { rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined; } catch { rpc = undefined; }
    const path = req.url.split('?')[0];
    if (rpc?.method === 'tools/call' && !failed.has(path)) {
      failed.add(path);
      faults.push({ ts: new Date().toISOString(), path, id: rpc.id, request: `tools/call ${rpc.params?.name} ${JSON.stringify(rpc.params?.arguments)}`, action: 'answered 502 itself (not forwarded: the tool did not run)' });
      return void res.writeHead(502, { 'content-type': 'text/html' }).end('<html><head><title>502 Bad Gateway</title></head></html>');
    }
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
    up.on('error', () => res.destroy());
    up.on('response', (ures) => {
      res.writeHead(ures.statusCode, ures.headers);
      ures.pipe(res);
    });
    up.end(raw);
  }, port);
}

/** The app's steps with two Clients (A's and B's), one recordingFetch without conn: what it saw goes to `seen`. */
async function jsApp({ v2, base, paths, out, seen }) {
  const rf = recordingFetch({ out, client: `audit88-${v2 ? 'v2' : 'v1'}@1.0.0` });
  const connect = async (label) => {
    const url = new URL(`${base[label]}${paths[label]}`);
    const c = v2 ? new ClientV2({ name: `audit88-${v2 ? 'v2' : 'v1'}`, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } }) : new Client({ name: 'audit88-v1', version: '1.0.0' }, { capabilities: {} });
    await c.connect(v2 ? new TransportV2(url, { fetch: rf }) : new StreamableHTTPClientTransport(url, { fetch: rf }));
    seen.push({ label: `${label} connect`, server: label, ok: true });
    seen.push({ label: `${label} tools/list`, server: label, ok: (await c.listTools()).tools.map((t) => t.name) });
    return c;
  };
  const cs = { A: await connect('A'), B: await connect('B') };
  const call = async (label, item) => {
    for (let attempt = 1; attempt <= 2; attempt++) {
      const t0 = Date.now();
      try {
        const r = await cs[label].callTool({ name: 'sync', arguments: { item } });
        seen.push({ label: `${label} sync ${item} #${attempt}`, server: label, item, attempt, ok: short(r), ms: Date.now() - t0 });
        return;
      } catch (e) {
        seen.push({ label: `${label} sync ${item} #${attempt}`, server: label, item, attempt, error: errOf(e), ms: Date.now() - t0 });
        await sleep(300);
      }
    }
  };
  await Promise.all([call('A', 'inv-1'), call('B', 'inv-1')]);
  await call('B', 'inv-2');
  await cs.A.close();
  await cs.B.close();
  await rf.close();
}

function folder(name) {
  const d = `${R}/test/fixtures/real-audit88/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  return d;
}

/** observed.json: the scenario's truth, with which server's `sync` is read-only (A's) and which charges (B's). */
const save = (d, o) => writeFileSync(`${d}/observed.json`, `${JSON.stringify({ readOnly: { A: true, B: false }, ...o }, null, 1)}\n`);

const scenarios = {
  async 'v1-two-ports'() {
    const d = folder('v1-two-ports');
    const ran = [], faults = [], seen = [];
    const a = await listen(recordingHandler(statelessServer('A', ran, faults, 1), { out: `${d}/serverA.ndjson` }), PORT.a);
    const b = await listen(recordingHandler(statelessServer('B', ran, faults, 1), { out: `${d}/serverB.ndjson` }), PORT.b);
    await jsApp({ v2: false, base: { A: a.url, B: b.url }, paths: { A: '/mcp', B: '/mcp' }, out: `${d}/client.ndjson`, seen });
    await sleep(200);
    await a.close();
    await b.close();
    save(d, { scenario: 'v1-two-ports', endpoints: { A: `${a.url}/mcp`, B: `${b.url}/mcp` }, app: seen, ran, faults });
  },
  async 'v2-py-router'() {
    const d = folder('v2-py-router');
    const faults = [], seen = [];
    const ranFile = `${d}/.ran.ndjson`;
    const py = spawn(PY, [`${R}/test/real-audit88/py_router.py`, String(PORT.pyRouter), ranFile], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      await sleep(100);
      if (await fetch(`http://127.0.0.1:${PORT.pyRouter}/a/mcp`).then(() => true, () => false)) break;
    }
    const hop = await faultHop(PORT.hop, `http://127.0.0.1:${PORT.pyRouter}`, faults);
    const proxy = await recordProxy(PORT.proxyV2, hop.url, `${d}/proxy.ndjson`);
    const base = `http://127.0.0.1:${PORT.proxyV2}`;
    await jsApp({ v2: true, base: { A: base, B: base }, paths: { A: '/a/mcp', B: '/b/mcp' }, out: `${d}/client.ndjson`, seen });
    await sleep(200);
    await proxy.stop();
    await hop.close();
    py.kill('SIGTERM');
    await new Promise((r) => py.once('exit', r));
    const ran = existsSync(ranFile) ? readFileSync(ranFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => { const o = JSON.parse(l); return { ...o, ts: new Date(o.ts * 1000).toISOString() }; }) : [];
    rmSync(ranFile, { force: true });
    save(d, { scenario: 'v2-py-router', endpoints: { A: `${base}/a/mcp`, B: `${base}/b/mcp` }, app: seen, ran, faults });
  },
  async 'py-client-ts-router'() {
    const d = folder('py-client-ts-router');
    const ran = [], faults = [];
    const s = await listen(recordingHandler(router(statelessServer('A', ran, faults, 1), statelessServer('B', ran, faults, 1)), { out: `${d}/server.ndjson` }), PORT.tsRouter);
    const proxy = await recordProxy(PORT.proxyPy, s.url, `${d}/proxy.ndjson`);
    const base = `http://127.0.0.1:${PORT.proxyPy}`;
    const { stdout } = await promisify(execFile)(PY, [`${R}/test/real-audit88/py_client.py`, base], { timeout: 60_000 });
    await sleep(200);
    await proxy.stop();
    await s.close();
    save(d, { scenario: 'py-client-ts-router', endpoints: { A: `${base}/a/mcp`, B: `${base}/b/mcp` }, app: JSON.parse(stdout).seen.map((x) => ({ ...x, ...(x.error ? { error: { ...x.error, message: clean(x.error.message) } } : {}) })), ran, faults });
  },
  async 'two-apps'() {
    const d = folder('two-apps');
    const ran = [], faults = [];
    const s = await listen(recordingHandler(statelessServer('B', ran, faults, 2), { out: `${d}/server.ndjson` }), PORT.one);
    const proxy = await recordProxy(PORT.proxyApps, s.url, `${d}/proxy.ndjson`);
    const url = `http://127.0.0.1:${PORT.proxyApps}/mcp`;
    const run = (name, out, at, retry) => promisify(execFile)(process.execPath, [`${R}/test/real-audit88/app.mjs`, name, url, out, String(at), retry ? '1' : '0'], { timeout: 60_000 }).then(({ stdout }) => JSON.parse(stdout).seen);
    // Both processes connect first; app-1 calls at `at`, app-2 100 ms later (between app-1's 503 and its retry).
    const at = Date.now() + 3000;
    const [one, two] = await Promise.all([run('app-1', `${d}/app1.ndjson`, at, true), run('app-2', `${d}/app2.ndjson`, at + 100, false)]);
    await sleep(200);
    await proxy.stop();
    await s.close();
    save(d, { scenario: 'two-apps', endpoint: url, app: [...one, ...two], ran, faults });
  },
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(scenarios)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await run();
  console.log(`recorded ${name}`);
}
process.exit(0);
