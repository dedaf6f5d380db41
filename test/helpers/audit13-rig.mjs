// The thirteenth audit's rig (published MCP servers in processes of their own): start/restart such a server, and record one scenario five ways through recorder -> [fault hop] -> HAR proxy -> record proxy -> server-side recording proxy -> server.
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort, sleep, startFaultHop, startHarProxy, startRecordProxy } from './loopback.mjs';

const R = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const { recordingFetch, startRecordingProxy } = await import(`${R}/dist/capture/index.js`);
const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
const { Client: ClientV2, StreamableHTTPClientTransport: TransportV2 } = await import('@modelcontextprotocol/client');

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ports = /127\.0\.0\.1:\d+/g;
/** Session ids and ports taken out of a text that observed.json keeps. */
export const clean = (s) => String(s).replace(uuid, '<session>').replace(ports, '127.0.0.1:<port>');
/** An error as observed.json keeps it: its class, message (cleaned), JSON-RPC or HTTP code. */
export const errOf = (e) => ({ name: e?.constructor?.name ?? typeof e, message: clean(e?.message ?? e).slice(0, 300), ...(e?.code !== undefined ? { code: e.code } : {}), ...(e?.status !== undefined ? { status: e.status } : {}) });
/** A tool result as observed.json keeps it: isError and the start of its text. */
export const short = (x) => (x && typeof x === 'object' && 'content' in x ? { isError: !!x.isError, text: clean(x.content?.map((b) => b.text ?? `[${b.type}]`).join(' ') ?? '').slice(0, 240) } : x);

/**
 * A server in a process of its own, on a free port of 127.0.0.1: `argv(port)` is its command line after node, `env` added
 * to the recorder's. Ready when its port answers HTTP. `log` keeps the lines it printed that match `keep`.
 * restart() kills it (SIGKILL) and starts it again on the same port; close() kills it.
 */
export async function spawnServer({ argv, env = {}, cwd, keep = /error|fail/i, path = '/mcp' }) {
  const port = await freePort();
  const log = [];
  let child;
  const start = async () => {
    child = spawn(process.execPath, argv(port), { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const on = (l) => keep.test(l) && !/^\s+at /.test(l) && log.length < 40 && log.push(clean(l).slice(0, 200));
    createInterface({ input: child.stdout }).on('line', on);
    createInterface({ input: child.stderr }).on('line', on);
    for (let i = 0; i < 300; i++) {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before it listened`);
      try {
        await fetch(`http://127.0.0.1:${port}${path}`, { method: 'GET', signal: AbortSignal.timeout(500) }).then((r) => r.body?.cancel());
        return;
      } catch (e) {
        if (e?.name === 'TimeoutError') return; // it answered with a stream that stays open
        await sleep(50);
      }
    }
    throw new Error('server did not listen within 15 s');
  };
  const kill = () => new Promise((r) => { if (child.exitCode !== null || child.signalCode !== null) return r(); child.once('exit', r); process.kill(child.pid, 'SIGKILL'); });
  await start();
  return { url: `http://127.0.0.1:${port}`, port, log, async restart() { await kill(); await start(); }, close: kill };
}

/**
 * One scenario's rig, its files in `${dir}/${name}/`: the server from `external()` (spawnServer's shape) behind a
 * recording proxy with side "server" (server.ndjson), `mcp-triage record` (proxy.ndjson), a HAR-lines proxy
 * (capture.har.ndjson), an optional fault hop (`fault` is startFaultHop's decide), and the clients' recordingFetch
 * (client.ndjson; with clientProxy, a recording proxy with side "client" for a client in another process). step() records
 * what the app got; done() closes all and writes observed.json.
 */
export async function rig(dir, name, { external, fault, path = '/mcp', clientProxy = false }) {
  const d = `${dir}/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const server = await external();
  const serverView = await startRecordingProxy({ listen: '127.0.0.1:0', target: server.url, out: `${d}/server.ndjson`, side: 'server' });
  const rp = await startRecordProxy(serverView.url, `${d}/proxy.ndjson`);
  const har = await startHarProxy(rp.url, `${d}/capture.har.ndjson`);
  const hopLog = [];
  const hop = fault ? await startFaultHop(har.url, (x) => { const a = fault(x) ?? {}; hopLog.push({ request: `${x.req.method} ${x.rpcMethod ?? ''}${x.rpc?.params?.name ? ` ${x.rpc.params.name}` : ''}`.trim(), n: x.n, action: Object.keys(a)[0] ?? 'forward' }); return a; }) : null;
  // a client in another process (Python) is recorded by a recording proxy with side "client" right in front of it, not by recordingFetch
  const cp = clientProxy ? await startRecordingProxy({ listen: '127.0.0.1:0', target: (hop ?? har).url, out: `${d}/client.ndjson`, side: 'client' }) : null;
  const url = `${(cp ?? hop ?? har).url}${path}`;
  const rf = cp ? null : recordingFetch({ out: `${d}/client.ndjson`, fetch: globalThis.fetch });
  const observed = [];
  const step = async (label, fn) => {
    const t0 = Date.now();
    try { const r = await fn(); observed.push({ label, ok: short(r) ?? null, ms: Date.now() - t0 }); return r; }
    catch (e) { observed.push({ label, error: errOf(e), ms: Date.now() - t0 }); return undefined; }
  };
  /**
   * The SDK 1.32.2 client (or with v2 the v2 client 2.4.0, version negotiation on), its fetch recordingFetch, connected.
   * `roots` declares the roots capability and answers roots/list with them.
   */
  const sdkClient = async ({ v2 = false, clientName = 'audit13-app', roots } = {}) => {
    const caps = roots ? { roots: { listChanged: false } } : {};
    const c = v2 ? new ClientV2({ name: clientName, version: '1.0.0' }, { capabilities: caps, versionNegotiation: { mode: 'auto' } }) : new Client({ name: clientName, version: '1.0.0' }, { capabilities: caps });
    c.onerror = (e) => observed.push({ onerror: clean(e?.message ?? e).slice(0, 200) });
    if (roots) c.setRequestHandler((await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js`)).ListRootsRequestSchema, async () => { observed.push({ rootsListAsked: true }); return { roots }; });
    const opts = { fetch: rf, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } };
    const t = v2 ? new TransportV2(new URL(url), opts) : new StreamableHTTPClientTransport(new URL(url), opts);
    await c.connect(t);
    c.transportRef = t;
    return c;
  };
  return { d, url, rf, server, step, sdkClient, observed, note: (n) => observed.push(n), async done(closers = []) {
    for (const c of closers) await Promise.resolve().then(c).catch(() => {});
    await sleep(300);
    if (cp) await cp.close();
    if (hop) await hop.close();
    await har.close(); await rp.stop(); await serverView.close(); await server.close(); rf?.close?.();
    for (const f of ['client.ndjson', 'server.ndjson', 'proxy.ndjson', 'capture.har.ndjson']) appendFileSync(`${d}/${f}`, ''); // a view that saw nothing is an empty file
    if (server.log.length) observed.push({ serverLog: server.log });
    if (hop) observed.push({ hop: hopLog });
    writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
  } };
}
