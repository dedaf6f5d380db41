// Adapter for mcpsnoop session JSONL (proxy capture): one frame per line with session, sequence, direction, raw JSON-RPC and HTTP status.
import type { MessageRecord } from '../schema/record.js';
import type { AdapterResult, JsonFormat } from './adapter.js';
import { httpStatus, str, timeValue, type Obj } from './values.js';

function mcpsnoopToRecords(v: Obj): AdapterResult {
  const dir = v.direction;
  // stderr lines of a wrapped stdio server and the session's meta frame carry no JSON-RPC traffic.
  if (dir === 'stderr' || dir === 'meta') return [];
  if (dir !== 'c2s' && dir !== 's2c') return { error: `mcpsnoop frame with unknown direction ${JSON.stringify(typeof dir === 'object' && dir !== null ? (Array.isArray(dir) ? 'an array' : 'an object') : String(dir)).slice(0, 30)}` };
  const status = httpStatus(v.status);
  const hasRaw = v.raw !== undefined && v.raw !== null;
  const text = str(v.text);
  if (!hasRaw && text !== undefined && text !== '') {
    // mcpsnoop keeps non-JSON protocol frames as text; a message record cannot carry them.
    return { error: `mcpsnoop ${dir} frame is not JSON (${v.truncated === true ? 'cut at the frame-size cap' : 'malformed frame on the protocol channel'})` };
  }
  if (!hasRaw && status === undefined) return { error: 'mcpsnoop frame without raw message or status' };
  if (v.truncated === true) return { error: `mcpsnoop ${dir} frame was cut at the frame-size cap` };
  const record: MessageRecord = {
    v: 1,
    kind: 'message',
    direction: dir,
    // A bodiless response (401 challenge, 202 to a notification, a 502 made up by the proxy) keeps its status with a null message.
    message: hasRaw ? v.raw : null,
  };
  const ts = timeValue(v.ts);
  if (ts !== undefined) record.ts = ts;
  const session = str(v.session_id);
  const transport = str(v.transport);
  // mcpsnoop's session_id names its own capture session; on HTTP the MCP session is not recorded separately.
  if (session) record.conn = str(v.conn_id) ? `${session}/${String(v.conn_id)}` : session;
  if (status !== undefined && transport !== 'stdio') record.status = status;
  return [record];
}

export const mcpsnoopFormat: JsonFormat = {
  kind: 'json',
  name: 'mcpsnoop',
  detect: (v) => typeof v.session_id === 'string' && typeof v.seq === 'number' && typeof v.direction === 'string' && 'ts' in v,
  toRecords: (value) => mcpsnoopToRecords(value),
  limits: {
    http: true,
    bodies: true,
    session: false,
    typedIds: true,
    notes: [
      "session_id is mcpsnoop's capture session, not Mcp-Session-Id: calls are joined per capture and client connection",
      'HTTP status only on responses of HTTP-mode captures; no headers',
      'frames that are not JSON or were cut at the size cap are reported, not analyzed',
    ],
  },
};
