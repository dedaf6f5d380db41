// Fifteenth audit, py- group: the Python SDK 2.3.0 client app with a user's own httpx2 transport logger (py_client_loggers.py, canonical exchange records) against the same SDK 1.32.2 server and its Express loggers, read three ways.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditKit, codesOf, toolCalls as calls, type View } from '../helpers/recordings.js';

interface Err { name: string; message: string; code?: number | string }
interface Step { label: string; ok?: { isError: boolean; text: string } | null; error?: Err }

const kit = auditKit<Step>('real-handlogs');
const { f, steps, serverRan, runView } = kit;
const scenarios = kit.scenarios.filter((s) => s.startsWith('py-'));

const VIEWS: View[] = [
  { name: 'py-client', inputs: [['py-client.ndjson', 'client']] },
  { name: 'py-client+server', inputs: [['py-client.ndjson', 'client'], ['server.ndjson', 'server']] },
  { name: 'py-client+server-split', inputs: [['py-client.ndjson', 'client'], ['server-split.ndjson', 'server']] },
];
const linesOf = <T>(s: string, file: string) => readFileSync(f(s, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);

/**
 * What the Python app got, as its call's outcome: a result or an isError result; the Python client throws an HTTP
 * error as an MCPError (-32001 "Session not found" from the 404's JSON body; -32603 "Server returned an error
 * response" for the hop's text/plain 503).
 */
function outcomeOf(st: Step): string {
  if (st.ok) return st.ok.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
  const e = st.error!;
  if (e.name === 'MCPError' && (e.message === 'Session not found' || e.message === 'Server returned an error response')) return 'HTTP_ERROR';
  return `unexpected ${e.name}: ${e.message}`;
}

describe('the Python client\'s logger, every recording, every view', () => {
  it('has the scenarios the recorder writes', () => {
    expect(scenarios).toEqual(['py-hop-503', 'py-session-lost', 'py-tool-error', 'py-tool-ok', 'py-unknown-tool']);
  });

  for (const s of scenarios) {
    for (const v of VIEWS) {
      it(`${s} / ${v.name}: no line refused; each tools/call has the outcome the app got, in order`, async () => {
        const r = await runView(s, v);
        expect(r.summary.lines.unusable).toBe(0);
        expect(r.summary.inputs[0]!.formats).toEqual({ canonical: linesOf(s, 'py-client.ndjson').length });
        const want = steps(s).map((st) => `${/^call (\w+)/.exec(st.label)![1]} ${outcomeOf(st)}`);
        expect(want.every((w) => !w.includes('unexpected'))).toBe(true);
        expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(want);
      });
    }
  }
});

describe('the lines as the Python logger wrote them', () => {
  it('the SDK closes each POST\'s SSE body once it has the answer, so the tee logs end "aborted" with the whole answer in recvText: read as the answer, no STREAM_INCOMPLETE', async () => {
    const lines = linesOf<{ method: string; ts: string; end?: string; recvText?: string; send?: { method?: string } }>('py-tool-ok', 'py-client.ndjson');
    const call = lines.find((l) => l.send?.method === 'tools/call')!;
    expect(call.end).toBe('aborted');
    expect(call.recvText).toMatch(/^event: message\ndata: \{"result":\{"content"/);
    expect(call.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/); // datetime.isoformat(): microseconds, +00:00
    for (const v of VIEWS) {
      const r = await runView('py-tool-ok', v);
      expect(calls(r).map((a) => [a.outcome, codesOf(a)])).toEqual([['TOOL_SUCCESS', []]]);
    }
  });

  it('the GET stream is written when it closes, with its start time (before the lines written ahead of it): every line read and used', async () => {
    const lines = linesOf<{ method: string; ts: string }>('py-tool-ok', 'py-client.ndjson');
    const get = lines.findIndex((l) => l.method === 'GET');
    expect(Date.parse(lines[get]!.ts)).toBeLessThan(Date.parse(lines[get - 1]!.ts));
    const r = await runView('py-tool-ok', VIEWS[0]!);
    expect(r.summary.lines).toMatchObject({ read: lines.length, used: lines.length, unusable: 0 });
  });
});

describe('what mcp-triage reports', () => {
  for (const v of VIEWS) {
    it(`py-session-lost / ${v.name}: the 404 after the restart is SESSION_EXPIRED, and the call on the new session is its attempt 2`, async () => {
      const r = await runView('py-session-lost', v);
      const [first, lost, again] = calls(r);
      expect(first!.outcome).toBe('TOOL_SUCCESS');
      expect([lost!.outcome, lost!.status]).toEqual(['HTTP_ERROR', 404]);
      expect(again!.call).toBe(lost!.call);
      expect(again!.attempt).toBe(2);
      expect(again!.session).not.toBe(lost!.session);
      expect(r.findings.map((x) => x.code)).toContain('SESSION_EXPIRED');
    });

    it(`py-hop-503 / ${v.name}: the 503 is HTTP_ERROR (transport), the retry attempt 2 of the same call; no UNSAFE_RETRY where the server's log proves the first never ran`, async () => {
      expect(serverRan('py-hop-503')).toEqual(['send_invoice A-5']);
      const r = await runView('py-hop-503', v);
      const [first, retry] = calls(r);
      expect([first!.outcome, first!.layer, first!.status]).toEqual(['HTTP_ERROR', 'transport', 503]);
      expect([retry!.call, retry!.attempt, retry!.outcome]).toEqual([first!.call, 2, 'TOOL_SUCCESS']);
      if (v.inputs.length === 2) expect(codesOf(retry!)).not.toContain('UNSAFE_RETRY');
    });

    it(`must not: py-tool-ok, py-tool-error and py-unknown-tool / ${v.name}: no finding on the calls (an isError result is the tool's answer)`, async () => {
      for (const s of ['py-tool-ok', 'py-tool-error', 'py-unknown-tool']) {
        const r = await runView(s, v);
        expect(calls(r).flatMap(codesOf)).toEqual([]);
        expect(r.findings).toEqual([]);
      }
    });
  }
});
