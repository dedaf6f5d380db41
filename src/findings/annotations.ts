// Tool annotations from a tools/list response, reduced to what retry safety needs.

export interface ToolSafety {
  readOnly: boolean;
  idempotent: boolean;
  /** The tool had an annotations object in tools/list. */
  annotated: boolean;
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

/**
 * name -> safety for every tool in a tools/list result; undefined when the response lists no tools. The map may be
 * shared with other responses that listed the same tools: read it, copy it to change it.
 */
export function readToolAnnotations(response: unknown): ReadonlyMap<string, ToolSafety> | undefined {
  const tools = (response as { result?: { tools?: unknown } } | undefined)?.result?.tools;
  if (!Array.isArray(tools)) return undefined;
  // Every session's tools/list repeats its server's list: one that hashes and compares equal to a recent one (without
  // building its text) reuses that one's map. A list too large or deep to walk cheaply is read on its own.
  const budget = { nodes: 0, over: false };
  const hash = jsonHash(tools, 0, 0x811c9dc5 | 0, budget);
  const seen = budget.over ? undefined : recentLists.get(hash);
  if (seen !== undefined && sameJson(seen.tools, tools, 0)) return seen.map;
  const m = readTools(tools);
  if (!budget.over) {
    recentLists.delete(hash);
    recentLists.set(hash, { tools, map: m });
    if (recentLists.size > MAX_RECENT_LISTS) recentLists.delete(recentLists.keys().next().value!);
  }
  return m;
}

/** Tool lists read lately, by hash (newest last; oldest out). */
const recentLists = new Map<number, { tools: unknown[]; map: ReadonlyMap<string, ToolSafety> }>();
const MAX_RECENT_LISTS = 64;
/** Most values a list may hold to be hashed and compared (a larger one is read each time). */
const MAX_HASHED_NODES = 20_000;

/**
 * A 32-bit structural hash of a JSON value (keys in their order, strings by length and ends), kept in int32 so that no
 * number is boxed; budget.over is set past MAX_HASHED_NODES values or MAX_SCHEMA_DEPTH.
 */
function jsonHash(v: unknown, depth: number, h: number, budget: { nodes: number; over: boolean }): number {
  if (++budget.nodes > MAX_HASHED_NODES || depth > MAX_SCHEMA_DEPTH) {
    budget.over = true;
    return 0;
  }
  if (typeof v === 'string') {
    // A string's length and ends are enough to find a candidate (sameJson compares the whole text), and cheaper than
    // every character of every tool's description.
    const n = v.length;
    h = Math.imul(h ^ 0x73 ^ (n << 8), 16777619);
    for (let i = 0; i < n && i < 4; i++) h = Math.imul(h ^ v.charCodeAt(i) ^ v.charCodeAt(n - 1 - i), 16777619);
    return h;
  }
  if (typeof v !== 'object' || v === null) {
    if (typeof v === 'number' && (v | 0) === v) return Math.imul(Math.imul(h ^ 0x69, 16777619) ^ v, 16777619);
    const t = v === null ? 'null' : typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v);
    h = Math.imul(h ^ 0x6e, 16777619);
    for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 16777619);
    return h;
  }
  if (Array.isArray(v)) {
    h = Math.imul(h ^ 0x5b, 16777619);
    for (let i = 0; i < v.length && !budget.over; i++) h = jsonHash(v[i], depth + 1, h, budget);
    return Math.imul(h ^ 0x5d, 16777619);
  }
  h = Math.imul(h ^ 0x7b, 16777619);
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    for (let i = 0; i < k.length; i++) h = Math.imul(h ^ k.charCodeAt(i), 16777619);
    h = jsonHash((v as Record<string, unknown>)[k], depth + 1, Math.imul(h ^ 0x3a, 16777619), budget);
    if (budget.over) return 0;
  }
  return Math.imul(h ^ 0x7d, 16777619);
}

/** Whether two parsed JSON values are the same (key order aside, which no check of a schema depends on). */
function sameJson(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth > MAX_SCHEMA_DEPTH) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  let n = 0;
  for (const k in a) {
    if (!Object.hasOwn(a, k)) continue;
    if (!Object.hasOwn(b, k) || !sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1)) return false;
    n++;
  }
  for (const k in b) if (Object.hasOwn(b, k)) n--;
  return n === 0;
}

function readTools(tools: unknown[]): ReadonlyMap<string, ToolSafety> {
  const m = new Map<string, ToolSafety>();
  for (const t of tools) {
    if (typeof t !== 'object' || t === null) continue;
    const tool = t as { name?: unknown; annotations?: unknown; outputSchema?: unknown; inputSchema?: unknown };
    if (typeof tool.name !== 'string') continue;
    const ann = (typeof tool.annotations === 'object' && tool.annotations !== null ? tool.annotations : {}) as Record<string, unknown>;
    const safety: ToolSafety = { readOnly: ann.readOnlyHint === true, idempotent: ann.idempotentHint === true, annotated: typeof tool.annotations === 'object' && tool.annotations !== null };
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
const schemas = new Map<string, unknown>();
const MAX_INTERNED = 512;

function interned(schema: object): unknown {
  const key = JSON.stringify(schema);
  const known = schemas.get(key);
  if (known !== undefined) return known;
  schemas.set(key, schema);
  if (schemas.size > MAX_INTERNED) schemas.delete(schemas.keys().next().value!);
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
