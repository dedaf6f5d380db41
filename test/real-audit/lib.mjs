// Shared helpers for the audit recorders (SDK 1.x and v2): servers, fault hops, and mcp-triage's recorders from dist/.
import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
export { recordingFetch, recordingHandler, startRecordingProxy, withCallNote } from '../../dist/capture/index.js';

export const AUDIT = fileURLToPath(new URL('../fixtures/real-audit/', import.meta.url));
export { sleep, readBody, listen, describeError } from '../helpers/loopback.mjs';
import { listen, readBody, describeError } from '../helpers/loopback.mjs';
import { scenarioFilesIn } from '../real-audit2/lib.mjs';

export function summarize(result) {
  if (result?.tools) return { tools: result.tools.map((t) => t.name), nextCursor: result.nextCursor ?? null };
  if (result?.content) return { text: result.content.map((c) => c.text).join(' '), isError: result.isError ?? false };
  if (result?.contents) return { contents: result.contents.map((c) => c.text) };
  return result ?? null;
}

/** A hop that forwards to upstream unless decide() says otherwise ({respond}, {destroy}). */
export async function startFaultHop(upstream, decide) {
  const counts = new Map();
  const target = new URL(upstream);
  return listen(async (req, res) => {
    const raw = await readBody(req);
    let rpc;
    try {
      rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {}
    const rpcMethod = rpc && !Array.isArray(rpc) ? rpc.method : undefined;
    const key = `${req.method} ${rpcMethod ?? ''} ${rpc?.params?.name ?? ''}`;
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    const action = decide?.({ req, rpc, rpcMethod, n }) ?? {};
    if (action.respond) {
      res.writeHead(action.respond, action.headers ?? {});
      res.end(action.body ?? '');
      return;
    }
    if (action.delayMs) await new Promise((r) => setTimeout(r, action.delayMs));
    if (action.destroy) {
      req.socket.destroy();
      return;
    }
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.on('response', (ures) => {
      if (action.dropResponse) {
        // let the server run the request and answer, then drop the client's connection without any response
        ures.resume();
        ures.on('end', () => req.socket.destroy());
        return;
      }
      res.writeHead(ures.statusCode, ures.headers);
      res.flushHeaders();
      ures.on('data', (c) => res.write(c));
      ures.on('end', () => res.end());
      ures.on('error', () => res.destroy());
      ures.on('aborted', () => res.destroy());
    });
    up.end(raw);
  });
}

/** Scenario directory with fresh client/server/proxy files. */
export const scenarioFiles = (name) => scenarioFilesIn(AUDIT, name);

export function makeObserver() {
  const observed = { steps: [], onerror: [], notes: [] };
  const step = async (label, fn) => {
    const started = Date.now();
    try {
      const result = await fn();
      observed.steps.push({ step: label, ok: true, summary: summarize(result), ms: Date.now() - started });
      return { ok: true, result };
    } catch (err) {
      observed.steps.push({ step: label, ok: false, error: describeError(err), ms: Date.now() - started });
      return { ok: false, error: err };
    }
  };
  return { observed, step, note: (n) => observed.notes.push(n) };
}

export function writeObserved(dir, observed) {
  writeFileSync(join(dir, 'observed.json'), JSON.stringify(observed, null, 2) + '\n');
}

export function stopAfter(ms) {
  setTimeout(() => {
    process.stderr.write(`still running after ${ms} ms, giving up\n`);
    process.exit(2);
  }, ms).unref();
}
