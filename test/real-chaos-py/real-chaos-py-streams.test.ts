// Streams under load with the Python SDK (test/real-chaos-py/record.mjs --profile streams SEED): the Python server with an
// event store, 6 Python SDK (mcp 2.3.0) apps with 3 calls in flight at once on one Client, the hop cutting and resetting
// tools/call streams before their response, stalling some (the SDK's timeout sends notifications/cancelled), refusing,
// resetting or cutting the resumption GETs, refusing, cutting or resetting the standalone GETs, refusing or delaying the
// cancels, and the Python server restarted once (its own 404 for the old sessions). Checked automatically against
// observed.json in every view.
//
// What the Python caller got -> the tools/call attempt's outcome (client, proxy, HAR and joined views):
//   a result, on the POST's stream or on a resumption GET (Last-Event-ID)    -> TOOL_SUCCESS, resumed when on a GET
//   503 (the hop refused the POST): MCPError -32603                          -> HTTP_ERROR 503
//   the Python server's 404 after its restart: MCPError -32600 "Session not found" (its JSON-RPC body) -> HTTP_ERROR 404
//   MCPError -32000 "SSE stream ended and reconnection attempts were exhausted" (two resumptions failed in a row)
//                                                                            -> STREAM_INCOMPLETE, NO_FINAL_RESULT
//   MCPError -32001 "Request 'tools/call' timed out" (2 s; the SDK then sends notifications/cancelled)
//                                                                            -> STREAM_INCOMPLETE with CANCELLED, or
//     TOOL_SUCCESS resumed with CANCELLED "came after that" when the SDK's resumption still fetched the result after
//     the timeout (it resumes a stream that ends, whether or not the caller still waits)
// In the server's log alone: a 503 is absent; a stream the restart broke is STREAM_INCOMPLETE; the others TOOL_SUCCESS.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { crossedCancel } from '../helpers/crossed.js';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { linkProblems, GZ_VIEWS, unsafeTool, tagsOf } from '../helpers/chaos.js';

type Result = Awaited<ReturnType<typeof analyze>>;
type Attempt = Result['attempts'][number];
type Req = { http: string; method?: string; id?: number; session: string | null; wall: number; tag: string; status?: number; fault: string; did: string; lastEventId?: string | null; cancels?: number };
type Err = { name: string; message: string; code?: number; exceptions?: Err[] };
type Try = { n: number; posts: Req[]; gets: Req[]; doneWall: number; ok: boolean; isError?: boolean; error?: Err; reconnected?: boolean; clientDied?: boolean };
type Call = { client: string; key: string; tool: string; ran: number; attempts: Try[] };
type App = { client: string; streams: Req[]; deletes: Req[]; connects: Req[]; died?: Err[] };
type Obs = { tools: Record<string, { readOnlyHint?: boolean; idempotentHint?: boolean }>; restarts: { wall: number; upWall: number }[]; events: App[]; calls: Call[] };

const SEEDS = ['streams-seed-1', 'streams-seed-2', 'streams-seed-15', 'streams-seed-22'];
const ROOT = fileURLToPath(new URL('../fixtures/real-chaos-py/', import.meta.url));
const post = (a: Try) => a.posts.find((p) => p.method === 'tools/call')!;
const cancel = (a: Try) => a.posts.find((p) => p.method === 'notifications/cancelled');
const exhausted = (a: Try) => a.error?.code === -32000 && a.error.message === 'SSE stream ended and reconnection attempts were exhausted';
const timedOut = (a: Try) => a.error?.code === -32001 && a.error.message === "Request 'tools/call' timed out";
const notFound = (a: Try) => a.error?.code === -32600 && a.error.message === 'Session not found';
const refused = (a: Try) => a.error?.code === -32603 && a.error.message === 'Server returned an error response';
const died = (a: Try) => a.clientDied === true && a.error?.exceptions?.length === 1 && a.error.exceptions[0]!.name === 'RemoteProtocolError';
/** The restart killed the server before this POST's response head: no response at all (NO_RESPONSE), the Client died. */
const lostHeadless = (p: Req) => p.did === 'lost' && p.status === undefined;
/** A request the hop forwarded to the server (its log has it). */
const forwarded = (q: Req) => q.fault !== '503' && !(q.fault === 'reset' && q.tag.includes('#resume#'));

const kinds = new Set<string>();
for (const seed of SEEDS) {
  const o = JSON.parse(readFileSync(`${ROOT}${seed}/observed.json`, 'utf8')) as Obs;
  const apps = o.events;
  // The sessions that got a 404 (the server restarted under them), the ones whose standalone GET or cancel was refused.
  const lost = new Set<string>();
  const getRefused = new Map<string, number>();
  const cancelRefused = new Set<string>();
  for (const app of apps) {
    for (const q of [...app.streams, ...app.deletes, ...app.connects]) if (q.status === 404) lost.add(q.session!);
    for (const g of app.streams) if (g.status === 503) getRefused.set(g.session!, (getRefused.get(g.session!) ?? 0) + 1);
  }
  for (const c of o.calls) for (const a of c.attempts) for (const q of [...a.posts, ...a.gets]) {
    if (q.status === 404) lost.add(q.session!);
    if (q.method === 'notifications/cancelled' && q.status === 503) cancelRefused.add(q.session!);
  }

  describe(`streams under load with the Python SDK, ${seed}`, () => {
    it('what happened: the SDK resumed cut streams with the last event id of their own stream, timed out stalled ones and sent notifications/cancelled, ran calls at once in a session; the restart lost every session (the Python server\'s 404, MCPError -32600 "Session not found") and the app connected again', () => {
      expect(o.calls.length).toBe(72);
      expect(o.restarts.length).toBe(1);
      const bad: string[] = [];
      let overlapping = 0;
      for (const c of o.calls) for (const a of c.attempts) {
        const p = post(a);
        const at = `${c.key}#${a.n} (${p.fault}/${p.did})`;
        kinds.add(`call ${p.fault}`);
        for (const g of a.gets) {
          kinds.add(`resume ${g.fault}`);
          if (g.session !== p.session || !g.lastEventId?.startsWith(`${p.id}.`)) bad.push(`${at}: GET ${g.tag} Last-Event-ID ${g.lastEventId}`);
        }
        const cx = cancel(a);
        if (cx) kinds.add(`cancel ${cx.fault}`);
        // What the caller got is what the hop did.
        const ok = a.ok && !a.isError;
        // A POST the hop held while the server restarted got its 404 about when the caller's 2 s ran out: the caller
        // then timed out rather than got the 404 (seed 2, four times; see the session's CANCELLED).
        // The restart (SIGKILL) may catch a POST before its response head (`lost`, no status): httpx2's RemoteProtocolError
        // then ends the whole Client, and every call in flight on it (seed 22: three).
        const why = p.status === 503 ? refused(a) : p.status === 404 ? (notFound(a) && a.reconnected === true) || (timedOut(a) && !!cancel(a))
          : p.did === 'lost' && died(a) ? true
          : ['pass', 'delay', 'ended'].includes(p.did) ? ok
          : ok || exhausted(a) || timedOut(a);
        if (!why) bad.push(`${at}: got ${JSON.stringify(a.error ?? a)}`);
        // A result after a cut came on a resumption; a stalled call timed out and was cancelled.
        if (ok && ['cut', 'reset-mid'].includes(p.did) && !a.gets.some((g) => g.status === 200)) bad.push(`${at}: result without a resumption`);
        if (p.did === 'stall' && (!timedOut(a) || !cx)) bad.push(`${at}: stalled, got ${JSON.stringify(a.error)}, cancel ${!!cx}`);
        if (timedOut(a) !== !!cx) bad.push(`${at}: timed out ${timedOut(a)}, cancel ${!!cx}`);
        // Calls of one session in flight at once (another attempt's POST went out before this one ended).
        if (o.calls.some((d) => d !== c && d.attempts.some((b) => post(b).session === p.session && post(b).wall > p.wall && post(b).wall < a.doneWall))) overlapping++;
      }
      for (const app of apps) for (const g of app.streams) kinds.add(`stream ${g.fault === 'pass' && g.status === 404 ? '404' : g.fault}`);
      expect(bad).toEqual([]);
      expect(overlapping).toBeGreaterThan(20);
      // Every app's session was lost: by the server's 404, or by its Client dying under the restart (seed 22's app 6).
      const diedUnder = new Set(o.calls.flatMap((c) => c.attempts.map(post).filter(lostHeadless).map((p) => p.session!)));
      expect(new Set([...lost, ...diedUnder]).size).toBe(6);
    });

    for (const v of GZ_VIEWS) {
      describe(v.name, async () => {
        const r = await analyze({ inputs: v.inputs.map(([file, side]) => ({ path: `${ROOT}${seed}/${file}`, ...(side ? { side } : {}) })) });
        const tags = new Map<string, Map<number, string>>();
        for (const [file] of v.inputs) tags.set(`${ROOT}${seed}/${file}`, tagsOf(`${ROOT}${seed}/${file}`));
        const tagsOfRow = (a: Attempt) => new Set(a.sources.map((s) => tags.get(s.file)?.get(s.line)).filter((t): t is string => t !== undefined));
        const calls = r.attempts.filter((a) => a.method === 'tools/call');
        const byKey = new Map<string, Attempt[]>();
        for (const a of calls) byKey.set(`${a.session} ${String(a.id)}`, [...(byKey.get(`${a.session} ${String(a.id)}`) ?? []), a]);
        const rowOf = (a: Try) => byKey.get(`${post(a).session} ${post(a).id}`) ?? [];
        const obsOf = new Map<Attempt, { c: Call; a: Try }>();
        for (const c of o.calls) for (const a of c.attempts) { const g = rowOf(a); if (g.length === 1) obsOf.set(g[0]!, { c, a }); }

        it('every tools/call attempt appears once, with the outcome the Python caller got (resumed when a resumption GET brought it)', () => {
          const bad: string[] = [];
          let want = 0;
          for (const c of o.calls) for (const a of c.attempts) {
            const p = post(a);
            const got = rowOf(a);
            const at = `${c.key}#${a.n} (${p.fault}/${p.did}, ${a.gets.map((g) => `${g.fault}:${g.status}`).join(',')})`;
            let exp: string[];
            let resumed: boolean | undefined;
            if (v.name === 'server' && p.fault === '503') exp = [];
            else if (p.status === 503 || p.status === 404) exp = ['HTTP_ERROR'];
            else if (lostHeadless(p)) exp = ['NO_RESPONSE'];
            else if (v.name === 'server') exp = [p.did === 'lost' ? 'STREAM_INCOMPLETE' : 'TOOL_SUCCESS'];
            else if (a.ok) { exp = ['TOOL_SUCCESS']; resumed = a.gets.length > 0; }
            // After its timeout the SDK may still resume the stream and get the result nobody waits for.
            else if (timedOut(a)) exp = ['STREAM_INCOMPLETE', 'TOOL_SUCCESS'];
            else exp = ['STREAM_INCOMPLETE'];
            want += exp.length ? 1 : 0;
            if (got.length !== (exp.length ? 1 : 0)) { bad.push(`${at}: ${got.length} rows`); continue; }
            const x = got[0];
            if (!x) continue;
            if (!exp.includes(x.outcome)) bad.push(`${at}: ${x.outcome}, expected ${exp.join(' or ')}`);
            if (x.outcome === 'HTTP_ERROR' && x.status !== p.status) bad.push(`${at}: status ${x.status}`);
            if (resumed !== undefined && (x.resumed === true) !== resumed) bad.push(`${at}: resumed ${x.resumed}`);
            const codes = x.findings.map((f) => f.code);
            if (x.outcome === 'STREAM_INCOMPLETE' && v.name !== 'server' && !a.ok && exhausted(a) && !codes.includes('NO_FINAL_RESULT')) bad.push(`${at}: findings ${codes.join(',')}`);
            // Its resumption GETs this log has are joined to it (its sources), and nothing of another attempt, of a
            // standalone GET or of a DELETE.
            const own = tagsOfRow(x);
            // (A GET the app's hook saw that never reached the hop, fault none, as the Client closed: not required.)
            for (const g of a.gets) if (g.fault !== 'none' && (v.name !== 'server' || forwarded(g)) && !own.has(g.tag)) bad.push(`${at}: its GET ${g.tag} (${g.fault}:${g.status}) not joined`);
            for (const t of own) if (!t.startsWith(`${c.key}#${a.n}#`)) bad.push(`${at}: joined ${t}`);
            // A timed-out call whose result still came: the CANCELLED says it came after the cancellation.
            if (v.name !== 'server' && timedOut(a) && x.outcome === 'TOOL_SUCCESS' && !x.findings.some((f) => f.code === 'CANCELLED' && f.message.includes('result came after that, when the client had given up on it'))) bad.push(`${at}: late result, findings ${codes.join(',')}`);
          }
          expect(bad).toEqual([]);
          expect(calls.length).toBe(want);
        });

        it('attempts of one app call are one logical call numbered 1..n, across the reconnect after the restart; resumptions are no retries; different app calls are not linked', () => {
          const bad: string[] = [];
          const owner = new Map<string, string>();
          for (const c of o.calls) {
            const got = c.attempts.map((a) => rowOf(a)[0]).filter((x): x is Attempt => !!x);
            if (!got.length) continue;
            // The server's log alone: a retry after an attempt the server answered is a repeat there.
            const parts = v.name === 'server' ? splitAfterSuccess(got) : [got];
            const faults = c.attempts.map((a) => post(a).fault).join(',');
            for (const part of parts) bad.push(...linkProblems(c.key, faults, part, owner));
          }
          expect(bad).toEqual([]);
        });

        it('attempt findings observed.json bears out: CANCELLED exactly where the SDK sent notifications/cancelled (in the server\'s log: where it came), NO_FINAL_RESULT only where the caller got no result, UNSAFE_RETRY only on a retry of an unsafe tool after an attempt that reached the server', () => {
          const bad: string[] = [];
          for (const x of calls) {
            const q = obsOf.get(x);
            if (!q) { bad.push(`${x.tool} ${String(x.id)}: not in observed.json`); continue; }
            const at = `${q.c.key}#${q.a.n} (${post(q.a).fault}/${post(q.a).did})`;
            // The client's views: CANCELLED on the attempt where the SDK cancelled it; after a 404 (the request had
            // ended) a session's CANCELLED says so instead, unless the cancellation's record came within 50 ms of the
            // 404 (seed 2 has one: then on the attempt), see the session test. The server's log: only where the
            // cancellation reached it (the new server answered 404 to those of the old sessions) while the request was
            // open there (a stalled call's result had gone out before: nothing).
            const cx = cancel(q.a);
            const has = x.findings.some((f) => f.code === 'CANCELLED');
            if (v.name !== 'server' && post(q.a).status !== 404 && has !== !!cx) bad.push(`${at}: CANCELLED ${has}, cancel ${cx?.fault}:${cx?.status}`);
            if (has && !cx) bad.push(`${at}: CANCELLED, no cancel`);
            if (v.name === 'server' && has && !(cx && forwarded(cx) && (cx.status === 202 || cx.status === 404))) bad.push(`${at}: CANCELLED, cancel ${cx?.fault}:${cx?.status}`);
            const i = q.c.attempts.indexOf(q.a);
            for (const f of x.findings) {
              const what = `${at}: ${f.code} ${f.severity} ${f.message.slice(0, 240)}`;
              switch (f.code) {
                case 'CANCELLED': break;
                case 'RETRY_ORIGIN_AMBIGUOUS':
                  if (!x.attempt || x.attempt === 1) bad.push(`${what}: on a first attempt`);
                  break;
                case 'UNSAFE_RETRY': {
                  const before = q.c.attempts.slice(0, i).map(post);
                  // (A POST the restart caught before its head reached the server too: the tool was running when it died.)
                  if (!x.attempt || x.attempt === 1 || !unsafeTool(o, q.c.tool) || !before.some((p) => p.status === 200 || lostHeadless(p))) bad.push(`${what}: not after an attempt that reached the tool`);
                  break;
                }
                case 'NO_FINAL_RESULT':
                  if (q.a.ok) bad.push(`${what}: the caller got the result`);
                  break;
                case 'SIDE_DIVERGENCE':
                  // The hop ate the result the server sent (a cut, a stall, a reset, a resumption cut or reset). In the
                  // server's log alone too, once the client resumed that stream from before the result (Last-Event-ID)
                  // and no resumption replayed it (the fourteenth audit's rule).
                  if (q.a.ok || !(v.name === 'both' || (v.name === 'server' && q.a.gets.some((g) => g.lastEventId)))) bad.push(what);
                  break;
                default:
                  bad.push(what);
              }
            }
          }
          expect(bad).toEqual([]);
        });

        it('session findings: SESSION_EXPIRED once per session the restart lost; GET_STREAM_REFUSED where a standalone GET was refused, NOTIFICATION_REFUSED where a cancel was (the client\'s views); nothing else', () => {
          const bad: string[] = [];
          const expired = new Map<string, number>();
          const gets = new Map<string, number>();
          const notif = new Set<string>();
          const late = new Set<string>();
          for (const f of r.findings) {
            if (f.code === 'SESSION_EXPIRED') expired.set(f.session!, (expired.get(f.session!) ?? 0) + 1);
            else if (f.code === 'CANCELLED' && v.name !== 'server' && f.severity === 'info') late.add(`${f.session} ${/for id (\d+) [\d.]+ s after its response \(HTTP 404\) had ended: the client had not taken that as the request's answer/.exec(f.message)?.[1]}`);
            // A cancellation the client's timeout sent after the server had sent the answer (the hop ate it): the call's.
            else if (crossedCancel(r, f)?.some((a) => obsOf.get(a)?.a.ok === false)) continue;
            else if (f.code === 'GET_STREAM_REFUSED' && v.name !== 'server') gets.set(f.session!, Number(/, (\d+) times/.exec(f.message)?.[1] ?? 1));
            else if (f.code === 'NOTIFICATION_REFUSED' && v.name !== 'server' && /notifications\/cancelled/.test(f.message)) notif.add(f.session!);
            else bad.push(`session ${f.session}: ${f.code} ${f.message.slice(0, 300)}`);
          }
          for (const s of lost) if (expired.get(s) !== 1) bad.push(`session ${s}: lost, ${expired.get(s) ?? 0} SESSION_EXPIRED`);
          for (const s of expired.keys()) if (!lost.has(s)) bad.push(`session ${s}: SESSION_EXPIRED, no 404`);
          expect(bad).toEqual([]);
          if (v.name !== 'server') {
            // A cancellation after the 404 that ended its request: a session's CANCELLED (info) that says so, or the
            // attempt's when its record came before the 404's end in this log; never both.
            const onAttempt = new Set(r.attempts.filter((a) => a.findings.some((f) => f.code === 'CANCELLED')).map((a) => `${a.session} ${String(a.id)}`));
            for (const c of o.calls) for (const a of c.attempts) {
              const k = `${post(a).session} ${post(a).id}`;
              // (Neither when it came within 50 ms of the 404 in this log: crossing it.)
              if (cancel(a) && post(a).status === 404 && late.has(k) && onAttempt.has(k)) bad.push(`${c.key}#${a.n}: cancelled after its 404, session CANCELLED ${late.has(k)}, on the attempt ${onAttempt.has(k)}`);
              late.delete(k);
            }
            expect(bad).toEqual([]);
            expect([...late]).toEqual([]);
            expect(Object.fromEntries([...gets].sort())).toEqual(Object.fromEntries([...getRefused].sort()));
            expect([...notif].sort()).toEqual([...cancelRefused].sort());
          }
        });
      });
    }
  });
}

it('the seeds together have every kind of stream fault', () => {
  for (const k of ['call pass', 'call 503', 'call cut', 'call reset-mid', 'call stall', 'resume pass', 'resume 503', 'resume reset', 'resume cut', 'cancel pass', 'cancel 503', 'cancel late', 'stream 503', 'stream cut', 'stream reset', 'stream 404']) expect(kinds).toContain(k);
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

// streams-seed-22 (the seventy-seventh audit): set_flag py22-s3-k10 stalled; the SDK timed out after 2 s and sent
// notifications/cancelled, which the hop held 1 s ("cancel late"). The Python SDK's transport sends a notification and
// waits for its answer before the next message, so the app's retry, 0.25 s later, left 6 ms after that answer, 1.02 s
// after the timeout; the next retry, 0.5 s after a 503, read as "retry 2 waited 503 ms, less than the 1023 ms before
// it" (RETRY_POLICY) in every client view. The gap held behind the cancellation's answer is no step of the app's backoff.
it('streams-seed-22: a retry the Python SDK held behind a cancellation\'s late answer is no shrinking backoff step; a retry sent well after that answer still is one', async () => {
  const d = fileURLToPath(new URL('../fixtures/real-chaos-py/streams-seed-22/', import.meta.url));
  const policy = (r: Result) => r.attempts.filter((a) => a.tool === 'set_flag' && a.id === 13 && String(a.session).startsWith('d208b7f5')).flatMap((a) => a.findings.filter((f) => f.code === 'RETRY_POLICY'));
  for (const view of ['client.ndjson.gz', 'proxy.ndjson.gz', 'capture.har.ndjson.gz']) {
    const r = await analyze({ inputs: [{ path: `${d}${view}`, ...(view === 'client.ndjson.gz' ? { side: 'client' as const } : {}) }] });
    const third = r.attempts.find((a) => a.tool === 'set_flag' && a.id === 13 && String(a.session).startsWith('d208b7f5'))!;
    expect(third).toMatchObject({ attempt: 3, outcome: 'TOOL_SUCCESS' });
    expect(policy(r)).toEqual([]);
  }
  // Near miss: the same log with the cancellation answered 300 ms sooner (its response and end records moved): the retry
  // left 0.3 s after that answer, on the app's own clock, and the shrinking step is one again.
  const lines = gunzipSync(readFileSync(`${d}client.ndjson.gz`)).toString('utf8').split('\n').map((l) => {
    if (!l.includes('"xid":"1773-262"') || l.includes('"kind":"request"')) return l;
    const rec = JSON.parse(l) as { ts: string };
    rec.ts = new Date(Date.parse(rec.ts) - 300).toISOString();
    return JSON.stringify(rec);
  });
  const dir = mkdtempSync(join(tmpdir(), 'streams-seed-22-'));
  writeFileSync(join(dir, 'client.ndjson'), lines.join('\n'));
  const moved = await analyze({ inputs: [{ path: join(dir, 'client.ndjson'), side: 'client' }] });
  expect(policy(moved).map((f) => f.message)).toEqual([expect.stringMatching(/retry 2 waited 503 ms, less than the 1023 ms before it/)]);
});
