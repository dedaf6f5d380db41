// An outside audit's captures (test/fixtures/real-capture-audit, see its README): the official SDK 1.32.2 client and
// server, recorded by recordingFetch, recordingHandler and the record proxy. What the retry-chain table and the retry
// findings say of a timeout re-sent 200 ms later, and of an app's retry after a tool error that withCallNote names.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, triageCli } from '../helpers/triage-cli.js';

const DIR = fileURLToPath(new URL('../fixtures/real-capture-audit/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt { id: number; method: string; tool: string | null; outcome: string; call: string; attempt: number; retryOrigin?: { origin: string; how: string }; findings: Finding[] }

function report(file: string, format: 'table' | 'markdown', ...more: string[]): string {
  const p = spawnSync(process.execPath, [BIN, '--format', format, '--color', 'never', ...more, `${DIR}${file}`], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, COLUMNS: '300' } });
  return p.stdout;
}

/** The retry chain of the `slow` call the client timed out at 500 ms and re-sent 200 ms later, as the table prints it. */
const slowChain = (out: string) => out.split('\n').find((l) => /tools\/call slow/.test(l) && /→/.test(l)) ?? '';

describe('the delay of a retry after a timeout runs from when the client gave up, not from the stream end', () => {
  for (const file of ['A-client.ndjson', 'B-server.ndjson', 'E-proxy.ndjson', 'F-client.ndjson']) {
    it(`${file}: the table and the Markdown report show the ~200 ms the client waited`, () => {
      for (const format of ['table', 'markdown'] as const) {
        const line = slowChain(report(file, format));
        const ms = Number(/STREAM_INCOMPLETE`? \(200\) \+(\d+) ms →/.exec(line)?.[1]);
        expect(ms, `${format}: ${line}`).toBeGreaterThanOrEqual(195);
        expect(ms, `${format}: ${line}`).toBeLessThan(260);
      }
    });
  }

  it('F-client.ndjson (the client exited without closing): the abandoned stream it cancelled is no NO_FINAL_RESULT', () => {
    const r = triageCli<Attempt>([`${DIR}F-client.ndjson`]);
    const cut = r.attempts.filter((a) => a.tool === 'slow' && a.outcome === 'STREAM_INCOMPLETE');
    expect(cut).toHaveLength(2);
    for (const a of cut) expect(a.findings.map((f) => f.code)).toEqual(['CANCELLED']);
  });

  it('RETRY_POLICY prints the delay in ms, so that a delay under the minimum never reads as the minimum', () => {
    const r = triageCli<Attempt>(['--min-retry-delay', '250', `${DIR}A-client.ndjson`]);
    const retry = r.attempts.find((a) => a.tool === 'slow' && a.attempt === 2)!;
    const msg = retry.findings.find((f) => f.code === 'RETRY_POLICY')?.message;
    expect(msg).toMatch(/^tools\/call slow: retry 1 came 2\d\d ms after the failure; the policy asks at least 250 ms \(--min-retry-delay\)$/);
  });
});

describe("an app's retry after a tool error, named with withCallNote, is linked to its call", () => {
  const flaky = (r: { attempts: Attempt[] }, key: 'A' | 'B') => r.attempts.filter((a) => a.tool === 'flaky').slice(key === 'A' ? 0 : 2, key === 'A' ? 2 : 4);

  for (const file of ['A-client.ndjson', 'F-client.ndjson']) {
    it(`${file}: flaky-A#2 (note attempt 2, call "flaky-A") is attempt 2 of flaky-A#1's call, sent by the app`, () => {
      const r = triageCli<Attempt>([`${DIR}${file}`]);
      const [first, second] = flaky(r, 'A');
      expect([first!.outcome, second!.outcome]).toEqual(['TOOL_ERROR', 'TOOL_SUCCESS']);
      expect(second!.call).toBe(first!.call);
      expect([first!.attempt, second!.attempt]).toEqual([1, 2]);
      expect(second!.retryOrigin?.origin).toBe('app');
      expect(second!.retryOrigin?.how).toMatch(/named both requests call "flaky-A", this one attempt 2/);
      // flaky is not annotated and no tools/list result was read: repeating a tool that ran is what UNSAFE_RETRY is for.
      expect(second!.findings.find((f) => f.code === 'UNSAFE_RETRY')?.message).toMatch(/^tools\/call flaky retried after TOOL_ERROR \(HTTP 200\): .*the earlier attempt got a tool error result \(isError\)/);
      expect(second!.findings.map((f) => f.code)).not.toContain('RETRY_POLICY'); // it waited 250 ms
      expect(Number((r.summary as { retries: number }).retries)).toBe(2);
    });

    it(`${file}: flaky-B, re-called after its tool error without a note, stays two calls (no note, no change)`, () => {
      const [first, second] = flaky(triageCli<Attempt>([`${DIR}${file}`]), 'B');
      expect(second!.call).not.toBe(first!.call);
      expect([first!.attempt, second!.attempt]).toEqual([1, 1]);
    });
  }

  function edited(change: (line: string) => string): string {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-notes-'));
    const path = join(dir, 'client.ndjson');
    writeFileSync(path, readFileSync(`${DIR}A-client.ndjson`, 'utf8').split('\n').map(change).join('\n'));
    return path;
  }

  it('requests the app named as different calls are never linked by their notes', () => {
    const path = edited((l) => l.replace('"attempt":2,"call":"flaky-A"', '"attempt":2,"call":"flaky-Z"'));
    const [first, second] = flaky(triageCli<Attempt>([path]), 'A');
    expect(second!.call).not.toBe(first!.call);
    expect(second!.attempt).toBe(1);
  });

  it('a request the app numbered attempt 1 starts a call of its own, even with the same note.call', () => {
    const path = edited((l) => l.replace('"attempt":2,"call":"flaky-A"', '"attempt":1,"call":"flaky-A"'));
    const [first, second] = flaky(triageCli<Attempt>([path]), 'A');
    expect(second!.call).not.toBe(first!.call);
  });
});
