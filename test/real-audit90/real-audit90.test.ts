// The ninetieth audit: the same records twice (real traffic's logs duplicated as export pages, a shipper's re-send, a rotated pair, a file given or concatenated twice; two identical untimed requests that are not copies), and the words of the human reports (headline, sessions' failed cell, claims), held to test/fixtures/real-audit90/*/observed.json.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

const A90 = `${ROOT}test/fixtures/real-audit90/`;
const TS = `${A90}ts/`;
const COPIES = `${A90}copies/`;

interface Observed { label?: string; ok?: { isError: boolean; text: string }; error?: { message: string; code?: number }; serverRan?: string[]; hop?: { request: string; n: number; action: string }[] }
interface Source { file: string; line: number }
interface Finding { code: string; severity: string; message: string; sources?: Source[] }
interface JsonAttempt { session: string | null; id: unknown; method: string; tool: string | null; status: number | null; outcome: string; serverOutcome?: string; call?: string; attempt?: number; retryOrigin?: { origin: string }; findings: Finding[] }
interface Report { attempts: JsonAttempt[]; findings: Finding[]; summary: { attempts: number; calls: number; retries: number; findings: { bySeverity: Record<string, number> }; lines: { read: number; used: number; blank: number; skipped: number; unusable: number }; diagnostics: { total: number }; notes: string[]; inputs: { name: string; lines: number }[] } }

const observed = (scenario: string) => JSON.parse(readFileSync(`${A90}${scenario}/observed.json`, 'utf8')) as Observed[];
const step = (o: Observed[], label: string) => o.find((s) => s.label === label)!;
const json = async (args: string[]) => {
  const r = await cli([...args, '--format', 'json']);
  return { report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
};
/** What a postmortem compares: each attempt's session, id, method, tool, status, outcomes, call#attempt and who retried. */
const story = (r: Report) => r.attempts.map((a) => [a.session, a.id, a.method, a.tool, a.status, a.outcome, a.serverOutcome, `${a.call}#${a.attempt}`, a.retryOrigin?.origin]);
const allFindings = (r: Report) => [...r.attempts.flatMap((a) => a.findings), ...r.findings];
const fileLines = (f: string) => readFileSync(f, 'utf8').split('\n');
/** The record a line of an input holds, unwrapped from its platform's envelope (a page line of Elasticsearch: its hits). */
function recordsAt(src: Source): string[] {
  const o = JSON.parse(fileLines(src.file)[src.line - 1]!) as Record<string, any>;
  if (o.jsonPayload) return [JSON.stringify(o.jsonPayload)];
  if (o.attributes?.attributes) return [JSON.stringify(o.attributes.attributes)];
  if (o.hits) return (o.hits.hits as { _source: unknown }[]).map((h) => JSON.stringify(h._source));
  if (typeof o.line === 'string') return [JSON.stringify(JSON.parse(o.line))];
  if (typeof o.message === 'string') return [JSON.stringify(JSON.parse(o.message))];
  return [JSON.stringify(o)];
}

const SERVER = ['--server', `${TS}server.ndjson`];
const CLIENT = ['--client', `${TS}client.ndjson`];
/** Each way the logs came twice: the inputs, and the pair of inputs the note must name (the copy, then the log it repeats). */
const DUPLICATED: { name: string; args: string[]; note?: [string, string] }[] = [
  { name: 'cat client.ndjson client.ndjson', args: ['--client', `${COPIES}client-twice.ndjson`, ...SERVER] },
  { name: 'Cloud Logging pages that overlap, newest first', args: [...CLIENT, '--server', `${COPIES}gcl-page1.ndjson`, '--server', `${COPIES}gcl-page2.ndjson`], note: [`${COPIES}gcl-page1.ndjson`, `${COPIES}gcl-page2.ndjson`] },
  { name: 'Cloud Logging pages appended to one file', args: [...CLIENT, '--server', `${COPIES}gcl-export.ndjson`] },
  { name: 'Datadog pages that overlap', args: ['--client', `${COPIES}datadog-page1.ndjson`, '--client', `${COPIES}datadog-page2.ndjson`, ...SERVER], note: [`${COPIES}datadog-page2.ndjson`, `${COPIES}datadog-page1.ndjson`] },
  { name: 'Elasticsearch pages shifted by new documents', args: [...CLIENT, '--server', `${COPIES}elastic-pages.ndjson`] },
  { name: 'Loki pages that overlap, newest first', args: ['--client', `${COPIES}loki-page1.jsonl`, '--client', `${COPIES}loki-page2.jsonl`, ...SERVER], note: [`${COPIES}loki-page1.jsonl`, `${COPIES}loki-page2.jsonl`] },
  { name: "Vector's re-send after a restart", args: ['--client', `${COPIES}vector-resend.ndjson`, ...SERVER] },
];

describe('real-audit90 ts: the truth of the recording', () => {
  it('the hop answered the first lookup_order with 503 (the server never ran it), the app retried it 300 ms later and it worked; crash answered isError; lookup_order A-2 worked', () => {
    const o = observed('ts');
    expect(step(o, 'lookup_order A-1 #1').error?.code).toBe(503);
    expect(step(o, 'lookup_order A-1 #2').ok).toEqual({ isError: false, text: 'order A-1: shipped' });
    expect(step(o, 'crash').ok?.isError).toBe(true);
    expect(step(o, 'lookup_order A-2').ok?.isError).toBe(false);
    expect(o.find((s) => s.serverRan)!.serverRan).toEqual(['lookup_order A-1', 'crash', 'lookup_order A-2']);
    expect(o.find((s) => s.hop)!.hop!.filter((h) => h.action !== 'forward')).toEqual([{ request: 'POST tools/call lookup_order', n: 1, action: 'respond 503' }]);
  });

  it('the log as written: the outcomes are what the app got, the retry is the app\'s, nothing is a duplicate', async () => {
    const { report } = await json([...CLIENT, ...SERVER]);
    const calls = report.attempts.filter((a) => a.method === 'tools/call');
    const o = observed('ts');
    expect(calls.map((a) => [a.tool, a.outcome])).toEqual([
      ['lookup_order', step(o, 'lookup_order A-1 #1').error ? 'HTTP_ERROR' : 'TOOL_SUCCESS'],
      ['lookup_order', 'TOOL_SUCCESS'],
      ['crash', step(o, 'crash').ok!.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS'],
      ['lookup_order', 'TOOL_SUCCESS'],
    ]);
    expect(calls[0]!.status).toBe(step(o, 'lookup_order A-1 #1').error!.code);
    expect([calls[0]!.call, calls[1]!.call, calls[1]!.attempt, calls[1]!.retryOrigin?.origin]).toEqual([calls[1]!.call, calls[0]!.call, 2, 'app']);
    expect(allFindings(report).map((f) => f.code)).not.toContain('DUPLICATE_RECORD');
  });
});

describe.each(DUPLICATED)('real-audit90: $name', ({ args, note }) => {
  it('reads as the log as written: the same attempts, outcomes, retry links and findings; each duplicate a DUPLICATE_RECORD; no line unaccounted for, no input problem', async () => {
    const base = (await json([...CLIENT, ...SERVER])).report;
    const { report, stderr } = await json(args);
    expect(story(report)).toEqual(story(base));
    expect([report.summary.attempts, report.summary.calls, report.summary.retries]).toEqual([base.summary.attempts, base.summary.calls, base.summary.retries]);
    const others = (r: Report) => allFindings(r).filter((f) => f.code !== 'DUPLICATE_RECORD').map((f) => `${f.code} ${f.message}`).sort();
    expect(others(report)).toEqual(others(base));
    expect(allFindings(report).filter((f) => f.code === 'DUPLICATE_RECORD').length).toBeGreaterThan(0);
    // Every line read is counted once, in one place; a duplicated row is no input problem ("not analyzed").
    const read = report.summary.inputs.reduce((n, i) => n + i.lines, 0);
    const l = report.summary.lines;
    expect(l.read).toBe(read);
    expect(l.used + l.blank + l.skipped + l.unusable).toBe(l.read);
    expect(report.summary.diagnostics.total).toBe(base.summary.diagnostics.total);
    expect(stderr).not.toContain('not analyzed');
  });

  it('each DUPLICATE_RECORD names two lines that hold the same record (the row and the row it repeats), one finding per exchange', async () => {
    const { report } = await json(args);
    const dups = allFindings(report).filter((f) => f.code === 'DUPLICATE_RECORD');
    for (const f of dups) {
      const [first, copy] = f.sources!;
      expect(`${first!.file}:${first!.line}`, f.message).not.toBe(`${copy!.file}:${copy!.line}`);
      const a = recordsAt(first!);
      expect(recordsAt(copy!).some((r) => a.includes(r)), `${f.message}: ${first!.file}:${first!.line} and ${copy!.file}:${copy!.line}`).toBe(true);
    }
    // One per exchange: no two findings repeat the same exchange's records.
    const exchanges = dups.map((f) => recordsAt(f.sources![0]!).map((r) => (JSON.parse(r) as { xid?: string }).xid).join(','));
    if (!args.some((a) => a.endsWith('elastic-pages.ndjson'))) expect(new Set(exchanges).size).toBe(exchanges.length);
  });

  it(note ? 'the note names the input that repeats the other' : 'near miss: one input, so no note of one input repeating another', async () => {
    const { report, stderr } = await json(args);
    const said = report.summary.notes.filter((n) => n.includes(' repeats records of '));
    if (!note) return expect(said).toEqual([]);
    expect(said).toHaveLength(1);
    expect(said[0]!.startsWith(`${note[0]} repeats records of ${note[1]} (`)).toBe(true);
    expect(stderr).toContain(said[0]);
  });
});

describe('real-audit90: the near misses', () => {
  it('the same file given twice is read once, said, with no finding; a copytruncate pair reads its shared lines once, as skipped lines', async () => {
    const base = (await json([...CLIENT, ...SERVER])).report;
    const twice = await json([...CLIENT, ...CLIENT, ...SERVER]);
    expect(story(twice.report)).toEqual(story(base));
    expect(twice.stderr).toContain('is given twice');
    const rotated = await json(['--client', `${COPIES}client.ndjson.1`, '--client', `${COPIES}client.ndjson`, ...SERVER]);
    expect(story(rotated.report)).toEqual(story(base));
    const shared = fileLines(`${COPIES}client.ndjson`).filter((l) => l && fileLines(`${COPIES}client.ndjson.1`).includes(l)).length;
    expect(shared).toBeGreaterThan(0);
    expect(rotated.report.summary.lines.skipped).toBe(shared);
    expect(allFindings(rotated.report).map((f) => f.code)).not.toContain('DUPLICATE_RECORD');
  });

  it('py-untimed: two sessions of one app send byte-identical initialize and tools/call lines with no times; both are counted, none is a DUPLICATE_RECORD', async () => {
    const o = observed('py-untimed');
    expect(o.filter((s) => s.ok?.text === 'order A-1: shipped')).toHaveLength(2);
    expect(o.find((s) => s.serverRan)!.serverRan).toEqual(['lookup_order A-1', 'lookup_order A-1']);
    const log = fileLines(`${A90}py-untimed/client-debug.log`);
    const sent = log.filter((l) => l.includes("Sending client message") && l.includes("method='tools/call'"));
    expect(sent).toHaveLength(2);
    expect(sent[0]).toBe(sent[1]);
    for (const args of [['--client', `${A90}py-untimed/client-debug.log`], ['--client', `${A90}py-untimed/client-debug.log`, '--server', `${A90}py-untimed/server.ndjson`]]) {
      const { report } = await json(args);
      const calls = report.attempts.filter((a) => a.method === 'tools/call');
      expect(calls.map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_SUCCESS']);
      expect(new Set(calls.map((a) => a.call)).size).toBe(2);
      expect(allFindings(report).map((f) => f.code)).not.toContain('DUPLICATE_RECORD');
    }
  });
});

describe('real-audit90: the words a postmortem copies out of the reports', () => {
  const counted = (n: number, s: string) => `${n} ${s}${s === 'info' || n === 1 ? '' : 's'}`;
  const severities = (c: Record<string, number>) => ['error', 'warning', 'info'].filter((s) => c[s]! > 0).map((s) => counted(c[s]!, s));

  it('the headline counts findings as counts, only the severities that occur ("none" without any)', async () => {
    for (const args of [[...CLIENT, ...SERVER], DUPLICATED[0]!.args, ['--client', `${ROOT}samples/client.ndjson`, '--server', `${ROOT}samples/server.ndjson`]]) {
      const { report } = await json(args);
      const headline = (await cli(args)).stdout.split('\n')[0]!;
      const by = report.summary.findings.bySeverity;
      expect(headline).toMatch(/; findings: /);
      expect(headline.split('; findings: ')[1]).toBe(severities(by).join(', ') || 'none');
      expect(headline).not.toMatch(/\b0 (error|warning|info)\b/);
    }
  });

  it('sessions: the failed cell reads "1 HTTP_ERROR" for one outcome, "N" then each outcome for several; Markdown "N (a, b)"; findings counted as in the headline', async () => {
    const cases = [[...CLIENT, ...SERVER], ['--client', `${ROOT}samples/client.ndjson`, '--server', `${ROOT}samples/server.ndjson`]];
    for (const args of cases) {
      const sessions = (JSON.parse((await cli(['sessions', ...args, '--format', 'json'])).stdout) as { sessions: { failures: number; failed: Record<string, number>; findings: Record<string, number> }[] }).sessions;
      const text = (await cli(['sessions', ...args], { env: { COLUMNS: '200' } })).stdout;
      const md = (await cli(['sessions', ...args, '--format', 'markdown'])).stdout;
      expect(text).not.toMatch(/failed: \d+: /);
      for (const s of sessions) {
        const parts = Object.entries(s.failed).map(([o, n]) => `${n} ${o}`);
        if (parts.length === 1) {
          expect(text).toContain(`failed: ${parts[0]}`);
          expect(md).toContain(`| ${parts[0]!.replace(/_/g, '\\_')} |`);
        } else if (parts.length > 1) {
          // In its column (the total over the first outcome, at the same place), or under its row (`failed: N`).
          const lines = text.split('\n');
          const i = lines.findIndex((l, k) => k > 0 && l.includes(` ${parts[0]} `) && [`failed: ${s.failures} `, `${s.failures} `].some((t) => lines[k - 1]!.slice(l.indexOf(` ${parts[0]} `) + 1).startsWith(t)));
          expect(i, `${s.failures} over ${parts[0]}`).toBeGreaterThan(0);
          const cellParts = md.split('\n').map((l) => new RegExp(`\\| ${s.failures} \\(([^)|]*)\\) \\|`).exec(l)?.[1]).filter(Boolean).map((c) => c!.replace(/\\_/g, '_').split(', ').sort());
          expect(cellParts).toContainEqual([...parts].sort());
        }
        const f = severities(s.findings);
        if (f.length) expect(md).toContain(`| ${f.join(', ')} |`);
      }
    }
  });

  it('a claim\'s own words are quoted as text (its quotes not JSON-escaped) in the claimed column, Markdown and the timeline', async () => {
    const dir = `${ROOT}test/fixtures/real-claude-code/session-expired/`;
    const args = [`${dir}wire.ndjson`, `${dir}mcp-logs-web.jsonl`];
    const { report } = await json(args);
    const claimed = report.attempts.map((a) => (a as { claim?: { message?: string; outcome?: string } }).claim).find((c) => c?.message?.includes('"'))!;
    expect(claimed).toBeDefined();
    const flat = (s: string) => s.replace(/\s*│\s*/g, ' ').replace(/\s+/g, ' ');
    const table = flat((await cli(args, { env: { COLUMNS: '400' } })).stdout);
    expect(table).toContain(`${claimed.outcome} "${claimed.message}"`);
    expect(table).not.toContain('\\"');
    const md = (await cli([...args, '--format', 'markdown'])).stdout;
    expect(md).toContain(`"${claimed.message!.replace(/_/g, '\\_')}"`);
    expect(md).not.toContain('\\"');
    const session = report.attempts.find((a) => a.status === 404)!.session!;
    const timeline = flat((await cli(['timeline', session, ...args], { env: { COLUMNS: '400' } })).stdout);
    expect(timeline).toContain(`client said "${claimed.message}"`);
  });
});
