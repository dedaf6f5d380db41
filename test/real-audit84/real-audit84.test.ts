// Audit 84's real captures (test/fixtures/real-audit84): the SDKs' own HTTP framework helpers and their request guards (SDK 1.32.2 createMcpExpressApp and its transport's options, the v2 express and hono helpers, the Python SDK's transport security) refusing a Host, an Origin or a body, judged against what the app saw (observed.json).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit84/';
const RUNS = readdirSync(DIR).filter((d) => !d.includes('.'));

type Row = { session: string | null; id: unknown; method: string; tool: string | null; status: number | null; outcome: string; layer: string; side: string; call?: string; attempt?: number; serverOutcome?: string; serverStatus?: number; retryOrigin?: { origin: string; how: string }; findings: { code: string; message: string }[]; detail?: { why?: string; errorMessage?: string; errorCode?: number } };
type Step = { step: string; ok?: unknown; threw?: { name: string; message: string; code?: number | string } };
interface Observed { scenario: string; steps: Step[]; serverRan: string[]; hostRule: string; origin?: string; maxBody?: number }

const observed = (run: string): Observed => JSON.parse(readFileSync(`${DIR}${run}/observed.json`, 'utf8')) as Observed;
/** The client's view: recordingFetch's log, or the Python client's DEBUG log. */
const clientFile = (run: string) => (existsSync(`${DIR}${run}/client.ndjson`) ? 'client.ndjson' : 'client-debug.log');
/**
 * The server's view: recordingHandler in front of the helper's app; for the Python server, the recording proxy (a Host
 * the hop rewrote after it); beside the Python client's DEBUG log, the proxy's too (it has the refusals' bodies, which
 * the server's bodiless records of them and that log leave out: v2x-host-mid-py, whose server.ndjson is checked apart).
 */
const serverFile = (run: string) => (existsSync(`${DIR}${run}/server.ndjson`) && clientFile(run) === 'client.ndjson' ? 'server.ndjson' : 'proxy.ndjson');

async function run(inputs: { path: string; side?: 'client' | 'server' }[], stdin?: string[]) {
  const r = await analyze({ inputs, ...(stdin ? { stdin: Readable.from(stdin.map((l) => `${l}\n`)) } : {}) });
  const rows = r.attempts as unknown as Row[];
  const findings = [...(r.findings as unknown as { code: string; message: string }[]), ...rows.flatMap((x) => x.findings)];
  return { rows, findings, all: JSON.stringify(r) };
}
const both = (name: string) => run([{ path: `${DIR}${name}/${clientFile(name)}`, side: 'client' }, { path: `${DIR}${name}/${serverFile(name)}`, side: 'server' }]);
const codes = (f: { code: string }[]) => f.map((x) => x.code);

/** The guard's own words each kind of refusal answers with (its body), by scenario. */
function guardWords(name: string): RegExp {
  if (/-host-|transport-hosts/.test(name)) return /Invalid Host/;
  if (/origin/.test(name)) return /Invalid Origin/;
  return /request entity too large|Payload Too Large: Request body must not exceed 32768 bytes|Request body too large/;
}
const refusedSteps = (o: Observed) => o.steps.filter((s) => s.threw !== undefined && !s.step.startsWith('OPTIONS'));

describe('real-audit84: healthy calls through each helper', () => {
  it.each(RUNS.filter((r) => r.endsWith('-ok')))('%s: every request succeeds, nothing is flagged, both tools ran', async (name) => {
    const o = observed(name);
    expect(o.steps.every((s) => s.threw === undefined)).toBe(true);
    expect(o.serverRan).toEqual(['lookup_order A-1001', 'send_invoice A-1001']);
    const { rows, findings } = await both(name);
    expect(rows.filter((r) => r.method === 'tools/call').map((r) => r.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_SUCCESS']);
    expect(rows.every((r) => r.outcome === 'SUCCESS' || r.outcome === 'TOOL_SUCCESS')).toBe(true);
    expect(findings).toEqual([]);
  });
});

describe('real-audit84: a refusal of the guard is HTTP_ERROR in the transport layer, in the guard\'s own words, and nothing ran', () => {
  const refusing = RUNS.filter((r) => !r.endsWith('-ok'));
  it.each(refusing)('%s', async (name) => {
    const o = observed(name);
    const { rows, findings } = await both(name);
    const failed = rows.filter((r) => r.outcome !== 'SUCCESS' && r.outcome !== 'TOOL_SUCCESS');
    // every step the app saw refused is an attempt refused (the TypeScript client against the Python server's 421:
    // two POSTs each, its fetch's re-send, test below)
    const resends = failed.filter((r) => r.retryOrigin?.origin === 'sdk' && /421 Misdirected Request/.test(r.retryOrigin.how)).length;
    expect(failed.length - resends).toBe(refusedSteps(o).length);
    for (const r of failed) {
      expect(r.outcome).toBe('HTTP_ERROR');
      expect(r.layer).toBe('transport');
      expect(JSON.stringify(r.detail)).toMatch(guardWords(name));
    }
    // no tool body ran for a refused call, and none is said to have: no UNSAFE_RETRY, no NO_FINAL_RESULT
    expect(o.serverRan.some((x) => x.startsWith('send_invoice INV-') || x.includes('A-2002') || x.includes('A-4004'))).toBe(false);
    expect(codes(findings)).not.toContain('UNSAFE_RETRY');
    expect(codes(findings)).not.toContain('NO_FINAL_RESULT');
    expect(codes(findings)).not.toContain('SIDE_DIVERGENCE');
    // the app's retries link to the call they repeat (the body-limit run: one call of two attempts, then the small call)
    if (name.endsWith('-body')) {
      const invoices = rows.filter((r) => r.tool === 'send_invoice');
      expect(invoices.map((r) => r.outcome)).toEqual(['HTTP_ERROR', 'HTTP_ERROR', 'TOOL_SUCCESS']);
      expect(invoices[1]!.call).toBe(invoices[0]!.call);
      expect(invoices[2]!.call).not.toBe(invoices[0]!.call);
    }
  });

  it.each(refusing.filter((r) => !r.endsWith('-body')))('%s: the why says a Host or Origin check refused it before any handler read it', async (name) => {
    const { rows } = await both(name);
    const check = /origin/.test(name) ? 'an Origin check' : 'a Host check';
    for (const r of rows.filter((x) => x.outcome === 'HTTP_ERROR')) expect(r.detail?.why).toContain(`${check} refused it before any MCP handler read it, so nothing ran`);
  });

  it.each(refusing.filter((r) => existsSync(`${DIR}${r}/server.ndjson`)))('%s: the server\'s log (recordingHandler in front of the guard) saw each refused POST', async (name) => {
    const { rows } = await both(name);
    for (const r of rows.filter((x) => x.outcome === 'HTTP_ERROR')) {
      expect(r.serverOutcome).toBe('HTTP_ERROR');
      expect(r.side).toBe('client');
    }
    expect(rows.some((r) => r.side === 'server')).toBe(false);
  });
});

describe('real-audit84: a refused connect is CALL_NEVER_SENT, naming the check', () => {
  const givingUp = RUNS.filter((r) => observed(r).steps.some((s) => s.step.startsWith('the app gives up')));
  it.each(givingUp)('%s', async (name) => {
    const { findings } = await both(name);
    const cns = findings.filter((f) => f.code === 'CALL_NEVER_SENT');
    expect(cns).toHaveLength(1);
    expect(cns[0]!.message).toMatch(/initialize failed \(HTTP_ERROR, HTTP (403|421)\)/);
    expect(cns[0]!.message).toMatch(guardWords(name));
    expect(cns[0]!.message).toContain(/origin/.test(name) ? 'an Origin check (DNS-rebinding protection)' : 'a Host check (DNS-rebinding protection)');
  });

  it.each(givingUp.filter((r) => !r.includes('-mid')))('%s: the new Client\'s initialize after a guard\'s refusal is no auth retry', async (name) => {
    const { rows } = await both(name);
    const again = rows.filter((r) => r.method === 'initialize' && (r.attempt ?? 1) > 1);
    expect(again.length).toBeGreaterThan(0);
    for (const r of again) {
      expect(r.retryOrigin!.origin).toBe('unknown');
      if (r.status === 403) expect(r.retryOrigin!.how).toMatch(/^same id re-posted after HTTP 403 from (a Host|an Origin) check \(".*"\), which is no authorization challenge/);
      expect(r.retryOrigin!.how).not.toContain('onUnauthorized');
    }
  });

  it('near miss: a 403 without a guard\'s words says only that the server refused the client', async () => {
    const lines = readFileSync(`${DIR}v2x-host-proxy/client.ndjson`, 'utf8').trim().split('\n').map((l) => l.replaceAll('Invalid Host: mcp.example.com', 'Access denied by policy'));
    const { rows, findings } = await run([{ path: '-', side: 'client' }], lines);
    expect(rows.every((r) => !(r.detail?.why ?? '').includes('check refused'))).toBe(true);
    const cns = findings.filter((f) => f.code === 'CALL_NEVER_SENT');
    expect(cns).toHaveLength(1);
    expect(cns[0]!.message).toContain('the server refused the client without an authentication challenge (no WWW-Authenticate');
    expect(cns[0]!.message).not.toContain('DNS-rebinding');
  });
});

describe('real-audit84: Node\'s fetch re-sends a request answered 421 (the Python SDK\'s Host check) once, below the client\'s log', () => {
  const name = 'py-host-mid-ts';
  it('the proxy saw every refused POST twice; the client\'s recordingFetch once', async () => {
    const posts = (f: string) => readFileSync(`${DIR}${name}/${f}`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; status?: number }).filter((r) => r.kind === 'response' && r.status === 421).length;
    expect(posts('client.ndjson')).toBe(refusedSteps(observed(name)).length);
    expect(posts('proxy.ndjson')).toBe(2 * refusedSteps(observed(name)).length);
  });

  it.each([['the proxy\'s log alone', false], ['the client\'s log joined with the proxy\'s', true]] as const)('%s: each re-send is attempt 2 of its call, sent by the HTTP client, and no retry of the app\'s policy', async (_, joined) => {
    const { rows, findings } = joined ? await both(name) : await run([{ path: `${DIR}${name}/proxy.ndjson`, side: 'server' }]);
    const invoices = rows.filter((r) => r.tool === 'send_invoice');
    // one call: the app's call, its fetch's re-send, the app's retry, its re-send
    expect(invoices).toHaveLength(4);
    expect(new Set(invoices.map((r) => r.call)).size).toBe(1);
    expect(invoices.map((r) => r.retryOrigin?.origin ?? null)).toEqual([null, 'sdk', 'unknown', 'sdk']);
    expect(invoices[1]!.retryOrigin!.how).toMatch(/^the same request posted again at once after HTTP 421 Misdirected Request: the HTTP client's own re-send/);
    expect(codes(findings)).not.toContain('RETRY_POLICY');
    expect(codes(findings)).not.toContain('UNSAFE_RETRY');
    // the refused connect: one call of two POSTs, one CALL_NEVER_SENT
    const inits = rows.filter((r) => r.method === 'initialize' && r.status === 421);
    expect(inits).toHaveLength(2);
    expect(inits[1]!.call).toBe(inits[0]!.call);
    expect(findings.filter((f) => f.code === 'CALL_NEVER_SENT')).toHaveLength(1);
    // the RETRY_ORIGIN_AMBIGUOUS left is the app's own retry, which no log names
    expect(findings.filter((f) => f.code === 'RETRY_ORIGIN_AMBIGUOUS').map((f) => f.message)).toEqual([expect.stringContaining('POST 3 of the call')]);
  });

  it('near miss: the same id posted again a second and more after a 421 is no HTTP client\'s re-send', async () => {
    const lines = readFileSync(`${DIR}${name}/proxy.ndjson`, 'utf8').trim().split('\n');
    // the records of each second POST of a refused request moved 1.5 s later (and all after them)
    let shift = 0;
    const seen = new Set<string>();
    const out = lines.map((l) => {
      const r = JSON.parse(l) as { kind: string; ts: string; xid: string; send?: unknown };
      if (r.kind === 'request' && r.send !== undefined) {
        const key = JSON.stringify(r.send);
        if (seen.has(key)) shift += 1500;
        seen.add(key);
      }
      return JSON.stringify({ ...r, ts: new Date(Date.parse(r.ts) + shift).toISOString() });
    });
    const { rows } = await run([{ path: '-', side: 'server' }], out);
    const invoices = rows.filter((r) => r.tool === 'send_invoice');
    expect(invoices.filter((r) => r.retryOrigin?.origin === 'sdk')).toHaveLength(0);
  });
});

describe('real-audit84: the Python client\'s DEBUG log, which has no error bodies, joined with the server\'s view', () => {
  it('v2x-host-mid-py: beside the server\'s recordingHandler log, whose refusals have no request body, each refused POST is seen by the server', async () => {
    const name = 'v2x-host-mid-py';
    const { rows } = await run([{ path: `${DIR}${name}/client-debug.log`, side: 'client' }, { path: `${DIR}${name}/server.ndjson`, side: 'server' }]);
    const failed = rows.filter((r) => r.outcome === 'HTTP_ERROR');
    expect(failed.map((r) => `${r.method} ${r.status}`)).toEqual(['tools/call 403', 'tools/call 403', 'initialize 403']);
    for (const r of failed) {
      expect(r.serverOutcome).toBe('HTTP_ERROR');
      // (its words from the server's record of the response, which the client's DEBUG log leaves out)
      expect(r.detail?.why).toContain("the server's log has this POST without its body, answered with HTTP 403; the server's view of this POST has its body: Invalid Host: mcp.example.com; a Host check refused it before any MCP handler read it");
    }
    const { findings } = await run([{ path: `${DIR}${name}/client-debug.log`, side: 'client' }, { path: `${DIR}${name}/server.ndjson`, side: 'server' }]);
    expect(findings.filter((f) => f.code === 'CALL_NEVER_SENT').map((f) => f.message)).toEqual([expect.stringContaining('"Invalid Host: mcp.example.com"): a Host check (DNS-rebinding protection)')]);
    expect(rows.some((r) => r.side === 'server')).toBe(false);
  });

  it.each(RUNS.filter((r) => clientFile(r) === 'client-debug.log' && !r.endsWith('-ok')))('%s: the why quotes the body the server\'s view has', async (name) => {
    const { rows } = await both(name);
    const failed = rows.filter((r) => r.outcome === 'HTTP_ERROR');
    expect(failed.length).toBeGreaterThan(0);
    for (const r of failed) {
      expect(r.detail?.why).toMatch(/the body is not in the Python SDK's log/);
      expect(r.detail?.why).toMatch(new RegExp(`the server's view of this POST has its body: (-32000 ")?(${guardWords(name).source})`));
    }
  });

  it('near miss: a client log that has the body keeps its own words, and is not told the server\'s', async () => {
    const { rows } = await both('py-host-mid-ts');
    for (const r of rows.filter((x) => x.outcome === 'HTTP_ERROR')) expect(r.detail?.why).not.toContain("the server's view of this POST has its body");
  });
});
