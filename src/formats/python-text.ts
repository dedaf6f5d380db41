// Python's text of data: a literal as str() of a dict writes it, and a pydantic model as its str() or repr() writes it (what a Python app or the Python SDK logs when it formats a message into its log text).
import { isObj, safeKey, type Obj } from './values.js';

/** Deepest nesting read in a Python literal: a message is a few levels deep; a deeper text is no message. */
const MAX_LITERAL_DEPTH = 64;
const PY_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', v: '\v', '0': '\0' };
const PY_NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The value of a Python literal of JSON values, as Python's str() of a dict writes it (`{'jsonrpc': '2.0', 'id': 1,
 * 'params': {'ok': True, 'note': None}}`): dicts, lists, tuples, quoted strings with their escapes, numbers, True,
 * False, None; the whole text (trailing whitespace aside). Undefined when it is anything else (an object's repr, a
 * cut text, inf or nan).
 */
export function parsePythonLiteral(text: string): unknown {
  return parse(text, false);
}

/**
 * The fields of a pydantic model as its str() writes them (`jsonrpc='2.0' id=1 method='tools/call' params={...}`), or
 * as its repr() does (`JSONRPCRequest(jsonrpc='2.0', id=1, ...)`): each field's value a Python literal or a nested
 * model's repr (`error=ErrorData(code=-32602, message='...', data=None)`), read as an object of its fields. Undefined
 * when the text is anything else.
 */
export function parsePydanticText(text: string): Obj | undefined {
  const v = parse(text, true);
  return isObj(v) ? v : undefined;
}

/**
 * The JSON-RPC message a pydantic model's text is (the Python SDK's JSONRPCRequest, JSONRPCResponse, ...: their field
 * names are the wire's), or undefined. mcp 1.x's JSONRPCMessage is a RootModel, whose str() is `root=JSONRPCRequest(...)`;
 * fields written as None are fields the wire left out (a notification's `params=None`, an error's `data=None`).
 */
export function pydanticMessage(text: string): Obj | undefined {
  // The SDK's SessionMessage(message=..., metadata=...): the message, whatever the metadata's repr holds.
  const session = text.startsWith('SessionMessage(message=') ? parse(text.slice('SessionMessage(message='.length), true, true) : undefined;
  let v = session !== undefined ? (isObj(session) ? session : undefined) : parsePydanticText(text);
  if (v !== undefined && Object.keys(v).length === 1 && isObj(v.root)) v = v.root;
  if (v === undefined || v.jsonrpc !== '2.0' || !(typeof v.method === 'string' || 'result' in v || 'error' in v)) return undefined;
  if (v.params === null) delete v.params;
  if (v.id === null && typeof v.method === 'string') delete v.id;
  if (isObj(v.error) && v.error.data === null) delete v.error.data;
  return v;
}

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;

/** `leading`: the first value only, whatever follows it (a repr's other fields). */
function parse(text: string, models: boolean, leading = false): unknown {
  let i = 0;
  const fail = (): never => {
    throw new SyntaxError('not a Python literal');
  };
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\t')) i++;
  };
  const str = (): string => {
    const q = text[i++]!;
    let out = '';
    for (;;) {
      const c = text[i++];
      if (c === undefined || c === '\n') fail();
      if (c === q) return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = text[i++]!;
      const hex = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      if (hex) {
        const h = text.slice(i, i + hex);
        if (!/^[0-9a-fA-F]+$/.test(h) || h.length !== hex) fail();
        const cp = parseInt(h, 16);
        if (cp > 0x10ffff) fail();
        out += String.fromCodePoint(cp);
        i += hex;
      } else if (e in PY_ESCAPES) out += PY_ESCAPES[e];
      else fail();
    }
  };
  const value = (depth: number): unknown => {
    if (depth > MAX_LITERAL_DEPTH) fail();
    ws();
    const c = text[i];
    if (c === "'" || c === '"') return str();
    if (c === '{') {
      i++;
      const obj: Obj = {};
      ws();
      if (text[i] === '}') return i++, obj;
      for (;;) {
        const k = value(depth + 1);
        if (typeof k !== 'string' && typeof k !== 'number') fail();
        ws();
        if (text[i++] !== ':') fail();
        const v = value(depth + 1);
        if (safeKey(String(k))) obj[String(k)] = v;
        ws();
        const sep = text[i++];
        if (sep === '}') return obj;
        if (sep !== ',') fail();
      }
    }
    if (c === '[' || c === '(') {
      const close = c === '[' ? ']' : ')';
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === close) return i++, arr;
      for (;;) {
        arr.push(value(depth + 1));
        ws();
        const sep = text[i++];
        if (sep === close) return arr;
        if (sep !== ',') fail();
        ws();
        if (text[i] === close) return i++, arr; // (1,) and a trailing comma
      }
    }
    for (const [word, v] of [['True', true], ['False', false], ['None', null]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    if (models) {
      // A nested model's repr: Name(field=value, ...).
      IDENT.lastIndex = i;
      const name = IDENT.exec(text);
      if (name && text[i + name[0].length] === '(') {
        i += name[0].length + 1;
        return fields(depth + 1, ')');
      }
    }
    PY_NUMBER.lastIndex = i;
    const m = PY_NUMBER.exec(text);
    if (!m) return fail();
    i += m[0].length;
    return Number(m[0]);
  };
  /** `name=value` pairs up to `close` (a repr's `)`, separated by `, `) or to the end of the text (a str()'s, by spaces). */
  const fields = (depth: number, close: ')' | undefined): Obj => {
    const obj: Obj = {};
    ws();
    if (close !== undefined && text[i] === close) return i++, obj;
    for (;;) {
      IDENT.lastIndex = i;
      const name = IDENT.exec(text);
      if (!name || text[i + name[0].length] !== '=') fail();
      i += name![0].length + 1;
      const v = value(depth + 1);
      if (safeKey(name![0])) obj[name![0]] = v;
      if (close === undefined) {
        if (i === text.length || text.slice(i).trim() === '') return obj;
        if (text[i++] !== ' ') fail();
        continue;
      }
      ws();
      const sep = text[i++];
      if (sep === close) return obj;
      if (sep !== ',') fail();
      ws();
    }
  };
  try {
    let v: unknown;
    if (models && !leading) {
      // A whole repr (Name(...)), else a str()'s fields.
      IDENT.lastIndex = 0;
      const name = IDENT.exec(text);
      v = name && text[name[0].length] === '(' ? value(0) : fields(0, undefined);
    } else v = value(0);
    if (leading) return v;
    ws();
    return i === text.length ? v : undefined;
  } catch {
    return undefined;
  }
}

