// Unit tests for src/output-schema.ts: structuredContent checked against a tool's outputSchema (the keywords it knows).
import { describe, expect, it } from 'vitest';
import { schemaViolation } from '../src/output-schema.js';

const schema = {
  type: 'object',
  properties: { count: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } }, kind: { enum: ['a', 'b'] }, when: { type: ['string', 'null'] } },
  required: ['count'],
};

describe('schemaViolation', () => {
  it('passes content that keeps the rules', () => {
    expect(schemaViolation({ count: 3, tags: ['x'], kind: 'a', when: null }, schema)).toBeUndefined();
    expect(schemaViolation({ count: 3, extra: true }, schema)).toBeUndefined(); // additionalProperties is not checked
  });

  it('names the first rule broken, with its path', () => {
    expect(schemaViolation({ count: 'three' }, schema)).toBe('structuredContent/count must be number');
    expect(schemaViolation({}, schema)).toBe("structuredContent must have required property 'count'");
    expect(schemaViolation({ count: 1, tags: ['x', 2] }, schema)).toBe('structuredContent/tags/1 must be string');
    expect(schemaViolation({ count: 1, kind: 'c' }, schema)).toBe('structuredContent/kind must be one of the allowed values');
    expect(schemaViolation({ count: 1, when: 5 }, schema)).toBe('structuredContent/when must be string or null');
    expect(schemaViolation([1], schema)).toBe('structuredContent must be object');
    expect(schemaViolation(2.5, { type: 'integer' })).toBe('structuredContent must be integer');
  });

  it('follows local $refs, anyOf/oneOf (one branch must hold) and allOf, as pydantic writes nested and optional models', () => {
    // What the Python SDK's MCPServer lists for a model with an optional nested model and a datetime field.
    const order = {
      $defs: { Parent: { type: 'object', properties: { id: { type: 'integer' }, created: { type: 'string', format: 'date-time' } }, required: ['id', 'created'] } },
      type: 'object',
      properties: { id: { type: 'integer' }, parent: { anyOf: [{ $ref: '#/$defs/Parent' }, { type: 'null' }] } },
      required: ['id'],
    };
    expect(schemaViolation({ id: 5, parent: null }, order)).toBeUndefined();
    expect(schemaViolation({ id: 5, parent: { id: 1, created: '2026-01-01T00:00:00Z' } }, order)).toBeUndefined();
    expect(schemaViolation({ id: 5, parent: { id: 1, created: '2026-01-01T00:00:00.123456+02:00' } }, order)).toBeUndefined();
    // A naive datetime (no offset) is what the TypeScript SDK 1.x client's validator refuses (-32602 from callTool).
    expect(schemaViolation({ id: 5, parent: { id: 1, created: '2026-01-01T00:00:00' } }, order)).toBe('structuredContent/parent/created must match format "date-time"');
    expect(schemaViolation({ id: 5, parent: { id: 'one', created: '2026-01-01T00:00:00Z' } }, order)).toBe('structuredContent/parent/id must be integer');
    expect(schemaViolation({ id: 5, parent: 7 }, { ...order, properties: { parent: { anyOf: [{ type: 'string' }, { type: 'boolean' }] } } })).toBe('structuredContent/parent must match a schema in anyOf');
    expect(schemaViolation({ a: 1 }, { allOf: [{ type: 'object' }, { required: ['b'] }] })).toBe("structuredContent must have required property 'b'");
    expect(schemaViolation('2026-02-30', { format: 'date' })).toBe('structuredContent must match format "date"');
    expect(schemaViolation('2024-02-29', { format: 'date' })).toBeUndefined();
  });

  it('must not: a $ref it cannot follow, a branch with keywords it does not check, or a format it does not know, is no violation', () => {
    expect(schemaViolation({ a: 1 }, { $ref: 'https://example.com/schema.json' })).toBeUndefined();
    expect(schemaViolation({ a: 1 }, { $ref: '#/$defs/Missing' })).toBeUndefined();
    expect(schemaViolation('x', { anyOf: [{ type: 'number' }, { pattern: '^y' }] })).toBeUndefined();
    expect(schemaViolation('not an email', { format: 'email' })).toBeUndefined();
    expect(schemaViolation(12, { format: 'date-time' })).toBeUndefined(); // format applies to strings only
    // A model that refers to itself stops at the depth limit, without a verdict.
    const node: Record<string, unknown> = { $defs: { N: { type: 'object', properties: { next: { $ref: '#/$defs/N' } } } }, $ref: '#/$defs/N' };
    let v: Record<string, unknown> = {};
    for (let i = 0; i < 50; i++) v = { next: v };
    expect(schemaViolation(v, node)).toBeUndefined();
  });

  it('does not judge what it cannot read: no schema, unknown types and keywords, or nesting past its depth', () => {
    expect(schemaViolation({ a: 1 }, undefined)).toBeUndefined();
    expect(schemaViolation({ a: 1 }, { type: 'object', properties: { a: { type: 'weird' } } })).toBeUndefined();
    expect(schemaViolation({ a: 1 }, { type: 'object', properties: { a: { minimum: 5 } } })).toBeUndefined();
    let deep: Record<string, unknown> = { type: 'number' };
    let value: unknown = 'x';
    for (let i = 0; i < 40; i++) {
      deep = { type: 'object', properties: { n: deep } };
      value = { n: value };
    }
    expect(schemaViolation(value, deep)).toBeUndefined();
  });
});
