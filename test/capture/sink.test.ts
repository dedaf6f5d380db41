// The capture sink on a file path: records hold request and response bodies, so a file it creates is private.
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openRecordSink } from '../../src/capture/sink.js';

describe.skipIf(process.platform === 'win32')('openRecordSink on a file path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sink-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a new file 0600 (it was 0644)', async () => {
    const out = join(dir, 'new.ndjson');
    const sink = openRecordSink(out);
    sink.write({ kind: 'request' });
    await sink.close();
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readFileSync(out, 'utf8')).toBe('{"kind":"request"}\n');
  });

  it('appends to an existing file and leaves its mode alone', async () => {
    const out = join(dir, 'old.ndjson');
    writeFileSync(out, '{"kind":"x"}\n');
    chmodSync(out, 0o644);
    const sink = openRecordSink(out);
    sink.write({ kind: 'end' });
    await sink.close();
    expect(statSync(out).mode & 0o777).toBe(0o644);
    expect(readFileSync(out, 'utf8')).toBe('{"kind":"x"}\n{"kind":"end"}\n');
  });
});
