// CALL_NEVER_SENT after a 403: an authorization failure only when the 403 challenges (WWW-Authenticate), else a refusal of another kind.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, post } from '../helpers/analyze.js';

const initialize = (headers: Record<string, string>, body: string) =>
  post({ id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'agent', version: '1' } }, status: 403, headers, body, ct: headers['content-type'] ?? 'text/plain' });

async function neverSent(headers: Record<string, string>, body: string): Promise<string | undefined> {
  const r = await analyzeInputs([{ side: 'client', lines: [initialize(headers, body)] }]);
  return r.findings.find((f) => f.code === 'CALL_NEVER_SENT')?.message;
}

describe('CALL_NEVER_SENT after HTTP 403', () => {
  it('a 403 without WWW-Authenticate (the Python SDK refusing an Origin) is no authorization failure, and says what the body said', async () => {
    // (the eighty-fourth audit: the check's words are quoted, and the check named)
    expect(await neverSent({ 'content-type': 'text/plain; charset=utf-8' }, 'Invalid Origin header')).toMatch(
      /the server refused the client without an authentication challenge \(no WWW-Authenticate; "Invalid Origin header"\): an Origin check \(DNS-rebinding protection\) refused the Origin the request carried \(.*\), so it never got to call a tool$/,
    );
  });

  it('a 403 with other words says what the body said, and names no check', async () => {
    expect(await neverSent({ 'content-type': 'text/plain; charset=utf-8' }, 'Forbidden by firewall rule 12')).toMatch(
      /the server refused the client without an authentication challenge \(no WWW-Authenticate, the body says: Forbidden by firewall rule 12\), so it never got to call a tool$/,
    );
  });

  it('a 403 that challenges (OAuth insufficient_scope) is one', async () => {
    const headers = { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="insufficient_scope", scope="mcp:tools"' };
    expect(await neverSent(headers, JSON.stringify({ error: 'insufficient_scope', error_description: 'needs mcp:tools' }))).toMatch(
      /the client could not authorize, so it never got to call a tool$/,
    );
  });
});
