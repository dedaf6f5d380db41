// Holds a full analysis's NDJSON report of generated data to the generator's truth.ndjson: for every tools/call attempt, its outcome in each view, the findings those imply, its attempt number, and which logical call it was linked into.
//
// Usage: node dist/bin.cjs --format ndjson --client DIR/client.ndjson --server DIR/server.ndjson |
//          node bench/check-truth.mjs DIR/truth.ndjson [--broken N] [--show N] [--identity client|user-agent]
// Prints the agreement and the first mismatches of each kind; exits 1 when more attempts disagree than the broken
// lines of the inputs (--broken, from manifest.json) can explain (each broken line spoils at most its own attempt and
// the link of the attempt after it).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** Reads truth.ndjson into a map keyed by session and JSON-RPC id. */
async function readTruth(path) {
  const truth = new Map();
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    if (line === '') continue;
    const t = JSON.parse(line);
    truth.set(`${t.session}|${JSON.stringify(t.id)}`, t);
  }
  return truth;
}

/**
 * Compares a report (a readable stream of NDJSON, read only once the truth is in: a line interface made earlier would
 * drop the lines it reads before anyone listens) with the truth file. Returns counts and mismatches:
 * `outcome` (the client's view), `clientView` (only the server's view of it is in the report), `serverOutcome`,
 * `findings` (SIDE_DIVERGENCE exactly where the two views' outcomes differ, NO_FINAL_RESULT exactly on a cut stream),
 * `attempt` (number within its call), `call` (the attempts of one generated call split over several report calls, or
 * one report call joining several generated calls), `missing`
 * (no report row), `split` (more than one row for one request: the views were not joined), and `alike` (calls joined
 * that the input cannot tell apart: not counted as wrong). `identity` is what tells senders apart in the input: `client`
 * (the canonical client log's client field) or `user-agent` (a HAR: no client field).
 */
export async function checkTruth(truthPath, report, { identity = 'client' } = {}) {
  const truth = await readTruth(truthPath);
  const rows = new Map();
  for await (const line of createInterface({ input: report, crlfDelay: Infinity })) {
    if (!line.startsWith('{"type":"attempt"')) continue;
    const a = JSON.parse(line);
    if (a.method !== 'tools/call') continue;
    const key = `${a.session}|${JSON.stringify(a.id)}`;
    if (!truth.has(key)) continue;
    const known = rows.get(key);
    if (known) known.push(a);
    else rows.set(key, [a]);
  }
  const mismatches = { missing: [], split: [], clientView: [], outcome: [], serverOutcome: [], findings: [], attempt: [], call: [], alike: [] };
  const reportCallsOf = new Map();
  const truthCallsOf = new Map();
  const firstOf = new Map();
  for (const [key, t] of truth) {
    if (!firstOf.has(t.call)) firstOf.set(t.call, t);
    const found = rows.get(key);
    if (!found) {
      mismatches.missing.push(`${key} (${t.tool}, ${t.outcome})`);
      continue;
    }
    if (found.length > 1) mismatches.split.push(`${key}: ${found.length} rows (${found.map((a) => a.side).join(', ')})`);
    const a = found[0];
    // A row of the server's view alone: the client's record of the request was lost (a broken line).
    const client = a.side === 'server' ? undefined : a.outcome;
    const server = a.side === 'server' ? a.outcome : a.serverOutcome;
    if (client === undefined) mismatches.clientView.push(`${key} ${t.tool}: only the server's view`);
    else if (client !== t.outcome) mismatches.outcome.push(`${key} ${t.tool}: ${a.outcome}, made ${t.outcome}`);
    if (t.serverOutcome !== undefined && server !== t.serverOutcome) mismatches.serverOutcome.push(`${key} ${t.tool}: server ${server ?? '(not joined)'}, made ${t.serverOutcome}`);
    // The findings that follow from the outcomes alone: the two views disagree, or a 200 stream ended without the answer.
    const codes = new Set(a.findings.map((f) => f.code));
    for (const [code, made] of [['SIDE_DIVERGENCE', t.serverOutcome !== undefined && t.serverOutcome !== t.outcome], ['NO_FINAL_RESULT', t.outcome === 'STREAM_INCOMPLETE']]) {
      if (codes.has(code) !== made) mismatches.findings.push(`${key} ${t.tool}: ${made ? 'no' : 'a'} ${code} (made ${t.outcome}${t.serverOutcome !== undefined ? `, server ${t.serverOutcome}` : ''})`);
    }
    add(reportCallsOf, t.call, a.call);
    add(truthCallsOf, a.call, t.call);
  }
  // Calls the input cannot tell apart (one sender as far as it shows, the same tool and arguments): a report that joins
  // them as a call and its retry read them as a retry does, and their attempt numbers follow from that.
  const sender = (t) => (identity === 'client' ? t.client : t.userAgent);
  const alike = new Set();
  const alikeOf = (t, calls) => calls.every((c) => { const o = firstOf.get(c); return o.tool === t.tool && o.request === t.request && sender(o) === sender(t); });
  for (const [call, reportCalls] of reportCallsOf) {
    const t = firstOf.get(call);
    if (reportCalls.size > 1) {
      // Split because a call alike took one of its attempts' links (joined with it in one of the report calls).
      const others = [...reportCalls].flatMap((r) => [...truthCallsOf.get(r)]).filter((c) => c !== call);
      if (others.length > 0 && alikeOf(t, others)) {
        alike.add(call);
        mismatches.alike.push(`${call}: split over ${[...reportCalls].join(', ')}, a call alike (${others.join(', ')}) taken for its retry`);
      } else mismatches.call.push(`${call}: split over ${[...reportCalls].join(', ')}`);
      continue;
    }
    const joined = [...truthCallsOf.get([...reportCalls][0])];
    if (joined.length === 1) continue;
    const same = alikeOf(t, joined);
    const what = `${call}: joined with ${joined.filter((c) => c !== call).join(', ')} in ${[...reportCalls][0]}`;
    if (same) {
      alike.add(call);
      mismatches.alike.push(`${what} (the same ${identity === 'client' ? 'client' : 'User-Agent'}, tool and arguments)`);
    } else mismatches.call.push(what);
  }
  for (const [key, t] of truth) {
    const a = rows.get(key)?.[0];
    if (a && a.attempt !== t.attempt && !alike.has(t.call)) mismatches.attempt.push(`${key} ${t.tool}: attempt ${a.attempt}, made ${t.attempt} of ${t.call}`);
  }
  // Each message starts with its attempt's key (session|id): an attempt wrong in several ways counts once.
  const wrong = new Set();
  for (const list of [mismatches.missing, mismatches.split, mismatches.clientView, mismatches.outcome, mismatches.serverOutcome, mismatches.findings, mismatches.attempt]) for (const m of list) wrong.add(m.split(' ')[0].replace(/:$/, ''));
  return { attempts: truth.size, calls: reportCallsOf.size, wrongAttempts: wrong.size, wrongCalls: mismatches.call.length, alikeCalls: alike.size, mismatches };
}

function add(m, key, value) {
  const s = m.get(key);
  if (s) s.add(value);
  else m.set(key, new Set([value]));
}

/** The check's verdict as text lines. */
export function describeCheck(r, { broken = 0, show = 5 } = {}) {
  const out = [`${r.attempts} tools/call attempts made; ${r.wrongAttempts} disagree with the report (${pct(r.wrongAttempts, r.attempts)}); ${r.wrongCalls} of ${r.calls} calls linked otherwise (${pct(r.wrongCalls, r.calls)}), besides ${r.alikeCalls} joined with a call the input cannot tell from them; ${broken} broken input lines`];
  for (const [kind, list] of Object.entries(r.mismatches)) {
    if (list.length === 0) continue;
    out.push(`  ${kind}: ${list.length}`);
    for (const m of list.slice(0, show)) out.push(`    ${m}`);
  }
  return out;
}

/** Whether the disagreements stay within what the broken lines can explain (an attempt and the link after it each). */
export function withinBroken(r, broken) {
  return r.wrongAttempts <= 2 * broken && r.wrongCalls <= 2 * broken;
}

function pct(n, d) {
  return d === 0 ? '0%' : `${((100 * n) / d).toFixed(2)}%`;
}

const isMain = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  const args = process.argv.slice(2);
  const truthPath = args.find((a, i) => !a.startsWith('--') && !['--broken', '--show', '--identity'].includes(args[i - 1]));
  if (!truthPath) {
    process.stderr.write('usage: node dist/bin.cjs --format ndjson ... | node bench/check-truth.mjs DIR/truth.ndjson [--broken N] [--show N] [--identity client|user-agent]\n');
    process.exit(2);
  }
  const opt = (name, dflt) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
  const broken = opt('--broken', 0);
  const identity = args.includes('--identity') ? args[args.indexOf('--identity') + 1] : 'client';
  const r = await checkTruth(truthPath, process.stdin, { identity });
  process.stdout.write(`${describeCheck(r, { broken, show: opt('--show', 5) }).join('\n')}\n`);
  process.exitCode = withinBroken(r, broken) ? 0 : 1;
}
