// The MCP conformance suite 0.1.16 against the SDK 1.32.2 server, and its test servers against the SDK 1.32.2 and Python SDK 2.3.0 clients (test/fixtures/real-conformance), and what mcp-triage says of it.
// The recordings are committed; re-recording needs the suite in a scratch folder (see test/real-conformance/record.mjs).
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { triageCli, type CliRun } from '../helpers/triage-cli.js';
import { allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-conformance/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt { type: 'attempt'; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; serverOutcome?: string; call: string; attempt: number; findings: Finding[] }
interface SessionFinding { type: 'finding'; code: string; severity: string; message: string }
type Run = CliRun<Attempt, SessionFinding>;
interface Check { id: string; status: string; message?: string }
interface Observed { mode: 'server' | 'client'; client?: string; did: string; exit: number; checks: Check[] }

const observed = JSON.parse(readFileSync(`${DIR}observed.json`, 'utf8')) as Record<string, Observed>;
const run = (key: string): Run => {
  const o = observed[key]!;
  const args = ['--client', `${DIR}${key}.client.ndjson`];
  if (o.mode === 'server') args.push('--server', `${DIR}${key}.server.ndjson`);
  return triageCli<Attempt, SessionFinding>(args);
};
const passed = (key: string) => observed[key]!.checks.every((c) => c.status === 'SUCCESS' || c.status === 'WARNING');

describe('the conformance suite recordings', () => {
  it('has the server and client scenarios the README lists, each with its checks', () => {
    expect(Object.keys(observed).length).toBeGreaterThanOrEqual(24);
    for (const o of Object.values(observed)) expect(o.checks.length).toBeGreaterThan(0);
  });

  // Every scenario but the DNS-rebinding probe passed the suite's checks: every call got what the suite expected.
  const healthy = Object.keys(observed).filter((k) => k !== 'dns-rebinding-protection');
  it.each(healthy)('%s: the suite passed it, and mcp-triage sees no failure, no retry and no finding', (key) => {
    expect(passed(key)).toBe(true);
    const r = run(key);
    expect(r.attempts.length).toBeGreaterThan(0);
    for (const a of r.attempts) {
      expect(a.attempt).toBe(1);
      if (observed[key]!.mode === 'server') expect(a.serverOutcome).toBe(a.outcome);
    }
    expect(r.attempts.filter((a) => !['SUCCESS', 'TOOL_SUCCESS', 'TOOL_ERROR'].includes(a.outcome))).toEqual([]);
    expect(allCodes(r)).toEqual([]);
    expect(new Set(r.attempts.map((a) => a.call)).size).toBe(r.attempts.length);
  });

  it('tools-call-error: the tool threw, the server answered isError: true: TOOL_ERROR on both sides, nothing else', () => {
    const call = run('tools-call-error').attempts.find((a) => a.method === 'tools/call')!;
    expect([call.tool, call.outcome, call.serverOutcome]).toEqual(['test_error_handling', 'TOOL_ERROR', 'TOOL_ERROR']);
  });

  it('server-sse-polling and sse-retry: the server closed the call stream after its priming event; the result came on the GET with Last-Event-ID', () => {
    for (const key of ['server-sse-polling', 'sse-retry.sdk', 'sse-retry.py']) {
      const call = run(key).attempts.find((a) => a.method === 'tools/call')!;
      expect([call.tool, call.outcome, call.attempt]).toEqual(['test_reconnection', 'TOOL_SUCCESS', 1]);
    }
    expect(observed['sse-retry.sdk']!.checks.find((c) => c.id === 'client-sse-last-event-id')?.status).toBe('SUCCESS');
  });

  it('server-sse-multiple-streams: three tools/list at once in one session, each its own call', () => {
    const lists = run('server-sse-multiple-streams').attempts.filter((a) => a.method === 'tools/list');
    expect(lists.map((a) => [a.id, a.outcome]).sort()).toEqual([[1000, 'SUCCESS'], [1001, 'SUCCESS'], [1002, 'SUCCESS']]);
  });
});

describe('dns-rebinding-protection: a request from another web origin is another client', () => {
  it('the suite saw the evil Origin refused with 403 and the localhost one accepted', () => {
    expect(observed['dns-rebinding-protection']!.checks.map((c) => [c.id, c.status])).toEqual([
      ['localhost-host-rebinding-rejected', 'SUCCESS'],
      ['localhost-host-valid-accepted', 'SUCCESS'],
    ]);
  });

  it('two initialize calls, not a retry: the 403 stays the refused client\'s, with CALL_NEVER_SENT saying the server refused it', () => {
    const r = run('dns-rebinding-protection');
    const [evil, local] = r.attempts;
    expect([evil!.status, evil!.outcome, local!.status, local!.outcome]).toEqual([403, 'HTTP_ERROR', 200, 'SUCCESS']);
    expect(local!.call).not.toBe(evil!.call);
    expect(local!.attempt).toBe(1);
    expect(allCodes(r)).toEqual(['CALL_NEVER_SENT']);
    expect(r.findings[0]!.message).toContain('refused the client');
  });

  it('the same recording with one Origin on both requests is still a retry (RETRY_ORIGIN_AMBIGUOUS)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'conf-'));
    for (const side of ['client', 'server']) {
      const text = readFileSync(`${DIR}dns-rebinding-protection.${side}.ndjson`, 'utf8').replace(/"origin":"http:\/\/127\.0\.0\.1:\d+"/g, '"origin":"http://evil.example.com"');
      expect(text).not.toMatch(/"origin":"http:\/\/127/);
      writeFileSync(join(dir, `${side}.ndjson`), text);
    }
    const r = triageCli<Attempt, SessionFinding>(['--client', join(dir, 'client.ndjson'), '--server', join(dir, 'server.ndjson')]);
    const [evil, local] = r.attempts;
    expect(local!.call).toBe(evil!.call);
    expect(local!.attempt).toBe(2);
    expect(local!.findings.map((f) => f.code)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
  });
});
