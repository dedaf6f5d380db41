// Audit 86's real captures (test/fixtures/real-audit86): each folder's files given plain, their sides told by what their first lines state (a Python client's DEBUG log, a server's console, a hop's access log) and by names beside hop logs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit86/';
const f = (run: string, name: string) => `${DIR}${run}/${name}`;
type Input = { path: string; side?: 'client' | 'server' };
type Attempt = { method: string; tool: string | null; outcome: string; status: number | null; side?: string; serverOutcome?: string; serverStatus?: number; call: string; attempt: number };
type Observed = { steps: { step: string; ok?: unknown; threw?: unknown }[]; serverRan: string[]; hop: string[] };

async function run(inputs: Input[]) {
  const said: string[] = [];
  const r = await analyze({ inputs, onDiagnostic: (m) => said.push(m) });
  const attempts = r.attempts as unknown as Attempt[];
  return { attempts, calls: r.summary.calls, notes: r.summary.notes, said, inputs: r.summary.inputs };
}
const observed = (run: string) => JSON.parse(readFileSync(f(run, 'observed.json'), 'utf8')) as Observed;
const shape = (a: Attempt[]) => a.map((x) => [x.method, x.tool, x.outcome, x.status, x.side ?? null, x.serverOutcome ?? null, x.serverStatus ?? null, x.call, x.attempt]);
/** What each tool step of the app got, as an outcome: a result's isError, or what it threw (the hop's 503). */
const stepOutcomes = (o: Observed) => o.steps.filter((s) => s.step !== 'connect').map((s) => (s.threw ? 'HTTP_ERROR' : (s.ok as { isError: boolean }).isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS'));

describe('real-audit86 py-proxy-hop: the Python SDK client\'s DEBUG log, the recording proxy\'s capture (no side), a hop\'s access log, given plain', () => {
  const files = ['client-debug.log', 'proxy.ndjson', 'access.log'].map((n) => ({ path: f('py-proxy-hop', n) }));
  const o = observed('py-proxy-hop');

  it('the DEBUG log states the client\'s side, so the proxy\'s capture is the server\'s view: every call joined and counted once, as with the flags; the hop\'s log keeps no side', async () => {
    const plain = await run(files);
    const flagged = await run([{ ...files[0]!, side: 'client' }, { ...files[1]!, side: 'server' }, files[2]!]);
    expect(shape(plain.attempts)).toEqual(shape(flagged.attempts));
    const calls = plain.attempts.filter((a) => a.method === 'tools/call');
    expect(calls.map((a) => a.outcome)).toEqual(stepOutcomes(o));
    expect(calls.every((a) => a.side === 'client' && a.serverOutcome === a.outcome)).toBe(true);
    // the hop answered the first send_invoice 503 itself (observed.hop): the proxy in front of it saw that 503
    expect(o.hop).toHaveLength(1);
    expect(calls.filter((a) => a.status === 503 || a.serverStatus === 503).map((a) => a.tool)).toEqual(['send_invoice']);
    expect(plain.inputs.map((i) => [i.side ?? null, i.sideAssumed ?? false])).toEqual([[null, false], ['server', true], [null, false]]);
    expect(plain.notes.filter((n) => n.includes('given without a side'))).toEqual([`${f('py-proxy-hop', 'proxy.ndjson')}: given without a side, and its records state none, next to logs whose records state the client's side only (as recordingFetch's and recordingHandler's do, and logs that one side only writes: a Python SDK DEBUG log, a client's debug log, a server's console, a server's HTTP logger of request paths): read as the server's view, to be joined to theirs (give it with --server to say so)`]);
  });

  it('must not: the capture alone beside the hop\'s log (no log states a side) keeps no side', async () => {
    const r = await run([files[1]!, files[2]!]);
    expect(r.inputs.every((i) => i.side === undefined)).toBe(true);
    expect(r.notes.some((n) => n.includes('given without a side'))).toBe(false);
  });
});

describe('real-audit86 names-hop: two recording proxies without --side (client.ndjson, server.ndjson) and the hop between them (access.log), given plain', () => {
  const files = ['client.ndjson', 'server.ndjson', 'access.log'].map((n) => ({ path: f('names-hop', n) }));
  const o = observed('names-hop');

  it('beside the hop\'s log only, the two captures are read as their names say: joined as with the flags; the hop\'s 503 has no server view', async () => {
    const plain = await run(files);
    const flagged = await run([{ ...files[0]!, side: 'client' }, { ...files[1]!, side: 'server' }, files[2]!]);
    expect(shape(plain.attempts)).toEqual(shape(flagged.attempts));
    const calls = plain.attempts.filter((a) => a.method === 'tools/call');
    expect(calls.map((a) => a.outcome)).toEqual(stepOutcomes(o));
    // what the server ran is what its view shows; the 503 the hop answered never reached it
    expect(calls.filter((a) => a.serverOutcome !== undefined)).toHaveLength(o.serverRan.length);
    expect(calls.filter((a) => a.status === 503).map((a) => [a.tool, a.serverOutcome ?? null])).toEqual([['send_invoice', null]]);
    expect(plain.notes.some((n) => n.includes('as their names say'))).toBe(true);
  });

  it('must not: a third view beside them (another scenario\'s capture) leaves every side as it was: nothing joined', async () => {
    const r = await run([...files, { path: f('py-proxy-hop', 'proxy.ndjson') }]);
    expect(r.inputs.every((i) => i.side === undefined)).toBe(true);
    expect(r.attempts.every((a) => a.serverOutcome === undefined)).toBe(true);
  });
});

describe('real-audit86 har-uvicorn: an SDK v2 client\'s HAR entry lines beside the Python server\'s uvicorn console', () => {
  const o = observed('har-uvicorn');

  it('the console states the server\'s side, so the HAR is read as the client\'s view (its lines name no id to join: the calls are the HAR\'s, once)', async () => {
    const r = await run([{ path: f('har-uvicorn', 'har-lines.ndjson') }, { path: f('har-uvicorn', 'uvicorn.log') }]);
    expect(r.inputs.map((i) => [i.side ?? null, i.sideAssumed ?? false])).toEqual([['client', true], [null, false]]);
    const calls = r.attempts.filter((a) => a.method === 'tools/call');
    expect(calls.map((a) => a.outcome)).toEqual(stepOutcomes(o));
    expect(calls.every((a) => a.side === 'client')).toBe(true);
    expect(r.notes.filter((n) => n.includes('given without a side'))).toHaveLength(1);
  });

  // (this was a "must not" until the eighty-ninth audit: a log whose first lines give no record no longer keeps every other input unsided)
  it('beside the Python server\'s DEBUG log too, whose first lines carry no message (mcp 2.3.0 logs none): that log takes no part, the HAR is still the client\'s view', async () => {
    const r = await run(['har-lines.ndjson', 'uvicorn.log', 'mcp-debug.log'].map((n) => ({ path: f('har-uvicorn', n) })));
    expect(r.inputs.map((i) => [i.side ?? null, i.sideAssumed ?? false])).toEqual([['client', true], [null, false], [null, false]]);
    expect(r.notes.filter((n) => n.includes('given without a side'))).toHaveLength(1);
  });
});
