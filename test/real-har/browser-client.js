// The page script of the HAR recorder (record.mjs bundles it for the browser): the official SDK client, run in Chromium,
// plays one scenario against the recorder's server and returns what the caller saw.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const log = [];
const note = (what, value) => log.push({ what, value: value instanceof Error ? `${value.name}: ${value.message}` : value });

async function connect() {
  const client = new Client({ name: 'browser-har-client', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  // The user approves every refund the server asks about.
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { approve: true } }));
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', location.href));
  await client.connect(transport);
  return { client, transport };
}

const SCENARIOS = {
  async baseline() {
    const { client, transport } = await connect();
    note('tools', (await client.listTools()).tools.map((t) => t.name));
    note('lookup', await client.callTool({ name: 'lookup_order', arguments: { orderId: 'A-1' } }));
    note('tool-error', await client.callTool({ name: 'validate_quantity', arguments: { quantity: -1 } }));
    try { note('unknown', await client.callTool({ name: 'no_such_tool', arguments: {} })); } catch (e) { note('unknown', e); }
    await transport.terminateSession();
    await client.close();
  },
  async 'http-503-app-retry'() {
    const { client, transport } = await connect();
    await client.listTools();
    let result;
    for (let i = 1; i <= 3 && !result; i++) {
      try { result = await client.callTool({ name: 'send_invoice', arguments: { orderId: 'B-7' } }); note(`attempt ${i}`, result); }
      catch (e) { note(`attempt ${i}`, e); await new Promise((r) => setTimeout(r, 150)); }
    }
    await transport.terminateSession();
    await client.close();
  },
  async 'jsonrpc-error'() {
    const { client, transport } = await connect();
    try { note('rejected', await client.callTool({ name: 'lookup_order', arguments: { orderId: 'C-3' } })); } catch (e) { note('rejected', e); }
    note('next', await client.callTool({ name: 'lookup_order', arguments: { orderId: 'C-4' } }));
    await transport.terminateSession();
    await client.close();
  },
  async 'sse-cut'() {
    const { client, transport } = await connect();
    try { note('cut', await client.callTool({ name: 'cut_stream', arguments: {} }, undefined, { timeout: 1500 })); } catch (e) { note('cut', e); }
    await transport.terminateSession();
    await client.close();
  },
  async 'client-timeout'() {
    const { client, transport } = await connect();
    await client.listTools();
    try { note('slow', await client.callTool({ name: 'slow_report', arguments: { delayMs: 900 } }, undefined, { timeout: 300 })); } catch (e) { note('slow', e); }
    await new Promise((r) => setTimeout(r, 1000));
    await transport.terminateSession();
    await client.close();
  },
  async 'sse-resumed-last-event-id'() {
    const { client, transport } = await connect();
    note('export', await client.callTool({ name: 'export_archive', arguments: {} }, undefined, { timeout: 5000 }));
    await transport.terminateSession();
    await client.close();
  },
  async 'elicitation-roundtrip'() {
    const { client, transport } = await connect();
    note('refund', await client.callTool({ name: 'approve_refund', arguments: { orderId: 'D-9' } }));
    await transport.terminateSession();
    await client.close();
  },
};

window.runScenario = async (name) => {
  log.length = 0;
  try { await SCENARIOS[name](); } catch (e) { note('scenario failed', e); }
  return JSON.parse(JSON.stringify(log));
};
