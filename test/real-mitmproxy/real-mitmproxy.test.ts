// The analyzer on captures of a REAL mitmproxy (8.1.1, Debian bookworm) recorded by test/real-mitmproxy/record.mjs into
// test/fixtures/real-mitmproxy/<scenario>/: the SDK 1.32.2 client and server on 127.0.0.1 with mitmdump in between as a
// reverse proxy. capture.har is what mitmproxy's HAR exporter of that version (examples/contrib/har_dump.py) wrote at
// shutdown, capture.har.ndjson its entries one per line (jq -c '.log.entries[]'), addon-entries.ndjson the same flows
// written by har_lines.py (mitmproxy's flow API, the entry shape of mitmproxy 10+'s exporter, error flows included),
// client.ndjson / server.ndjson the SDK ends' own views. Expectations come from observed.json (what each SDK caller
// got), never from the tool's output; where a mitmproxy HAR cannot show what the caller saw, the test says so.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, type AnalysisResult, type AttemptRow } from '../../src/index.js';
import { toolCalls as calls } from '../helpers/recordings.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'real-mitmproxy');
const f = (s: string, file: string) => join(FIXTURES, s, file);

type Step = { step?: string; ok?: boolean; isError?: boolean; error?: { name: string; message: string; code?: number; cause?: string }; progressSeen?: unknown[]; logsSeen?: unknown[] };
type Observed = { mitmproxy: string; exporter: string; streaming: string | false; steps: Step[] };
const observed = (s: string) => JSON.parse(readFileSync(f(s, 'observed.json'), 'utf8')) as Observed;
type Entry = { startedDateTime: string; request: { method: string; postData?: { text: string | null } }; response: { status: number; _error?: string; content: { size: number; text?: string | null } }; timings: Record<string, number | null> };
const har = (s: string) => JSON.parse(readFileSync(f(s, 'capture.har'), 'utf8')) as { log: { creator: { name: string; version: string; comment: string }; entries: Entry[] } };
const addonEntries = (s: string) => readFileSync(f(s, 'addon-entries.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Entry);

const alone = (s: string, file = 'capture.har') => analyze({ inputs: [{ path: f(s, file) }] });
const joined = (s: string, file = 'capture.har') => analyze({ inputs: [{ path: f(s, file), side: 'client' }, { path: f(s, 'server.ndjson'), side: 'server' }] });
const serverAlone = (s: string) => analyze({ inputs: [{ path: f(s, 'server.ndjson'), side: 'server' }] });

const codes = (a: AttemptRow | undefined) => (a?.findings ?? []).map((x) => x.code).sort();
const allCodes = (r: AnalysisResult) => [...r.attempts.flatMap((a) => codes(a)), ...r.findings.map((x) => x.code)];
const toolSteps = (s: string) => observed(s).steps.filter((x) => x.step !== undefined && x.step !== 'tools/list');

/** What the SDK caller got, as the outcome a wire-level view must show: a result, an isError result, a JSON-RPC error, an HTTP status. */
function outcomeOf(step: Step): string {
  if (step.ok) return step.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
  if (step.error?.name === 'McpError' && step.error.code !== -32001) return 'JSONRPC_ERROR';
  if (step.error?.name === 'StreamableHTTPError') return `HTTP_ERROR ${step.error.code}`;
  return `no answer (${step.error?.message})`;
}
const row = (a: AttemptRow) => (a.outcome === 'HTTP_ERROR' ? `HTTP_ERROR ${a.status}` : a.outcome);

describe('real-mitmproxy: what mitmproxy 8.1.1 and its har_dump.py wrote', () => {
  it('the creator, +00:00 times with microseconds, timings without blocked/dns, and those times read to the millisecond', async () => {
    const doc = har('healthy-sse');
    expect(observed('healthy-sse').mitmproxy).toMatch(/8\.1\.1/);
    expect(doc.log.creator).toEqual({ name: 'mitmproxy har_dump', version: '0.1', comment: expect.stringMatching(/mitmproxy 8\.1\.1/) });
    for (const e of doc.log.entries) {
      expect(e.startedDateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
      expect(Object.keys(e.timings).sort()).toEqual(['connect', 'receive', 'send', 'ssl', 'wait']);
    }
    const r = await alone('healthy-sse');
    expect(r.attempts[0]!.ts).toBe(new Date(doc.log.entries[0]!.startedDateTime).toISOString());
  });

  it('buffered (the default): no entry for the GET stream, which never ended; the addon, which also writes failed flows, has it as "Client disconnected."', () => {
    for (const s of ['healthy-sse', 'healthy-json', 'get-stream', 'client-timeout']) {
      expect(har(s).log.entries.filter((e) => e.request.method === 'GET'), s).toEqual([]);
      const gets = addonEntries(s).filter((e) => e.request.method === 'GET');
      expect(gets.map((e) => [e.response.status, e.response._error, e.response.content.text]), s).toEqual([[200, 'Client disconnected.', null]]);
    }
  });

  it('streaming on (stream_large_bodies=1): har_dump.py failed on every flow (the request is streamed too) and wrote an empty HAR', async () => {
    for (const s of ['streaming', 'get-stream-streaming']) {
      expect(observed(s).streaming).toBe('stream_large_bodies=1');
      expect(har(s).log.entries).toEqual([]);
      expect(readFileSync(f(s, 'mitmdump.log'), 'utf8')).toMatch(/har_dump\.py", line \d+, in response[\s\S]*TypeError: object of type 'NoneType' has no len\(\)/);
      const r = await alone(s);
      expect(r.attempts).toEqual([]);
      expect(r.summary.inputs[0]!.cannotShow.join(' ')).toMatch(/har_dump\.py writes a flow only when its response ended/);
      // What the callers got happened all the same: the server's own view shows each call.
      expect(calls(await serverAlone(s)).map(row)).toEqual(toolSteps(s).map(outcomeOf));
    }
  });
});

describe('real-mitmproxy: outcomes per call against what the caller got', () => {
  it('healthy-sse and healthy-json: a result, an isError result, a JSON-RPC error (and progress), from every view', async () => {
    for (const s of ['healthy-sse', 'healthy-json']) {
      const want = toolSteps(s).map(outcomeOf);
      expect(want).toEqual(s === 'healthy-sse' ? ['TOOL_SUCCESS', 'TOOL_ERROR', 'JSONRPC_ERROR', 'TOOL_SUCCESS'] : ['TOOL_SUCCESS', 'TOOL_ERROR', 'JSONRPC_ERROR']);
      for (const r of [await alone(s), await alone(s, 'capture.har.ndjson'), await alone(s, 'addon-entries.ndjson'), await joined(s)]) {
        expect(calls(r).map(row), s).toEqual(want);
        expect(allCodes(r), s).toEqual([]);
      }
    }
    // Buffered: the three progress notifications reached the caller, all at the stream's end, and the HAR holds them.
    const progress = observed('healthy-sse').steps.find((x) => x.progressSeen)!.progressSeen!;
    const report = calls(await alone('healthy-sse')).find((a) => a.tool === 'build_report')!;
    expect(report.sse?.progress).toBe(progress.length);
  });

  it('gzip (a hop behind mitmproxy compresses every body): the text is kept decoded, content.size is the compressed length', async () => {
    type Gz = Entry & { response: { headers: { name: string; value: string }[]; content: { compression: number } } };
    const gz = (har('gzip').log.entries as Gz[]).filter((e) => e.response.headers.some((h) => h.name.toLowerCase() === 'content-encoding' && h.value === 'gzip'));
    expect(gz.length).toBeGreaterThan(0);
    for (const e of gz) expect(e.response.content.size + e.response.content.compression).toBe(Buffer.byteLength(e.response.content.text!));
    for (const r of [await alone('gzip'), await joined('gzip')]) {
      expect(calls(r).map(row)).toEqual(toolSteps('gzip').map(outcomeOf));
      expect(allCodes(r)).toEqual([]);
    }
  });

  it('zhar (--set hardump=capture.zhar): the zlib-compressed HAR is read as the document it holds', async () => {
    expect(readFileSync(f('zhar', 'capture.zhar')).subarray(0, 2)).toEqual(Buffer.from([0x78, 0xda]));
    for (const r of [await alone('zhar', 'capture.zhar'), await joined('zhar', 'capture.zhar')]) {
      expect(r.summary.inputs[0]!.mode).toBe('har');
      expect(calls(r).map(row)).toEqual(toolSteps('zhar').map(outcomeOf));
      expect(allCodes(r)).toEqual([]);
    }
  });

  it('stream-responses (mitmproxy\'s http-stream-simple.py): bodies are null, so every call is UNANSWERED, never NO_FINAL_RESULT or a side divergence', async () => {
    const entries = har('stream-responses').log.entries;
    expect(entries.filter((e) => e.response.status === 200).every((e) => e.response.content.text === null && e.response.content.size === 0)).toBe(true);
    const steps = toolSteps('stream-responses');
    const answered = steps.filter((x) => x.error?.code !== -32001);
    for (const r of [await alone('stream-responses'), await alone('stream-responses', 'capture.har.ndjson'), await joined('stream-responses')]) {
      const rows = calls(r).filter((a) => a.tool !== 'slow_report');
      expect(rows.map((a) => a.outcome)).toEqual(answered.map(() => 'UNANSWERED')); // the HAR cannot show what they got
      for (const never of ['NO_FINAL_RESULT', 'SIDE_DIVERGENCE']) expect(allCodes(r)).not.toContain(never);
    }
    // With the server's view beside it, what each caller got is there.
    expect(calls(await joined('stream-responses')).filter((a) => a.tool !== 'slow_report').map((a) => a.serverOutcome)).toEqual(answered.map(outcomeOf));
  });

  it('client-timeout (and stream-responses\' slow_report): the SDK timed out and cancelled; har_dump.py never wrote the call, the addon\'s entry is STREAM_INCOMPLETE + CANCELLED', async () => {
    for (const s of ['client-timeout', 'stream-responses']) {
      const slow = toolSteps(s).find((x) => x.step === 'slow_report')!;
      expect(slow.error).toMatchObject({ name: 'McpError', code: -32001 }); // Request timed out, locally
      const fromHar = await alone(s);
      expect(calls(fromHar).map((a) => a.tool)).not.toContain('slow_report'); // the HAR cannot show it
      expect(fromHar.findings.map((x) => `${x.code} ${x.message}`).join('\n')).toMatch(/CANCELLED .*notifications\/cancelled for id \d+, a request this log never shows/);
      for (const r of [await alone(s, 'addon-entries.ndjson'), await joined(s, 'addon-entries.ndjson')]) {
        const a = calls(r).find((x) => x.tool === 'slow_report')!;
        expect([a.outcome, codes(a)], s).toEqual(['STREAM_INCOMPLETE', ['CANCELLED']]);
        expect(a.detail?.why).toMatch(/the client cancelled it \(notifications\/cancelled\) 0\.\d\d s after sending it/);
      }
    }
    const after = toolSteps('client-timeout').find((x) => x.step === 'lookup_order')!;
    expect(calls(await alone('client-timeout')).find((a) => a.tool === 'lookup_order')!.outcome).toBe(outcomeOf(after));
  });

  it('session-lost: the 404 after the server restarted, the re-initialize and the repeated call, linked as its retry', async () => {
    const want = toolSteps('session-lost').map(outcomeOf);
    expect(want).toEqual(['TOOL_SUCCESS', 'HTTP_ERROR 404', 'TOOL_SUCCESS']);
    for (const r of [await alone('session-lost'), await alone('session-lost', 'addon-entries.ndjson'), await joined('session-lost')]) {
      const [first, lost, again] = calls(r);
      expect([first, lost, again].map((a) => row(a!))).toEqual(want);
      expect(again!.call).toBe(lost!.call);
      expect(again!.attempt).toBe(2);
      expect(r.findings.filter((x) => x.code === 'SESSION_EXPIRED').map((x) => x.message)).toEqual([expect.stringMatching(/HTTP 404 to tools\/call lookup_order .*the client re-initialized and retried the call/)]);
    }
  });

  it('hop-503: the bare 503 of the hop behind mitmproxy, then the app\'s repeat: same call, origin unknown', async () => {
    const want = toolSteps('hop-503').map(outcomeOf);
    expect(want).toEqual(['HTTP_ERROR 503', 'TOOL_SUCCESS']);
    for (const r of [await alone('hop-503'), await alone('hop-503', 'addon-entries.ndjson'), await joined('hop-503')]) {
      const [first, second] = calls(r);
      expect([row(first!), row(second!)]).toEqual(want);
      expect([second!.call, second!.attempt]).toEqual([first!.call, 2]);
      expect(codes(second)).toContain('RETRY_ORIGIN_AMBIGUOUS');
    }
  });

  it('upstream-down: the caller got mitmproxy\'s own 502 page; har_dump.py wrote nothing for it, the addon writes status 0 + _error (NO_RESPONSE)', async () => {
    const [, down] = toolSteps('upstream-down');
    expect(down!.error?.message).toMatch(/502 Bad Gateway[\s\S]*Connect call failed/);
    const r = await alone('upstream-down');
    expect(calls(r).map(row)).toEqual(['TOOL_SUCCESS']); // the HAR cannot show the failed call at all
    expect(r.summary.inputs[0]!.cannotShow.join(' ')).toMatch(/mitmproxy's own 502 when the upstream was down/);
    const [, noResponse] = calls(await alone('upstream-down', 'addon-entries.ndjson'));
    // A HAR of either exporter has no 502 for it: mitmproxy made that answer itself, the flow has no response.
    expect([noResponse!.outcome, noResponse!.status]).toEqual(['NO_RESPONSE', null]);
    expect(noResponse!.detail?.why).toMatch(/Connect call failed/);
  });

  it('get-stream: the server\'s log on the GET stream never reached the buffered caller, nor the HAR; with streaming it reached the caller, and no HAR was written', async () => {
    expect(observed('get-stream').steps.find((x) => x.logsSeen)!.logsSeen).toEqual([]);
    expect(observed('get-stream-streaming').steps.find((x) => x.logsSeen)!.logsSeen).toHaveLength(1);
    for (const r of [await alone('get-stream'), await alone('get-stream', 'addon-entries.ndjson')]) {
      expect(calls(r).map(row)).toEqual(toolSteps('get-stream').map(outcomeOf));
      expect(allCodes(r)).toEqual([]);
    }
  });

  it('mitm-stopped: mitmdump stopped with a call open; har_dump.py never wrote it, the addon has it as "Client disconnected." too (no cancel: NO_FINAL_RESULT)', async () => {
    const slow = toolSteps('mitm-stopped').find((x) => x.step === 'slow_report')!;
    expect(slow.error).toMatchObject({ message: 'fetch failed', cause: 'other side closed' }); // mitmproxy, not the client, closed it
    expect(calls(await alone('mitm-stopped')).map((a) => a.tool)).toEqual(['lookup_order']);
    const a = calls(await alone('mitm-stopped', 'addon-entries.ndjson')).find((x) => x.tool === 'slow_report')!;
    expect([a.outcome, codes(a)]).toEqual(['STREAM_INCOMPLETE', ['NO_FINAL_RESULT']]);
    // Which error mitmproxy gives such a flow depends on which side it closes first at shutdown (the recorded run:
    // "Client disconnected."; another run: the upstream's protocol error): either is a stream that failed.
    const error = addonEntries('mitm-stopped').find((e) => e.request.postData?.text?.includes('slow_report'))!.response._error!;
    expect(error).toMatch(/^(Client disconnected\.|HTTP\/1 protocol error: .*)$/);
    expect(a.detail?.why).toContain(`the stream failed after its head (${error})`);
    if (error === 'Client disconnected.') expect(a.detail?.why).toMatch(/\(mitmproxy writes that when its client closed the connection, and for a flow still open when mitmdump stops\)/);
  });

  it('streamed requests (stream_large_bodies): the addon\'s entries have null request bodies, said unusable, never read as nothing', async () => {
    for (const s of ['streaming', 'get-stream-streaming']) {
      const posts = addonEntries(s).filter((e) => e.request.method === 'POST');
      expect(posts.every((e) => e.request.postData?.text === null)).toBe(true);
      const r = await alone(s, 'addon-entries.ndjson');
      expect(r.summary.inputs[0]).toMatchObject({ unusable: posts.length, reasons: { 'invalid-record': posts.length } });
      expect(r.attempts).toEqual([]);
    }
  });

  it('what the HAR cannot show is in the client\'s own log (recordingFetch): mitmproxy\'s 502, and no head at all for the calls it held or dropped', async () => {
    const client = async (s: string) => calls(await analyze({ inputs: [{ path: f(s, 'client.ndjson'), side: 'client' }] }));
    expect((await client('upstream-down')).map(row)).toEqual(toolSteps('upstream-down').map(outcomeOf)); // TOOL_SUCCESS, HTTP_ERROR 502
    // Buffered, mitmproxy held the slow call's head (the addon's entry says 200): the caller timed out with none.
    expect(addonEntries('client-timeout').find((e) => e.request.postData?.text?.includes('slow_report'))!.response.status).toBe(200);
    for (const s of ['client-timeout', 'mitm-stopped']) {
      const slow = (await client(s)).find((a) => a.tool === 'slow_report')!;
      expect([slow.status, slow.outcome], s).toEqual([null, 'NO_RESPONSE']);
    }
  });

  it('no joined view gives a false side disagreement, id reuse or orphan', async () => {
    for (const s of ['healthy-sse', 'healthy-json', 'stream-responses', 'session-lost', 'hop-503', 'upstream-down', 'client-timeout', 'get-stream', 'mitm-stopped']) {
      for (const r of [await joined(s), await joined(s, 'addon-entries.ndjson')]) {
        for (const never of ['SIDE_DIVERGENCE', 'ID_REUSED', 'ORPHAN_RESPONSE']) expect(allCodes(r), `${s} ${never}`).not.toContain(never);
      }
    }
  });
});
