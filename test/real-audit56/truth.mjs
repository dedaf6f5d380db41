// The truth note of each test/fixtures/real-audit56 case (truth.md): what really happened, from the recorder's plan, the
// application's steps and the emulated kitchen's own events (observed.json). record.mjs writes it after each run;
// `node test/real-audit56/truth.mjs` rewrites every case's from its observed.json.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const TRUTH = {
  'ts-jsonrpc-default': 'errors.jsonrpc_error defaults (-32602 "Invalid params", onInvocation 1): the first tools/call POST got HTTP 200 application/json {"jsonrpc":"2.0","id":<id>,"error":{...}} from the wire layer; the SDK server never saw it, the tool did not run. The app re-called: that re-call ran the tool (invocation 1).',
  'ts-jsonrpc-internal-2': 'errors.jsonrpc_error -32603 "Internal error" on the second tools/call POST (wire layer; the tool did not run for it); the app re-called, which ran the tool.',
  'v2-jsonrpc-32000': 'errors.jsonrpc_error -32000 "Server error" on the first tools/call (2026-07-28, v2 client; id 0 echoed); the tool did not run for it; the app re-called.',
  'v2-jsonrpc-internal-2': 'errors.jsonrpc_error -32603 on the second tools/call (2026-07-28); the tool did not run for it; the app re-called.',
  'py-jsonrpc-default': 'errors.jsonrpc_error defaults against the Python client (2025-11-25); the tool did not run for the first POST; the app re-called.',
  'py-jsonrpc-internal-2': 'errors.jsonrpc_error -32603 on the second tools/call (Python client); the tool did not run for it; the app re-called.',
  'ts-tool-error': 'errors.tool_error defaults: invocation 1 of run_configured_test_scenario returned isError true ("Tool-side failure"); the tool ran. The app did not re-call (a result, not a throw).',
  'v2-tool-error-2': 'errors.tool_error onInvocation 2 (2026-07-28): the second call returned isError true; no re-call.',
  'py-tool-error': 'errors.tool_error defaults, Python client: the first call returned isError true; no re-call.',
  'v2-elicitation': 'elicitation.approval on 2026-07-28: each call\'s first leg got input_required (inputRequests.elicitation, requestState "awaiting-elicitation"); the v2 client answered (accept, decline, cancel) and sent the follow-up leg with inputResponses; accept gave elicitationOutcome "accepted", decline/cancel isError true. The kitchen counts every leg (invocations 1-6).',
  'py-elicitation-modern': 'elicitation.approval on 2026-07-28 with the Python client (mode auto): accept, then decline, each an input_required leg and its follow-up.',
  'ts-elicitation-legacy': 'elicitation.approval on 2025-11-25 (SDK 1.32.2 client; no MRTR): each call returned isError true with elicitationOutcome "unsupported".',
  'py-elicitation-legacy': 'elicitation.approval on 2025-11-25 (Python client, legacy mode): isError true, "unsupported".',
  'v2-ticket': 'compat.sdk_v2 simulate_ticket_close_mrtr on 2026-07-28: ticket 101 with closeReason (path upfront, one leg); 102 without (input_required keyed closeReason, requestState "102"; accept -> path mrtr); 103 (input_required; decline -> path cancelled, a normal result, not isError).',
  'ts-ticket-legacy': 'compat.sdk_v2 on 2025-11-25: ticket 201 without closeReason -> path guidance (a normal result: "Resend with `closeReason`"); the app resent with closeReason -> path upfront.',
  'ts-auth-missing': 'PAT configured, the SDK 1.32.2 client sent no Authorization: each initialize got a bare 401 (no body, no WWW-Authenticate) before the kitchen\'s observations (the server log is empty). connect() threw each time; the app made a new Client and connected again (3 times). The SDK re-sent nothing.',
  'ts-auth-provider': 'PAT configured, the SDK 1.32.2 client with a ClientCredentialsProvider holding a revoked token: 401 to initialize; the SDK then tried OAuth (GET .well-known/oauth-protected-resource/mcp, .well-known/oauth-protected-resource, oauth-authorization-server, openid-configuration: all 404; POST /token form-encoded: 404) and threw ServerError; it re-sent nothing. The app connected again (3 times), each with the same token.',
  'v2-auth-token': 'PAT configured, the v2 client with an AuthProvider whose token() gives a revoked PAT (no onUnauthorized): the probe got a bare 401 and connect() threw UnauthorizedError; the SDK re-sent nothing; the app connected again (3 times).',
  'v2-auth-token-retry': 'As v2-auth-token, with an onUnauthorized hook that cannot get a new PAT: after each 401 the v2 SDK called it and re-sent the probe once, same id, same token (the SDK\'s retry: POSTs 2, 4, 6), got 401 again and threw CLIENT_HTTP_AUTHENTICATION; the app connected again (POSTs 3, 5).',
  'v2-auth-oauth': 'PAT configured, the v2 client with a ClientCredentialsProvider holding a revoked token: 401 to the probe; the SDK\'s OAuth discovery and token request got 404; connect() threw (server_error); the SDK re-sent nothing; the app connected again (3 times).',
  'v2-auth-bad': 'PAT configured, the v2 client with a bad bearer (requestInit headers): the server/discover probe got a bare 401, connect() threw CLIENT_HTTP_AUTHENTICATION; the app connected again (3 times); the SDK re-sent nothing.',
  'py-auth-bad': 'PAT configured, the Python client with a bad bearer (httpx headers): initialize got a bare 401, the SDK raised MCPError -32603 "Server returned an error response"; the app connected again (3 times).',
  'ts-rate-limit': 'The rate limiter (4 per 1.5 s here; the kitchen: 120/min per IP), before the observations: requests past the limit got a bare 429 (the GET the SDK 1.32.2 client opens counts too). The app re-called after 0.4 s; the 429ed POSTs never reached the server log.',
  'v2-rate-limit': 'The rate limiter (3 per 1.5 s) with the v2 client: the third call got 429 twice, its third try (after the window) worked.',
  'py-rate-limit': 'The rate limiter (4 per 1.5 s) with the Python client, which reports a 429 as MCPError -32603 "Server returned an error response"; the app re-called.',
  'ts-timeout': 'baseline slowReportDelayMs 1500, the SDK 1.32.2 client\'s timeout 600 ms: the SDK threw -32001 and POSTed notifications/cancelled (a separate stateless request: the running tool never got it); invocation 1 ran to its end and its result came after the client had given up. The app re-called with a 5 s timeout: invocation 2 ran and returned.',
  'v2-timeout': 'baseline 1500 ms, the v2 client\'s timeout 600 ms: the client closed the call\'s stream (its cancellation on 2026-07-28); the server\'s signal aborted invocation 1 mid-delay (it did not finish). The app re-called with 5 s: invocation 2 ran and returned.',
  'py-timeout': 'baseline 1500 ms, the Python client\'s read timeout 0.6 s: MCPError -32001, notifications/cancelled sent; invocation 1 ran to its end anyway. The app called again with a 5 s timeout: invocation 2 returned.',
  'ts-body-too-large': 'A tools/call whose body is over 64 KiB (a 70,000-character message): the observation middleware answered HTTP 400 application/json {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}; the tool did not run. The next call (small) worked.',
};

/** truth.md for one case: the description, then what the application saw and what the kitchen did, from observed.json. */
export function writeTruth(dir, name) {
  const o = JSON.parse(readFileSync(`${dir}observed.json`, 'utf8'));
  const step = (s) => `- ${s.step}: ${s.action ?? (s.ok === false ? `threw ${s.error?.name}${s.error?.code !== undefined ? ` ${s.error.code}` : ''}: ${String(s.error?.message ?? '').slice(0, 120)}` : s.isError ? 'returned isError true' : 'returned')}`;
  const text = `# ${name}\n\n${TRUTH[name] ?? ''}\n\nClient: ${o.client}; kitchen selection: ${o.scenario} ${JSON.stringify(o.params)}.\n\nWhat the application saw:\n\n${o.steps.map(step).join('\n')}\n\nWhat the kitchen did (its own events, in order):\n\n${o.kitchen.map((e) => `- ${JSON.stringify(e)}`).join('\n')}\n`;
  writeFileSync(`${dir}truth.md`, text);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('../fixtures/real-audit56/', import.meta.url));
  for (const name of readdirSync(root)) writeTruth(`${root}${name}/`, name);
}
