// Adapter for the GitHub Agentic Workflows MCP gateway's rpc-messages.jsonl: one JSON-RPC message per line, between the gateway and a backend server.
import type { MessageRecord } from '../schema/record.js';
import { MESSAGE_LEVEL, type AdapterContext, type AdapterResult, type JsonFormat } from './adapter.js';
import { isObj, str, timeValue, type Obj } from './values.js';
import { jsonText } from '../report/text.js';

/**
 * The gateway writes the request it forwards without its JSON-RPC id (seen in real files: `{"jsonrpc":"2.0",
 * "method":"tools/call","params":{...}}`), while the backend's response carries one. Such a request gets a stand-in
 * id, `no-id-<n>`, and the next response from the same server whose id answers no logged request is joined to the
 * oldest request still waiting: first in, first out, the order a gateway that forwards one call at a time keeps.
 */
interface Pairing {
  /** Stand-in ids of requests logged without an id, oldest first, per server. */
  waiting: Map<string, string[]>;
  /** Ids of requests logged with their id, per server, until answered. */
  logged: Map<string, Set<string>>;
  next: number;
}

/** Open requests kept per server; beyond it the oldest is left unanswered (bounded memory on a gateway that never answers). */
const MAX_WAITING = 10_000;

function pairingOf(ctx: AdapterContext): Pairing {
  const state = ctx.state;
  let p = state?.get('gh-aw') as Pairing | undefined;
  if (p === undefined) {
    p = { waiting: new Map(), logged: new Map(), next: 1 };
    state?.set('gh-aw', p);
  }
  return p;
}

const idKey = (id: unknown) => `${typeof id}:${String(id)}`;

/** REQUEST / RESPONSE (the legacy `type`), or the same from the `event` of schema rpc-message/v2. */
function entryType(v: Obj): string | undefined {
  const t = str(v.type);
  if (t !== undefined && t !== '') return t.toUpperCase();
  const e = str(v.event);
  if (e === 'rpc_request') return 'REQUEST';
  if (e === 'rpc_response') return 'RESPONSE';
  if (e === 'difc_filtered') return 'DIFC_FILTERED';
  return e?.toUpperCase();
}

function ghAwToRecords(v: Obj, ctx: AdapterContext): AdapterResult {
  const type = entryType(v);
  // A response the gateway's data-flow guard withheld: no JSON-RPC message was passed on in this line.
  if (type === 'DIFC_FILTERED') return [];
  const dir = str(v.direction)?.toUpperCase();
  if (dir !== 'IN' && dir !== 'OUT') return { error: `gh-aw ${type ?? 'entry'} with direction ${jsonText(v.direction ?? null).slice(0, 30)}, not IN or OUT` };
  let message: unknown = v.payload;
  if (typeof message === 'string') {
    try {
      message = JSON.parse(message);
    } catch {
      return { error: 'gh-aw payload is a string that is not JSON' };
    }
  }
  if (!isObj(message)) return { error: `gh-aw payload is ${message === null ? 'null' : Array.isArray(message) ? 'an array' : typeof message}, not a JSON-RPC message` };
  const server = str(v.server_id) ?? '';
  const p = pairingOf(ctx);
  if (dir === 'OUT' && typeof message.method === 'string' && !message.method.startsWith('notifications/')) {
    if (message.id === undefined || message.id === null) {
      const stand = `no-id-${p.next++}`;
      message = { ...message, id: stand };
      let q = p.waiting.get(server);
      if (q === undefined) p.waiting.set(server, (q = []));
      q.push(stand);
      if (q.length > MAX_WAITING) q.shift();
    } else {
      let s = p.logged.get(server);
      if (s === undefined) p.logged.set(server, (s = new Set()));
      if (s.size < MAX_WAITING) s.add(idKey(message.id));
    }
  } else if (dir === 'IN' && message.method === undefined && ('result' in message || 'error' in message)) {
    const logged = p.logged.get(server);
    const key = idKey(message.id);
    if (logged?.has(key)) logged.delete(key);
    else {
      const stand = p.waiting.get(server)?.shift();
      if (stand !== undefined) message = { ...message, id: stand };
    }
  }
  const record: MessageRecord = { v: 1, kind: 'message', direction: dir === 'OUT' ? 'c2s' : 's2c', message };
  const ts = timeValue(v.timestamp);
  if (ts !== undefined) record.ts = ts;
  if (server !== '') record.conn = server;
  return [record];
}

export const ghAwFormat: JsonFormat = {
  kind: 'json',
  name: 'gh-aw',
  detect: (v) => typeof v.server_id === 'string' && 'payload' in v && (typeof v.direction === 'string' || typeof v.type === 'string' || typeof v.event === 'string'),
  toRecords: (value, ctx) => ghAwToRecords(value, ctx),
  limits: {
    ...MESSAGE_LEVEL,
    notes: [
      'the gateway\'s view of each backend server (server_id joins the calls); no HTTP layer',
      'requests are logged without their id: each is paired with the next unmatched response of its server, in order (ids shown as no-id-N)',
    ],
  },
};
