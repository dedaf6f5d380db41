// Two server replicas behind a proxy without sticky sessions (test/fixtures/real-replicas): the 404 comes from the
// replica that never saw the session, and SESSION_EXPIRED says so when both server logs are given.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));
const DIR = fileURLToPath(new URL('../fixtures/real-replicas/', import.meta.url));
const run = (args: string[]) => spawnSync(process.execPath, [BIN, '--format', 'ndjson', ...args], { encoding: 'utf8' }).stdout
  .split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; code?: string; message?: string; outcome?: string; method?: string });

describe('replicas without sticky sessions', () => {
  it('every 404 is named as coming from the other replica, with where the session began', () => {
    const lines = run(['--client', `${DIR}client.ndjson`, '--server', `${DIR}replicaA.ndjson`, '--server', `${DIR}replicaB.ndjson`]);
    const expired = lines.filter((l) => l.code === 'SESSION_EXPIRED').map((l) => l.message!);
    expect(expired.length).toBeGreaterThanOrEqual(3);
    for (const m of expired) expect(m).toMatch(/from .*replica[AB]\.ndjson, a server log that never saw this session's initialize \(it is at .*replica[AB]\.ndjson:\d+\): another server instance without the session \(sticky routing\?\)/);
    expect(lines.filter((l) => l.type === 'attempt' && l.outcome === 'HTTP_ERROR').length).toBe(expired.length);
  });

  it('with one server log, a 404 stays a plain expiry (nothing shows another instance)', () => {
    const lines = run(['--client', `${DIR}client.ndjson`, '--server', `${DIR}replicaA.ndjson`]);
    for (const l of lines.filter((x) => x.code === 'SESSION_EXPIRED')) expect(l.message).not.toMatch(/another server instance/);
  });
});
