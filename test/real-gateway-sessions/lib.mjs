// Recorder pieces for the gateway-sessions fixtures (from the eighth audit's lab): HAR proxy, record-proxy child, server with recorder.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const R = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
export const { recordingFetch, recordingHandler, withCallNote } = await import(`${R}/dist/capture/index.js`);
export const { listen, sleep, sessionHandler, freePort, readBody } = await import(`${R}/test/helpers/loopback.mjs`);
export const { McpServer } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js`);
export const { StreamableHTTPServerTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js`);
export const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
export const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
export const types = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js`);
export const { z } = await import(`${R}/node_modules/zod/index.js`);

export { startHarProxy, startRecordProxy } from '../helpers/loopback.mjs';

export function dir(name) { const d = `${R}/test/fixtures/real-gateway-sessions/${name}`; mkdirSync(d, { recursive: true }); return d; }

/** A stateful SDK server whose http handler is wrapped in recordingHandler; restart() forgets every session. */
export async function startServer(buildServer, outPath, port = 0) {
  const h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer });
  const rec = recordingHandler(h.handle, { out: outPath });
  const s = await listen(rec, port);
  return { ...s, transports: h.transports, async restart() { const all = [...h.transports.values()]; h.transports.clear(); for (const t of all) await t.close().catch(() => {}); } };
}
export const text = (t) => ({ content: [{ type: 'text', text: t }] });
