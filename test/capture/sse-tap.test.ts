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

  it('counts the comment lines it skips (a keep-alive split across chunks counts once); data that starts with a colon is no comment', () => {
    const tap = new SseTap();
    expect(tap.comments).toBe(0);
    tap.push(': keep');
    tap.push('alive\n\ndata: :not a comment\n\n:\n');
    expect(tap.comments).toBe(2);
  });

  it('reports an unterminated last event as incomplete instead of inventing it', () => {
    const tap = new SseTap();
    tap.push('data: {"jsonrpc":"2.0","id":1,"res');
    expect(tap.finish()).toEqual({ events: [], incomplete: true });
    const clean = new SseTap();
    clean.push('data: x\n\n');
    expect(clean.finish()).toStrictEqual({ events: [], incomplete: false, nonSseText: undefined });
  });

  it('hands over the text that is no SSE field, which no event shows (an nginx page written after the 200 head)', () => {
    const tap = new SseTap();
    expect(tap.push('<html><head><title>502 Bad Gateway</title></head>\n<body>nginx</body></html>\n')).toEqual([]);
    expect(tap.finish()).toStrictEqual({ events: [], incomplete: false, nonSseText: '<html><head><title>502 Bad Gateway</title></head>\n<body>nginx</body></html>' });
  });
});

describe('SseTap on long lines and cut streams', () => {
  it('keeps a data line of several MB whole when it arrives in many small chunks', () => {
    const data = `{"jsonrpc":"2.0","id":3,"result":{"text":"${'y'.repeat(2 << 20)}"}}`;
    const body = `id: 9\ndata: ${data}\n\n`;
    const tap = new SseTap();
    const events = [];
    for (let i = 0; i < body.length; i += 16_384) events.push(...tap.push(body.slice(i, i + 16_384)));
    expect(events).toHaveLength(1);
    expect(events[0]!.id).toBe('9');
    expect(events[0]!.data === data).toBe(true);
    expect(tap.finish()).toEqual({ events: [], incomplete: false });
  });

  it('returns the event a lone CR ends at once, and does not take the LF of a CRLF split after it as a second line end', () => {
    const tap = new SseTap();
    expect(tap.push('data: a\r\r')).toEqual([{ data: 'a' }]);
    expect(tap.push('\ndata: b\n\n')).toEqual([{ data: 'b' }]);
  });

  it('does not call a stream cut inside a comment or an unknown field an unterminated event', () => {
    for (const tail of [': keep-al', 'x-custom: 1']) {
      const tap = new SseTap();
      tap.push(`data: done\n\n${tail}`);
      // an unknown field is no SSE field a client acts on: its text is handed over like a page's
      expect(tap.finish()).toStrictEqual({ events: [], incomplete: false, nonSseText: tail.startsWith(':') ? undefined : tail });
    }
    const cut = new SseTap();
    cut.push('data: done\n\nid: 4\n');
    expect(cut.finish()).toEqual({ events: [], incomplete: true });
  });
});
