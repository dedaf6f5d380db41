// The identity of "the same call" behind retry linking: what counts as the same, what does not, and signatures.
import { describe, expect, it } from 'vitest';
import { fingerprint, signatureOf } from '../../src/join/fingerprint.js';

const call = (args: unknown, extra: Record<string, unknown> = {}) => fingerprint('tools/call', 'search', { name: 'search', arguments: args, ...extra });

describe('fingerprint', () => {
  it('is the same call whatever the key order, _meta, or MRTR fields', () => {
    const base = call({ q: 'refund', filters: { status: 'open', limit: 5 } });
    expect(call({ filters: { limit: 5, status: 'open' }, q: 'refund' })).toBe(base);
    expect(call({ q: 'refund', filters: { status: 'open', limit: 5 }, _meta: { progressToken: 7 } })).toBe(base);
    expect(call({ q: 'refund', filters: { status: 'open', limit: 5 } }, { _meta: { progressToken: 'x' } })).toBe(base);
    expect(call({ q: 'refund', filters: { status: 'open', limit: 5 } }, { inputResponses: { a: 1 }, requestState: 's' })).toBe(base);
  });

  it('tells different calls apart', () => {
    const base = call({ q: 'refund' });
    expect(call({ q: 'refunds' })).not.toBe(base);
    expect(call({ q: 'refund', limit: 1 })).not.toBe(base);
    expect(fingerprint('tools/call', 'lookup', { name: 'lookup', arguments: { q: 'refund' } })).not.toBe(base);
    expect(call({ n: 1 })).not.toBe(call({ n: '1' }));
    expect(call({ list: [1, 2] })).not.toBe(call({ list: [2, 1] }));
    expect(call({ v: null })).not.toBe(call({ v: 'null' }));
    expect(call({ v: true })).not.toBe(call({ v: 'true' }));
    // Piece boundaries cannot shift: strings are length-prefixed, keys and values tagged.
    expect(call({ l: ['ab', 'c'] })).not.toBe(call({ l: ['a', 'bc'] }));
    expect(call({ a: 'bc' })).not.toBe(call({ ab: 'c' }));
    expect(call({ a: { b: 1 } })).not.toBe(call({ a: [{ b: 1 }] }));
    // _meta inside nested arguments is data, not metadata.
    expect(call({ doc: { _meta: 1 } })).not.toBe(call({ doc: {} }));
  });

  it('hashes the method apart from its parameters', () => {
    expect(fingerprint('resources/read', null, { uri: 'file:///a' })).not.toBe(fingerprint('resources/subscribe', null, { uri: 'file:///a' }));
    expect(fingerprint('resources/read', null, { uri: 'file:///a', _meta: { x: 1 } })).toBe(fingerprint('resources/read', null, { uri: 'file:///a' }));
  });

  it('survives values nested deeper than it walks', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 500; i++) deep = { d: deep };
    expect(Number.isSafeInteger(call(deep))).toBe(true);
  });
});

describe('signatureOf', () => {
  it('is equal for equal text and differs otherwise', () => {
    expect(signatureOf('2026-10-17T09:00:00Z|x1|200')).toBe(signatureOf('2026-10-17T09:00:00Z|x1|200'));
    expect(signatureOf('2026-10-17T09:00:00Z|x1|200')).not.toBe(signatureOf('2026-10-17T09:00:00Z|x1|503'));
  });
});
