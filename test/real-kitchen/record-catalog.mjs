// The MCP test kitchen's catalog interceptor, reproduced in front of an SDK server on 127.0.0.1: resources/read of
// test://resources/invalid and prompts/get of invalid_prompt are answered by the wire layer, HTTP 200
// application/json, with a schema-invalid result (the kitchen's BaselineCatalogPrimitives: a content item with no uri,
// blob "not-valid-base64!!!", mimeType "not-a-mime-type"; a prompt message with no role and content type
// "unknown_type"); every other request reaches the SDK (stateless, as the kitchen's host is). Callers: the SDK 1.32.2
// client (catalog-ts), the v2 client 2.4.0 against a v2 server on 2026-07-28 (catalog-v2), the Python SDK client
// 2.3.0 (catalog-py, test/real-kitchen/py_catalog.py, recorded by `mcp-triage record --side client`).
// Usage: node test/real-kitchen/record-catalog.mjs [scenario...]  (needs dist/: npm run build; catalog-py /work/py-venv)
// Writes test/fixtures/real-kitchen/<scenario>/{client,server}.ndjson and observed.json (what each caller got).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { McpServer as McpServerV2, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { recordingFetch, recordingHandler } from '../../dist/capture/index.js';
import { listen, readJsonBody, recordPythonClient, recordStep, sleep } from '../helpers/loopback.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-kitchen/', import.meta.url));
const VALID_TEXT = 'Valid resource content from MCP test server.';

// What the kitchen's wire interceptor answers, as its BaselineCatalogWireInterceptor builds them.
const INVALID_RESOURCE = { contents: [{ type: 'blob', blob: 'not-valid-base64!!!', mimeType: 'not-a-mime-type' }] };
const INVALID_PROMPT = { messages: [{ content: { type: 'unknown_type', text: 'missing role field' } }] };

function register(server, toolSchema, promptArgs) {
  server.registerResource('valid_resource', 'test://resources/valid', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: VALID_TEXT }] }));
  server.registerResource('invalid_resource', 'test://resources/invalid', { mimeType: 'text/plain' }, async () => {
    throw new Error('invalid_resource reads are handled by the wire interceptor');
  });
  server.registerPrompt('valid_prompt', { argsSchema: promptArgs }, async ({ topic }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `You are testing the MCP test server. Topic: ${topic ?? 'general testing'}` } }] }));
  server.registerPrompt('invalid_prompt', {}, async () => {
    throw new Error('invalid_prompt reads are handled by the wire interceptor');
  });
  server.registerTool('run_configured_test_scenario', { inputSchema: toolSchema }, async ({ message }) => ({
    content: [{ type: 'text', text: JSON.stringify({ scenarioId: 'baseline', invocation: 1, message }) }],
  }));
  return server;
}

/** The SDK behind the interceptor: 1.32.2 stateless (a new server and transport per POST), or the v2 handler. */
function sdkHandler(v2) {
  if (v2) {
    const handler = createMcpHandler(() => register(new McpServerV2({ name: 'kitchen-like-v2', version: '1.0.0' }), z.object({ message: z.string().optional() }), z.object({ topic: z.string().optional() })), { responseMode: 'auto', keepAliveMs: 0 });
    const node = toNodeHandler(handler);
    return { handle: (req, res, body) => node(req, res, body), close: () => handler.close().catch(() => {}) };
  }
  const handle = async (req, res, body) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const mcp = register(new McpServer({ name: 'kitchen-like', version: '1.0.0' }), { message: z.string().optional() }, { topic: z.string().optional() });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close().then(() => mcp.close()));
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  };
  return { handle, close: async () => {} };
}

/** The kitchen's catalog interceptor in front of the SDK: the two invalid reads are answered here, 200 application/json. */
function kitchen(sdk) {
  return async (req, res) => {
    if (req.method !== 'POST') return sdk.handle(req, res);
    const { body } = await readJsonBody(req);
    const invalid = body?.method === 'resources/read' && body.params?.uri === 'test://resources/invalid' ? INVALID_RESOURCE
      : body?.method === 'prompts/get' && body.params?.name === 'invalid_prompt' ? INVALID_PROMPT : undefined;
    if (invalid) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: invalid }));
      return;
    }
    return sdk.handle(req, res, body);
  };
}

/** What an application does with the catalog: read both resources and get both prompts, then call the tool. */
async function useCatalog(c, steps) {
  await recordStep(steps, 'read valid', () => c.readResource({ uri: 'test://resources/valid' }));
  await recordStep(steps, 'read invalid', () => c.readResource({ uri: 'test://resources/invalid' }));
  await recordStep(steps, 'get valid prompt', () => c.getPrompt({ name: 'valid_prompt', arguments: { topic: 'catalog' } }));
  await recordStep(steps, 'get invalid prompt', () => c.getPrompt({ name: 'invalid_prompt' }));
  await recordStep(steps, 'call tool', () => c.callTool({ name: 'run_configured_test_scenario', arguments: { message: 'after the catalog' } }));
}

async function runScenario(name) {
  const dir = `${ROOT}${name}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const sdk = sdkHandler(name === 'catalog-v2');
  const server = await listen(recordingHandler(kitchen(sdk), { out: `${dir}server.ndjson` }));
  const steps = [];
  if (name === 'catalog-py') {
    steps.push(...(await recordPythonClient(fileURLToPath(new URL('py_catalog.py', import.meta.url)), server.url, `${dir}client.ndjson`)));
  } else {
    const f = recordingFetch({ out: `${dir}client.ndjson` });
    const v2 = name === 'catalog-v2';
    const c = v2 ? new ClientV2({ name: 'kitchen-catalog-client', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } }) : new Client({ name: 'kitchen-catalog-client', version: '1.0.0' });
    await c.connect(v2 ? new TransportV2(new URL('/mcp', server.url), { fetch: f }) : new StreamableHTTPClientTransport(new URL('/mcp', server.url), { fetch: f }));
    await useCatalog(c, steps);
    await c.close();
    await sleep(100);
  }
  await sdk.close();
  await server.close();
  for (const s of steps) delete s.ms;
  writeFileSync(`${dir}observed.json`, `${JSON.stringify({ steps }, null, 2)}\n`);
  console.log(`recorded ${name}`);
}

const pick = process.argv.slice(2);
for (const name of ['catalog-ts', 'catalog-v2', 'catalog-py']) if (pick.length === 0 || pick.includes(name)) await runScenario(name);
process.exit(0);
