// Records test/fixtures/real-handlogs/ (the fifteenth audit: logs written by a user's own loggers, from the README alone) on 127.0.0.1.
// The chain: the SDK 1.32.2 Client, its fetch the two client loggers of client-loggers.mjs (client-exchange.ndjson: whole
// exchanges, epoch ms; client-split.ndjson: split records, ISO times, numeric xids) -> [a fault hop, where the scenario
// needs one] -> an Express 5 app, express.json() and the server loggers of server-logger.mjs (server.ndjson: whole exchanges;
// server-split.ndjson: split records, each SSE chunk as written in an event's data) in front of the
// SDK's StreamableHTTPServerTransport, one McpServer per session. observed.json: what the app got or threw, which tool
// bodies ran, what the hop did.
// The py- group: the same server, the Python SDK 2.3.0 client app py_client.py with the httpx2 transport logger of
// py_client_loggers.py (py-client.ndjson: whole exchanges, ISO times with +00:00); PY_VENV names the venv (/work/py-venv).
// Run from the repository: npm run build && node test/real-handlogs/record.mjs [scenario...]
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { sleep, startFaultHop } = await import(`${R}/test/helpers/loopback.mjs`);
const { Client, StreamableHTTPClientTransport, errOf, short, clean } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { startShopServer } = await import(`${R}/test/helpers/express-shop.mjs`);
const { exchangeLogger, splitLogger } = await import('./client-loggers.mjs');
const { serverLogger, serverSplitLogger } = await import('./server-logger.mjs');

setTimeout(() => { process.stderr.write('still running after 120 s, giving up\n'); process.exit(2); }, 120_000).unref();

async function rig(name, { fault } = {}) {
  const d = `${R}/test/fixtures/real-handlogs/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const ran = [];
  const server = await startShopServer(ran, { middlewares: [serverLogger(`${d}/server.ndjson`), serverSplitLogger(`${d}/server-split.ndjson`)] });
  const hopLog = [];
  const hop = fault ? await startFaultHop(server.url, (x) => { const a = fault(x) ?? {}; hopLog.push({ request: `${x.req.method} ${x.rpcMethod ?? ''}${x.rpc?.params?.name ? ` ${x.rpc.params.name}` : ''}`.trim(), n: x.n, action: Object.keys(a)[0] ?? 'forward' }); return a; }) : null;
  const url = new URL(`${(hop ?? server).url}/mcp`);
  const fetch = exchangeLogger(`${d}/client-exchange.ndjson`, splitLogger(`${d}/client-split.ndjson`));
  const observed = [];
  const step = async (label, fn) => {
    try { const r = await fn(); observed.push({ label, ok: short(r) ?? null }); return r; }
    catch (e) { observed.push({ label, error: errOf(e) }); return undefined; }
  };
  const connect = async () => {
    const c = new Client({ name: 'handlogs-app', version: '1.0.0' });
    c.onerror = (e) => observed.push({ onerror: clean(e?.message ?? e).slice(0, 200) });
    await c.connect(new StreamableHTTPClientTransport(url, { fetch, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } }));
    return c;
  };
  return { d, server, step, connect, observed, async done(clients, { lingerMs = 200 } = {}) {
    await sleep(lingerMs); // the app goes on a moment before it closes its clients
    for (const c of clients) await c.close().catch(() => {});
    await sleep(300);
    if (hop) await hop.close();
    await server.close();
    for (const f of ['client-exchange.ndjson', 'client-split.ndjson', 'server.ndjson', 'server-split.ndjson']) appendFileSync(`${d}/${f}`, '');
    observed.push({ serverRan: ran });
    if (hop) observed.push({ hop: hopLog });
    writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
  } };
}

/** The py- group: the Python client app (py_client.py) through the same server and hop; `onReady` runs when the app waits (py-session-lost). */
async function pyRig(name, { fault, onReady } = {}) {
  const d = `${R}/test/fixtures/real-handlogs/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const ran = [];
  const server = await startShopServer(ran, { middlewares: [serverLogger(`${d}/server.ndjson`), serverSplitLogger(`${d}/server-split.ndjson`)] });
  const hopLog = [];
  const hop = fault ? await startFaultHop(server.url, (x) => { const a = fault(x) ?? {}; hopLog.push({ request: `${x.req.method} ${x.rpcMethod ?? ''}${x.rpc?.params?.name ? ` ${x.rpc.params.name}` : ''}`.trim(), n: x.n, action: Object.keys(a)[0] ?? 'forward' }); return a; }) : null;
  const py = `${process.env.PY_VENV ?? '/work/py-venv'}/bin/python`;
  const steps = await new Promise((resolve, reject) => {
    const child = spawn(py, [`${R}/test/real-handlogs/py_client.py`, name, `${(hop ?? server).url}/mcp`, `${d}/py-client.ndjson`], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', async (b) => {
      out += b;
      if (onReady && out.includes('"ready"')) { const f = onReady; onReady = undefined; await f(server); child.stdin.write('\n'); }
    });
    child.on('error', reject);
    child.on('exit', () => { try { resolve(JSON.parse(out.trim().split('\n').pop()).steps); } catch { reject(new Error(`py_client.py printed no steps: ${out}`)); } });
  });
  await sleep(300);
  if (hop) await hop.close();
  await server.close();
  for (const f of ['py-client.ndjson', 'server.ndjson', 'server-split.ndjson']) appendFileSync(`${d}/${f}`, '');
  const observed = [...steps, { serverRan: ran }, ...(hop ? [{ hop: hopLog }] : [])];
  writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
}

const call = (c, name, args, opts) => () => c.callTool({ name, arguments: args }, undefined, opts);
const firstToolCall = (x) => x.rpcMethod === 'tools/call' && x.n === 1;

export const scenarios = {
  'tool-ok': { async run() {
    const r = await rig('tool-ok');
    const c = await r.connect();
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'A-1' }));
    await r.done([c]);
  } },
  'slow-session': { async run() {
    // 6 s between two calls: the GET stream the exchange logger writes at its end goes back more than --order-tolerance
    const r = await rig('slow-session');
    const c = await r.connect();
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'A-10' }));
    await sleep(6000);
    await r.step('call lookup_order 6 s later', call(c, 'lookup_order', { orderId: 'A-11' }));
    await r.done([c]);
  } },
  'tool-error': { async run() {
    const r = await rig('tool-error');
    const c = await r.connect();
    await r.step('call refund_order', call(c, 'refund_order', { orderId: 'A-2' }));
    await r.done([c]);
  } },
  'unknown-tool': { async run() {
    const r = await rig('unknown-tool');
    const c = await r.connect();
    await r.step('call cancel_order', call(c, 'cancel_order', { orderId: 'A-3' }));
    await r.done([c]);
  } },
  'session-lost': { async run() {
    const r = await rig('session-lost');
    const c = await r.connect();
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'A-4' }));
    await r.server.restart();
    await r.step('call lookup_order after the restart', call(c, 'lookup_order', { orderId: 'A-4' }));
    const c2 = await r.connect();
    await r.step('call lookup_order on a new session', call(c2, 'lookup_order', { orderId: 'A-4' }));
    await r.done([c, c2]);
  } },
  'hop-503': { async run() {
    const r = await rig('hop-503', { fault: (x) => (firstToolCall(x) ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : {}) });
    const c = await r.connect();
    await r.step('call send_invoice', call(c, 'send_invoice', { orderId: 'A-5' }));
    await sleep(200);
    await r.step('call send_invoice again (app retry)', call(c, 'send_invoice', { orderId: 'A-5' }));
    await r.done([c]);
  } },
  'hop-429': { async run() {
    const r = await rig('hop-429', { fault: (x) => (firstToolCall(x) ? { respond: 429, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: '{"error":"rate limited"}' } : {}) });
    const c = await r.connect();
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'A-6' }));
    await sleep(1000);
    await r.step('call lookup_order again (app retry)', call(c, 'lookup_order', { orderId: 'A-6' }));
    await r.done([c]);
  } },
  'sse-cut': { async run() {
    const r = await rig('sse-cut', { fault: (x) => (firstToolCall(x) ? { cutEvents: 1 } : {}) });
    const c = await r.connect();
    await r.step('call send_invoice', call(c, 'send_invoice', { orderId: 'A-7' }, { onprogress: () => {}, timeout: 1500 }));
    await r.step('call send_invoice again (app retry)', call(c, 'send_invoice', { orderId: 'A-7' }, { onprogress: () => {}, timeout: 3000 }));
    await r.done([c]);
  } },
  'fetch-failed': { async run() {
    const r = await rig('fetch-failed', { fault: (x) => (firstToolCall(x) ? { destroy: true } : {}) });
    const c = await r.connect();
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'A-8' }));
    await r.step('call lookup_order again (app retry)', call(c, 'lookup_order', { orderId: 'A-8' }));
    await r.done([c]);
  } },
  'py-tool-ok': { run: () => pyRig('py-tool-ok') },
  'py-tool-error': { run: () => pyRig('py-tool-error') },
  'py-unknown-tool': { run: () => pyRig('py-unknown-tool') },
  'py-session-lost': { run: () => pyRig('py-session-lost', { onReady: (server) => server.restart() }) },
  'py-hop-503': { run: () => pyRig('py-hop-503', { fault: (x) => (firstToolCall(x) ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : {}) }) },
};

const only = process.argv.slice(2);
for (const [name, s] of Object.entries(scenarios)) {
  if (only.length && !only.includes(name)) continue;
  process.stdout.write(`${name}\n`);
  await s.run();
}
process.exit(0);
