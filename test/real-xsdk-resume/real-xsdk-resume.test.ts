// SSE resumption across SDKs (test/fixtures/real-xsdk-resume, recorded by record.mjs): the Python 2.3.0 client against the SDK 1.32.2 server's event store and the SDK 1.32.2 and v2 2.4.0 clients against the Python server's, read five ways; expectations derived from what the app got (observed.json) and what the hop did.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allCodes, auditKit, codesOf, FIVE_VIEWS, toolCalls, type View } from '../helpers/recordings.js';

interface Step { label: string; ok?: { isError: boolean; text: string; progress: number[] }; error?: { name: string; message: string; code?: number | string } }
const { f, scenarios, steps, hop, runView } = auditKit<Step>('real-xsdk-resume');
const call = (s: string) => steps(s)[0]!;
/** The resumption GETs the hop refused (the views behind it never saw them). */
const refusedByHop = (s: string) => hop(s).filter((h) => h.request === 'GET' && h.action === 'respond').length;
/** The hop cut the call's stream just before its answer: the server, proxy and HAR saw the answer on the POST. */
const answerOnPost = (s: string, v: View) => /result-replayed|answer-cut-twice/.test(s) && !['client', 'both'].includes(v.name);
/** Behind the hop the answer passed (on the POST) though the client never got it. */
const answeredBehindHop = (s: string, v: View) => s.endsWith('answer-cut-twice') && !['client', 'both'].includes(v.name);
/** The lines of a view file that are requests carrying Last-Event-ID (1-based): a record's, or a HAR entry's. */
const resumptionLines = (s: string, file: string) => readFileSync(f(s, file), 'utf8').split('\n').flatMap((l, i) => ((file.endsWith('.har.ndjson') || /"kind":"request"/.test(l)) && /"last-event-id"/i.test(l) ? [i + 1] : []));

describe('every recording, every view', () => {
  it('has the scenarios the recorder writes', () => {
    expect(scenarios).toEqual(['py-ts-cut-resumed', 'py-ts-cut-twice', 'py-ts-restart', 'py-ts-result-replayed', 'py-ts-resume-503', 'ts-py-answer-cut-twice', 'ts-py-cut-resumed', 'ts-py-cut-twice', 'ts-py-restart', 'ts-py-result-replayed', 'ts-py-resume-503', 'v2-py-answer-cut-twice', 'v2-py-cut-twice', 'v2-py-restart', 'v2-py-result-replayed']);
  });

  for (const s of scenarios) {
    for (const v of FIVE_VIEWS) {
      it(`${s} / ${v.name}: one tools/call, with the outcome the app got; resumed when the answer came on a GET in this view`, async () => {
        const r = await runView(s, v);
        expect(r.summary.inputs.every((i) => i.unusable === 0)).toBe(true);
        const [a, ...more] = toolCalls(r);
        expect(more).toEqual([]);
        const got = call(s);
        expect(a!.outcome).toBe(got.ok || answeredBehindHop(s, v) ? (got.ok?.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS') : 'STREAM_INCOMPLETE');
        expect(!!a!.resumed).toBe(!!got.ok && !answerOnPost(s, v));
        // No GET is an attempt of its own (the standalone stream's nor a resumption's).
        expect(r.attempts.every((x) => x.method !== undefined)).toBe(true);
      });
    }
  }

  for (const s of scenarios) {
    for (const v of FIVE_VIEWS.filter((x) => x.name !== 'both')) {
      it(`${s} / ${v.name}: every GET with Last-Event-ID in the log is among the call's sources`, async () => {
        const [file] = v.inputs[0]!;
        const [a] = toolCalls(await runView(s, v));
        const lines = a!.sources.filter((x) => x.file.endsWith(`/${s}/${file}`)).map((x) => x.line);
        const gets = resumptionLines(s, file);
        if (!s.endsWith('resume-503') || !['server', 'proxy', 'har'].includes(v.name)) expect(gets.length).toBeGreaterThan(0);
        for (const l of gets) expect(lines).toContain(l);
      });
    }
  }
});

describe('a cut stream resumed and answered', () => {
  for (const s of scenarios.filter((x) => /cut-resumed|cut-twice|result-replayed/.test(x) && !x.includes('answer-cut'))) {
    it(`${s}: what happened: the app got the tool's result and all three progress notifications`, () => {
      expect(call(s).ok).toMatchObject({ isError: false, progress: [1, 2, 3] });
    });
    for (const v of FIVE_VIEWS) {
      it(`must not: ${s} / ${v.name}: no finding (no ORPHAN_RESPONSE for the answer on the GET, no GET_STREAM_REFUSED, no PROGRESS_UNMATCHED for replayed progress)`, async () => {
        expect(allCodes(await runView(s, v))).toEqual([]);
      });
    }
  }
});

describe('the resumption refused by a hop (503)', () => {
  it('what happened: the Python client gave up after 2 tries; the SDK 1.32.2 client (maxRetries 1) after 1, then its own timeout', () => {
    expect(call('py-ts-resume-503').error).toMatchObject({ message: 'SSE stream ended and reconnection attempts were exhausted', code: -32000 });
    expect(refusedByHop('py-ts-resume-503')).toBe(2);
    expect(call('ts-py-resume-503').error).toMatchObject({ code: -32001, message: 'MCP error -32001: Request timed out' });
    expect(refusedByHop('ts-py-resume-503')).toBe(1);
  });
  for (const s of ['py-ts-resume-503', 'ts-py-resume-503']) {
    for (const v of FIVE_VIEWS) {
      it(`${s} / ${v.name}: NO_FINAL_RESULT${v.name === 'client' || v.name === 'both' ? ' naming the refused resumptions' : ''}; no GET_STREAM_REFUSED, no SESSION_EXPIRED`, async () => {
        const r = await runView(s, v);
        const [a] = toolCalls(r);
        expect(codesOf(a!)).toContain('NO_FINAL_RESULT');
        expect(r.findings).toEqual([]);
        if (v.name === 'client' || v.name === 'both') {
          const n = refusedByHop(s);
          expect(a!.findings.find((x) => x.code === 'NO_FINAL_RESULT')!.message).toContain(`the client tried to resume it ${n === 1 ? 'once' : `${n} times`} (GET with Last-Event-ID), answered ${Array(n).fill('HTTP 503').join(', ')}, and none delivered it`);
        }
      });
    }
  }
});

describe('the answer cut on the call\'s stream and again on its resumption, which carried no event (no progress token)', () => {
  it('what happened: the SDK 1.32.2 and v2 2.4.0 clients reconnected with a plain GET (no Last-Event-ID), which the Python server refused with 409 (it holds the standalone stream); the call timed out', () => {
    expect(call('ts-py-answer-cut-twice').error).toMatchObject({ code: -32001 });
    expect(call('v2-py-answer-cut-twice').error).toMatchObject({ name: 'SdkError', code: 'REQUEST_TIMEOUT' });
  });
  for (const s of ['ts-py-answer-cut-twice', 'v2-py-answer-cut-twice']) {
    for (const v of FIVE_VIEWS) {
      // Behind the hop (server, proxy, HAR) the resumption carried the answer, so the plain GET after it is not read as
      // that reconnect: the 409 is told as a standalone stream the server still holds (a limit of those views).
      const front = v.name === 'client' || v.name === 'both';
      it(`${s} / ${v.name}: GET_STREAM_REFUSED ${front ? "says the 409 was the SDK reconnecting the call's stream without Last-Event-ID; NO_FINAL_RESULT says so too" : '(409)'}`, async () => {
        const r = await runView(s, v);
        expect(r.findings.map((x) => [x.code, x.message])).toEqual([['GET_STREAM_REFUSED', expect.stringContaining(front ? 'the client reconnected that stream without Last-Event-ID (it had no event id of it; the TypeScript SDK, 1.x and v2, does so)' : 'HTTP 409 to the client\'s GET stream (saying "Conflict: Only one SSE stream is allowed per session")')]]);
        if (front) {
          const [a] = toolCalls(r);
          expect(a!.findings.find((x) => x.code === 'NO_FINAL_RESULT')!.message).toContain('so the client reconnected without Last-Event-ID (it had no event id of that stream: the TypeScript SDK, 1.x and v2, does so), a plain GET for the session\'s standalone stream, answered HTTP 409');
        }
      });
    }
  }
});

describe('the server restarted as the resumption came (sessions and event store gone)', () => {
  it('what happened: the resumption got 404; the Python client gave up, the SDK 1.32.2 client timed out', () => {
    expect(call('py-ts-restart').error).toMatchObject({ message: 'SSE stream ended and reconnection attempts were exhausted' });
    expect(call('ts-py-restart').error).toMatchObject({ code: -32001 });
    expect(call('v2-py-restart').error).toMatchObject({ code: 'REQUEST_TIMEOUT' });
  });
  for (const s of ['py-ts-restart', 'ts-py-restart', 'v2-py-restart']) {
    for (const v of FIVE_VIEWS) {
      it(`${s} / ${v.name}: NO_FINAL_RESULT, and SESSION_EXPIRED names the resuming GET (not the Python client's closing DELETE)`, async () => {
        const r = await runView(s, v);
        expect(codesOf(toolCalls(r)[0]!)).toContain('NO_FINAL_RESULT');
        expect(r.findings.map((x) => [x.code, x.message])).toEqual([['SESSION_EXPIRED', expect.stringContaining("HTTP 404 to a GET resuming a call's stream (Last-Event-ID), which carried the session id")]]);
      });
    }
  }
});
