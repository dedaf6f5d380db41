// The twenty-first audit's real captures (test/fixtures/real-audit21/): scenarios its fixtures did not cover before,
// recorded with the installed SDKs on 127.0.0.1, with each app's own account of what happened (truth-*.ndjson).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit21/', import.meta.url));
const f = (scenario: string, name: string) => `${DIR}${scenario}/${name}`;
type Side = 'client' | 'server';
const run = (inputs: [string, Side?][]) => analyze({ inputs: inputs.map(([path, side]) => ({ path, ...(side ? { side } : {}) })), onDiagnostic: () => {} });
const truth = (scenario: string, name: string) => readFileSync(f(scenario, name), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
const linesOf = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');
const tmp = (name: string, lines: string[]) => {
  const path = join(mkdtempSync(join(tmpdir(), 'audit21-')), name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};

describe("an HTTP client's retries below the SDK: the same request re-POSTed under its id (s4-httpx-retry)", () => {
  // The Python SDK client on an httpx transport that retries 502 and read timeouts; a hop answered the first charge
  // with 502 after the server ran it. The server's log shows the same session, id and arguments twice.
  const server = f('s4-httpx-retry', 'server.ndjson');

  it("the server's log alone links the re-send as attempt 2 of the call and says the charge ran twice (UNSAFE_RETRY error)", async () => {
    const effects = truth('s4-httpx-retry', 'truth-server.ndjson').filter((t) => t.invoice === 'INV-1');
    expect(effects.map((t) => [t.requestId, t.effect])).toEqual([[2, 'charged INV-1'], [2, 'charged INV-1']]);
    const r = await run([[server, 'server']]);
    const charge = r.attempts.filter((a) => a.id === 2);
    expect(charge.map((a) => [a.outcome, a.attempt, a.call])).toEqual([['TOOL_SUCCESS', 1, charge[0]!.call], ['TOOL_SUCCESS', 2, charge[0]!.call]]);
    const unsafe = charge[1]!.findings.find((x) => x.code === 'UNSAFE_RETRY')!;
    expect(unsafe.severity).toBe('error');
    expect(unsafe.message).toContain('the server view shows the earlier attempt ran to its result (TOOL_SUCCESS)');
    expect(charge[1]!.retryOrigin).toMatchObject({ origin: 'unknown', how: 'same id re-posted with no auth challenge before it' });
    // The re-send came ~100 ms after the server's answer: under the default policy's 200 ms, said without "the failure".
    expect(charge[1]!.findings.find((x) => x.code === 'RETRY_POLICY')!.message).toMatch(/^tools\/call charge: retry 1 came \d+ ms after the earlier attempt ended \(TOOL_SUCCESS in this log: the sender did not get it\); the policy asks at least 200 ms \(--min-retry-delay\)$/);
  });

  it('must not: the calls after it (new ids, other arguments) stay calls of their own; the same id in another session is not a re-send', async () => {
    const r = await run([[server, 'server']]);
    const others = r.attempts.filter((a) => a.method === 'tools/call' && a.id !== 2 && a.id !== 5);
    expect(others.map((a) => [a.id, a.attempt])).toEqual([[4, 1], [6, 1]]);
    // The second charge moved into a session of its own: id 2 there is another client's first call, not a re-send.
    const lines = linesOf(server);
    const second = lines.findIndex((l, i) => i > lines.findIndex((x) => x.includes('"id":2,"method":"tools/call"')) && l.includes('"id":2,"method":"tools/call"'));
    const xid = (JSON.parse(lines[second]!) as { xid: string }).xid;
    const moved = lines.map((l) => (l.includes(`"xid":"${xid}"`) ? l.replaceAll('0490aa03-6f70-4ed9-839a-3bd40475990c', '11111111-2222-4333-8444-555555555555') : l));
    const apart = await run([[tmp('server.ndjson', moved), 'server']]);
    expect(apart.attempts.filter((a) => a.id === 2).map((a) => a.attempt)).toEqual([1, 1]);
    // Nor is one that came more than 10 s after the first ended (HTTP retries come within seconds): kept no longer.
    const later = lines.map((l) => {
      const rec = JSON.parse(l) as { xid?: string; ts: string };
      return rec.xid === xid ? JSON.stringify({ ...rec, ts: new Date(Date.parse(rec.ts) + 20_000).toISOString() }) : l;
    }).sort((x, y) => Date.parse((JSON.parse(x) as { ts: string }).ts) - Date.parse((JSON.parse(y) as { ts: string }).ts));
    const late = await run([[tmp('server.ndjson', later), 'server']]);
    expect(late.attempts.filter((a) => a.id === 2).map((a) => a.attempt)).toEqual([1, 1]);
  });

  it("the client's proxy log, which saw the 502, links it as before", async () => {
    const r = await run([[f('s4-httpx-retry', 'proxy.ndjson'), 'client']]);
    const charge = r.attempts.filter((a) => a.id === 2);
    expect(charge.map((a) => [a.status, a.outcome, a.attempt])).toEqual([[502, 'HTTP_ERROR', 1], [200, 'TOOL_SUCCESS', 2]]);
  });
});

describe("a cancelled call the Python server answers -32800 only when its tool returns (s7-cancel-race)", () => {
  // The TypeScript SDK 1.32.2 client times out settle_invoice (destructive; its commit shielded from cancellation) at
  // 1 s and cancels; the Python server answers -32800 half a second later, when the tool has settled the invoice; the
  // app's retry settles it again.
  const client = f('s7-cancel-race', 'client.ndjson');

  it("CANCELLED says when the -32800 came and that what the tool did by then is done; the client's log alone gives UNSAFE_RETRY", async () => {
    const settled = truth('s7-cancel-race', 'truth-server.ndjson').filter((t) => t.effect === 'settled INV-7');
    expect(settled).toHaveLength(2);
    const r = await run([[client, 'client']]);
    const [first, retry] = r.attempts.filter((a) => a.tool === 'settle_invoice');
    const cancelled = first!.findings.find((x) => x.code === 'CANCELLED')!.message;
    expect(cancelled).toMatch(/; the server then answered it with -32800 \(Request cancelled\) 0\.5\d s after that: it stopped the request without a result, but what the tool had done by then \(or shields from cancellation, as a commit\) is done$/);
    expect(cancelled).not.toContain('no result was lost');
    expect([retry!.call, retry!.attempt]).toEqual([first!.call, 2]);
    const unsafe = retry!.findings.find((x) => x.code === 'UNSAFE_RETRY')!;
    expect([unsafe.severity, unsafe.message]).toEqual(['warning', expect.stringContaining('the server answered the earlier attempt -32800 after the client cancelled it: it had the request and was running it')]);
    // With the server's view of it: proven.
    const both = await run([[client, 'client'], [f('s7-cancel-race', 'server-proxy.ndjson'), 'server']]);
    expect(both.attempts.find((a) => a.tool === 'settle_invoice' && a.attempt === 2)!.findings.find((x) => x.code === 'UNSAFE_RETRY')!.severity).toBe('error');
  });

  it('must not: a -32800 the client did not cancel for (a server that gave up on its own) is no proof the tool ran', async () => {
    // The call's own lines without its notifications/cancelled, and the retry moved after the -32800 (as a retry after
    // an error comes): the error is the server's own, with no cancellation that it answers.
    const lines = linesOf(client).map((l) => JSON.parse(l) as Record<string, unknown>);
    const sent = (x: Record<string, unknown>) => (x.send ?? {}) as { id?: unknown; method?: string };
    const cancel = lines.find((x) => sent(x).method === 'notifications/cancelled')!;
    const retryXid = lines.find((x) => sent(x).method === 'tools/call' && sent(x).id === 3)!.xid;
    const kept = lines.filter((x) => x.xid !== cancel.xid).map((x) => (x.xid === retryXid ? { ...x, ts: new Date(Date.parse(x.ts as string) + 1_000).toISOString() } : x));
    kept.sort((x, y) => Date.parse(x.ts as string) - Date.parse(y.ts as string));
    const r = await run([[tmp('client.ndjson', kept.map((x) => JSON.stringify(x))), 'client']]);
    const retry = r.attempts.find((a) => a.tool === 'settle_invoice' && a.attempt === 2)!;
    expect(retry.findings.map((x) => x.code)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
  });
});

describe('one client, two servers behind a path router whose tools share names (s1-path-router)', () => {
  // A's sync is read-only and idempotent, B's charges; A's search declares an outputSchema, B's does not. The router
  // answers the first sync of each with 502 after the server ran it; the app retries both. `stateful-ba`: B connects
  // first, so A's tools/list is the client's latest.
  const sessionOf = (path: string) => (readFileSync(path, 'utf8').match(/"mcp-session-id":"([^"]+)"/) ?? [])[1]!;

  it.each(['stateful', 'stateful-ba'])("%s: each call is judged by its own session's tools/list: UNSAFE_RETRY on B's retry only, no INVALID_TOOL_RESULT on B's search", async (order) => {
    const b = sessionOf(f(`s1-path-router/${order}`, 'serverB.ndjson'));
    const a = sessionOf(f(`s1-path-router/${order}`, 'serverA.ndjson'));
    expect(truth(`s1-path-router/${order}`, 'truth-server.ndjson').filter((t) => t.server === 'B' && t.item === 'inv-1').map((t) => t.effect)).toEqual(['charged inv-1', 'charged inv-1']);
    for (const inputs of [
      [[f(`s1-path-router/${order}`, 'proxy.ndjson')]],
      [[f(`s1-path-router/${order}`, 'client.ndjson'), 'client'], [f(`s1-path-router/${order}`, 'serverA.ndjson'), 'server'], [f(`s1-path-router/${order}`, 'serverB.ndjson'), 'server']],
    ] as [string, Side?][][]) {
      const r = await run(inputs);
      const unsafe = r.attempts.filter((x) => x.findings.some((y) => y.code === 'UNSAFE_RETRY'));
      expect(unsafe.map((x) => [x.session, x.tool, x.attempt]), inputs.length === 1 ? 'proxy' : 'joined').toEqual([[b, 'sync', 2]]);
      // Must not: A's retry of its read-only sync is safe.
      expect(r.attempts.find((x) => x.session === a && x.tool === 'sync' && x.attempt === 2)!.findings.map((y) => y.code)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
      const codes = r.attempts.filter((x) => x.tool === 'search').flatMap((x) => x.findings.map((y) => y.code));
      expect(codes).toEqual([]);
      expect(r.attempts.filter((x) => x.tool === 'search').map((x) => x.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_SUCCESS']);
    }
  });
});

describe("a server recorded before Express's compression() (s6-compression/rec-first-json)", () => {
  // recordingMiddleware mounted first, compression() after it, the SDK server in JSON response mode: the record of the
  // 2.4 KB result holds the gzip bytes (recorded before the recorder decoded them; it does now).
  const dir = 's6-compression/rec-first-json';

  it("the gzip body kept as sent is not read as broken JSON: the server's view is not observable, no SIDE_DIVERGENCE when joined", async () => {
    expect(truth(dir, 'truth-client.ndjson').some((t) => t.saw === 'TOOL_SUCCESS')).toBe(true);
    const server = await run([[f(dir, 'server.ndjson'), 'server']]);
    const quick = server.attempts.find((a) => a.tool === 'quick')!;
    expect([quick.outcome, quick.detail.why]).toEqual(['UNANSWERED', 'the capture kept the response body as sent, compressed (Content-Encoding: gzip), not decoded (a recorder mounted before a compression middleware): what the server answered is not observable here']);
    const both = await run([[f(dir, 'client.ndjson'), 'client'], [f(dir, 'server.ndjson'), 'server']]);
    const joined = both.attempts.find((a) => a.tool === 'quick')!;
    expect([joined.outcome, joined.findings.map((x) => x.code)]).toEqual(['TOOL_SUCCESS', []]);
  });

  it('must not: the same bytes without Content-Encoding are a broken body (MALFORMED_JSON)', async () => {
    const lines = linesOf(f(dir, 'server.ndjson')).map((l) => l.replace(',"content-encoding":"gzip"', ''));
    const r = await run([[tmp('server.ndjson', lines), 'server']]);
    expect(r.attempts.find((a) => a.tool === 'quick')!.outcome).toBe('MALFORMED_JSON');
  });
});

describe("POSTs a server's middleware refused before the body was read (s2-express-mw)", () => {
  // recordingMiddleware, then cors, a bearer check (401), express-rate-limit (429), express.json (413), the SDK 1.32.2
  // transport: the token revoked mid-session, then a burst of calls with quick retries.
  const server = f('s2-express-mw', 'server.ndjson');

  it("the server's log alone says how many it refused and how, where they are not attempts", async () => {
    const r = await run([[server, 'server']]);
    const note = r.summary.notes.find((n) => n.includes('refused before it read their body'))!;
    expect(note).toMatch(/^.*server\.ndjson: 13 POSTs the server refused before it read their body \(HTTP 429 x12, HTTP 401 x1, in 2 sessions; the first at .*server\.ndjson:\d+\): the log has no JSON-RPC request of them/);
    // The 413 of express.json, which read the body, is an attempt of its own as before.
    expect(r.attempts.filter((a) => a.status === 413).map((a) => a.outcome)).toEqual(['HTTP_ERROR']);
  });

  it("must not: with the client's log beside it, every such POST joins its request and no note is left", async () => {
    const r = await run([[f('s2-express-mw', 'client.ndjson'), 'client'], [server, 'server']]);
    expect(r.summary.notes.filter((n) => n.includes('refused before it read their body'))).toEqual([]);
    expect(r.attempts.filter((a) => a.status === 429)).toHaveLength(12);
  });
});

describe("a Python server's pydantic outputSchema: nested models by $ref, optional by anyOf, datetimes (s11-output-schemas)", () => {
  // get_order 5's parent was built with a naive datetime: the TypeScript SDK 1.32.2 client's callTool threw -32602
  // ("data/parent/created must match format "date-time""); the Python client took the same result.
  it('the TypeScript client\'s refusal is INVALID_TOOL_RESULT with the path; the other results, rich schemas and all, stay TOOL_SUCCESS', async () => {
    const seen = truth('s11-output-schemas', 'truth-client-ts.ndjson');
    const r = await run([[f('s11-output-schemas', 'client-ts.ndjson'), 'client']]);
    const calls = r.attempts.filter((a) => a.method === 'tools/call');
    expect(calls.map((a) => a.outcome)).toEqual(seen.map((t) => (t.ok === true ? 'TOOL_SUCCESS' : 'INVALID_TOOL_RESULT')));
    const bad = calls.find((a) => a.outcome === 'INVALID_TOOL_RESULT')!;
    expect(bad.detail.why).toMatch(/^structuredContent\/parent\/created must match format "date-time", by the outputSchema tools\/list declares/);
    expect(String(seen.find((t) => t.error !== undefined)!.error)).toContain('data/parent/created must match format \\"date-time\\"'.replace(/\\"/g, '"'));
  });
});

describe("a Python server mounted so that POST /mcp answers 307 to /mcp/ (s13-redirect-307)", () => {
  // client-direct.ndjson: the SDK 1.32.2 client straight to the server follows each 307; client.ndjson: the same client
  // through mcp-triage record before its Location fix, where the 307 named the target's origin and the SDK refused it.
  const why = (a: { detail: { why?: string } }) => a.detail.why ?? '';

  it('a followed 307 says it is a redirect, not a refusal, and the request sent there is attempt 2 by the SDK', async () => {
    const r = await run([[f('s13-redirect-307', 'client-direct.ndjson'), 'client']]);
    const init = r.attempts.filter((a) => a.method === 'initialize');
    expect(init.map((a) => [a.status, a.outcome, a.attempt])).toEqual([[307, 'HTTP_ERROR', 1], [200, 'SUCCESS', 2]]);
    expect(why(init[0]!)).toMatch(/^HTTP 307, a redirect, not a refusal: a client that follows it sends the request to its Location .*; Location: http:\/\/127\.0\.0\.1:\d+\/mcp\/$/);
    expect(init[1]!.retryOrigin?.origin).toBe('sdk');
  });

  it("a secret in the Location's query is redacted in the why, as everywhere", async () => {
    const rec = { v: 1, kind: 'exchange', ts: '2026-12-05T06:00:00.000Z', side: 'client', session: null, xid: 'r1', method: 'POST', url: 'http://127.0.0.1:9/mcp', requestHeaders: { 'content-type': 'application/json' }, send: { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }, status: 307, responseHeaders: { location: 'https://login.example.com/cb?access_token=sk-live-abcdef1234567890&code=S3CR3TC0DE' }, recvText: '' };
    const r = await run([[tmp('client.ndjson', [JSON.stringify(rec)]), 'client']]);
    const text = JSON.stringify(r);
    expect(text).not.toContain('sk-live-abcdef1234567890');
    expect(text).not.toContain('S3CR3TC0DE');
    expect(why(r.attempts[0]!)).toMatch(/; Location: https:\/\/login\.example\.com\/cb\?access_token=\[redacted:[0-9a-f]+\]&code=\[redacted:[0-9a-f]+\]$/);
  });

  it('must not: one the client did not follow is not said to have been followed (no attempt 2)', async () => {
    expect(String(truth('s13-redirect-307', 'truth-client.ndjson')[0]!.onerror)).toContain("not followed (redirectPolicy: 'same-origin')");
    const r = await run([[f('s13-redirect-307', 'client.ndjson'), 'client']]);
    expect(r.attempts.map((a) => [a.method, a.status, a.attempt])).toEqual([['initialize', 307, 1]]);
    expect(why(r.attempts[0]!)).toContain('one that does not (the TypeScript SDK follows only a redirect to its own origin) has no answer to it');
  });
});

describe("a rate limiter refuses the client's answer to the tool's elicitation (s12-elicit-429)", () => {
  // express-rate-limit (4 requests in 10 s) before the SDK 1.32.2 server; place_order's elicitInput (sent on the
  // session's GET stream) is accepted at once, but the POST with the answer is the fifth request: 429. The tool's wait
  // runs out and the call ends with an isError result "MCP error -32001: Request timed out".
  const client = f('s12-elicit-429', 'client.ndjson');

  it("the call's why names the refused answer, alone and joined", async () => {
    expect(truth('s12-elicit-429', 'truth-client.ndjson')[0]).toMatchObject({ answered: 'accept ok=true' });
    for (const inputs of [[[client, 'client']], [[client, 'client'], [f('s12-elicit-429', 'server.ndjson'), 'server']]] as [string, Side?][][]) {
      const r = await run(inputs);
      const call = r.attempts.find((a) => a.tool === 'place_order')!;
      expect(call.outcome).toBe('TOOL_ERROR');
      expect(call.detail.why).toBe("the client's answer to the server's elicitation/create (id 0) (sent on the session's GET stream while this call was the only one open in the session) got HTTP 429 on its way: the POST that carried it was refused, so the tool never got it");
    }
  });

  it('must not: with two calls open when the GET stream carried the ask, it is tied to neither', async () => {
    const lines = linesOf(client).map((l) => JSON.parse(l) as Record<string, unknown>);
    const call = lines.find((x) => (x.send as { method?: string } | undefined)?.method === 'tools/call')!;
    // A second tools/call, sent 1 ms after the first on its own POST, still open when the elicitation comes.
    const twin = { ...call, xid: 'twin-1', ts: new Date(Date.parse(call.ts as string) + 1).toISOString(), send: { ...(call.send as object), id: 99 } };
    const at = lines.indexOf(call);
    const r = await run([[tmp('client.ndjson', [...lines.slice(0, at + 1), twin, ...lines.slice(at + 1)].map((x) => JSON.stringify(x))), 'client']]);
    const place = r.attempts.filter((a) => a.tool === 'place_order');
    expect(place).toHaveLength(2);
    expect(place.map((a) => a.detail.why ?? '').filter((w) => w.includes('on its way'))).toEqual([]);
  });
});

describe('a server process that exits mid-call, restarted by a supervisor (s5-crash-restart)', () => {
  // deploy ran its effect, then the process exited with its SSE stream open; the new process appended to the same log.
  it("the server's log says its own record of the stream has no end: the process stopped (or the log was cut)", async () => {
    expect(truth('s5-crash-restart', 'truth-server.ndjson').some((t) => JSON.stringify(t).includes('exit'))).toBe(true);
    const r = await run([[f('s5-crash-restart', 'server.ndjson'), 'server']]);
    const cut = r.attempts.find((a) => a.outcome === 'STREAM_INCOMPLETE')!;
    expect(cut.detail.why).toMatch(/^SSE stream ended \(cut\) after 1 event without the response; the server's own log has no end of this stream: the server process stopped while it was open \(a crash, a kill or a restart\), or the log was cut there/);
  });

  it("must not: a stream whose end the server's log has (its client closed it), or the client's log of it, does not say the server stopped", async () => {
    const whys = (r: Awaited<ReturnType<typeof run>>) => r.attempts.map((a) => (a.detail as { why?: string } | undefined)?.why ?? '');
    const client = await run([[f('s5-crash-restart', 'client.ndjson'), 'client']]);
    expect(whys(client).filter((w) => w.includes("server's own log"))).toEqual([]);
    const lines = linesOf(f('s5-crash-restart', 'server.ndjson'));
    const cut = (await run([[f('s5-crash-restart', 'server.ndjson'), 'server']])).attempts.find((a) => a.outcome === 'STREAM_INCOMPLETE')!;
    const first = JSON.parse(lines[cut.sources[0]!.line - 1]!) as { xid: string; session: string; ts: string };
    const ended = JSON.stringify({ v: 1, kind: 'end', ts: new Date(Date.parse(first.ts) + 500).toISOString(), side: 'server', session: first.session, xid: first.xid, end: 'aborted', error: 'the client closed the connection' });
    const at = lines.findIndex((l) => Date.parse((JSON.parse(l) as { ts: string }).ts) > Date.parse(first.ts) + 500);
    const r = await run([[tmp('server.ndjson', [...lines.slice(0, at), ended, ...lines.slice(at)]), 'server']]);
    expect(whys(r).filter((w) => w.includes("server's own log"))).toEqual([]);
  });
});

describe('one v2 client, two servers on 2026-07-28 (no sessions) through one recordingFetch without a conn (s9-v2-two-servers)', () => {
  // Fixed by the eighty-eighth audit: the linker keeps each request's endpoint (its URL), so each server's retry is
  // linked to its own failure; the join with the servers' logs does not use URLs (a server logs another than its
  // client's), which the note says when the servers' logs are joined.
  const servers = (): [string, 'server'][] => [[f('s9-v2-two-servers/ab', 'serverA.ndjson'), 'server'], [f('s9-v2-two-servers/ab', 'serverB.ndjson'), 'server']];
  it("each server's retry is linked to that server's failure (truth-client.ndjson), from the client's log alone", async () => {
    const r = await run([[f('s9-v2-two-servers/ab', 'client.ndjson'), 'client']]);
    const lines = linesOf(f('s9-v2-two-servers/ab', 'client.ndjson')).map((l) => JSON.parse(l) as { url?: string });
    const urlOf = (a: (typeof r.attempts)[number]) => lines[a.sources[0]!.line - 1]!.url!;
    const calls = r.attempts.filter((a) => a.method === 'tools/call');
    for (const retry of calls.filter((a) => (a.attempt ?? 1) > 1)) {
      const first = calls.find((a) => a.call === retry.call && a.attempt === 1)!;
      expect(urlOf(first)).toBe(urlOf(retry));
    }
    const truth = linesOf(f('s9-v2-two-servers/ab', 'truth-client.ndjson')).map((l) => JSON.parse(l) as { attempt: number });
    expect(calls.filter((a) => (a.attempt ?? 1) > 1).length).toBe(truth.filter((t) => t.attempt > 1).length);
    expect(r.summary.notes.filter((n) => n.includes('endpoints'))).toEqual([]);
  });

  it("a note names the endpoints, that the servers' logs are joined without them, and what to record to keep them apart", async () => {
    const r = await run([[f('s9-v2-two-servers/ab', 'client.ndjson'), 'client'], ...servers()]);
    const note = r.summary.notes.find((n) => n.includes('endpoints'))!;
    expect(note).toMatch(/^.*client\.ndjson: its requests without a session id go to 2 endpoints \("http:\/\/127\.0\.0\.1:\d+\/a\/mcp", "http:\/\/127\.0\.0\.1:\d+\/b\/mcp"\) with no conn to tell them apart: their retries are linked by endpoint, but a server's log is joined to them by JSON-RPC id, method, arguments and time alone/);
    expect(note).toContain("record each server's traffic with a conn of its own (recordingFetch's conn option) or in a file of its own");
  });

  it('must not: with a conn per server, or with sessions (the same router on 2025-11-25), or one endpoint with and without its trailing slash, no note', async () => {
    const lines = linesOf(f('s9-v2-two-servers/ab', 'client.ndjson')).map((l) => JSON.parse(l) as Record<string, unknown>);
    const xidUrl = new Map(lines.filter((x) => x.kind === 'request').map((x) => [x.xid, String(x.url)]));
    const withConn = lines.map((x) => JSON.stringify({ ...x, conn: xidUrl.get(x.xid)?.includes('/a/') ? 'A' : 'B' }));
    const notes = async (text: string[]) => (await run([[tmp('client.ndjson', text), 'client'], ...servers()])).summary.notes.filter((n) => n.includes('endpoints'));
    expect(await notes(lines.map((x) => JSON.stringify(x)))).toHaveLength(1);
    expect(await notes(withConn)).toEqual([]);
    expect((await run([[f('s1-path-router/stateful', 'client.ndjson'), 'client']])).summary.notes.filter((n) => n.includes('endpoints'))).toEqual([]);
    const oneServer = lines.map((x) => JSON.stringify(x.kind === 'request' ? { ...x, url: String(x.url).replace('/b/mcp', '/a/mcp/') } : x));
    expect(await notes(oneServer)).toEqual([]);
  });
});
