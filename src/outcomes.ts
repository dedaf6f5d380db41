// The outcome vocabulary: every outcome an attempt can have, its failure layer and its one-line meaning.

export const OUTCOMES = [
  'NO_RESPONSE',
  'HTTP_ERROR',
  'MALFORMED_JSON',
  'STREAM_INCOMPLETE',
  'INVALID_ENVELOPE',
  'JSONRPC_ERROR',
  'INPUT_REQUIRED',
  'TASK_CREATED',
  'INVALID_TOOL_RESULT',
  'INVALID_RESULT',
  'TOOL_ERROR',
  'TOOL_SUCCESS',
  'SUCCESS',
  'UNANSWERED',
] as const;

export type Outcome = (typeof OUTCOMES)[number];

export type Layer = 'transport' | 'protocol' | 'interaction' | 'application' | 'unknown';

export const OUTCOME_INFO: Record<Outcome, { layer: Layer; meaning: string }> = {
  NO_RESPONSE: { layer: 'transport', meaning: 'no HTTP response exists for the request: its connection could not be made (nothing was sent), or it was sent and the connection failed or closed, timed out, or the capture was cut first' },
  HTTP_ERROR: { layer: 'transport', meaning: 'the HTTP status was not 2xx, whatever the body said' },
  MALFORMED_JSON: { layer: 'protocol', meaning: 'the JSON body, or an SSE data payload, does not parse, and no valid response arrived' },
  STREAM_INCOMPLETE: { layer: 'transport', meaning: '2xx, but no JSON-RPC response for this request arrived (SSE ended early, empty body, 202 to a request), or, in the client\'s view, none before the client cancelled it (its timeout): a later answer reached no caller' },
  INVALID_ENVELOPE: { layer: 'protocol', meaning: 'not a valid JSON-RPC 2.0 response to this request (jsonrpc not "2.0", both or neither of result/error, a different id, a malformed error object)' },
  JSONRPC_ERROR: { layer: 'protocol', meaning: 'a valid JSON-RPC error response' },
  INPUT_REQUIRED: { layer: 'interaction', meaning: 'result.resultType is "input_required": the server needs more input (MRTR), the call is not finished' },
  TASK_CREATED: { layer: 'interaction', meaning: 'a task-augmented tools/call was accepted as a task (a CreateTaskResult with its taskId): the tool runs on, and its result comes with tasks/result' },
  INVALID_TOOL_RESULT: { layer: 'protocol', meaning: 'tools/call result is not a valid CallToolResult (not an object, content not an array, a content block of an unknown type or without its fields, isError not boolean, an unknown resultType or none on 2026-07-28, an input_required result with neither inputRequests nor requestState; structuredContent that is no object only before 2026-07-28), or its structuredContent is missing or breaks the outputSchema tools/list declares' },
  INVALID_RESULT: { layer: 'protocol', meaning: 'a result of a request other than tools/call that its method\'s schema does not allow (resources/read contents without a uri or with a blob that is not base64, a prompts/get message without its role or with an unknown content type, a list entry without its name), or no resultType on 2026-07-28: SDK clients refuse such a result, so the caller got an error' },
  TOOL_ERROR: { layer: 'application', meaning: 'the tool ran and reported failure: result.isError is true' },
  TOOL_SUCCESS: { layer: 'application', meaning: 'tools/call completed and the tool reported success' },
  SUCCESS: { layer: 'application', meaning: 'a request other than tools/call completed with a valid result' },
  UNANSWERED: { layer: 'unknown', meaning: 'the log shows the request but not what answered it: a source without an HTTP layer has no response for it, or a capture kept no body for its 2xx response; what happened cannot be observed, so it is not guessed' },
};

/** Outcomes after which the same call, sent again, counts as a retry. */
export function isFailure(outcome: Outcome): boolean {
  return outcome !== 'TOOL_SUCCESS' && outcome !== 'SUCCESS' && outcome !== 'TOOL_ERROR' && outcome !== 'INPUT_REQUIRED' && outcome !== 'TASK_CREATED';
}

export function isOutcome(s: string): s is Outcome {
  return (OUTCOMES as readonly string[]).includes(s);
}
