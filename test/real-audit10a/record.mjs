// Records test/fixtures/real-audit10a/ (the tenth audit, part A: beyond tools/call): SDK 1.32.2 client and McpServer (and the Python SDK 2.3.0 client) on 127.0.0.1, each incident three ways. Usage: npm run build && node test/real-audit10a/record.mjs [scenario...]
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { recordingFetch, recordingHandler } = await import(`${R}/dist/capture/index.js`);
const { listen, sleep, sessionHandler, startHarProxy, startRecordProxy } = await import(`${R}/test/helpers/loopback.mjs`);
const { McpServer, ResourceTemplate } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js`);
const { Server } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.js`);
const { StreamableHTTPServerTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js`);
const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
const { completable } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/completable.js`);
const types = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js`);
const { z } = await import(`${R}/node_modules/zod/index.js`);

function dir(name) { const d = `${R}/test/fixtures/real-audit10a/${name}`; mkdirSync(d, { recursive: true }); return d; }
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const err = (e) => `${e?.constructor?.name} ${e?.code ?? ''} ${String(e?.message).slice(0, 200)}`;

async function rig(name, buildServer) {
  const d = dir(name);
  for (const f of ['client.ndjson', 'server.ndjson', 'proxy.ndjson', 'capture.har.ndjson']) rmSync(`${d}/${f}`, { force: true });
  const h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer });
  const server = await listen(recordingHandler(h.handle, { out: `${d}/server.ndjson` }));
  const rp = await startRecordProxy(server.url, `${d}/proxy.ndjson`);
  const har = await startHarProxy(rp.url, `${d}/capture.har.ndjson`);
  const rf = recordingFetch({ out: `${d}/client.ndjson` });
  const observed = [];
  const connect = async (clientName = 'audit10a-app', capabilities = {}) => {
    const c = new Client({ name: clientName, version: '1.0.0' }, { capabilities });
    c.onerror = (e) => observed.push({ onerror: String(e?.message ?? e) });
    const t = new StreamableHTTPClientTransport(new URL(`${har.url}/mcp`), { fetch: rf, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } });
    await c.connect(t);
    return { c, t };
  };
  /** One step of the app: what it got (shortened) or the error it threw. */
  const step = async (label, fn) => {
    try { const r = await fn(); observed.push({ label, ok: r ?? {} }); return r; }
    catch (e) { observed.push({ label, error: err(e) }); return e; }
  };
  return { d, connect, step, observed, harUrl: har.url, async done(clients) {
    for (const c of clients) await c.close().catch(() => {});
    await sleep(150);
    await har.close(); await rp.stop(); await server.close(); rf.close?.();
    writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
  } };
}

const S = {};
// 1: a docs server: resources/list ok; a read of an unknown URI (the app retries it once); a template read whose callback throws (retried once), then one that works.
S['resources-errors'] = async () => {
  const reads = [];
  const build = () => {
    const s = new McpServer({ name: 'docs', version: '1.0.0' });
    s.registerResource('readme', 'docs://readme', { mimeType: 'text/markdown' }, async (uri) => ({ contents: [{ uri: uri.href, text: '# Readme' }] }));
    s.registerResource('page', new ResourceTemplate('docs://pages/{slug}', { list: undefined }), { mimeType: 'text/markdown' }, async (uri, { slug }) => {
      reads.push(slug);
      if (slug === 'billing') throw new Error(`upstream wiki timed out fetching ${slug}`);
      return { contents: [{ uri: uri.href, text: `# ${slug}` }] };
    });
    return s;
  };
  const r = await rig('resources-errors', build);
  const { c } = await r.connect('docs-agent');
  await r.step('list', async () => ({ resources: (await c.listResources()).resources.map((x) => x.uri) }));
  await r.step('read missing #1', () => c.readResource({ uri: 'docs://changelog' }));
  await sleep(300);
  await r.step('read missing #2', () => c.readResource({ uri: 'docs://changelog' }));
  await r.step('read billing #1', () => c.readResource({ uri: 'docs://pages/billing' }));
  await sleep(300);
  await r.step('read billing #2', () => c.readResource({ uri: 'docs://pages/billing' }));
  await r.step('read intro', async () => ({ text: (await c.readResource({ uri: 'docs://pages/intro' })).contents[0].text }));
  r.observed.push({ templateCallbackRan: reads });
  await r.done([c]);
};
// 1b: a resources-only server: a reader whose one request is a read of an unknown URI (then it closes), and an agent
// whose tools/list the server refuses (-32601: McpServer installs no tools/list without a tool) and which then gives up.
S['resources-only'] = async () => {
  const build = () => {
    const s = new McpServer({ name: 'docs', version: '1.0.0' });
    s.registerResource('readme', 'docs://readme', { mimeType: 'text/markdown' }, async (uri) => ({ contents: [{ uri: uri.href, text: '# Readme' }] }));
    return s;
  };
  const r = await rig('resources-only', build);
  const a = await r.connect('docs-reader');
  await r.step('reader: read missing', () => a.c.readResource({ uri: 'docs://changelog' }));
  await a.c.close();
  await sleep(200);
  const b = await r.connect('tool-agent');
  await r.step('agent: list tools', async () => ({ tools: (await b.c.listTools()).tools.map((t) => t.name) }));
  await r.done([b.c]);
};
// 2: prompts: a missing required argument, an unknown prompt, then one that works; completion/complete for an argument.
S['prompts-errors'] = async () => {
  const build = () => {
    const s = new McpServer({ name: 'prompts', version: '1.0.0' });
    s.registerPrompt('review_code', { argsSchema: { language: completable(z.string(), (v) => ['go', 'python', 'typescript'].filter((x) => x.startsWith(v))), code: z.string() } },
      ({ language, code }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Review this ${language}: ${code}` } }] }));
    return s;
  };
  const r = await rig('prompts-errors', build);
  const { c } = await r.connect('prompt-picker');
  await r.step('list', async () => ({ prompts: (await c.listPrompts()).prompts.map((p) => p.name) }));
  await r.step('complete language', async () => (await c.complete({ ref: { type: 'ref/prompt', name: 'review_code' }, argument: { name: 'language', value: 'py' } })).completion);
  await r.step('get missing arg', () => c.getPrompt({ name: 'review_code', arguments: { language: 'python' } }));
  await r.step('get unknown', () => c.getPrompt({ name: 'summarize', arguments: {} }));
  await r.step('get ok', async () => ({ messages: (await c.getPrompt({ name: 'review_code', arguments: { language: 'python', code: 'print(1)' } })).messages.length }));
  await r.done([c]);
};
// 3: logging: setLevel, then a tool that logs an "error" on its own stream (a replica lagged) and returns a success; and one that logs on the GET stream.
S['log-error-then-success'] = async () => {
  const ran = [];
  const build = () => {
    const s = new McpServer({ name: 'orders', version: '1.0.0' }, { capabilities: { logging: {} } });
    s.registerTool('sync_orders', { inputSchema: { shop: z.string() } }, async ({ shop }, extra) => {
      await extra.sendNotification({ method: 'notifications/message', params: { level: 'error', logger: 'db', data: `replica lag 12s for ${shop}, falling back to primary` } });
      await sleep(50); ran.push(shop);
      return text(`synced 42 orders for ${shop}`);
    });
    s.registerTool('sync_all', { inputSchema: {} }, async () => {
      await s.sendLoggingMessage({ level: 'error', logger: 'db', data: 'replica lag 30s, falling back to primary' });
      await sleep(50); ran.push('all');
      return text('synced 3 shops');
    });
    return s;
  };
  const r = await rig('log-error-then-success', build);
  const { c } = await r.connect('orders-agent');
  c.setNotificationHandler(types.LoggingMessageNotificationSchema, (n) => r.observed.push({ log: n.params.level, data: n.params.data }));
  await r.step('setLevel', () => c.setLoggingLevel('info'));
  await sleep(200);
  await r.step('sync #1', async () => { const x = await c.callTool({ name: 'sync_orders', arguments: { shop: 'berlin' } }); return { isError: !!x.isError, text: x.content[0].text }; });
  await r.step('sync all', async () => { const x = await c.callTool({ name: 'sync_all', arguments: {} }); return { isError: !!x.isError, text: x.content[0].text }; });
  await sleep(200);
  r.observed.push({ ran });
  await r.done([c]);
};
// 4: tool results beyond text (McpServer): resource_link and an embedded resource; structuredContent with an outputSchema;
// structuredContent that breaks the schema (McpServer's own check turns it into isError); isError with no structuredContent.
S['results-beyond-text'] = async () => {
  const build = () => {
    const s = new McpServer({ name: 'files', version: '1.0.0' });
    s.registerTool('find_file', { inputSchema: { name: z.string() } }, async ({ name }) => ({ content: [
      { type: 'text', text: `found ${name}` },
      { type: 'resource_link', uri: `file:///srv/${name}`, name, mimeType: 'text/plain' },
      { type: 'resource', resource: { uri: `file:///srv/${name}`, mimeType: 'text/plain', text: 'hello' } },
    ] }));
    s.registerTool('disk_usage', { inputSchema: { path: z.string() }, outputSchema: { bytes: z.number(), files: z.number() } }, async ({ path }) => {
      if (path === '/broken') return { content: [{ type: 'text', text: '{"bytes":"lots"}' }], structuredContent: { bytes: 'lots', files: 3 } };
      if (path === '/denied') return { content: [{ type: 'text', text: `permission denied: ${path}` }], isError: true };
      return { content: [{ type: 'text', text: '{"bytes":1024,"files":3}' }], structuredContent: { bytes: 1024, files: 3 } };
    });
    return s;
  };
  const r = await rig('results-beyond-text', build);
  const { c } = await r.connect('files-agent');
  await r.step('list', async () => ({ tools: (await c.listTools()).tools.map((t) => t.name) }));
  const call = (label, name, args) => r.step(label, async () => { const x = await c.callTool({ name, arguments: args }); return { isError: !!x.isError, types: x.content.map((b) => b.type), text: x.content[0]?.text, structuredContent: x.structuredContent }; });
  await call('find', 'find_file', { name: 'notes.txt' });
  await call('usage ok', 'disk_usage', { path: '/home' });
  await call('usage broken', 'disk_usage', { path: '/broken' });
  await call('usage denied', 'disk_usage', { path: '/denied' });
  await r.done([c]);
};
// 4b: the same tool on the low-level Server, which does not check its output: the wire carries structuredContent that breaks
// the declared outputSchema; the TS client's callTool throws although the result is normal JSON-RPC. Then isError without structuredContent.
S['output-schema-violated'] = async () => {
  const ran = [];
  const build = () => {
    const s = new Server({ name: 'files-lowlevel', version: '1.0.0' }, { capabilities: { tools: {} } });
    s.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: [{ name: 'disk_usage', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      outputSchema: { type: 'object', properties: { bytes: { type: 'number' }, files: { type: 'number' } }, required: ['bytes', 'files'] } }] }));
    s.setRequestHandler(types.CallToolRequestSchema, async (req) => {
      const path = req.params.arguments?.path; ran.push(path);
      if (path === '/denied') return { content: [{ type: 'text', text: `permission denied: ${path}` }], isError: true };
      if (path === '/home') return { content: [{ type: 'text', text: '{"bytes":1024,"files":3}' }], structuredContent: { bytes: 1024, files: 3 } };
      return { content: [{ type: 'text', text: '{"bytes":"1.2 GB","files":3}' }], structuredContent: { bytes: '1.2 GB', files: 3 } };
    });
    return s;
  };
  const r = await rig('output-schema-violated', build);
  const { c } = await r.connect('files-agent');
  await r.step('list', async () => ({ tools: (await c.listTools()).tools.map((t) => t.name) }));
  const call = (label, args) => r.step(label, async () => { const x = await c.callTool({ name: 'disk_usage', arguments: args }); return { isError: !!x.isError, text: x.content[0]?.text, structuredContent: x.structuredContent }; });
  await call('usage /var #1', { path: '/var' });
  await sleep(300);
  await call('usage /var #2', { path: '/var' });
  await call('usage denied', { path: '/denied' });
  await call('usage ok', { path: '/home' });
  r.observed.push({ ran });
  await r.done([c]);
};
// 5: ping: the server stalls its first ping (a blocked event loop's worth), the client's times out at 500 ms and the app pings again;
// the server pings the client inside a call (on the call's stream) and outside one (on the GET stream).
S['ping'] = async () => {
  let pings = 0;
  const build = () => {
    const s = new McpServer({ name: 'health', version: '1.0.0' });
    s.server.setRequestHandler(types.PingRequestSchema, async () => { pings++; if (pings === 1) await sleep(1500); return {}; });
    s.registerTool('check', { inputSchema: {} }, async (_a, extra) => {
      const t0 = Date.now();
      await extra.sendRequest({ method: 'ping' }, types.EmptyResultSchema);
      return text(`client answered ping in ${Date.now() - t0} ms`);
    });
    s.registerTool('check_idle', { inputSchema: {} }, async () => { setTimeout(() => s.server.ping().then(() => pong.push('ok'), (e) => pong.push(String(e?.message))), 100); return text('will ping'); });
    return s;
  };
  const pong = [];
  const r = await rig('ping', build);
  const { c } = await r.connect('health-agent');
  await r.step('ping #1', () => c.ping({ timeout: 500 }));
  await sleep(300);
  await r.step('ping #2', () => c.ping({ timeout: 500 }));
  await r.step('check', async () => (await c.callTool({ name: 'check', arguments: {} })).content[0].text.replace(/\d+ ms/, 'N ms'));
  await r.step('check_idle', async () => (await c.callTool({ name: 'check_idle', arguments: {} })).content[0].text);
  await sleep(1200);
  r.observed.push({ serverPingHandlerRan: pings, serverToClientPingOutsideCall: pong });
  await r.done([c]);
};
// 5b: a health checker: it connects, pings once (the server is stalled), times out at 500 ms and closes; it never meant to call a tool.
S['ping-health-check'] = async () => {
  let pings = 0;
  const build = () => {
    const s = new McpServer({ name: 'health', version: '1.0.0' });
    s.server.setRequestHandler(types.PingRequestSchema, async () => { pings++; await sleep(1500); return {}; });
    return s;
  };
  const r = await rig('ping-health-check', build);
  const { c } = await r.connect('health-probe');
  await r.step('ping', () => c.ping({ timeout: 500 }));
  await c.close();
  await sleep(1200);
  r.observed.push({ serverPingHandlerRan: pings });
  await r.done([]);
};
// 6: the Python client (mcp 2.3.0) against the docs and prompts servers: an unknown resource, a missing prompt argument, a stalled ping.
const py = (which, url) => new Promise((res, rej) => execFile(process.env.PYTHON ?? '/work/py-venv/bin/python', [`${R}/test/real-audit10a/py_client.py`, which, url], { encoding: 'utf8', timeout: 30000 }, (e, out, errText) => (e ? rej(new Error(`${e.message}\n${errText}`)) : res(JSON.parse(out.trim().split('\n').pop())))));
S['py-resources-prompts'] = async () => {
  let pings = 0;
  const build = () => {
    const s = new McpServer({ name: 'docs', version: '1.0.0' });
    s.registerResource('readme', 'docs://readme', { mimeType: 'text/markdown' }, async (uri) => ({ contents: [{ uri: uri.href, text: '# Readme' }] }));
    s.registerPrompt('review_code', { argsSchema: { language: z.string(), code: z.string() } }, ({ language, code }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Review this ${language}: ${code}` } }] }));
    s.server.setRequestHandler(types.PingRequestSchema, async () => { pings++; if (pings === 1) await sleep(1500); return {}; });
    return s;
  };
  const r = await rig('py-resources-prompts', build);
  r.observed.push(...(await py('resources-prompts', `${r.harUrl}/mcp`)));
  r.observed.push({ serverPingHandlerRan: pings });
  await r.done([]);
};

for (const name of process.argv.length > 2 ? process.argv.slice(2) : Object.keys(S)) { console.log('==', name); await S[name](); }
process.exit(0);
