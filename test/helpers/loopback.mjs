// Shared by the real-traffic recorders (test/real*/record.mjs and their peers): loopback HTTP servers and free ports, request bodies, a stateful SDK server's session map and the stateless mode, the fault hop, the record proxy and a HAR-lines proxy, what an SDK caller saw.
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { gunzipSync, constants as zc } from 'node:zlib';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks);
}

/** A request's body parsed as JSON: `body` is undefined when it is empty or not JSON; `raw` is its text. */
export async function readJsonBody(req) {
  const raw = (await readBody(req)).toString('utf8');
  let body;
  try {
    body = raw ? JSON.parse(raw) : undefined;
  } catch {}
  return { raw, body };
}

/** A port on 127.0.0.1 that was free a moment ago (nothing listens there now). */
export async function freePort() {
  const probe = await listen(() => {});
  const { port } = probe;
  await probe.close();
  return port;
}

/** An HTTP server on 127.0.0.1 (at a free port unless one is given); close() drops its open connections too. */
export async function listen(handler, port = 0) {
  const server = createServer(handler);
  await new Promise((r, j) => {
    server.once('error', j);
    server.listen(port, '127.0.0.1', r);
  });
  return {
    server,
    port: server.address().port,
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * A stateful server listening as `s`, as the recorders hand it out: its url; restart() forgets every session as a
 * restarted process does (empties `sessionMaps`, then closes their transports); close() does that and stops listening.
 */
export function restartableServer(s, ...sessionMaps) {
  return {
    url: s.url,
    async restart() {
      const all = sessionMaps.flatMap((m) => [...m.values()]);
      for (const m of sessionMaps) m.clear();
      for (const t of all) await t.close().catch(() => {});
    },
    async close() {
      await this.restart();
      await s.close();
    },
  };
}

/**
 * A stateful Streamable HTTP handler as the SDK's examples write it: a known Mcp-Session-Id goes to its transport, an
 * unknown one gets 404, an initialize POST gets a new `Transport` (the caller's SDK class, with `options()` added) and
 * a new server from `buildServer()`, anything else 400. `transports` is the session map (clear it to forget them all).
 */
export function sessionHandler({ Transport, isInitializeRequest, buildServer, options = () => ({}) }) {
  const transports = new Map();
  const handle = async (req, res) => {
    try {
      const raw = req.method === 'POST' ? (await readBody(req)).toString('utf8') : undefined;
      const body = raw ? JSON.parse(raw) : undefined;
      const sid = req.headers['mcp-session-id'];
      if (typeof sid === 'string') {
        const t = transports.get(sid);
        if (!t) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
          return;
        }
        await t.handleRequest(req, res, body);
        return;
      }
      if (req.method === 'POST' && body && isInitializeRequest(body)) {
        const t = new Transport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => transports.set(id, t), ...options() });
        await buildServer().connect(t);
        await t.handleRequest(req, res, body);
        return;
      }
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }));
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err?.message ?? err));
    }
  };
  return { handle, transports };
}

/**
 * The SDK's stateless Streamable HTTP mode as its examples write it: each POST gets a new server from `buildServer()`
 * and a new `Transport` (the caller's SDK class) without session ids, `options` added; both are closed when the
 * response closes. Anything but a POST gets 405.
 */
export async function handleStateless(req, res, { Transport, buildServer, options = {} }) {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const mcp = buildServer();
  const transport = new Transport({ sessionIdGenerator: undefined, ...options });
  res.on('close', () => void transport.close().then(() => mcp.close()));
  await mcp.connect(transport);
  await transport.handleRequest(req, res);
}

/** An error the SDK threw, as observed.json records it. */
export function describeError(err) {
  const out = { name: err?.constructor?.name ?? typeof err, message: String(err?.message ?? err) };
  if (err && typeof err.code !== 'undefined') out.code = err.code;
  if (err && typeof err.status !== 'undefined') out.status = err.status;
  if (err?.cause) out.cause = String(err.cause.message ?? err.cause);
  return out;
}

/** A result the SDK returned, shortened for observed.json: tool names and annotations, or the text content. */
export function summarize(result) {
  if (result?.tools) return { tools: result.tools.map((t) => ({ name: t.name, annotations: t.annotations ?? null })) };
  if (result?.content) return { text: result.content.map((c) => c.text).join(' ') };
  return result ?? null;
}

/**
 * One step of an SDK caller, as observed.json records it: appended to `steps` with what came back (isError and the
 * result summarized) or the error it threw, and the time it took. Answers { ok: true, result } or { ok: false, error }.
 */
export async function recordStep(steps, label, fn) {
  const started = Date.now();
  try {
    const result = await fn();
    steps.push({ step: label, ok: true, isError: result?.isError === true, summary: summarize(result), ms: Date.now() - started });
    return { ok: true, result };
  } catch (err) {
    steps.push({ step: label, ok: false, error: describeError(err), ms: Date.now() - started });
    return { ok: false, error: err };
  }
}

/**
 * An HTTP hop that forwards to `upstream` unless `decide` says otherwise. Actions:
 *   { respond: status, headers, body }   answer without forwarding
 *   { destroy: true }                    destroy the socket, no response at all
 *   { cut: true }                        forward the response head, then end the body before anything else passes
 *   { corrupt: true }                    forward with the JSON body truncated (two bytes short), Content-Length fixed
 *   { rewriteId: [from, to] }            forward with the JSON-RPC response id changed in SSE data
 *   { corruptSse: true }                 forward with the JSON inside the SSE data broken (framing kept)
 *   { setHeaders: {...} }                forward with these request headers replaced
 *   { cutEvents: n, onCut }              forward at most n whole SSE events, none with a JSON-RPC response, then end the
 *                                        body cleanly (onCut() is called then)
 *   { before: promise }                  wait for it (a server restart) before anything else
 */
export async function startFaultHop(upstream, decide) {
  const counts = new Map();
  const target = new URL(upstream);
  return listen(async (req, res) => {
    const raw = await readBody(req);
    let rpc;
    try {
      rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {
      rpc = undefined;
    }
    const rpcMethod = rpc && !Array.isArray(rpc) ? rpc.method : undefined;
    const key = `${req.method} ${req.url.split('?')[0]} ${rpcMethod ?? ''}`;
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    const action = decide?.({ req, rpc, rpcMethod, n, path: req.url.split('?')[0] }) ?? {};
    if (action.before) await action.before; // e.g. a server restart the request must meet
    if (action.respond) {
      res.writeHead(action.respond, action.headers ?? {});
      res.end(action.body ?? '');
      return;
    }
    if (action.destroy) {
      req.socket.destroy();
      return;
    }
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, ...(action.setHeaders ?? {}), host: target.host } });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.on('response', (ures) => {
      const headers = { ...ures.headers };
      if (action.cut) {
        delete headers['content-length'];
        res.writeHead(ures.statusCode, headers);
        res.flushHeaders();
        // End the body cleanly after a moment, before the tool's result has been written upstream.
        setTimeout(() => {
          res.end();
          up.destroy();
        }, 60);
        return;
      }
      if (action.cutEvents !== undefined) {
        // Forward whole SSE events, at most cutEvents of them and none that carries a JSON-RPC response, then end the
        // body cleanly (the server goes on writing, to its event store).
        delete headers['content-length'];
        res.writeHead(ures.statusCode, headers);
        res.flushHeaders();
        let buf = '';
        let sent = 0;
        const stop = () => { if (!res.writableEnded) res.end(); up.destroy(); action.onCut?.(); };
        if (action.cutEvents === 0) return stop();
        ures.on('data', (c) => {
          if (res.writableEnded) return;
          buf += c.toString('utf8');
          let i;
          while ((i = /\r?\n\r?\n/.exec(buf)?.index ?? -1) >= 0) {
            const end = i + /\r?\n\r?\n/.exec(buf)[0].length;
            const ev = buf.slice(0, end);
            buf = buf.slice(end);
            if (/"result"|"error"/.test(ev)) return stop();
            res.write(ev);
            if (++sent >= action.cutEvents) return stop();
          }
        });
        ures.on('end', () => { if (!res.writableEnded) res.end(buf); });
        return;
      }
      if (action.corrupt) {
        const chunks = [];
        ures.on('data', (c) => chunks.push(c));
        ures.on('end', () => {
          const body = Buffer.concat(chunks);
          const broken = body.subarray(0, Math.max(0, body.length - 2));
          delete headers['transfer-encoding'];
          headers['content-length'] = String(broken.length);
          res.writeHead(ures.statusCode, headers);
          res.end(broken);
        });
        return;
      }
      res.writeHead(ures.statusCode, headers);
      res.flushHeaders();
      ures.on('data', (chunk) => {
        if (action.corruptSse) {
          // Break the JSON of the result event, keep the SSE framing intact.
          res.write(chunk.toString('utf8').replace('"result":{', '"result":{{'));
        } else if (action.rewriteId) {
          const [from, to] = action.rewriteId;
          res.write(chunk.toString('utf8').replace(new RegExp(`"id":${from}(?=[,}])`, 'g'), `"id":${to}`));
        } else {
          res.write(chunk);
        }
      });
      ures.on('end', () => res.end());
    });
    up.end(raw);
  });
}

/**
 * Record every scenario (or those named on the command line) with `runScenario(name, spec)`, and write what each
 * caller observed to `observed` (kept for the scenarios not recorded this time).
 */
export async function recordScenarios(scenarios, runScenario, { fixtures, observed }) {
  const only = process.argv.slice(2);
  mkdirSync(fixtures, { recursive: true });
  const started = Date.now();
  const observedAll = existsSync(observed) && only.length ? JSON.parse(readFileSync(observed, 'utf8')) : {};
  for (const [name, spec] of Object.entries(scenarios)) {
    if (only.length && !only.includes(name)) continue;
    const t0 = Date.now();
    observedAll[name] = await runScenario(name, spec);
    process.stderr.write(`recorded ${name} (${Date.now() - t0} ms)\n`);
  }
  writeFileSync(observed, JSON.stringify(observedAll, null, 2) + '\n');
  return { ms: Date.now() - started };
}

/** Runs each scenario (name -> async function) named on the command line, or all of them, saying how long each took. */
export async function recordEach(scenarios) {
  const only = process.argv.slice(2);
  for (const [name, run] of Object.entries(scenarios)) {
    if (only.length && !only.includes(name)) continue;
    const t0 = Date.now();
    await run();
    process.stderr.write(`recorded ${name} (${Date.now() - t0} ms)\n`);
  }
}

/** End the recorder if it still runs after `ms`: its request loops are bounded, this bounds the whole. */
export function stopAfter(ms) {
  setTimeout(() => {
    process.stderr.write(`record.mjs: still running after ${ms} ms, giving up\n`);
    process.exit(2);
  }, ms).unref();
}

/**
 * HAR 1.2 entries, one per line, as a Chrome/mitmproxy export looks, written by a forwarding proxy as each exchange ends.
 * Like those, it keeps a compressed body decoded in `content.text` (the headers still say `Content-Encoding: gzip`).
 */
export async function startHarProxy(upstream, outPath, port = 0) {
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
    let done = false; let tHead = 0; const chunks = []; let gz = false;
    const finish = (err) => {
      if (done) return; done = true;
      const raw = Buffer.concat(chunks);
      let decoded = raw;
      if (gz && raw.length) { try { decoded = gunzipSync(raw, { finishFlush: zc.Z_SYNC_FLUSH }); } catch { decoded = raw; } }
      const text = decoded.toString('utf8');
      entry.response.content = { size: decoded.length, mimeType: entry.response.content.mimeType, ...(gz ? { compression: decoded.length - raw.length } : {}), ...(text ? { text } : {}) };
      entry.response.bodySize = raw.length;
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
      gz = /gzip/i.test(String(ures.headers['content-encoding'] ?? ''));
      entry.response.status = ures.statusCode; entry.response.statusText = ures.statusMessage ?? '';
      entry.response.headers = hdrs(ures.headers); entry.response.content.mimeType = ures.headers['content-type'] ?? '';
      res.writeHead(ures.statusCode, ures.headers); res.flushHeaders?.();
      ures.on('data', (c) => { chunks.push(c); res.write(c); });
      ures.on('end', () => { finish(); res.end(); });
      ures.on('error', () => { finish('net::ERR_INCOMPLETE_CHUNKED_ENCODING'); res.destroy(); });
      ures.on('aborted', () => { finish('net::ERR_INCOMPLETE_CHUNKED_ENCODING'); res.destroy(); });
    });
    up.end(body);
  }, port);
}

/** `mcp-triage record` (this checkout's build) as a child process in front of targetUrl; stop() sends SIGTERM to that pid. */
export async function startRecordProxy(targetUrl, outPath, side) {
  const port = await freePort();
  const bin = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));
  const child = spawn(process.execPath, [bin, 'record', '--listen', `127.0.0.1:${port}`, '--target', targetUrl, '--out', outPath, ...(side ? ['--side', side] : [])], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  for (let i = 0; i < 100 && !err.includes('appending'); i++) await sleep(50);
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }), child };
}

/**
 * A Python client script run against `targetUrl` behind `mcp-triage record --side client` (its view into `outPath`):
 * the script gets the proxy's /mcp URL and prints what it saw as one JSON line, which this returns parsed. The Python
 * SDK in /work/py-venv, or PYTHON.
 */
export async function recordPythonClient(script, targetUrl, outPath) {
  const proxy = await startRecordProxy(targetUrl, outPath, 'client');
  try {
    const { stdout } = await promisify(execFile)(process.env.PYTHON ?? '/work/py-venv/bin/python', [script, `${proxy.url}/mcp`], { timeout: 60_000 });
    return JSON.parse(stdout);
  } finally {
    await proxy.stop();
  }
}
