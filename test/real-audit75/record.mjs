// Records test/fixtures/real-audit75/ (the seventy-fifth audit: mcpsnoop 0.22.0's JSON export with requests in flight together) around an SDK 1.32.2 server on 127.0.0.1.
// NOT run by `npm test`: it needs the real mcpsnoop binary, kept in a scratch folder outside the repository:
//   mkdir -p /work/audit75-scratch && cd /work/audit75-scratch && npm pack @mcpsnoop/linux-x64@0.22.0 && tar xzf mcpsnoop-linux-x64-0.22.0.tgz
// (the tarball holds package/bin/mcpsnoop, a static binary), then from the repository: npm run build && node test/real-audit75/record.mjs [scenario...]
// (MCPSNOOP=path to use another copy of the binary; AUDIT75_SCRATCH another scratch folder for mcpsnoop's state).
// The chain: the SDK 1.32.2 Client, its fetch mcp-triage's recordingFetch (client.ndjson, the truth of the wire) -> `mcpsnoop http
// --target ... --listen 127.0.0.1:PORT` (its session log, trace.jsonl, from a scratch $XDG_STATE_HOME) -> an SDK 1.32.2 Streamable HTTP
// server (one McpServer per session behind a plain node:http handler) that waits 150 ms before it handles any POST (a slow session
// store), so that two POSTs sent together both reach mcpsnoop before either is answered. After the run: `mcpsnoop export trace.jsonl
// -T json|har` (export.json, export.har). observed.json: what the app got or threw, the tool bodies that ran, what the server did.
// `from-audit72` only re-exports four of audit 72's committed traces with `-T json` (from-audit72/<name>/export.json).
// Ports 9800-9849 on 127.0.0.1 only.
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const SCRATCH = process.env.AUDIT75_SCRATCH ?? '/work/audit75-scratch';
const SNOOP = process.env.MCPSNOOP ?? `${SCRATCH}/package/bin/mcpsnoop`;
const { listen, sessionHandler, restartableServer, sleep } = await import(`${R}/test/helpers/loopback.mjs`);
const { Client, StreamableHTTPClientTransport, McpServer, StreamableHTTPServerTransport, types, z, errOf, short, clean } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { recordingFetch } = await import(`${R}/dist/capture/index.js`);
const { orderTools } = await import('../real-audit73/tools.mjs');

setTimeout(() => { process.stderr.write('still running after 120 s, giving up\n'); process.exit(2); }, 120_000).unref();
let nextPort = 9800;
const port = () => nextPort++;

async function waitPort(p) {
  for (let i = 0; i < 100; i++) {
    try { await fetch(`http://127.0.0.1:${p}/`, { method: 'HEAD' }); return; } catch { await sleep(50); }
  }
  throw new Error(`mcpsnoop never listened on ${p}`);
}

/** Audit 72's traces re-exported with `-T json` (stderr lines, a stray stdout line, two sessions in one trace, a restart's 404), each beside its trace there. */
const FROM72 = ['stdio-nonjson', 'stdio-python-server', 'http-two-sessions', 'http-restart'];

export const scenarios = {
  'from-audit72': async () => {
    for (const name of FROM72) {
      const d = `${R}/test/fixtures/real-audit75/from-audit72/${name}`;
      mkdirSync(d, { recursive: true });
      await promisify(execFile)(SNOOP, ['export', `${R}/test/fixtures/real-audit72/${name}/snoop.jsonl`, '-T', 'json', '-o', `${d}/export.json`]);
    }
  },
  'http-concurrent-lost': async () => {
    // Two calls sent together (a result and an isError); the server restarted; two calls sent together on the old session
    // (both 404 "Session not found", id null, both in flight when the 404s come); the app's new session and its retry.
    const d = `${R}/test/fixtures/real-audit75/http-concurrent-lost`;
    rmSync(d, { recursive: true, force: true });
    mkdirSync(d, { recursive: true });
    const observed = [];
    const ran = [];
    const h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer: () => orderTools(new McpServer({ name: 'orders', version: '1.0.0' }), z, (l) => ran.push(l)) });
    const l = await listen(async (req, res) => {
      if (req.method === 'POST') await sleep(150);
      await h.handle(req, res);
    }, port());
    const server = restartableServer(l, h.transports);
    const p = port();
    const state = `${SCRATCH}/state-75-concurrent-lost`;
    rmSync(state, { recursive: true, force: true });
    const snoop = spawn(SNOOP, ['http', '--target', `${server.url}/mcp`, '--listen', `127.0.0.1:${p}`, '--label', 'orders'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, XDG_STATE_HOME: state, HOME: state } });
    snoop.stderr.on('data', (b) => observed.push({ mcpsnoopStderr: clean(b.toString()).trim().replace(/\d{4,5}/g, '<port>').slice(0, 300) }));
    await waitPort(p);
    const url = new URL(`http://127.0.0.1:${p}/mcp`);
    const fetch = recordingFetch({ out: `${d}/client.ndjson`, client: 'audit75-app@1.0.0' });
    const step = async (label, fn) => {
      const t0 = Date.now();
      try { const r = await fn(); observed.push({ label, ok: short(r) ?? null, ms: Date.now() - t0 }); return r; }
      catch (e) { observed.push({ label, error: errOf(e), ms: Date.now() - t0 }); return undefined; }
    };
    const connect = async () => {
      const c = new Client({ name: 'audit75-app', version: '1.0.0' });
      c.onerror = (e) => observed.push({ onerror: clean(e?.message ?? e).slice(0, 200) });
      await c.connect(new StreamableHTTPClientTransport(url, { fetch, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } }));
      return c;
    };
    const call = (c, name, args) => () => c.callTool({ name, arguments: args });
    const c = await connect();
    await Promise.all([step('call lookup_order A-1 (together with A-2)', call(c, 'lookup_order', { orderId: 'A-1' })), step('call refund_order A-2 (together with A-1)', call(c, 'refund_order', { orderId: 'A-2' }))]);
    await server.restart();
    observed.push({ server: 'restarted: every session forgotten' });
    await Promise.all([step('call lookup_order A-3 after the restart (together with A-4)', call(c, 'lookup_order', { orderId: 'A-3' })), step('call lookup_order A-4 after the restart (together with A-3)', call(c, 'lookup_order', { orderId: 'A-4' }))]);
    const c2 = await connect();
    await step('call lookup_order A-3 on a new session (app retry)', call(c2, 'lookup_order', { orderId: 'A-3' }));
    await sleep(300);
    await c.close().catch(() => {});
    await c2.close().catch(() => {});
    await sleep(300);
    snoop.kill('SIGINT');
    await new Promise((r) => (snoop.exitCode !== null ? r() : snoop.once('exit', r)));
    await server.close().catch(() => {});
    const logs = (await promisify(execFile)('find', [state, '-name', '*.jsonl'])).stdout.split('\n').filter(Boolean);
    observed.push({ mcpsnoopSessionLogs: logs.length });
    writeFileSync(`${d}/trace.jsonl`, logs.map((f) => readFileSync(f, 'utf8')).join(''));
    appendFileSync(`${d}/client.ndjson`, '');
    for (const [fmt, file] of [['json', 'export.json'], ['har', 'export.har']]) await promisify(execFile)(SNOOP, ['export', `${d}/trace.jsonl`, '-T', fmt, '-o', `${d}/${file}`]);
    observed.push({ serverRan: ran });
    writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
  },
};

const only = process.argv.slice(2);
for (const [name, run] of Object.entries(scenarios)) {
  if (only.length && !only.includes(name)) continue;
  process.stdout.write(`${name}\n`);
  await run();
}
process.exit(0);
