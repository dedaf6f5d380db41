// The Python SDK 2.3.0 client's transport failures as its DEBUG log proves them (test/fixtures/real-audit55): a connect that found no server, a connection closed or timed out before a head, held to each run's truth.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit55/';
type Result = Awaited<ReturnType<typeof analyze>>;
type Attempt = Result['attempts'][number];
const run = async (dir: string, withServer = false, notes?: string[]) =>
  analyze({
    inputs: [{ path: `${DIR}${dir}/client-debug.log`, side: 'client' }, ...(withServer ? [{ path: `${DIR}${dir}/server.ndjson`, side: 'server' as const }] : [])],
    onDiagnostic: (d) => notes?.push(typeof d === 'string' ? d : JSON.stringify(d)),
  });
const codes = (a: Attempt) => a.findings.map((f) => f.code).sort();
const allCodes = (r: Result) => r.attempts.flatMap(codes);
const truth = (dir: string, who: 'client' | 'server') => readFileSync(`${DIR}${dir}/truth-${who}.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
const tool = (r: Result, name: string) => r.attempts.filter((a) => a.tool === name).sort((x, y) => (x.attempt ?? 0) - (y.attempt ?? 0));

describe('audit 55: a POST whose connect failed is NO_RESPONSE, and reached no server', () => {
  it('a-down-init: no server listening: each initialize the app tried is NO_RESPONSE, why naming the refused connect', async () => {
    expect(truth('a-down-init', 'client').filter((t) => t.ok === false).map((t) => t.error)).toEqual(Array(3).fill('httpx2.ConnectError: All connection attempts failed'));
    const r = await run('a-down-init');
    expect(r.attempts.map((a) => `${a.method} ${a.outcome} ${a.layer}`)).toEqual(Array(3).fill('initialize NO_RESPONSE transport'));
    for (const a of r.attempts) expect(a.detail.why).toMatch(/^its POST could not connect, nothing was sent \(httpcore's "connect_tcp\.failed exception=ConnectError" at line \d+: OSError\('All connection attempts failed'\)\): the server was not reached/);
  });

  for (const dir of ['a-down-call', 'a-down-call-basic', 'a-down-call-json']) {
    it(`${dir}: charge refused at connect, then charged on a new Client: NO_RESPONSE, its retry is no UNSAFE_RETRY (the server charged once)`, async () => {
      expect(truth(dir, 'server').filter((t) => t.effect === 'charged')).toHaveLength(1);
      for (const withServer of [false, true]) {
        const r = await run(dir, withServer);
        const charge = tool(r, 'charge');
        expect(charge.map((a) => `${a.outcome} #${a.attempt}`)).toEqual(['NO_RESPONSE #1', 'TOOL_SUCCESS #2']);
        expect(charge[0]!.call).toBe(charge[1]!.call);
        expect(allCodes(r)).not.toContain('UNSAFE_RETRY');
        // The refused initializes of the app's next two Clients are NO_RESPONSE too.
        expect(r.attempts.filter((a) => a.method === 'initialize').map((a) => a.outcome).sort()).toEqual(['NO_RESPONSE', 'NO_RESPONSE', 'SUCCESS', 'SUCCESS']);
        if (withServer) {
          // No request that never left the client takes a server's view (the restarted server's initialize is the 4th Client's).
          for (const a of r.attempts.filter((x) => x.outcome === 'NO_RESPONSE')) expect(a.serverOutcome).toBeUndefined();
          expect(allCodes(r)).not.toContain('SIDE_DIVERGENCE');
          expect(r.attempts.filter((a) => a.outcome === 'SUCCESS' || a.outcome === 'TOOL_SUCCESS').every((a) => a.serverOutcome === a.outcome)).toBe(true);
        }
      }
    });
  }
});

describe('audit 55: a connection closed or timed out before any head is NO_RESPONSE', () => {
  for (const dir of ['b-kill-json', 'b-kill-json-asctime', 'b-kill-json-json']) {
    it(`${dir}: the server SIGKILLed while a JSON-answered charge ran: NO_RESPONSE, the transport ended, the retry is UNSAFE_RETRY`, async () => {
      expect(truth(dir, 'client').find((t) => t.ok === false)?.error).toBe('httpx2.RemoteProtocolError: Server disconnected without sending a response.');
      // The first charge had started on the server when it was killed: it may have run.
      expect(truth(dir, 'server').filter((t) => t.tool === 'charge' && t.started === true)).toHaveLength(2);
      for (const withServer of [false, true]) {
        const r = await run(dir, withServer);
        const charge = tool(r, 'charge');
        // (Alone, the retry's JSON answer is not in the log: UNANSWERED; with the server's view, its answer.)
        expect(charge.map((a) => `${a.outcome} #${a.attempt}`)).toEqual(['NO_RESPONSE #1', withServer ? 'TOOL_SUCCESS #2' : 'UNANSWERED #2']);
        expect(charge[0]!.layer).toBe('transport');
        expect(charge[0]!.detail.why).toMatch(/^the connection closed before any response head came, closed by the peer .*receive_response_headers\.failed exception=RemoteProtocolError: Server disconnected without sending a response\./);
        // The next Client's requests keep its session (its transport is not read as a second one open at once).
        expect(charge[1]!.session).not.toBeNull();
        expect(charge[1]!.session).not.toBe(charge[0]!.session);
        expect(codes(charge[1]!)).toContain('UNSAFE_RETRY');
      }
    });
  }

  it('g-hop-reset: a hop\'s TCP reset before any head (ReadError): NO_RESPONSE, the retry in the new session is attempt 2', async () => {
    expect(truth('g-hop-reset', 'client').find((t) => t.ok === false)?.error).toBe('httpx2.ReadError: ');
    for (const withServer of [false, true]) {
      const charge = tool(await run('g-hop-reset', withServer), 'charge');
      expect(charge.map((a) => `${a.outcome} #${a.attempt}`)).toEqual(['NO_RESPONSE #1', 'TOOL_SUCCESS #2']);
      expect(charge[0]!.detail.why).toMatch(/receive_response_headers\.failed exception=ReadError" at line 82/);
      expect(charge[1]!.session).not.toBe(charge[0]!.session);
    }
  });

  it("d-httpx-timeout-json: httpx's read timeout before a JSON answer's head: NO_RESPONSE naming the client's own timeout", async () => {
    expect(truth('d-httpx-timeout-json', 'client').find((t) => t.ok === false)?.error).toBe('httpx2.ReadTimeout: ');
    for (const withServer of [false, true]) {
      const slow = tool(await run('d-httpx-timeout-json', withServer), 'slow');
      expect(slow.map((a) => a.outcome)).toEqual(['NO_RESPONSE']);
      expect(slow[0]!.detail.why).toMatch(/^no response head came: the client's own read timeout \(httpcore's "receive_response_headers\.failed exception=ReadTimeout" at line 159/);
    }
  });
});

describe('audit 55 near misses: what the log does not prove stays as it was', () => {
  it('f-gather-down: a refused connect while two POSTs were in flight is tied to neither (UNANSWERED), and a note says why', async () => {
    const notes: string[] = [];
    const r = await run('f-gather-down', false, notes);
    expect(r.attempts.filter((a) => a.id === 4 || a.id === 5).map((a) => `${a.tool} ${a.outcome}`).sort()).toEqual(['charge UNANSWERED', 'lookup UNANSWERED']);
    const cannot = r.summary.inputs[0]!.cannotShow.join(' ');
    expect(cannot).toMatch(/a connection failed \(httpcore's "connect_tcp\.failed exception=ConnectError"\) while more than one POST was in flight/);
  });

  it('b-kill-sse: the server killed after the SSE head: STREAM_INCOMPLETE with NO_FINAL_RESULT, the retry UNSAFE_RETRY', async () => {
    const charge = tool(await run('b-kill-sse'), 'charge');
    expect(charge.map((a) => `${a.outcome} ${a.status} #${a.attempt} [${codes(a).join(',')}]`)).toEqual(['STREAM_INCOMPLETE 200 #1 [NO_FINAL_RESULT]', 'TOOL_SUCCESS null #2 [RETRY_ORIGIN_AMBIGUOUS,UNSAFE_RETRY]']);
  });

  for (const dir of ['c-cut', 'c-reset', 'd-httpx-timeout']) {
    it(`${dir}: a 200 stream the log proves was cut stays STREAM_INCOMPLETE`, async () => {
      const r = await run(dir);
      const first = r.attempts.find((a) => a.tool === 'progress' || a.tool === 'slow')!;
      expect(`${first.outcome} ${first.status}`).toBe('STREAM_INCOMPLETE 200');
      expect(codes(first)).toEqual(['NO_FINAL_RESULT']);
    });
  }

  it("d-sdk-timeout: the SDK's own timeout (notifications/cancelled) stays STREAM_INCOMPLETE with CANCELLED", async () => {
    const slow = tool(await run('d-sdk-timeout'), 'slow');
    expect(slow.map((a) => `${a.outcome} [${codes(a).join(',')}]`)).toEqual(['STREAM_INCOMPLETE [CANCELLED]']);
  });

  for (const dir of ['e-errors', 'e-errors-asctime']) {
    it(`${dir}: a hop's 503 and 502 stay HTTP_ERROR, the third try TOOL_SUCCESS`, async () => {
      const charge = tool(await run(dir), 'charge');
      expect(charge.map((a) => `${a.outcome} ${a.status}`)).toEqual(['HTTP_ERROR 503', 'HTTP_ERROR 502', 'TOOL_SUCCESS null']);
    });
  }

  it('ok: a normal run has no failure and no finding', async () => {
    for (const withServer of [false, true]) {
      const r = await run('ok', withServer);
      expect(r.attempts.map((a) => a.outcome).sort()).toEqual(['SUCCESS', 'SUCCESS', 'TOOL_SUCCESS', 'TOOL_SUCCESS', 'TOOL_SUCCESS']);
      expect(allCodes(r)).toEqual([]);
    }
  });

  it("a connect_tcp.failed that is the client's own cancellation (CancelledError) is no refused connect", async () => {
    // a-down-init's real lines with the exception the SDK's task group leaves when it cancels a connect (f-gather-down line 146).
    const text = readFileSync(`${DIR}a-down-init/client-debug.log`, 'utf8').replace(/exception=ConnectError\(OSError\('All connection attempts failed'\)\)/g, "exception=CancelledError('Cancelled via cancel scope 7fede11bbd00')");
    const path = join(mkdtempSync(join(tmpdir(), 'audit55-')), 'a-down-init-cancelled.log');
    writeFileSync(path, text);
    const r = await analyze({ inputs: [{ path, side: 'client' }], onDiagnostic: () => {} });
    expect(r.attempts.map((a) => a.outcome)).toEqual(['UNANSWERED', 'UNANSWERED', 'UNANSWERED']);
    expect(r.attempts.filter((a) => /could not connect/.test(a.detail.why ?? ''))).toEqual([]);
  });
});
