// Real traffic through mcp-remote, supergateway and fastmcp (test/fixtures/real-bridges), and what mcp-triage says of it.
// The recordings are committed; re-recording needs the npm packages (see test/fixtures/real-bridges/README.md).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, recordedPairs, triageCli, type CliRun } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-bridges/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; side: string; session: string | null; serverOutcome?: string; id: string | number; method: string; tool: string | null; status: number | null; outcome: string;
  call: string; attempt: number; retryOrigin?: { origin: string; how: string }; findings: Finding[]; notSeenByServer?: boolean; resumed?: boolean;
  sse?: { events: number; progress: number; serverRequests: number }; detail?: { why?: string; errorCode?: number; errorMessage?: string };
}
interface SessionFinding { type: 'finding'; session: string | null; code: string; message: string }
type Run = CliRun<Attempt, SessionFinding>;

const triage = (args: string[]): Run => triageCli<Attempt, SessionFinding>(args);
const both = recordedPairs<Attempt, SessionFinding>(DIR);
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as { steps: { step: string; got?: unknown; timedOut?: boolean }[]; notes: unknown[]; browserOpened?: string[] };
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/observed.json`));

describe('every bridges recording', () => {
  it('has the scenarios the README lists', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(20);
  });

  it.each(scenarios)('%s: read whole (client and server view, and the desktop client\'s stdio log), analyzed without error', (scenario) => {
    const r = both(scenario);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
    expect(r.attempts.length).toBeGreaterThan(0);
    if (existsSync(`${DIR}${scenario}/stdio.ndjson`)) {
      const stdio = triage(['--client', `${DIR}${scenario}/stdio.ndjson`]);
      expect(stdio.code).toBe(0);
      expect(stdio.unusable).toBe(0);
    }
  });
});

describe('mcp-remote 0.15.1 (a desktop client over stdio, the bridge over Streamable HTTP)', () => {
  it('opens a probe session of its own ("mcp-remote-fallback-test") before the desktop client\'s, and renames that client', () => {
    const p = spawnSync(process.execPath, [BIN, 'sessions', '--format', 'json', '--client', `${DIR}remote-basic/client.ndjson`, '--server', `${DIR}remote-basic/server.ndjson`], { encoding: 'utf8' });
    const sessions = (JSON.parse(p.stdout) as { sessions: { client: string; attempts: number }[] }).sessions;
    expect(sessions.map((s) => [s.client, s.attempts])).toEqual([['mcp-remote-fallback-test/0.0.0', 1], ['desktop-app (via mcp-remote 0.15.1)/1.0.0', 7]]);
    const r = both('remote-basic');
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(['lookup_order TOOL_SUCCESS', 'validate_quantity TOOL_ERROR', 'crash TOOL_ERROR', 'no_such_tool TOOL_ERROR']);
    expect(r.attempts.flatMap(codes)).toEqual([]);
    expect(r.findings).toEqual([]);
  });

  it.each(['remote-session-restart', 'remote-fastmcp-restart'])('%s: after a 404 the bridge re-initializes ("mcp-remote-reinit-1") and re-sends the same id: the SDK side, no warnings', (scenario) => {
    const r = both(scenario);
    const reinit = r.attempts.find((a) => a.method === 'initialize' && a.id === 'mcp-remote-reinit-1');
    expect(reinit?.outcome).toBe('SUCCESS');
    const [refused, resent] = calls(r).filter((a) => a.id === 3);
    expect(refused).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', attempt: 1 });
    expect(resent).toMatchObject({ status: 200, outcome: 'TOOL_SUCCESS', call: refused!.call, attempt: 2, retryOrigin: { origin: 'sdk' } });
    expect(resent!.session).toBe(reinit!.session);
    expect(resent!.retryOrigin!.how).toMatch(/initialize id mcp-remote-reinit-1/);
    expect(codes(resent!)).toEqual([]);
    const expired = r.findings.filter((f) => f.code === 'SESSION_EXPIRED' && f.session === refused!.session);
    expect(expired.map((f) => f.message)).toEqual([expect.stringMatching(/HTTP 404 to tools\/call \w+ id 3 .*the client re-initialized and retried the call$/)]);
  });

  it('the desktop client\'s stdio log given with the HTTP logs: its requests went to the bridge, none is "not seen by the server"', () => {
    const s = 'remote-session-restart';
    const r = triage(['--client', `${DIR}${s}/stdio.ndjson`, '--client', `${DIR}${s}/client.ndjson`, '--server', `${DIR}${s}/server.ndjson`]);
    expect(r.attempts.filter((a) => a.status === null).length).toBe(5);
    expect(r.attempts.filter((a) => a.notSeenByServer)).toEqual([]);
  });

  it('fastmcp restarted: the probe session\'s GET stream also meets the 404, and its client never re-initializes', () => {
    const r = both('remote-fastmcp-restart');
    const probe = r.attempts.find((a) => a.method === 'initialize' && a.id === 0 && !calls(r).some((c) => c.session === a.session))!;
    expect(r.findings.filter((f) => f.session === probe.session).map((f) => f.message)).toEqual([expect.stringMatching(/HTTP 404 to the GET stream, which carried the session id; the client did not re-initialize$/)]);
  });

  it('the server asks the desktop during a call (elicitation/create, roots/list): both on the call\'s stream, the answers POSTed back, nothing misread', () => {
    const r = both('remote-server-requests');
    const [ask, after] = calls(r);
    expect(ask).toMatchObject({ tool: 'confirm_refund', outcome: 'TOOL_SUCCESS', sse: { serverRequests: 2 } });
    expect(after).toMatchObject({ tool: 'lookup_order', outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(r.attempts.flatMap(codes)).toEqual([]);
    expect(r.findings).toEqual([]);
  });

  it('a 503 from a hop is not retried by the bridge (the desktop client gets -32001 "mcp-remote: ..."); the desktop\'s own retry is linked, origin unknown', () => {
    const [first, again] = calls(both('remote-503-app-retry'));
    expect(first).toMatchObject({ status: 503, outcome: 'HTTP_ERROR', notSeenByServer: true, detail: { why: 'the body says: upstream unavailable' } });
    expect(again).toMatchObject({ outcome: 'TOOL_SUCCESS', call: first!.call, attempt: 2, retryOrigin: { origin: 'unknown' } });
    // It waited out the Retry-After (1 s), and nothing ran the first time: no RETRY_AFTER_IGNORED, no UNSAFE_RETRY.
    expect(codes(again!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
    const stdio = triage(['--client', `${DIR}remote-503-app-retry/stdio.ndjson`]);
    expect(calls(stdio)[0]).toMatchObject({ outcome: 'JSONRPC_ERROR', detail: { errorMessage: 'mcp-remote: Error POSTing to endpoint: upstream unavailable' } });
  });

  it('a 429 with Retry-After: 2 retried after 0.3 s is RETRY_AFTER_IGNORED; the retry after 2.1 s is not', () => {
    const chain = calls(both('remote-429-retry-after'));
    expect(chain.map((a) => `${a.attempt} ${a.status}`)).toEqual(['1 429', '2 429', '3 200']);
    expect(codes(chain[1]!)).toContain('RETRY_AFTER_IGNORED');
    expect(codes(chain[2]!)).not.toContain('RETRY_AFTER_IGNORED');
  });

  it('a stream cut without event ids: the bridge cannot resume, the desktop client times out and cancels', () => {
    const [cut, after] = calls(both('remote-sse-cut'));
    expect(cut).toMatchObject({ outcome: 'STREAM_INCOMPLETE', sse: { progress: 2 } });
    expect(codes(cut!)).toEqual(['NO_FINAL_RESULT', 'CANCELLED']);
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(observed('remote-sse-cut').steps[1]).toMatchObject({ timedOut: true });
  });

  it('a stream cut with event ids (event store): the bridge resumes with Last-Event-ID and the call succeeds, marked resumed, its progress counted by token', () => {
    const [resumed] = calls(both('remote-sse-cut-resumed'));
    // the progress the client got before the result: on the cut POST stream and on the resumed GET
    const events = readFileSync(`${DIR}remote-sse-cut-resumed/client.ndjson`, 'utf8').split('\n').filter((l) => l.includes('"kind":"event"')).map((l) => (JSON.parse(l) as { data: string }).data);
    const before = events.slice(0, events.findIndex((d) => d.includes('report ready')));
    const progress = before.filter((d) => d.includes('notifications/progress')).length;
    expect(progress).toBeGreaterThan(2);
    expect(resumed).toMatchObject({ outcome: 'TOOL_SUCCESS', resumed: true, sse: { progress } });
    expect(codes(resumed!)).toEqual([]);
  });

  it('a desktop client that gives up and cancels: CANCELLED, and no NO_FINAL_RESULT', () => {
    const [slow] = calls(both('remote-timeout-cancel'));
    expect(slow!.outcome).toBe('STREAM_INCOMPLETE');
    expect(codes(slow!)).toEqual(['CANCELLED']);
  });

  it('falling back to HTTP+SSE: Express\'s 404 says "Cannot POST /sse"; supergateway\'s SSE mode sends every response to the bridge\'s two abandoned probe GETs too', () => {
    const r = both('remote-fallback-sse');
    const [post404, ...legacy] = r.attempts;
    expect(post404).toMatchObject({ method: 'initialize', status: 404, outcome: 'HTTP_ERROR', detail: { why: 'the body says: Error: Cannot POST /sse' } });
    expect(legacy.map((a) => `${a.method} ${a.status} ${a.outcome}`)).toEqual(['initialize 202 SUCCESS', 'tools/list 202 SUCCESS', 'tools/call 202 TOOL_SUCCESS', 'tools/call 202 TOOL_ERROR']);
    const orphanSessions = new Set(r.findings.filter((f) => f.code === 'ORPHAN_RESPONSE').map((f) => f.session));
    expect(orphanSessions.size).toBe(2);
    expect([...orphanSessions]).not.toContain(legacy[0]!.session);
  });

  it('against supergateway\'s stateless Streamable HTTP: no session ids, every call answered, nothing flagged', () => {
    const r = both('remote-gateway-stateless');
    expect(r.attempts.every((a) => a.session === null)).toBe(true);
    expect(r.attempts.map((a) => a.outcome)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'TOOL_SUCCESS', 'TOOL_ERROR']);
    expect(r.attempts.flatMap(codes)).toEqual([]);
  });

  it('--protocol auto against fastmcp: both discover probes (the SDK\'s and the bridge\'s own) refused with 400, then initialize as before', () => {
    const r = both('remote-auto-fastmcp');
    expect(r.attempts.filter((a) => a.method === 'server/discover').map((a) => `${String(a.id)} ${a.status} ${a.outcome}`)).toEqual(['server-discover-probe-1 400 HTTP_ERROR', 'mcp-remote-discover-1 400 HTTP_ERROR']);
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(['lookup_order TOOL_SUCCESS', 'refund_order TOOL_ERROR', 'no_such_tool JSONRPC_ERROR', 'progress_report TOOL_SUCCESS']);
    expect(r.findings).toEqual([]);
  });

  it('--protocol auto against a 2026-07-28 server: the bridge answers initialize itself, listens for changes, and carries each request sessionless', () => {
    const r = both('remote-auto-modern');
    expect(r.attempts.map((a) => a.method)).toEqual(['server/discover', 'server/discover', 'subscriptions/listen', 'tools/list', 'tools/call', 'tools/call', 'tools/call']);
    expect(r.attempts.some((a) => a.method === 'initialize')).toBe(false);
    expect(r.attempts.every((a) => a.session === null)).toBe(true);
    expect(calls(r).map((a) => `${a.tool} ${a.outcome} ${a.detail?.errorCode ?? ''}`.trim())).toEqual(['lookup_order TOOL_SUCCESS', 'validate_quantity TOOL_ERROR', 'no_such_tool JSONRPC_ERROR -32602']);
    expect(r.attempts.flatMap(codes)).toEqual([]);
  });

  it('401 with OAuth discovery failing: one initialize refused, the client could not authorize; no browser was opened', () => {
    const r = both('remote-oauth-discovery-fails');
    expect(r.attempts).toMatchObject([{ method: 'initialize', status: 401, outcome: 'HTTP_ERROR', detail: { why: 'the body says: invalid_token (no bearer token)' } }]);
    expect(r.findings.map((f) => f.code)).toEqual(['CALL_NEVER_SENT']);
    expect(r.findings[0]!.message).toMatch(/the client could not authorize/);
    expect(observed('remote-oauth-discovery-fails').browserOpened).toEqual([]);
  });
});

describe("the desktop client's stdio log joined with the server's log (no log of the bridge)", () => {
  // What a user of a desktop client and mcp-remote has: the desktop's log of its stdio messages, and the server's log.
  const desktop = (s: string) => triage(['--client', `${DIR}${s}/stdio.ndjson`, '--server', `${DIR}${s}/server.ndjson`]);
  const twoLogs = (a: Attempt) => a.side === 'client' && a.session !== null;

  it('every desktop request but initialize (mcp-remote renames the client in it) joins the server\'s view under the session the bridge opened; no finding; the summary says how they were joined', () => {
    const r = desktop('remote-basic');
    const desktopSession = r.attempts.find((a) => a.method === 'tools/list')!.session;
    expect(r.attempts.filter(twoLogs).map((a) => [a.tool ?? a.method, a.session, a.outcome, a.serverOutcome])).toEqual([
      ['tools/list', desktopSession, 'SUCCESS', 'SUCCESS'],
      ['lookup_order', desktopSession, 'TOOL_SUCCESS', 'TOOL_SUCCESS'],
      ['validate_quantity', desktopSession, 'TOOL_ERROR', 'TOOL_ERROR'],
      ['crash', desktopSession, 'TOOL_ERROR', 'TOOL_ERROR'],
      ['no_such_tool', desktopSession, 'TOOL_ERROR', 'TOOL_ERROR'],
      ['ping', desktopSession, 'SUCCESS', 'SUCCESS'],
    ]);
    expect(r.attempts.filter((a) => a.method === 'initialize').map((a) => a.side)).toEqual(['client', 'server', 'server']);
    expect(r.attempts.flatMap(codes)).toEqual([]);
    expect((r.summary as { notes: string[] }).notes).toEqual([expect.stringMatching(/^6 requests of a client log that names no session id/)]);
  });

  it('the same desktop log written as Claude Desktop writes its mcp-server-NAME.log ("Message from client: ...") joins the same way', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bridges-desktop-'));
    const records = readFileSync(`${DIR}remote-result-lost/stdio.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { ts: string; direction: string; message: unknown });
    const log = join(dir, 'mcp-server-orders.log');
    writeFileSync(log, records.map((r) => `${r.ts} [orders] [info] Message from ${r.direction === 'c2s' ? 'client' : 'server'}: ${JSON.stringify(r.message)} { metadata: undefined }`).join('\n') + '\n');
    const r = triage(['--client', log, '--server', `${DIR}remote-result-lost/server.ndjson`]);
    const fromDesktopLog = calls(r).map((a) => [a.side, a.outcome, a.serverOutcome, codes(a)]);
    expect(fromDesktopLog).toEqual(calls(desktop('remote-result-lost')).map((a) => [a.side, a.outcome, a.serverOutcome, codes(a)]));
    expect(fromDesktopLog[0]).toEqual(['client', 'JSONRPC_ERROR', 'TOOL_SUCCESS', ['SIDE_DIVERGENCE']]);
  });

  it('a request the bridge re-sent after a 404 joins the re-sent POST that answered it, not the refused one', () => {
    const r = desktop('remote-session-restart');
    const reinit = r.attempts.find((a) => a.id === 'mcp-remote-reinit-1')!;
    const sent = r.attempts.filter((a) => a.id === 3);
    expect(sent.map((a) => [a.side, a.session, a.status, a.outcome])).toEqual([['client', reinit.session, null, 'TOOL_SUCCESS'], ['server', expect.any(String), 404, 'HTTP_ERROR']]);
    expect(sent[1]!.session).not.toBe(reinit.session);
    // The refused POST is told where the request went, and its session's expiry says the client retried it.
    expect(sent[1]!.detail?.why).toContain(`re-sent with the same id in session "${reinit.session}", where the client's request (its log names no session id) was joined`);
    expect(r.findings.filter((f) => f.code === 'SESSION_EXPIRED').map((f) => f.message)).toEqual([expect.stringMatching(/id 3 that carried the session id; the client re-initialized and retried the call$/)]);
  });

  it('the server answered, a hop dropped the answer and mcp-remote gave the desktop -32001 "fetch failed": SIDE_DIVERGENCE says the error was made between them and the tool had run', () => {
    const steps = observed('remote-result-lost').steps;
    expect(steps[1]).toMatchObject({ got: { error: { code: -32001, message: 'mcp-remote: fetch failed' } } });
    const r = desktop('remote-result-lost');
    const [lost, after] = calls(r);
    expect(lost).toMatchObject({ side: 'client', outcome: 'JSONRPC_ERROR', serverOutcome: 'TOOL_SUCCESS', detail: { errorCode: -32001 } });
    expect(lost!.findings.map((f) => `${f.code} ${f.message}`)).toEqual([
      'SIDE_DIVERGENCE tools/call slow_report id 1: the client\'s log (no HTTP layer) got JSONRPC_ERROR, the server sent HTTP 200 TOOL_SUCCESS: the client got error -32001 ("mcp-remote: fetch failed"), not the server\'s answer: something between them (a bridge, the client\'s transport) made it up, and the tool had run',
    ]);
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS', serverOutcome: 'TOOL_SUCCESS' });
    expect(codes(after!)).toEqual([]);
    // The bridge's own HTTP view says the same from the wire: its POST got no response while the server sent its result.
    const wire = calls(both('remote-result-lost'))[0]!;
    expect([wire.outcome, codes(wire)]).toEqual(['NO_RESPONSE', ['SIDE_DIVERGENCE']]);
  });

  it('a stream cut before the result: NO_FINAL_RESULT from the server\'s 200, then the desktop\'s CANCELLED; no divergence (neither side had a result)', () => {
    const [cut] = calls(desktop('remote-sse-cut'));
    expect(cut).toMatchObject({ side: 'client', outcome: 'UNANSWERED', serverOutcome: 'STREAM_INCOMPLETE' });
    expect(codes(cut!)).toEqual(['NO_FINAL_RESULT', 'CANCELLED']);
  });

  it('must not: a desktop that cancelled first (the bridge then closed the stream) gets no NO_FINAL_RESULT and no SIDE_DIVERGENCE', () => {
    const [slow] = calls(desktop('remote-timeout-cancel'));
    expect(slow).toMatchObject({ side: 'client', outcome: 'UNANSWERED', serverOutcome: 'STREAM_INCOMPLETE' });
    expect(codes(slow!)).toEqual(['CANCELLED']);
  });

  it('must not: the desktop\'s initialize, answered over the fallback transport, is not joined to the POST the server refused with 404 (no session on either: the same key), nor said to diverge from it', () => {
    const r = desktop('remote-fallback-sse');
    const inits = r.attempts.filter((a) => a.method === 'initialize');
    expect(inits.map((a) => [a.side, a.status, a.outcome, a.serverOutcome])).toEqual([['client', null, 'SUCCESS', undefined], ['server', 404, 'HTTP_ERROR', undefined], ['server', 202, 'SUCCESS', undefined]]);
    expect(r.attempts.flatMap(codes)).toEqual([]);
    expect(calls(r).map((a) => [a.side, a.outcome, a.serverOutcome])).toEqual([['client', 'TOOL_SUCCESS', 'TOOL_SUCCESS'], ['client', 'TOOL_ERROR', 'TOOL_ERROR']]);
  });

  it('must not: the request a hop refused with 503 (the server never saw it) joins nothing, is not said to be unseen, and its retry joins the server\'s view', () => {
    const [refused, again] = calls(desktop('remote-503-app-retry'));
    expect([refused!.session, refused!.outcome, refused!.notSeenByServer]).toEqual([null, 'JSONRPC_ERROR', undefined]);
    expect(again).toMatchObject({ side: 'client', outcome: 'TOOL_SUCCESS', serverOutcome: 'TOOL_SUCCESS', call: refused!.call, attempt: 2 });
  });
});

describe('supergateway 4.0.0 (stdio server behind a gateway)', () => {
  it('stateful: a call\'s progress counts for it even when the gateway wrote it to another call\'s stream (as many as the client saw)', () => {
    const [a, b] = calls(both('gateway-stateful')).filter((x) => x.tool === 'slow_report');
    const seen = (observed('gateway-stateful').notes.find((n) => (n as { progressSeen?: unknown }).progressSeen) as { progressSeen: { a: number[]; b: number[] } }).progressSeen;
    expect([a!.sse!.progress, b!.sse!.progress]).toEqual([seen.a.length, seen.b.length]);
    expect(b!.sse!.progress).toBeGreaterThan(0);
    expect(b!.sse!.events).toBe(1); // B's own stream carried only its result
  });

  it('stateful: B\'s last step, written to A\'s stream 2 ms after B\'s result, is PROGRESS_UNMATCHED (the client reported it as an unknown token)', () => {
    const r = both('gateway-stateful');
    expect(JSON.stringify(observed('gateway-stateful').notes)).toContain('a progress notification for an unknown token');
    const found = r.findings.filter((f) => f.code === 'PROGRESS_UNMATCHED');
    expect(found.map((f) => f.message)).toEqual([expect.stringMatching(/notifications\/progress for token 6 came 2 ms after the response to tools\/call id 6 \(slow_report, sent at .*client\.ndjson:28\), which had asked for it/)]);
  });

  it('stateless: every POST is its own child process, no session ids; progress and a thrown error read right', () => {
    const r = both('gateway-stateless');
    expect(r.attempts.every((a) => a.session === null)).toBe(true);
    expect(calls(r).map((a) => `${a.tool} ${a.outcome} ${a.sse?.progress ?? 0}`)).toEqual(['lookup_order TOOL_SUCCESS 0', 'slow_report TOOL_SUCCESS 3', 'crash TOOL_ERROR 0']);
  });

  it('SSE mode, two clients: every response the other session got is an ORPHAN_RESPONSE in this one, exactly those the SDK clients dropped as "unknown message ID"', () => {
    const r = both('gateway-sse-two-clients');
    const nameOf = new Map(r.attempts.filter((a) => a.method === 'initialize').map((a) => [a.session, a.session === calls(r).find((c) => c.tool === 'lookup_order')!.session ? 'agent-alpha' : 'agent-beta']));
    const flagged = new Set(r.findings.filter((f) => f.code === 'ORPHAN_RESPONSE').map((f) => `${nameOf.get(f.session)} ${/id (\d+)/.exec(f.message)![1]}`));
    const dropped = new Set((observed('gateway-sse-two-clients').notes as { client?: string; onerror?: { message: string } }[])
      .filter((n) => n.onerror?.message.startsWith('Received a response for an unknown message ID'))
      .map((n) => `${n.client} ${/"id":(\d+)/.exec(n.onerror!.message)![1]}`));
    expect([...flagged].sort()).toEqual([...dropped].sort());
    expect(dropped.size).toBe(4);
    // each once, though the client's and the server's view both show it
    expect(r.findings.filter((f) => f.code === 'ORPHAN_RESPONSE')).toHaveLength(4);
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(['lookup_order TOOL_SUCCESS', 'validate_quantity TOOL_ERROR']);
  });
});

describe('fastmcp 4.20 (its HTTP server is mcp-proxy)', () => {
  const shapes = (r: Run) => calls(r).map((a) => `${a.tool} ${a.outcome} ${a.detail?.errorCode ?? ''} ${a.detail?.errorMessage ?? ''}`.trim());

  it('stateful: UserError and thrown errors are isError results, an unknown tool -32601, bad arguments -32602, its own tool timeout an isError result', () => {
    const r = both('fastmcp-stateful');
    expect(shapes(r)).toEqual([
      'lookup_order TOOL_SUCCESS',
      'refund_order TOOL_ERROR  order 1001 was already refunded',
      "crash TOOL_ERROR  Tool 'crash' execution failed: database connection refused",
      'no_such_tool JSONRPC_ERROR -32601 MCP error -32601: Unknown tool: no_such_tool',
      expect.stringMatching(/^lookup_order JSONRPC_ERROR -32602 MCP error -32602: Tool 'lookup_order' parameter validation failed/),
      expect.stringMatching(/^slow_export TOOL_ERROR {2}Tool 'slow_export' timed out after 300ms/),
      'progress_report TOOL_SUCCESS',
    ]);
    expect(calls(r).at(-1)!.sse).toMatchObject({ progress: 4 });
    expect(r.attempts.flatMap(codes)).toEqual([]);
    expect(r.findings).toEqual([]);
  });

  it('stateless: no session ids, the same error shapes', () => {
    const r = both('fastmcp-stateless');
    expect(r.attempts.every((a) => a.session === null)).toBe(true);
    expect(shapes(r)).toEqual(['lookup_order TOOL_SUCCESS', 'refund_order TOOL_ERROR  order 1001 was already refunded', 'no_such_tool JSONRPC_ERROR -32601 MCP error -32601: Unknown tool: no_such_tool']);
  });

  it('an authenticate hook that refuses: 401 with a JSON-RPC error body (-32000), then the app connects with its key', () => {
    const r = both('fastmcp-auth-401');
    expect(r.attempts[0]).toMatchObject({ method: 'initialize', status: 401, outcome: 'HTTP_ERROR', detail: { errorCode: -32000, errorMessage: 'Unauthorized: missing or wrong API key' } });
    expect(calls(r).map((a) => a.outcome)).toEqual(['TOOL_SUCCESS']);
    // The app connects again at once with its key: a correction after 401, not a retry that should have backed off.
    expect([...r.attempts.flatMap(codes), ...r.findings.map((f) => f.code)]).not.toContain('RETRY_POLICY');
  });
});
