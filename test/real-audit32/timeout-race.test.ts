// A tool that takes about as long as the client's timeout (test/fixtures/real-audit32/*-timeout-race): twelve calls,
// each with a timeout 1 ms longer, so the answer and the timeout race. Where the timeout won, the SDK sent
// notifications/cancelled ("Request timed out", "timed out after 0.3s") and its caller got the timeout error, even when
// the answer had left the server (or passed the proxy) before the cancellation came: every view must say so.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit32/', import.meta.url));
type Side = 'client' | 'server';
const run = (scenario: string, files: [string, Side?][]) =>
  analyze({ inputs: files.map(([f, side]) => ({ path: `${DIR}${scenario}/${f}`, ...(side ? { side } : {}) })), onDiagnostic: () => {} });
/** The JSON-RPC ids of the calls whose caller got the timeout, from the app's own account (race#i is id first + i). */
const timedOut = (scenario: string, first: number) => readFileSync(`${DIR}${scenario}/truth-client.ndjson`, 'utf8').trim().split('\n')
  .map((l) => JSON.parse(l) as { label?: string; ok?: boolean })
  .filter((t) => t.label?.startsWith('race#') && t.ok === false).map((t) => first + Number(t.label!.slice(5)));
/** The ids the report tells were cancelled: a CANCELLED on the attempt, or a session's CANCELLED that names the id. */
async function cancelled(scenario: string, files: [string, Side?][]) {
  const r = await run(scenario, files);
  const ids = r.attempts.filter((a) => a.tool === 'slow' && a.findings.some((f) => f.code === 'CANCELLED')).map((a) => Number(a.id));
  for (const f of r.findings) if (f.code === 'CANCELLED') ids.push(Number(/for id (\d+)/.exec(f.message)![1]));
  return { ids: ids.sort((a, b) => a - b), r };
}

const cases: [string, number, [string, Side?][][]][] = [
  ['ts-timeout-race', 2, [[['server.ndjson', 'server']], [['client.ndjson']], [['proxy.ndjson']], [['client.ndjson', 'client'], ['server.ndjson', 'server']]]],
  ['py-timeout-race', 3, [[['server.ndjson', 'server']], [['proxy.ndjson', 'client']], [['proxy.ndjson', 'client'], ['server.ndjson', 'server']]]],
  ['ts-py-timeout-race', 2, [[['server.ndjson', 'server']], [['client.ndjson']], [['client.ndjson', 'client'], ['server.ndjson', 'server']]]],
];

describe('an answer and the client timeout that crossed it (timeout-race)', () => {
  it('the truth: some calls timed out, some got their answer', () => {
    for (const [s, first] of cases) {
      const t = timedOut(s, first);
      expect(t.length, s).toBeGreaterThan(3);
      expect(t.length, s).toBeLessThan(12);
    }
  });

  it('every view tells exactly the calls whose caller got the timeout, once each', async () => {
    for (const [s, first, views] of cases) {
      for (const files of views) {
        const { ids } = await cancelled(s, files);
        expect(ids, `${s} ${files.map((f) => f.join(':')).join(' + ')}`).toEqual(timedOut(s, first));
      }
    }
  });

  it("the server's log alone: the answered ones it names read as crossed, a warning, and the caller got the timeout", async () => {
    const { r } = await cancelled('ts-timeout-race', [['server.ndjson', 'server']]);
    const crossed = r.findings.filter((f) => f.code === 'CANCELLED');
    expect(crossed.length).toBeGreaterThan(0);
    for (const f of crossed) {
      expect(f.severity).toBe('warning');
      expect(f.message).toMatch(/came \d+ ms after the server had sent its answer, with the reason "McpError: MCP error -32001: Request timed out": the client's own timeout ran out before the answer reached it/);
      expect(f.message).toContain('its caller got the timeout error, not this result');
      // the attempt itself is the server's answer
      const id = Number(/for id (\d+)/.exec(f.message)![1]);
      expect(r.attempts.find((a) => Number(a.id) === id)!.outcome).toBe('TOOL_SUCCESS');
    }
  });

  it('must not: the calls that got their answer carry no CANCELLED in any view', async () => {
    for (const [s, first, views] of cases) {
      const t = new Set(timedOut(s, first));
      for (const files of views) {
        const r = await run(s, files);
        const ok = r.attempts.filter((a) => a.tool === 'slow' && !t.has(Number(a.id)));
        expect(ok.length, s).toBeGreaterThan(0);
        for (const a of ok) expect([a.outcome, a.findings.map((f) => f.code)], `${s} id ${String(a.id)}`).toEqual(['TOOL_SUCCESS', []]);
      }
    }
  });
});

describe('the v2 client and server on 2026-07-28, where closing the stream is the cancellation (v2-timeout-race)', () => {
  const files: [string, Side?][][] = [[['client.ndjson']], [['client.ndjson', 'client'], ['server.ndjson', 'server']]];
  it('the client view, and with the server\'s: CANCELLED exactly on the calls whose caller timed out', async () => {
    const t = timedOut('v2-timeout-race', 0);
    expect(t.length).toBeGreaterThan(3);
    for (const f of files) {
      const r = await run('v2-timeout-race', f);
      expect(r.attempts.filter((a) => a.tool === 'slow' && a.findings.some((x) => x.code === 'CANCELLED')).map((a) => Number(a.id)), f.join(' ')).toEqual(t);
    }
  });

  it("the answer the server sent 11 ms after the client closed at its timeout: SIDE_DIVERGENCE (the server finished the call; the client never got it) beside the CANCELLED", async () => {
    const r = await run('v2-timeout-race', files[1]!);
    const crossed = r.attempts.find((a) => a.tool === 'slow' && a.id === 9)!;
    expect([crossed.outcome, crossed.findings.map((f) => f.code)]).toEqual(['NO_RESPONSE', ['SIDE_DIVERGENCE', 'CANCELLED']]);
    expect(crossed.findings[0]!.message).toContain('the server sent a final result the client never got');
    // the others the server never answered (it saw the close first): no divergence
    expect(r.attempts.filter((a) => a.findings.some((f) => f.code === 'SIDE_DIVERGENCE')).map((a) => a.id)).toEqual([9]);
  });

  it("left: the server's log alone shows that answer sent whole, and nothing of the close that came first (no notifications/cancelled on 2026-07-28)", async () => {
    const r = await run('v2-timeout-race', [['server.ndjson', 'server']]);
    expect(r.attempts.find((a) => a.tool === 'slow' && a.id === 9)!.outcome).toBe('TOOL_SUCCESS');
  });
});
