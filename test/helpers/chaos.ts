// Shared checks of the chaos audits (test/real-chaos*, against each recording's observed.json): the views, the tools' annotations, links, UNSAFE_RETRY, each attempt once, the requests' names.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { FIVE_VIEWS, type View } from './recordings.js';

/** The five views of a chaos recording, whose logs are gzipped. */
export const GZ_VIEWS: View[] = FIVE_VIEWS.map((v) => ({ name: v.name, inputs: v.inputs.map(([file, side]) => [`${file}.gz`, side] as [string, View['inputs'][number][1]]) }));

/** Whether a tool is neither read-only nor idempotent by the annotations the recording's observed.json gives. */
export const unsafeTool = (o: { tools: Record<string, { readOnlyHint?: boolean; idempotentHint?: boolean }> }, tool: string): boolean => !(o.tools[tool]!.readOnlyHint || o.tools[tool]!.idempotentHint);
/** A row as the checks read it: the logical call it was put in and its number there. */
interface Linked {
  call?: string | undefined;
  attempt?: number | undefined;
}

/**
 * What is wrong with one run of an app call's attempts (`part`, in order) as a view linked them: they should be one
 * logical call numbered 1..n, and no call may hold attempts of two app calls (`owner`: call id to app call key, filled
 * as the calls are checked). Each problem is a line naming the app call (`key`, `faults` as the message shows them).
 */
export function linkProblems(key: string, faults: string, part: Linked[], owner: Map<string, string>): string[] {
  const bad: string[] = [];
  const what = faults ? `${key} (${faults})` : key;
  const ids = new Set(part.map((x) => x.call));
  if (ids.size !== 1) bad.push(`${what}: split into ${[...ids].join(', ')}`);
  const nums = part.map((x) => x.attempt);
  if (nums.join() !== part.map((_, i) => i + 1).join()) bad.push(`${what}: attempts numbered ${nums.join()}`);
  for (const id of ids) {
    const prev = owner.get(String(id));
    if (prev && prev !== key) bad.push(`${key} linked with ${prev} (call ${id})`);
    owner.set(String(id), key);
  }
  return bad;
}

/**
 * The UNSAFE_RETRY a view should raise on a retry of an app call: none on a first attempt, on a tool that is read-only
 * or idempotent, or in the server's log alone (it cannot link a retry after a success); with both logs, an error when
 * an attempt before it ran (its fault one of `ran`); from the client, a proxy or a HAR alone, a warning when one ran or
 * may have (a reset: the view cannot tell).
 */
export function unsafeRetryWanted(view: string, retryOfUnsafeTool: boolean, before: string[], ran: ReadonlySet<string>, answeredLate = false): 'error' | 'warning' | undefined {
  if (!retryOfUnsafeTool || view === 'server') return undefined;
  if (view === 'both') return before.some((x) => ran.has(x)) ? 'error' : undefined;
  // An earlier try's result that reached the client after it gave up (its own timeout) proves the tool ran, in any view.
  if (answeredLate) return 'error';
  return before.some((x) => ran.has(x) || x === 'reset') ? 'warning' : undefined;
}

/**
 * Whether every request the apps sent (`reqs`: its name, method, fault and session) is in a view once with the
 * outcome it should have there (`expected`; undefined: the view cannot show it, as a 503 the hop answered is not in the
 * server's log), found by `seen` (its rows by session and id). A request that got no session (its initialize refused
 * or reset) has nothing to be found by: those are counted per outcome against the view's rows without a session.
 */
export function onceProblems<Q extends { at: string; fault: string; session?: string | null | undefined }>(
  reqs: Q[],
  expected: (q: Q) => string | undefined,
  seen: (q: Q) => { outcome: string; status: number | null }[],
  rows: { session: string | null; outcome: string }[],
): { bad: string[]; noSession: Record<string, number>; gotNoSession: Record<string, number>; want: number } {
  const bad: string[] = [];
  const noSession: Record<string, number> = {};
  let want = 0;
  for (const q of reqs) {
    const exp = expected(q);
    if (exp) want++;
    if (!q.session) {
      if (exp) noSession[exp] = (noSession[exp] ?? 0) + 1;
      continue;
    }
    const got = seen(q);
    if (!exp && got.length) bad.push(`${q.at} (${q.fault}): in the server's log`);
    else if (exp && got.length !== 1) bad.push(`${q.at} (${q.fault}): ${got.length} rows`);
    else if (exp && got[0]!.outcome !== exp) bad.push(`${q.at} (${q.fault}): ${got[0]!.outcome}, expected ${exp}`);
    else if (exp && exp === 'HTTP_ERROR' && got[0]!.status !== Number(q.fault)) bad.push(`${q.at}: status ${got[0]!.status}`);
  }
  const gotNoSession: Record<string, number> = {};
  for (const a of rows) if (!a.session) gotNoSession[a.outcome] = (gotNoSession[a.outcome] ?? 0) + 1;
  return { bad, noSession, gotNoSession, want };
}

/** Each line of a gzipped log (1-based) -> the x-chaos-attempt of the request it belongs to (records share their exchange's xid). */
export function tagsOf(file: string): Map<number, string> {
  const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n');
  const byXid = new Map<string, string>();
  const recs = lines.map((l) => { try { return JSON.parse(l) as Record<string, any>; } catch { return undefined; } });
  for (const r of recs) {
    const tag = r?.requestHeaders?.['x-chaos-attempt'];
    if (typeof tag === 'string' && typeof r?.xid === 'string') byXid.set(`${r.conn ?? ''}|${r.xid}`, tag);
  }
  const out = new Map<number, string>();
  recs.forEach((r, i) => {
    if (!r) return;
    const har = r.request?.headers?.find?.((h: { name: string }) => h.name === 'x-chaos-attempt')?.value;
    const tag = har ?? r.requestHeaders?.['x-chaos-attempt'] ?? (typeof r.xid === 'string' ? byXid.get(`${r.conn ?? ''}|${r.xid}`) : undefined);
    if (typeof tag === 'string') out.set(i + 1, tag);
  });
  return out;
}
