// Records test/fixtures/real-audit11/ (the eleventh audit: more npm peers) on 127.0.0.1, each incident five ways: Genkit's MCP client and server (@genkit-ai/mcp),
// Strands Agents' McpClient (@strands-agents/sdk), NestJS's @rekog/mcp-nest and xmcp's HTTP transport, each paired with the SDK 1.32.2 (or v2 2.4.0) other end.
// NOT run by `npm test`: the peers are not dependencies of mcp-triage. Install them outside the repository, one folder each (their peer ranges clash):
// test/fixtures/README.md, "Real-traffic fixtures: the eleventh audit (more npm peers)", has the commands (genkit/, strands/, nest/, xmcp/ under $SCRATCH_AUDIT11,
// default /work/scratch-audit11; xmcp's project is written by test/real-audit11/xmcp-project.mjs and built by `npx xmcp build`).
// Then, from the repository: npm run build && node test/real-audit11/record.mjs [scenario...]
// The chain: the client (its fetch is recordingFetch: client.ndjson) -> [a fault hop, where the scenario needs one] -> a HAR-lines proxy (capture.har.ndjson)
// -> `mcp-triage record` (proxy.ndjson) -> the server: the SDK 1.32.2 McpServer (or Genkit's) behind recordingHandler (server.ndjson), or Nest's or xmcp's
// process behind a recording proxy with side "server" (server.ndjson). observed.json: what the app got, what the server's tools ran, what the hop did.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const SCRATCH = process.env.SCRATCH_AUDIT11 ?? '/work/scratch-audit11';
const { withCallNote } = await import(`${R}/dist/capture/index.js`);
const { freePort, sleep } = await import(`${R}/test/helpers/loopback.mjs`);
const { auditRig, clean, errOf, short } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { spawn } = await import('node:child_process');
const { createInterface } = await import('node:readline');
const from = (folder, spec) => import(pathToFileURL(createRequire(`${SCRATCH}/${folder}/package.json`).resolve(spec)).href);
const genkitPkg = () => from('genkit', 'genkit');
const genkitMcp = () => from('genkit', '@genkit-ai/mcp');
const strandsSdk = async () => import(pathToFileURL(`${SCRATCH}/strands/node_modules/@strands-agents/sdk/dist/src/index.node.js`).href);

setTimeout(() => { process.stderr.write('still running after 240 s, giving up\n'); process.exit(2); }, 240_000).unref();

/** The rig (test/helpers/audit-rig.mjs): the orders server, unannotated, unless buildServer or external say otherwise. */
const rig = (name, opts) => auditRig('real-audit11', name, opts);

// ------------------------------------------------------------------ Genkit (@genkit-ai/mcp 1.42.0, genkit 1.42.0), its tools called as Genkit actions, no model

async function genkitClient(r, clientName = 'genkit-app') {
  const { genkit } = await genkitPkg();
  const { createMcpClient } = await genkitMcp();
  const ai = genkit({});
  // mcpServer's fields besides url go to the SDK's StreamableHTTPClientTransport as they are: fetch among them
  const client = createMcpClient({ name: clientName, serverName: 'orders', mcpServer: { url: r.url, fetch: r.rf } });
  await client.ready();
  const tools = async () => Object.fromEntries((await client.getActiveTools(ai)).map((t) => [t.__action.name.replace(/^orders\//, ''), t]));
  return { ai, client, tools };
}
/** What a Genkit tool action returned, shortened. */
const gkOut = (o) => (typeof o === 'string' ? { output: o } : o);

const S = {};
S['gk-baseline'] = async () => {
  const r = await rig('gk-baseline');
  const g = await genkitClient(r);
  const tools = await r.step('getActiveTools', async () => Object.keys(await g.tools()));
  const t = await g.tools();
  await r.step('lookup_order 1001', async () => gkOut(await t.lookup_order({ orderId: '1001' })));
  await r.step('send_invoice 1001', async () => gkOut(await t.send_invoice({ orderId: '1001' })));
  r.note({ toolNames: tools });
  await r.done([() => g.client.disable()]);
};
S['gk-errors'] = async () => {
  const r = await rig('gk-errors');
  const g = await genkitClient(r);
  const t = await g.tools();
  await r.step('crash (the tool throws)', async () => gkOut(await t.crash({})));
  await r.step('lookup_order with a number (bad arguments)', async () => gkOut(await t.lookup_order({ orderId: 1001 })));
  await r.step('lookup_order without orderId (bad arguments)', async () => gkOut(await t.lookup_order({})));
  await sleep(300);
  await r.step('crash again (the app retries, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, async () => gkOut(await t.crash({}))));
  await r.step('lookup_order 1002', async () => gkOut(await t.lookup_order({ orderId: '1002' })));
  await r.done([() => g.client.disable()]);
};
S['gk-restart'] = async () => {
  const r = await rig('gk-restart');
  const g = await genkitClient(r);
  let t = await g.tools();
  await r.step('lookup_order 1001', async () => gkOut(await t.lookup_order({ orderId: '1001' })));
  await r.server.restart();
  r.note({ serverRestarted: 'every session forgotten' });
  await r.step('send_invoice 1002 (old session)', async () => gkOut(await t.send_invoice({ orderId: '1002' })));
  await sleep(200);
  await r.step('client.restart()', async () => { await g.client.restart(); return 'restarted'; });
  t = await g.tools();
  await r.step('send_invoice 1002 (after restart)', async () => gkOut(await t.send_invoice({ orderId: '1002' })));
  await r.done([() => g.client.disable()]);
};
S['gk-503'] = async () => {
  // a gateway in front answers 503 to the first tools/call; the app calls again after 500 ms
  const r = await rig('gk-503', { fault: ({ rpcMethod, n }) => (rpcMethod === 'tools/call' && n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'upstream connect error' } : undefined) });
  const g = await genkitClient(r);
  const t = await g.tools();
  await r.step('send_invoice 1001 #1', async () => gkOut(await t.send_invoice({ orderId: '1001' })));
  await sleep(500);
  await r.step('send_invoice 1001 #2', async () => gkOut(await t.send_invoice({ orderId: '1001' })));
  await r.done([() => g.client.disable()]);
};
S['gk-init-refused'] = async () => {
  // the gateway refuses the initialize (503): Genkit's client logs a warning, disables itself, and lists no tools
  const r = await rig('gk-init-refused', { fault: ({ rpcMethod }) => (rpcMethod === 'initialize' ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'no healthy upstream' } : undefined) });
  const g = await genkitClient(r);
  await r.step('getActiveTools', async () => Object.keys(await g.tools()));
  await r.step('isEnabled', async () => g.client.isEnabled());
  await r.done([() => g.client.disable()]);
};

// ------------------------------------------------------------------ Genkit as an MCP server: @genkit-ai/mcp's GenkitMcpServer (the low-level SDK Server) exposing Genkit tools

/** One GenkitMcpServer per session over the SDK's StreamableHTTPServerTransport (Genkit's own SDK copy), as its start(transport) allows. */
async function genkitServer() {
  const { genkit, z: gz } = await genkitPkg();
  const { createMcpServer } = await genkitMcp();
  const { StreamableHTTPServerTransport: GkTransport } = await from('genkit', '@modelcontextprotocol/sdk/server/streamableHttp.js');
  const build = (ran) => {
    const ai = genkit({});
    ai.defineTool({ name: 'lookup_order', description: 'Look up an order', inputSchema: gz.object({ orderId: gz.string() }), outputSchema: gz.string() }, async ({ orderId }) => { ran.push(`lookup_order ${orderId}`); return `order ${orderId}: shipped`; });
    ai.defineTool({ name: 'crash', description: 'Always throws', inputSchema: gz.object({}) }, async () => { ran.push('crash'); throw new Error('database connection refused'); });
    return () => ({ async connect(t) { const s = createMcpServer(ai, { name: 'orders-genkit', version: '1.0.0' }); await s.start(t); } });
  };
  return { build, GkTransport };
}
S['gks-errors'] = async () => {
  // the SDK 1.32.2 client against Genkit's server: a tool that throws, bad arguments, an unknown tool, then a success; the app retries the throwing tool
  const { build, GkTransport } = await genkitServer();
  const r = await rig('gks-errors', { buildServer: build, Transport: GkTransport });
  const c = await r.sdkClient();
  const callText = async (name, args) => short(await c.callTool({ name, arguments: args }));
  await r.step('tools/list', async () => (await c.listTools()).tools.map((t) => t.name));
  await r.step('lookup_order 1001', () => callText('lookup_order', { orderId: '1001' }));
  await r.step('crash (the tool throws)', () => callText('crash', {}));
  await r.step('lookup_order with a number (bad arguments)', () => callText('lookup_order', { orderId: 1001 }));
  await r.step('no_such_tool', () => callText('no_such_tool', {}));
  await sleep(300);
  await r.step('crash again (the app retries, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => callText('crash', {})));
  // an agent loop that sends the same refused requests again (no note): nothing ran either time
  await r.step('lookup_order with a number again', () => callText('lookup_order', { orderId: 1001 }));
  await r.step('no_such_tool again', () => callText('no_such_tool', {}));
  await r.step('lookup_order 1002', () => callText('lookup_order', { orderId: '1002' }));
  await r.done([() => c.close()]);
};

// ------------------------------------------------------------------ Strands Agents (@strands-agents/sdk 1.19.0): McpClient, its McpTool's stream() as an agent runs it, no model

/** A Strands McpClient on r.url; its transport (Strands builds it from url) fetches through recordingFetch. */
async function strandsClient(r, opts = {}) {
  const { McpClient } = await strandsSdk();
  // Strands passes no fetch to the SDK transport it builds, which then calls the global fetch at each request: recordingFetch
  // stands in for it until done() (recordingFetch itself calls the original fetch)
  globalThis.fetch = r.rf;
  const client = new McpClient({ url: r.url, applicationName: 'strands-app', applicationVersion: '1.0.0', ...opts });
  // what McpClient.callTool (the SDK client inside) returned or threw, before McpTool made a ToolResultBlock of it: an
  // isError result and a thrown JSON-RPC error both become status "error" there
  const orig = client.callTool.bind(client);
  client.callTool = async (...a) => {
    try { const x = await orig(...a); client.lastSdk = { isError: !!x.isError }; return x; }
    catch (e) { client.lastSdk = { threw: errOf(e) }; throw e; }
  };
  return client;
}
/** Run an McpTool as Strands' agent loop does (tool.stream(toolContext) to its return value); the ToolResultBlock, shortened. */
async function runTool(tool, input, { signal } = {}) {
  tool.mcpClient.lastSdk = undefined;
  const it = tool.stream({ toolUse: { toolUseId: `tu-${Math.random().toString(36).slice(2, 8)}`, name: tool.name, input }, ...(signal ? { cancelSignal: signal } : {}) });
  let x;
  do x = await it.next(); while (!x.done);
  const block = x.value;
  return { status: block.status, text: clean(block.content.map((c) => c.text ?? JSON.stringify(c.json ?? c)).join(' ')).slice(0, 300), sdk: tool.mcpClient.lastSdk ?? null };
}
const byName = (tools) => Object.fromEntries(tools.map((t) => [t.name, t]));

S['st-baseline'] = async () => {
  const r = await rig('st-baseline');
  const c = await strandsClient(r);
  const tools = byName(await r.step('listTools', async () => c.listTools()) ?? []);
  r.observed.at(-1).ok = Object.keys(tools);
  await r.step('lookup_order 1001', () => runTool(tools.lookup_order, { orderId: '1001' }));
  await r.step('send_invoice 1001', () => runTool(tools.send_invoice, { orderId: '1001' }));
  await r.done([() => c.disconnect()]);
};
S['st-errors'] = async () => {
  const r = await rig('st-errors');
  const c = await strandsClient(r);
  const tools = byName(await c.listTools());
  const { McpTool } = await import(pathToFileURL(`${SCRATCH}/strands/node_modules/@strands-agents/sdk/dist/src/tools/mcp-tool.js`).href); // not exported by the package's index
  await r.step('crash (the tool throws)', () => runTool(tools.crash, {}));
  await r.step('lookup_order with a number (bad arguments)', () => runTool(tools.lookup_order, { orderId: 1001 }));
  // a tool the model names that the server does not have (an McpTool as listTools makes it)
  const ghost = new McpTool({ name: 'no_such_tool', description: 'gone', inputSchema: { type: 'object' }, client: c });
  await r.step('no_such_tool', () => runTool(ghost, {}));
  await r.step('lookup_order 1002', () => runTool(tools.lookup_order, { orderId: '1002' }));
  await r.done([() => c.disconnect()]);
};
S['st-restart'] = async () => {
  const r = await rig('st-restart');
  const c = await strandsClient(r);
  const tools = byName(await c.listTools());
  await r.step('lookup_order 1001', () => runTool(tools.lookup_order, { orderId: '1001' }));
  await r.server.restart();
  r.note({ serverRestarted: 'every session forgotten' });
  await r.step('send_invoice 1002 (old session)', () => runTool(tools.send_invoice, { orderId: '1002' }));
  await r.step('send_invoice 1002 again (same client, no reconnect)', () => runTool(tools.send_invoice, { orderId: '1002' }));
  await sleep(200);
  await r.step('connect(true)', async () => { await c.connect(true); return c.connectionState; });
  await r.step('send_invoice 1002 (after connect(true))', () => runTool(tools.send_invoice, { orderId: '1002' }));
  // connect(true) cannot reconnect (the SDK transport it reuses is "already started"): the app builds a new McpClient
  const c2 = await strandsClient(r);
  const tools2 = byName(await c2.listTools());
  await r.step('send_invoice 1002 (a new McpClient)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => runTool(tools2.send_invoice, { orderId: '1002' })));
  await r.done([() => c2.disconnect(), () => c.disconnect()]);
};
S['st-cut-cancel'] = async () => {
  // the hop ends the slow call's SSE stream cleanly before its result; the agent's cancel signal fires at 1 s; then a call that works
  const r = await rig('st-cut-cancel', { fault: ({ rpcMethod, rpc }) => (rpcMethod === 'tools/call' && rpc?.params?.name === 'slow_report' && rpc.params.arguments.steps === 3 ? { cut: true } : undefined) });
  const c = await strandsClient(r);
  const tools = byName(await c.listTools());
  await r.step('slow_report 3x100 (stream cut, cancel at 1 s)', () => runTool(tools.slow_report, { steps: 3, stepMs: 100 }, { signal: AbortSignal.timeout(1000) }));
  await r.step('slow_report 10x100 (cancel at 400 ms)', () => runTool(tools.slow_report, { steps: 10, stepMs: 100 }, { signal: AbortSignal.timeout(400) }));
  await sleep(1200);
  await r.step('lookup_order 1001', () => runTool(tools.lookup_order, { orderId: '1001' }));
  await r.done([() => c.disconnect()]);
};
S['st-429'] = async () => {
  // a rate limiter in front answers 429 to the first two tools/call; the app's own loop tries three times
  const r = await rig('st-429', { fault: ({ rpcMethod, n }) => (rpcMethod === 'tools/call' && n <= 2 ? { respond: 429, headers: { 'content-type': 'application/json', 'retry-after': '0' }, body: '{"error":"rate limited"}' } : undefined) });
  const c = await strandsClient(r);
  const tools = byName(await c.listTools());
  for (let i = 1; i <= 3; i++) {
    const x = await r.step(`send_invoice 1001 #${i}`, () => withCallNote(i > 1 ? { retryOrigin: 'app', attempt: i } : {}, () => runTool(tools.send_invoice, { orderId: '1001' })));
    if (x?.status === 'success') break;
    await sleep(300);
  }
  await r.done([() => c.disconnect()]);
};


S['st-tasks-config'] = async () => {
  // tasksConfig set (Strands then calls through the SDK's experimental callToolStream) against a server without tasks
  const r = await rig('st-tasks-config');
  const c = await strandsClient(r, { tasksConfig: { ttl: 5000, pollTimeout: 5000 } });
  const tools = byName(await c.listTools());
  await r.step('lookup_order 1001', () => runTool(tools.lookup_order, { orderId: '1001' }));
  await r.step('crash (the tool throws)', () => runTool(tools.crash, {}));
  await r.done([() => c.disconnect()]);
};

// ------------------------------------------------------------------ NestJS: @rekog/mcp-nest 2.0.5 (McpStrategy + StreamableHttpTransport, v2 SDK server 2.4.0), in its own process

/** test/real-audit11/servers/nest.mjs on a fixed port; restart() kills it (SIGKILL) and starts it again there; ran[] the tool bodies it reported. */
const nest = (mode) => async () => {
  const port = await freePort();
  const ran = [];
  let child;
  const start = () => new Promise((resolve, reject) => {
    child = spawn(process.execPath, [`${R}/test/real-audit11/servers/nest.mjs`, String(port), mode], { env: { ...process.env, SCRATCH_AUDIT11: SCRATCH, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    const t = setTimeout(() => reject(new Error('nest server did not start')), 20_000);
    createInterface({ input: child.stderr }).on('line', (l) => {
      if (/listening on port/.test(l)) { clearTimeout(t); resolve(); }
      const m = /^ran (.*)$/.exec(l); if (m) ran.push(m[1]);
      if (/ERROR/.test(l)) ran.push(`nest logged: ${clean(l.replace(/^.*ERROR\s*/, '')).slice(0, 160)}`);
    });
  });
  const kill = () => new Promise((r) => { if (child.exitCode !== null) return r(); child.once('exit', r); process.kill(child.pid, 'SIGKILL'); });
  await start();
  return { url: `http://127.0.0.1:${port}`, ran, async restart() { await kill(); await start(); }, close: kill };
};
const callText = async (c, name, args, opts) => short(await c.callTool({ name, arguments: args }, undefined, opts));

S['nx-stateless'] = async () => {
  // the default transport: stateless (no session id), JSON responses; then the hand-made GET the SDK client would open
  const r = await rig('nx-stateless', { external: nest('stateless') });
  const c = await r.sdkClient();
  await r.step('tools/list', async () => (await c.listTools()).tools.map((t) => t.name));
  await r.step('lookup_order 1001', () => callText(c, 'lookup_order', { orderId: '1001' }));
  await r.step('send_invoice 1001', () => callText(c, 'send_invoice', { orderId: '1001' }));
  await r.step('slow_report 3x50 with progress', async () => { const seen = []; const x = await callText(c, 'slow_report', { steps: 3, stepMs: 50 }, { onprogress: (p) => seen.push(p.progress) }); return { ...x, progressSeen: seen }; });
  await r.step('ping', () => c.ping());
  await r.step('sessionId after initialize', async () => c.transportRef.sessionId ?? null);
  await r.done([() => c.close()]);
};
S['nx-errors'] = async () => {
  const r = await rig('nx-errors', { external: nest('stateless') });
  const c = await r.sdkClient();
  await r.step('tools/list', async () => (await c.listTools()).tools.map((t) => t.name));
  await r.step('crash (the tool throws)', () => callText(c, 'crash', {}));
  await r.step('lookup_order with a number (bad arguments)', () => callText(c, 'lookup_order', { orderId: 1001 }));
  await r.step('no_such_tool', () => callText(c, 'no_such_tool', {}));
  await sleep(300);
  await r.step('crash again (the app retries, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => callText(c, 'crash', {})));
  await r.done([() => c.close()]);
};
S['nx-stateful'] = async () => {
  // statefulMode: SSE responses and a session; progress; a client timeout on a slow report; then the client ends the session (DELETE)
  const r = await rig('nx-stateful', { external: nest('stateful') });
  const c = await r.sdkClient();
  await r.step('lookup_order 1001', () => callText(c, 'lookup_order', { orderId: '1001' }));
  await r.step('slow_report 3x50 with progress', async () => { const seen = []; const x = await callText(c, 'slow_report', { steps: 3, stepMs: 50 }, { onprogress: (p) => seen.push(p.progress) }); return { ...x, progressSeen: seen }; });
  await r.step('slow_report 8x100 (client timeout 300 ms)', () => callText(c, 'slow_report', { steps: 8, stepMs: 100 }, { timeout: 300 }));
  await sleep(1000);
  await r.step('send_invoice 1001', () => callText(c, 'send_invoice', { orderId: '1001' }));
  await r.step('terminateSession (DELETE)', async () => { await c.transportRef.terminateSession(); return 'terminated'; });
  await r.done([() => c.close()]);
};
S['nx-restart'] = async () => {
  // stateful: the process is killed and started again; the old session's next call gets 404; the app connects again and calls again
  const r = await rig('nx-restart', { external: nest('stateful') });
  const c = await r.sdkClient();
  await r.step('lookup_order 1001', () => callText(c, 'lookup_order', { orderId: '1001' }));
  await r.server.restart();
  r.note({ serverRestarted: 'SIGKILL, started again on the same port' });
  await r.step('send_invoice 1002 (old session)', () => callText(c, 'send_invoice', { orderId: '1002' }));
  await sleep(300);
  const c2 = await r.sdkClient();
  await r.step('send_invoice 1002 (new session)', () => callText(c2, 'send_invoice', { orderId: '1002' }));
  await r.done([() => c2.close(), () => c.close()]);
};
S['nx-stateless-restart'] = async () => {
  // stateless: the same restart loses nothing: the next call needs no session
  const r = await rig('nx-stateless-restart', { external: nest('stateless') });
  const c = await r.sdkClient();
  await r.step('lookup_order 1001', () => callText(c, 'lookup_order', { orderId: '1001' }));
  await r.server.restart();
  r.note({ serverRestarted: 'SIGKILL, started again on the same port' });
  await r.step('send_invoice 1002', () => callText(c, 'send_invoice', { orderId: '1002' }));
  await r.done([() => c.close()]);
};
S['nx-v2-client'] = async () => {
  // the v2 client 2.4.0 with version negotiation against the default ("dual") transport
  const r = await rig('nx-v2-client', { external: nest('stateless') });
  const c = await r.step('connect', async () => { const x = await r.sdkClient({ v2: true }); return x; });
  r.observed.at(-1).ok = c ? { protocolVersion: c.transportRef.protocolVersion ?? null, server: c.getServerVersion?.() ?? null } : null;
  if (c) {
    await r.step('tools/list', async () => (await c.listTools()).tools.map((t) => t.name));
    await r.step('lookup_order 1001', () => callText(c, 'lookup_order', { orderId: '1001' }));
    await r.step('crash (the tool throws)', () => callText(c, 'crash', {}));
    await r.step('no_such_tool', () => callText(c, 'no_such_tool', {}));
  }
  await r.done(c ? [() => c.close()] : []);
};
S['nx-503'] = async () => {
  // a gateway in front of the stateless server answers 503 to the first tools/call; the app calls again at once
  const r = await rig('nx-503', { external: nest('stateless'), fault: ({ rpcMethod, n }) => (rpcMethod === 'tools/call' && n === 1 ? { respond: 503, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>' } : undefined) });
  const c = await r.sdkClient();
  await r.step('send_invoice 1001 #1', () => callText(c, 'send_invoice', { orderId: '1001' }));
  await r.step('send_invoice 1001 #2', () => callText(c, 'send_invoice', { orderId: '1001' }));
  await r.done([() => c.close()]);
};

S['nx-two-clients'] = async () => {
  // two apps against the stateless server at once: no session ids, the same JSON-RPC ids; a slow report of one spans the other's calls
  const r = await rig('nx-two-clients', { external: nest('stateless') });
  const a = await r.sdkClient({ clientName: 'billing-agent' });
  const b = await r.sdkClient({ clientName: 'support-agent' });
  await Promise.all([
    r.step('billing-agent: slow_report 4x100', () => callText(a, 'slow_report', { steps: 4, stepMs: 100 })),
    (async () => {
      await sleep(60);
      await r.step('support-agent: lookup_order 2001', () => callText(b, 'lookup_order', { orderId: '2001' }));
      await r.step('support-agent: crash', () => callText(b, 'crash', {}));
      await r.step('support-agent: lookup_order 2002', () => callText(b, 'lookup_order', { orderId: '2002' }));
    })(),
  ]);
  await r.step('billing-agent: send_invoice 1001', () => callText(a, 'send_invoice', { orderId: '1001' }));
  await r.done([() => a.close(), () => b.close()]);
};


// ------------------------------------------------------------------ xmcp 1.1.3: a project built by its CLI (`xmcp build`, @xmcp-dev/compiler), its HTTP transport (dist/http.js)

/** $SCRATCH_AUDIT11/xmcp's built server (its port, 39431, is fixed at build time by xmcp.config.ts); ran[] its tools' stderr lines. */
const xmcp = () => async () => {
  const ran = [];
  let child;
  const start = () => new Promise((resolve, reject) => {
    child = spawn(process.execPath, [`${SCRATCH}/xmcp/dist/http.js`], { cwd: `${SCRATCH}/xmcp`, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const t = setTimeout(() => reject(new Error('xmcp server did not start')), 20_000);
    const on = (l) => {
      if (/MCP Server running/.test(l)) { clearTimeout(t); resolve(); }
      const m = /^ran (.*)$/.exec(l); if (m) ran.push(m[1]);
      else if (/error/i.test(l)) ran.push(`xmcp logged: ${clean(l).slice(0, 160)}`);
    };
    createInterface({ input: child.stdout }).on('line', on);
    createInterface({ input: child.stderr }).on('line', on);
  });
  const kill = () => new Promise((r) => { if (child.exitCode !== null) return r(); child.once('exit', r); process.kill(child.pid, 'SIGKILL'); });
  await start();
  return { url: 'http://127.0.0.1:39431', ran, async restart() { await kill(); await start(); }, close: kill };
};
S['xm-errors'] = async () => {
  // the SDK 1.32.2 client against xmcp's stateless HTTP transport: calls, a tool that throws, bad arguments, an unknown tool; the app retries the throwing tool
  const r = await rig('xm-errors', { external: xmcp() });
  const c = await r.sdkClient();
  await r.step('tools/list', async () => (await c.listTools()).tools.map((t) => t.name));
  await r.step('lookup_order 1001', () => callText(c, 'lookup_order', { orderId: '1001' }));
  await r.step('send_invoice 1001', () => callText(c, 'send_invoice', { orderId: '1001' }));
  await r.step('crash (the tool throws)', () => callText(c, 'crash', {}));
  await r.step('lookup_order with a number (bad arguments)', () => callText(c, 'lookup_order', { orderId: 1001 }));
  await r.step('no_such_tool', () => callText(c, 'no_such_tool', {}));
  await sleep(300);
  await r.step('crash again (the app retries, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => callText(c, 'crash', {})));
  await r.step('ping', () => c.ping());
  await r.step('sessionId after initialize', async () => c.transportRef.sessionId ?? null);
  await r.done([() => c.close()]);
};
S['xm-v2-client'] = async () => {
  const r = await rig('xm-v2-client', { external: xmcp() });
  const c = await r.step('connect', async () => r.sdkClient({ v2: true }));
  r.observed.at(-1).ok = c ? { protocolVersion: c.transportRef.protocolVersion ?? null, server: c.getServerVersion?.()?.name ?? null } : null;
  if (c) {
    await r.step('lookup_order 1001', () => callText(c, 'lookup_order', { orderId: '1001' }));
    await r.step('crash (the tool throws)', () => callText(c, 'crash', {}));
    await r.step('no_such_tool', () => callText(c, 'no_such_tool', {}));
  }
  await r.done(c ? [() => c.close()] : []);
};
S['xm-restart'] = async () => {
  // the process killed between two calls and started again on the same port: stateless, nothing is lost
  const r = await rig('xm-restart', { external: xmcp() });
  const c = await r.sdkClient();
  await r.step('lookup_order 1001', () => callText(c, 'lookup_order', { orderId: '1001' }));
  await r.server.restart();
  r.note({ serverRestarted: 'SIGKILL, started again on the same port' });
  await r.step('lookup_order 1002', () => callText(c, 'lookup_order', { orderId: '1002' }));
  await r.done([() => c.close()]);
};

for (const name of process.argv.length > 2 ? process.argv.slice(2) : Object.keys(S)) { process.stderr.write(`== ${name}\n`); await S[name](); }
process.exit(0);
