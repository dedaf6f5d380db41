// What the README's Options section says of the flags, held to what the CLI does (the README audit of its first part).
import { describe, expect, it } from 'vitest';
import { BOTH, cli, SAMPLES } from './helpers.js';

const HAR = `${SAMPLES}capture.har.ndjson`;

/** The finding codes of a run's ndjson output, attempt and session findings together. */
const codes = (stdout: string) =>
  stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; code?: string; findings?: { code: string }[] })
    .flatMap((l) => (l.type === 'attempt' ? l.findings!.map((f) => f.code) : l.type === 'finding' ? [l.code!] : []));

describe('--idempotent', () => {
  // README, Options: lists (--idempotent among them) take the flag once per value or a comma list.
  it('takes a comma list as it takes the flag once per tool', async () => {
    const once = await cli([...BOTH, HAR, '--idempotent', 'export_report', '--idempotent', 'lookup_order', '--format', 'ndjson']);
    const comma = await cli([...BOTH, HAR, '--idempotent', 'export_report,lookup_order', '--format', 'ndjson']);
    expect(once.code).toBe(0);
    expect(comma.code).toBe(0);
    expect(codes(once.stdout)).not.toContain('UNSAFE_RETRY');
    expect(codes(comma.stdout)).toEqual(codes(once.stdout));
  });

  it('a comma list given to sessions counts the same', async () => {
    const once = await cli(['sessions', ...BOTH, HAR, '--idempotent', 'export_report', '--idempotent', 'lookup_order', '--format', 'json']);
    const comma = await cli(['sessions', ...BOTH, HAR, '--idempotent', 'export_report, lookup_order', '--format', 'json']);
    expect(JSON.parse(comma.stdout).sessions).toEqual(JSON.parse(once.stdout).sessions);
  });
});

describe('--help says what the README says of the options', () => {
  // yargs wraps the descriptions: compare with the white space folded.
  const help = async (argv: string[]) => (await cli(argv)).stdout.replace(/\s+/g, ' ');

  it('--min-retry-delay is the least delay before any retry, not only the first (RETRY_POLICY judges every retry so)', async () => {
    const text = await help(['--help']);
    expect(text).toContain('least delay before any retry');
    expect(text).not.toContain('before the first retry');
    // As the samples show: retry 2 of get_status came 90 ms after the failure and is judged by the same minimum.
    const run = await cli([`${SAMPLES}capture.har.ndjson`, '--format', 'ndjson']);
    expect(run.stdout).toContain('retry 2 came 90 ms after the failure; the policy asks at least 200 ms');
  });

  it('--min-retry-delay names the 2xx failures it judges the delay after, not only 408, 429 and 5xx', async () => {
    const text = await help(['--help']);
    expect(text).toContain('judged after a failure with no status or a 2xx');
    // The real-audit47 client's retry came at once after its HTTP 200 tool error (the app named it attempt 2): judged.
    const run = await cli(['--client', 'test/fixtures/real-audit47/note-retry/client.ndjson', '--format', 'ndjson']);
    const retry = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; tool?: string; attempt?: number; findings?: { code: string }[] })
      .find((l) => l.type === 'attempt' && l.tool === 'refund' && l.attempt === 2)!;
    expect(retry.findings!.map((f) => f.code)).toContain('RETRY_POLICY');
  });

  it('--fail-on counts findings as well as attempts', async () => {
    expect(await help(['--help'])).toContain('among the reported attempts and findings');
    const run = await cli([...BOTH, '--fail-on', 'UNSAFE_RETRY', '--quiet']);
    expect(run.code).toBe(1);
  });

  it('--color auto names TERM=dumb, --quiet names the notes', async () => {
    for (const argv of [['--help'], ['sessions', '--help'], ['timeline', '--help']]) {
      const text = await help(argv);
      expect(text).toContain('NO_COLOR is unset and TERM is not dumb');
      expect(text).toContain('no notes on stderr');
    }
    // The note of an assumed side is said on stderr, and not under --quiet.
    const loud = await cli(['--server', `${SAMPLES}server.ndjson`, `${SAMPLES}client.ndjson`]);
    const quiet = await cli(['--server', `${SAMPLES}server.ndjson`, `${SAMPLES}client.ndjson`, '--quiet']);
    expect(loud.stderr).toContain('read as the client\'s view');
    expect(quiet.stderr).toBe('');
  });

  it('sessions --help does not promise exit 2 for no such session (it lists none, exit 0); timeline --help does', async () => {
    expect(await help(['sessions', '--help'])).not.toContain('no such session');
    const none = await cli(['sessions', ...BOTH, '--session', 'zzz']);
    expect(none.code).toBe(0);
    expect(await help(['timeline', '--help'])).toContain('a SESSION that matches no session or several');
    expect((await cli(['timeline', 'zzz', ...BOTH])).code).toBe(2);
  });
});

describe('the built executable', () => {
  // README, Two commands: after `npm ci`, `npx mcp-triage ...` works from the clone. npx links the clone's bin
  // (dist/bin.cjs) once and makes it executable then; every later `npm run build` (npm test runs one) wrote it anew
  // without the executable bit, and npx answered "sh: 1: mcp-triage: Permission denied" (exit 127).
  it('dist/bin.cjs is executable after the build, and runs as its own program', async () => {
    const { statSync } = await import('node:fs');
    const { execFileSync } = await import('node:child_process');
    const bin = `${SAMPLES}../dist/bin.cjs`;
    expect(statSync(bin).mode & 0o111).toBe(0o111);
    expect(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
