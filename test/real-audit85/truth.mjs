// Holds mcp-triage's report (--format ndjson lines) on test/fixtures/real-audit85/<scenario>/ to its observed.json: which truth attempt each view is, joins, outcomes, calls, UNSAFE_RETRY and SIDE_DIVERGENCE; answers every disagreement.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const lines = (f) => readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/**
 * The truth behind each line of the logs given: a client log's tools/call exchange is the app's attempt with that
 * JSON-RPC id (and conn) sent at that moment; a server log's is the tool run its answer names (`<tool> run #N`).
 * Answers Map `${file}:${line}` -> truth key `<app>/<call>/<attempt>`.
 */
export function truthOfLines(dir, files) {
  const o = JSON.parse(readFileSync(join(dir, 'observed.json'), 'utf8'));
  const t0 = Date.parse(o.t0);
  const out = new Map();
  for (const f of files) {
    const recs = lines(join(dir, f));
    const byXid = new Map();
    recs.forEach((r, i) => byXid.set(r.xid, [...(byXid.get(r.xid) ?? []), i + 1]));
    const name = basename(f);
    if (name === 'server.ndjson') {
      for (const r of recs) {
        const m = r.kind === 'event' && /"text":"(\w+) run #(\d+)"/.exec(r.data ?? '');
        if (!m) continue;
        const run = o.runs.find((x) => x.n === Number(m[2]));
        for (const l of byXid.get(r.xid)) out.set(`${name}:${l}`, run.tag);
      }
      continue;
    }
    const app = name[0].toUpperCase();
    const attempts = o.calls.filter((c) => c.app === app).flatMap((c) => c.attempts.map((a) => ({ ...a, key: `${app}/${c.call}/${a.attempt}` })));
    for (const r of recs) {
      if (r.kind !== 'request' || r.send?.method !== 'tools/call') continue;
      const at = Date.parse(r.ts) - t0;
      let best;
      for (const a of attempts) {
        if (a.id !== r.send.id || (a.conn ?? null) !== (r.conn ?? null)) continue;
        const p = a.posts.find((x) => x.method === 'tools/call');
        const d = Math.abs(p.at - at);
        if (!best || d < best.d) best = { d, key: a.key };
      }
      if (best && best.d < 50) for (const l of byXid.get(r.xid)) out.set(`${name}:${l}`, best.key);
    }
  }
  return { o, out };
}

const expectedOutcome = (a) => (a.ok ? 'TOOL_SUCCESS' : a.fault === 'cut' ? 'STREAM_INCOMPLETE' : 'HTTP_ERROR');

/** Every disagreement between the report and the truth, as short strings (empty: none). */
export function judge(dir, files, reportLines) {
  files = files.map((f) => basename(f));
  const { o, out } = truthOfLines(dir, files);
  const attemptOf = new Map(o.calls.flatMap((c) => c.attempts.map((a) => [`${c.app}/${c.call}/${a.attempt}`, { ...a, app: c.app, call: c.call, tool: c.tool }])));
  const hasServer = files.includes('server.ndjson');
  const clientApps = new Set(files.filter((f) => f !== 'server.ndjson').map((f) => f[0].toUpperCase()));
  const bad = [];
  const groups = new Map();
  const seen = new Map();
  for (const r of reportLines) {
    if (r.type !== 'attempt' || r.method !== 'tools/call') continue;
    const keysOf = (side) => [...new Set(r.sources.filter((s) => (basename(s.file) === 'server.ndjson') === (side === 'server')).map((s) => out.get(`${basename(s.file)}:${s.line}`)).filter(Boolean))];
    const ck = keysOf('client');
    const sk = keysOf('server');
    const key = ck[0] ?? sk[0];
    const where = `${r.ts} id ${r.id} ${r.tool} (${ck.join('+') || '-'} | ${sk.join('+') || '-'})`;
    if (!key) { bad.push(`unknown: ${where}`); continue; }
    if (ck.length > 1 || sk.length > 1) bad.push(`one attempt, several truths: ${where}`);
    // Crossed with another app's request the logs given cannot tell from it: that app's log is not given, or both
    // were streams cut after the server's head (no result on the client's side, the same status and arguments).
    const cutBoth = (k) => attemptOf.get(k)?.fault === 'cut';
    if (ck.length && sk.length && ck[0] !== sk[0]) bad.push(`${!clientApps.has(sk[0][0]) || (cutBoth(ck[0]) && cutBoth(sk[0])) ? '? ' : ''}misjoined: client ${ck[0]} with server ${sk[0]}`);
    const a = attemptOf.get(key);
    seen.set(key, (seen.get(key) ?? 0) + 1);
    if (ck.length && !sk.length && hasServer && a.runs.length) bad.push(`client view not joined: ${key} (its run #${a.runs} is in the server log)`);
    if (!ck.length && sk.length && clientApps.has(a.app)) bad.push(`server view not joined: ${key}`);
    const want = ck.length ? expectedOutcome(a) : 'TOOL_SUCCESS';
    if (r.outcome !== want) bad.push(`outcome ${r.outcome}, truth ${want}: ${key}`);
    if (ck.length && sk.length && r.serverOutcome !== 'TOOL_SUCCESS') bad.push(`serverOutcome ${r.serverOutcome}: ${key}`);
    const codes = new Set((r.findings ?? []).map((f) => f.code));
    const div = ck.length > 0 && sk.length > 0 && (a.fault === '502-after' || a.fault === 'cut');
    if (div !== codes.has('SIDE_DIVERGENCE')) bad.push(`SIDE_DIVERGENCE ${codes.has('SIDE_DIVERGENCE') ? 'raised' : 'missing'}: ${key}`);
    // UNSAFE_RETRY: a charge attempt after an attempt of its call that ran the tool (or may have: cut, 502 after).
    const call = o.calls.find((c) => c.app === a.app && c.call === a.call);
    const before = call.attempts.filter((x) => x.attempt < a.attempt);
    const ranBefore = before.some((x) => x.runs.length > 0);
    const visibleBefore = before.some((x) => x.runs.length > 0 && (x.fault === null || x.fault === 'direct' ? false : true));
    const unsafe = codes.has('UNSAFE_RETRY');
    if (unsafe && !(a.tool === 'charge' && ranBefore)) bad.push(`UNSAFE_RETRY where no charge ran before in the call: ${key}`);
    if (!unsafe && a.tool === 'charge' && visibleBefore && (ck.length ? clientApps.has(a.app) : false)) bad.push(`UNSAFE_RETRY missing: ${key}`);
    const g = r.call;
    groups.set(g, [...(groups.get(g) ?? []), key]);
  }
  for (const [k, n] of seen) if (n > 1) bad.push(`one truth attempt reported ${n} times: ${k}`);
  const callOf = (k) => k.split('/').slice(0, 2).join('/');
  const groupsOfCall = new Map();
  for (const [g, keys] of groups) {
    const calls = new Set(keys.map(callOf));
    if (calls.size > 1) bad.push(`${[...calls].some((c) => clientApps.has(c[0])) ? '' : '? '}calls merged into one: ${[...calls].join(' + ')} (${keys.join(', ')})`);
    for (const c of calls) groupsOfCall.set(c, new Set([...(groupsOfCall.get(c) ?? []), g]));
  }
  for (const [c, gs] of groupsOfCall) if (gs.size > 1) bad.push(`${clientApps.has(c[0]) ? '' : '? '}call split: ${c} into ${gs.size}`);
  return bad;
}
