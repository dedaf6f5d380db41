// A log export's duplicated rows (every line twice): the report is the one of the log as written, plus DUPLICATE_RECORD.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze, type AnalysisResult } from '../../src/index.js';

const ROOT = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-dup-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The file with each line written twice in a row, as an at-least-once log export delivers a batch again. */
function doubled(file: string): string {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
  const out = join(dir, `${file.replaceAll('/', '_')}`);
  writeFileSync(out, lines.flatMap((l) => [l, l]).join('\n') + '\n');
  return out;
}

/** Outcomes, links and findings, without file names, line numbers and the DUPLICATE_RECORD findings. */
function verdicts(r: AnalysisResult): string[] {
  const plain = (s: string) => s.replace(/\/[^\s,()"]+\.ndjson(:\d+)?/g, 'FILE');
  return [
    ...r.attempts.map((a) => plain(`${a.method} ${a.tool ?? ''} id ${JSON.stringify(a.id)} ${a.status} ${a.outcome}/${a.serverOutcome ?? '-'} call ${a.call}#${a.attempt} ${a.findings.map((f) => `${f.code}: ${f.message}`).sort().join(' | ')}`)),
    ...r.findings.filter((f) => f.code !== 'DUPLICATE_RECORD').map((f) => plain(`${f.code}: ${f.message}`)),
  ].sort();
}

const run = (client: string, server: string) => analyze({ inputs: [{ path: client, side: 'client' }, { path: server, side: 'server' }] });

describe('every row of the client log twice', () => {
  // Split records (request, response, events, end by exchange id), a resumed stream, GET streams refused twice, a
  // notification refused, progress after a response: before, the second request row took the exchange id from the
  // first, whose answer then never came (NO_RESPONSE), and a second end row closed the server log's exchange of the
  // same id.
  for (const [name, client, server] of [
    ['the samples', 'samples/client.ndjson', 'samples/server.ndjson'],
    ['a stream cut and resumed across SDKs', 'test/fixtures/real-xsdk-resume/ts-py-cut-resumed/client.ndjson', 'test/fixtures/real-xsdk-resume/ts-py-cut-resumed/server.ndjson'],
    ['a cut SSE stream (Hono)', 'test/fixtures/real-servers/hono-sse-cut/client.ndjson', 'test/fixtures/real-servers/hono-sse-cut/server.ndjson'],
  ] as const) {
    it(`${name}: the same outcomes, links and findings, and each duplicated exchange said once`, async () => {
      const once = await run(join(ROOT, client), join(ROOT, server));
      const twice = await run(doubled(join(ROOT, client)), join(ROOT, server));
      expect(verdicts(twice)).toEqual(verdicts(once));
      const duplicates = twice.findings.filter((f) => f.code === 'DUPLICATE_RECORD').length - once.findings.filter((f) => f.code === 'DUPLICATE_RECORD').length;
      expect(duplicates).toBeGreaterThan(0);
      // One per exchange of the client log at most (its request row, or its end's when only that came twice).
      expect(duplicates).toBeLessThanOrEqual(once.attempts.length + 20);
      expect(twice.summary.diagnostics.total).toBe(once.summary.diagnostics.total);
    });
  }

  it('the samples: the GET stream refused twice is still twice, the notification refused once, progress after the response still told', async () => {
    const twice = await run(doubled(join(ROOT, 'samples/client.ndjson')), join(ROOT, 'samples/server.ndjson'));
    const codes = (c: string) => [...twice.findings, ...twice.attempts.flatMap((a) => a.findings)].filter((f) => f.code === c);
    expect(codes('GET_STREAM_REFUSED').map((f) => f.message)).toEqual([expect.stringContaining('2 times over 1.00 s')]);
    expect(codes('NOTIFICATION_REFUSED')).toHaveLength(1);
    expect(codes('PROGRESS_UNMATCHED')).toHaveLength(1);
    expect(codes('DUPLICATE_RECORD').map((f) => f.message)).toContainEqual(expect.stringMatching(/identical record of the GET stream counted once/));
  });
});

describe('what is not a duplicated row', () => {
  it('two clients of a stateless server posting the same notification in the same millisecond (a HAR records both alike): both counted', async () => {
    const dirOf = join(ROOT, 'test/fixtures/real-chaos-py/stateless-seed-12');
    const r = await analyze({ inputs: [{ path: join(dirOf, 'capture.har.ndjson.gz') }, { path: join(dirOf, 'server.ndjson.gz'), side: 'server' }] });
    expect(r.findings.filter((f) => f.code === 'DUPLICATE_RECORD' && /notifications\/initialized/.test(f.message))).toEqual([]);
  });

  it('a server that sent its answer twice in one millisecond on one stream (Hono): the second answer is told as before, not taken for a copy of the event row', async () => {
    const dirOf = join(ROOT, 'test/fixtures/real-servers/hono-delete-then-call');
    const r = await run(join(dirOf, 'client.ndjson'), join(dirOf, 'server.ndjson'));
    expect(r.findings.filter((f) => f.code === 'DUPLICATE_RECORD').map((f) => f.message)).toEqual([
      expect.stringContaining('identical record of the response to id 50 counted once'),
      expect.stringContaining('identical record of the response to id 50 counted once'),
    ]);
  });
});

describe('the reports a person reads', () => {
  it("fold a session's DUPLICATE_RECORD rows past the third into a count; JSON keeps every one", async () => {
    const { cli } = await import('../cli/helpers.js');
    const client = doubled(join(ROOT, 'samples/client.ndjson'));
    const server = join(ROOT, 'samples/server.ndjson');
    const json = JSON.parse((await cli(['--client', client, '--server', server, '--format', 'json'])).stdout) as { findings: { code: string; session: string | null }[] };
    const all = json.findings.filter((f) => f.code === 'DUPLICATE_RECORD');
    const inA3f1 = all.filter((f) => f.session?.startsWith('a3f1')).length;
    expect(inA3f1).toBeGreaterThan(3);
    for (const format of ['table', 'markdown']) {
      const out = (await cli(['--client', client, '--server', server, '--format', format], { env: { COLUMNS: '400' } })).stdout;
      const rows = out.split('\n').filter((l) => l.includes('DUPLICATE_RECORD'));
      expect(rows.filter((l) => l.includes('a3f1c2d4'))).toHaveLength(3);
      expect(out).toContain(`and ${inA3f1 - 3} more identical records of this session, each counted once`);
      expect(rows.length).toBeLessThan(all.length);
    }
  });
});
