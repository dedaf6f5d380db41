// Records test/fixtures/real-python-debug/: the Python SDK 2.3.0 client's own DEBUG log (Python logging), against the
// Python SDK's server (test/real-chaos-py/py_server.py) answering with SSE (the default) and with JSON (json_response),
// and the server's side of the same traffic as `mcp-triage record --side server` saw it in front of the server.
// http-errors: the client behind fault-proxy.mjs (503, 500, and a 503 while two POSTs are in flight), the proxy in front
// of `mcp-triage record --side server`.
//   npm run build && node test/real-python-debug/record.mjs [SCENARIO...]   (needs /work/py-venv with mcp 2.3.0, or PYTHON)
// With scenario names, only those are recorded again (observed.json keeps the others).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PY = process.env.PYTHON ?? '/work/py-venv/bin/python';
const HERE = fileURLToPath(new URL('./', import.meta.url));
const OUT = fileURLToPath(new URL('../fixtures/real-python-debug/', import.meta.url));
const SERVER = fileURLToPath(new URL('../real-chaos-py/py_server.py', import.meta.url));
const BIN = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const only = process.argv.slice(2);
const wanted = (scenario) => only.length === 0 || only.includes(scenario);
const observed = only.length && existsSync(`${OUT}observed.json`) ? JSON.parse(readFileSync(`${OUT}observed.json`, 'utf8')) : {};
// Both ends' own DEBUG logs (the server's too), no proxy: the legacy HTTP+SSE transport, and Streamable HTTP (whose
// server logs no message).
for (const [scenario, transport, path] of [['legacy-sse', 'sse', '/sse'], ['streamable-server', 'streamable', '/mcp']]) {
  if (!wanted(scenario)) continue;
  const port = 18800 + Math.floor(Math.random() * 90);
  mkdirSync(`${OUT}${scenario}`, { recursive: true });
  const [client, server] = [`${OUT}${scenario}/client.log`, `${OUT}${scenario}/server.log`];
  rmSync(client, { force: true });
  rmSync(server, { force: true });
  const proc = spawn(PY, [`${HERE}py_server_debug.py`, String(port), server, transport], { stdio: 'ignore' });
  await sleep(2500);
  const r = spawnSync(PY, [`${HERE}py_client_debug.py`, `http://127.0.0.1:${port}${path}`, client, 'asctime', ...(transport === 'sse' ? ['sse'] : [])], { encoding: 'utf8', timeout: 60_000 });
  await sleep(300);
  proc.kill();
  if (r.status !== 0) throw new Error(`${scenario}: ${r.stderr}`);
  observed[scenario] = r.stdout.trim().split('\n');
}
for (const [scenario, mode, style] of [['sse', '', 'asctime'], ['sse-default-format', '', 'default'], ['json-response', 'json', 'asctime']]) {
  if (!wanted(scenario)) continue;
  const port = 18900 + Math.floor(Math.random() * 500);
  const server = spawn(PY, [SERVER, String(port), '/dev/null', ...(mode ? [mode] : [])], { stdio: 'ignore' });
  mkdirSync(`${OUT}${scenario}`, { recursive: true });
  const log = `${OUT}${scenario}/client.log`;
  const wire = `${OUT}${scenario}/server.ndjson`;
  rmSync(log, { force: true });
  rmSync(wire, { force: true });
  const proxy = spawn(process.execPath, [BIN, 'record', '--listen', `127.0.0.1:${port + 1000}`, '--target', `http://127.0.0.1:${port}`, '--out', wire, '--side', 'server'], { stdio: 'ignore' });
  await sleep(2500);
  const r = spawnSync(PY, [`${HERE}py_client_debug.py`, `http://127.0.0.1:${port + 1000}/mcp`, log, style], { encoding: 'utf8', timeout: 60_000 });
  await sleep(300);
  proxy.kill('SIGTERM');
  server.kill();
  await sleep(300);
  if (r.status !== 0) throw new Error(`${scenario}: ${r.stderr}`);
  observed[scenario] = r.stdout.trim().split('\n');
}
if (wanted('http-errors')) {
  const scenario = 'http-errors';
  const port = 19400 + Math.floor(Math.random() * 400);
  const server = spawn(PY, [SERVER, String(port), '/dev/null'], { stdio: 'ignore' });
  mkdirSync(`${OUT}${scenario}`, { recursive: true });
  const log = `${OUT}${scenario}/client.log`;
  const wire = `${OUT}${scenario}/server.ndjson`;
  rmSync(log, { force: true });
  rmSync(wire, { force: true });
  const proxy = spawn(process.execPath, [BIN, 'record', '--listen', `127.0.0.1:${port + 1000}`, '--target', `http://127.0.0.1:${port}`, '--out', wire, '--side', 'server'], { stdio: 'ignore' });
  const faults = spawn(process.execPath, [`${HERE}fault-proxy.mjs`, String(port + 2000), `http://127.0.0.1:${port + 1000}`], { stdio: 'ignore' });
  await sleep(2500);
  const r = spawnSync(PY, [`${HERE}py_client_faults.py`, `http://127.0.0.1:${port + 2000}/mcp`, log], { encoding: 'utf8', timeout: 60_000 });
  await sleep(300);
  faults.kill();
  proxy.kill('SIGTERM');
  server.kill();
  await sleep(300);
  if (r.status !== 0) throw new Error(`${scenario}: ${r.stderr}`);
  observed[scenario] = r.stdout.trim().split('\n');
}
writeFileSync(`${OUT}observed.json`, `${JSON.stringify(observed, null, 2)}\n`);
