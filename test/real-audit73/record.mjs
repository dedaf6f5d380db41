// Records test/fixtures/real-audit73/ (the seventy-third audit: mcpsnoop 0.22.0's exports, HAR, OTLP and JSON, and its live OTLP stream) around SDK 1.32.2 servers on 127.0.0.1.
// NOT run by `npm test`: it needs the real mcpsnoop binary, kept in a scratch folder outside the repository:
//   mkdir -p /work/audit73-scratch && cd /work/audit73-scratch && npm pack @mcpsnoop/linux-x64@0.22.0 && tar xzf mcpsnoop-linux-x64-0.22.0.tgz
// (the tarball holds package/bin/mcpsnoop, a static binary), then from the repository: npm run build && node test/real-audit73/record.mjs [scenario...]
// (MCPSNOOP=path to use another copy; the Python client needs /work/py-venv with mcp 2.3.0, or PYTHON).
// The chain (http-*): the SDK 1.32.2 Client, its fetch mcp-triage's recordingFetch (client.ndjson) -> `mcpsnoop http --target ...`
// (trace.jsonl, and live OTLP to a local sink) -> an SDK 1.32.2 Streamable HTTP server (one McpServer per session, behind a plain
// node:http handler, which stands in for Express here). stdio-*: the SDK Client's StdioClientTransport runs `mcpsnoop --trace-file
// ... -- node stdio-server.mjs`. The OTLP sink is a small local Node HTTP endpoint that appends each POSTed body as one line
// (otlp-sink.ndjson), as an OpenTelemetry Collector's file exporter would. After each run the trace is exported with
// `mcpsnoop export trace.jsonl -T har|otlp|json|html|text`. observed.json: what the app got or threw, the tool bodies that ran,
// what the server did on purpose. Ports 9650-9699 on 127.0.0.1 only.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const SCRATCH = process.env.AUDIT73_SCRATCH ?? '/work/audit73-scratch';
const SNOOP = process.env.MCPSNOOP ?? `${SCRATCH}/package/bin/mcpsnoop`;
const { listen, sessionHandler, restartableServer, sleep, readBody } = await import(`${R}/test/helpers/loopback.mjs`);
const { Client, StreamableHTTPClientTransport, McpServer, StreamableHTTPServerTransport, types, z, errOf, short, clean } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { StdioClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js`);
const { recordingFetch } = await import(`${R}/dist/capture/index.js`);
const { orderTools } = await import('./tools.mjs');

setTimeout(() => { process.stderr.write('still running after 240 s, giving up\n'); process.exit(2); }, 240_000).unref();
/** The secret the OTLP exporter sends to the collector (--otlp-header): it must never show in mcp-triage's output. */
const OTLP_SECRET = 'Bearer otlp-audit73-secret-0123456789abcdef';
/** The server's API key for the 401 scenario (sent by the app as authorization). */
const API_KEY = 'Bearer sk-audit73-api-key-9876543210';
let nextPort = 9650;
const port = () => nextPort++;

/** The OTLP/HTTP traces sink: each POSTed body appended as one line, as a Collector's file exporter writes them. */
async function otlpSink(out, seen) {
  const s = await listen(async (req, res) => {
    const body = (await readBody(req)).toString('utf8');
    seen.push({ path: req.url, contentType: req.headers['content-type'], authorization: req.headers.authorization === OTLP_SECRET ? 'the --otlp-header secret' : (req.headers.authorization ?? null) });
    try { appendFileSync(out, JSON.stringify(JSON.parse(body)) + '\n'); } catch { appendFileSync(out, body.replace(/\n/g, ' ') + '\n'); }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  }, port());
  return s;
}

/** An SDK 1.32.2 Streamable HTTP server; `auth`: answer 401 to requests without API_KEY; cut(): drop the running tools/call POST. */
async function httpServer(ran, { auth = false } = {}) {
  let lastPost;
  const h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer: () => orderTools(new McpServer({ name: 'orders', version: '1.0.0' }), z, (l) => ran.push(l), () => lastPost?.socket?.destroy()) });
  const l = await listen(async (req, res) => {
    if (auth && req.headers.authorization !== API_KEY) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="orders"' }).end(JSON.stringify({ error: 'invalid_token', error_description: 'missing or invalid API key' }));
      return;
    }
    if (req.method === 'POST') lastPost = res;
    await h.handle(req, res);
  }, port());
  return restartableServer(l, h.transports);
}

async function waitPort(p) {
  for (let i = 0; i < 100; i++) {
    try { await fetch(`http://127.0.0.1:${p}/`, { method: 'HEAD' }); return; } catch { await sleep(50); }
  }
  throw new Error(`mcpsnoop never listened on ${p}`);
}

/** The trace exported to every format mcpsnoop has (html and text, which mcp-triage must refuse, kept for http-calls alone). */
async function exportAll(d, all) {
  for (const [fmt, file] of [['har', 'export.har'], ['otlp', 'export.otlp.json'], ['json', 'export.json'], ...(all ? [['html', 'export.html'], ['text', 'export.txt']] : [])]) {
    await promisify(execFile)(SNOOP, ['export', `${d}/trace.jsonl`, '-T', fmt, '-o', `${d}/${file}`]);
  }
}

/** One run: the sink, the server (http) or nothing (stdio), mcpsnoop, and the app's steps; done() closes all, exports the trace, writes observed.json. */
async function rig(name, { stdio = false, auth = false } = {}) {
  const d = `${R}/test/fixtures/real-audit73/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const observed = [];
  const ran = [];
  const sinkSeen = [];
  const sink = await otlpSink(`${d}/otlp-sink.ndjson`, sinkSeen);
  const otlpFlags = ['--otlp-endpoint', `${sink.url}/v1/traces`, '--otlp-header', `Authorization=${OTLP_SECRET}`];
  let server = null, snoop = null, url = null;
  const state = `${SCRATCH}/state-${name}`;
  const fetch = recordingFetch({ out: `${d}/client.ndjson`, client: 'audit73-app@1.0.0' });
  if (!stdio) {
    server = await httpServer(ran, { auth });
    const p = port();
    // `mcpsnoop http` has no --trace-file: it writes its session log under $XDG_STATE_HOME/mcpsnoop/sessions/, a scratch folder here
    rmSync(state, { recursive: true, force: true });
    snoop = spawn(SNOOP, ['http', '--target', `${server.url}/mcp`, '--listen', `127.0.0.1:${p}`, '--label', 'orders', ...otlpFlags], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, XDG_STATE_HOME: state, HOME: state } });
    snoop.stderr.on('data', (b) => observed.push({ mcpsnoopStderr: clean(b.toString()).trim().slice(0, 300) }));
    await waitPort(p);
    url = new URL(`http://127.0.0.1:${p}/mcp`);
  }
  const step = async (label, fn) => {
    const t0 = Date.now();
    try { const r = await fn(); observed.push({ label, ok: short(r) ?? null, ms: Date.now() - t0 }); return r; }
    catch (e) { observed.push({ label, error: errOf(e), ms: Date.now() - t0 }); return undefined; }
  };
  const transports = [];
  const connect = async ({ headers } = {}) => {
    const c = new Client({ name: 'audit73-app', version: '1.0.0' });
    c.onerror = (e) => observed.push({ onerror: clean(e?.message ?? e).slice(0, 200) });
    const t = stdio
      ? new StdioClientTransport({ command: SNOOP, args: ['--trace-file', `${d}/trace.jsonl`, '--label', 'orders-stdio', ...otlpFlags, '--', process.execPath, `${R}/test/real-audit73/stdio-server.mjs`], env: { ...process.env, AUDIT73_RAN: `${d}/.ran` }, stderr: 'pipe' })
      : new StreamableHTTPClientTransport(url, { fetch, requestInit: headers ? { headers } : undefined, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } });
    transports.push(t);
    await c.connect(t);
    return c;
  };
  return { d, server, url, fetch, step, connect, observed, ran, note: (n) => observed.push(n), async done(clients, { terminate = !stdio } = {}) {
    await sleep(300);
    if (terminate) for (const t of transports) await step('terminate the session (DELETE)', () => t.terminateSession()).catch(() => {});
    for (const c of clients) await c.close().catch(() => {});
    await sleep(1500); // mcpsnoop's OTLP exporter batches
    if (snoop) { snoop.kill('SIGINT'); await new Promise((r) => (snoop.exitCode !== null ? r() : snoop.once('exit', r))); }
    if (server) await server.close().catch(() => {});
    if (!stdio) {
      const logs = (await promisify(execFile)('find', [state, '-name', '*.jsonl'])).stdout.split('\n').filter(Boolean);
      observed.push({ mcpsnoopSessionLogs: logs.length });
      writeFileSync(`${d}/trace.jsonl`, logs.map((f) => readFileSync(f, 'utf8')).join(''));
    }
    await sink.close();
    appendFileSync(`${d}/otlp-sink.ndjson`, '');
    appendFileSync(`${d}/client.ndjson`, '');
    await exportAll(d, name === 'http-calls');
    if (stdio && existsSync(`${d}/.ran`)) { ran.push(...readFileSync(`${d}/.ran`, 'utf8').split('\n').filter(Boolean)); rmSync(`${d}/.ran`); }
    if (stdio) rmSync(`${d}/client.ndjson`);
    observed.push({ serverRan: ran }, { otlpSink: sinkSeen });
    writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
  } };
}

const call = (c, name, args, opts) => () => c.callTool({ name, arguments: args }, undefined, opts);

export const scenarios = {
  'http-calls': async () => {
    // Healthy calls, an isError result, a tool that throws (the SDK makes it an isError result), a JSON-RPC error (prompts/get: -32601), progress.
    const r = await rig('http-calls');
    const c = await r.connect();
    await r.step('list tools', async () => (await c.listTools()).tools.map((t) => t.name));
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'A-1' }));
    await r.step('call refund_order', call(c, 'refund_order', { orderId: 'A-2' }));
    await r.step('call crash', call(c, 'crash', {}));
    await r.step('get prompt summarize', () => c.getPrompt({ name: 'summarize' }));
    await r.step('call slow_report with progress', call(c, 'slow_report', { steps: 3, stepMs: 200 }, { onprogress: () => r.note({ progress: 'received' }) }));
    await r.done([c]);
  },
  'http-timeout-retry': async () => {
    // The app's 1 s timeout on a 2.1 s tool (the SDK sends notifications/cancelled), then its retry with a longer timeout.
    const r = await rig('http-timeout-retry');
    const c = await r.connect();
    await r.step('call slow_report (1 s timeout)', call(c, 'slow_report', { steps: 3, stepMs: 700 }, { timeout: 1000 }));
    await r.step('call slow_report again (app retry, 5 s timeout)', call(c, 'slow_report', { steps: 3, stepMs: 700 }, { timeout: 5000 }));
    await r.done([c]);
  },
  'http-session-lost': async () => {
    const r = await rig('http-session-lost');
    const c = await r.connect();
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'A-4' }));
    await r.server.restart();
    r.note({ server: 'restarted: every session forgotten' });
    await r.step('call lookup_order after the restart', call(c, 'lookup_order', { orderId: 'A-4' }));
    const c2 = await r.connect();
    await r.step('call lookup_order on a new session (app retry)', call(c2, 'lookup_order', { orderId: 'A-4' }));
    await r.done([c2]);
  },
  'http-server-down': async () => {
    const r = await rig('http-server-down');
    const c = await r.connect();
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'A-5' }));
    await r.server.close();
    r.note({ server: 'stopped: nothing listens at the target any more' });
    await r.step('call lookup_order with the server down', call(c, 'lookup_order', { orderId: 'A-5' }));
    await r.done([c], { terminate: false });
  },
  'http-sse-cut': async () => {
    const r = await rig('http-sse-cut');
    const c = await r.connect();
    await r.step('call cut_stream', call(c, 'cut_stream', { orderId: 'A-7' }, { timeout: 2000, onprogress: () => r.note({ progress: 'received' }) }));
    r.note({ server: 'destroyed the socket of the tools/call 200 ms after its progress event' });
    await r.done([c]);
  },
  'http-401': async () => {
    // The server wants an API key: the app first connects without it (401), then with it.
    const r = await rig('http-401', { auth: true });
    await r.step('connect without the API key', () => r.connect());
    const c = await r.connect({ headers: { authorization: API_KEY } });
    await r.step('call lookup_order with the API key', call(c, 'lookup_order', { orderId: 'A-9' }));
    await r.done([c]);
  },
  'http-python-client': async () => {
    const r = await rig('http-python-client');
    const { stdout } = await promisify(execFile)(process.env.PYTHON ?? '/work/py-venv/bin/python', [`${R}/test/real-audit73/py_client.py`, r.url.href], { timeout: 60_000 });
    r.observed.push(...JSON.parse(stdout));
    await r.done([], { terminate: false });
  },
  'stdio-calls': async () => {
    // mcpsnoop's stdio shim: healthy, isError, throws, JSON-RPC error, progress, a 1 s timeout then the app's retry.
    const r = await rig('stdio-calls', { stdio: true });
    const c = await r.connect();
    await r.step('call lookup_order', call(c, 'lookup_order', { orderId: 'S-1' }));
    await r.step('call refund_order', call(c, 'refund_order', { orderId: 'S-2' }));
    await r.step('call crash', call(c, 'crash', {}));
    await r.step('get prompt summarize', () => c.getPrompt({ name: 'summarize' }));
    await r.step('call slow_report with progress', call(c, 'slow_report', { steps: 3, stepMs: 200 }, { onprogress: () => r.note({ progress: 'received' }) }));
    await r.step('call slow_report (1 s timeout)', call(c, 'slow_report', { steps: 3, stepMs: 700 }, { timeout: 1000 }));
    await r.step('call slow_report again (app retry, 5 s timeout)', call(c, 'slow_report', { steps: 3, stepMs: 700 }, { timeout: 5000 }));
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
