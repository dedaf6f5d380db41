// The SDK 1.32.2 package's own example servers and clients, run as shipped (test/fixtures/real-examples): what mcp-triage
// must say of each, in the client's view, the server's and both, against what the example client printed
// (observed.json). node test/real-examples/record.mjs re-records them.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordingRunner, triageCli, type CliRun, type RecordingView as View } from '../helpers/triage-cli.js';

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

// The Python SDK's Client (mcp 2.3.0, test/real-examples/py_client.py) against the same example servers: observed.json's
// last output line is what the Python caller saw, step by step (results, or the exception's type, code and message).
interface PyStep { step: string; ok: boolean; summary?: { content?: string[]; isError?: boolean }; error?: { name: string; message: string; code?: number; exceptions?: PyStep['error'][] } }
interface PySaw { steps: PyStep[]; notes: { uncaught?: PyStep['error'] }[]; mode: string; protocolVersion?: string; serverMessages: string[]; logged?: string[] }
const PY = [
  'py-sse-polling', 'py-sse-polling-auto', 'py-tour', 'py-tour-auto', 'py-elicit-accept', 'py-elicit-error', 'py-json-response',
  'py-stateless', 'py-legacy-sse-server', 'py-legacy-sse-server-auto', 'py-task-interactive', 'py-standalone-get', 'py-timeout',
];
const saw = (s: string) => JSON.parse(observed(s).clientOutput.at(-1)!) as PySaw;
const step = (s: string, re: RegExp) => saw(s).steps.find((x) => re.test(x.step))!;
const TMP = mkdtempSync(join(tmpdir(), 'mcp-triage-py-examples-'));
/** A recording's client log with some of its lines changed (or kept), analyzed alone. */
const edited = (s: string, name: string, edit: (lines: string[]) => string[]) => {
  const file = join(TMP, `${name}.ndjson`);
  writeFileSync(file, `${edit(readFileSync(`${DIR}${s}/client.ndjson`, 'utf8').split('\n').filter(Boolean)).join('\n')}\n`);
  return triageCli<Attempt, Finding>(['--client', file]);
};

describe('the Python SDK client (mcp 2.3.0) against the SDK\'s example servers', () => {
  it.each(PY)('%s: recorded with SDK 1.32.2 and the Python client, every line used in every view, one attempt per view pair', (s) => {
    expect(observed(s).sdk).toBe('1.32.2');
    expect(saw(s).mode).toBe(s.endsWith('-auto') ? 'auto' : 'legacy');
    const both = run(s);
    for (const view of VIEWS) {
      const r = run(s, view);
      expect(r.unusable, view).toBe(0);
      expect(r.attempts.length, view).toBe(both.attempts.length);
    }
  });

  it('py-sse-polling: the Python client resumes the closed call stream with GET + Last-Event-ID too: a resumed success, no finding; in auto mode the refused server/discover probe is its own HTTP_ERROR 400', () => {
    for (const s of ['py-sse-polling', 'py-sse-polling-auto']) {
      expect(step(s, /^long-task/)).toMatchObject({ ok: true, summary: { content: ['Long task completed successfully!'], isError: false } });
      // the two events sent while the stream was closed reached the caller: replayed on the resumption
      expect(saw(s).serverMessages.filter((m) => /^Progress: (75|100)%/.test(m)).length, s).toBe(2);
      expect(readFileSync(`${DIR}${s}/client.ndjson`, 'utf8')).toMatch(/"method":"GET"[^\n]*"last-event-id":"[^"]+"/);
      for (const view of VIEWS) {
        const r = run(s, view);
        expect(r.attempts.find((a) => a.method === 'tools/call'), `${s} ${view}`).toMatchObject({ tool: 'long-task', outcome: 'TOOL_SUCCESS', resumed: true, attempt: 1 });
        expect(codes(r), `${s} ${view}`).toEqual([]);
      }
    }
    expect(saw('py-sse-polling-auto').protocolVersion).toBe('2025-11-25');
    expect(shape(run('py-sse-polling-auto')).slice(0, 2)).toEqual(['server/discover 400 HTTP_ERROR c1#1', 'initialize 200 SUCCESS c2#1']);
  });

  it('py-tour: tools, resource links, an unknown tool and invalid arguments (isError results), prompts, resources and a missing one (-32602), each as the Python caller saw it', () => {
    for (const s of ['py-tour', 'py-tour-auto']) {
      expect(step(s, /^no-such-tool/).summary).toEqual({ content: ['MCP error -32602: Tool no-such-tool not found'], isError: true });
      expect(step(s, /^read file:\/\/\/no\/such/).error).toEqual({ name: 'MCPError', message: 'MCP error -32602: Resource file:///no/such.txt not found', code: -32602 });
      for (const view of VIEWS) {
        const r = run(s, view);
        expect(shape(r).slice(s.endsWith('-auto') ? 1 : 0), `${s} ${view}`).toEqual(
          ['initialize', 'tools/list', 'tools/call greet', 'tools/call multi-greet', 'tools/call list-files', 'tools/call no-such-tool', 'tools/call greet', 'prompts/list', 'prompts/get', 'resources/list', 'resources/read', 'resources/read']
            .map((m, i) => `${m} 200 ${[5, 6].includes(i) ? 'TOOL_ERROR' : i === 11 ? 'JSONRPC_ERROR' : /tools\/call/.test(m) ? 'TOOL_SUCCESS' : 'SUCCESS'} c${i + (s.endsWith('-auto') ? 2 : 1)}#1`),
        );
        expect(r.attempts.at(-1)!.detail?.errorMessage, view).toBe('MCP error -32602: Resource file:///no/such.txt not found');
        // the session ended with an accepted DELETE: no finding
        expect(codes(r), `${s} ${view}`).toEqual([]);
      }
    }
  });

  it('py-elicit-error: the client answers collect-user-info\'s elicitation/create with an error, the tool returns it as plain text (no isError): TOOL_SUCCESS whose why names the error answer', () => {
    expect(step('py-elicit-error', /^collect-user-info/).summary).toEqual({ content: ['Error collecting contact information: McpError: MCP error -32603: the user closed the form'], isError: false });
    for (const view of VIEWS) {
      const call = run('py-elicit-error', view).attempts.find((a) => a.tool === 'collect-user-info')!;
      expect(call.outcome, view).toBe('TOOL_SUCCESS');
      expect(call.detail?.why, view).toBe("the result is no isError, but the client answered the server's elicitation/create (id 0) with an error: -32603 the user closed the form");
      // the user who accepted the form: a success with no why
      const accepted = run('py-elicit-accept', view).attempts.find((a) => a.tool === 'collect-user-info')!;
      expect(accepted.outcome, view).toBe('TOOL_SUCCESS');
      expect(accepted.detail?.why, view).toBeUndefined();
    }
    expect(step('py-elicit-accept', /^collect-user-info/).summary?.content?.[0]).toMatch(/^Thank you! Collected contact information/);
  });

  it('py-json-response, py-standalone-get: the server has no DELETE route (Express\'s 404 page "Cannot DELETE /mcp"); the Python client logs "Session termination failed: 404": no SESSION_EXPIRED', () => {
    for (const s of ['py-json-response', 'py-standalone-get']) {
      expect(saw(s).logged, s).toEqual(['mcp.client.streamable_http: Session termination failed: 404']);
      for (const view of VIEWS) expect(codes(run(s, view)), `${s} ${view}`).toEqual([]);
    }
    const calls = run('py-json-response').attempts.filter((a) => a.method === 'tools/call');
    expect(calls.map((a) => `${a.tool} ${a.outcome}`)).toEqual(['greet TOOL_SUCCESS', 'multi-greet TOOL_SUCCESS', 'no-such-tool TOOL_ERROR']);
    // the standalone GET stream brought notifications/resources/list_changed; the second list has the added resource
    expect(saw('py-standalone-get').serverMessages).toContain('notifications/resources/list_changed');
    expect(shape(run('py-standalone-get')).slice(1)).toEqual(['resources/list 200 SUCCESS c2#1', 'resources/list 200 SUCCESS c3#1', 'resources/read 200 SUCCESS c4#1']);
  });

  it('a DELETE refused with 404 whose body says the session is unknown is still SESSION_EXPIRED', () => {
    const deleteEnd = (text: string) => (lines: string[]) => {
      const xid = (JSON.parse(lines.find((l) => /"method":"DELETE"/.test(l))!) as { xid: string }).xid;
      return lines.map((l) => (l.includes(`"xid":"${xid}"`) && /"kind":"end"/.test(l) ? JSON.stringify({ ...JSON.parse(l), recvText: text }) : l));
    };
    const page = edited('py-json-response', 'delete-page', (l) => l);
    expect(page.findings.map((f) => f.code)).toEqual([]);
    for (const [name, text] of [['delete-text', 'Session not found'], ['delete-json', '{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}']]) {
      const r = edited('py-json-response', name!, deleteEnd(text!));
      expect(r.findings.map((f) => f.code), name).toEqual(['SESSION_EXPIRED']);
      expect(r.findings[0]!.message, name).toMatch(/HTTP 404 to its DELETE \(the client ending the session\)/);
    }
  });

  it('py-legacy-sse-server: the Python client does not fall back to HTTP+SSE; the 404 to its initialize is the MCPError -32601 "Not Found" it raises; in auto mode the probe is refused first, and CALL_NEVER_SENT names the initialize', () => {
    const raised = (s: string) => saw(s).notes[0]!.uncaught!.exceptions![0]!.exceptions![0]!;
    for (const s of ['py-legacy-sse-server', 'py-legacy-sse-server-auto']) {
      expect(saw(s).steps, s).toEqual([]);
      expect(raised(s), s).toEqual({ name: 'MCPError', message: 'Not Found', code: -32601 });
      for (const view of VIEWS) {
        const r = run(s, view);
        expect(shape(r), `${s} ${view}`).toEqual(s.endsWith('-auto') ? ['server/discover 404 HTTP_ERROR c1#1', 'initialize 404 HTTP_ERROR c2#1'] : ['initialize 404 HTTP_ERROR c1#1']);
        // The refused probe is the era detection the spec describes: the client fell back to initialize (which failed too).
        for (const a of r.attempts) {
          const probe = a.method === 'server/discover';
          expect(a.versionFallback, `${s} ${view} ${a.method}`).toBe(probe ? true : undefined);
          expect(a.detail?.why, `${s} ${view} ${a.method}`).toBe(`${probe ? 'a version probe the server refused (it predates 2026-07-28); the client fell back to initialize, as the spec asks; ' : ''}the body says: Error: Cannot POST /mcp`);
        }
        expect(r.findings.map((f) => f.code), `${s} ${view}`).toEqual(['CALL_NEVER_SENT']);
        expect(r.findings[0]!.message, `${s} ${view}`).toMatch(/^traffic without a session: initialize failed \(HTTP_ERROR, HTTP 404\)/);
      }
    }
    // a refused probe with no initialize after it is still the one named
    const probeOnly = edited('py-legacy-sse-server-auto', 'probe-only', (lines) => lines.filter((l) => (JSON.parse(l) as { xid: string }).xid === (JSON.parse(lines[0]!) as { xid: string }).xid));
    expect(probeOnly.findings.map((f) => f.code)).toEqual(['CALL_NEVER_SENT']);
    expect(probeOnly.findings[0]!.message).toMatch(/^traffic without a session: server\/discover failed \(HTTP_ERROR, HTTP 404\)/);
  });

  it('py-task-interactive: the Python client calls a taskSupport "required" tool without a task: the server\'s -32603 is the JSONRPC_ERROR the caller raised', () => {
    expect(step('py-task-interactive', /^confirm_delete/).error).toEqual({ name: 'MCPError', message: 'Tool confirm_delete requires task mode', code: -32603 });
    for (const view of VIEWS) {
      const call = run('py-task-interactive', view).attempts.find((a) => a.method === 'tools/call')!;
      expect(call, view).toMatchObject({ tool: 'confirm_delete', outcome: 'JSONRPC_ERROR', detail: { errorMessage: 'Tool confirm_delete requires task mode' } });
    }
  });

  it('py-timeout: the caller gives up after 0.7 s (-32001) and cancels; the server never answers the cancelled call (its stream open until the DELETE): STREAM_INCOMPLETE with CANCELLED, the client\'s own timeout; the next call a success', () => {
    expect(step('py-timeout', /^start-notification-stream/).error).toEqual({ name: 'MCPError', message: "Request 'tools/call' timed out", code: -32001 });
    expect(step('py-timeout', /^greet Ada after/).ok).toBe(true);
    for (const view of VIEWS) {
      const r = run('py-timeout', view);
      const call = r.attempts.find((a) => a.tool === 'start-notification-stream')!;
      expect(call.outcome, view).toBe('STREAM_INCOMPLETE');
      expect(call.findings.map((f) => f.code), view).toEqual(['CANCELLED']);
      expect(call.findings[0]!.message, view).toMatch(/after 0\.70 s, with the reason "timed out after 0\.7s" \(its own timeout, not an answer from the server\)$/);
      // the later greet is a new call, no retry of the cancelled one
      expect(r.attempts.find((a) => a.tool === 'greet'), view).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
      expect(r.findings, view).toEqual([]);
    }
  });

  it('py-stateless: the stateless server answers the notification tool at once and sends its notifications nowhere: a success, the caller got none', () => {
    expect(saw('py-stateless').serverMessages).toEqual([]);
    for (const view of VIEWS) {
      const r = run('py-stateless', view);
      expect(shape(r), view).toEqual(['initialize 200 SUCCESS c1#1', 'tools/list 200 SUCCESS c2#1', 'tools/call start-notification-stream 200 TOOL_SUCCESS c3#1']);
      expect(r.attempts.every((a) => a.session === null), view).toBe(true);
      expect(codes(r), view).toEqual([]);
    }
  });
});
