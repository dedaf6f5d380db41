// A hand-written Express server answers tools/call with res.send(JSON.stringify(reply)): Content-Type text/html
// (test/fixtures/real-content-type). The SDK clients refused the body unread (observed.json); what mcp-triage must say
// in each view. node test/real-content-type/record.mjs re-records them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordingRunner, type RecordingView as View } from '../helpers/triage-cli.js';

const DIR = fileURLToPath(new URL('../fixtures/real-content-type/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt { method: string; status: number | null; outcome: string; layer: string; serverOutcome?: string; detail?: { why?: string }; findings: Finding[] }
interface Observed { steps: { step: string; ok: boolean; error?: { name: string; message: string } }[] }

const run = recordingRunner<Attempt, Finding>(DIR);
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;

describe('a 200 whose Content-Type is neither application/json nor text/event-stream', () => {
  it.each(['ts', 'py'])('%s: the client refused the body ("Unexpected content type"); the call is STREAM_INCOMPLETE with NO_FINAL_RESULT in every view, the JSON answers a success', (s) => {
    const call = observed(s).steps.find((x) => x.step === 'call lookup')!;
    expect(call).toMatchObject({ ok: false, error: { message: expect.stringContaining('Unexpected content type: text/html; charset=utf-8') } });
    for (const view of ['both', 'client', 'server'] as View[]) {
      const r = run(s, view);
      expect(r.unusable, view).toBe(0);
      expect(r.attempts.map((a) => `${a.method} ${a.status} ${a.outcome}`), view).toEqual(['initialize 200 SUCCESS', 'tools/list 200 SUCCESS', 'tools/call 200 STREAM_INCOMPLETE']);
      const a = r.attempts[2]!;
      expect(a.layer).toBe('transport');
      expect(a.detail?.why, view).toMatch(/^the SDK clients take no response from it: its Content-Type "text\/html; charset=utf-8" is neither application\/json nor text\/event-stream, so they refuse the body unread .*though the body holds a response$/);
      expect(a.findings.map((f) => f.code), view).toEqual(['NO_FINAL_RESULT']);
      expect(a.findings[0]!.message, view).toMatch(/^tools\/call lookup id \d+: HTTP 200 text\/html but no JSON-RPC response for it, so 200 is not success: the SDK clients take no response from it/);
      if (view === 'both') expect(a.serverOutcome).toBe('STREAM_INCOMPLETE');
      expect(r.findings, view).toEqual([]);
    }
  });
  it('ts-sse-event: the answer came in an SSE event named "result", which the SDK client ignored until its timeout; the why names the event', () => {
    expect(observed('ts-sse-event').steps[1]).toMatchObject({ step: 'call lookup', ok: false, error: { code: -32001 } });
    for (const view of ['both', 'client', 'server'] as View[]) {
      const a = run('ts-sse-event', view).attempts.find((x) => x.method === 'tools/call')!;
      expect(a.outcome, view).toBe('STREAM_INCOMPLETE');
      expect(a.detail?.why, view).toMatch(/^SSE stream ended after 1 event without the response; an event of type "result" carried the response, but SSE clients take only "message" events \(the MCP SDKs ignore the others\): the server named the event wrongly$/);
      expect(a.findings.map((f) => f.code), view).toContain('NO_FINAL_RESULT');
    }
  });
});
