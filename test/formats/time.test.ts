// Unit tests for src/formats/time.ts: every timestamp shape the input formats use, zones, units by magnitude, junk.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isValidTimezone, isoTime, parseTimestamp } from '../../src/formats/time.js';

const T = Date.UTC(2026, 2, 1, 10, 0, 0, 120); // 2026-03-01T10:00:00.120Z

describe('parseTimestamp: ISO 8601', () => {
  it.each([
    ['Z (Chrome HAR, toISOString)', '2026-03-01T10:00:00.120Z', T],
    ['+00:00 (mitmproxy isoformat)', '2026-03-01T10:00:00.120000+00:00', T],
    ['local offset with nanoseconds (MCPSpy)', '2026-03-01T12:00:00.120000000+02:00', T],
    ['negative offset without colon', '2026-03-01T05:00:00.120-0500', T],
    ['space instead of T', '2026-03-01 10:00:00.120Z', T],
    ['no fraction', '2026-03-01T10:00:00Z', T - 120],
    ['one fraction digit (mcpsnoop)', '2026-03-01T10:00:00.1Z', T - 20],
    ['lowercase z', '2026-03-01T10:00:00.120z', T],
  ])('%s', (_name, input, expected) => {
    expect(parseTimestamp(input)).toBe(expected);
  });

  it('keeps microseconds and nanoseconds as a fraction of a millisecond', () => {
    expect(parseTimestamp('2026-03-01T10:00:00.120456Z')).toBeCloseTo(T + 0.456, 6);
    expect(parseTimestamp('2026-03-01T12:00:00.120456789+02:00')).toBeCloseTo(T + 0.456789, 6);
  });

  it('reads a time without zone as UTC by default', () => {
    expect(parseTimestamp('2026-03-01T10:00:00.120')).toBe(T);
    expect(parseTimestamp('2026-03-01 10:00:00.120')).toBe(T); // VS Code / Cursor output channels
  });

  it('reads a comma before the fraction (ISO 8601 allows it; Python logging\'s asctime writes it), and only there', () => {
    expect(parseTimestamp('2026-03-01 10:00:00,120')).toBe(T);
    expect(parseTimestamp('2026-03-01T12:00:00,120+02:00')).toBe(T);
    expect(parseTimestamp('2026-03-01 10:00:00,12x')).toBeUndefined();
    expect(parseTimestamp('2026-03-01 10:00,00.120')).toBeUndefined();
  });

  it('reads a time without zone in the zone given as an offset', () => {
    expect(parseTimestamp('2026-03-01T12:00:00.120', '+02:00')).toBe(T);
    expect(parseTimestamp('2026-03-01T04:30:00.120', '-05:30')).toBe(T);
  });

  it('reads a time without zone in an IANA zone, with its DST rule', () => {
    expect(parseTimestamp('2026-03-01T11:00:00.120', 'Europe/Paris')).toBe(T); // winter: UTC+1
    expect(parseTimestamp('2026-07-01T12:00:00.000', 'Europe/Paris')).toBe(Date.UTC(2026, 6, 1, 10)); // summer: UTC+2
    expect(parseTimestamp('2026-03-01T05:00:00.120', 'America/New_York')).toBe(T);
  });

  it('ignores the zone option when the text has its own zone', () => {
    expect(parseTimestamp('2026-03-01T10:00:00.120Z', 'Europe/Paris')).toBe(T);
  });

  it('returns undefined for an unknown zone name rather than guessing', () => {
    expect(parseTimestamp('2026-03-01T10:00:00', 'Mars/Olympus')).toBeUndefined();
    expect(isValidTimezone('Mars/Olympus')).toBe(false);
    expect(isValidTimezone('Europe/Paris')).toBe(true);
    expect(isValidTimezone('+05:45')).toBe(true);
  });
});

describe('parseTimestamp: epoch numbers and digit strings (unit by magnitude)', () => {
  it.each([
    ['seconds', 1772359200.12, T],
    ['milliseconds', 1772359200120, T],
    ['microseconds', 1772359200120000, T],
    ['nanoseconds', 1772359200120000000, T],
  ])('%s as a number', (_name, input, expected) => {
    expect(parseTimestamp(input)).toBeCloseTo(expected, 3);
  });

  it.each([
    ['seconds with fraction (gh-aw)', '1772359200.120', T],
    ['milliseconds', '1772359200120', T],
    ['nanoseconds (OTLP *UnixNano)', '1772359200120000000', T],
  ])('%s as a string', (_name, input, expected) => {
    expect(parseTimestamp(input)).toBeCloseTo(expected, 3);
  });

  it('keeps sub-millisecond digits of a nanosecond string exactly', () => {
    expect(parseTimestamp('1772359200120456789')).toBeCloseTo(T + 0.456789, 6);
  });
});

describe('parseTimestamp: not a time', () => {
  it.each([[''], ['yesterday'], ['2026-13-45T99:00:00Z'], ['12:00:00'], [null], [undefined], [{}], [-5], [Number.NaN], ['2026-03-01T10:00:00.12x4Z']])('%j', (input) => {
    expect(parseTimestamp(input)).toBeUndefined();
  });

  it('accepts an RFC 2822 date only when it names its zone', () => {
    expect(parseTimestamp('Sun, 01 Mar 2026 10:00:00 GMT')).toBe(T - 120);
    expect(parseTimestamp('Sun, 01 Mar 2026 10:00:00')).toBeUndefined();
  });
});

describe('isoTime', () => {
  // isoTime keeps the text up to the second of the last call: it must still write what toISOString writes.
  it('writes what Date#toISOString writes, for times in any order and at any precision', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double({ min: -8.64e15, max: 8.64e15, noNaN: true }), fc.integer({ min: 0, max: 4e12 }), fc.constantFrom(0, 999.999, 2999.9999999999995, 1e12 + 0.9999, 8.64e15)), { maxLength: 50 }), (times) => {
        for (const ms of times) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 300 },
    );
  });

  it('writes the milliseconds of consecutive times in one second', () => {
    expect([T, T + 5, T + 879.9].map(isoTime)).toEqual(['2026-03-01T10:00:00.120Z', '2026-03-01T10:00:00.125Z', '2026-03-01T10:00:00.999Z']);
    expect(isoTime(T - 120 + 1000)).toBe('2026-03-01T10:00:01.000Z');
  });

  it('has no text for a time a Date cannot hold', () => {
    expect(isoTime(undefined)).toBeUndefined();
    expect(isoTime(8.64e15 + 1)).toBeUndefined();
    expect(isoTime(Number.NaN)).toBeUndefined();
  });
});
