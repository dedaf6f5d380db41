// The sixty-fifth audit's server that wants a bearer token: the SDK 1.32.2 McpServer (stateless, JSON responses) behind the check an MCP server's auth middleware makes (401 with WWW-Authenticate and a JSON-RPC error body, before the transport). env PORT, TOKEN; recordingHandler -> server.ndjson.
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { recordingHandler } from '../../dist/capture/index.js';

const handler = async (req, res) => {
  if (req.headers.authorization !== `Bearer ${process.env.TOKEN}`) {
    res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="invalid_token", error_description="missing or wrong token"' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized' }, id: null }));
    return;
  }
  const chunks = []; for await (const c of req) chunks.push(c);
  const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
  const s = new McpServer({ name: 'audit65-auth', version: '1.0.0' });
  s.registerTool('echo', { description: 'echo', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: `echo ${text}` }] }));
  const t = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await s.connect(t); res.on('close', () => { t.close(); s.close(); });
  await t.handleRequest(req, res, body);
};
createServer(recordingHandler(handler, { out: 'server.ndjson' })).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
