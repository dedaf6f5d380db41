// The library API: analyze() and streamAnalysis() in-process, on files and on a Readable that is not process.stdin, with filters.
import { describe, expect, it } from 'vitest';
import { Readable, PassThrough } from 'node:stream';
import { NdjsonAttemptSchema } from '../src/schemas.js';
import { analyze, streamAnalysis, FilterError, InputError, StrictStop, type AttemptRow, type Finding, type Summary, type AnalysisResult } from '../src/index.js';
import { BOTH, SAMPLES, cli, exchange } from './cli/helpers.js';

const CLIENT = `${SAMPLES}client.ndjson`;
const SERVER = `${SAMPLES}server.ndjson`;

/** A client-side log made here: an initialize, a successful search, a 503 and its retry, and a tool error in another session. */
const lines = [
  exchange({ ts: '2026-10-17T10:00:00.000Z', session: 'sess-aaa1', id: 0, method: 'initialize', side: 'client', result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'orders', version: '2.0.1' } } }),
  exchange({ ts: '2026-10-17T10:00:01.000Z', session: 'sess-aaa1', id: 1, tool: 'search', side: 'client' }),
  exchange({ ts: '2026-10-17T10:00:02.000Z', session: 'sess-aaa1', id: 2, tool: 'refund', status: 503, side: 'client' }),
  exchange({ ts: '2026-10-17T10:00:02.800Z', session: 'sess-aaa1', id: 3, tool: 'refund', side: 'client' }),
  exchange({ ts: '2026-10-17T10:00:05.000Z', session: 'sess-bbb2', id: 1, tool: 'refund', side: 'client', result: { content: [{ type: 'text', text: 'card declined' }], isError: true } }),
];

/** The lines as one would pipe them: each ends with a newline. */
const feed = (ls: string[]) => Readable.from(ls.map((l) => `${l}\n`));

describe('analyze()', () => {
  it('reads any Readable given as stdin (not process.stdin) and returns typed attempts, findings and summary', async () => {
    const stdin = feed(lines);
    const result: AnalysisResult = await analyze({ stdin });
    expect(result.attempts.map((a) => [a.session, a.id, a.tool, a.status, a.outcome])).toEqual([
      ['sess-aaa1', 0, null, 200, 'SUCCESS'],
      ['sess-aaa1', 1, 'search', 200, 'TOOL_SUCCESS'],
      ['sess-aaa1', 2, 'refund', 503, 'HTTP_ERROR'],
      ['sess-aaa1', 3, 'refund', 200, 'TOOL_SUCCESS'],
      ['sess-bbb2', 1, 'refund', 200, 'TOOL_ERROR'],
    ]);
    // The 503 and the same call sent again form one call with two attempts.
    const [failed, retry] = [result.attempts[2]!, result.attempts[3]!];
    expect(retry.call).toBe(failed.call);
    expect([failed.attempt, retry.attempt]).toEqual([1, 2]);
    expect(result.summary.attempts).toBe(5);
    expect(result.summary.byOutcome).toEqual({ HTTP_ERROR: 1, TOOL_ERROR: 1, TOOL_SUCCESS: 2, SUCCESS: 1 });
    expect(result.summary.inputs).toHaveLength(1);
    expect(result.summary.inputs[0]!.name).toBe('<stdin>');
    expect(result.summary.lines).toEqual({ read: 5, used: 5, blank: 0, skipped: 0, unusable: 0 });
    // Every attempt is a valid ndjson attempt line once it has its type.
    for (const a of result.attempts) expect(NdjsonAttemptSchema.safeParse({ type: 'attempt', ...a }).success).toBe(true);
  });

  it('takes a stream that arrives slowly, in pieces cut mid-line', async () => {
    const stdin = new PassThrough();
    const text = lines.join('\n');
    const done = analyze({ inputs: [{ path: '-', side: 'client' }], stdin });
    for (let i = 0; i < text.length; i += 97) {
      stdin.write(text.slice(i, i + 97));
      await new Promise((r) => setTimeout(r, 1));
    }
    stdin.end();
    const { attempts } = await done;
    expect(attempts).toHaveLength(5);
    expect(attempts.every((a) => a.side === 'client')).toBe(true);
  });

  it('joins files given as { path, side } and agrees with the CLI', async () => {
    const result = await analyze({ inputs: [{ path: CLIENT, side: 'client' }, { path: SERVER, side: 'server' }] });
    const viaCli = await cli([...BOTH, '--format', 'ndjson']);
    const cliLines = viaCli.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    const cliAttempts = cliLines.filter((l) => l.type === 'attempt').map(({ type: _t, ...rest }) => rest);
    expect(result.attempts).toEqual(cliAttempts);
    const cliSummary = cliLines.find((l) => l.type === 'summary') as unknown as Summary;
    expect(result.summary.attempts).toBe(cliSummary.attempts);
    expect(result.summary.findings).toEqual(cliSummary.findings);
    // Both sides of an attempt the server saw are joined into one row.
    expect(result.attempts.some((a) => a.side === 'client' && a.serverOutcome !== undefined)).toBe(true);
  });

  it('redacts secrets unless asked not to', async () => {
    const withToken = exchange({ ts: '2026-10-17T10:00:00.000Z', session: 's1', id: 1, tool: 'search', side: 'client', error: { code: -32602, message: 'bad token sk-live-0123456789abcdefghijklmnop' } });
    const redacted = await analyze({ stdin: feed([withToken]) });
    const plain = await analyze({ stdin: feed([withToken]), redact: false });
    expect(plain.attempts[0]!.detail?.errorMessage).toContain('sk-live-0123456789abcdefghijklmnop');
    expect(redacted.attempts[0]!.detail?.errorMessage).not.toContain('sk-live-0123456789abcdefghijklmnop');
    expect(redacted.summary.redaction).toBe(true);
  });
});

describe('filters', () => {
  it('apply before the summary is built, and the summary states them', async () => {
    const { attempts, summary } = await analyze({ stdin: feed(lines), filter: { tool: 'refund', outcome: ['HTTP_ERROR', 'TOOL_ERROR'] } });
    expect(attempts.map((a) => [a.session, a.id])).toEqual([['sess-aaa1', 2], ['sess-bbb2', 1]]);
    expect(summary.attempts).toBe(2);
    expect(summary.byOutcome).toEqual({ HTTP_ERROR: 1, TOOL_ERROR: 1 });
    expect(summary.filters).toEqual({ tool: ['refund'], outcome: ['HTTP_ERROR', 'TOOL_ERROR'] });
  });

  it('relative times count back from options.now', async () => {
    const now = Date.parse('2026-10-17T10:00:06.000Z');
    const { attempts, summary } = await analyze({ stdin: feed(lines), filter: { since: '4500ms' }, now });
    expect(attempts.map((a) => a.ts)).toEqual(['2026-10-17T10:00:02.000Z', '2026-10-17T10:00:02.800Z', '2026-10-17T10:00:05.000Z']);
    expect(summary.filters).toEqual({ since: '2026-10-17T10:00:01.500Z' });
  });

  it('throw FilterError for an invalid filter, before reading anything', async () => {
    const stdin = new PassThrough();
    await expect(analyze({ stdin, filter: { outcome: 'TIMEOUT' } })).rejects.toBeInstanceOf(FilterError);
    expect(stdin.readableFlowing).toBe(null);
  });

  it('name the filter option as the library spells it, not the CLI flag', async () => {
    const stdin = new PassThrough();
    await expect(analyze({ stdin, filter: { outcome: 'HTTP_EROR' } })).rejects.toThrow(/^filter\.outcome: "HTTP_EROR" is not an outcome; did you mean HTTP_ERROR\?/);
    await expect(analyze({ stdin, filter: { since: '5m', until: '1h' } })).rejects.toThrow(/^filter\.since \(.*\) is not before filter\.until/);
    await expect(analyze({ stdin, filter: { code: 'NOPE' } })).rejects.not.toThrow(/--code/);
  });
});

describe('streamAnalysis()', () => {
  it('hands over each attempt as it becomes final, then resolves to the summary', async () => {
    const seen: AttemptRow[] = [];
    const findings: Finding[] = [];
    const dropped: AttemptRow[] = [];
    const summary = await streamAnalysis({ stdin: feed(lines), filter: { session: 'sess-aaa1' } }, {
      attempt: (a) => seen.push(a),
      finding: (f) => findings.push(f),
      filtered: (a) => dropped.push(a),
    });
    expect(seen.map((a) => a.id)).toEqual([0, 1, 2, 3]);
    expect(dropped.map((a) => a.session)).toEqual(['sess-bbb2']);
    expect(summary.attempts).toBe(4);
    expect(findings.every((f) => f.session === 'sess-aaa1')).toBe(true);
  });

  it('waits while the consumer asks for backpressure', async () => {
    let waits = 0;
    const many = Array.from({ length: 400 }, (_, i) => exchange({ ts: new Date(Date.parse('2026-10-17T10:00:00Z') + i * 1000).toISOString(), session: 's1', id: i, tool: 'search', side: 'client' }));
    const summary = await streamAnalysis({ stdin: Readable.from(many.map((l) => `${l}\n`)) }, {
      backpressure: () => {
        waits++;
        return new Promise((r) => setTimeout(r, 0));
      },
    });
    expect(summary.attempts).toBe(400);
    expect(waits).toBeGreaterThan(0);
  });

  it('rejects with InputError for a file that cannot be read', async () => {
    await expect(streamAnalysis({ inputs: [{ path: `${SAMPLES}no-such-file.ndjson` }] })).rejects.toBeInstanceOf(InputError);
  });

  it('rejects with StrictStop at the first unusable line, its message located as the CLI prints it', async () => {
    const stdin = feed([lines[0]!, '{"not": "json"', lines[1]!]);
    const error = await analyze({ stdin, strict: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StrictStop);
    const stop = error as StrictStop;
    expect(stop.where).toBe('<stdin>:2');
    expect(stop.reason).toMatch(/^invalid JSON \(/);
    expect(stop.message).toBe(`<stdin>:2: ${stop.reason}`);
    expect(stop.name).toBe('StrictStop');
    const text = await analyze({ inputs: [{ path: `${SAMPLES}../README.md` }], strict: true }).catch((e: unknown) => e);
    expect((text as Error).message).toMatch(/README\.md:1: line is not JSON and matches no text log format$/);
  });

  it('an empty input: the summary says no line was read (lines.read 0), and nothing is said through onDiagnostic', async () => {
    const said: string[] = [];
    const summary = await streamAnalysis({ stdin: Readable.from([]), onDiagnostic: (l) => said.push(l) });
    expect(summary.lines.read).toBe(0);
    expect(summary.inputs.map((i) => [i.name, i.lines, i.bytesRead])).toEqual([['<stdin>', 0, 0]]);
    expect(said).toEqual([]);
  });

  it('needs inputs or a stdin stream', async () => {
    await expect(analyze({})).rejects.toThrow(/give inputs/);
  });
});

describe('the README example (docs: Library API)', () => {
  it('runs as written from the project folder and gives what the text says', async () => {
    const { createReadStream } = await import('node:fs');
    const { attempts, findings, summary } = await analyze({
      inputs: [
        { path: 'samples/client.ndjson', side: 'client' },
        { path: 'samples/server.ndjson', side: 'server' },
      ],
      filter: { tool: 'export_report' },
    });
    expect(attempts.map((a) => [a.tool, a.status, a.outcome, a.serverOutcome ?? '-'])).toEqual([
      ['export_report', 200, 'STREAM_INCOMPLETE', 'TOOL_SUCCESS'],
      ['export_report', 200, 'TOOL_ERROR', 'TOOL_ERROR'],
    ]);
    expect(summary.byOutcome).toEqual({ STREAM_INCOMPLETE: 1, TOOL_ERROR: 1 });
    expect(findings.every((f) => f.session?.startsWith('a3f1'))).toBe(true);
    const seen: string[] = [];
    const total = await streamAnalysis(
      { stdin: createReadStream('samples/capture.har.ndjson'), filter: { outcome: ['HTTP_ERROR', 'NO_RESPONSE'] } },
      { attempt: (a) => seen.push(a.outcome) },
    );
    expect(total.attempts).toBe(seen.length);
    expect(new Set(seen)).toEqual(new Set(['HTTP_ERROR', 'NO_RESPONSE']));
  });
});
