// The identity of "the same call": method, tool name and arguments in canonical form, ignoring _meta and MRTR fields.

const IGNORED = new Set(['_meta', 'inputResponses', 'requestState']);
const MAX_DEPTH = 64;

/**
 * cyrb53 fed piece by piece: a value's canonical form (object keys sorted, every piece tagged and strings
 * length-prefixed, so two different values never feed the same sequence) is hashed as it is walked, never built as
 * a string. Collisions only merge two calls' retry chains; they never crash anything.
 */
export class Digest {
  private h1 = 0xdeadbeef;
  private h2 = 0x41c6ce57;
  /** Longer strings are fed by their first this-many code units and their length (a result of megabytes costs no more). */
  maxString = Infinity;

  text(s: string, end = s.length): void {
    let h1 = this.h1;
    let h2 = this.h2;
    for (let i = 0; i < end; i++) {
      const ch = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
  }

  /** One code unit (a tag) or a length, mixed in as one step. */
  unit(n: number): void {
    this.h1 = Math.imul(this.h1 ^ n, 2654435761);
    this.h2 = Math.imul(this.h2 ^ n, 1597334677);
  }

  /** A tag, then the string's length so that its end is known, then the string (no string is built for this). */
  tagged(tag: number, s: string): void {
    this.unit(tag);
    this.unit(s.length);
    this.text(s);
  }

  value(v: unknown, depth: number, skip?: Set<string>): void {
    if (depth > MAX_DEPTH) return this.text('~');
    switch (typeof v) {
      case 'string':
        if (v.length > this.maxString) {
          this.unit(TAG_L);
          this.unit(v.length);
          return this.text(v, this.maxString);
        }
        return this.tagged(TAG_S, v);
      case 'number':
        return this.tagged(TAG_D, String(v));
      case 'boolean':
        return this.text(v ? 't' : 'f');
      case 'object':
        break;
      default:
        return this.text('u');
    }
    if (v === null) return this.text('n');
    if (Array.isArray(v)) {
      this.text('[');
      for (const x of v) this.value(x, depth + 1);
      return this.text(']');
    }
    const o = v as Record<string, unknown>;
    this.text('{');
    for (const k of sortedKeys(o)) {
      if (skip?.has(k)) continue;
      this.tagged(TAG_K, k);
      this.value(o[k], depth + 1);
    }
    this.text('}');
  }

  /** A value with object keys in their own order (for-in: parsed JSON objects have no inherited keys). */
  written(v: unknown, depth: number): void {
    if (typeof v !== 'object' || v === null || depth > MAX_DEPTH) return this.value(v, depth);
    if (Array.isArray(v)) {
      this.text('[');
      for (let i = 0; i < v.length; i++) this.written(v[i], depth + 1);
      return this.text(']');
    }
    const o = v as Record<string, unknown>;
    this.text('{');
    for (const k in o) {
      this.tagged(TAG_K, k);
      this.written(o[k], depth + 1);
    }
    this.text('}');
  }

  /** The parameters of a request: MRTR fields ignored, and a tool call's `arguments._meta`. */
  params(params: Record<string, unknown>, tool: string | null): void {
    this.text('{');
    for (const k of sortedKeys(params)) {
      if (IGNORED.has(k)) continue;
      this.tagged(TAG_K, k);
      const v = params[k];
      if (k === 'arguments' && tool !== null && typeof v === 'object' && v !== null && !Array.isArray(v)) {
        this.value(v, 1, META);
      } else this.value(v, 1);
    }
    this.text('}');
  }

  number(): number {
    const h1 = Math.imul(this.h1 ^ (this.h1 >>> 16), 2246822507) ^ Math.imul(this.h2 ^ (this.h2 >>> 13), 3266489909);
    const h2 = Math.imul(this.h2 ^ (this.h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return 4294967296 * (2097151 & h2) + (h1 >>> 0);
  }
}

const META = new Set(['_meta']);
const [TAG_S, TAG_D, TAG_K, TAG_M, TAG_T, TAG_L, TAG_R] = [...'sdkmtlr'].map((c) => c.charCodeAt(0)) as [number, number, number, number, number, number, number];

/**
 * An object's keys in code-unit order. Objects from logs have few keys: an insertion sort in place is cheaper than
 * Array.prototype.sort, which copies the array for every call.
 */
function sortedKeys(o: object): string[] {
  const keys = Object.keys(o);
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > k) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
}

/** A 53-bit digest of the call's identity; equal digests mean the same method, tool and arguments. */
export function fingerprint(method: string, tool: string | null, params: Record<string, unknown>): number {
  const d = new Digest();
  d.tagged(TAG_M, method);
  d.tagged(TAG_T, tool ?? '');
  d.params(params, tool);
  return d.number();
}

/**
 * A record's signature as a number: what tells it from an identical copy, kept small while its session lasts. With
 * `max`, a longer text is fed by its first `max` code units and its length.
 */
export function signatureOf(text: string, max = Infinity): number {
  const d = new Digest();
  if (text.length > max) {
    d.text(text, max);
    d.unit(text.length);
  } else d.text(text);
  return d.number();
}

/** How many content blocks, and how many characters of each string in them, a tool result's digest reads. */
const RESULT_BLOCKS = 4;
const RESULT_STRING = 4096;

/**
 * A tool result's digest, to see the same answer given to two requests: the number of content blocks, isError and
 * the first blocks in canonical form (strings past 4,096 characters fed by their start and length, 64 levels deep).
 */
export function resultDigest(content: unknown[], isError: boolean): number {
  const d = new Digest();
  d.maxString = RESULT_STRING;
  d.unit(TAG_R);
  d.unit(content.length);
  d.unit(isError ? 1 : 0);
  const n = Math.min(content.length, RESULT_BLOCKS);
  for (let i = 0; i < n; i++) d.value(content[i], 1);
  return d.number();
}

/**
 * A 53-bit digest of a JSON value as written (object keys in their order, as its JSON text has them; 64 levels deep),
 * walked without making an array of any object's keys: equal texts, equal digests.
 */
export function jsonDigest(v: unknown): number {
  const d = new Digest();
  d.written(v, 0);
  return d.number();
}
