// The MCP test kitchen's catalog interceptor (test/fixtures/real-kitchen/catalog-*): HTTP 200 application/json with a
// schema-invalid resources/read and prompts/get result, which every SDK client refused (observed.json). What mcp-triage
// must say of each read, in each view. node test/real-kitchen/record-catalog.mjs re-records them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordingRunner, type RecordingView as View } from '../helpers/triage-cli.js';

const DIR = fileURLToPath(new URL('../fixtures/real-kitchen/', import.meta.url));

interface Attempt { method: string; status: number | null; outcome: string; layer: string; detail?: { why?: string }; findings: unknown[]; call: string; attempt: number }
interface Observed { steps: { step: string; ok: boolean; error?: { name: string; message: string; code?: string } }[] }

const run = recordingRunner<Attempt, unknown>(DIR);
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
/** The application's steps, in order: both reads, both prompts, the tool call. */
const STEP_METHODS = ['resources/read', 'resources/read', 'prompts/get', 'prompts/get', 'tools/call'];

describe('the test kitchen\'s schema-invalid catalog results', () => {
  it.each(['catalog-ts', 'catalog-v2', 'catalog-py'])('%s: each read the SDK client refused is INVALID_RESULT (protocol layer) in every view; each it took is a success', (s) => {
    const steps = observed(s).steps;
    expect(steps.map((x) => x.ok)).toEqual([true, false, true, false, true]);
    for (const view of ['both', 'client', 'server'] as View[]) {
      const r = run(s, view);
      expect(r.unusable, view).toBe(0);
      const used = r.attempts.filter((a) => STEP_METHODS.includes(a.method));
      expect(used.map((a) => a.method), view).toEqual(STEP_METHODS);
      used.forEach((a, i) => {
        expect(a.status, `${view} ${steps[i]!.step}`).toBe(200);
        expect(a.outcome, `${view} ${steps[i]!.step}`).toBe(steps[i]!.ok ? (a.method === 'tools/call' ? 'TOOL_SUCCESS' : 'SUCCESS') : 'INVALID_RESULT');
        if (!steps[i]!.ok) expect(a.layer).toBe('protocol');
      });
      // no invented findings: nothing was retried, nothing disagreed
      expect([...r.findings, ...r.attempts.flatMap((a) => a.findings)], view).toEqual([]);
    }
  });

  it('the why names what the client refused: the missing uri and role (SDK 1.32.2: ZodError; Python: ValidationError), the missing resultType on 2026-07-28 (v2: SdkError INVALID_RESULT)', () => {
    const whys = (s: string) => run(s).attempts.filter((a) => a.outcome === 'INVALID_RESULT').map((a) => a.detail?.why ?? '');
    for (const s of ['catalog-ts', 'catalog-py']) {
      const [read, prompt] = whys(s);
      expect(read, s).toMatch(/^contents\[0\]\.uri is missing: the MCP schema of a resources\/read result does not allow it; SDK clients check this/);
      expect(prompt, s).toMatch(/^messages\[0\]\.role is missing: the MCP schema of a prompts\/get result/);
    }
    expect(observed('catalog-ts').steps[1]!.error).toMatchObject({ name: '$ZodError', message: expect.stringContaining('"uri"') });
    expect(observed('catalog-py').steps[1]!.error).toMatchObject({ name: 'ValidationError', message: expect.stringContaining('ReadResourceResult') });
    for (const why of whys('catalog-v2')) expect(why).toMatch(/^no resultType, on protocol 2026-07-28: .*the TypeScript SDK v2 client refuses the result \(SdkError INVALID_RESULT, "missing required resultType"\)/);
    expect(observed('catalog-v2').steps[1]!.error).toMatchObject({ name: 'SdkError', code: 'INVALID_RESULT', message: expect.stringContaining('missing required resultType') });
  });
});
