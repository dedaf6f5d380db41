// CALL_NEVER_SENT after a 4xx that refused the request (not 401/403, not 408/429): the server refused it, and the message quotes why.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, post } from '../helpers/analyze.js';

const init = (status: number, body: string, ct = 'application/json') =>
  post({ id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'agent', version: '1' } }, status, body, ct });

async function neverSent(status: number, body: string, ct?: string): Promise<string | undefined> {
  const r = await analyzeInputs([{ side: 'client', lines: [init(status, body, ct)] }]);
  return r.findings.find((f) => f.code === 'CALL_NEVER_SENT')?.message;
}

describe('CALL_NEVER_SENT after a 4xx refusal', () => {
  it('a 400 with a JSON-RPC error (@hono/mcp refusing a second initialize): the server refused it, quoting the error', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: Server already initialized' }, id: null });
    expect(await neverSent(400, body)).toMatch(/initialize failed \(HTTP_ERROR, HTTP 400\) and no tools\/call was sent afterwards: the server refused it \("Invalid Request: Server already initialized"\), so the client never got to call a tool$/);
  });

  it('a plain-text 404 (a wrong path): refused, quoting the body', async () => {
    expect(await neverSent(404, 'Not Found', 'text/plain')).toMatch(/the server refused it \(the body says: Not Found\), so the client never got to call a tool$/);
  });

  it('a 429 or a 5xx is still a fault that may have been meant for a later request, quoting what its body said', async () => {
    expect(await neverSent(429, '{"error":"slow down"}')).toMatch(/a fault meant for tools\/call may have hit an earlier request \(the body says: slow down\)$/);
    // a gateway's 503 to Genkit's initialize (test/fixtures/real-audit11/gk-init-refused): before, its body was not named
    expect(await neverSent(503, 'no healthy upstream', 'text/plain')).toMatch(/initialize failed \(HTTP_ERROR, HTTP 503\) and no tools\/call was sent afterwards: a fault meant for tools\/call may have hit an earlier request \(the body says: no healthy upstream\)$/);
  });

  it('must not: a 503 with an empty body quotes nothing', async () => {
    expect(await neverSent(503, '', 'text/plain')).toMatch(/a fault meant for tools\/call may have hit an earlier request$/);
  });
});
