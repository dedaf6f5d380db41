// The eighty-fifth audit (test/real-audit85/record.mjs): four apps on one stateless server (SDK 1.32.2, v2 2.4.0 on 2026-07-28, Python 2.3.0) send the same ids with the same arguments at once through a fault hop; the report is held to observed.json.
// test/real-audit85/truth.mjs maps every view of the report to the attempt it is (the app's JSON-RPC id, conn and
// send time for a client log; the tool run its answer names for the server's) and lists each disagreement: a view
// joined to another app's, an outcome, SIDE_DIVERGENCE or UNSAFE_RETRY where the truth has none or lacks one, calls
// merged or split. One prefixed `?` is one the logs given cannot tell (the other app's log is not among them, or both
// views were streams cut after the server's head: no result on the client's side).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { triageCli } from '../helpers/triage-cli.js';
// @ts-expect-error: a plain .mjs module shared with the recorder's checks
import { judge } from './truth.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit85/', import.meta.url));
const SCENARIOS = ['v1', 'v2', 'py'];
const CLIENTS = ['a-client.ndjson', 'b-client.ndjson', 'c-client.ndjson', 'd-client.ndjson'];

interface Attempt { type: string; method: string | null; call: string; sources: { file: string; line: number }[]; findings: { code: string }[] }

/** The report on these logs of a scenario (client logs with --client, the server's with --server), judged. */
function run(scenario: string, clients: string[], server: boolean) {
  const dir = join(ROOT, scenario);
  const args = [...clients.flatMap((f) => ['--client', join(dir, f)]), ...(server ? ['--server', join(dir, 'server.ndjson')] : []), '-q'];
  const r = triageCli<Attempt>(args);
  const bad: string[] = judge(dir, [...clients, ...(server ? ['server.ndjson'] : [])], [...r.attempts, r.summary]);
  return { ...r, bad, sure: bad.filter((b) => !b.startsWith('? ')), notes: (r.summary.notes ?? []) as string[] };
}

const crossable = (notes: string[]) => notes.find((n) => /without a session \(a stateless server's\) (was|were) joined to the server's view by JSON-RPC id, method, arguments and time alone/.test(n));

describe.each(SCENARIOS)('real-audit85 %s: four apps, the same ids and arguments at once, a fault hop', (scenario) => {
  const observed = JSON.parse(readFileSync(join(ROOT, scenario, 'observed.json'), 'utf8')) as { calls: { app: string; attempts: { fault: string | null; runs: number[] }[] }[] };

  it('recorded the hard case: every app sent its first tools/call ids with the same arguments at once, and the hop faulted some', () => {
    const faults = new Set(observed.calls.flatMap((c) => c.attempts.map((a) => a.fault)));
    for (const f of ['503', '502-after', 'cut', 'pass', 'direct']) expect(faults).toContain(f);
    expect(new Set(observed.calls.map((c) => c.app))).toEqual(new Set(['A', 'B', 'C', 'D']));
  });

  it('with every log: each client view joins its own server view, outcomes, SIDE_DIVERGENCE, UNSAFE_RETRY and calls as the truth', () => {
    const r = run(scenario, CLIENTS, true);
    expect(r.sure).toEqual([]);
    // What remains is two streams cut after the server's head, crossed: the note says such joins may be.
    if (r.bad.length) expect(crossable(r.notes)).toBeDefined();
  });

  it('the apps\' logs alone: every attempt and call as the truth, and no "same traffic given twice" between two apps', () => {
    const r = run(scenario, CLIENTS, false);
    expect(r.bad).toEqual([]);
    expect(r.notes.filter((n) => n.includes('the same traffic given twice'))).toEqual([]);
  });

  it('near miss: one app\'s traffic given twice (another recorder\'s xids) is two logs of one side: said, each request once (audit 93)', () => {
    // (An exact copy is read as one log, by its recorder's xids: here each record's xid prefix is another.)
    const tmp = mkdtempSync(join(tmpdir(), 'a85-'));
    writeFileSync(join(tmp, 'c-copy.ndjson'), readFileSync(join(ROOT, scenario, 'c-client.ndjson'), 'utf8').replace(/"xid":"([0-9a-f]{4})-/g, '"xid":"x$1-'));
    const r = triageCli(['--client', join(ROOT, scenario, 'c-client.ndjson'), '--client', join(tmp, 'c-copy.ndjson'), '-q']);
    expect(((r.summary.notes ?? []) as string[]).some((n) => n.includes('are two logs of the client\'s side of the same'))).toBe(true);
    const alone = triageCli(['--client', join(ROOT, scenario, 'c-client.ndjson'), '-q']);
    expect(r.summary.attempts).toBe(alone.summary.attempts);
  });

  it.each(CLIENTS)('one app\'s log (%s) with the server\'s: what it cannot tell is said in a note', (log) => {
    const r = run(scenario, [log], true);
    // Another app's identical request is as good a fit as the app's own: where one was taken, the note says so.
    if (r.bad.some((b) => b.startsWith('? misjoined'))) expect(crossable(r.notes)).toBeDefined();
  });
});
