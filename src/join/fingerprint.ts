// The identity of "the same call": method, tool name and arguments as canonical JSON, ignoring _meta and MRTR fields.
import { createHash } from 'node:crypto';

const IGNORED = new Set(['_meta', 'inputResponses', 'requestState']);

/** Canonical JSON: object keys sorted, no whitespace. */
export function canonicalJson(v: unknown, depth = 0): string {
  if (depth > 64) return '"…"';
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map((x) => canonicalJson(x, depth + 1)).join(',')}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k], depth + 1)}`).join(',')}}`;
}

/** A short digest of the call's identity; equal digests mean the same method, tool and arguments. */
export function fingerprint(method: string, tool: string | null, params: Record<string, unknown>): string {
  const significant: Record<string, unknown> = {};
  for (const k of Object.keys(params)) if (!IGNORED.has(k)) significant[k] = params[k];
  if (tool !== null && typeof significant.arguments === 'object' && significant.arguments !== null) {
    const args = { ...(significant.arguments as Record<string, unknown>) };
    delete args._meta;
    significant.arguments = args;
  }
  return createHash('sha1').update(`${method}\0${tool ?? ''}\0${canonicalJson(significant)}`).digest('base64url').slice(0, 16);
}
