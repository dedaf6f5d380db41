// A hand-written MCP server on Express that answers tools/call with res.send(JSON.stringify(reply)), as a developer
// writes it: Express gives that body Content-Type text/html; charset=utf-8, not application/json (initialize and
// tools/list go out with res.json). The SDK 1.32.2 client (ts, recordingFetch) and the Python SDK 2.3.0 client (py,
// test/real-content-type/py_client.py behind `mcp-triage record --side client`) call its tool; the server's view is
// its recordingHandler's log. ts-sse-event: the same server answers tools/call on SSE with `event: result` instead,
// the SDK 1.32.2 client calling it with a 3 s timeout.
// Usage: node test/real-content-type/record.mjs [ts|py|ts-sse-event]  (needs dist/: npm run build; py /work/py-venv or PYTHON)
// Writes test/fixtures/real-content-type/<scenario>/{client,server}.ndjson and observed.json (what the caller got).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { recordingFetch, recordingHandler } from '../../dist/capture/index.js';
import { listen, recordPythonClient, recordStep, sleep } from '../helpers/loopback.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-content-type/', import.meta.url));

/** The hand-written server: stateless, one answer per request; `named` answers calls on SSE with `event: result`. */
function app(named) {
  const a = express();
  a.use(express.json());
  a.post('/mcp', (req, res) => {
    const { id, method, params } = req.body ?? {};
    if (id === undefined) return res.status(202).end(); // a notification
    const reply = (result) => ({ jsonrpc: '2.0', id, result });
    switch (method) {
      case 'initialize':
        return res.json(reply({ protocolVersion: params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'hand-written', version: '0.1.0' } }));
      case 'tools/list':
        return res.json(reply({ tools: [{ name: 'lookup', inputSchema: { type: 'object', properties: { sku: { type: 'string' } } }, annotations: { readOnlyHint: true } }] }));
      case 'tools/call': {
        const answer = reply({ content: [{ type: 'text', text: `${params?.arguments?.sku}: 4 in stock` }] });
        // The other bug: an SSE stream whose event is named after what it carries, not "message".
        if (named) return res.set('content-type', 'text/event-stream').send(`event: result\ndata: ${JSON.stringify(answer)}\n\n`);
        // The bug: res.send of a string, which Express sends as text/html.
        return res.send(JSON.stringify(answer));
      }
      default:
        return res.json({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
    }
  });
  a.all('/mcp', (_req, res) => res.status(405).set('allow', 'POST').end());
  return a;
}

async function runScenario(name) {
  const dir = `${ROOT}${name}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = await listen(recordingHandler(app(name === 'ts-sse-event'), { out: `${dir}server.ndjson` }));
  const steps = [];
  if (name === 'py') {
    steps.push(...(await recordPythonClient(fileURLToPath(new URL('py_client.py', import.meta.url)), server.url, `${dir}client.ndjson`)));
  } else {
    const c = new Client({ name: 'content-type-client', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url), { fetch: recordingFetch({ out: `${dir}client.ndjson` }) }));
    await recordStep(steps, 'list tools', () => c.listTools());
    await recordStep(steps, 'call lookup', () => c.callTool({ name: 'lookup', arguments: { sku: 'A-1' } }, undefined, { timeout: 3000 }));
    await c.close();
    await sleep(100);
  }
  await server.close();
  for (const s of steps) delete s.ms;
  writeFileSync(`${dir}observed.json`, `${JSON.stringify({ steps }, null, 2)}\n`);
  console.log(`recorded ${name}`);
}

const pick = process.argv.slice(2);
for (const name of ['ts', 'py', 'ts-sse-event']) if (pick.length === 0 || pick.includes(name)) await runScenario(name);
process.exit(0);
