// Audit 43's real runs (test/fixtures/real-audit43): a stateless server's answer to a call whose client gave up on it;
// two clients' initialize exchanges behind a hop that drops Mcp-Session-Id.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit43/';

async function reportCalls(run: string, logs: ('client' | 'server')[], opts: { windowMs?: number; skewMs?: number } = {}) {
  // (The Python client's wire is the recording proxy's log in front of it.)
  const file = (side: 'client' | 'server') => (side === 'client' && run.startsWith('py-') ? 'proxy' : side);
  const inputs = logs.map((side) => ({ path: `${DIR}${run}/${file(side)}.ndjson`, side }));
  const r = await analyze({ inputs, onDiagnostic: () => {}, ...opts });
  return r.attempts.filter((a) => a.tool === 'report');
}

describe('real-audit43: a stateless server runs on after the client cancelled (SDK 1.32.2 both sides)', () => {
  // truth-server.ndjson: the tool ran its 200 s (20 s) to the end, its signal never aborted; the server's log has
  // the answer on the call's stream, and the client's log has it too (the SDK kept the stream open, and read it).
  const runs = [
    { run: 'stateless-long', opts: {} },
    { run: 'stateless-short', opts: { windowMs: 2000, skewMs: 1000 } },
    // The Python SDK 2.3.0 client ("Request 'tools/call' timed out" after 3 s): its cancellation too in a POST of its own.
    { run: 'py-stateless', opts: { windowMs: 2000, skewMs: 1000 } },
    // The v2 client 2.4.0 ("Request timed out", on 2025-11-25): it keeps the stream open too.
    { run: 'v2-stateless', opts: { windowMs: 2000, skewMs: 1000 } },
  ];
  for (const { run, opts } of runs) {
    it(`${run}: the server's answer, sent after more than --window of silence, is its serverOutcome (client and server logs); the attempt is what the client saw`, async () => {
      const [a, ...more] = await reportCalls(run, ['client', 'server'], opts);
      expect(more).toEqual([]);
      expect(a!.serverOutcome).toBe('TOOL_SUCCESS');
      // The client had given up (its timeout) when the answer came: what it saw is the attempt's outcome, the late
      // answer in its why (the sixtieth audit; before, TOOL_SUCCESS). Both views are of one attempt: no divergence.
      expect(a!.outcome).toBe('STREAM_INCOMPLETE');
      // (A Python client's cancellation names its reason, "timed out after 3.0s": the SDK's own timeout since the
      // hundred-and-fourth audit; a TypeScript client's proves neither.)
      expect(a!.detail?.why).toMatch(/before any response came: its caller got (?:its own timeout or cancellation|the Python SDK's own timeout, MCPError -32001 "Request 'tools\/call' timed out" \(the cancellation's reason "timed out after [\d.]+s": [^)]*\)), not a result; the server's TOOL_SUCCESS answer came \d+\.\d\d s after that/);
      expect(a!.findings.map((f) => f.code)).not.toContain('SIDE_DIVERGENCE');
      expect(a!.notSeenByServer).toBeUndefined();
      const cancelled = a!.findings.find((f) => f.code === 'CANCELLED');
      expect(cancelled?.message).toContain('a stateless server takes the cancellation in a request of its own');
    });
    it(`${run}: the server's log alone shows the answer it sent`, async () => {
      const [a, ...more] = await reportCalls(run, ['server'], opts);
      expect(more).toEqual([]);
      expect(a!.outcome).toBe('TOOL_SUCCESS');
      // The server's log has the answer (an SSE event on the call's stream), then the stream's end, which its sources name.
      const answer = readFileSync(`${DIR}${run}/server.ndjson`, 'utf8').split('\n').findIndex((l) => l.includes('"kind":"event"') && l.includes('report 2026-11 built')) + 1;
      expect(answer).toBeGreaterThan(0);
      expect(a!.sources.some((s) => s.file === `${DIR}${run}/server.ndjson` && s.line > answer)).toBe(true);
    });
  }
  it('stateless-retry: the app retries at once; both attempts got their answer, and they stay one call', async () => {
    // The first POST's answer came 17 s after the app's retry went out (truth-server.ndjson: both ran to the end).
    const attempts = await reportCalls('stateless-retry', ['client', 'server'], { windowMs: 2000, skewMs: 1000 });
    // (the first: what its client saw, its timeout; the server's late answer its serverOutcome)
    expect(attempts.map((a) => [a.id, a.outcome, a.serverOutcome, a.attempt])).toEqual([[2, 'STREAM_INCOMPLETE', 'TOOL_SUCCESS', 1], [3, 'TOOL_SUCCESS', 'TOOL_SUCCESS', 2]]);
    expect(attempts[0]!.call).toBe(attempts[1]!.call);
    // Both sides had the same answer (the client's came late): nothing between them changed it.
    expect(attempts[0]!.findings.map((f) => f.code)).toEqual(['CANCELLED']);
  });
  it('stateful-retry (control): in a session the server took the cancellation and never answered; that stream is still closed then', async () => {
    // truth-server.ndjson: the first run saw its signal aborted, and the SDK sends no answer for a cancelled request.
    const attempts = await reportCalls('stateful-retry', ['client', 'server'], { windowMs: 2000, skewMs: 1000 });
    expect(attempts.map((a) => [a.id, a.outcome, a.serverOutcome, a.attempt])).toEqual([[2, 'STREAM_INCOMPLETE', 'STREAM_INCOMPLETE', 1], [3, 'TOOL_SUCCESS', 'TOOL_SUCCESS', 2]]);
    expect(attempts[0]!.call).toBe(attempts[1]!.call);
  });
});

describe('real-audit43: two clients start together behind a hop that drops Mcp-Session-Id (SDK 1.32.2 both sides)', () => {
  it("strip-two: each client's initialize is joined to the server's view of its own, not to the one whose answer came first", async () => {
    const inputs = [{ path: `${DIR}strip-two/client.ndjson`, side: 'client' as const }, { path: `${DIR}strip-two/server.ndjson`, side: 'server' as const }];
    const r = await analyze({ inputs, onDiagnostic: () => {} });
    // The truth is in the server's log: the session id its answer set to each clientInfo's initialize.
    const server = readFileSync(`${DIR}strip-two/server.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; xid: string; session: string | null; send?: { method?: string; params?: { clientInfo?: { name: string } } } });
    const sessionOf = new Map<string, string>();
    for (const rec of server) {
      const name = rec.kind === 'request' && rec.send?.method === 'initialize' ? rec.send.params?.clientInfo?.name : undefined;
      const head = name !== undefined ? server.find((x) => x.kind === 'response' && x.xid === rec.xid) : undefined;
      if (name !== undefined && head?.session) sessionOf.set(`${name}@1.0.0`, head.session);
    }
    expect(sessionOf.size).toBe(2);
    const inits = r.attempts.filter((a) => a.method === 'initialize');
    expect(inits).toHaveLength(2);
    for (const a of inits) {
      expect(a.serverOutcome).toBe('SUCCESS');
      expect(a.session).toBe(sessionOf.get(a.client!));
      expect(a.detail?.why).toContain(`Mcp-Session-Id ${JSON.stringify(sessionOf.get(a.client!))}`);
    }
  });
});

describe('real-audit43: a hop that does not pass on the client closing a call, in front of a stateless server', () => {
  // The app closed its client 3 s in (after the SDK's timeout): the client's view ended then, with no response head
  // (the hop buffers each answer); the hop kept the server's request open, and the tool ran its 20 s (200 s) and answered.
  const runs = [
    { run: 'hop-reopen-long', opts: {} },
    { run: 'hop-reopen', opts: { windowMs: 2000, skewMs: 1000 } },
  ];
  for (const { run, opts } of runs) {
    it(`${run}: one attempt with both views, not a client attempt "not seen by the server" and a server attempt of its own`, async () => {
      const attempts = await reportCalls(run, ['client', 'server'], opts);
      expect(attempts).toHaveLength(1);
      const a = attempts[0]!;
      expect(a.side).toBe('client');
      expect(a.notSeenByServer).toBeUndefined();
      expect(a.serverOutcome).toBe('TOOL_SUCCESS');
      expect(a.sources.some((s) => s.file.endsWith('/server.ndjson'))).toBe(true);
    });
  }
});
