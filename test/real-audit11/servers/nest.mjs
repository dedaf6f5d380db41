// The NestJS MCP server of the eleventh audit: @rekog/mcp-nest 2.0.5 (its McpStrategy and StreamableHttpTransport, on the v2 SDK server 2.4.0)
// in a NestJS 12 app on Express, as its README's Quick Start writes it (decorators applied by hand: this is plain JavaScript).
// Usage: node nest.mjs <port> <stateless|stateful>; the packages come from $SCRATCH_AUDIT11/nest (see test/real-audit11/record.mjs).
import { createRequire } from 'node:module';
const SCRATCH = process.env.SCRATCH_AUDIT11 ?? '/work/scratch-audit11';
const require = createRequire(`${SCRATCH}/nest/package.json`);
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Module } = require('@nestjs/common');
const { Payload, Ctx } = require('@nestjs/microservices');
const { McpController, Tool, McpStrategy, StreamableHttpTransport } = require('@rekog/mcp-nest');
const { z } = require('zod');

const [port, mode = 'stateless'] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const ran = (what) => process.stderr.write(`ran ${what}\n`);

class OrdersController {
  async lookupOrder({ orderId }) { ran(`lookup_order ${orderId}`); return text(`order ${orderId}: shipped`); }
  async sendInvoice({ orderId }) { ran(`send_invoice ${orderId}`); return text(`invoice for ${orderId} sent`); }
  async crash() { ran('crash'); throw new Error('database connection refused'); }
  async slowReport({ steps, stepMs }, ctx) {
    ran(`slow_report ${steps}x${stepMs}`);
    for (let i = 1; i <= steps; i++) { await sleep(stepMs); await ctx.reportProgress({ progress: i, total: steps }); }
    ran('slow_report done');
    return text(`report of ${steps} steps`);
  }
}
const method = (name, opts, params = [Payload()]) => {
  const d = Object.getOwnPropertyDescriptor(OrdersController.prototype, name);
  params.forEach((p, i) => p(OrdersController.prototype, name, i));
  Reflect.decorate([Tool(opts)], OrdersController.prototype, name, d);
};
method('lookupOrder', { name: 'lookup_order', description: 'Look up an order', parameters: z.object({ orderId: z.string() }) });
method('sendInvoice', { name: 'send_invoice', description: 'Send the invoice of an order', parameters: z.object({ orderId: z.string() }) });
method('crash', { name: 'crash', description: 'Always throws' });
method('slowReport', { name: 'slow_report', description: 'A slow report with progress', parameters: z.object({ steps: z.number(), stepMs: z.number() }) }, [Payload(), Ctx()]);
Reflect.decorate([McpController()], OrdersController);

const mcp = new McpStrategy({ name: 'orders-nest', version: '1.0.0', transports: [new StreamableHttpTransport(mode === 'stateful' ? { statefulMode: true } : {})] });
class AppModule {}
Reflect.decorate([Module({ controllers: [OrdersController] })], AppModule);

const app = await NestFactory.create(AppModule, { logger: ['error', 'warn', 'log'] });
mcp.setHttpAdapter(app.getHttpAdapter());
app.connectMicroservice({ strategy: mcp });
await app.startAllMicroservices();
await app.listen(Number(port), '127.0.0.1');
process.stderr.write(`nest mcp listening on port ${port} (${mode})\n`);
