// Unit tests for src/read/har-document.ts: whole HAR files streamed entry by entry, with start lines, and cut or broken documents.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { harDocumentEntries, type HarDocumentInfo, type HarDocumentItem } from '../../src/read/har-document.js';
import { looksLikeHarDocument } from '../../src/read/har-head.js';
import { SAMPLES } from './helpers.js';

async function* chunked(text: string | Buffer, size: number): AsyncGenerator<Buffer> {
  const buf = Buffer.isBuffer(text) ? text : Buffer.from(text);
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

async function collect(text: string | Buffer, size = 64 * 1024, info?: HarDocumentInfo): Promise<HarDocumentItem[]> {
  const out: HarDocumentItem[] = [];
  for await (const item of harDocumentEntries(chunked(text, size), info)) out.push(item);
  return out;
}

const e = (id: number) => ({ startedDateTime: '2026-03-01T10:00:00.000Z', request: { method: 'POST', url: 'https://x/mcp', headers: [] }, response: { status: 200, headers: [] }, _id: id });

describe('looksLikeHarDocument', () => {
  it('accepts a document that starts with "log", pretty or compact, with a BOM', () => {
    expect(looksLikeHarDocument('{\n  "log": {\n    "version": "1.2"')).toBe(true);
    expect(looksLikeHarDocument('{"log":{"entries":[')).toBe(true);
    expect(looksLikeHarDocument('\ufeff  {"log":')).toBe(true);
  });
  it('rejects HAR entry lines, NDJSON records and text', () => {
    expect(looksLikeHarDocument('{"startedDateTime":"2026-03-01T10:00:00Z","request":{}}')).toBe(false);
    expect(looksLikeHarDocument('{"v":1,"kind":"exchange"}')).toBe(false);
    expect(looksLikeHarDocument('2026-02-03T09:15:02.118Z [notes] [info] ...')).toBe(false);
  });
  it('rejects a Docker json-file log line, whose first key is "log" too, with a string there', () => {
    expect(looksLikeHarDocument('{"log":"{\\"v\\":1}\\n","stream":"stdout","time":"2026-12-06T02:12:18.250684142Z"}')).toBe(false);
    expect(looksLikeHarDocument('{ "log" : "text"}')).toBe(false);
    // A head that ends before the value says nothing against a HAR.
    expect(looksLikeHarDocument('{"log":')).toBe(true);
  });
});

describe('harDocumentEntries', () => {
  it('yields each entry of the pretty-printed sample with the line it starts on, and the creator', async () => {
    const text = readFileSync(SAMPLES + 'capture.har', 'utf8');
    const info: HarDocumentInfo = { entries: 0 };
    const items = await collect(text, 100, info);
    const lines = text.split('\n');
    expect(items).toHaveLength(6);
    for (const item of items) {
      expect('value' in item).toBe(true);
      // the reported line holds the entry's opening brace, right after the previous entry (or "entries": [)
      expect(lines[item.line - 1]!.trim()).toBe('{');
      expect(lines[item.line]!.trim()).toMatch(/^"startedDateTime"/);
    }
    expect(info).toMatchObject({ creator: 'WebInspector', creatorVersion: '537.36', version: '1.2', entries: 6 });
  });

  it('gives the same entries whatever the chunk size (1 byte, multi-byte UTF-8 split across chunks)', async () => {
    const doc = JSON.stringify({ log: { version: '1.2', creator: { name: 'mitmproxy exporthar', version: '11.0' }, entries: [e(1), { ...e(2), note: 'ünïcødé ✓' }, e(3)] } }, null, 1);
    const whole = await collect(doc);
    const bytewise = await collect(doc, 1);
    expect(bytewise).toEqual(whole);
    expect(whole.map((i) => ('value' in i ? (i.value as { _id: number })._id : -1))).toEqual([1, 2, 3]);
  });

  it('reads a one-line document (all entries on line 1)', async () => {
    const items = await collect(JSON.stringify({ log: { entries: [e(1), e(2)] } }));
    expect(items.map((i) => i.line)).toEqual([1, 1]);
  });

  it('yields every complete entry of a truncated document, then one error at the break', async () => {
    const doc = JSON.stringify({ log: { entries: [e(1), e(2), e(3)] } }, null, 2);
    const cut = doc.slice(0, doc.indexOf('"_id": 3') - 10);
    const items = await collect(cut, 37);
    const values = items.filter((i) => 'value' in i);
    const errors = items.filter((i) => 'error' in i);
    expect(values).toHaveLength(2);
    expect(errors).toHaveLength(1);
    expect(items[items.length - 1]).toBe(errors[0]);
    const third = doc.split('\n').findIndex((l, i) => l.trim() === '{' && i > (values[1] as { line: number }).line - 1) + 1;
    expect((errors[0] as { error: string }).error).toMatch(new RegExp(`inside the entry that starts at line ${third}`));
    expect(errors[0]!.line).toBe(cut.split('\n').length);
  });

  it('stops at garbage in the middle, keeping what came before', async () => {
    const doc = '{"log":{"entries":[\n' + JSON.stringify(e(1)) + ',\n{"startedDateTime": nope}\n]}}';
    const items = await collect(doc, 8);
    expect(items[0]).toMatchObject({ line: 2 });
    expect(items).toHaveLength(2);
    expect('error' in items[1]!).toBe(true);
    expect(items[1]!.line).toBe(3);
  });

  it('places garbage on its own line even when the chunk is large', async () => {
    const entries = Array.from({ length: 50 }, (_, i) => JSON.stringify(e(i))).join(',\n');
    const doc = `{"log":{"entries":[\n${entries},\n{"startedDateTime": nope}\n${'\n'.repeat(30)}]}}`;
    const items = await collect(doc);
    expect(items.filter((i) => 'value' in i)).toHaveLength(50);
    expect(items[items.length - 1]).toMatchObject({ line: 52 });
  });

  it('reports an empty input', async () => {
    const items = await collect('');
    expect(items).toEqual([{ error: 'empty HAR document', line: 1 }]);
  });

  it('streams a large document without holding emitted entries (20 000 entries in small chunks)', async () => {
    const parts = ['{"log":{"version":"1.2","entries":['];
    for (let i = 0; i < 20_000; i++) parts.push((i ? ',' : '') + '\n' + JSON.stringify(e(i)));
    parts.push('\n]}}');
    let n = 0;
    let last = 0;
    for await (const item of harDocumentEntries(chunked(parts.join(''), 4096))) {
      expect('value' in item).toBe(true);
      n++;
      last = item.line;
    }
    expect(n).toBe(20_000);
    expect(last).toBe(20_001);
  });
});
