// Application logs of a real MCP server: the SDK 1.32.2 server on 127.0.0.1 whose app logs every JSON-RPC message it
// receives and sends with pino 9 (pino-http 10 for its HTTP lines) or winston 3, as an app's own code would, and the
// SDK 1.32.2 client calling tools that succeed, fail, are unknown, time out and are retried by the app. In `pino-client*`
// the client app logs too (pino, its transport's send and onmessage wrapped, its failures as `log.error({ err }, ...)`)
// to client.ndjson, and its session is lost to a server restart at the end; in `py-client-structlog` the client app is the
// Python SDK 2.3.0's (py_client.py, structlog in /work/py-venv).
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
import { pyClient } from './py-client.mjs';

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

/**
 * The client app's logging, as an app developer writes it around the SDK client's transport: every message it sends
 * (`send` wrapped) and receives (an `onmessage` set before `connect()`, which the SDK's Protocol calls first), with the
 * transport's session id when `sessionId` is set (most apps log only the message).
 */
function logClientTransport(transport, log, { sessionId }) {
  const fields = (rpc) => (sessionId && transport.sessionId ? { sessionId: transport.sessionId, rpc } : { rpc });
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    log.info(fields(message), 'mcp message sent');
    return send(message, options);
  };
  transport.onmessage = (message) => log.info(fields(message), 'mcp message received');
  return transport;
}

const SCENARIOS = {
  'pino-hooks': { logger: 'pino' },
  'winston-hooks': { logger: 'winston' },
  // The client app logs too: the message only (as most apps do), or with the transport's session id.
  'pino-client': { logger: 'pino', client: { sessionId: false } },
  'pino-client-session': { logger: 'pino', client: { sessionId: true } },
  // The Python SDK 2.3.0 client app (py_client.py `logged`), logging with structlog 26.1.0 in the venv.
  'py-client-structlog': { logger: 'pino', pyClient: true },
};

/** An NDJSON log file and a stream a logger writes to it through. */
function logFile(path) {
  const file = createWriteStream(path);
  return { out: new Writable({ write: (chunk, _enc, cb) => file.write(chunk, cb) }), end: () => new Promise((r) => file.end(r)) };
}

async function run(name, { logger: kind, client: clientLog, pyClient: py }) {
  const dir = join(ROOT, name);
  mkdirSync(dir, { recursive: true });
  const serverFile = logFile(join(dir, 'server.ndjson'));
  const logger = makeLogger(kind, serverFile.out);
  const server = await startServer(logger);
  if (py) {
    // The same calls, then the server restarts and the client calls once more.
    const steps = await pyClient(`${server.url}/mcp`, 'logged', async () => {
      await server.restart();
      logger.info('billing-app restarted');
    }, [join(dir, 'client.ndjson')]);
    await server.close();
    await sleep(50);
    await serverFile.end();
    return { logger: kind, client: { logger: 'structlog', sdk: 'python' }, steps };
  }
  const steps = [];
  const clientFile = clientLog && logFile(join(dir, 'client.ndjson'));
  const clog = clientLog && pino({ base: { pid: process.pid, hostname: 'agent-host-3' }, name: 'billing-agent' }, clientFile.out);
  // The client app's own view of a failure, logged as apps do (pino's `err` serializer), beside what the SDK returned.
  const step = async (label, fn) => {
    const r = await recordStep(steps, label, fn);
    if (clog && !r.ok) clog.error({ err: r.error, tool: label.split(' ')[0] }, 'tool call failed');
    else if (clog && r.result?.isError) clog.warn({ tool: label.split(' ')[0] }, 'tool returned an error');
    return r;
  };
  const client = new Client({ name: 'billing-agent', version: '0.9.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`));
  await client.connect(clog ? logClientTransport(transport, clog, clientLog) : transport);
  clog?.info({ server: server.url }, 'connected to billing-app');
  await step('lookup_invoice', () => client.callTool({ name: 'lookup_invoice', arguments: { invoiceId: 'INV-7' } }));
  await step('export_ledger', () => client.callTool({ name: 'export_ledger', arguments: { month: '2026-11' } }));
  await step('refund_invoice (unknown tool)', () => client.callTool({ name: 'refund_invoice', arguments: { invoiceId: 'INV-7' } }));
  // The app's own retry: its 300 ms timeout cancels the first charge, it charges again.
  const charge = () => client.callTool({ name: 'charge_card', arguments: { customer: 'cus_42', cents: 1999 } }, undefined, { timeout: 300 });
  const first = await step('charge_card', charge);
  if (!first.ok) {
    clog?.warn({ attempt: 2 }, 'retrying charge_card');
    await step('charge_card (app retry)', charge);
  }
  await sleep(700); // the first charge finishes on the server meanwhile
  logger.info('cache warmed: 120 invoices');
  if (clog) {
    // The server restarts (its sessions forgotten): the client's next call gets 404, which the TS SDK client throws.
    await server.restart();
    logger.info('billing-app restarted');
    await step('lookup_invoice (after the server restart)', () => client.callTool({ name: 'lookup_invoice', arguments: { invoiceId: 'INV-8' } }));
  }
  await client.close();
  await server.close();
  await sleep(50);
  await serverFile.end();
  await clientFile?.end();
  return { logger: kind, ...(clientLog ? { client: { logger: 'pino', ...clientLog } } : {}), steps };
}

stopAfter(60_000);
await recordScenarios(SCENARIOS, run, { fixtures: ROOT, observed: join(ROOT, 'observed.json') });
process.exit(0);
