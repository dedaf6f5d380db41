// Records test/fixtures/real-audit12/ (the twelfth audit: mcporter and mcp-proxy) on 127.0.0.1, each incident five ways: mcporter 0.12.3's runtime and CLI against the SDK 1.32.2 McpServer,
// and mcp-proxy 6.7.19 (a stdio server bridged to Streamable HTTP) with the SDK 1.32.2 and v2 2.4.0 clients.
// NOT run by `npm test`: the packages are not dependencies of mcp-triage. Install them outside the repository, one folder each:
// test/fixtures/README.md, "Real-traffic fixtures: the twelfth audit (mcporter and mcp-proxy)", has the commands (mcporter/, mcp-proxy/ under $SCRATCH_AUDIT12, default /work/scratch-audit12).
// Then, from the repository: npm run build && node test/real-audit12/record.mjs [scenario...]
// The chain: the client (its fetch is recordingFetch: client.ndjson) -> [a fault hop, where the scenario needs one] -> a HAR-lines proxy (capture.har.ndjson)
// -> `mcp-triage record` (proxy.ndjson) -> the server: the SDK 1.32.2 McpServer behind recordingHandler (server.ndjson), or mcp-proxy's process behind a recording
// proxy with side "server" (server.ndjson). observed.json: what the app got, what the server's tools ran, what the hop did.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const SCRATCH = process.env.SCRATCH_AUDIT12 ?? '/work/scratch-audit12';
const { withCallNote } = await import(`${R}/dist/capture/index.js`);
const { freePort, sleep } = await import(`${R}/test/helpers/loopback.mjs`);
const { auditRig, clean, short } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { spawn } = await import('node:child_process');
const { createInterface } = await import('node:readline');
// mcporter reads ~/.mcporter and the editors' configs: a home of its own, empty
const HOME = mkdtempSync(`${tmpdir()}/audit12-home-`);
const temps = [HOME]; // removed at the end
const tempDir = (prefix) => { const d = mkdtempSync(`${tmpdir()}/${prefix}`); temps.push(d); return d; };
process.env.HOME = HOME;
delete process.env.XDG_CONFIG_HOME;
const MCPORTER = `${SCRATCH}/mcporter/node_modules/mcporter/dist`;
const MCP_PROXY_BIN = `${SCRATCH}/mcp-proxy/node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs`;

setTimeout(() => { process.stderr.write('still running after 300 s, giving up\n'); process.exit(2); }, 300_000).unref();

/**
 * The rig (test/helpers/audit-rig.mjs) with lookup_order annotated read-only and results kept short, plus mcporter's
 * runtime and its CLI on the rig's url.
 */
async function rig(name, opts = {}) {
  const r = await auditRig('real-audit12', name, { ...opts, lookupReadOnly: true, okOf: short, settleMs: 300 });
  const { d, url, rf, observed } = r;
  /** mcporter's runtime on a config of one HTTP server, `orders` (no imports); its SDK transport calls the global fetch, which is recordingFetch until done(). */
  const mcporter = async () => {
    const { createRuntime } = await import(`${MCPORTER}/index.js`);
    const { loadServerDefinitions } = await import(`${MCPORTER}/config.js`);
    const dir = tempDir('audit12-mcporter-');
    writeFileSync(`${dir}/mcporter.json`, JSON.stringify({ imports: [], mcpServers: { orders: { baseUrl: url } } }));
    globalThis.fetch = rf;
    const servers = await loadServerDefinitions({ configPath: `${dir}/mcporter.json`, rootDir: dir });
    return createRuntime({ servers, rootDir: dir, logger: { debug() {}, info: (m) => observed.push({ mcporterLog: clean(m).slice(0, 200) }), warn: (m) => observed.push({ mcporterLog: clean(m).slice(0, 200) }), error: (m) => observed.push({ mcporterLog: clean(m).slice(0, 200) }) } });
  };
  /** mcporter's CLI in a process of its own (its global fetch replaced by recordingFetch through --import); what it printed and its exit code. */
  const cli = async (args, { timeoutMs = 20_000 } = {}) => {
    const dir = tempDir('audit12-cli-');
    writeFileSync(`${dir}/mcporter.json`, JSON.stringify({ imports: [], mcpServers: { orders: { baseUrl: url } } }));
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', `${R}/test/real-audit12/recording-fetch-preload.mjs`, `${MCPORTER}/cli.js`, '--config', `${dir}/mcporter.json`, '--root', dir, ...args], { cwd: dir, env: { ...process.env, HOME, NO_COLOR: '1', AUDIT12_CLIENT_OUT: `${d}/client.ndjson` }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = ''; let err = '';
      child.stdout.on('data', (x) => (out += x)); child.stderr.on('data', (x) => (err += x));
      const t = setTimeout(() => process.kill(child.pid, 'SIGKILL'), timeoutMs);
      child.once('exit', (code, signal) => { clearTimeout(t); resolve({ exit: code ?? signal, stdout: clean(out).trim().slice(0, 400), stderr: clean(err).trim().slice(0, 400) }); });
    });
  };
  return { ...r, mcporter, cli };
}

const S = {};

// ------------------------------------------------------------------ mcporter 0.12.3: its runtime (createRuntime, callTool, listTools, close) and its CLI

S['mp-baseline'] = async () => {
  const r = await rig('mp-baseline');
  const rt = await r.mcporter();
  await r.step('listTools', async () => (await rt.listTools('orders')).map((t) => t.name));
  await r.step('lookup_order 1001', () => rt.callTool('orders', 'lookup_order', { args: { orderId: '1001' } }));
  await r.step('send_invoice 1001', () => rt.callTool('orders', 'send_invoice', { args: { orderId: '1001' } }));
  await r.step('runtime.close()', async () => { await rt.close(); return 'closed'; });
  await r.done();
};
S['mp-errors'] = async () => {
  // tool errors come back as isError results (no throw, the connection kept); then a client timeout, which mcporter answers by dropping the connection: the next call opens a new session
  const r = await rig('mp-errors');
  const rt = await r.mcporter();
  await r.step('crash (the tool throws)', () => rt.callTool('orders', 'crash'));
  await r.step('lookup_order with a number (bad arguments)', () => rt.callTool('orders', 'lookup_order', { args: { orderId: 1001 } }));
  await r.step('no_such_tool', () => rt.callTool('orders', 'no_such_tool'));
  await r.step('slow_report 10x100 (timeoutMs 300)', () => rt.callTool('orders', 'slow_report', { args: { steps: 10, stepMs: 100 }, timeoutMs: 300 }));
  await sleep(1200);
  await r.step('lookup_order 1002', () => rt.callTool('orders', 'lookup_order', { args: { orderId: '1002' } }));
  await r.step('runtime.close()', async () => { await rt.close(); return 'closed'; });
  await r.done();
};
S['mp-restart'] = async () => {
  // the server forgets its sessions between two calls: the 404 makes mcporter drop its connection; the app's next callTool opens a new session by itself
  const r = await rig('mp-restart');
  const rt = await r.mcporter();
  await r.step('lookup_order 1001', () => rt.callTool('orders', 'lookup_order', { args: { orderId: '1001' } }));
  await r.server.restart();
  r.note({ serverRestarted: 'every session forgotten' });
  await r.step('send_invoice 1002 (old session)', () => rt.callTool('orders', 'send_invoice', { args: { orderId: '1002' } }));
  await sleep(200);
  await r.step('send_invoice 1002 again (the app calls again)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => rt.callTool('orders', 'send_invoice', { args: { orderId: '1002' } })));
  await r.step('runtime.close()', async () => { await rt.close(); return 'closed'; });
  await r.done();
};
S['mp-503'] = async () => {
  // a gateway answers 503 (Retry-After: 1) to the first tools/call; mcporter drops the connection; the app calls again after 500 ms, in a new session
  const r = await rig('mp-503', { fault: ({ rpcMethod, n }) => (rpcMethod === 'tools/call' && n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'upstream connect error' } : undefined) });
  const rt = await r.mcporter();
  await r.step('send_invoice 1001 #1', () => rt.callTool('orders', 'send_invoice', { args: { orderId: '1001' } }));
  await sleep(500);
  await r.step('send_invoice 1001 #2', () => rt.callTool('orders', 'send_invoice', { args: { orderId: '1001' } }));
  await r.step('runtime.close()', async () => { await rt.close(); return 'closed'; });
  await r.done();
};
S['mp-init-503'] = async () => {
  // the gateway refuses every initialize (503): mcporter falls back to the old HTTP+SSE transport (a GET on the same URL) before it gives up
  const r = await rig('mp-init-503', { fault: ({ rpcMethod }) => (rpcMethod === 'initialize' ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'no healthy upstream' } : undefined) });
  const rt = await r.mcporter();
  await r.step('lookup_order 1001', () => rt.callTool('orders', 'lookup_order', { args: { orderId: '1001' } }));
  await r.step('runtime.close()', async () => { await rt.close(); return 'closed'; });
  await r.done();
};
S['mp-cut'] = async () => {
  // the hop ends the slow report's SSE stream before its result; mcporter's timeout (2 s) ends the wait; then a call that works
  const r = await rig('mp-cut', { fault: ({ rpcMethod, rpc }) => (rpcMethod === 'tools/call' && rpc?.params?.name === 'slow_report' ? { cut: true } : undefined) });
  const rt = await r.mcporter();
  await r.step('slow_report 3x100 (stream cut, timeoutMs 2000)', () => rt.callTool('orders', 'slow_report', { args: { steps: 3, stepMs: 100 }, timeoutMs: 2000 }));
  await sleep(300);
  await r.step('lookup_order 1001', () => rt.callTool('orders', 'lookup_order', { args: { orderId: '1001' } }));
  await r.step('runtime.close()', async () => { await rt.close(); return 'closed'; });
  await r.done();
};
S['mp-cli'] = async () => {
  // the CLI, one process per command: a near-miss tool name it corrects by itself (tools/list, then the right tool), a tool error, a timeout
  const r = await rig('mp-cli');
  await r.step('mcporter call orders.lookup-order orderId=1001', () => r.cli(['call', 'orders.lookup-order', 'orderId=1001', '--raw-strings', '--output', 'json']));
  await r.step('mcporter call orders.crash', () => r.cli(['call', 'orders.crash', '--output', 'json']));
  await r.step('mcporter call orders.slow_report steps=10 stepMs=100 --timeout 300', () => r.cli(['call', 'orders.slow_report', 'steps=10', 'stepMs=100', '--timeout', '300', '--output', 'json']));
  await sleep(1200); // the report's last step, which nobody waits for
  await r.done();
};

// ------------------------------------------------------------------ mcp-proxy 6.7.19: test/real-audit12/servers/stdio-orders.mjs over stdio, bridged to Streamable HTTP by its CLI

/** mcp-proxy's CLI on a free port in front of the stdio server; restart() kills it (SIGKILL) and starts it again there; ran[] the tool bodies the child reported. */
const mcpProxy = (extra = []) => async () => {
  const port = await freePort();
  const ran = [];
  let child;
  const start = () => new Promise((resolve, reject) => {
    child = spawn(process.execPath, [MCP_PROXY_BIN, '--port', String(port), '--host', '127.0.0.1', '--server', 'stream', ...extra, '--', process.execPath, `${R}/test/real-audit12/servers/stdio-orders.mjs`], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const t = setTimeout(() => reject(new Error('mcp-proxy did not start')), 20_000);
    const on = (l) => {
      const m = /^ran (.*)$/.exec(l); if (m) ran.push(m[1]);
      else if (/error|exit|closed/i.test(l) && !/^\s+at /.test(l)) ran.push(`mcp-proxy logged: ${clean(l).slice(0, 160)}`);
      if (/starting server on port/.test(l)) {
        (async () => { for (let i = 0; i < 100; i++) { try { await fetch(`http://127.0.0.1:${port}/ping`); clearTimeout(t); return resolve(); } catch { await sleep(50); } } })();
      }
    };
    createInterface({ input: child.stdout }).on('line', on);
    createInterface({ input: child.stderr }).on('line', on);
  });
  const kill = () => new Promise((r) => { if (child.exitCode !== null) return r(); child.once('exit', r); process.kill(child.pid, 'SIGKILL'); });
  await start();
  return { url: `http://127.0.0.1:${port}`, ran, async restart() { await kill(); await start(); }, close: kill };
};
const callText = async (c, name, args, opts) => c.callTool({ name, arguments: args }, undefined, opts);

S['px-errors'] = async () => {
  // the SDK 1.32.2 client through mcp-proxy: a success, a tool that throws, an isError result, bad arguments, an unknown tool, progress, a ping
  const r = await rig('px-errors', { external: mcpProxy() });
  const c = await r.sdkClient();
  await r.step('tools/list', async () => (await c.listTools()).tools.map((t) => t.name));
  await r.step('lookup_order 1001', () => callText(c, 'lookup_order', { orderId: '1001' }));
  await r.step('crash (the tool throws)', () => callText(c, 'crash', {}));
  await r.step('refuse (an isError result)', () => callText(c, 'refuse', {}));
  await r.step('lookup_order with a number (bad arguments)', () => callText(c, 'lookup_order', { orderId: 1001 }));
  await r.step('no_such_tool', () => callText(c, 'no_such_tool', {}));
  await r.step('slow_report 3x50 with progress', async () => { const seen = []; const x = await callText(c, 'slow_report', { steps: 3, stepMs: 50 }, { onprogress: (p) => seen.push(p.progress) }); return { ...short(x), progressSeen: seen }; });
  await r.step('ping', () => c.ping());
  await r.step('sessionId after initialize', async () => (c.transportRef.sessionId ? 'set' : null));
  await r.step('terminateSession (DELETE)', async () => { await c.transportRef.terminateSession(); return 'terminated'; });
  await r.done([() => c.close()]);
};
S['px-v2-client'] = async () => {
  // the v2 client 2.4.0 with version negotiation: mcp-proxy's 2026-07-28 leg (per request)
  const r = await rig('px-v2-client', { external: mcpProxy() });
  const c = await r.step('connect', async () => r.sdkClient({ v2: true }));
  r.observed.at(-1).ok = c ? { protocolVersion: c.transportRef.protocolVersion ?? null } : null;
  if (c) {
    await r.step('lookup_order 1001', () => callText(c, 'lookup_order', { orderId: '1001' }));
    await r.step('crash (the tool throws)', () => callText(c, 'crash', {}));
    await r.step('no_such_tool', () => callText(c, 'no_such_tool', {}));
    await r.step('slow_report 3x50 with progress', async () => { const seen = []; const x = await callText(c, 'slow_report', { steps: 3, stepMs: 50 }, { onprogress: (p) => seen.push(p.progress) }); return { ...short(x), progressSeen: seen }; });
  }
  await r.done(c ? [() => c.close()] : []);
};
S['px-timeout'] = async () => {
  // the client gives up on a slow report after 300 ms (notifications/cancelled): does the cancel reach the stdio server through the bridge?
  const r = await rig('px-timeout', { external: mcpProxy() });
  const c = await r.sdkClient();
  await r.step('slow_report 10x100 (client timeout 300 ms)', () => callText(c, 'slow_report', { steps: 10, stepMs: 100 }, { timeout: 300 }));
  await sleep(1300);
  await r.step('lookup_order 1001', () => callText(c, 'lookup_order', { orderId: '1001' }));
  await r.done([() => c.close()]);
};
S['px-child-crash'] = async () => {
  // the stdio server dies in the middle of a call (process.exit): what the caller gets, then what the bridge answers to the same session and to a new one
  const r = await rig('px-child-crash', { external: mcpProxy(['--requestTimeout', '3000']) });
  const c = await r.sdkClient();
  await r.step('lookup_order 1001', () => callText(c, 'lookup_order', { orderId: '1001' }));
  await r.step('die (the stdio server exits)', () => callText(c, 'die', {}, { timeout: 5000 }));
  await sleep(300);
  await r.step('lookup_order 1002 (same session)', () => callText(c, 'lookup_order', { orderId: '1002' }, { timeout: 5000 }));
  const c2 = await r.step('connect again (a new session)', async () => { const x = await r.sdkClient(); return x; });
  r.observed.at(-1).ok = c2 ? 'connected' : null;
  if (c2) await r.step('lookup_order 1002 (new session)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => callText(c2, 'lookup_order', { orderId: '1002' }, { timeout: 5000 })));
  await r.done([() => c2?.close(), () => c.close()]);
};
S['px-restart'] = async () => {
  // mcp-proxy itself is killed and started again on the same port: the old session id is unknown to it; the app connects again
  const r = await rig('px-restart', { external: mcpProxy() });
  const c = await r.sdkClient();
  await r.step('lookup_order 1001', () => callText(c, 'lookup_order', { orderId: '1001' }));
  await r.server.restart();
  r.note({ serverRestarted: 'SIGKILL, started again on the same port' });
  await r.step('send_invoice 1002 (old session)', () => callText(c, 'send_invoice', { orderId: '1002' }));
  await sleep(300);
  const c2 = await r.sdkClient();
  await r.step('send_invoice 1002 (new session)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => callText(c2, 'send_invoice', { orderId: '1002' })));
  await r.done([() => c2.close(), () => c.close()]);
};
S['px-stateless'] = async () => {
  // --stateless: a server instance per request, no session id
  const r = await rig('px-stateless', { external: mcpProxy(['--stateless']) });
  const c = await r.sdkClient();
  await r.step('lookup_order 1001', () => callText(c, 'lookup_order', { orderId: '1001' }));
  await r.step('crash (the tool throws)', () => callText(c, 'crash', {}));
  await r.step('slow_report 3x50 with progress', async () => { const seen = []; const x = await callText(c, 'slow_report', { steps: 3, stepMs: 50 }, { onprogress: (p) => seen.push(p.progress) }); return { ...short(x), progressSeen: seen }; });
  await r.step('sessionId after initialize', async () => (c.transportRef.sessionId ? 'set' : null));
  await r.done([() => c.close()]);
};
S['px-mcporter'] = async () => {
  // mcporter's runtime through mcp-proxy: a call, the stdio server's isError, and a 429 from a rate limiter in front (mcporter drops the connection; the app calls again)
  let limited = false; // the rate limiter refuses the first send_invoice only
  const r = await rig('px-mcporter', { external: mcpProxy(), fault: ({ rpcMethod, rpc }) => (rpcMethod === 'tools/call' && rpc?.params?.name === 'send_invoice' && !limited ? ((limited = true), { respond: 429, headers: { 'content-type': 'application/json', 'retry-after': '0' }, body: '{"error":"rate limited"}' }) : undefined) });
  const rt = await r.mcporter();
  await r.step('lookup_order 1001', () => rt.callTool('orders', 'lookup_order', { args: { orderId: '1001' } }));
  await r.step('refuse (an isError result)', () => rt.callTool('orders', 'refuse'));
  await r.step('send_invoice 1001 #1', () => rt.callTool('orders', 'send_invoice', { args: { orderId: '1001' } }));
  await sleep(300);
  await r.step('send_invoice 1001 #2', () => rt.callTool('orders', 'send_invoice', { args: { orderId: '1001' } }));
  await r.step('runtime.close()', async () => { await rt.close(); return 'closed'; });
  await r.done();
};

for (const name of process.argv.length > 2 ? process.argv.slice(2) : Object.keys(S)) { process.stderr.write(`== ${name}\n`); await S[name](); }
for (const d of temps) rmSync(d, { recursive: true, force: true });
process.exit(0);
