// Second audit round: shared harness (fault hop and its rule-list form, scenario files, observers); loopback servers from test/helpers, recorders from dist/capture.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
export { recordingFetch, recordingHandler, startRecordingProxy, withCallNote } from '../../dist/capture/index.js';
import { recordingFetch, recordingHandler, startRecordingProxy } from '../../dist/capture/index.js';

export const ROOT = fileURLToPath(new URL('../fixtures/real-audit2/', import.meta.url));
export const BIN = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));
export { sleep, readBody, listen } from '../helpers/loopback.mjs';
import { freePort, sleep, readBody, listen } from '../helpers/loopback.mjs';

export function describeError(err) {
  const out = { name: err?.constructor?.name ?? typeof err, message: String(err?.message ?? err).slice(0, 400) };
  if (err && typeof err.code !== 'undefined') out.code = err.code;
  if (err && typeof err.status !== 'undefined') out.status = err.status;
  if (err?.cause) out.cause = String(err.cause.message ?? err.cause);
  return out;
}

export function summarize(result) {
  if (result?.tools) return { tools: result.tools.map((t) => t.name), nextCursor: result.nextCursor ?? null };
  if (result?.content)
    return {
      content: result.content.map((c) => (c.type === 'text' ? { type: 'text', len: c.text.length, text: c.text.slice(0, 80) } : { type: c.type, ...(c.uri ? { uri: c.uri } : {}) })),
      isError: result.isError ?? false,
      ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
    };
  return result ?? null;
}

/**
 * A hop that forwards to upstream unless decide() says otherwise. Actions:
 *  {respond, headers, body}  answer without forwarding
 *  {destroy}                 destroy the client socket, nothing forwarded
 *  {dropResponse}            forward, let the server answer, then destroy the client socket
 *  {cutAfterEvents: k}       forward a text/event-stream, destroy both sockets after the k-th complete event
 *  {cutAfterMs: ms}          forward, destroy both sockets after ms
 *  {gzip: true}              buffer the response and gzip it (Content-Encoding: gzip), as a compressing reverse proxy
 *  {crlf: true}              rewrite SSE line endings to CRLF (as sse-starlette / Python servers write them)
 *  {delayMs}                 wait before forwarding the request
 */
export async function startFaultHop(upstream, decide) {
  const counts = new Map();
  const target = new URL(upstream);
  const log = [];
  const hop = await listen(async (req, res) => {
    const raw = await readBody(req);
    let rpc;
    try {
      rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {}
    const rpcMethod = rpc && !Array.isArray(rpc) ? rpc.method : Array.isArray(rpc) ? 'batch' : undefined;
    const path = req.url.split('?')[0];
    const key = `${req.method} ${path} ${rpcMethod ?? ''} ${rpc?.params?.name ?? ''}`;
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    const action = decide?.({ req, rpc, rpcMethod, tool: rpc?.params?.name, n, path, method: req.method, hopUrl: hop.url }) ?? {};
    log.push({ key, n, action: Object.keys(action) });
    if (action.delayMs) await sleep(action.delayMs);
    if (action.respond) {
      res.writeHead(action.respond, action.headers ?? {});
      res.end(action.body ?? '');
      return;
    }
    if (action.destroy) {
      req.socket.destroy();
      return;
    }
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.on('response', (ures) => {
      if (action.dropResponse) {
        ures.resume();
        ures.on('end', () => req.socket.destroy());
        return;
      }
      const headers = { ...ures.headers };
      if (action.gzip) {
        const chunks = [];
        ures.on('data', (c) => chunks.push(c));
        ures.on('end', () => {
          const body = gzipSync(Buffer.concat(chunks));
          delete headers['transfer-encoding'];
          headers['content-encoding'] = 'gzip';
          headers['content-length'] = String(body.length);
          res.writeHead(ures.statusCode, headers);
          res.end(body);
        });
        return;
      }
      if (action.crlf) delete headers['content-length'];
      res.writeHead(ures.statusCode, headers);
      res.flushHeaders();
      let events = 0;
      let dead = false;
      let killed = false;
      const kill = () => {
        if (killed) return;
        killed = true;
        dead = true;
        res.socket?.destroy();
        up.destroy();
      };
      if (action.cutAfterMs) setTimeout(kill, action.cutAfterMs);
      ures.on('data', (chunk) => {
        if (dead) return;
        let s = chunk.toString('utf8');
        if (action.cutAfterEvents === 0) {
          kill();
          return;
        }
        if (action.cutAfterEvents !== undefined) {
          let out = '';
          let rest = s;
          while (rest.length) {
            const i = rest.indexOf('\n\n');
            if (i < 0) {
              out += rest;
              rest = '';
              break;
            }
            out += rest.slice(0, i + 2);
            rest = rest.slice(i + 2);
            events++;
            if (events >= action.cutAfterEvents) {
              res.write(action.crlf ? out.replace(/\n/g, '\r\n') : out);
              setTimeout(kill, 20);
              dead = 'pending';
              return;
            }
          }
          s = out;
        }
        res.write(action.crlf ? s.replace(/\n/g, '\r\n') : s);
      });
      ures.on('end', () => {
        if (!dead) res.end();
      });
      ures.on('error', () => res.destroy());
      ures.on('aborted', () => res.destroy());
    });
    up.end(raw);
  });
  hop.log = log;
  return hop;
}

/**
 * The fault hop driven by a list of rules (the Python recorders' peers get them as JSON): the first rule whose every
 * `when` key equals the request's (method, path, rpcMethod, tool, n: the count of that key, resume: has Last-Event-ID)
 * gives the action; {setRequestHeaders} forwards with these request headers set, as a browser or a reverse proxy would.
 */
export function startRuleHop(upstream, rules) {
  return startFaultHop(upstream, (ctx) => {
    const facts = { ...ctx, resume: Boolean(ctx.req.headers['last-event-id']) };
    for (const r of rules) {
      if (!Object.entries(r.when).every(([k, v]) => facts[k] === v)) continue;
      if (r.action.setRequestHeaders) Object.assign(ctx.req.headers, r.action.setRequestHeaders);
      return r.action;
    }
    return {};
  });
}

export function scenarioFiles(name) {
  return scenarioFilesIn(ROOT, name);
}

/** The folder `root`/`name` with its client, server and proxy logs removed: where an audit scenario writes. */
export function scenarioFilesIn(root, name) {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const files = Object.fromEntries(['client', 'server', 'proxy'].map((s) => [s, join(dir, `${s}.ndjson`)]));
  for (const f of Object.values(files)) rmSync(f, { force: true });
  return { dir, files };
}

export function makeObserver() {
  const observed = { steps: [], onerror: [], notes: [] };
  const t0 = Date.now();
  const step = async (label, fn) => {
    const started = Date.now();
    try {
      const result = await fn();
      observed.steps.push({ step: label, ok: true, summary: summarize(result), atMs: started - t0, ms: Date.now() - started });
      return { ok: true, result };
    } catch (err) {
      observed.steps.push({ step: label, ok: false, error: describeError(err), atMs: started - t0, ms: Date.now() - started });
      return { ok: false, error: err };
    }
  };
  return { observed, step, note: (n) => observed.notes.push(n) };
}

export function writeObserved(dir, observed) {
  // a side that saw nothing still gets its (empty) log, so `--server server.ndjson` can be given
  for (const s of ['client', 'server', 'proxy']) if (!existsSync(join(dir, `${s}.ndjson`))) writeFileSync(join(dir, `${s}.ndjson`), '');
  writeFileSync(join(dir, 'observed.json'), JSON.stringify(observed, null, 2) + '\n');
}

export function stopAfter(ms) {
  setTimeout(() => {
    process.stderr.write(`still running after ${ms} ms, giving up\n`);
    process.exit(2);
  }, ms).unref();
}

/** `mcp-triage record` as a child process; close() sends SIGTERM to its pid. */
export async function startCliProxy(target, out) {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'record', '--listen', `127.0.0.1:${port}`, '--target', target, '--out', out], { stdio: ['ignore', 'inherit', 'inherit'] });
  for (let i = 0; i < 50; i++) {
    await sleep(100);
    try {
      await fetch(`http://127.0.0.1:${port}/healthz`);
      break;
    } catch {}
  }
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        child.once('exit', r);
        process.kill(child.pid, 'SIGTERM');
      }),
  };
}

export { randomUUID, recordingFetch as _rf, recordingHandler as _rh, startRecordingProxy as _srp };
