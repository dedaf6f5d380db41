// Test helper: write records (or raw text) to temporary files and analyze them in-process with the library API.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze, type LibraryOptions } from '../../src/index.js';

export interface TestInput {
  name?: string;
  side?: 'client' | 'server';
  /** Records (serialized one per line) or the raw file text. */
  lines: unknown[] | string;
}

export async function analyzeInputs(inputs: TestInput[], options: Partial<LibraryOptions> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'mcpt-'));
  const specs = inputs.map((input, i) => {
    const path = join(dir, input.name ?? `input${i}.ndjson`);
    const text = typeof input.lines === 'string' ? input.lines : input.lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
    writeFileSync(path, text);
    return { path, side: input.side };
  });
  return analyze({ inputs: specs, ...options });
}

const T0 = Date.parse('2026-10-17T10:00:00.000Z');
export const at = (ms: number) => new Date(T0 + ms).toISOString();

/** A canonical exchange record for one POST of one JSON-RPC message. */
export function post(o: {
  t?: number; id?: string | number; method?: string; tool?: string; args?: Record<string, unknown>; params?: Record<string, unknown>;
  session?: string; status: number | null; ct?: string; body?: string; recv?: unknown; headers?: Record<string, string>; requestHeaders?: Record<string, string>;
  client?: string; send?: unknown; end?: 'complete' | 'aborted' | 'timeout' | 'error'; error?: string; durationMs?: number; side?: 'client' | 'server';
}): Record<string, unknown> {
  const method = o.method ?? 'tools/call';
  const params = o.params ?? (method === 'tools/call' ? { name: o.tool ?? 'search', arguments: o.args ?? { q: 'x' } } : {});
  const rec: Record<string, unknown> = {
    v: 1, kind: 'exchange', ts: at(o.t ?? 0), method: 'POST',
    requestHeaders: { 'content-type': 'application/json', ...(o.session ? { 'mcp-session-id': o.session } : {}), ...o.requestHeaders },
    send: o.send ?? { jsonrpc: '2.0', id: o.id ?? 1, method, params },
    status: o.status,
    responseHeaders: { ...(o.ct ? { 'content-type': o.ct } : o.status !== null ? { 'content-type': 'application/json' } : {}), ...o.headers },
  };
  if (o.body !== undefined) rec.recvText = o.body;
  if (o.recv !== undefined) rec.recv = o.recv;
  if (o.client) rec.client = o.client;
  if (o.end) rec.end = o.end;
  if (o.error) rec.error = o.error;
  if (o.durationMs !== undefined) rec.durationMs = o.durationMs;
  if (o.side) rec.side = o.side;
  return rec;
}

export const ok = (id: string | number, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result });
export const toolText = (text: string, extra: Record<string, unknown> = {}) => ({ content: [{ type: 'text', text }], ...extra });
export const sse = (...events: (string | { id?: string; event?: string; data: unknown })[]) =>
  events.map((e) => (typeof e === 'string' ? e : `${e.id !== undefined ? `id: ${e.id}\n` : ''}${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`)).join('');
