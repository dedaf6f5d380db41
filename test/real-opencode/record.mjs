// opencode recorder: runs the real opencode CLI headless (`opencode run`) against a fake OpenAI chat completions API and the SDK 1.32.2 HTTP server, keeps both sides of the MCP wire.
// NOT run by `npm test`: CI has no opencode. Install it in a scratch folder outside the repository:
//   mkdir -p /work/npm-opencode && cd /work/npm-opencode && npm init -y && npm install opencode-ai@1.18.33   (1.18.33 recorded; the
//   optional dependency opencode-linux-x64 carries the binary)
// then, from the repository: npm run build && node test/real-opencode/record.mjs [scenario...]   (OPENCODE_BIN=path to move it)
// Nothing leaves 127.0.0.1: the provider `fake` (@ai-sdk/openai-compatible, bundled in the binary) points at fake-openai.mjs;
// autoupdate and share are off in opencode.json and OPENCODE_DISABLE_AUTOUPDATE / _MODELS_FETCH / _SHARE / _DEFAULT_PLUGINS /
// _LSP_DOWNLOAD / _CLAUDE_CODE are set; HTTP(S)_PROXY point at a local sink that refuses every request and notes its host
// (observed.json `outbound`): opencode still tries to install its config folder's @opencode-ai/plugin from the npm registry.
// Writes test/fixtures/real-opencode/<scenario>/: client.ndjson (a recording proxy opencode talks to, side client),
// server.ndjson (a recording proxy in front of the server, side server), a fault hop between them where the scenario has one,
// observed.json (what opencode told the model for each call: the tool message of the next chat request; its JSON events, its
// final text, its log lines about MCP).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkScenarioFiles, planSummary, proxyEnv, runAgent, startOfflineSink, startRecordedWire } from '../helpers/agent-run.mjs';
import { sleep, stopAfter } from '../helpers/loopback.mjs';
import { startHttpServer } from '../real-claude-code/servers.mjs';
import { startFakeOpenAI, toolMessages } from './fake-openai.mjs';

const OPENCODE = process.env.OPENCODE_BIN ?? '/work/npm-opencode/node_modules/opencode-linux-x64/bin/opencode';
const ROOT = fileURLToPath(new URL('../fixtures/real-opencode/', import.meta.url));
/** A dummy key: the fake API ignores it; the recordings must not contain it (checked after each scenario). */
const API_KEY = 'dummy-opencode-key-not-a-secret-0001';
const SERVER = 'web';

stopAfter(1_500_000);

/** Runs `opencode run` once; resolves with its exit code, stdout (JSON events) and stderr (its log, --print-logs). */
function runOpencode({ home, cwd, sink }) {
  const env = {
    ...proxyEnv(sink),
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local/state'),
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_CLAUDE_CODE: '1',
    NO_COLOR: '1',
    TERM: 'dumb',
  };
  const argv = ['run', '--print-logs', '--log-level', 'DEBUG', '--format', 'json', 'Use the tools you were asked to use.'];
  return runAgent(OPENCODE, argv, { cwd, env });
}

/** Replaces the scratch HOME and its random name with fixed names. */
function scrub(text, home) {
  return text.split(home).join('/home/user');
}

const toolCall = ({ rpcMethod }) => rpcMethod === 'tools/call';
/** The server has no OAuth metadata: the hop answers every /.well-known and /register request 404, as such a server does. */
const noOAuth = (c) => (c.path.startsWith('/.well-known') || c.path === '/register' ? { respond: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found' } : null);

/**
 * Each scenario: what the model calls (plan: one call per turn, or { parallel: [...] }; `before` runs just before the
 * model asks for that call), an optional fault hop rule between the two recording proxies, the server entry's
 * `timeout` in opencode.json.
 */
const SCENARIOS = {
  baseline: {
    about: 'three calls that succeed, one per model turn: lookup_order, validate_quantity, strict_lookup',
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-1' } },
      { name: 'validate_quantity', args: { quantity: 2 } },
      { name: 'strict_lookup', args: { orderId: 'A-2' } },
    ],
  },
  parallel: {
    about: 'two calls in one model response (lookup_order A-3 and A-4), then a third alone',
    plan: [{ parallel: [{ name: 'lookup_order', args: { orderId: 'A-3' } }, { name: 'lookup_order', args: { orderId: 'A-4' } }] }, { name: 'validate_quantity', args: { quantity: 5 } }],
  },
  'tool-error': {
    about: 'validate_quantity answers isError; crash throws inside the tool (the SDK server turns it into isError)',
    plan: [
      { name: 'validate_quantity', args: { quantity: -3 } },
      { name: 'crash', args: {} },
    ],
  },
  'jsonrpc-error': {
    about: 'strict_lookup answers a JSON-RPC error -32602 for a bad orderId; a good one succeeds after it',
    plan: [
      { name: 'strict_lookup', args: { orderId: 'nope' } },
      { name: 'strict_lookup', args: { orderId: 'A-7' } },
    ],
  },
  'http-503': {
    about: 'the hop answers the first tools/call POST with 503 text/plain (the server never sees it); a second call passes',
    fault: (c) => (toolCall(c) && c.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : {}),
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-5' } },
      { name: 'lookup_order', args: { orderId: 'A-6' } },
    ],
  },
  'http-429': {
    about: 'the hop answers the first tools/call POST with 429 and Retry-After: 1; a second call passes',
    fault: (c) => (toolCall(c) && c.n === 1 ? { respond: 429, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: '{"error":"rate limited"}' } : {}),
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-8' } },
      { name: 'lookup_order', args: { orderId: 'A-9' } },
    ],
  },
  'session-expired': {
    about: 'the server forgets its sessions (a restart) before the first call: 404 on the tools/call POST; a second call follows',
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-10' }, before: (t) => t.server.restart() },
      { name: 'lookup_order', args: { orderId: 'A-11' } },
    ],
    tail: 1000,
  },
  'sse-cut': {
    about: 'the hop forwards the tools/call response head (text/event-stream), then destroys both sockets before the result event (no event ids); timeout 3000; a second call follows',
    timeout: 3000,
    fault: (c) => (toolCall(c) && c.n === 1 ? { cutAfterEvents: 0 } : {}),
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-12' } },
      { name: 'lookup_order', args: { orderId: 'A-13' } },
    ],
    tail: 1000,
  },
  'socket-destroyed': {
    about: 'the hop destroys the socket of the first tools/call POST without forwarding it; a second call follows',
    fault: (c) => (toolCall(c) && c.n === 1 ? { destroy: true } : {}),
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-14' } },
      { name: 'lookup_order', args: { orderId: 'A-15' } },
    ],
  },
  'response-dropped': {
    about: 'the hop forwards the first tools/call, lets the server answer, then destroys the client socket: the server ran it, opencode got nothing',
    fault: (c) => (toolCall(c) && c.n === 1 ? { dropResponse: true } : {}),
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-16' } },
      { name: 'lookup_order', args: { orderId: 'A-17' } },
    ],
  },
  timeout: {
    about: 'slow_report runs 10 s; the server entry has timeout 3000 in opencode.json; a lookup_order follows',
    timeout: 3000,
    plan: [
      { name: 'slow_report', args: { ms: 10000 } },
      { name: 'lookup_order', args: { orderId: 'A-20' } },
    ],
    tail: 1500,
  },
  'server-down-at-start': {
    about: 'nothing listens behind the recording proxy when opencode starts: the proxy drops each connection, the tools are never offered',
    down: true,
    plan: [{ name: 'lookup_order', args: { orderId: 'A-18' } }],
  },
  'http-401': {
    about: 'the hop answers the tools/call POST with 401 and a Bearer challenge (an expired token); the server has no OAuth metadata (404)',
    fault: (c) => noOAuth(c) ?? (toolCall(c) ? { respond: 401, headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="invalid_token"' }, body: '{"error":"invalid_token"}' } : {}),
    plan: [{ name: 'lookup_order', args: { orderId: 'A-19' } }],
    tail: 1000,
  },
  'http-401-at-start': {
    about: 'the hop answers every MCP POST with 401 and a Bearer challenge; the server has no OAuth metadata (404)',
    fault: (c) => noOAuth(c) ?? (c.path === '/mcp' ? { respond: 401, headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="mcp"' }, body: '{"error":"unauthorized"}' } : {}),
    plan: [{ name: 'lookup_order', args: { orderId: 'A-21' } }],
    tail: 1000,
  },
};

/** opencode's --format json events, shortened: tool parts (status, input, output or error) and text. */
function events(stdout) {
  const out = [];
  for (const line of stdout.split('\n')) {
    if (!line.trim()) continue;
    let e;
    try {
      e = JSON.parse(line);
    } catch {
      out.push({ raw: line.slice(0, 400) });
      continue;
    }
    if (e.type === 'tool_use') out.push({ type: e.type, tool: e.part?.tool, callID: e.part?.callID, status: e.part?.state?.status, input: e.part?.state?.input, output: e.part?.state?.output, error: e.part?.state?.error, ms: e.part?.state?.time ? e.part.state.time.end - e.part.state.time.start : undefined });
    else if (e.type === 'text') out.push({ type: e.type, text: e.part?.text });
    else if (e.type === 'error') out.push({ type: e.type, error: e.error ?? e.part });
    else if (e.type !== 'step_start' && e.type !== 'step_finish') out.push({ type: e.type });
  }
  return out;
}

/** The log lines that speak of MCP (the service, the server name, its tools, auth), without timestamps' run ids. */
function mcpLogLines(stderr, home) {
  return scrub(stderr, home)
    .split('\n')
    .filter((l) => /mcp|web_|oauth|auth|server unavailable|transport/i.test(l) && !/message=(loading|evaluated) /.test(l))
    .map((l) => l.replace(/ run=[0-9a-f]+/, '').slice(0, 600))
    .slice(0, 80);
}

async function record(name, spec) {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = { client: join(dir, 'client.ndjson'), server: join(dir, 'server.ndjson') };
  const home = mkdtempSync(join(tmpdir(), 'opencode-home-'));
  const cwd = join(home, 'project');
  mkdirSync(cwd);
  const wire = await startRecordedWire({ files, startServer: startHttpServer, down: spec.down, fault: spec.fault });
  const { server, clientView } = wire;
  const t = { server };
  const plan = spec.plan.map((c) => ({ ...c, before: c.before ? () => c.before(t) : undefined }));
  const api = await startFakeOpenAI(plan);
  const sink = await startOfflineSink();
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    provider: { fake: { npm: '@ai-sdk/openai-compatible', name: 'Fake', options: { baseURL: `${api.url}/v1`, apiKey: API_KEY }, models: { 'fake-model': { name: 'Fake model', tool_call: true } } } },
    model: 'fake/fake-model',
    small_model: 'fake/fake-model',
    mcp: { [SERVER]: { type: 'remote', url: `${clientView.url}/mcp`, enabled: true, ...(spec.timeout ? { timeout: spec.timeout } : {}) } },
  };
  writeFileSync(join(cwd, 'opencode.json'), JSON.stringify(config, null, 2));
  const t0 = Date.now();
  const run = await runOpencode({ home, cwd, sink: sink.url });
  const ms = Date.now() - t0;
  if (spec.tail) await sleep(spec.tail);
  await wire.close();
  await api.close();
  await sink.close();

  const chats = api.requests.filter((r) => r.tools.length);
  const observed = {
    scenario: name,
    about: spec.about,
    opencode: '1.18.33',
    exit: run.code,
    ms,
    config: { ...config, provider: { fake: { ...config.provider.fake, options: { baseURL: 'http://127.0.0.1:PORT/v1', apiKey: '(dummy)' } } }, mcp: { [SERVER]: { ...config.mcp[SERVER], url: 'http://127.0.0.1:PORT/mcp' } } },
    plan: planSummary(spec.plan),
    offered: [...new Set(chats.flatMap((r) => r.tools).filter((f) => f.startsWith(`${SERVER}_`)))],
    toolMessages: toolMessages(api.requests),
    events: events(run.stdout),
    mcpLog: mcpLogLines(run.stderr, home),
    outbound: [...new Set(sink.outbound)],
    apiRequests: api.requests.map((r) => `${r.method} ${r.url} tools=${r.tools.length}`),
  };
  writeFileSync(join(dir, 'observed.json'), JSON.stringify(observed, null, 2) + '\n');
  writeFileSync(join(tmpdir(), `opencode-${name}.stderr.txt`), scrub(run.stderr, home));
  checkScenarioFiles(name, dir, files, API_KEY);
  rmSync(home, { recursive: true, force: true });
  console.log(`${name}: exit ${run.code} in ${ms} ms, ${observed.toolMessages.length} tool message(s): ${observed.toolMessages.map((m) => JSON.stringify(m.content).slice(0, 100)).join(' | ')}`);
}

const wanted = process.argv.slice(2);
for (const [name, spec] of Object.entries(SCENARIOS)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await record(name, spec);
}
process.exit(0);
