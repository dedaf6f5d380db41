// Unit tests for the incremental SSE parser used by the recorders.
import { describe, expect, it } from 'vitest';
import { SseTap } from '../../src/capture/sse-tap.js';

describe('SseTap', () => {
  it('returns events as soon as their blank line arrives, across arbitrary chunk boundaries', () => {
    const tap = new SseTap();
    expect(tap.push('id: 1\nda')).toEqual([]);
    expect(tap.push('ta: {"a":1}\n')).toEqual([]);
    expect(tap.push('\nevent: message\ndata: x\n\n')).toEqual([
      { id: '1', data: '{"a":1}' },
      { event: 'message', data: 'x' },
    ]);
  });

  it('handles a CRLF split between two chunks as one line end', () => {
    const tap = new SseTap();
    expect(tap.push('data: a\r')).toEqual([]);
    expect(tap.push('\n\r\n')).toEqual([{ data: 'a' }]);
  });

  it('keeps priming events that carry only an id, joins multi-line data, ignores comments', () => {
    const tap = new SseTap();
    expect(tap.push(': keep-alive\n\nid: 42\ndata:\n\ndata: one\ndata:two\nretry: 500\n\n')).toEqual([
      { id: '42', data: '' },
      { data: 'one\ntwo', retry: 500 },
    ]);
  });

  it('reports an unterminated last event as incomplete instead of inventing it', () => {
    const tap = new SseTap();
    tap.push('data: {"jsonrpc":"2.0","id":1,"res');
    expect(tap.finish()).toEqual({ events: [], incomplete: true });
    const clean = new SseTap();
    clean.push('data: x\n\n');
    expect(clean.finish()).toEqual({ events: [], incomplete: false });
  });
});
