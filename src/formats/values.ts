// Small guards for untrusted parsed values, shared by the format adapters.

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** JSON text to a value; undefined when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** JSON text that holds an object or array (after optional whitespace); undefined otherwise. */
export function parseJsonContainer(text: string): unknown {
  const t = text.trimStart();
  if (t[0] !== '{' && t[0] !== '[') return undefined;
  const v = parseJson(t);
  return typeof v === 'object' && v !== null ? v : undefined;
}

/** A JSON-RPC message (or a non-empty batch of them), loosely: the shape, not its validity. */
export function looksLikeJsonRpc(m: unknown): boolean {
  if (Array.isArray(m)) return m.length > 0 && m.every(looksLikeJsonRpc);
  return isObj(m) && ('jsonrpc' in m || typeof m.method === 'string' || 'result' in m || 'error' in m);
}

/** Keys that must never be copied from a log into an object (prototype pollution). */
export function safeKey(k: string): boolean {
  return k !== '__proto__' && k !== 'constructor' && k !== 'prototype';
}

/** An HTTP status code as logged: an integer from 100 to 999, else undefined. */
export function httpStatus(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 100 && v <= 999 ? v : undefined;
}

/** A record time as logged: a string, or a finite number (epoch); undefined otherwise. */
export function timeValue(v: unknown): string | number | undefined {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? v : undefined;
}
