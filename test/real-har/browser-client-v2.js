// The page script for the HAR recorder's 2026-07-28 scenarios (record.mjs bundles it for the browser): the v2 SDK
// client (@modelcontextprotocol/client) negotiating with server/discover, answering input_required rounds itself.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const log = [];
const note = (what, value) => log.push({ what, value: value instanceof Error ? `${value.name}: ${value.message}` : value });

async function connect() {
  const client = new Client({ name: 'browser-har-client-v2', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } });
  // The user gives a reason whenever the server asks for one.
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { reason: 'damaged in transit' } }));
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', location.href));
  await client.connect(transport);
  note('protocol', client.getNegotiatedProtocolVersion?.() ?? null);
  return client;
}

const SCENARIOS = {
  async 'v2-baseline'() {
    const client = await connect();
    note('tools', (await client.listTools()).tools.map((t) => t.name));
    note('lookup', await client.callTool({ name: 'lookup_order', arguments: { orderId: 'A-1' } }));
    note('tool-error', await client.callTool({ name: 'validate_quantity', arguments: { quantity: -1 } }));
    await client.close();
  },
  async 'v2-mrtr-roundtrip'() {
    const client = await connect();
    note('refund', await client.callTool({ name: 'approve_refund', arguments: { orderId: 'D-9' } }));
    await client.close();
  },
};

window.runScenario = async (name) => {
  log.length = 0;
  try {
    await SCENARIOS[name]();
  } catch (e) {
    note('scenario failed', e);
  }
  return JSON.parse(JSON.stringify(log));
};
