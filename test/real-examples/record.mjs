// The SDK 1.32.2 package's own example servers and clients (dist/esm/examples), run as shipped on 127.0.0.1, recorded by two recording proxies (side client in front of the client, side server in front of the server). Usage: node test/real-examples/record.mjs [scenario...]  (needs dist/: npm run build)
// Writes test/fixtures/real-examples/<scenario>/{client,server}.ndjson and observed.json (what the example client printed, and its exit code).
// The examples listen on fixed ports (3000, 3001, 8000) and one client has its URL fixed: those files are copied next to themselves with a free port for the run, then removed.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRecordingProxy } from '../../dist/capture/index.js';
import { freePort, sleep } from '../helpers/loopback.mjs';
import { scenarioFilesIn } from '../real-audit2/lib.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-examples/', import.meta.url));
const SDK = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/sdk/', import.meta.url));
const EXAMPLES = join(SDK, 'dist/esm/examples');
const VERSION = JSON.parse(readFileSync(join(SDK, 'package.json'), 'utf8')).version;

/**
 * scenario -> the example server, the example client, its arguments (URL is the client-side proxy's /mcp), and what
 * the user types: a line of `script` at each `prompt` (stdin is closed after the last, or at once without a script).
 */
const scenarios = {
  'sse-polling': { server: 'server/ssePollingExample.js', client: 'client/ssePollingClient.js', args: () => [] },
  'parallel-tool-calls': { server: 'server/simpleStreamableHttp.js', client: 'client/parallelToolCallsClient.js', args: (url) => [url] },
  'multiple-clients-parallel': { server: 'server/simpleStreamableHttp.js', client: 'client/multipleClientsParallel.js', args: (url) => [url] },
  'multiple-clients-stateless': { server: 'server/simpleStatelessStreamableHttp.js', client: 'client/multipleClientsParallel.js', args: (url) => [url] },
  'json-response-unknown-tool': { server: 'server/jsonResponseStreamableHttp.js', client: 'client/parallelToolCallsClient.js', args: (url) => [url] },
  'sse-fallback-legacy-server': { server: 'server/simpleSseServer.js', client: 'client/streamableHttpWithSseFallbackClient.js', args: (url) => [url] },
  'sse-fallback-compatible-server': { server: 'server/sseAndStreamableHttpCompatibleServer.js', client: 'client/streamableHttpWithSseFallbackClient.js', args: (url) => [url] },
  'task-interactive': { server: 'server/simpleTaskInteractive.js', client: 'client/simpleTaskInteractiveClient.js', args: (url) => ['--url', url], prompt: /Your response/, script: ['y'] },
  // The user's terminal is closed (stdin at its end): the client answers the task's elicitation/create with an error.
  // The interactive client, driven command by command: tools, prompts, resources, notifications, a task, errors, a
  // terminated session and a reconnect.
  'interactive-client-tour': {
    server: 'server/simpleStreamableHttp.js', client: 'client/simpleStreamableHttp.js', args: () => [], prompt: /\n> /, tty: true,
    script: [
      'list-tools', 'greet Ada', 'multi-greet Ada', 'call-tool list-files', 'call-tool no-such-tool {}', 'call-tool greet {"name": 5}',
      'start-notifications 50 3', 'run-notifications-tool-with-resumability 50 3', 'call-tool-task delay {"duration": 800}',
      'list-prompts', 'get-prompt greeting-template {"name": "Ada"}', 'list-resources', 'read-resource https://example.com/greetings/default',
      'read-resource file:///no/such.txt', 'terminate-session', 'greet Ada', 'reconnect', 'greet Bob', 'quit',
    ],
  },
  'task-interactive-no-terminal': { server: 'server/simpleTaskInteractive.js', client: 'client/simpleTaskInteractiveClient.js', args: (url) => ['--url', url] },
  // The Python SDK's Client (mcp 2.3.0, test/real-examples/py_client.py) against the same example servers: `legacy` is
  // the initialize handshake, `-auto` the 2026-07-28 negotiation (server/discover, falling back to initialize).
  'py-sse-polling': { server: 'server/ssePollingExample.js', py: true },
  'py-sse-polling-auto': { server: 'server/ssePollingExample.js', py: true },
  'py-tour': { server: 'server/simpleStreamableHttp.js', py: true },
  'py-tour-auto': { server: 'server/simpleStreamableHttp.js', py: true },
  'py-elicit-accept': { server: 'server/simpleStreamableHttp.js', py: true },
  'py-elicit-error': { server: 'server/simpleStreamableHttp.js', py: true },
  'py-json-response': { server: 'server/jsonResponseStreamableHttp.js', py: true },
  'py-stateless': { server: 'server/simpleStatelessStreamableHttp.js', py: true },
  'py-legacy-sse-server': { server: 'server/simpleSseServer.js', py: true },
  'py-legacy-sse-server-auto': { server: 'server/simpleSseServer.js', py: true },
  'py-standalone-get': { server: 'server/standaloneSseWithGetStreamableHttp.js', py: true },
  'py-timeout': { server: 'server/simpleStreamableHttp.js', py: true },
  'py-task-interactive': { server: 'server/simpleTaskInteractive.js', py: true },
};
const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
const PY_CLIENT = fileURLToPath(new URL('./py_client.py', import.meta.url));

/** A copy of an example beside it (its relative imports still resolve) with its fixed port or URL replaced; removed after the run. */
function patched(file, replace) {
  const text = readFileSync(join(EXAMPLES, file), 'utf8');
  const out = replace(text);
  if (out === text) return { file, remove() {} };
  const copy = file.replace(/\.js$/, '.mcp-triage-run.js');
  writeFileSync(join(EXAMPLES, copy), out);
  return { file: copy, remove: () => rmSync(join(EXAMPLES, copy), { force: true }) };
}

/** Runs an example, typing the next line of `script` at each `prompt` (stdin closed after the last, or at once without one). */
function run(file, args, env, prompt, script = [], tty = false, exe = process.execPath) {
  // A client that needs a terminal (raw mode, for its Escape key) runs under script(1), which gives it a pseudo-terminal.
  const command = tty ? ['script', ['-qfec', [exe, file, ...args].join(' '), '/dev/null']] : [exe, [file, ...args]];
  const child = spawn(command[0], command[1], { cwd: EXAMPLES, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let typed = 0;
  const type = () => {
    if (typed === script.length) return child.stdin.end();
    child.stdin.write(`${script[typed++]}${tty ? '\r' : '\n'}`);
  };
  // The next line is typed once a prompt has come since the last line and the output has then been quiet for 1.2 s: a
  // command still at work prints notifications and redraws the prompt under them, and client errors may follow it.
  let since = 0;
  let quiet;
  const plain = (text) => text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, ''); // a terminal's cursor moves are not text
  child.stdout.on('data', (d) => {
    out += d;
    clearTimeout(quiet);
    if (!prompt?.test(plain(out.slice(since)))) return;
    quiet = setTimeout(() => {
      out += '\n';
      since = out.length;
      type();
    }, 1200);
  });
  child.stderr.on('data', (d) => (out += d));
  if (script.length === 0) child.stdin.end();
  const exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  return { child, output: () => out, exited };
}

async function waitForPort(port) {
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/`, { method: 'HEAD' });
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`nothing listens on ${port}`);
}

async function record(name, s) {
  const { dir, files } = scenarioFilesIn(ROOT, name);
  const port = await freePort();
  const fixedPort = (text) => text.replace(/const PORT = \d+;/, `const PORT = ${port};`);
  const server = patched(s.server, fixedPort);
  const srv = run(server.file, [], { PORT: String(port), MCP_PORT: String(port) });
  let client;
  try {
    await waitForPort(port);
    const serverProxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: `http://127.0.0.1:${port}`, out: files.server, side: 'server' });
    const clientProxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: serverProxy.url, out: files.client, side: 'client' });
    const url = `${clientProxy.url}/mcp`;
    client = s.py ? { file: PY_CLIENT, remove() {} } : patched(s.client, (text) => text.replace(/'http:\/\/localhost:\d+\/mcp'/, `'${url}'`));
    const c = s.py ? run(PY_CLIENT, [name, url], {}, undefined, [], false, PYTHON) : run(client.file, s.args(url), {}, s.prompt, s.script, s.tty);
    const timer = setTimeout(() => c.child.kill('SIGTERM'), 60_000);
    const exit = await c.exited;
    clearTimeout(timer);
    await sleep(300);
    await clientProxy.close();
    await serverProxy.close();
    const lines = c.output().split('\n').map((l) => l.trimEnd()).filter((l) => l !== '');
    writeFileSync(join(dir, 'observed.json'), `${JSON.stringify({ sdk: VERSION, server: s.server, client: s.py ? 'python mcp 2.3.0 (test/real-examples/py_client.py)' : s.client, exit, clientOutput: lines.slice(0, 200) }, null, 2)}\n`);
    console.log(`${name}: client exit ${exit.code}, ${lines.length} output lines`);
  } finally {
    srv.child.kill('SIGTERM');
    await srv.exited;
    server.remove();
    client?.remove();
  }
}

// With no arguments, the scenarios of the SDK's own clients only: the py- ones need Python (PYTHON, or /work/py-venv).
const wanted = process.argv.slice(2);
for (const [name, s] of Object.entries(scenarios)) {
  if (wanted.length ? !wanted.includes(name) : s.py) continue;
  await record(name, s);
}
