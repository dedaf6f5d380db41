// Node side of the OTLP recorder (record.py): TypeScript SDK 1.32.2 clients against the instrumented Python server.
// The TypeScript SDK has no OpenTelemetry of its own, so only the server's spans exist for these calls.
// Usage: node peer.mjs ts-clients URL N  -> prints one JSON line: what each of the N concurrent clients saw
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [mode, url, n] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function step(steps, label, fn) {
  const started = Date.now();
  try {
    const r = await fn();
    const text = Array.isArray(r?.content) ? r.content.map((c) => c.text ?? '').join(' ') : undefined;
    steps.push({ step: label, ok: true, ...(text !== undefined ? { text, isError: Boolean(r.isError) } : {}), ms: Date.now() - started });
  } catch (err) {
    steps.push({ step: label, ok: false, error: { name: err?.name, message: String(err?.message).slice(0, 300), code: err?.code }, ms: Date.now() - started });
  }
}

async function oneClient(i) {
  const steps = [];
  const client = new Client({ name: `ts-sdk-client-${i}`, version: '1.32.2' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  await sleep(20 * i); // the sessions overlap, not in lockstep
  await step(steps, 'listTools', () => client.listTools());
  await step(steps, `lookup_order 100${i}`, () => client.callTool({ name: 'lookup_order', arguments: { order_id: `100${i}` } }));
  await step(steps, 'validate_quantity -3 (ToolError)', () => client.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }));
  await step(steps, 'read_resource config://missing', () => client.readResource({ uri: 'config://missing' }));
  if (i === 1) {
    // a client timeout: the SDK sends notifications/cancelled, the server stops the tool
    await step(steps, 'slow_report times out at 300 ms', () => client.callTool({ name: 'slow_report', arguments: { steps: 10, step_ms: 100 } }, undefined, { timeout: 300 }));
    await sleep(300);
  }
  await client.close();
  return { client: i, sessionId: transport.sessionId ?? null, steps };
}

if (mode === 'ts-clients') {
  const clients = await Promise.all(Array.from({ length: Number(n) }, (_, i) => oneClient(i + 1)));
  process.stdout.write(JSON.stringify({ clients }) + '\n');
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
