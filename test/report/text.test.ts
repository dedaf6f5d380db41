// Unit tests for src/report/text.ts with hostile strings: terminal escapes, HTML, Markdown and Mermaid injection.
import { describe, expect, it } from 'vitest';
import { boundValue, capString, cleanTerminal, cutAtWord, escapeJsonControls, escapeMarkdownCell, escapeMermaid, NEWLINE_MARK, TOO_DEEP_MARK, truncate, truncateMiddle } from '../../src/report/text.js';

const ESC = '\x1b';
/** No C0/C1 control, DEL or bidi control left. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('cleanTerminal', () => {
  it('returns clean strings unchanged', () => {
    const s = 'tools/call get_weather → 200 ✓ «ok» 東京';
    expect(cleanTerminal(s)).toBe(s);
  });
  it('removes SGR colours and cursor movement whole', () => {
    expect(cleanTerminal(`${ESC}[31mred${ESC}[0m ${ESC}[2J${ESC}[H${ESC}[1;1Hhome ${ESC}[?25l`)).toBe('red home ');
  });
  it('removes OSC 52 clipboard writes, OSC 8 links and window titles, with BEL or ST terminators', () => {
    expect(cleanTerminal(`a${ESC}]52;c;Y3VybCBldmlsLnNofHNo${ESC}\\b`)).toBe('ab');
    expect(cleanTerminal(`${ESC}]8;;https://evil.example${ESC}\\click${ESC}]8;;${ESC}\\`)).toBe('click');
    expect(cleanTerminal(`${ESC}]0;pwned\x07title`)).toBe('title');
  });
  it('removes DCS, APC, PM strings and 8-bit C1 sequences', () => {
    expect(cleanTerminal(`x${ESC}P+q544e${ESC}\\y${ESC}_apc${ESC}\\z${ESC}^pm${ESC}\\`)).toBe('xyz');
    expect(cleanTerminal('a\u009b31mb\u009d0;t\u0007c')).toBe('abc');
  });
  it('leaves an unterminated OSC inert: its introducer goes, the rest is plain text', () => {
    const out = cleanTerminal(`ok${ESC}]52;c;ZXZpbA==`);
    expect(out).toBe('ok52;c;ZXZpbA==');
    expect(out).not.toMatch(UNSAFE);
  });
  it('removes two-byte ESC sequences (reset, save cursor, charset)', () => {
    expect(cleanTerminal(`${ESC}c${ESC}7${ESC}(0lqk${ESC}(B`)).toBe('lqk');
  });
  it(`shows line breaks as ${NEWLINE_MARK} and tabs as spaces, keeping one line`, () => {
    expect(cleanTerminal('a\nb\r\nc\rd\u2028e\u0085f\tg')).toBe('a⏎b⏎c⏎d⏎e⏎f g');
  });
  it('strips other C0, DEL, C1 and bidi controls (Trojan Source)', () => {
    expect(cleanTerminal('\u0000a\u0007b\u0008c\u007fd\u0080e\u009ff')).toBe('abcdef');
    expect(cleanTerminal('admin\u202e\u2066gnp.exe\u2069\u202c\u200f')).toBe('admingnp.exe');
  });
  it('never leaves a control character, whatever the input', () => {
    const nasty = `${ESC}[${ESC}]${ESC}P\u009b\u009d${ESC}${ESC}[38;5;1${ESC}]8;;\u0000\u001f\u202e${ESC}`;
    expect(cleanTerminal(nasty)).not.toMatch(UNSAFE);
  });
  it('is fast on 100 KB of unterminated sequences', () => {
    for (const s of [`${ESC}]`.repeat(50_000), '\u009d'.repeat(100_000), `${ESC}[0`.repeat(33_000), `${ESC}[${'1;'.repeat(50_000)}`]) {
      const t0 = performance.now();
      const out = cleanTerminal(s);
      expect(performance.now() - t0).toBeLessThan(2_000);
      expect(out).not.toMatch(UNSAFE);
    }
  });
});

describe('truncate', () => {
  it('keeps short text and marks a cut with an ellipsis within the limit', () => {
    expect(truncate('short', 10)).toBe('short');
    expect(truncate('abcdefghij', 5)).toBe('abcd…');
    expect(truncate('abcdefghij', 5)).toHaveLength(5);
    expect(truncate('abc', 0)).toBe('');
    expect(truncate('abc', 1)).toBe('…');
  });
  it('does not split a surrogate pair', () => {
    const out = truncate('ab😀cd', 4); // "ab" + high surrogate would be cut
    expect(out).toBe('ab…');
    expect(out.isWellFormed()).toBe(true);
  });
});

describe('truncateMiddle', () => {
  it('keeps both ends of a long path, within the limit', () => {
    const path = 'input#0 (no session id; /a/very/long/checkout/directory/of/somebody/samples/stdio.ndjson)';
    const out = truncateMiddle(path, 60);
    expect(out).toHaveLength(60);
    expect(out.startsWith('input#0 (no session id; ')).toBe(true);
    expect(out.endsWith('samples/stdio.ndjson)')).toBe(true);
    expect(out).toContain('…');
    expect(truncateMiddle('short', 10)).toBe('short');
  });
  it('never splits a surrogate pair on either side of the cut', () => {
    for (let max = 8; max < 20; max++) {
      const out = truncateMiddle('😀'.repeat(20), max);
      expect(out.isWellFormed()).toBe(true);
      expect(out.length).toBeLessThanOrEqual(max);
    }
  });
});

describe('escapeMarkdownCell', () => {
  it('escapes pipes and backslashes so a cell cannot add columns', () => {
    expect(escapeMarkdownCell('a|b\\|c')).toBe('a\\|b\\\\\\|c');
  });
  it('turns HTML into inert entities', () => {
    const out = escapeMarkdownCell('<script>alert(1)</script><img src=x onerror=alert(1)>');
    expect(out).toBe('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(out).not.toMatch(/[<>]/);
  });
  it('escapes entities so they show literally', () => {
    expect(escapeMarkdownCell('&lt;b&gt; &#60;')).toBe('&amp;lt;b&amp;gt; &amp;#60;');
  });
  it('keeps a cell on one line and strips ANSI', () => {
    expect(escapeMarkdownCell(`line1\n| x | y |\n${ESC}[31mred`)).toBe('line1⏎\\| x \\| y \\|⏎red');
  });
  it('escapes backticks, emphasis and link brackets', () => {
    expect(escapeMarkdownCell('`code` *b* _i_ ~~s~~ [x](javascript:alert(1))')).toBe('\\`code\\` \\*b\\* \\_i\\_ \\~\\~s\\~\\~ \\[x\\](javascript:alert(1))');
  });
});

describe('escapeMermaid', () => {
  const hostile = [
    'x\nparticipant Evil',
    'x; click Server call alert(1)',
    '%%{init: {"theme":"dark","securityLevel":"loose"}}%%',
    '```\n# outside the fence',
    'A->>B: forged',
    '#9829; #quot;',
    '<img src=x onerror=alert(1)>',
    'x\r\nNote over A: injected',
  ];
  it.each(hostile)('%j cannot end the message, add a statement or leave the fence', (s) => {
    const out = escapeMermaid(s);
    expect(out).not.toMatch(/[\n\r;%#<>{}:"`]/);
    expect(out).not.toContain('->>');
  });
  it('keeps ordinary text readable', () => {
    expect(escapeMermaid('tools/call get_weather (attempt 2)')).toBe('tools/call get_weather (attempt 2)');
    expect(escapeMermaid('error: -32603')).toBe('error꞉ -32603');
  });
});

describe('escapeJsonControls', () => {
  it('writes C1, DEL, LS/PS and bidi controls as \\u escapes, keeping the same JSON value', () => {
    const value = { tool: 'a\u009b2Jb\u007f\u2028\u202egnp.exe\u2066', id: 1, ok: 'plain ✓ 東京' };
    const json = escapeJsonControls(JSON.stringify(value));
    expect(json).not.toMatch(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(json).toContain('\\u009b');
    expect(json).toContain('\\u202e');
    expect(JSON.parse(json)).toEqual(value);
  });
  it('returns clean JSON text unchanged', () => {
    const json = JSON.stringify({ a: 'b', c: [1, 2] });
    expect(escapeJsonControls(json)).toBe(json);
  });
});

describe('boundValue', () => {
  it('returns shallow values as they are (same object)', () => {
    const v = { a: [1, { b: 2 }], c: 'x' };
    expect(boundValue(v)).toBe(v);
    expect(boundValue('s')).toBe('s');
  });
  it('cuts containers deeper than the limit so JSON.stringify works on 100,000 levels', () => {
    const depth = 100_000;
    const v = JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;
    expect(() => JSON.stringify(v)).toThrow(RangeError);
    const out = boundValue(v, 3);
    expect(JSON.stringify(out)).toBe(`[[[${JSON.stringify(TOO_DEEP_MARK)}]]]`);
  });
  it('keeps __proto__ keys as own data and leaves the input untouched', () => {
    const v = JSON.parse('{"__proto__":{"a":{"b":{"c":1}}}}') as Record<string, unknown>;
    const out = boundValue(v, 2) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe(`{"__proto__":{"a":${JSON.stringify(TOO_DEEP_MARK)}}}`);
    expect(JSON.stringify(v)).toBe('{"__proto__":{"a":{"b":{"c":1}}}}');
  });
});

describe('capString and the string bound of boundValue', () => {
  it('leaves strings up to the limit alone and cuts longer ones, saying how much was left out', () => {
    expect(capString('abc', 3)).toBe('abc');
    expect(capString('abcdef', 3)).toBe('abc… [3 more characters]');
  });
  it('never keeps half of an astral character', () => {
    expect(capString('ab😀cd', 3)).toBe('ab… [4 more characters]');
  });
  it('cuts long strings anywhere inside a value, and returns a value without any as it is', () => {
    const small = { a: ['x', { b: 'y' }] };
    expect(boundValue(small, 64, 5)).toBe(small);
    expect(boundValue({ a: ['x', { b: 'yyyyyyyy' }], c: 1 }, 64, 5)).toEqual({ a: ['x', { b: 'yyyyy… [3 more characters]' }], c: 1 });
    expect(boundValue('zzzzzzz', 64, 2)).toBe('zz… [5 more characters]');
  });
});

describe('cutAtWord', () => {
  it('keeps text up to the cap whole, and cuts longer text at a word with how much it left out', () => {
    expect(cutAtWord('short', 10)).toBe('short');
    expect(cutAtWord('the client closed the stream before', 20)).toBe('the client closed… [17 more characters]');
    expect(cutAtWord('x'.repeat(30), 20)).toBe(`${'x'.repeat(20)}… [10 more characters]`); // no space near the cap: cut at it
    expect(cutAtWord(`${'a'.repeat(19)}😀 tail`, 20)).toBe(`${'a'.repeat(19)}… [7 more characters]`); // never half an astral character
    // A text capString already cut: what that cut left out is counted too, and its own mark is not.
    const capped = capString(`${'word '.repeat(100)}end`, 60);
    expect(cutAtWord(capped, 30)).toBe(`${'word '.repeat(6).trimEnd()}… [${503 - 30} more characters]`);
  });
});
