// Linking attempts into calls: who the caller is (log identity, the name a client gives, the connection) and when a repeat is a retry.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at, ok, post, sse, toolText } from './helpers/analyze.js';

/** One 1.x-style session: initialize naming the client, then one tools/call with the given status, on its own connection. */
function session(o: { sid: string; conn: string; name: string; t: number; status: number | null; id?: number }) {
  const init = post({ t: o.t, id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: o.name, version: '1.0.0' } }, status: 200, headers: { 'mcp-session-id': o.sid }, body: ok(0, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }) });
  const call = post({ t: o.t + 100, id: o.id ?? 1, session: o.sid, tool: 'send_invoice', args: { order: 7 }, status: o.status, ...(o.status === null ? { error: 'fetch failed' } : { body: ok(o.id ?? 1, toolText('sent')) }) });
  return [{ ...init, conn: o.conn }, { ...call, conn: o.conn }];
}
const invoices = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.filter((a) => a.tool === 'send_invoice').map((a) => `${a.call}#${a.attempt}`);

describe('who makes a call', () => {
  it('an app that reconnects with a new Client (a new conn) and repeats the call: the same client by name, so a retry', async () => {
    const r = await analyzeInputs([{ lines: [...session({ sid: 's1', conn: 'client-1', name: 'billing-agent', t: 0, status: null }), ...session({ sid: 's2', conn: 'client-2', name: 'billing-agent', t: 2000, status: 200 })] }]);
    expect(invoices(r)).toEqual(['c2#1', 'c2#2']);
  });

  it('two agents (different names) with the same arguments, one after the other: two calls', async () => {
    const r = await analyzeInputs([{ lines: [...session({ sid: 's1', conn: 'client-1', name: 'billing-agent', t: 0, status: null }), ...session({ sid: 's2', conn: 'client-2', name: 'audit-agent', t: 2000, status: 200 })] }]);
    expect(invoices(r)).toEqual(['c2#1', 'c4#1']);
  });

  it('the log\'s own client identity wins over the names: two identities are two callers', async () => {
    const [a1, a2] = session({ sid: 's1', conn: 'x', name: 'same', t: 0, status: null });
    const [b1, b2] = session({ sid: 's2', conn: 'y', name: 'same', t: 2000, status: 200 });
    const r = await analyzeInputs([{ lines: [{ ...a1, client: 'web-1' }, { ...a2, client: 'web-1' }, { ...b1, client: 'web-2' }, { ...b2, client: 'web-2' }] }]);
    expect(invoices(r)).toEqual(['c2#1', 'c4#1']);
  });
});

describe('when a repeat is a retry', () => {
  it('an identical call sent while the first still ran is a call of its own', async () => {
    const r = await analyzeInputs([{ lines: [
      post({ t: 0, id: 1, session: 's', tool: 'lookup', args: { q: 1 }, status: 500, durationMs: 300, body: 'boom' }),
      post({ t: 100, id: 2, session: 's', tool: 'lookup', args: { q: 1 }, status: 200, body: ok(2, toolText('x')) }),
      post({ t: 1000, id: 3, session: 's', tool: 'lookup', args: { q: 1 }, status: 200, body: ok(3, toolText('x')) }),
    ] }]);
    // The third, sent after both ended, retries the first: the second ran beside it and did not end it (real-audit32's
    // parallel-503: 20 calls alike at once, 5 refused with 503, the app retried those 5 after the others).
    expect(r.attempts.map((a) => `${String(a.id)} ${a.call}#${a.attempt}`)).toEqual(['1 c1#1', '2 c2#1', '3 c1#2']);
  });

  it('a like call that went well after the failure ended, and had ended when the next began, leaves that next one a call of its own', async () => {
    const r = await analyzeInputs([{ lines: [
      post({ t: 0, id: 1, session: 's', tool: 'lookup', args: { q: 1 }, status: 500, durationMs: 300, body: 'boom' }),
      post({ t: 400, id: 2, session: 's', tool: 'lookup', args: { q: 1 }, status: 200, body: ok(2, toolText('x')) }),
      post({ t: 1000, id: 3, session: 's', tool: 'lookup', args: { q: 1 }, status: 200, body: ok(3, toolText('x')) }),
    ] }]);
    expect(r.attempts.map((a) => `${String(a.id)} ${a.call}#${a.attempt}`)).toEqual(['1 c1#1', '2 c1#2', '3 c2#1']);
  });

  it('a retry sent the moment a fetch failed, logged with ts in whole ms and a float durationMs (Date.now(), performance.now()), is a retry: its start may read up to 1 ms before the failure ended', async () => {
    // as the fifteenth audit's fetch-failed recorded it: the failed POST's ts + durationMs passes the retry's ts by a fraction of a ms
    const r = await analyzeInputs([{ side: 'client', lines: [
      { ...post({ t: 0, id: 1, session: 's', tool: 'lookup', args: { q: 1 }, status: null, error: 'fetch failed: other side closed', durationMs: 3.3 }), ts: 1796419219414 },
      { ...post({ t: 0, id: 2, session: 's', tool: 'lookup', args: { q: 1 }, status: 200, body: ok(2, toolText('x')), durationMs: 5.4 }), ts: 1796419219417 },
    ] }]);
    expect(r.attempts.map((a) => `${String(a.id)} ${a.outcome} ${a.call}#${a.attempt}`)).toEqual(['1 NO_RESPONSE c1#1', '2 TOOL_SUCCESS c1#2']);
  });

  it('must not link a repeat that started more than a millisecond before the failure ended: it ran alongside it', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: [
      { ...post({ t: 0, id: 1, session: 's', tool: 'lookup', args: { q: 1 }, status: null, error: 'fetch failed', durationMs: 5 }), ts: 1796419219414 },
      { ...post({ t: 0, id: 2, session: 's', tool: 'lookup', args: { q: 1 }, status: 200, body: ok(2, toolText('x')), durationMs: 5 }), ts: 1796419219417 },
    ] }]);
    expect(r.attempts.map((a) => `${String(a.id)} ${a.call}#${a.attempt}`)).toEqual(['1 c1#1', '2 c2#1']);
  });

  it('the same request again after a 3xx redirect is the HTTP client following it: origin sdk, no retry warnings', async () => {
    const r = await analyzeInputs([{ lines: [
      post({ t: 0, id: 2, session: 's', tool: 'send_invoice', args: { order: 1 }, status: 307, headers: { location: '/mcp/' }, body: '' }),
      post({ t: 5, id: 2, session: 's', tool: 'send_invoice', args: { order: 1 }, status: 200, body: ok(2, toolText('sent')) }),
    ] }]);
    const [, again] = r.attempts;
    expect(again).toMatchObject({ attempt: 2, retryOrigin: { origin: 'sdk' } });
    expect(again!.findings.map((f) => f.code)).toEqual([]);
  });

  it('a new request with the failed one\'s _meta.callId (Codex re-sending the model\'s call in a new session) is the app\'s retry; a new callId is not', async () => {
    // Codex 0.171 after a 404: a new client (initialize id 0) sends the call again as id 1, with the same _meta.callId.
    const call = (t: number, id: number, sid: string, callId: string, status: number) =>
      post({ t, id, session: sid, params: { name: 'place_order', arguments: { sku: 'SKU-3' }, _meta: { callId } }, status, body: status === 404 ? JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }) : ok(id, toolText('placed')) });
    const init = (t: number, sid: string) => post({ t, id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'codex-mcp-client', version: '0.171.0' } }, status: 200, headers: { 'mcp-session-id': sid }, body: ok(0, { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } }) });
    const run = (second: string) => analyzeInputs([{ lines: [init(0, 'old'), call(100, 3, 'old', 'call_2', 404), init(110, 'new'), call(120, 1, 'new', second, 200)] }]);
    const again = (await run('call_2')).attempts.find((a) => a.id === 1 && a.method === 'tools/call')!;
    expect(again).toMatchObject({ attempt: 2, retryOrigin: { origin: 'app' } });
    expect(again.retryOrigin!.how).toMatch(/same _meta\.callId "call_2"/);
    expect(again.findings.map((f) => f.code)).toEqual([]);
    const other = (await run('call_9')).attempts.find((a) => a.id === 1 && a.method === 'tools/call')!;
    expect(other).toMatchObject({ attempt: 2, retryOrigin: { origin: 'unknown' } });
    expect(other.findings.map((f) => f.code)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
  });
});

describe('a retry whose first attempt the server finished long after the client gave up', () => {
  // The client's stream is cut at 30 s; the server runs the tool on and answers at `serverMs`. The app repeats the
  // call at once. Another session's pings move time on in both logs, so attempts are released while the run goes on.
  const sid = 's-cut';
  const tools = ok(1, { tools: [{ name: 'create_issue', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, idempotentHint: false } }] });
  const pings = (side: 'client' | 'server') => Array.from({ length: 120 }, (_, i) => post({ t: 1000 + i * 5000 + (side === 'server' ? 1 : 0), id: 1000 + i, session: 's-other', method: 'ping', status: 200, body: ok(1000 + i, {}) }));
  const sides = (serverMs: number, retryArgs: Record<string, unknown>) => {
    const byTime = (l: Record<string, unknown>[]) => l.sort((a, b) => String(a.ts).localeCompare(String(b.ts)));
    const client = byTime([
      post({ t: 0, id: 1, session: sid, method: 'tools/list', status: 200, body: tools }),
      post({ t: 10_000, id: 2, session: sid, tool: 'create_issue', args: { title: 'x' }, status: 200, ct: 'text/event-stream', body: '', end: 'aborted', error: 'TypeError: terminated', durationMs: 30_000 }),
      post({ t: 41_000, id: 3, session: sid, tool: 'create_issue', args: retryArgs, status: 200, ct: 'text/event-stream', body: sse({ data: { jsonrpc: '2.0', id: 3, result: toolText('created #2') } }), durationMs: 800 }),
      ...pings('client'),
    ]);
    const server = byTime([
      post({ t: 1, id: 1, session: sid, method: 'tools/list', status: 200, body: tools }),
      post({ t: 10_001, id: 2, session: sid, tool: 'create_issue', args: { title: 'x' }, status: 200, ct: 'text/event-stream', body: sse({ data: { jsonrpc: '2.0', id: 2, result: toolText('created #1') } }), durationMs: serverMs - 10_001 }),
      post({ t: 41_001, id: 3, session: sid, tool: 'create_issue', args: retryArgs, status: 200, ct: 'text/event-stream', body: sse({ data: { jsonrpc: '2.0', id: 3, result: toolText('created #2') } }), durationMs: 799 }),
      ...pings('server'),
    ]);
    return analyzeInputs([{ side: 'client', lines: client }, { side: 'server', lines: server }]);
  };
  const issues = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.filter((a) => a.tool === 'create_issue');

  // The server's view ends later than the retry's release time: the retry used to be released (and linked) first.
  it.each([70_000, 250_000, 400_000])('the server answered at %i ms: the repeat is the same call, attempt 2, an unsafe retry', async (serverMs) => {
    const r = await sides(serverMs, { title: 'x' });
    const [first, retry] = issues(r);
    expect(first).toMatchObject({ id: 2, outcome: 'STREAM_INCOMPLETE', serverOutcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(retry).toMatchObject({ id: 3, outcome: 'TOOL_SUCCESS', call: first!.call, attempt: 2 });
    expect(retry!.findings.map((f) => f.code)).toContain('UNSAFE_RETRY');
  });

  it('must not link: a call with other arguments after the cut stream is a call of its own', async () => {
    const r = await sides(250_000, { title: 'y' });
    const first = issues(r).find((a) => a.id === 2);
    const other = issues(r).find((a) => a.id === 3);
    expect(other).toMatchObject({ attempt: 1 });
    expect(other!.call).not.toBe(first!.call);
    expect(r.attempts.flatMap((a) => a.findings.map((f) => f.code))).not.toContain('UNSAFE_RETRY');
  });
});

describe('a tool the server works on for minutes after the client gave up, logged as it happens', () => {
  // The server's log has the exchange as split records (request, response head, a progress event every 10 s, the
  // result, the end), as the recording middleware writes them; the client saw its stream cut at 30 s and retried.
  const sid = 's-long';
  const tools = ok(1, { tools: [{ name: 'build_report', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, idempotentHint: false } }] });
  const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'build_report', arguments: { month: 9 }, _meta: { progressToken: id } } });
  const H = { 'content-type': 'application/json', 'mcp-session-id': sid };
  const split = (xid: string, t: number, id: number, runMs: number) => [
    { v: 1, kind: 'request', xid, ts: at(t), method: 'POST', requestHeaders: H, send: call(id) },
    { v: 1, kind: 'response', xid, ts: at(t + 2), status: 200, responseHeaders: { 'content-type': 'text/event-stream' } },
    ...Array.from({ length: Math.floor(runMs / 10_000) }, (_, k) => ({ v: 1, kind: 'event', xid, ts: at(t + (k + 1) * 10_000), event: 'message', data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: k } }) })),
    { v: 1, kind: 'event', xid, ts: at(t + runMs), event: 'message', data: JSON.stringify({ jsonrpc: '2.0', id, result: toolText(`report ${id}`) }) },
    { v: 1, kind: 'end', xid, ts: at(t + runMs), end: 'complete' },
  ];
  const pings = (side: 'client' | 'server') => Array.from({ length: 150 }, (_, i) => post({ t: 1000 + i * 5000 + (side === 'server' ? 1 : 0), id: 1000 + i, session: 's-other', method: 'ping', status: 200, body: ok(1000 + i, {}) }));
  const byTime = (l: Record<string, unknown>[]) => l.sort((a, b) => String(a.ts).localeCompare(String(b.ts)));
  const run = (serverRunMs: number, serverSawIt = true) => analyzeInputs([
    { side: 'client', lines: byTime([
      post({ t: 0, id: 1, session: sid, method: 'tools/list', status: 200, body: tools }),
      post({ t: 10_000, id: 2, session: sid, send: call(2), status: 200, ct: 'text/event-stream', body: '', end: 'aborted', error: 'TypeError: terminated', durationMs: 30_000 }),
      post({ t: 41_000, id: 3, session: sid, send: call(3), status: 200, ct: 'text/event-stream', body: sse({ data: { jsonrpc: '2.0', id: 3, result: toolText('report 3') } }), durationMs: 900 }),
      ...pings('client'),
    ]) },
    { side: 'server', lines: byTime([
      post({ t: 1, id: 1, session: sid, method: 'tools/list', status: 200, body: tools }),
      ...(serverSawIt ? split('x2', 10_001, 2, serverRunMs) : []),
      ...split('x3', 41_001, 3, 899),
      ...pings('server'),
    ]) },
  ]);
  const reports = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.filter((a) => a.tool === 'build_report');

  it.each([150_000, 300_000, 600_000])('the server answered after %i ms: one attempt with both views, and the repeat is an unsafe retry', async (ms) => {
    const r = await run(ms);
    const [first, retry] = reports(r);
    expect(reports(r)).toHaveLength(2);
    expect(first).toMatchObject({ id: 2, outcome: 'STREAM_INCOMPLETE', serverOutcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(first!.notSeenByServer).toBeUndefined();
    expect(first!.findings.map((f) => f.code)).toContain('SIDE_DIVERGENCE');
    expect(retry).toMatchObject({ id: 3, call: first!.call, attempt: 2 });
    expect(retry!.findings.map((f) => f.code)).toContain('UNSAFE_RETRY');
  });

  it('must not wait: a request the server log never shows is still "not seen by the server"', async () => {
    const r = await run(300_000, false);
    const first = reports(r).find((a) => a.id === 2);
    expect(first).toMatchObject({ outcome: 'STREAM_INCOMPLETE', notSeenByServer: true });
    expect(reports(r)).toHaveLength(2);
  });
});

describe('a v2 client\'s server/discover probe', () => {
  /** One connection of a v2 client to an older server: the probe refused with 400, then initialize opens a session. */
  const connection = (t: number, sid: string) => [
    post({ t, id: 'server-discover-probe-1', method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/clientInfo': { name: 'orders', version: '1.0.0' } } }, status: 400, body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }) }),
    post({ t: t + 10, id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'orders', version: '1.0.0' } }, status: 200, headers: { 'mcp-session-id': sid }, body: ok(0, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }) }),
  ];

  it('a new connection probes again (OpenAI Agents\' connect() after a 404): a call of its own, not a retry of the probe the client fell back from', async () => {
    const r = await analyzeInputs([{ lines: [...connection(0, 's1'), ...connection(2000, 's2')] }]);
    const probes = r.attempts.filter((a) => a.method === 'server/discover');
    expect(probes.map((a) => `${a.outcome} ${a.call}#${a.attempt}`)).toEqual(['HTTP_ERROR c1#1', 'HTTP_ERROR c3#1']);
    expect(r.attempts.flatMap((a) => a.findings.map((f) => f.code))).toEqual([]);
  });

  it('must not: a probe repeated before any initialize (the client did not fall back) is still its retry', async () => {
    const [probe] = connection(0, 's1');
    const r = await analyzeInputs([{ lines: [probe!, { ...probe!, ts: at(1500) }] }]);
    expect(r.attempts.map((a) => `${a.call}#${a.attempt}`)).toEqual(['c1#1', 'c1#2']);
  });

  it('a probe re-sent after a refused connection (Mastra\'s second try with nothing listening) does not say another server/discover came between them', async () => {
    const meta = { _meta: { 'io.modelcontextprotocol/clientInfo': { name: 'orders', version: '1.0.0' } } };
    const refused = (t: number) => post({ t, id: 'server-discover-probe-1', method: 'server/discover', params: meta, status: null, error: 'fetch failed' });
    const r = await analyzeInputs([{ lines: [refused(0), refused(5)] }]);
    const again = r.attempts[1]!;
    expect(again).toMatchObject({ attempt: 2, retryOrigin: { origin: 'unknown' } });
    expect(again.retryOrigin!.how).toBe("server/discover again with the same id \"server-discover-probe-1\", as a new client's first request has it; nothing in the logs says who sent it");
  });
});

describe('an initialize sent again after one that got no answer', () => {
  it('says it is itself where the client began anew, not that a new initialize came between them (Continue\'s CLI reloading its MCP service)', async () => {
    const init = (t: number) => post({ t, id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'continue-cli-client', version: '1.0.0' } }, status: null, error: 'connect ECONNREFUSED 127.0.0.1:9' });
    const r = await analyzeInputs([{ lines: [init(0), init(230)] }]);
    const [, again] = r.attempts;
    expect(`${again!.call}#${again!.attempt}`).toBe('c1#2');
    expect(again!.retryOrigin).toEqual({ origin: 'unknown', how: "initialize again with the same id 0, as a new client's first request has it; nothing in the logs says who sent it" });
    expect(again!.retryOrigin!.how).not.toContain('between them');
  });
});

describe('what an HTTP error body said', () => {
  it('an OAuth error body is quoted in the why', async () => {
    const r = await analyzeInputs([{ lines: [post({ t: 0, id: 1, session: 's', status: 401, body: JSON.stringify({ error: 'invalid_token', error_description: 'The grant has expired' }) })] }]);
    expect(r.attempts[0]).toMatchObject({ outcome: 'HTTP_ERROR', detail: { why: 'the body says: invalid_token (The grant has expired)' } });
  });
});

describe('the retry policy on delays', () => {
  const chain = async (starts: number[]) => {
    const r = await analyzeInputs([{ lines: starts.map((t, i) => post({ t, id: i + 1, session: 's', tool: 'lookup', args: { q: 1 }, status: i === starts.length - 1 ? 200 : 503, body: i === starts.length - 1 ? ok(i + 1, toolText('x')) : 'busy' })) }]);
    return r.attempts.flatMap((a) => a.findings.filter((f) => f.code === 'RETRY_POLICY').map((f) => f.message));
  };

  it('a constant backoff with a few ms of jitter is no shrinking delay', async () => {
    expect(await chain([0, 300, 595])).toEqual([]);
  });

  it('a delay clearly shorter than the one before it is', async () => {
    expect(await chain([0, 400, 650])).toEqual([expect.stringMatching(/retry 2 waited 250 ms, less than the 400 ms before it; the policy asks growing delays/)]);
  });
});


describe('the delay before a retry into a new session includes the reconnect (the chaos sessions profile)', () => {
  // The session was lost (404); the app waited 250 ms, reconnected (a failed connect, 0.2 s, a new one: 480 ms in all)
  // and retried into the new session, which was reset; then it waited 500 ms and retried again.
  const run = (secondSession: string, secondDelay: number) => analyzeInputs([{ side: 'client', lines: [
    post({ t: 100, id: 5, session: 's1', tool: 'set_flag', args: { key: 'k' }, status: 404, body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }), durationMs: 5 }),
    post({ t: 835, id: 2, session: secondSession, tool: 'set_flag', args: { key: 'k' }, status: 503, ct: 'text/plain', body: 'Service Unavailable', durationMs: 5 }),
    post({ t: 840 + secondDelay, id: 3, session: secondSession, tool: 'set_flag', args: { key: 'k' }, status: 200, body: ok(3, toolText('done')), durationMs: 20 }),
  ] }]);
  const policy = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.filter((a) => a.tool === 'set_flag').flatMap((a) => a.findings.filter((f) => f.code === 'RETRY_POLICY').map((f) => f.message));

  it('730 ms with a reconnect, then 500 ms: no RETRY_POLICY', async () => {
    const r = await run('s2', 500);
    expect(r.attempts.filter((a) => a.tool === 'set_flag').map((a) => `${a.call}#${a.attempt} ${a.outcome}`)).toEqual(['c1#1 HTTP_ERROR', 'c1#2 HTTP_ERROR', 'c1#3 TOOL_SUCCESS']);
    // Before the fix: "retry 2 waited 500 ms, less than the 730 ms before it".
    expect(policy(r)).toEqual([]);
  });

  it('must not: the same 730 ms, then 500 ms, in one session is still a shorter delay', async () => {
    const r = await run('s1', 500);
    expect(policy(r)).toEqual([expect.stringMatching(/retry 2 waited 500 ms, less than the 730 ms before it/)]);
  });
});

describe('a wait the server asked for (Retry-After) is no backoff step to compare with (chaos under load with the Python SDK)', () => {
  // A 429 or 503 (with or without Retry-After: 1); the app waited 1.1 s, retried (a 503), then waited 500 ms: its own
  // backoff (0.25 s, 0.5 s) after a wait the server dictated.
  const run = (headers: Record<string, string>) => analyzeInputs([{ side: 'client', lines: [
    post({ t: 100, id: 2, session: 's', tool: 'set_flag', args: { key: 'k' }, status: 429, ct: 'text/plain', headers, body: 'Too Many Requests', durationMs: 5 }),
    post({ t: 1205, id: 3, session: 's', tool: 'set_flag', args: { key: 'k' }, status: 503, ct: 'text/plain', body: 'Service Unavailable', durationMs: 5 }),
    post({ t: 1710, id: 4, session: 's', tool: 'set_flag', args: { key: 'k' }, status: 200, body: ok(4, toolText('done')), durationMs: 20 }),
  ] }]);
  const policy = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.filter((a) => a.tool === 'set_flag').flatMap((a) => a.findings.filter((f) => f.code === 'RETRY_POLICY' || f.code === 'RETRY_AFTER_IGNORED').map((f) => `${f.code} ${f.message}`));

  it('1.1 s after Retry-After: 1, then 500 ms: no RETRY_POLICY', async () => {
    const r = await run({ 'retry-after': '1' });
    expect(r.attempts.filter((a) => a.tool === 'set_flag').map((a) => `${a.call}#${a.attempt} ${a.outcome}`)).toEqual(['c1#1 HTTP_ERROR', 'c1#2 HTTP_ERROR', 'c1#3 TOOL_SUCCESS']);
    // Before the fix: "retry 2 waited 500 ms, less than the 1100 ms before it".
    expect(policy(r)).toEqual([]);
  });

  it('must not: the same 1.1 s then 500 ms without a Retry-After is still a shorter delay', async () => {
    const r = await run({});
    expect(policy(r)).toEqual([expect.stringMatching(/^RETRY_POLICY .*retry 2 waited 500 ms, less than the 1100 ms before it/)]);
  });

  it('must not: a Retry-After of 2 s the app did not wait out keeps its 1.1 s as a backoff step', async () => {
    const r = await run({ 'retry-after': '2' });
    expect(policy(r)).toEqual([expect.stringMatching(/^RETRY_AFTER_IGNORED /), expect.stringMatching(/^RETRY_POLICY .*retry 2 waited 500 ms, less than the 1100 ms before it/)]);
  });
});

describe("the delay after the Python SDK's timeout runs from that timeout, not from its later cancel (chaos under load with the Python SDK)", () => {
  // The hop held the SSE stream open without the result (it ended it 4 s later); the Python caller's 1.5 s timeout
  // fired at 1.6 s, its cancel went out at 1.69 s (its transport got to the POST late), and the app retried at `retryAt`.
  const run = (reason: string, retryAt: number) => analyzeInputs([{ side: 'client', lines: [
    post({ t: 100, id: 2, session: 's', tool: 'lookup', status: 200, ct: 'text/event-stream', body: '', end: 'complete', durationMs: 4000 }),
    post({ t: 1690, session: 's', send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason } }, status: 202, body: '' }),
    post({ t: retryAt, id: 3, session: 's', tool: 'lookup', status: 200, body: ok(3, toolText('found')), durationMs: 20 }),
  ] }]);
  const policy = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.filter((a) => a.tool === 'lookup').flatMap((a) => a.findings.filter((f) => f.code === 'RETRY_POLICY').map((f) => f.message));

  it('"timed out after 1.5s", the retry 250 ms after the timeout (160 ms after the cancel): no RETRY_POLICY', async () => {
    const r = await run('timed out after 1.5s', 1850);
    expect(r.attempts.filter((a) => a.tool === 'lookup').map((a) => `${a.call}#${a.attempt} ${a.outcome}`)).toEqual(['c1#1 STREAM_INCOMPLETE', 'c1#2 TOOL_SUCCESS']);
    // Before the fix: "retry 1 came 160 ms after the failure; the policy asks at least 200 ms".
    expect(policy(r)).toEqual([]);
  });

  it('must not: a reason without its timeout (the TypeScript SDK\'s) still counts from the cancel', async () => {
    const r = await run('McpError: MCP error -32001: Request timed out', 1850);
    expect(policy(r)).toEqual([expect.stringMatching(/retry 1 came 160 ms after the failure/)]);
  });

  it('the retry 198 ms after the request\'s start plus the timeout (the request reached the log late: the Python streams chaos, 18 calls in flight, read the app\'s 250 ms so): no RETRY_POLICY', async () => {
    // Before the fix: "retry 1 came 198 ms after the failure; the policy asks at least 200 ms".
    expect(policy(await run('timed out after 1.5s', 1798))).toEqual([]);
    expect(policy(await run('timed out after 1.5s', 1750))).toEqual([]);
  });

  it('must not: 95 ms after the Python timeout (5 ms after its cancel) is still too soon, and says how it was measured', async () => {
    const r = await run('timed out after 1.5s', 1695);
    expect(policy(r)).toEqual([expect.stringMatching(/retry 1 came 95 ms after the failure \(measured from the request's start in this log plus the timeout its notifications\/cancelled names, which may be up to 100 ms later than the caller's timeout fired/)]);
  });
});

describe('a retry that waits out a Retry-After longer than --retry-window', () => {
  // A 429 asking to wait `afterS` seconds; the app repeats the call `againMs` after it; another session's pings move time on.
  const run = async (afterS: number, againMs: number) => {
    const lines = [
      post({ t: 10_000, id: 2, session: 's', tool: 'send_invoice', args: { order: 7 }, status: 429, ct: 'text/plain', headers: { 'retry-after': String(afterS) }, body: 'Too Many Requests', durationMs: 5 }),
      post({ t: 10_005 + againMs, id: 3, session: 's', tool: 'send_invoice', args: { order: 7 }, status: 200, body: ok(3, toolText('sent')) }),
      ...Array.from({ length: 250 }, (_, i) => post({ t: 1000 + i * 5000, id: 1000 + i, session: 's-other', method: 'ping', status: 200, body: ok(1000 + i, {}) })),
    ].sort((a, b) => String(a.ts).localeCompare(String(b.ts)));
    const r = await analyzeInputs([{ lines }]);
    return r.attempts.filter((a) => a.tool === 'send_invoice');
  };

  it.each([[90, 90_500], [240, 241_000], [300, 300_500]])('Retry-After %i s, repeated %i ms later: the same call, attempt 2, the wait obeyed', async (afterS, againMs) => {
    const [first, retry] = await run(afterS, againMs);
    expect(first).toMatchObject({ status: 429, attempt: 1 });
    expect(retry).toMatchObject({ call: first!.call, attempt: 2 });
    expect(retry!.findings.map((f) => f.code)).not.toContain('RETRY_AFTER_IGNORED');
  });

  it('must not link: a repeat long after the wait plus --retry-window, or after a wait longer than 5 minutes', async () => {
    for (const [afterS, againMs] of [[30, 200_000], [900, 901_000]] as const) {
      const [first, other] = await run(afterS, againMs);
      expect(other).toMatchObject({ attempt: 1 });
      expect(other!.call).not.toBe(first!.call);
    }
  });
});

describe('a retry that itself runs long', () => {
  // A 503, then the app's retry of it, which takes `runMs` (a slow tool); another session's pings, released before the
  // slow retry, move the linker's time on past the failed attempt's retry window.
  const run = async (runMs: number, againMs = 1000) => {
    const lines = [
      post({ t: 10_000, id: 2, session: 's', tool: 'send_invoice', args: { order: 7 }, status: 503, ct: 'text/plain', body: 'busy', durationMs: 5 }),
      post({ t: 10_005 + againMs, id: 3, session: 's', tool: 'send_invoice', args: { order: 7 }, status: 200, ct: 'text/event-stream', body: sse({ data: { jsonrpc: '2.0', id: 3, result: toolText('sent') } }), durationMs: runMs }),
      ...Array.from({ length: 200 }, (_, i) => post({ t: 1000 + i * 5000, id: 1000 + i, session: 's-other', method: 'ping', status: 200, body: ok(1000 + i, {}) })),
    ].sort((a, b) => String(a.ts).localeCompare(String(b.ts)));
    const r = await analyzeInputs([{ lines }]);
    return r.attempts.filter((a) => a.tool === 'send_invoice');
  };

  it.each([90_000, 200_000, 600_000])('a retry that ran %i ms is still the retry of the 503', async (runMs) => {
    const [first, retry] = await run(runMs);
    expect(first).toMatchObject({ status: 503, attempt: 1 });
    expect(retry).toMatchObject({ outcome: 'TOOL_SUCCESS', call: first!.call, attempt: 2 });
  });

  it('must not link: a slow repeat sent after the retry window is a call of its own', async () => {
    const [first, other] = await run(200_000, 70_000);
    expect(other).toMatchObject({ attempt: 1 });
    expect(other!.call).not.toBe(first!.call);
  });
});

describe('a retry after a refused retry still repeats what an earlier attempt ran (the chaos audit)', () => {
  // A send_email call: attempt 1 got 502 (the tool may have run), attempt 2 a 503 (refused, nothing ran), attempt 3 ran.
  const tools = ok(1, { tools: [{ name: 'send_email', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, idempotentHint: false } }] });
  const run = (firstStatus: number) => analyzeInputs([{ side: 'client', lines: [
    post({ t: 0, id: 1, session: 's', method: 'tools/list', status: 200, body: tools }),
    post({ t: 100, id: 2, session: 's', tool: 'send_email', args: { to: 'a' }, status: firstStatus, ct: 'text/plain', body: 'Bad Gateway', durationMs: 50 }),
    post({ t: 500, id: 3, session: 's', tool: 'send_email', args: { to: 'a' }, status: 503, ct: 'text/plain', body: 'Service Unavailable', durationMs: 5 }),
    post({ t: 1100, id: 4, session: 's', tool: 'send_email', args: { to: 'a' }, status: 200, body: ok(4, toolText('sent')), durationMs: 50 }),
  ] }]);
  const unsafe = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.filter((a) => a.tool === 'send_email').map((a) => `${a.attempt}:${a.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity ?? '-'}`);

  it('502, then 503, then the third attempt: UNSAFE_RETRY (warning) on attempt 3 too, naming attempt 1', async () => {
    const r = await run(502);
    // Before the fix attempt 3 had none: only the attempt just before it (the 503) was looked at.
    expect(unsafe(r)).toEqual(['1:-', '2:warning', '3:warning']);
    const third = r.attempts.find((a) => a.id === 4)!;
    expect(third.findings.find((f) => f.code === 'UNSAFE_RETRY')!.message).toMatch(/retried after HTTP_ERROR \(HTTP 503\): .*; attempt 1 of the call, before that one, got HTTP_ERROR \(HTTP 502\), and the earlier attempt may have run/);
  });

  it('must not: 429, then 503, then the third attempt: nothing ran before it, no UNSAFE_RETRY', async () => {
    const r = await run(429);
    expect(unsafe(r)).toEqual(['1:-', '2:-', '3:-']);
  });
});

describe('the delay before a retry runs from the cancellation of a stream that had ended without its response (the chaos audit)', () => {
  // The hop ended the SSE stream cleanly before the result; the SDK kept waiting until its own timeout (1.5 s), sent
  // notifications/cancelled, and the app retried 250 ms later (503), then 500 ms after that: growing delays.
  const cancel = (t: number) => post({ t, session: 's', send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'Request timed out' } }, status: 202, body: '' });
  const run = (secondDelay: number) => analyzeInputs([{ side: 'client', lines: [
    post({ t: 100, id: 2, session: 's', tool: 'lookup', status: 200, ct: 'text/event-stream', body: '', end: 'complete', durationMs: 60 }),
    cancel(1600),
    post({ t: 1850, id: 3, session: 's', tool: 'lookup', status: 503, ct: 'text/plain', body: 'Service Unavailable', durationMs: 5 }),
    post({ t: 1855 + secondDelay, id: 4, session: 's', tool: 'lookup', status: 200, body: ok(4, toolText('found')), durationMs: 20 }),
  ] }]);
  const policy = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.filter((a) => a.tool === 'lookup').flatMap((a) => a.findings.filter((f) => f.code === 'RETRY_POLICY').map((f) => f.message));

  it('250 ms after the cancellation, then 500 ms: no RETRY_POLICY', async () => {
    const r = await run(500);
    expect(r.attempts.filter((a) => a.tool === 'lookup').map((a) => `${a.attempt} ${a.outcome}`)).toEqual(['1 STREAM_INCOMPLETE', '2 HTTP_ERROR', '3 TOOL_SUCCESS']);
    // Before the fix: "retry 2 waited 500 ms, less than the 1690 ms before it", counted from the stream's end.
    expect(policy(r)).toEqual([]);
  });

  it('must not: 250 ms, then 100 ms: still a shorter delay', async () => {
    const r = await run(100);
    expect(policy(r)).toEqual([expect.stringMatching(/retry 2 came 100 ms after the failure|retry 2 waited 100 ms, less than the 250 ms before it/)]);
  });
});

describe('the gap after a 2026-07-28 stream that ended without its response is no backoff step (the seventy-eighth audit)', () => {
  // The TypeScript SDK v2 on 2026-07-28 (test/fixtures/real-chaos/v2modern-seed-N): the hop ended the SSE stream before
  // the result; the SDK kept waiting until its own 1.5 s timeout and, the stream being closed already, sent nothing (no
  // notifications/cancelled in this version); the app retried 250 ms after the timeout (503), then 500 ms after that.
  const run = (secondDelay: number, o: { version?: string; first?: 'cut' | 503; ua?: string } = {}) => {
    const headers = { 'mcp-protocol-version': o.version ?? '2026-07-28', ...(o.ua ? { 'user-agent': o.ua } : {}) };
    return analyzeInputs([{ side: 'client', lines: [
      (o.first ?? 'cut') === 'cut'
        ? post({ t: 100, id: 1, tool: 'lookup', status: 200, ct: 'text/event-stream', body: '', end: 'complete', durationMs: 60, requestHeaders: headers })
        : post({ t: 100, id: 1, tool: 'lookup', status: 503, ct: 'text/plain', body: 'Service Unavailable', durationMs: 60, requestHeaders: headers }),
      post({ t: 1850, id: 2, tool: 'lookup', status: 503, ct: 'text/plain', body: 'Service Unavailable', durationMs: 5, requestHeaders: headers }),
      post({ t: 1855 + secondDelay, id: 3, tool: 'lookup', status: 200, body: ok(3, toolText('found', { resultType: 'complete' })), durationMs: 20, requestHeaders: headers }),
    ].map((x) => ({ ...x, conn: 'app-1' })) }]);
  };
  const policy = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.filter((a) => a.tool === 'lookup').flatMap((a) => a.findings.filter((f) => f.code === 'RETRY_POLICY').map((f) => f.message));
  const shorter = [expect.stringMatching(/retry 2 waited 500 ms, less than the 1690 ms before it/)];

  it('1690 ms after the stream ended (the timeout\'s wait in it), then 500 ms: no RETRY_POLICY', async () => {
    const r = await run(500);
    expect(r.attempts.filter((a) => a.tool === 'lookup').map((a) => `${a.attempt} ${a.outcome}`)).toEqual(['1 STREAM_INCOMPLETE', '2 HTTP_ERROR', '3 TOOL_SUCCESS']);
    // Before the fix: "retry 2 waited 500 ms, less than the 1690 ms before it", counted from the stream's end.
    expect(policy(r)).toEqual([]);
    // The same from a proxy's log, where the TypeScript SDK's requests carry Node's User-Agent.
    expect(policy(await run(500, { ua: 'node' }))).toEqual([]);
  });

  it('must not: on 2025-11-25 a client that times out says so (notifications/cancelled); without one the stream\'s end is when it gave up, and 500 ms after 1690 ms is still a shorter delay', async () => {
    expect(policy(await run(500, { version: '2025-11-25' }))).toEqual(shorter);
  });

  it('must not: the Python SDK (User-Agent httpx\'s) rejects at once when such a stream ends, so there 500 ms after 1690 ms is still a shorter delay', async () => {
    expect(policy(await run(500, { ua: 'python-httpx2/2.13.1' }))).toEqual(shorter);
  });

  it('must not: on 2026-07-28, 1690 ms after a 503, then 500 ms, is still a shorter delay', async () => {
    expect(policy(await run(500, { first: 503 }))).toEqual(shorter);
  });
});

describe("the delay after a cancellation that a hop's or the server's log got late (the chaos audit's streams profile)", () => {
  // The hop ended the SSE stream before the result; the SDK's timeout fired at 2.1 s and its notifications/cancelled went
  // out then, but reached this log `lateMs` later (its trip through the proxies under load); the app retried
  // `retryAfterMs` after its timeout (the retry's own trip is left out: it only makes the delay read longer).
  const cancel = (t: number, id = 2) => post({ t, session: 's', send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'McpError: MCP error -32001: Request timed out' } }, status: 202, body: '' });
  const lines = (lateMs: number, retryAfterMs: number) => [
    post({ t: 100, id: 2, session: 's', tool: 'lookup', status: 200, ct: 'text/event-stream', body: '', end: 'complete', durationMs: 60 }),
    cancel(2100 + lateMs),
    post({ t: 2100 + retryAfterMs, id: 3, session: 's', tool: 'lookup', status: 200, body: ok(3, toolText('found')), durationMs: 20 }),
  ];
  const policy = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.filter((a) => a.tool === 'lookup').flatMap((a) => a.findings.filter((f) => f.code === 'RETRY_POLICY').map((f) => f.message));

  it.each([[86, 'proxy\'s', undefined], [86, 'server\'s', 'server' as const], [221, 'proxy\'s', undefined]])('the cancellation %i ms late in a %s log, the retry 250 ms after the timeout: no RETRY_POLICY', async (late, _, side) => {
    const r = await analyzeInputs([{ ...(side ? { side } : {}), lines: lines(late, 250) }]);
    expect(r.attempts.filter((a) => a.tool === 'lookup').map((a) => `${a.call}#${a.attempt} ${a.outcome}`)).toEqual(['c1#1 STREAM_INCOMPLETE', 'c1#2 TOOL_SUCCESS']);
    // Before the fix: "retry 1 came 164 ms after the failure; the policy asks at least 200 ms" (29 ms at 221 ms late).
    expect(policy(r)).toEqual([]);
  });

  it('must not miss: a retry 50 ms after the cancellation in a proxy\'s log breaks a 1 s minimum, and says from what it was measured', async () => {
    const r = await analyzeInputs([{ lines: lines(0, 50) }], { policy: { maxRetries: 2, minDelayMs: 1000 } });
    expect(policy(r)).toEqual([expect.stringMatching(/retry 1 came 50 ms after the failure \(measured from the client's notifications\/cancelled as this log got it, which may have come up to 250 ms later than the caller gave up: its trip through the hops\); the policy asks at least 1000 ms/)]);
  });

  it('must not: the client\'s own log has the cancellation as it was sent, so 164 ms, or 50 ms, there is too soon', async () => {
    for (const after of [164, 50]) {
      const r = await analyzeInputs([{ side: 'client', lines: lines(0, after) }]);
      expect(policy(r)).toEqual([expect.stringMatching(new RegExp(`retry 1 came ${after} ms after the failure; the policy asks at least 200 ms \\(--min-retry-delay\\)$`))]);
    }
  });

  it('must not: a delay from the end of a refused attempt (no cancellation) keeps no margin: 150 ms after a 503 in a proxy\'s log', async () => {
    const r = await analyzeInputs([{ lines: [
      post({ t: 100, id: 2, session: 's', tool: 'lookup', status: 503, ct: 'text/plain', body: 'Service Unavailable', durationMs: 5 }),
      post({ t: 255, id: 3, session: 's', tool: 'lookup', status: 200, body: ok(3, toolText('found')), durationMs: 20 }),
    ] }]);
    expect(policy(r)).toEqual([expect.stringMatching(/retry 1 came 150 ms after the failure; the policy asks at least 200 ms \(--min-retry-delay\)$/)]);
  });

  // A 503 the app waited `firstMs` after, then the retry cut and timed out (its cancellation 221 ms late here), then the
  // app's next retry `stepMs` after that timeout.
  const shrinking = (firstMs: number, stepMs: number) => [
    post({ t: 100, id: 2, session: 's', tool: 'lookup', status: 503, ct: 'text/plain', body: 'Service Unavailable', durationMs: 5 }),
    post({ t: 105 + firstMs, id: 3, session: 's', tool: 'lookup', status: 200, ct: 'text/event-stream', body: '', end: 'complete', durationMs: 60 }),
    cancel(2105 + firstMs + 221, 3),
    post({ t: 2105 + firstMs + stepMs, id: 4, session: 's', tool: 'lookup', status: 200, body: ok(4, toolText('found')), durationMs: 20 }),
  ];

  it('250 ms, then 250 ms after a timeout whose cancellation came 221 ms late (29 ms): no shrinking delay in a proxy\'s log', async () => {
    const r = await analyzeInputs([{ lines: shrinking(250, 250) }]);
    expect(r.attempts.filter((a) => a.tool === 'lookup').map((a) => `${a.attempt} ${a.outcome}`)).toEqual(['1 HTTP_ERROR', '2 STREAM_INCOMPLETE', '3 TOOL_SUCCESS']);
    expect(policy(r)).toEqual([]);
  });

  it('must not miss: 1 s, then 300 ms after the timeout (79 ms after the late cancellation) is a shorter step', async () => {
    const r = await analyzeInputs([{ lines: shrinking(1000, 300) }]);
    expect(policy(r)).toEqual([expect.stringMatching(/retry 2 waited 79 ms \(measured from the client's notifications\/cancelled as this log got it, .*\), less than the 1000 ms before it/)]);
  });
});

describe('a -32601 answer and a new connection (Qwen Code reconnecting after a failed tools/call)', () => {
  const init = (t: number, sid: string) => post({ t, id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'qwen-cli-mcp-client-web', version: '0.0.1' } }, status: 200, headers: { 'mcp-session-id': sid }, body: ok(0, { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } }) });
  const noPrompts = (t: number, sid: string) => post({ t, id: 1, session: sid, method: 'prompts/list', status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }) });
  const promptCalls = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.filter((a) => a.method === 'prompts/list').map((a) => `${a.call}#${a.attempt}`);

  it('prompts/list asked again after a new initialize is the new connection\'s own call, not a retry of the -32601', async () => {
    const r = await analyzeInputs([{ lines: [init(0, 's1'), noPrompts(100, 's1'), init(2000, 's2'), noPrompts(2100, 's2')] }]);
    expect(promptCalls(r)).toEqual(['c2#1', 'c4#1']);
    expect(r.attempts.flatMap((a) => a.findings.map((f) => f.code))).not.toContain('RETRY_ORIGIN_AMBIGUOUS');
  });

  it('prompts/list asked again in the same connection after its -32601 is still a retry', async () => {
    const r = await analyzeInputs([{ lines: [init(0, 's1'), noPrompts(100, 's1'), noPrompts(2100, 's1')] }]);
    expect(promptCalls(r)).toEqual(['c2#1', 'c2#2']);
  });
});

describe('a retry after the client waited out its timeout on a stream that ended without its answer (the sixty-seventh audit)', () => {
  // A proxy's view of a TypeScript SDK client (User-Agent "node"): the call's SSE stream ends 300 ms in with no answer;
  // the SDK keeps the call pending to its 60 s timeout, then the app (or a person) calls again.
  const cut = (ua: string, againAt: number, cancelAt?: number) => analyzeInputs([{ side: 'client', lines: [
    post({ t: 0, id: 1, session: 's', tool: 'create_issue', args: { title: 'x' }, status: 200, ct: 'text/event-stream', body: '', end: 'complete', durationMs: 300, requestHeaders: { 'user-agent': ua } }),
    ...(cancelAt !== undefined ? [post({ t: cancelAt, session: 's', method: 'notifications/cancelled', send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'McpError: MCP error -32001: Request timed out' } }, status: 202, body: '', requestHeaders: { 'user-agent': ua } })] : []),
    post({ t: againAt, id: 2, session: 's', tool: 'create_issue', args: { title: 'x' }, status: 200, ct: 'text/event-stream', body: sse({ data: { jsonrpc: '2.0', id: 2, result: toolText('created') } }), durationMs: 200, requestHeaders: { 'user-agent': ua } }),
  ] }]);
  const issues = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.filter((a) => a.tool === 'create_issue');

  it('no notifications/cancelled in the log, the request\'s User-Agent "node": a repeat 61.5 s after the request is attempt 2, its window from the SDK\'s default 60 s', async () => {
    const [first, again] = issues(await cut('node', 61_500));
    expect(again).toMatchObject({ call: first!.call, attempt: 2 });
    expect(again!.retryOrigin?.how).toMatch(/; it came 61\.20 s after the earlier attempt's stream ended, 1\.50 s after the TypeScript SDK's default 60 s request timeout ran out for it \(the request's User-Agent "node" is Node's fetch, as the SDK's; no notifications\/cancelled in the log\)/);
  });

  it('the client\'s notifications/cancelled at 60 s: a repeat 62 s after the request is attempt 2, its window from the cancellation', async () => {
    const [first, again] = issues(await cut('python-httpx/0.28.1', 62_000, 60_000));
    expect(again).toMatchObject({ call: first!.call, attempt: 2 });
    expect(again!.retryOrigin?.how).toMatch(/2\.00 s after the client's notifications\/cancelled for it \(60\.00 s after the request: the client waited for the answer until its own timeout\), so the retry window \(--retry-window\) runs from then$/);
  });

  it('must not link: the same without a cancellation from a client not known to wait (the Python SDK rejects at once), or a repeat past the default timeout and the window', async () => {
    const [a, b] = issues(await cut('python-httpx/0.28.1', 61_500));
    expect(b).toMatchObject({ attempt: 1 });
    expect(b!.call).not.toBe(a!.call);
    const [c, d] = issues(await cut('node', 120_500));
    expect(d).toMatchObject({ attempt: 1 });
    expect(d!.call).not.toBe(c!.call);
  });

  it('must not change: a repeat within the window of the stream\'s end keeps its how', async () => {
    const [first, again] = issues(await cut('node', 30_000));
    expect(again).toMatchObject({ call: first!.call, attempt: 2 });
    expect(again!.retryOrigin?.how).toBe('a new request with the same tool and arguments; nothing in the logs says who sent it');
  });
});

describe('initialize re-sent after a 401 with other credentials (the sixty-seventh audit)', () => {
  // A proxy's log: initialize refused 401 with one token, then initialize again (id 0) with another; between them, or
  // not, the OAuth metadata request an SDK's auth flow makes before its re-send (real-audit2/oauth-401-after-token).
  const init = (t: number, token: string, status: number) => post({ t, id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'app', version: '1' } }, status, requestHeaders: { authorization: `Bearer ${token}` }, ...(status === 401 ? { headers: { 'www-authenticate': 'Bearer error="invalid_token"' }, body: '{"error":"invalid_token"}' } : { headers: { 'mcp-session-id': 's' }, body: ok(0, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }) }) });
  const metadata = (t: number) => ({ v: 1, kind: 'exchange', ts: at(t), method: 'GET', url: 'http://127.0.0.1:9300/.well-known/oauth-protected-resource/mcp', requestHeaders: {}, status: 200, responseHeaders: { 'content-type': 'application/json' }, recvText: '{"resource":"http://127.0.0.1:9300/mcp"}' });
  const origins = async (lines: Record<string, unknown>[]) => (await analyzeInputs([{ side: 'client', lines }])).attempts.filter((a) => a.method === 'initialize').map((a) => `${a.attempt} ${a.retryOrigin?.origin ?? ''}`);

  it('no OAuth request between them (a person re-running the client with a fixed token, real-audit64/v1-401): origin unknown, both readings named', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: [init(0, 'old', 401), init(3000, 'new', 401)] }]);
    const again = r.attempts.filter((a) => a.method === 'initialize')[1]!;
    expect(again.retryOrigin).toEqual({ origin: 'unknown', how: expect.stringMatching(/^initialize again with the same id 0 after HTTP 401, with other credentials or none logged, and no request for OAuth metadata .* a new run of the client with another token \(a person fixing it\) or the application connecting again .* the SDK's auth retry fetches that metadata first; nothing in the logs says which$/) });
  });

  it('must not change: the OAuth metadata request between them keeps the SDK\'s auth retry', async () => {
    expect(await origins([init(0, 'old', 401), metadata(10), init(40, 'new', 401)])).toEqual(['1 ', '2 sdk']);
  });
});
