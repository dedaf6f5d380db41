// The bench's reference loops: read + split lines + JSON.parse each line, nothing else (the bare baseline, and the ndjson package for comparison).
//
// Usage: node bench/parse-loops.mjs plain|bodies|ndjson|split2-lines|reader FILE...
// Prints one JSON line to stdout: {"mode","lines","values","bad","bytes","ms"}. Files are read one after the other, single thread.
import { createReadStream, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';

const NEWLINE = 0x0a;

/** Plain splitter: Buffer.indexOf on '\n', one toString + JSON.parse per line, the line number kept. */
async function plain(file, counts, onValue = undefined) {
  let carry = null;
  let lineNo = 0;
  const onLine = (text) => {
    lineNo++;
    if (text.length === 0) return;
    try {
      const value = JSON.parse(text);
      if (value !== null && typeof value === 'object') {
        counts.values++;
        onValue?.(value, counts);
      }
    } catch {
      counts.bad++;
      counts.lastBadLine = lineNo;
    }
  };
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    let start = 0;
    let nl = chunk.indexOf(NEWLINE, start);
    if (carry !== null && nl !== -1) {
      // The line that straddles two chunks: join its bytes (never its decoded halves, which could split a character).
      onLine(Buffer.concat([carry, chunk.subarray(0, nl)]).toString('utf8'));
      carry = null;
      start = nl + 1;
      nl = chunk.indexOf(NEWLINE, start);
    }
    while (nl !== -1) {
      onLine(chunk.toString('utf8', start, nl));
      start = nl + 1;
      nl = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) carry = carry === null ? chunk.subarray(start) : Buffer.concat([carry, chunk.subarray(start)]);
  }
  if (carry !== null) onLine(carry.toString('utf8'));
  counts.lines += lineNo;
}

/**
 * The plain loop, plus a JSON.parse of every JSON-RPC message a record carries as text: the `data:` lines of an SSE
 * body (canonical recvText and events, split event records, HAR content.text) and a request or response body kept as
 * text (HAR postData.text and content.text). Any reader that judges these logs must parse those too; the bare
 * baseline does not, so this loop is the floor for reading this data at all.
 */
async function bodies(file, counts) {
  counts.bodies ??= 0;
  const parseText = (text) => {
    if (typeof text !== 'string' || text.length === 0) return;
    const t = text.trimStart();
    if (t.startsWith('{') || t.startsWith('[')) return parseOne(t);
    for (const line of text.split('\n')) if (line.startsWith('data:')) parseOne(line.slice(line.charCodeAt(5) === 0x20 ? 6 : 5));
  };
  const parseOne = (text) => {
    if (text.length === 0) return;
    try {
      JSON.parse(text);
      counts.bodies++;
    } catch {
      // a broken body: the analysis reports it; here it only costs its parse
    }
  };
  await plain(file, counts, (v) => {
    parseText(v.recvText);
    parseText(v.sendText);
    if (v.kind === 'event') parseText(v.data);
    if (Array.isArray(v.events)) for (const e of v.events) parseText(e?.data);
    parseText(v.request?.postData?.text);
    parseText(v.response?.content?.text);
  });
}

/** The ndjson package's parser (split2 + JSON.parse); non-strict, so bad lines are dropped without a line number. */
async function ndjsonParse(file, counts) {
  const require = createRequire(import.meta.url);
  const ndjson = require('ndjson');
  const parser = ndjson.parse({ strict: false });
  await pipeline(
    createReadStream(file, { highWaterMark: 1 << 20 }),
    parser,
    new Writable({
      objectMode: true,
      write(value, _enc, cb) {
        counts.values++;
        cb();
      },
    }),
  );
}

/** split2 (what ndjson uses inside) with a mapper that keeps line numbers and counts bad lines. */
async function split2Lines(file, counts) {
  const require = createRequire(import.meta.url);
  const split2 = require('split2');
  let lineNo = 0;
  const splitter = split2((text) => {
    lineNo++;
    if (text.length === 0) return undefined;
    try {
      return { line: lineNo, value: JSON.parse(text) };
    } catch {
      counts.bad++;
      return undefined;
    }
  });
  await pipeline(
    createReadStream(file, { highWaterMark: 1 << 20 }),
    splitter,
    new Writable({
      objectMode: true,
      write(_item, _enc, cb) {
        counts.values++;
        cb();
      },
    }),
  );
  counts.lines += lineNo;
}

/**
 * mcp-triage's own input side, and nothing after it: open, split, JSON.parse, detect the format, adapt to canonical
 * records, parse timestamps (dist/ingest.js). What the full analysis adds to this is the join, matching, linking,
 * findings and the report.
 */
async function reader(file, counts) {
  const { ingest, newAccount } = await import('../dist/ingest.js');
  const { Diagnostics } = await import('../dist/diagnostics.js');
  const spec = { path: file };
  const account = newAccount(spec, file);
  const options = { maxLineBytes: 64 * 1024 * 1024, stdin: process.stdin, diagnostics: new Diagnostics({}), strict: false };
  for await (const batch of ingest(spec, options, account)) counts.values += batch.length;
  counts.lines += account.lines;
  counts.bad += account.unusable;
}

const MODES = { plain, bodies, ndjson: ndjsonParse, 'split2-lines': split2Lines, reader };

const [mode, ...files] = process.argv.slice(2);
const loop = MODES[mode];
if (!loop || files.length === 0) {
  process.stderr.write(`usage: node bench/parse-loops.mjs ${Object.keys(MODES).join('|')} FILE...\n`);
  process.exit(2);
}
const counts = { lines: 0, values: 0, bad: 0 };
const started = performance.now();
for (const file of files) await loop(file, counts);
const ms = performance.now() - started;
const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
process.stdout.write(`${JSON.stringify({ mode, ...counts, bytes, ms: Math.round(ms) })}\n`);
