// Recorder pieces for the gateway-sessions fixtures (from the eighth audit's lab): HAR proxy, record-proxy child, server with recorder.
import { createWriteStream, mkdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { spawn } from 'node:child_process';
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

/** HAR 1.2 entries, one per line, as a Chrome/mitmproxy export looks, written by a forwarding proxy. */
export async function startHarProxy(upstream, outPath) {
  const out = createWriteStream(outPath, { flags: 'a' });
  const target = new URL(upstream);
  const hdrs = (h) => Object.entries(h).flatMap(([name, v]) => (Array.isArray(v) ? v : [v]).map((value) => ({ name, value: String(value) })));
  return listen(async (req, res) => {
    const started = new Date();
    const t0 = performance.now();
    const body = await readBody(req);
    const entry = {
      startedDateTime: started.toISOString(), time: 0,
      request: { method: req.method, url: `http://${req.headers.host}${req.url}`, httpVersion: 'HTTP/1.1', cookies: [], headers: hdrs(req.headers), queryString: [], headersSize: -1, bodySize: body.length,
        ...(body.length ? { postData: { mimeType: req.headers['content-type'] ?? '', text: body.toString('utf8') } } : {}) },
      response: { status: 0, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: 0, mimeType: '' }, redirectURL: '', headersSize: -1, bodySize: -1 },
      cache: {}, timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0 }, serverIPAddress: '127.0.0.1', _resourceType: 'fetch',
    };
    let done = false; let tHead = 0; const chunks = [];
    const finish = (err) => {
      if (done) return; done = true;
      const text = Buffer.concat(chunks).toString('utf8');
      entry.response.content = { size: Buffer.byteLength(text), mimeType: entry.response.content.mimeType, ...(text ? { text } : {}) };
      entry.response.bodySize = Buffer.byteLength(text);
      const now = performance.now();
      entry.timings.wait = Math.round((tHead || now) - t0); entry.timings.receive = Math.round(now - (tHead || now));
      entry.time = Math.round(now - t0);
      if (err) entry.response._error = err;
      out.write(JSON.stringify(entry) + '\n');
    };
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
    up.on('error', () => { finish('net::ERR_EMPTY_RESPONSE'); res.destroy(); });
    res.on('close', () => { if (!done) { finish('net::ERR_ABORTED'); up.destroy(); } });
    up.on('response', (ures) => {
      tHead = performance.now();
      entry.response.status = ures.statusCode; entry.response.statusText = ures.statusMessage ?? '';
      entry.response.headers = hdrs(ures.headers); entry.response.content.mimeType = ures.headers['content-type'] ?? '';
      res.writeHead(ures.statusCode, ures.headers); res.flushHeaders?.();
      ures.on('data', (c) => { chunks.push(c); res.write(c); });
      ures.on('end', () => { finish(); res.end(); });
      ures.on('error', () => { finish('net::ERR_INCOMPLETE_CHUNKED_ENCODING'); res.destroy(); });
    });
    up.end(body);
  });
}

/** `mcp-triage record` as a child process; stop() sends SIGTERM to that pid. */
export async function startRecordProxy(targetUrl, outPath) {
  const port = await freePort();
  const child = spawn('node', [`${R}/dist/bin.js`, 'record', '--listen', `127.0.0.1:${port}`, '--target', targetUrl, '--out', outPath], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  for (let i = 0; i < 100 && !err.includes('appending'); i++) await sleep(50);
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }), child };
}

export function dir(name) { const d = `${R}/test/fixtures/real-gateway-sessions/${name}`; mkdirSync(d, { recursive: true }); return d; }

/** A stateful SDK server whose http handler is wrapped in recordingHandler; restart() forgets every session. */
export async function startServer(buildServer, outPath, port = 0) {
  const h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer });
  const rec = recordingHandler(h.handle, { out: outPath });
  const s = await listen(rec, port);
  return { ...s, transports: h.transports, async restart() { const all = [...h.transports.values()]; h.transports.clear(); for (const t of all) await t.close().catch(() => {}); } };
}
export const text = (t) => ({ content: [{ type: 'text', text: t }] });
