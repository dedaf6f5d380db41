// Application logs of a real MCP server: the SDK 1.32.2 server on 127.0.0.1 whose app logs every JSON-RPC message it
// receives and sends with pino 9 (pino-http 10 for its HTTP lines) or winston 3, as an app's own code would, and the
// SDK 1.32.2 client calling tools that succeed, fail, are unknown, time out and are retried by the app.
// Usage: npm run build && APP_LOG_DEPS=/path/to/node_modules node test/real-app-log/record.mjs [scenario...]
// NOT run by `npm test`. The loggers are not dependencies of the project: install them beside it first
// (`mkdir /tmp/applog-deps && cd /tmp/applog-deps && npm init -y && npm install pino@9 pino-http@10 winston@3`).
// Writes test/fixtures/real-app-log/<scenario>/server.ndjson (the app's log, stdout as it would be shipped) and
// observed.json (what the client app saw); test/real-app-log/real-app-log.test.ts reads them.
import { createRequire } from 'node:module';
import { mkdirSync, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { listen, recordScenarios, recordStep, restartableServer, sessionHandler, sleep, stopAfter } from '../helpers/loopback.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-app-log/', import.meta.url));
const deps = createRequire(join(process.env.APP_LOG_DEPS ?? '/tmp/applog-deps/node_modules', 'x.js'));
const pino = deps('pino');
const pinoHttp = deps('pino-http');
const winston = deps('winston');
const text = (t) => ({ content: [{ type: 'text', text: t }] });

/** The app's logger, writing NDJSON lines to `out`: { info(fields, msg), message(direction, sessionId, message), http? }. */
function makeLogger(kind, out) {
  if (kind === 'pino') {
    const log = pino({ base: { pid: process.pid, hostname: 'mcp-app-1' } }, out);
    return {
      info: (msg) => log.info(msg),
      // The JSON-RPC message as an object field, the direction in the message text.
      message: (dir, sessionId, message) => log.info({ sessionId, rpc: message }, dir === 'in' ? 'mcp message received' : 'mcp message sent'),
      http: pinoHttp({ logger: log }),
    };
  }
  const log = winston.createLogger({ format: winston.format.combine(winston.format.timestamp(), winston.format.json()), transports: [new winston.transports.Stream({ stream: out })] });
  return {
    info: (msg) => log.info(msg),
    // The JSON-RPC message stringified into the message text after a word that says its direction.
    message: (dir, sessionId, message) => log.info(`${dir === 'in' ? 'received' : 'sending'} ${JSON.stringify(message)}`, { sessionId }),
  };
}

function buildServer() {
  const server = new McpServer({ name: 'billing-app', version: '2.1.0' });
  server.registerTool('lookup_invoice', { inputSchema: { invoiceId: z.string() }, annotations: { readOnlyHint: true } }, async ({ invoiceId }) => text(`invoice ${invoiceId}: paid`));
  server.registerTool('export_ledger', { inputSchema: { month: z.string() } }, async ({ month }) => ({ ...text(`ledger for ${month} is locked by another export`), isError: true }));
  server.registerTool('charge_card', { inputSchema: { customer: z.string(), cents: z.number() }, annotations: { destructiveHint: true, idempotentHint: false } }, async ({ customer, cents }, extra) => {
    // The payment provider is slow the first time: the client gives up first, the charge still goes through.
    await sleep(cents === 1999 && !extra.signal.aborted ? 600 : 20);
    return text(`charged ${customer} ${cents} cents`);
  });
  return server;
}

/** The SDK server behind an HTTP server, with the app's logging hooks on every transport. */
async function startServer(logger) {
  const { handle, transports } = sessionHandler({
    Transport: StreamableHTTPServerTransport,
    isInitializeRequest,
    buildServer: () => {
      const server = buildServer();
      const connect = server.connect.bind(server);
      server.connect = async (t) => {
        await connect(t);
        const onmessage = t.onmessage;
        t.onmessage = (message, extra) => {
          logger.message('in', t.sessionId, message);
          onmessage?.(message, extra);
        };
        const send = t.send.bind(t);
        t.send = (message, options) => {
          logger.message('out', t.sessionId, message);
          return send(message, options);
        };
      };
      return server;
    },
  });
  const s = await listen((req, res) => (logger.http ? logger.http(req, res, () => handle(req, res)) : handle(req, res)));
  logger.info(`billing-app listening on ${s.url}/mcp`);
  return restartableServer(s, transports);
}

const SCENARIOS = { 'pino-hooks': { logger: 'pino' }, 'winston-hooks': { logger: 'winston' } };

async function run(name, { logger: kind }) {
  const dir = join(ROOT, name);
  mkdirSync(dir, { recursive: true });
  const file = createWriteStream(join(dir, 'server.ndjson'));
  const out = new Writable({ write: (chunk, _enc, cb) => file.write(chunk, cb) });
  const logger = makeLogger(kind, out);
  const server = await startServer(logger);
  const steps = [];
  const client = new Client({ name: 'billing-agent', version: '0.9.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  await recordStep(steps, 'lookup_invoice', () => client.callTool({ name: 'lookup_invoice', arguments: { invoiceId: 'INV-7' } }));
  await recordStep(steps, 'export_ledger', () => client.callTool({ name: 'export_ledger', arguments: { month: '2026-11' } }));
  await recordStep(steps, 'refund_invoice (unknown tool)', () => client.callTool({ name: 'refund_invoice', arguments: { invoiceId: 'INV-7' } }));
  // The app's own retry: its 300 ms timeout cancels the first charge, it charges again.
  const charge = () => client.callTool({ name: 'charge_card', arguments: { customer: 'cus_42', cents: 1999 } }, undefined, { timeout: 300 });
  const first = await recordStep(steps, 'charge_card', charge);
  if (!first.ok) await recordStep(steps, 'charge_card (app retry)', charge);
  await sleep(700); // the first charge finishes on the server meanwhile
  logger.info('cache warmed: 120 invoices');
  await client.close();
  await server.close();
  await sleep(50);
  await new Promise((r) => file.end(r));
  return { logger: kind, steps };
}

stopAfter(60_000);
await recordScenarios(SCENARIOS, run, { fixtures: ROOT, observed: join(ROOT, 'observed.json') });
process.exit(0);
