// Shared helpers for the format tests: run an adapter, insist its output is valid canonical v1, read sample lines.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { AdapterResult } from '../../src/formats/adapter.js';
import { CanonicalRecordSchema, type CanonicalRecord, type ExchangeRecord, type MessageRecord } from '../../src/schema/record.js';

export const SAMPLES = fileURLToPath(new URL('../../samples/formats/', import.meta.url));

/** The records of an adapter result; fails the test when it is an error or a record is not valid canonical v1. */
export function records(result: AdapterResult): CanonicalRecord[] {
  if (!Array.isArray(result)) throw new Error(`adapter error: ${result.error}`);
  for (const r of result) {
    const parsed = CanonicalRecordSchema.safeParse(r);
    expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
  }
  return result;
}

export function messages(result: AdapterResult): MessageRecord[] {
  const rs = records(result);
  for (const r of rs) expect(r.kind).toBe('message');
  return rs as MessageRecord[];
}

export function exchange(result: AdapterResult): ExchangeRecord {
  const rs = records(result);
  expect(rs).toHaveLength(1);
  expect(rs[0]!.kind).toBe('exchange');
  return rs[0] as ExchangeRecord;
}

export function errorOf(result: AdapterResult): string {
  if (Array.isArray(result)) throw new Error(`expected an error, got ${result.length} records`);
  return result.error;
}

/** Non-blank lines of a sample file. */
export function sampleLines(name: string): string[] {
  return readFileSync(SAMPLES + name, 'utf8').split('\n').filter((l) => l.trim() !== '');
}

export function sampleJson(name: string): Record<string, unknown>[] {
  return sampleLines(name).map((l) => JSON.parse(l) as Record<string, unknown>);
}
