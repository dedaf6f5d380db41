// Records test/fixtures/real-mitmproxy/<scenario>/: the official SDK 1.32.2 client and a low-level SDK Server on
// 127.0.0.1 with a REAL mitmdump in between as a reverse proxy, its HAR written by mitmproxy's own exporter.
//   SDK Client --recordingFetch (client.ndjson)--> mitmdump --mode reverse (capture.har) [--> fault hop] --> node:http
//   (recordingHandler: server.ndjson) --> SDK Server (one StreamableHTTPServerTransport per session)
// Per scenario: capture.har (the whole document as mitmproxy's exporter wrote it at shutdown), capture.har.ndjson (the
// same entries one per line, as `jq -c '.log.entries[]' capture.har` gives them), client.ndjson, server.ndjson,
// observed.json (what each SDK caller really got), mitmdump.log (what mitmdump printed), and addon-entries.ndjson: the
// same flows written by har_lines.py, our addon (mitmproxy's flow API, the entry shape of mitmproxy 10+'s exporter:
// status 0 + _error for a flow without a response, "text": null for a body mitmproxy streamed and did not store).
//
// Needs what the project does not install: mitmproxy (Debian bookworm: `apt-get install mitmproxy`, 8.1.1). mitmproxy
// 8.x has no built-in HAR option (`hardump` came with 10.x); its HAR exporter is the contrib script
// examples/contrib/har_dump.py (Debian: /usr/share/doc/mitmproxy/examples/contrib/har_dump.py; set HAR_DUMP to another
// copy): `mitmdump -s har_dump.py --set hardump=FILE`. Tests read only the committed fixtures.
// Usage: npm run fixtures:mitmproxy (or npm run build && node test/real-mitmproxy/record.mjs [scenario...]); about a minute.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { createGzip, inflateSync, constants as zlibConstants } from 'node:zlib';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { recordingFetch, recordingHandler } = await import(`${R}/dist/capture/index.js`);
const { listen, sleep, sessionHandler, startFaultHop, freePort, recordStep, stopAfter } = await import(`${R}/test/helpers/loopback.mjs`);
const { Server } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.js`);
const { StreamableHTTPServerTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js`);
const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
const types = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js`);

const HAR_DUMP = process.env.HAR_DUMP ?? '/usr/share/doc/mitmproxy/examples/contrib/har_dump.py';
const STREAM_SIMPLE = HAR_DUMP.replace(/contrib\/har_dump\.py$/, 'addons/http-stream-simple.py');
const HAR_LINES = `${R}/test/real-mitmproxy/har_lines.py`;
const FIXTURES = `${R}/test/fixtures/real-mitmproxy`;
if (!existsSync(HAR_DUMP)) {
  process.stderr.write(`record.mjs needs mitmproxy (apt-get install mitmproxy) and its har_dump.py (${HAR_DUMP}; set HAR_DUMP)\n`);
  process.exit(2);
}
const MITM_VERSION = execFileSync('mitmdump', ['--version']).toString().split('\n')[0].trim();
stopAfter(180_000);

const text = (t) => ({ content: [{ type: 'text', text: t }] });

/** A low-level SDK Server: a result, an isError result, a JSON-RPC error, progress, a slow tool, a log on the GET stream. */
function buildServer() {
  const s = new Server({ name: 'mitm-fixture-server', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
  const tools = ['lookup_order', 'validate_quantity', 'charge_card', 'build_report', 'slow_report', 'announce'].map((name) => ({ name, inputSchema: { type: 'object' } }));
  s.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools }));
  s.setRequestHandler(types.CallToolRequestSchema, async (req, extra) => {
    const { name, arguments: args = {} } = req.params;
    if (name === 'lookup_order') return text(`order ${args.orderId}: shipped`);
    if (name === 'validate_quantity') return args.quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${args.quantity}`), isError: true };
    if (name === 'charge_card') throw new types.McpError(types.ErrorCode.InvalidParams, `card ${args.card} is not a valid card number`);
    if (name === 'build_report') {
      const token = req.params._meta?.progressToken;
      for (let i = 1; i <= 3; i++) {
        if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: 3 } });
        await sleep(60);
      }
      return text('report ready: 3 sections');
    }
    if (name === 'slow_report') {
      await sleep(args.delayMs ?? 1500);
      return text('slow report ready');
    }
    if (name === 'announce') {
      await s.sendLoggingMessage({ level: 'warning', logger: 'billing', data: 'maintenance at 18:00' }); // no related request: the GET stream
      return text('announced');
    }
    throw new types.McpError(types.ErrorCode.InvalidParams, `Tool ${name} not found`);
  });
  return s;
}

/** Wait until something listens on 127.0.0.1:port. */
async function waitListening(port, ms = 15_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await new Promise((r) => {
      const s = netConnect(port, '127.0.0.1');
      s.once('connect', () => { s.destroy(); r(true); });
      s.once('error', () => r(false));
    });
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`mitmdump did not listen on ${port}`);
}

/** mitmdump as a reverse proxy to `upstream`, writing its HAR with har_dump.py at shutdown (SIGINT, as Ctrl-C). */
async function startMitmdump(upstream, harPath, linesPath, logPath, { streaming = false, streamResponses = false, port } = {}) {
  port ??= await freePort();
  const args = ['--mode', `reverse:${upstream}`, '--listen-host', '127.0.0.1', '-p', String(port), '-s', HAR_LINES, '--set', `harlines=${linesPath}`, '-s', HAR_DUMP, '--set', `hardump=${harPath}`];
  // har_lines.py first: an exception in one script's hook (har_dump.py on a streamed flow) ends that hook for the scripts after it.
  if (streaming) args.push('--set', 'stream_large_bodies=1');
  // mitmproxy's own example for streaming responses only (what its maintainers point SSE users to, mitmproxy #4469).
  if (streamResponses) args.push('-s', STREAM_SIMPLE);
  const log = createWriteStream(logPath);
  log.write(`$ mitmdump ${args.join(' ').replaceAll(R, '.')}\n`);
  const child = spawn('mitmdump', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  await waitListening(port);
  return {
    url: `http://127.0.0.1:${port}`, port,
    stop: () => new Promise((r) => {
      child.once('exit', (code, sig) => { log.end(`[mitmdump exited: ${code ?? sig}]\n`); r(); });
      child.kill('SIGINT');
    }),
  };
}

/** A hop that gzips every response body it forwards (Content-Encoding: gzip), as a compressing reverse proxy does. */
async function startGzipHop(upstream) {
  const target = new URL(upstream);
  return listen((req, res) => {
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.on('response', (ures) => {
      const headers = { ...ures.headers };
      if (ures.statusCode === 202 || ures.statusCode === 204) {
        res.writeHead(ures.statusCode, headers);
        return void ures.pipe(res);
      }
      delete headers['content-length'];
      headers['content-encoding'] = 'gzip';
      res.writeHead(ures.statusCode, headers);
      const gz = createGzip({ flush: zlibConstants.Z_SYNC_FLUSH }); // each SSE event passes at once
      ures.pipe(gz).pipe(res);
    });
    req.pipe(up);
  });
}

/** One scenario's rig: server (recordingHandler) [<- fault hop] <- mitmdump <- client(s) with recordingFetch. */
async function rig(name, { streaming = false, streamResponses = false, fault, jsonResponse = false, gzip = false, zhar = false } = {}) {
  const harFile = zhar ? 'capture.zhar' : 'capture.har'; // har_dump.py zlib-compresses a path ending .zhar
  const d = `${FIXTURES}/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer, options: () => (jsonResponse ? { enableJsonResponse: true } : {}) });
  const server = await listen(recordingHandler(h.handle, { out: `${d}/server.ndjson` }));
  const hop = fault ? await startFaultHop(server.url, fault) : gzip ? await startGzipHop(server.url) : undefined;
  const upstream = hop?.url ?? server.url;
  const mitm = await startMitmdump(upstream, `${d}/${harFile}`, `${d}/addon-entries.ndjson`, `${d}/mitmdump.log`, { streaming, streamResponses });
  const rf = recordingFetch({ out: `${d}/client.ndjson` });
  const steps = [];
  const clients = [];
  const connect = async () => {
    const c = new Client({ name: 'mitm-app', version: '1.0.0' }); // a reconnecting app sends the same clientInfo
    c.onerror = (e) => steps.push({ onerror: String(e?.message ?? e).slice(0, 200), ms: Date.now() - t0 });
    const t = new StreamableHTTPClientTransport(new URL(`${mitm.url}/mcp`), { fetch: rf, reconnectionOptions: { initialReconnectionDelay: 200, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 0 } });
    await c.connect(t);
    clients.push(c);
    return c;
  };
  const t0 = Date.now();
  const call = (c, label, name, args, opts) => recordStep(steps, label, () => c.callTool({ name, arguments: args }, undefined, opts));
  return {
    d, h, server, mitm, steps, connect, call,
    /** Close the clients, stop mitmdump (it writes the HAR), the hop and the server; write observed.json and the entry lines. */
    async done({ pending } = {}) {
      if (!pending) for (const c of clients) await c.close().catch(() => {});
      await sleep(200);
      await mitm.stop();
      if (pending) {
        await pending;
        for (const c of clients) await c.close().catch(() => {});
      }
      await sleep(100);
      writeFileSync(`${d}/mitmdump.log`, readFileSync(`${d}/mitmdump.log`, 'utf8').replaceAll(R, '.')); // no local paths
      await hop?.close();
      await server.close();
      await rf.close();
      const raw = readFileSync(`${d}/${harFile}`);
      const har = JSON.parse((zhar ? inflateSync(raw) : raw).toString('utf8'));
      writeFileSync(`${d}/capture.har.ndjson`, har.log.entries.map((e) => JSON.stringify(e)).join('\n') + (har.log.entries.length ? '\n' : ''));
      const observed = { mitmproxy: MITM_VERSION, exporter: 'examples/contrib/har_dump.py', streaming: streaming ? 'stream_large_bodies=1' : streamResponses ? 'examples/addons/http-stream-simple.py (responses only)' : false, steps };
      writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
      return observed;
    },
  };
}

const S = {};

// Buffered (mitmproxy's default): an SSE result, an isError result, a JSON-RPC error, progress on the call's stream.
S['healthy-sse'] = async () => {
  const r = await rig('healthy-sse');
  const c = await r.connect();
  await recordStep(r.steps, 'tools/list', () => c.listTools());
  await r.call(c, 'lookup_order', 'lookup_order', { orderId: 'A-1' });
  await r.call(c, 'validate_quantity', 'validate_quantity', { quantity: -1 });
  await r.call(c, 'charge_card', 'charge_card', { card: '0000' });
  const progress = [];
  await r.call(c, 'build_report', 'build_report', {}, { onprogress: (p) => progress.push({ progress: p.progress, total: p.total }) });
  r.steps.push({ progressSeen: progress });
  return r.done();
};

// The same in JSON response mode (enableJsonResponse): application/json answers.
S['healthy-json'] = async () => {
  const r = await rig('healthy-json', { jsonResponse: true });
  const c = await r.connect();
  await r.call(c, 'lookup_order', 'lookup_order', { orderId: 'A-2' });
  await r.call(c, 'validate_quantity', 'validate_quantity', { quantity: -5 });
  await r.call(c, 'charge_card', 'charge_card', { card: '1234' });
  return r.done();
};

// The same calls with the HAR written as capture.zhar (--set hardump=capture.zhar: zlib-compressed).
S['zhar'] = async () => {
  const r = await rig('zhar', { jsonResponse: true, zhar: true });
  const c = await r.connect();
  await r.call(c, 'lookup_order', 'lookup_order', { orderId: 'Z-1' });
  await r.call(c, 'validate_quantity', 'validate_quantity', { quantity: -5 });
  await r.call(c, 'charge_card', 'charge_card', { card: '1234' });
  return r.done();
};

// Streaming mode (--set stream_large_bodies=1): SSE passes through as it comes; mitmproxy stores no body.
S['streaming'] = async () => {
  const r = await rig('streaming', { streaming: true });
  const c = await r.connect();
  await r.call(c, 'lookup_order', 'lookup_order', { orderId: 'A-3' });
  await r.call(c, 'validate_quantity', 'validate_quantity', { quantity: -1 });
  await r.call(c, 'charge_card', 'charge_card', { card: '0000' });
  const progress = [];
  await r.call(c, 'build_report', 'build_report', {}, { onprogress: (p) => progress.push({ progress: p.progress, total: p.total }) });
  r.steps.push({ progressSeen: progress });
  return r.done();
};

// Responses streamed by mitmproxy's example addon http-stream-simple.py (requests kept): SSE passes as it comes.
S['stream-responses'] = async () => {
  const r = await rig('stream-responses', { streamResponses: true });
  const c = await r.connect();
  await r.call(c, 'lookup_order', 'lookup_order', { orderId: 'A-4' });
  await r.call(c, 'validate_quantity', 'validate_quantity', { quantity: -1 });
  await r.call(c, 'charge_card', 'charge_card', { card: '0000' });
  await r.call(c, 'slow_report', 'slow_report', { delayMs: 1500 }, { timeout: 400 });
  await sleep(1300);
  return r.done();
};

// A hop behind mitmproxy gzips every response (SSE too): mitmproxy's HAR keeps the text decoded, size compressed.
S['gzip'] = async () => {
  const r = await rig('gzip', { gzip: true });
  const c = await r.connect();
  await r.call(c, 'lookup_order', 'lookup_order', { orderId: 'G-1' });
  await r.call(c, 'validate_quantity', 'validate_quantity', { quantity: -1 });
  await r.call(c, 'charge_card', 'charge_card', { card: '0000' });
  const progress = [];
  await r.call(c, 'build_report', 'build_report', {}, { onprogress: (p) => progress.push({ progress: p.progress, total: p.total }) });
  r.steps.push({ progressSeen: progress });
  return r.done();
};

// The server restarts (forgets its sessions): the next call gets 404; the app connects again and repeats the call.
S['session-lost'] = async () => {
  const r = await rig('session-lost');
  const c = await r.connect();
  await r.call(c, 'lookup_order #1', 'lookup_order', { orderId: 'B-1' });
  const all = [...r.h.transports.values()];
  r.h.transports.clear();
  for (const t of all) await t.close().catch(() => {});
  r.steps.push({ event: 'server restarted (sessions forgotten)' });
  const lost = await r.call(c, 'lookup_order #2', 'lookup_order', { orderId: 'B-2' });
  if (!lost.ok) {
    const c2 = await r.connect();
    await r.call(c2, 'lookup_order #2 again', 'lookup_order', { orderId: 'B-2' });
  }
  return r.done();
};

// A hop behind mitmproxy answers the first tools/call with a bare 503; the app repeats the call.
S['hop-503'] = async () => {
  const r = await rig('hop-503', { fault: ({ rpcMethod, n }) => (rpcMethod === 'tools/call' && n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream overloaded' } : undefined) });
  const c = await r.connect();
  const first = await r.call(c, 'send_invoice #1', 'lookup_order', { orderId: 'C-1' });
  if (!first.ok) await r.call(c, 'send_invoice #2', 'lookup_order', { orderId: 'C-1' });
  return r.done();
};

// The upstream is down: mitmproxy answers 502 with its own body; the app's call fails.
S['upstream-down'] = async () => {
  const r = await rig('upstream-down');
  const c = await r.connect();
  await r.call(c, 'lookup_order #1', 'lookup_order', { orderId: 'D-1' });
  await r.server.close(); // the server process is gone; mitmdump's next connection to it is refused
  r.steps.push({ event: 'server stopped' });
  await r.call(c, 'lookup_order #2', 'lookup_order', { orderId: 'D-2' });
  return r.done();
};

// The SDK's request timeout (400 ms) on a 1.5 s tool: the client sends notifications/cancelled and aborts its fetch.
S['client-timeout'] = async () => {
  const r = await rig('client-timeout');
  const c = await r.connect();
  await r.call(c, 'slow_report', 'slow_report', { delayMs: 1500 }, { timeout: 400 });
  await sleep(1500); // the server finishes (and drops) the result meanwhile
  await r.call(c, 'lookup_order', 'lookup_order', { orderId: 'E-1' });
  return r.done();
};

// The standalone GET stream: a server log sent with no related request goes there; mitmproxy buffers it (never ends).
S['get-stream'] = async () => {
  const r = await rig('get-stream');
  const c = await r.connect();
  const logs = [];
  c.setNotificationHandler(types.LoggingMessageNotificationSchema, (n) => logs.push(n.params));
  await sleep(300); // the GET stream is open
  await r.call(c, 'announce', 'announce', {});
  await sleep(300);
  r.steps.push({ logsSeen: logs });
  return r.done();
};

// The same in streaming mode: the GET stream passes the log through as it comes.
S['get-stream-streaming'] = async () => {
  const r = await rig('get-stream-streaming', { streaming: true });
  const c = await r.connect();
  const logs = [];
  c.setNotificationHandler(types.LoggingMessageNotificationSchema, (n) => logs.push(n.params));
  await sleep(300);
  await r.call(c, 'announce', 'announce', {});
  await sleep(300);
  r.steps.push({ logsSeen: logs });
  return r.done();
};

// mitmdump is stopped (Ctrl-C) while a call's stream is open; then the clients close.
S['mitm-stopped'] = async () => {
  const r = await rig('mitm-stopped');
  const c = await r.connect();
  await r.call(c, 'lookup_order', 'lookup_order', { orderId: 'F-1' });
  const pending = r.call(c, 'slow_report', 'slow_report', { delayMs: 2000 }, { timeout: 5000 });
  await sleep(400);
  r.steps.push({ event: 'mitmdump stopped (SIGINT) with slow_report open' });
  return r.done({ pending });
};

const only = process.argv.slice(2);
for (const [name, run] of Object.entries(S)) {
  if (only.length && !only.includes(name)) continue;
  const t = Date.now();
  const o = await run();
  process.stderr.write(`${name} (${Date.now() - t} ms): ${JSON.stringify(o.steps).slice(0, 300)}\n`);
}
process.exit(0);
