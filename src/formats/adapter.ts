// The contract every input-format adapter meets: one parsed line (or one text line) in, canonical records out.
import type { CanonicalRecord } from '../schema/record.js';

/** What a source cannot show; the report prints it and findings that need it are not raised from it. */
export interface SourceLimits {
  /** The source records HTTP status codes (false: HTTP_ERROR and NO_RESPONSE are not observable). */
  http: boolean;
  /** With http false: what "cannot show" says in place of "no HTTP status", for a source that ties some statuses. */
  httpNote?: string;
  /** The source records message bodies (results, errors). */
  bodies: boolean;
  /** With bodies false: what "cannot show" says in place of "no bodies", for a source that keeps the requests' bodies. */
  bodiesNote?: string;
  /** The source records an MCP session id. */
  session: boolean;
  /** The source keeps JSON-RPC ids with their JSON type (false: ids were stringified; joins on them are weak). */
  typedIds: boolean;
  /**
   * The source leaves some responses out (MCPSpy's slower than 5 s, the Python SDK's JSON answers): a request without
   * one in it shows no answer, which is no evidence that none came.
   */
  answersUnlogged?: true;
  /**
   * A record's session id went with it as the Mcp-Session-Id header, though the source keeps no headers: its producer
   * names a session only once its server gave one (the Python SDK client's "Received session ID" line) and sends that
   * id on every later message, so a 404 it got is a refusal of that session.
   */
  sessionSent?: true;
  /**
   * The format is a gateway's bodiless account of each HTTP request (HAProxy's httplog, nginx's access and error logs):
   * its exchanges are no views of an attempt; each carries a GatewayAccount, is offered to the attempt of its POST (see
   * join/gateway-lines.ts) and summed up in a note.
   */
  gatewayAccount?: true;
  /** Plain-language caveats: "drops responses slower than 5 s", "deduplicates repeats within 2 s", ... */
  notes: string[];
}

/** Which gateway's log a line of a gatewayAccount format is. */
export type GatewayLog = 'haproxy' | 'nginx-access' | 'nginx-error' | 'caddy-access' | 'caddy-error' | 'apache-access' | 'apache-error' | 'kitchen-log' | 'kitchen-observation' | 'aspnet-hosting' | 'server-console' | 'http-logger';

/** A gateway's own account of an exchange, carried on its record (beside the schema's fields) to the join (analyze.ts). */
export interface GatewayAccount {
  log: GatewayLog;
  /** The record's ts is when the request started (else when it ended, or when the error happened). */
  startKnown: boolean;
  /** The termination state's first two letters (`--`: normal; HAProxy's only). */
  state: string;
  retries: number;
  /** TR + Tw + Tc (the parts that ran): when the last try reached a server, after the request's time. */
  beforeServerMs: number;
  /** A server's response head reached the gateway (HAProxy's Tr not -1): the status is that server's. */
  serverHead: boolean;
  /** Counted, never offered to an attempt (see GatewayLine.countOnly). */
  countOnly?: true;
  /** The JSON-RPC method and tool the line names (the MCP test kitchen's observations), matched to the attempt's. */
  rpcMethod?: string;
  tool?: string | null;
  /** The server saw the request aborted before it was done (an observation's wasCancelled). */
  cancelled?: boolean;
  /** The line names no request (Caddy's reverse_proxy "aborting with incomplete response"): it fits a stream that ended at its time. */
  unnamed?: true;
  /** The scenario the MCP test kitchen's observation names (its scenarioId): which layer answered may follow from it. */
  scenario?: string;
  /**
   * Apache's error log: how far the request had got when it failed (connect: no connection to the server; head: no
   * response head came; body: the response had begun, the stream was cut; request: passing the request on failed),
   * and the process and thread that wrote it (the lines of one failure come from one thread within milliseconds).
   */
  stage?: 'connect' | 'head' | 'body' | 'request';
  thread?: string;
  /** A server's console (server-console.ts): whose request line it is (uvicorn's, morgan's, hono/logger's). */
  producer?: 'uvicorn' | 'morgan' | 'hono';
  /** A server's console line that tells of no request but of an event (a session refused, an exception): what it tells, counted. */
  consoleEvent?: string;
}

/** What a message-level source can show (stdio logs, sniffers, client logs: no HTTP layer, no session); each adds its notes. */
export const MESSAGE_LEVEL: Omit<SourceLimits, 'notes'> = { http: false, bodies: true, session: false, typedIds: true };

export interface AdapterContext {
  /** Display name of the input ("<stdin>" for standard input). */
  file: string;
  /** 1-based line number of the record in that input. */
  line: number;
  /** IANA zone or offset such as "+02:00" used for timestamps that carry no zone (default UTC). */
  timezone?: string | undefined;
  /** State an adapter keeps across the lines of one input (keyed by format name), for formats whose lines depend on earlier ones. */
  state?: Map<string, unknown>;
  /** The side --client / --server gave the input, when one did: whose log it is. */
  side?: 'client' | 'server' | 'gateway' | 'unknown' | undefined;
  /** Adds a line to what this input cannot show (once), for what a format learns of its producer from the lines. */
  note?: (text: string) => void;
  /**
   * Says a fault of this line that leaves the rest of it readable (a HAR header that is not text): a diagnostic at the
   * line, with its reason code; the line still counts as used or skipped.
   */
  diagnose?: (code: string, message: string) => void;
}

/** Records the line maps to, or why it cannot be used ([] means: recognized, carries nothing to analyze). */
export type AdapterResult = CanonicalRecord[] | { error: string };

/**
 * A record a text format held back and returns at a later line (the Python SDK log's answer that the SDK's next line
 * settles): the line it belongs to, its source in the report. Read only for the formats that hold records so.
 */
export const heldLine = new WeakMap<CanonicalRecord, number>();

/** A format whose lines are JSON values. */
export interface JsonFormat {
  kind: 'json';
  /** Name used by --input-format and shown in the report. */
  name: string;
  /** Cheap structural test on one parsed line; must not throw. */
  detect(value: Record<string, unknown>): boolean;
  toRecords(value: Record<string, unknown>, ctx: AdapterContext): AdapterResult;
  /** What the format held back for a later line to settle (a Fastify request's body line waiting for its last line), said when the input ends without it. */
  endOfInput?(ctx: AdapterContext): { line: number; records: CanonicalRecord[] }[];
  limits: SourceLimits;
}

/** A format whose lines are text with embedded JSON (tried before JSON.parse). */
export interface TextFormat {
  kind: 'text';
  name: string;
  /** Cheap test on one line; `state` is the input's adapter state (AdapterContext.state), for a line read by an earlier one. */
  detectText(line: string, state?: Map<string, unknown>): boolean;
  textToRecords(line: string, ctx: AdapterContext): AdapterResult;
  /**
   * What the format held back for the next line to settle (a stream's end that waits to see whether the next record
   * resumes it), said when the input ends without one: each with the line it belongs to.
   */
  endOfInput?(ctx: AdapterContext): { line: number; records: CanonicalRecord[] }[];
  limits: SourceLimits;
}

export type InputFormat = JsonFormat | TextFormat;

export const FULL_VIEW: SourceLimits = { http: true, bodies: true, session: true, typedIds: true, notes: [] };
