// Audit 47's real captures (test/fixtures/real-audit47): the README's capture snippets run as written against the SDK 1.32.2.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit47/';

type Row = { tool: string | null; outcome: string; serverOutcome?: string; call?: string; attempt?: number; retryOrigin?: { origin: string }; findings: { code: string; severity: string; message: string }[] };

async function run(inputs: { path: string; side?: 'client' | 'server' }[]): Promise<{ rows: Row[]; said: string[] }> {
  const said: string[] = [];
  const r = await analyze({ inputs, onDiagnostic: (line) => said.push(line) });
  return { rows: r.attempts as unknown as Row[], said };
}

describe('real-audit47 note-retry: the app calls refund again after its tool error, both requests noted call "refund-1001"', () => {
  const observed = JSON.parse(readFileSync(`${DIR}note-retry/observed.json`, 'utf8')) as { steps: { step: string; result: { isError?: boolean } }[] };
  const files = { client: `${DIR}note-retry/client.ndjson`, server: `${DIR}note-retry/server.ndjson` };

  it('the caller got the tool error both times (observed.json)', () => {
    expect(observed.steps.filter((s) => s.step.startsWith('refund')).map((s) => s.result.isError)).toEqual([true, true]);
  });

  for (const [name, inputs] of [
    ['client and server', [{ path: files.client }, { path: files.server }]],
    ['the client alone', [{ path: files.client }]],
  ] as const) {
    it(`${name}: the retry is attempt 2 of the call, and its findings say the caller got the tool error, not that it did not`, async () => {
      const { rows } = await run([...inputs]);
      const refund = rows.filter((a) => a.tool === 'refund');
      expect(refund.map((a) => [a.outcome, a.attempt])).toEqual([['TOOL_ERROR', 1], ['TOOL_ERROR', 2]]);
      expect(refund[1]!.call).toBe(refund[0]!.call);
      expect(refund[1]!.retryOrigin?.origin).toBe('app');
      const unsafe = refund[1]!.findings.find((f) => f.code === 'UNSAFE_RETRY')!;
      const policy = refund[1]!.findings.find((f) => f.code === 'RETRY_POLICY')!;
      expect(unsafe.message).not.toMatch(/did not get/);
      expect(policy.message).not.toMatch(/did not get/);
      expect(policy.message).toMatch(/^tools\/call refund: retry 1 came \d+ ms after the earlier attempt ended \(TOOL_ERROR, which the caller got\); the policy asks at least 200 ms \(--min-retry-delay\)$/);
      if (name === 'client and server') {
        expect(unsafe.severity).toBe('error');
        expect(unsafe.message).toContain('the server view shows the earlier attempt ran to its result (TOOL_ERROR), which the caller got before it retried');
      }
    });
  }
});

describe('real-audit47 one-file: recordingFetch and the recording proxy append to the same mcp.ndjson', () => {
  const file = `${DIR}one-file/mcp.ndjson`;

  it('the two recorders\' records of each request are both there, under different xid prefixes', () => {
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; side?: string; xid: string });
    const prefixes = (side: string | undefined) => new Set(lines.filter((l) => l.side === side).map((l) => l.xid.split('-')[0]));
    expect(prefixes('client').size).toBe(1);
    expect(prefixes(undefined).size).toBe(1);
    expect([...prefixes('client')][0]).not.toBe([...prefixes(undefined)][0]);
  });

  it('the note says the file mixes records with and without a side, and does not name the file as a second input', async () => {
    const { rows, said } = await run([{ path: file }]);
    expect(rows.filter((a) => a.tool === 'echo')).toHaveLength(2); // the client's view and the proxy's, counted apart
    const note = said.filter((l) => l.includes('same sessions'));
    expect(note).toHaveLength(1);
    expect(note[0]).not.toContain(`carries the same sessions as ${file}`);
    expect(note[0]).toContain(`${file} holds records that state a side (client) and records of the same sessions that state none`);
  });
});
