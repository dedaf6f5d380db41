// trimOldest: a bounded map keeps the newest entries, between max and 9/8 of it, whatever order they come in.
import { describe, expect, it } from 'vitest';
import { trimOldest } from '../src/bounded.js';
import { jsonDigest } from '../src/join/fingerprint.js';

describe('trimOldest', () => {
  it('keeps every entry up to max plus an eighth, then trims back to the newest max', () => {
    const m = new Map<string, number>();
    const sizes: number[] = [];
    for (let i = 0; i < 5000; i++) {
      m.set(`k${i}`, i);
      trimOldest(m, 1000);
      sizes.push(m.size);
    }
    expect(Math.max(...sizes)).toBe(1125);
    expect(Math.min(...sizes.slice(1000))).toBe(1000);
    // The newest thousand are always there; the oldest are gone.
    for (let i = 4000; i < 5000; i++) expect(m.has(`k${i}`)).toBe(true);
    expect(m.has('k0')).toBe(false);
    expect([...m.values()]).toEqual([...m.values()].sort((a, b) => a - b));
  });

  it('takes a re-set key as new (moved to the end) and works on sets', () => {
    const s = new Set<number>();
    for (let i = 0; i < 20; i++) s.add(i);
    s.delete(0);
    s.add(0);
    trimOldest(s, 8);
    expect([...s]).toEqual([13, 14, 15, 16, 17, 18, 19, 0]);
  });

  it('leaves a map at or under its bound plus an eighth alone, and an unbounded one always', () => {
    const m = new Map<number, number>();
    for (let i = 0; i < 9; i++) m.set(i, i);
    trimOldest(m, 8);
    expect(m.size).toBe(9);
    m.set(9, 9);
    trimOldest(m, 8);
    expect([...m.keys()]).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    trimOldest(m, Infinity);
    expect(m.size).toBe(8);
  });
});

describe('jsonDigest', () => {
  const schema = { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'number', minimum: 1 } }, required: ['query'] };
  it('is the same for the same JSON parsed twice and differs for any change', () => {
    const text = JSON.stringify(schema);
    expect(jsonDigest(JSON.parse(text))).toBe(jsonDigest(JSON.parse(text)));
    expect(jsonDigest({ ...schema, required: ['limit'] })).not.toBe(jsonDigest(schema));
    expect(jsonDigest({ ...schema, properties: { ...schema.properties, limit: { type: 'number', minimum: 2 } } })).not.toBe(jsonDigest(schema));
    expect(jsonDigest(['a', 'b'])).not.toBe(jsonDigest(['ab']));
    expect(jsonDigest({ a: '1' })).not.toBe(jsonDigest({ a: 1 }));
  });
});
