// The fourteenth audit (test/fixtures/real-audit14, recorded by record.mjs): the v2 client 2.4.0 against the SDK 1.32.2 server's event store, and the SDK 1.32.2 and v2 clients against event stores that lose events while the session lives, read five ways; expectations derived from what the app got (observed.json) and what the hop did.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allCodes, auditKit, behindHop, codesOf, FIVE_VIEWS, toolCalls, type View } from '../helpers/recordings.js';

interface Step { label: string; ok?: { isError: boolean; text: string; progress: number[] }; error?: { name: string; message: string; code?: number | string } }
const { f, scenarios, steps, hop, observed, serverRan, runView } = auditKit<Step>('real-audit14');
const call = (s: string) => steps(s)[0]!;
/** What the app's client reported to its onerror handler. */
const onerrors = (s: string) => observed(s).flatMap((x) => (typeof x.onerror === 'string' ? [x.onerror] : []));
/** The lines of a view file that are requests carrying Last-Event-ID (1-based): a record's, or a HAR entry's. */
const resumptionLines = (s: string, file: string) => readFileSync(f(s, file), 'utf8').split('\n').flatMap((l, i) => ((file.endsWith('.har.ndjson') || /"kind":"request"/.test(l)) && /"last-event-id"/i.test(l) ? [i + 1] : []));
const noFinal = async (s: string, v: View) => toolCalls(await runView(s, v))[0]!.findings.find((x) => x.code === 'NO_FINAL_RESULT')?.message ?? '';
const LOSSY = ['evicted', 'evicted-400', 'replay-throws', 'answer-dropped'];
/** The store dropped the stream when its answer was stored: the hop cut the POST just before the answer, which the views behind it saw. */
const answerBehindHop = (s: string, v: View) => s.endsWith('answer-dropped') && behindHop(v);

describe('every recording, every view', () => {
  it('has the scenarios the recorder writes', () => {
    expect(scenarios).toEqual([...LOSSY.flatMap((x) => [`ts-${x}`, `v2-${x}`]), 'v2-ts-cut-resumed', 'v2-ts-cut-twice', 'v2-ts-restart', 'v2-ts-result-replayed', 'v2-ts-resume-503'].sort());
  });

  for (const s of scenarios) {
    for (const v of FIVE_VIEWS) {
      it(`${s} / ${v.name}: one tools/call, with the outcome the app got (behind the hop, what the server sent); resumed when the answer came on a GET in this view`, async () => {
        const r = await runView(s, v);
        expect(r.summary.inputs.every((i) => i.unusable === 0)).toBe(true);
        const [a, ...more] = toolCalls(r);
        expect(more).toEqual([]);
        const got = call(s);
        expect(a!.outcome).toBe(got.ok || answerBehindHop(s, v) ? 'TOOL_SUCCESS' : 'STREAM_INCOMPLETE');
        expect(!!a!.resumed).toBe(!!got.ok && !(s.endsWith('result-replayed') && behindHop(v)));
        expect(r.attempts.every((x) => x.method !== undefined)).toBe(true);
      });
    }
    for (const v of FIVE_VIEWS.filter((x) => x.name !== 'both')) {
      it(`${s} / ${v.name}: every GET with Last-Event-ID in the log is among the call's sources`, async () => {
        const [file] = v.inputs[0]!;
        const [a] = toolCalls(await runView(s, v));
        const lines = a!.sources.filter((x) => x.file.endsWith(`/${s}/${file}`)).map((x) => x.line);
        const gets = resumptionLines(s, file);
        if (!(s.endsWith('resume-503') && behindHop(v))) expect(gets.length).toBeGreaterThan(0);
        for (const l of gets) expect(lines).toContain(l);
      });
    }
  }
});

describe('the v2 client 2.4.0 against the SDK 1.32.2 server\'s InMemoryEventStore: a cut stream resumed and answered', () => {
  for (const s of ['v2-ts-cut-resumed', 'v2-ts-cut-twice', 'v2-ts-result-replayed']) {
    it(`${s}: what happened: the app got the tool's result and all three progress notifications`, () => {
      expect(call(s).ok).toMatchObject({ isError: false, progress: [1, 2, 3] });
      expect(onerrors(s)).toEqual([]);
    });
    for (const v of FIVE_VIEWS) {
      it(`must not: ${s} / ${v.name}: no finding (no ORPHAN_RESPONSE for the replayed answer, no PROGRESS_UNMATCHED for replayed progress, no GET_STREAM_REFUSED)`, async () => {
        expect(allCodes(await runView(s, v))).toEqual([]);
      });
    }
  }
});

describe('the v2 client: its resumption refused (503), the server restarted (404)', () => {
  it('what happened: one resumption (maxRetries 1), then the call\'s own timeout; after the restart its standalone GET was reconnected too and got 404', () => {
    expect(call('v2-ts-resume-503').error).toMatchObject({ name: 'SdkError', code: 'REQUEST_TIMEOUT' });
    expect(hop('v2-ts-resume-503').filter((h) => h.request === 'GET' && h.action === 'respond')).toHaveLength(1);
    expect(call('v2-ts-restart').error).toMatchObject({ name: 'SdkError', code: 'REQUEST_TIMEOUT' });
    expect(onerrors('v2-ts-restart').filter((e) => e === 'Failed to open SSE stream: Not Found')).toHaveLength(2);
    expect(serverRan('v2-ts-restart')).toEqual(['slow_report 3x300', 'slow_report aborted']);
  });
  for (const v of FIVE_VIEWS) {
    it(`v2-ts-resume-503 / ${v.name}: NO_FINAL_RESULT${behindHop(v) ? '' : ' naming the refused resumption'}; no session finding`, async () => {
      const r = await runView('v2-ts-resume-503', v);
      expect(codesOf(toolCalls(r)[0]!)).toContain('NO_FINAL_RESULT');
      expect(r.findings).toEqual([]);
      if (!behindHop(v)) expect(await noFinal('v2-ts-resume-503', v)).toContain('the client tried to resume it once (GET with Last-Event-ID), answered HTTP 503, and none delivered it');
    });
    it(`v2-ts-restart / ${v.name}: NO_FINAL_RESULT naming the resumption's 404, and SESSION_EXPIRED (the standalone GET's 404 came after it)`, async () => {
      const r = await runView('v2-ts-restart', v);
      expect(await noFinal('v2-ts-restart', v)).toContain('answered HTTP 404, and none delivered it');
      expect(r.findings.map((x) => [x.code, x.message])).toEqual([['SESSION_EXPIRED', expect.stringContaining('HTTP 404 to the GET stream, which carried the session id')]]);
    });
  }
});

describe('an event store that loses events while the session lives (SDK 1.32.2 server; SDK 1.32.2 and v2 clients)', () => {
  it('what happened: the resumption was answered (200 with an empty stream kept open, 400, 500) and the call waited for its own timeout', () => {
    for (const c of ['ts', 'v2']) {
      for (const x of LOSSY) {
        expect(call(`${c}-${x}`).error).toMatchObject(c === 'ts' ? { code: -32001 } : { code: 'REQUEST_TIMEOUT' });
        expect(hop(`${c}-${x}`).filter((h) => h.request === 'GET').map((h) => h.action)).toEqual(['forward', 'forward']);
        expect(serverRan(`${c}-${x}`)).toEqual(['slow_report 3x300', 'slow_report done']);
      }
      // A refused resumption is told to onerror (once, maxRetries 1); the empty one never is.
      expect(onerrors(`${c}-evicted-400`)).toContain('Maximum reconnection attempts (1) exceeded.');
      expect(onerrors(`${c}-replay-throws`)).toContain('Maximum reconnection attempts (1) exceeded.');
      expect(onerrors(`${c}-evicted`).some((e) => /reconnect/i.test(e))).toBe(false);
      expect(onerrors(`${c}-answer-dropped`).some((e) => /reconnect/i.test(e))).toBe(false);
    }
  });

  for (const c of ['ts', 'v2']) {
    for (const x of LOSSY) {
      const s = `${c}-${x}`;
      for (const v of FIVE_VIEWS) {
        if (answerBehindHop(s, v)) {
          // Behind the hop the answer went out on the POST; then the client's GET resumed from the event before it and
          // replayed nothing. Before the fix this view was a clean TOOL_SUCCESS.
          it(`${s} / ${v.name}: TOOL_SUCCESS, as the server wrote it, with SIDE_DIVERGENCE: the client resumed from before the answer and nothing replayed it`, async () => {
            const r = await runView(s, v);
            expect(allCodes(r)).toEqual(['SIDE_DIVERGENCE']);
            const [a] = toolCalls(r);
            const gets = resumptionLines(s, v.inputs[0]![0]);
            expect(a!.findings[0]!.message).toMatch(new RegExp(`the client then resumed that stream from an event before the response \\(GET with Last-Event-ID at [^ ]*/${s}/${v.inputs[0]![0].replace(/\./g, '\\.')}:${gets[0]}: it had not got it\\), answered HTTP 200 with no event for \\d+\\.\\d\\d s, until it was aborted, which replayed no response: the server sent a final result the client never got$`));
          });
          continue;
        }
        const empty = x === 'evicted' || x === 'answer-dropped';
        it(`${s} / ${v.name}: NO_FINAL_RESULT naming the resumption's ${empty ? 'empty 200 and a store that no longer had the id' : x === 'evicted-400' ? '400' : '500'}; no session finding`, async () => {
          const r = await runView(s, v);
          const msg = await noFinal(s, v);
          expect(msg).toContain('the client tried to resume it once (GET with Last-Event-ID), answered ');
          if (empty) {
            expect(msg).toMatch(/answered HTTP 200 with no event for \d+\.\d\d s, until it was aborted, and none delivered it/);
            expect(msg).toContain("the server's event store no longer had that id");
          } else {
            expect(msg).toContain(`answered HTTP ${x === 'evicted-400' ? 400 : 500}, and none delivered it`);
            expect(msg).not.toMatch(/with no event|no longer had that id/);
          }
          // Before the fix the proxy's log (the hop closed the POST as its client) named no resumption at all.
          expect(msg).not.toMatch(/and sent no notifications\/cancelled; 2 SSE event\(s\) came before that\)/);
          expect(r.findings).toEqual([]);
          expect(allCodes(r).filter((k) => !['NO_FINAL_RESULT', 'CANCELLED', 'SIDE_DIVERGENCE'].includes(k))).toEqual([]);
          expect(allCodes(r).includes('SIDE_DIVERGENCE')).toBe(s.endsWith('answer-dropped') && v.name === 'both');
        });
      }
    }
  }
});
