// Application logs of a real Python MCP server: py_app_server.py (the Python SDK 2.3.0's MCPServer on uvicorn, 127.0.0.1)
// whose app code logs every JSON-RPC message it receives and sends with python-json-logger 4.2.0, structlog 26.1.0 or
// loguru 0.7.3, called by the Python SDK 2.3.0 client (py_client.py) or the TS SDK 1.32.2 client: a result, an isError
// result, a JSON-RPC error, an unknown tool, a destructive tool the app retries after its 300 ms timeout; and a session
// lost when the server restarts; an app that hands the logger the SDK's message object instead of its JSON, and one
// that formats the message dict into loguru's text.
// Usage: npm run build && node test/real-app-log/record-py.mjs [scenario...]   NOT run by `npm test`.
// The loggers are not dependencies of the project: install them into the venv first
// (`/work/py-venv/bin/pip install python-json-logger==4.2.0 structlog==26.1.0 loguru==0.7.3`; PY_VENV names another venv).
// Writes test/fixtures/real-app-log/<scenario>/server.ndjson (the app's stdout, as it would be shipped) and
// observed-py.json (what the client app saw); test/real-app-log/real-app-log-py.test.ts reads them.
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freePort, recordScenarios, recordStep, sleep, stopAfter } from '../helpers/loopback.mjs';
import { PY, pyClient } from './py-client.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = fileURLToPath(new URL('../fixtures/real-app-log/', import.meta.url));

/** The Python server, its stdout appended to `log`; resolves once it answers on the port. */
async function startServer(logger, port, log, mode) {
  const fd = openSync(log, 'a');
  const child = spawn(PY, [join(HERE, 'py_app_server.py'), logger, String(port), ...(mode ? [mode] : [])], { stdio: ['ignore', fd, 'pipe'] });
  closeSync(fd);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  for (let i = 0; i < 100; i++) {
    await sleep(100);
    const up = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'GET' }).then(() => true, () => false);
    if (up) break;
  }
  return {
    stderr: () => stderr,
    stop: () => new Promise((r) => {
      child.once('exit', r);
      child.kill('SIGINT');
    }),
  };
}

/** The TS SDK 1.32.2 client making the same calls as py_client.py's "calls" phase. */
async function tsClient(url) {
  const steps = [];
  const client = new Client({ name: 'billing-agent', version: '0.9.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  await recordStep(steps, 'lookup_invoice', () => client.callTool({ name: 'lookup_invoice', arguments: { invoiceId: 'INV-7' } }));
  await recordStep(steps, 'export_ledger', () => client.callTool({ name: 'export_ledger', arguments: { month: '2026-11' } }));
  await recordStep(steps, 'void_invoice (JSON-RPC error)', () => client.callTool({ name: 'void_invoice', arguments: { invoiceId: 'INV-7' } }));
  await recordStep(steps, 'refund_invoice (unknown tool)', () => client.callTool({ name: 'refund_invoice', arguments: { invoiceId: 'INV-7' } }));
  const charge = () => client.callTool({ name: 'charge_card', arguments: { customer: 'cus_42', cents: 1999 } }, undefined, { timeout: 300 });
  const first = await recordStep(steps, 'charge_card', charge);
  if (!first.ok) await recordStep(steps, 'charge_card (app retry)', charge);
  await sleep(700);
  await client.close();
  return steps;
}

const SCENARIOS = {
  'py-pjl': { logger: 'pjl', client: 'python' },
  'py-structlog': { logger: 'structlog', client: 'typescript' },
  'py-loguru': { logger: 'loguru', client: 'python' },
  'py-loguru-restart': { logger: 'loguru', client: 'python', restart: true },
  // The app passes the SDK's message object to the logger (extra={"rpc": session_message.message}): pjl writes its str().
  'py-pjl-model': { logger: 'pjl', client: 'python', mode: 'model' },
  // The app formats the message dict into loguru's text (logger.info("mcp message received {}", message)): its str().
  'py-loguru-text': { logger: 'loguru', client: 'typescript', mode: 'text' },
};

async function run(name, { logger, client, restart, mode }) {
  const dir = join(ROOT, name);
  mkdirSync(dir, { recursive: true });
  const log = join(dir, 'server.ndjson');
  closeSync(openSync(log, 'w'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  let server = await startServer(logger, port, log, mode);
  let steps;
  if (restart) {
    steps = await pyClient(url, 'restart', async () => {
      await server.stop();
      server = await startServer(logger, port, log, mode);
    });
  } else steps = client === 'python' ? await pyClient(url, 'calls') : await tsClient(url);
  await sleep(200);
  await server.stop();
  return { logger, client, ...(restart ? { restart } : {}), ...(mode ? { mode } : {}), steps };
}

stopAfter(120_000);
await recordScenarios(SCENARIOS, run, { fixtures: ROOT, observed: join(ROOT, 'observed-py.json') });
process.exit(0);
