// Records test/fixtures/real-audit72/ (the seventy-second audit: real mcpsnoop 0.22.0 trace files, stdio shim and HTTP proxy) around SDK 1.32.2 and Python mcp 2.3.0 servers and clients on 127.0.0.1.
// NOT run by `npm test`: CI does not have the mcpsnoop binary. It lives in a scratch folder outside the repository:
//   mkdir -p /work/audit72-scratch && cd /work/audit72-scratch && npm pack @mcpsnoop/linux-x64@0.22.0 \
//     && tar xzf mcpsnoop-linux-x64-0.22.0.tgz        (the static binary: package/bin/mcpsnoop)
// then, from the repository: npm run build && node test/real-audit72/record.mjs [scenario...]   (AUDIT72_SNOOP=path to move it)
// Python scenarios need /work/py-venv (mcp 2.3.0, uvicorn); PYTHON=path to move it.
// HTTP chain (servers: SDK 1.32.2 Express-less node:http, v2 2.4.0 createMcpHandler, Python on uvicorn): the SDK 1.32.2 Client, its fetch mcp-triage's recordingFetch (client.ndjson, the truth of the wire) ->
// `mcpsnoop http --target ... --trace-file snoop.jsonl` (the way its README sets it up) -> an SDK 1.32.2 Streamable HTTP
// server (one McpServer per session). stdio chain: the SDK's StdioClientTransport (or Python's stdio_client) whose
// command is `mcpsnoop --trace-file snoop.jsonl -- node stdio-server.mjs`. observed.json: what the app got or threw,
// which tool bodies ran, what the server or the proxy did on purpose. Ports 9600-9649 on 127.0.0.1 only.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawn, execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const SNOOP = process.env.AUDIT72_SNOOP ?? '/work/audit72-scratch/package/bin/mcpsnoop';
const PY = process.env.PYTHON ?? '/work/py-venv/bin/python';
const HERE = `${R}/test/real-audit72`;
const { listen, sleep, sessionHandler, restartableServer } = await import(`${R}/test/helpers/loopback.mjs`);
const { Client, StreamableHTTPClientTransport, McpServer, StreamableHTTPServerTransport, types, z, text, errOf, short, clean } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { StdioClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js`);
const { recordingFetch } = await import(`${R}/dist/capture/index.js`);

setTimeout(() => { process.stderr.write('still running after 240 s, giving up\n'); process.exit(2); }, 240_000).unref();
let nextPort = 9600;
const port = () => nextPort++;
const TOKEN = 'Bearer sk-audit72-secret-token-0123456789';

/** The orders tools: lookup_order, refund_order (isError), crash (throws), slow_report (progress, steps x ms), cut_stream (the server drops the socket mid-stream). */
function buildServer(ran, cuts) {
  return () => {
    const s = new McpServer({ name: 'audit72-orders', version: '1.0.0' });
    s.registerTool('lookup_order', { description: 'Look up an order', inputSchema: { orderId: z.string(), apiKey: z.string().optional() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => { ran.push(`lookup_order ${orderId}`); return text(`order ${orderId}: shipped`); });
    s.registerTool('refund_order', { description: 'Refund an order', inputSchema: { orderId: z.string() } }, async ({ orderId }) => { ran.push(`refund_order ${orderId}`); return { isError: true, content: [{ type: 'text', text: `order ${orderId} was already refunded` }] }; });
    s.registerTool('crash', { description: 'Always throws', inputSchema: {} }, async () => { ran.push('crash'); throw new Error('database connection refused'); });
    s.registerTool('slow_report', { description: 'A slow report with progress', inputSchema: { steps: z.number(), stepMs: z.number() } }, async ({ steps, stepMs }, extra) => {
      ran.push(`slow_report ${steps}x${stepMs} start`);
      for (let i = 1; i <= steps; i++) {
        await sleep(stepMs);
        if (extra._meta?.progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta.progressToken, progress: i, total: steps } }).catch(() => {});
      }
      ran.push(`slow_report ${steps}x${stepMs} end`);
      return text(`report of ${steps} steps`);
    });
    s.registerTool('cut_stream', { description: 'Export orders (the server drops the connection mid-stream)', inputSchema: { orderId: z.string() } }, async ({ orderId }, extra) => {
      ran.push(`cut_stream ${orderId}`);
      if (extra._meta?.progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta.progressToken, progress: 1, total: 2 } });
      await sleep(200);
      cuts.shift()?.();
      await sleep(300);
      return text(`export of ${orderId} done`);
    });
    return s;
  };
}

/** `mcpsnoop http` in front of `target`, its trace in `trace`; resolves when it accepts connections. */
async function startSnoopHttp(target, trace, extra = []) {
  const p = port();
  // `mcpsnoop http` has no --trace-file: it writes its session log(s) under $XDG_STATE_HOME/mcpsnoop/sessions/, one of our own
  const state = `/tmp/audit72-state/${p}`;
  rmSync(state, { recursive: true, force: true });
  const child = spawn(SNOOP, ['http', '--target', target, '--listen', `127.0.0.1:${p}`, '--label', 'orders', ...extra], { env: { ...process.env, XDG_STATE_HOME: state }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (b) => { log += b; });
  child.stderr.on('data', (b) => { log += b; });
  let up = false;
  for (let i = 0; i < 50 && !up; i++) {
    try { await fetch(`http://127.0.0.1:${p}/health-of-the-proxy`, { method: 'HEAD' }); up = true; } catch { await sleep(100); }
  }
  if (!up) throw new Error(`mcpsnoop http did not start: ${log}`);
  return {
    url: `http://127.0.0.1:${p}`, log: () => log,
    async stop() {
      child.kill('SIGINT');
      await new Promise((r) => { if (child.exitCode !== null) r(); else child.once('exit', r); setTimeout(r, 2000); });
      // every session log it wrote, in name order, into the one trace file of the scenario (one file: `snoop.jsonl`; more: -2, -3...)
      const dir = `${state}/mcpsnoop/sessions`;
      const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort() : [];
      files.forEach((f, i) => copyFileSync(`${dir}/${f}`, i === 0 ? trace : trace.replace(/\.jsonl$/, `-${i + 1}.jsonl`)));
      return files;
    },
  };
}

/** The HTTP rig: an SDK server (sessionful; `json` answers with enableJsonResponse; `auth` demands a bearer token) behind mcpsnoop http, the client's recordingFetch. */
async function httpRig(name, { json = false, auth = false, snoopArgs = [], python = false, v2 = false } = {}) {
  const d = `${R}/test/fixtures/real-audit72/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const ran = [];
  const cuts = [];
  const notes = [];
  const h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer: buildServer(ran, cuts), options: () => (json ? { enableJsonResponse: true } : {}) });
  const sp = port();
  let upDown = true;
  const handler = async (req, res) => {
    if (auth && req.headers.authorization !== TOKEN) {
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="orders"', 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_token', error_description: 'missing or bad bearer token' }));
      return;
    }
    // the cut_stream tool drops the socket of the newest POST (its own: one call at a time in that scenario)
    if (req.method === 'POST') { cuts.length = 0; cuts.push(() => res.socket?.destroy()); }
    await h.handle(req, res);
  };
  let server;
  if (python) {
    // test/real-audit7's Python MCPServer (mcp 2.3.0) on uvicorn, SSE answers; its tools append what ran to a file
    const ranFile = `${d}/ran.tmp`;
    const child = spawn(PY, [`${R}/test/real-audit7/py_server.py`, 'stateful', String(sp), ranFile], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) { try { await fetch(`http://127.0.0.1:${sp}/mcp`, { method: 'HEAD' }); break; } catch { await sleep(100); } }
    server = { async restart() {}, async close() { child.kill('SIGINT'); await sleep(300); if (existsSync(ranFile)) { ran.push(...readFileSync(ranFile, 'utf8').split('\n').filter(Boolean)); rmSync(ranFile); } } };
  } else if (v2) {
    // the v2 2.4.0 server as its README sets it up: createMcpHandler over an McpServer, on node through toNodeHandler
    const { McpServer: McpServerV2, createMcpHandler } = await import('@modelcontextprotocol/server');
    const { toNodeHandler } = await import('@modelcontextprotocol/node');
    const mcp = createMcpHandler(() => {
      const s = new McpServerV2({ name: 'audit72-orders-v2', version: '2.4.0' });
      s.registerTool('lookup_order', { description: 'Look up an order', inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true } }, async ({ orderId }) => { ran.push(`lookup_order ${orderId}`); return text(`order ${orderId}: shipped`); });
      s.registerTool('refund_order', { description: 'Refund an order', inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => { ran.push(`refund_order ${orderId}`); return { isError: true, content: [{ type: 'text', text: `order ${orderId} was already refunded` }] }; });
      s.registerTool('crash', { description: 'Always throws', inputSchema: z.object({}) }, async () => { ran.push('crash'); throw new Error('database connection refused'); });
      return s;
    }, { keepAliveMs: 0 });
    const l = await listen(toNodeHandler(mcp), sp);
    server = { async restart() {}, async close() { await mcp.close().catch(() => {}); await l.close(); } };
  } else server = restartableServer(await listen(handler, sp), h.transports);
  const snoop = await startSnoopHttp(`http://127.0.0.1:${sp}/mcp`, `${d}/snoop.jsonl`, snoopArgs);
  const url = new URL(`${snoop.url}/mcp`);
  const fetchRec = recordingFetch({ out: `${d}/client.ndjson`, client: 'audit72-app@1.0.0' });
  const observed = [{ recorder: 'HEAD /health-of-the-proxy before any client (the readiness check of mcpsnoop http): the server answered it (400, or 401 with auth), a status-only frame with no request frame' }];
  const step = async (label, fn) => {
    try { const r = await fn(); observed.push({ label, ok: short(r) ?? null }); return r; }
    catch (e) { observed.push({ label, error: errOf(e) }); return undefined; }
  };
  const transports = [];
  const clients = [];
  const connect = async (headers = auth ? { authorization: TOKEN } : {}) => {
    const c = new Client({ name: 'audit72-app', version: '1.0.0' });
    c.onerror = (e) => observed.push({ onerror: clean(e?.message ?? e).slice(0, 200) });
    const t = new StreamableHTTPClientTransport(url, { fetch: fetchRec, requestInit: { headers }, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } });
    transports.push(t);
    clients.push(c);
    await c.connect(t);
    return c;
  };
  return {
    d, url, fetch: fetchRec, step, connect, observed, ran, notes,
    /** The Python client (mcp.Client) through the proxy, its own requests recorded by nobody but mcpsnoop. */
    async python() {
      const { stdout } = await promisify(execFile)(PY, [`${HERE}/py_http_client.py`, url.href], { timeout: 60_000 });
      observed.push({ pythonClient: JSON.parse(stdout) });
    },
    async restart() { notes.push('server restarted: every session forgotten'); await server.restart(); },
    async down() { notes.push('server stopped: nothing listens on its port'); upDown = false; await server.close(); },
    async done({ terminate = true } = {}) {
      await sleep(300);
      if (terminate) for (const t of transports) if (t.sessionId) await step('terminate the session (DELETE)', () => t.terminateSession());
      for (const c of clients) await c.close().catch(() => {});
      await sleep(300);
      await snoop.stop();
      if (upDown) await server.close();
      observed.push({ serverRan: ran, ...(notes.length ? { notes } : {}) });
      writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
      if (!existsSync(`${d}/snoop.jsonl`)) writeFileSync(`${d}/snoop.jsonl`, '');
      for (const f of readdirSync(d)) chmodSync(`${d}/${f}`, 0o644);
    },
  };
}

const call = (c, name, args, opts) => () => c.callTool({ name, arguments: args }, undefined, opts);

/** An SSE-less raw POST the app sends itself (with fetchRec), e.g. a notification or a bad request. */
const raw = (r, label, { method = 'POST', body, headers = {}, sessionOf } = {}) => r.step(label, async () => {
  const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers };
  if (sessionOf?.sessionId) h['mcp-session-id'] = sessionOf.sessionId;
  const res = await r.fetch(r.url, { method, headers: h, ...(body ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, body: clean((await res.text()).slice(0, 200)) };
});

const HTTP = {
  /** Healthy calls, a tool error, an unknown tool and invalid params (SDK 1.32.2 answers both as isError results), a tool that throws, progress, a notification (202), the GET SSE stream, DELETE. */
  async 'http-calls'() {
    const r = await httpRig('http-calls');
    const c = await r.connect();
    await r.step('list tools', () => c.listTools().then((x) => x.tools.map((t) => t.name)));
    await r.step('lookup_order A-1', call(c, 'lookup_order', { orderId: 'A-1' }));
    await r.step('refund_order A-2 (isError)', call(c, 'refund_order', { orderId: 'A-2' }));
    await r.step('no_such_tool', call(c, 'no_such_tool', {}));
    await r.step('lookup_order with a number (invalid params)', call(c, 'lookup_order', { orderId: 42 }));
    await r.step('crash (throws)', call(c, 'crash', {}));
    await r.step('slow_report 3x300 with progress', call(c, 'slow_report', { steps: 3, stepMs: 300 }, { onprogress: () => {} }));
    await r.step('ping', () => c.ping());
    await r.done();
  },
  /** The same server with enableJsonResponse: every answer is one application/json body. */
  async 'http-json'() {
    const r = await httpRig('http-json', { json: true });
    const c = await r.connect();
    await r.step('lookup_order A-1', call(c, 'lookup_order', { orderId: 'A-1' }));
    await r.step('refund_order A-2 (isError)', call(c, 'refund_order', { orderId: 'A-2' }));
    await r.step('crash (throws)', call(c, 'crash', {}));
    await r.done();
  },
  /** The client's 1 s timeout on a 2.4 s tool, then the app's retry of the same call with a longer timeout. */
  async 'http-timeout-retry'() {
    const r = await httpRig('http-timeout-retry');
    const c = await r.connect();
    await r.step('slow_report 3x800, client timeout 1 s', call(c, 'slow_report', { steps: 3, stepMs: 800 }, { timeout: 1000 }));
    await r.step('the app retries: slow_report 3x800, timeout 10 s', call(c, 'slow_report', { steps: 3, stepMs: 800 }, { timeout: 10000 }));
    await sleep(1800);
    await r.done();
  },
  /** The server restarts: the old session gets 404; the app reconnects and calls again. */
  async 'http-restart'() {
    const r = await httpRig('http-restart');
    const c = await r.connect();
    await r.step('lookup_order A-1', call(c, 'lookup_order', { orderId: 'A-1' }));
    await r.restart();
    await r.step('lookup_order A-2 (old session)', call(c, 'lookup_order', { orderId: 'A-2' }));
    const c2 = await r.connect();
    await r.step('lookup_order A-2 (new session)', call(c2, 'lookup_order', { orderId: 'A-2' }));
    await r.done();
  },
  /** The server goes down behind the proxy: what mcpsnoop answers, and what it traces. */
  async 'http-server-down'() {
    const r = await httpRig('http-server-down');
    const c = await r.connect();
    await r.step('lookup_order A-1', call(c, 'lookup_order', { orderId: 'A-1' }));
    await r.down();
    await r.step('lookup_order A-2 (server down)', call(c, 'lookup_order', { orderId: 'A-2' }));
    await r.done({ terminate: false });
  },
  /** The server destroys the socket after one progress event. */
  async 'http-sse-cut'() {
    const r = await httpRig('http-sse-cut');
    const c = await r.connect();
    await r.step('cut_stream A-9', call(c, 'cut_stream', { orderId: 'A-9' }, { onprogress: () => {}, timeout: 3000 }));
    await sleep(500);
    await r.done();
  },
  /** A server that demands a bearer token: the app connects without one (401), then with one. */
  async 'http-401'() {
    const r = await httpRig('http-401', { auth: true });
    await r.step('connect without a token', () => r.connect({}));
    const c = await r.connect();
    await r.step('lookup_order A-1', call(c, 'lookup_order', { orderId: 'A-1' }));
    await r.done();
  },
  /** Two client sessions through one proxy into one trace file, their calls interleaved, the same JSON-RPC ids. */
  async 'http-two-sessions'() {
    const r = await httpRig('http-two-sessions');
    const a = await r.connect();
    const b = await r.connect();
    await Promise.all([
      r.step('session A: slow_report 2x300', call(a, 'slow_report', { steps: 2, stepMs: 300 })),
      r.step('session B: refund_order B-1 (isError)', call(b, 'refund_order', { orderId: 'B-1' })),
    ]);
    await r.step('session A: lookup_order A-1', call(a, 'lookup_order', { orderId: 'A-1' }));
    await r.step('session B: crash', call(b, 'crash', {}));
    await r.done();
  },
  /** The Python SDK server (mcp 2.3.0, uvicorn) behind mcpsnoop http: the SDK 1.32.2 client, then the Python client. */
  async 'http-python-server'() {
    const r = await httpRig('http-python-server', { python: true });
    const c = await r.connect();
    await r.step('lookup_order A-1', call(c, 'lookup_order', { orderId: 'A-1' }));
    await r.step('reserve_stock A-3 (the tool raises -32602 once)', call(c, 'reserve_stock', { orderId: 'A-3' }));
    await r.step('no_such_tool', call(c, 'no_such_tool', {}));
    await r.python();
    await r.done();
  },
  /** The v2 2.4.0 server (createMcpHandler) behind mcpsnoop http, the SDK 1.32.2 client. */
  async 'http-v2-server'() {
    const r = await httpRig('http-v2-server', { v2: true });
    const c = await r.connect();
    await r.step('lookup_order A-1', call(c, 'lookup_order', { orderId: 'A-1' }));
    await r.step('refund_order A-2 (isError)', call(c, 'refund_order', { orderId: 'A-2' }));
    await r.step('crash (throws)', call(c, 'crash', {}));
    await r.step('no_such_tool', call(c, 'no_such_tool', {}));
    await r.done();
  },
  /** --redact-secrets: an apiKey argument and the bearer token the app sends. */
  async 'http-redact'() {
    const r = await httpRig('http-redact', { auth: true, snoopArgs: ['--redact-secrets'] });
    const c = await r.connect();
    await r.step('lookup_order A-1 with an apiKey argument', call(c, 'lookup_order', { orderId: 'A-1', apiKey: 'sk-audit72-argument-secret-9876543210' }));
    await r.done();
  },
};

/** The stdio server: SDK 1.32.2 McpServer; logs every call on stderr; `crash_process` exits mid-call; `chatty` prints a non-JSON line on stdout. */
const STDIO_SERVER = `${HERE}/stdio-server.mjs`;

async function stdioRig(name, { server = ['node', STDIO_SERVER], python = false } = {}) {
  const d = `${R}/test/fixtures/real-audit72/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const observed = [];
  const step = async (label, fn) => {
    try { const r = await fn(); observed.push({ label, ok: short(r) ?? null }); return r; }
    catch (e) { observed.push({ label, error: errOf(e) }); return undefined; }
  };
  const args = ['--trace-file', `${d}/snoop.jsonl`, '--label', 'orders-stdio', '--', ...server];
  const env = { ...process.env, XDG_STATE_HOME: '/tmp/audit72-state', RAN_LOG: `${d}/ran.tmp` };
  return {
    d, observed, step,
    async connect() {
      const c = new Client({ name: 'audit72-stdio-app', version: '1.0.0' });
      c.onerror = (e) => observed.push({ onerror: clean(e?.message ?? e).slice(0, 200) });
      c.onclose = () => observed.push({ onclose: true });
      await c.connect(new StdioClientTransport({ command: SNOOP, args, env, stderr: 'ignore' }));
      return c;
    },
    async python(script) {
      const { stdout } = await promisify(execFile)(PY, [script, SNOOP, ...args], { timeout: 60_000, env });
      observed.push(...JSON.parse(stdout));
    },
    async done() {
      await sleep(300);
      const ran = existsSync(`${d}/ran.tmp`) ? readFileSync(`${d}/ran.tmp`, 'utf8').split('\n').filter(Boolean) : [];
      rmSync(`${d}/ran.tmp`, { force: true });
      observed.push({ serverRan: ran });
      writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
      for (const f of readdirSync(d)) chmodSync(`${d}/${f}`, 0o644);
    },
  };
}

const STDIO = {
  /** Healthy calls, a tool error, an unknown tool, a throw, progress; the server logs each call on stderr. */
  async 'stdio-calls'() {
    const r = await stdioRig('stdio-calls');
    const c = await r.connect();
    await r.step('lookup_order A-1', call(c, 'lookup_order', { orderId: 'A-1' }));
    await r.step('refund_order A-2 (isError)', call(c, 'refund_order', { orderId: 'A-2' }));
    await r.step('no_such_tool', call(c, 'no_such_tool', {}));
    await r.step('crash (throws)', call(c, 'crash', {}));
    await r.step('slow_report 2x200 with progress', call(c, 'slow_report', { steps: 2, stepMs: 200 }, { onprogress: () => {} }));
    await r.step('slow_report 3x600, client timeout 1 s', call(c, 'slow_report', { steps: 3, stepMs: 600 }, { timeout: 1000 }));
    await r.step('the app retries: slow_report 3x600', call(c, 'slow_report', { steps: 3, stepMs: 600 }));
    await c.close();
    await r.done();
  },
  /** The server process exits in the middle of a call. */
  async 'stdio-crash'() {
    const r = await stdioRig('stdio-crash');
    const c = await r.connect();
    await r.step('lookup_order A-1', call(c, 'lookup_order', { orderId: 'A-1' }));
    await r.step('crash_process (the server exits mid-call)', call(c, 'crash_process', {}, { timeout: 3000 }));
    await c.close().catch(() => {});
    await r.done();
  },
  /** The server prints a non-JSON line on stdout (a stray console.log) in the middle of a call. */
  async 'stdio-nonjson'() {
    const r = await stdioRig('stdio-nonjson');
    const c = await r.connect();
    await r.step('chatty A-1 (prints a line on stdout, then answers)', call(c, 'chatty', { orderId: 'A-1' }));
    await r.step('lookup_order A-2', call(c, 'lookup_order', { orderId: 'A-2' }));
    await c.close();
    await r.done();
  },
  /** The Python SDK server over stdio, the SDK 1.32.2 client. */
  async 'stdio-python-server'() {
    const r = await stdioRig('stdio-python-server', { server: [PY, `${HERE}/py_stdio_server.py`] });
    const c = await r.connect();
    await r.step('lookup_order A-1', call(c, 'lookup_order', { orderId: 'A-1' }));
    await r.step('refund_order A-2 (isError)', call(c, 'refund_order', { orderId: 'A-2' }));
    await r.step('crash (throws)', call(c, 'crash', {}));
    await r.step('no_such_tool', call(c, 'no_such_tool', {}));
    await c.close();
    await r.done();
  },
  /** The Python client's stdio_client, its command mcpsnoop, the SDK 1.32.2 server. */
  async 'stdio-python-client'() {
    const r = await stdioRig('stdio-python-client');
    await r.python(`${HERE}/py_stdio_client.py`);
    await r.done();
  },
};

const all = { ...HTTP, ...STDIO };
const pick = process.argv.slice(2);
for (const [name, fn] of Object.entries(all)) {
  if (pick.length && !pick.includes(name)) continue;
  process.stderr.write(`recording ${name}\n`);
  await fn();
}
process.exit(0);
