// The evidence the crossed-answer check (ORPHAN_RESPONSE for another session's answer) reads in a tool result: which of a request's argument values it names.
import { describe, expect, it } from 'vitest';
import { argumentValues, names, namedArguments, whoseAnswer } from '../../src/findings/crossed.js';

describe('crossed answer: what a result names', () => {
  it('argument values: strings and numbers of 3 characters or more, nested, at most 8; short ones would match by chance', () => {
    expect(argumentValues({ orderId: '2002', steps: 3, stepMs: 100, label: 'eu', flag: true })).toEqual(['2002', '100']);
    expect(argumentValues({ filter: { customer: 'acme', ids: [1001, 1002] } })).toEqual(['acme', '1001', '1002']);
    expect(argumentValues({ key: 'x', value: 'y' })).toBeUndefined();
    expect(argumentValues(undefined)).toBeUndefined();
    expect(argumentValues(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, `value-${i}`])))!.length).toBe(8);
  });

  it('a value is named as a whole word: not 100 inside 1001, nor alpha inside alphabet', () => {
    expect(names('order 2002: shipped', '2002')).toBe(true);
    expect(names('"order 2002: shipped"', '2002')).toBe(true);
    expect(names('order 1001: shipped', '100')).toBe(false);
    expect(names('the alphabet', 'alpha')).toBe(false);
    expect(names('report for alpha.', 'alpha')).toBe(true);
    expect(names('saved to /tmp/a-b.txt', '/tmp/a-b.txt')).toBe(true);
  });

  it('namedArguments: the request\'s values its result names, in text blocks and embedded resources', () => {
    expect(namedArguments([{ type: 'text', text: 'order 2002: shipped' }], { orderId: '2002', note: 'rush' })).toEqual(['2002']);
    expect(namedArguments([{ type: 'text', text: 'ok' }], { key: 'theme', value: 'agent-a' })).toBeUndefined();
    expect(namedArguments([{ type: 'resource', resource: { uri: 'file:///r', text: 'report for acme' } }], { customer: 'acme' })).toEqual(['acme']);
    expect(namedArguments([{ type: 'text', text: 'x'.repeat(5000) + ' 2002' }], { orderId: '2002' })).toBeUndefined();
  });

  it('whoseAnswer: one side\'s value named and none of the other\'s; not when it names neither, or values both carried', () => {
    expect(whoseAnswer(undefined, ['2002'])).toEqual({ whose: 'b', value: '2002' });
    expect(whoseAnswer(['alpha'], undefined)).toEqual({ whose: 'a', value: 'alpha' });
    expect(whoseAnswer(undefined, undefined)).toBeUndefined();
    expect(whoseAnswer(['1001'], ['1001'])).toBeUndefined();
    expect(whoseAnswer(['1001', 'alpha'], ['1001', 'beta'])).toBeUndefined();
  });
});
