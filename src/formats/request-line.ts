// The canonical record of a server's bodiless request-log line (method, path, status, time taken; no body, no JSON-RPC id), as the MCP test kitchen's request log and ASP.NET Core's hosting lines give it.
import type { ExchangeRecord } from '../schema/record.js';
import type { GatewayAccount } from './adapter.js';

/**
 * An exchange of the server's side that started `elapsedMs` before the line's time (`endMs`, when the line has one),
 * its duration rounded to the millisecond, with `said` as its account and a GatewayAccount of `log`: offered to the
 * client attempt of its POST, never a view.
 */
export function requestLineRecord(log: GatewayAccount['log'], method: string, path: string, status: number, elapsedMs: number, endMs: number | undefined, said: string): ExchangeRecord & { gatewayAccount: GatewayAccount } {
  const account: GatewayAccount = { log, startKnown: true, state: '--', retries: 0, beforeServerMs: 0, serverHead: true };
  const rec = {
    v: 1,
    kind: 'exchange',
    side: 'server',
    ...(endMs !== undefined ? { ts: new Date(endMs - elapsedMs).toISOString() } : {}),
    method,
    url: path,
    requestHeaders: {},
    status,
    durationMs: Math.round(elapsedMs),
    error: said,
  } as ExchangeRecord;
  return Object.assign(rec, { gatewayAccount: account });
}
