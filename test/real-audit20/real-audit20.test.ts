// The twentieth audit's real load (test/fixtures/real-audit20/): 150 SDK 1.32.2 sessions at once against one SDK
// server, recorded by recordingFetch; the sample is ten workers' client log over four minutes, with each client's own
// account of every attempt (retrylink-w40-49-truth.ndjson.gz).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit20/', import.meta.url));
interface Truth { kind: string; sent: boolean; session: string; id: number; call: string; attempt: number; tool: string }
const truth = (): Truth[] => gunzipSync(readFileSync(`${DIR}retrylink-w40-49-truth.ndjson.gz`)).toString().trim().split('\n').map((l) => JSON.parse(l) as Truth).filter((t) => t.kind === 'attempt' && t.sent);

describe("the SDK's own timeout, then the app's retry, in a long client log (retrylink-w40-49)", () => {
  // The SDK 1.x cancels a timed-out call (notifications/cancelled) but leaves its stream open until the session closes;
  // before, the retry reached the call linker first whenever the log went on past --window, and 60% went unlinked.
  it('every retry the clients made is linked to the attempt it repeats, and no two calls of one session are linked', async () => {
    const r = await analyze({ inputs: [{ path: `${DIR}retrylink-w40-49-client.ndjson.gz` }], onDiagnostic: () => {} });
    const callOf = new Map(r.attempts.map((a) => [`${a.session}|${String(a.id)}`, a.call]));
    const calls = new Map<string, Truth[]>();
    for (const t of truth()) calls.set(t.call, [...(calls.get(t.call) ?? []), t]);
    const retried = [...calls.values()].filter((l) => l.length > 1);
    expect(retried.length).toBeGreaterThan(250);
    for (const l of retried) for (const t of l.slice(1)) expect(callOf.get(`${t.session}|${t.id}`)).toBe(callOf.get(`${l[0]!.session}|${l[0]!.id}`));
    // Within one session, attempts the clients made as different calls are different calls here too.
    const truthCallOf = new Map(truth().map((t) => [`${t.session}|${t.id}`, t.call]));
    const bySession = new Map<string, Map<string, string>>();
    for (const a of r.attempts) {
      const tc = truthCallOf.get(`${a.session}|${String(a.id)}`);
      if (tc === undefined || a.session === null) continue;
      const m = bySession.get(a.session) ?? new Map<string, string>();
      bySession.set(a.session, m);
      const seen = m.get(a.call!);
      if (seen !== undefined) expect(seen).toBe(tc);
      else m.set(a.call!, tc);
    }
  });
});
