// Records test/fixtures/real-audit87/ (the eighty-seventh audit: the reports as an on-call engineer reads them): one incident with everything at once, per SDK client, captured by recordingFetch, recordingHandler and `mcp-triage record`.
// NOT run by `npm test`. It needs nothing outside the repository's devDependencies (SDK 1.32.2, v2 2.4.0) and, for the
// `py` scenario, the Python SDK 2.3.0 in /work/py-venv (PYTHON=... to move it). From the repository:
//   npm run build && node test/real-audit87/record.mjs [v1|v2|py ...]
// The chain, on 127.0.0.1 ports 10250-10299 only:
//   app (the SDK client; its fetch recordingFetch -> client.ndjson)
//     -> `mcp-triage record --side client` (10253, proxy.ndjson: the same view as the recording proxy writes it)
//     -> a fault hop (10252: a gateway that answers 503 once and cuts one SSE stream after its head)
//     -> the orders server (10251: SDK 1.32.2 McpServer per session, recordingHandler -> server.ndjson)
// The incident, in one app run: tools/list; lookup_order gets the hop's 503 and the app retries it 300 ms later (it
// succeeds); send_invoice (not annotated: neither read-only nor idempotent) has its stream cut after the head, the
// server runs it and sends its result, the client times out at 1 s, cancels, and the app retries it (the invoice goes
// twice); crash answers isError; the server restarts (every session forgotten), lookup_order gets 404, the app
// connects anew and retries it. observed.json: what the app got or threw at each step, which tool bodies ran, what the
// hop did.
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { spawn } from 'node:child_process';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { listen, sleep, readBody, sessionHandler, restartableServer } = await import(`${R}/test/helpers/loopback.mjs`);
const { Client, StreamableHTTPClientTransport, ClientV2, TransportV2, StreamableHTTPServerTransport, types, ordersServer, errOf, short, clean } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { recordingFetch, recordingHandler, withCallNote } = await import(`${R}/dist/capture/index.js`);

const PORT = { server: 10251, hop: 10252, proxy: 10253 };
const PY = process.env.PYTHON ?? '/work/py-venv/bin/python';

/** The gateway: forwards; `plan(x)` may answer it itself (a status and body) or cut its SSE body after the head. */
async function faultHop(upstream, plan, log) {
  const target = new URL(upstream);
  const seen = new Map();
  return listen(async (req, res) => {
    const raw = await readBody(req);
    let rpc;
    try { rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined; } catch { rpc = undefined; }
    const what = `${req.method} ${rpc?.method ?? ''}${rpc?.params?.name ? ` ${rpc.params.name}` : ''}`.trim();
    const n = (seen.get(what) ?? 0) + 1;
    seen.set(what, n);
    const action = plan(what, n) ?? 'forward';
    log.push({ request: what, n, action: typeof action === 'string' ? action : `respond ${action.status}` });
    if (typeof action === 'object') {
      res.writeHead(action.status, { 'content-type': 'text/plain' }).end(action.body);
      return;
    }
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.on('response', (ures) => {
      const headers = { ...ures.headers };
      if (action === 'cut') {
        // The head goes on; the body ends before its first event: the server writes its result to a closed socket.
        delete headers['content-length'];
        res.writeHead(ures.statusCode, headers);
        res.flushHeaders();
        setTimeout(() => { res.end(); up.destroy(); }, 20);
        return;
      }
      res.writeHead(ures.statusCode, headers);
      res.flushHeaders();
      ures.on('data', (c) => res.write(c));
      ures.on('end', () => res.end());
    });
    up.end(raw);
  }, PORT.hop);
}

/** `mcp-triage record` (this checkout's build) on PORT.proxy in front of the hop. */
async function recordProxy(out) {
  const child = spawn(process.execPath, [`${R}/dist/bin.cjs`, 'record', '--listen', `127.0.0.1:${PORT.proxy}`, '--target', `http://127.0.0.1:${PORT.hop}`, '--out', out, '--side', 'client'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  for (let i = 0; i < 100 && !err.includes('appending'); i++) await sleep(50);
  return { stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }) };
}

/** The hop's plan: the first tools/call lookup_order gets 503, the first tools/call send_invoice's stream is cut. */
const plan = (what, n) => {
  if (what === 'POST tools/call lookup_order' && n === 1) return { status: 503, body: 'upstream unavailable' };
  if (what === 'POST tools/call send_invoice' && n === 1) return 'cut';
  return 'forward';
};

/** One scenario's folder (emptied), the orders server behind its recorder, the fault hop and the recording proxy (its capture in `proxyFile`). */
async function stage(name, proxyFile) {
  const d = `${R}/test/fixtures/real-audit87/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const ran = [];
  const h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer: ordersServer(ran) });
  const server = restartableServer(await listen(recordingHandler(h.handle, { out: `${d}/server.ndjson` }), PORT.server), h.transports);
  const hopLog = [];
  const hop = await faultHop(server.url, plan, hopLog);
  const proxy = await recordProxy(`${d}/${proxyFile}`);
  return { d, ran, server, hopLog, hop, proxy };
}

async function recordJs(name, { v2 }) {
  const { d, ran, server, hopLog, hop, proxy } = await stage(name, 'proxy.ndjson');
  const rf = recordingFetch({ out: `${d}/client.ndjson`, client: `audit87-${name}@1.0.0` });
  const url = new URL(`http://127.0.0.1:${PORT.proxy}/mcp`);
  const observed = [];
  const connect = async () => {
    const c = v2 ? new ClientV2({ name: `audit87-${name}`, version: '1.0.0' }, { capabilities: {} }) : new Client({ name: `audit87-${name}`, version: '1.0.0' }, { capabilities: {} });
    c.onerror = (e) => observed.push({ onerror: clean(e?.message ?? e).slice(0, 200) });
    const opts = { fetch: rf, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } };
    await c.connect(v2 ? new TransportV2(url, opts) : new StreamableHTTPClientTransport(url, opts));
    return c;
  };
  const step = async (label, note, fn) => {
    const t0 = Date.now();
    try { const r = await withCallNote(note, fn); observed.push({ label, ok: short(r), ms: Date.now() - t0 }); return { ok: true, r }; }
    catch (e) { observed.push({ label, error: errOf(e), ms: Date.now() - t0 }); return { ok: false, e }; }
  };
  // a 1 s request timeout (v1 takes the options third, after a result schema; v2 second)
  const call = (c, name, args) => (v2 ? c.callTool({ name, arguments: args }, { timeout: 1000 }) : c.callTool({ name, arguments: args }, undefined, { timeout: 1000 }));
  let c = await connect();
  observed.push({ label: 'connect', ok: true });
  await step('tools/list', {}, async () => (await c.listTools()).tools.map((t) => t.name));
  // 1. a 503 from the hop, then the app's retry 300 ms later
  if (!(await step('lookup_order A-1 #1', { retryOrigin: 'app', attempt: 1, call: 'lookup-A-1' }, () => call(c, 'lookup_order', { orderId: 'A-1' }))).ok) {
    await sleep(300);
    await step('lookup_order A-1 #2', { retryOrigin: 'app', attempt: 2, call: 'lookup-A-1' }, () => call(c, 'lookup_order', { orderId: 'A-1' }));
  }
  // 2. a cut stream: the server ran send_invoice, the client timed out; the app retries a tool that is not idempotent
  if (!(await step('send_invoice A-1 #1', { retryOrigin: 'app', attempt: 1, call: 'invoice-A-1' }, () => call(c, 'send_invoice', { orderId: 'A-1' }))).ok) {
    await sleep(200);
    await step('send_invoice A-1 #2', { retryOrigin: 'app', attempt: 2, call: 'invoice-A-1' }, () => call(c, 'send_invoice', { orderId: 'A-1' }));
  }
  // 3. a tool error
  await step('crash', { retryOrigin: 'app', attempt: 1, call: 'crash-1' }, () => call(c, 'crash', {}));
  // 4. the server restarts: 404, the app connects anew and retries
  await server.restart();
  observed.push({ serverRestarted: true });
  if (!(await step('lookup_order A-2 #1', { retryOrigin: 'app', attempt: 1, call: 'lookup-A-2' }, () => call(c, 'lookup_order', { orderId: 'A-2' }))).ok) {
    await c.close().catch(() => {});
    c = await connect();
    observed.push({ label: 'connect again', ok: true });
    await step('lookup_order A-2 #2', { retryOrigin: 'app', attempt: 2, call: 'lookup-A-2' }, () => call(c, 'lookup_order', { orderId: 'A-2' }));
  }
  await c.close().catch(() => {});
  await sleep(300);
  await proxy.stop();
  await hop.close();
  await server.close();
  rf.close?.();
  for (const f of ['client.ndjson', 'server.ndjson', 'proxy.ndjson']) appendFileSync(`${d}/${f}`, '');
  observed.push({ serverRan: ran }, { hop: hopLog });
  writeFileSync(`${d}/observed.json`, `${JSON.stringify(observed, null, 1)}\n`);
  console.log(name, JSON.stringify(observed).slice(0, 2000));
}

/**
 * The Python SDK 2.3.0 app (py_client.py) through the same hop; its view is `mcp-triage record --side client` in front
 * of the hop (client.ndjson: the Python client has no recordingFetch, so it has no call notes either). It stops before
 * the last step until the server has been restarted.
 */
async function recordPy(name) {
  const { d, ran, server, hopLog, hop, proxy } = await stage(name, 'client.ndjson');
  const child = spawn(PY, [`${R}/test/real-audit87/py_client.py`, `http://127.0.0.1:${PORT.proxy}/mcp`], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  let restarted = false;
  const done = new Promise((r) => child.once('exit', r));
  child.stdout.on('data', async (c) => {
    out += c;
    if (!restarted && out.includes('{"restart": true}')) {
      restarted = true;
      await server.restart();
      child.stdin.write('go\n');
    }
  });
  await Promise.race([done, sleep(60_000)]);
  child.kill();
  await sleep(300);
  await proxy.stop();
  await hop.close();
  await server.close();
  for (const f of ['client.ndjson', 'server.ndjson']) appendFileSync(`${d}/${f}`, '');
  const seen = out.split('\n').filter((l) => l.startsWith('{"seen"')).map((l) => JSON.parse(l).seen)[0] ?? [{ label: 'no output', raw: out.slice(0, 500) }];
  const observed = seen.flatMap((s) => (s.label === 'lookup_order A-2 #1' ? [{ serverRestarted: true }, s] : [s]));
  observed.push({ serverRan: ran }, { hop: hopLog });
  writeFileSync(`${d}/observed.json`, `${JSON.stringify(observed, null, 1)}\n`);
  console.log(name, JSON.stringify(observed).slice(0, 2000));
}

const which = process.argv.slice(2);
const all = { v1: () => recordJs('v1', { v2: false }), v2: () => recordJs('v2', { v2: true }), py: () => recordPy('py') };
for (const [n, run] of Object.entries(all)) if (which.length === 0 || which.includes(n)) await run();
