// Audit 39's real runs (test/fixtures/real-audit39): the Python SDK 2.3.0 client's own DEBUG log, alone and with the server's side, held to what the app saw.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze, type AnalysisResult } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit39/', import.meta.url));
type Side = 'client' | 'server';
type View = { name: string; inputs: [string, Side][] };
const run = (scenario: string, inputs: [string, Side][]) =>
  analyze({ inputs: inputs.map(([f, side]) => ({ path: `${DIR}${scenario}/${f}`, side })), onDiagnostic: () => {} });
const calls = (r: AnalysisResult) => r.attempts.filter((a) => a.method === 'tools/call');
const rows = (r: AnalysisResult) => calls(r).map((a) => `${a.tool} ${a.outcome} #${a.attempt}${a.findings.length ? ` [${a.findings.map((f) => f.code).sort().join(',')}]` : ''}`);
const codes = (r: AnalysisResult) => [...r.attempts.flatMap((a) => a.findings.map((f) => f.code)), ...r.findings.map((f) => f.code)];
const truth = (scenario: string) => readFileSync(`${DIR}${scenario}/truth-client.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((t) => typeof t.name === 'string');

const D: View = { name: 'Python DEBUG log', inputs: [['client-debug.log', 'client']] };
const DS: View = { name: 'Python DEBUG log + server (recordingHandler)', inputs: [['client-debug.log', 'client'], ['server.ndjson', 'server']] };
const P: View = { name: 'proxy (mcp-triage record)', inputs: [['proxy.ndjson', 'client']] };

/** What the caller saw, as the report's outcome families: a result (isError or not), or a failure. */
const family = (outcome: string) => (outcome === 'TOOL_SUCCESS' ? 'success' : outcome === 'TOOL_ERROR' ? 'isError' : 'failed');
/** Each tools/call the app made (truth-client.ndjson) held to its attempt's outcome family, in order. */
function matchesTruth(r: AnalysisResult, scenario: string): void {
  expect(calls(r).map((a) => `${a.tool} ${family(a.outcome)}`)).toEqual(truth(scenario).map((t) => `${String(t.name)} ${t.ok !== true ? 'failed' : t.isError === true ? 'isError' : 'success'}`));
}

const ERRORS = ['lookup TOOL_SUCCESS #1', 'explode TOOL_ERROR #1', 'mcperr TOOL_ERROR #1', 'no_such_tool TOOL_ERROR #1', 'charge HTTP_ERROR #1', 'charge TOOL_SUCCESS #2 [RETRY_ORIGIN_AMBIGUOUS]', 'lookup TOOL_SUCCESS #1'];
const CUT_V2 = ['slow STREAM_INCOMPLETE #1 [NO_FINAL_RESULT]', 'slow TOOL_SUCCESS #2 [RETRY_ORIGIN_AMBIGUOUS,UNSAFE_RETRY]'];
const SCENARIOS: { scenario: string; views: View[]; expected: string[]; per?: Record<string, string[]>; truthful?: boolean }[] = [
  // SDK 1.32.2 server: a success, a throw (isError), an unknown tool twice (mcperr is not on that server), a hop's 503
  // then the app's own retry with backoff, a new call.
  { scenario: 'ts-errors', views: [D, DS], expected: ERRORS },
  // The same log written twice by two handlers of the root (every line), the mcp logger's own and the root's (the SDK's
  // lines only, with [%(process)d]), and BASIC_FORMAT's untimed lines twice: each read as the single log.
  { scenario: 'ts-errors-double', views: [D, DS], expected: ERRORS },
  { scenario: 'ts-errors-named', views: [D, DS], expected: ERRORS },
  // python-json-logger's records, every one twice.
  { scenario: 'ts-errors-json-double', views: [D, DS], expected: ERRORS },
  // (Untimed, joined with the server's timed log: the 503's attempt has no time; the retry after it is still linked.)
  { scenario: 'ts-errors-basic', views: [D, DS], expected: ERRORS },
  // A doubled log whose app calls the same tool with the same arguments twice: two calls, each read once.
  { scenario: 'ts-twice-double', views: [D, DS], expected: ['lookup TOOL_SUCCESS #1', 'lookup TOOL_SUCCESS #1'] },
  // Two Clients of one app started at once (asyncio.gather) against one server: timed, and untimed (BASIC_FORMAT),
  // where their "Connecting to" and initialize lines are identical: both sessions read, not taken for copies.
  { scenario: 'ts-gather-two', views: [D, DS], expected: ['lookup TOOL_SUCCESS #1', 'lookup TOOL_SUCCESS #1'] },
  { scenario: 'ts-gather-two-basic', views: [D, DS], expected: ['lookup TOOL_SUCCESS #1', 'lookup TOOL_SUCCESS #1'] },
  { scenario: 'v2-gather-two-basic', views: [D, DS], expected: ['lookup TOOL_SUCCESS #1', 'lookup TOOL_SUCCESS #1'] },
  // 2026-07-28 against the v2 server: the unknown tool is a JSON-RPC error there, the tool's ProtocolError an isError.
  { scenario: 'v2-modern-errors', views: [D, DS], expected: ['lookup TOOL_SUCCESS #1', 'explode TOOL_ERROR #1', 'mcperr TOOL_ERROR #1', 'no_such_tool JSONRPC_ERROR #1', 'charge HTTP_ERROR #1', 'charge TOOL_SUCCESS #2 [RETRY_ORIGIN_AMBIGUOUS]', 'lookup TOOL_SUCCESS #1'] },
  // A hop cuts the call's stream after its first event; the app retries. With httpcore's lines, and without them
  // (httpcore at INFO, timed and BASIC_FORMAT): no CANCELLED, the client did not close it.
  { scenario: 'v2-modern-cut', views: [D], expected: CUT_V2, per: { [DS.name]: ['slow STREAM_INCOMPLETE #1 [NO_FINAL_RESULT,SIDE_DIVERGENCE]', CUT_V2[1]!] } },
  { scenario: 'v2-modern-cut-quiet', views: [D], expected: CUT_V2 },
  { scenario: 'v2-modern-cut-quiet-basic', views: [D], expected: CUT_V2 },
  // The cut written twice: by the root's two handlers, and (2026-07-28: no session id to prove it) by the mcp
  // logger's own handler with httpcore's lines off.
  { scenario: 'v2-modern-cut-double', views: [D], expected: CUT_V2 },
  { scenario: 'v2-modern-cut-named-quiet', views: [D], expected: CUT_V2 },
  { scenario: 'ts-cut-quiet', views: [D], expected: ['progress STREAM_INCOMPLETE #1 [NO_FINAL_RESULT]', 'progress TOOL_SUCCESS #2 [RETRY_ORIGIN_AMBIGUOUS]', 'lookup TOOL_SUCCESS #1'] },
  // 429 twice from a hop with Retry-After: 1, the app's backoff (250 ms, 500 ms): attempts 1 to 3, each retry too soon
  // (httpcore's head line has the Retry-After: since the hundred-and-fourth audit, RETRY_AFTER_IGNORED, as the capture says).
  { scenario: 'v2-legacy-429', views: [D, DS], expected: ['charge HTTP_ERROR #1', 'charge HTTP_ERROR #2 [RETRY_AFTER_IGNORED,RETRY_ORIGIN_AMBIGUOUS]', 'charge TOOL_SUCCESS #3 [RETRY_AFTER_IGNORED,RETRY_ORIGIN_AMBIGUOUS]'] },
  // The SDK's read_timeout_seconds (2026-07-28: the POST aborted before any head: NO_RESPONSE since the
  // hundred-and-fourth audit, UNANSWERED before), then a new call with other arguments.
  { scenario: 'v2-modern-timeout', views: [D], expected: ['slow NO_RESPONSE #1 [CANCELLED]', 'slow TOOL_SUCCESS #1'] },
  // The Python server: an event over the client's 1 MiB limit (JSON formatter and text), then 100 KiB, then a lookup.
  { scenario: 'py-big', views: [D, P], expected: ['big STREAM_INCOMPLETE #1 [NO_FINAL_RESULT]', 'big TOOL_SUCCESS #1', 'lookup TOOL_SUCCESS #1'] },
  // The same on 2026-07-28 against the v2 server: the SDK's close of the stream is its reader's failure, no cancellation.
  { scenario: 'v2-modern-big', views: [D, P], expected: ['big STREAM_INCOMPLETE #1 [NO_FINAL_RESULT]', 'big TOOL_SUCCESS #1', 'lookup TOOL_SUCCESS #1'], per: { [DS.name]: ['big STREAM_INCOMPLETE #1 [NO_FINAL_RESULT,SIDE_DIVERGENCE]', 'big TOOL_SUCCESS #1', 'lookup TOOL_SUCCESS #1'] } },
  { scenario: 'py-big-text', views: [D, P], expected: ['big STREAM_INCOMPLETE #1 [NO_FINAL_RESULT]', 'big TOOL_SUCCESS #1', 'lookup TOOL_SUCCESS #1'] },
  // The Python server's own uvicorn lines in the same file, [%(process)d] in the format; a tool's MCPError.
  { scenario: 'py-errors-uvicorn', views: [D], expected: ['lookup TOOL_SUCCESS #1', 'explode TOOL_ERROR #1', 'mcperr JSONRPC_ERROR #1', 'no_such_tool TOOL_ERROR #1', 'charge HTTP_ERROR #1', 'charge TOOL_SUCCESS #2 [RETRY_ORIGIN_AMBIGUOUS]', 'lookup TOOL_SUCCESS #1'] },
  // A hop's 404 (session lost) once, the app's retry in the same session, then a new session's call.
  { scenario: 'py-session404', views: [D], expected: ['lookup TOOL_SUCCESS #1', 'charge HTTP_ERROR #1', 'charge TOOL_SUCCESS #2 [RETRY_ORIGIN_AMBIGUOUS]', 'charge TOOL_SUCCESS #1'] },
  // asyncio.wait_for cancels a call (notifications/cancelled; the server answers -32800), a new call after.
  { scenario: 'py-cancel', views: [D], expected: ['slow JSONRPC_ERROR #1 [CANCELLED]', 'lookup TOOL_SUCCESS #1'] },
  // JSON answers: httpx's ReadTimeout on the slow call's head ends the app (its JSON lookup answer is not in the log: KNOWN);
  // the failed head proves no response came (audit 55: NO_RESPONSE).
  { scenario: 'py-json-readtimeout', views: [D], expected: ['lookup UNANSWERED #1', 'slow NO_RESPONSE #1'], truthful: false },
];

describe('audit 39: the Python client DEBUG log against each server, held to the app', () => {
  for (const s of SCENARIOS) {
    const views = [...s.views, ...Object.keys(s.per ?? {}).map((n) => [D, DS, P].find((v) => v.name === n)!)];
    for (const v of views) {
      it(`${s.scenario}: ${v.name}`, async () => {
        const r = await run(s.scenario, v.inputs);
        expect(rows(r)).toEqual(s.per?.[v.name] ?? s.expected);
        if (s.truthful !== false) matchesTruth(r, s.scenario);
      });
    }
  }
});

describe('audit 39: a log written twice', () => {
  it('reads each copy once, says so, and raises no DUPLICATE_RECORD', async () => {
    const single = await run('ts-errors', D.inputs);
    for (const scenario of ['ts-errors-double', 'ts-errors-named', 'ts-errors-basic', 'ts-errors-json-double']) {
      const r = await run(scenario, D.inputs);
      expect(r.attempts.map((a) => `${a.method} ${a.outcome}`)).toEqual(single.attempts.map((a) => `${a.method} ${a.outcome}`));
      expect(codes(r)).not.toContain('DUPLICATE_RECORD');
      expect(codes(r)).not.toContain('ID_REUSED');
      expect(r.summary.inputs[0]!.cannotShow.join(' ')).toContain('the Python DEBUG log writes its lines twice');
    }
    // The single log says nothing of copies.
    expect(single.summary.inputs[0]!.cannotShow.join(' ')).not.toContain('writes its lines twice');
  });

  it('keeps a real repeat of a call in a doubled log, and two transports started at once in a log that is not', async () => {
    const r = await run('ts-twice-double', D.inputs);
    expect(calls(r).map((a) => `${a.id}`)).toEqual(['3', '4']);
    // Two Clients to one URL started at once in BASIC_FORMAT: their first lines are identical; both sessions are read
    // (2025-11-25: each its initialize; 2026-07-28: each its server/discover).
    for (const [scenario, opening] of [['ts-gather-two-basic', 'initialize'], ['v2-gather-two-basic', 'server/discover']] as const) {
      const gather = await run(scenario, D.inputs);
      expect(gather.attempts.filter((a) => a.method === opening)).toHaveLength(2);
      expect(gather.summary.inputs[0]!.cannotShow.join(' ')).not.toContain('writes its lines twice');
    }
    // audit 16's two servers, each one session, whose initialize lines are identical to the millisecond: both read.
    const two = await analyze({ inputs: [{ path: fileURLToPath(new URL('../fixtures/real-audit16/py-two-servers/client.log', import.meta.url)), side: 'client' }], onDiagnostic: () => {} });
    expect(two.attempts.filter((a) => a.method === 'initialize')).toHaveLength(2);
    expect(two.summary.inputs[0]!.cannotShow.join(' ')).not.toContain('writes its lines twice');
  });
});

describe('audit 39: a stream cut, read without httpcore\'s lines', () => {
  it('takes the exception from the "SSE stream ended" traceback: cut by the peer, no CANCELLED on 2026-07-28', async () => {
    for (const scenario of ['v2-modern-cut-quiet', 'v2-modern-cut-quiet-basic']) {
      const r = await run(scenario, D.inputs);
      const cut = calls(r)[0]!;
      expect(cut.detail.why).toContain('cut by the peer');
      expect(cut.detail.why).toContain('the traceback of "SSE stream ended" ends in "RemoteProtocolError: peer closed connection without sending complete message body');
      expect(codes(r)).not.toContain('CANCELLED');
    }
  });
});

describe('audit 39: an SSE event over the client\'s 1 MiB limit', () => {
  it('ends the call where the SDK closed its stream, naming the limit, not at a later body\'s end', async () => {
    for (const scenario of ['py-big', 'py-big-text', 'v2-modern-big']) {
      const r = await run(scenario, D.inputs);
      const big = calls(r)[0]!;
      expect(big.detail.why).toContain("given up by the client's own SSE reader");
      expect(big.detail.why).toContain('max_sse_event_size');
      expect(big.detail.why).not.toContain('receive_response_body.complete');
      expect(String(truth(scenario)[0]!.error)).toContain('Server-sent event exceeded the 1048576 byte limit');
      expect(codes(r)).not.toContain('CANCELLED');
    }
  });
});

describe('audit 39: the app killed by its JSON-mode read timeout', () => {
  it('says the exception ended the session, as the app saw (no later call ran)', async () => {
    const r = await run('py-json-readtimeout', D.inputs);
    const slow = calls(r).find((a) => a.tool === 'slow')!;
    expect(slow.detail.why).toContain('ends the transport\'s tasks and with them the Client\'s session');
    // The app made one call that returned (lookup); slow raised out of its Client, and "lookup after" never ran.
    expect(truth('py-json-readtimeout').map((t) => t.name)).toEqual(['lookup']);
    expect(calls(r).map((a) => a.tool)).toEqual(['lookup', 'slow']);
  });
});

/** A record of the recorded logs (`%(asctime)s %(levelname)s %(name)s: %(message)s`); a traceback's lines match not. */
const RECORD = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) (DEBUG|INFO|WARNING|ERROR|CRITICAL) ([\w.]+): (.*)$/s;
/** Formats whose time is not the line's first text, or that write its zone: each, as Python renders one record. */
const SHAPES: Record<string, (t: string, ms: string, level: string, name: string, msg: string) => string> = {
  "'[%(process)d] %(asctime)s %(levelname)s %(name)s: %(message)s'": (t, ms, l, n, m) => `[4242] ${t},${ms} ${l} ${n}: ${m}`,
  "'%(levelname)s %(asctime)s %(name)s %(message)s'": (t, ms, l, n, m) => `${l} ${t},${ms} ${n} ${m}`,
  "a formatTime of datetime.isoformat() in UTC ('2026-12-05T21:10:45.595000+00:00')": (t, ms, l, n, m) => `${t.replace(' ', 'T')}.${ms}000+00:00 ${l} ${n}: ${m}`,
};

describe('audit 39: the log in formats whose time is not first, or names its zone', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpt-a39-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const timed = (r: AnalysisResult) => r.attempts.map((a) => `${a.ts ?? '-'} ${a.method} ${a.tool ?? ''} ${a.outcome} #${a.attempt}`);
  for (const scenario of ['ts-errors', 'v2-modern-errors']) {
    for (const [shape, render] of Object.entries(SHAPES)) {
      it(`${scenario} in ${shape}: the same calls, statuses and times`, async () => {
        const recorded = await run(scenario, D.inputs);
        const text = readFileSync(`${DIR}${scenario}/client-debug.log`, 'utf8').split('\n').map((l) => {
          const m = RECORD.exec(l);
          return m ? render(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!) : l;
        }).join('\n');
        const path = join(dir, `${scenario}-${Object.keys(SHAPES).indexOf(shape)}.log`);
        writeFileSync(path, text);
        const r = await analyze({ inputs: [{ path, side: 'client' }], onDiagnostic: () => {} });
        expect(timed(r)).toEqual(timed(recorded));
        expect(rows(r)).toContain('charge HTTP_ERROR #1');
      });
    }
  }
});

describe('audit 39: an untimed client log joined with a timed server log', () => {
  it("links the app's retry after an attempt only the client's log shows (audit 24's py-v2 too, to its truth)", async () => {
    const b = calls(await run('ts-errors-basic', DS.inputs)).filter((a) => a.tool === 'charge');
    expect(b.map((a) => `${a.outcome} #${a.attempt} ${a.ts === undefined ? 'untimed' : 'timed'}`)).toEqual(['HTTP_ERROR #1 untimed', 'TOOL_SUCCESS #2 timed']);
    const dir = fileURLToPath(new URL('../fixtures/real-audit24/py-v2/', import.meta.url));
    const r = await analyze({ inputs: [{ path: `${dir}python-debug-basic.log`, side: 'client' }, { path: `${dir}server.ndjson`, side: 'server' }], onDiagnostic: () => {} });
    const t = (JSON.parse(readFileSync(`${dir}truth.json`, 'utf8')) as { calls: { key: string; attempt?: number; outcome: string }[] }).calls;
    for (const tool of ['flaky_write', 'busy']) {
      expect(calls(r).filter((a) => a.tool === tool).map((a) => `${a.outcome} #${a.attempt}`)).toEqual(t.filter((c) => c.key.startsWith(`tools/call:${tool}#`)).map((c) => `${c.outcome} #${c.attempt}`));
    }
  });
});

const KNOWN = [
  'py-json-readtimeout: lookup UNANSWERED, its JSON answer is not in the DEBUG log (the app got it)',
];

describe('audit 39: what stays out of reach (KNOWN)', () => {
  it('each limit is still there', async () => {
    const found: string[] = [];
    const j = calls(await run('py-json-readtimeout', D.inputs)).find((a) => a.tool === 'lookup')!;
    if (j.outcome === 'UNANSWERED' && truth('py-json-readtimeout')[0]!.ok === true) found.push(KNOWN[0]!);
    expect(found).toEqual(KNOWN);
  });
});
