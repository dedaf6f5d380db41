// What the SDK clients require of a result, by method: the first way a result breaks the shape its method's schema gives.

// The checks mirror the MCP schema as the SDK clients enforce it on every result they take (the TypeScript SDK parses
// each result with zod and throws a ZodError, the Python SDK with pydantic and raises a ValidationError): a required
// field missing or of the wrong type, an unknown content type. Two rules only the TypeScript SDK enforces (measured
// with both SDKs' own schemas): base64 in a blob or in image and audio data, and a tool's inputSchema of type "object".
// Keys they do not know pass, as they pass there. An answer is a real violation; silence is no proof. Each rule and
// which clients refuse what breaks it was measured with both SDKs' own schemas (test/result-shape.test.ts holds the
// TypeScript SDK's).

import { jsonText } from './report/text.js';

const MAX_ITEMS = 1000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** A way a result breaks its schema: where and how, and whether only the TypeScript SDK's check refuses it. */
export interface ShapeProblem {
  text: string;
  typescriptOnly?: boolean;
}

/** The browsers' and Node's atob() rule (the TypeScript SDK checks blobs and image data with it): base64 text. */
export function isBase64(s: string): boolean {
  let t = s.replace(/[\t\n\f\r ]/g, '');
  if (t.length % 4 === 0) t = t.replace(/={1,2}$/, '');
  return t.length % 4 !== 1 && /^[A-Za-z0-9+/]*$/.test(t);
}

const both = (text: string): ShapeProblem => ({ text });
const typescriptOnly = (text: string): ShapeProblem => ({ text, typescriptOnly: true });

/** A string field; an optional one may be absent (null too, for the Python SDK, which reads it as None). */
function str(o: Record<string, unknown>, key: string, path: string, optional = false): ShapeProblem | undefined {
  if (!has(o, key) || o[key] === undefined) return optional ? undefined : both(`${path}.${key} is missing`);
  if (typeof o[key] === 'string') return undefined;
  return (optional && o[key] === null ? typescriptOnly : both)(`${path}.${key} is ${kind(o[key])}, not a string`);
}

function kind(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v === 'string' ? 'a string' : typeof v === 'number' ? 'a number' : typeof v;
}

function list(r: Record<string, unknown>, key: string, item: (v: Record<string, unknown>, path: string) => ShapeProblem | undefined): ShapeProblem | undefined {
  const a = r[key];
  if (!Array.isArray(a)) return both(has(r, key) ? `${key} is ${kind(a)}, not an array` : `${key} is missing`);
  for (let i = 0; i < a.length && i < MAX_ITEMS; i++) {
    const path = `${key}[${i}]`;
    if (!isObject(a[i])) return both(`${path} is ${kind(a[i])}, not an object`);
    const off = item(a[i], path);
    if (off !== undefined) return off;
  }
  return undefined;
}

/** A resource's contents (resources/read, an embedded resource): a uri, and text or a base64 blob. */
function resourceContents(c: Record<string, unknown>, path: string): ShapeProblem | undefined {
  const off = str(c, 'uri', path) ?? str(c, 'mimeType', path, true);
  if (off !== undefined) return off;
  if (typeof c.text === 'string') return undefined;
  if (typeof c.blob === 'string') return isBase64(c.blob) ? undefined : typescriptOnly(`${path}.blob is not base64 (${c.blob.length > 24 ? 'it begins ' : ''}${JSON.stringify(c.blob.slice(0, 24))})`);
  return both(`${path} has neither text nor blob (a string)`);
}

/** One content block (a tool's result, a prompt's message): text, image, audio, resource_link or resource. */
function contentBlockProblem(b: Record<string, unknown>, path: string): ShapeProblem | undefined {
  return blockFields(b, path) ?? annotationsProblem(b, path);
}

/** RFC 3339 date-time with its offset, as the TypeScript SDK checks a lastModified. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** A content block's annotations: an audience of user and assistant, a priority from 0 to 1, a lastModified date-time. */
function annotationsProblem(b: Record<string, unknown>, path: string): ShapeProblem | undefined {
  if (!has(b, 'annotations') || b.annotations === undefined) return undefined;
  const a = b.annotations;
  if (!isObject(a)) return (a === null ? typescriptOnly : both)(`${path}.annotations is ${kind(a)}, not an object`);
  if (has(a, 'audience') && a.audience !== undefined && !(Array.isArray(a.audience) && a.audience.every((x) => x === 'user' || x === 'assistant'))) return both(`${path}.annotations.audience is not a list of "user" and "assistant"`);
  if (has(a, 'priority') && a.priority !== undefined && !(typeof a.priority === 'number' && a.priority >= 0 && a.priority <= 1)) return both(`${path}.annotations.priority is ${jsonText(a.priority).slice(0, 20)}, not a number from 0 to 1`);
  if (has(a, 'lastModified') && a.lastModified !== undefined && !(typeof a.lastModified === 'string' && DATE_TIME.test(a.lastModified))) return typescriptOnly(`${path}.annotations.lastModified is ${jsonText(a.lastModified).slice(0, 40)}, not a date-time with its offset`);
  return undefined;
}

function blockFields(b: Record<string, unknown>, path: string): ShapeProblem | undefined {
  switch (b.type) {
    case 'text':
      return str(b, 'text', path);
    case 'image':
    case 'audio': {
      const off = str(b, 'data', path) ?? str(b, 'mimeType', path);
      if (off !== undefined) return off;
      return isBase64(b.data as string) ? undefined : typescriptOnly(`${path}.data is not base64 (an ${b.type} block's data)`);
    }
    case 'resource_link':
      return str(b, 'uri', path) ?? str(b, 'name', path);
    case 'resource':
      return isObject(b.resource) ? resourceContents(b.resource, `${path}.resource`) : both(`${path}.resource is ${has(b, 'resource') ? kind(b.resource) : 'missing'}, not an object`);
    default:
      return both(has(b, 'type') ? `${path}.type ${jsonText(b.type).slice(0, 60)} is no content type (text, image, audio, resource_link, resource)` : `${path}.type is missing`);
  }
}

/** A content array's first broken block (a tools/call result's content). */
export function contentProblem(content: unknown[], path = 'content'): ShapeProblem | undefined {
  for (let i = 0; i < content.length && i < MAX_ITEMS; i++) {
    const b = content[i];
    const off = isObject(b) ? contentBlockProblem(b, `${path}[${i}]`) : both(`${path}[${i}] is ${kind(b)}, not an object`);
    if (off !== undefined) return off;
  }
  return undefined;
}

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** One tools/list entry: its name, texts, inputSchema (and outputSchema) objects of type "object", boolean hints. */
function tool(t: Record<string, unknown>, path: string): ShapeProblem | undefined {
  const off = str(t, 'name', path) ?? str(t, 'title', path, true) ?? str(t, 'description', path, true);
  if (off !== undefined) return off;
  if (!isObject(t.inputSchema)) return both(`${path}.inputSchema is ${has(t, 'inputSchema') ? kind(t.inputSchema) : 'missing'}, not an object`);
  for (const key of ['inputSchema', 'outputSchema'] as const) {
    const schema = t[key];
    if (key === 'outputSchema' && (schema === undefined || schema === null)) continue;
    if (!isObject(schema)) return typescriptOnly(`${path}.${key} is ${kind(schema)}, not an object`);
    if (schema.type !== 'object') return typescriptOnly(`${path}.${key}.type is ${has(schema, 'type') ? jsonText(schema.type).slice(0, 60) : 'missing'}, not "object"`);
    if (has(schema, 'properties') && !isObject(schema.properties)) return typescriptOnly(`${path}.${key}.properties is ${kind(schema.properties)}, not an object`);
    if (has(schema, 'required') && !(Array.isArray(schema.required) && schema.required.every((x) => typeof x === 'string'))) return typescriptOnly(`${path}.${key}.required is not an array of strings`);
  }
  if (has(t, 'annotations') && t.annotations !== undefined) {
    if (!isObject(t.annotations)) return both(`${path}.annotations is ${kind(t.annotations)}, not an object`);
    for (const h of HINTS) if (has(t.annotations, h) && t.annotations[h] !== undefined && typeof t.annotations[h] !== 'boolean') return typescriptOnly(`${path}.annotations.${h} is ${kind(t.annotations[h])}, not a boolean`);
    const title = str(t.annotations, 'title', `${path}.annotations`, true);
    if (title !== undefined) return title;
  }
  if (has(t, 'icons') && t.icons !== undefined) {
    if (!Array.isArray(t.icons)) return both(`${path}.icons is ${kind(t.icons)}, not an array`);
    for (let i = 0; i < t.icons.length && i < MAX_ITEMS; i++) {
      const icon = t.icons[i];
      const off = isObject(icon) ? str(icon, 'src', `${path}.icons[${i}]`) : both(`${path}.icons[${i}] is ${kind(icon)}, not an object`);
      if (off !== undefined) return off;
    }
  }
  if (isObject(t.execution) && has(t.execution, 'taskSupport') && t.execution.taskSupport !== undefined && !['forbidden', 'optional', 'required'].includes(t.execution.taskSupport as string)) {
    return both(`${path}.execution.taskSupport is ${jsonText(t.execution.taskSupport).slice(0, 30)}, not "forbidden", "optional" or "required"`);
  }
  return undefined;
}

/** An initialize result: the version, the capabilities (each an object) and serverInfo's name and version. */
function initializeResult(r: Record<string, unknown>): ShapeProblem | undefined {
  const off = str(r, 'protocolVersion', 'result') ?? str(r, 'instructions', 'result', true);
  if (off !== undefined) return off;
  if (!isObject(r.capabilities)) return both(`capabilities is ${has(r, 'capabilities') ? kind(r.capabilities) : 'missing'}, not an object`);
  for (const k in r.capabilities) {
    const c = r.capabilities[k];
    if (Object.hasOwn(r.capabilities, k) && c !== undefined && !isObject(c)) return (c === null ? typescriptOnly : both)(`capabilities.${k.slice(0, 40)} is ${kind(c)}, not an object`);
  }
  if (!isObject(r.serverInfo)) return both(`serverInfo is ${has(r, 'serverInfo') ? kind(r.serverInfo) : 'missing'}, not an object`);
  return str(r.serverInfo, 'name', 'serverInfo') ?? str(r.serverInfo, 'version', 'serverInfo');
}

/** A result's _meta: an object when present. */
function metaProblem(r: Record<string, unknown>): ShapeProblem | undefined {
  if (!has(r, '_meta') || r._meta === undefined || isObject(r._meta)) return undefined;
  return (r._meta === null ? typescriptOnly : both)(`_meta is ${kind(r._meta)}, not an object`);
}

/**
 * A tools/call result past its content array and isError: its blocks, structuredContent (an object, or any JSON value
 * when `anyStructured`: protocol 2026-07-28) and _meta.
 */
export function toolResultProblem(r: Record<string, unknown>, anyStructured = false): ShapeProblem | undefined {
  const off = contentProblem(r.content as unknown[]);
  if (off !== undefined) return off;
  if (!anyStructured && has(r, 'structuredContent') && r.structuredContent !== undefined && !isObject(r.structuredContent)) {
    return (r.structuredContent === null ? typescriptOnly : both)(`structuredContent is ${kind(r.structuredContent)}, not an object`);
  }
  return metaProblem(r);
}

const CHECKS: Record<string, (r: Record<string, unknown>) => ShapeProblem | undefined> = {
  initialize: initializeResult,
  'resources/read': (r) => list(r, 'contents', resourceContents),
  'prompts/get': (r) => list(r, 'messages', (m, path) => {
    if (m.role !== 'user' && m.role !== 'assistant') return both(has(m, 'role') ? `${path}.role ${jsonText(m.role).slice(0, 60)} is neither "user" nor "assistant"` : `${path}.role is missing`);
    return isObject(m.content) ? contentBlockProblem(m.content, `${path}.content`) : both(`${path}.content is ${has(m, 'content') ? kind(m.content) : 'missing'}, not an object`);
  }),
  'tools/list': (r) => list(r, 'tools', tool),
  'resources/list': (r) => list(r, 'resources', (v, path) => str(v, 'uri', path) ?? str(v, 'name', path)),
  'resources/templates/list': (r) => list(r, 'resourceTemplates', (v, path) => str(v, 'uriTemplate', path) ?? str(v, 'name', path)),
  'prompts/list': (r) => list(r, 'prompts', (v, path) => str(v, 'name', path)),
};

/** The first way a result of `method` breaks its schema, or undefined (also for a method this does not check). */
export function resultShapeProblem(method: string | undefined, result: Record<string, unknown>): ShapeProblem | undefined {
  const check = method !== undefined ? CHECKS[method] : undefined;
  if (check === undefined) return undefined;
  const meta = metaProblem(result);
  if (meta !== undefined) return meta;
  // A page's cursor, on every list method.
  if (method!.endsWith('/list')) {
    const off = str(result, 'nextCursor', 'result', true);
    if (off !== undefined) return { ...off, text: off.text.replace(/^result\./, '') };
  }
  return check(result);
}
