// Adapter for plain JSON-RPC messages with a direction (stdio and other logs without an HTTP layer).
import type { CanonicalRecord } from '../schema/record.js';
import { MESSAGE_LEVEL, type AdapterContext, type AdapterResult, type JsonFormat } from './adapter.js';
import { httpStatus, timeValue } from './values.js';

const C2S = new Set(['c2s', 'client-to-server', 'client_to_server', 'client->server', 'to-server', 'to_server']);
const S2C = new Set(['s2c', 'server-to-client', 'server_to_client', 'server->client', 'to-client', 'to_client']);
/** Directions relative to whoever wrote the log: what it sent, and what it received. */
const SENT = new Set(['outgoing', 'out', 'outbound', 'send', 'sent', 'tx']);
const RECEIVED = new Set(['incoming', 'in', 'inbound', 'recv', 'received', 'receive', 'rx']);

/** Methods only a server sends; a bare message without a direction is assumed client-to-server otherwise. */
const SERVER_METHODS = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list', 'notifications/message',
  'notifications/resources/updated', 'notifications/resources/list_changed', 'notifications/tools/list_changed',
  'notifications/prompts/list_changed', 'notifications/elicitation/complete']);

/** Methods only a client sends: one of them logged as sent or received tells whose log it is. */
const CLIENT_METHODS = new Set(['initialize', 'notifications/initialized', 'server/discover', 'tools/call', 'tools/list',
  'resources/list', 'resources/read', 'resources/templates/list', 'resources/subscribe', 'prompts/list', 'prompts/get',
  'completion/complete', 'logging/setLevel']);

type Role = 'client' | 'server';

/**
 * Whose log this is, for directions written relative to it ("in", "out"): the side --client / --server gave the
 * input, else the record's own `side`, else what the input's first client-only or server-only method showed (a
 * tools/call logged as "in" is a server's log), else a client's (a response: a server's when sent, a client's when received).
 */
/** Whose log the input is, where its client-only or server-only methods logged as sent or received showed it (ingest stamps it on the input's records). */
export function inferredWriter(state: Map<string, unknown>): Role | undefined {
  return state.get('jsonrpc') as Role | undefined;
}

function writerOf(v: Record<string, unknown>, message: unknown, sent: boolean, ctx: AdapterContext): Role {
  if (ctx.side === 'client' || ctx.side === 'server') return ctx.side;
  if (v.side === 'client' || v.side === 'server') return v.side;
  const known = ctx.state?.get('jsonrpc') as Role | undefined;
  if (known !== undefined) return known;
  const method = typeof message === 'object' && message !== null ? (message as Record<string, unknown>).method : undefined;
  // A response before any method told whose log it is (a newest-first export's first line, a log that starts late):
  // most responses answer a client's request, so one sent is a server's and one received a client's (not kept).
  if (typeof method !== 'string') return sent ? 'server' : 'client';
  const byClient = CLIENT_METHODS.has(method);
  if (!byClient && !SERVER_METHODS.has(method)) return 'client';
  const role: Role = byClient === sent ? 'client' : 'server';
  ctx.state?.set('jsonrpc', role);
  return role;
}

/** The direction of a message its log's writer sent (or received), by whose log it is (see writerOf). */
export function directionOfWriter(sent: boolean, message: unknown, ctx: AdapterContext, v: Record<string, unknown> = {}): 'c2s' | 's2c' {
  return (writerOf(v, message, sent, ctx) === 'client') === sent ? 'c2s' : 's2c';
}

function direction(v: Record<string, unknown>, message: unknown, ctx: AdapterContext): 'c2s' | 's2c' | undefined {
  const d = v.direction ?? v.dir;
  if (typeof d === 'string') {
    const key = d.toLowerCase();
    if (C2S.has(key)) return 'c2s';
    if (S2C.has(key)) return 's2c';
    const sent = SENT.has(key);
    if (sent || RECEIVED.has(key)) return directionOfWriter(sent, message, ctx, v);
  }
  if (v.from === 'client') return 'c2s';
  if (v.from === 'server') return 's2c';
  return undefined;
}

function isJsonRpc(m: unknown): boolean {
  if (Array.isArray(m)) return m.length > 0 && m.every(isJsonRpc);
  return typeof m === 'object' && m !== null && ('jsonrpc' in m || 'method' in m || 'result' in m || 'error' in m);
}

export const jsonRpcFormat: JsonFormat = {
  kind: 'json',
  name: 'jsonrpc',
  detect: (v) => v.kind === undefined && (isJsonRpc(v.message) || (typeof v.jsonrpc === 'string' && ('method' in v || 'result' in v || 'error' in v))),
  toRecords(value, ctx): AdapterResult {
    const wrapped = 'message' in value && isJsonRpc(value.message);
    const message = wrapped ? value.message : stripEnvelope(value);
    // (Only where --input-format jsonrpc forced it on a line detection would not give it: no line is taken for nothing.)
    if (!isJsonRpc(message)) return { error: 'no JSON-RPC message in this line for the jsonrpc format (a "message" field, or the line itself with "jsonrpc", "method", "result" or "error") (fix: leave --input-format out to detect each line\'s format, as an app-log line with its message in another field)' };
    let dir = direction(value, message, ctx);
    if (!dir) {
      const m = message as Record<string, unknown>;
      if (typeof m.method === 'string') dir = SERVER_METHODS.has(m.method) ? 's2c' : 'c2s';
      else dir = 's2c';
    }
    const when = timeValue(value.ts ?? value.timestamp ?? value.time);
    const session = value.session ?? value.sessionId ?? value.session_id;
    const record: CanonicalRecord = {
      v: 1,
      kind: 'message',
      direction: dir,
      message,
      ...(typeof when === 'string' || typeof when === 'number' ? { ts: when } : {}),
      ...(typeof session === 'string' ? { session } : {}),
      ...(typeof value.side === 'string' && (value.side === 'client' || value.side === 'server') ? { side: value.side } : {}),
      ...(httpStatus(value.status) !== undefined ? { status: httpStatus(value.status)! } : {}),
    };
    return [record];
  },
  limits: { ...MESSAGE_LEVEL, notes: ['no HTTP layer: HTTP status and connection failures are not observable', 'on 2026-07-28 a client cancels a request by closing its stream, which a message log does not show: a timed-out call there reads as UNANSWERED, with no CANCELLED'] },
};

/** A JSON-RPC message written inline with log fields: drop the log fields. */
function stripEnvelope(v: Record<string, unknown>): Record<string, unknown> {
  const { direction: _d, dir: _r, from: _f, ts: _t, timestamp: _s, time: _m, session: _e, sessionId: _i, session_id: _j, side: _x, status: _y, ...msg } = v;
  return msg;
}
