// The sixty-seventh audit's recorder: real SDK clients (1.32.2 v1, 2.x v2, Python mcp 2.3.0) whose call times out (a silent stream, a cut stream) and whose app or person calls again, with the near misses that are no retry, against test/real-audit67/server.mjs on 127.0.0.1 (ports 9300-9399); writes test/fixtures/real-audit67/<scenario>/.
// Usage (after npm run build, from the repo root): node test/real-audit67/record.mjs [scenario...]  (no scenario: all, run at
// once in parallel, about 7 minutes: several wait out the SDK's real 60 s default timeout, and py-hang-default's app,
// which never gives up, is killed after 420 s).
// Each folder: client.ndjson (recordingFetch in the TypeScript app, every run of it appended; none for py-*), proxy.ndjson
// (`mcp-triage record --side client` in front of the server: py-* and the scenarios marked proxy), client-debug.log (the
// Python app's DEBUG log), server.ndjson (recordingHandler), observed.json: each call as the app saw it (by: "app" its
// first call, "app-retry" the app's catch calling again; run: which process, a run after the first being a person
// running the command again), each tool body and tools/call POST as the server saw it, each run's exit code.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const OUT = `${HERE}../fixtures/real-audit67/`;
const BIN = `${HERE}../../dist/bin.cjs`;
const PY = process.env.PYTHON ?? '/work/py-venv/bin/python';

const hang = (order, times, timeout, retry, waitMs) => ({ tool: 'hang', args: { order, times }, ...(timeout ? { timeout } : {}), ...(retry ? { retry } : {}), ...(waitMs ? { waitMs } : {}) });
const cut = (order, times, how, timeout, retry, waitMs) => ({ tool: 'cut', args: { order, times, how }, ...(timeout ? { timeout } : {}), ...(retry ? { retry } : {}), ...(waitMs ? { waitMs } : {}) });
const echo = (text, waitMs) => ({ tool: 'echo', args: { text }, ...(waitMs ? { waitMs } : {}) });
const slow = (ms, timeout, waitMs) => ({ tool: 'slow', args: { ms }, timeout, ...(waitMs ? { waitMs } : {}) });

// client; runs: each a process of the app with its steps (gapMs before it: a person re-running the command), and auth
export const SCENARIOS = {
  // a tool that never answers: the SDK's 3 s timeout, the app calls again (answered); then the same call after its success
  'v1-hang-retry': { client: 'v1', runs: [{ steps: [hang('A', 1, 3000, true), hang('A', 1, 3000, false, 500)] }] },
  'v2-hang-retry': { client: 'v2', runs: [{ steps: [hang('A', 1, 3000, true), hang('A', 1, 3000, false, 500)] }] },
  'py-hang-retry': { client: 'py', runs: [{ steps: [hang('A', 1, 3000, true), hang('A', 1, 3000, false, 500)] }] },
  // the Python app with no timeout of its own (read_timeout_seconds None): its httpx client's 300 s read timeout ends the
  // silent stream; the app calls again (recorded after the audit, for its Known gap)
  'py-hang-default': { client: 'py', runs: [{ steps: [hang('A', 1, undefined, true)] }] },
  // Recorded later, for py-hang-default's riddle: the SDK 1.32.2 server sends `: keepalive` on an open stream every 15 s,
  // so an httpx read timeout over 15 s never fires on a silent tool (20 s: the app is killed at 50 s), one under it does
  // (8 s: the SDK ends the call "SSE stream ended without a response", the app calls again); the TypeScript client's
  // own 40 s timeout on a silent tool, two keep-alives before it
  'py-hang-read20': { client: 'py', readS: 20, killMs: 50_000, runs: [{ steps: [hang('A', 1, undefined, true)] }] },
  'py-hang-read8': { client: 'py', readS: 8, runs: [{ steps: [hang('A', 1, undefined, true)] }] },
  'v1-hang-40s': { client: 'v1', runs: [{ steps: [hang('A', 1, 40_000)] }] },
  // the same against the Python SDK's server, whose streams carry sse-starlette's `: ping - <time>` every 15 s: the
  // record proxy in front of it (it has no recordingHandler)
  'v1-pyserver-hang-40s': { client: 'v1', server: 'py', proxy: true, runs: [{ steps: [hang('A', 1, 40_000)] }] },
  // the same with the SDK's real default (60 s)
  'v1-hang-default': { client: 'v1', runs: [{ steps: [hang('A', 1, undefined, true)] }] },
  // the call's stream ended (clean) after its head: the client waits its 3 s timeout, the app calls again
  'v1-cut-retry': { client: 'v1', runs: [{ steps: [cut('B', 1, 'end', 3000, true)] }] },
  'v2-cut-retry': { client: 'v2', runs: [{ steps: [cut('B', 1, 'end', 3000, true)] }] },
  'py-cut-retry': { client: 'py', runs: [{ steps: [cut('B', 1, 'end', 3000, true)] }] },
  // the same with the default 60 s timeout
  'v1-cut-default': { client: 'v1', runs: [{ steps: [cut('B', 1, 'end', undefined, true)] }] },
  'v2-cut-default': { client: 'v2', runs: [{ steps: [cut('B', 1, 'destroy', undefined, true)] }] },
  // a one-shot command: its call's connection destroyed after the head, it waits 60 s and exits 1; a person runs it again
  'v1-cut-rerun-cli': { client: 'v1', runs: [{ steps: [cut('C', 1, 'destroy')] }, { gapMs: 2000, steps: [cut('C', 1, 'destroy')] }] },
  // the same one-shot command exiting in its catch at once (process.exit(1)): does its notifications/cancelled go out?
  // Behind the record proxy too (proxy.ndjson: what a proxy in front of the server sees)
  'v1-cut-rerun-exit': { client: 'v1', proxy: true, exitAtOnce: true, runs: [{ steps: [cut('C', 1, 'destroy')] }, { gapMs: 2000, steps: [cut('C', 1, 'destroy')] }] },
  'v1-hang-rerun-exit': { client: 'v1', proxy: true, exitAtOnce: true, runs: [{ steps: [hang('G', 1)] }, { gapMs: 2000, steps: [hang('G', 1)] }] },
  // near misses: after a cut call timed out (60 s), the app calls the same tool with other arguments 10 s later, and the
  // first call's arguments again 65 s after its timeout (more than timeout + window after it began): both calls of their own
  'v1-cut-late': { client: 'v1', runs: [{ steps: [cut('D', 1, 'end'), cut('F', 0, 'end', undefined, false, 10_000), cut('D', 1, 'end', undefined, false, 55_000)] }] },
  // near misses: a long call that succeeds (62 s, 90 s timeout), then the same call; a quick call and the same one 75 s later
  'v1-slow-ok': { client: 'v1', runs: [{ steps: [slow(62_000, 90_000), slow(62_000, 90_000, 200)] }] },
  'v1-same-later': { client: 'v1', runs: [{ steps: [echo('X'), echo('X', 75_000)] }] },
  // 401 to a static token, then a person runs the app again with another (right) token: a new process and session
  'v1-401-rerun': { client: 'v1', proxy: true, token: 'right-token-67', runs: [{ auth: 'Bearer wrong-token-67', steps: [echo('secret')] }, { gapMs: 1500, auth: 'Bearer right-token-67', steps: [echo('secret')] }] },
};

const procs = [];
const start = (cmd, args, env, cwd, log) => {
  const p = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  p.stdout.on('data', (d) => appendFileSync(`${cwd}/${log}`, d));
  p.stderr.on('data', (d) => appendFileSync(`${cwd}/${log}`, d));
  procs.push(p);
  return p;
};
const done = (p) => new Promise((r) => (p.exitCode !== null || p.signalCode !== null ? r(p.exitCode) : p.on('exit', (c) => r(c))));
const stop = async (p) => { if (p.exitCode === null && p.signalCode === null) { p.kill('SIGTERM'); await Promise.race([done(p), sleep(3000)]); if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL'); } };
const waitFor = async (dir, log, text) => { for (let i = 0; i < 200; i++) { if (existsSync(`${dir}/${log}`) && readFileSync(`${dir}/${log}`, 'utf8').includes(text)) return; await sleep(50); } };
const waitPort = async (port) => { for (let i = 0; i < 400; i++) { try { await fetch(`http://127.0.0.1:${port}/`); return; } catch { await sleep(50); } } };
const lines = (f) => (existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);

async function record(name, sc, base) {
  const dir = `${OUT}${name}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = sc.server === 'py'
    ? start(PY, [`${HERE}py_server.py`, String(base)], {}, dir, 'server.log')
    : start('node', [`${HERE}server.mjs`], { PORT: String(base), ...(sc.token ? { TOKEN: sc.token } : {}) }, dir, 'server.log');
  if (sc.server === 'py') await waitPort(base);
  else await waitFor(dir, 'server.log', 'listening');
  let url = `http://127.0.0.1:${base}/mcp`;
  let proxy;
  if (sc.client === 'py' || sc.proxy) {
    proxy = start('node', [BIN, 'record', '--listen', `127.0.0.1:${base + 1}`, '--target', `http://127.0.0.1:${base}`, '--out', `${dir}/proxy.ndjson`, '--side', 'client'], {}, dir, 'proxy.log');
    await waitFor(dir, 'proxy.log', 'appending');
    url = `http://127.0.0.1:${base + 1}/mcp`;
  }
  const runs = [];
  for (const [i, r] of sc.runs.entries()) {
    if (r.gapMs) await sleep(r.gapMs);
    const env = { RUN: String(i + 1), STEPS: JSON.stringify(r.steps), CLIENT: sc.client, ...(r.auth ? { AUTH: r.auth } : {}), ...(sc.exitAtOnce ? { EXIT_AT_ONCE: '1' } : {}), ...(sc.readS ? { READ_S: String(sc.readS) } : {}) };
    const t0 = Date.now();
    const p = sc.client === 'py' ? start(PY, [`${HERE}py_app.py`, url], env, dir, 'client.log') : start('node', [`${HERE}app.mjs`, url], env, dir, 'client.log');
    const killMs = sc.killMs ?? 420_000;
    const exit = await Promise.race([done(p), sleep(killMs).then(() => `killed after ${killMs / 1000} s`)]);
    if (typeof exit === 'string') await stop(p);
    runs.push({ run: i + 1, ...(sc.readS ? { httpxReadS: sc.readS } : {}), ...(r.auth ? { authorization: r.auth.replace(/Bearer (\w+)-token-67/, 'Bearer <$1 token>') } : {}), steps: r.steps, exit, ms: Date.now() - t0 });
    console.log(`${name}: run ${i + 1} exit ${exit} (${Date.now() - t0} ms)`);
  }
  await sleep(1000);
  if (proxy) await stop(proxy);
  await stop(server);
  const observed = {
    scenario: name,
    client: { v1: '@modelcontextprotocol/sdk 1.32.2', v2: '@modelcontextprotocol/client 2.x (legacy era)', py: 'Python mcp 2.3.0' }[sc.client],
    server: sc.server === 'py' ? 'Python mcp 2.3.0 MCPServer on uvicorn, stateful, SSE (test/real-audit67/py_server.py)' : '@modelcontextprotocol/sdk 1.32.2 McpServer, stateful, SSE (test/real-audit67/server.mjs)',
    runs,
    // what the app saw: each call (by "app" or "app-retry"; a run after the first is a person's re-run)
    calls: lines(`${dir}/truth-client.ndjson`),
    // what the server saw: each tool body, each cut, each tools/call POST's close
    server: lines(`${dir}/truth-server.ndjson`),
  };
  writeFileSync(`${dir}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
  for (const f of ['truth-client.ndjson', 'truth-server.ndjson']) rmSync(`${dir}/${f}`, { force: true });
  for (const f of ['server.log', 'proxy.log', 'client.log']) if (existsSync(`${dir}/${f}`)) { appendFileSync(process.env.RUN_LOGS ?? '/tmp/a67-run-logs.txt', `== ${name}/${f}\n${readFileSync(`${dir}/${f}`, 'utf8')}\n`); rmSync(`${dir}/${f}`); }
}

process.on('exit', () => { for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL'); });
const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(SCENARIOS);
const all = Object.keys(SCENARIOS);
// each scenario its own ports (9300 + 4 * its index), all at once
await Promise.all(names.map((n) => record(n, SCENARIOS[n], 9300 + 4 * all.indexOf(n))));
process.exit(0);
