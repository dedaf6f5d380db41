// The truth note of each test/fixtures/real-audit63 case (truth.md): what really happened, from the scenario's source
// (cakewalk-mcp-test-kitchen @ cf2f689), the application's steps and the emulated kitchen's own events (observed.json).
// record.mjs writes it after each run; `node test/real-audit63/truth.mjs` rewrites every case's from its observed.json.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const TRUTH = {
  'ts-pagination':
    "catalog.pagination defaults (resources, totalItems 10, pageSize 3, fault none): the kitchen's wire layer answered each resources/list itself (HTTP 200 application/json, the SDK never saw it): pages 0-2 with 3 items and nextCursor page-1..page-3, page 3 with resource_9 and \"nextCursor\":null (System.Text.Json writes nulls). The SDK 1.32.2 client threw a ZodError for that last page (nextCursor must be a string): the app never got resource_9. Its tool call worked.",
  'v2-pagination':
    "catalog.pagination defaults on 2026-07-28: the wire layer's page carries no resultType; the v2 client refused the first page (SdkError INVALID_RESULT, missing required resultType) and the app stopped listing. The tool call worked.",
  'py-pagination':
    "catalog.pagination defaults, Python client (2025-11-25): four pages, the last with nextCursor null, which the Python SDK accepts; all 10 resources listed; the tool call worked.",
  'py-pagination-modern':
    "catalog.pagination defaults, Python client in auto mode (2026-07-28): the first page has no resultType; the Python SDK raised a ValidationError; the tool call worked.",
  'py-pagination-prompts':
    "catalog.pagination facet prompts, 5 items, 2 a page (Python, 2025-11-25): three prompts/list pages answered by the wire layer, the last with nextCursor null; all accepted.",
  'ts-pagination-error':
    "catalog.pagination fault error_after_page_n, faultAtPage 2: page 1 (3 items, nextCursor page-1), then every resources/list (the page counter counts requests, whatever the cursor) got -32603 \"Internal error after page\" at the wire (HTTP 200 application/json). The app listed again from the start: -32603 again (its counter is at 3). The tool call worked.",
  'py-pagination-error':
    "As ts-pagination-error with the Python client: page 1, then -32603 on page 2 (MCPError); the tool call worked (the Python SDK then listed tools itself).",
  'py-pagination-loop':
    "catalog.pagination fault cursor_loop, 30 items: every page says nextCursor \"loop\"; the Python client followed it and the app stopped at its own limit of 6 pages (18 distinct items, no error anywhere). The tool call worked.",
  'py-pagination-duplicate':
    "catalog.pagination fault duplicate_page (10 items, 3 a page): page 1 (resource_0..2, nextCursor page-1), then the page asked with cursor page-1 repeats resource_0..2 with nextCursor null; the Python client took both (6 items listed, 3 of them twice, resource_3..9 never) and the app went on; the tool call worked.",
  'ts-facet-unavailable':
    "catalog.facet_unavailable defaults (resources): resources/list got -32601 \"Method not found\" from the wire layer (HTTP 200 application/json) although the session's capabilities announce resources (the kitchen's baseline catalog); the app went on; the tool call worked.",
  'py-facet-unavailable':
    "As ts-facet-unavailable with the Python client: MCPError -32601.",
  'v2-facet-unavailable':
    "catalog.facet_unavailable with resources and prompts (2026-07-28, v2 client): both lists got -32601; the tool call worked.",
  'ts-mutation-remove':
    "catalog.mutation: extra_tool added at once (timer from the caller's first request), removed 1.2 s later. The app listed (two tools), called extra_tool (the stub's result), waited 1.3 s and called it again: JSON-RPC -32602 \"Unknown tool: 'extra_tool'\" (the C# SDK's answer, sent on the SDK's SSE stream); its one re-call the same. No notifications/tools/list_changed reached the client (stateless: no stream to carry it). The app listed again (one tool) and called run_configured_test_scenario.",
  'v2-mutation-remove':
    "As ts-mutation-remove on 2026-07-28 (v2 client, v2 server: -32602 \"Tool extra_tool not found\", the v2 McpServer's own text; the kitchen's C# SDK says \"Unknown tool: 'extra_tool'\").",
  'py-mutation-rename':
    "catalog.mutation: extra_tool added at once, renamed to renamed_tool after 1.2 s. The Python app called extra_tool (ok), then after 1.3 s: -32602 \"Unknown tool: 'extra_tool'\" twice; it listed again and called renamed_tool (ok).",
  'ts-mutation-default':
    "catalog.mutation, the kitchen's example params (add extra_tool after 1000 ms, one notification): the first listing had one tool, the listing 1.2 s later two; extra_tool called (ok). No list_changed reached the client.",
  'ts-mutation-unlisted':
    "Near miss: catalog.mutation adds extra_tool only after 1 s; the app called it at once, before any listing: -32602 \"Unknown tool: 'extra_tool'\" (never listed, so no catalog change is involved); then it listed (one tool) and called run_configured_test_scenario.",
  'ts-mutation-sdk1-server':
    "Near miss for the server's wording: as ts-mutation-remove, but the 2025-11-25 server answers an unknown tool as SDK 1.32.2 does itself (not the kitchen): a result with isError true, \"MCP error -32602: Tool extra_tool not found\".",
  'ts-token-lifecycle':
    "auth.token_lifecycle defaults (rejectUntilInvocation 1): the scenario layer answered the caller's first POST (initialize) with a bare 401 (no body, no Content-Type, no WWW-Authenticate), inside the kitchen's observations (the server log has it). The SDK 1.32.2 client threw (StreamableHTTPError 401) and re-sent nothing; the app made a new client and connected again with the same PAT: accepted; its calls worked.",
  'v2-token-lifecycle':
    "As ts-token-lifecycle with the v2 client (bearer in requestInit headers): the server/discover probe got 401 (CLIENT_HTTP_AUTHENTICATION); the app connected again; the probe (same id) was accepted.",
  'v2-token-lifecycle-retry':
    "auth.token_lifecycle defaults, the v2 client with an AuthProvider (token() gives the PAT) and an onUnauthorized hook: the probe got 401, the SDK called the hook and re-sent the probe once (same id, same token: the SDK's retry, not the app's), accepted. One connect, no app retry.",
  'py-token-lifecycle':
    "As ts-token-lifecycle with the Python client: initialize got 401, the SDK raised MCPError -32603 \"Server returned an error response\"; the app connected again: accepted.",
  'ts-token-lifecycle-3':
    "auth.token_lifecycle rejectUntilInvocation 3: the app's three connects (initialize, same id 0, same PAT) each got the bare 401; the app gave up; no tool was called.",
  'py-token-forever':
    "auth.token_lifecycle rejectForever: the Python app's three connects each got 401; it gave up.",
  'v2-decline':
    "elicitation.decline on 2026-07-28: each call's first leg got input_required (a form elicitation, one optional field confirm, requestState awaiting-elicitation); the v2 client's handler answered decline, cancel, accept; the follow-up legs got isError true (elicitationOutcome decline, cancel) and a normal result (accepted). The wire and the server worked throughout; the two errors are the user's refusals.",
  'py-decline-modern':
    "elicitation.decline with the Python client (auto mode, 2026-07-28): decline, then cancel; each follow-up isError true with that outcome.",
  'ts-decline-legacy':
    "elicitation.decline on 2025-11-25 (SDK 1.32.2 client, no MRTR): isError true, elicitationOutcome unsupported; no elicitation was asked.",
  'v2-url-mode':
    "elicitation.url_mode on 2026-07-28: input_required with a URL elicitation (mode url, the message and https://example.com/approve, no elicitationId; the kitchen uses no -32042); the v2 client (elicitation url capability) answered accept (a result, elicitationOutcome accepted), then decline (isError true, decline).",
  'py-url-mode-modern':
    "elicitation.url_mode with the Python client (auto): accept (a result), then cancel (isError true).",
  'py-url-mode-legacy':
    "elicitation.url_mode on 2025-11-25 (Python, legacy): isError true, elicitationOutcome unsupported.",
};

/** truth.md for one case: the description, then what the application saw and what the kitchen did, from observed.json. */
export function writeTruth(dir, name) {
  const o = JSON.parse(readFileSync(`${dir}observed.json`, 'utf8'));
  const step = (s) => {
    if (s.action) return `- ${s.step}: ${s.action}${s.mode ? ` (${s.mode} mode)` : ''}`;
    if (s.ok === false) return `- ${s.step}${s.tool ? ` (${s.tool})` : ''}: threw ${s.error?.name}${s.error?.code !== undefined ? ` ${s.error.code}` : ''}: ${String(s.error?.message ?? '').slice(0, 140)}`;
    if (s.items) return `- ${s.step}: ${s.items.length} item(s) [${s.items.join(', ')}], nextCursor ${JSON.stringify(s.nextCursor ?? null)}`;
    if (s.step.startsWith('call ')) return `- ${s.step} (${s.tool}): returned${s.isError ? ' isError true' : ''}: ${s.text}`;
    return `- ${s.step}: ${s.ok === undefined ? 'ran' : 'ok'}`;
  };
  const text = `# ${name}\n\n${TRUTH[name] ?? ''}\n\nClient: ${o.client}; kitchen selection: ${o.scenario} ${JSON.stringify(o.params)}${o.pat ? ' (PAT configured, the app sends it)' : ''}.\n\nWhat the application saw:\n\n${o.steps.map(step).join('\n')}\n\nWhat the kitchen did (its own events, in order):\n\n${o.kitchen.map((e) => `- ${JSON.stringify(e)}`).join('\n')}\n`;
  writeFileSync(`${dir}truth.md`, text);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('../fixtures/real-audit63/', import.meta.url));
  for (const name of readdirSync(root)) writeTruth(`${root}${name}/`, name);
}
