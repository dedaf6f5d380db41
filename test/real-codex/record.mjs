// Codex recorder: runs OpenAI's Codex CLI (`codex exec`, the Rust binary; its MCP client is the rmcp SDK) headless against a fake Responses API and an SDK MCP server, and records the wire.
// NOT run by `npm test`: CI has no Codex. Install it in a scratch folder outside the repository:
//   mkdir -p /work/npm-codex && cd /work/npm-codex && npm init -y && npm install @openai/codex@0.171.0   (0.171.0 recorded)
// then, from the repository: npm run build && node test/real-codex/record.mjs [scenario...]   (CODEX_BIN=path to move it)
// Nothing leaves 127.0.0.1: the model provider's base_url is fake-responses.mjs, HTTP(S)_PROXY points at a local sink
// that refuses (and notes) anything Codex tries to reach elsewhere, CODEX_HOME and HOME are scratch folders.
// Writes test/fixtures/real-codex/<scenario>/: client.ndjson (a recording proxy Codex talks to, side client),
// server.ndjson (a recording proxy in front of the SDK server, side server; a fault hop sits between the two where a
// scenario needs one) and observed.json (what Codex made of each call: its --json events, the function_call_output
// the model got, its MCP log lines on stderr, and what the hop and the server did).
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRecordingProxy } from '../../dist/capture/index.js';
import { startFaultHop } from '../real-audit2/lib.mjs';
import { runAgent } from '../helpers/agent-run.mjs';
import { listen, readBody, sleep, stopAfter } from '../helpers/loopback.mjs';
import { startFakeResponses } from './fake-responses.mjs';
import { startHttpServer } from './servers.mjs';

const CODEX = process.env.CODEX_BIN ?? '/work/npm-codex/node_modules/.bin/codex';
const ROOT = fileURLToPath(new URL('../fixtures/real-codex/', import.meta.url));
stopAfter(900_000);

/** A local sink for HTTP(S)_PROXY: anything Codex tries to reach beyond 127.0.0.1 lands here, is noted and refused. */
async function startEgressSink() {
  const seen = [];
  const sink = await listen(async (req, res) => {
    seen.push(`${req.method} ${req.url}`);
    await readBody(req).catch(() => {});
    res.writeHead(403).end('no network in this recording');
  });
  sink.server.on('connect', (req, socket) => {
    seen.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  return { ...sink, seen };
}

function configToml({ apiUrl, mcpUrl, mcp = {}, features = {} }) {
  const server = { url: mcpUrl, bearer_token_env_var: 'WEB_MCP_TOKEN', startup_timeout_sec: 10, tool_timeout_sec: 20, ...mcp };
  const lines = Object.entries(server).map(([k, v]) => `${k} = ${typeof v === 'string' ? JSON.stringify(v) : v}`);
  return [
    'model = "gpt-fake"',
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    'check_for_update_on_startup = false',
    '[analytics]',
    'enabled = false',
    // the curated plugin sync reaches github.com and chatgpt.com at start; the egress sink refuses it anyway
    '[features]',
    'plugins = false',
    'remote_plugin = false',
    'apps = false',
    ...Object.entries(features).map(([k, v]) => `${k} = ${v}`),
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = "${apiUrl}/v1"`,
    'wire_api = "responses"',
    'env_key = "FAKE_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '[mcp_servers.web]',
    ...lines,
    '',
  ].join('\n');
}

/** Runs `codex exec --json` once; resolves with its exit code, stdout events and stderr. */
function runCodex({ home, cwd, proxyUrl, timeoutMs = 120_000 }) {
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CODEX_HOME: home,
    FAKE_API_KEY: 'sk-fake-key-for-local-run',
    WEB_MCP_TOKEN: 'mcp-token-for-local-run',
    RUST_LOG: 'warn,rmcp=debug,codex_rmcp_client=debug,codex_mcp=debug,codex_core::mcp=debug,codex_core::mcp_tool_call=debug',
    HTTP_PROXY: proxyUrl,
    HTTPS_PROXY: proxyUrl,
    ALL_PROXY: proxyUrl,
    NO_PROXY: '127.0.0.1,localhost',
  };
  const argv = ['exec', '--json', '--skip-git-repo-check', '--ephemeral', '--color', 'never', 'Use the tools you were asked to use.'];
  const t0 = Date.now();
  return runAgent(CODEX, argv, { cwd, env, killAfterMs: timeoutMs }).then(({ code, signal, stdout, stderr }) => ({ code, signal, ms: Date.now() - t0, lines: stdout.split('\n').filter(Boolean), stderr }));
}

const mask = (s) => s.replace(/\/tmp\/codex-(home|work)-\w+/g, (_, w) => (w === 'home' ? '$CODEX_HOME' : '$WORKDIR')).replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');

/** Codex's stderr lines about MCP, without the timestamp and the tracing span prefix, loopback ports and UUIDs masked. */
function mcpLogLines(stderr) {
  return stderr
    .split('\n')
    .filter((l) => /rmcp|mcp/i.test(l) && !/codex_otel|rpc\.method="thread|event\.name=|^WARNING: proceeding/.test(l))
    .map((l) =>
      mask(l)
        .replace(/^\S+Z\s+/, '')
        .replace(/^(\w+)\s+.*?: ((?:rmcp|codex_\w+)(?:::\w+)*: )/, '$1 $2')
        .slice(0, 600),
    )
    .slice(0, 80);
}

/** The mcp_tool_call items of `codex exec --json`: what Codex reports for each call. */
function toolCallEvents(lines) {
  const out = [];
  for (const l of lines) {
    let m;
    try {
      m = JSON.parse(l);
    } catch {
      continue;
    }
    if (m.type === 'item.completed' && m.item?.type === 'mcp_tool_call') {
      const { server, tool, arguments: args, result, error, status } = m.item;
      out.push({ server, tool, arguments: args, status, result: result ? { content: result.content, structured_content: result.structured_content ?? null, isError: result.is_error ?? result.isError } : null, error });
    }
  }
  return out;
}

function otherEvents(lines) {
  const out = [];
  for (const l of lines) {
    let m;
    try {
      m = JSON.parse(l);
    } catch {
      out.push({ raw: l.slice(0, 300) });
      continue;
    }
    if (m.type === 'item.completed' && m.item?.type === 'agent_message') out.push({ agentMessage: m.item.text });
    else if (m.type === 'item.completed' && m.item?.type === 'error') out.push({ error: m.item.message });
    else if (m.type === 'turn.failed' || m.type === 'error') out.push({ [m.type]: m.error ?? m.message });
  }
  return out;
}

async function runScenario(name, spec) {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = { client: join(dir, 'client.ndjson'), server: join(dir, 'server.ndjson') };
  const server = await startHttpServer(spec.server ?? {});
  const serverView = await startRecordingProxy({ listen: '127.0.0.1:0', target: server.url, out: files.server, side: 'server' });
  const hop = spec.fault ? await startFaultHop(serverView.url, spec.fault) : null;
  const clientView = await startRecordingProxy({ listen: '127.0.0.1:0', target: hop ? hop.url : serverView.url, out: files.client, side: 'client' });
  const sink = await startEgressSink();
  const t = { server, notes: [] };
  const plan = spec.plan.map((c) => ({ ...c, before: c.before ? () => c.before(t) : undefined }));
  const api = await startFakeResponses(plan);
  const home = mkdtempSync(join(tmpdir(), 'codex-home-'));
  const cwd = mkdtempSync(join(tmpdir(), 'codex-work-'));
  writeFileSync(join(home, 'config.toml'), configToml({ apiUrl: api.url, mcpUrl: `${clientView.url}/mcp`, mcp: spec.mcp, features: spec.features }));
  const run = await runCodex({ home, cwd, proxyUrl: sink.url, timeoutMs: spec.timeoutMs });
  await sleep(300);
  await clientView.close();
  if (hop) await hop.close();
  await serverView.close();
  await server.close();
  await api.close();
  await sink.close();
  for (const f of Object.values(files)) appendFileSync(f, '');
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
  const observed = {
    scenario: name,
    codex: '0.171.0',
    what: spec.what,
    exit: run.code,
    signal: run.signal,
    ms: run.ms,
    plan: spec.plan.map(({ tool, args, parallel }) => (parallel ? { parallel } : { tool, args })),
    // the MCP tools as the model is offered them (a `namespace` tool mcp__web with the server's tools inside)
    toolsOffered: (api.requests.find((r) => r.tools?.length)?.tools ?? []).filter((n) => n.startsWith('mcp__')),
    // what the model got back for each planned call (the function_call_output Codex sent in the next request)
    functionCallOutputs: [...api.outputs].map(([callId, output]) => ({ callId, output: JSON.parse(mask(JSON.stringify(output))) })),
    toolCalls: JSON.parse(mask(JSON.stringify(toolCallEvents(run.lines)))),
    events: JSON.parse(mask(JSON.stringify(otherEvents(run.lines)))),
    modelRequests: api.requests.length,
    mcpLog: mcpLogLines(run.stderr),
    egressAttempts: sink.seen,
    notes: t.notes,
    ...(hop ? { hop: hop.log } : {}),
    serverLog: server.log,
  };
  writeFileSync(join(dir, 'observed.json'), JSON.stringify(observed, null, 2) + '\n');
  if (process.env.CODEX_STDERR) writeFileSync(join(tmpdir(), `codex-${name}.stderr`), run.stderr);
  return observed;
}

const isCall = (c, tool) => c.rpcMethod === 'tools/call' && (tool === undefined || c.tool === tool);

const scenarios = {
  baseline: {
    what: 'four calls that succeed: lookup_order twice, place_order, validate_quantity',
    plan: [
      { tool: 'lookup_order', args: { orderId: 'A-1001' } },
      { tool: 'place_order', args: { sku: 'SKU-7', quantity: 2 } },
      { tool: 'validate_quantity', args: { quantity: 3 } },
      { tool: 'lookup_order', args: { orderId: 'A-1002' } },
    ],
  },
  'tool-error': {
    what: 'validate_quantity returns isError; crash throws (McpServer turns it into an isError result)',
    plan: [
      { tool: 'validate_quantity', args: { quantity: -3 } },
      { tool: 'crash', args: {} },
    ],
  },
  'jsonrpc-error': {
    what: 'strict_lookup answers JSON-RPC -32602 (invalid params), then a good strict_lookup',
    plan: [
      { tool: 'strict_lookup', args: { orderId: 'bad id' } },
      { tool: 'strict_lookup', args: { orderId: 'A-7' } },
    ],
  },
  'http-503': {
    what: 'the hop answers the first place_order POST with 503 and a JSON-RPC error body (id null), as the SDK servers write one; tool_timeout_sec = 3',
    mcp: { tool_timeout_sec: 3 },
    fault: (c) => (isCall(c, 'place_order') && c.n === 1 ? { respond: 503, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Service Unavailable' }, id: null }) } : undefined),
    plan: [
      { tool: 'place_order', args: { sku: 'SKU-9', quantity: 1 } },
      { tool: 'lookup_order', args: { orderId: 'A-1003' } },
    ],
  },
  'http-503-plain': {
    what: 'the hop answers the first place_order POST with 503 and a plain-text body',
    mcp: { tool_timeout_sec: 3 },
    fault: (c) => (isCall(c, 'place_order') && c.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain', 'retry-after': '2' }, body: 'upstream unavailable' } : undefined),
    plan: [
      { tool: 'place_order', args: { sku: 'SKU-9', quantity: 1 } },
      { tool: 'lookup_order', args: { orderId: 'A-1013' } },
    ],
  },
  'http-429-retry-after': {
    what: 'the hop answers the first lookup_order POST with 429 and Retry-After: 1',
    fault: (c) => (isCall(c, 'lookup_order') && c.n === 1 ? { respond: 429, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'Too Many Requests' } : undefined),
    plan: [
      { tool: 'lookup_order', args: { orderId: 'A-1004' } },
      { tool: 'lookup_order', args: { orderId: 'A-1005' } },
    ],
  },
  'session-expired-404': {
    what: 'the server forgets every session (a restart) before the second call: 404 to a request with the old session id',
    plan: [
      { tool: 'lookup_order', args: { orderId: 'A-1006' } },
      {
        tool: 'place_order',
        args: { sku: 'SKU-3', quantity: 1 },
        before: (t) => {
          t.server.restart();
          t.notes.push('server forgot every session before place_order');
        },
      },
      { tool: 'lookup_order', args: { orderId: 'A-1007' } },
    ],
  },
  'sse-cut-no-event-ids': {
    what: 'the hop destroys the 200 SSE stream of slow_report after its log message, before the result (the server writes no event ids)',
    fault: (c) => (isCall(c, 'slow_report') && c.n === 1 ? { cutAfterEvents: 1 } : undefined),
    mcp: { tool_timeout_sec: 8 },
    plan: [
      { tool: 'slow_report', args: { ms: 1500 } },
      { tool: 'lookup_order', args: { orderId: 'A-1008' } },
    ],
  },
  'sse-cut-resumable': {
    what: 'event store on the server (every event has an id); the hop destroys the stream of slow_report after its log message, before the result',
    server: { eventStore: true },
    fault: (c) => (isCall(c, 'slow_report') && c.n === 1 ? { cutAfterEvents: 1 } : undefined),
    mcp: { tool_timeout_sec: 8 },
    plan: [
      { tool: 'slow_report', args: { ms: 1500 } },
      { tool: 'lookup_order', args: { orderId: 'A-1009' } },
    ],
  },
  'socket-destroyed': {
    what: 'the hop destroys the connection of the first place_order POST (no response at all)',
    fault: (c) => (isCall(c, 'place_order') && c.n === 1 ? { destroy: true } : undefined),
    plan: [
      { tool: 'place_order', args: { sku: 'SKU-5', quantity: 4 } },
      { tool: 'lookup_order', args: { orderId: 'A-1010' } },
    ],
  },
  'tool-timeout': {
    what: 'slow_report runs 6 s, tool_timeout_sec = 2',
    mcp: { tool_timeout_sec: 2 },
    plan: [
      { tool: 'slow_report', args: { ms: 6000 } },
      { tool: 'lookup_order', args: { orderId: 'A-1011' } },
    ],
  },
  'progress-past-timeout': {
    what: 'slow_report runs 3 s with progress every 500 ms (on the progressToken Codex sends), tool_timeout_sec = 2',
    mcp: { tool_timeout_sec: 2 },
    plan: [
      { tool: 'slow_report', args: { ms: 3000, progressEveryMs: 500 } },
      { tool: 'lookup_order', args: { orderId: 'A-1014' } },
    ],
  },
  'parallel-calls': {
    what: 'the model asks for three calls in one response (lookup_order, place_order, slow_report 400 ms), then one more',
    plan: [
      {
        parallel: [
          { tool: 'lookup_order', args: { orderId: 'A-2001' } },
          { tool: 'place_order', args: { sku: 'SKU-1', quantity: 1 } },
          { tool: 'slow_report', args: { ms: 400 } },
        ],
      },
      { tool: 'lookup_order', args: { orderId: 'A-2002' } },
    ],
  },
  'v2-server': {
    what: 'the v2 SDK server (2.4.0, createMcpHandler), Codex as configured by default',
    server: { v2: true },
    plan: [
      { tool: 'lookup_order', args: { orderId: 'A-3001' } },
      { tool: 'validate_quantity', args: { quantity: -1 } },
    ],
  },
  'v2-server-2026-07-28': {
    what: 'the v2 SDK server, with Codex\'s feature mcp_2026_07_28 (under development) on',
    server: { v2: true },
    features: { mcp_2026_07_28: true },
    plan: [
      { tool: 'lookup_order', args: { orderId: 'A-3002' } },
      { tool: 'validate_quantity', args: { quantity: -1 } },
    ],
  },
  stateless: {
    what: 'a stateless SDK server (no session ids): two calls',
    server: { stateless: true },
    plan: [
      { tool: 'lookup_order', args: { orderId: 'A-1012' } },
      { tool: 'validate_quantity', args: { quantity: 0 } },
    ],
  },
};

await recordScenariosLocal();

async function recordScenariosLocal() {
  const only = process.argv.slice(2);
  mkdirSync(ROOT, { recursive: true });
  for (const [name, spec] of Object.entries(scenarios)) {
    if (only.length && !only.includes(name)) continue;
    const t0 = Date.now();
    const o = await runScenario(name, spec);
    process.stderr.write(`recorded ${name} (${Date.now() - t0} ms, codex exit ${o.exit})\n`);
  }
}
