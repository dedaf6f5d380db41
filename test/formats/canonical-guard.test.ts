// The canonical adapter's cheap guard skips zod for records it accepts: it must never accept a record zod rejects.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { quickValid, canonicalFormat } from '../../src/formats/canonical.js';
import { CanonicalRecordSchema } from '../../src/schema/record.js';

/** A field's value: usually a well-typed one, sometimes a value of the wrong type. */
const maybe = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 6, arbitrary: good }, { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.integer(), fc.string(), fc.boolean(), fc.constant([]), fc.constant({})) });
const optional = <T>(a: fc.Arbitrary<T>) => fc.option(maybe(a), { nil: undefined, freq: 2 });
const headers = fc.dictionary(fc.constantFrom('content-type', 'mcp-session-id', 'retry-after', 'x-other'), maybe(fc.string()), { maxKeys: 3 });
const sseEvent = fc.record(
  { ts: optional(fc.string()), id: optional(fc.string()), event: optional(fc.constantFrom('message', 'ping')), data: maybe(fc.string()), retry: optional(fc.integer({ min: 0 })) },
  { requiredKeys: [] },
);
const note = fc.record({ retryOrigin: optional(fc.constantFrom('none', 'sdk', 'app', 'user', 'gateway', 'unknown', 'robot')), attempt: optional(fc.integer({ min: -1, max: 5 })), call: optional(fc.string()) }, { requiredKeys: [] });

const record = fc.record(
  {
    v: fc.constant(1),
    kind: fc.constantFrom('exchange', 'request', 'response', 'event', 'end', 'message'),
    ts: optional(fc.oneof(fc.string(), fc.integer())),
    side: optional(fc.constantFrom('client', 'server', 'gateway', 'proxy')),
    session: optional(fc.oneof(fc.string(), fc.constant(null))),
    conn: optional(fc.string()),
    client: optional(fc.string()),
    xid: optional(fc.string()),
    method: optional(fc.constantFrom('POST', 'GET')),
    url: optional(fc.string()),
    status: optional(fc.oneof(fc.constantFrom(200, 202, 404, 503), fc.constant(null), fc.double())),
    requestHeaders: optional(headers),
    responseHeaders: optional(headers),
    send: optional(fc.constant({ jsonrpc: '2.0', id: 1, method: 'tools/call' })),
    sendText: optional(fc.string()),
    recv: optional(fc.constant({ jsonrpc: '2.0', id: 1, result: {} })),
    recvText: optional(fc.string()),
    events: optional(fc.array(maybe(sseEvent), { maxLength: 3 })),
    end: optional(fc.constantFrom('complete', 'aborted', 'timeout', 'error', 'closed')),
    error: optional(fc.string()),
    durationMs: optional(fc.double({ noNaN: true })),
    endUnknown: optional(fc.boolean()),
    note: optional(note),
    data: optional(fc.string()),
    id: optional(fc.string()),
    event: optional(fc.string()),
    retry: optional(fc.integer()),
    direction: optional(fc.constantFrom('c2s', 's2c', 'up')),
    message: optional(fc.constant({ jsonrpc: '2.0', id: 1, method: 'ping' })),
  },
  { requiredKeys: ['v', 'kind'] },
);

describe('the canonical guard', () => {
  it('accepts only records that zod accepts too', () => {
    let accepted = 0;
    fc.assert(
      fc.property(record, (r) => {
        const value = JSON.parse(JSON.stringify(r)) as Record<string, unknown>; // as it comes out of JSON.parse
        if (!quickValid(value)) return;
        accepted++;
        const parsed = CanonicalRecordSchema.safeParse(value);
        expect(parsed.success, JSON.stringify(value)).toBe(true);
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(100); // the property was exercised, not vacuously true
  });

  it('covers a whole exchange whose body was kept as SSE events, as the bench and capture logs write it', () => {
    const line = {
      v: 1, ts: '2026-03-01T08:00:00.908Z', side: 'client', client: 'cursor-12@3.1.0', kind: 'exchange', method: 'POST',
      url: 'https://mcp.example.com/mcp', requestHeaders: { 'content-type': 'application/json' },
      send: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search', arguments: { q: 'x' } } }, status: 200,
      responseHeaders: { 'content-type': 'text/event-stream' },
      events: [{ ts: '2026-03-01T08:00:00.916Z', event: 'message', id: '1', data: '{"jsonrpc":"2.0","id":3,"result":{"content":[]}}' }],
      end: 'complete', durationMs: 8,
    };
    expect(quickValid(line)).toBe(true);
    expect(canonicalFormat.toRecords(line, { file: 'x', line: 1 })).toEqual([line]);
    // One event with a data field of the wrong type sends the record to zod, which names the field.
    const bad = { ...line, events: [{ data: 42 }] };
    expect(quickValid(bad)).toBe(false);
  });
});
