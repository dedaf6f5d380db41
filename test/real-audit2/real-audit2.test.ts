// The second audit round: real SDK traffic on the deprecated HTTP+SSE transport, resumption, batches, redirects,
// compression, OAuth, output schemas and reconnecting apps (test/fixtures/real-audit2), and what mcp-triage says.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, recordedPairs, triageCli, type CliRun } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit2/', import.meta.url));

interface Attempt { type: 'attempt'; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; call: string; attempt: number; retryOrigin?: { origin: string }; findings: { code: string; severity: string }[]; detail?: { why?: string; errorCode?: number } }
type Run = CliRun<Attempt, unknown>;

const triage = (args: string[]): Run => triageCli<Attempt, unknown>(args);
const both = recordedPairs<Attempt, unknown>(DIR);

describe('every second-round recording', () => {
  it.each(readdirSync(DIR))('%s: read whole, analyzed without error', (scenario) => {
    const r = both(scenario);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
  });
});

describe('what the second round found, fixed', () => {
  it('an app that reconnects with a new Client (new conn) and re-sends, noted or not, is retrying (1.x and v2)', () => {
    for (const scenario of ['reconnect-retry-noted', 'v2-reconnect-retry-new-conn']) {
      const [first, again] = calls(both(scenario)).filter((a) => a.tool === 'send_invoice');
      expect(again, scenario).toMatchObject({ call: first!.call, attempt: 2, retryOrigin: { origin: 'app' } });
      // The server ran the first one: the repeat is a proven unsafe retry (a duplicate invoice).
      expect(again!.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity, scenario).toBe('error');
    }
  });

  it('a 307 the SDK follows is the HTTP client following it, not a retry with warnings', () => {
    for (const a of calls(both('redirect-trailing-slash')).filter((x) => x.attempt === 2)) {
      expect(a.retryOrigin?.origin).toBe('sdk');
      expect(codes(a)).toEqual([]);
    }
  });

  it('a gzip-compressed response recorded by the proxy reads as what it says, not MALFORMED_JSON', () => {
    const r = triage([`${DIR}gzip-reverse-proxy/proxy.ndjson`]);
    expect(r.attempts.map((a) => a.outcome)).not.toContain('MALFORMED_JSON');
    expect(calls(r).map((a) => a.outcome).sort()).toEqual(['TOOL_ERROR', 'TOOL_SUCCESS']);
  });

  it('structuredContent that breaks the declared outputSchema is INVALID_TOOL_RESULT, saying where', () => {
    const r = calls(both('output-schema-invalid'));
    expect(r.filter((a) => a.outcome === 'INVALID_TOOL_RESULT').map((a) => a.detail?.why)).toEqual([
      'structuredContent/count must be number, by the outputSchema tools/list declares: the tool ran, and a client that checks it (the TypeScript SDK 1.x) throws -32602 from callTool instead of returning the result',
      "structuredContent must have required property 'count', by the outputSchema tools/list declares: the tool ran, and a client that checks it (the TypeScript SDK 1.x) throws -32602 from callTool instead of returning the result",
    ]);
  });

  it('a 401 says what its OAuth body said', () => {
    const [call] = calls(both('oauth-token-endpoint-fails'));
    expect(call).toMatchObject({ status: 401, outcome: 'HTTP_ERROR', detail: { why: 'the body says: invalid_token (token expired)' } });
  });

  it('every member of a batch rejected with 400 carries the JSON-RPC error of the body', () => {
    const rejected = calls(both('jsonrpc-batch')).filter((a) => a.status === 400);
    expect(rejected.length).toBeGreaterThanOrEqual(1);
    for (const a of rejected) expect(a.detail).toMatchObject({ errorCode: -32700 });
  });

  it('on the 2024-11-05 HTTP+SSE transport a call the client cancelled is no NO_FINAL_RESULT; one whose GET stream broke first is, saying so', () => {
    const [cancelled] = calls(both('legacy-sse-basic')).filter((a) => a.outcome === 'STREAM_INCOMPLETE');
    expect(codes(cancelled!)).toEqual(['CANCELLED']);
    expect(cancelled!.detail?.why).toMatch(/^the client cancelled it \(notifications\/cancelled\) 0\.2\d s after sending it/);
    const [cut] = calls(both('legacy-sse-get-dropped')).filter((a) => a.outcome === 'STREAM_INCOMPLETE');
    expect(codes(cut!)).toEqual(['NO_FINAL_RESULT', 'CANCELLED']);
    expect(cut!.detail?.why).toMatch(/^the SSE stream \(GET\) that was to carry the response broke 0\.\d\d s after the request/);
  });

  it('HTTP+SSE: two clients of one server are told apart by the sessionId of their POST URLs and GET endpoints, in every view', () => {
    const dir = `${DIR}legacy-sse-two-clients-concurrent/`;
    for (const args of [['--client', `${dir}client.ndjson`, '--server', `${dir}server.ndjson`], [`${dir}proxy.ndjson`], ['--server', `${dir}server.ndjson`]]) {
      const rows = calls(triage(args)).map((a) => `${String(a.id)} ${a.tool} ${a.outcome} [${codes(a).join(',')}]`).sort();
      expect(rows, args.join(' ')).toEqual([
        '1 slow_report TOOL_SUCCESS []', '1 validate_quantity TOOL_ERROR []', '3 send_invoice TOOL_SUCCESS []', '3 slow_report STREAM_INCOMPLETE [CANCELLED]',
      ]);
    }
  });

  it('resume-cut-twice: sse.events counts the events of the resumed streams, as sse.progress counts their progress; the timeline says how many were resumed', () => {
    const args = ['--client', `${DIR}resume-cut-twice/client.ndjson`, '--server', `${DIR}resume-cut-twice/server.ndjson`];
    const call = calls(triage(args))[0] as Attempt & { sse?: { events: number; resumedEvents?: number; progress: number } };
    // 3 events on the POST's own stream, 7 on the two GETs that resumed it (8 progress in all, and the result)
    expect(call.sse).toMatchObject({ events: 10, resumedEvents: 7, progress: 8 });
    // Wide enough that the timeline's table does not wrap the SSE cell.
    const p = spawnSync(process.execPath, [BIN, 'timeline', 'f312', ...args], { encoding: 'utf8', env: { ...process.env, COLUMNS: '1000' } });
    expect(p.stdout).toMatch(/10 events \(7 resumed\), 8 progress/);
  });

  it('HTTP+SSE: a response the server wrote on the GET stream before its 202 keeps the 202, on both sides; nothing is "resumed"', () => {
    const r = both('legacy-sse-basic');
    const list = r.attempts.find((a) => a.method === 'resources/list')!;
    expect(list).toMatchObject({ status: 202, outcome: 'JSONRPC_ERROR' });
    expect(codes(list)).toEqual([]);
    expect(r.attempts.some((a) => (a as unknown as { resumed?: boolean }).resumed)).toBe(false);
  });

  it('a client that could not authorize never got to call a tool, and CALL_NEVER_SENT says so', () => {
    const p = spawnSync(process.execPath, [BIN, '--format', 'ndjson', '--client', `${DIR}oauth-401-no-provider/client.ndjson`, '--server', `${DIR}oauth-401-no-provider/server.ndjson`], { encoding: 'utf8' });
    expect(p.stdout).toMatch(/"code":"CALL_NEVER_SENT"[^}]*the client could not authorize, so it never got to call a tool/);
  });
});
