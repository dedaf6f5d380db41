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
/** The hop cut the POST just before the answer, which the views behind it saw, and no replay carried it. */
const answerBehindHop = (s: string, v: View) => /answer-dropped|same-ms/.test(s) && behindHop(v);
/**
 * The recording's own facts on the answer's event id (its first record in the server's log) and the client's
 * Last-Event-ID: both `<stream>_<ms>_<random>` in the same millisecond, the answer's sorting before (localeCompare, as
 * the SDK's InMemoryEventStore sorts).
 */
const answerSortsBefore = (s: string) => {
  const answer = readFileSync(f(s, 'server.ndjson'), 'utf8').split('\n').map((l) => (l ? JSON.parse(l) : {})).find((r) => r.kind === 'event' && /"result":\{"content"/.test(r.data ?? ''))!.id as string;
  const from = /"last-event-id":"([^"]+)"/.exec(readFileSync(f(s, 'client.ndjson'), 'utf8'))![1]!;
  const ms = (id: string) => id.split('_').slice(0, 2).join('_');
  return { answer, from, inverted: ms(answer) === ms(from) && answer.localeCompare(from) < 0 };
};
/** What SIDE_DIVERGENCE adds when the answer's id sorts before the Last-Event-ID in the same millisecond. */
const SORTED = 'of the form the TypeScript SDK\'s InMemoryEventStore makes, in the same millisecond as the Last-Event-ID';

describe('every recording, every view', () => {
  it('has the scenarios the recorder writes', () => {
    expect(scenarios).toEqual([...[...LOSSY, 'memory-same-ms', 'memory-reordered'].flatMap((x) => [`ts-${x}`, `v2-${x}`]), 'v2-ts-cut-resumed', 'v2-ts-cut-twice', 'v2-ts-restart', 'v2-ts-result-replayed', 'v2-ts-resume-503'].sort());
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
      // (The recorder repeats result-replayed until the answer's id does not sort before the Last-Event-ID.)
      if (s.endsWith('result-replayed')) expect(answerSortsBefore(s).inverted).toBe(false);
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
            const msg = a!.findings[0]!.message;
            expect(msg).toMatch(new RegExp(`the client then resumed that stream from an event before the response \\(GET with Last-Event-ID at [^ ]*/${s}/${v.inputs[0]![0].replace(/\./g, '\\.')}:${gets[0]}: it had not got it\\), answered HTTP 200 with no event for \\d+\\.\\d\\d s, until it was aborted, which replayed no response: the server sent a final result the client never got`));
            // (In ts-answer-dropped the answer's id also sorts before the last progress event's: the SDK's own store would have left it out too.)
            expect(msg.includes(SORTED)).toBe(answerSortsBefore(s).inverted);
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
          expect(msg).not.toMatch(/and sent no notifications\/cancelled; 2 SSE events came before that\)/);
          expect(r.findings).toEqual([]);
          expect(allCodes(r).filter((k) => !['NO_FINAL_RESULT', 'CANCELLED', 'SIDE_DIVERGENCE'].includes(k))).toEqual([]);
          expect(allCodes(r).includes('SIDE_DIVERGENCE')).toBe(s.endsWith('answer-dropped') && v.name === 'both');
        });
      }
    }
  }
});

describe('the SDK\'s InMemoryEventStore leaving out an answer stored in the same millisecond as the event before it (SDK 1.32.2 and v2 clients)', () => {
  for (const s of ['ts-memory-same-ms', 'v2-memory-same-ms']) {
    it(`${s}: what happened: the stream cut just before the answer, the resumption replayed nothing and the call timed out; the answer's id sorts before the Last-Event-ID in the same millisecond`, () => {
      expect(call(s).error).toMatchObject(s.startsWith('ts') ? { code: -32001 } : { code: 'REQUEST_TIMEOUT' });
      expect(serverRan(s)).toEqual(['quick_report 3x300', 'quick_report done']);
      expect(answerSortsBefore(s).inverted).toBe(true);
      expect(onerrors(s).some((e) => /reconnect/i.test(e))).toBe(false);
    });
    for (const v of FIVE_VIEWS) {
      const front = !behindHop(v);
      it(`${s} / ${v.name}: ${front ? 'NO_FINAL_RESULT naming the empty resumption and the store\'s order' : ''}${v.name === 'client' ? '' : `${front ? '; ' : ''}SIDE_DIVERGENCE naming the ids' order`}; no session finding`, async () => {
        const r = await runView(s, v);
        expect(r.findings).toEqual([]);
        const [a] = toolCalls(r);
        if (front) expect(await noFinal(s, v)).toMatch(/answered HTTP 200 with no event for \d+\.\d\d s, until it was aborted, and none delivered it; .*or had the events after it in another order \(that store replays the ids that sort after it, and one stored in the same millisecond sorts by a random part\)/);
        const side = a!.findings.filter((x) => x.code === 'SIDE_DIVERGENCE');
        if (v.name === 'client') expect(side).toEqual([]);
        else {
          const { answer, from } = answerSortsBefore(s);
          expect(side.map((x) => x.message)).toEqual([expect.stringContaining(`; the response's event id (${JSON.stringify(answer.slice(-40))}) is ${SORTED} (${JSON.stringify(from.slice(-40))}) and sorting before it: that store replays the events whose ids sort after the Last-Event-ID, so it never replays this response`)]);
        }
      });
    }
  }

  it('must not: where the answer\'s id sorts after the Last-Event-ID (v2-answer-dropped, a store that dropped the stream), SIDE_DIVERGENCE does not blame the order', async () => {
    expect(answerSortsBefore('v2-answer-dropped').inverted).toBe(false);
    for (const v of FIVE_VIEWS.filter((x) => x.name !== 'client')) {
      const msgs = toolCalls(await runView('v2-answer-dropped', v))[0]!.findings.filter((x) => x.code === 'SIDE_DIVERGENCE').map((x) => x.message);
      expect(msgs).toHaveLength(1);
      expect(msgs[0]).not.toContain(SORTED);
    }
  });
});

describe('the SDK\'s InMemoryEventStore replaying the answer before the last progress event of its millisecond (SDK 1.32.2 and v2 clients)', () => {
  /** The resumption's events in the client's log, in order: what each carried, and its id. */
  const replayed = (s: string) => readFileSync(f(s, 'client.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((r) => r.kind === 'event' && r.id?.includes('_')).slice(-2).map((r) => ({ id: r.id as string, answer: /"result"/.test(r.data) }));
  for (const s of ['ts-memory-reordered', 'v2-memory-reordered']) {
    it(`${s}: what happened: the call answered, progress 3 came after the answer on the resumption and the client dropped it ("unknown token"); the two ids are of one millisecond, the answer's sorting first`, () => {
      expect(call(s).ok).toMatchObject({ isError: false, progress: [1, 2] });
      expect(onerrors(s).filter((e) => e.startsWith('Received a progress notification for an unknown token') && e.includes('"progress":3'))).toHaveLength(1);
      const [a, b] = replayed(s);
      expect([a!.answer, b!.answer]).toEqual([true, false]);
      expect(a!.id.split('_').slice(0, 2)).toEqual(b!.id.split('_').slice(0, 2));
      expect(a!.id.localeCompare(b!.id)).toBeLessThan(0);
    });
    for (const v of FIVE_VIEWS) {
      it(`${s} / ${v.name}: TOOL_SUCCESS resumed, and PROGRESS_UNMATCHED saying the resumption replayed the stream out of order; nothing else`, async () => {
        const r = await runView(s, v);
        expect(toolCalls(r)[0]!.findings).toEqual([]);
        expect(r.attempts.flatMap((x) => x.findings)).toEqual([]);
        expect(r.findings.map((x) => [x.code, x.message])).toEqual([['PROGRESS_UNMATCHED', expect.stringMatching(/notifications\/progress for token 1 came (in the same millisecond as, and after,|\d+ ms after) the response to tools\/call id 1 \(quick_report, .*; it came on a resumption \(GET with Last-Event-ID\) after the response that resumption replayed: the server's event store replayed the stream out of order/)]]);
      });
    }
  }
});
