// Bridges audit recorder: real traffic through mcp-remote, supergateway and fastmcp (npm), on 127.0.0.1.
// NOT run by `npm test`: CI does not have these packages. They live in a scratch folder outside the repository:
//   mkdir -p /work/npm-audit && cd /work/npm-audit && npm init -y && npm install mcp-remote@0.15.1 supergateway@4.0.0 fastmcp@4.20.16
// then, from the repository: npm run build && node test/real-bridges/record.mjs [scenario...]   (NPM_AUDIT=dir to move it)
// Writes test/fixtures/real-bridges/<scenario>/{client,server}.ndjson (and stdio.ndjson when a desktop client drives
// mcp-remote over stdio), plus observed.json: what the caller really got back.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { recordingFetch, startRecordingProxy } from '../../dist/capture/index.js';
import { freePort, listen, readBody, restartableServer, sleep } from '../helpers/loopback.mjs';
import { startFaultHop } from '../real-audit2/lib.mjs';
import { buildSdkServer } from './tools.mjs';
import { McpServer as McpServerV2, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { z } from 'zod';

const NPM = process.env.NPM_AUDIT ?? '/work/npm-audit';
const MCP_REMOTE = join(NPM, 'node_modules/mcp-remote/dist/proxy.js');
const SUPERGATEWAY = join(NPM, 'node_modules/supergateway/dist/index.js');
const STDIO_SERVER = fileURLToPath(new URL('./stdio-server.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../fixtures/real-bridges/', import.meta.url));
const { FastMCP, UserError } = await import(pathToFileURL(join(NPM, 'node_modules/fastmcp/dist/FastMCP.js')).href);
const { z: z4 } = await import(pathToFileURL(join(NPM, 'node_modules/zod/index.js')).href);

setTimeout(() => {
  process.stderr.write('still running after 240 s, giving up\n');
  process.exit(2);
}, 240_000).unref();

// ------------------------------------------------------------------ helpers

function summarize(msg) {
  if (!msg) return null;
  if (msg.error) return { error: { code: msg.error.code, message: String(msg.error.message).slice(0, 200) } };
  const r = msg.result;
  if (r?.tools) return { tools: r.tools.map((t) => t.name) };
  if (r?.content) return { text: r.content.map((c) => c.text).join(' ').slice(0, 200), isError: r.isError ?? false };
  if (r?.serverInfo) return { serverInfo: r.serverInfo, protocolVersion: r.protocolVersion };
  return r ?? null;
}

function describeError(err) {
  const out = { name: err?.constructor?.name ?? typeof err, message: String(err?.message ?? err).slice(0, 300) };
  if (err && err.code !== undefined) out.code = err.code;
  return out;
}

/** The SDK 1.32.2 server over Streamable HTTP, stateful; restart() forgets every session, as a restarted process does. */
async function startSdkServer({ eventStore = false } = {}) {
  const transports = new Map();
  const s = await listen(async (req, res) => {
    try {
      const raw = req.method === 'POST' ? (await readBody(req)).toString('utf8') : undefined;
      const body = raw ? JSON.parse(raw) : undefined;
      const sid = req.headers['mcp-session-id'];
      if (typeof sid === 'string') {
        const t = transports.get(sid);
        if (!t) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
          return;
        }
        await t.handleRequest(req, res, body);
        return;
      }
      if (req.method === 'POST' && isInitializeRequest(body)) {
        const t = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => transports.set(id, t),
          ...(eventStore ? { eventStore: new InMemoryEventStore(), retryInterval: 100 } : {}),
        });
        t.onclose = () => t.sessionId && transports.delete(t.sessionId);
        await buildSdkServer().connect(t);
        await t.handleRequest(req, res, body);
        return;
      }
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }));
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  });
  return restartableServer(s, transports);
}

/** A v2 SDK 2.4.0 server (createMcpHandler): 2026-07-28 per request, 2025-11-25 requests served statelessly. */
async function startModernServer() {
  const handler = createMcpHandler(() => {
    const server = new McpServerV2({ name: 'bridges-v2-server', version: '1.0.0' });
    server.registerTool('lookup_order', { inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true } }, async ({ orderId }) => ({ content: [{ type: 'text', text: `order ${orderId}: shipped` }] }));
    server.registerTool('validate_quantity', { inputSchema: z.object({ quantity: z.number() }), annotations: { readOnlyHint: true } }, async ({ quantity }) =>
      quantity > 0 ? { content: [{ type: 'text', text: 'quantity ok' }] } : { content: [{ type: 'text', text: `quantity must be positive, got ${quantity}` }], isError: true },
    );
    return server;
  }, { keepAliveMs: 0 });
  const s = await listen(toNodeHandler(handler));
  return { url: s.url, close: async () => { await handler.close(); await s.close(); } };
}

/** supergateway as its own process, serving stdio-server.mjs. */
async function startSupergateway(mode) {
  const port = await freePort();
  const args = ['--stdio', `${process.execPath} ${STDIO_SERVER}`, '--port', String(port), '--healthEndpoint', '/healthz', '--logLevel', 'info'];
  if (mode === 'sse') args.push('--outputTransport', 'sse');
  else args.push('--outputTransport', 'streamableHttp', ...(mode === 'stateful' ? ['--stateful'] : []));
  const child = spawn(process.execPath, [SUPERGATEWAY, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const log = [];
  for (const s of [child.stdout, child.stderr]) createInterface({ input: s }).on('line', (l) => log.push(l.slice(0, 300)));
  for (let i = 0; i < 80; i++) {
    await sleep(100);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {}
  }
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise((r) => {
        if (child.exitCode !== null) return r();
        child.once('exit', r);
        process.kill(child.pid, 'SIGTERM');
      }),
  };
}

/** A fastmcp 4 server (its own HTTP server, mcp-proxy's startHTTPServer) on a fixed port, so it can be restarted. */
async function startFastmcp({ stateless = false, authenticate, port } = {}) {
  port ??= await freePort();
  const f = new FastMCP({ name: 'bridges-fastmcp', version: '1.0.0', ...(authenticate ? { authenticate } : {}), ping: { enabled: !stateless, intervalMs: 700 } });
  f.addTool({ name: 'lookup_order', parameters: z4.object({ orderId: z4.string() }), annotations: { readOnlyHint: true }, execute: async ({ orderId }) => `order ${orderId}: shipped` });
  f.addTool({
    name: 'refund_order',
    parameters: z4.object({ orderId: z4.string() }),
    execute: async ({ orderId }) => {
      throw new UserError(`order ${orderId} was already refunded`);
    },
  });
  f.addTool({
    name: 'crash',
    execute: async () => {
      throw new Error('database connection refused');
    },
  });
  f.addTool({
    name: 'slow_export',
    timeoutMs: 300,
    annotations: { readOnlyHint: true },
    execute: async () => {
      await sleep(900);
      return 'export done';
    },
  });
  f.addTool({
    name: 'progress_report',
    parameters: z4.object({ steps: z4.number() }),
    annotations: { readOnlyHint: true },
    execute: async ({ steps }, { reportProgress }) => {
      for (let i = 1; i <= steps; i++) {
        await sleep(60);
        await reportProgress({ progress: i, total: steps });
      }
      return `report of ${steps} steps`;
    },
  });
  await f.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1', stateless } });
  return { url: `http://127.0.0.1:${port}`, port, close: () => f.stop() };
}

/**
 * A desktop client driving mcp-remote over stdio: newline-delimited JSON-RPC, as Claude Desktop does. Every message
 * both ways goes to stdio.ndjson (canonical `message` records); server-to-client requests are answered (ping, roots).
 */
class Desktop {
  constructor(url, args, files, observed) {
    this.files = files;
    this.observed = observed;
    this.pending = new Map();
    this.nextId = 0;
    const home = mkdtempSync(join(tmpdir(), 'mcp-remote-'));
    const bin = join(home, 'bin');
    mkdirSync(bin);
    // never a browser: every opener mcp-remote (and the `open` package) might try only writes the URL down
    const opened = join(home, 'opened.txt');
    for (const name of ['xdg-open', 'gio', 'x-www-browser', 'sensible-browser', 'www-browser', 'fake-browser']) {
      writeFileSync(join(bin, name), `#!/bin/sh\necho "$@" >> ${opened}\nexit 0\n`);
      chmodSync(join(bin, name), 0o755);
    }
    this.home = home;
    this.opened = opened;
    this.child = spawn(process.execPath, [MCP_REMOTE, url, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, HOME: home, MCP_REMOTE_CONFIG_DIR: join(home, 'auth'), BROWSER: join(bin, 'fake-browser'), PATH: `${bin}:${process.env.PATH}`, DISPLAY: '' },
    });
    this.bridgeLog = [];
    createInterface({ input: this.child.stderr }).on('line', (l) => {
      if (this.bridgeLog.length < 200 && l.trim()) this.bridgeLog.push(l.slice(0, 240));
    });
    createInterface({ input: this.child.stdout }).on('line', (l) => this.receive(l));
    this.exited = new Promise((r) => this.child.once('exit', (code) => r(code)));
  }

  log(direction, message) {
    appendFileSync(this.files.stdio, JSON.stringify({ v: 1, kind: 'message', ts: new Date().toISOString(), side: 'client', conn: 'desktop-stdio', direction, message }) + '\n');
  }

  write(message) {
    this.log('c2s', message);
    if (!this.child.stdin.destroyed) this.child.stdin.write(JSON.stringify(message) + '\n');
  }

  receive(line) {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      this.observed.notes.push({ stdoutNotJson: line.slice(0, 200) });
      return;
    }
    this.log('s2c', msg);
    if (msg.method && msg.id !== undefined) {
      const result = msg.method === 'ping' ? {} : msg.method === 'roots/list' ? { roots: [{ uri: 'file:///home/user/orders', name: 'orders' }] } : msg.method === 'elicitation/create' ? { action: 'accept', content: { confirm: true } } : undefined;
      this.write(result ? { jsonrpc: '2.0', id: msg.id, result } : { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
      return;
    }
    if (msg.id !== undefined && this.pending.has(msg.id)) {
      this.pending.get(msg.id)(msg);
      this.pending.delete(msg.id);
    }
  }

  /** Send a request; resolve with its response, or null after timeoutMs (then cancel it, as an SDK client does). */
  request(method, params, { timeoutMs = 8000, cancel = true } = {}) {
    const id = this.nextId++;
    this.write({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        if (cancel) this.write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: `timed out after ${timeoutMs} ms` } });
        resolve({ id, timeout: true });
      }, timeoutMs);
      this.pending.set(id, (msg) => {
        clearTimeout(timer);
        resolve({ id, msg });
      });
    });
  }

  async step(label, method, params, opts) {
    const t0 = Date.now();
    const { id, msg, timeout } = await this.request(method, params, opts);
    this.observed.steps.push({ step: label, id, ...(timeout ? { timedOut: true } : { got: summarize(msg) }), ms: Date.now() - t0 });
    return msg;
  }

  async initialize() {
    const r = await this.step('initialize', 'initialize', { protocolVersion: '2025-06-18', capabilities: { roots: { listChanged: true }, elicitation: {} }, clientInfo: { name: 'desktop-app', version: '1.0.0' } }, { timeoutMs: 15000, cancel: false });
    if (r?.result) this.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return r;
  }

  callTool(label, name, args, opts) {
    return this.step(label, 'tools/call', { name, arguments: args ?? {}, ...(opts?.progress ? { _meta: { progressToken: `p-${this.nextId}` } } : {}) }, opts);
  }

  async close() {
    this.child.stdin.end();
    const code = await Promise.race([this.exited, sleep(4000).then(() => 'still running')]);
    if (code === 'still running') {
      process.kill(this.child.pid, 'SIGTERM');
      await this.exited;
    }
    this.observed.bridgeExit = code;
    this.observed.bridgeLog = this.bridgeLog.map((l) => l.replace(/^\[\d+\] /, '')).filter((l) => !/^\s*[{}\]"[]/.test(l) && !/^\s+"/.test(l));
    let opened = '';
    try {
      opened = (await import('node:fs')).readFileSync(this.opened, 'utf8');
    } catch {}
    this.observed.browserOpened = opened.trim() ? opened.trim().split('\n') : [];
    rmSync(this.home, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------ harness

/**
 * One scenario: the server, a recording proxy right in front of it (the server's view, side server), an optional
 * fault hop, and the client's view: a recording proxy the bridge talks to (side client) or recordingFetch in the
 * SDK client.
 */
async function runScenario(name, spec) {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = { client: join(dir, 'client.ndjson'), server: join(dir, 'server.ndjson'), stdio: join(dir, 'stdio.ndjson') };
  const observed = { scenario: name, steps: [], notes: [] };
  const server = await spec.server();
  const serverView = await startRecordingProxy({ listen: '127.0.0.1:0', target: server.url, out: files.server, side: 'server' });
  const hop = spec.fault ? await startFaultHop(serverView.url, spec.fault) : null;
  const clientView = await startRecordingProxy({ listen: '127.0.0.1:0', target: hop ? hop.url : serverView.url, out: files.client, side: 'client' });
  const fetches = [];
  const clients = [];
  const desktops = [];
  const t = {
    observed,
    note: (n) => observed.notes.push(n),
    server,
    /** mcp-remote, started on the client-view proxy's URL + path. */
    desktop(path, args = []) {
      const d = new Desktop(clientView.url + path, args, files, observed);
      desktops.push(d);
      return d;
    },
    /** An SDK 1.32.2 client whose fetch records the client's view (the client-view proxy is not used). */
    async sdkClient({ name: clientName = 'bridges-app', conn, sse = false, path = '/mcp', headers } = {}) {
      const f = recordingFetch({ out: files.client, conn });
      fetches.push(f);
      const c = new Client({ name: clientName, version: '1.0.0' });
      c.onerror = (e) => observed.notes.push({ client: clientName, onerror: describeError(e) });
      const url = new URL(path, hop ? hop.url : serverView.url);
      const opts = { fetch: f, ...(headers ? { requestInit: { headers } } : {}) };
      const transport = sse ? new SSEClientTransport(url, { ...opts, eventSourceInit: { fetch: (u, i) => f(u, { ...i, headers: { ...(i?.headers ?? {}), ...(headers ?? {}) } }) } }) : new StreamableHTTPClientTransport(url, opts);
      clients.push(c);
      await c.connect(transport);
      return c;
    },
    async step(label, fn) {
      const t0 = Date.now();
      try {
        const r = await fn();
        observed.steps.push({ step: label, ok: true, got: summarize({ result: r }), ms: Date.now() - t0 });
        return r;
      } catch (err) {
        observed.steps.push({ step: label, ok: false, error: describeError(err), ms: Date.now() - t0 });
        return undefined;
      }
    },
  };
  try {
    await spec.run(t);
  } catch (err) {
    observed.crash = describeError(err);
  } finally {
    await sleep(300);
    for (const d of desktops) await d.close();
    for (const c of clients) await c.close().catch(() => {});
    await sleep(200);
    await clientView.close();
    if (hop) await hop.close();
    await serverView.close();
    await t.server.close();
    for (const f of fetches) await f.close?.();
  }
  if (hop) observed.hop = hop.log;
  if (server.log) observed.serverLog = server.log.slice(0, 60);
  for (const f of Object.values(files)) if (f !== files.stdio) appendFileSync(f, '');
  writeFileSync(join(dir, 'observed.json'), JSON.stringify(observed, null, 2) + '\n');
  process.stderr.write(`recorded ${name}\n`);
}

const isCall = (i, tool) => i.rpcMethod === 'tools/call' && (tool === undefined || i.tool === tool);

// ------------------------------------------------------------------ scenarios

const scenarios = {
  // ---- mcp-remote 0.15.1, driven over stdio by a desktop client, against the SDK 1.32.2 server
  'remote-basic': {
    server: () => startSdkServer(),
    async run(t) {
      const d = t.desktop('/mcp');
      await d.initialize();
      await d.step('tools/list', 'tools/list');
      await d.callTool('lookup_order 1001', 'lookup_order', { orderId: '1001' });
      await d.callTool('validate_quantity -3 (isError)', 'validate_quantity', { quantity: -3 });
      await d.callTool('crash (throws)', 'crash', {});
      await d.callTool('no_such_tool', 'no_such_tool', {});
      await d.step('ping', 'ping');
    },
  },

  'remote-session-restart': {
    server: () => startSdkServer(),
    async run(t) {
      const d = t.desktop('/mcp');
      await d.initialize();
      await d.step('tools/list', 'tools/list');
      await d.callTool('lookup_order 1001', 'lookup_order', { orderId: '1001' });
      await t.server.restart();
      t.note('server restarted: every session forgotten');
      await sleep(300);
      await d.callTool('send_invoice 1001 (old session: 404)', 'send_invoice', { orderId: '1001' });
      await d.callTool('lookup_order 1002', 'lookup_order', { orderId: '1002' });
    },
  },

  'remote-server-requests': {
    // the tool asks the desktop (elicitation/create, then roots/list) through the bridge, on the call's stream
    server: () => startSdkServer(),
    async run(t) {
      const d = t.desktop('/mcp');
      await d.initialize();
      await d.callTool('confirm_refund 1001 (elicitation, then roots/list)', 'confirm_refund', { orderId: '1001' });
      await d.callTool('lookup_order 1001 after', 'lookup_order', { orderId: '1001' });
    },
  },

  'remote-503-app-retry': {
    server: () => startSdkServer(),
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'upstream unavailable' } : undefined),
    async run(t) {
      const d = t.desktop('/mcp');
      await d.initialize();
      await d.step('tools/list', 'tools/list');
      await d.callTool('send_invoice 1001 (503 from the hop)', 'send_invoice', { orderId: '1001' });
      await sleep(1200);
      await d.callTool('send_invoice 1001 again (the desktop app retries, new id)', 'send_invoice', { orderId: '1001' });
    },
  },

  'remote-429-retry-after': {
    server: () => startSdkServer(),
    fault: (i) => (isCall(i, 'lookup_order') && i.n <= 2 ? { respond: 429, headers: { 'content-type': 'application/json', 'retry-after': '2' }, body: JSON.stringify({ error: 'rate_limited' }) } : undefined),
    async run(t) {
      const d = t.desktop('/mcp');
      await d.initialize();
      await d.callTool('lookup_order 1001 (429, Retry-After: 2)', 'lookup_order', { orderId: '1001' });
      await sleep(300);
      await d.callTool('lookup_order 1001 again after 0.3 s (429 again)', 'lookup_order', { orderId: '1001' });
      await sleep(2100);
      await d.callTool('lookup_order 1001 after 2.1 s', 'lookup_order', { orderId: '1001' });
    },
  },

  'remote-sse-cut': {
    server: () => startSdkServer(),
    fault: (i) => (isCall(i, 'slow_report') ? { cutAfterEvents: 2 } : undefined),
    async run(t) {
      const d = t.desktop('/mcp');
      await d.initialize();
      await d.callTool('slow_report 6x100 with progress (stream cut after 2 events), desktop timeout 2 s', 'slow_report', { steps: 6, stepMs: 100 }, { progress: true, timeoutMs: 2000 });
      await d.callTool('lookup_order 1001 after', 'lookup_order', { orderId: '1001' });
    },
  },

  'remote-sse-cut-resumed': {
    server: () => startSdkServer({ eventStore: true }),
    fault: (i) => (isCall(i, 'slow_report') ? { cutAfterEvents: 3 } : undefined),
    async run(t) {
      const d = t.desktop('/mcp');
      await d.initialize();
      await d.callTool('slow_report 6x100 with progress (stream cut after priming + 2 events; event store on)', 'slow_report', { steps: 6, stepMs: 100 }, { progress: true, timeoutMs: 5000 });
      await d.callTool('lookup_order 1001 after', 'lookup_order', { orderId: '1001' });
    },
  },

  'remote-timeout-cancel': {
    server: () => startSdkServer(),
    async run(t) {
      const d = t.desktop('/mcp');
      await d.initialize();
      await d.callTool('slow_report 10x100, desktop gives up after 400 ms and cancels', 'slow_report', { steps: 10, stepMs: 100 }, { timeoutMs: 400 });
      await sleep(1200);
      await d.callTool('lookup_order 1001 after', 'lookup_order', { orderId: '1001' });
    },
  },

  'remote-result-lost': {
    server: () => startSdkServer(),
    fault: (i) => (isCall(i, 'slow_report') ? { dropResponse: true } : undefined),
    async run(t) {
      const d = t.desktop('/mcp');
      await d.initialize();
      await d.callTool('slow_report 3x100: the server answers, the hop drops the answer and closes the bridge\'s connection; desktop timeout 3 s', 'slow_report', { steps: 3, stepMs: 100 }, { progress: true, timeoutMs: 3000 });
      await d.callTool('lookup_order 1001 after', 'lookup_order', { orderId: '1001' });
    },
  },

  'remote-fastmcp-restart': {
    server: async () => {
      let f = await startFastmcp();
      return {
        url: f.url,
        async restart() {
          await f.close();
          f = await startFastmcp({ port: f.port });
        },
        close: () => f.close(),
      };
    },
    async run(t) {
      const d = t.desktop('/mcp');
      await d.initialize();
      await d.step('tools/list', 'tools/list');
      await d.callTool('lookup_order 1001', 'lookup_order', { orderId: '1001' });
      await t.server.restart();
      t.note('fastmcp stopped and started again on the same port: every session forgotten');
      await sleep(300);
      await d.callTool('lookup_order 1002 (old session: 404)', 'lookup_order', { orderId: '1002' });
      await d.callTool('refund_order 1001 (UserError)', 'refund_order', { orderId: '1001' });
    },
  },

  'remote-auto-fastmcp': {
    // --protocol auto: mcp-remote probes server/discover; fastmcp (mcp-proxy) speaks 2026-07-28, so the bridge answers
    // the desktop's initialize itself and carries every request over the sessionless protocol
    server: () => startFastmcp(),
    async run(t) {
      const d = t.desktop('/mcp', ['--protocol', 'auto']);
      await d.initialize();
      await d.step('tools/list', 'tools/list');
      await d.callTool('lookup_order 1001', 'lookup_order', { orderId: '1001' });
      await d.callTool('refund_order 1001 (UserError)', 'refund_order', { orderId: '1001' });
      await d.callTool('no_such_tool', 'no_such_tool', {});
      await d.callTool('progress_report 3 with progress', 'progress_report', { steps: 3 }, { progress: true });
    },
  },

  'remote-auto-modern': {
    // --protocol auto against a 2026-07-28 server: the bridge answers the desktop's initialize itself and carries every
    // request over the sessionless protocol
    server: () => startModernServer(),
    async run(t) {
      const d = t.desktop('/mcp', ['--protocol', 'auto']);
      await d.initialize();
      await d.step('tools/list', 'tools/list');
      await d.callTool('lookup_order 1001', 'lookup_order', { orderId: '1001' });
      await d.callTool('validate_quantity -3 (isError)', 'validate_quantity', { quantity: -3 });
      await d.callTool('no_such_tool', 'no_such_tool', {});
    },
  },

  'remote-fallback-sse': {
    server: () => startSupergateway('sse'),
    async run(t) {
      const d = t.desktop('/sse');
      await d.initialize();
      await d.step('tools/list', 'tools/list');
      await d.callTool('lookup_order 1001', 'lookup_order', { orderId: '1001' });
      await d.callTool('validate_quantity -3 (isError)', 'validate_quantity', { quantity: -3 });
    },
  },

  'remote-gateway-stateless': {
    server: () => startSupergateway('stateless'),
    async run(t) {
      const d = t.desktop('/mcp');
      await d.initialize();
      await d.step('tools/list', 'tools/list');
      await d.callTool('lookup_order 1001', 'lookup_order', { orderId: '1001' });
      await d.callTool('no_such_tool', 'no_such_tool', {});
    },
  },

  'remote-oauth-discovery-fails': {
    // every MCP request is refused with 401 and a challenge whose resource metadata does not exist; nothing else exists
    server: async () => {
      const s = await listen(async (req, res) => {
        await readBody(req);
        const path = req.url.split('?')[0];
        if (path.startsWith('/mcp')) {
          res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': `Bearer realm="mcp", resource_metadata="http://${req.headers.host}/.well-known/oauth-protected-resource/mcp"` });
          res.end(JSON.stringify({ error: 'invalid_token', error_description: 'no bearer token' }));
          return;
        }
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      });
      return s;
    },
    async run(t) {
      const d = t.desktop('/mcp', ['--auth-timeout', '3']);
      await d.initialize();
    },
  },

  // ---- supergateway 4.0.0 in front of the stdio server, the SDK 1.32.2 client
  'gateway-stateful': {
    server: () => startSupergateway('stateful'),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('validate_quantity -3 (isError)', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }));
      await t.step('no_such_tool', () => c.callTool({ name: 'no_such_tool', arguments: {} }));
      const seen = { a: [], b: [] };
      await Promise.all([
        t.step('slow_report A 4x150 with progress', () => c.callTool({ name: 'slow_report', arguments: { steps: 4, stepMs: 150 } }, undefined, { onprogress: (p) => seen.a.push(p.progress) })),
        sleep(50).then(() => t.step('slow_report B 3x100 with progress (sent while A runs)', () => c.callTool({ name: 'slow_report', arguments: { steps: 3, stepMs: 100 } }, undefined, { onprogress: (p) => seen.b.push(p.progress) }))),
      ]);
      t.note({ progressSeen: seen });
    },
  },

  'gateway-stateless': {
    server: () => startSupergateway('stateless'),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('slow_report 3x80 with progress', () => c.callTool({ name: 'slow_report', arguments: { steps: 3, stepMs: 80 } }, undefined, { onprogress: () => {} }));
      await t.step('crash (throws)', () => c.callTool({ name: 'crash', arguments: {} }));
    },
  },

  'gateway-sse-two-clients': {
    server: () => startSupergateway('sse'),
    async run(t) {
      const a = await t.sdkClient({ name: 'agent-alpha', conn: 'alpha', sse: true, path: '/sse' });
      const b = await t.sdkClient({ name: 'agent-beta', conn: 'beta', sse: true, path: '/sse' });
      await t.step('alpha tools/list', () => a.listTools());
      await t.step('alpha lookup_order 1001', () => a.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('beta validate_quantity -3 (isError)', () => b.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }));
      await sleep(200);
    },
  },

  // ---- fastmcp 4.20 (its HTTP server is mcp-proxy 6.7), the SDK 1.32.2 client
  'fastmcp-stateful': {
    server: () => startFastmcp(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('refund_order 1001 (UserError)', () => c.callTool({ name: 'refund_order', arguments: { orderId: '1001' } }));
      await t.step('crash (throws Error)', () => c.callTool({ name: 'crash', arguments: {} }));
      await t.step('no_such_tool', () => c.callTool({ name: 'no_such_tool', arguments: {} }));
      await t.step('lookup_order with a number (invalid params)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: 1001 } }));
      await t.step('slow_export (tool timeoutMs 300)', () => c.callTool({ name: 'slow_export', arguments: {} }));
      await t.step('progress_report 4 with progress', () => c.callTool({ name: 'progress_report', arguments: { steps: 4 } }, undefined, { onprogress: () => {} }));
      await sleep(900); // fastmcp pings the client every 700 ms
    },
  },

  'fastmcp-stateless': {
    server: () => startFastmcp({ stateless: true }),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('refund_order 1001 (UserError)', () => c.callTool({ name: 'refund_order', arguments: { orderId: '1001' } }));
      await t.step('no_such_tool', () => c.callTool({ name: 'no_such_tool', arguments: {} }));
    },
  },

  'fastmcp-auth-401': {
    server: () => startFastmcp({ authenticate: async (req) => (req.headers['x-api-key'] === 'key-123' ? { user: 'alice' } : { authenticated: false, error: 'Unauthorized: missing or wrong API key' }) }),
    async run(t) {
      await t.step('connect without the API key', () => t.sdkClient({ name: 'bridges-app', conn: 'app-1' }));
      const c = await t.sdkClient({ name: 'bridges-app', conn: 'app-2', headers: { 'x-api-key': 'key-123' } });
      await t.step('lookup_order 1001 (with the key)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },
};

const wanted = process.argv.slice(2);
for (const [name, spec] of Object.entries(scenarios)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await runScenario(name, spec);
}
process.exit(0);
