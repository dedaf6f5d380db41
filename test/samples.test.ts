// The bundled samples: regenerated identically, and together they show every outcome and every finding code.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../src/index.js';
import { OUTCOMES } from '../src/outcomes.js';
import { FINDING_CODES } from '../src/findings/types.js';

const SAMPLE_INPUTS = [
  { path: 'samples/client.ndjson', side: 'client' as const },
  { path: 'samples/server.ndjson', side: 'server' as const },
  { path: 'samples/claims.ndjson' },
  { path: 'samples/capture.har.ndjson' },
  { path: 'samples/stdio.ndjson' },
];

describe('samples', () => {
  it('are exactly what test/fixtures/make-samples.mjs writes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpt-samples-'));
    execFileSync(process.execPath, ['test/fixtures/make-samples.mjs', dir]);
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f), 'utf8'), f).toBe(readFileSync(join('samples', f), 'utf8'));
  });

  it('produce every outcome and every finding code, with every line accounted for', async () => {
    const r = await analyze({ inputs: SAMPLE_INPUTS });
    const outcomes = new Set(r.attempts.map((a) => a.outcome));
    for (const o of OUTCOMES) expect(outcomes, o).toContain(o);
    const codes = new Set([...r.attempts.flatMap((a) => a.findings.map((f) => f.code)), ...r.findings.map((f) => f.code)]);
    for (const c of FINDING_CODES) expect(codes, c).toContain(c);
    expect(r.summary.lines.unusable).toBe(0);
    for (const i of r.summary.inputs) expect(i.lines).toBe(i.used + i.blank + i.unusable);
    expect(r.summary.claims).toMatchObject({ total: 4, matched: 4 });
  });

  it('tell the story the README walks through', async () => {
    const r = await analyze({ inputs: SAMPLE_INPUTS });
    const find = (tool: string, id: number) => r.attempts.find((a) => a.tool === tool && a.id === id)!;
    // The gateway's 503 never reached the server; the app's retry did, and the client said so.
    expect(find('create_ticket', 3)).toMatchObject({ outcome: 'HTTP_ERROR', status: 503, notSeenByServer: true });
    expect(find('create_ticket', 4)).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 2, retryOrigin: { origin: 'app' } });
    // 200 + JSON-RPC error logged as success by the client.
    expect(find('search_tickets', 5).findings.map((f) => f.code)).toEqual(['OUTCOME_MISMATCH']);
    // The cut export stream: the server sent the result, the client timed out locally and retried a non-idempotent tool.
    expect(find('export_report', 6)).toMatchObject({ outcome: 'STREAM_INCOMPLETE', serverOutcome: 'TOOL_SUCCESS' });
    expect(find('export_report', 6).findings.map((f) => f.code).sort()).toEqual(['CANCELLED', 'LOCAL_ERROR', 'NO_FINAL_RESULT', 'OUTCOME_MISMATCH', 'SIDE_DIVERGENCE']);
    expect(find('export_report', 7).findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity).toBe('error');
    // A proxy reset the stream (the end's error says so): the why does not call it the client's close, and it agrees
    // with the CANCELLED that came 45 s after the stream ended (60 s after the request).
    expect(find('export_report', 6).detail.why).toBe('the stream was aborted 15.00 s after sending it, before any response came (its end says "stream reset by proxy (idle timeout)", not a close by the client), and the client sent notifications/cancelled only 45.00 s later; 1 SSE event came before that');
    expect(find('export_report', 6).findings.find((f) => f.code === 'CANCELLED')?.message).toMatch(/notifications\/cancelled for it after 60\.0 s/);
    // The resumed stream delivered its result on the GET.
    expect(find('update_ticket', 8)).toMatchObject({ outcome: 'TOOL_SUCCESS', resumed: true, findings: [] });
  });
});
