// Checking a tool result's structuredContent against the outputSchema its tools/list declared: the JSON Schema keywords SDK clients trip on most.

const MAX_DEPTH = 32;
const MAX_ITEMS = 1000;

/**
 * The first way `value` breaks `schema` (`structuredContent/count must be number`), or undefined when it keeps every
 * rule this checks: `type`, `enum`, `const`, `required`, `properties`, `items`, `anyOf`/`oneOf` (one branch must
 * hold), `allOf`, a local `$ref` (`#/$defs/Name`, as pydantic writes nested models) and `format` `date-time` and
 * `date` (RFC 3339, as the TypeScript SDK's validator checks them: a naive datetime without its offset breaks it).
 * Other keywords are not checked (they pass), so an answer here is a real violation, and silence is not a proof.
 */
export function schemaViolation(value: unknown, schema: unknown, path = 'structuredContent', depth = 0, root: unknown = schema): string | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || depth > MAX_DEPTH) return undefined;
  let s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') {
    const target = localRef(root, s.$ref);
    if (target === undefined) return undefined; // a reference this cannot follow: not checked
    s = target;
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = s[key];
    if (Array.isArray(branches) && branches.length > 0 && branches.every((b) => schemaViolation(value, b, path, depth + 1, root) !== undefined)) {
      // One branch's reason, when only one branch is of the value's type (`anyOf [Model, null]`): it says what broke.
      const typed = branches.filter((b) => isObject(b) && (b.type === undefined || b.type !== 'null' || value === null));
      return typed.length === 1 ? schemaViolation(value, typed[0], path, depth + 1, root) : `${path} must match a schema in ${key}`;
    }
  }
  if (Array.isArray(s.allOf)) {
    for (const b of s.allOf) {
      const why = schemaViolation(value, b, path, depth + 1, root);
      if (why !== undefined) return why;
    }
  }
  if (typeof value === 'string' && typeof s.format === 'string') {
    const check = FORMATS[s.format];
    if (check && !check(value)) return `${path} must match format "${s.format}"`;
  }
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (types.every((t) => typeof t === 'string') && !types.some((t) => isType(value, t as string))) return `${path} must be ${types.join(' or ')}`;
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => same(e, value))) return `${path} must be one of the allowed values`;
  if ('const' in s && !same(s.const, value)) return `${path} must be the constant value`;
  if (isObject(value)) {
    if (Array.isArray(s.required)) for (const k of s.required) if (typeof k === 'string' && !Object.prototype.hasOwnProperty.call(value, k)) return `${path} must have required property '${k}'`;
    if (isObject(s.properties)) {
      for (const [k, sub] of Object.entries(s.properties)) {
        if (!Object.prototype.hasOwnProperty.call(value, k)) continue;
        const why = schemaViolation(value[k], sub, `${path}/${k}`, depth + 1, root);
        if (why !== undefined) return why;
      }
    }
  } else if (Array.isArray(value) && isObject(s.items)) {
    for (let i = 0; i < value.length && i < MAX_ITEMS; i++) {
      const why = schemaViolation(value[i], s.items, `${path}/${i}`, depth + 1, root);
      if (why !== undefined) return why;
    }
  }
  return undefined;
}

/** `#/$defs/Name` (or `#/definitions/Name`, or any JSON pointer into the root schema); undefined when it leads nowhere. */
function localRef(root: unknown, ref: string): Record<string, unknown> | undefined {
  if (!ref.startsWith('#')) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(at) || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = at[key];
  }
  return isObject(at) ? at : undefined;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?(z|[+-]\d{2}:\d{2})$/i;

function validDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= days[mo - 1]!;
}

/** The formats checked, as ajv-formats' full mode (the TypeScript SDK's validator) reads them; the rest pass. */
const FORMATS: Record<string, ((v: string) => boolean) | undefined> = {
  date: validDate,
  'date-time': (v) => {
    const parts = v.split(/t|\s/i);
    if (parts.length !== 2 || !validDate(parts[0]!)) return false;
    const m = TIME.exec(parts[1]!);
    return m !== null && Number(m[1]) <= 23 && Number(m[2]) <= 59 && Number(m[3]) <= 60;
  },
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isType(v: unknown, t: string): boolean {
  switch (t) {
    case 'object': return isObject(v);
    case 'array': return Array.isArray(v);
    case 'string': return typeof v === 'string';
    case 'number': return typeof v === 'number' && Number.isFinite(v);
    case 'integer': return typeof v === 'number' && Number.isInteger(v);
    case 'boolean': return typeof v === 'boolean';
    case 'null': return v === null;
    default: return true; // a type this does not know: not checked
  }
}

/**
 * Whether two JSON values are equal, as their JSON texts would be (key order counts). Iterative: the value is
 * structuredContent from a log, which may be nested far deeper than JSON.stringify can go.
 */
function same(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const ys = y as unknown[];
      if (x.length !== ys.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], ys[i]]);
    } else {
      const xk = Object.keys(x);
      const yk = Object.keys(y);
      if (xk.length !== yk.length) return false;
      for (let i = 0; i < xk.length; i++) {
        if (xk[i] !== yk[i]) return false;
        stack.push([(x as Record<string, unknown>)[xk[i]!], (y as Record<string, unknown>)[yk[i]!]]);
      }
    }
  }
  return true;
}

/** Keywords that do not constrain a value (annotations), and those schemaViolation checks. */
const PASSIVE = new Set(['title', 'description', 'default', 'examples', '$schema', '$id', '$comment', 'deprecated', 'readOnly', 'writeOnly']);
const CHECKED = new Set(['type', 'enum', 'const', 'required', 'properties', 'items', 'additionalProperties']);

/**
 * Whether `value` keeps every rule of `schema`, as far as this can tell for sure: false when the schema uses a keyword
 * schemaViolation does not check (`minimum`, `pattern`, `anyOf`, `$ref`...), when a part of it constrains nothing
 * (no `type`, `enum` or `const`), or when an object carries a property the schema does not declare (a loose
 * `{"type": "object"}` says nothing of what a server checks): true is a proof, not a pass by default.
 * `additionalProperties` may only be a boolean.
 */
export function surelyValid(value: unknown, schema: unknown, depth = 0): boolean {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || depth > MAX_DEPTH) return false;
  const s = schema as Record<string, unknown>;
  for (const k of Object.keys(s)) if (!PASSIVE.has(k) && !CHECKED.has(k)) return false;
  if (s.type === undefined && s.enum === undefined && !('const' in s)) return false;
  if (s.additionalProperties !== undefined && typeof s.additionalProperties !== 'boolean') return false;
  if (schemaViolation(value, s, '', depth) !== undefined) return false;
  if (isObject(value)) {
    const props = isObject(s.properties) ? s.properties : {};
    for (const [k, v] of Object.entries(value)) {
      if (!Object.prototype.hasOwnProperty.call(props, k) || !surelyValid(v, props[k], depth + 1)) return false;
    }
  } else if (Array.isArray(value) && s.items !== undefined) {
    if (value.length > MAX_ITEMS) return false;
    for (const x of value) if (!surelyValid(x, s.items, depth + 1)) return false;
  }
  return true;
}
