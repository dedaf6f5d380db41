// The analyzer on real SDK 1.32.2 traffic (test/fixtures/real, made by test/real/record.mjs): outcomes and findings
// per scenario, from the client+server recordings and from the proxy recording alone.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CanonicalRecordSchema } from '../../src/schema/record.js';
import { wireDigest } from '../helpers/wire.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'dist', 'bin.cjs');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'real');

interface AttemptFinding {
  code: string;
  severity: string;
  message: string;
}
interface Attempt {
  type: 'attempt';
  session: string | null;
  id: string | number;
  method: string;
  tool: string | null;
  status: number | null;
  outcome: string;
  layer: string;
  serverOutcome?: string;
  attempt?: number;
  call?: string;
  retryOrigin?: { origin: string };
  notSeenByServer?: boolean;
  findings: AttemptFinding[];
}
interface SessionFinding {
  type: 'finding';
  code: string;
  severity: string;
}

const file = (scenario: string, side: 'client' | 'server' | 'proxy'): string => join(FIXTURES, `${scenario}.${side}.ndjson`);

type Triage = { attempts: Attempt[]; findings: SessionFinding[]; status: number | null };
const runs = new Map<string, Triage>();

/** Run the CLI with --format ndjson; the attempt lines, session findings and exit code. */
function runCli(args: string[]): Promise<Triage> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, '--format', 'ndjson', ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => {
      try {
        const lines = stdout
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as { type: string });
        if (!lines.some((l) => l.type === 'summary')) throw new Error(`mcp-triage ${args.join(' ')}: no summary line; stderr: ${stderr}`);
        resolve({
          attempts: lines.filter((l): l is Attempt => l.type === 'attempt'),
          findings: lines.filter((l): l is SessionFinding => l.type === 'finding'),
          status,
        });
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  });
}

const bothArgs = (scenario: string) => ['--client', file(scenario, 'client'), '--server', file(scenario, 'server')];
const proxyArgs = (scenario: string) => [file(scenario, 'proxy')];

/** Analyze every recording once, a few CLI processes at a time. */
async function analyzeAll(): Promise<void> {
  const jobs = SCENARIOS.flatMap((s) => [bothArgs(s), proxyArgs(s)]);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const args = jobs[next++]!;
      runs.set(args.join('\0'), await runCli(args));
    }
  };
  await Promise.all(Array.from({ length: 3 }, worker));
}

function triage(args: string[]): Triage {
  const result = runs.get(args.join('\0'));
  if (!result) throw new Error(`not analyzed: ${args.join(' ')}`);
  return result;
}

/** Client and server recordings of one scenario, read together. */
const bothSides = (scenario: string) => triage(bothArgs(scenario));
const proxyOnly = (scenario: string) => triage(proxyArgs(scenario));
const calls = (attempts: Attempt[]) => attempts.filter((a) => a.method === 'tools/call');
const codes = (a: Attempt | undefined) => (a?.findings ?? []).map((f) => f.code);

const SCENARIOS = readFileSync(join(ROOT, 'test', 'real', 'record.mjs'), 'utf8')
  .split('\n')
  .map((l) => /^ {2}'?([a-z0-9-]+)'?: \{$/.exec(l)?.[1])
  .filter((s): s is string => s !== undefined);

describe('real fixtures: the recordings themselves', () => {
  it('lists every scenario of record.mjs and has its three files', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(18);
    for (const s of SCENARIOS) for (const side of ['client', 'server', 'proxy'] as const) expect(existsSync(file(s, side)), `${s}.${side}`).toBe(true);
  });

  it('holds only valid canonical split records, with the side the writer was given and no secrets', () => {
    for (const s of SCENARIOS) {
      for (const side of ['client', 'server', 'proxy'] as const) {
        const text = readFileSync(file(s, side), 'utf8');
        expect(text).not.toMatch(/fixture-access-token|fixture-client-secret/);
        for (const line of text.trim().split('\n').filter(Boolean)) {
          const r = CanonicalRecordSchema.parse(JSON.parse(line));
          expect(['request', 'response', 'event', 'end']).toContain(r.kind);
          expect(r.side).toBe(side === 'proxy' ? undefined : side);
        }
      }
    }
  });
});


describe('real fixtures: the proxy and the client wrapper recorded the same wire', () => {
  it.each(SCENARIOS.map((s) => [s]))('%s', (scenario) => {
    expect(wireDigest(file(scenario, 'proxy'))).toEqual(wireDigest(file(scenario, 'client')));
  });
});

describe.skipIf(!existsSync(BIN))('real fixtures: analyzer outcomes (client + server recordings)', () => {
  beforeAll(analyzeAll, 120_000);
  it('baseline: every call succeeds, with no findings', () => {
    const { attempts, findings } = bothSides('baseline');
    expect(attempts.map((a) => [a.method, a.tool, a.outcome])).toEqual([
      ['initialize', null, 'SUCCESS'],
      ['tools/list', null, 'SUCCESS'],
      ['tools/call', 'lookup_order', 'TOOL_SUCCESS'],
      ['tools/call', 'set_shipping_address', 'TOOL_SUCCESS'],
      ['tools/call', 'send_invoice', 'TOOL_SUCCESS'],
    ]);
    for (const a of attempts) expect(a.serverOutcome).toBe(a.outcome);
    expect(attempts.flatMap((a) => a.findings)).toEqual([]);
    expect(findings).toEqual([]);
  });

  it('tool-error: isError is a tool-layer failure inside a successful exchange', () => {
    const [call] = calls(bothSides('tool-error').attempts);
    expect(call).toMatchObject({ tool: 'validate_quantity', status: 200, outcome: 'TOOL_ERROR', serverOutcome: 'TOOL_ERROR' });
  });

  it('jsonrpc-error: an McpError thrown by the low-level Server is a protocol-layer JSONRPC_ERROR on HTTP 200', () => {
    const [call] = calls(bothSides('jsonrpc-error').attempts);
    expect(call).toMatchObject({ status: 200, outcome: 'JSONRPC_ERROR', layer: 'protocol', serverOutcome: 'JSONRPC_ERROR' });
  });

  it('http-503-app-retry: HTTP_ERROR the server never saw, then the noted application retry succeeds', () => {
    const [first, second, ...rest] = calls(bothSides('http-503-app-retry').attempts);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ status: 503, outcome: 'HTTP_ERROR', layer: 'transport', attempt: 1 });
    expect(first!.serverOutcome).toBeUndefined();
    expect(second).toMatchObject({ outcome: 'TOOL_SUCCESS', serverOutcome: 'TOOL_SUCCESS', attempt: 2, retryOrigin: { origin: 'app' } });
    expect(second!.id).not.toEqual(first!.id);
    expect(second!.call).toBe(first!.call);
    // The retry came at once: the retry policy notices; the retried tool is read-only, so it is not unsafe.
    expect(codes(second)).toContain('RETRY_POLICY');
    expect(codes(second)).not.toContain('UNSAFE_RETRY');
  });

  it('http-429: Retry-After honoured gives no RETRY_AFTER_IGNORED; an immediate retry does', () => {
    const honoured = calls(bothSides('http-429-retry-after-honoured').attempts);
    expect(honoured.map((a) => [a.status, a.outcome, a.attempt])).toEqual([
      [429, 'HTTP_ERROR', 1],
      [200, 'TOOL_SUCCESS', 2],
    ]);
    expect(codes(honoured[1])).not.toContain('RETRY_AFTER_IGNORED');
    const ignored = calls(bothSides('http-429-retry-after-ignored').attempts);
    expect(ignored.map((a) => [a.status, a.outcome, a.attempt])).toEqual([
      [429, 'HTTP_ERROR', 1],
      [200, 'TOOL_SUCCESS', 2],
    ]);
    expect(codes(ignored[1])).toContain('RETRY_AFTER_IGNORED');
  });

  it('sse-cut-no-resume: a 200 stream that ends without the result is STREAM_INCOMPLETE, and the cancel is linked', () => {
    const [call, ...rest] = calls(bothSides('sse-cut-no-resume').attempts);
    expect(rest).toEqual([]);
    expect(call).toMatchObject({ status: 200, outcome: 'STREAM_INCOMPLETE', layer: 'transport' });
    expect(codes(call)).toEqual(expect.arrayContaining(['NO_FINAL_RESULT', 'CANCELLED']));
  });

  // Discrepancy: the client POSTed notifications/cancelled 1.2 s after the call (its 1200 ms request timeout); the
  // stream itself was cut after about 0.1 s. The CANCELLED message says "after 0.10 s": src/findings/rules.ts takes
  // endTs - startTs of the attempt (the stream's duration) instead of the time of the cancel.
  it('sse-cut-no-resume: the CANCELLED finding gives the time of the cancel (the 1.2 s client timeout)', () => {
    const [call] = calls(bothSides('sse-cut-no-resume').attempts);
    const cancelled = call!.findings.find((f) => f.code === 'CANCELLED');
    expect(cancelled?.message).toMatch(/after 1\.\d\d s/);
  });

  it('sse-resumed-last-event-id: the result delivered on the GET resume completes the same attempt', () => {
    const { attempts } = bothSides('sse-resumed-last-event-id');
    const [call, ...rest] = calls(attempts);
    expect(rest).toEqual([]);
    expect(call).toMatchObject({ tool: 'export_archive', outcome: 'TOOL_SUCCESS', serverOutcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(codes(call)).not.toContain('NO_FINAL_RESULT');
    expect(codes(call)).not.toContain('RETRY_ORIGIN_AMBIGUOUS');
  });

  it('session-expired-404-reinit: 404 on the old session, SESSION_EXPIRED, retry in a new session linked as attempt 2', () => {
    const { attempts, findings } = bothSides('session-expired-404-reinit');
    const [before, expired, retried] = calls(attempts);
    expect(before).toMatchObject({ outcome: 'TOOL_SUCCESS' });
    expect(expired).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', attempt: 1 });
    expect(retried).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 2, retryOrigin: { origin: 'app' } });
    expect(retried!.session).not.toBe(expired!.session);
    expect(retried!.call).toBe(expired!.call);
    expect(findings.map((f) => f.code)).toContain('SESSION_EXPIRED');
  });

  it('session-id-adopted-from-error: the retry goes out on the session id a 503 carried, and gets 404', () => {
    const [first, second, ...rest] = calls(bothSides('session-id-adopted-from-error').attempts);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ status: 503, outcome: 'HTTP_ERROR', attempt: 1 });
    expect(second).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', attempt: 2, session: 'session-of-another-client' });
    expect(first!.session).not.toBe('session-of-another-client');
  });

  it('malformed-json-body: the client got broken JSON while the server sent a result (SIDE_DIVERGENCE)', () => {
    const [call] = calls(bothSides('malformed-json-body').attempts);
    expect(call).toMatchObject({ status: 200, outcome: 'MALFORMED_JSON', serverOutcome: 'TOOL_SUCCESS' });
    expect(codes(call)).toContain('SIDE_DIVERGENCE');
  });

  it('malformed-sse-event: broken JSON inside an SSE event is MALFORMED_JSON on the client side', () => {
    const [call] = calls(bothSides('malformed-sse-event').attempts);
    expect(call).toMatchObject({ status: 200, outcome: 'MALFORMED_JSON', serverOutcome: 'TOOL_SUCCESS' });
    expect(codes(call)).toContain('SIDE_DIVERGENCE');
  });

  it('wrong-response-id: the stream carried a response for another id (ORPHAN_RESPONSE); the call has no valid answer', () => {
    const [call] = calls(bothSides('wrong-response-id').attempts);
    expect(call).toMatchObject({ id: 1, status: 200, outcome: 'INVALID_ENVELOPE', serverOutcome: 'TOOL_SUCCESS' });
    expect(codes(call)).toEqual(expect.arrayContaining(['ORPHAN_RESPONSE', 'SIDE_DIVERGENCE']));
  });

  it('socket-destroyed: no HTTP response at all is NO_RESPONSE, and the server never saw the call', () => {
    const [call] = calls(bothSides('socket-destroyed').attempts);
    expect(call).toMatchObject({ status: null, outcome: 'NO_RESPONSE', layer: 'transport', notSeenByServer: true });
  });

  it('accepted-202-for-request: a 202 with no body never answers the request', () => {
    const { attempts, findings } = bothSides('accepted-202-for-request');
    const [call] = calls(attempts);
    expect(call).toMatchObject({ status: 202, outcome: 'STREAM_INCOMPLETE' });
    expect(codes(call)).toEqual(expect.arrayContaining(['NO_FINAL_RESULT', 'CANCELLED']));
    // The hop answered for the server: the server's log has the client's cancellation but never the request, and says so.
    expect(findings.filter((f) => f.code === 'CANCELLED').map((f) => f.message)).toEqual([
      expect.stringMatching(/notifications\/cancelled for id 1, a request the server's log never shows \(it did not reach the server/),
    ]);
  });

  it('elicitation-roundtrip: the client POST answering elicitation/create (id 0) is not an attempt and does not collide with initialize', () => {
    const { attempts } = bothSides('elicitation-roundtrip');
    expect(attempts.map((a) => [a.method, a.id, a.outcome])).toEqual([
      ['initialize', 0, 'SUCCESS'],
      ['tools/call', 1, 'TOOL_SUCCESS'],
    ]);
    expect(attempts.flatMap((a) => codes(a))).not.toContain('ID_REUSED');
  });

  it('stateless-ids-reused: two clients without sessions reuse ids 0-2, each attempt joined to its own server view', () => {
    const { attempts } = bothSides('stateless-ids-reused');
    expect(attempts.map((a) => [a.method, a.id, a.tool, a.session])).toEqual([
      ['initialize', 0, null, null],
      ['tools/list', 1, null, null],
      ['tools/call', 2, 'lookup_order', null],
      ['initialize', 0, null, null],
      ['tools/list', 1, null, null],
      ['tools/call', 2, 'send_invoice', null],
    ]);
    for (const a of attempts) expect(a.serverOutcome).toBe(a.outcome);
    expect(attempts.flatMap((a) => a.findings).filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it('auth-401-same-id-retry: the SDK re-POSTs the same id after 401, recognized as its own retry', () => {
    const [first, second, ...rest] = calls(bothSides('auth-401-same-id-retry').attempts);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ id: 1, status: 401, outcome: 'HTTP_ERROR', attempt: 1 });
    expect(second).toMatchObject({ id: 1, status: 200, outcome: 'TOOL_SUCCESS', attempt: 2, retryOrigin: { origin: 'sdk' } });
  });

  // The server saw only the re-POST (the 401 came from the hop in front of it): its view must pair with attempt 2,
  // not with the 401 attempt that has the same session and id.
  it('auth-401-same-id-retry: the server view belongs to the re-POST, not to the 401 attempt', () => {
    const [first, second] = calls(bothSides('auth-401-same-id-retry').attempts);
    expect(first!.serverOutcome).toBeUndefined();
    expect(codes(first)).not.toContain('SIDE_DIVERGENCE');
    expect(second!.serverOutcome).toBe('TOOL_SUCCESS');
  });

  it('client-output-schema-rejected: the wire shows a normal result on both sides (the SDK error is local)', () => {
    const [call, ...rest] = calls(bothSides('client-output-schema-rejected').attempts);
    expect(rest).toEqual([]);
    expect(call).toMatchObject({ tool: 'order_totals', status: 200 });
    expect(call!.serverOutcome).toBe(call!.outcome);
  });

  // Discrepancy: tools/list in the same log declares an outputSchema for order_totals; the result has no
  // structuredContent, which the spec forbids ("servers MUST provide structured results that conform") and which
  // the SDK client rejects locally with McpError -32600 (test/real/observed.json). The analyzer reports TOOL_SUCCESS.
  it('client-output-schema-rejected: a result without structuredContent for a tool with an outputSchema is INVALID_TOOL_RESULT', () => {
    const [call] = calls(bothSides('client-output-schema-rejected').attempts);
    expect(call).toMatchObject({ tool: 'order_totals', status: 200, outcome: 'INVALID_TOOL_RESULT' });
  });
});

describe.skipIf(!existsSync(BIN))('real fixtures: the proxy recording alone gives the wire outcomes', () => {
  beforeAll(async () => {
    if (runs.size === 0) await analyzeAll();
  }, 120_000);
  const wire: [string, string[]][] = [
    ['baseline', ['TOOL_SUCCESS', 'TOOL_SUCCESS', 'TOOL_SUCCESS']],
    ['tool-error', ['TOOL_ERROR']],
    ['jsonrpc-error', ['JSONRPC_ERROR']],
    ['http-503-app-retry', ['HTTP_ERROR', 'TOOL_SUCCESS']],
    ['sse-cut-no-resume', ['STREAM_INCOMPLETE']],
    ['sse-resumed-last-event-id', ['TOOL_SUCCESS']],
    ['session-expired-404-reinit', ['TOOL_SUCCESS', 'HTTP_ERROR', 'TOOL_SUCCESS']],
    ['malformed-json-body', ['MALFORMED_JSON']],
    ['malformed-sse-event', ['MALFORMED_JSON']],
    ['socket-destroyed', ['NO_RESPONSE']],
    ['accepted-202-for-request', ['STREAM_INCOMPLETE']],
    ['auth-401-same-id-retry', ['HTTP_ERROR', 'TOOL_SUCCESS']],
  ];
  it.each(wire)('%s', (scenario, outcomes) => {
    const { attempts } = proxyOnly(scenario);
    expect(calls(attempts).map((a) => a.outcome)).toEqual(outcomes);
  });

  it('without the client note, the proxy sees the 503 retry as of unknown origin', () => {
    const [, retry] = calls(proxyOnly('http-503-app-retry').attempts);
    expect(codes(retry)).toContain('RETRY_ORIGIN_AMBIGUOUS');
  });
});
