// Sessions lost under load with the Python SDK (test/real-chaos-py/record.mjs --profile sessions SEED): 8 concurrent
// Python SDK (mcp 2.3.0) clients, the SDK 1.32.2 server, a seeded fault hop on initialize, notifications/initialized and
// tools/list (503, or the socket reset before any response), on tools/call (the socket reset before forwarding or
// after the tool ran, the session lost: the server forgets it, as after a restart, and answers the POST itself with its
// 404, or a delay); the app connects again (a new Client, a new session) after a failed connect or a lost session and
// retries the call. Checked automatically against observed.json in every view.
//
// What the Python caller got -> the request's outcome (client, proxy, HAR and joined views):
//   a result                                                               -> SUCCESS (initialize, tools/list) / TOOL_SUCCESS
//   503 to initialize or tools/list: `async with Client(...)` or list_tools raised MCPError -32603 "Server returned
//     an error response" (in an ExceptionGroup)                            -> HTTP_ERROR 503
//   the 404 of a lost session: MCPError -32001 "Session not found" (the server's own JSON-RPC body; the SDK does not
//     re-initialize, the app does)                                         -> HTTP_ERROR 404, SESSION_EXPIRED
//   a reset: ExceptionGroup [RemoteProtocolError] ends the Client           -> NO_RESPONSE
//   503 to notifications/initialized: the SDK ignores it (a notification's error has no caller) and goes on with
//     tools/list in the same session                                       -> NOTIFICATION_REFUSED (the session went on)
// In the server's log alone: a 503 or a reset before forwarding is absent; a reset after the tool ran is TOOL_SUCCESS;
// the 404 is the server's own answer, HTTP_ERROR there too.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { linkProblems, unsafeRetryWanted, onceProblems, GZ_VIEWS, unsafeTool } from '../helpers/chaos.js';

type Result = Awaited<ReturnType<typeof analyze>>;
type Attempt = Result['attempts'][number];
type Side = 'client' | 'server';
type Post = { http: string; method: string | null; id: number | null; session: string | null; wall: number; status?: number; fault: string };
type Err = { name: string; message: string; code?: number; exceptions?: Err[] };
type Connect = { client: string; n: number; posts: Post[]; connected?: boolean; connectError?: Err; lost?: string };
type Got = { ok: boolean; isError?: boolean; error?: Err; clientDied?: boolean; reconnected?: boolean };
type Obs = {
  tools: Record<string, { readOnlyHint?: boolean; idempotentHint?: boolean }>;
  events: (Partial<Connect> & Partial<Post> & { client: string })[];
  calls: { client: string; key: string; tool: string; ran: number; attempts: ({ n: number; posts: Post[] } & Got)[] }[];
};

const SEEDS = ['sessions-seed-5', 'sessions-seed-6'];
const ROOT = fileURLToPath(new URL('../fixtures/real-chaos-py/', import.meta.url));
const VIEWS = GZ_VIEWS;
const RAN = new Set(['pass', 'delay', 'reset-after']);

function expected(method: string, fault: string, view: string): string | undefined {
  const ok = method === 'tools/call' ? 'TOOL_SUCCESS' : 'SUCCESS';
  if (view === 'server') return fault === '503' || fault === 'reset' ? undefined : fault === '404' ? 'HTTP_ERROR' : ok;
  return ({ pass: ok, delay: ok, '503': 'HTTP_ERROR', '404': 'HTTP_ERROR', reset: 'NO_RESPONSE', 'reset-after': 'NO_RESPONSE' } as Record<string, string>)[fault];
}
/** The innermost exception of what the Python caller got (the SDK wraps it in one or two ExceptionGroups). */
const leaf = (e: Err): Err => (e.exceptions?.length === 1 ? leaf(e.exceptions[0]!) : e);
/** The Python caller's view of a request, as an outcome class (the mapping above). */
function pyClass(method: string, a: Got): string {
  if (a.ok) return a.isError ? 'TOOL_ERROR' : method === 'tools/call' ? 'TOOL_SUCCESS' : 'SUCCESS';
  const e = leaf(a.error!);
  if (e.name === 'MCPError' && e.code === -32603 && e.message === 'Server returned an error response') return 'HTTP_ERROR';
  if (e.name === 'MCPError' && e.code === -32001 && e.message === 'Session not found') return 'HTTP_ERROR';
  if (e.name === 'RemoteProtocolError' && e.message === 'Server disconnected without sending a response.') return 'NO_RESPONSE';
  return `? ${JSON.stringify(a.error)}`;
}

const kinds = new Set<string>();
for (const seed of SEEDS) {
  const o = JSON.parse(readFileSync(`${ROOT}${seed}/observed.json`, 'utf8')) as Obs;
  const connects = o.events.filter((e): e is Obs['events'][number] & Connect => e.n !== undefined);
  // Every request the app sent (initialize, tools/list, tools/call) with the session it belongs to (an initialize: the
  // session its response gave, which the following notification carried; none when it failed), its fault, and what the
  // Python caller got for it.
  type Req = { at: string; client: string; method: string; id: number; session: string | null; fault: string; py: string };
  const reqs: Req[] = [];
  const refusedNotif = new Set<string>();
  const bad0: string[] = [];
  for (const c of connects) {
    c.posts.forEach((p, i) => {
      if (p.method === 'notifications/initialized') {
        if (p.fault !== 'pass') refusedNotif.add(p.session!);
        return;
      }
      // A connect stops at its first failed request: that one is what the caller got, the ones before it succeeded.
      const last = i === c.posts.length - 1;
      const session = p.method === 'initialize' ? (c.posts[i + 1]?.session ?? null) : p.session;
      const py = last && !c.connected ? pyClass(p.method!, { ok: false, error: c.connectError }) : 'SUCCESS';
      reqs.push({ at: `${c.client} connect ${c.n} ${p.method}`, client: c.client, method: p.method!, id: p.id!, session, fault: p.fault, py });
    });
  }
  const lost = new Set<string>();
  // Per lost session, what the app did next: reconnected (a new session), and the retry of the call (its faults).
  const after = new Map<string, { reconnected: boolean; later: string[] }>();
  for (const c of o.calls) for (const [i, a] of c.attempts.entries()) {
    const p = a.posts[0]!;
    if (p.fault === '404') { lost.add(p.session!); after.set(p.session!, { reconnected: a.reconnected === true, later: c.attempts.slice(i + 1).map((b) => b.posts[0]!.fault) }); }
    reqs.push({ at: `${c.key}#${a.n}`, client: c.client, method: 'tools/call', id: p.id!, session: p.session, fault: p.fault, py: pyClass('tools/call', a) });
  }

  describe(`sessions lost under load with the Python SDK, ${seed}`, () => {
    it('what happened: one POST per call attempt, each fault is what the Python caller got, the tool ran once per forwarded attempt; the app reconnected after each lost session; a refused notifications/initialized did not stop the connect', () => {
      expect(o.calls.length).toBeGreaterThanOrEqual(60);
      const bad: string[] = [...bad0];
      for (const q of reqs) if (q.py !== expected(q.method, q.fault, 'client')) bad.push(`${q.at}: fault ${q.fault}, Python ${q.py}`);
      for (const c of o.calls) {
        for (const a of c.attempts) {
          if (a.posts.length !== 1 || a.posts[0]!.method !== 'tools/call') bad.push(`${c.key}#${a.n}: POSTs ${a.posts.map((p) => p.method).join(',')}`);
          // The app reconnects exactly after a lost session (the SDK does not re-initialize by itself).
          if ((a.posts[0]!.fault === '404') !== (a.reconnected === true)) bad.push(`${c.key}#${a.n} (${a.posts[0]!.fault}): reconnected ${a.reconnected}`);
        }
        const forwarded = c.attempts.filter((a) => RAN.has(a.posts[0]!.fault)).length;
        if (c.ran !== forwarded) bad.push(`${c.key}: ran ${c.ran}, forwarded ${forwarded}`);
        // A retry after a lost session or a reset goes out on a new session.
        c.attempts.slice(1).forEach((a, i) => {
          const prev = c.attempts[i]!.posts[0]!;
          if (['404', 'reset', 'reset-after'].includes(prev.fault) && a.posts[0]!.session === prev.session) bad.push(`${c.key}#${a.n}: same session after ${prev.fault}`);
        });
      }
      // A 503 to notifications/initialized: the SDK went on with tools/list in that session.
      for (const c of connects) {
        const i = c.posts.findIndex((p) => p.method === 'notifications/initialized' && p.fault !== 'pass');
        if (i >= 0 && c.posts[i + 1]?.method !== 'tools/list') bad.push(`${c.client} connect ${c.n}: nothing after the refused notification`);
      }
      expect(bad).toEqual([]);
      for (const q of reqs) kinds.add(`${q.method} ${q.fault}`);
      if (refusedNotif.size) kinds.add('notifications/initialized 503');
      expect(lost.size).toBeGreaterThan(5);
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
        const seen = (q: { method: string; session: string | null; id: number }) => (q.session ? byKey.get(`${q.method} ${q.session} ${q.id}`) ?? [] : []);
        const rowOf = new Map<Attempt, Req>();
        for (const q of reqs) { const g = seen(q); if (g.length === 1) rowOf.set(g[0]!, q); }
        const callPost = (a: Obs['calls'][number]['attempts'][number]) => ({ method: 'tools/call', session: a.posts[0]!.session, id: a.posts[0]!.id! });

        it('every initialize, tools/list and tools/call attempt appears once, with the outcome its fault and the Python caller say', () => {
          // An initialize that got no session (503, reset) has nothing to find it by: those are counted per outcome.
          const { bad, noSession, gotNoSession, want } = onceProblems(reqs, (q) => expected(q.method, q.fault, v.name), seen, rows);
          expect(bad).toEqual([]);
          expect(gotNoSession).toEqual(noSession);
          expect(rows.length).toBe(want);
        });

        it('attempts of one app call are one logical call numbered 1..n, across the reconnect after a lost session or a reset (a new session, the same JSON-RPC id); different app calls are not linked', () => {
          const bad: string[] = [];
          const owner = new Map<string, string>();
          for (const c of o.calls) {
            const got = c.attempts.map((a) => seen(callPost(a))[0]).filter((x): x is Attempt => !!x);
            if (!got.length) continue;
            // The server's log alone: an attempt reset after the tool ran is a success there, so its retry is a repeat.
            const parts = v.name === 'server' ? splitAfterSuccess(got) : [got];
            const faults = c.attempts.map((a) => a.posts[0]!.fault).join(',');
            for (const part of parts) bad.push(...linkProblems(c.key, faults, part, owner));
          }
          // The app's reconnects (initialize and tools/list again, a new Client) may be linked as retries, but only
          // within one app: never with another client's.
          const app = new Map<string, string>();
          for (const [row, q] of rowOf) {
            if (row.method === 'tools/call') continue;
            const prev = app.get(String(row.call));
            if (prev && prev !== q.client) bad.push(`${q.at}: linked with ${prev}'s ${row.method} (call ${row.call})`);
            app.set(String(row.call), q.client);
          }
          expect(bad).toEqual([]);
        });

        it('UNSAFE_RETRY exactly where a non-idempotent tool was retried after it ran (an error with the server log joined) or may have (a warning from the client, proxy or HAR alone), and nowhere else', () => {
          const bad: string[] = [];
          for (const c of o.calls) {
            c.attempts.forEach((a, i) => {
              const row = seen(callPost(a))[0];
              if (!row) return;
              const f = row.findings.find((x) => x.code === 'UNSAFE_RETRY');
              const before = c.attempts.slice(0, i).map((b) => b.posts[0]!.fault);
              const want = unsafeRetryWanted(v.name, i > 0 && unsafeTool(o, c.tool), before, RAN);
              if ((f?.severity ?? undefined) !== want) bad.push(`${c.key}#${a.n} ${c.tool} after ${before.join(',')}: ${f?.severity ?? 'none'}, expected ${want ?? 'none'}`);
            });
          }
          expect(bad).toEqual([]);
        });

        it('no finding that observed.json contradicts; SESSION_EXPIRED exactly once per lost session, saying what the app did; NOTIFICATION_REFUSED exactly where notifications/initialized was refused, saying the session went on', () => {
          const bad: string[] = [];
          for (const a of rows) {
            const q = rowOf.get(a);
            for (const x of a.findings) {
              const at = `${a.method} ${a.tool ?? ''} ${String(a.id)} (${q?.at} ${q?.fault}): ${x.code} ${x.message.slice(0, 200)}`;
              switch (x.code) {
                case 'UNSAFE_RETRY': case 'RETRY_POLICY': case 'RETRY_ORIGIN_AMBIGUOUS':
                  if (!a.attempt || a.attempt === 1) bad.push(`${at}: on a first attempt`);
                  // The app waits 0.25 s then 0.5 s between a call's attempts, with a reconnect in the gap after a lost
                  // session or a reset: no RETRY_POLICY on a tools/call. Its connect loop does break the policy checked
                  // (at most 2 retries, growing delays): it connects again 0.2 s after each failed connect, as often as
                  // it takes. A RETRY_POLICY on an initialize or a tools/list must be what observed.json shows.
                  if (x.code === 'RETRY_POLICY' && (a.method === 'tools/call' || !connectPolicyBroken(connects, x.message, a.method!, q))) bad.push(`${at}: not what the app's delays show`);
                  break;
                case 'SIDE_DIVERGENCE':
                  if (q?.fault !== 'reset-after') bad.push(at);
                  break;
                default:
                  bad.push(at);
              }
            }
          }
          const expired = new Map<string, number>();
          for (const x of r.findings) {
            if (x.code === 'SESSION_EXPIRED' && lost.has(x.session!)) expired.set(x.session!, (expired.get(x.session!) ?? 0) + 1);
            else if (x.code === 'NOTIFICATION_REFUSED' && refusedNotif.has(x.session!) && v.name !== 'server') continue;
            else bad.push(`session ${x.session}: ${x.code} ${x.message.slice(0, 200)}`);
          }
          for (const s of lost) if (expired.get(s) !== 1) bad.push(`session ${s}: lost (404), ${expired.get(s) ?? 0} SESSION_EXPIRED`);
          // The Python SDK ignores a refused notifications/initialized and goes on in the session: no "never became
          // usable" (the TypeScript SDK's connect() throws there), a warning that names what followed. (The server's log
          // never saw that POST: the hop answered it.)
          // When its tools/list failed too (the connect failed), the session never became usable, by that failure: an
          // error that says the client went on regardless.
          if (v.name !== 'server') for (const sid of refusedNotif) {
            const f = r.findings.filter((x) => x.code === 'NOTIFICATION_REFUSED' && x.session === sid);
            const connected = connects.find((c) => c.posts[1]?.session === sid)!.connected === true;
            const ok = f.length === 1 && (connected
              ? f[0]!.severity === 'warning' && f[0]!.message.endsWith('; the session went on')
              : f[0]!.severity === 'error' && f[0]!.message.includes('the session never became usable: the client went on regardless (as the Python SDK does, which ignores that refusal), but the request sent in it afterwards failed'));
            if (!ok) bad.push(`session ${sid} (connected ${connected}): notification refused: ${f.map((x) => `${x.severity} ${x.message.slice(0, 400)}`).join(' | ') || 'no NOTIFICATION_REFUSED'}`);
          }
          // What the message says the app did next: it re-initialized (a new Client) after every lost session, and retried
          // the call unless that was its third attempt. The server's log alone sees a retry only when one was forwarded
          // (not a reset before forwarding at the hop).
          for (const x of r.findings) {
            const a = x.code === 'SESSION_EXPIRED' ? after.get(x.session!) : undefined;
            if (!a) continue;
            const retried = a.later.some((f) => v.name !== 'server' || RAN.has(f) || f === '404');
            const want = a.reconnected ? (retried ? 'the client re-initialized and retried the call' : 'the client re-initialized but did not retry the call') : undefined;
            if (want && !x.message.includes(want)) bad.push(`session ${x.session} (then ${a.later.join(',')}): ${x.message.slice(0, 300)}; expected "${want}"`);
          }
          expect(bad).toEqual([]);
        });
      });
    }
  });
}

it('the seeds together have every kind of session fault', () => {
  for (const k of ['initialize 503', 'initialize reset', 'tools/list 503', 'tools/list reset', 'tools/call reset', 'tools/call reset-after', 'tools/call 404', 'notifications/initialized 503']) expect(kinds).toContain(k);
});

/**
 * Whether a RETRY_POLICY on a connect's initialize or tools/list is what the app's connect loop did (observed.json):
 * "retry N exceeds" when N connects of the app before this one failed at that request in a row; "retry N waited X ms,
 * less than the Y ms before it" when the app sent that request in three connects in a row, the first two failed at it,
 * and on the app's own clock (its POSTs) the second gap was shorter than the first, both within 80 ms of X and Y (the
 * views time a gap from the failure, the app's clock from the POST before). `q` is the row's request when the row could
 * be found (an initialize that got no session cannot: then any of the app's connects may be the one).
 */
function connectPolicyBroken(connects: Connect[], message: string, method: string, q: { client: string; at: string } | undefined): boolean {
  const failedAt = (c: Connect) => !c.connected && c.posts[c.posts.length - 1]?.method === method;
  const sent = (c: Connect) => c.posts.find((p) => p.method === method) as (Post & { wall?: number }) | undefined;
  const exceeds = /retry (\d+) exceeds the policy/.exec(message);
  const waited = /retry \d+ waited (\d+) ms, less than the (\d+) ms before it/.exec(message);
  for (const [i, c] of connects.entries()) {
    if (q && (c.client !== q.client || !q.at.startsWith(`${c.client} connect ${c.n} `))) continue;
    if (!sent(c)) continue;
    const before: Connect[] = [];
    for (let j = i - 1; j >= 0; j--) {
      const b = connects[j]!;
      if (b.client !== c.client) continue;
      if (!failedAt(b)) break;
      before.unshift(b);
    }
    if (exceeds && before.length >= Number(exceeds[1])) return true;
    if (waited && before.length >= 2) {
      const [w0, w1, w2] = [...before.slice(-2), c].map((x) => sent(x)!.wall! * 1000);
      const d1 = w1! - w0!;
      const d2 = w2! - w1!;
      if (d2 < d1 && Math.abs(d1 - Number(waited[2])) <= 80 && Math.abs(d2 - Number(waited[1])) <= 80) return true;
    }
  }
  return false;
}

/** The server's log alone: split an app call's rows after each TOOL_SUCCESS (a retry after a success is a repeat there). */
function splitAfterSuccess(rows: Attempt[]): Attempt[][] {
  const out: Attempt[][] = [[]];
  for (const x of rows) {
    out[out.length - 1]!.push(x);
    if (x.outcome === 'TOOL_SUCCESS') out.push([]);
  }
  return out.filter((p) => p.length);
}
