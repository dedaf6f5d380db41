// Eighth audit: a HAR written one entry per line as each exchange ends (a streaming proxy's HAR), read in start order within --order-tolerance; recorded with the SDK 1.32.2 client and server (test/fixtures/real-audit8/har-end-order).
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { toolCalls as calls } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit8/har-end-order/', import.meta.url));
const HAR = `${DIR}capture.har.ndjson`;
type Entry = { startedDateTime: string; time: number; request: { postData?: { text: string } } };
type Result = Awaited<ReturnType<typeof analyze>>;
const entries = (): Entry[] => readFileSync(HAR, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Entry);
const write = (list: Entry[]) => {
  const path = join(mkdtempSync(join(tmpdir(), 'mcpt-a8-')), 'capture.har.ndjson');
  writeFileSync(path, list.map((e) => JSON.stringify(e)).join('\n') + '\n');
  return path;
};
const codes = (r: Result) => [...r.attempts.flatMap((a) => a.findings.map((f) => `${a.tool ?? a.method}:${f.code}`)), ...r.findings.map((f) => `session:${f.code}`)].sort();

describe('a HAR whose entries are written as each exchange ends', () => {
  it('the file really is in end order: the cancelled calls come after their own cancellations and retries', () => {
    const starts = entries().map((e) => Date.parse(e.startedDateTime));
    expect(starts.some((t, i) => i > 0 && t < starts[i - 1]!)).toBe(true);
  });

  it("reads the timed-out calls as cancelled by the client, each linked to the app's retry (no NO_FINAL_RESULT, no unknown cancellation)", async () => {
    const r = await analyze({ inputs: [{ path: HAR }] });
    const c = calls(r);
    expect(c.map((a) => `${a.tool} ${a.id} ${a.outcome} ${a.call}#${a.attempt}`)).toEqual([
      'create_invoice 2 STREAM_INCOMPLETE c3#1', 'create_invoice 3 TOOL_SUCCESS c3#2', 'upsert_contact 4 STREAM_INCOMPLETE c4#1', 'upsert_contact 5 TOOL_SUCCESS c4#2',
    ]);
    expect(codes(r)).toEqual([
      'create_invoice:CANCELLED', 'create_invoice:RETRY_ORIGIN_AMBIGUOUS', 'create_invoice:UNSAFE_RETRY', 'upsert_contact:CANCELLED', 'upsert_contact:RETRY_ORIGIN_AMBIGUOUS',
    ]);
    expect(c[0]!.detail.why).toMatch(/the client cancelled it \(notifications\/cancelled\) 0\.25 s after sending it/);
    expect(r.summary.diagnostics.total).toBe(0);
  });

  it("joined to the server's log, the destructive tool's retry is a proven UNSAFE_RETRY (the server ran it twice), the idempotent one's is not", async () => {
    const r = await analyze({ inputs: [{ path: HAR, side: 'client' }, { path: `${DIR}server.ndjson`, side: 'server' }] });
    const retry = calls(r).find((a) => a.tool === 'create_invoice' && a.attempt === 2)!;
    expect(retry.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity).toBe('error');
    expect(codes(r)).not.toContain('upsert_contact:UNSAFE_RETRY');
    expect(codes(r)).not.toContain('create_invoice:NO_FINAL_RESULT');
  });

  it('must not change a HAR in start order (a DevTools export): the same report', async () => {
    const sorted = entries().sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
    const a = await analyze({ inputs: [{ path: write(sorted) }] });
    const b = await analyze({ inputs: [{ path: HAR }] });
    expect(codes(a)).toEqual(codes(b));
    expect(calls(a).map((x) => `${x.id} ${x.outcome} ${x.call}#${x.attempt}`)).toEqual(calls(b).map((x) => `${x.id} ${x.outcome} ${x.call}#${x.attempt}`));
  });

  it('must not reorder beyond --order-tolerance: an entry that started 10 s before the one above it is still a jump back in time', async () => {
    const list = entries().sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
    const i = list.findIndex((e) => e.request.postData?.text.includes('create_invoice'));
    const late = list.splice(i, 1)[0]!;
    late.startedDateTime = new Date(Date.parse(list[list.length - 1]!.startedDateTime) - 10_000).toISOString();
    list.push(late);
    const r = await analyze({ inputs: [{ path: write(list) }] });
    expect(r.summary.diagnostics.byCode['not-time-ordered']).toBe(1);
  });
});
