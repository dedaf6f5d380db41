// Real docker-compose output of several MCP services in one file (test/fixtures/real-audit53): each service's lines are read as its own log, so the combined file tells what the per-service logs tell.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit53/';
type Result = Awaited<ReturnType<typeof analyze>>;
const run = (inputs: { path: string; side?: 'client' | 'server' }[]) => analyze({ inputs: inputs.map((i) => ({ ...i, path: DIR + i.path })), onDiagnostic: () => {} });
/** Each attempt as both views tell it, in a stable order (the call numbers follow release order, which differs). */
const rows = (r: Result) =>
  r.attempts.map((a) => `${a.session ?? '-'} #${String(a.id)} ${a.method} ${a.tool ?? ''} ${a.status} ${a.outcome} ${a.serverOutcome ?? ''} ${a.attempt} [${a.findings.map((f) => f.code).sort().join(',')}]`).sort();

/** The truth of each run: every service's lines alone (`docker-compose logs --no-log-prefix SERVICE`, `docker logs` of each replica). */
const PER_SERVICE: Record<string, { path: string; side: 'client' | 'server' }[]> = {
  a: [{ path: 'a/client.log', side: 'client' }, { path: 'a/pyclient.log', side: 'client' }, { path: 'a/server.log', side: 'server' }],
  b: [{ path: 'b/client-a.log', side: 'client' }, { path: 'b/client-b.log', side: 'client' }, { path: 'b/server_1.log', side: 'server' }, { path: 'b/server_2.log', side: 'server' }],
  c: [{ path: 'c/client.log', side: 'client' }, { path: 'c/pyclient.log', side: 'client' }, { path: 'c/server.log', side: 'server' }],
  d: [{ path: 'd/client.log', side: 'client' }, { path: 'd/py1.log', side: 'client' }, { path: 'd/py2.log', side: 'client' }, { path: 'd/server.log', side: 'server' }],
  e: [{ path: 'e/client.log.gz', side: 'client' }, { path: 'e/pyclient.log.gz', side: 'client' }, { path: 'e/server.log.gz', side: 'server' }],
  f: [{ path: 'f/client.log', side: 'client' }, { path: 'f/pyclient.log', side: 'client' }, { path: 'f/server.log', side: 'server' }],
};
/** The forms each run was kept in (e, the long run, only as `docker-compose logs`, gzipped). */
const FORMS = (c: string) => (c === 'e' ? ['all.log.gz'] : ['all.log', 'all-t.log', 'all-color.log', 'up.log']);

describe('docker-compose logs of several services, read as one input', () => {
  for (const c of Object.keys(PER_SERVICE)) {
    for (const form of FORMS(c)) {
      it(`${c}/${form}: the same attempts as the services' own logs, as a bare input and as --client`, async () => {
        const truth = rows(await run(PER_SERVICE[c]!));
        expect(rows(await run([{ path: `${c}/${form}` }]))).toEqual(truth);
        expect(rows(await run([{ path: `${c}/${form}`, side: 'client' }]))).toEqual(truth);
      });
    }
  }

  it('two Python clients in the default log format (no time), without the server: each keeps its own session', async () => {
    // d/clients-*.log: the recording's compose output with the server's lines taken out (a server that is no compose
    // service). Before, the two clients' DEBUG lines were read as one log: sessions mixed, an initialize unanswered.
    const truth = rows(await run([{ path: 'd/client.log', side: 'client' }, { path: 'd/py1.log', side: 'client' }, { path: 'd/py2.log', side: 'client' }]));
    expect(truth.filter((r) => r.startsWith('- '))).toEqual([]);
    for (const form of ['clients-all.log', 'clients-up.log']) {
      const r = await run([{ path: `d/${form}` }]);
      expect(rows(r)).toEqual(truth);
      expect(r.findings.map((f) => f.code)).not.toContain('ORPHAN_RESPONSE');
    }
  });

  it('a 40-second run: `docker-compose logs` writes each service as blocks, so its times run back: read at the end, said once', async () => {
    const r = await run([{ path: 'e/all.log.gz' }]);
    expect(r.summary.inputs[0]!.unordered).toBe(true);
    expect(r.attempts.filter((a) => a.outcome !== 'TOOL_SUCCESS' && a.outcome !== 'SUCCESS')).toEqual([]);
    expect(r.attempts.filter((a) => a.tool === 'echo' && a.serverOutcome === 'TOOL_SUCCESS')).toHaveLength(100);
  });

  it('the diagnostic of that run says why its times run back, and what to give instead', async () => {
    const said: string[] = [];
    await analyze({ inputs: [{ path: `${DIR}e/all.log.gz` }], onDiagnostic: (l) => said.push(l) });
    const back = said.filter((l) => l.includes('timestamp goes back'));
    expect(back).toHaveLength(1);
    expect(back[0]).toContain('`docker compose logs SERVICE`');
  });

  it('must not: a log without compose whose times run back (its halves swapped) keeps the plain diagnostic', async () => {
    const lines = gunzipSync(readFileSync(`${DIR}e/client.log.gz`)).toString('utf8').split('\n').filter(Boolean);
    const half = Math.floor(lines.length / 2);
    const path = join(mkdtempSync(join(tmpdir(), 'a53-')), 'client-swapped.log');
    writeFileSync(path, [...lines.slice(half), ...lines.slice(0, half)].join('\n') + '\n');
    const said: string[] = [];
    await analyze({ inputs: [{ path, side: 'client' }], onDiagnostic: (l) => said.push(l) });
    expect(said.filter((l) => l.includes('timestamp goes back'))).toHaveLength(1);
    expect(said.filter((l) => l.includes('docker compose'))).toEqual([]);
  });

  it('two Python clients with the server: each attempt\'s Python lines are of the service whose session it is', async () => {
    // Before, the two clients' lines were read by one reader: some of py2's requests were put in py1's session (the
    // attempts came out alike, the sessions swapped, so only the lines tell).
    for (const form of ['all.log', 'all-color.log', 'up.log']) {
      const text = readFileSync(`${DIR}d/${form}`, 'utf8').split('\n');
      const service = (line: number) => /^(?:\x1b\[[\d;]*m)*(\w+_\d+)/.exec(text[line - 1] ?? '')?.[1];
      const owner = new Map<string, string>();
      text.forEach((l, i) => {
        const m = /Received session ID: (\S+)/.exec(l);
        if (m) owner.set(m[1]!, service(i + 1)!);
      });
      const r = await run([{ path: `d/${form}` }]);
      let checked = 0;
      for (const a of r.attempts) {
        const py = owner.get(a.session ?? '');
        if (py === undefined) continue;
        for (const src of a.sources) {
          const s = service(src.line);
          if (s === 'py1_1' || s === 'py2_1') {
            expect(`${a.session} ${s}`).toBe(`${a.session} ${py}`);
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(10);
    }
  });

  it("compose's own lines (Attaching to, exited with code) are skipped, not unusable; line numbers point into the file", async () => {
    const r = await run([{ path: 'a/up.log' }]);
    const input = r.summary.inputs[0]!;
    expect(input.wrapper).toBe('compose');
    const perService = await run(PER_SERVICE.a!);
    // The unusable lines are the programs' own text lines: the TS client's `truth ...` lines on stderr (9) and the
    // server's start-up line; each service's log alone has those too, its "Attaching to" first line skipped.
    expect(input.unusable).toBe(10);
    expect(perService.summary.inputs.reduce((n, i) => n + i.unusable, 0)).toBe(10);
    expect(perService.summary.inputs.map((i) => i.skipped)).toEqual([1, 115, 1]);
    expect(input.used).toBe(perService.summary.inputs.reduce((n, i) => n + i.used, 0));
    const a = r.attempts.find((x) => x.tool === 'signin')!;
    expect(a.sources.length).toBeGreaterThan(2);
    expect(a.sources.every((s) => s.file.endsWith('a/up.log') && s.line > 1)).toBe(true);
  });

  it('the Python client\'s POST that found the restarted server down: ended there, said why, and the app\'s call again is its retry', async () => {
    // c/truth.md: call 11 raised (ExceptionGroup: httpcore's connect_tcp.failed, ConnectError), a new Client sent it again.
    // Before: UNANSWERED "not evidence that none came", and the call again a call of its own.
    for (const inputs of [[{ path: 'c/pyclient.log', side: 'client' as const }], [{ path: 'c/all.log' }], PER_SERVICE.c!]) {
      const r = await run(inputs);
      const first = r.attempts.find((a) => a.session?.startsWith('6e3ee420') && a.id === 14)!;
      // The log proves its connection failed (audit 55): NO_RESPONSE, as the TypeScript client's capture has it.
      expect(first.outcome).toBe('NO_RESPONSE');
      expect(first.detail.why).toMatch(/^its POST could not connect, nothing was sent \(httpcore's "connect_tcp\.failed exception=ConnectError" at line \d+/);
      const again = r.attempts.find((a) => a.call === first.call && a.attempt === 2);
      expect(again).toMatchObject({ tool: 'echo', outcome: 'TOOL_SUCCESS', id: 2 });
    }
  });

  it('near miss: connect_tcp.failed with no request just sent (a readiness poll before the first request) ends nothing', async () => {
    const r = await analyze({ inputs: [{ path: 'test/fixtures/real-audit19/s2-python/client-legacy-asctime.log', side: 'client' }], onDiagnostic: () => {} });
    expect(r.attempts.filter((a) => (a.why ?? '').includes('connect_tcp.failed'))).toEqual([]);
  });
});
