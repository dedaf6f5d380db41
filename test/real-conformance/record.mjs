// The MCP conformance suite (@modelcontextprotocol/conformance 0.1.16) driving the SDK 1.32.2 server, and its test servers
// driving the SDK 1.32.2 client and the Python SDK 2.3.0 client, recorded on 127.0.0.1. NOT run by `npm test`.
//
// Needs the suite installed OUTSIDE the repo (never a project dependency):
//   mkdir -p /work/scratch-conf && cd /work/scratch-conf && npm init -y && npm install @modelcontextprotocol/conformance@0.1.16
// then, from the repo:  npm run build && CONFORMANCE_DIR=/work/scratch-conf node test/real-conformance/record.mjs [scenario...]
//
// Server scenarios: the suite (as client) -> recording proxy (side client) -> recordingHandler (side server) -> an
// "everything" server written here with the SDK's McpServer, implementing the tools, resources and prompts the suite's
// scenario descriptions ask for. Client scenarios: the suite starts its test server and runs `node record.mjs --client
// OUT` (or the Python client) with its URL; that process puts a recording proxy (side client) in front of the URL and
// connects through it. Files: test/fixtures/real-conformance/<scenario>.{client,server}.ndjson (client-only for the
// client scenarios; "/" in a scenario name becomes "_"); observed.json keeps the suite's checks (id, status, message)
// for each scenario. Node 20 has no fs.globSync, which the suite's CLI imports for tier-check only: the CLI runs with a
// loader that gives its `fs` import a globSync that finds nothing.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageResultSchema, ElicitResultSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { recordingHandler, startRecordingProxy } from '../../dist/capture/index.js';
import { listen, sessionHandler, sleep } from '../helpers/loopback.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-conformance/', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const PY_CLIENT = fileURLToPath(new URL('./py_client.py', import.meta.url));
const PYTHON = process.env.PY_VENV ? `${process.env.PY_VENV}/bin/python` : '/work/py-venv/bin/python';
const CONF_DIR = process.env.CONFORMANCE_DIR ?? '/work/scratch-conf';
const CLI = join(CONF_DIR, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const GLOB_SHIM = (() => {
  const shim = 'data:text/javascript,' + encodeURIComponent('export * from "node:fs"; export { default } from "node:fs"; export const globSync = () => [];');
  const hooks = `export async function resolve(s, c, n) { if ((s === 'fs' || s === 'node:fs') && c.parentURL && c.parentURL.includes('/conformance/dist/')) return { url: ${JSON.stringify(shim)}, shortCircuit: true }; return n(s, c); }`;
  return 'data:text/javascript,' + encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify('data:text/javascript,' + encodeURIComponent(hooks))});`);
})();
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

// ---------------------------------------------------------------- the everything server (SDK 1.32.2)

function buildServer() {
  const server = new McpServer({ name: 'conformance-everything', version: '1.0.0' }, { capabilities: { logging: {}, completions: {}, resources: { subscribe: true } } });
  server.registerTool('test_simple_text', { description: 'Returns simple text' }, async () => text('This is a simple text response for testing.'));
  server.registerTool('test_image_content', { description: 'Returns an image' }, async () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }));
  server.registerTool('test_audio_content', { description: 'Returns audio' }, async () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }));
  server.registerTool('test_embedded_resource', { description: 'Returns an embedded resource' }, async () => ({
    content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
  }));
  server.registerTool('test_multiple_content_types', { description: 'Returns mixed content' }, async () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
    ],
  }));
  server.registerTool('test_tool_with_logging', { description: 'Logs three messages' }, async (extra) => {
    for (const [i, data] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
      if (i > 0) await sleep(50);
      await server.server.sendLoggingMessage({ level: 'info', data }, extra.sessionId);
    }
    return text('Tool with logging executed successfully');
  });
  server.registerTool('test_error_handling', { description: 'Always fails' }, async () => {
    throw new Error('This tool intentionally returns an error for testing');
  });
  server.registerTool('test_tool_with_progress', { description: 'Reports progress' }, async (extra) => {
    const token = extra._meta?.progressToken;
    for (const progress of [0, 50, 100]) {
      if (progress > 0) await sleep(50);
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total: 100 } });
    }
    return text(`Progress tool completed (token ${token ?? 'none'})`);
  });
  server.registerTool('test_sampling', { description: 'Asks the client to sample', inputSchema: { prompt: z.string() } }, async ({ prompt }, extra) => {
    const r = await extra.sendRequest({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 } }, CreateMessageResultSchema);
    return text(`LLM response: ${r.content?.text ?? JSON.stringify(r.content)}`);
  });
  server.registerTool('test_elicitation', { description: 'Asks the user', inputSchema: { message: z.string() } }, async ({ message }, extra) => {
    const r = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: {
          message,
          requestedSchema: {
            type: 'object',
            properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } },
            required: ['username', 'email'],
          },
        },
      },
      ElicitResultSchema,
    );
    return text(`User response: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`);
  });
  // SEP-1699: the server closes the call's SSE stream mid-call; the result comes on the client's GET with Last-Event-ID
  server.registerTool('test_reconnection', { description: 'Closes its SSE stream mid-call' }, async (extra) => {
    await sleep(50);
    extra.closeSSEStream?.();
    await sleep(150);
    return text('Reconnection test completed successfully');
  });
  server.registerResource('static-text', 'test://static-text', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  }));
  server.registerResource('template', new ResourceTemplate('test://template/{id}/data', { list: undefined }), { mimeType: 'application/json' }, async (uri, { id }) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
  }));
  server.registerPrompt('test_simple_prompt', { description: 'A simple prompt' }, async () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    { description: 'A prompt with arguments', argsSchema: { arg1: completable(z.string(), (v) => ['paris', 'park', 'party'].filter((x) => x.startsWith(v))), arg2: z.string() } },
    async ({ arg1, arg2 }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }] }),
  );
  return server;
}

async function startEverythingServer(out, ports) {
  let port = 0;
  const { handle } = sessionHandler({
    Transport: StreamableHTTPServerTransport,
    isInitializeRequest,
    buildServer,
    // SEP-1699 needs an event store (priming event, retry field, resumption); DNS rebinding protection checks Host and
    // Origin (the recording proxy sets Host to the target's, so the Origin is what a rebinding request is caught by)
    options: () => ({
      eventStore: new InMemoryEventStore(),
      retryInterval: 500,
      enableDnsRebindingProtection: true,
      allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`],
      allowedOrigins: [port, ...ports].flatMap((p) => ['127.0.0.1', 'localhost'].map((h) => `http://${h}:${p}`)),
    }),
  });
  const s = await listen(recordingHandler(handle, { out, side: 'server' }));
  port = s.port;
  return s;
}

// ---------------------------------------------------------------- running the suite

function runSuite(args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', GLOB_SHIM, CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The suite's checks.json of the one run in cwd, shortened: id, status and message of each non-INFO check. */
function readChecks(cwd) {
  const dir = join(cwd, 'results');
  if (!existsSync(dir)) return [];
  const out = [];
  for (const run of readdirSync(dir)) {
    const file = join(dir, run, 'checks.json');
    if (!existsSync(file)) continue;
    for (const c of JSON.parse(readFileSync(file, 'utf8'))) {
      if (c.status === 'INFO') continue;
      out.push({ id: c.id, status: c.status, ...(c.errorMessage ? { message: c.errorMessage } : {}) });
    }
  }
  return out;
}

const SERVER_SCENARIOS = {
  'server-initialize': 'initialize, then close',
  ping: 'ping',
  'logging-set-level': 'logging/setLevel',
  'completion-complete': 'completion/complete for a prompt argument',
  'tools-list': 'tools/list',
  'tools-call-simple-text': 'tools/call test_simple_text',
  'tools-call-mixed-content': 'tools/call test_multiple_content_types',
  'tools-call-error': 'tools/call test_error_handling: the tool throws, the server answers isError: true',
  'tools-call-with-logging': 'logging/setLevel, tools/call with three notifications/message on its stream',
  'tools-call-with-progress': 'tools/call with a progressToken, three notifications/progress',
  'tools-call-sampling': 'tools/call; the server sends sampling/createMessage on the call stream and the client answers it',
  'tools-call-elicitation': 'tools/call; the server sends elicitation/create on the call stream and the client answers it',
  'server-sse-polling': 'a raw POST tools/call id 1; the server closes the SSE stream mid-call (closeSSEStream); a GET with Last-Event-ID brings the result',
  'server-sse-multiple-streams': 'three raw POST tools/list (ids 1000-1002) at once in one session; the suite reads one event of each and cancels the streams',
  'resources-read-text': 'resources/read test://static-text',
  'resources-templates-read': 'resources/read of a templated resource',
  'prompts-get-with-args': 'prompts/get with arguments',
  'dns-rebinding-protection': 'two sessionless initialize POSTs: one with Host and Origin evil.example.com (must be 4xx), one with localhost (must be 2xx)',
};

const CLIENT_SCENARIOS = {
  initialize: 'the client initializes, lists tools and closes',
  tools_call: 'the client calls add_numbers on a stateless SDK server',
  'sse-retry': 'the test server closes the tools/call SSE stream after a priming event (id, retry: 500); the client must reconnect with GET and Last-Event-ID after 500 ms, where the result comes',
  'elicitation-sep1034-client-defaults': 'the server sends elicitation/create with defaults during a call; the client accepts, applying the defaults',
};

async function recordServerScenario(name) {
  const base = join(ROOT, name);
  for (const side of ['client', 'server']) rmSync(`${base}.${side}.ndjson`, { force: true });
  const ports = []; // the proxy's: the suite's Origin names the port it connects to
  const server = await startEverythingServer(`${base}.server.ndjson`, ports);
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: server.url, out: `${base}.client.ndjson`, side: 'client' });
  ports.push(Number(new URL(proxy.url).port));
  const cwd = mkdtempSync(join(tmpdir(), 'conf-'));
  try {
    const run = await runSuite(['server', '--url', `${proxy.url}/mcp`, '--scenario', name, '-o', join(cwd, 'results')], cwd);
    await sleep(300);
    return { mode: 'server', did: SERVER_SCENARIOS[name], exit: run.code, checks: readChecks(cwd) };
  } finally {
    await proxy.close();
    await server.close();
    rmSync(cwd, { recursive: true, force: true });
  }
}

async function recordClientScenario(name, client) {
  const file = join(ROOT, `${name.replace(/\//g, '_')}.${client}.client.ndjson`);
  rmSync(file, { force: true });
  const cwd = mkdtempSync(join(tmpdir(), 'conf-'));
  try {
    const command = `${process.execPath} ${SELF} --client ${client} ${file}`;
    const run = await runSuite(['client', '--command', command, '--scenario', name, '--timeout', '20000', '-o', join(cwd, 'results')], cwd);
    return { mode: 'client', client, did: CLIENT_SCENARIOS[name], exit: run.code, checks: readChecks(cwd) };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- the client under test (a child of the suite)

/** OAuth for the SDK client, as the SDK's examples write it: a registered client, the redirect followed at once. */
function oauthProvider() {
  let info;
  let tokens;
  let verifier;
  return {
    get redirectUrl() {
      return 'http://localhost:3333/callback';
    },
    get clientMetadata() {
      return { client_name: 'conformance-sdk-client', redirect_uris: ['http://localhost:3333/callback'], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
    },
    clientInformation: () => info,
    saveClientInformation: (i) => void (info = i),
    tokens: () => tokens,
    saveTokens: (t) => void (tokens = t),
    saveCodeVerifier: (v) => void (verifier = v),
    codeVerifier: () => verifier,
    redirectToAuthorization: async (url) => {
      // the suite's authorization server redirects at once with a code
      const res = await fetch(url, { redirect: 'manual' });
      const loc = res.headers.get('location');
      oauthProvider.pendingCode = loc ? new URL(loc).searchParams.get('code') : undefined;
    },
  };
}

async function sdkClient(url, scenario) {
  const capabilities = scenario === 'elicitation-sep1034-client-defaults' ? { elicitation: { form: { applyDefaults: true } } } : {};
  const client = new Client({ name: 'conformance-sdk-client', version: '1.32.2' }, { capabilities });
  if (capabilities.elicitation) client.setRequestHandler((await import('@modelcontextprotocol/sdk/types.js')).ElicitRequestSchema, async () => ({ action: 'accept', content: {} }));
  const auth = scenario.startsWith('auth/') ? oauthProvider() : undefined;
  const connect = async () => {
    const transport = new StreamableHTTPClientTransport(new URL(url), auth ? { authProvider: auth } : {});
    try {
      await client.connect(transport);
    } catch (err) {
      if (!auth || !oauthProvider.pendingCode) throw err;
      await transport.finishAuth(oauthProvider.pendingCode);
      oauthProvider.pendingCode = undefined;
      await connect();
    }
  };
  await connect();
  const { tools } = await client.listTools();
  for (const tool of tools) {
    const args = tool.name === 'add_numbers' ? { a: 5, b: 3 } : {};
    for (let tries = 0; tries < 3; tries++) {
      try {
        const r = await client.callTool({ name: tool.name, arguments: args });
        console.log(JSON.stringify({ tool: tool.name, result: r }));
        break;
      } catch (err) {
        console.log(JSON.stringify({ tool: tool.name, error: String(err?.message ?? err) }));
        if (!auth || !oauthProvider.pendingCode) break;
        await client.transport.finishAuth(oauthProvider.pendingCode);
        oauthProvider.pendingCode = undefined;
      }
    }
  }
  await client.close();
}

async function clientMain(kind, out, url) {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const u = new URL(url);
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: u.origin, out, side: 'client' });
  const viaProxy = `${proxy.url}${u.pathname}${u.search}`;
  try {
    if (kind === 'py') {
      await new Promise((resolve) => {
        const child = spawn(PYTHON, [PY_CLIENT, viaProxy], { stdio: 'inherit', env: process.env });
        child.on('close', resolve);
      });
    } else {
      await sdkClient(viaProxy, scenario);
    }
  } finally {
    await sleep(200);
    await proxy.close();
  }
}

// ---------------------------------------------------------------- main

if (process.argv[2] === '--client') {
  const [, , , kind, out, url] = process.argv;
  clientMain(kind, out, url)
    .then(() => process.exit(0))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
} else {
  if (!existsSync(CLI)) {
    console.error(`the conformance suite is not installed at ${CONF_DIR} (see the top of this file)`);
    process.exit(2);
  }
  mkdirSync(ROOT, { recursive: true });
  const wanted = process.argv.slice(2);
  const pick = (names) => names.filter((n) => wanted.length === 0 || wanted.includes(n));
  const observedFile = join(ROOT, 'observed.json');
  const observed = existsSync(observedFile) ? JSON.parse(readFileSync(observedFile, 'utf8')) : {};
  for (const name of pick(Object.keys(SERVER_SCENARIOS))) {
    observed[name] = await recordServerScenario(name);
    console.log(name, observed[name].checks.map((c) => `${c.id}:${c.status}`).join(' '));
  }
  for (const name of pick(Object.keys(CLIENT_SCENARIOS))) {
    for (const client of name.startsWith('auth/') || name.startsWith('elicitation') ? ['sdk'] : ['sdk', 'py']) {
      const key = `${name.replace(/\//g, '_')}.${client}`;
      observed[key] = await recordClientScenario(name, client);
      console.log(key, observed[key].checks.map((c) => `${c.id}:${c.status}`).join(' '));
    }
  }
  writeFileSync(observedFile, JSON.stringify(Object.fromEntries(Object.entries(observed).sort()), null, 2) + '\n');
  void randomUUID;
}
