// Real SDK recordings (test/fixtures/real) wrapped the way log platforms export them (Cloud Logging, Datadog,
// Elasticsearch, Loki): the built CLI must find the same attempts, outcomes, retries and findings as from the bare lines.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));
const REAL = fileURLToPath(new URL('../fixtures/real/', import.meta.url));

/** Recordings with varied outcomes: success, HTTP errors and app/SDK retries, cut streams, re-init, bad ids, elicitation. */
const SCENARIOS = [
  'baseline',
  'http-503-app-retry',
  'sse-cut-no-resume',
  'session-expired-404-reinit',
  'malformed-sse-event',
  'wrong-response-id',
  'elicitation-roundtrip',
  'auth-401-same-id-retry',
  'stateless-ids-reused',
] as const;

type Side = 'client' | 'server';
const SIDES: Side[] = ['client', 'server'];

/** One recorded line and where it sits. */
interface Line {
  raw: string;
  rec: Record<string, unknown>;
  scenario: string;
  side: Side;
  index: number;
  /** Byte offset of the line in its file (Filebeat's log.offset). */
  offset: number;
}

function readLines(scenario: string, side: Side): Line[] {
  const text = readFileSync(`${REAL}${scenario}.${side}.ndjson`, 'utf8');
  const out: Line[] = [];
  let offset = 0;
  for (const raw of text.split('\n')) {
    if (raw.trim() !== '') out.push({ raw, rec: JSON.parse(raw) as Record<string, unknown>, scenario, side, index: out.length, offset });
    offset += Buffer.byteLength(raw) + 1;
  }
  return out;
}

// ---- envelope helpers -------------------------------------------------------------------------------------------

const hex = (l: Line, salt: string, n: number) => createHash('sha256').update(`${salt}/${l.scenario}/${l.side}/${l.index}`).digest('hex').slice(0, n);
const b64 = (l: Line, salt: string, n: number) => createHash('sha256').update(`${salt}/${l.scenario}/${l.side}/${l.index}`).digest('base64url').slice(0, n);
const recTs = (l: Line) => String(l.rec.ts);
const ms = (l: Line) => Date.parse(recTs(l));
/** ISO time `plus` ms after the record's, with nanosecond digits (Cloud Logging prints up to 9). */
const nanoIso = (l: Line, plus: number, nanos: string) => new Date(ms(l) + plus).toISOString().replace('Z', `${nanos}Z`);
/** Go's RFC3339Nano in a +01:00 zone (logcli --timezone Local on a CET machine): trailing zeros trimmed. */
function goRfc3339Cet(l: Line): string {
  const d = new Date(ms(l) + 3_600_000).toISOString().replace('Z', '');
  return `${d.replace(/\.?0+$/, '')}+01:00`;
}

/** gcloud's JSON printer sorts keys at every level. */
function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]));
  }
  return v;
}

// ---- one record per line ----------------------------------------------------------------------------------------

/** Google Cloud Logging LogEntry as `gcloud logging read --format=json | jq -c '.[]'` prints it. */
function gcpEntry(l: Line, payload: { jsonPayload: unknown } | { textPayload: string }): unknown {
  return sortDeep({
    insertId: hex(l, 'gcp', 16),
    ...payload,
    labels: { instanceId: `00f46b9285${hex(l, 'inst', 40)}` },
    logName: `projects/acme-mcp-prod/logs/run.googleapis.com%2F${'jsonPayload' in payload ? 'stdout' : 'stderr'}`,
    receiveTimestamp: nanoIso(l, 187, '482913'),
    resource: l.side === 'server'
      ? { type: 'cloud_run_revision', labels: { configuration_name: 'orders-mcp', location: 'europe-west1', project_id: 'acme-mcp-prod', revision_name: 'orders-mcp-00042-xiz', service_name: 'orders-mcp' } }
      : { type: 'k8s_container', labels: { cluster_name: 'agents', container_name: 'agent', location: 'europe-west1-b', namespace_name: 'default', pod_name: 'agent-7d9f6c5b8-q2x4z', project_id: 'acme-mcp-prod' } },
    severity: 'jsonPayload' in payload ? 'INFO' : 'DEFAULT',
    timestamp: nanoIso(l, 0, '217'),
  });
}
const gcpJson = (l: Line) => gcpEntry(l, { jsonPayload: l.rec });
const gcpText = (l: Line) => gcpEntry(l, { textPayload: l.raw });

/** Datadog Logs API v2 event (`/api/v2/logs/events` item); the pipeline parsed the JSON into attributes.attributes. */
function datadogEvent(l: Line, parsed = true): Record<string, unknown> {
  return {
    id: `AQAAAZ${b64(l, 'dd', 40)}`,
    type: 'log',
    attributes: {
      attributes: parsed ? l.rec : {},
      host: l.side === 'server' ? 'orders-mcp-7d9f6c5b8-q2x4z' : 'agent-1',
      message: l.raw,
      service: l.side === 'server' ? 'orders-mcp' : 'agent',
      status: 'info',
      tags: ['env:prod', `side:${l.side}`, 'source:nodejs', `filename:${l.scenario}.${l.side}.ndjson`],
      timestamp: new Date(ms(l)).toISOString(),
    },
  };
}

const FILEBEAT = { agent: { type: 'filebeat', version: '8.13.4', name: 'log-shipper-1', id: '5b0e3c6e-7f1d-4a43-9d1c-0e2d8f3b7a11', ephemeral_id: 'f3c1f0d4-2a9b-4e5c-8d7a-6b1e2c3d4f5a' }, ecs: { version: '8.0.0' }, input: { type: 'filestream' } };
const filebeatFields = (l: Line) => ({
  ...FILEBEAT,
  host: { name: l.side === 'server' ? 'orders-mcp-1' : 'agent-1' },
  log: { file: { path: `/var/log/mcp/${l.scenario}.${l.side}.ndjson` }, offset: l.offset },
});

/** Elasticsearch hit, Filebeat `json.keys_under_root: true`: the record's keys at the top of _source. */
function esHitSource(l: Line): Record<string, unknown> {
  return {
    _index: '.ds-logs-mcp-default-2026.12.02-000001',
    _id: b64(l, 'es', 20),
    _score: null,
    _source: { ...l.rec, '@timestamp': new Date(ms(l)).toISOString(), ...filebeatFields(l) },
    sort: [ms(l)],
  };
}

/** Elasticsearch hit of a plain Filebeat input: the raw line in _source.message, Filebeat/ECS fields around it. */
function esHitMessage(l: Line): Record<string, unknown> {
  return {
    _index: '.ds-logs-mcp-default-2026.12.02-000001',
    _id: b64(l, 'es', 20),
    _score: null,
    _source: { '@timestamp': new Date(ms(l) + 412).toISOString(), ...filebeatFields(l), message: l.raw },
    sort: [ms(l) + 412],
  };
}

/** `logcli query -o jsonl`: Go marshals the map with sorted keys, timestamp in RFC3339Nano. */
function lokiLine(l: Line, ts: string): Record<string, unknown> {
  return { labels: { filename: `/var/log/mcp/${l.scenario}.${l.side}.ndjson`, job: 'mcp', side: l.side }, line: l.raw, timestamp: ts };
}

// ---- whole files ------------------------------------------------------------------------------------------------

const perLine = (wrap: (l: Line) => unknown) => (lines: Line[]) => lines.map((l) => JSON.stringify(wrap(l)));
const chunks = <T>(xs: T[], n: number): T[][] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

/** Datadog search pages (`POST /api/v2/logs/events/search`, page[limit] 10), one page per line as a paging loop saves them. */
function datadogPages(lines: Line[]): string[] {
  const pages = chunks(lines, 10);
  return pages.map((page, i) => {
    const last = i === pages.length - 1;
    const after = `eyJhZnRlciI6eyJ${b64(page[page.length - 1]!, 'cursor', 30)}`;
    return JSON.stringify({
      data: page.map((l) => datadogEvent(l)),
      ...(last ? {} : { links: { next: `https://api.datadoghq.eu/api/v2/logs/events?page%5Bcursor%5D=${after}&page%5Blimit%5D=10` } }),
      meta: { elapsed: 132 + i, ...(last ? {} : { page: { after } }), request_id: `pddv1ChZ${b64(page[0]!, 'req', 24)}`, status: 'done' },
    });
  });
}

/** One Elasticsearch search response (`_search?size=1000`, sorted by @timestamp) on one line. */
function esSearchPage(lines: Line[]): string[] {
  return [JSON.stringify({
    took: 9,
    timed_out: false,
    _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    hits: { total: { value: lines.length, relation: 'eq' }, max_score: null, hits: lines.map(esHitSource) },
  })];
}

/** Every line in a different envelope, in rotation (one file may mix them), including Datadog's unparsed form. */
const MIXED: ((l: Line) => unknown)[] = [gcpJson, gcpText, (l) => datadogEvent(l), (l) => datadogEvent(l, false), esHitSource, esHitMessage, (l) => lokiLine(l, recTs(l))];

const LOKI_DEFAULT = 'loki logcli -o jsonl (default direction: newest first, local zone)';
const DATADOG_NEWEST_FIRST = 'datadog v2 search pages sorted -timestamp (newest first, across and within pages)';

interface Envelope {
  name: string;
  wrap: (lines: Line[]) => string[];
  /** Several records per line (an API page): line counts differ from the bare file. */
  paged?: true;
}

const ENVELOPES: Envelope[] = [
  { name: 'cloud-logging jsonPayload', wrap: perLine(gcpJson) },
  { name: 'cloud-logging textPayload', wrap: perLine(gcpText) },
  { name: 'datadog v2 event per line', wrap: perLine((l) => datadogEvent(l)) },
  { name: 'datadog v2 search pages', wrap: datadogPages, paged: true },
  { name: DATADOG_NEWEST_FIRST, wrap: (lines) => datadogPages([...lines].reverse()), paged: true },
  { name: 'elasticsearch hit, _source record (keys_under_root)', wrap: perLine(esHitSource) },
  { name: 'elasticsearch hit, _source.message raw line', wrap: perLine(esHitMessage) },
  { name: 'elasticsearch search response hits.hits[]', wrap: esSearchPage, paged: true },
  { name: 'loki logcli -o jsonl --forward', wrap: perLine((l) => lokiLine(l, recTs(l))) },
  { name: LOKI_DEFAULT, wrap: (lines) => perLine((l) => lokiLine(l, goRfc3339Cet(l)))(lines).reverse() },
  { name: 'mixed envelopes in one file', wrap: (lines) => lines.map((l) => JSON.stringify(MIXED[l.index % MIXED.length]!(l))) },
];

/**
 * Envelopes whose lines run newest first, as log platforms export by default (logcli's default direction is
 * backward; search pages sort by time descending): mcp-triage notices and reads them from the last line back, and
 * says so in a note. Such a run emits the same attempts, not necessarily in the same order, so they are compared as
 * sets.
 */
const NEWEST_FIRST = new Set<string>([LOKI_DEFAULT, DATADOG_NEWEST_FIRST]);

// ---- running the CLI --------------------------------------------------------------------------------------------

interface Attempt { type: 'attempt'; sources?: unknown; findings: { code: string }[]; [k: string]: unknown }
interface InputAccount { name: string; lines: number; used: number; unusable: number; records: number; reasons: Record<string, number>; formats: Record<string, number>; side: string }
interface Summary {
  attempts: number; calls: number; retries: number; byOutcome: unknown; byLayer: unknown; findings: unknown;
  inputs: InputAccount[]; notes: string[]; lines: { read: number; used: number; unusable: number }; diagnostics: { total: number; byCode: Record<string, number>; first: unknown[] };
}
interface Run { attempts: Attempt[]; findings: Record<string, unknown>[]; summary: Summary; code: number | null; stderr: string }

function run(dir: string, scenario: string): Run {
  const args = SIDES.flatMap((side) => [`--${side}`, join(dir, `${scenario}.${side}.ndjson`)]);
  const r = spawnSync(process.execPath, [BIN, '--format', 'ndjson', ...args], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, NO_COLOR: '1' } });
  const lines = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  return {
    attempts: lines.filter((l) => l.type === 'attempt') as unknown as Attempt[],
    findings: lines.filter((l) => l.type === 'finding'),
    summary: lines.find((l) => l.type === 'summary') as unknown as Summary,
    code: r.status,
    stderr: r.stderr,
  };
}

/** What the analysis says about an attempt, without where it was read (sources, line numbers). */
const view = (a: Attempt) => ({
  session: a.session, id: a.id, method: a.method, tool: a.tool, status: a.status, outcome: a.outcome,
  call: a.call, attempt: a.attempt, retryOrigin: a.retryOrigin ?? null, findings: a.findings.map((f) => f.code),
});
/** Everything on the attempt line but its sources. */
const whole = (a: Attempt) => Object.fromEntries(Object.entries(a).filter(([k]) => k !== 'sources'));
const sessionFindings = (r: Run) => r.findings.map((f) => ({ scope: f.scope, session: f.session, code: f.code, severity: f.severity }));
const verdict = (s: Summary) => ({ attempts: s.attempts, calls: s.calls, retries: s.retries, byOutcome: s.byOutcome, byLayer: s.byLayer, findings: s.findings });

const ROOT = mkdtempSync(join(tmpdir(), 'mcp-triage-envelopes-'));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

const bare = new Map<string, Run>();
/** The unwrapped run of a scenario: the fixture files themselves. */
function bareRun(scenario: string): Run {
  let r = bare.get(scenario);
  if (!r) {
    r = run(REAL, scenario);
    bare.set(scenario, r);
  }
  return r;
}

let dirs = 0;
function wrappedRun(env: Envelope, scenario: string): Run {
  const dir = join(ROOT, String(dirs++));
  mkdirSync(dir);
  for (const side of SIDES) writeFileSync(join(dir, `${scenario}.${side}.ndjson`), env.wrap(readLines(scenario, side)).join('\n') + '\n');
  return run(dir, scenario);
}

describe('the bare recordings (reference runs)', () => {
  it.each(SCENARIOS)('%s reads every line and finds attempts', (scenario) => {
    const r = bareRun(scenario);
    expect(r.code, r.stderr).toBe(0);
    expect(r.attempts.length).toBeGreaterThan(0);
    expect(r.summary.lines.unusable).toBe(0);
  });

  it('the scenarios cover varied outcomes, retries and findings', () => {
    const outcomes = new Set(SCENARIOS.flatMap((s) => bareRun(s).attempts.map((a) => a.outcome)));
    expect([...outcomes].sort()).toEqual(expect.arrayContaining(['HTTP_ERROR', 'INVALID_ENVELOPE', 'MALFORMED_JSON', 'STREAM_INCOMPLETE', 'SUCCESS', 'TOOL_SUCCESS']));
    expect(SCENARIOS.some((s) => bareRun(s).attempts.some((a) => a.retryOrigin))).toBe(true);
    expect(SCENARIOS.some((s) => bareRun(s).findings.length > 0)).toBe(true);
  });
});

describe.each(ENVELOPES)('$name', (env) => {
  for (const scenario of SCENARIOS) {
    it(`${scenario}: same attempts, findings and line accounting as unwrapped`, () => {
      const want = bareRun(scenario);
      const got = wrappedRun(env, scenario);
      expect(got.code, got.stderr).toBe(want.code);

      // The analysis: attempts (in report order, or as a set when read backwards), session findings, the summary's verdict.
      const reversed = NEWEST_FIRST.has(env.name);
      const order = <T>(xs: T[]) => (reversed ? xs.map((x) => JSON.stringify(x)).sort() : xs);
      expect(order(got.attempts.map(view))).toEqual(order(want.attempts.map(view)));
      expect(order(got.attempts.map(whole))).toEqual(order(want.attempts.map(whole)));
      expect(got.summary.notes.some((n) => n.includes('newest first')), JSON.stringify(got.summary.notes)).toBe(reversed);
      expect(sessionFindings(got)).toEqual(sessionFindings(want));
      expect(verdict(got.summary)).toEqual(verdict(want.summary));

      // No line the bare file could use is lost; every record inside the envelopes is read as canonical.
      expect(got.summary.diagnostics.byCode).toEqual(want.summary.diagnostics.byCode);
      expect(got.summary.inputs).toHaveLength(want.summary.inputs.length);
      want.summary.inputs.forEach((w, i) => {
        const g = got.summary.inputs[i]!;
        expect(g.side).toBe(w.side);
        expect(g.unusable, JSON.stringify(g.reasons)).toBeLessThanOrEqual(w.unusable);
        expect(g.records).toBe(w.records);
        expect(Object.keys(g.formats)).toEqual(Object.keys(w.formats));
        if (env.paged) expect(g.used).toBe(g.lines);
        else {
          expect(g.lines).toBe(w.lines);
          expect(g.used).toBe(w.used);
          expect(g.formats).toEqual(w.formats);
        }
      });
    });
  }
});
