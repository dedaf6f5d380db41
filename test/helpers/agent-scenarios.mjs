// The scenarios the agent CLI recorders of the second round share (real-qwen, real-cline, real-copilot): what the fake model calls, the fault hop's rule, the MCP server's timeout and how long to wait after the run.
const toolCall = ({ rpcMethod }) => rpcMethod === 'tools/call';

/**
 * Each scenario: what the model calls (`before` runs just before the model asks for that call), an optional fault hop
 * rule, the server's `timeout` (ms; each recorder writes it in its CLI's own setting), `down` (no server), `readOnly`
 * (lookup_order annotated readOnlyHint/idempotentHint), `tail` (ms to wait after the CLI exits). `timeoutAbout` says
 * where the timeout scenario's 3 s timeout is set, `who` names the CLI, `replay` adds the two scenarios of a
 * read-only tool (replay-503, replay-session-expired).
 */
export function agentScenarios({ timeoutAbout, who, replay = false }) {
  return {
    baseline: {
      about: 'three calls that succeed, one per model turn: lookup_order, validate_quantity, strict_lookup',
      plan: [
        { name: 'lookup_order', args: { orderId: 'A-1' } },
        { name: 'validate_quantity', args: { quantity: 2 } },
        { name: 'strict_lookup', args: { orderId: 'A-2' } },
      ],
    },
    'tool-error': {
      about: 'validate_quantity answers isError; crash throws inside the tool (the SDK server turns it into isError)',
      plan: [
        { name: 'validate_quantity', args: { quantity: -3 } },
        { name: 'crash', args: {} },
      ],
    },
    'jsonrpc-error': {
      about: 'strict_lookup answers a JSON-RPC error -32602 for a bad orderId; a good one succeeds after it',
      plan: [
        { name: 'strict_lookup', args: { orderId: 'nope' } },
        { name: 'strict_lookup', args: { orderId: 'A-7' } },
      ],
    },
    'http-503': {
      about: 'the hop answers the first tools/call POST with 503 text/plain (the server never sees it); a second call passes',
      fault: (c) => (toolCall(c) && c.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : {}),
      plan: [
        { name: 'lookup_order', args: { orderId: 'A-5' } },
        { name: 'lookup_order', args: { orderId: 'A-6' } },
      ],
    },
    'http-429': {
      about: 'the hop answers the first tools/call POST with 429 and Retry-After: 1; a second call passes',
      fault: (c) => (toolCall(c) && c.n === 1 ? { respond: 429, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: '{"error":"rate limited"}' } : {}),
      plan: [
        { name: 'lookup_order', args: { orderId: 'A-8' } },
        { name: 'lookup_order', args: { orderId: 'A-9' } },
      ],
    },
    'session-expired': {
      about: 'the server forgets its sessions (a restart) before the first call: 404 on the tools/call POST; a second call follows',
      plan: [
        { name: 'lookup_order', args: { orderId: 'A-10' }, before: (t) => t.server.restart() },
        { name: 'lookup_order', args: { orderId: 'A-11' } },
      ],
      tail: 1000,
    },
    'sse-cut': {
      about: 'the hop forwards the tools/call response head (text/event-stream), then destroys both sockets before the result event (no event ids); a second call follows; timeout 5000',
      timeout: 5000,
      fault: (c) => (toolCall(c) && c.n === 1 ? { cutAfterEvents: 0 } : {}),
      plan: [
        { name: 'lookup_order', args: { orderId: 'A-12' } },
        { name: 'lookup_order', args: { orderId: 'A-13' } },
      ],
      tail: 1000,
    },
    'socket-destroyed': {
      about: 'the hop destroys the socket of the first tools/call POST without forwarding it; a second call follows',
      fault: (c) => (toolCall(c) && c.n === 1 ? { destroy: true } : {}),
      plan: [
        { name: 'lookup_order', args: { orderId: 'A-14' } },
        { name: 'lookup_order', args: { orderId: 'A-15' } },
      ],
    },
    timeout: {
      about: `slow_report runs 10 s; the server entry has ${timeoutAbout}; a lookup_order follows`,
      timeout: 3000,
      plan: [
        { name: 'slow_report', args: { ms: 10000 } },
        { name: 'lookup_order', args: { orderId: 'A-20' } },
      ],
      tail: 1500,
    },
    ...(replay ? {
      'replay-503': {
        about: 'lookup_order is annotated readOnlyHint/idempotentHint; the hop answers the first tools/call POST with 503; a second call passes',
        readOnly: true,
        fault: (c) => (toolCall(c) && c.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : {}),
        plan: [
          { name: 'lookup_order', args: { orderId: 'A-30' } },
          { name: 'lookup_order', args: { orderId: 'A-31' } },
        ],
      },
      'replay-session-expired': {
        about: 'lookup_order is annotated readOnlyHint/idempotentHint; the server forgets its sessions before the first call (404); a second call follows',
        readOnly: true,
        plan: [
          { name: 'lookup_order', args: { orderId: 'A-32' }, before: (t) => t.server.restart() },
          { name: 'lookup_order', args: { orderId: 'A-33' } },
        ],
        tail: 1000,
      },
    } : {}),
    'server-down-at-start': {
      about: `nothing listens behind the recording proxy when ${who} starts: the proxy drops each connection, the tools are never offered`,
      down: true,
      plan: [{ name: 'lookup_order', args: { orderId: 'A-18' } }],
    },
  };
}
