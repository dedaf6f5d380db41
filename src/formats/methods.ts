// MCP method names: aliases used by gateways and SDK logs (call_tool, ListTools...) mapped to spec names, and who sends each method.

/** Spec method names, keyed by their letters only (lowercase, no separators), so "call_tool", "CallTool" and "tools.call" meet. */
const ALIASES = new Map<string, string>();

function alias(spec: string, ...others: string[]): void {
  for (const name of [spec, ...others]) ALIASES.set(compact(name), spec);
}

function compact(name: string): string {
  return name.toLowerCase().replace(/[^a-z]/g, '');
}

alias('initialize', 'init');
alias('ping');
alias('tools/call', 'call_tool', 'tool_call', 'calltool');
alias('tools/list', 'list_tools');
alias('resources/list', 'list_resources');
alias('resources/read', 'read_resource');
alias('resources/templates/list', 'list_resource_templates');
alias('resources/subscribe', 'subscribe', 'subscribe_resource');
alias('resources/unsubscribe', 'unsubscribe', 'unsubscribe_resource');
alias('prompts/list', 'list_prompts');
alias('prompts/get', 'get_prompt');
alias('completion/complete', 'complete');
alias('logging/setLevel', 'set_level', 'set_logging_level');
alias('sampling/createMessage', 'create_message');
alias('elicitation/create', 'elicit');
alias('roots/list', 'list_roots');
alias('notifications/initialized', 'initialized');
alias('notifications/cancelled', 'cancelled');
alias('notifications/progress', 'progress');

/**
 * The spec name of an MCP method: "call_tool", "CallTool" and "tools.call" become "tools/call".
 * A name that already contains "/" is returned unchanged (custom and future methods stay as sent); unknown names too.
 */
export function normalizeMethod(name: string): string {
  if (name.includes('/')) return name;
  return ALIASES.get(compact(name)) ?? name;
}

/** Requests only a server sends (to the client). */
const SERVER_REQUESTS = new Set(['sampling/createMessage', 'roots/list', 'elicitation/create']);
/** Notifications only a server sends. */
const SERVER_NOTIFICATIONS = new Set(['notifications/message', 'notifications/resources/updated',
  'notifications/resources/list_changed', 'notifications/tools/list_changed', 'notifications/prompts/list_changed',
  'notifications/elicitation/complete']);
/** Notifications only a client sends. */
const CLIENT_NOTIFICATIONS = new Set(['notifications/initialized', 'notifications/roots/list_changed']);

/**
 * Which peer sends a message with this method: 'server', 'client', or undefined when either may
 * (ping, notifications/progress, notifications/cancelled). Requests not listed are client requests.
 */
export function senderOfMethod(method: string, isNotification: boolean): 'client' | 'server' | undefined {
  if (isNotification) {
    if (SERVER_NOTIFICATIONS.has(method)) return 'server';
    if (CLIENT_NOTIFICATIONS.has(method)) return 'client';
    return undefined;
  }
  if (SERVER_REQUESTS.has(method)) return 'server';
  if (method === 'ping') return undefined;
  return 'client';
}
