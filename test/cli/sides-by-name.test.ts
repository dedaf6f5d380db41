// Plain inputs whose file names say client and server are read as those views and joined, said once; names that say no side, one side only or both, keep them apart.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { analyze } from '../../src/index.js';
import { sideInName, assumeSides } from '../../src/input-sides.js';
import { ROOT, SAMPLES, cli } from './helpers.js';

const CLIENT = `${SAMPLES}client.ndjson`;
const SERVER = `${SAMPLES}server.ndjson`;
const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** A copy of a sample log at `name` (folders made) in the temporary folder. */
const copyAs = (from: string, name: string) => {
  const to = join(dir, name);
  mkdirSync(join(to, '..'), { recursive: true });
  writeFileSync(to, readFileSync(from));
  return to;
};

type Out = { attempts: { side?: string; sources: { file: string }[] }[]; summary: { notes: string[]; attempts: number; inputs: { side?: string; sideAssumed?: boolean }[] } };
const json = async (argv: string[]) => {
  const r = await cli([...argv, '--format', 'json']);
  return { ...r, out: JSON.parse(r.stdout) as Out };
};
/** The attempt lines of an NDJSON report, without the summary (which lists the notes and the inputs). */
const attemptLines = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('{"type":"attempt"'));
const namedNote = (client: string, server: string) =>
  `${client} and ${server}: given without a side, and their records state none: read as the client's view (${client}) and the server's view (${server}), as their names say, so that the two views of each call are joined and counted once (give them with --client and --server to say so)`;

describe('the side a name says', () => {
  it('a word of the file name, or of its folder when the file says none', () => {
    expect(['client.ndjson', 'mcp-client.log', 'client.har.ndjson', 'clients.jsonl', 'mcpClient.log', 'CLIENT_2026-12-07.log', '/x/client/app.log'].map(sideInName)).toEqual(Array(7).fill('client'));
    expect(['server.ndjson', 'mcp_server.log', 'serverLog.jsonl', 'servers.ndjson.gz', '/logs/server/mcp.ndjson', 'server'].map(sideInName)).toEqual(Array(6).fill('server'));
  });

  it('must not: a word inside another (observer, clientele), both words, no word, or standard input', () => {
    expect(['observer.log', 'clientele.ndjson', 'client-server.ndjson', 'capture.har', 'proxy.ndjson', '-', '/client/server.log'.replace('server', 'app'), '/server/client-and-server.log'].map(sideInName))
      .toEqual([undefined, undefined, undefined, undefined, undefined, undefined, 'client', undefined]);
  });

  it('assumed only for two plain inputs whose names say both sides, and never over a side given', () => {
    expect(assumeSides([{ path: 'client.ndjson' }, { path: 'server.ndjson' }]))
      .toEqual([{ path: 'client.ndjson', assumed: 'client', assumedBy: 'name' }, { path: 'server.ndjson', assumed: 'server', assumedBy: 'name' }]);
    expect(assumeSides([{ path: 'logs/server.log' }, { path: 'capture-client.har' }]))
      .toEqual([{ path: 'logs/server.log', assumed: 'server', assumedBy: 'name' }, { path: 'capture-client.har', assumed: 'client', assumedBy: 'name' }]);
    expect(assumeSides([{ path: 'client.ndjson' }, { path: 'proxy.ndjson' }])).toEqual([{ path: 'client.ndjson' }, { path: 'proxy.ndjson' }]);
    expect(assumeSides([{ path: 'client.ndjson' }, { path: 'client-2.ndjson' }])).toEqual([{ path: 'client.ndjson' }, { path: 'client-2.ndjson' }]);
    // A folder of scenarios' logs: scenario names use the same words (client-timeout.har beside servers' logs).
    const folder = [{ path: 'baseline.har' }, { path: 'baseline.server.ndjson' }, { path: 'client-timeout.har' }, { path: 'client-timeout.server.ndjson' }];
    expect(assumeSides(folder)).toEqual(folder);
    expect(assumeSides([{ path: 'client.ndjson' }, { path: 'server.ndjson' }, { path: 'proxy.ndjson' }])).toEqual([{ path: 'client.ndjson' }, { path: 'server.ndjson' }, { path: 'proxy.ndjson' }]);
    expect(assumeSides([{ path: 'client.ndjson', side: 'client' }, { path: 'server.ndjson', side: 'server' }, { path: 'server.har' }]))
      .toEqual([{ path: 'client.ndjson', side: 'client' }, { path: 'server.ndjson', side: 'server' }, { path: 'server.har' }]);
    // Next to one side given, the plain one is the other side whatever its name says (as before).
    expect(assumeSides([{ path: 'server.ndjson', side: 'server' }, { path: 'server-copy.har' }])).toEqual([{ path: 'server.ndjson', side: 'server' }, { path: 'server-copy.har', assumed: 'client' }]);
  });
});

describe('client.ndjson and server.ndjson given as plain files', () => {
  it('are joined as --client and --server would join them: the same attempts, said once on stderr and as a note', async () => {
    const plain = await cli([CLIENT, SERVER, '--format', 'ndjson']);
    const sided = await cli(['--client', CLIENT, '--server', SERVER, '--format', 'ndjson']);
    expect(plain.code).toBe(sided.code);
    expect(attemptLines(plain.stdout)).toEqual(attemptLines(sided.stdout));
    expect(attemptLines(plain.stdout)).toHaveLength(24);
    expect(plain.stderr).toBe(`mcp-triage: ${namedNote(CLIENT, SERVER)}\n`);
    const j = await json([CLIENT, SERVER]);
    expect(j.out.summary.notes).toEqual([namedNote(CLIENT, SERVER)]);
    expect(j.out.summary.inputs.map((i) => [i.side, i.sideAssumed])).toEqual([['client', true], ['server', true]]);
  });

  it('in either order, and by their folders names (client/mcp.ndjson, server/mcp.ndjson)', async () => {
    const sided = attemptLines((await cli(['--client', CLIENT, '--server', SERVER, '--format', 'ndjson'])).stdout).length;
    expect(attemptLines((await cli([SERVER, CLIENT, '--format', 'ndjson'])).stdout)).toHaveLength(sided);
    const c = copyAs(CLIENT, 'run/client/mcp.ndjson');
    const s = copyAs(SERVER, 'run/server/mcp.ndjson');
    const r = await cli([c, s, '--format', 'ndjson']);
    expect(attemptLines(r.stdout)).toHaveLength(sided);
    expect(r.stderr).toBe(`mcp-triage: ${namedNote(c, s)}\n`);
  });

  it('the library does the same', async () => {
    const r = await analyze({ inputs: [{ path: CLIENT }, { path: SERVER }] });
    expect(r.attempts).toHaveLength(24);
    expect(r.summary.notes).toEqual([namedNote(CLIENT, SERVER)]);
  });

  it('must not: names that say one side only, or none, keep the two apart with the advice to give their sides', async () => {
    for (const [a, b] of [['client.ndjson', 'observer.ndjson'], ['first.ndjson', 'second.ndjson'], ['client-server.ndjson', 'server-copy.ndjson']] as const) {
      const x = copyAs(CLIENT, `apart-${a}-${b}/${a}`);
      const y = copyAs(SERVER, `apart-${a}-${b}/${b}`);
      const r = await json([x, y]);
      expect(r.out.attempts).toHaveLength(46);
      expect(r.out.summary.notes).toEqual([`${x} and ${y} carry the same sessions without saying which side wrote them: they are analyzed apart; give them as --client and --server to join them`]);
    }
  });

  it("a server log of other traffic named server: read so, with a note that nothing joined, and the client's calls reported as alone", async () => {
    const other = copyAs(join(ROOT, 'test/fixtures/real-healthy/cancel-and-timeout/server.ndjson'), 'other-run/server.ndjson');
    const alone = await json([CLIENT]);
    const r = await json([CLIENT, other]);
    expect(r.out.summary.notes).toEqual([
      namedNote(CLIENT, other),
      `${CLIENT} and ${other} were read as the client's and the server's view by their names, but no call of one joined a call of the other: they may not be the two sides of the same traffic (logs of different runs or servers?); each call is reported with the one view its log gave`,
    ]);
    // The same attempts, outcomes and findings; only their order (and so their call numbers) may differ, as the
    // matcher holds a client's view a while for the server's.
    const mine = (o: Out) => o.attempts.filter((a) => a.sources[0]!.file === CLIENT).map((a) => JSON.stringify({ ...a, side: undefined, call: undefined })).sort();
    expect(mine(r.out)).toEqual(mine(alone.out));
  });

  it('must not: the joined pair says nothing of an unjoined pair, nor does a server log without calls (the server was down)', async () => {
    const r = await json([CLIENT, SERVER]);
    expect(r.out.summary.notes.some((n) => n.includes('no call of one joined'))).toBe(false);
    const quiet = join(dir, 'quiet/server.ndjson');
    mkdirSync(join(dir, 'quiet'), { recursive: true });
    writeFileSync(quiet, `${JSON.stringify({ level: 'info', msg: 'listening on 3000' })}\n`);
    const down = await json([CLIENT, quiet]);
    expect(down.out.summary.notes.some((n) => n.includes('no call of one joined'))).toBe(false);
    expect(down.out.attempts).toHaveLength((await json([CLIENT])).out.attempts.length);
  });
});
