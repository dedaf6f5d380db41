// The analyzer on REAL tshark 4.0 captures recorded by test/real-tshark/record.mjs into test/fixtures/real-tshark/<scenario>/: the SDK 1.32.2 client and server on 127.0.0.1, the wire captured on lo and exported with plain `tshark -T ek` (and -T json for two). Expectations come from observed.json (what the SDK caller got), never from the tool's output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, type AnalysisResult, type AttemptRow } from '../../src/index.js';
import { allCodes, codesOf, toolCalls } from '../helpers/recordings.js';
import { triageCli } from '../helpers/triage-cli.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'real-tshark');
const f = (s: string, file: string) => join(FIXTURES, s, file);

type Step = { step?: string; ok?: boolean; isError?: boolean; error?: { name: string; message: string; code?: number }; progressSeen?: unknown[] };
const OBSERVED = JSON.parse(readFileSync(join(FIXTURES, 'observed.json'), 'utf8')) as Record<string, { tshark: string; steps: Step[] }>;
const SCENARIOS = ['normal', 'tool-error', 'jsonrpc-error', 'json-response', 'progress', 'cut-fin', 'cut-rst', 'client-timeout', 'session-lost', 'hop-503', 'wire-shapes'];

const cache = new Map<string, Promise<AnalysisResult>>();
const run = (s: string, file = 'capture.ek.ndjson') => {
  const key = `${s}/${file}`;
  if (!cache.has(key)) cache.set(key, analyze({ inputs: [{ path: f(s, file) }] }));
  return cache.get(key)!;
};
const lines = (s: string, file = 'capture.ek.ndjson') => readFileSync(f(s, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

/** What the SDK caller got, as the outcome the wire must show; a call the client gave up on (its timeout) is left to the test. */
function outcomeOf(step: Step): string {
  if (step.ok) return step.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
  if (step.error?.name === 'McpError' && step.error.code !== -32001) return 'JSONRPC_ERROR';
  if (step.error?.name === 'StreamableHTTPError') return `HTTP_ERROR ${step.error.code}`;
  return `no answer (${step.error?.message})`;
}
const row = (a: AttemptRow) => (a.outcome === 'HTTP_ERROR' ? `HTTP_ERROR ${a.status}` : a.outcome);
const toolSteps = (s: string) => OBSERVED[s]!.steps.filter((x) => x.step !== undefined && x.step !== 'tools/list');

describe('real-tshark: what tshark 4.0 writes', () => {
  it('was recorded with tshark 4.0 and every scenario is in observed.json', () => {
    for (const s of SCENARIOS) expect(OBSERVED[s]?.tshark, s).toMatch(/^TShark \(Wireshark\) 4\.0\./);
  });

  it('-T ek: an index line before every packet document; flattened field names; header lines as a list; the body as text', () => {
    const ls = lines('normal');
    expect(ls.length % 2).toBe(0);
    for (let i = 0; i < ls.length; i += 2) {
      expect(Object.keys(ls[i]!)).toEqual(['index']);
      expect(Object.keys(ls[i + 1]!)).toEqual(['timestamp', 'layers']);
    }
    const http = ls.map((l) => (l.layers as Record<string, Record<string, unknown>> | undefined)?.http).filter((h) => h !== undefined);
    const init = http.find((h) => String(h!.http_http_file_data ?? '').includes('"initialize"'))!;
    expect(init.http_http_request_method).toBe('POST');
    expect(init.http_http_request_line).toEqual(expect.arrayContaining(['content-type: application/json\r\n']));
    expect(JSON.parse(init.http_http_file_data as string)).toMatchObject({ method: 'initialize', id: 0 });
  });

  it('a streamed text/event-stream response is dissected once, at its last chunk; one cut by FIN or RST never is', () => {
    const responses = (s: string) => lines(s).flatMap((l) => {
      const h = (l.layers as Record<string, Record<string, unknown>> | undefined)?.http;
      return h?.http_http_response_code !== undefined ? [h] : [];
    });
    const progress = responses('progress').find((h) => String(h.http_http_file_data).includes('report ready'))!;
    expect(progress.http_http_transfer_encoding).toBe('chunked');
    expect(String(progress.http_http_file_data).match(/notifications\/progress/g)).toHaveLength(3);
    for (const s of ['cut-fin', 'cut-rst']) expect(responses(s).filter((h) => String(h.http_http_file_data).includes('progress')), s).toEqual([]);
  });
});

describe('real-tshark: outcomes per call against what the caller got (-T ek)', () => {
  it('no unusable line; the index lines and the packets without MCP traffic are skipped', async () => {
    for (const s of SCENARIOS) {
      const r = await run(s);
      const input = r.summary.inputs[0]!;
      const indexLines = lines(s).filter((l) => 'index' in l).length;
      expect(input.unusable, s).toBe(0);
      expect(input.skipped, s).toBeGreaterThanOrEqual(indexLines);
      expect(input.lines, s).toBe(input.used + input.skipped);
      expect(input.formats, s).toEqual({ tshark: input.used });
      expect(r.summary.diagnostics.total, s).toBe(0);
    }
  });

  it('a result, an isError result, a JSON-RPC error, in SSE and JSON response modes', async () => {
    for (const s of ['normal', 'tool-error', 'jsonrpc-error', 'json-response']) {
      const r = await run(s);
      expect(toolCalls(r).map(row), s).toEqual(toolSteps(s).map(outcomeOf));
      expect(allCodes(r), s).toEqual([]);
    }
    expect(toolSteps('json-response').map(outcomeOf)).toEqual(['TOOL_SUCCESS', 'TOOL_ERROR', 'JSONRPC_ERROR']);
    expect(toolCalls(await run('json-response')).map((a) => a.layer).slice(1)).toEqual(['application', 'protocol']);
  });

  it('progress: the three notifications the caller saw, each at the packet that carried it, then the result', async () => {
    const r = await run('progress');
    expect(OBSERVED.progress!.steps.find((x) => x.progressSeen)!.progressSeen).toHaveLength(3);
    const [call] = toolCalls(r);
    expect(call!.outcome).toBe('TOOL_SUCCESS');
    expect(codesOf(call!)).toEqual([]);
    expect(call!.sse?.progress).toBe(3);
    expect(call!.sse?.events).toBe(4);
  });

  it('a stream the server cut (FIN, or RST) after two progress events: STREAM_INCOMPLETE at HTTP 200, never a success or NO_RESPONSE', async () => {
    for (const s of ['cut-fin', 'cut-rst']) {
      const step = toolSteps(s)[0]!;
      expect(step.ok, s).toBe(false);
      expect(step.error?.code, s).toBe(-32001); // the SDK's own timeout: the result never came
      expect(OBSERVED[s]!.steps.find((x) => x.progressSeen)!.progressSeen, s).toHaveLength(2);
      const r = await run(s);
      const [call] = toolCalls(r);
      expect(call!.outcome, s).toBe('STREAM_INCOMPLETE');
      expect(call!.status, s).toBe(200);
      expect(call!.layer, s).toBe('transport');
      expect(call!.sse?.progress, s).toBe(2);
      expect(codesOf(call!), s).toContain('NO_FINAL_RESULT');
      expect(allCodes(r), s).not.toContain('NO_RESPONSE');
      // The client's notifications/cancelled after its timeout is on the wire too.
      expect(allCodes(r), s).toContain('CANCELLED');
    }
  });

  it('client-timeout: the SDK\'s 400 ms timeout leaves its connection open (no FIN); the stream ends empty at the DELETE: STREAM_INCOMPLETE with CANCELLED, then the next call succeeds', async () => {
    expect(toolSteps('client-timeout').map((x) => [x.ok, x.error?.code])).toEqual([[false, -32001], [true, undefined]]);
    const fins = lines('client-timeout').filter((l) => (l.layers as { tcp?: Record<string, unknown> } | undefined)?.tcp?.tcp_tcp_flags_fin === true);
    expect(fins).toEqual([]);
    const r = await run('client-timeout');
    expect(toolCalls(r).map((a) => [a.outcome, a.status])).toEqual([['STREAM_INCOMPLETE', 200], ['TOOL_SUCCESS', 200]]);
    expect(codesOf(toolCalls(r)[0]!)).toContain('CANCELLED');
    expect(allCodes(r)).not.toContain('NO_RESPONSE');
  });

  it('session-lost: the 404 after the restart, SESSION_EXPIRED, and the call repeated on a new session', async () => {
    const r = await run('session-lost');
    expect(toolCalls(r).map(row)).toEqual(toolSteps('session-lost').map(outcomeOf));
    expect(toolCalls(r).map(row)).toEqual(['TOOL_SUCCESS', 'HTTP_ERROR 404', 'TOOL_SUCCESS']);
    expect(allCodes(r)).toContain('SESSION_EXPIRED');
    expect(new Set(toolCalls(r).map((a) => a.session)).size).toBe(2);
  });

  it('hop-503: the hop\'s bare 503 (transport), then the repeated call succeeds', async () => {
    const r = await run('hop-503');
    expect(toolCalls(r).map(row)).toEqual(toolSteps('hop-503').map(outcomeOf));
    expect(toolCalls(r)[0]!.layer).toBe('transport');
    expect(r.summary.retries).toBe(1);
    expect(allCodes(r)).not.toContain('NO_RESPONSE');
  });
});

describe('real-tshark: wire-shapes (a bare node:http server: gzip, pipelining)', () => {
  type RawStep = { step: string; status?: number; body?: string; responses?: number; ids?: number[] };
  const steps = () => OBSERVED['wire-shapes']!.steps as unknown as RawStep[];
  const packets = () => lines('wire-shapes').filter((l) => 'layers' in l).map((l) => l.layers as Record<string, unknown>);

  it('what tshark wrote: gzipped bodies decoded in file_data; two requests in one packet as a list of http layers, the second answer without http.request_in', () => {
    const https = packets().flatMap((l) => (Array.isArray(l.http) ? [l.http as Record<string, unknown>[]] : []));
    expect(https).toHaveLength(1);
    expect(https[0]!.map((h) => JSON.parse(h.http_http_file_data as string).id)).toEqual([3, 4]);
    const responses = packets().map((l) => l.http as Record<string, unknown> | undefined).filter((h) => h?.http_http_response_code !== undefined);
    expect(responses.map((h) => h!.http_http_request_in !== undefined)).toEqual([true, true, true, false]);
    expect(JSON.parse(responses[0]!.http_http_file_data as string)).toMatchObject({ id: 1, result: { content: [{ text: 'gzipped json' }] } });
    expect(responses[1]!.http_http_file_data).toBe(steps()[1]!.body);
  });

  it('every call is the success its caller got, the pipelined ones each with its own answer', async () => {
    expect(steps().map((x) => x.status ?? x.ids)).toEqual([200, 200, [3, 4]]);
    const r = await run('wire-shapes');
    expect(toolCalls(r).map((a) => [a.id, a.outcome])).toEqual([[1, 'TOOL_SUCCESS'], [2, 'TOOL_SUCCESS'], [3, 'TOOL_SUCCESS'], [4, 'TOOL_SUCCESS']]);
    expect(toolCalls(r)[1]!.sse?.progress).toBe(1);
    expect(allCodes(r)).toEqual([]);
  });
});

describe('real-tshark: -T json', () => {
  it('the array document is read item by item through its _source: the same outcomes as -T ek', async () => {
    for (const s of ['normal', 'session-lost']) {
      const r = await run(s, 'capture.json');
      expect(r.summary.inputs[0]!.unusable, s).toBe(0);
      expect(r.summary.inputs[0]!.mode, s).toBe('array');
      expect(toolCalls(r).map(row), s).toEqual(toolCalls(await run(s)).map(row));
    }
  });

  it('without --no-duplicate-keys only the last header line survives: the session is lost; with it, SESSION_EXPIRED is back', async () => {
    const plain = await run('session-lost', 'capture.json');
    expect(toolCalls(plain).every((a) => a.session === null)).toBe(true);
    expect(allCodes(plain)).not.toContain('SESSION_EXPIRED');
    expect(plain.summary.inputs[0]!.cannotShow.join(' ')).toMatch(/--no-duplicate-keys/);
    const nodup = await run('session-lost', 'capture.nodup.json');
    expect(toolCalls(nodup).map(row)).toEqual(toolCalls(await run('session-lost')).map(row));
    expect(allCodes(nodup)).toContain('SESSION_EXPIRED');
  });
});

describe('real-tshark: the CLI (dist/bin.cjs) on the export as a user runs it', () => {
  it('cut-fin: the STREAM_INCOMPLETE attempt, no unusable line, and the format named tshark', () => {
    const run = triageCli<{ method: string; outcome: string; status: number }>([f('cut-fin', 'capture.ek.ndjson')]);
    expect(run.unusable).toBe(0);
    expect(run.attempts.filter((a) => a.method === 'tools/call').map((a) => [a.outcome, a.status])).toEqual([['STREAM_INCOMPLETE', 200]]);
    expect(JSON.stringify(run.summary)).toContain('"tshark"');
  });
});
