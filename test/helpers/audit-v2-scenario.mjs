// Shared by the v2 SDK audit recorders (test/real-audit2/record-v2.mjs, test/real-audit3/record-v2.mjs): the recorded v2 server and the run of one scenario through proxy, fault hop and v2 clients.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { describeError, makeObserver, recordingFetch, recordingHandler, startFaultHop, startRecordingProxy, writeObserved } from '../real-audit2/lib.mjs';
import { listen, sleep } from './loopback.mjs';

/** A v2 SDK server (createMcpHandler over `buildMcpServer()`) on 127.0.0.1, its own view recorded to `out`. */
export async function startV2McpServer(buildMcpServer, { out, responseMode = 'auto' }) {
  const handler = createMcpHandler(() => buildMcpServer(), { responseMode, keepAliveMs: 0 });
  const node = toNodeHandler(handler);
  const s = await listen(
    recordingHandler(async (req, res) => {
      try {
        await node(req, res);
      } catch (err) {
        if (!res.headersSent) res.writeHead(500).end(String(err));
      }
    }, { out }),
  );
  return { ...s, async close() { await handler.close().catch(() => {}); await s.close(); } };
}

/**
 * Records one scenario into `scenarioFiles(name)`: the server (`startServer({ out, ...spec.server })`, side server), the
 * fault hop where `spec.fault` is given, a recording proxy, and `spec.run(ctx)`'s v2 clients (versionNegotiation auto,
 * named `clientName` unless the scenario names them) whose fetch is recordingFetch (side client).
 */
export async function runV2Scenario(name, spec, { scenarioFiles, startServer, clientName: defaultClientName }) {
  const { dir, files } = scenarioFiles(name);
  const { observed, step, note } = makeObserver();
  const mcp = await startServer({ out: files.server, ...spec.server });
  const proxyRef = {};
  const hop = spec.fault ? await startFaultHop(mcp.url, (i) => spec.fault({ ...i, proxyUrl: proxyRef.url })) : null;
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: hop ? hop.url : mcp.url, out: files.proxy });
  proxyRef.url = proxy.url;
  const fetches = [];
  const clients = [];
  const ctx = {
    observed, step, note, files, proxyUrl: proxy.url,
    recorder(opts = {}) {
      const f = recordingFetch({ out: files.client, ...opts });
      fetches.push(f);
      return f;
    },
    async client({ name: clientName = defaultClientName, recorderOpts = {}, fetch } = {}) {
      const f = fetch ?? ctx.recorder(recorderOpts);
      const client = new Client({ name: clientName, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      client.onerror = (e) => observed.onerror.push({ client: clientName, ...describeError(e) });
      const transport = new StreamableHTTPClientTransport(new URL('/mcp', proxy.url), {
        fetch: f,
        reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 },
      });
      await client.connect(transport, { timeout: 5000 });
      observed.era ??= client.getNegotiatedProtocolVersion?.() ?? null;
      clients.push(client);
      return client;
    },
  };
  try {
    await spec.run(ctx);
  } catch (err) {
    observed.crash = describeError(err);
  } finally {
    await sleep(200);
    for (const c of clients) await c.close().catch(() => {});
    await sleep(100);
    await proxy.close();
    if (hop) await hop.close();
    await mcp.close();
    for (const f of fetches) await f.close?.();
  }
  if (hop) observed.hop = hop.log;
  writeObserved(dir, observed);
  process.stderr.write(`recorded ${name}\n`);
}
