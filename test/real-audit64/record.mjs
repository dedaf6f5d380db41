// The sixty-fourth audit's recorder: the MCP Inspector 2.12.0's CLI (`npx @modelcontextprotocol/inspector --cli`, one process and one session per invocation) against real SDK servers (test/real-audit64/servers.mjs: SDK 1.32.2 and v2 2.4.0) and @modelcontextprotocol/server-everything, seen by a HAR-lines proxy, the record proxy and the server's recordingHandler.
// Usage: INSPECTOR_DIR=/work/scratch-inspector node test/real-audit64/record.mjs [case...]   (needs dist/: npm run build;
// the Inspector and server-everything installed in INSPECTOR_DIR, Node >= 20). Ports 9000-9099 on 127.0.0.1.
// Writes test/fixtures/real-audit64/<case>/: har.ndjson (HAR entries, one a line: what the Inspector sent and got),
// proxy.ndjson (`mcp-triage record` between the HAR proxy and the server; a fault hop, where there is one, after it),
// server.ndjson (recordingHandler around the SDK server: its own HTTP layer's faults inside it; none for everything),
// observed.json (each Inspector invocation: its argv, exit code, stdout and stderr; the tool bodies the server ran).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFaultHop, startHarProxy, startRecordProxy, sleep } from '../helpers/loopback.mjs';
import { startServer } from './servers.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit64/', import.meta.url));
const INSPECTOR_DIR = process.env.INSPECTOR_DIR ?? '/work/scratch-inspector';
const LAUNCHER = join(INSPECTOR_DIR, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const EVERYTHING = join(INSPECTOR_DIR, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const LOOPBACK_ONLY = fileURLToPath(new URL('loopback-only.mjs', import.meta.url));

// One Inspector CLI invocation: its arguments after the URL (the URL is the HAR proxy's, added by run()).
const call = (tool, ...args) => ['--method', 'tools/call', '--tool-name', tool, ...(args.length ? ['--tool-arg', ...args] : [])];
const list = ['--method', 'tools/list'];
const tools = (rpc) => rpc?.method === 'tools/call';
const toolNamed = (name) => (rpc) => rpc?.method === 'tools/call' && rpc.params?.name === name;

// server: servers.mjs options (or 'everything'); fault: inside the server's recording; hop: a fault hop after the
// record proxy (the server never sees what it answers); runs: the invocations in order; transport: --transport
export const cases = {
  // each basic outcome, one invocation each, as a person tries a server out
  'v1-basics': {
    server: { sdk: 'v1' },
    runs: [list, call('echo', 'text=hello'), call('fail_result', 'reason=disk full'), call('nope'), call('add', 'a=x', 'b=2'), call('add', 'a=1', 'b=2'), call('throws_protocol', 'orderId=A-7'), call('chatty', 'steps=3'),
      ['--method', 'resources/read', '--uri', 'docs://readme'], ['--method', 'resources/read', '--uri', 'docs://missing'], ['--method', 'prompts/get', '--prompt-name', 'greet', '--prompt-args', 'name=Ada'], ['--method', 'prompts/get', '--prompt-name', 'greet']],
  },
  'v2-basics': {
    server: { sdk: 'v2' },
    runs: [list, call('echo', 'text=hello'), call('fail_result'), call('add', 'a=x', 'b=2'), call('throws_protocol', 'orderId=A-7'), call('chatty', 'steps=2'),
      ['--method', 'resources/read', '--uri', 'docs://missing'], ['--method', 'prompts/get', '--prompt-name', 'greet']],
  },
  // the 2026-07-28 era: --protocol-era modern (pinned) and auto (probed) against the v2 server
  'v2-modern': {
    server: { sdk: 'v2' },
    runs: [['--protocol-era', 'modern', ...call('echo', 'text=modern')], ['--protocol-era', 'auto', ...call('echo', 'text=auto')], ['--protocol-era', 'modern', ...call('throws_protocol')], ['--protocol-era', 'modern', ...call('chatty', 'steps=2')]],
  },
  'v1-modern-asked': { server: { sdk: 'v1' }, runs: [['--protocol-era', 'auto', ...call('echo', 'text=auto')], ['--protocol-era', 'modern', ...call('echo', 'text=modern')]] },
  'v1-json': { server: { sdk: 'v1', mode: 'json' }, runs: [call('echo', 'text=json'), call('chatty', 'steps=2'), call('fail_result')] },
  'v1-stateless': { server: { sdk: 'v1', mode: 'stateless' }, runs: [list, call('echo', 'text=stateless'), call('throws_protocol')] },
  'v1-legacy-sse': { server: { sdk: 'v1', mode: 'sse' }, path: '/sse', transport: 'sse', runs: [list, call('echo', 'text=sse'), call('fail_result')] },
  // a tool slower than the config file's requestTimeout (1500 ms: the CLI does not apply it), then one slower than the
  // SDK's default 60 s request timeout, which the CLI keeps
  'v1-timeout': { server: { sdk: 'v1' }, timeoutConfig: 1500, killAfterMs: 100_000, settleMs: 4000, runs: [{ config: true, argv: call('slow', 'ms=3000') }, call('slow', 'ms=63000')] },
  'v2-timeout-modern': { server: { sdk: 'v2' }, killAfterMs: 100_000, settleMs: 4000, runs: [['--protocol-era', 'modern', ...call('slow', 'ms=63000')]] },
  // the server's HTTP layer answers the first tools/call 500, then 503 (Retry-After) on the next; a person re-runs
  'v1-500-rerun': {
    server: { sdk: 'v1' }, fault: ({ rpc }, seen) => (tools(rpc) && seen('call') === 1 ? { respond: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' } : undefined),
    runs: [call('echo', 'text=order 42'), call('echo', 'text=order 42')],
  },
  'v1-503-rerun': {
    server: { sdk: 'v1' }, fault: ({ rpc }, seen) => (tools(rpc) && seen('call') <= 2 ? { respond: 503, headers: { 'retry-after': '2', 'content-type': 'text/plain' }, body: 'Service Unavailable' } : undefined),
    runs: [call('add', 'a=1', 'b=2'), call('add', 'a=1', 'b=2'), call('add', 'a=1', 'b=2')],
  },
  // the session forgotten between tools/list and tools/call (a restarted server): 404 to the call
  'v1-404-session': {
    server: { sdk: 'v1' }, fault: ({ rpc, req }, seen) => (tools(rpc) && seen('call') === 1 ? { respond: 404, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }) } : undefined),
    runs: [call('echo', 'text=gone'), call('echo', 'text=gone')],
  },
  // every request 401 with WWW-Authenticate (resource metadata that does not exist); --stored-auth-only, then plain
  'v1-401': {
    server: { sdk: 'v1' }, fault: ({ req, port }) => (req.url.startsWith('/mcp') ? { respond: 401, headers: { 'www-authenticate': `Bearer realm="mcp", resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`, 'content-type': 'application/json' }, body: JSON.stringify({ error: 'invalid_token', error_description: 'Missing bearer token' }) } : { respond: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found' }),
    runs: [['--stored-auth-only', ...call('echo', 'text=secret')], ['--header', 'Authorization: Bearer not-a-real-token-123', ...call('echo', 'text=secret')]],
  },
  // the tool's SSE response cut after its head, before the result (a hop after the record proxy); a person re-runs
  'v1-cut-rerun': { server: { sdk: 'v1' }, killAfterMs: 90_000, hop: ({ rpc }, seen) => (tools(rpc) && seen('call') === 1 ? { cut: true } : undefined), runs: [call('chatty', 'steps=3'), call('chatty', 'steps=3')] },
  // the connection dropped under the call (no response at all), the server's HTTP layer; re-run
  'v2-drop-rerun': { server: { sdk: 'v2' }, fault: ({ rpc }, seen) => (tools(rpc) && seen('call') === 1 ? { destroy: true } : undefined), runs: [call('echo', 'text=drop'), call('echo', 'text=drop')] },
  // a person runs the same call again and again although it worked, and again after an isError
  'v1-reruns-ok': { server: { sdk: 'v1' }, runs: [call('echo', 'text=same'), call('echo', 'text=same'), call('fail_result', 'reason=x'), call('fail_result', 'reason=x')] },
  // --load: one session, 12 calls, 4 at once; the server's HTTP layer answers the 5th 503
  'v1-load': { server: { sdk: 'v1' }, fault: ({ rpc }, seen) => (tools(rpc) && seen('call') === 5 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'Service Unavailable' } : undefined), runs: [['--load', '--load-requests', '12', '--load-concurrency', '4', ...call('echo', 'text=load')]] },
  // nothing listens behind the proxy: the record proxy answers
  'down': { server: 'none', runs: [call('echo', 'text=down'), call('echo', 'text=down')] },
  // the reference server people pair with the Inspector, its Streamable HTTP mode
  'everything': {
    server: 'everything',
    runs: [list, call('echo', 'message=hi'), call('get-sum', 'a=2', 'b=3'), call('trigger-long-running-operation', 'duration=1', 'steps=2'), call('get-annotated-message', 'messageType=error'), ['--method', 'resources/read', '--uri', 'demo://resource/static/document/missing.md'], ['--method', 'prompts/get', '--prompt-name', 'simple-prompt'], call('trigger-elicitation-request')],
  },
};

function runInspector(argv, { env, timeoutMs = 60_000 }) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [LAUNCHER, '--cli', ...argv], { cwd: env.HOME, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ exit: code, signal, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

const ports = /127\.0\.0\.1:\d+/g;
const clean = (s) => String(s).replace(ports, '127.0.0.1:<port>').replace(/\/tmp\/a64-home-[^/\s"]+/g, '<home>');

async function startEverything(port) {
  const child = spawn(process.execPath, ['--import', LOOPBACK_ONLY, EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  for (let i = 0; i < 100 && !/listening/i.test(err); i++) await sleep(50);
  return { url: `http://127.0.0.1:${port}`, ran: [], stderr: () => err, close: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }) };
}

async function record(name, c, i) {
  const dir = `${ROOT}${name}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const base = 9000 + 4 * i;
  const counts = new Map();
  const counter = (decide) => decide && ((info) => {
    if (tools(info.rpc)) counts.set('call', (counts.get('call') ?? 0) + 1);
    return decide({ ...info, port: base + 3 }, (k) => counts.get(k) ?? 0);
  });
  let server;
  if (c.server === 'everything') server = await startEverything(base);
  else if (c.server === 'none') server = { url: `http://127.0.0.1:${base}`, ran: [], close: async () => {} };
  else server = await startServer({ ...c.server, port: base, out: `${dir}server.ndjson`, fault: counter(c.fault) });
  const hop = c.hop ? await startFaultHop(server.url, counter(c.hop)) : null;
  const proxy = await startRecordProxy(hop ? hop.url : server.url, `${dir}proxy.ndjson`);
  const har = await startHarProxyAt(proxy.url, `${dir}har.ndjson`, base + 3);
  const home = mkdtempSync(join(tmpdir(), 'a64-home-'));
  const env = { PATH: process.env.PATH, HOME: home, MCP_AUTO_OPEN_ENABLED: 'false', MCP_STORAGE_DIR: join(home, 'storage'), NO_COLOR: '1' };
  const url = `${har.url}${c.path ?? '/mcp'}`;
  if (c.timeoutConfig) writeFileSync(join(home, 'config.json'), JSON.stringify({ mcpServers: { target: { type: 'streamable-http', url, requestTimeout: c.timeoutConfig } } }, null, 2));
  const runs = [];
  for (const r of c.runs) {
    const spec = Array.isArray(r) ? { argv: r } : r;
    const argv = spec.config ? ['--config', join(home, 'config.json'), '--server', 'target', ...spec.argv] : [url, ...(c.transport ? ['--transport', c.transport] : []), ...spec.argv];
    const out = await runInspector(argv, { env, timeoutMs: c.killAfterMs ?? 60_000 });
    runs.push({ argv: argv.map(clean), exit: out.exit, ...(out.signal ? { signal: out.signal } : {}), stdout: clean(out.stdout).slice(0, 4000), stderr: clean(out.stderr).slice(0, 4000), ms: out.ms });
    console.log(`  ${name}: ${spec.argv.join(' ')} -> exit ${out.exit} (${out.ms} ms) ${clean(out.stderr).split('\n').filter(Boolean).slice(-1)[0] ?? ''}`);
    await sleep(c.server === 'everything' ? 300 : 150);
  }
  // a late answer (the timed-out tools) lands after the Inspector gave up: let it
  await sleep(c.settleMs ?? 400);
  await har.close();
  await proxy.stop();
  if (hop) await hop.close();
  const everythingLog = c.server === 'everything' ? server.stderr() : undefined;
  await server.close();
  rmSync(home, { recursive: true, force: true });
  const o = { client: 'MCP Inspector 2.12.0 CLI (@modelcontextprotocol/inspector)', server: c.server === 'everything' ? '@modelcontextprotocol/server-everything (streamableHttp)' : c.server, ...(c.timeoutConfig ? { requestTimeoutMs: c.timeoutConfig } : {}), runs, ran: server.ran, ...(everythingLog ? { serverStderr: clean(everythingLog).slice(0, 3000) } : {}) };
  writeFileSync(`${dir}observed.json`, `${JSON.stringify(o, null, 2)}\n`);
  gzipBig(dir);
}

/** Logs over 100 kB are kept gzipped (mcp-triage reads .gz), as earlier audits keep theirs. */
export function gzipBig(dir) {
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.ndjson') || statSync(join(dir, f)).size <= 100_000) continue;
    writeFileSync(join(dir, `${f}.gz`), gzipSync(readFileSync(join(dir, f)), { level: 9 }));
    rmSync(join(dir, f));
  }
}

// the HAR proxy at a fixed port (the WWW-Authenticate in v1-401 names it)
const startHarProxyAt = (upstream, out, port) => startHarProxy(upstream, out, port);

const pick = process.argv.slice(2);
if (pick[0] === '--gzip') {
  for (const d of readdirSync(ROOT)) gzipBig(join(ROOT, d));
  process.exit(0);
}
for (const [i, [name, c]] of Object.entries(cases).entries()) if (pick.length === 0 || pick.includes(name)) await record(name, c, i);
process.exit(0);
