// Metamorphic test over the real recordings: a capture sent through a real pipeline (gzip, CRLF + BOM, a newest-first
// export, log-platform envelopes, both sides in one file, whole exchanges, a JSON array document, rotated files...)
// must give the built CLI the same conclusions as the files themselves.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/triage-cli.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/**
 * Recordings chosen for variety: SSE streams cut, resumed or holding server requests, SDK and app retries, HTTP
 * errors, sessions that expire or restart, parallel and concurrent clients, JSON mode, batches, legacy HTTP+SSE,
 * elicitation and sampling, progress, cancellation, MRTR, a browser-free gzip hop, CRLF SSE, Python and v2 SDKs.
 * `METAMORPHIC_ALL=1` runs every recording folder of test/fixtures/real* instead (about 430; many minutes; raise the
 * hook timeout), `METAMORPHIC_LIST=real-audit/x,real-v2/y` the ones named.
 */
const CHOSEN = [
  // The Python server sets a new Mcp-Session-Id on the 400 it refuses a sessionless notification with: a whole exchange
  // that names that id carried none (normalize's exchangeSession).
  'real-audit7/sdk-session-header-stripped',
  'real-audit5/http-429-retry-after',
  'real-audit5/response-on-get-stream-post-held',
  'real-audit5/session-expired-new-process',
  'real-audit5/abort-between-progress',
  'real-audit5-py/py-client-timeout-retry-auto',
  'real-audit5-py/py-client-html-in-sse-after-head',
  'real-audit4/duplicate-response-sse',
  'real-audit4/error-then-result-same-id',
  'real-audit3/elicitation-answered-late',
  'real-audit3/v2-server-gone-mid-stream',
  'real-audit3/two-clients-one-session',
  'real-audit2/jsonrpc-batch-cut',
  'real-audit2/resume-cut-twice',
  'real-audit2/legacy-sse-two-clients-concurrent',
  'real-audit2/crlf-sse-keepalive',
  'real-audit2/gzip-reverse-proxy',
  'real-audit/timeout-then-retry',
  'real-audit/server-restart-mid-call',
  'real-audit/parallel-mixed',
  'real-audit/stateless-json-concurrent',
  'real-old-sdk/c113-503-429-app-retry',
  'real-old-sdk/c110-sse-cut-resumed',
  'real-ai-sdk/modern-mrtr',
  'real-ai-sdk/http-503-sdk-retry',
  'real-python/py-client-auto',
  'real-python/ts-client-restart-404',
  'real-fastmcp-py/fm-client-sse-cut-resumed',
  'real-servers/tmcp-elicitation-sampling',
  'real-servers2/mf-stale-session-reinit',
  'real-agents/lc-session-expired',
  'real-codex/progress-past-timeout',
  'real-cloudflare/restart-mid-call',
  'real-bridges/remote-server-requests',
  'real-kitchen/v2-call-503-then-200',
  'real-healthy/many-clients-stateful',
  'real-examples/task-interactive-no-terminal',
];

function everyRecording(): string[] {
  return readdirSync(FIXTURES).filter((d) => d.startsWith('real')).flatMap((d) => {
    let subs: string[];
    try {
      subs = readdirSync(join(FIXTURES, d));
    } catch {
      return [];
    }
    return subs.filter((s) => {
      try {
        readFileSync(join(FIXTURES, d, s, 'server.ndjson'));
        return readFileSync(join(FIXTURES, d, s, 'client.ndjson')).length > 0;
      } catch {
        return false;
      }
    }).map((s) => `${d}/${s}`);
  }).sort();
}

const SCENARIOS = process.env.METAMORPHIC_ALL === '1' ? everyRecording() : process.env.METAMORPHIC_LIST ? process.env.METAMORPHIC_LIST.split(',') : CHOSEN;
/**
 * Transforms of bytes and envelopes run on the first 8 recordings (the readers they test do not look at what the
 * records say; test/formats/real-envelopes.test.ts runs every envelope on 9 more), the others on all of them.
 */
const LIGHT = process.env.METAMORPHIC_ALL === '1' ? SCENARIOS.length : 8;
const scenariosOf = (t: Transform) => (t.light ? SCENARIOS.slice(0, LIGHT) : SCENARIOS);

type Side = 'client' | 'server';
const SIDES: Side[] = ['client', 'server'];
interface Line { raw: string; rec: Record<string, unknown> }

function readSide(scenario: string, side: Side): Line[] {
  return readFileSync(join(FIXTURES, scenario, `${side}.ndjson`), 'utf8').split('\n').filter((l) => l.trim() !== '')
    .map((raw) => ({ raw, rec: JSON.parse(raw) as Record<string, unknown> }));
}

const ms = (l: Line) => Date.parse(String(l.rec.ts));
const text = (lines: string[]) => lines.map((l) => `${l}\n`).join('');

// ---- the transforms, each as a real tool writes its output --------------------------------------------------------

/** What a transform writes: files (name -> content) and the CLI arguments that read them; stdin when one is piped. */
interface Written { files: Record<string, string | Buffer>; args: string[]; stdin?: Buffer }

interface Transform {
  name: string;
  write: (sides: Record<Side, Line[]>) => Written;
  /** Changes bytes or envelopes, not what is in which line or order: run on the first LIGHT recordings only (time). */
  light?: true;
}

const perSide = (ext: string, body: (lines: Line[], side: Side) => string | Buffer) => (sides: Record<Side, Line[]>): Written => ({
  files: Object.fromEntries(SIDES.map((s) => [`${s}${ext}`, body(sides[s], s)])),
  args: SIDES.flatMap((s) => [`--${s}`, `${s}${ext}`]),
});

/** Cloud Logging entry as `gcloud logging read --format=json | jq -c '.[]'` prints it (keys sorted). */
const gcp = (l: Line, side: Side) => ({
  insertId: `${ms(l).toString(36)}x${side[0]}`, jsonPayload: l.rec, logName: `projects/acme/logs/run.googleapis.com%2F${side}`,
  receiveTimestamp: new Date(ms(l) + 187).toISOString(), resource: { labels: { service_name: `mcp-${side}` }, type: 'cloud_run_revision' },
  severity: 'INFO', timestamp: new Date(ms(l)).toISOString(),
});
/** Datadog Logs API v2 event: the pipeline parsed the JSON into attributes.attributes, the raw line in message. */
const datadog = (l: Line, side: Side) => ({
  id: `AQAAAZ${ms(l).toString(36)}`, type: 'log',
  attributes: { attributes: l.rec, host: `${side}-1`, message: l.raw, service: `mcp-${side}`, status: 'info', tags: ['env:prod'], timestamp: new Date(ms(l)).toISOString() },
});
/** Elasticsearch hit of Filebeat with `json.keys_under_root`: the record's keys at the top of _source. */
const elastic = (l: Line, side: Side) => ({
  _index: '.ds-logs-mcp-default', _id: `${ms(l).toString(36)}${side}`, _score: null,
  _source: { ...l.rec, '@timestamp': new Date(ms(l)).toISOString(), agent: { type: 'filebeat', version: '8.13.4' }, ecs: { version: '8.0.0' }, log: { file: { path: `/var/log/mcp/${side}.ndjson` } } },
  sort: [ms(l)],
});
/** `logcli query -o jsonl --forward`: the raw line in `line`. */
const loki = (l: Line, side: Side) => ({ labels: { job: 'mcp', side }, line: l.raw, timestamp: new Date(ms(l)).toISOString() });
const ENVELOPES = [gcp, datadog, elastic, loki];

/** `aws logs tail` prints `<time> <stream> <message>`, the time with microseconds and +00:00. */
const cloudwatch = (l: Line, side: Side) => `${new Date(ms(l)).toISOString().replace('Z', '000+00:00')} 2026/12/03/mcp-${side}[$LATEST]7f3c2a9e ${l.raw}`;

/**
 * The same traffic as whole `exchange` records, as a HAR-like writer gives it: each exchange whose request, response
 * and end the file holds becomes one record at its request's place (time of the request, SSE events with their own
 * times, duration up to the end record's time). Exchanges the file leaves open (no response or no end: a stream cut by the end of the
 * capture) stay split records: a whole exchange cannot say "not ended yet".
 */
function toExchanges(lines: Line[]): string[] {
  interface Parts { req: Line; res?: Line; events: Line[]; end?: Line }
  const parts = new Map<string, Parts>();
  for (const l of lines) {
    const xid = l.rec.xid as string;
    if (l.rec.kind === 'request') parts.set(xid, { req: l, events: [] });
    const p = parts.get(xid);
    if (!p) continue;
    if (l.rec.kind === 'response') p.res = l;
    else if (l.rec.kind === 'event') p.events.push(l);
    else if (l.rec.kind === 'end') p.end = l;
  }
  const whole = new Set([...parts].filter(([, p]) => p.res && p.end).map(([x]) => x));
  const out: string[] = [];
  for (const l of lines) {
    const xid = l.rec.xid as string;
    if (!whole.has(xid)) {
      out.push(l.raw);
      continue;
    }
    if (l.rec.kind !== 'request') continue;
    const p = parts.get(xid)!;
    const { kind: _k, ...req } = p.req.rec;
    const res = p.res!.rec;
    const end = p.end!.rec;
    const ex: Record<string, unknown> = { ...req, kind: 'exchange', status: res.status };
    if (res.session !== undefined && res.session !== null) ex.session = res.session;
    if (res.responseHeaders !== undefined) ex.responseHeaders = res.responseHeaders;
    for (const k of ['recv', 'recvText', 'events'] as const) if (res[k] !== undefined) ex[k] = res[k];
    if (p.events.length > 0) {
      ex.events = p.events.map((e) => {
        const ev: Record<string, unknown> = { ts: e.rec.ts, data: e.rec.data };
        for (const k of ['id', 'event', 'retry'] as const) if (e.rec[k] !== undefined) ev[k] = e.rec[k];
        return ev;
      });
    }
    if (end.recvText !== undefined && ex.recvText === undefined && ex.events === undefined) ex.recvText = end.recvText;
    if (typeof end.nonSseText === 'string') {
      // An exchange has no nonSseText: the body is written whole, its SSE events and the text that was no SSE field.
      ex.recvText = `${((ex.events ?? []) as Record<string, string>[]).map(sseText).join('')}${end.nonSseText}\n`;
      delete ex.events;
    } else if (ex.recv === undefined && ex.recvText === undefined && ex.events === undefined) {
      // The recorder read the body and it was empty: said so (no body field at all would mean "not kept").
      if (/text\/event-stream/i.test(JSON.stringify(res.responseHeaders ?? {}))) ex.events = [];
      else ex.recvText = '';
    }
    ex.end = end.end;
    if (end.error !== undefined) ex.error = end.error;
    // The end where the end record is: a recorder's own durationMs is measured from another instant than its ts.
    ex.durationMs = ms(p.end!) - ms(p.req);
    out.push(JSON.stringify(ex));
  }
  return out;
}

/** One SSE event as the wire carries it. */
const sseText = (e: Record<string, string>) =>
  `${e.id !== undefined ? `id: ${e.id}\n` : ''}${e.event !== undefined ? `event: ${e.event}\n` : ''}${(e.data ?? '').split('\n').map((d) => `data: ${d}\n`).join('')}\n`;

/** Both logs in one file, sorted by time (a log platform's view of both services), each record keeping its `side`. */
function merged(sides: Record<Side, Line[]>): Line[] {
  return SIDES.flatMap((s) => sides[s].map((l, i) => ({ l, i, s }))).sort((a, b) => ms(a.l) - ms(b.l) || (a.s === b.s ? a.i - b.i : a.s === 'client' ? -1 : 1)).map((x) => x.l);
}

const ALL_TRANSFORMS: Transform[] = [
  { name: 'gzip', light: true, write: perSide('.ndjson.gz', (lines) => gzipSync(text(lines.map((l) => l.raw)))) },
  {
    name: 'gzip on stdin (--client -)', light: true,
    write: (sides) => ({ files: { 'server.ndjson.gz': gzipSync(text(sides.server.map((l) => l.raw))) }, args: ['--client', '-', '--server', 'server.ndjson.gz'], stdin: gzipSync(text(sides.client.map((l) => l.raw))) }),
  },
  { name: 'CRLF line ends and a UTF-8 BOM', light: true, write: perSide('.ndjson', (lines) => `\uFEFF${lines.map((l) => `${l.raw}\r\n`).join('')}`) },
  { name: 'newest first', write: perSide('.ndjson', (lines) => text(lines.map((l) => l.raw).reverse())) },
  { name: 'envelopes in rotation (Cloud Logging, Datadog, Elastic, Loki)', light: true, write: perSide('.jsonl', (lines, side) => text(lines.map((l, i) => JSON.stringify(ENVELOPES[i % ENVELOPES.length]!(l, side))))) },
  { name: 'gcloud logging read default order (newest first, jsonPayload)', light: true, write: perSide('.jsonl', (lines, side) => text(lines.map((l) => JSON.stringify(gcp(l, side))).reverse())) },
  { name: 'aws logs tail', light: true, write: perSide('.log', (lines, side) => text(lines.map((l) => cloudwatch(l, side)))) },
  { name: 'both sides in one file (side kept)', write: (sides) => ({ files: { 'both.ndjson': text(merged(sides).map((l) => l.raw)) }, args: ['both.ndjson'] }) },
  { name: 'whole exchange records', write: perSide('.ndjson', (lines) => text(toExchanges(lines))) },
  { name: 'one JSON array document (jq -s .)', light: true, write: perSide('.json', (lines) => `${JSON.stringify(lines.map((l) => l.rec), null, 2)}\n`) },
  {
    name: 'rotated in the middle (two files per side)',
    write: (sides) => {
      const files: Record<string, string> = {};
      const args: string[] = [];
      for (const s of SIDES) {
        const half = Math.ceil(sides[s].length / 2);
        files[`${s}.1.ndjson`] = text(sides[s].slice(0, half).map((l) => l.raw));
        files[`${s}.2.ndjson`] = text(sides[s].slice(half).map((l) => l.raw));
        args.push(`--${s}`, `${s}.1.ndjson,${s}.2.ndjson`);
      }
      return { files, args };
    },
  },
];

/** `METAMORPHIC_ONLY='whole|newest'` runs only the transforms whose name contains one of those texts. */
const ONLY = (process.env.METAMORPHIC_ONLY ?? '').split('|');
const TRANSFORMS = ALL_TRANSFORMS.filter((t) => ONLY.some((o) => t.name.includes(o)));

// ---- running the CLI and comparing conclusions -----------------------------------------------------------------------

interface Run { out: Record<string, unknown>[]; code: number | null; stderr: string }

function runCli(cwd: string, args: string[], stdin?: Buffer): Promise<Run> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, '--format', 'ndjson', '--quiet', ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    p.on('error', reject);
    p.on('close', (code) => resolve({ out: stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>), code, stderr }));
    p.stdin.end(stdin ?? '');
  });
}

/** At most `n` CLI runs at a time (the machine may be shared). */
async function pool<T>(jobs: (() => Promise<T>)[], n: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]!();
    }
  }));
  return out;
}

/**
 * What a run concludes. Per attempt: everything the analysis decided (method, tool, id, session, side, statuses,
 * outcome and layer, the server's outcome, retry origin, attempt number, continuation, not seen by the server,
 * resumed, cancelled, start time, finding codes), with its `call` key replaced by the first attempt of that call (the
 * `c1`, `c2`... keys are numbered in report order, which a reordered input may change). Left out: `sources` and the
 * evidence's file names and line numbers (the transform renames and renumbers lines), `detail`, finding messages and
 * `durationMs` (they quote or are measured on lines, see the comparison below). Attempts are compared as a sorted
 * list: the report's order follows the input's, and a newest-first or merged input legitimately finalizes in another
 * order. Session findings by scope, session, code and severity; the summary's counts.
 */
function conclusions(r: Run) {
  const attempts = r.out.filter((l) => l.type === 'attempt');
  const key = (a: Record<string, unknown>) => JSON.stringify([a.session, a.side, a.method, a.tool, a.id, a.ts, a.attempt, a.status, a.outcome]);
  const firstOfCall = new Map<string, string>();
  for (const a of [...attempts].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0))) {
    if (typeof a.call === 'string' && !firstOfCall.has(a.call)) firstOfCall.set(a.call, key(a));
  }
  const pick = (a: Record<string, unknown>) => ({
    session: a.session, side: a.side, method: a.method, tool: a.tool, id: a.id, ts: a.ts, status: a.status, serverStatus: a.serverStatus,
    outcome: a.outcome, layer: a.layer, serverOutcome: a.serverOutcome, claim: (a.claim as { outcome?: unknown } | undefined)?.outcome,
    call: typeof a.call === 'string' ? firstOfCall.get(a.call) : a.call, attempt: a.attempt, continuation: a.continuation, retryOrigin: a.retryOrigin,
    notSeenByServer: a.notSeenByServer, resumed: a.resumed, cancelled: a.cancelled, weakId: a.weakId,
    sse: a.sse, findings: (a.findings as { code: string }[]).map((f) => f.code),
  });
  const summary = r.out.find((l) => l.type === 'summary') as Record<string, unknown> | undefined;
  const s = (summary ?? {}) as { attempts?: unknown; calls?: unknown; retries?: unknown; byOutcome?: unknown; byLayer?: unknown; findings?: unknown; byMethod?: unknown[]; claims?: unknown };
  return {
    attempts: attempts.map((a) => JSON.stringify(pick(a))).sort(),
    findings: r.out.filter((l) => l.type === 'finding').map((f) => JSON.stringify([f.scope, f.session, f.code, f.severity])).sort(),
    summary: { attempts: s.attempts, calls: s.calls, retries: s.retries, byOutcome: s.byOutcome, byLayer: s.byLayer, findings: s.findings, byMethod: (s.byMethod ?? []).map((m) => JSON.stringify(m)).sort(), claims: s.claims },
  };
}

const linesOf = (r: Run) => (r.out.find((l) => l.type === 'summary') as { lines: { unusable: number } } | undefined)?.lines;

const ROOT = mkdtempSync(join(tmpdir(), 'mcp-triage-metamorphic-'));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

const bare = new Map<string, Run>();
const transformed = new Map<string, Run>();

beforeAll(async () => {
  const jobs: (() => Promise<void>)[] = [];
  SCENARIOS.forEach((scenario, si) => {
    const dir = join(FIXTURES, scenario);
    jobs.push(async () => void bare.set(scenario, await runCli(dir, ['--client', 'client.ndjson', '--server', 'server.ndjson'])));
    const sides = { client: readSide(scenario, 'client'), server: readSide(scenario, 'server') };
    TRANSFORMS.forEach((t, ti) => {
      if (!scenariosOf(t).includes(scenario)) return;
      jobs.push(async () => {
        const w = t.write(sides);
        const out = join(ROOT, `${si}-${ti}`);
        mkdirSync(out);
        for (const [name, content] of Object.entries(w.files)) writeFileSync(join(out, name), content);
        transformed.set(`${scenario}|${t.name}`, await runCli(out, w.args, w.stdin));
      });
    });
  });
  await pool(jobs, 3);
}, 600_000);

describe('the recordings as recorded (reference runs)', () => {
  it.each(SCENARIOS)('%s is read whole and finds attempts', (scenario) => {
    const r = bare.get(scenario)!;
    expect(r.code, r.stderr).toBe(0);
    expect(linesOf(r)?.unusable).toBe(0);
    expect(conclusions(r).attempts.length).toBeGreaterThan(0);
  });
});

describe.each(TRANSFORMS)('$name', (t) => {
  it.each(scenariosOf(t))('%s: same conclusions', (scenario) => {
    const want = bare.get(scenario)!;
    const got = transformed.get(`${scenario}|${t.name}`)!;
    expect(got.code, got.stderr).toBe(want.code);
    expect(linesOf(got)?.unusable, got.stderr).toBe(0);
    const g = conclusions(got);
    const w = conclusions(want);
    expect(g.attempts).toEqual(w.attempts);
    expect(g.findings).toEqual(w.findings);
    expect(g.summary).toEqual(w.summary);
  });
});
