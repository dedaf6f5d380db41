// The sessions view's client of a scope without session ids: every client its initializes named (two apps against a stateless server share it), not the last one's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ok, post, toolText } from '../helpers/analyze.js';
import { BIN } from '../helpers/triage-cli.js';

const init = (t: number, name: string) =>
  post({ t, id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1.0.0' } }, status: 200,
    body: ok(0, { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'orders-nest', version: '1.0.0' } }) });
const call = (t: number, id: number) => post({ t, id, tool: 'lookup_order', args: { orderId: String(id) }, status: 200, body: ok(id, toolText('shipped')) });

function sessions(lines: unknown[], format?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcpt-sessions-'));
  const file = join(dir, 'proxy.ndjson');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const p = spawnSync(process.execPath, [BIN, 'sessions', ...(format ? ['--format', format] : []), file], { encoding: 'utf8', env: { ...process.env, COLUMNS: '200' } });
  expect(p.status).toBe(0);
  return p.stdout;
}
const clients = (lines: unknown[]) => (JSON.parse(sessions(lines, 'json')) as { sessions: { client?: string }[] }).sessions.map((s) => s.client);

describe('sessions: the client of a scope without session ids', () => {
  it('two apps against a stateless server (test/fixtures/real-audit11/nx-two-clients): both named, in order (before: only the last initialize\'s)', () => {
    const lines = [init(0, 'billing-agent'), init(10, 'support-agent'), call(20, 1), call(30, 1)];
    expect(clients(lines)).toEqual(['billing-agent/1.0.0, support-agent/1.0.0']);
    // the table keeps both names whole (a name's 28 characters each)
    const table = sessions(lines);
    expect(table).toContain('support-agent/1.0.0');
    expect(table).not.toMatch(/agent\S*…/);
  });

  it('must not: one client initializing twice (a reconnect) is named once', () => {
    expect(clients([init(0, 'billing-agent'), call(10, 1), init(20, 'billing-agent'), call(30, 1)])).toEqual(['billing-agent/1.0.0']);
  });
});
