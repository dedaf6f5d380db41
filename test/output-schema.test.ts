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
