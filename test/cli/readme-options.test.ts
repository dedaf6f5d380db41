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
