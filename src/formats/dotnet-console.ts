// .NET's text console logger (Microsoft.Extensions.Logging's simple formatter: `trce: Category[EventId]` and the message, on one line or indented on the next), read as the app-log format reads its JSON lines.
import { appLogFormat } from './app-log.js';
import { isRequestLogLine, requestLogRecords } from './kitchen.js';
import { hostingRecords, isHostingLine } from './aspnet-hosting.js';
import { FULL_VIEW, type AdapterContext, type AdapterResult, type TextFormat } from './adapter.js';
import { parseTimestamp } from './time.js';
import type { Obj } from './values.js';

// The simple formatter writes `<level>: <category>[<event id>]`, then the message: after a space with SingleLine, else
// on the next line indented by six spaces (an exception's lines follow, indented the same). A TimestampFormat puts the
// time first (`2026-12-04T09:30:00.047Z info: ...`); by default there is none.
const HEADER = /^(?:([0-9TZ:.,+\-/ ]+?) )?(trce|dbug|info|warn|fail|crit): ([^\s[]+)\[(-?\d+)\](?: (.*))?$/s;
const CONTINUATION = /^ {6}( *\S.*)$/s;
const LEVELS: Record<string, string> = { trce: 'Trace', dbug: 'Debug', info: 'Information', warn: 'Warning', fail: 'Error', crit: 'Critical' };
/** Colors, when the console was a terminal that was captured (`script`, a CI log). */
const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * The C# SDK's (ModelContextProtocol) Trace lines of a message, by their fixed words: its endpoint name, the template,
 * and the message after `Message: '` or `Request: '` up to the closing `'.`.
 */
const CSHARP_MESSAGE = /^(.*?) (transport sending message\. Message|transport received message\. Message|sending message\. Message|sending method '[^']*' request\. Request): '(.*)'\.$/s;
const TEMPLATES: Record<string, string> = {
  'transport sending message. Message': "{EndpointName} transport sending message. Message: '{Message}'.",
  'transport received message. Message': "{EndpointName} transport received message. Message: '{Message}'.",
  'sending message. Message': "{EndpointName} sending message. Message: '{Message}'.",
};

interface Entry {
  ts?: string;
  level: string;
  category: string;
  /** The header's message was read (its next indented lines are an exception's: skipped). */
  read: boolean;
}

/** One entry's message as the JSON console formatter would have written the line, for the app-log format to read. */
function asJsonLine(entry: Entry, text: string): Obj {
  const line: Obj = { LogLevel: entry.level, Category: entry.category, Message: text };
  if (entry.ts !== undefined) line.Timestamp = entry.ts;
  const m = CSHARP_MESSAGE.exec(text);
  if (m) {
    const [, endpoint, words, json] = m as unknown as [string, string, string, string];
    const template = TEMPLATES[words] ?? "{EndpointName} sending method '{Method}' request. Request: '{Request}'.";
    line.State = { EndpointName: endpoint, [template.includes('{Request}') ? 'Request' : 'Message']: json, '{OriginalFormat}': template };
  }
  return line;
}

function toRecords(raw: string, ctx: AdapterContext): AdapterResult {
  const text = raw.includes('\x1b') ? raw.replace(ANSI, '') : raw;
  const state = ctx.state;
  const header = HEADER.exec(text);
  if (header) {
    const [, time, level, category, , message] = header as unknown as [string, string | undefined, string, string, string, string | undefined];
    const entry: Entry = { level: LEVELS[level]!, category, read: message !== undefined };
    // A time-only TimestampFormat ("HH:mm:ss ") places nothing on a date: such lines have no time.
    if (time !== undefined && parseTimestamp(time, ctx.timezone) !== undefined) entry.ts = time;
    state?.set('dotnet-console', entry);
    // The MCP test kitchen's request log (Development's text shape): the server's account of a request
    if (message !== undefined && isRequestLogLine(category, message)) return requestLogRecords(entry.ts, message, ctx);
    // ASP.NET Core's own line of each request (SingleLine): the server's account of it too
    if (message !== undefined && isHostingLine(category, message)) return hostingRecords(entry.ts, message, ctx);
    return message === undefined ? [] : appLogFormat.toRecords(asJsonLine(entry, message), ctx);
  }
  const entry = state?.get('dotnet-console') as Entry | undefined;
  const cont = CONTINUATION.exec(text);
  if (!cont || entry === undefined) return { error: 'line is not JSON and matches no text log format' };
  if (entry.read) return [];
  entry.read = true;
  if (isHostingLine(entry.category, cont[1]!)) return hostingRecords(entry.ts, cont[1]!, ctx);
  return appLogFormat.toRecords(asJsonLine(entry, cont[1]!), ctx);
}

export const dotnetConsoleFormat: TextFormat = {
  kind: 'text',
  name: 'dotnet-console',
  // An indented line is an entry's message only in an input where a header came before it.
  detectText: (line, state) => HEADER.test(line) || (state?.has('dotnet-console') === true && CONTINUATION.test(line)),
  textToRecords: toRecords,
  limits: {
    ...FULL_VIEW,
    // the MCP test kitchen's request log lines (see kitchen.ts) and ASP.NET Core's "Request finished" lines (aspnet-hosting.ts) carry a gateway account; the other records none
    gatewayAccount: true,
    notes: [
      ".NET's text console log: times only with a TimestampFormat that has the date; an app's own messages are read as app-log reads them, the C# SDK's at Trace by its words, ASP.NET Core's \"Request finished\" lines as aspnet-hosting reads them",
    ],
  },
};
