// Ninth audit: the SDK 1.32.2 client and server recorded three ways (recordingFetch + recordingHandler, the record proxy, a HAR-lines proxy): a DELETE of the session during a call (by the client itself, by another client), a protocol version the client refuses, URL elicitation required (-32042) then the app's retry.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { auditFixtures, FIVE_VIEWS, type ViewSide, toolCalls as calls } from '../helpers/recordings.js';

const { f, run, observed } = auditFixtures('real-audit9');
type Result = Awaited<ReturnType<typeof analyze>>;
type Side = ViewSide;
const VIEWS = FIVE_VIEWS;
const codes = (r: Result) => [...r.attempts.flatMap((a) => a.findings.map((x) => `${a.tool ?? a.method}#${a.attempt}:${x.code}`)), ...r.findings.map((x) => `session:${x.code}`)].sort();

describe('URL elicitation required (-32042), then the app calls again once the user completed it', () => {
  const C = 'url-elicitation-required';

  it('what happened: the caller got UrlElicitationRequiredError, then the result; the card was charged once', () => {
    const o = observed(C);
    expect(o[0]).toMatchObject({ label: 'charge #1', error: expect.stringMatching(/^UrlElicitationRequiredError -32042/) });
    expect(o).toContainEqual({ notification: 'notifications/elicitation/complete', elicitationId: '3ds-ORD-7' });
    expect(o).toContainEqual({ charged: ['ORD-7 4999'] });
  });

  for (const v of VIEWS) {
    it(`${v.name}: the -32042 says which URL the user must complete; the retry is linked, and no UNSAFE_RETRY (nothing was processed)`, async () => {
      const r = await run(C, ...v.inputs);
      const [first, again] = calls(r);
      expect(first).toMatchObject({ outcome: 'JSONRPC_ERROR', attempt: 1, detail: { errorCode: -32042, why: expect.stringMatching(/^URL elicitation required: .*"3ds-ORD-7" https:\/\/pay\.example\.test\/3ds\/ORD-7\); a request refused so was not processed/) } });
      expect(again).toMatchObject({ outcome: 'TOOL_SUCCESS', call: first!.call, attempt: 2 });
      // Before the fix the server's view (alone or joined) said "the server view shows the earlier attempt reached the server": an error.
      expect(codes(r)).not.toContain('charge_card#2:UNSAFE_RETRY');
    });
  }

  it('must not: the same recording with another JSON-RPC error (-32603) in its place is still a proven UNSAFE_RETRY', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpt-a9-'));
    const text = readFileSync(f(C, 'server.ndjson'), 'utf8').replaceAll('-32042', '-32603');
    expect(text).not.toBe(readFileSync(f(C, 'server.ndjson'), 'utf8'));
    writeFileSync(join(dir, 'server.ndjson'), text);
    const r = await analyze({ inputs: [{ path: join(dir, 'server.ndjson'), side: 'server' }] });
    const again = calls(r)[1]!;
    expect(calls(r)[0]!.detail.why ?? '').not.toMatch(/URL elicitation/);
    expect(again.findings.find((x) => x.code === 'UNSAFE_RETRY')).toMatchObject({ severity: 'error' });
  });
});

describe('a protocol version the client does not support', () => {
  it('what happened: connect() threw twice, "Server\'s protocol version is not supported: DRAFT-2026-v1"', () => {
    const o = observed('protocol-version-unsupported').filter((x) => 'connect' in x);
    expect(o).toHaveLength(2);
    for (const x of o) expect(x.error).toMatch(/Server's protocol version is not supported: DRAFT-2026-v1/);
  });

  for (const v of VIEWS) {
    it(`${v.name}: each session's initialize is SUCCESS on the wire, and CALL_NEVER_SENT says the client did not accept the version`, async () => {
      const r = await run('protocol-version-unsupported', ...v.inputs);
      expect(r.attempts.map((a) => `${a.method} ${a.outcome}`)).toEqual(['initialize SUCCESS', 'initialize SUCCESS']);
      // Before the fix: no finding at all, while the application could not connect.
      expect(r.findings.map((x) => x.code)).toEqual(['CALL_NEVER_SENT', 'CALL_NEVER_SENT']);
      expect(new Set(r.findings.map((x) => x.session))).toEqual(new Set(r.attempts.map((a) => a.session)));
      for (const x of r.findings) {
        expect(x.message).toMatch(/the server answered initialize with protocol version "DRAFT-2026-v1", a version no MCP specification has published .*, not the "2025-11-25" the client asked for, and the client sent nothing more in the session \(not even notifications\/initialized\): it did not accept that version/);
      }
    });

    it(`${v.name}, must not: a server that answers an older version the client supports (2025-06-18), which the client accepts and goes on with`, async () => {
      const r = await run('protocol-version-downgraded', ...v.inputs);
      expect(observed('protocol-version-downgraded')[0]).toMatchObject({ label: 'lookup', isError: false });
      expect(r.attempts.map((a) => `${a.method} ${a.outcome}`)).toEqual(['initialize SUCCESS', 'tools/call TOOL_SUCCESS']);
      expect(codes(r)).toEqual([]);
    });
  }
});

describe('the v2 client 2.4.0 against the same draft server (versionNegotiation auto: a refused server/discover probe, then initialize; then legacy)', () => {
  it('what happened: connect() threw in both modes', () => {
    expect(observed('v2-protocol-version-unsupported')).toEqual(['auto', 'legacy'].map((mode) => ({ mode, error: "Error  Server's protocol version is not supported: DRAFT-2026-v1" })));
  });

  for (const v of VIEWS) {
    it(`${v.name}: CALL_NEVER_SENT for each refused version, none for the probe the client fell back from (before: "server/discover failed … so the client never got to call a tool")`, async () => {
      const r = await run('v2-protocol-version-unsupported', ...v.inputs);
      expect(r.attempts.map((a) => `${a.method} ${a.status} ${a.versionFallback ?? ''}`)).toEqual(['server/discover 400 true', 'initialize 200 ', 'initialize 200 ']);
      expect(r.findings.map((x) => x.code)).toEqual(['CALL_NEVER_SENT', 'CALL_NEVER_SENT']);
      for (const x of r.findings) expect(x.message).toMatch(/^session \S+: the server answered initialize with protocol version "DRAFT-2026-v1"/);
    });
  }
});

describe('the Python SDK client (2.3.0, legacy mode) in the same two incidents: its views are the proxy\'s, the HAR\'s and the server\'s', () => {
  const PY_VIEWS = VIEWS.filter((v) => v.name !== 'client' && v.name !== 'both').concat([{ name: 'proxy as client, with the server', inputs: [['proxy.ndjson', 'client'], ['server.ndjson', 'server']] }]);

  it('what happened: the client raised "Unsupported protocol version from the server" twice (and sent its DELETE); the -32042 then the result, charged once', () => {
    const v = observed('py-protocol-version-unsupported');
    expect(v).toEqual([1, 2].map((n) => ({ connect: n, error: 'RuntimeError: Unsupported protocol version from the server: DRAFT-2026-v1' })));
    expect(readFileSync(f('py-protocol-version-unsupported', 'proxy.ndjson'), 'utf8').match(/"method":"DELETE"/g)).toHaveLength(2);
    const u = observed('py-url-elicitation-required');
    expect(u[0]).toMatchObject({ label: 'charge #1', error: expect.stringMatching(/^MCPError -32042/) });
    expect(u).toContainEqual({ charged: ['ORD-8 1299'] });
  });

  for (const v of PY_VIEWS) {
    it(`${v.name}: CALL_NEVER_SENT for each refused version, the DELETE named; the -32042's retry linked, no UNSAFE_RETRY`, async () => {
      const r = await run('py-protocol-version-unsupported', ...v.inputs);
      expect(r.findings.map((x) => x.code)).toEqual(['CALL_NEVER_SENT', 'CALL_NEVER_SENT']);
      for (const x of r.findings) expect(x.message).toMatch(/protocol version "DRAFT-2026-v1", .*the client sent nothing more in the session but a DELETE of it \(not even notifications\/initialized\): it did not accept that version/);
      const u = await run('py-url-elicitation-required', ...v.inputs);
      const [first, again] = calls(u);
      expect(first).toMatchObject({ outcome: 'JSONRPC_ERROR', detail: { errorCode: -32042, why: expect.stringMatching(/^URL elicitation required: .*"3ds-ORD-8"/) } });
      expect(again).toMatchObject({ outcome: 'TOOL_SUCCESS', call: first!.call, attempt: 2 });
      expect(codes(u)).not.toContain('charge_card#2:UNSAFE_RETRY');
    });
  }
});

describe("the client's own DELETE of its session while a call runs (terminateSession during the call), then a new Client calls again", () => {
  const C = 'delete-during-call';

  it('what happened: the call timed out, its cancellation went without a session id, the retry got the result; the report was built twice', () => {
    const o = observed(C);
    expect(o).toContainEqual({ terminateSession: 'ok' });
    expect(o).toContainEqual({ label: 'build #1', error: 'McpError -32001 MCP error -32001: Request timed out' });
    expect(o).toContainEqual({ ran: ['report 2026-11', 'report 2026-11'] });
    const lines = readFileSync(f(C, 'client.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { method?: string; session: string | null; send?: { method?: string } });
    expect(lines.find((l) => l.send?.method === 'notifications/cancelled')).toMatchObject({ session: null });
  });

  for (const v of VIEWS) {
    it(`${v.name}: the cut call's why names the DELETE that ended the session during it`, async () => {
      const r = await run(C, ...v.inputs);
      const [cut, again] = calls(r);
      const who = v.name === 'client' || v.name === 'both' ? /the client's own DELETE of the session \([^)]*client\.ndjson:\d+, answered 200\) came 0\.2\d s into the call/
        : /a DELETE of the session \([^)]*:\d+, answered 200\) came 0\.2\d s into the call \(this log does not tell whether this client or another sent it\)/;
      expect(cut).toMatchObject({ outcome: 'STREAM_INCOMPLETE', detail: { why: expect.stringMatching(who) } });
      expect(cut!.detail.why).toMatch(/while the stream was open: a deleted session's streams end with it/);
      expect(cut!.findings.map((x) => x.code)).toContain('NO_FINAL_RESULT');
      expect(again).toMatchObject({ outcome: 'TOOL_SUCCESS', call: cut!.call, attempt: 2 });
      expect(again!.findings.find((x) => x.code === 'UNSAFE_RETRY')?.severity).toBe(v.name === 'server' || v.name === 'both' ? 'error' : 'warning');
    });
  }

  it("client: the cancellation sent without the session id is the cut call's (before: \"for id 2, a request the client's log never shows\")", async () => {
    for (const inputs of [VIEWS[0]!.inputs, VIEWS[2]!.inputs]) {
      const r = await run(C, ...inputs);
      expect(r.findings.filter((x) => x.code === 'CANCELLED')).toEqual([]);
      expect(calls(r)[0]!.findings.find((x) => x.code === 'CANCELLED')?.message).toMatch(/Request timed out.*; it went without the session id, which the client had dropped with its DELETE of the session/);
    }
  });
});

describe("the same DELETE during a call against the Python SDK's server (MCPServer 2.3.0), which stops the tool", () => {
  const C = 'py-server-delete-during-call';

  it('what happened: the Python server cancelled export_report at step 3 when the session ended; the app\'s retry ran it to the end', () => {
    expect(observed(C)).toContainEqual({ serverRan: ['export 2026-11 cancelled at step 3', 'export 2026-11 done'] });
  });

  for (const v of [{ name: 'client', inputs: [['client.ndjson', 'client']] }, { name: 'server (the proxy in front of it)', inputs: [['proxy.ndjson', 'server']] }, { name: 'both', inputs: [['client.ndjson', 'client'], ['proxy.ndjson', 'server']] }, { name: 'har', inputs: [['capture.har.ndjson']] }] as { name: string; inputs: [string, Side][] }[]) {
    it(`${v.name}: the cut call (2 progress notifications) names the DELETE; the retry is linked with UNSAFE_RETRY`, async () => {
      const r = await run(C, ...v.inputs);
      const [cut, again] = calls(r);
      expect(cut).toMatchObject({ outcome: 'STREAM_INCOMPLETE', detail: { why: expect.stringMatching(/^SSE stream ended after 2 events without the response; (the client's own DELETE|a DELETE) of the session .*while the stream was open/) } });
      expect(again).toMatchObject({ outcome: 'TOOL_SUCCESS', call: cut!.call, attempt: 2 });
      expect(codes(r)).toContain('export_report#2:UNSAFE_RETRY');
      expect(r.findings.filter((x) => x.code === 'CANCELLED')).toEqual([]);
    });
  }
});

describe("another client (an admin tool) DELETEs a worker's session while the worker's call runs", () => {
  const C = 'delete-by-other-client';
  const expired = (r: Result) => r.findings.filter((x) => x.code === 'SESSION_EXPIRED').map((x) => x.message);

  it('what happened: the admin\'s DELETE was accepted, the worker\'s call timed out, its next call got 404, it reconnected and retried', () => {
    const o = observed(C);
    expect(o[0]).toEqual({ adminTerminate: 'ok' });
    expect(o).toContainEqual(expect.objectContaining({ label: 'hourly #1', error: expect.stringMatching(/^StreamableHTTPError 404/) }));
    expect(o).toContainEqual({ label: 'hourly #2', isError: false, text: 'job hourly done' });
    expect(readFileSync(f(C, 'client.ndjson'), 'utf8')).not.toMatch(/"DELETE"/);
  });

  it("the worker's and the admin's logs: SESSION_EXPIRED and the cut call name the other client's DELETE (before: \"the client had ended this session itself\")", async () => {
    for (const inputs of [[['admin.ndjson', 'client'], ['client.ndjson', 'client']], [['client.ndjson', 'client'], ['admin.ndjson', 'client'], ['server.ndjson', 'server']]] as [string, Side][][]) {
      const r = await run(C, ...inputs);
      expect(expired(r)).toEqual([expect.stringMatching(/after another client \("admin-cli"\) had ended this session \(its DELETE at \S*admin\.ndjson:\d+ was accepted\): the request reused a session id someone else terminated, the server did not lose the session; the client re-initialized and retried the call$/)]);
      expect(calls(r)[0]!.detail.why).toMatch(/a DELETE of the session by another client \("admin-cli"; \S*admin\.ndjson:\d+, answered 200\) came 0\.2\d s into the call/);
    }
  });

  it("the worker's log with the server's: the DELETE only the server's log shows (before: nothing of it)", async () => {
    const r = await run(C, ['client.ndjson', 'client'], ['server.ndjson', 'server']);
    expect(expired(r)).toEqual([expect.stringMatching(/after a DELETE of this session that the client's log does not show \(\S*server\.ndjson:\d+, accepted\): another client, or a tool outside these logs, ended the session/)]);
    expect(calls(r)[0]!.detail.why).toMatch(/the server's log shows a DELETE of the session \(\S*server\.ndjson:\d+, answered 200\) 0\.2\d s into the call, which the client's log does not/);
  });

  for (const v of VIEWS.filter((x) => x.name === 'server' || x.name === 'proxy' || x.name === 'har')) {
    it(`${v.name}: a log that cannot tell who sent the DELETE does not say the client ended the session itself`, async () => {
      const r = await run(C, ...v.inputs);
      expect(expired(r)).toEqual([expect.stringMatching(/after a DELETE of this session \([^)]*\) was accepted \(this log does not tell whether this client or another sent it\): the request reused a terminated session id, the server did not lose the session/)]);
      expect(expired(r)[0]).not.toMatch(/ended this session itself/);
    });
  }

  it("must not: the worker's log alone shows no DELETE, and its cut call's why names none", async () => {
    const r = await run(C, ['client.ndjson', 'client']);
    expect(calls(r)[0]!.detail.why).toBe('SSE stream ended after 0 events without the response');
    expect(expired(r)).toEqual([expect.not.stringMatching(/DELETE/)]);
  });
});
