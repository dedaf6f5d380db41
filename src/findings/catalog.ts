// The reference text behind `mcp-triage explain CODE`: what each finding and outcome means, why, the spec rule, what to do.
import { FINDING_CODES, type FindingCode } from './types.js';
import { OUTCOME_INFO, isOutcome, type Outcome } from '../outcomes.js';

interface FindingDoc {
  severity: string;
  attachedTo: string;
  definition: string;
  why: string;
  spec: string;
  todo: string;
}

const FINDING_DOCS: Record<FindingCode, FindingDoc> = {
  OUTCOME_MISMATCH: {
    severity: 'error', attachedTo: 'attempt',
    definition: "The client's own log claims an outcome for a call that differs from the outcome derived from the wire for that call's final attempt.",
    why: 'A client that only checks response.ok logs TOOL_SUCCESS for a 200 that carried a JSON-RPC error or isError: true; dashboards built on that log hide failures.',
    spec: 'Tools, Error Handling (all versions): protocol errors are JSON-RPC error responses; tool execution errors are results with isError: true. An HTTP 200 proves neither.',
    todo: 'Classify in the client by layer: HTTP status, then the JSON-RPC envelope, then result.isError and resultType. Log what the wire said.',
  },
  RETRY_ORIGIN_AMBIGUOUS: {
    severity: 'warning', attachedTo: 'attempt',
    definition: "A call has more than one POST after a failure, and who sent the repeat is unknown, claimed 'none', or contradicted (a claimed postCount or httpStatuses shorter than the POSTs observed, or the server saw a POST the client did not log).",
    why: 'The official SDKs never re-POST on 5xx, 429, 404 or network errors; a repeat is the application, a person or a gateway. Without knowing which, nobody owns the retry policy or its side effects.',
    spec: 'No MCP version defines transport retries. SDK re-POSTs with the same id only after 401/403 auth flows (2025-11-25 authorization, step-up).',
    todo: "Log retryOrigin (sdk, app, user, gateway) and the POST count per call on the client; compare with the server's count.",
  },
  NO_FINAL_RESULT: {
    severity: 'error', attachedTo: 'attempt',
    definition: 'A 2xx response to a request (text/event-stream, empty body, or 202) carried no JSON-RPC response for it, on that stream or on any resumption stream of the session. Not raised when the client had cancelled the request before the stream ended, or closed the stream itself and cancelled the request at the same moment (within 50 ms): no response is due after a cancellation. Not raised either when the recording itself stopped with the stream still open (`mcp-triage record` stopped: its end says "recording stopped by a signal"): whether the response came after is not in the log.',
    why: '"200 is not success": the stream started and ended (or was cut) without the final result. The TypeScript SDK v1 then waits for its own timeout (-32001) and sends notifications/cancelled; the call may or may not have run.',
    spec: 'Streamable HTTP (2025-03-26+): the SSE stream SHOULD include the response; 2025-11-25 allows closing the connection after a primed event and resuming with GET + Last-Event-ID; 2026-07-28 removes resumption: a broken stream loses the request.',
    todo: 'Check proxies that buffer or cut SSE (X-Accel-Buffering: no), server crashes mid-stream and idle timeouts; enable an event store so clients can resume.',
  },
  SIDE_DIVERGENCE: {
    severity: 'error', attachedTo: 'attempt',
    definition: 'The client view and the server view of the same attempt disagree: different HTTP status or different outcome (the server sent a final result the client never got, or something between them turned a 200 into a 503/500 or changed the body, or broke the connection after the server\'s head so the client got none); on 2026-07-28 also when the server\'s connection closed before its response (which it takes for the cancellation) while the client did not close its stream. From one log that is not the client\'s (the server\'s, a proxy\'s, a HAR), also when the server sent the result on the call\'s stream and the client then resumed that stream from an event before it (GET with Last-Event-ID: it had not got it) and no resumption replayed it. A client view without an HTTP layer (a desktop client\'s stdio log in front of a bridge, an app\'s message log) is compared with the server\'s as messages: a result the server sent that the client never got (unless the client had cancelled before the server\'s stream ended), or a JSON-RPC error in its place that the server never sent (a bridge such as mcp-remote made it up).',
    why: 'The failure is in the path between the two processes (gateway, proxy, load balancer, bridge, network), not in the tool or the client.',
    spec: 'Derived rule: one attempt, two vantage points. Not raised when the server never saw the request; that attempt is marked "not seen by the server". Not raised either when the client gave up before any response head and the server sent no result, nor when the client cancelled the request and closed its stream and the server only answered -32800 (the cancellation acknowledged), nor when the client\'s log is one that leaves some answers out (MCPSpy\'s slower than 5 s, the Python SDK\'s DEBUG log for answers sent as application/json): there the attempt takes the server\'s answer.',
    todo: 'Look at the gateway or proxy logs for that time; compare timeouts and body size limits along the path.',
  },
  UNSAFE_RETRY: {
    severity: 'error when execution is proven, else warning', attachedTo: 'attempt',
    definition: 'A tools/call was repeated after an attempt that reached the server (proven by the server view) or may have (no response, cut stream, 5xx other than 503, a JSON-RPC error after progress notifications for it, a -32603 internal error (the server failed while handling it), a -32800 answer to a request the client had cancelled), and the tool is not safe to repeat by its tools/list annotations (pages of a paginated list merged). Not after a JSON-RPC error that refused the request before anything ran (-32700, -32600, -32601, -32602, -32042 URL elicitation required, a rate limiter\'s -32000 "Rate limit exceeded", a bridge\'s "Not connected" (the TypeScript SDK\'s refusal to send on a lost connection, which mcp-proxy passes on as -32603 once its stdio server exited), or an HTTP client-error status as the code, 400, 401, 403, 404, 409, 422, as Genkit\'s MCP server sends a GenkitError\'s); a -32602 for a listed tool whose arguments keep its inputSchema refused nothing (the tool raised it, as the Python SDK passes a tool\'s MCPError on), so it counts, also in an HTTP 400 (the Python SDK\'s server on 2026-07-28) and from the client\'s log alone (a warning); so does a -32602 "Invalid tools/call result" (the TypeScript SDK server\'s check of the tool\'s result, after it ran). Not after an input_required round (MRTR): the server said it needs input before doing the work.',
    why: 'A repeated non-idempotent tool can charge twice, write twice, notify twice.',
    spec: 'ToolAnnotations (2025-03-26+): readOnlyHint defaults false, destructiveHint true, idempotentHint false: an unannotated tool is unsafe to repeat. Annotations are hints from possibly untrusted servers.',
    todo: 'Retry only read-only or idempotent tools automatically; give others an idempotency key or server-side de-duplication. If a tool is safe, say so with --idempotent NAME.',
  },
  RETRY_AFTER_IGNORED: {
    severity: 'warning', attachedTo: 'attempt',
    definition: "A retry started before the previous response's Retry-After (seconds or HTTP date) had passed since that response ended; where that Retry-After was at least --min-retry-delay, RETRY_POLICY does not say the early retry again.",
    why: 'Retrying early on 429/503 extends the overload and can get the client throttled harder.',
    spec: 'HTTP semantics (RFC 9110 Retry-After); no MCP version mentions 429 or Retry-After.',
    todo: 'Honour Retry-After before any retry; cap the total wait.',
  },
  RETRY_POLICY: {
    severity: 'warning', attachedTo: 'attempt',
    definition: 'A call was retried more often than the policy allows, or sooner than it asks (defaults: at most 2 retries, every delay at least 200 ms and no shorter than the one before). Set with --max-retries and --min-retry-delay. A retry sooner than a Retry-After of at least the minimum delay is RETRY_AFTER_IGNORED alone. Delays are judged only after failures that time may cure (no response, timeout, cut stream, HTTP 408, 429, 5xx, an error in a 200), not after another 4xx that the re-send corrects (credentials after 401, a new session after 404). A wait that kept a Retry-After, or that held a reconnect into a new session, is no step of the backoff: the delay after it is not compared with it. A delay runs from when the caller was done with the failed attempt: its end, or its notifications/cancelled; where that cancellation is as a proxy\'s, a gateway\'s or the server\'s log got it (not the client\'s own log), it may have come there up to 250 ms later than the caller gave up (its own trip through the hops under load; the retry\'s may be quicker), so such a delay proves a retry too soon, or a shorter step, only by more than 250 ms: at the default 200 ms minimum, only the client\'s log judges the delay after a timeout, and the message says when a delay was measured so. Where the Python SDK\'s cancellation names its timeout ("timed out after 2.0s"), the caller gave up no later than the request\'s start plus that timeout; the request may reach a log up to 100 ms later than the caller\'s clock began (the SDK\'s transport gets to a POST late under load), so a delay measured so proves a retry too soon only by more than 100 ms.',
    why: 'Tight retry loops amplify outages and hide the first error.',
    spec: "Not an MCP rule: the source article's suggested policy for read-only calls (2 retries, 200 ms exponential backoff with jitter).",
    todo: 'Use bounded exponential backoff with jitter and a total time budget.',
  },
  ID_REUSED: {
    severity: 'error', attachedTo: 'attempt',
    definition: 'A request reuses the id of an earlier request in the same session while that one is still open, or an MRTR follow-up reuses the id of the request it answers. Not raised without sessions in a scope no connection key names once it saw two initialize or server/discover requests: two clients behind one recorder, each counting its own ids.',
    why: 'Responses can no longer be matched to requests; SDKs drop or misroute them.',
    spec: 'Through 2025-11-25 an id MUST NOT be reused within a session; 2026-07-28 only forbids ids of outstanding requests (reuse after completion is legal) and MRTR retries MUST use a new id.',
    todo: 'Use a per-connection counter or UUIDs for ids; never copy the id into the follow-up request.',
  },
  ORPHAN_RESPONSE: {
    severity: 'warning', attachedTo: 'attempt (the exchange that carried it), else session',
    definition: 'A response with a non-null id that matches no request sent in its session, or that no request was waiting for: a second response to an id already answered (or whose request had ended), or one that came before any request with its id was sent. Also a tools/call result identical to the one another session\'s request with the same id got within 250 ms while both were open, when the two asked for another tool or other arguments and the result names an argument value only one of them carried: the other took its answer (identical requests are not compared, nor results that name neither request, such as "ok" or an empty result, which concurrent healthy clients get all the time). The error body of an HTTP rejection (4xx or 5xx) is no orphan, whatever its id: null, or a placeholder such as the Python SDK\'s "server-error". Nor the response with another id on a request\'s own SSE stream that the Python SDK client (User-Agent httpx\'s) took as that request\'s answer: the attempt\'s INVALID_ENVELOPE says it.',
    why: 'Usually a response delivered to the wrong session (a gateway that writes every response to every session\'s stream, as supergateway\'s SSE mode does), a replay from another stream, or a log that lost the request. A client drops it ("unknown message ID"); when another client had a request with that id waiting, it took the wrong answer.',
    spec: 'JSON-RPC 2.0: a response MUST carry the id of its request. Streamable HTTP: servers MUST NOT replay messages of another stream.',
    todo: 'Check session routing in gateways and event-store replay logic.',
  },
  PROGRESS_UNMATCHED: {
    severity: 'warning', attachedTo: 'session',
    definition: 'A notifications/progress reached a session, on a request\'s SSE stream or on the standalone GET stream, whose progressToken no request of that session open at that moment had asked for: it came after the response of the request that asked for it (in the log\'s order: the last step in the result\'s millisecond counts), or no request of the session asked for it (none open, none answered in the 5 s before). The message says which, how late, and names a request of another session that had the token open then (progress meant for it reached this session). One finding per session and token, counting the notifications; the same notification in the client\'s and the server\'s log is one finding. Not raised for a stream that resumes another (Last-Event-ID: a replay; but progress a replay carried after the response it replayed, for that request, is: a store that replays out of order), in a session that created tasks (a task\'s progress goes on after its tools/call is answered), for a request whose stream ended without its response (it may still run), nor for events whose time the log does not give (a whole body told at its end).',
    why: 'A client drops it: the TypeScript SDK reports "Received a progress notification for an unknown token" through onerror, so the caller\'s last step is lost and a progress bar stops short. Progress for another session\'s request is that request\'s data leaking to another client: a server that writes every message to every session\'s stream (mcp-framework 0.2.22) sends each session every other session\'s progress.',
    spec: 'Progress (2025-03-26 to 2026-07-28): progress notifications MUST only reference tokens that were provided in an active request, and MUST stop after the request completes (for a task, 2025-11-25: when the task ends). Streamable HTTP: messages on the GET stream SHOULD be unrelated to any running request.',
    todo: 'Send progress on the request\'s own stream (the SDK\'s relatedRequestId), before the result, and only to the session that asked; check a server or gateway that broadcasts notifications to every session.',
  },
  CALL_NEVER_SENT: {
    severity: 'warning', attachedTo: 'session',
    definition: 'A session was set up but never sent a tools/call because an earlier request failed (initialize or tools/list; a refused notifications/initialized is NOTIFICATION_REFUSED) and no tools/call followed. Not raised when the session went on with other requests that succeeded, nor for a failed request of another feature (resources/*, prompts/*, completion/complete, logging/setLevel, ping), which is no step on the way to a tool call. The message says what stopped it: a 401 (or a challenging 403) that the client could not answer, a 403 without a challenge, another 4xx that refused the request (its error message quoted), a JSON-RPC error (quoted; for tools/list from a server whose initialize announced no tools capability, that the server offers no tools), or a fault. Also raised for a session whose initialize succeeded with another protocol version than the client asked for and that nothing used afterwards (no notifications/initialized, request or GET; a DELETE does not count): the client did not accept the version.',
    why: 'A fault meant for tools/call (for example a status sequence like [503, 200] counted over all POSTs) hit an earlier request instead; the test did not test what it meant to.',
    spec: 'Lifecycle: initialize, then notifications/initialized, then requests (2025 versions). Fault injectors often count every POST.',
    todo: "Inject faults by method, or count which POST the fault hits; check the client's startup error handling.",
  },
  SESSION_EXPIRED: {
    severity: 'warning (error when the 404 refused the session\'s notifications/initialized and no request of it worked after that)', attachedTo: 'session',
    definition: 'HTTP 404 to a request that carried a session id (in a log that keeps no headers, one its producer sent after it was given a session id, which it sends on every later message: the Python SDK client\'s DEBUG log), or (when no request got one) to the session\'s GET stream or a notification (a 404 to a GET resuming a call\'s stream with Last-Event-ID only when the server answered nothing in the session after it: one it answered after, the call itself on a later resumption or a later request, was not lost, and the call\'s why tells the refused resumption); also HTTP 400 whose body says the session id is not valid ("Bad Request: No valid session ID provided", "Invalid or missing session ID": the example servers of the TypeScript SDK 1.10 to 1.24, which many servers copied, answer an unknown session so; "Bad Request: Server not initialized" is the SDK transport\'s own answer after a server with one transport for the process restarted). Not a 404 whose body refuses the request\'s MCP-Protocol-Version ("Bad Request: Unsupported protocol version": @hono/mcp 0.3 answers so with 404). One finding per expiry, however many requests met it (a call re-sent into the dead session gets a 404 each time): the message counts them, names each call with its ids, says whether the client re-initialized and retried the call, and quotes a 400\'s body. A 404 to the session\'s notifications/initialized after which no request of the session worked is an error that says the session never became usable (the TypeScript SDK\'s connect() throws on it).',
    why: 'The TypeScript SDK v1 does not re-initialize on 404 by itself; the application must, or every later call fails. A server that answers 400 instead of 404 defeats the clients that do re-initialize on 404.',
    spec: 'Streamable HTTP 2025-03-26 to 2025-11-25: a server that ended a session MUST answer 404; the client MUST start a new session with a new initialize without a session id. 2026-07-28 has no sessions (a 404 there is an unknown method).',
    todo: 'Handle 404 by re-initializing and, for safe tools, re-sending; check server session lifetimes and sticky routing; make a server answer an unknown session with 404, not 400.',
  },
  NOTIFICATION_REFUSED: {
    severity: 'warning (error for a refused notifications/initialized after which no request of the session worked)', attachedTo: 'session',
    definition: 'A POST that carried no request (a notification such as notifications/initialized or notifications/cancelled, the client\'s answer to a request of the server\'s, or a body that is not JSON) was answered with an HTTP error (4xx or 5xx; a redirect is followed, not refused), other than the 404 (or the 400 that says so) of a session the server lost, which is SESSION_EXPIRED; a 400 that says the session id is not valid to a POST that carried none is this finding, and the message says the client did not have the session id (its initialize response reached it without Mcp-Session-Id). In the server\'s log alone such a POST is raised when that log\'s initialize response had set a session id shortly before (within --window) that no request carried back since: the message names that id and says it was lost on its way to the client or the client did not send it, which the server\'s log cannot tell apart; with the client\'s log too, each refused POST is one finding, the client\'s. The message names what the POST carried, the status and what the body said, and what followed: the client began a new session, the session went on, or nothing more came in it (for a server log\'s POST of that kind, whose client it cannot name, also: an initialize came after it in that log). When the POST was the session\'s notifications/initialized and no request of the session other than an initialize worked after it, the finding is an error and says the session never became usable (when the client stopped there, as the TypeScript SDK\'s connect() does, that the refusal did it; when it went on regardless and the requests it sent failed, as the Python SDK does, that it went on and they failed); the sessions view marks that session "never usable", though its initialize shows SUCCESS. A session in which a request worked after the refusal went on, and is said so even when the client began a new session later.',
    why: 'No request failed, so no attempt shows it; but a refused notifications/initialized leaves the session unusable: the TypeScript SDK\'s connect() throws on it ("Streamable HTTP error: Error POSTing to endpoint"), and the application starts over or gives up. A fault injector that counts every POST (a status sequence such as [200, 503, 200]) hits it.',
    spec: 'Streamable HTTP: the server answers a POST of notifications or responses with 202 Accepted when it accepts it, else with an HTTP error status (optionally a JSON-RPC error without an id).',
    todo: 'Count which POST a fault hits; check what refused the notification (the server, a gateway in front of it); have the client start over (or retry) when setup fails.',
  },
  GET_STREAM_REFUSED: {
    severity: 'warning', attachedTo: 'session',
    definition: 'The client\'s GET for the server\'s stream (Streamable HTTP\'s channel for messages outside a call, or the HTTP+SSE transport\'s only one) was answered with an HTTP error, other than 405 (the server offers no GET stream, which the spec allows), the 404 (or the 400 that says so) of a session the server lost (SESSION_EXPIRED), and a refused resumption of a call\'s stream (told in that call\'s why). One finding per session and status: the message counts the refusals (as the client\'s log counts them when the server\'s is beside it), quotes the body and, for a 409, says that the server held another GET stream of the session. A GET without Last-Event-ID that came within 5 s after a GET resuming an open call\'s stream got its head and broke before any event with an id (and the retries of that GET after a refusal) is the TypeScript SDK 1.x reconnecting that call\'s stream without an id to resume from: the message says how many of the refusals were such reconnects, which asked for the session\'s standalone stream, not the call\'s; for a 409 that were all such, it does not read it as a stream the client lost; the call\'s why names those GETs. A GET without a session id before any initialize of its log is no session\'s stream: the message says it is how a client connects by the old HTTP+SSE transport (2024-11-05), as clients fall back to it after a failed initialize (mcporter), and that the endpoint did not serve it.',
    why: 'No request failed, so no attempt shows it; but list changes, resource updates and the server\'s own requests outside a call are lost. A 409 ("Conflict: Only one SSE stream is allowed per session") is the TypeScript and Python SDK servers refusing a second stream while they hold one: often a stream the client lost (a cut connection, a proxy\'s idle timeout) that the server did not notice, and the client retries it in vain.',
    spec: 'Streamable HTTP: the client MAY issue a GET to open an SSE stream; the server MUST return text/event-stream or 405 Method Not Allowed if it offers none.',
    todo: 'Check the server\'s stream bookkeeping (does it notice a closed stream?) and any proxy idle timeout on long-lived GETs; for other statuses, what refused the GET (a gateway, authorization).',
  },
  LOCAL_ERROR: {
    severity: 'warning', attachedTo: 'attempt',
    definition: 'The client claims an error code that no response on the wire carried: the error was raised inside the client.',
    why: 'The TypeScript SDK v1 raises -32001 (RequestTimeout) on its own timeout and -32000 (ConnectionClosed) on a closed connection, locally; they look like server errors in logs.',
    spec: '2026-07-28: local errors are not assigned codes and must not be mistaken for peer errors. TypeScript SDK v1 ErrorCode: ConnectionClosed -32000, RequestTimeout -32001.',
    todo: 'Look at the transport (cut streams, timeouts) rather than the server; log local errors with a distinct marker.',
  },
  CANCELLED: {
    severity: 'warning (info when no open request matches, but a warning when the client\'s own timeout crossed an answer already sent)', attachedTo: 'attempt, else session',
    definition: 'The client sent notifications/cancelled for the request, often after its local timeout; on 2026-07-28, the client closed the response stream before the result (the cancellation of that version; not a response with an HTTP error status, which was the answer, whether or not the client read its body); or the client cancelled a task with tasks/cancel. At session level also a cancellation the client sent after the request\'s response had ended: when that response was an HTTP error whose body is a JSON-RPC error with id null, the client had not taken it as the answer (rmcp waits on, until its own timeout); after the request\'s own result, an HTTP error without such a body or a failed connection, the cancellation came late and cancelled nothing (the TypeScript SDK sends one whenever the caller\'s AbortSignal fires, even for a request that has ended, as opencode\'s client does); after a result the client then resumed the stream from before (GET with Last-Event-ID) with no replay bringing it, the client never got that answer and cancelled at its own timeout. When the POST that carried the notification ended with no response at all (the client aborted it: mcporter closes its connection right after the SDK\'s timeout sent it), the message says so: with the server\'s log beside it and no notification there, that the cancellation never reached the server; from the client\'s log alone, that it may not have.',
    why: 'The server may still have executed the tool; the client gave up waiting.',
    spec: 'Cancellation (2025 versions): either side MAY cancel with notifications/cancelled; an HTTP disconnect SHOULD NOT be read as cancellation. 2026-07-28: closing the response stream is the cancellation.',
    todo: 'Compare the client timeout with the tool duration; use progress notifications and resetTimeoutOnProgress for long tools.',
  },
  DUPLICATE_RECORD: {
    severity: 'info', attachedTo: 'session',
    definition: 'Identical records (same time, session, id and content) appeared more than once; they are counted once and never taken for retries.',
    why: 'Log exports (Cloud Logging, Datadog) can duplicate rows; counting them would invent retries.',
    spec: 'Cloud Logging insertId de-duplication is not guaranteed in exports.',
    todo: 'Nothing on the wire; de-duplicate the export if counts matter elsewhere.',
  },
  SESSION_ID_CHANGED: {
    severity: 'warning', attachedTo: 'attempt',
    definition: 'The response to a request sent in a session carried another Mcp-Session-Id than the request did, outside an initialize (an initialize sent with a lost session\'s id and answered with a new one opens that new session, which is no change). The message names both ids.',
    why: 'The TypeScript SDK clients (1.x and v2) take any Mcp-Session-Id a response carries for their next requests, silently: the client goes on in a session it never initialized, and whatever the server kept for the first one (its GET stream, subscriptions, resumable streams, the negotiated version) stays behind. The Python SDK client takes a session id only from the initialize response and keeps sending the first, which the server may no longer know. A load balancer without sticky sessions in front of replicas, or a gateway that mints ids, does this.',
    spec: 'Streamable HTTP 2025-03-26 to 2025-11-25: a server MAY assign a session id at initialization, in the Mcp-Session-Id header of the response that carries the InitializeResult; the client MUST send it on all its later requests. No other response assigns one. (2026-07-28 has no sessions.)',
    todo: 'Find what rewrote the header: the replicas behind the load balancer (make sessions sticky, or share session state), a gateway, the server\'s session store; make a server answer an unknown session with 404 instead of minting a new id.',
  },
};

/** The text `mcp-triage explain CODE` prints, or undefined for an unknown code. */
export function explain(code: string): string | undefined {
  const c = code.trim().toUpperCase();
  if ((FINDING_CODES as readonly string[]).includes(c)) {
    const d = FINDING_DOCS[c as FindingCode];
    return `${c} (finding; severity ${d.severity}; attached to ${d.attachedTo})\n\n${d.definition}\n\nWhy it matters: ${d.why}\n\nSpec: ${d.spec}\n\nWhat to do: ${d.todo}\n`;
  }
  if (isOutcome(c)) {
    const o = OUTCOME_INFO[c as Outcome];
    return `${c} (outcome; layer ${o.layer})\n\n${o.meaning}.\n\nOutcomes are decided per attempt in this order, first match wins: NO_RESPONSE, HTTP_ERROR, MALFORMED_JSON, STREAM_INCOMPLETE, INVALID_ENVELOPE, JSONRPC_ERROR, INPUT_REQUIRED, TASK_CREATED, INVALID_TOOL_RESULT, INVALID_RESULT, TOOL_ERROR, TOOL_SUCCESS / SUCCESS (UNANSWERED when the log shows the request but not its answer: a source without an HTTP layer, or a capture that kept no body).\n`;
  }
  return undefined;
}
