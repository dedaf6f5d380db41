// The result shapes SDK clients refuse: each rule with a result that breaks it and a near miss that keeps it, held to
// the TypeScript SDK 1.32.2's own zod schemas (which its Client parses every result with).
import { describe, expect, it } from 'vitest';
import * as sdk from '@modelcontextprotocol/sdk/types.js';
import { contentProblem, isBase64, resultShapeProblem, toolResultProblem } from '../src/result-shape.js';

type Case = { method: string; bad: Record<string, unknown>; near: Record<string, unknown>; says: RegExp; typescriptOnly?: boolean };

const SCHEMAS: Record<string, { safeParse: (v: unknown) => { success: boolean } }> = {
  initialize: sdk.InitializeResultSchema,
  'resources/read': sdk.ReadResourceResultSchema,
  'prompts/get': sdk.GetPromptResultSchema,
  'tools/list': sdk.ListToolsResultSchema,
  'resources/list': sdk.ListResourcesResultSchema,
  'resources/templates/list': sdk.ListResourceTemplatesResultSchema,
  'prompts/list': sdk.ListPromptsResultSchema,
  'tools/call': sdk.CallToolResultSchema,
};

const text = (t: string) => ({ type: 'text', text: t });

const CASES: Case[] = [
  // the MCP test kitchen's invalid resource (BaselineCatalogWireInterceptor): no uri, a blob that is no base64
  { method: 'resources/read', bad: { contents: [{ type: 'blob', blob: 'not-valid-base64!!!', mimeType: 'not-a-mime-type' }] }, near: { contents: [{ uri: 'test://r', blob: 'aGVsbG8=', mimeType: 'not-a-mime-type' }] }, says: /^contents\[0\]\.uri is missing$/ },
  { method: 'resources/read', bad: { contents: [{ uri: 'file:///logo.png', blob: 'data:image/png;base64,iVBORw0KGgo=' }] }, near: { contents: [{ uri: 'file:///logo.png', blob: 'iVBORw0KGgo=' }] }, says: /^contents\[0\]\.blob is not base64 \(it begins "data:image\/png;base64,iV"\)$/, typescriptOnly: true },
  { method: 'resources/read', bad: { contents: [{ uri: 'file:///a' }] }, near: { contents: [{ uri: 'file:///a', text: '' }] }, says: /neither text nor blob/ },
  { method: 'resources/read', bad: { contents: 'x' }, near: { contents: [] }, says: /^contents is a string, not an array$/ },
  // the kitchen's invalid prompt: no role, an unknown content type
  { method: 'prompts/get', bad: { messages: [{ content: { type: 'unknown_type', text: 'missing role field' } }] }, near: { messages: [{ role: 'user', content: text('ok') }] }, says: /^messages\[0\]\.role is missing$/ },
  { method: 'prompts/get', bad: { messages: [{ role: 'user', content: { type: 'unknown_type', text: 'x' } }] }, near: { messages: [{ role: 'assistant', content: { type: 'resource_link', uri: 'file:///a', name: 'a' } }] }, says: /^messages\[0\]\.content\.type "unknown_type" is no content type/ },
  { method: 'prompts/get', bad: { messages: [{ role: 'system', content: text('x') }] }, near: { description: 'd', messages: [{ role: 'user', content: { type: 'resource', resource: { uri: 'file:///a', text: 'x' } } }] }, says: /role "system" is neither/ },
  { method: 'tools/list', bad: { tools: [{ name: 'broken_tool', description: 'no inputSchema' }] }, near: { tools: [{ name: 't', inputSchema: { type: 'object' } }], nextCursor: 'c' }, says: /^tools\[0\]\.inputSchema is missing, not an object$/ },
  { method: 'tools/list', bad: { tools: [{ name: 't', inputSchema: { properties: {} } }] }, near: { tools: [{ name: 't', inputSchema: { type: 'object', properties: {} } }] }, says: /inputSchema\.type is missing, not "object"/, typescriptOnly: true },
  { method: 'tools/list', bad: { tools: [{ inputSchema: { type: 'object' } }] }, near: { tools: [] }, says: /^tools\[0\]\.name is missing$/ },
  { method: 'tools/list', bad: { tools: [{ name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'array', items: {} } }] }, near: { tools: [{ name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { items: { type: 'array' } } } }] }, says: /^tools\[0\]\.outputSchema\.type is "array", not "object"$/, typescriptOnly: true },
  { method: 'tools/list', bad: { tools: [{ name: 't', inputSchema: { type: 'object', required: 'sku' } }] }, near: { tools: [{ name: 't', inputSchema: { type: 'object', required: ['sku'] } }] }, says: /inputSchema\.required is not an array of strings/, typescriptOnly: true },
  { method: 'tools/list', bad: { tools: [{ name: 't', title: null, inputSchema: { type: 'object' } }] }, near: { tools: [{ name: 't', title: 'T', inputSchema: { type: 'object' } }] }, says: /^tools\[0\]\.title is null, not a string$/, typescriptOnly: true },
  { method: 'tools/list', bad: { tools: [{ name: 't', description: 5, inputSchema: { type: 'object' } }] }, near: { tools: [{ name: 't', description: 'five', inputSchema: { type: 'object' } }] }, says: /description is a number, not a string/ },
  { method: 'tools/list', bad: { tools: [{ name: 't', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 'yes' } }] }, near: { tools: [{ name: 't', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, title: 'x' } }] }, says: /annotations\.readOnlyHint is a string, not a boolean/, typescriptOnly: true },
  { method: 'tools/list', bad: { tools: [], nextCursor: 5 }, near: { tools: [], nextCursor: 'page-2' }, says: /^nextCursor is a number, not a string$/ },
  { method: 'prompts/list', bad: { prompts: [], nextCursor: null }, near: { prompts: [] }, says: /^nextCursor is null, not a string$/, typescriptOnly: true },
  { method: 'resources/read', bad: { contents: [{ uri: 'file:///a', text: 'x', mimeType: null }] }, near: { contents: [{ uri: 'file:///a', text: 'x', mimeType: 'text/plain' }] }, says: /mimeType is null, not a string/, typescriptOnly: true },
  // initialize (the audit's hand-written server): connect() throws in both SDKs, the Python one only past null
  { method: 'initialize', bad: { protocolVersion: '2025-11-25' }, near: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }, says: /^capabilities is missing, not an object$/ },
  { method: 'initialize', bad: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's' } }, near: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' }, instructions: 'x' }, says: /^serverInfo\.version is missing$/ },
  { method: 'initialize', bad: { protocolVersion: '2025-11-25', capabilities: { tools: null }, serverInfo: { name: 's', version: '1' } }, near: { protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 's', version: '1' } }, says: /^capabilities\.tools is null, not an object$/, typescriptOnly: true },
  { method: 'tools/list', bad: { tools: [{ name: 't', inputSchema: { type: 'object' }, annotations: { title: 7 } }] }, near: { tools: [{ name: 't', inputSchema: { type: 'object' }, annotations: { title: 'T' } }] }, says: /annotations\.title is a number, not a string/ },
  { method: 'tools/list', bad: { tools: [{ name: 't', inputSchema: { type: 'object' }, icons: [{ mimeType: 'image/png' }] }] }, near: { tools: [{ name: 't', inputSchema: { type: 'object' }, icons: [{ src: 'https://example.com/t.png', mimeType: 'image/png' }] }] }, says: /icons\[0\]\.src is missing/ },
  { method: 'tools/list', bad: { tools: [{ name: 't', inputSchema: { type: 'object' }, execution: { taskSupport: 'sometimes' } }] }, near: { tools: [{ name: 't', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } }] }, says: /execution\.taskSupport is "sometimes"/ },
  { method: 'resources/read', bad: { contents: [], _meta: 'trace-abc' }, near: { contents: [], _meta: { trace: 'abc' } }, says: /^_meta is a string, not an object$/ },
  { method: 'resources/list', bad: { resources: [{ uri: 'file:///a' }] }, near: { resources: [{ uri: 'file:///a', name: 'a' }] }, says: /^resources\[0\]\.name is missing$/ },
  { method: 'resources/templates/list', bad: { resourceTemplates: [{ uriTemplate: 5, name: 'a' }] }, near: { resourceTemplates: [{ uriTemplate: 'file:///{x}', name: 'a' }] }, says: /uriTemplate is a number, not a string/ },
  { method: 'prompts/list', bad: { prompts: [null] }, near: { prompts: [{ name: 'p' }] }, says: /^prompts\[0\] is null, not an object$/ },
];

describe('result shapes', () => {
  it.each(CASES.map((c, i) => [`${c.method} #${i}`, c] as const))('%s: the broken result is named, its near miss passes, as the TypeScript SDK\'s own schema decides', (_name, c) => {
    const off = resultShapeProblem(c.method, c.bad);
    expect(off?.text).toMatch(c.says);
    expect(off?.typescriptOnly === true).toBe(c.typescriptOnly === true);
    expect(resultShapeProblem(c.method, c.near)).toBeUndefined();
    expect(SCHEMAS[c.method]!.safeParse(c.bad).success).toBe(false);
    expect(SCHEMAS[c.method]!.safeParse(c.near).success).toBe(true);
  });

  it('a tool result\'s content blocks: each type with its fields; an unknown type, a missing field or image data that is no base64 is named', () => {
    const good = [text('a'), { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }, { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }, { type: 'resource_link', uri: 'file:///a', name: 'a' }, { type: 'resource', resource: { uri: 'file:///a', blob: 'aGk=' } }];
    expect(contentProblem(good)).toBeUndefined();
    expect(SCHEMAS['tools/call']!.safeParse({ content: good }).success).toBe(true);
    const bad: [unknown, RegExp][] = [
      [{ type: 'unknown_type', text: 'x' }, /^content\[1\]\.type "unknown_type" is no content type/],
      [{ type: 'text', text: 5 }, /^content\[1\]\.text is a number, not a string$/],
      [{ type: 'image', data: 'data:image/png;base64,iVBO', mimeType: 'image/png' }, /^content\[1\]\.data is not base64/],
      [{ type: 'image', data: 'iVBO' }, /^content\[1\]\.mimeType is missing$/],
      [{ type: 'resource', resource: { uri: 'file:///a' } }, /^content\[1\]\.resource has neither text nor blob/],
      ['plain text', /^content\[1\] is a string, not an object$/],
      [{ text: 'no type' }, /^content\[1\]\.type is missing$/],
    ];
    for (const [block, says] of bad) {
      expect(contentProblem([text('first'), block])?.text).toMatch(says);
      expect(SCHEMAS['tools/call']!.safeParse({ content: [text('first'), block] }).success).toBe(false);
    }
  });

  it('a tool result past its content array: annotations of its blocks, structuredContent and _meta, as the SDK client checks them', () => {
    const t = { type: 'text', text: 'x' };
    const cases: [Record<string, unknown>, RegExp | undefined, boolean?][] = [
      [{ content: [{ ...t, annotations: { priority: 5 } }] }, /^content\[0\]\.annotations\.priority is 5, not a number from 0 to 1$/],
      [{ content: [{ ...t, annotations: { audience: ['everyone'] } }] }, /audience is not a list of "user" and "assistant"/],
      [{ content: [{ ...t, annotations: { lastModified: 'yesterday' } }] }, /lastModified is "yesterday", not a date-time with its offset/, true],
      [{ content: [{ ...t, annotations: { lastModified: '2025-01-01T00:00:00' } }] }, /lastModified/, true],
      [{ content: [t], structuredContent: [1, 2] }, /^structuredContent is an array, not an object$/],
      [{ content: [t], structuredContent: null }, /^structuredContent is null, not an object$/, true],
      [{ content: [t], _meta: 'trace-abc' }, /^_meta is a string, not an object$/],
      [{ content: [{ ...t, annotations: { priority: 0.5, audience: ['user'], lastModified: '2025-01-01T00:00:00Z' } }], structuredContent: { a: 1 }, _meta: {} }, undefined],
    ];
    for (const [r, says, tsOnly] of cases) {
      const off = toolResultProblem(r);
      if (says === undefined) expect(off).toBeUndefined();
      else {
        expect(off?.text).toMatch(says);
        expect(off?.typescriptOnly === true).toBe(tsOnly === true);
      }
      expect(SCHEMAS['tools/call']!.safeParse(r).success).toBe(says === undefined);
    }
  });

  it('on 2026-07-28 (anyStructured) structuredContent may be any JSON value; the rest is checked as before', () => {
    const t = { type: 'text', text: 'x' };
    for (const sc of [[1, 2], null, 'text', 3, { a: 1 }]) expect(toolResultProblem({ content: [t], structuredContent: sc }, true)).toBeUndefined();
    expect(toolResultProblem({ content: [t], structuredContent: [1] }, false)?.text).toBe('structuredContent is an array, not an object');
    expect(toolResultProblem({ content: [{ type: 'nope' }], structuredContent: [1] }, true)?.text).toMatch(/^content\[0\]\.type "nope" is no content type/);
    expect(toolResultProblem({ content: [t], structuredContent: [1], _meta: 'x' }, true)?.text).toBe('_meta is a string, not an object');
  });

  it('base64 as atob() takes it: padding, whitespace; not a data: URL, a misplaced "=" or a length of 4n+1', () => {
    for (const s of ['', 'aGk=', 'aGk', 'aGVsbG8=', 'aGVs\nbG8=', 'YQ==', 'YQ']) {
      expect(isBase64(s), s).toBe(true);
      expect(() => atob(s)).not.toThrow();
    }
    for (const s of ['not-valid-base64!!!', 'data:image/png;base64,iVBO', 'a=Gk', 'aGVsb', 'YQ===']) {
      expect(isBase64(s), s).toBe(false);
      expect(() => atob(s)).toThrow();
    }
  });

  it('a method it does not check (ping, tasks/get, a custom one) has no problem, whatever its result', () => {
    for (const m of ['ping', 'tasks/get', 'acme/custom', undefined]) expect(resultShapeProblem(m, {})).toBeUndefined();
  });
});
