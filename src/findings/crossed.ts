// What a tool result says about the request it answers: the evidence the crossed-answer check (ORPHAN_RESPONSE for a
// result another session's request got) needs before it says that one caller took another's answer.

/** How many argument values of one request are kept, and how long each may be. */
const MAX_VALUES = 8;
const MAX_VALUE_LENGTH = 100;

/**
 * The argument values of a tools/call that a result could name: strings of 3 to 100 characters and numbers written
 * with 3 characters or more (`"2002"`, `2002`, `"alpha"`), up to 3 levels deep, at most 8. Shorter values (`3`,
 * `"eu"`, `true`) would be found by chance in any text. Undefined when there is none.
 */
export function argumentValues(args: unknown): string[] | undefined {
  const out: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (out.length >= MAX_VALUES) return;
    if (typeof v === 'string') {
      const s = v.trim();
      if (s.length >= 3 && s.length <= MAX_VALUE_LENGTH && !out.includes(s)) out.push(s);
    } else if (typeof v === 'number') {
      const s = String(v);
      if (s.length >= 3 && !out.includes(s)) out.push(s);
    } else if (depth < 3 && typeof v === 'object' && v !== null) {
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length && i < MAX_VALUES; i++) walk(v[i], depth + 1);
      } else {
        for (const k in v) walk((v as Record<string, unknown>)[k], depth + 1);
      }
    }
  };
  walk(args, 0);
  return out.length > 0 ? out : undefined;
}

/** How much of each text block of a result is searched for argument values. */
const SEARCHED = 4096;

/**
 * The argument values of a tools/call that its result names (text blocks and embedded resources' text, the first
 * 4,096 characters of each of the first 4 blocks), read when the result is compacted: the crossed-answer check compares
 * two requests' lists, so no result text has to be kept. Undefined when it names none.
 */
export function namedArguments(content: unknown[], args: unknown): string[] | undefined {
  const values = argumentValues(args);
  if (values === undefined) return undefined;
  let named: string[] | undefined;
  const n = Math.min(content.length, 4);
  for (let i = 0; i < n; i++) {
    const block = content[i];
    if (typeof block !== 'object' || block === null) continue;
    const b = block as { text?: unknown; resource?: { text?: unknown } };
    for (const t of [b.text, b.resource?.text]) {
      if (typeof t !== 'string' || t === '') continue;
      const text = t.length > SEARCHED ? t.slice(0, SEARCHED) : t;
      for (const v of values) if (!named?.includes(v) && names(text, v)) (named ??= []).push(v);
    }
  }
  return named;
}

const isWordChar = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** The text contains the value as a whole word (not `100` inside `1001`, nor `alpha` inside `alphabet`). */
export function names(text: string, value: string): boolean {
  let at = text.indexOf(value);
  while (at !== -1) {
    const before = at > 0 ? text.charCodeAt(at - 1) : -1;
    const after = at + value.length < text.length ? text.charCodeAt(at + value.length) : -1;
    if ((before === -1 || !isWordChar(before) || !isWordChar(value.charCodeAt(0))) && (after === -1 || !isWordChar(after) || !isWordChar(value.charCodeAt(value.length - 1)))) return true;
    at = text.indexOf(value, at + 1);
  }
  return false;
}

/**
 * Whose answer one result is, from the argument values each of the two requests that got it found named in it: `'a'`
 * when it names a value of request a that request b did not (had b carried it, b's list would have it too) and none of
 * b's that a did not, `'b'` the other way round (with the value named), undefined when it names neither or both (a
 * generic "ok", an empty result, a text naming what both asked for): then the wire does not tell.
 */
export function whoseAnswer(a: string[] | undefined, b: string[] | undefined): { whose: 'a' | 'b'; value: string } | undefined {
  const byA = a?.find((v) => !b?.includes(v));
  const byB = b?.find((v) => !a?.includes(v));
  if ((byA === undefined) === (byB === undefined)) return undefined;
  return byA !== undefined ? { whose: 'a', value: byA } : { whose: 'b', value: byB! };
}
