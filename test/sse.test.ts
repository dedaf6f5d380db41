// The SSE parser against the WHATWG rules: multi-line data, id, event, retry, comments, CRLF, a cut last event, chunking.
import { describe, expect, it } from 'vitest';
import { SseParser, forEachSseEvent, isMessageEvent, type ParsedSseEvent } from '../src/sse.js';

const all = (text: string) => {
  const events: ParsedSseEvent[] = [];
  forEachSseEvent(text, (ev) => events.push(ev));
  return events;
};

describe('SSE parser', () => {
  it('joins multi-line data with newlines and reads id, event and retry', () => {
    expect(all('id: 7\nevent: message\nretry: 1500\ndata: {"a":\ndata: 1}\n\n')).toEqual([{ id: '7', event: 'message', retry: 1500, data: '{"a":\n1}', hasData: true }]);
  });
  it('drops one byte order mark at the very start of the stream, not one later (WHATWG SSE)', () => {
    const p = new SseParser();
    const out = [...p.push('\uFEFFevent: message\ndata: {"a":1}\n\n'), ...p.push('\uFEFFevent: x\ndata: 2\n\n')];
    expect(out.map((e) => [e.event, e.data])).toEqual([['message', '{"a":1}'], [undefined, '2']]);
    // split so that the mark is the whole first push
    const q = new SseParser();
    expect([...q.push('\uFEFF'), ...q.push('event: message\ndata: 3\n\n')].map((e) => e.event)).toEqual(['message']);
  });

  it('ignores comments (keep-alives) and counts them', () => {
    const p = new SseParser();
    const ev = [...p.push(': keepalive\n\n:another\ndata: x\n\n'), ...p.end()];
    expect(ev).toEqual([{ data: 'x', hasData: true }]);
    expect(p.comments).toBe(2);
  });
  it('accepts CRLF and lone CR line ends', () => {
    expect(all('data: a\r\n\r\ndata: b\r\rdata: c\n\n').map((e) => e.data)).toEqual(['a', 'b', 'c']);
  });
  it('a priming event has an id and empty data and is not a message', () => {
    const [e] = all('id: evt-1\ndata:\n\n');
    expect(e).toMatchObject({ id: 'evt-1', data: '', hasData: true });
    expect(isMessageEvent(e!)).toBe(false);
  });
  it('strips exactly one space after the colon; a field without colon has an empty value', () => {
    expect(all('data:  two spaces\ndata\n\n')[0]!.data).toBe(' two spaces\n');
  });
  it('marks an event cut before its blank line (a client does not dispatch it)', () => {
    expect(all('data: {"done":true}\n\ndata: {"cut":')).toEqual([{ data: '{"done":true}', hasData: true }, { data: '{"cut":', hasData: true, truncated: true }]);
  });
  it('ignores ids containing NUL and non-numeric retry values', () => {
    expect(all('id: a\u0000b\nretry: 5s\ndata: x\n\n')).toEqual([{ data: 'x', hasData: true }]);
  });
  it('gives the same events whatever the chunking, including CR LF split across chunks', () => {
    const text = 'event: message\r\ndata: {"jsonrpc":"2.0"}\r\n\r\nid: 2\r\ndata: y\r\n\r\n';
    for (let cut = 1; cut < text.length; cut++) {
      const p = new SseParser();
      const events = [...p.push(text.slice(0, cut)), ...p.push(text.slice(cut)), ...p.end()];
      expect(events).toEqual(all(text));
    }
  });
  it('only message events (or untyped ones) carry JSON-RPC', () => {
    expect(isMessageEvent({ data: '{}', hasData: true, event: 'endpoint' })).toBe(false);
    expect(isMessageEvent({ data: '{}', hasData: true })).toBe(true);
  });
});

describe('forEachSseEvent on bodies over 64 KiB', () => {
  it('gives the same events as one whole push, wherever a CRLF or an event falls on a 64 KiB boundary', () => {
    for (let pad = 0; pad < 6; pad++) {
      const head = `: ${'k'.repeat(65_530 + pad)}\r\n`; // puts the next CR/LF pairs around offset 65,536
      const events = Array.from({ length: 3000 }, (_, i) => `id: ${i}\r\ndata: {"n":${i}}\r\ndata: more\r\n\r\n`).join('');
      const body = `${head}${events}data: cut`;
      const whole = new SseParser();
      const expected = whole.push(body);
      whole.end(expected);
      expect(all(body)).toEqual(expected);
      expect(expected).toHaveLength(3001);
      expect(expected[3000]).toMatchObject({ data: 'cut', truncated: true });
      expect(expected[7]).toEqual({ id: '7', data: '{"n":7}\nmore', hasData: true });
    }
  });
});

describe('a data line longer than the pieces it arrives in', () => {
  it('comes back whole, with the line ends that follow it, whatever the piece size', () => {
    const line = `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"${'x'.repeat(3 << 20)}"}]}}`;
    for (const [piece, end] of [[1000, '\n'], [4096, '\r\n'], [65_536, '\r'], [777_777, '\n']] as const) {
      const body = `id: 1${end}data: ${line}${end}${end}data: after${end}${end}`;
      const p = new SseParser();
      const events: ParsedSseEvent[] = [];
      for (let i = 0; i < body.length; i += piece) p.push(body.slice(i, i + piece), events);
      p.end(events);
      expect(events).toHaveLength(2);
      expect(events[0]!.id).toBe('1');
      expect(events[0]!.data.length).toBe(line.length);
      expect(events[0]!.data === line).toBe(true);
      expect(events[1]).toEqual({ data: 'after', hasData: true });
    }
  });

  it('keeps the start of the text that is no SSE field (an error page written into the stream), and nothing for a clean stream', () => {
    const page = '<html><head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center></body></html>\r\n';
    const events: ParsedSseEvent[] = [];
    expect(forEachSseEvent(`id: 1\ndata:\n\n${page}`, (ev) => events.push(ev)).foreign).toBe('<html><head><title>502 Bad Gateway</title></head>\n<body><center><h1>502 Bad Gateway</h1></center></body></html>');
    expect(events).toEqual([{ id: '1', data: '', hasData: true }]);
    expect(forEachSseEvent(': keepalive\nevent: message\ndata: {}\nretry: 10\n\n', () => undefined)).toEqual({ foreign: undefined, comments: 1 });
    // bounded: a long page keeps its first 4 KiB
    const p = new SseParser();
    for (let i = 0; i < 1000; i++) p.push(`<p>line ${i} of an error page</p>\n`);
    expect(p.foreign!.length).toBe(4096);
    expect(p.foreign!.startsWith('<p>line 0 of')).toBe(true);
  });

  it('is kept across pushes when the stream is cut inside it', () => {
    const p = new SseParser();
    const events = [...p.push('data: {"a":'), ...p.push('1'), ...p.push('2}'), ...p.end()];
    expect(events).toEqual([{ data: '{"a":12}', hasData: true, truncated: true }]);
  });
});
