// Records test/fixtures/real-tshark/<scenario>/: the official SDK 1.32.2 client and a low-level SDK Server talking plain HTTP on 127.0.0.1, the wire captured by a REAL tshark and exported with its own -T ek and -T json.
//   SDK Client --> [fault hop] --> node:http --> SDK Server (one StreamableHTTPServerTransport per session)
//   tshark -i lo -f "tcp port <the port the client talks to>" -w capture.pcapng
// Per scenario: capture.pcapng (what tshark wrote), capture.ek.ndjson (`tshark -r capture.pcapng -T ek`); for normal
// and session-lost, capture.json (`tshark -r capture.pcapng -T json`), and for session-lost capture.nodup.json (the
// same with --no-duplicate-keys); what each SDK caller got, in observed.json.
// The legs-* scenarios put the fault hop in front of the server and capture BOTH its legs in one capture
// (`-f "tcp port HOP or tcp port SERVER"`), exported split per leg: client-leg.ek.ndjson (`-Y tcp.port==HOP -T ek`,
// the client's view) and server-leg.ek.ndjson (`-Y tcp.port==SERVER -T ek`, the server's); legs-normal keeps the
// unsplit export (capture.ek.ndjson) too. The ports are in observed.json.
//
// Needs what the project does not install: tshark (Debian bookworm: `apt-get install tshark`, 4.0.x) and root (or
// the wireshark group) to capture on lo. Tests read only the committed fixtures.
// Usage: npm run fixtures:tshark (or npm run build && node test/real-tshark/record.mjs [scenario...]); about 45 s.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { createGzip, gzipSync, constants as zlibConstants } from 'node:zlib';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { listen, sleep, readJsonBody, sessionHandler, startFaultHop, recordStep, recordScenarios, stopAfter } = await import(`${R}/test/helpers/loopback.mjs`);
const { Server } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.js`);
const { StreamableHTTPServerTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js`);
const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
const types = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js`);

const FIXTURES = `${R}/test/fixtures/real-tshark`;
let TSHARK_VERSION;
try {
  TSHARK_VERSION = execFileSync('tshark', ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().split('\n')[0].trim();
} catch {
  process.stderr.write('record.mjs needs tshark (apt-get install tshark) and the right to capture on lo (root)\n');
  process.exit(2);
}
stopAfter(180_000);

const text = (t) => ({ content: [{ type: 'text', text: t }] });
/** The socket of the POST being served last: the tool `cut_stream` ends it mid-stream. */
let lastPostSocket;

/** A low-level SDK Server: a result, an isError result, a JSON-RPC error, progress, a stream the server cuts, a slow tool. */
function buildServer() {
  const s = new Server({ name: 'tshark-fixture-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  const tools = ['lookup_order', 'validate_quantity', 'charge_card', 'build_report', 'cut_stream', 'slow_report'].map((name) => ({ name, inputSchema: { type: 'object' } }));
  tools.push({ name: 'delete_order', inputSchema: { type: 'object' }, annotations: { destructiveHint: true, readOnlyHint: false } });
  s.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools }));
  s.setRequestHandler(types.CallToolRequestSchema, async (req, extra) => {
    const { name, arguments: args = {} } = req.params;
    if (name === 'lookup_order') return text(`order ${args.orderId}: shipped`);
    if (name === 'delete_order') return text(`order ${args.orderId} deleted`);
    if (name === 'validate_quantity') return args.quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${args.quantity}`), isError: true };
    if (name === 'charge_card') throw new types.McpError(types.ErrorCode.InvalidParams, `card ${args.card} is not a valid card number`);
    if (name === 'slow_report') {
      await sleep(args.delayMs ?? 1500);
      return text('slow report ready');
    }
    const token = req.params._meta?.progressToken;
    if (name === 'build_report' || name === 'cut_stream') {
      for (let i = 1; i <= 3; i++) {
        if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: 3 } });
        await sleep(60);
        if (name === 'cut_stream' && i === 2) {
          // The server process dies mid-stream: FIN (destroy) or RST (resetAndDestroy), no last chunk.
          if (args.how === 'rst') lastPostSocket.resetAndDestroy();
          else lastPostSocket.destroy();
          await sleep(5000);
        }
      }
      return text('report ready: 3 sections');
    }
    throw new types.McpError(types.ErrorCode.InvalidParams, `Tool ${name} not found`);
  });
  return s;
}

/** tshark capturing on lo, filtered to the given port(s) (both legs of the hop: one capture); resolves once it says it captures. stop() ends it with SIGINT. */
async function startTshark(ports, out) {
  const filter = [ports].flat().map((p) => `tcp port ${p}`).join(' or ');
  const child = spawn('tshark', ['-i', 'lo', '-f', filter, '-w', out], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  await new Promise((res, rej) => {
    child.stderr.on('data', (c) => {
      err += c.toString();
      if (/Capturing on/.test(err)) res();
    });
    child.once('exit', (code) => rej(new Error(`tshark exited ${code}: ${err}`)));
  });
  await sleep(300);
  return { stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGINT'); }) };
}

/** `tshark -r PCAP [-Y FILTER] -T ek` written to `out`. */
const exportEk = (pcap, out, filter) => writeFileSync(out, execFileSync('tshark', ['-r', pcap, ...(filter ? ['-Y', filter] : []), '-T', 'ek'], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] }));

// `legs`: the hop is always there (forwarding unless `fault` says otherwise) and ONE capture covers both its legs,
// client->hop and hop->server; it is exported split per leg by a display filter on each port (client-leg.ek.ndjson,
// server-leg.ek.ndjson), and unsplit too when `legs` is 'unsplit' (capture.ek.ndjson).
async function rig(name, { fault, jsonResponse = false, json = [], legs } = {}) {
  const d = `${FIXTURES}/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer, options: () => (jsonResponse ? { enableJsonResponse: true } : {}) });
  const server = await listen((req, res) => {
    if (req.method === 'POST') lastPostSocket = req.socket;
    return h.handle(req, res);
  });
  const hop = fault || legs ? await startFaultHop(server.url, fault) : undefined;
  const front = hop ?? server;
  const tshark = await startTshark(legs ? [front.port, server.port] : front.port, `${d}/capture.pcapng`);
  const steps = [];
  const clients = [];
  const t0 = Date.now();
  const connect = async () => {
    const c = new Client({ name: 'tshark-app', version: '1.0.0' });
    c.onerror = (e) => steps.push({ onerror: String(e?.message ?? e).slice(0, 200), ms: Date.now() - t0 });
    const t = new StreamableHTTPClientTransport(new URL(`${front.url}/mcp`), { reconnectionOptions: { initialReconnectionDelay: 200, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 0 } });
    await c.connect(t);
    clients.push({ c, t });
    return c;
  };
  const call = (c, label, name, args, opts) => recordStep(steps, label, () => c.callTool({ name, arguments: args }, undefined, opts));
  return {
    h, steps, connect, call,
    async done() {
      for (const { c, t } of clients) {
        await t.terminateSession().catch(() => {}); // DELETE
        await c.close().catch(() => {});
      }
      await sleep(300);
      await tshark.stop();
      await hop?.close();
      await server.close();
      if (legs) {
        exportEk(`${d}/capture.pcapng`, `${d}/client-leg.ek.ndjson`, `tcp.port==${front.port}`);
        exportEk(`${d}/capture.pcapng`, `${d}/server-leg.ek.ndjson`, `tcp.port==${server.port}`);
      }
      if (!legs || legs === 'unsplit') exportEk(`${d}/capture.pcapng`, `${d}/capture.ek.ndjson`);
      for (const variant of json) {
        const [file, extra] = variant === 'nodup' ? ['capture.nodup.json', ['--no-duplicate-keys']] : ['capture.json', []];
        writeFileSync(`${d}/${file}`, execFileSync('tshark', ['-r', `${d}/capture.pcapng`, '-T', 'json', ...extra], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] }));
      }
      return { tshark: TSHARK_VERSION, ...(legs ? { ports: { hop: front.port, server: server.port } } : {}), steps };
    },
  };
}

const S = {};

S['normal'] = async () => {
  const r = await rig('normal', { json: ['plain'] });
  const c = await r.connect();
  await recordStep(r.steps, 'tools/list', () => c.listTools());
  await r.call(c, 'lookup_order', 'lookup_order', { orderId: 'A-1' });
  return r.done();
};

S['tool-error'] = async () => {
  const r = await rig('tool-error');
  const c = await r.connect();
  await r.call(c, 'validate_quantity', 'validate_quantity', { quantity: -1 });
  return r.done();
};

S['jsonrpc-error'] = async () => {
  const r = await rig('jsonrpc-error');
  const c = await r.connect();
  await r.call(c, 'charge_card', 'charge_card', { card: '0000' });
  return r.done();
};

S['json-response'] = async () => {
  const r = await rig('json-response', { jsonResponse: true });
  const c = await r.connect();
  await r.call(c, 'lookup_order', 'lookup_order', { orderId: 'J-1' });
  await r.call(c, 'validate_quantity', 'validate_quantity', { quantity: -5 });
  await r.call(c, 'charge_card', 'charge_card', { card: '1234' });
  return r.done();
};

S['progress'] = async () => {
  const r = await rig('progress');
  const c = await r.connect();
  const progress = [];
  await r.call(c, 'build_report', 'build_report', {}, { onprogress: (p) => progress.push({ progress: p.progress, total: p.total }) });
  r.steps.push({ progressSeen: progress });
  return r.done();
};

for (const how of ['fin', 'rst']) {
  S[`cut-${how}`] = async () => {
    const r = await rig(`cut-${how}`);
    const c = await r.connect();
    const progress = [];
    await r.call(c, 'cut_stream', 'cut_stream', { how }, { onprogress: (p) => progress.push({ progress: p.progress, total: p.total }), timeout: 3000 });
    r.steps.push({ progressSeen: progress });
    return r.done();
  };
}

// The SDK's request timeout (400 ms) on a 1.5 s tool: the client aborts its fetch (its socket closes) and sends
// notifications/cancelled; then the next call succeeds.
S['client-timeout'] = async () => {
  const r = await rig('client-timeout');
  const c = await r.connect();
  await r.call(c, 'slow_report', 'slow_report', { delayMs: 1500 }, { timeout: 400 });
  await sleep(1500); // the server finishes (and drops) the result meanwhile
  await r.call(c, 'lookup_order', 'lookup_order', { orderId: 'E-1' });
  return r.done();
};

/** The server forgets its sessions (a restart) after one call: the next call gets 404, the app connects again and repeats it. */
async function sessionLost(name, rigOptions) {
  const r = await rig(name, rigOptions);
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
}

S['session-lost'] = () => sessionLost('session-lost', { json: ['plain', 'nodup'] });

/** The hop answers the first tools/call with a bare 503 (never forwarded); the app repeats the call. */
async function hop503(name, rigOptions) {
  const r = await rig(name, { ...rigOptions, fault: ({ rpcMethod, n }) => (rpcMethod === 'tools/call' && n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream overloaded' } : undefined) });
  const c = await r.connect();
  const first = await r.call(c, 'lookup_order #1', 'lookup_order', { orderId: 'C-1' });
  if (!first.ok) await r.call(c, 'lookup_order #2', 'lookup_order', { orderId: 'C-1' });
  return r.done();
}

S['hop-503'] = () => hop503('hop-503');

// Two legs in one capture: client -> hop (the client's view) and hop -> server (the server's view), split per port.
S['legs-normal'] = async () => {
  const r = await rig('legs-normal', { legs: 'unsplit' });
  const c = await r.connect();
  await recordStep(r.steps, 'tools/list', () => c.listTools());
  await r.call(c, 'lookup_order', 'lookup_order', { orderId: 'L-1' });
  return r.done();
};

S['legs-hop-503'] = () => hop503('legs-hop-503', { legs: true });

/**
 * The hop fails the first tools/call of the destructive delete_order by `action` (`cut`: the server's SSE head is
 * forwarded, the body ended 60 ms later, after the server sent its result, which never passes; `destroy`: the client's
 * socket destroyed before anything is forwarded); the app waits up to 1 s, then repeats the call.
 */
async function hopFailsThenRetry(name, action) {
  const r = await rig(name, { legs: true, fault: ({ rpcMethod, n }) => (rpcMethod === 'tools/call' && n === 1 ? { [action]: true } : undefined) });
  const c = await r.connect();
  await recordStep(r.steps, 'tools/list', () => c.listTools());
  const first = await r.call(c, 'delete_order #1', 'delete_order', { orderId: 'D-1' }, { timeout: 1000 });
  if (!first.ok) await r.call(c, 'delete_order #2', 'delete_order', { orderId: 'D-1' });
  return r.done();
}

S['legs-hop-cut'] = () => hopFailsThenRetry('legs-hop-cut', 'cut');
S['legs-hop-destroy'] = () => hopFailsThenRetry('legs-hop-destroy', 'destroy');
S['legs-session-lost'] = () => sessionLost('legs-session-lost', { legs: true });

// Shapes the SDK does not make, from a bare node:http server: a gzipped JSON answer, a gzipped SSE stream (one event,
// then the result 50 ms later), and two POSTs pipelined in one TCP segment on a raw socket.
S['wire-shapes'] = async () => {
  const d = `${FIXTURES}/wire-shapes`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const server = await listen(async (req, res) => {
    const { body } = await readJsonBody(req);
    const id = body?.id ?? null;
    if (req.url === '/gzip-json') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ jsonrpc: '2.0', id, result: text('gzipped json') })));
    } else if (req.url === '/gzip-sse') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const gz = createGzip({ flush: zlibConstants.Z_SYNC_FLUSH }); // each event passes at once
      gz.pipe(res);
      gz.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 1 } })}\n\n`);
      setTimeout(() => gz.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: text('gzipped sse') })}\n\n`), 50);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: text(`answer ${id}`) }));
    }
  });
  const tshark = await startTshark(server.port, `${d}/capture.pcapng`);
  const steps = [];
  const call = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: `W-${id}` }, _meta: { progressToken: id } } });
  for (const [id, path] of [[1, '/gzip-json'], [2, '/gzip-sse']]) {
    const r = await fetch(`${server.url}${path}`, { method: 'POST', body: call(id), headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } });
    steps.push({ step: path, status: r.status, contentType: r.headers.get('content-type'), body: await r.text() });
  }
  const post = (id) => `POST /mcp HTTP/1.1\r\nhost: ${server.url.slice(7)}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(call(id))}\r\n\r\n${call(id)}`;
  const sock = netConnect(server.port, '127.0.0.1');
  await new Promise((r) => sock.once('connect', r));
  let got = '';
  sock.on('data', (c) => (got += c.toString()));
  sock.write(post(3) + post(4)); // one write: both requests in one segment
  await sleep(300);
  sock.end();
  await sleep(200);
  steps.push({ step: 'pipelined 3 and 4', responses: (got.match(/HTTP\/1\.1 \d+/g) ?? []).length, ids: [...got.matchAll(/"id":(\d+)/g)].map((m) => Number(m[1])) });
  await sleep(300);
  await tshark.stop();
  await server.close();
  writeFileSync(`${d}/capture.ek.ndjson`, execFileSync('tshark', ['-r', `${d}/capture.pcapng`, '-T', 'ek'], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] }));
  return { tshark: TSHARK_VERSION, steps };
};

await recordScenarios(S, (name, run) => run(), { fixtures: FIXTURES, observed: `${FIXTURES}/observed.json` });
process.exit(0);
