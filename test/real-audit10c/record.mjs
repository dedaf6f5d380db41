// Records test/fixtures/real-audit10c/ (the tenth audit, part C: beyond tools/call with the Python server and the v2 packages) on 127.0.0.1:
// the Python SDK 2.3.0 MCPServer (test/real-audit10c/py_server.py) with the TypeScript SDK 1.32.2 client (py-*), and the v2 client and
// McpServer 2.4.0, protocol 2026-07-28 (v2-*). Usage: npm run build && node test/real-audit10c/record.mjs [scenario...]
// Python: client.ndjson (recordingFetch) -> capture.har.ndjson (HAR-lines proxy) -> proxy.ndjson (the record proxy, the server's view) -> uvicorn.
// v2: client.ndjson -> capture.har.ndjson -> proxy.ndjson -> server.ndjson (recordingHandler around createMcpHandler).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { recordingFetch, recordingHandler } = await import(`${R}/dist/capture/index.js`);
const { freePort, listen, sleep, startHarProxy, startRecordProxy, stopAfter } = await import(`${R}/test/helpers/loopback.mjs`);
const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
const types = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js`);
const V2S = await import('@modelcontextprotocol/server');
const V2C = await import('@modelcontextprotocol/client');
const { toNodeHandler } = await import('@modelcontextprotocol/node');
const { z } = await import('zod');

const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
const PY_SERVER = `${R}/test/real-audit10c/py_server.py`;
const reconnectionOptions = { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 };
function dir(name) { const d = `${R}/test/fixtures/real-audit10c/${name}`; mkdirSync(d, { recursive: true }); for (const f of ['client.ndjson', 'server.ndjson', 'proxy.ndjson', 'capture.har.ndjson']) rmSync(`${d}/${f}`, { force: true }); return d; }
const err = (e) => `${e?.constructor?.name} ${e?.code ?? ''} ${String(e?.message).slice(0, 200)}`;
const text = (t) => ({ content: [{ type: 'text', text: t }] });

function observer() {
  const observed = [];
  const step = async (label, fn) => {
    try { const r = await fn(); observed.push({ label, ok: r ?? {} }); return r; }
    catch (e) { observed.push({ label, error: err(e) }); return e; }
  };
  return { observed, step };
}

async function startPyServer() {
  const port = await freePort();
  const ranFile = join(mkdtempSync(join(tmpdir(), 'audit10c-')), 'ran.txt');
  writeFileSync(ranFile, '');
  const proc = spawn(PYTHON, [PY_SERVER, String(port), ranFile], { stdio: ['ignore', 'inherit', 'inherit'] });
  for (let i = 0; i < 100; i++) { await sleep(100); try { await fetch(`http://127.0.0.1:${port}/healthz`); break; } catch {} }
  return { url: `http://127.0.0.1:${port}`, ran: () => readFileSync(ranFile, 'utf8').split('\n').filter(Boolean),
    stop: () => new Promise((r) => { if (proc.exitCode !== null) return r(); proc.once('exit', r); proc.kill('SIGTERM'); }) };
}

/** The Python server behind the record proxy and the HAR proxy; the SDK 1.32.2 client with recordingFetch. */
async function pyRig(name, run) {
  const d = dir(name);
  const py = await startPyServer();
  const rp = await startRecordProxy(py.url, `${d}/proxy.ndjson`);
  const har = await startHarProxy(rp.url, `${d}/capture.har.ndjson`);
  const rf = recordingFetch({ out: `${d}/client.ndjson` });
  const { observed, step } = observer();
  const clients = [];
  const connect = async (clientName, capabilities = {}) => {
    const c = new Client({ name: clientName, version: '1.0.0' }, { capabilities });
    c.onerror = (e) => observed.push({ onerror: String(e?.message ?? e) });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${har.url}/mcp`), { fetch: rf, reconnectionOptions }));
    clients.push(c);
    return c;
  };
  try { await run({ connect, step, observed }); } catch (e) { observed.push({ crash: err(e) }); }
  for (const c of clients) await c.close().catch(() => {});
  await sleep(200);
  observed.push({ serverRan: py.ran() });
  await har.close(); await rp.stop(); await py.stop(); rf.close?.();
  writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
}

/** A v2 McpServer per request (createMcpHandler) inside recordingHandler, the record proxy, the HAR proxy; the v2 client (versionNegotiation auto). */
async function v2Rig(name, build, run, mode = 'auto') {
  const d = dir(name);
  const handler = V2S.createMcpHandler(build, { responseMode: 'auto', keepAliveMs: 0 });
  const node = toNodeHandler(handler);
  const server = await listen(recordingHandler(async (req, res) => { try { await node(req, res); } catch (e) { if (!res.headersSent) res.writeHead(500).end(String(e)); } }, { out: `${d}/server.ndjson` }));
  const rp = await startRecordProxy(server.url, `${d}/proxy.ndjson`);
  const har = await startHarProxy(rp.url, `${d}/capture.har.ndjson`);
  const rf = recordingFetch({ out: `${d}/client.ndjson` });
  const { observed, step } = observer();
  const c = new V2C.Client({ name: `${name}-app`, version: '1.0.0' }, { versionNegotiation: { mode } });
  c.onerror = (e) => observed.push({ onerror: String(e?.message ?? e) });
  try {
    await c.connect(new V2C.StreamableHTTPClientTransport(new URL(`${har.url}/mcp`), { fetch: rf, reconnectionOptions }), { timeout: 5000 });
    observed.push({ era: c.getNegotiatedProtocolVersion?.() ?? null });
    await run({ c, step, observed });
  } catch (e) { observed.push({ crash: err(e) }); }
  await sleep(200);
  await c.close().catch(() => {});
  await sleep(150);
  await handler.close?.().catch(() => {});
  await har.close(); await rp.stop(); await server.close(); rf.close?.();
  writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
}

const S = {};
// 1: the Python server's resources: list, an unknown URI (re-read once), a template whose function raises (re-read once), one that works; resources/subscribe.
S['py-resources'] = () => pyRig('py-resources', async ({ connect, step }) => {
  const c = await connect('docs-agent');
  await step('list', async () => ({ resources: (await c.listResources()).resources.map((x) => x.uri) }));
  await step('templates', async () => ({ templates: (await c.listResourceTemplates()).resourceTemplates.map((x) => x.uriTemplate) }));
  await step('read missing #1', () => c.readResource({ uri: 'docs://changelog' }));
  await sleep(300);
  await step('read missing #2', () => c.readResource({ uri: 'docs://changelog' }));
  await step('read billing #1', () => c.readResource({ uri: 'docs://pages/billing' }));
  await sleep(300);
  await step('read billing #2', () => c.readResource({ uri: 'docs://pages/billing' }));
  await step('read intro', async () => ({ text: (await c.readResource({ uri: 'docs://pages/intro' })).contents[0].text }));
  await step('subscribe readme', () => c.subscribeResource({ uri: 'docs://readme' }));
});
// 1b: a subscriber whose one request, resources/subscribe, the Python MCPServer refuses, and which then closes.
S['py-subscribe-only'] = () => pyRig('py-subscribe-only', async ({ connect, step }) => {
  const c = await connect('docs-watcher');
  await step('subscribe readme', () => c.subscribeResource({ uri: 'docs://readme' }));
});
// 2: the Python server's prompts: a missing argument, an unknown prompt, one that works.
S['py-prompts'] = () => pyRig('py-prompts', async ({ connect, step }) => {
  const c = await connect('prompt-picker');
  await step('list', async () => ({ prompts: (await c.listPrompts()).prompts.map((p) => p.name) }));
  await step('get missing arg', () => c.getPrompt({ name: 'review_code', arguments: { language: 'python' } }));
  await step('get unknown', () => c.getPrompt({ name: 'summarize', arguments: {} }));
  await step('get ok', async () => ({ messages: (await c.getPrompt({ name: 'review_code', arguments: { language: 'python', code: 'print(1)' } })).messages.length }));
});
// 3: the Python server's tools: setLevel, a tool that logs at level error (ctx.error) then succeeds; structured output; a tool that raises; a ping.
S['py-tools-logging'] = () => pyRig('py-tools-logging', async ({ connect, step, observed }) => {
  const c = await connect('orders-agent');
  c.setNotificationHandler(types.LoggingMessageNotificationSchema, (n) => observed.push({ log: n.params.level, logger: n.params.logger, data: n.params.data }));
  await step('list', async () => ({ tools: (await c.listTools()).tools.map((t) => `${t.name}${t.outputSchema ? ' (outputSchema)' : ''}`) }));
  await step('setLevel', () => c.setLoggingLevel('info'));
  await step('sync', async () => { const x = await c.callTool({ name: 'sync_orders', arguments: { shop: 'berlin' } }); return { isError: !!x.isError, text: x.content[0].text }; });
  await step('usage ok', async () => { const x = await c.callTool({ name: 'disk_usage', arguments: { path: '/home' } }); return { isError: !!x.isError, text: x.content[0]?.text, structuredContent: x.structuredContent }; });
  await step('usage denied', async () => { const x = await c.callTool({ name: 'disk_usage', arguments: { path: '/denied' } }); return { isError: !!x.isError, text: x.content[0]?.text, structuredContent: x.structuredContent }; });
  await step('ping', () => c.ping());
});

// v2: a docs, prompts and orders server in one (McpServer 2.4.0); its ping handler stalls the first ping for 1.5 s.
let v2pings = 0;
const v2ran = [];
const buildV2 = () => {
  const s = new V2S.McpServer({ name: 'docs-v2', version: '1.0.0' }, { capabilities: { logging: {} } });
  s.registerResource('readme', 'docs://readme', { mimeType: 'text/markdown' }, async (uri) => ({ contents: [{ uri: uri.href, text: '# Readme' }] }));
  s.registerResource('page', new V2S.ResourceTemplate('docs://pages/{slug}', { list: undefined }), { mimeType: 'text/markdown' }, async (uri, { slug }) => {
    v2ran.push(`page ${slug}`);
    if (slug === 'billing') throw new Error(`upstream wiki timed out fetching ${slug}`);
    return { contents: [{ uri: uri.href, text: `# ${slug}` }] };
  });
  s.registerPrompt('review_code', { argsSchema: z.object({ language: z.string(), code: z.string() }) }, ({ language, code }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Review this ${language}: ${code}` } }] }));
  s.registerTool('sync_orders', { inputSchema: z.object({ shop: z.string() }) }, async ({ shop }, ctx) => {
    await ctx.mcpReq.log('error', `replica lag 12s for ${shop}, falling back to primary`, 'db');
    await sleep(50); v2ran.push(`sync ${shop}`);
    return text(`synced 42 orders for ${shop}`);
  });
  s.server.setRequestHandler('ping', async () => { v2pings++; if (v2pings === 1) await sleep(1500); return {}; });
  return s;
};
S['v2-resources-prompts'] = () => v2Rig('v2-resources-prompts', buildV2, async ({ c, step, observed }) => {
  await step('list', async () => ({ resources: (await c.listResources()).resources.map((x) => x.uri) }));
  await step('read missing #1', () => c.readResource({ uri: 'docs://changelog' }));
  await sleep(300);
  await step('read missing #2', () => c.readResource({ uri: 'docs://changelog' }));
  await step('read billing #1', () => c.readResource({ uri: 'docs://pages/billing' }));
  await sleep(300);
  await step('read billing #2', () => c.readResource({ uri: 'docs://pages/billing' }));
  await step('read intro', async () => ({ text: (await c.readResource({ uri: 'docs://pages/intro' })).contents[0].text }));
  await step('get missing arg', () => c.getPrompt({ name: 'review_code', arguments: { language: 'python' } }));
  await step('get unknown', () => c.getPrompt({ name: 'summarize', arguments: {} }));
  await step('get ok', async () => ({ messages: (await c.getPrompt({ name: 'review_code', arguments: { language: 'python', code: 'print(1)' } })).messages.length }));
  observed.push({ serverRan: v2ran.splice(0) });
});
// 2026-07-28 has no logging/setLevel and no ping (the v2 client refuses both without sending them); a log level rides in the request's _meta.
const v2LoggingPing = async ({ c, step, observed }) => {
  v2pings = 0;
  c.setNotificationHandler('notifications/message', (n) => observed.push({ log: n.params.level, logger: n.params.logger, data: n.params.data }));
  await step('setLevel', () => c.setLoggingLevel('info'));
  await step('sync', async () => { const x = await c.callTool({ name: 'sync_orders', arguments: { shop: 'berlin' }, _meta: { [V2S.LOG_LEVEL_META_KEY]: 'info' } }); return { isError: !!x.isError, text: x.content[0].text }; });
  await step('ping #1', () => c.ping({ timeout: 500 }));
  await sleep(300);
  await step('ping #2', () => c.ping({ timeout: 500 }));
  await sleep(1300);
  observed.push({ serverRan: v2ran.splice(0), serverPingHandlerRan: v2pings });
};
S['v2-logging-ping'] = () => v2Rig('v2-logging-ping', buildV2, v2LoggingPing);
// The same app with the v2 client in its default legacy mode (2025-11-25, sessions): setLevel and ping go on the wire, the first ping times out.
S['v2-legacy-logging-ping'] = () => v2Rig('v2-legacy-logging-ping', buildV2, v2LoggingPing, 'legacy');

stopAfter(180_000);
for (const name of process.argv.length > 2 ? process.argv.slice(2) : Object.keys(S)) { console.log('==', name); await S[name](); }
process.exit(0);
