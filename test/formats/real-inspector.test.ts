// Real MCP Inspector 2.12.0 exports (test/fixtures/real-inspector): History and Network, read as the JSON arrays they are.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));
const DIR = fileURLToPath(new URL('../fixtures/real-inspector/', import.meta.url));

function outcomes(file: string): { rows: string[]; unusable: number; formats: Record<string, number> } {
  const r = spawnSync(process.execPath, [BIN, '--format', 'ndjson', DIR + file], { encoding: 'utf8', timeout: 30_000 });
  const lines = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const summary = lines.find((l) => l.type === 'summary') as { lines: { unusable: number }; inputs: { formats: Record<string, number> }[] };
  const rows = lines.filter((l) => l.type === 'attempt' && l.method === 'tools/call').map((a) => `${String(a.tool)} ${String(a.status)} ${String(a.outcome)}`);
  return { rows, unusable: summary.lines.unusable, formats: summary.inputs[0]!.formats };
}

const SSE_CALLS = [
  'ok null TOOL_SUCCESS', 'fail_result null TOOL_ERROR', 'throws_mcp null JSONRPC_ERROR', 'throws_plain null JSONRPC_ERROR',
  'chatty null TOOL_SUCCESS', 'http503 503 HTTP_ERROR', 'collide null TOOL_SUCCESS', 'no_such_tool null JSONRPC_ERROR',
  'drop null NO_RESPONSE', 'slow null UNANSWERED', 'bad_result null JSONRPC_ERROR',
];

describe('real MCP Inspector exports', () => {
  it('History (SSE session): every call with its outcome; a failed send (clientError) is HTTP_ERROR 503 or NO_RESPONSE', () => {
    const r = outcomes('inspector-protocol-widgets-sse.json');
    expect(r.rows).toEqual(SSE_CALLS);
    expect(r.unusable).toBe(0);
    expect(Object.keys(r.formats)).toEqual(['inspector']);
  });

  it('Network (SSE session): the same calls with their HTTP statuses; the timed-out call kept no body', () => {
    const r = outcomes('inspector-network-widgets-sse.json');
    expect(r.rows).toEqual(SSE_CALLS.map((row) => row.replace(' null ', ' 200 ').replace('http503 200', 'http503 503').replace('drop 200', 'drop null')));
    expect(r.unusable).toBe(0);
    expect(Object.keys(r.formats)).toEqual(['inspector-network']);
  });

  it('JSON-response session, both exports agree', () => {
    const want = ['ok TOOL_SUCCESS', 'fail_result TOOL_ERROR', 'throws_mcp JSONRPC_ERROR', 'http503 HTTP_ERROR'];
    for (const file of ['inspector-protocol-widgets-json.json', 'inspector-network-widgets-json.json']) {
      expect(outcomes(file).rows.map((r) => r.replace(/ (null|\d{3}) /, ' ')), file).toEqual(want);
    }
  });

  it('a server down (503 to initialize) and a refused port: the Network export shows why nothing else happened', () => {
    const run = (file: string) => spawnSync(process.execPath, [BIN, '--format', 'ndjson', DIR + file], { encoding: 'utf8' }).stdout;
    expect(run('inspector-network-down-503.json')).toMatch(/"method":"initialize","tool":null,"status":503,"outcome":"HTTP_ERROR"/);
    expect(run('inspector-network-refused.json')).toMatch(/"method":"initialize","tool":null,"status":null,"outcome":"NO_RESPONSE"/);
  });
});
