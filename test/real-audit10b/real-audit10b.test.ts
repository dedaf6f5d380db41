// Tenth audit, part B: the SDK 1.32.2 client and McpServer recorded three ways (recordingFetch + recordingHandler, the record proxy, a HAR-lines proxy): timeouts driven by progress (resetTimeoutOnProgress, maxTotalTimeout) and the app's retries, and the hops of production (an idle timeout, gzip, a 504 after the upstream timeout).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { auditFixtures, type ViewSide, toolCalls as calls } from '../helpers/recordings.js';
import { retryDelay } from '../../src/report/notes.js';

const { f, run, observed } = auditFixtures('real-audit10b');
type Result = Awaited<ReturnType<typeof analyze>>;
type Side = ViewSide;
/** The five ways each incident was recorded: the client's log, the server's, both, the proxy's, the HAR. `proven`: a view that holds the server's. */
const VIEWS: { name: string; inputs: [string, Side?][]; proven: boolean }[] = [
  { name: 'client', inputs: [['client.ndjson', 'client']], proven: false },
  { name: 'server', inputs: [['server.ndjson', 'server']], proven: true },
  { name: 'both', inputs: [['client.ndjson', 'client'], ['server.ndjson', 'server']], proven: true },
  { name: 'proxy', inputs: [['proxy.ndjson']], proven: false },
  { name: 'har', inputs: [['capture.har.ndjson']], proven: false },
];
const ran = (c: string) => (observed(c).find((x) => 'ran' in x)!.ran as string[]);
const byId = (r: Result, id: number) => r.attempts.find((a) => a.id === id)!;
const codes = (r: Result) => [...r.attempts.flatMap((a) => a.findings.map((x) => `${a.tool ?? a.method}#${a.attempt}:${x.code}`)), ...r.findings.map((x) => `session:${x.code}`)].sort();
const finding = (a: Result['attempts'][number], code: string) => a.findings.find((x) => x.code === code);

describe('progress for a while, then the tool stalls: resetTimeoutOnProgress times out after the last progress; the app retries (right before: nothing to fix)', () => {
  const C = 'progress-then-stall';

  it('what happened: each first call got -32001 "Request timed out" after 5 progress notifications, the retry the result; each tool ran twice', () => {
    const o = observed(C);
    for (const tool of ['rebuild_index', 'scan_logs']) {
      expect(o).toContainEqual(expect.objectContaining({ label: `${tool} #1`, error: 'McpError -32001 MCP error -32001: Request timed out', progress: [1, 2, 3, 4, 5] }));
      expect(o).toContainEqual(expect.objectContaining({ label: `${tool} #2`, isError: false }));
      expect(ran(C).filter((x) => x.startsWith(`${tool} shard-7`))).toHaveLength(2);
    }
  });

  for (const v of VIEWS) {
    it(`${v.name}: each first attempt cancelled on the client's timeout, its retry linked; UNSAFE_RETRY for the destructive tool only (${v.proven ? 'proven' : 'possible'})`, async () => {
      const r = await run(C, ...v.inputs);
      const [rebuild1, rebuild2, scan1, scan2] = calls(r);
      for (const first of [rebuild1!, scan1!]) {
        expect(first).toMatchObject({ outcome: 'STREAM_INCOMPLETE', status: 200, attempt: 1, detail: { why: expect.stringMatching(/^the client cancelled it \(notifications\/cancelled\) 0\.9\d s after sending it, before any response came \(5 SSE events before that\)/) } });
        expect(finding(first, 'CANCELLED')?.message).toMatch(/with the reason "McpError: MCP error -32001: Request timed out" \(its own timeout, not an answer from the server\)/);
      }
      expect(rebuild2).toMatchObject({ tool: 'rebuild_index', outcome: 'TOOL_SUCCESS', call: rebuild1!.call, attempt: 2 });
      expect(scan2).toMatchObject({ tool: 'scan_logs', outcome: 'TOOL_SUCCESS', call: scan1!.call, attempt: 2 });
      // The timeout ran from the last progress (0.4 s): the why says when it came (before: only that 5 events came). The
      // HAR gives its events no time of their own.
      for (const first of [rebuild1!, scan1!]) {
        if (v.name === 'har') expect(first.detail.why).toMatch(/\(5 SSE events before that\)$/);
        else expect(first.detail.why).toMatch(/\(5 SSE events before that\); its last progress notification came 0\.4\d s before the cancellation$/);
      }
      expect(finding(rebuild2!, 'UNSAFE_RETRY')).toMatchObject({ severity: v.proven ? 'error' : 'warning' });
      if (!v.proven) expect(finding(rebuild2!, 'UNSAFE_RETRY')!.message).toMatch(/the earlier attempt was running: 5 progress notifications came for it/);
      expect(finding(scan2!, 'UNSAFE_RETRY')).toBeUndefined();
      expect(codes(r).filter((x) => x.includes('NO_FINAL_RESULT') || x.includes('RETRY_POLICY') || x.includes('PROGRESS_UNMATCHED'))).toEqual([]);
    });
  }
});

describe('maxTotalTimeout: the caller gives up at a progress notification, the SDK cancels only when its last timeout runs out, the app retries in between', () => {
  const C = 'max-total-timeout';

  it('what happened: "Maximum total timeout exceeded" at ~0.7 s while progress still came; the retry 0.1 s later; the cancellation ("Request timed out") after it; export_archive ran twice', () => {
    const o = observed(C);
    for (const tool of ['export_archive', 'fetch_report']) {
      const first = o.find((x) => x.label === `${tool} #1`)!;
      expect(first).toMatchObject({ error: 'McpError -32001 MCP error -32001: Maximum total timeout exceeded' });
      expect(first.ms as number).toBeLessThan(800);
      expect(o).toContainEqual(expect.objectContaining({ label: `${tool} #2`, isError: false }));
    }
    expect(o.filter((x) => String(x.onerror ?? '').startsWith('Received a progress notification for an unknown token')).length).toBeGreaterThan(3);
    expect(ran(C)).toEqual(expect.arrayContaining(['export_archive 2026-11 #1 ran to its end (15 progress, after the client cancelled)', 'export_archive 2026-11 #2 ran to its end (15 progress)']));
    // The wire: the retry (id 3) was sent before the cancellation of id 2, which gives the timeout's reason.
    const lines = readFileSync(f(C, 'client.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; ts: string; send?: { id?: number; method?: string; params?: { requestId?: number; reason?: string } } });
    const retry = lines.find((l) => l.kind === 'request' && l.send?.id === 3)!;
    const cancel = lines.find((l) => l.send?.method === 'notifications/cancelled' && l.send.params?.requestId === 2)!;
    expect(Date.parse(retry.ts)).toBeLessThan(Date.parse(cancel.ts));
    expect(cancel.send!.params!.reason).toMatch(/Request timed out/);
  });

  for (const v of VIEWS.filter((x) => x.name !== 'har')) {
    it(`${v.name}: the retry sent before the cancellation is linked (before: a call of its own, no UNSAFE_RETRY), its delay not judged; two identical calls sent together stay two calls`, async () => {
      const r = await run(C, ...v.inputs);
      const [export1, export2, fetch1, fetch2, both1, both2] = [2, 3, 4, 5, 6, 7].map((id) => byId(r, id));
      expect(export2).toMatchObject({ outcome: 'TOOL_SUCCESS', call: export1!.call, attempt: 2 });
      expect(fetch2).toMatchObject({ outcome: 'TOOL_SUCCESS', call: fetch1!.call, attempt: 2 });
      expect(finding(export2!, 'UNSAFE_RETRY')).toMatchObject({ severity: v.proven ? 'error' : 'warning' });
      expect(finding(fetch2!, 'UNSAFE_RETRY')).toBeUndefined();
      for (const again of [export2!, fetch2!]) {
        expect(finding(again, 'RETRY_ORIGIN_AMBIGUOUS')!.message).toMatch(/a new request with the same tool and arguments, sent 0\.\d\d s before the earlier attempt's notifications\/cancelled \("Request timed out"\) and 0\.\d\d s after a progress notification for it: the caller had given up on it already .*maxTotalTimeout/);
        // The true delay (0.1 s after the caller's error) is not in the log: no RETRY_POLICY with a made-up one.
        expect(finding(again, 'RETRY_POLICY')).toBeUndefined();
      }
      // The cancellation came while progress still came (0.0x or 0.1 s after the last), not 0.4 s after it as a reset timeout's does.
      expect(export1!.detail.why).toMatch(/; its last progress notification came 0\.[01]\d s before the cancellation/);
      // Must not: Promise.all of two identical calls (ids 6 and 7), both cancelled the same way, are two calls.
      expect(both1!.attempt).toBe(1);
      expect(both2!.attempt).toBe(1);
      expect(both2!.call).not.toBe(both1!.call);
    });
  }

  it('the retry chains show "+?" for its delay, which the log does not give (before: "+0 ms", from the late cancellation); a retry after the cancellation keeps its delay', () => {
    const lines = readFileSync(f(C, 'client.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; ts: string; send?: { id?: number; method?: string; params?: { requestId?: number } } });
    const sent = lines.find((l) => l.kind === 'request' && l.send?.id === 2)!.ts;
    const cancelled = lines.find((l) => l.send?.method === 'notifications/cancelled' && l.send.params?.requestId === 2)!.ts;
    const retried = lines.find((l) => l.kind === 'request' && l.send?.id === 3)!.ts;
    const first = { ts: sent, durationMs: 5000, doneMs: Date.parse(cancelled) - Date.parse(sent) };
    expect(retryDelay(first, { ts: retried })).toBe('?');
    expect(retryDelay(first, { ts: new Date(Date.parse(cancelled) + 250).toISOString() })).toBe('250 ms');
    // Must not: a retry that starts a moment before an attempt's end (two logs' clocks) without a cancellation stays 0 ms.
    expect(retryDelay({ ts: sent, durationMs: 1000 }, { ts: new Date(Date.parse(sent) + 998).toISOString() })).toBe('0 ms');
  });

  it('must not: the same client log with another reason on the cancellation (an AbortSignal, given up when it fired) keeps the request sent before it a call of its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpt-a10b-'));
    const src = readFileSync(f(C, 'client.ndjson'), 'utf8');
    const text = src.replaceAll('McpError: MCP error -32001: Request timed out', 'AbortError: the user stopped it');
    expect(text).not.toBe(src);
    writeFileSync(join(dir, 'client.ndjson'), text);
    const r = await analyze({ inputs: [{ path: join(dir, 'client.ndjson'), side: 'client' }] });
    expect(byId(r, 3)).toMatchObject({ attempt: 1 });
    expect(byId(r, 3).call).not.toBe(byId(r, 2).call);
  });

  it('har: the HAR-lines proxy writes an entry when its stream ends, after the cancellation\'s entry; the cancellation still finds its request (before: "notifications/cancelled for id 2, a request this log never shows" and NO_FINAL_RESULT)', async () => {
    const r = await run(C, ['capture.har.ndjson']);
    // Its entry is put back in start order: the hold waits as long as the longest exchange seen (here the 1 s call).
    expect(r.summary.inputs[0]!.unordered).toBeUndefined();
    expect(r.summary.diagnostics.byCode['not-time-ordered']).toBeUndefined();
    const first = byId(r, 2);
    expect(first).toMatchObject({ outcome: 'STREAM_INCOMPLETE', detail: { why: expect.stringMatching(/^the client cancelled it \(notifications\/cancelled\) 1\.0\d s after sending it, before any response came/) } });
    expect(finding(first, 'CANCELLED')!.message).toMatch(/Request timed out/);
    expect(codes(r).filter((x) => x.startsWith('session:') || x.includes('NO_FINAL_RESULT'))).toEqual([]);
    // Known gap: a HAR gives its SSE events no time of their own, so the progress before the retry is not seen and the
    // retry sent before the cancellation stays a call of its own.
    expect(byId(r, 3).attempt).toBe(1);
  });

  it('har, must not: a cancellation dated before its request started stays one for a request the log does not show then', async () => {
    const text = readFileSync(f(C, 'capture.har.ndjson'), 'utf8');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as { startedDateTime: string; request: { postData?: { text?: string } } });
    const req = lines.find((l) => /"method":"tools\/call"/.test(l.request.postData?.text ?? '') && /"id":2\b/.test(l.request.postData?.text ?? ''))!;
    const cancel = lines.find((l) => /notifications\/cancelled/.test(l.request.postData?.text ?? '') && /"requestId":2\b/.test(l.request.postData?.text ?? ''))!;
    cancel.startedDateTime = new Date(Date.parse(req.startedDateTime) - 50).toISOString();
    const dir = mkdtempSync(join(tmpdir(), 'mcpt-a10b-'));
    writeFileSync(join(dir, 'capture.har.ndjson'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await analyze({ inputs: [{ path: join(dir, 'capture.har.ndjson') }] });
    expect(finding(byId(r, 2), 'CANCELLED')).toBeUndefined();
    expect(r.findings.map((x) => x.message)).toContainEqual(expect.stringMatching(/notifications\/cancelled for id 2, a request this log never shows/));
  });
});

describe('maxTotalTimeout with the v2 client 2.4.0 (known gap: it never cancels, so the wire shows the first call succeed)', () => {
  const C = 'v2-max-total-timeout';

  it('what happened: "Maximum total timeout exceeded" at ~0.75 s, no notifications/cancelled at all, the result dropped ("unknown message ID"); the tool ran twice', () => {
    const o = observed(C);
    expect(o[0]).toMatchObject({ label: 'export_archive #1', error: 'SdkError REQUEST_TIMEOUT Maximum total timeout exceeded' });
    expect(o.some((x) => String(x.onerror ?? '').startsWith('Received a response for an unknown message ID: {"jsonrpc":"2.0","id":2,"result"'))).toBe(true);
    expect(readFileSync(f(C, 'client.ndjson'), 'utf8')).not.toContain('notifications/cancelled');
    expect(ran(C)).toHaveLength(2);
  });

  for (const v of VIEWS) {
    it(`${v.name}: both attempts TOOL_SUCCESS on the wire and two calls (no log shows the caller's error; nothing is invented)`, async () => {
      const r = await run(C, ...v.inputs);
      const [first, again] = calls(r);
      expect([first!.outcome, again!.outcome, first!.attempt, again!.attempt]).toEqual(['TOOL_SUCCESS', 'TOOL_SUCCESS', 1, 1]);
      expect(codes(r)).toEqual([]);
    });
  }
});

describe('a hop with a 1 s idle timeout on responses (nginx proxy_read_timeout, scaled down)', () => {
  it('what happened: the silent call\'s stream was cut at 1 s, the caller timed out at 3.5 s, the tool finished at 2 s; progress every 0.3 s or `: ping` comments kept the others alive', () => {
    const silent = observed('idle-cut-silent');
    expect(silent).toContainEqual(expect.objectContaining({ label: 'compile_report', error: 'McpError -32001 MCP error -32001: Request timed out' }));
    expect(silent.find((x) => 'hopLog' in x)!.hopLog).toContainEqual({ hop: 'idle cut', after: 1000, method: 'POST' });
    expect(ran('idle-cut-silent')).toEqual(['compile_report q4 #1 ran to its end (0 progress)']);
    expect(observed('idle-kept-by-progress')).toContainEqual(expect.objectContaining({ label: 'compile_report_progress', isError: false, progress: [1, 2, 3, 4, 5, 6, 7] }));
    expect(observed('idle-kept-by-ping')).toContainEqual(expect.objectContaining({ label: 'compile_report', isError: false }));
    expect(readFileSync(f('idle-kept-by-ping', 'capture.har.ndjson'), 'utf8')).toContain(': ping');
  });

  for (const v of VIEWS) {
    it(`${v.name}: the silent call is STREAM_INCOMPLETE with NO_FINAL_RESULT and the client's CANCELLED; the kept-alive ones succeed with no finding`, async () => {
      const r = await run('idle-cut-silent', ...v.inputs);
      const [cut] = calls(r);
      expect(cut).toMatchObject({ outcome: 'STREAM_INCOMPLETE', status: 200, layer: 'transport' });
      expect(cut!.detail.why).toMatch(v.name === 'har' ? /^the stream was aborted 1\.0\d s after sending it, before any response came/ : /^SSE stream ended \((error|aborted)\) after 0 events without the response/);
      // Before: only "SSE stream ended (error) after 0 events without the response"; now how long it had been silent.
      if (v.name === 'server') expect(cut!.detail.why).toMatch(/; nothing had gone out on it for 1\.0\d s \(since its head\) when its connection closed: an idle timeout of a hop between \(nginx's proxy_read_timeout, a load balancer's\) cuts a stream silent that long/);
      else if (v.name !== 'har') expect(cut!.detail.why).toMatch(/; nothing had come on it for 1\.0\d s \(since its head\) when it broke: an idle timeout of a hop between/);
      expect(codes(r)).toEqual(['compile_report#1:CANCELLED', 'compile_report#1:NO_FINAL_RESULT']);
      for (const kept of ['idle-kept-by-progress', 'idle-kept-by-ping']) {
        const k = await run(kept, ...v.inputs);
        expect(calls(k).map((a) => a.outcome)).toEqual(['TOOL_SUCCESS']);
        expect(codes(k)).toEqual([]);
      }
    });
  }
});

it('must not: the same cut 0.3 s after the head names no silence (a stream that broke soon after its head or an event is no idle cut)', async () => {
  const C = 'idle-cut-silent';
  const lines = readFileSync(f(C, 'client.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; ts: string; xid: string; send?: { method?: string }; end?: string });
  const xid = lines.find((l) => l.kind === 'request' && l.send?.method === 'tools/call')!.xid;
  const head = lines.find((l) => l.kind === 'response' && l.xid === xid)!;
  const end = lines.find((l) => l.kind === 'end' && l.xid === xid)!;
  expect(end.end).toBe('error');
  end.ts = new Date(Date.parse(head.ts) + 300).toISOString();
  const dir = mkdtempSync(join(tmpdir(), 'mcpt-a10b-'));
  writeFileSync(join(dir, 'client.ndjson'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const r = await analyze({ inputs: [{ path: join(dir, 'client.ndjson'), side: 'client' }] });
  expect(calls(r)[0]!.detail.why).toBe('SSE stream ended (error) after 0 events without the response');
});

describe('a hop that gzips JSON and SSE responses (right before: nothing to fix)', () => {
  for (const C of ['gzip-sse', 'gzip-json']) {
    it(`${C}, what happened: every response went gzip-encoded; the caller got a result, a tool error, a result`, () => {
      expect(observed(C).slice(0, 3).map((x) => [x.label, x.isError])).toEqual([['search_docs', false], ['delete_page', true], ['reindex_docs', false]]);
      for (const file of ['proxy.ndjson', 'client.ndjson']) expect(readFileSync(f(C, file), 'utf8')).toContain('"content-encoding":"gzip"');
      expect(readFileSync(f(C, 'capture.har.ndjson'), 'utf8')).toContain('"name":"content-encoding","value":"gzip"');
      expect(readFileSync(f(C, 'server.ndjson'), 'utf8')).not.toContain('content-encoding');
    });

    for (const v of VIEWS) {
      it(`${C}, ${v.name}: read as the caller read it (no body dropped or read as broken)`, async () => {
        const r = await run(C, ...v.inputs);
        expect(r.attempts.map((a) => `${a.method} ${a.tool ?? ''} ${a.outcome}`)).toEqual(['initialize  SUCCESS', 'tools/list  SUCCESS', 'tools/call search_docs TOOL_SUCCESS', 'tools/call delete_page TOOL_ERROR', 'tools/call reindex_docs TOOL_SUCCESS']);
        expect(codes(r)).toEqual([]);
        expect(r.summary.inputs.every((i) => i.unusable === 0)).toBe(true);
      });
    }
  }
});

describe('a hop that answers 504 after its upstream timeout while the server goes on; the app retries', () => {
  const C = 'gateway-504-then-retry';

  it('what happened: the caller got HTTP 504 twice, each retry the result; both tools ran twice (the invoice sent twice)', () => {
    const o = observed(C);
    for (const tool of ['send_invoice', 'get_balance']) {
      expect(o.find((x) => x.label === `${tool} #1`)!.error).toMatch(/^StreamableHTTPError 504 /);
      expect(o).toContainEqual(expect.objectContaining({ label: `${tool} #2`, isError: false }));
      expect(ran(C).filter((x) => x.startsWith(`${tool} ACME-42`))).toHaveLength(2);
    }
  });

  for (const v of VIEWS) {
    it(`${v.name}: the 504 is the hop's page, the retry linked, UNSAFE_RETRY ${v.proven ? 'proven' : 'possible'} for send_invoice only`, async () => {
      const r = await run(C, ...v.inputs);
      const [inv1, inv2, bal1, bal2] = calls(r);
      for (const first of [inv1!, bal1!]) {
        if (v.name === 'server') expect(first).toMatchObject({ outcome: 'NO_RESPONSE', detail: { why: 'the connection closed before a response was sent' } });
        else expect(first).toMatchObject({ outcome: 'HTTP_ERROR', status: 504, layer: 'transport', detail: { why: 'the body says: 504 Gateway Time-out' } });
      }
      expect(inv2).toMatchObject({ call: inv1!.call, attempt: 2, outcome: 'TOOL_SUCCESS' });
      expect(bal2).toMatchObject({ call: bal1!.call, attempt: 2, outcome: 'TOOL_SUCCESS' });
      expect(finding(inv2!, 'UNSAFE_RETRY')).toMatchObject({ severity: v.proven ? 'error' : 'warning' });
      expect(finding(bal2!, 'UNSAFE_RETRY')).toBeUndefined();
    });
  }

  it('both: SIDE_DIVERGENCE says the hop answered 504 itself and closed the server\'s connection (before: "something between them changed the HTTP status", though the server sent none)', async () => {
    const r = await run(C, ['client.ndjson', 'client'], ['server.ndjson', 'server']);
    const [inv1, , bal1] = calls(r);
    for (const first of [inv1!, bal1!]) {
      const m = finding(first, 'SIDE_DIVERGENCE')!.message;
      expect(m).toMatch(/client saw HTTP 504 HTTP_ERROR, server sent no response NO_RESPONSE: something between them answered HTTP 504 itself \(a gateway that stopped waiting for the server: its upstream timeout\) and closed the server's connection, 0\.8\d s into the request, before the server answered/);
      expect(m).not.toMatch(/changed the HTTP status/);
    }
  });
});

describe('the Python SDK client (2.3.0, legacy mode) behind the same 504 hop: its views are the proxy\'s, the HAR\'s and the server\'s (right before but for the SIDE_DIVERGENCE wording)', () => {
  const C = 'py-gateway-504-then-retry';
  const PY_VIEWS: { name: string; inputs: [string, Side?][]; proven: boolean }[] = [
    { name: 'server', inputs: [['server.ndjson', 'server']], proven: true },
    { name: 'proxy', inputs: [['proxy.ndjson']], proven: false },
    { name: 'har', inputs: [['capture.har.ndjson']], proven: false },
    { name: 'proxy as client, with the server', inputs: [['proxy.ndjson', 'client'], ['server.ndjson', 'server']], proven: true },
  ];

  it('what happened: every call got "MCPError -32603: Server returned an error response" (the 504), the app gave up after two; each tool ran twice', () => {
    const o = observed(C);
    expect(o.filter((x) => 'label' in x)).toEqual(['send_invoice #1', 'send_invoice #2', 'get_balance #1', 'get_balance #2'].map((label) => ({ label, error: 'MCPError -32603: Server returned an error response' })));
    expect(ran(C).filter((x) => x.startsWith('send_invoice'))).toHaveLength(2);
  });

  for (const v of PY_VIEWS) {
    it(`${v.name}: two attempts of each call, UNSAFE_RETRY ${v.proven ? 'proven' : 'possible'} for send_invoice only${v.name.includes('with') ? ', SIDE_DIVERGENCE naming the hop\'s own 504' : ''}`, async () => {
      const r = await run(C, ...v.inputs);
      const [inv1, inv2, bal1, bal2] = calls(r);
      expect([inv1, inv2, bal1, bal2].map((a) => `${a!.tool} ${a!.call === (a!.tool === 'send_invoice' ? inv1 : bal1)!.call} ${a!.attempt} ${a!.outcome}`)).toEqual(
        v.name === 'server'
          ? ['send_invoice true 1 NO_RESPONSE', 'send_invoice true 2 NO_RESPONSE', 'get_balance true 1 NO_RESPONSE', 'get_balance true 2 NO_RESPONSE']
          : ['send_invoice true 1 HTTP_ERROR', 'send_invoice true 2 HTTP_ERROR', 'get_balance true 1 HTTP_ERROR', 'get_balance true 2 HTTP_ERROR']);
      expect(finding(inv2!, 'UNSAFE_RETRY')).toMatchObject({ severity: v.proven ? 'error' : 'warning' });
      expect(finding(bal2!, 'UNSAFE_RETRY')).toBeUndefined();
      const divergent = [inv1, inv2, bal1, bal2].map((a) => finding(a!, 'SIDE_DIVERGENCE')?.message ?? '');
      if (v.name.includes('with')) for (const m of divergent) expect(m).toMatch(/something between them answered HTTP 504 itself .* closed the server's connection, 0\.8\d s into the request/);
      else expect(divergent).toEqual(['', '', '', '']);
    });
  }
});
