// Property tests (fast-check): the format adapters, envelopes, splitters, timestamps and the HAR document reader never
// throw on hostile values, and whatever they return is valid canonical v1 or an error.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonFormat } from '../../src/formats/adapter.js';
import { harEntryFormat } from '../../src/formats/har-entry.js';
import { kongFormat } from '../../src/formats/kong.js';
import { mcpsnoopFormat } from '../../src/formats/mcpsnoop.js';
import { mcpspyFormat } from '../../src/formats/mcpspy.js';
import { otlpFormat } from '../../src/formats/otlp.js';
import { claudeDesktopFormat, splitCloudWatchLine } from '../../src/formats/text-lines.js';
import { parseTimestamp } from '../../src/formats/time.js';
import { unwrapEnvelope, unwrapPath } from '../../src/formats/unwrap.js';
import { harDocumentEntries } from '../../src/read/har-document.js';
import { CanonicalRecordSchema } from '../../src/schema/record.js';
import { sampleJson, sampleLines } from './helpers.js';

const seed = process.env.FC_SEED === 'random' ? Date.now() : Number(process.env.FC_SEED ?? 20261202);
const runs = (n: number) => ({ numRuns: n, seed });
const ctx = { file: 'hostile', line: 1 };

/** Values that break careless code: huge and unsafe numbers, NaN-ish strings, prototype keys, deep nesting. */
const nasty = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  fc.double(),
  fc.constantFrom(-9007199254740992, 1e308, -1, 0, 0.5, '', '0', '__proto__', '{', '[]', 'base64', null, [], {}, { __proto__: { polluted: 1 } }),
  fc.string(),
);

type Json = Record<string, unknown>;

/** A sample record with one field, at any depth, replaced by a nasty value. */
function mutate(base: Json): fc.Arbitrary<Json> {
  const paths: string[][] = [];
  const walk = (v: unknown, path: string[]) => {
    if (path.length > 6) return;
    if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) { paths.push([...path, k]); walk(c, [...path, k]); }
  };
  walk(base, []);
  return fc.tuple(fc.constantFrom(...paths), nasty).map(([path, value]) => {
    const copy = structuredClone(base);
    let cur: Record<string, unknown> = copy;
    for (const k of path.slice(0, -1)) cur = cur[k] as Record<string, unknown>;
    cur[path[path.length - 1]!] = value;
    return copy;
  });
}

function check(format: JsonFormat, value: Json): void {
  let detected = false;
  expect(() => { detected = format.detect(value); }).not.toThrow();
  if (!detected) return;
  const out = format.toRecords(value, ctx);
  if (!Array.isArray(out)) {
    expect(typeof out.error).toBe('string');
    return;
  }
  for (const r of out) {
    const parsed = CanonicalRecordSchema.safeParse(r);
    expect(parsed.success, `${format.name}: ${JSON.stringify(r).slice(0, 300)}`).toBe(true);
  }
}

describe('adapters on mutated sample records', () => {
  it.each([
    ['har', harEntryFormat, 'har-entries.ndjson'],
    ['mcpsnoop', mcpsnoopFormat, 'mcpsnoop.jsonl'],
    ['mcpspy', mcpspyFormat, 'mcpspy.jsonl'],
    ['otlp', otlpFormat, 'otlp-traces.jsonl'],
    ['kong', kongFormat, 'kong-file-log.jsonl'],
  ] as const)('%s never throws and returns valid records or an error', (_name, format, file) => {
    const bases = sampleJson(file);
    fc.assert(fc.property(fc.constantFrom(...bases).chain(mutate), (v) => check(format, v)), runs(2000));
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
  });

  it('envelopes and --unwrap paths never throw', () => {
    const bases = [...sampleJson('cloud-logging.jsonl'), ...sampleJson('datadog-logs-page.json'), ...sampleJson('elasticsearch-hits.json'), ...sampleJson('loki-claude-desktop.jsonl')];
    fc.assert(fc.property(fc.constantFrom(...bases).chain(mutate), fc.string(), (v, path) => {
      expect(() => unwrapEnvelope(v)).not.toThrow();
      expect(() => unwrapPath(v, path)).not.toThrow();
    }), runs(400));
  });
});

describe('text lines and timestamps', () => {
  const line = fc.oneof(fc.string(), fc.constantFrom(...sampleLines('claude-desktop-mcp-server-notes.log'), ...sampleLines('cloudwatch-tail.log')).chain((l) =>
    fc.tuple(fc.nat(l.length), fc.string()).map(([at, junk]) => l.slice(0, at) + junk + l.slice(at))));

  it('Claude Desktop and CloudWatch splitting never throw; Claude records are valid', () => {
    fc.assert(fc.property(line, (l) => {
      expect(() => splitCloudWatchLine(l)).not.toThrow();
      if (!claudeDesktopFormat.detectText(l)) return;
      const out = claudeDesktopFormat.textToRecords(l, ctx);
      if (Array.isArray(out)) for (const r of out) expect(CanonicalRecordSchema.safeParse(r).success).toBe(true);
    }), runs(1000));
  });

  it('parseTimestamp returns a finite number or undefined, for anything and any zone', () => {
    fc.assert(fc.property(fc.oneof(fc.anything(), fc.string(), fc.double(), fc.date({ noInvalidDate: true }).map((d) => d.toISOString().replace('Z', '')), fc.bigInt().map(String)), fc.option(fc.string()), (v, tz) => {
      const t = parseTimestamp(v, tz ?? undefined);
      expect(t === undefined || Number.isFinite(t)).toBe(true);
    }), runs(2000));
  });
});

describe('HAR document reader on arbitrary bytes', () => {
  it('yields entries or errors and always ends', async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 400 }), fc.string().map((s) => new TextEncoder().encode(`{"log":{"entries":[${s}`))), fc.integer({ min: 1, max: 64 }), async (bytes, size) => {
      async function* chunks() { for (let i = 0; i < bytes.length; i += size) yield Buffer.from(bytes.subarray(i, i + size)); }
      let errors = 0;
      for await (const item of harDocumentEntries(chunks())) {
        expect(item.line).toBeGreaterThanOrEqual(1);
        if ('error' in item) errors++;
      }
      expect(errors).toBeLessThanOrEqual(1);
    }), runs(300));
  });
});
