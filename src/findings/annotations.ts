// Tool annotations from a tools/list response, reduced to what retry safety needs.

import { trimOldest } from '../bounded.js';
import { jsonDigest } from '../join/fingerprint.js';

export interface ToolSafety {
  readOnly: boolean;
  idempotent: boolean;
  /** The tool had an annotations object in tools/list. */
  annotated: boolean;
  /** Which of readOnlyHint and idempotentHint that object gave (as booleans): the others take the spec's defaults. */
  given?: { readOnlyHint?: boolean; idempotentHint?: boolean };
  /** Declared idempotent with --idempotent. */
  override?: boolean;
  /** The tool declares an outputSchema: its results must carry structuredContent (2025-06-18 and later). */
  outputSchema?: boolean;
  /** That schema, to check structuredContent against (kept when it is small). */
  schema?: unknown;
  /** The tool's inputSchema (kept when it is small): arguments that surely keep it were no invalid params. */
  inputSchema?: unknown;
}

/** Largest outputSchema kept to check results against (its JSON length); a larger one is only known to exist. */
const MAX_SCHEMA_CHARS = 20_000;

/** name -> safety for every tool in a tools/list result; undefined when the response lists no tools. */
export function readToolAnnotations(response: unknown): Map<string, ToolSafety> | undefined {
  const tools = (response as { result?: { tools?: unknown } } | undefined)?.result?.tools;
  if (!Array.isArray(tools)) return undefined;
  const m = new Map<string, ToolSafety>();
  for (const t of tools) {
    if (typeof t !== 'object' || t === null) continue;
    const tool = t as { name?: unknown; annotations?: unknown; outputSchema?: unknown; inputSchema?: unknown };
    if (typeof tool.name !== 'string') continue;
    const ann = (typeof tool.annotations === 'object' && tool.annotations !== null ? tool.annotations : {}) as Record<string, unknown>;
    const safety: ToolSafety = { readOnly: ann.readOnlyHint === true, idempotent: ann.idempotentHint === true, annotated: typeof tool.annotations === 'object' && tool.annotations !== null };
    if (typeof ann.readOnlyHint === 'boolean' || typeof ann.idempotentHint === 'boolean') {
      safety.given = {};
      if (typeof ann.readOnlyHint === 'boolean') safety.given.readOnlyHint = ann.readOnlyHint;
      if (typeof ann.idempotentHint === 'boolean') safety.given.idempotentHint = ann.idempotentHint;
    }
    if (typeof tool.outputSchema === 'object' && tool.outputSchema !== null) {
      safety.outputSchema = true;
      if (smallJson(tool.outputSchema, MAX_SCHEMA_CHARS)) safety.schema = interned(tool.outputSchema);
    }
    if (typeof tool.inputSchema === 'object' && tool.inputSchema !== null && smallJson(tool.inputSchema, MAX_SCHEMA_CHARS)) safety.inputSchema = interned(tool.inputSchema);
    m.set(tool.name, safety);
  }
  return m;
}

/**
 * One copy of each schema: every session's tools/list repeats its server's schemas, and the tools of thousands of
 * sessions are kept at once (12 MB of peak RSS on the benchmark's 100 MB pair before this). Bounded, oldest out.
 */
const schemas = new Map<number, unknown>();
const MAX_INTERNED = 512;

/** Keyed by the schema's digest, not its JSON text: no text is built for each tool of each tools/list. */
function interned(schema: object): unknown {
  const key = jsonDigest(schema);
  const known = schemas.get(key);
  if (known !== undefined) return known;
  schemas.set(key, schema);
  trimOldest(schemas, MAX_INTERNED);
  return schema;
}

/** Deepest outputSchema kept: the check of structuredContent stops there anyway. */
const MAX_SCHEMA_DEPTH = 64;

/**
 * Whether value's JSON text is at most max characters (counted roughly, from below: strings, keys and one character
 * per value) and no deeper than MAX_SCHEMA_DEPTH. Stops as soon as either is over: JSON.stringify of a schema nested
 * 100,000 levels deep overflowed the stack (a crash), and of a huge one built all of its text first. The recursion is
 * bounded by MAX_SCHEMA_DEPTH, and walks without allocating (every session's tools/list passes through here).
 */
function smallJson(value: unknown, max: number): boolean {
  return sizeWithin(value, 0, 0, max) >= 0;
}

/** size plus the rough JSON length of v, or -1 when that passes max or v is deeper than MAX_SCHEMA_DEPTH. */
function sizeWithin(v: unknown, depth: number, size: number, max: number): number {
  size += typeof v === 'string' ? v.length + 2 : 1;
  if (size > max) return -1;
  if (typeof v !== 'object' || v === null) return size;
  if (depth >= MAX_SCHEMA_DEPTH) return -1;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if ((size = sizeWithin(v[i], depth + 1, size, max)) < 0) return -1;
    return size;
  }
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    size += k.length + 3;
    if (size > max || (size = sizeWithin((v as Record<string, unknown>)[k], depth + 1, size, max)) < 0) return -1;
  }
  return size;
}
