// The Cloudflare Worker mcp-triage records: an McpAgent (SDK 1.32.2 McpServer in a Durable Object) on /mcp and /sse, and the stateless createMcpHandler (SDK v2 McpServer) on /stateless.
import { McpAgent } from "agents/mcp";
import { createMcpHandler } from "agents/mcp/server";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpServer as McpServerV2 } from "@modelcontextprotocol/server";
import { z } from "zod";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class OrdersMCP extends McpAgent {
  server = new McpServer({ name: "cf-orders", version: "1.0.0" }, { capabilities: { logging: {} } });

  async init() {
    const s = this.server;
    s.registerTool("lookup_order", { description: "Look an order up", inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true, idempotentHint: true } }, async ({ orderId }) => ({ content: [{ type: "text", text: `order ${orderId}: shipped` }] }));
    s.registerTool("send_invoice", { description: "Send an invoice", inputSchema: { orderId: z.string() }, annotations: { destructiveHint: true } }, async ({ orderId }) => ({ content: [{ type: "text", text: `invoice sent for ${orderId}` }] }));
    s.registerTool("validate_quantity", { description: "Check a quantity", inputSchema: { quantity: z.number() }, annotations: { readOnlyHint: true } }, async ({ quantity }) =>
      quantity > 0 ? { content: [{ type: "text", text: "quantity ok" }] } : { content: [{ type: "text", text: `quantity must be positive, got ${quantity}` }], isError: true },
    );
    s.registerTool("crash", { description: "Always throws" }, async () => {
      throw new Error("database connection refused");
    });
    s.registerTool("slow_report", { description: "A report in steps, with progress", inputSchema: { steps: z.number(), stepMs: z.number() }, annotations: { readOnlyHint: true } }, async ({ steps, stepMs }, extra) => {
      for (let i = 1; i <= steps; i++) {
        await sleep(stepMs);
        const token = extra._meta?.progressToken;
        if (token !== undefined) await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: i, total: steps, message: `step ${i}` } });
      }
      return { content: [{ type: "text", text: `report of ${steps} steps` }] };
    });
    s.registerTool("confirm_refund", { description: "Refund after the user confirms", inputSchema: { orderId: z.string() } }, async ({ orderId }) => {
      const answer = await this.elicitInput({ message: `Refund order ${orderId}?`, requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] } });
      return { content: [{ type: "text", text: answer.action === "accept" && (answer.content as { confirm?: boolean } | undefined)?.confirm ? `refunded ${orderId}` : `refund of ${orderId} not confirmed (${answer.action})` }] };
    });
  }
}

function statelessServer() {
  const s = new McpServerV2({ name: "cf-stateless", version: "1.0.0" });
  s.registerTool("lookup_order", { description: "Look an order up", inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true, idempotentHint: true } }, async ({ orderId }) => ({ content: [{ type: "text", text: `order ${orderId}: shipped` }] }));
  s.registerTool("validate_quantity", { description: "Check a quantity", inputSchema: z.object({ quantity: z.number() }), annotations: { readOnlyHint: true } }, async ({ quantity }) =>
    quantity > 0 ? { content: [{ type: "text", text: "quantity ok" }] } : { content: [{ type: "text", text: `quantity must be positive, got ${quantity}` }], isError: true },
  );
  s.registerTool("crash", { description: "Always throws" }, async () => {
    throw new Error("database connection refused");
  });
  return s;
}

const mcp = OrdersMCP.serve("/mcp");
const sse = OrdersMCP.serveSSE("/sse");
const stateless = createMcpHandler(statelessServer, { route: "/stateless" });

export default {
  fetch(request: Request, env: unknown, ctx: ExecutionContext) {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith("/sse")) return sse.fetch(request, env, ctx);
    if (pathname.startsWith("/stateless")) return stateless(request, env, ctx);
    if (pathname.startsWith("/mcp")) return mcp.fetch(request, env, ctx);
    return new Response("not found", { status: 404 });
  },
};
