// The MCP test kitchen emulated with its own server-side records (cakewalk-mcp-test-kitchen @ cf2f689), for
// test/real-audit58/record.mjs: audit 56's emulation of its wire behaviour (test/real-audit56/kitchen.mjs: the rate
// limiter, the PAT check, the scenarios, errors.http_status_sequence) with RequestLoggingMiddleware's line per completed
// request outermost (401 and 429 included) and McpProtocolObservationMiddleware's observation around the scenario
// layer and the SDK, written by test/real-audit58/kitchen-logs.mjs.
import { kitchen as wire } from '../real-audit56/kitchen.mjs';
import { kitchenLogs } from './kitchen-logs.mjs';

/** audit 56's kitchen, its handler wrapped in the kitchen's request log and observations; `logs` holds what they wrote. */
export function kitchen({ logs = kitchenLogs(), ...options }) {
  const k = wire({ ...options, observe: (h) => logs.observe(h, { scenario: options.scenario }), outermost: (h) => logs.requestLog(h) });
  return { ...k, logs };
}
