// Writes the xmcp project the eleventh audit records into $SCRATCH_AUDIT11/xmcp (default /work/scratch-audit11/xmcp): its config (HTTP on
// 127.0.0.1:39431/mcp, fixed at build time), a tsconfig, three tools. Then, in that folder: npx xmcp build (dist/http.js is the server).
import { mkdirSync, writeFileSync } from 'node:fs';
const dir = `${process.env.SCRATCH_AUDIT11 ?? '/work/scratch-audit11'}/xmcp`;
mkdirSync(`${dir}/src/tools`, { recursive: true });
const files = {
  'xmcp.config.ts': `import { type XmcpConfig } from "xmcp";
const config: XmcpConfig = { paths: { prompts: false, resources: false }, http: { port: 39431, host: "127.0.0.1", endpoint: "/mcp" } };
export default config;
`,
  'tsconfig.json': `{ "compilerOptions": { "target": "ES2022", "module": "ESNext", "moduleResolution": "bundler", "strict": false, "esModuleInterop": true, "skipLibCheck": true, "noEmit": true, "types": ["node"] }, "include": ["src", "xmcp.config.ts", "xmcp-env.d.ts"] }
`,
  'src/tools/lookup_order.ts': `import { z } from "zod";
import { type InferSchema, type ToolMetadata } from "xmcp";
export const schema = { orderId: z.string().describe("The order id") };
export const metadata: ToolMetadata = { name: "lookup_order", description: "Look up an order" };
export default async function lookupOrder({ orderId }: InferSchema<typeof schema>) {
  process.stderr.write(\`ran lookup_order \${orderId}\\n\`);
  return \`order \${orderId}: shipped\`;
}
`,
  'src/tools/send_invoice.ts': `import { z } from "zod";
import { type InferSchema, type ToolMetadata } from "xmcp";
export const schema = { orderId: z.string() };
export const metadata: ToolMetadata = { name: "send_invoice", description: "Send the invoice of an order" };
export default async function sendInvoice({ orderId }: InferSchema<typeof schema>) {
  process.stderr.write(\`ran send_invoice \${orderId}\\n\`);
  return { content: [{ type: "text", text: \`invoice for \${orderId} sent\` }] };
}
`,
  'src/tools/crash.ts': `import { type ToolMetadata } from "xmcp";
export const schema = {};
export const metadata: ToolMetadata = { name: "crash", description: "Always throws" };
export default async function crash() {
  process.stderr.write("ran crash\\n");
  throw new Error("database connection refused");
}
`,
};
for (const [f, text] of Object.entries(files)) writeFileSync(`${dir}/${f}`, text);
process.stderr.write(`wrote the xmcp project into ${dir}\n`);
