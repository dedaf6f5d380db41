// Reading a report's box-drawn tables back from its text: rows with their cells' lines, the lines across the table above and under them, and the lines between tables.

export interface TextRow {
  /** Per column, the cell's lines (trimmed). */
  cells: string[][];
  /** Lines across the table over the row (a column that names its row: `session: ...`). */
  above: string[];
  /** Lines across the table under the row (a column too narrow for its text: `notes: ...`). */
  under: string[];
}

export interface TextTable {
  head: string[][];
  rows: TextRow[];
}

const SGR = /\u001b\[[0-9;]*m/g;
export const plain = (s: string): string => s.replace(SGR, '');
/** Text without any white space: a wrapped cell and the same text on one line compare equal. */
export const squeeze = (s: string): string => s.replace(/\s+/g, '');

/**
 * The tables of a report, in order, and the lines outside them. A block of lines across the table is taken as over
 * the next row when its first line starts with one of `aboveHeads` and a colon (`session: `), else as under the row
 * before it.
 */
export function readTables(text: string, aboveHeads: string[] = []): { tables: TextTable[]; outside: string[] } {
  const tables: TextTable[] = [];
  const outside: string[] = [];
  let table: TextTable | undefined;
  let block: string[][] = [];
  let pending: string[] = []; // lines across the table, waiting for the row under them
  const flush = () => {
    if (!table || block.length === 0) return;
    if (block[0]!.length === 1 && table.head.length > 1) {
      const lines = block.map((l) => l[0]!);
      if (aboveHeads.some((h) => lines[0]!.startsWith(`${h}: `))) pending.push(...lines);
      else table.rows.at(-1)?.under.push(...lines);
    } else {
      const cells = block[0]!.map((_, c) => block.map((l) => l[c] ?? ''));
      if (table.head.length === 0) table.head = cells;
      else {
        table.rows.push({ cells, above: pending, under: [] });
        pending = [];
      }
    }
    block = [];
  };
  for (const raw of text.split('\n')) {
    const line = plain(raw);
    if (line.startsWith('┌')) {
      table = { head: [], rows: [] };
      tables.push(table);
    } else if (line.startsWith('│') && table) block.push(line.slice(1, -1).split('│').map((c) => c.trim()));
    else if (/^[├└]/.test(line)) {
      flush();
      if (line.startsWith('└')) table = undefined;
    } else outside.push(line);
  }
  return { tables, outside };
}

/** All a row shows, without white space: what is over it, its cells column by column, what is under it. */
export const rowText = (r: TextRow): string => squeeze([...r.above, ...r.cells.flat(), ...r.under].join(''));
