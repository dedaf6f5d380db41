// Records test/fixtures/real-audit68/ (the sixty-eighth audit: logs of a developer's own loggers, written without mcp-triage's README) on 127.0.0.1.
// The chain: the SDK 1.32.2 Client, its fetch the two naive client loggers of naive-loggers.mjs (fetch-line.ndjson: a line
// per exchange with requestHeaders/responseHeaders objects and bodies as text; fetch-pair.ndjson: a request line and a
// response line, `dir`, bodies parsed, nothing tying the two) -> [a fault hop, where the scenario needs one] -> an Express 5
// app, express.json() and the two naive server loggers (server-status.ndjson: the parsed request body, status and ms;
// server-pino.ndjson: the same in pino's shape) in front of the SDK's StreamableHTTPServerTransport, one McpServer per
// session; server-handled.ndjson: the route handler's own line after the transport handled a POST, its status and
// the request as `rpc`. observed.json: what the app got or threw, which tool bodies ran, what the hop did.
// Run from the repository: npm run build && node test/real-audit68/record.mjs [scenario...]
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { sleep, startFaultHop } = await import(`${R}/test/helpers/loopback.mjs`);
const { Client, StreamableHTTPClientTransport, errOf, short, clean } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { startShopServer } = await import(`${R}/test/helpers/express-shop.mjs`);
const { fetchLineLogger, fetchPairLogger, serverStatusLogger, serverPinoLogger, logHandled } = await import('./naive-loggers.mjs');

setTimeout(() => { process.stderr.write('still running after 120 s, giving up\n'); process.exit(2); }, 120_000).unref();
const FILES = ['fetch-line.ndjson', 'fetch-pair.ndjson', 'server-status.ndjson', 'server-pino.ndjson', 'server-handled.ndjson'];

async function rig(name, { fault } = {}) {
  const d = `${R}/test/fixtures/real-audit68/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const ran = [];
  const server = await startShopServer(ran, { middlewares: [serverStatusLogger(`${d}/server-status.ndjson`), serverPinoLogger(`${d}/server-pino.ndjson`)], afterPost: (req, res) => logHandled(`${d}/server-handled.ndjson`, req, res) });
  const hopLog = [];
  const hop = fault ? await startFaultHop(server.url, (x) => { const a = fault(x) ?? {}; hopLog.push({ request: `${x.req.method} ${x.rpcMethod ?? ''}${x.rpc?.params?.name ? ` ${x.rpc.params.name}` : ''}`.trim(), n: x.n, action: Object.keys(a)[0] ?? 'forward' }); return a; }) : null;
  const url = new URL(`${(hop ?? server).url}/mcp`);
  const fetch = fetchLineLogger(`${d}/fetch-line.ndjson`, fetchPairLogger(`${d}/fetch-pair.ndjson`));
  const observed = [];
  const step = async (label, fn) => {
    try { const r = await fn(); observed.push({ label, ok: short(r) ?? null }); return r; }
    catch (e) { observed.push({ label, error: errOf(e) }); return undefined; }
  };
  const connect = async () => {
    const c = new Client({ name: 'naive-app', version: '1.0.0' });
    c.onerror = (e) => observed.push({ onerror: clean(e?.message ?? e).slice(0, 200) });
    await c.connect(new StreamableHTTPClientTransport(url, { fetch, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } }));
    return c;
  };
  return { d, server, step, connect, observed, async done(clients) {
    await sleep(200);
    for (const c of clients) await c.close().catch(() => {});
    await sleep(300);
    if (hop) await hop.close();
    await server.close();
    for (const f of FILES) appendFileSync(`${d}/${f}`, '');
    observed.push({ serverRan: ran });
    if (hop) observed.push({ hop: hopLog });
    writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
  } };
}

const call = (c, name, args, opts) => () => c.callTool({ name, arguments: args }, undefined, opts);
const firstToolCall = (x) => x.rpcMethod === 'tools/call' && x.n === 1;

export const scenarios = {
  'tool-ok': async () => {
    const r = await rig('tool-ok');
    const c = await r.connect();
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'A-1' }));
    await r.done([c]);
  },
  'tool-error': async () => {
    const r = await rig('tool-error');
    const c = await r.connect();
    await r.step('call refund_order', call(c, 'refund_order', { orderId: 'A-2' }));
    await r.done([c]);
  },
  'unknown-tool': async () => {
    const r = await rig('unknown-tool');
    const c = await r.connect();
    await r.step('call cancel_order', call(c, 'cancel_order', { orderId: 'A-3' }));
    await r.done([c]);
  },
  'session-lost': async () => {
    const r = await rig('session-lost');
    const c = await r.connect();
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'A-4' }));
    await r.server.restart();
    await sleep(100);
    await r.step('call lookup_order after the restart', call(c, 'lookup_order', { orderId: 'A-4' }));
    const c2 = await r.connect();
    await r.step('call lookup_order on a new session', call(c2, 'lookup_order', { orderId: 'A-4' }));
    await r.done([c, c2]);
  },
  'session-lost-two-calls': async () => {
    // Two calls in flight when the session is gone: two 404s with id null, nothing in the pair log ties each to its request.
    const r = await rig('session-lost-two-calls');
    const c = await r.connect();
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'A-5' }));
    await r.server.restart();
    await sleep(100);
    await Promise.all([
      r.step('call lookup_order after the restart', call(c, 'lookup_order', { orderId: 'A-6' })),
      r.step('call send_invoice after the restart', call(c, 'send_invoice', { orderId: 'A-6' })),
    ]);
    await r.done([c]);
  },
  'hop-503': async () => {
    const r = await rig('hop-503', { fault: (x) => (firstToolCall(x) ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : {}) });
    const c = await r.connect();
    await r.step('call send_invoice', call(c, 'send_invoice', { orderId: 'A-7' }));
    await sleep(200);
    await r.step('call send_invoice again (app retry)', call(c, 'send_invoice', { orderId: 'A-7' }));
    await r.done([c]);
  },
  'fetch-failed': async () => {
    const r = await rig('fetch-failed', { fault: (x) => (firstToolCall(x) ? { destroy: true } : {}) });
    const c = await r.connect();
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'A-9' }));
    await r.step('call lookup_order again (app retry)', call(c, 'lookup_order', { orderId: 'A-9' }));
    await r.done([c]);
  },
  'sse-cut': async () => {
    const r = await rig('sse-cut', { fault: (x) => (firstToolCall(x) ? { cutEvents: 0 } : {}) });
    const c = await r.connect();
    await r.step('call send_invoice', call(c, 'send_invoice', { orderId: 'A-8' }, { timeout: 1500 }));
    await r.done([c]);
  },
};

const only = process.argv.slice(2);
for (const [name, run] of Object.entries(scenarios)) {
  if (only.length && !only.includes(name)) continue;
  process.stdout.write(`${name}\n`);
  await run();
}
process.exit(0);
