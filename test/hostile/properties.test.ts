// Property-based tests (fast-check) over the reader, the SSE parser and format detection: arbitrary input never
// throws, never hangs, and every line ends up as records or as a counted diagnostic.
import { isUtf8 } from 'node:buffer';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readLineBatches, type Line } from '../../src/read/lines.js';
import { SseParser, forEachSseEvent, type ParsedSseEvent } from '../../src/sse.js';
import { JSON_FORMATS, TEXT_FORMATS } from '../../src/formats/index.js';
import { CanonicalRecordSchema } from '../../src/schema/record.js';
import { redactText, redactValue, secretMarker } from '../../src/redact.js';
import { cleanTerminal, escapeMarkdownCell, escapeMermaid } from '../../src/report/text.js';

/** Fixed seed by default so a failure reproduces; FC_SEED=random explores. */
const seed = process.env.FC_SEED === 'random' ? Date.now() : Number(process.env.FC_SEED ?? 20261202);
const runs = (n: number) => ({ numRuns: n, seed });

// ---------------------------------------------------------------- line reader

/** Bytes rich in what matters to the reader: LF, CR, BOM bytes, invalid UTF-8 lead and continuation bytes. */
const readerBytes = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
      { weight: 2, arbitrary: fc.constant(0x0a) },
      { weight: 1, arbitrary: fc.constant(0x0d) },
      { weight: 1, arbitrary: fc.constantFrom(0xef, 0xbb, 0xbf, 0x80, 0xc3, 0xa9, 0xff, 0xf0, 0x9f, 0x00, 0x20) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
    ),
    { maxLength: 200 },
  )
  .chain((body) => fc.constantFrom(body, [0xef, 0xbb, 0xbf, ...body]))
  .map((a) => Buffer.from(a));

/** Cut a buffer at arbitrary points (including empty chunks). */
function chunked(buf: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (buf.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(buf.subarray(prev, p));
    prev = p;
  }
  out.push(buf.subarray(prev));
  return out;
}

async function* asAsync(chunks: Buffer[]): AsyncGenerator<Buffer> {
  for (const c of chunks) yield c;
}

async function readAll(chunks: Buffer[], maxLineBytes: number): Promise<Line[]> {
  const out: Line[] = [];
  for await (const batch of readLineBatches(asAsync(chunks), { maxLineBytes })) {
    expect(batch.length).toBeGreaterThan(0);
    out.push(...batch);
  }
  return out;
}

/**
 * The reference: split the whole buffer on LF; a final empty piece is not a line; one CR before LF is dropped;
 * a BOM opens line 1 only; a line whose content (without CR) is longer than the limit is reported with its byte
 * count (CR included, LF not) and no text; a last line ended by the end of the buffer (no LF) is marked unterminated.
 */
function referenceLines(buf: Buffer, max: number): Line[] {
  const pieces: Buffer[] = [];
  let start = 0;
  for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, start)) {
    pieces.push(buf.subarray(start, i));
    start = i + 1;
  }
  if (start < buf.length) pieces.push(buf.subarray(start));
  return pieces.map((raw, i) => {
    const lineNo = i + 1;
    const content = raw.length && raw[raw.length - 1] === 0x0d ? raw.subarray(0, raw.length - 1) : raw;
    if (content.length > max) return { lineNo, overLimit: true, bytes: raw.length } as Line;
    const bom = lineNo === 1 && content.length >= 3 && content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf;
    const body = bom ? content.subarray(3) : content;
    const line: Line = { lineNo, text: body.toString('utf8') };
    if (!isUtf8(body)) line.invalidUtf8 = true;
    if (i === pieces.length - 1 && buf[buf.length - 1] !== 0x0a) line.unterminated = true;
    return line;
  });
}

describe('readLineBatches', () => {
  it('gives the reference lines for arbitrary bytes, arbitrary chunking and limits', async () => {
    await fc.assert(
      fc.asyncProperty(readerBytes, fc.array(fc.nat(), { maxLength: 12 }), fc.integer({ min: 0, max: 24 }), async (buf, cuts, max) => {
        const got = await readAll(chunked(buf, cuts), max);
        expect(got).toEqual(referenceLines(buf, max));
      }),
      runs(3000),
    );
  });

  it('gives the same lines one byte at a time as in one chunk (CRLF split across chunks)', async () => {
    await fc.assert(
      fc.asyncProperty(readerBytes, async (buf) => {
        const whole = await readAll([buf], 1 << 20);
        const bytewise = await readAll([...buf].map((b) => Buffer.from([b])), 1 << 20);
        expect(bytewise).toEqual(whole);
      }),
      runs(1000),
    );
  });

  it('never holds an over-limit line: its text is never produced, only its byte count', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 8, max: 64 }), fc.integer({ min: 1, max: 5000 }), fc.array(fc.nat(), { maxLength: 8 }), async (max, extra, cuts) => {
        const long = Buffer.alloc(max + extra, 0x61);
        const buf = Buffer.concat([Buffer.from('{"a":1}\n'), long, Buffer.from('\r\n{"b":2}')]);
        const got = await readAll(chunked(buf, cuts), max);
        expect(got).toEqual([{ lineNo: 1, text: '{"a":1}' }, { lineNo: 2, overLimit: true, bytes: max + extra + 1 }, { lineNo: 3, text: '{"b":2}', unterminated: true }]);
      }),
      runs(1000),
    );
  });
});

// ---------------------------------------------------------------- SSE parser

/** Text made of the pieces SSE cares about, so fields, comments, blank lines and all three line endings are frequent. */
const sseText = fc
  .array(
    fc.oneof(
      fc.constantFrom('data:', 'data: ', 'id:', 'id: 7', 'event:', 'event: message', 'event: ping', 'retry: 1500', 'retry: x', ':', ': keep-alive', 'data', 'id: a\u0000b'),
      fc.constantFrom('\n', '\r', '\r\n', '\n\n', '\r\n\r\n'),
      fc.string({ maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.json({ maxDepth: 2 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

function parseChunked(text: string, cuts: number[]): { events: ParsedSseEvent[]; comments: number } {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const parser = new SseParser();
  const events: ParsedSseEvent[] = [];
  let prev = 0;
  for (const p of [...points, text.length]) {
    parser.push(text.slice(prev, p), events);
    prev = p;
  }
  parser.end(events);
  return { events, comments: parser.comments };
}

/** An independent reading of the same rules: split on CRLF/CR/LF, dispatch on blank lines, flush a cut block. */
function referenceSse(text: string): ParsedSseEvent[] {
  const out: ParsedSseEvent[] = [];
  let cur: { id?: string; event?: string; data: string[]; hasData: boolean; retry?: number; any: boolean } = { data: [], hasData: false, any: false };
  const take = (): ParsedSseEvent => {
    const ev: ParsedSseEvent = { data: cur.data.join('\n'), hasData: cur.hasData };
    if (cur.id !== undefined) ev.id = cur.id;
    if (cur.event !== undefined) ev.event = cur.event;
    if (cur.retry !== undefined) ev.retry = cur.retry;
    cur = { data: [], hasData: false, any: false };
    return ev;
  };
  const lines = text.split(/\r\n|\r|\n/);
  lines.forEach((line, i) => {
    const last = i === lines.length - 1;
    if (last && line === '') return; // the text ended with a line terminator
    if (line === '') {
      if (cur.any) out.push(take());
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') Object.assign(cur, { hasData: true, any: true }).data.push(value);
    else if (field === 'id' && !value.includes('\0')) Object.assign(cur, { id: value, any: true });
    else if (field === 'event') Object.assign(cur, { event: value, any: true });
    else if (field === 'retry' && /^\d+$/.test(value)) Object.assign(cur, { retry: Number(value), any: true });
  });
  if (cur.any) out.push({ ...take(), truncated: true });
  return out;
}

describe('SseParser and forEachSseEvent', () => {
  it('give the same events (and comment count) for any chunking as for the whole text, and never throw', () => {
    fc.assert(
      fc.property(sseText, fc.array(fc.nat(), { maxLength: 10 }), (text, cuts) => {
        const whole = parseChunked(text, []);
        const pieces = parseChunked(text, cuts);
        expect(pieces).toEqual(whole);
        const each: ParsedSseEvent[] = [];
        forEachSseEvent(text, (ev) => each.push(ev));
        expect(each).toEqual(whole.events);
      }),
      runs(5000),
    );
  });

  it('agree with an independent reading of the WHATWG line rules', () => {
    fc.assert(
      fc.property(sseText, (text) => {
        expect(parseChunked(text, []).events).toEqual(referenceSse(text));
      }),
      runs(5000),
    );
  });

  it('never throw on arbitrary Unicode, including lone surrogates', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        expect(parseChunked(text, cuts)).toEqual(parseChunked(text, []));
      }),
      runs(3000),
    );
  });
});

// ---------------------------------------------------------------- format detection

/** Objects that look a little like each supported format, with wrong types sprinkled in. */
const anyScalar = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const loose = fc.oneof(anyScalar, fc.jsonValue({ maxDepth: 3 }));
const jsonRpcLike = fc.record(
  { jsonrpc: fc.oneof(fc.constant('2.0'), loose), id: fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), loose), method: fc.oneof(fc.constantFrom('tools/call', 'initialize', 'notifications/progress'), loose), params: loose, result: loose, error: loose },
  { requiredKeys: [] },
);
const headersLike = fc.oneof(fc.dictionary(fc.constantFrom('mcp-session-id', 'content-type', 'Authorization', '__proto__', 'constructor'), fc.oneof(fc.string({ maxLength: 10 }), loose)), loose);
const canonicalLike = fc.record(
  {
    v: fc.oneof(fc.constant(1), loose), kind: fc.oneof(fc.constantFrom('exchange', 'request', 'response', 'event', 'end', 'message', 'claim'), loose),
    ts: loose, side: fc.oneof(fc.constantFrom('client', 'server', 'gateway'), loose), session: loose, xid: loose, method: fc.oneof(fc.constantFrom('POST', 'GET'), loose),
    status: fc.oneof(fc.constantFrom(200, 202, 404, 500, null), loose), requestHeaders: headersLike, responseHeaders: headersLike,
    send: fc.oneof(jsonRpcLike, loose), recv: fc.oneof(jsonRpcLike, loose), recvText: fc.oneof(fc.constant('data: {}\n\n'), loose), sendText: loose,
    events: loose, end: fc.oneof(fc.constantFrom('complete', 'aborted'), loose), direction: fc.oneof(fc.constantFrom('c2s', 's2c'), loose), message: fc.oneof(jsonRpcLike, loose),
    data: loose, claim: loose, note: loose,
  },
  { requiredKeys: [] },
);
const harLike = fc.record(
  {
    startedDateTime: fc.oneof(fc.constant('2026-12-02T10:00:00.000Z'), loose), time: loose,
    request: fc.oneof(fc.record({ method: fc.oneof(fc.constant('POST'), loose), url: fc.oneof(fc.constant('https://mcp.example/mcp'), loose), headers: fc.oneof(fc.array(fc.record({ name: fc.oneof(fc.constantFrom('Mcp-Session-Id', 'Authorization'), loose), value: loose }), { maxLength: 3 }), loose), postData: fc.oneof(fc.record({ mimeType: loose, text: fc.oneof(fc.json(), loose) }), loose) }, { requiredKeys: [] }), loose),
    response: fc.oneof(fc.record({ status: fc.oneof(fc.constantFrom(0, 200, 500), loose), headers: loose, content: fc.oneof(fc.record({ text: fc.oneof(fc.json(), loose), encoding: fc.oneof(fc.constant('base64'), loose), mimeType: loose }, { requiredKeys: [] }), loose), _error: loose }, { requiredKeys: [] }), loose),
    _error: loose,
  },
  { requiredKeys: [] },
);
const otherLike = fc.record(
  {
    outcome: fc.oneof(fc.constant('TOOL_ERROR'), loose), postCount: loose, httpStatuses: loose, jsonrpc: loose, retryOrigin: loose,
    session_id: loose, seq: loose, transport_type: loose, resourceSpans: loose, resourceLogs: loose, direction: loose, message: fc.oneof(jsonRpcLike, loose),
    request: loose, response: loose, 'ai.mcp': loose, __proto__: loose, constructor: loose,
  },
  { requiredKeys: [] },
);
const anyRecordLike = fc.oneof(canonicalLike, harLike, otherLike, jsonRpcLike, fc.dictionary(fc.string({ maxLength: 6 }), loose, { maxKeys: 5 }));

/** Round trip through JSON text, as the reader does (so __proto__ keys become own properties, as JSON.parse makes them). */
const asParsedLine = anyRecordLike.map((v) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>);

describe('format detection and adapters', () => {
  it('every detector and adapter returns records valid by the canonical schema, or an error; never throws', () => {
    fc.assert(
      fc.property(asParsedLine, (value) => {
        for (const f of JSON_FORMATS) {
          if (!f.detect(value)) continue;
          const res = f.toRecords(value, { file: 'prop.ndjson', line: 1 });
          if (Array.isArray(res)) {
            for (const rec of res) {
              const parsed = CanonicalRecordSchema.safeParse(rec);
              expect(parsed.success, `${f.name} produced an invalid record: ${JSON.stringify(rec).slice(0, 300)}`).toBe(true);
            }
          } else {
            expect(typeof res.error).toBe('string');
            expect(res.error.length).toBeGreaterThan(0);
          }
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      {
        ...runs(4000),
        // Shapes fast-check found once; always tried first.
        examples: [
          [{ v: 1, kind: 'message', direction: 'c2s' }], // a message record without its message
          [{ status: -9007199254740992, message: { result: false } }], // an HTTP status beyond the safe integers
          [{ v: 1, kind: 'exchange', method: 'POST', status: 2 ** 53 }],
        ],
      },
    );
  });

  it('text-format detectors never throw on arbitrary lines', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 120 }), fc.string({ unit: 'binary', maxLength: 120 }), fc.json().map((j) => `2026-12-02T10:00:00.000Z [info] Message from client: ${j}`)), (line) => {
        for (const f of TEXT_FORMATS) {
          if (!f.detectText(line)) continue;
          const res = f.textToRecords(line, { file: 'prop.log', line: 1 });
          expect(Array.isArray(res) || typeof res.error === 'string').toBe(true);
        }
      }),
      runs(3000),
    );
  });
});

// ---------------------------------------------------------------- reading a whole input: exact accounting

type IngestModule = typeof import('../../src/ingest.js');
type DiagnosticsModule = typeof import('../../src/diagnostics.js');

async function loadIngest(): Promise<{ ingest: IngestModule; diag: DiagnosticsModule } | undefined> {
  try {
    return { ingest: await import('../../src/ingest.js'), diag: await import('../../src/diagnostics.js') };
  } catch {
    return undefined;
  }
}

/** NDJSON text mixing good records, hostile ones, blank lines, junk and over-long lines. */
const ndjsonLine = fc.oneof(
  { weight: 4, arbitrary: anyRecordLike.map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.constantFrom('', '   ', '\t', '\r') },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.constantFrom('{"a":', '[1,2', '{"__proto__":{"polluted":true},"jsonrpc":"2.0","id":1,"method":"x"}', '\u0000\u0000', '{"v":1,"kind":"message","direction":"c2s","message":{"jsonrpc":"2.0","id":12345678901234567890,"method":"tools/call"}}') },
);

describe('ingest: every line is accounted for', () => {
  it('lines read = records used + lines skipped + lines unusable + blank lines, with one diagnostic per unusable line', async () => {
    const mods = await loadIngest();
    if (!mods) return; // the module is not there yet
    const { ingest, newAccount } = mods.ingest;
    await fc.assert(
      fc.asyncProperty(fc.array(ndjsonLine, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), async (lines, eol, finalEol) => {
        const text = lines.join(eol) + (finalEol && lines.length ? eol : '');
        const diagnostics = new mods.diag.Diagnostics();
        const spec = { path: '-' };
        const account = newAccount(spec, '<stdin>');
        const opts = { maxLineBytes: 200, stdin: Readable.from([Buffer.from(text)]), diagnostics, strict: false };
        let records = 0;
        for await (const batch of ingest(spec, opts, account)) records += batch.length;
        expect(account.lines).toBe(account.used + account.skipped + account.unusable + account.blank);
        expect(diagnostics.total).toBe(account.unusable);
        expect(records).toBe(account.records);
        expect(account.lines).toBe(referenceLines(Buffer.from(text), 200).length);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      runs(1500),
    );
  });
});

// ---------------------------------------------------------------- redaction and escaping

describe('redaction and escaping never fail and never leak', () => {
  const secret = fc.stringMatching(/^[A-Za-z0-9]{12,24}$/).filter((s) => /\d/.test(s) && /[a-z]/i.test(s));
  const around = fc.string({ maxLength: 20 }).map((s) => s.replace(/[A-Za-z0-9_\-.]+$/, ''));
  it('a planted credential never survives redactText, whatever surrounds it', () => {
    fc.assert(
      fc.property(secret, around, around, fc.constantFrom('Bearer %s', 'Authorization: %s', '?access_token=%s', '&api_key=%s', '{"password":"%s"}', 'https://u:%s@h/', 'Cookie: sid=%s'), (s, before, after, shape) => {
        const out = redactText(` ${before} ${shape.replace('%s', s)} ${after}`);
        expect(out).not.toContain(s);
      }),
      runs(3000),
    );
  });
  it('redactText is idempotent: its own markers are never redacted again', () => {
    fc.assert(
      fc.property(secret, around, fc.constantFrom('Bearer %s', 'Authorization: %s', 'https://x/?access_token=%s&key=%s', '{"password":"%s","token":"%s"}', 'https://%s:%s@h/', `${'eyJhbGciOiJIUzI1NiJ9'}.eyJ%s.%s`), fc.string({ maxLength: 40 }), (s, before, shape, junk) => {
        const once = redactText(`${before}${shape.replaceAll('%s', s)}${junk}`);
        expect(redactText(once)).toBe(once);
      }),
      runs(3000),
    );
  });
  it('redactValue returns an equal-shaped copy and never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const out = redactValue(v);
        expect(JSON.stringify(out).length).toBeGreaterThan(0);
        expect(typeof out).toBe(typeof v);
      }),
      runs(2000),
    );
  });
  it('escapes leave no control character, newline, HTML tag or Mermaid statement breaker', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (s) => {
        // eslint-disable-next-line no-control-regex
        expect(cleanTerminal(s)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
        expect(escapeMarkdownCell(s)).not.toMatch(/[<>\n\r]|(?<!\\)\|/);
        expect(escapeMermaid(s)).not.toMatch(/[\n\r;%#<>{}:"`]/);
        expect(secretMarker(s)).toMatch(/^\[redacted:[0-9a-f]{8}\]$/);
      }),
      runs(3000),
    );
  });
});

// ---------------------------------------------------------------- the whole analysis: join and classification

/** Plausible canonical traffic with colliding sessions and ids, so the join and classification really run. */
const idArb = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom('1', '2', 'a'), fc.constant(9007199254740993));
const rpcRequest = fc.record({ jsonrpc: fc.constantFrom('2.0', '1.0'), id: idArb, method: fc.constantFrom('tools/call', 'tools/list', 'initialize'), params: fc.constantFrom({ name: 'get_weather', arguments: {} }, {}, undefined) }, { requiredKeys: ['id', 'method'] });
const rpcResponse = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id: idArb, result: fc.oneof(fc.constant({ content: [{ type: 'text', text: 'ok' }] }), fc.constant({ isError: true, content: [] }), fc.constant({ resultType: 'input_required' }), loose) }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(idArb, fc.constant(null)), error: fc.oneof(fc.record({ code: fc.integer({ min: -32700, max: -32000 }), message: fc.string({ maxLength: 8 }) }), loose) }),
  loose,
);
const tsArb = fc.integer({ min: 0, max: 600_000 }).map((ms) => new Date(Date.UTC(2026, 11, 2, 10) + ms).toISOString());
const exchangeLine = fc.record({
  v: fc.constant(1), kind: fc.constant('exchange'), ts: tsArb, side: fc.constantFrom('client', 'server'), session: fc.constantFrom('s1', 's2', null),
  method: fc.constant('POST'), status: fc.constantFrom(200, 202, 400, 500, null), send: rpcRequest,
  recv: fc.option(rpcResponse, { nil: undefined }), recvText: fc.option(fc.oneof(rpcResponse.map((r) => `data: ${JSON.stringify(r)}\n\n`), fc.constantFrom('data: {"jsonrpc":', 'event: message\ndata: ', '{not json')), { nil: undefined }),
  end: fc.option(fc.constantFrom('complete', 'aborted', 'timeout'), { nil: undefined }),
}, { requiredKeys: ['v', 'kind', 'method', 'status', 'send'] }).map((r) => JSON.stringify(r));
const messageLine = fc.record({
  v: fc.constant(1), kind: fc.constant('message'), ts: tsArb, direction: fc.constantFrom('c2s', 's2c'), session: fc.constantFrom('s1', 's2'),
  message: fc.oneof(rpcRequest, rpcResponse),
}).map((r) => JSON.stringify(r));
const trafficLine = fc.oneof({ weight: 3, arbitrary: exchangeLine }, { weight: 2, arbitrary: messageLine }, { weight: 2, arbitrary: ndjsonLine });

describe('runAnalysis: arbitrary traffic never throws, never hangs, accounts for every line, prints valid ndjson', () => {
  it('finishes with lines = used + skipped + unusable + blank for every input', async () => {
    let analyze: typeof import('../../src/analyze.js');
    let outcomes: typeof import('../../src/outcomes.js');
    let summary: typeof import('../../src/report/summary.js');
    let json: typeof import('../../src/report/json.js');
    let schema: typeof import('../../src/report/schema.js');
    try {
      analyze = await import('../../src/analyze.js');
      outcomes = await import('../../src/outcomes.js');
      summary = await import('../../src/report/summary.js');
      json = await import('../../src/report/json.js');
      schema = await import('../../src/report/schema.js');
    } catch {
      return; // the module is not there yet
    }
    await fc.assert(
      fc.asyncProperty(fc.array(trafficLine, { maxLength: 16 }), fc.array(trafficLine, { maxLength: 8 }), async (clientLines, serverLines) => {
        const dir = tmpDirForProperties();
        const client = `${dir}/c.ndjson`;
        const server = `${dir}/s.ndjson`;
        const clientText = clientLines.join('\n');
        const serverText = serverLines.length ? serverLines.join('\r\n') + '\r\n' : '';
        writeFileSync(client, clientText);
        writeFileSync(server, serverText);
        let attempts = 0;
        const result = await analyze.runAnalysis(
          { inputs: [{ path: client, side: 'client' }, { path: server, side: 'server' }], maxLineBytes: 4096 },
          {
            attempt: (a) => {
              attempts++;
              expect(outcomes.OUTCOMES).toContain(a.outcome);
              expect(a.layer).toBe(outcomes.OUTCOME_INFO[a.outcome].layer);
              expect(['string', 'number']).toContain(typeof a.id);
              // Whatever the input, the ndjson line of the attempt is valid by its published schema.
              for (const redact of [true, false]) {
                const line = json.attemptJson(summary.attemptRow(a, redact));
                const parsed = schema.NdjsonAttemptSchema.safeParse(JSON.parse(line));
                expect(parsed.success, `${line}\n${parsed.error?.message ?? ''}`).toBe(true);
              }
            },
            finding: (f) => expect(typeof f.code).toBe('string'),
          },
        );
        for (const a of result.accounts) expect(a.lines).toBe(a.used + a.skipped + a.unusable + a.blank);
        expect(result.accounts[0]!.lines).toBe(referenceLines(Buffer.from(clientText), 1 << 20).length);
        expect(result.accounts[1]!.lines).toBe(referenceLines(Buffer.from(serverText), 1 << 20).length);
        expect(attempts).toBeLessThanOrEqual(clientLines.length + serverLines.length);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { ...runs(800), timeout: 5000 },
    );
  });
});

let propertiesDir: string | undefined;
afterAll(() => {
  if (propertiesDir) rmSync(propertiesDir, { recursive: true, force: true });
});
function tmpDirForProperties(): string {
  propertiesDir ??= mkdtempSync(join(tmpdir(), 'mcp-triage-prop-'));
  return propertiesDir;
}

// ---------------------------------------------------------------- whole HAR documents, cut and chunked

describe('harDocumentEntries on cut, damaged and chunked documents', () => {
  const entryArb = fc.record({
    startedDateTime: fc.constant('2026-12-02T10:00:00.000Z'),
    time: fc.nat(1000),
    request: fc.record({ method: fc.constant('POST'), url: fc.constant('https://mcp.example/mcp'), headers: fc.array(fc.record({ name: fc.constantFrom('Content-Type', 'Mcp-Session-Id', '__proto__'), value: fc.string({ maxLength: 8 }) }), { maxLength: 2 }), postData: fc.record({ mimeType: fc.constant('application/json'), text: fc.json({ maxDepth: 2 }) }) }),
    response: fc.record({ status: fc.constantFrom(0, 200, 500), headers: fc.constant([]), content: fc.record({ mimeType: fc.constant('text/event-stream'), text: fc.string({ maxLength: 30 }) }) }),
  });

  async function collect(text: Buffer, cuts: number[]) {
    const { harDocumentEntries } = await import('../../src/read/har-document.js');
    const items = [];
    for await (const item of harDocumentEntries(asAsync(chunked(text, cuts)))) items.push(item);
    return items;
  }

  it('a whole document gives every entry, in order, with no error, however it is chunked', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entryArb, { maxLength: 6 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 8 }), async (entries, pretty, cuts) => {
        const doc = { log: { version: '1.2', creator: { name: 'prop', version: '1' }, entries } };
        const text = Buffer.from(pretty ? JSON.stringify(doc, null, 2) : JSON.stringify(doc));
        const items = await collect(text, cuts);
        expect(items.filter((i) => 'error' in i)).toEqual([]);
        expect(items.map((i) => ('value' in i ? i.value : undefined))).toEqual(JSON.parse(JSON.stringify(entries)));
        const lines = items.map((i) => i.line);
        expect([...lines].sort((a, b) => a - b)).toEqual(lines);
      }),
      runs(1000),
    );
  });

  it('a document cut anywhere or followed by garbage: a prefix of the entries, then at most one error; never throws', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entryArb, { minLength: 1, maxLength: 5 }), fc.nat(), fc.constantFrom('', 'garbage', '\u0000\u0000', '{"log":'), fc.array(fc.nat(), { maxLength: 6 }), async (entries, cutAt, tail, cuts) => {
        const whole = JSON.stringify({ log: { version: '1.2', creator: { name: 'prop', version: '1' }, entries } }, null, 1);
        const cut = cutAt % (whole.length + 1);
        const text = Buffer.from(whole.slice(0, cut) + tail);
        const items = await collect(text, cuts);
        const values = items.filter((i) => 'value' in i).map((i) => (i as { value: unknown }).value);
        expect(values).toEqual(JSON.parse(JSON.stringify(entries)).slice(0, values.length));
        const errors = items.filter((i) => 'error' in i);
        expect(errors.length).toBeLessThanOrEqual(1);
        if (errors.length) expect(items[items.length - 1]).toBe(errors[0]);
        // Damage is never silent: a document that does not end where it should ends with one error item.
        if (whole.slice(cut).trim() !== '' || tail.trim() !== '') expect(errors).toHaveLength(1);
        else expect(errors).toHaveLength(0);
      }),
      runs(1500),
    );
  });
});
