// Log-platform envelopes (Cloud Logging, Datadog, Elasticsearch/OpenSearch, Loki) and --unwrap PATH: the record inside, for re-detection.
import { loggedTime } from './app-log.js';
import { isObj, parseJsonContainer, safeKey, timeValue, type Obj } from './values.js';
import { criLineText } from '../read/container-lines.js';

/**
 * What an envelope held. `value` is the inner record: an object or array parsed from JSON, or a text line (a string)
 * to be tried against the text formats. With `many`, `value` is an array of such inner records (an API page that
 * held several log entries), each to be detected on its own.
 */
interface Unwrapped {
  value: unknown;
  via: string;
  many?: true;
  /** With `many`: each inner record's time in its envelope (a search page's hit's), to tell the page's order before reading it. */
  times?: unknown[];
}

/** Keys an inner record may use for its own time (besides a logger's, see loggedTime); when none is present the envelope's time is copied in. */
const TIME_KEYS = ['ts', 'timestamp', 'time', 'startedDateTime', '@timestamp', 'resourceSpans', 'resourceLogs'];

/** Fields Filebeat/ECS add around a raw log line; a `_source` made only of these carries the line in `message`. */
const ECS_KEYS = new Set(['@timestamp', 'message', 'log', 'host', 'agent', 'ecs', 'input', 'fields', 'tags', 'stream',
  'container', 'kubernetes', 'cloud', 'event', 'service', 'data_stream', 'labels', 'hostname', 'source', 'offset']);

/**
 * The inner record of a text payload: parsed when it is JSON, else the text itself (a line for the text formats). A
 * line of a Kubernetes node's CRI log file, shipped as it was read (`<time> stdout F <text>`), is the text after its
 * prefix, with that time when the record has none.
 */
function innerOfText(text: string): unknown {
  const cri = text.charCodeAt(0) <= 57 ? criLineText(text) : undefined;
  if (cri) return withTime(parseJsonContainer(cri.text) ?? cri.text, cri.ts);
  return parseJsonContainer(text) ?? text.replace(/\r?\n$/, '');
}

/**
 * Copies an envelope's (or a line prefix's) time into an inner object that has none: canonical records get `ts`,
 * other objects `timestamp`. Other values are returned unchanged.
 */
export function withTime(inner: unknown, envelopeTime: unknown): unknown {
  const time = timeValue(envelopeTime);
  if (!isObj(inner) || time === undefined) return inner;
  for (const k of TIME_KEYS) if (k in inner) return inner;
  // A logger's own time (python-json-logger's asctime, .NET's Timestamp, Serilog's @t, loguru's record.time) is the
  // line's: the envelope's is when the platform took it in.
  if (loggedTime(inner) !== undefined) return inner;
  return inner.v === 1 && typeof inner.kind === 'string' ? { ...inner, ts: time } : { ...inner, timestamp: time };
}

function cloudLogging(v: Obj): Unwrapped | undefined {
  if (isObj(v.jsonPayload)) return { value: withTime(v.jsonPayload, v.timestamp), via: 'cloud-logging jsonPayload' };
  if (typeof v.textPayload === 'string' && ('logName' in v || 'insertId' in v || 'resource' in v || 'severity' in v)) {
    return { value: withTime(innerOfText(v.textPayload), v.timestamp), via: 'cloud-logging textPayload' };
  }
  return undefined;
}

function datadogEvent(v: Obj): Unwrapped | undefined {
  const a = v.attributes;
  if (!isObj(a) || (v.type !== undefined && v.type !== 'log')) return undefined;
  if (isObj(a.attributes) && Object.keys(a.attributes).length > 0) {
    return { value: withTime(a.attributes, a.timestamp), via: 'datadog attributes.attributes' };
  }
  if (typeof a.message === 'string') return { value: withTime(innerOfText(a.message), a.timestamp), via: 'datadog attributes.message' };
  return undefined;
}

function elasticHit(v: Obj): Unwrapped | undefined {
  const src = v._source;
  if (!isObj(src)) return undefined;
  const time = src['@timestamp'];
  if (isObj(src.json)) return { value: withTime(src.json, time), via: 'elasticsearch _source.json' };
  if (typeof src.message === 'string') {
    const parsed = parseJsonContainer(src.message);
    if (parsed !== undefined) return { value: withTime(parsed, time), via: 'elasticsearch _source.message' };
    if (Object.keys(src).every((k) => ECS_KEYS.has(k))) return { value: src.message, via: 'elasticsearch _source.message' };
  }
  return { value: withTime(src, time), via: 'elasticsearch _source' };
}

function loki(v: Obj): Unwrapped | undefined {
  if (typeof v.line !== 'string') return undefined;
  for (const k of Object.keys(v)) if (k !== 'line' && k !== 'timestamp' && k !== 'labels') return undefined;
  return { value: withTime(innerOfText(v.line), v.timestamp), via: 'loki line' };
}

function page(items: unknown[], one: (item: Obj) => Unwrapped | undefined, via: string): Unwrapped {
  const values: unknown[] = [];
  const times: unknown[] = [];
  for (const item of items) {
    if (!isObj(item)) continue;
    const u = one(item);
    if (!u) continue;
    values.push(u.value);
    const src = isObj(item._source) ? item._source : undefined;
    const attrs = isObj(item.attributes) ? item.attributes : undefined;
    times.push(src?.['@timestamp'] ?? attrs?.timestamp ?? item.timestamp ?? item['@timestamp']);
  }
  return { value: values, via, many: true, times };
}

/**
 * The record inside a log-platform envelope, or undefined when `value` is not one (it is then detected as it is).
 * Google Cloud Logging (`jsonPayload`, or `textPayload` holding JSON or a text line), Datadog (`attributes.attributes`,
 * or `attributes.message`; API pages `{"data":[...]}`), Elasticsearch/OpenSearch (`_source`; search pages
 * `hits.hits[]`), Loki `logcli -o jsonl` (`line`). The envelope's time is kept when the inner record has none.
 */
export function unwrapEnvelope(value: Record<string, unknown>): Unwrapped | undefined {
  if ('jsonPayload' in value || 'textPayload' in value) {
    const u = cloudLogging(value);
    if (u) return u;
  }
  if ('_source' in value) return elasticHit(value);
  if (isObj(value.hits) && Array.isArray(value.hits.hits)) return page(value.hits.hits, elasticHit, 'elasticsearch hits.hits[]._source');
  if (Array.isArray(value.data) && value.data.length > 0 && value.data.every((d) => isObj(d) && isObj(d.attributes) && (d.type === undefined || d.type === 'log'))) {
    return page(value.data, datadogEvent, 'datadog data[].attributes');
  }
  if (isObj(value.attributes) && (value.type === 'log' || isObj(value.attributes.attributes) || typeof value.attributes.message === 'string') && !('kind' in value)) {
    const u = datadogEvent(value);
    if (u) return u;
  }
  if ('line' in value) return loki(value);
  return genericText(value);
}

/** A plain export's envelope: a text field, and only such fields as a log shipper adds around it. */
const GENERIC_TEXT_KEYS = ['message', 'msg', 'log', 'body'];
const GENERIC_EXTRA_KEYS = new Set(['timestamp', 'time', 'ts', '@timestamp', 'date', 'level', 'severity', 'labels', 'stream', 'host', 'hostname', 'source', 'service', 'logger', 'tags', 'container', 'pod', 'namespace',
  // What the Kubernetes shippers add around a container's line: Fluent Bit (kubernetes, _p for a CRI line's P/F, date),
  // Fluentd (docker, logtag), Vector's kubernetes_logs (file, source_type), and their flattened names.
  'kubernetes', 'docker', '_p', 'logtag', 'file', 'source_type', 'container_name', 'container_id', 'pod_name', 'namespace_name']);

/**
 * `{"timestamp": ..., "message": "<a whole JSON log line>"}`, as a jq reshape or a shipper writes each line (Fluent
 * Bit, Vector, a hand-made export): the line inside, parsed, when it is a JSON object that is not a bare JSON-RPC
 * message (an app's log that stringifies its messages into `message` is read by app-log with the line's fields).
 */
function genericText(v: Obj): Unwrapped | undefined {
  for (const k of GENERIC_TEXT_KEYS) {
    const text = v[k];
    if (typeof text !== 'string' || text.length < 2 || text.trimStart()[0] !== '{') continue;
    if (!Object.keys(v).every((key) => key === k || GENERIC_EXTRA_KEYS.has(key))) return undefined;
    const inner = parseJsonContainer(text);
    if (!isObj(inner) || 'jsonrpc' in inner) return undefined;
    return { value: withTime(inner, v.timestamp ?? v.time ?? v['@timestamp'] ?? v.ts ?? v.date), via: `a JSON line in its "${k}" field` };
  }
  return undefined;
}

/**
 * The value at a dotted path (`--unwrap a.b.c`; numeric segments index arrays). A string there that holds JSON is
 * parsed; another string is returned as a text line. Undefined when the path does not exist.
 */
export function unwrapPath(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const seg of path.split('.')) {
    if (seg === '') continue;
    if (Array.isArray(cur) && /^\d+$/.test(seg)) cur = cur[Number(seg)];
    else if (isObj(cur) && safeKey(seg) && Object.hasOwn(cur, seg)) cur = cur[seg];
    else return undefined;
  }
  return typeof cur === 'string' ? innerOfText(cur) : cur;
}

/** How deep into an unknown envelope a known record is looked for. */
const NESTED_DEPTH = 2;

/**
 * A record of a known format inside an envelope no reader knows (`{"meta":...,"payload":{"rec":{<canonical>}}}`):
 * the one object, at most two fields down, that `isRecord` accepts, and its path (what `--unwrap` would name).
 * Undefined when there is none, or more than one at the shallowest depth (no guess between them).
 */
export function nestedRecord(v: Obj, isRecord: (o: Obj) => boolean): { value: Obj; path: string } | undefined {
  let level: Array<[Obj, string]> = [[v, '']];
  for (let depth = 1; depth <= NESTED_DEPTH; depth++) {
    const found: Array<[Obj, string]> = [];
    const next: Array<[Obj, string]> = [];
    for (const [o, path] of level) {
      for (const k of Object.keys(o)) {
        const c = o[k];
        if (!isObj(c)) continue;
        const at = path ? `${path}.${k}` : k;
        if (isRecord(c)) found.push([c, at]);
        else next.push([c, at]);
      }
    }
    if (found.length === 1) return { value: found[0]![0], path: found[0]![1] };
    if (found.length > 1) return undefined;
    level = next;
  }
  return undefined;
}
