// The Go SDK's LoggingTransport lines (`write: {json}`, `read: {json}`, `read error: ...`), bare or after a Go `log` date: one JSON-RPC message each, relative to whoever logged it.
import type { MessageRecord } from '../schema/record.js';
import { MESSAGE_LEVEL, type AdapterContext, type AdapterResult, type TextFormat } from './adapter.js';
import { directionOfWriter } from './jsonrpc.js';
import { isObj, parseJson } from './values.js';

// github.com/modelcontextprotocol/go-sdk/mcp.LoggingTransport writes `write: <message>\n` after a message went out and
// `read: <message>\n` after one came in, where the message is one line of JSON; when a read or write fails it writes
// `read error: <error>` or `write error: <error>` (older versions with no newline after it, so the next line runs on), and the
// message that failed to go out is not logged. The writer is often os.Stderr, with no time; through a `log.Logger`
// each line starts with its local date and time (`2006/01/02 15:04:05`, `.000000` with Lmicroseconds).
const GO_LINE = /^(?:(\d{4})\/(\d{2})\/(\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?) )?(?:(read|write): (?=[[{])|(read error|write error|LoggingTransport): )(.*)$/s;
/** A message logged right after an error text that had no newline. */
const RUN_ON = /(read|write): ([[{].*)$/s;

function message(kind: 'read' | 'write', body: string, ts: string | undefined, ctx: AdapterContext): AdapterResult {
  const msg = parseJson(body);
  if (!isObj(msg) && !Array.isArray(msg)) return { error: `Go SDK LoggingTransport "${kind}:" line whose message is not one JSON value` };
  const record: MessageRecord = { v: 1, kind: 'message', direction: directionOfWriter(kind === 'write', msg, ctx), message: msg };
  if (ts !== undefined) record.ts = ts;
  if (ctx.side === 'client' || ctx.side === 'server') record.side = ctx.side;
  return [record];
}

function goSdkToRecords(line: string, ctx: AdapterContext): AdapterResult {
  const m = GO_LINE.exec(line);
  if (!m) return { error: 'not a Go SDK LoggingTransport line' };
  const [, y, mo, d, time, exchanged, failure, rest] = m as unknown as [string, string | undefined, string | undefined, string | undefined, string | undefined, string | undefined, string | undefined, string];
  const kind = (exchanged ?? failure)!;
  const ts = y !== undefined ? `${y}-${mo}-${d} ${time}` : undefined;
  if (kind === 'read' || kind === 'write') return message(kind, rest, ts, ctx);
  const runOn = RUN_ON.exec(rest);
  if (runOn) return message(runOn[1] as 'read' | 'write', runOn[2]!, ts, ctx);
  if (kind === 'LoggingTransport') return { error: `Go SDK LoggingTransport could not log a message: ${rest}` };
  return {
    error: kind === 'write error'
      ? `Go SDK LoggingTransport: a message failed to go out and is not in the log: ${rest}`
      : `Go SDK LoggingTransport: reading failed: ${rest}`,
  };
}

export const goSdkFormat: TextFormat = {
  kind: 'text',
  name: 'go-sdk',
  detectText: (line) => GO_LINE.test(line),
  textToRecords: goSdkToRecords,
  limits: {
    ...MESSAGE_LEVEL,
    notes: [
      'no HTTP layer and no session id: the calls of concurrent sessions logged to one writer share one id space',
      'no time unless the writer is a log.Logger (its local time: --timezone says which, default UTC)',
      'a message that failed to go out is not logged: its "write error" line is reported, not analyzed',
    ],
  },
};
