// Unit tests for src/formats/unwrap.ts: log-platform envelopes and --unwrap paths give back the record inside.
import { describe, expect, it } from 'vitest';
import { detectJsonFormat, detectTextFormat } from '../../src/formats/index.js';
import { unwrapEnvelope, unwrapPath } from '../../src/formats/unwrap.js';
import { sampleJson } from './helpers.js';

const rpc = { jsonrpc: '2.0', id: 7, result: { content: [], isError: true } };
const canonical = { v: 1, kind: 'message', direction: 's2c', message: rpc };

describe('unwrapEnvelope: Google Cloud Logging', () => {
  it('takes jsonPayload and gives a canonical record the entry timestamp when it has none', () => {
    const u = unwrapEnvelope({ insertId: 'a1', jsonPayload: canonical, timestamp: '2026-03-01T10:00:00.120Z', severity: 'INFO', logName: 'projects/p/logs/stdout' });
    expect(u).toEqual({ value: { ...canonical, ts: '2026-03-01T10:00:00.120Z' }, via: 'cloud-logging jsonPayload' });
    expect(detectJsonFormat(u!.value as Record<string, unknown>)?.name).toBe('canonical');
  });

  it('keeps the inner time when the record has its own', () => {
    const u = unwrapEnvelope({ jsonPayload: { ...canonical, ts: '2026-03-01T09:59:59Z' }, timestamp: '2026-03-01T10:00:00Z', logName: 'x' });
    expect((u!.value as { ts: string }).ts).toBe('2026-03-01T09:59:59Z');
  });

  it('parses a textPayload holding JSON (a JSON-RPC error) and returns other text as a line', () => {
    const err = { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Invalid params' } };
    const u = unwrapEnvelope({ textPayload: JSON.stringify(err), timestamp: '2026-03-01T10:00:00Z', logName: 'x' });
    expect(u!.value).toEqual({ ...err, timestamp: '2026-03-01T10:00:00Z' });
    const t = unwrapEnvelope({ textPayload: 'Listening on port 8080\n', logName: 'x' });
    expect(t!.value).toBe('Listening on port 8080');
  });
});

describe('unwrapEnvelope: Datadog', () => {
  it('takes attributes.attributes of one event', () => {
    const u = unwrapEnvelope({ id: 'AQ', type: 'log', attributes: { timestamp: '2026-03-01T10:00:00Z', service: 'notes', message: 'x', attributes: { direction: 's2c', message: rpc } } });
    expect(u).toMatchObject({ via: 'datadog attributes.attributes', value: { direction: 's2c', message: rpc, timestamp: '2026-03-01T10:00:00Z' } });
  });

  it('falls back to attributes.message holding JSON', () => {
    const u = unwrapEnvelope({ type: 'log', attributes: { timestamp: 1, message: JSON.stringify(canonical), attributes: {} } });
    expect(u).toMatchObject({ via: 'datadog attributes.message', value: { ...canonical, ts: 1 } });
  });

  it('splits an API page {"data":[...]} into its events', () => {
    const [page] = sampleJson('datadog-logs-page.json');
    const u = unwrapEnvelope(page!);
    expect(u?.many).toBe(true);
    const values = u!.value as Record<string, unknown>[];
    expect(values).toHaveLength(8);
    expect(values.every((v) => detectJsonFormat(v)?.name === 'jsonrpc')).toBe(true);
  });
});

describe('unwrapEnvelope: Elasticsearch / OpenSearch', () => {
  it('takes _source (keys under root), _source.json, or JSON in _source.message', () => {
    expect(unwrapEnvelope({ _index: 'i', _id: '1', _source: { ...canonical, '@timestamp': '2026-03-01T10:00:00Z' } })!.value).toMatchObject({ kind: 'message' });
    expect(unwrapEnvelope({ _source: { '@timestamp': 'T', json: canonical } })!.value).toEqual({ ...canonical, ts: 'T' });
    expect(unwrapEnvelope({ _source: { '@timestamp': 'T', message: JSON.stringify(rpc), host: { name: 'h' } } })!.value).toEqual({ ...rpc, timestamp: 'T' });
  });

  it('returns a raw text line shipped by Filebeat for the text formats', () => {
    const line = '2026-02-03T09:15:02.118Z [notes] [info] Message from client: {"jsonrpc":"2.0","id":1,"method":"ping"} { metadata: undefined }';
    const u = unwrapEnvelope({ _source: { '@timestamp': 'T', message: line, log: { offset: 1 }, agent: { type: 'filebeat' } } });
    expect(u!.value).toBe(line);
    expect(detectTextFormat(u!.value as string)?.name).toBe('claude-desktop');
  });

  it('splits a search page hits.hits[] into the records inside', () => {
    const [page] = sampleJson('elasticsearch-hits.json');
    const u = unwrapEnvelope(page!);
    expect(u?.many).toBe(true);
    expect((u!.value as Record<string, unknown>[]).every((v) => detectJsonFormat(v)?.name === 'mcpsnoop')).toBe(true);
  });
});

describe('unwrapEnvelope: Loki logcli -o jsonl', () => {
  it('parses a JSON line and returns a text line as text', () => {
    expect(unwrapEnvelope({ labels: { job: 'mcp' }, line: JSON.stringify(rpc), timestamp: '2026-03-01T10:00:00+00:00' })!.value).toEqual({ ...rpc, timestamp: '2026-03-01T10:00:00+00:00' });
    const [first] = sampleJson('loki-claude-desktop.jsonl');
    expect(typeof unwrapEnvelope(first!)!.value).toBe('string');
  });

  it('does not take an object with other keys for a Loki line', () => {
    expect(unwrapEnvelope({ line: 'x', level: 'info' })).toBeUndefined();
  });
});

describe('unwrapEnvelope: not an envelope', () => {
  it.each([
    ['a canonical record', canonical],
    ['a JSON-RPC message', rpc],
    ['a HAR entry', { startedDateTime: 'T', request: { method: 'POST', headers: [] }, response: { status: 200 } }],
    ['an OTLP line', { resourceSpans: [] }],
    ['a Kong log', { request: {}, response: {}, ai: { mcp: { rpc: [] } } }],
  ])('%s', (_name, v) => {
    expect(unwrapEnvelope(v as Record<string, unknown>)).toBeUndefined();
  });
});

describe('unwrapPath (--unwrap a.b.c)', () => {
  const v = { event: { payload: { body: JSON.stringify(rpc) }, list: [{ x: canonical }] }, text: 'plain line' };
  it('follows dots and array indexes, parses JSON strings', () => {
    expect(unwrapPath(v, 'event.payload.body')).toEqual(rpc);
    expect(unwrapPath(v, 'event.list.0.x')).toEqual(canonical);
    expect(unwrapPath(v, 'text')).toBe('plain line');
  });
  it('is undefined for a missing path and never walks the prototype', () => {
    expect(unwrapPath(v, 'event.nope')).toBeUndefined();
    expect(unwrapPath(v, '__proto__.polluted')).toBeUndefined();
    expect(unwrapPath(v, 'event.list.7')).toBeUndefined();
  });
});
