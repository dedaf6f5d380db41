// SESSION_ID_CHANGED: a response that hands out another Mcp-Session-Id than its request carried, outside an initialize (the twenty-third audit's hand-written server, s02a), and the cases that must not raise it.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { analyzeInputs, ok, post } from '../helpers/analyze.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit23/', import.meta.url));
const changed = async (inputs: { path: string; side: 'client' | 'server' }[]) =>
  (await analyze({ inputs })).attempts.flatMap((a) => a.findings.filter((f) => f.code === 'SESSION_ID_CHANGED').map((f) => ({ method: a.method, message: f.message, severity: f.severity })));
const pair = (scenario: string, client: string) => [
  { path: `${DIR}${scenario}/${client}/client.ndjson`, side: 'client' as const },
  { path: `${DIR}${scenario}/${client}/server.ndjson`, side: 'server' as const },
];

describe('SESSION_ID_CHANGED', () => {
  it('is raised once, on the request whose answer carried the new id, for each SDK client and in either log alone', async () => {
    for (const client of ['ts', 'py', 'v2']) {
      const both = await changed(pair('s02a-session-id-changes', client));
      expect(both, client).toHaveLength(1);
      expect(both[0]).toMatchObject({ method: 'tools/list', severity: 'warning' });
      expect(both[0]!.message).toMatch(/handed out session id "sess-0002" for a request sent in session "sess-0001", outside an initialize/);
      for (const one of pair('s02a-session-id-changes', client)) expect(await changed([one]), `${client} ${one.side}`).toHaveLength(1);
    }
  });

  it('ties a hop\'s 503 that carried another session id to the 404 the adopted id then met (the SDK 1.32.2 client, test/fixtures/real)', async () => {
    const REAL = fileURLToPath(new URL('../fixtures/real/session-id-adopted-from-error.', import.meta.url));
    const found = await changed([{ path: `${REAL}client.ndjson`, side: 'client' }, { path: `${REAL}server.ndjson`, side: 'server' }]);
    expect(found).toHaveLength(1);
    expect(found[0]!.method).toBe('tools/call');
    expect(found[0]!.message).toMatch(/handed out session id "session-of-another-client" for a request sent in session "[0-9a-f-]{36}"/);
  });

  it('is not raised for a session id given with the initialize result, late or at once', async () => {
    for (const scenario of ['s00-baseline', 's02b-session-id-late']) {
      for (const client of ['ts', 'py', 'v2']) expect(await changed(pair(scenario, client)), `${scenario} ${client}`).toEqual([]);
    }
  });

  it('is not raised for an initialize sent with a lost session\'s id and answered with a new one (it opens that session)', async () => {
    const lines = [
      post({ t: 0, id: 0, method: 'initialize', session: 'old-session', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } }, status: 200, headers: { 'mcp-session-id': 'new-session' }, body: ok(0, { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } }) }),
      post({ t: 100, id: 1, method: 'tools/list', session: 'new-session', status: 200, body: ok(1, { tools: [] }) }),
    ];
    const r = await analyzeInputs([{ side: 'client', lines }]);
    expect(r.attempts.flatMap((a) => a.findings.map((f) => f.code))).not.toContain('SESSION_ID_CHANGED');
  });
});
