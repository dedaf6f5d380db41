// Real captures of test/fixtures/real-audit32 that mcp-triage already read right: kept so that they stay right. The
// Python 2.3.0 client against the SDK 1.32.2 server and the SDK 1.32.2 client against the Python MCPServer (a tool that
// raises, isError, an unknown tool, bad arguments, a timeout then the app's call again), a token refreshed on a 401
// mid-session, a call cancelled by asyncio.wait_for during its progress, a server killed mid-call and started again,
// and tools that change under a session (list_changed: an outputSchema, a removed tool).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze, type AnalysisResult } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit32/', import.meta.url));
type Side = 'client' | 'server';
const run = (scenario: string, files: [string, Side?][]) =>
  analyze({ inputs: files.map(([f, side]) => ({ path: `${DIR}${scenario}/${f}`, ...(side ? { side } : {}) })), onDiagnostic: () => {} });
const truth = (scenario: string) => readFileSync(`${DIR}${scenario}/truth-client.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
/** Each view of a scenario: the client's capture alone, the server's alone, both joined. */
const views = (s: string, client: string): [string, Side?][][] => [[[client, 'client']], [['server.ndjson', 'server']], [[client, 'client'], ['server.ndjson', 'server']]];
const calls = (r: AnalysisResult) => r.attempts.filter((a) => a.method === 'tools/call').map((a) => `${String(a.id)} ${a.tool} ${a.outcome} #${a.attempt}`);
const codes = (r: AnalysisResult, id: number) => r.attempts.find((a) => a.method === 'tools/call' && Number(a.id) === id)!.findings.map((f) => f.code).sort();

describe('errors across SDKs: a raise is isError, an unknown tool and bad arguments too; a timeout then the same call again', () => {
  it('the Python client against the SDK 1.32.2 server (py-ts-errors)', async () => {
    expect(truth('py-ts-errors').filter((t) => t.label).map((t) => [t.label, t.ok, t.isError ?? null])).toEqual([
      ['explode', true, true], ['soft_fail', true, true], ['unknown', true, true], ['badargs', true, true], ['slow timeout', false, null], ['slow app re-call', true, false]]);
    for (const v of views('py-ts-errors', 'proxy.ndjson')) {
      const r = await run('py-ts-errors', v);
      expect(calls(r)).toEqual(['3 explode TOOL_ERROR #1', '4 soft_fail TOOL_ERROR #1', '5 no_such_tool TOOL_ERROR #1', '6 charge TOOL_ERROR #1', '7 slow STREAM_INCOMPLETE #1', '8 slow TOOL_SUCCESS #2']);
      expect(codes(r, 7)).toEqual(['CANCELLED']);
      // slow has no annotations (destructive by the spec's defaults) and the server began it: an unsafe retry
      expect(codes(r, 8)).toContain('UNSAFE_RETRY');
    }
  });

  it('the SDK 1.32.2 client against the Python MCPServer, which answers the cancelled call -32800 (ts-py-errors)', async () => {
    for (const v of views('ts-py-errors', 'client.ndjson')) {
      const r = await run('ts-py-errors', v);
      expect(calls(r)).toEqual(['2 explode TOOL_ERROR #1', '3 soft_fail TOOL_ERROR #1', '4 slow JSONRPC_ERROR #1', '5 slow TOOL_SUCCESS #2', '6 no_such_tool TOOL_ERROR #1', '7 charge TOOL_ERROR #1', '8 charge TOOL_SUCCESS #1']);
      expect(codes(r, 4)).toEqual(['CANCELLED']);
      expect(codes(r, 5)).toContain('UNSAFE_RETRY');
      expect(r.findings).toEqual([]);
    }
  });
});

describe("a token refreshed on a 401 mid-session (the Python client's httpx.Auth re-sends the request under its id)", () => {
  it('each 401 is HTTP_ERROR and its re-send attempt 2 from the SDK side; charge ran once each, no UNSAFE_RETRY (py-auth-401-refresh)', async () => {
    for (const v of [[['proxy.ndjson', 'client']], [['proxy.ndjson', 'client'], ['server.ndjson', 'server']]] as [string, Side?][][]) {
      const r = await run('py-auth-401-refresh', v);
      expect(r.attempts.filter((a) => a.method !== 'notifications/initialized').map((a) => `${String(a.id)} ${a.method} ${a.outcome} ${a.status} #${a.attempt} ${a.retryOrigin?.origin ?? ''}`)).toEqual(
        ['1 initialize SUCCESS 200 #1 ', '2 tools/list HTTP_ERROR 401 #1 ', '2 tools/list SUCCESS 200 #2 sdk', '3 tools/call TOOL_SUCCESS 200 #1 ', '4 tools/call TOOL_SUCCESS 200 #1 ', '5 tools/call HTTP_ERROR 401 #1 ', '5 tools/call TOOL_SUCCESS 200 #2 sdk', '6 tools/call TOOL_SUCCESS 200 #1 ']);
      expect(r.attempts.flatMap((a) => a.findings.map((f) => f.code))).toEqual([]);
    }
    // the server refused before reading the body: no attempt there, four clean charges
    const s = await run('py-auth-401-refresh', [['server.ndjson', 'server']]);
    expect(calls(s)).toEqual(['3 charge TOOL_SUCCESS #1', '4 charge TOOL_SUCCESS #1', '5 charge TOOL_SUCCESS #1', '6 charge TOOL_SUCCESS #1']);
  });
});

describe('asyncio.wait_for cancels a call during its progress; the app calls again (py-cancel-progress)', () => {
  it('CANCELLED (the reason "caller cancelled"), the call again attempt 2, no UNSAFE_RETRY (read-only)', async () => {
    for (const v of views('py-cancel-progress', 'proxy.ndjson')) {
      const r = await run('py-cancel-progress', v);
      expect(calls(r)).toEqual(['3 progress STREAM_INCOMPLETE #1', '4 progress TOOL_SUCCESS #2']);
      expect(r.attempts.find((a) => a.id === 3)!.findings.map((f) => f.message)).toEqual([expect.stringContaining('with the reason "caller cancelled"')]);
      expect(codes(r, 4)).not.toContain('UNSAFE_RETRY');
    }
  });
});

describe('the Python server killed 1.4 s into a call and started again (py-server-restart)', () => {
  it('the cut call, its 404 in the dead session, the call in a new session: one call of three attempts, SESSION_EXPIRED', async () => {
    expect(truth('py-server-restart').map((t) => t.ok)).toEqual([false, false, true]);
    for (const v of views('py-server-restart', 'client.ndjson')) {
      const r = await run('py-server-restart', v);
      const slow = r.attempts.filter((a) => a.tool === 'slow');
      expect(slow.map((a) => [a.outcome, a.status, a.attempt])).toEqual([['STREAM_INCOMPLETE', 200, 1], ['HTTP_ERROR', 404, 2], ['TOOL_SUCCESS', 200, 3]]);
      expect(new Set(slow.map((a) => a.call)).size).toBe(1);
      expect(slow[0]!.findings.map((f) => f.code).sort()).toEqual(['CANCELLED', 'NO_FINAL_RESULT']);
      expect(r.findings.map((f) => f.code)).toEqual(['SESSION_EXPIRED']);
    }
  });
});

describe('tools that change under a session: list_changed, an outputSchema replaced, a tool removed and another added (tools-evolve)', () => {
  it('must not: each report result is judged by the list the session had then; the removed tool is a TOOL_ERROR; beta_v2 is no retry of beta', async () => {
    for (const v of views('tools-evolve', 'client.ndjson')) {
      const r = await run('tools-evolve', v);
      expect(calls(r)).toEqual(['2 report TOOL_SUCCESS #1', '3 beta TOOL_SUCCESS #1', '4 sync TOOL_SUCCESS #1', '5 evolve TOOL_SUCCESS #1', '6 beta TOOL_ERROR #1', '8 beta_v2 TOOL_SUCCESS #1', '9 report TOOL_SUCCESS #1', '10 sync TOOL_SUCCESS #1']);
      expect(r.attempts.flatMap((a) => a.findings)).toEqual([]);
      expect(r.findings).toEqual([]);
    }
  });
});

describe("the server asks the Python client during a call: an elicitation it declines, a sampling handler that raises (py-ask-back)", () => {
  it("TOOL_ERROR each, the why naming the client's own error answer to sampling/createMessage; no retries", async () => {
    for (const v of views('py-ask-back', 'proxy.ndjson')) {
      const r = await run('py-ask-back', v);
      expect(calls(r)).toEqual(['3 ask TOOL_ERROR #1', '4 summarize TOOL_ERROR #1', '5 summarize TOOL_ERROR #1']);
      expect(r.attempts.flatMap((a) => a.findings)).toEqual([]);
    }
  });
});
