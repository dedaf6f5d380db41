// The terminal report: outcome counts, failed attempts, findings, retry chains and the input account, as box-drawn tables.
import { apartCounts, apartLine, claimedText, filteredOutText, type AttemptRow, type Summary, type SummaryBuilder } from './summary.js';
import type { OutputSink } from './sink.js';
import type { Finding } from '../findings/types.js';
import { OUTCOMES, type Outcome } from '../outcomes.js';
import { cleanTerminal, cutAtWord, plural, severityCount, truncate } from './text.js';
import { DEFAULT_WIDTH, displayWidth, Grid, maxOf, SPILL_BELOW, tailColumn, underscoreColumn, widestFirst, wrapAround, wrapColumn, type ColumnFit } from './grid.js';
import { filtersText } from '../filter.js';
import { wrapperText } from '../read/container-lines.js';
import { cannotShowCell, countOf, emptyText, evidenceLines, hiddenBySeverity, moreNote, originsText, readColumn, redactionLine, retryDelay, sideCell, whyOf } from './notes.js';

interface TableOptions {
  color: boolean;
  write: (s: string) => void;
  /** Widest a table may be, in terminal columns (default DEFAULT_WIDTH): long text wraps within its cell. */
  width?: number;
}

const ESC = '\u001b[';
const paint = (on: boolean, code: string, s: string) => (on ? `${ESC}${code}m${s}${ESC}0m` : s);

const OUTCOME_COLOR: Record<Outcome, string> = {
  NO_RESPONSE: '31', HTTP_ERROR: '31', MALFORMED_JSON: '35', STREAM_INCOMPLETE: '33', INVALID_ENVELOPE: '35',
  JSONRPC_ERROR: '31', INPUT_REQUIRED: '36', TASK_CREATED: '36', INVALID_TOOL_RESULT: '35', INVALID_RESULT: '35', TOOL_ERROR: '33', TOOL_SUCCESS: '32', SUCCESS: '32', UNANSWERED: '90',
};
const SEVERITY_COLOR = { error: '31', warning: '33', info: '36' } as const;

/** A log string made safe and short for one table cell. */
const cell = (s: string | null | undefined, max = 40): string => truncate(cleanTerminal(s ?? ''), max);
/** Free text (a message, a why) for a cell that wraps: made safe, and cut only past MAX_CELL_TEXT. */
const text = (s: string): string => cutAtWord(cleanTerminal(s));
const src = (s: { file: string; line: number }) => `${cleanTerminal(s.file)}:${s.line}`;
const time = (iso: string | undefined) => (iso ? iso.slice(11, 23) : '');
/** An attempt's call and its place in it, `c4#2`, as the attempts, timeline and retry tables name it. */
const callOf = (r: AttemptRow) => (r.call ? `${r.call}#${r.attempt ?? 1}` : '');
const idOf = (r: AttemptRow) => cell(r.idText ?? JSON.stringify(r.id), 16);
/**
 * The session cell: the id, or for traffic without one the key the sessions view and `timeline` know it by (`input#1`,
 * a client or connection key), not a bare `-` that no other view can be asked about.
 */
const sessionOf = (r: { session: string | null; scope?: string }) => cell(r.session ?? r.scope ?? '-', 12);
const what = (r: { method: string; tool: string | null; target?: string }) => (r.tool ? `${cell(r.method, 24)} ${cell(r.tool, 28)}` : r.target !== undefined ? `${cell(r.method, 24)} ${cell(r.target, 28)}` : cell(r.method, 40));

export class TableSink implements OutputSink {
  constructor(private readonly opts: TableOptions) {}
  attempt(): void {}
  finding(_f: Finding, _m: string): void {}
  end(summary: Summary, builder: SummaryBuilder): void {
    this.opts.write(renderTableReport(summary, builder, this.opts.color, this.opts.width));
  }
}

/** A table with bold headers (when colour is on; a header on two lines, bold on each), fitted to `width`: the columns given a fit give way, the others keep their width. */
function table(head: string[], color: boolean, width: number, fit: Record<string, ColumnFit>): Grid {
  return new Grid(head.map((h) => h.split('\n').map((l) => paint(color, '1', l)).join('\n')), { width, fit: head.map((h) => fit[h]) });
}

function renderTableReport(summary: Summary, builder: SummaryBuilder, color: boolean, width = DEFAULT_WIDTH): string {
  const out: string[] = [];
  const f = summary.findings.bySeverity;
  const max = Math.max(0, Math.floor(builder.opts.maxRows));
  out.push(`${paint(color, '1', 'mcp-triage')} ${summary.tool.replace(/^mcp-triage /, '')}: ${plural(summary.attempts, 'attempt')} in ${plural(summary.calls, 'call')}, ${[plural(summary.retries, 'retry', 'retries'), ...apartCounts(summary)].join(', ')}; findings: ${(['error', 'warning', 'info'] as const).filter((s) => f[s] > 0).map((s) => severityCount(f[s], s)).join(', ') || 'none'}`);
  if (Object.keys(summary.filters).length) out.push(`filters: ${cell(filtersText(summary.filters as never), 200)}${leftOut(summary)}`);
  out.push('');

  if (summary.byMethod.length) {
    const shown = summary.byMethod.slice(0, max);
    const present = OUTCOMES.filter((o) => summary.byOutcome[o]);
    // Wide: a column per outcome present. Narrow: one column with a line per outcome of the row (`3 HTTP_ERROR`).
    const wide = () => {
      const t = table(['method', 'tool', 'total', ...present], color, width, { method: wrapColumn(10), tool: wrapColumn(10), ...Object.fromEntries(present.map((o) => [o, underscoreColumn([o])])) });
      for (const m of shown) {
        t.push([cell(m.method, 32), cell(m.tool ?? '', 32), String(m.total), ...present.map((o) => (m.outcomes[o] ? paint(color, OUTCOME_COLOR[o], String(m.outcomes[o])) : ''))]);
      }
      return t;
    };
    const narrow = () => {
      const t = table(['method', 'tool', 'total', 'outcomes'], color, width, { method: wrapColumn(10), tool: wrapColumn(10), outcomes: { ...underscoreColumn(present.map((o) => `0 ${o}`)), keep: maxOf(-Infinity, shown.map((m) => m.total)).toString().length + 1 + maxOf(-Infinity, present.map((o) => o.length)) } });
      for (const m of shown) {
        t.push([cell(m.method, 32), cell(m.tool ?? '', 32), String(m.total), present.filter((o) => m.outcomes[o]).map((o) => paint(color, OUTCOME_COLOR[o], `${m.outcomes[o]} ${o}`)).join('\n')]);
      }
      return t;
    };
    const apart = apartLine(summary);
    out.push(`Outcomes by method and tool${moreNote(shown.length, summary.byMethod.length, ', most attempts first')}`, ...(shown.length ? [widestFirst(width, wide, narrow)] : []), ...(apart ? [apart] : []), '');
  } else out.push(cell(emptyText(summary), 400), '');

  const failed = builder.failedTable();
  if (failed.total) {
    const outcomeFit = underscoreColumn([...failed.rows.map((r) => r.outcome), ...failed.rows.map((r) => r.layer)]);
    const status = (r: AttemptRow) => (r.status === null ? '-' : String(r.status));
    // The claimed column only when a client log claimed something of a row shown: without claims it is empty on every row.
    const claims = failed.rows.some((r) => claimedText(r.claim) !== '');
    const claimed = (r: AttemptRow) => (claims ? [text(claimedText(r.claim))] : []);
    const claimedHead = claims ? ['claimed'] : [];
    // A claim that quotes a client's error text (Claude Code's, Gemini CLI's) goes under its row when its column is too
    // narrow, as the why does, rather than down a column a word wide; outcome-only claims keep their column.
    const longClaim = failed.rows.some((r) => claimedText(r.claim).length > SPILL_BELOW);
    const wide = () => {
      const t = table(['time', 'session', 'id', 'call', 'method / tool', 'HTTP', 'outcome', 'layer', ...claimedHead, 'why'], color, width, { 'method / tool': wrapColumn(10), outcome: underscoreColumn(failed.rows.map((r) => r.outcome)), claimed: wrapColumn(7, longClaim ? 13 : undefined), why: wrapColumn(16, SPILL_BELOW) });
      for (const r of failed.rows) {
        t.push([
          time(r.ts), sessionOf(r), idOf(r), callOf(r), what(r), status(r), paint(color, OUTCOME_COLOR[r.outcome], r.outcome), r.layer,
          ...claimed(r), text(whyOf(r)),
        ]);
      }
      return t;
    };
    // Narrow: time over session, id over call, outcome over layer; the claim goes under the row when too narrow, as the why.
    const narrow = () => {
      const t = table(['time / session', 'id / call', 'method / tool', 'HTTP', 'outcome / layer', ...claimedHead, 'why'], color, width, {
        'time / session': { ...wrapColumn(6), keep: 12 }, 'id / call': wrapColumn(5), 'method / tool': wrapColumn(10), 'outcome / layer': outcomeFit, claimed: wrapColumn(7, 13), why: wrapColumn(16, SPILL_BELOW),
      });
      for (const r of failed.rows) {
        t.push([
          `${time(r.ts)}\n${sessionOf(r)}`, `${idOf(r)}\n${callOf(r)}`, what(r), status(r), `${paint(color, OUTCOME_COLOR[r.outcome], r.outcome)}\n${r.layer}`,
          ...claimed(r), text(whyOf(r)),
        ]);
      }
      return t;
    };
    out.push(`Attempts that did not succeed${moreNote(failed.rows.length, failed.total, ' in time order', ', see --format ndjson')}`, ...(failed.rows.length ? [widestFirst(width, wide, narrow)] : []), '');
  }

  const findings = builder.findingTable();
  if (findings.total) {
    // Evidence: one file:line a line, shortened from the left when narrow (the file name and line stay). It is shortened
    // to the end that tells its files apart while the message wraps, before a code is broken or the message squeezed:
    // long paths (a fixture's folders) kept whole left the code a word wide at 120 columns.
    const evidence = findings.rows.map((r) => evidenceLines(r.sources.length ? r.sources : r.attempt?.sources ?? [], 3, src));
    // A code stays whole (it is what `mcp-triage explain` and --code take) while the evidence can be shortened to its
    // minimum: only then is it broken after a `_` (at 80 columns `SESSION_ID_` over `CHANGED` could not be copied).
    const codes = findings.rows.map((r) => r.finding.code);
    // Under the code, where it happened as the attempts table names it: the session (its id's start, or the key of
    // traffic without one) and, for an attempt's finding, its call#attempt. The message's `tools/call x id 4` alone
    // matched several sessions of a log (each client counts its ids from 0) and no row of the attempts table.
    const whereOf = (r: (typeof findings.rows)[number]): string[] => [
      ...(r.session !== null || r.scope !== undefined ? [sessionOf(r)] : []),
      ...(r.attempt?.call ? [callOf(r.attempt)] : []),
    ];
    const t = table(['severity', 'code\nsession / call', 'message', 'evidence'], color, width, { 'code\nsession / call': { ...underscoreColumn(codes), keep: maxOf(0, codes.map((c) => c.length)) }, message: wrapColumn(20, SPILL_BELOW), evidence: tailColumn(20, distinctEnd(evidence.flat())) });
    findings.rows.forEach((r, n) => {
      t.push([paint(color, SEVERITY_COLOR[r.finding.severity], r.finding.severity), [r.finding.code, ...whereOf(r)].join('\n'), text(r.finding.message), evidence[n]!.join('\n')]);
    });
    out.push(`Findings${moreNote(findings.rows.length, findings.total, ', errors first', hiddenBySeverity(findings.rows, findings.bySeverity))}`, ...(findings.rows.length ? [t.toString()] : []), '');
  }

  const chains = builder.chainTable();
  if (chains.total) {
    const t = table(['call', 'method / tool', 'attempts: outcome (HTTP) and delay', 'origin'], color, width, { 'method / tool': wrapColumn(10), 'attempts: outcome (HTTP) and delay': wrapColumn(24), origin: wrapColumn(16, SPILL_BELOW) });
    for (const chain of chains.rows) {
      const parts: string[] = [];
      const steps = chain.steps;
      for (let i = 0; i < steps.length; i++) {
        const r = steps[i]!;
        if (i > 0) parts.push(`+${retryDelay(steps[i - 1]!, r)} →`);
        parts.push(`#${r.attempt ?? i + 1} ${paint(color, OUTCOME_COLOR[r.outcome], r.outcome)}${r.status !== null ? ` (${r.status})` : ''}`);
      }
      if (chain.attempts > steps.length) parts.push(`… ${plural(chain.attempts - steps.length, 'more attempt')}`);
      t.push([chain.call, what(chain), parts.join(' '), text(originsText(steps))]);
    }
    out.push(`Calls with more than one attempt${moreNote(chains.rows.length, chains.total, ' in time order')}`, ...(chains.rows.length ? [t.toString()] : []), '');
  }

  // An input's name is what finds the file: it stays whole while the other columns give, then wraps (after a `/` first),
  // never shortened.
  // What an input cannot show, said once for inputs of one format in a row (two mcp-logs files, a client's and a
  // server's app log): the same paragraph again is noise.
  // A whole HAR is counted in entries, not lines: the count column and its cells say which.
  const read = readColumn(summary.inputs);
  const inputCells = summary.inputs.map((i, n) => {
    const formats = Object.entries(i.formats).map(([k, n]) => (Object.keys(i.formats).length > 1 ? `${k} (${n})` : k)).join(', ') || '-';
    const reasons = Object.entries(i.reasons).map(([k, n]) => `${n} ${k}`).join(', ');
    return {
      name: cleanTerminal(i.name) + (i.gzip ? ' (gzip)' : ''), side: sideCell(i), format: text(formats + (i.mode === 'har' ? ' (whole HAR)' : '') + wrapperText(i)),
      read: countOf(i.lines, i.mode),
      counts: [read.cell(i), String(i.used), String(i.blank), String(i.skipped), i.unusable ? `${i.unusable}: ${text(reasons)}` : '0'],
      cannot: cannotShowCell(summary.inputs, n, text),
    };
  });
  // The cannot-show column only when an input has something in it (canonical records lack nothing).
  const cannot = inputCells.some((i) => i.cannot !== '');
  const cannotHead = cannot ? ['cannot show'] : [];
  const cannotCell = (i: (typeof inputCells)[number]) => (cannot ? [i.cannot] : []);
  const inputColumn = (min: number): ColumnFit => ({ ...wrapColumn(min), keep: maxOf(min, inputCells.map((i) => displayWidth(i.name))) });
  const wideInputs = () => {
    const t = table(['input', 'side', 'format', read.head, 'used', 'blank', 'skipped', 'unusable', ...cannotHead], color, width, { input: inputColumn(36), format: wrapColumn(9), unusable: wrapColumn(10), 'cannot show': wrapColumn(11, SPILL_BELOW) });
    for (const i of inputCells) t.push([i.name, i.side, i.format, ...i.counts, ...cannotCell(i)]);
    return t;
  };
  // Narrow: the five counts in one cell, named (`47 lines: 47 used, 0 blank, 0 skipped, 0 unusable`; `1 line: ...`; `10 entries: ...`).
  const narrowInputs = () => {
    const t = table(['input', 'side', 'format', read.head, ...cannotHead], color, width, { input: inputColumn(16), side: wrapColumn(6), format: wrapColumn(9), [read.head]: { ...wrapColumn(12), keep: Math.max(0, ...inputCells.flatMap((i) => [`${i.read}: ${i.counts[1]} used,`, `${i.counts[2]} blank, ${i.counts[3]} skipped,`].map((l) => l.length))) }, 'cannot show': wrapColumn(11, SPILL_BELOW) });
    for (const i of inputCells) {
      const [, used, blank, skipped, unusable] = i.counts;
      t.push([i.name, i.side, i.format, `${i.read}: ${used} used,\n${blank} blank, ${skipped} skipped,\n${unusable} unusable`, ...cannotCell(i)]);
    }
    return t;
  };
  out.push(`Inputs (${read.head} = used + blank + skipped + unusable${read.about}; skipped: well-formed, no MCP traffic)`, widestFirst(width, wideInputs, narrowInputs));
  if (summary.claims.total) out.push(`Client claims: ${summary.claims.total} read, ${summary.claims.matched} matched to a call on the wire${summary.claims.alone ? `, ${summary.claims.alone} read as calls of their own (no call on the wire took them)` : ''}${summary.claims.unmatched.length ? `, ${summary.claims.unmatched.length} matched nothing (first: ${summary.claims.unmatched.slice(0, 3).map(src).join(', ')})` : ''}`);
  if (summary.diagnostics.total) {
    const first = summary.diagnostics.first.slice(0, 3).map((d) => `${cleanTerminal(d.file)}${d.line !== undefined ? `:${d.line}` : ''}`).join(', ');
    out.push(`Input problems: ${summary.diagnostics.total} (${Object.entries(summary.diagnostics.byCode).map(([k, n]) => `${n} ${k}`).join(', ')}); first at ${first}`);
  }
  for (const n of summary.notes) out.push(`Note: ${n}`);
  out.push(redactionLine(summary, (code, text) => paint(color, code, text)));
  // The lines around the tables (the header, the notes) wrap at spaces to the width, as the tables' cells do.
  return `${wrapAround(out.join('\n'), width)}\n`;
}


/**
 * The width of the widest `file:line` shortened to the end that tells its file from the others' (`…client.ndjson:16`;
 * `…a/client.ndjson:16` beside `…b/client.ndjson:3`), the ellipsis counted; a line with nothing to cut, whole.
 */
function distinctEnd(lines: string[]): number {
  const fileOf = (l: string) => l.replace(/:\d+$/, '');
  const files = [...new Set(lines.map(fileOf))];
  let widest = 0;
  for (const l of lines) {
    const parts = fileOf(l).split('/');
    let n = 1;
    const end = () => parts.slice(-n).join('/');
    while (n < parts.length && files.some((f) => f !== fileOf(l) && (f === end() || f.endsWith(`/${end()}`)))) n++;
    widest = Math.max(widest, n >= parts.length ? displayWidth(l) : 1 + displayWidth(`${end()}${l.slice(fileOf(l).length)}`));
  }
  return widest;
}

/** ` (left out: 2 of 6 attempts)` after the filters, or ''. */
const leftOut = (summary: Summary): string => {
  const t = filteredOutText(summary);
  return t ? ` (${t})` : '';
};
