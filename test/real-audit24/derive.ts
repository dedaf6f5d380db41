// The reshaped variants of one real-audit24 run (as pipelines reshape captures: a whole HAR, log-platform envelopes, gzip, CRLF, newest first, rotated halves), written into a given directory.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/**
 * Writes into `out` the reshaped variants of the captures in `dir`: a whole .har (and
 * .har.gz) from har-entries.ndjson sorted by start; the Python DEBUG log without httpx/httpcore lines; and, of
 * client.ndjson, app-pino.jsonl, server.ndjson, python-debug.log and server-pino.jsonl: Datadog v2 events and one
 * search page, Elasticsearch hits (one per line, and a search page newest first), Loki logcli jsonl (newest first),
 * Cloud Logging entries (newest first), CloudWatch `aws logs tail` lines (JSON sources), gzip, CRLF, reversed; the two
 * halves of client.ndjson concatenated in the wrong order; client.ndjson and server.ndjson in one file.
 */
export function derive(dir: string, out: string): void {
  mkdirSync(out, { recursive: true });
  const lines = (f: string): string[] => (existsSync(`${dir}/${f}`) ? readFileSync(`${dir}/${f}`, 'utf8').split('\n').filter(Boolean) : []);
  const timeOf = (l: string): string => {
    try {
      const o = JSON.parse(l) as Record<string, unknown>;
      const t = o.ts ?? o.time ?? o.timestamp ?? o.startedDateTime;
      return typeof t === 'number' ? new Date(t).toISOString() : (t as string);
    } catch {
      const m = /^(\d{4}-\d\d-\d\d[ T][\d:,.]+)/.exec(l);
      return m ? new Date(m[1]!.replace(' ', 'T').replace(',', '.') + 'Z').toISOString() : new Date(0).toISOString();
    }
  };

  // whole HAR file
  const har = lines('har-entries.ndjson').map((l) => JSON.parse(l) as { startedDateTime: string }).sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
  if (har.length) {
    const doc = JSON.stringify({ log: { version: '1.2', creator: { name: 'audit24-har-proxy', version: '1.0' }, pages: [], entries: har } }, null, 2);
    writeFileSync(`${out}/capture.har`, doc);
    writeFileSync(`${out}/capture.har.gz`, gzipSync(doc));
  }
  // the Python SDK DEBUG log as logging.getLogger("mcp").setLevel(DEBUG) alone writes it (no httpx/httpcore lines)
  const pyLines = lines('python-debug.log');
  if (pyLines.length) writeFileSync(`${out}/python-debug-mcp-only.log`, pyLines.filter((l) => / - mcp\./.test(l)).join('\n') + '\n');

  const SOURCES = ['client.ndjson', 'app-pino.jsonl', 'server.ndjson', 'python-debug.log', 'server-pino.jsonl'].filter((f) => lines(f).length);
  for (const f of SOURCES) {
    const base = f.replace(/\.(ndjson|jsonl|log)$/, '');
    const ls = lines(f);
    const isJson = (() => {
      try {
        JSON.parse(ls[0]!);
        return true;
      } catch {
        return false;
      }
    })();
    const parsed = (l: string) => JSON.parse(l) as unknown;
    // Datadog Logs API v2 events (attributes.attributes parsed; a text line in attributes.message)
    writeFileSync(`${out}/${base}.datadog.jsonl`, ls.map((l, i) => JSON.stringify({ id: `AQAAAY${i}`, type: 'log', attributes: { timestamp: timeOf(l), service: 'mcp', status: 'info', tags: ['env:prod'], ...(isJson ? { message: '', attributes: parsed(l) } : { message: l }) } })).join('\n') + '\n');
    // One Datadog search page on one line
    writeFileSync(`${out}/${base}.datadog-page.json`, JSON.stringify({ data: ls.map((l, i) => ({ id: `AQAAAY${i}`, type: 'log', attributes: { timestamp: timeOf(l), service: 'mcp', ...(isJson ? { attributes: parsed(l) } : { message: l }) } })), meta: { page: {} } }) + '\n');
    // Elasticsearch: one hit per line, Filebeat raw line in _source.message
    writeFileSync(`${out}/${base}.elastic-hits.jsonl`, ls.map((l, i) => JSON.stringify({ _index: 'filebeat-8.15.0', _id: `h${i}`, _score: null, _source: { '@timestamp': timeOf(l), message: l, log: { file: { path: `/var/log/${f}` } }, agent: { type: 'filebeat' } } })).join('\n') + '\n');
    // Elasticsearch search response page, newest first (sort @timestamp desc, as Kibana's Discover asks)
    writeFileSync(`${out}/${base}.elastic-page.json`, JSON.stringify({ took: 3, timed_out: false, hits: { total: { value: ls.length, relation: 'eq' }, hits: ls.map((l, i) => ({ _index: 'filebeat-8.15.0', _id: `h${i}`, _source: { '@timestamp': timeOf(l), message: l } })).reverse() } }) + '\n');
    // Loki logcli -o jsonl (logcli prints newest first by default: --forward not given)
    writeFileSync(`${out}/${base}.loki.jsonl`, ls.map((l) => JSON.stringify({ labels: { job: 'mcp', filename: `/var/log/${f}` }, line: l, timestamp: timeOf(l) })).reverse().join('\n') + '\n');
    // Cloud Logging entries (gcloud logging read --format=json | jq -c '.[]'): newest first, as gcloud returns them
    writeFileSync(`${out}/${base}.cloud-logging.jsonl`, ls.map((l, i) => JSON.stringify({ insertId: `i${i}`, ...(isJson ? { jsonPayload: parsed(l) } : { textPayload: l }), resource: { type: 'cloud_run_revision', labels: { service_name: 'mcp' } }, timestamp: timeOf(l), receiveTimestamp: timeOf(l), severity: 'INFO', logName: 'projects/p/logs/run.googleapis.com%2Fstdout' })).reverse().join('\n') + '\n');
    // CloudWatch aws logs tail
    if (isJson) writeFileSync(`${out}/${base}.cloudwatch.log`, ls.map((l) => `${timeOf(l).replace('Z', '+00:00')} 2026/12/05/[$LATEST]0123456789abcdef ${l}`).join('\n') + '\n');
    writeFileSync(`${out}/${base}.ndjson.gz`, gzipSync(ls.join('\n') + '\n'));
    writeFileSync(`${out}/${base}.crlf.ndjson`, ls.join('\r\n') + '\r\n');
    writeFileSync(`${out}/${base}.reversed.ndjson`, [...ls].reverse().join('\n') + '\n');
  }
  // two files concatenated: the first half and the second half of client.ndjson written as two log files, `cat a b`,
  // here in the wrong order (b first), as a rotated log glob sorts app.log.1 after app.log
  const c = lines('client.ndjson');
  if (c.length) {
    const half = Math.floor(c.length / 2);
    writeFileSync(`${out}/client.rotated-cat.ndjson`, [...c.slice(half), ...c.slice(0, half)].join('\n') + '\n');
  }
  // client and server canonical records in one file (one shipper for both processes)
  if (c.length && lines('server.ndjson').length) writeFileSync(`${out}/client+server.cat.ndjson`, [...c, ...lines('server.ndjson')].join('\n') + '\n');
}
