// Audit 72's real captures (test/fixtures/real-audit72): mcpsnoop 0.22.0 trace files (stdio shim and HTTP proxy) around SDK 1.32.2 and Python mcp 2.3.0 servers and clients, judged against what each app got (observed.json) and the client's recordingFetch log.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit72/';
const RUNS = readdirSync(DIR).filter((d) => !d.includes('.'));
const HTTP = RUNS.filter((r) => r.startsWith('http-'));

type Row = { session: string | null; id: unknown; method: string; tool: string | null; status: number | null; outcome: string; side: string; ts?: string; call?: string; attempt?: number; findings: { code: string; message: string }[]; detail?: { why?: string } };
type Step = { label?: string; ok?: unknown; error?: { name: string; message: string; code?: number }; pythonClient?: Step[] };

/** The app's tool calls (its own and, in http-python-server, the Python client's), as observed.json kept them. */
function steps(run: string): Step[] {
  const all = JSON.parse(readFileSync(`${DIR}${run}/observed.json`, 'utf8')) as Step[];
  return all.flatMap((s) => s.pythonClient ?? [s]).filter((s) => s.label !== undefined && !/^(terminate|list tools|ping|connect without)/.test(s.label));
}
/** The tool a step called: its label's first word (after "session A: ", "the app retries: "). */
const toolOf = (s: Step) => s.label!.replace(/^(session [AB]|the app retries): /, '').split(' ')[0]!;
/** What the app saw, as the outcome (and HTTP status) of the attempt that carried it in mcpsnoop's trace. */
function expected(s: Step): string {
  if (s.ok && typeof s.ok === 'object' && 'isError' in s.ok) return `${toolOf(s)} ${(s.ok as { isError: boolean }).isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS'} 200`;
  if (s.error?.name === 'StreamableHTTPError') return `${toolOf(s)} HTTP_ERROR ${s.error.code}`;
  // The client's own timeout, or its stdio server gone: nothing answered the request in the trace.
  if (s.error?.name === 'McpError' && (s.error.code === -32001 || s.error.code === -32000)) return `${toolOf(s)} UNANSWERED -`;
  if (s.error?.name === 'McpError') return `${toolOf(s)} JSONRPC_ERROR 200`;
  throw new Error(`unexpected step ${JSON.stringify(s)}`);
}

async function run(sides: { client?: string; server?: string; plain?: string }) {
  const inputs = [
    ...(sides.client ? [{ path: `${DIR}${sides.client}`, side: 'client' as const }] : []),
    ...(sides.server ? [{ path: `${DIR}${sides.server}`, side: 'server' as const }] : []),
    ...(sides.plain ? [{ path: `${DIR}${sides.plain}` }] : []),
  ];
  const r = await analyze({ inputs });
  const summary = r.summary as unknown as { notes: string[]; inputs: { name: string; formats: Record<string, number>; used: number; skipped: number; unusable: number }[] };
  const rows = r.attempts as unknown as Row[];
  return { rows, calls: rows.filter((x) => x.method === 'tools/call'), inputs: summary.inputs, findings: r.findings as unknown as { code: string; message: string }[], all: JSON.stringify(r), diagnostics: r.diagnostics as unknown as { message: string; line?: number }[] };
}
const seen = (c: Row) => `${c.tool} ${c.outcome} ${c.status ?? '-'}`;

describe('real-audit72: each mcpsnoop trace read alone tells each call as the app saw it', () => {
  it.each(RUNS)('%s: every tool call, its outcome and HTTP status (stdio: none)', async (name) => {
    const { calls, inputs } = await run({ plain: `${name}/snoop.jsonl` });
    expect(Object.keys(inputs[0]!.formats)).toEqual(['mcpsnoop']);
    // (A POST mcpsnoop answered 502 itself, the server down, left no request frame: that call is not in the trace.)
    const want = steps(name).filter((s) => s.error?.code !== 502).map(expected).map((w) => (name.startsWith('stdio-') ? w.replace(/ 200$/, ' -') : w));
    expect(calls.map(seen).sort()).toEqual(want.sort());
  });

  it.each(RUNS.filter((r) => r !== 'stdio-nonjson' && r !== 'http-server-down'))('%s: no line is unusable (stderr, meta, 202, DELETE and probe frames are skipped or bodiless)', async (name) => {
    const { inputs } = await run({ plain: `${name}/snoop.jsonl` });
    expect(inputs[0]!.unusable).toBe(0);
  });
});

describe('real-audit72: what was wrong, now fixed', () => {
  it('http-restart: the 404 whose body is a JSON-RPC error for id null answers the POST of the old session (was UNANSWERED)', async () => {
    const { calls } = await run({ server: 'http-restart/snoop.jsonl' });
    const old = calls.find((c) => c.id === 2)!;
    expect([old.outcome, old.status]).toEqual(['HTTP_ERROR', 404]);
    expect(old.detail?.why).toMatch(/id null.*-32001: Session not found/);
    // the app's call again in its new session: the same call's retry
    const again = calls.find((c) => c.id === 1 && c.ts! > old.ts!)!;
    expect([again.outcome, again.call, again.attempt]).toEqual(['TOOL_SUCCESS', old.call, 2]);
  });

  it('http-401: the refused initialize is HTTP_ERROR 401 with what its body says, and its re-send raises no CALL_NEVER_SENT or RETRY_POLICY', async () => {
    const { rows, findings } = await run({ server: 'http-401/snoop.jsonl' });
    const init = rows.filter((r) => r.method === 'initialize');
    expect(init.map((r) => `${r.outcome} ${r.status}`)).toEqual(['HTTP_ERROR 401', 'SUCCESS 200']);
    expect(init[0]!.detail?.why).toBe('the body says: invalid_token (missing or bad bearer token)');
    expect(findings.map((f) => f.code)).not.toContain('CALL_NEVER_SENT');
    expect(findings.map((f) => f.code)).not.toContain('RETRY_POLICY');
  });

  it.each(['http-sse-cut', 'http-timeout-retry'])('%s: the client\'s notifications/cancelled, sent on another TCP connection, meets its request (was a session-level "never shows")', async (name) => {
    const { calls, findings } = await run({ server: `${name}/snoop.jsonl` });
    const first = calls[0]!;
    expect(first.outcome).toBe('UNANSWERED');
    expect(first.findings.map((f) => f.code)).toContain('CANCELLED');
    expect(findings.filter((f) => f.code === 'CANCELLED' && /never shows/.test(f.message))).toEqual([]);
  });

  it('http-timeout-retry: the app\'s retry after its timeout is linked to the timed-out attempt, and warned about (the tool ran twice: serverRan)', async () => {
    const { calls } = await run({ server: 'http-timeout-retry/snoop.jsonl' });
    expect(calls.map((c) => `${c.call}#${c.attempt}`)).toEqual([`${calls[0]!.call}#1`, `${calls[0]!.call}#2`]);
    expect(calls[1]!.findings.map((f) => f.code)).toContain('UNSAFE_RETRY');
    const ran = (JSON.parse(readFileSync(`${DIR}http-timeout-retry/observed.json`, 'utf8')) as { serverRan?: string[] }[]).find((s) => s.serverRan)!.serverRan!;
    expect(ran.filter((r) => r.endsWith('end'))).toHaveLength(2);
  });

  it('http-server-down: the 502s mcpsnoop made up for requests it never read are reported with what they are, not dropped silently', async () => {
    const { inputs, all } = await run({ server: 'http-server-down/snoop.jsonl' });
    expect(inputs[0]!.unusable).toBe(2);
    expect(all).toMatch(/mcpsnoop answered 502 itself \(it could not reach the server\) to a request whose body it never read/);
  });

  it('stdio-nonjson: the stray line on stdout is reported as one, and both calls still read', async () => {
    const { calls, inputs, all } = await run({ plain: 'stdio-nonjson/snoop.jsonl' });
    expect(inputs[0]!.unusable).toBe(1);
    expect(all).toMatch(/stray print on stdout/);
    expect(calls.map((c) => c.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_SUCCESS']);
  });
});

describe('real-audit72: near misses that must not change', () => {
  it('http-two-sessions: two clients through one proxy, the same ids in flight at once: each answer on its request, no ID_REUSED', async () => {
    const { calls, findings } = await run({ server: 'http-two-sessions/snoop.jsonl' });
    expect(calls.map(seen).sort()).toEqual(['crash TOOL_ERROR 200', 'lookup_order TOOL_SUCCESS 200', 'refund_order TOOL_ERROR 200', 'slow_report TOOL_SUCCESS 200']);
    expect([...calls.flatMap((c) => c.findings), ...findings].map((f) => f.code)).not.toContain('ID_REUSED');
  });

  it.each(HTTP)('%s: the 202 to a notification, the DELETE\'s bodiless 200 and the probe\'s status make no attempt', async (name) => {
    const { rows } = await run({ server: `${name}/snoop.jsonl` });
    expect(rows.every((r) => typeof r.method === 'string' && r.method !== '')).toBe(true);
    expect(rows.filter((r) => r.status !== null && r.status >= 400).map((r) => r.method)).toEqual(rows.filter((r) => r.outcome === 'HTTP_ERROR').map((r) => r.method));
  });

  it('stdio-calls: the client\'s timeout then its retry of the same call: linked, the first UNANSWERED and cancelled (no HTTP status on stdio)', async () => {
    const { calls } = await run({ plain: 'stdio-calls/snoop.jsonl' });
    const slow = calls.filter((c) => c.tool === 'slow_report');
    expect(slow.map((c) => `${c.outcome} ${c.attempt}`)).toEqual(['TOOL_SUCCESS 1', 'UNANSWERED 1', 'TOOL_SUCCESS 2']);
    expect(slow[1]!.findings.map((f) => f.code)).toContain('CANCELLED');
    expect(calls.every((c) => c.status === null)).toBe(true);
  });
});

describe('real-audit72: beside the client\'s recordingFetch log', () => {
  it.each(HTTP.filter((r) => r !== 'http-python-server'))('%s: the client\'s view and mcpsnoop\'s agree on each call it saw (outcome and status), read apart', async (name) => {
    const client = (await run({ client: `${name}/client.ndjson` })).calls;
    const snoop = (await run({ server: `${name}/snoop.jsonl` })).calls;
    for (const s of snoop) {
      // mcpsnoop cannot show a 200 whose SSE stream brought no event: the client's STREAM_INCOMPLETE is its UNANSWERED
      const gap = (x: Row) => Math.abs(Date.parse(x.ts!) - Date.parse(s.ts!));
      const c = client.filter((x) => x.id === s.id && x.tool === s.tool && gap(x) < 100).sort((x, y) => gap(x) - gap(y));
      expect(c.length, `${name} ${s.tool} id ${String(s.id)}`).toBeGreaterThan(0);
      if (s.outcome === 'UNANSWERED') expect(c[0]!.outcome).toBe('STREAM_INCOMPLETE');
      else expect(`${c[0]!.outcome} ${c[0]!.status}`).toBe(`${s.outcome} ${s.status}`);
    }
  });

  // Joined after the audit: mcpsnoop's trace names no Mcp-Session-Id, the client's log does; they meet by id, method,
  // arguments, answer and time (the loose join's mirror). http-python-server's trace holds the Python client's calls
  // too (not in this client log); http-redact's trace has the argument rewritten ([REDACTED]), so that call stays apart.
  it.each(HTTP.filter((r) => r !== 'http-python-server' && r !== 'http-redact'))('%s: given as --client and --server, each call is one attempt with both views, and a note says how they were joined', async (name) => {
    const alone = (await run({ client: `${name}/client.ndjson` })).rows;
    const snoop = (await run({ server: `${name}/snoop.jsonl` })).calls;
    const pair = await run({ client: `${name}/client.ndjson`, server: `${name}/snoop.jsonl` });
    expect(pair.rows.length).toBe(alone.length);
    const both = pair.calls.filter((c) => (c as Row & { serverOutcome?: string }).serverOutcome !== undefined);
    expect(both.length).toBe(snoop.length);
    // (the v2 server is stateless: no session id on either side, so they meet as before, with no note)
    if (alone.some((r) => r.session !== null)) expect(pair.all).toMatch(/requests? of a server log that names no session id \(a server's own message log that leaves it out, mcpsnoop's HTTP trace\) (was|were) joined to the client's view/);
  });

  it('http-redact: --redact-secrets kept the apiKey argument out of the trace ([REDACTED], redacted: true), and no secret reaches the report', async () => {
    const trace = readFileSync(`${DIR}http-redact/snoop.jsonl`, 'utf8');
    expect(trace).not.toContain('sk-audit72-argument-secret');
    expect(trace).toMatch(/"apiKey":"\[REDACTED\]".*"redacted":true/);
    const { all } = await run({ client: 'http-redact/client.ndjson', server: 'http-redact/snoop.jsonl' });
    expect(all).not.toContain('sk-audit72');
  });
});
