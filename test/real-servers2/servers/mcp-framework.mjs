// mcp-framework 0.2.22's MCPServer with its own HttpStreamTransport ("http-stream"), as its README sets it up, in a child process of record.mjs.
// argv: port, responseMode (stream | batch). Tools are added with addTool() (the README's class-based tools), nothing loaded from disk.
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';

const NPM = process.env.NPM_SERVERS2 ?? '/work/npm-servers2';
const load = (p) => import(pathToFileURL(join(NPM, 'node_modules', p)).href);
const { MCPServer, MCPTool } = await load('mcp-framework/dist/index.js');
const { z } = await load('zod/index.js');
const [port, responseMode = 'stream'] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

class LookupOrder extends MCPTool {
  name = 'lookup_order';
  description = 'Look an order up';
  schema = z.object({ orderId: z.string().describe('the order id') });
  annotations = { readOnlyHint: true, idempotentHint: true };
  async execute({ orderId }) {
    return `order ${orderId}: shipped`;
  }
}
class SendInvoice extends MCPTool {
  name = 'send_invoice';
  description = 'Send an invoice';
  schema = z.object({ orderId: z.string().describe('the order id') });
  async execute({ orderId }) {
    return `invoice sent for ${orderId}`;
  }
}
class Crash extends MCPTool {
  name = 'crash';
  description = 'Always throws';
  schema = z.object({});
  async execute() {
    throw new Error('database connection refused');
  }
}
class SlowReport extends MCPTool {
  name = 'slow_report';
  description = 'A report in steps, with progress';
  schema = z.object({ steps: z.number().describe('steps'), stepMs: z.number().describe('ms per step'), label: z.string().optional().describe('a label') });
  annotations = { readOnlyHint: true };
  async execute({ steps, stepMs, label }) {
    for (let i = 1; i <= steps; i++) {
      await sleep(stepMs);
      if (this.abortSignal?.aborted) throw new Error('cancelled by the client');
      await this.reportProgress(i, steps, `step ${i}`);
    }
    return `report${label ? ` ${label}` : ''} of ${steps} steps`;
  }
}

const server = new MCPServer({
  name: 'servers2-mcp-framework',
  version: '1.0.0',
  basePath: mkdtempSync(join(tmpdir(), 'mcp-framework-')),
  transport: { type: 'http-stream', options: { port: Number(port), endpoint: '/mcp', responseMode } },
});
for (const T of [LookupOrder, SendInvoice, Crash, SlowReport]) server.addTool(T);
await server.start();
process.stdout.write('ready\n');
