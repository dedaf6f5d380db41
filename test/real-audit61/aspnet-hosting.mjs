// ASP.NET Core's own request lines (Microsoft.AspNetCore.Hosting.Diagnostics, events 1 and 2), written as
// HostingRequestStartingLog and HostingRequestFinishedLog render them (dotnet/aspnetcore src/Hosting/Hosting/src/Internal:
// "Request starting {Protocol} {Method} {Scheme}://{Host}{PathBase}{Path}{QueryString} - {ContentType} {ContentLength}",
// "Request finished ... - {StatusCode} {ContentLength} {ContentType} {ElapsedMilliseconds}ms", an empty value "-", spaces
// in a content type "+", the time "0.0000"), for test/real-audit61/record.mjs: outermost around the kitchen (the
// hosting layer starts its clock before any middleware), in .NET's JSON console shape (Timestamp "O", State with the
// values and {OriginalFormat}) and the simple console shape with a TimestampFormat "yyyy-MM-ddTHH:mm:ss.fffZ " (UTC).
import { writeFileSync } from 'node:fs';

const CATEGORY = 'Microsoft.AspNetCore.Hosting.Diagnostics';
const STARTING = 'Request starting {Protocol} {Method} {Scheme}://{Host}{PathBase}{Path}{QueryString} - {ContentType} {ContentLength}';
const FINISHED = 'Request finished {Protocol} {Method} {Scheme}://{Host}{PathBase}{Path}{QueryString} - {StatusCode} {ContentLength} {ContentType} {ElapsedMilliseconds}ms';
const oTime = (ms) => `${new Date(ms).toISOString().slice(0, 23)}${String(Number(process.hrtime.bigint() % 10000n)).padStart(4, '0')}+00:00`;
const empty = (v) => (v === undefined || v === null || v === '' ? '-' : String(v).replace(/ /g, '+'));

export function aspnetHosting() {
  const json = [];
  const text = [];
  const line = (ms, event, message, state, original) => {
    json.push(JSON.stringify({ Timestamp: oTime(ms), EventId: event, LogLevel: 'Information', Category: CATEGORY, Message: message, State: { Message: message, ...state, '{OriginalFormat}': original } }));
    text.push(`${new Date(ms).toISOString()} info: ${CATEGORY}[${event}]\n      ${message}`);
  };
  const wrap = (next) => async (req, res) => {
    const t0 = performance.now();
    const [path, query = ''] = req.url.split(/(?=\?)/);
    const values = { Protocol: `HTTP/${req.httpVersion}`, Method: req.method, Scheme: 'http', Host: req.headers.host, PathBase: '', Path: path, QueryString: query };
    const url = `${values.Scheme}://${values.Host}${path}${query}`;
    const reqType = req.headers['content-type'];
    const reqLen = req.headers['content-length'];
    line(Date.now(), 1, `Request starting ${values.Protocol} ${req.method} ${url} - ${empty(reqType)} ${empty(reqLen)}`, { Protocol: values.Protocol, Method: req.method, ContentType: reqType ?? null, ContentLength: reqLen !== undefined ? Number(reqLen) : null, Scheme: 'http', Host: values.Host, PathBase: '', Path: path, QueryString: query }, STARTING);
    // (headers given to writeHead are not getHeader's: kept as they pass, as Kestrel's response headers are)
    const sent = {};
    const writeHead = res.writeHead;
    res.writeHead = function (status, ...rest) {
      const h = rest.find((x) => x && typeof x === 'object');
      if (h) for (const [k, v] of Object.entries(h)) sent[k.toLowerCase()] = v;
      return writeHead.call(this, status, ...rest);
    };
    res.once('close', () => {
      const elapsed = performance.now() - t0;
      const type = res.getHeader('content-type') ?? sent['content-type'];
      const len = res.getHeader('content-length') ?? sent['content-length'];
      line(Date.now(), 2, `Request finished ${values.Protocol} ${req.method} ${url} - ${res.statusCode} ${empty(len)} ${empty(type)} ${elapsed.toFixed(4)}ms`, { ElapsedMilliseconds: Number(elapsed.toFixed(4)), StatusCode: res.statusCode, ContentType: type ?? null, ContentLength: len !== undefined ? Number(len) : null, ...values }, FINISHED);
    });
    return next(req, res);
  };
  const write = (dir) => {
    writeFileSync(`${dir}aspnet-console.json.log`, `${json.join('\n')}\n`);
    writeFileSync(`${dir}aspnet-console.txt`, `${text.join('\n')}\n`);
  };
  return { wrap, write };
}
