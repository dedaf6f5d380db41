// ASP.NET Core's own account of each request (Microsoft.AspNetCore.Hosting.Diagnostics' "Request finished" line, event 2), as .NET's JSON console formatter writes it or its text through dotnet-console: the server's status and time taken for each POST, no body, no JSON-RPC id.
import type { AdapterContext, AdapterResult, JsonFormat } from './adapter.js';
import { requestLineRecord } from './request-line.js';
import { parseTimestamp } from './time.js';

const CATEGORY = 'Microsoft.AspNetCore.Hosting.Diagnostics';
/**
 * HostingRequestFinishedLog.ToString() (dotnet/aspnetcore, src/Hosting/Hosting/src/Internal): "Request finished
 * {Protocol} {Method} {Scheme}://{Host}{PathBase}{Path}{QueryString} - {StatusCode} {ContentLength} {ContentType}
 * {ElapsedMilliseconds}ms", the content type with its spaces as "+", an empty value as "-", the time as "0.0000".
 */
const FINISHED = /^Request finished (\S+) ([A-Z]+) ([a-z][a-z0-9+.-]*:\/\/\S+?) - (\d{3}) (\S+) (\S+) (\d+(?:\.\d+)?)ms$/;
/** Its "Request starting ..." line (event 1): read, and left out (the finished line has the status and the time). */
const STARTING = /^Request starting \S+ [A-Z]+ \S+ - \S+ \S+$/;
/** Longest text kept of a path. */
const SHORT = 120;

/** A line of ASP.NET Core's hosting diagnostics that says a request started or finished. */
export function isHostingLine(category: unknown, message: unknown): boolean {
  return category === CATEGORY && typeof message === 'string' && (FINISHED.test(message) || STARTING.test(message));
}

/**
 * One "Request finished" line as an exchange that started ElapsedMilliseconds before the line's time (written when the
 * response was done); a POST to any path (the MCP endpoint's path is the app's choice), the other methods and the
 * starting line give none. `ts` undefined: the line has no date.
 */
export function hostingRecords(ts: string | undefined, message: string, ctx: AdapterContext): AdapterResult {
  const m = FINISHED.exec(message);
  if (!m) return [];
  const [, , method, url, statusText, , contentType, elapsedText] = m as unknown as [string, string, string, string, string, string, string, string];
  if (method !== 'POST') return [];
  const status = Number(statusText);
  const elapsed = Number(elapsedText);
  const end = ts === undefined ? undefined : parseTimestamp(ts, ctx.timezone);
  let path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?]*/, '') || '/';
  if (path.length > SHORT) path = `${path.slice(0, SHORT)}...`;
  const type = contentType === '-' ? 'no body type' : contentType.replace(/\+/g, ' ').slice(0, 60);
  const said = `ASP.NET Core's hosting log has this POST ${path} answered ${status} (${type}) in ${elapsed.toFixed(1)} ms${status >= 400 ? ': the server answered it itself, no hop did' : ''}`;
  return [requestLineRecord('aspnet-hosting', method, path, status, elapsed, end, said)];
}

export const aspnetHostingFormat: JsonFormat = {
  kind: 'json',
  name: 'aspnet-hosting',
  detect: (v) => isHostingLine(v.Category, v.Message),
  toRecords: (v, ctx) => hostingRecords(typeof v.Timestamp === 'string' ? v.Timestamp : undefined, v.Message as string, ctx),
  limits: {
    http: true,
    bodies: false,
    session: false,
    typedIds: true,
    gatewayAccount: true,
    bodiesNote: 'no bodies, no JSON-RPC method, id, session or tool: each POST\'s "Request finished" line is the server\'s account of one request (its status, response type and how long it took), joined to the client\'s attempt of the same status that started within a second of it (a clock further off, found within --skew, is first put on the client\'s)',
    notes: [
      "ASP.NET Core's hosting log (Microsoft.AspNetCore.Hosting.Diagnostics, event 2 \"Request finished\", at Information: an app whose Logging:LogLevel sets \"Microsoft.AspNetCore\" to Warning, as the templates' appsettings.json do, writes none): written when a request ended, its start is the line's time less its elapsed milliseconds; \"Request starting\" lines are read and left out; a status here was sent by the server's process (its middleware or the MCP SDK), not by a hop in front of it",
      'the text console format\'s time is there only with a TimestampFormat, and places lines only when it has the date ("HH:mm:ss " has none: such lines are counted, not joined)',
    ],
  },
};
