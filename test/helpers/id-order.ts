// Test helper: from a canonical log itself, each request's id, when it reached the log and when a refusal's head came; and the retry links the id order rules out.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { AttemptRow } from '../../src/index.js';

export interface Wired { start: number; refusedAt?: number }

/** Requests of a tool in a canonical log (recordingFetch, `mcp-triage record`), by JSON-RPC id. */
export function wire(path: string, tool: string): Map<number, Wired> {
  const raw = readFileSync(path);
  const text = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  const byXid = new Map<string, number>();
  const out = new Map<number, Wired>();
  for (const line of text.trim().split('\n')) {
    const r = JSON.parse(line) as { kind: string; xid: string; ts: string; status?: number; send?: { id: number; params?: { name?: string } } };
    if (r.kind === 'request' && r.send?.params?.name === tool) {
      byXid.set(r.xid, r.send.id);
      out.set(r.send.id, { start: Date.parse(r.ts) });
    } else if (r.kind === 'response' && byXid.has(r.xid) && (r.status ?? 0) >= 400) out.get(byXid.get(r.xid)!)!.refusedAt = Date.parse(r.ts);
  }
  return out;
}

/**
 * Retry links (attempt n+1 -> attempt n of one call) whose retry the ids show was made before the attempt it follows
 * had failed: a lower id, or a lower id than a request that reached the log a full millisecond before the refusal's head.
 */
export function impossibleLinks(as: AttemptRow[], w: Map<number, Wired>): string[] {
  const bad: string[] = [];
  const byCall = new Map<string, AttemptRow[]>();
  for (const a of as) byCall.set(a.call, [...(byCall.get(a.call) ?? []), a]);
  for (const chain of byCall.values()) {
    chain.sort((x, y) => x.attempt - y.attempt);
    for (let i = 1; i < chain.length; i++) {
      const a = Number(chain[i - 1]!.id);
      const b = Number(chain[i]!.id);
      if (b < a) bad.push(`${b} retries ${a}: a lower id`);
      const refused = w.get(a)?.refusedAt;
      const higher = [...w].find(([id, x]) => id > b && refused !== undefined && x.start < refused - 1);
      if (higher) bad.push(`${b} retries ${a}: ${higher[0]} was sent before ${a}'s refusal`);
    }
  }
  return bad;
}
