// The MCP test kitchen's errors.http_status_sequence, reproduced in front of an SDK 1.32.2 server on 127.0.0.1: every
// POST (initialize, notifications/initialized, tools/call...) takes the next status of a sequence, the last repeating;
// a 2xx goes on to the SDK, any other status is sent as a bare status line (no body, no Content-Type). The SDK 1.32.2
// client behind an application that reconnects (three tries) and re-calls (three tries) after a failure; the py-
// scenarios run the Python SDK client (mcp 2.3.0, test/real-kitchen/py_client.py) the same way, recorded by
// `mcp-triage record --side client` in front of the server; the v2- scenarios put the v2 packages (2.4.0) on both
// sides, protocol 2026-07-28 (no initialize: the client's server/discover probe is the first POST).
// Usage: node test/real-kitchen/record.mjs [scenario...]  (needs dist/: npm run build; the py- ones /work/py-venv)
// Writes test/fixtures/real-kitchen/<scenario>/{client,server}.ndjson and observed.json (what the application saw).
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { McpServer as McpServerV2, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { recordingFetch, recordingHandler } from '../../dist/capture/index.js';
import { describeError, freePort, listen, sessionHandler, sleep } from '../helpers/loopback.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-kitchen/', import.meta.url));

// The kitchen's statusCodes per scenario, counted over every POST of the run.
const scenarios = {
  'initialize-503': [503, 200],
  'initialized-503': [200, 503, 200],
  'call-503-then-200': [200, 200, 200, 503, 200],
  'call-503-forever': [200, 200, 200, 503],
  'py-initialize-503': [503, 200],
  'py-initialized-503': [200, 503, 200],
  'v2-discover-503': [503, 200],
  'v2-call-503-then-200': [200, 503, 200],
};
const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
const BIN = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));

function buildServer() {
  const server = new McpServer({ name: 'kitchen-like', version: '1.0.0' });
  server.registerTool('run_configured_test_scenario', { inputSchema: { message: z.string().optional() } }, async ({ message }) => ({
    content: [{ type: 'text', text: JSON.stringify({ scenarioId: 'errors.http_status_sequence', message }) }],
  }));
  return server;
}

/** The v2 server: one stateless handler for every request (2026-07-28), with the same tool. */
function v2Handler() {
  const handler = createMcpHandler(() => {
    const server = new McpServerV2({ name: 'kitchen-like-v2', version: '1.0.0' });
    server.registerTool('run_configured_test_scenario', { inputSchema: z.object({ message: z.string().optional() }) }, async ({ message }) => ({
      content: [{ type: 'text', text: JSON.stringify({ scenarioId: 'errors.http_status_sequence', message }) }],
    }));
    return server;
  }, { responseMode: 'auto', keepAliveMs: 0 });
  const node = toNodeHandler(handler);
  return { handle: (req, res) => node(req, res), close: () => handler.close().catch(() => {}) };
}

async function runScenario(name, statusCodes) {
  const dir = `${ROOT}${name}/`;
  // The recorders append: a scenario starts from empty files.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let posts = 0;
  const v2 = name.startsWith('v2-') ? v2Handler() : undefined;
  const { handle } = v2 ?? sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest, buildServer });
  // The kitchen's middleware runs before the SDK and after the server's request log: the log sees the injected status.
  const wire = async (req, res) => {
    if (req.method === 'POST') {
      const code = statusCodes[Math.min(posts++, statusCodes.length - 1)];
      if (code < 200 || code > 299) {
        for await (const chunk of req) void chunk;
        res.writeHead(code);
        res.end();
        return;
      }
    }
    return handle(req, res);
  };
  const server = await listen(recordingHandler(wire, { out: `${dir}server.ndjson` }));
  if (name.startsWith('py-')) {
    // The Python client's view: the recording proxy in front of the server.
    const port = await freePort();
    const proxy = spawn(process.execPath, [BIN, 'record', '--listen', `127.0.0.1:${port}`, '--target', server.url, '--out', `${dir}client.ndjson`, '--side', 'client'], { stdio: 'ignore' });
    await sleep(800);
    const { stdout } = await promisify(execFile)(PYTHON, [fileURLToPath(new URL('py_client.py', import.meta.url)), `http://127.0.0.1:${port}/mcp`], { timeout: 60_000 });
    proxy.kill('SIGINT');
    await sleep(300);
    await server.close();
    writeFileSync(`${dir}observed.json`, `${JSON.stringify({ statusCodes, steps: JSON.parse(stdout) }, null, 2)}\n`);
    console.log(`recorded ${name}`);
    return;
  }
  const f = recordingFetch({ out: `${dir}client.ndjson` });
  const steps = [];
  const connect = async () => {
    for (let i = 1; i <= 3; i++) {
      const c = v2 ? new ClientV2({ name: 'kitchen-client', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } }) : new Client({ name: 'kitchen-client', version: '1.0.0' });
      try {
        await c.connect(v2 ? new TransportV2(new URL('/mcp', server.url), { fetch: f }) : new StreamableHTTPClientTransport(new URL('/mcp', server.url), { fetch: f }));
        steps.push({ step: `connect ${i}`, ok: true });
        return c;
      } catch (err) {
        steps.push({ step: `connect ${i}`, ok: false, error: describeError(err) });
        await sleep(200);
      }
    }
    return undefined;
  };
  const c = await connect();
  if (c) {
    for (let i = 1; i <= 2; i++) {
      for (let k = 1; k <= 3; k++) {
        try {
          const r = await c.callTool({ name: 'run_configured_test_scenario', arguments: { message: `call ${i}` } });
          steps.push({ step: `call ${i} try ${k}`, ok: true, isError: r.isError === true });
          break;
        } catch (err) {
          steps.push({ step: `call ${i} try ${k}`, ok: false, error: describeError(err) });
          await sleep(200);
        }
      }
    }
    await c.close();
  }
  await sleep(100);
  await v2?.close();
  await server.close();
  writeFileSync(`${dir}observed.json`, `${JSON.stringify({ statusCodes, steps }, null, 2)}\n`);
  console.log(`recorded ${name}`);
}

const pick = process.argv.slice(2);
for (const [name, codes] of Object.entries(scenarios)) if (pick.length === 0 || pick.includes(name)) await runScenario(name, codes);
process.exit(0);
