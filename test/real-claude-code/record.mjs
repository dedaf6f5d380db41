// Claude Code recorder: runs the real Claude Code CLI headless against a fake Anthropic API and real MCP servers, keeps its MCP logs and the wire.
// NOT run by `npm test`: CI has no Claude Code. Install it in a scratch folder outside the repository:
//   mkdir -p /work/claude-code && cd /work/claude-code && npm init -y && npm i @anthropic-ai/claude-code   (2.1.197 recorded)
// then, from the repository: npm run build && node test/real-claude-code/record.mjs [scenario...]   (CLAUDE_CODE_BIN=path to move it)
// Nothing leaves 127.0.0.1: ANTHROPIC_BASE_URL points at fake-anthropic.mjs, telemetry and non-essential traffic are off.
// Writes test/fixtures/real-claude-code/<scenario>/: mcp-logs-<server>.jsonl (Claude Code's own files, scrubbed),
// wire.ndjson (the recording proxy between Claude Code and the HTTP server, side client), observed.json (what the
// model got back as tool_result, from --output-format stream-json) and, where a scenario asks, claude-debug.txt (--debug-file).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRecordingProxy } from '../../dist/capture/index.js';
import { startFaultHop } from '../real-audit2/lib.mjs';
import { runAgent } from '../helpers/agent-run.mjs';
import { freePort, sleep } from '../helpers/loopback.mjs';
import { startFakeAnthropic } from './fake-anthropic.mjs';
import { startHttpServer } from './servers.mjs';

const CLAUDE = process.env.CLAUDE_CODE_BIN ?? '/work/claude-code/node_modules/.bin/claude';
const STDIO_SERVER = fileURLToPath(new URL('./stdio-server.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../fixtures/real-claude-code/', import.meta.url));
/** What the scrubbed files say instead of the scratch HOME's project folder. */
const PROJECT = '/home/user/project';

setTimeout(() => {
  process.stderr.write('still running after 600 s, giving up\n');
  process.exit(2);
}, 600_000).unref();

/** Runs `claude -p` once; resolves with its exit code, stdout lines (stream-json) and stderr. */
function runClaude({ home, cwd, apiUrl, cfg, allowed, env = {}, args = [] }) {
  const fullEnv = {
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-local-run',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    ...env,
  };
  writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: cfg }));
  const argv = ['-p', 'Use the tools you were asked to use.', '--mcp-config', join(home, 'mcp.json'), '--strict-mcp-config', '--allowedTools', allowed.join(' '), '--output-format', 'stream-json', '--verbose', ...args];
  return runAgent(CLAUDE, argv, { cwd, env: fullEnv, killAfterMs: 120_000 }).then(({ code, signal, stdout, stderr }) => ({ code, signal, lines: stdout.split('\n').filter(Boolean), stderr }));
}

/** The tool results the model was given, from stream-json: what Claude Code made of each call. */
function toolResults(lines) {
  const out = [];
  for (const l of lines) {
    let m;
    try {
      m = JSON.parse(l);
    } catch {
      continue;
    }
    if (m.type !== 'user') continue;
    for (const b of m.message?.content ?? []) {
      if (b.type !== 'tool_result') continue;
      const text = typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => c.text ?? `[${c.type}]`).join(' ');
      out.push({ toolUseId: b.tool_use_id, isError: b.is_error ?? false, text: text.slice(0, 300) });
    }
  }
  return out;
}

/** Where the scrubbed files say Claude Code was installed (its debug file names its binary's path). */
const INSTALL = '/opt/claude-code';
const installDir = CLAUDE.includes('/node_modules/') ? CLAUDE.slice(0, CLAUDE.indexOf('/node_modules/')) : undefined;

/** Replaces the scratch folders (HOME, project, the install folder) with fixed names; the lines are otherwise kept byte for byte. */
function scrub(text, home, cwd) {
  const out = text.split(cwd).join(PROJECT).split(home).join('/home/user');
  return installDir ? out.split(installDir).join(INSTALL) : out;
}

const HTTP = 'web';
const STDIO = 'local';
const tool = (server, name) => `mcp__${server}__${name}`;

/**
 * Each scenario: which servers to configure, what the model calls (plan; `before` runs just before the model asks for
 * that call), an optional fault hop between the recording proxy and the server, env for Claude Code.
 */
const SCENARIOS = {
  success: {
    about: 'lookup_order over HTTP (through the recording proxy) and over stdio, both succeed',
    plan: [
      { name: tool(HTTP, 'lookup_order'), input: { orderId: 'A-1' } },
      { name: tool(STDIO, 'lookup_order'), input: { orderId: 'A-2' } },
    ],
  },
  'tool-error': {
    about: 'validate_quantity answers isError over HTTP and over stdio; crash throws inside the tool (the SDK turns it into isError)',
    plan: [
      { name: tool(HTTP, 'validate_quantity'), input: { quantity: -3 } },
      { name: tool(STDIO, 'validate_quantity'), input: { quantity: 0 } },
      { name: tool(HTTP, 'crash'), input: {} },
    ],
  },
  'jsonrpc-error': {
    about: 'strict_lookup answers a JSON-RPC error -32602 for a bad orderId (the wire has the error object); a good one succeeds',
    plan: [
      { name: tool(HTTP, 'strict_lookup'), input: { orderId: 'nope' } },
      { name: tool(HTTP, 'strict_lookup'), input: { orderId: 'A-7' } },
    ],
  },
  timeout: {
    about: 'slow_report runs 10 s; MCP_TOOL_TIMEOUT=3000 makes Claude Code give up after 3 s (the wire shows what it sent then)',
    env: { MCP_TOOL_TIMEOUT: '3000' },
    plan: [{ name: tool(HTTP, 'slow_report'), input: { ms: 10000 } }],
    tail: 1000,
  },
  'still-running': {
    about: 'slow_report runs 31 s under the default timeout: Claude Code logs "still running (30s elapsed)", then success',
    plan: [{ name: tool(HTTP, 'slow_report'), input: { ms: 31000 } }],
  },
  'server-down': {
    about: 'the HTTP endpoint (the recording proxy) stops listening after connect, before the call: connection refused',
    plan: [{ name: tool(HTTP, 'lookup_order'), input: { orderId: 'A-3' }, before: (t) => t.closeEntry() }],
  },
  'server-down-at-start': {
    about: 'the HTTP server is not there when Claude Code starts: the connection fails, the tool is never offered',
    down: true,
    plan: [{ name: tool(HTTP, 'lookup_order'), input: { orderId: 'A-4' } }],
  },
  'http-503': {
    about: 'a hop answers the tools/call POST with 503 Service Unavailable (the server never sees it)',
    fault: ({ rpcMethod }) => (rpcMethod === 'tools/call' ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : {}),
    plan: [{ name: tool(HTTP, 'lookup_order'), input: { orderId: 'A-5' } }],
  },
  'http-500': {
    about: 'a hop answers the tools/call POST with 500 and a JSON body that is no JSON-RPC message',
    fault: ({ rpcMethod }) => (rpcMethod === 'tools/call' ? { respond: 500, headers: { 'content-type': 'application/json' }, body: '{"error":"internal"}' } : {}),
    plan: [{ name: tool(HTTP, 'lookup_order'), input: { orderId: 'A-6' } }],
  },
  'session-expired': {
    about: 'the server forgets its sessions (a restart) before the call: 404 on the tools/call POST, Claude Code re-initializes',
    plan: [{ name: tool(HTTP, 'lookup_order'), input: { orderId: 'A-8' }, before: (t) => t.server.restart() }],
    tail: 1500,
  },
  'http-401': {
    about: 'a hop answers the tools/call POST with 401 and a Bearer challenge (an expired token): what Claude Code logs and does',
    fault: ({ rpcMethod }) => (rpcMethod === 'tools/call' ? { respond: 401, headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="invalid_token"' }, body: '{"error":"invalid_token"}' } : {}),
    plan: [{ name: tool(HTTP, 'lookup_order'), input: { orderId: 'A-10' } }],
    tail: 1000,
  },
  'debug-file': {
    about: 'claude --debug-file as well: a success, an isError, a -32602 and a stdio call, then a lost session; the debug file keeps the same texts as "MCP server NAME: ..." lines',
    debugFile: true,
    plan: [
      { name: tool(HTTP, 'lookup_order'), input: { orderId: 'A-11' } },
      { name: tool(HTTP, 'validate_quantity'), input: { quantity: -1 } },
      { name: tool(HTTP, 'strict_lookup'), input: { orderId: 'bad' } },
      { name: tool(STDIO, 'lookup_order'), input: { orderId: 'A-12' } },
      { name: tool(HTTP, 'lookup_order'), input: { orderId: 'A-13' }, before: (t) => t.server.restart() },
    ],
    tail: 1500,
  },
  'stdio-crash': {
    about: 'the stdio server process exits while exit_now runs',
    plan: [
      { name: tool(STDIO, 'exit_now'), input: {} },
      { name: tool(STDIO, 'lookup_order'), input: { orderId: 'A-9' } },
    ],
    tail: 1500,
  },
};

async function record(name, spec) {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const home = mkdtempSync(join(tmpdir(), 'cc-home-'));
  const cwd = join(home, 'project');
  mkdirSync(cwd);
  const wireFile = join(dir, 'wire.ndjson');
  const server = await startHttpServer();
  const hop = spec.fault ? await startFaultHop(server.url, spec.fault) : null;
  let entry = await startRecordingProxy({ listen: '127.0.0.1:0', target: hop ? hop.url : server.url, out: wireFile, side: 'client' });
  let entryUrl = entry.url;
  if (spec.down) {
    await entry.close();
    entryUrl = `http://127.0.0.1:${await freePort()}`;
    entry = null;
  }
  const t = {
    server,
    closeEntry: async () => {
      await entry?.close();
      entry = null;
    },
  };
  const plan = spec.plan.map((c) => ({ ...c, before: c.before ? () => c.before(t) : undefined }));
  const api = await startFakeAnthropic(plan);
  const cfg = {
    [HTTP]: { type: 'http', url: `${entryUrl}/mcp` },
    [STDIO]: { command: process.execPath, args: [STDIO_SERVER] },
  };
  const allowed = [...new Set(spec.plan.map((c) => c.name))];
  const debugFile = join(home, 'claude-debug.txt');
  const run = await runClaude({ home, cwd, apiUrl: api.url, cfg, allowed, env: spec.env ?? {}, args: spec.debugFile ? ['--debug-file', debugFile] : [] });
  if (spec.tail) await sleep(spec.tail);
  await entry?.close();
  await hop?.close();
  await server.close();
  await api.close();

  const logsRoot = join(home, '.cache/claude-cli-nodejs');
  const files = [];
  if (existsSync(logsRoot)) {
    for (const slug of readdirSync(logsRoot)) {
      for (const sub of readdirSync(join(logsRoot, slug))) {
        if (!sub.startsWith('mcp-logs-')) continue;
        const all = readdirSync(join(logsRoot, slug, sub)).sort();
        // one file per run; a server that reconnected may have more: keep them in order
        const text = all.map((f) => readFileSync(join(logsRoot, slug, sub, f), 'utf8')).join('');
        writeFileSync(join(dir, `${sub}.jsonl`), scrub(text, home, cwd));
        files.push({ file: `${sub}.jsonl`, originalFiles: all.length });
      }
    }
  }
  if (existsSync(wireFile)) writeFileSync(wireFile, scrub(readFileSync(wireFile, 'utf8'), home, cwd));
  if (spec.debugFile && existsSync(debugFile)) writeFileSync(join(dir, 'claude-debug.txt'), scrub(readFileSync(debugFile, 'utf8'), home, cwd));
  const observed = {
    scenario: name,
    about: spec.about,
    claudeCode: run.lines.map((l) => JSON.parse(l)).find((m) => m.type === 'system' && m.subtype === 'init')?.claude_code_version ?? null,
    exit: run.code,
    mcpServers: run.lines.map((l) => JSON.parse(l)).find((m) => m.type === 'system' && m.subtype === 'init')?.mcp_servers ?? null,
    plan: spec.plan.map((c) => ({ name: c.name, input: c.input })),
    toolResults: toolResults(run.lines),
    result: run.lines.map((l) => JSON.parse(l)).find((m) => m.type === 'result')?.result ?? null,
    logFiles: files,
    apiRequests: api.requests.length,
  };
  writeFileSync(join(dir, 'observed.json'), JSON.stringify(observed, null, 2) + '\n');
  if (run.stderr.trim()) process.stderr.write(`[${name}] stderr: ${run.stderr.slice(0, 500)}\n`);
  rmSync(home, { recursive: true, force: true });
  console.log(`${name}: exit ${run.code}, ${observed.toolResults.length} tool result(s), logs ${files.map((f) => f.file).join(' ')}`);
}

const wanted = process.argv.slice(2);
for (const [name, spec] of Object.entries(SCENARIOS)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await record(name, spec);
}
process.exit(0);
