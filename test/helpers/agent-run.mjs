// Shared by the agent CLI recorders (real-continue, real-opencode, real-gemini, real-qwen, real-cline, real-copilot; real-claude-code and real-codex run their CLI with it): the recorded MCP wire an agent talks through, the offline proxy sink, running the CLI once, the checks on what a scenario wrote.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startFaultHop, startRecordingProxy } from '../real-audit2/lib.mjs';
import { freePort, listen } from './loopback.mjs';

/**
 * The MCP wire of one scenario: `startServer()`'s server behind a recording proxy (side server, `files.server`), the
 * fault hop where `fault` is given, and the recording proxy the agent talks to (side client, `files.client`). With
 * `down` no server is started and the client proxy points at a port where nothing listens. close() closes them from
 * the agent's side inwards.
 */
export async function startRecordedWire({ files, startServer, down = false, fault }) {
  const server = down ? null : await startServer();
  const serverView = down ? null : await startRecordingProxy({ listen: '127.0.0.1:0', target: server.url, out: files.server, side: 'server' });
  const hop = fault && serverView ? await startFaultHop(serverView.url, fault) : null;
  const upstream = hop ? hop.url : serverView ? serverView.url : `http://127.0.0.1:${await freePort()}`;
  const clientView = await startRecordingProxy({ listen: '127.0.0.1:0', target: upstream, out: files.client, side: 'client' });
  return {
    server,
    clientView,
    close: async () => {
      await clientView.close();
      await hop?.close();
      await serverView?.close();
      await server?.close();
    },
  };
}

/** Anything that would leave 127.0.0.1 goes through HTTP(S)_PROXY to this sink: refused, its request line noted in `outbound`. */
export async function startOfflineSink() {
  const outbound = [];
  const sink = await listen((req, res) => {
    outbound.push(`${req.method} ${req.url}`);
    res.writeHead(403, { 'content-type': 'text/plain' }).end('offline');
  });
  sink.server.on('connect', (req, socket) => {
    socket.on('error', () => {});
    outbound.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  return { url: sink.url, outbound, close: sink.close };
}

/** The proxy variables (both spellings) that send everything but 127.0.0.1 to `sink`. */
export const proxyEnv = (sink) => ({
  HTTP_PROXY: sink,
  HTTPS_PROXY: sink,
  http_proxy: sink,
  https_proxy: sink,
  NO_PROXY: '127.0.0.1,localhost',
  no_proxy: '127.0.0.1,localhost',
});

/** Runs `command argv` once (SIGTERM after `killAfterMs`); resolves with its exit code, signal, stdout and stderr. */
export function runAgent(command, argv, { cwd, env, killAfterMs = 150_000 }) {
  return new Promise((resolve) => {
    const p = spawn(command, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    const kill = setTimeout(() => p.kill('SIGTERM'), killAfterMs);
    p.on('exit', (code, signal) => {
      clearTimeout(kill);
      resolve({ code, signal, stdout: out, stderr: err });
    });
  });
}

/** A scenario's plan as observed.json records it: names and arguments, calls of one model response under `parallel`. */
export const planSummary = (plan) => plan.map((c) => (c.parallel ? { parallel: c.parallel.map((p) => ({ name: p.name, args: p.args })) } : { name: c.name, args: c.args }));

/** After a scenario: a wire file no request reached is written empty, and none of the files may contain `apiKey`. */
export function checkScenarioFiles(name, dir, files, apiKey) {
  for (const s of ['client', 'server']) if (!existsSync(files[s])) writeFileSync(files[s], '');
  for (const f of ['client.ndjson', 'server.ndjson', 'observed.json']) {
    const p = join(dir, f);
    if (existsSync(p) && readFileSync(p, 'utf8').includes(apiKey)) throw new Error(`${name}/${f} contains the API key`);
  }
}

/**
 * The end of one scenario of an agent recorder: observed.json written, the CLI's whole output kept (scrubbed) in
 * <tmp>/<prefix>-<name>.out.txt, the recordings checked for the dummy key, the scratch HOME removed, one line printed.
 */
export function finishScenario({ prefix, name, dir, files, observed, run, home, scrub, apiKey, ms }) {
  writeFileSync(join(dir, 'observed.json'), JSON.stringify(observed, null, 2) + '\n');
  writeFileSync(join(tmpdir(), `${prefix}-${name}.out.txt`), scrub(`${run.stdout}\n--- stderr ---\n${run.stderr}`, home));
  checkScenarioFiles(name, dir, files, apiKey);
  rmSync(home, { recursive: true, force: true });
  console.log(`${name}: exit ${run.code} in ${ms} ms, ${observed.toolMessages.length} tool message(s): ${observed.toolMessages.map((m) => JSON.stringify(m.content).slice(0, 140)).join(' | ')}`);
}

/** Records the scenarios named on the command line (every one when none is), one after another, then exits. */
export async function recordScenarios(scenarios, record) {
  const wanted = process.argv.slice(2);
  for (const [name, spec] of Object.entries(scenarios)) {
    if (wanted.length && !wanted.includes(name)) continue;
    await record(name, spec);
  }
  process.exit(0);
}
