// Fifteenth audit: logs written by a user's own loggers from the README alone (test/fixtures/real-handlogs, recorded by record.mjs): two client fetch loggers and an Express server logger around the SDK 1.32.2, read seven ways; expectations derived from what the app saw (observed.json).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allCodes, auditKit, codesOf, toolCalls as calls, type View } from '../helpers/recordings.js';
import { triageCli } from '../helpers/triage-cli.js';

interface Err { name: string; message: string; code?: number | string }
interface Step { label: string; ok?: { isError: boolean; text: string } | null; error?: Err }

const kit = auditKit<Step>('real-handlogs');
const { f, steps, hop, serverRan, runView } = kit;
/** The TypeScript client's scenarios; the py- group (the Python client's logger) is real-handlogs-py.test.ts's. */
const scenarios = kit.scenarios.filter((s) => !s.startsWith('py-'));

/** The seven ways of reading each incident: each logger's file alone, and the client files with the server's. */
const VIEWS: View[] = [
  { name: 'client-exchange', inputs: [['client-exchange.ndjson', 'client']] },
  { name: 'client-split', inputs: [['client-split.ndjson', 'client']] },
  { name: 'server', inputs: [['server.ndjson', 'server']] },
  { name: 'server-split', inputs: [['server-split.ndjson', 'server']] },
  { name: 'exchange+server', inputs: [['client-exchange.ndjson', 'client'], ['server.ndjson', 'server']] },
  { name: 'split+server', inputs: [['client-split.ndjson', 'client'], ['server.ndjson', 'server']] },
  { name: 'split+server-split', inputs: [['client-split.ndjson', 'client'], ['server-split.ndjson', 'server']] },
];
/** A logger's lines as it wrote them. */
const linesOf = <T>(s: string, file: string) => readFileSync(f(s, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);
const view = (name: string) => VIEWS.find((v) => v.name === name)!;
const PAIRS = VIEWS.filter((v) => v.inputs.length === 2);
const CLIENTS = VIEWS.filter((v) => v.name.startsWith('client-'));

/** What the app got, as the outcome its call must have: an isError result, a result, an HTTP status it threw, a failed fetch, the SDK's own timeout. */
function outcomeOf(st: Step): string {
  if (st.ok) return st.ok.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
  const e = st.error!;
  if (e.name === 'StreamableHTTPError') return 'HTTP_ERROR';
  if (e.name === 'TypeError' && e.message === 'fetch failed') return 'NO_RESPONSE';
  if (e.code === -32001) return 'STREAM_INCOMPLETE';
  return `unexpected ${e.name}`;
}
/** The tools/call outcomes a view must show, in order: the server's log does not see the requests the fault hop answered or dropped itself. */
function expected(s: string, v: View): string[] {
  let unseen = v.inputs.length === 1 && v.inputs[0]![1] === 'server' ? hop(s).filter((h) => h.request.startsWith('POST tools/call') && h.action !== 'forward' && h.action !== 'cutEvents').length : 0;
  const out: string[] = [];
  for (const st of steps(s)) {
    const o = outcomeOf(st);
    if (unseen > 0 && (o === 'HTTP_ERROR' || o === 'NO_RESPONSE') && !(st.error?.code === 404)) {
      unseen--;
      continue;
    }
    out.push(`${/^call (\w+)/.exec(st.label)![1]} ${o}`);
  }
  return out;
}

describe('every recording, every view', () => {
  it('has the scenarios the recorder writes', () => {
    expect(scenarios).toEqual(['fetch-failed', 'hop-429', 'hop-503', 'session-lost', 'slow-session', 'sse-cut', 'tool-error', 'tool-ok', 'unknown-tool']);
  });

  for (const s of scenarios) {
    for (const v of VIEWS) {
      it(`${s} / ${v.name}: no line refused; each tools/call has the outcome the app got, in order`, async () => {
        const r = await runView(s, v);
        expect(r.summary.inputs.map((i) => i.unusable)).toEqual(v.inputs.map(() => 0));
        expect(r.summary.lines.unusable).toBe(0);
        expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(expected(s, v));
      });
    }
  }
});

describe('the lines as the loggers wrote them', () => {
  it('the split logger numbers its exchanges (xid 1, 2, ...) and the server logger copies res.getHeaders() with content-length a number: both read', async () => {
    const split = linesOf<{ xid: unknown }>('tool-ok', 'client-split.ndjson');
    expect(split.every((x) => typeof x.xid === 'number')).toBe(true);
    const server = linesOf<{ responseHeaders: Record<string, unknown> }>('tool-ok', 'server.ndjson');
    expect(server.some((x) => typeof x.responseHeaders['content-length'] === 'number')).toBe(true);
    for (const v of ['client-split', 'server']) expect((await runView('tool-ok', view(v))).summary.lines.unusable).toBe(0);
  });

  it("the split server logger puts each SSE chunk as written in an event's data (\"event: message\\ndata: {...}\\n\\n\"): its events are read, not MALFORMED_JSON", async () => {
    const events = linesOf<{ kind: string; data?: string }>('tool-ok', 'server-split.ndjson').filter((x) => x.kind === 'event');
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(e.data).toMatch(/^event: message\ndata: \{.*\}\n\n$/s);
    const r = await runView('tool-ok', view('server-split'));
    expect(r.attempts.map((a) => `${a.method} ${a.outcome}`)).toEqual(['initialize SUCCESS', 'tools/call TOOL_SUCCESS']);
  });

  it('the server logger names the session its initialize response set: the initialize is read as sent without one, and joined', async () => {
    const r = await runView('tool-ok', view('split+server'));
    const init = r.attempts.find((a) => a.method === 'initialize')!;
    expect([init.outcome, init.serverOutcome]).toEqual(['SUCCESS', 'SUCCESS']);
    expect(init.sources.map((x) => `${x.file.split('/').pop()}:${x.line}`)).toContain('server.ndjson:1');
    expect(new Set(r.attempts.map((a) => a.session)).size).toBe(1);
    expect(r.attempts.some((a) => a.notSeenByServer)).toBe(false);
  });
});

describe('what each scenario shows', () => {
  for (const v of VIEWS) {
    it(`must not: tool-ok and tool-error / ${v.name}: no finding (an isError result is the tool's answer, application layer)`, async () => {
      for (const s of ['tool-ok', 'tool-error']) expect(allCodes(await runView(s, v))).toEqual([]);
      expect(calls(await runView('tool-error', v)).map((a) => a.layer)).toEqual(['application']);
    });
  }

  it('unknown-tool: the SDK 1.32.2 McpServer answers an unknown tool with an isError result ("MCP error -32602: Tool cancel_order not found"), so TOOL_ERROR, never JSONRPC_ERROR', async () => {
    expect(steps('unknown-tool')[0]!.ok).toMatchObject({ isError: true, text: expect.stringContaining('-32602') });
    for (const v of VIEWS) expect(calls(await runView('unknown-tool', v)).map((a) => a.outcome)).toEqual(['TOOL_ERROR']);
    expect(serverRan('unknown-tool')).toEqual([]);
  });

  for (const v of VIEWS) {
    it(`session-lost / ${v.name}: the 404 after the restart is SESSION_EXPIRED, and the call on the new session is its retry`, async () => {
      const r = await runView('session-lost', v);
      expect(r.findings.map((x) => x.code)).toContain('SESSION_EXPIRED');
      const [, lost, again] = calls(r);
      expect([lost!.status, again!.call, again!.attempt]).toEqual([404, lost!.call, 2]);
    });
  }

  for (const v of PAIRS) {
    it(`hop-503, hop-429, fetch-failed / ${v.name}: the request the hop answered or dropped is not seen by the server, and the retry is linked to it with no UNSAFE_RETRY (the server log proves the first never ran)`, async () => {
      for (const s of ['hop-503', 'hop-429', 'fetch-failed']) {
        const [first, retry] = calls(await runView(s, v));
        expect(first!.notSeenByServer, s).toBe(true);
        expect([retry!.call, retry!.attempt, retry!.serverOutcome], s).toEqual([first!.call, 2, 'TOOL_SUCCESS']);
        expect(codesOf(retry!), s).not.toContain('UNSAFE_RETRY');
      }
      expect(serverRan('hop-503')).toEqual(['send_invoice A-5']);
    });
  }

  for (const v of CLIENTS) {
    it(`fetch-failed / ${v.name}: the failed fetch (status null and its error) is NO_RESPONSE, transport layer, and the retry the app sent at once is its attempt 2`, async () => {
      const [first, retry] = calls(await runView('fetch-failed', v));
      expect([first!.outcome, first!.layer, first!.status]).toEqual(['NO_RESPONSE', 'transport', null]);
      expect([retry!.call, retry!.attempt]).toEqual([first!.call, 2]);
      expect(codesOf(retry!)).toContain('RETRY_ORIGIN_AMBIGUOUS'); // nothing in a logger's lines says who sent it
    });
  }

  // a property of the recording kept (a few recordings in ten or twenty show it), which the link above is tested on
  it("fetch-failed's exchange logger: the failed POST (ts in whole ms, durationMs a float) ends after the retry's logged start, by less than a millisecond", async () => {
    const lines = linesOf<{ ts: number; status: number | null; durationMs: number; send?: { method?: string } }>('fetch-failed', 'client-exchange.ndjson');
    const posts = lines.filter((l) => l.send?.method === 'tools/call');
    expect(posts[0]!.status).toBeNull();
    const over = posts[0]!.ts + posts[0]!.durationMs - posts[1]!.ts;
    expect(over).toBeGreaterThan(0);
    expect(over).toBeLessThan(1);
  });

  for (const v of VIEWS) {
    it(`sse-cut / ${v.name}: the cut stream is STREAM_INCOMPLETE with NO_FINAL_RESULT and CANCELLED (the SDK's timeout cancelled it); the app's retry of the destructive tool is UNSAFE_RETRY (it ran twice)`, async () => {
      expect(serverRan('sse-cut')).toEqual(['send_invoice A-7', 'send_invoice A-7']);
      const [first, retry] = calls(await runView('sse-cut', v));
      expect([first!.outcome, first!.layer]).toEqual(['STREAM_INCOMPLETE', 'transport']);
      expect(codesOf(first!)).toEqual(expect.arrayContaining(['NO_FINAL_RESULT', 'CANCELLED']));
      expect([retry!.call, retry!.attempt]).toEqual([first!.call, 2]);
      expect(codesOf(retry!)).toContain('UNSAFE_RETRY');
    });
  }

  it('slow-session: the exchange loggers write the GET stream at its end with its start time, 6 s back: put back in start order (its 6 s are waited for), no not-time-ordered diagnostic; the split logger has none', async () => {
    const back = (r: Awaited<ReturnType<typeof runView>>) => r.summary.diagnostics.byCode['not-time-ordered'] ?? 0;
    for (const v of ['client-exchange', 'server']) {
      const r = await runView('slow-session', view(v));
      expect(back(r)).toBe(0);
      expect(r.summary.inputs.every((i) => i.unordered !== true)).toBe(true);
    }
    expect(back(await runView('slow-session', view('client-split')))).toBe(0);
    expect(back(await runView('slow-session', view('server-split')))).toBe(0);
  });
});

describe('the command line on the pair', () => {
  it('hop-503: --client and --server, as ndjson: the 503 not seen by the server, the retry joined to the server\'s attempt; no line refused', () => {
    const run = triageCli<{ method: string; outcome: string; status: number | null; notSeenByServer?: boolean; serverOutcome?: string; attempt: number }>(['--client', f('hop-503', 'client-exchange.ndjson'), '--server', f('hop-503', 'server.ndjson')]);
    expect(run.unusable).toBe(0);
    expect(run.attempts.filter((a) => a.method === 'tools/call').map((a) => [a.status, a.outcome, a.notSeenByServer ?? false, a.serverOutcome ?? null, a.attempt])).toEqual([[503, 'HTTP_ERROR', true, null, 1], [200, 'TOOL_SUCCESS', false, 'TOOL_SUCCESS', 2]]);
  });
});
