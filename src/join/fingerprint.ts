// The identity of "the same call": method, tool name and arguments as canonical JSON, ignoring _meta and MRTR fields.

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
  return hash53(`${method}\0${tool ?? ''}\0${canonicalJson(significant)}`);
}

/** A record's signature as a number: what tells it from an identical copy, kept small while its session lasts. */
export const signatureOf = (text: string): number => cyrb53(text);

/** cyrb53 as text: collisions only merge two calls' retry chains, never crash anything. */
function hash53(str: string): string {
  return cyrb53(str).toString(36);
}

/** cyrb53: a fast 53-bit string hash. */
function cyrb53(str: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
