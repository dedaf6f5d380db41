// The executable on a large input keeps V8's young generation at 8 MiB (V8 would double it to 32 MiB), unless Node was given a semi-space flag of its own.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from './helpers/triage-cli.js';

const ROOT = new URL('../', import.meta.url).pathname;
const MiB = 1024 * 1024;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-triage-heap-'));
  // 24 MB of generated traffic: over the 16 MiB at which the executable tunes the heap, and enough allocation for V8 to
  // grow its new space to the most it may (32 MiB on 64-bit Node 20) when left alone.
  execFileSync(process.execPath, [join(ROOT, 'bench/generate.mjs'), '--size', '24mb', '--seed', '3', '--formats', 'canonical', '--out', dir]);
  // Loaded before the executable: writes the new space's size when the process exits.
  writeFileSync(join(dir, 'new-space.mjs'), "import v8 from 'node:v8';\nprocess.on('exit', () => process.stderr.write(`NEW_SPACE ${v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size}\\n`));\n");
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The new space's size at the end of an analysis of the generated pair (or both logs piped in one), and the run's exit code. */
function newSpaceAfterRun(nodeFlags: string[], piped = false): { bytes: number; code: number | null } {
  const inputs = piped ? ['-'] : ['--client', join(dir, 'client.ndjson'), '--server', join(dir, 'server.ndjson')];
  const input = piped ? Buffer.concat([readFileSync(join(dir, 'client.ndjson')), readFileSync(join(dir, 'server.ndjson'))]) : undefined;
  const p = spawnSync(process.execPath, [...nodeFlags, '--import', join(dir, 'new-space.mjs'), BIN, '--format', 'ndjson', '--quiet', ...inputs], { encoding: 'utf8', input, maxBuffer: 256 * MiB, timeout: 120_000 });
  const m = /NEW_SPACE (\d+)/.exec(p.stderr);
  if (!m) throw new Error(`no new space size in stderr (exit ${p.status}): ${p.stderr.slice(-500)}`);
  return { bytes: Number(m[1]), code: p.status };
}

describe('the young generation on a large input', () => {
  it('stops growing at 8 MiB', () => {
    const r = newSpaceAfterRun([]);
    expect(r.code).toBe(0);
    expect(r.bytes).toBeLessThanOrEqual(8 * MiB);
  }, 120_000);

  it('stops growing at 8 MiB when the input comes from a pipe (its size unknown at the start)', () => {
    const r = newSpaceAfterRun([], true);
    expect(r.code).toBe(0);
    expect(r.bytes).toBeLessThanOrEqual(8 * MiB);
  }, 120_000);

  it("is left to V8 when Node was given a semi-space flag (here the default growth factor): it grows past 8 MiB", () => {
    const r = newSpaceAfterRun(['--semi-space-growth-factor=2']);
    expect(r.code).toBe(0);
    expect(r.bytes).toBeGreaterThan(8 * MiB);
  }, 120_000);
});
