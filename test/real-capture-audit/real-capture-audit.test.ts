// An outside audit's captures (test/fixtures/real-capture-audit, see its README): the official SDK 1.32.2 client and
// server, recorded by recordingFetch, recordingHandler and the record proxy. What the retry-chain table and the retry
// findings say of a timeout re-sent 200 ms later, and of an app's retry after a tool error that withCallNote names.
import { spawnSync } from 'node:child_process';
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
    expect(msg).toMatch(/^tools\/call slow: retry 1 came 2\d\d ms after the failure; the policy asks at least 250 ms$/);
  });
});
