// The SDK 1.32.2 package's own example servers and clients, run as shipped (test/fixtures/real-examples): what mcp-triage
// must say of each, in the client's view, the server's and both, against what the example client printed
// (observed.json). node test/real-examples/record.mjs re-records them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordingRunner, type CliRun, type RecordingView as View } from '../helpers/triage-cli.js';

const DIR = fileURLToPath(new URL('../fixtures/real-examples/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  session: string | null; method: string; tool: string | null; status: number | null; outcome: string; serverOutcome?: string;
  call: string; attempt: number; findings: Finding[]; resumed?: true; retryOrigin?: { origin: string; how: string };
  detail?: { why?: string; errorMessage?: string };
}
type Run = CliRun<Attempt, Finding>;
interface Observed { sdk: string; exit: { code: number | null }; clientOutput: string[] }

const SCENARIOS = [
  'sse-polling', 'parallel-tool-calls', 'multiple-clients-parallel', 'multiple-clients-stateless', 'json-response-unknown-tool',
  'sse-fallback-legacy-server', 'sse-fallback-compatible-server', 'task-interactive', 'task-interactive-no-terminal',
  'interactive-client-tour',
];
const VIEWS: View[] = ['both', 'client', 'server'];
const run = recordingRunner<Attempt, Finding>(DIR);
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
const printed = (s: string, re: RegExp) => observed(s).clientOutput.filter((l) => re.test(l)).length;
const shape = (r: Run) => r.attempts.map((a) => `${a.method}${a.tool ? ` ${a.tool}` : ''} ${a.status} ${a.outcome} ${a.call}#${a.attempt}`);
const codes = (r: Run) => [...r.findings, ...r.attempts.flatMap((a) => a.findings)].map((f) => f.code).sort();

describe('the SDK\'s example servers and clients, as shipped', () => {
  it.each(SCENARIOS)('%s: recorded with SDK 1.32.2, every line used in every view, one attempt per view pair', (s) => {
    expect(observed(s).sdk).toBe('1.32.2');
    expect(observed(s).exit.code).toBe(0);
    const both = run(s);
    for (const view of VIEWS) {
      const r = run(s, view);
      expect(r.unusable, view).toBe(0);
      expect(r.attempts.length, view).toBe(both.attempts.length);
      expect(r.attempts.every((a) => a.status !== null), view).toBe(true);
    }
  });

  it('sse-polling: the server closes the call\'s stream mid-task and the client resumes with Last-Event-ID: a resumed success, no finding', () => {
    expect(printed('sse-polling', /^\[Client\] Tool completed!$/)).toBe(1);
    for (const view of VIEWS) {
      const r = run('sse-polling', view);
      const call = r.attempts.find((a) => a.method === 'tools/call')!;
      expect(call, view).toMatchObject({ tool: 'long-task', outcome: 'TOOL_SUCCESS', resumed: true });
      expect(codes(r), view).toEqual([]);
    }
  });

  it('parallel-tool-calls and multiple-clients: concurrent calls of one tool are separate calls, never retries; no id clash across clients', () => {
    for (const s of ['parallel-tool-calls', 'multiple-clients-parallel', 'multiple-clients-stateless']) {
      // the stateful server's clients print an error for their standalone GET stream, aborted at disconnect
      expect(printed(s, /Client error: Error: SSE stream disconnected: AbortError/) > 0, s).toBe(s !== 'multiple-clients-stateless');
      for (const view of VIEWS) {
        const r = run(s, view);
        const calls = r.attempts.filter((a) => a.method === 'tools/call');
        expect(calls.map((a) => a.outcome), `${s} ${view}`).toEqual(['TOOL_SUCCESS', 'TOOL_SUCCESS', 'TOOL_SUCCESS']);
        expect(new Set(calls.map((a) => a.call)).size, `${s} ${view}`).toBe(3);
        expect(calls.every((a) => a.attempt === 1), `${s} ${view}`).toBe(true);
        // the closed standalone GET stream the client reports as an error at disconnect is no failure of any call
        expect(codes(r), `${s} ${view}`).toEqual([]);
      }
    }
    // three clients of a stateful server: three sessions; of the stateless one: none, and their shared ids are no reuse
    expect(new Set(run('multiple-clients-parallel').attempts.map((a) => a.session)).size).toBe(3);
    expect(run('multiple-clients-stateless').attempts.every((a) => a.session === null)).toBe(true);
  });

  it('json-response-unknown-tool: the server lists no such tool and answers each call with an isError result: TOOL_ERROR, as the client printed', () => {
    expect(printed('json-response-unknown-tool', /^ {2}MCP error -32602: Tool start-notification-stream not found$/)).toBe(3);
    for (const view of VIEWS) {
      const r = run('json-response-unknown-tool', view);
      const calls = r.attempts.filter((a) => a.method === 'tools/call');
      expect(calls.map((a) => a.outcome), view).toEqual(['TOOL_ERROR', 'TOOL_ERROR', 'TOOL_ERROR']);
      expect(calls.every((a) => a.detail?.errorMessage === 'MCP error -32602: Tool start-notification-stream not found'), view).toBe(true);
      expect(codes(r), view).toEqual([]);
    }
  });

  it('sse-fallback-legacy-server: 404 to the Streamable HTTP initialize, then the same client on the 2024-11-05 HTTP+SSE transport: the SDK\'s own retry', () => {
    expect(printed('sse-fallback-legacy-server', /^Successfully connected using deprecated HTTP\+SSE transport\.$/)).toBe(1);
    for (const view of VIEWS) {
      const r = run('sse-fallback-legacy-server', view);
      expect(shape(r), view).toEqual([
        'initialize 404 HTTP_ERROR c1#1', 'initialize 202 SUCCESS c1#2', 'tools/list 202 SUCCESS c2#1',
        'tools/call start-notification-stream 202 TOOL_SUCCESS c3#1',
      ]);
      expect(r.attempts[0]!.detail?.why, view).toBe('the body says: Error: Cannot POST /mcp');
      expect(r.attempts[1]!.retryOrigin?.origin, view).toBe('sdk');
      expect(codes(r), view).toEqual([]);
    }
    // the server that speaks both transports is reached on Streamable HTTP at once
    expect(printed('sse-fallback-compatible-server', /^Successfully connected using modern Streamable HTTP transport\.$/)).toBe(1);
    expect(shape(run('sse-fallback-compatible-server'))).toEqual(['initialize 200 SUCCESS c1#1', 'tools/list 200 SUCCESS c2#1', 'tools/call start-notification-stream 200 TOOL_SUCCESS c3#1']);
  });

  it('task-interactive: two tasks, each created, polled and fetched as one call; the user answered the elicitation', () => {
    expect(printed('task-interactive', /^Result: Deleted 'important\.txt'$/)).toBe(1);
    for (const view of VIEWS) {
      const r = run('task-interactive', view);
      expect(shape(r).slice(2), view).toEqual([
        'tools/call confirm_delete 200 TASK_CREATED c3#1', 'tasks/get 200 SUCCESS c3#2', 'tasks/result 200 TOOL_SUCCESS c3#3',
        'tools/call write_haiku 200 TASK_CREATED c4#1', 'tasks/get 200 SUCCESS c4#2', 'tasks/result 200 TOOL_SUCCESS c4#3',
      ]);
      expect(r.attempts.every((a) => !/elicitation/.test(a.detail?.why ?? '')), view).toBe(true);
      expect(codes(r), view).toEqual([]);
    }
  });

  it('task-interactive-no-terminal: the client answers the task\'s elicitation/create (sent on the GET stream, for the task) with an error; the tool error\'s why names it', () => {
    expect(printed('task-interactive-no-terminal', /^Result: Error: McpError: MCP error -32603: readline was closed$/)).toBe(1);
    for (const view of VIEWS) {
      const r = run('task-interactive-no-terminal', view);
      const result = r.attempts.find((a) => a.method === 'tasks/result' && a.call === 'c3')!;
      expect(result.outcome, view).toBe('TOOL_ERROR');
      expect(result.detail?.why, view).toBe("the client answered the server's elicitation/create (id 0) with an error: -32603 readline was closed");
      // the other task's sampling request was answered: its result is a success with no such why
      expect(r.attempts.find((a) => a.method === 'tasks/result' && a.call === 'c4'), view).toMatchObject({ outcome: 'TOOL_SUCCESS' });
    }
  });

  it('interactive-client-tour: the interactive client driven command by command; each command one call, the errors where the wire has them, the terminated session\'s local refusal absent', () => {
    const o = (re: RegExp) => printed('interactive-client-tour', re);
    expect(o(/^Session terminated successfully$/)).toBe(2);
    expect(o(/Not connected to server\.$/)).toBe(1);
    for (const view of VIEWS) {
      const r = run('interactive-client-tour', view);
      expect(shape(r), view).toEqual([
        'initialize 200 SUCCESS c1#1', 'tools/list 200 SUCCESS c2#1', 'tools/call greet 200 TOOL_SUCCESS c3#1',
        'tools/call multi-greet 200 TOOL_SUCCESS c4#1', 'tools/call list-files 200 TOOL_SUCCESS c5#1',
        'tools/call no-such-tool 200 TOOL_ERROR c6#1', 'tools/call greet 200 TOOL_ERROR c7#1',
        'tools/call start-notification-stream 200 TOOL_SUCCESS c8#1', 'tools/call start-notification-stream 200 TOOL_SUCCESS c9#1',
        'tools/call delay 200 TASK_CREATED c10#1', 'tasks/get 200 SUCCESS c10#2', 'tasks/get 200 SUCCESS c10#3', 'tasks/result 200 TOOL_SUCCESS c10#4',
        'prompts/list 200 SUCCESS c11#1', 'prompts/get 200 SUCCESS c12#1', 'resources/list 200 SUCCESS c13#1',
        'resources/read 200 SUCCESS c14#1', 'resources/read 200 JSONRPC_ERROR c15#1',
        // 'greet Ada' after terminate-session never left the client ("Not connected to server."): no attempt for it
        'initialize 200 SUCCESS c16#1', 'tools/call greet 200 TOOL_SUCCESS c17#1',
      ]);
      expect(r.attempts[6]!.detail?.errorMessage, view).toMatch(/^MCP error -32602: Input validation error: Invalid arguments for tool greet/);
      expect(r.attempts[17]!.detail?.errorMessage, view).toBe('MCP error -32602: Resource file:///no/such.txt not found');
      // two sessions: the one terminated with DELETE, and the reconnect's
      expect(new Set(r.attempts.map((a) => a.session)).size, view).toBe(2);
      // the standalone GET stream's reconnects, aborted by the client after the DELETE, are no finding
      expect(codes(r), view).toEqual([]);
    }
  });
});
