// The chaos audit's sessions profile (test/real-chaos/record.mjs --profile sessions SEED): the same harness, with the
// fault hop also on initialize, notifications/initialized and tools/list (503, or the socket reset before any
// response), tools/call sockets reset before any response (before forwarding, or after the tool ran), and sessions
// lost under load (the server forgets the session and answers 404 itself); the app reconnects (a new client, a new
// session) after a failed connect or a 404, then retries. Checked automatically against observed.json in every view.
// The v2-sessions-seed-N folders: the same (`record.mjs --sdk v2 --profile sessions SEED`) with the v2 packages (client
// and server 2.4.0, 2025-11-25): an HTTP error there is an SdkHttpError whose status the recorder keeps in `status`.
//
// What the SDK caller got -> the attempt's outcome (client, proxy, HAR and joined views):
//   result                                  -> SUCCESS (initialize, tools/list) / TOOL_SUCCESS (tools/call)
//   StreamableHTTPError 503 / 404           -> HTTP_ERROR with that status (a 404 to a session id: SESSION_EXPIRED)
//   (v2: SdkHttpError CLIENT_HTTP_NOT_IMPLEMENTED with that status -> the same)
//   TypeError fetch failed (other side closed: the socket reset) -> NO_RESPONSE
// In the server's log alone: a 503 or a reset before forwarding is absent; a reset after the tool ran is TOOL_SUCCESS;
// the 404 is the server's own answer, HTTP_ERROR there too.
// The app's connect loop is a retry loop of its own (up to 8 tries, each a new Client, 0.2 s apart: no backoff).
// RETRY_POLICY is true there, and only there, where observed.connects says so: "retry N exceeds" on the 4th and later
// try of one connect step (initialize, tools/list) in a run of the app's connect tries (required in every view that
// has all the tries), "retry N waited …, less than the … before it" on a 3rd or later try when the app's waits before
// its last two tries did not grow (its constant 0.2 s: the wire's gaps shrink when the first one read long on a
// loaded start). Seeds 23, 24 and 43 (the eightieth audit) have both; v2 seed 46 five initialize tries after a 404.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { linkProblems, unsafeRetryWanted, onceProblems, GZ_VIEWS, unsafeTool } from '../helpers/chaos.js';

type Result = Awaited<ReturnType<typeof analyze>>;
type Attempt = Result['attempts'][number];
type Side = 'client' | 'server';
type Post = { method: string; id?: number; session: string | null; fault: string; tag: string };
type Got = { ok: boolean; error?: { code?: number | string; status?: number; cause?: string } };
type Obs = {
  tools: Record<string, { readOnlyHint?: boolean; idempotentHint?: boolean }>;
  connects: ({ client: string; n: number; posts: Post[]; retryDelayMs?: number } & Got)[];
  calls: { client: string; key: string; tool: string; noted: boolean; ran: number; attempts: ({ n: number; posts: Post[]; reconnected?: number } & Got)[] }[];
};

const SEEDS = ['sessions-seed-3', 'sessions-seed-4', 'sessions-seed-23', 'sessions-seed-24', 'v2-sessions-seed-41', 'v2-sessions-seed-42', 'v2-sessions-seed-43', 'v2-sessions-seed-44', 'v2-sessions-seed-46'];
const ROOT = fileURLToPath(new URL('../fixtures/real-chaos/', import.meta.url));
const VIEWS = GZ_VIEWS;
const RAN = new Set(['pass', 'delay', 'reset-after']);
/** The default retry policy analyze() judges by (--max-retries 2). */
const MAX_RETRIES = 2;

function expected(method: string, fault: string, view: string): string | undefined {
  const ok = method === 'tools/call' ? 'TOOL_SUCCESS' : 'SUCCESS';
  if (view === 'server') return fault === '503' || fault === 'reset' ? undefined : fault === '404' ? 'HTTP_ERROR' : ok;
  return ({ pass: ok, delay: ok, '503': 'HTTP_ERROR', '404': 'HTTP_ERROR', reset: 'NO_RESPONSE', 'reset-after': 'NO_RESPONSE' } as Record<string, string>)[fault];
}
/** The HTTP status the caller's error carried: 1.32.2's StreamableHTTPError code, or the v2 SdkHttpError's `status`. */
function statusOf(a: Got): number | undefined {
  return typeof a.error?.code === 'number' ? a.error.code : a.error?.status;
}
function sdkClass(method: string, a: Got): string {
  if (a.ok) return method === 'tools/call' ? 'TOOL_SUCCESS' : 'SUCCESS';
  if (statusOf(a) === 503 || statusOf(a) === 404) return 'HTTP_ERROR';
  if (a.error?.cause === 'other side closed') return 'NO_RESPONSE';
  return `? ${JSON.stringify(a.error)}`;
}

const kinds = new Set<string>();
for (const seed of SEEDS) {
  const o = JSON.parse(readFileSync(`${ROOT}${seed}/observed.json`, 'utf8')) as Obs;
  // Every request the app sent (initialize, tools/list, tools/call) with the session it belongs to (an initialize: the
  // session its response gave, which the following notification carried; none when it failed), its fault, and what the
  // SDK caller got for it.
  const reqs: { at: string; client: string; method: string; id: number; session: string | null; fault: string; sdk: string; call?: Obs['calls'][number]; n?: number; post?: Post }[] = [];
  const refusedNotif = new Set<string>();
  const bad0: string[] = [];
  // The app's connect loop is a retry loop of its own: one client's connect tries up to the one that succeeds (each a new
  // Client and session, the app waiting `retryDelayMs` after each failure). In that run, each step's POSTs (initialize,
  // tools/list) are one chain of tries until one of them gets its answer: the k-th is retry k - 1, and the app's delay
  // before it is what it waited since the try before (its waits after every failed connect in between).
  const tryOf = new Map<Post, { k: number; delays: number[] }>();
  const chains = new Map<string, { k: number; delays: number[]; waited: number }>();
  for (const c of o.connects) {
    for (const p of c.posts) {
      if (p.method !== 'initialize' && p.method !== 'tools/list') continue;
      const key = `${c.client} ${p.method}`;
      const ch = chains.get(key);
      const now = ch ? { k: ch.k + 1, delays: [...ch.delays, ch.waited], waited: 0 } : { k: 1, delays: [], waited: 0 };
      tryOf.set(p, { k: now.k, delays: now.delays });
      if (RAN.has(p.fault)) chains.delete(key); else chains.set(key, now);
    }
    // A connect that succeeded ends the run; after a failed one the app waits before its next try (NaN: not recorded).
    for (const [key, ch] of chains) if (key.startsWith(`${c.client} `)) { if (c.ok) chains.delete(key); else ch.waited += c.retryDelayMs ?? NaN; }
  }
  for (const c of o.connects) {
    c.posts.forEach((p, i) => {
      if (p.method === 'notifications/initialized') {
        if (p.fault !== 'pass') refusedNotif.add(p.session!);
        if (p.fault !== 'pass' && (c.ok || i !== c.posts.length - 1 || statusOf(c) !== 503)) bad0.push(`${c.client} connect ${c.n}: notification ${p.fault}, connect ${JSON.stringify(c.error)}`);
        return;
      }
      // A connect stops at its first failed POST: that one is what the caller got, the ones before it succeeded.
      const last = i === c.posts.length - 1;
      const session = p.method === 'initialize' ? (c.posts[i + 1]?.session ?? null) : p.session;
      reqs.push({ at: `${c.client} connect ${c.n} ${p.method}`, client: c.client, method: p.method, id: p.id!, session, fault: p.fault, sdk: last && !c.ok ? sdkClass(p.method, c) : 'SUCCESS', post: p });
    });
  }
  const lost = new Set<string>();
  // Per lost session, what the app did next: reconnected (a new session), and the retry of the call (its fault).
  const after = new Map<string, { reconnected: boolean; later: string[] }>();
  for (const c of o.calls) for (const [i, a] of c.attempts.entries()) {
    const p = a.posts[0]!;
    if (p.fault === '404') { lost.add(p.session!); after.set(p.session!, { reconnected: a.reconnected !== undefined, later: c.attempts.slice(i + 1).map((b) => b.posts[0]!.fault) }); }
    reqs.push({ at: `${c.key}#${a.n}`, client: c.client, method: p.method, id: p.id!, session: p.session, fault: p.fault, sdk: sdkClass('tools/call', a), call: c, n: a.n });
  }

  describe(`chaos under load, session faults, ${seed}`, () => {
    it('what happened: one POST per call attempt, each fault is what the SDK caller got, the tool ran once per forwarded attempt; every kind of fault occurred', () => {
      const bad: string[] = [...bad0];
      for (const q of reqs) if (q.sdk !== expected(q.method, q.fault, 'client')) bad.push(`${q.at}: fault ${q.fault}, SDK ${q.sdk}`);
      for (const c of o.calls) {
        for (const a of c.attempts) if (a.posts.length !== 1) bad.push(`${c.key}#${a.n}: ${a.posts.length} POSTs`);
        const forwarded = c.attempts.filter((a) => RAN.has(a.posts[0]!.fault)).length;
        if (c.ran !== forwarded) bad.push(`${c.key}: ran ${c.ran}, forwarded ${forwarded}`);
      }
      expect(bad).toEqual([]);
      for (const q of reqs) kinds.add(`${q.method} ${q.fault}`);
      for (const x of refusedNotif) kinds.add(`notifications/initialized 503 ${x}`);
      expect(o.calls.filter((c) => c.attempts.some((a) => a.reconnected)).length).toBeGreaterThan(5);
    });

    for (const v of VIEWS) {
      describe(v.name, async () => {
        const r = await analyze({ inputs: v.inputs.map(([file, side]) => ({ path: `${ROOT}${seed}/${file}`, ...(side ? { side } : {}) })) });
        const rows = r.attempts.filter((a) => ['initialize', 'tools/list', 'tools/call'].includes(a.method ?? ''));
        const byKey = new Map<string, Attempt[]>();
        for (const a of rows) {
          const k = `${a.method} ${a.session ?? null} ${String(a.id)}`;
          byKey.set(k, [...(byKey.get(k) ?? []), a]);
        }
        const seen = (q: (typeof reqs)[number]) => (q.session ? byKey.get(`${q.method} ${q.session} ${q.id}`) ?? [] : []);
        const rowOf = new Map<Attempt, (typeof reqs)[number]>();
        for (const q of reqs) { const g = seen(q); if (g.length === 1) rowOf.set(g[0]!, q); }
        // An initialize that got no session (refused, reset) is found by its client's name (its clientInfo) and order:
        // the view's rows of that client without a session, in time order, are its failed initializes in order.
        const failedInit = new Map<string, (typeof reqs)[number][]>();
        for (const q of reqs) if (q.method === 'initialize' && !q.session && expected(q.method, q.fault, v.name)) failedInit.set(q.client, [...(failedInit.get(q.client) ?? []), q]);
        const noSessionRows = new Map<string, Attempt[]>();
        for (const a of rows) if (a.method === 'initialize' && !a.session) {
          const client = a.initialize?.clientInfo?.replace(/\/[^/]*$/, '') ?? '?';
          noSessionRows.set(client, [...(noSessionRows.get(client) ?? []), a]);
        }
        const connectRow = new Map<Attempt, (typeof reqs)[number]>();
        const unmatched: string[] = [];
        for (const [a, q] of rowOf) if (q.post) connectRow.set(a, q);
        for (const client of new Set([...noSessionRows.keys(), ...failedInit.keys()])) {
          const got = noSessionRows.get(client) ?? [];
          const want = failedInit.get(client) ?? [];
          if (got.length !== want.length) { unmatched.push(`${client}: ${got.length} initialize rows without a session, ${want.length} failed initializes`); continue; }
          [...got].sort((x, y) => Date.parse(x.ts ?? '') - Date.parse(y.ts ?? '')).forEach((a, i) => connectRow.set(a, want[i]!));
        }
        const rowOfPost = new Map<Post, Attempt>();
        for (const [a, q] of connectRow) rowOfPost.set(q.post!, a);
        /**
         * Why a RETRY_POLICY on this row is not true by observed.json (undefined: it is). Only a try of the app's connect loop
         * (`tryOf`) may carry one: "retry N exceeds" when that step had more tries in the run than the policy allows, "retry N
         * waited …, less than the … before it" when the app's delays before its last two tries did not grow. Every view but
         * the server's has every try, so N is the try's own retry number; the server's log has only those the hop let
         * through, so it may count fewer.
         */
        const connectPolicyProblem = (a: Attempt, message: string): string | undefined => {
          const q = connectRow.get(a);
          const t = q?.post ? tryOf.get(q.post) : undefined;
          if (!q || !t) return 'not a try of the app\'s connect loop';
          const n = Number(/retry (\d+) /.exec(message)?.[1]);
          const retryOk = v.name === 'server' ? n <= t.k - 1 : n === t.k - 1;
          if (!retryOk) return `${q.at} is try ${t.k} of its connect step`;
          if (/ exceeds the policy /.test(message)) return n > MAX_RETRIES ? undefined : `retry ${n} is within the policy`;
          if (/, less than the .* before it; the policy asks growing delays$/.test(message)) {
            const [before, last] = t.delays.slice(-2);
            return t.k >= 3 && last! <= before! ? undefined : `${q.at}: the app's delays before its last tries were ${t.delays.join(', ')} ms`;
          }
          return `${q.at}: the app waited ${t.delays.join(', ') || 'nothing'} ms`;
        };

        it('every initialize, tools/list and tools/call attempt appears once, with the outcome its fault and the SDK caller say', () => {
          // An initialize that got no session (503, reset) has nothing to find it by: those are counted per outcome.
          const { bad, noSession, gotNoSession, want } = onceProblems(reqs, (q) => expected(q.method, q.fault, v.name), seen, rows);
          expect(bad).toEqual([]);
          expect(gotNoSession).toEqual(noSession);
          expect(rows.length).toBe(want);
        });

        it("attempts of one app call are one logical call numbered in order, across the reconnect after a 404; different app calls are not linked", () => {
          const bad: string[] = [];
          const owner = new Map<string, string>();
          for (const c of o.calls) {
            const got = c.attempts.map((a) => seen({ ...a.posts[0]!, id: a.posts[0]!.id! } as never)[0]).filter((x): x is Attempt => !!x);
            if (!got.length) continue;
            // The server's log alone: an attempt reset after the tool ran is a success there, so its retry is a repeat.
            const parts = v.name === 'server' ? splitAfterSuccess(got) : [got];
            for (const part of parts) bad.push(...linkProblems(c.key, c.attempts.map((a) => a.posts[0]!.fault).join(','), part, owner));
          }
          // The app's reconnects (initialize and tools/list again, a new client) may be linked as retries, but only within
          // one app: never with another client's.
          const app = new Map<string, string>();
          for (const [row, q] of rowOf) {
            if (row.method === 'tools/call') continue;
            const prev = app.get(String(row.call));
            if (prev && prev !== q.client) bad.push(`${q.at}: linked with ${prev}'s ${row.method} (call ${row.call})`);
            app.set(String(row.call), q.client);
          }
          expect(bad).toEqual([]);
        });

        it('UNSAFE_RETRY exactly where a non-idempotent tool was retried after it ran or may have (proven with the server log joined) and nowhere else', () => {
          const bad: string[] = [];
          for (const c of o.calls) {
            c.attempts.forEach((a, i) => {
              const row = seen({ ...a.posts[0]!, id: a.posts[0]!.id! } as never)[0];
              if (!row) return;
              const f = row.findings.find((x) => x.code === 'UNSAFE_RETRY');
              const before = c.attempts.slice(0, i).map((b) => b.posts[0]!.fault);
              const want = unsafeRetryWanted(v.name, i > 0 && unsafeTool(o, c.tool), before, RAN);
              if ((f?.severity ?? undefined) !== want) bad.push(`${c.key}#${a.n} ${c.tool} after ${before.join(',')}: ${f?.severity ?? 'none'}, expected ${want ?? 'none'}`);
            });
          }
          expect(bad).toEqual([]);
        });

        it('no finding that observed.json contradicts; SESSION_EXPIRED exactly for the sessions the server lost, NOTIFICATION_REFUSED (an error) for those whose notifications/initialized was refused', () => {
          const bad: string[] = [];
          for (const a of rows) {
            const q = rowOf.get(a);
            for (const x of a.findings) {
              const at = `${a.method} ${a.tool ?? ''} ${String(a.id)} (${q?.fault}): ${x.code} ${x.message.slice(0, 200)}`;
              switch (x.code) {
                case 'UNSAFE_RETRY': case 'RETRY_POLICY': case 'RETRY_ORIGIN_AMBIGUOUS':
                  if (!a.attempt || a.attempt === 1) bad.push(`${at}: on a first attempt`);
                  // A call's retries: the app waits 0.25 s then 0.5 s (after a 404 it also reconnects before its retry:
                  // that gap is no shorter delay to compare with; it was, before the fix tested in test/calls.test.ts). The
                  // app's connect loop: see connectPolicyProblem.
                  if (x.code === 'RETRY_POLICY') {
                    const why = a.method === 'tools/call' ? "the app's delays grow (0.25 s, then 0.5 s)" : connectPolicyProblem(a, x.message);
                    if (why) bad.push(`${at}: ${why}`);
                  }
                  if (x.code === 'RETRY_ORIGIN_AMBIGUOUS' && q?.call?.noted && (v.name === 'client' || v.name === 'both')) bad.push(`${at}: the app noted this retry`);
                  break;
                case 'SIDE_DIVERGENCE':
                  if (q?.fault !== 'reset-after') bad.push(at);
                  break;
                default:
                  bad.push(at);
              }
            }
          }
          // Where a connect step was tried more often than the policy allows, every view that has all its tries says so.
          bad.push(...unmatched);
          if (v.name !== 'server') for (const [p, t] of tryOf) {
            if (t.k - 1 <= MAX_RETRIES) continue;
            const a = rowOfPost.get(p);
            if (!a?.findings.some((x) => x.code === 'RETRY_POLICY' && x.message.includes(`retry ${t.k - 1} exceeds`))) bad.push(`${p.tag} (${p.fault}): try ${t.k} of its connect step, ${a ? 'no RETRY_POLICY "exceeds"' : 'no row'}`);
          }
          const expired = new Set<string>();
          for (const x of r.findings) {
            if (x.code === 'SESSION_EXPIRED' && lost.has(x.session!)) expired.add(x.session!);
            else if (x.code === 'NOTIFICATION_REFUSED' && refusedNotif.has(x.session!)) continue;
            else bad.push(`session ${x.session}: ${x.code} ${x.message.slice(0, 200)}`);
          }
          for (const s of lost) if (!expired.has(s)) bad.push(`session ${s}: lost (404), no SESSION_EXPIRED`);
          // A refused notifications/initialized made the SDK's connect() throw: an error, the session never usable. (The
          // server's log never saw that POST: the hop answered it.)
          if (v.name !== 'server') for (const sid of refusedNotif) {
            const f = r.findings.filter((x) => x.code === 'NOTIFICATION_REFUSED' && x.session === sid);
            if (f.length !== 1 || f[0]!.severity !== 'error' || !f[0]!.message.includes('never became usable')) bad.push(`session ${sid}: notification refused: ${f.map((x) => `${x.severity} ${x.message.slice(0, 200)}`).join(' | ') || 'no NOTIFICATION_REFUSED'}`);
          }
          // What the message says the client did next: the app reconnected and retried after each 404 but a third
          // attempt's. The server's log alone sees a retry only when one was forwarded (not a 503 or a reset at the hop).
          for (const x of r.findings) {
            const a = x.code === 'SESSION_EXPIRED' ? after.get(x.session!) : undefined;
            if (!a) continue;
            const retried = a.later.some((f) => v.name !== 'server' || RAN.has(f) || f === '404');
            const want = a.reconnected ? (retried ? 'the client re-initialized and retried the call' : 'the client re-initialized but did not retry the call') : undefined;
            if (want && !x.message.includes(want)) bad.push(`session ${x.session} (then ${a.later.join(',')}): ${x.message.slice(0, 300)}; expected "${want}"`);
            if (!want && /re-initialized/.test(x.message)) bad.push(`session ${x.session}: no reconnect, yet: ${x.message.slice(0, 300)}`);
          }
          expect(bad).toEqual([]);
        });
      });
    }
  });
}

it('the seeds together have every kind of session fault', () => {
  for (const k of ['initialize 503', 'initialize reset', 'tools/list 503', 'tools/list reset', 'tools/call reset', 'tools/call reset-after', 'tools/call 404']) expect(kinds).toContain(k);
  expect([...kinds].some((k) => k.startsWith('notifications/initialized 503'))).toBe(true);
});

/** The server's log alone: split an app call's rows after each TOOL_SUCCESS (a retry after a success is a repeat there). */
function splitAfterSuccess(rows: Attempt[]): Attempt[][] {
  const out: Attempt[][] = [[]];
  for (const x of rows) {
    out[out.length - 1]!.push(x);
    if (x.outcome === 'TOOL_SUCCESS') out.push([]);
  }
  return out.filter((p) => p.length);
}
