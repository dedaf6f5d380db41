// The report filters: time parsing (ISO and relative), each filter alone, combinations, session findings, errors and how filters are stated.
import { describe, expect, it } from 'vitest';
import { buildFilter, filtersText, parseWhen, type Filter } from '../src/filter.js';
import type { AttemptRow } from '../src/report/summary.js';
import type { Finding } from '../src/findings/types.js';
import { analyze } from '../src/index.js';
import { BOTH, SAMPLES, cli } from './cli/helpers.js';

const NOW = Date.parse('2026-10-17T10:00:00.000Z');

function row(over: Partial<AttemptRow> = {}): AttemptRow {
  return {
    session: 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601', id: 7, method: 'tools/call', tool: 'create_ticket', status: 200,
    outcome: 'TOOL_SUCCESS', layer: 'application', findings: [], sources: [{ file: 'client.ndjson', line: 12 }], ts: '2026-10-17T09:50:00.000Z',
    ...over,
  };
}
const finding = (over: Partial<Finding> = {}): Finding => ({ code: 'SESSION_EXPIRED', severity: 'warning', scope: 'session', session: 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601', message: 'HTTP 404', sources: [], ...over });

function filter(opts: Parameters<typeof buildFilter>[0]): Filter {
  const f = buildFilter(opts, { now: NOW });
  if (typeof f === 'string') throw new Error(f);
  return f;
}

describe('parseWhen', () => {
  it('reads durations before now', () => {
    expect(parseWhen('15m', NOW)).toBe(NOW - 15 * 60_000);
    expect(parseWhen('2h', NOW)).toBe(NOW - 2 * 3_600_000);
    expect(parseWhen('1d', NOW)).toBe(NOW - 86_400_000);
    expect(parseWhen('30s', NOW)).toBe(NOW - 30_000);
    expect(parseWhen('1.5h', NOW)).toBe(NOW - 5_400_000);
    expect(parseWhen('10m ago', NOW)).toBe(NOW - 600_000);
    expect(parseWhen('now', NOW)).toBe(NOW);
  });
  it('reads ISO times, with and without a zone, and epochs', () => {
    expect(parseWhen('2026-10-17T09:12:00Z', NOW)).toBe(Date.parse('2026-10-17T09:12:00Z'));
    expect(parseWhen('2026-10-17T09:12:00+02:00', NOW)).toBe(Date.parse('2026-10-17T07:12:00Z'));
    expect(parseWhen('2026-10-17T09:12:00', NOW, '+02:00')).toBe(Date.parse('2026-10-17T07:12:00Z'));
    expect(parseWhen(new Date('2026-10-17T09:12:00Z'), NOW)).toBe(Date.parse('2026-10-17T09:12:00Z'));
    expect(parseWhen(1_792_228_320, NOW)).toBe(1_792_228_320_000);
  });
  it('refuses what is not a time', () => {
    expect(parseWhen('yesterday', NOW)).toBeUndefined();
    expect(parseWhen('15 minutes', NOW)).toBeUndefined();
    expect(parseWhen('-15m', NOW)).toBeUndefined();
    expect(parseWhen('', NOW)).toBeUndefined();
  });
});

describe('attempt filters', () => {
  it('with no filter keeps everything and states nothing', () => {
    const f = filter({});
    expect(f.active).toBe(false);
    expect(f.attempt(row())).toBe(true);
    expect(f.finding(finding())).toBe(true);
    expect(f.describe()).toEqual({});
  });

  it('--session is a prefix of the session id; a session-less row is matched by its scope', () => {
    const f = filter({ session: 'a3f1' });
    expect(f.attempt(row())).toBe(true);
    expect(f.attempt(row({ session: 'b7e2d9a0' }))).toBe(false);
    expect(f.attempt(row({ session: 'xa3f1' }))).toBe(false);
    expect(f.attempt(row({ session: null }))).toBe(false);
    expect(filter({ session: 'conn-7' }).attempt(row({ session: null, scope: 'conn-7' }))).toBe(true);
  });

  it('--session matches an id with control characters as the reports print it (without them), and nothing else by it', () => {
    const red = 'sess-\u001b[31mred\u001b[0m-1'; // printed sess-red-1
    for (const p of ['sess-red-1', 'sess-red', red, 'sess-\u001b[31m']) expect(filter({ session: p }).attempt(row({ session: red })), p).toBe(true);
    // Neither the plain id's own prefixes nor the escape sequence's leftovers match what is printed otherwise.
    for (const p of ['sess-red-2', 'sess-[31mred', '[31m', 'red-1']) expect(filter({ session: p }).attempt(row({ session: red })), p).toBe(false);
    expect(filter({ session: 'sess-red-1' }).attempt(row({ session: 'sess-blue-1' }))).toBe(false);
    expect(filter({ session: 'bell-2' }).attempt(row({ session: null, scope: 'bell\u0007-2' }))).toBe(true);
    expect(filter({ session: 'bell-2' }).finding(finding({ session: 'bell\u0007-2' }))).toBe(true);
    expect(filter({ session: 'bell-2' }).finding(finding({ session: 'bell-3' }))).toBe(false);
  });

  it('lists may repeat the flag or use commas', () => {
    const f = filter({ session: ['b7e2', 'a3f1'], outcome: 'http_error,TOOL_ERROR' });
    expect(f.attempt(row({ outcome: 'HTTP_ERROR' }))).toBe(true);
    expect(f.attempt(row({ session: 'b7e2-1', outcome: 'TOOL_ERROR' }))).toBe(true);
    expect(f.attempt(row({ outcome: 'TOOL_SUCCESS' }))).toBe(false);
    expect(f.describe()).toEqual({ session: ['b7e2', 'a3f1'], outcome: ['HTTP_ERROR', 'TOOL_ERROR'] });
  });

  it('--method and --tool match exactly, or with * as a wildcard', () => {
    expect(filter({ method: 'tools/call' }).attempt(row())).toBe(true);
    expect(filter({ method: 'tools/list' }).attempt(row())).toBe(false);
    expect(filter({ method: 'tools' }).attempt(row())).toBe(false);
    expect(filter({ method: 'tools/*' }).attempt(row({ method: 'tools/list', tool: null }))).toBe(true);
    expect(filter({ method: 'tools/*' }).attempt(row({ method: 'initialize', tool: null }))).toBe(false);
    expect(filter({ tool: 'create_*' }).attempt(row())).toBe(true);
    expect(filter({ tool: 'create.ticket' }).attempt(row())).toBe(false);
    expect(filter({ tool: 'create_ticket' }).attempt(row({ method: 'initialize', tool: null }))).toBe(false);
  });

  it('--target matches what a request acts on: a tool, a resource uri, a prompt, a completion ref; a request that names nothing never', () => {
    const read = (uri: string) => row({ method: 'resources/read', tool: null, target: uri });
    expect(filter({ target: 'docs://pages/*' }).attempt(read('docs://pages/billing'))).toBe(true);
    expect(filter({ target: 'docs://pages/*' }).attempt(read('docs://changelog'))).toBe(false);
    expect(filter({ target: 'docs://changelog' }).attempt(read('docs://changelog'))).toBe(true);
    expect(filter({ target: 'docs://changelog' }).attempt(read('docs://changelog/2026'))).toBe(false);
    expect(filter({ target: 'create_*' }).attempt(row())).toBe(true);
    expect(filter({ target: 'search_*' }).attempt(row())).toBe(false);
    expect(filter({ target: '*' }).attempt(row({ method: 'initialize', tool: null }))).toBe(false);
    expect(filter({ target: 'summarize' }).attempt(row({ method: 'prompts/get', tool: null, target: 'summarize' }))).toBe(true);
    // --tool still means tools/call only: a prompt named like a tool does not pass it.
    expect(filter({ tool: 'summarize' }).attempt(row({ method: 'prompts/get', tool: null, target: 'summarize' }))).toBe(false);
    expect(filter({ target: 'docs://*' }).describe()).toEqual({ target: ['docs://*'] });
  });

  it('--code keeps attempts that carry the finding', () => {
    const f = filter({ code: 'unsafe_retry' });
    expect(f.attempt(row())).toBe(false);
    expect(f.attempt(row({ findings: [{ code: 'UNSAFE_RETRY', severity: 'error', message: 'retried' }] }))).toBe(true);
    expect(f.attempt(row({ findings: [{ code: 'RETRY_POLICY', severity: 'warning', message: 'fast' }] }))).toBe(false);
  });

  it('--since is inclusive, --until exclusive; rows without a time are left out', () => {
    const f = filter({ since: '2026-10-17T09:50:00Z', until: '2026-10-17T09:51:00Z' });
    expect(f.attempt(row({ ts: '2026-10-17T09:50:00.000Z' }))).toBe(true);
    expect(f.attempt(row({ ts: '2026-10-17T09:50:59.999Z' }))).toBe(true);
    expect(f.attempt(row({ ts: '2026-10-17T09:51:00.000Z' }))).toBe(false);
    expect(f.attempt(row({ ts: '2026-10-17T09:49:59.999Z' }))).toBe(false);
    expect(f.attempt(row({ ts: undefined }))).toBe(false);
  });

  it('relative times count back from now and are stated as ISO times', () => {
    const f = filter({ since: '15m' });
    expect(f.describe()).toEqual({ since: '2026-10-17T09:45:00.000Z' });
    expect(f.attempt(row({ ts: '2026-10-17T09:44:59.000Z' }))).toBe(false);
    expect(f.attempt(row({ ts: '2026-10-17T09:45:01.000Z' }))).toBe(true);
  });

  it('combined filters must all hold', () => {
    const f = filter({ session: 'a3f1', tool: 'create_ticket', outcome: 'HTTP_ERROR', since: '1h' });
    expect(f.attempt(row({ outcome: 'HTTP_ERROR', status: 503 }))).toBe(true);
    expect(f.attempt(row({ outcome: 'HTTP_ERROR', tool: 'search' }))).toBe(false);
    expect(f.attempt(row({ outcome: 'HTTP_ERROR', session: 'b7e2' }))).toBe(false);
    expect(f.attempt(row({ outcome: 'HTTP_ERROR', ts: '2026-10-17T08:59:00.000Z' }))).toBe(false);
    expect(f.attempt(row())).toBe(false);
  });
});

describe('session findings', () => {
  it('follow --session and --code', () => {
    expect(filter({ session: 'a3f1' }).finding(finding())).toBe(true);
    expect(filter({ session: 'b7e2' }).finding(finding())).toBe(false);
    expect(filter({ code: 'SESSION_EXPIRED' }).finding(finding())).toBe(true);
    expect(filter({ code: 'ID_REUSED' }).finding(finding())).toBe(false);
  });

  it('with attempt filters, are kept only when the attempt they are about was kept (their evidence is its line)', () => {
    const f = filter({ tool: 'create_ticket' });
    expect(f.attempt(row({ tool: 'search_tickets', sources: [{ file: 'client.ndjson', line: 25 }] }))).toBe(false);
    expect(f.attempt(row({ sources: [{ file: 'client.ndjson', line: 5 }, { file: 'server.ndjson', line: 4 }] }))).toBe(true);
    // Same session, but about the search_tickets call that was left out.
    expect(f.finding(finding({ sources: [{ file: 'client.ndjson', line: 25 }] }))).toBe(false);
    // About the create_ticket call that was kept (the server's line of it is enough).
    expect(f.finding(finding({ code: 'DUPLICATE_RECORD', sources: [{ file: 'server.ndjson', line: 4 }, { file: 'server.ndjson', line: 5 }] }))).toBe(true);
    // About no attempt at all: nothing to match a tool against.
    expect(f.finding(finding({ code: 'ORPHAN_RESPONSE', sources: [{ file: 'client.ndjson', line: 40 }] }))).toBe(false);
    expect(f.finding(finding({ session: 'other', sources: [{ file: 'client.ndjson', line: 5 }] }))).toBe(true);
  });

  it('a finding about a kept attempt still needs the finding code', () => {
    const f = filter({ outcome: 'HTTP_ERROR', code: 'SESSION_EXPIRED' });
    // The attempt passes everything but --code: a session finding about it may still pass.
    expect(f.attempt(row({ outcome: 'HTTP_ERROR', status: 404, sources: [{ file: 'client.ndjson', line: 25 }] }))).toBe(false);
    expect(f.finding(finding({ sources: [{ file: 'client.ndjson', line: 25 }] }))).toBe(true);
    expect(f.finding(finding({ code: 'ORPHAN_RESPONSE', sources: [{ file: 'client.ndjson', line: 25 }] }))).toBe(false);
  });

  it('lines kept out of order and in many files are all found', () => {
    const f = filter({ since: '2026-10-17T09:00:00Z' });
    const lines = Array.from({ length: 5000 }, (_, i) => (i * 7919) % 5000 + 1);
    for (const line of lines) f.attempt(row({ sources: [{ file: `f${line % 3}.ndjson`, line }] }));
    for (const line of [1, 2, 2500, 4999, 5000]) expect(f.finding(finding({ sources: [{ file: `f${line % 3}.ndjson`, line }] })), String(line)).toBe(true);
    expect(f.finding(finding({ sources: [{ file: 'f0.ndjson', line: 1 }] }))).toBe(false);
    expect(f.finding(finding({ sources: [{ file: 'f1.ndjson', line: 5001 }] }))).toBe(false);
  });
});

describe('session findings on the samples: --fail-on and the library see only those about kept calls', () => {
  const SAMPLE = [{ path: `${SAMPLES}client.ndjson`, side: 'client' as const }, { path: `${SAMPLES}server.ndjson`, side: 'server' as const }];
  const codes = (r: { findings: Finding[] }) => r.findings.map((f) => f.code).sort();

  it('--tool create_ticket: no SESSION_EXPIRED about search_tickets id 15 and no DUPLICATE_RECORD about id 2, so --fail-on does not fire', async () => {
    const r = await cli([...BOTH, '--tool', 'create_ticket', '--fail-on', 'SESSION_EXPIRED', '-q']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/SESSION_EXPIRED|DUPLICATE_RECORD|CALL_NEVER_SENT/);
    expect(r.stdout).toMatch(/create_ticket/);
    expect((await cli([...BOTH, '--tool', 'search_tickets', '--fail-on', 'SESSION_EXPIRED', '-q'])).code).toBe(1);
  });

  it('analyze() with a tool filter returns only the session findings about that tool\'s calls', async () => {
    expect(codes(await analyze({ inputs: SAMPLE }))).toEqual(['CALL_NEVER_SENT', 'DUPLICATE_RECORD', 'GET_STREAM_REFUSED', 'NOTIFICATION_REFUSED', 'PROGRESS_UNMATCHED', 'SESSION_EXPIRED']);
    expect(codes(await analyze({ inputs: SAMPLE, filter: { tool: 'export_report' } }))).toEqual([]);
    // The late progress names the call it was late for (rebuild_index), whose line keeps it.
    expect(codes(await analyze({ inputs: SAMPLE, filter: { tool: 'rebuild_index' } }))).toEqual(['PROGRESS_UNMATCHED']);
    expect(codes(await analyze({ inputs: SAMPLE, filter: { tool: 'search_tickets' } }))).toEqual(['DUPLICATE_RECORD', 'SESSION_EXPIRED']);
    // The second probe's refused notifications/initialized and the refused GET stream are about no attempt: left out
    // under attempt filters.
    expect(codes(await analyze({ inputs: SAMPLE, filter: { method: 'initialize' } }))).toEqual(['CALL_NEVER_SENT']);
    // The 404 and the probe's 503 are HTTP errors; the duplicated row is of a call that succeeded.
    expect(codes(await analyze({ inputs: SAMPLE, filter: { outcome: 'HTTP_ERROR' } }))).toEqual(['CALL_NEVER_SENT', 'SESSION_EXPIRED']);
    expect(codes(await analyze({ inputs: SAMPLE, filter: { since: '2026-10-17T09:18:41Z' } }))).toEqual(['CALL_NEVER_SENT', 'PROGRESS_UNMATCHED']);
  });
});

describe('--target on a real recording (SDK 1.32.2 resources that fail, test/fixtures/real-audit10a/resources-errors)', () => {
  const DIR = 'test/fixtures/real-audit10a/resources-errors/';

  it('keeps the reads of one resource and the findings about them, and states the filter', async () => {
    const r = await analyze({ inputs: [{ path: `${DIR}client.ndjson`, side: 'client' }], filter: { target: 'docs://pages/*' } });
    expect(r.attempts.length).toBeGreaterThan(0);
    for (const a of r.attempts) expect(a.target).toMatch(/^docs:\/\/pages\//);
    const all = await analyze({ inputs: [{ path: `${DIR}client.ndjson`, side: 'client' }] });
    const expected = all.attempts.filter((a) => a.target?.startsWith('docs://pages/'));
    expect(r.attempts.map((a) => a.id)).toEqual(expected.map((a) => a.id));
    expect(new Set(all.attempts.map((a) => a.target).filter(Boolean)).size).toBeGreaterThan(1);
    expect(all.attempts.length).toBeGreaterThan(expected.length);
    // Each retry finding is about one resource: only the one about docs://pages/ is kept.
    const retries = (x: { attempts: { findings: { code: string; message: string }[] }[] }) => x.attempts.flatMap((a) => a.findings).filter((f) => f.code === 'RETRY_ORIGIN_AMBIGUOUS').map((f) => f.message);
    expect(retries(all).length).toBeGreaterThan(retries(r).length);
    for (const m of retries(r)) expect(m).toMatch(/docs:\/\/pages\//);
    const cliRun = await cli([`${DIR}client.ndjson`, '--target', 'docs://pages/*', '-q', '--color', 'never']);
    expect(cliRun.code).toBe(0);
    expect(cliRun.stdout).toMatch(/filters: --target docs:\/\/pages\/\*/);
    expect(cliRun.stdout).not.toMatch(/docs:\/\/changelog/);
  });
});

describe('invalid filters', () => {
  it('name the option and suggest the nearest value', () => {
    expect(buildFilter({ outcome: 'HTTP_EROR' }, { now: NOW })).toMatch(/^--outcome: "HTTP_EROR" is not an outcome; did you mean HTTP_ERROR\?/);
    expect(buildFilter({ code: 'UNSAFE_RETRIES' }, { now: NOW })).toMatch(/^--code: .*did you mean UNSAFE_RETRY\?/);
    expect(buildFilter({ since: 'yesterday' }, { now: NOW })).toMatch(/^--since: cannot read "yesterday"/);
    expect(buildFilter({ until: '5 minutes' }, { now: NOW })).toMatch(/^--until: cannot read/);
    expect(buildFilter({ since: '5m', until: '1h' }, { now: NOW })).toMatch(/--since .* is not before --until/);
  });
});

describe('filtersText', () => {
  it('states the filters as the flags that set them', () => {
    expect(filtersText({ session: ['a3f1'], tool: ['create_ticket', 'search'], since: '2026-10-17T09:45:00.000Z' })).toBe('--session a3f1 --tool create_ticket --tool search --since 2026-10-17T09:45:00.000Z');
    expect(filtersText({})).toBe('');
  });
});
