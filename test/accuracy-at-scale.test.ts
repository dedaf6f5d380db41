// The windowed join at scale: the benchmark generator's traffic (2,000 sessions interleaved, retries, cut streams, timeouts, broken lines) analysed end to end, every tools/call attempt held to the generator's truth.ndjson.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from './helpers/triage-cli.js';

const ROOT = new URL('../', import.meta.url).pathname;
interface Check { attempts: number; calls: number; wrongAttempts: number; wrongCalls: number; alikeCalls: number; mismatches: Record<string, string[]> }
const { checkTruth, withinBroken } = (await import(join(ROOT, 'bench/check-truth.mjs'))) as {
  checkTruth: (truth: string, report: Readable, o?: { identity: string }) => Promise<Check>;
  withinBroken: (r: Check, broken: number) => boolean;
};

let dir: string;
let manifest: { files: Record<string, { broken: number }>; truthLines: number };
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-triage-accuracy-'));
  execFileSync(process.execPath, [join(ROOT, 'bench/generate.mjs'), '--size', '10mb', '--seed', '2', '--out', dir]);
  manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function report(client: string, server: string): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, '--format', 'ndjson', '--client', join(dir, client), '--server', join(dir, server)], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('error', fail).on('close', () => done(out));
  });
}
const broken = (client: string, server: string) => manifest.files[client]!.broken + manifest.files[server]!.broken;

describe('accuracy on the generated traffic', () => {
  for (const [format, client, server, identity] of [['canonical', 'client.ndjson', 'server.ndjson', 'client'], ['HAR lines', 'client.har.ndjson', 'server.har.ndjson', 'user-agent']] as const) {
    it(`classifies and links every tools/call attempt of the ${format} pair as made, but for what its broken lines spoil`, async () => {
      const r = await checkTruth(join(dir, 'truth.ndjson'), Readable.from([await report(client, server)]), { identity });
      expect(r.attempts).toBe(manifest.truthLines);
      expect(r.attempts).toBeGreaterThan(1500);
      expect(r.mismatches.missing).toEqual([]);
      expect(withinBroken(r, broken(client, server)), JSON.stringify(r.mismatches, null, 1)).toBe(true);
      // No call is linked across clients the input tells apart.
      expect(r.mismatches.call.filter((m) => m.includes('joined'))).toEqual([]);
    }, 60_000);
  }

  it('catches a report that classifies or links otherwise (the check can fail)', async () => {
    const lines = (await report('client.ndjson', 'server.ndjson')).split('\n');
    const calls = lines.map((l, i) => [l, i] as const).filter(([l]) => l.includes('"method":"tools/call"') && l.includes('"outcome":"TOOL_SUCCESS"') && l.includes('"attempt":1,'));
    const [flip, relink] = [calls[10]!, calls[20]!];
    lines[flip[1]] = flip[0].replace('"outcome":"TOOL_SUCCESS"', '"outcome":"TOOL_ERROR"');
    const other = /"call":"(c\d+)"/.exec(calls[30]![0])![1];
    lines[relink[1]] = relink[0].replace(/"call":"c\d+","attempt":1,/, `"call":"${other}","attempt":2,`);
    const r = await checkTruth(join(dir, 'truth.ndjson'), Readable.from([lines.join('\n')]), { identity: 'client' });
    expect(r.mismatches.outcome.some((m) => m.includes('TOOL_ERROR, made TOOL_SUCCESS'))).toBe(true);
    expect(r.mismatches.attempt.some((m) => m.includes('attempt 2, made 1'))).toBe(true);
    expect(r.mismatches.call.some((m) => m.includes('joined'))).toBe(true);
    expect(withinBroken(r, 0)).toBe(false);
  }, 60_000);
});
