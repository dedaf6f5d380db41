// The twenty-fourth audit: a Python SDK client DEBUG log exported newest first (Loki's logcli, gcloud logging read,
// a reversed file). Its reader carries state from line to line (the session id from "Received session ID" on; httpx's
// status line tied to the POST in flight), and the first lines, held while the order is probed, were read in file
// order: every message lost its session, the 500 its status, the retry its link, and the initialize response became
// an ORPHAN_RESPONSE. Lines shaped as /work/audit24/recordings/py/python-debug.log has them.
import { describe, expect, it } from 'vitest';
import { analyzeInputs } from '../helpers/analyze.js';

const SID = '4c01dbdc-a824-4f7b-8978-99794b8d4171';
const M = 'mcp.client.streamable_http';
function log(filler: number): string[] {
  const t = (ms: number) => {
    const d = new Date(Date.parse('2026-12-05T09:38:20.000Z') + ms).toISOString();
    return `${d.slice(0, 10)} ${d.slice(11, 19)},${d.slice(20, 23)}`;
  };
  const lines = [
    `${t(0)} - ${M} - DEBUG - Connecting to StreamableHTTP endpoint: http://127.0.0.1:44871/mcp`,
    `${t(9)} - ${M} - DEBUG - Sending client message: jsonrpc='2.0' id=1 method='initialize' params={'protocolVersion': '2025-11-25', 'capabilities': {}, 'clientInfo': {'name': 'audit24-py', 'version': '2.3.0'}}`,
    `${t(50)} - httpx2 - INFO - HTTP Request: POST http://127.0.0.1:44871/mcp "HTTP/1.1 200 OK"`,
    `${t(54)} - ${M} - INFO - Received session ID: ${SID}`,
    `${t(56)} - ${M} - DEBUG - SSE message: jsonrpc='2.0' id=1 result={'protocolVersion': '2025-11-25', 'capabilities': {'tools': {}}, 'serverInfo': {'name': 'audit24-server', 'version': '1.32.2'}}`,
    `${t(57)} - ${M} - DEBUG - Sending client message: jsonrpc='2.0' method='notifications/initialized' params=None`,
    `${t(70)} - httpx2 - INFO - HTTP Request: POST http://127.0.0.1:44871/mcp "HTTP/1.1 202 Accepted"`,
    `${t(71)} - ${M} - DEBUG - Received 202 Accepted`,
  ];
  // httpcore's lines between the handshake and the call (a long log: beyond the lines held to probe the order)
  for (let i = 0; i < filler; i++) lines.push(`${t(100 + i)} - httpcore2.http11 - DEBUG - receive_response_body.complete`);
  const t1 = 100 + filler;
  lines.push(
    `${t(t1)} - ${M} - DEBUG - Sending client message: jsonrpc='2.0' id=9 method='tools/call' params={'name': 'flaky_write', 'arguments': {'note': 'n1'}}`,
    `${t(t1 + 6)} - httpx2 - INFO - HTTP Request: POST http://127.0.0.1:44871/mcp "HTTP/1.1 500 Internal Server Error"`,
    `${t(t1 + 309)} - ${M} - DEBUG - Sending client message: jsonrpc='2.0' id=10 method='tools/call' params={'name': 'flaky_write', 'arguments': {'note': 'n1'}}`,
    `${t(t1 + 315)} - httpx2 - INFO - HTTP Request: POST http://127.0.0.1:44871/mcp "HTTP/1.1 200 OK"`,
    `${t(t1 + 318)} - ${M} - DEBUG - SSE message: jsonrpc='2.0' id=10 result={'content': [{'type': 'text', 'text': 'flaky_write done'}]}`,
  );
  return lines;
}

async function read(lines: string[]) {
  const r = await analyzeInputs([{ name: 'python-debug.log', lines: lines.join('\n') + '\n' }]);
  const calls = r.attempts.filter((a) => a.method === 'tools/call').map((a) => ({ id: a.id, session: a.session, outcome: a.outcome, attempt: a.attempt }));
  const init = r.attempts.find((a) => a.method === 'initialize')!;
  return { calls, init: init.outcome, orphans: r.findings.filter((f) => f.code === 'ORPHAN_RESPONSE').length, account: r.summary.inputs[0]! };
}

describe('a Python SDK DEBUG log exported newest first', () => {
  for (const filler of [0, 2500]) {
    it(`reads as the same log oldest first (${filler ? 'longer than the lines held to probe the order' : 'all lines held'})`, async () => {
      const oldest = await read(log(filler));
      expect(oldest.calls).toEqual([
        { id: 9, session: SID, outcome: 'HTTP_ERROR', attempt: 1 },
        { id: 10, session: SID, outcome: 'TOOL_SUCCESS', attempt: 2 },
      ]);
      const newest = await read(log(filler).reverse());
      expect(newest.calls).toEqual(oldest.calls);
      expect(newest.init).toBe('SUCCESS');
      expect(newest.orphans).toBe(0);
      // each line counted once, as its reading in time order found it
      for (const k of ['lines', 'used', 'skipped', 'unusable', 'records'] as const) expect(newest.account[k]).toBe(oldest.account[k]);
      expect(newest.account.formats).toEqual(oldest.account.formats);
    });
  }
});
