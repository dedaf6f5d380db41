// A quick reader for plain command lines (files and known options), from the same option table as yargs, so that a
// run need not load yargs (about 100 ms, as long as Node's own start); anything it is not sure of is left to yargs.
import type { Options } from 'yargs';

const PLAIN_NUMBER = /^\d+(?:\.\d+)?$/;

/** What the quick reader made of a command line: the handler's arguments, or a usage error yargs would report too. */
export type PlainArgs = { args: Record<string, unknown> } | { error: string };

/** The usage error for an option that takes one value and was given more than once (the same words from both readers). */
export function repeatedOptionError(name: string, count: number): string {
  return `--${name} given ${count === 2 ? 'twice' : `${count} times`}; give it once`;
}

/** The options of a table that take one value (not lists, not flags): each may be given once. */
const singleValueNames = (table: Record<string, Options>): string[] =>
  Object.entries(table).filter(([, o]) => !o.array && o.type !== 'boolean').map(([name]) => name);

const kebab = (w: string) => w.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Every name an option of the table answers to (its own and its aliases), mapped to its own name. */
function optionNames(table: Record<string, Options>): Map<string, string> {
  const byName = new Map<string, string>();
  for (const [name, o] of Object.entries(table)) {
    byName.set(name, name);
    for (const alias of o.alias === undefined ? [] : Array.isArray(o.alias) ? o.alias : [o.alias]) byName.set(alias, name);
  }
  return byName;
}

/**
 * The usage error for the first option of the table (in the table's order) that takes one value and appears more
 * than once on the command line (--format, -f, --format=x, --maxRows alike), or undefined. Counted on the command line
 * itself, not on what yargs makes of it: yargs turns a repeat into an array, except that a number option given the
 * value 1 is added up as a counter (--window 1 --window 1 is 2, --window 5 --window 1 is 6).
 */
function repeatedOption(argv: string[], table: Record<string, Options>): string | undefined {
  const byName = optionNames(table);
  const counts = new Map<string, number>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (!arg.startsWith('-') || arg === '-' || /^-\d/.test(arg)) continue;
    const eq = arg.indexOf('=');
    const head = eq === -1 ? arg : arg.slice(0, eq);
    const keys = head.startsWith('--') ? [byName.get(head.slice(2)) ?? byName.get(kebab(head.slice(2)))] : [...head.slice(1)].map((c) => byName.get(c));
    for (const key of keys) if (key !== undefined && table[key]!.type !== 'boolean') counts.set(key, (counts.get(key) ?? 0) + 1);
    const last = keys.at(-1);
    if (eq === -1 && last !== undefined && table[last]!.type !== 'boolean') i++; // its value, whatever it looks like
  }
  const name = singleValueNames(table).find((n) => (counts.get(n) ?? 0) > 1);
  return name === undefined ? undefined : repeatedOptionError(name, counts.get(name)!);
}

/**
 * The usage error for the first value on the command line that yargs would take silently and wrongly, or undefined:
 * a number option's value that is not written as a decimal number (yargs reads "" and `--window=` as 0, 0x10 as 16,
 * 1e3 as 1000), a fraction given to an option in `whole` (--max-rows 1.5), and an empty value of an option that takes
 * words or files (`--fail-on ""`, `--tool "$UNSET"`: no condition, no filter, and nothing said), and the negation of
 * an option that takes a value (`--no-window`: yargs reads false, as 0), or a flag given a word (`--strict=yes`). Negative numbers pass
 * here: the range is checked with the option's other values, in the words it has always had.
 */
function badValue(argv: string[], table: Record<string, Options>, whole: ReadonlySet<string> = new Set()): string | undefined {
  const byName = optionNames(table);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (!arg.startsWith('-') || arg === '-' || /^-\d/.test(arg)) continue;
    const eq = arg.indexOf('=');
    const head = eq === -1 ? arg : arg.slice(0, eq);
    // --no-window, --no-tool, --no-since: yargs reads the value false (0, a list of false, a crash), said nowhere.
    const negated = head.startsWith('--no-') && !byName.has(head.slice(2)) ? byName.get(head.slice(5)) ?? byName.get(kebab(head.slice(5))) : undefined;
    if (negated !== undefined && table[negated]!.type !== 'boolean') {
      return negatedOptionError(negated, table[negated]!.choices as unknown[] | undefined);
    }
    const key = head.startsWith('--') ? byName.get(head.slice(2)) ?? byName.get(kebab(head.slice(2))) : byName.get(head.slice(-1));
    const o = key === undefined ? undefined : table[key]!;
    if (o === undefined) continue;
    if (o.type === 'boolean') {
      // --strict=yes: yargs kept the word, taken as true whatever it said.
      const given = arg.slice(eq + 1);
      if (eq !== -1 && given !== 'true' && given !== 'false') return `--${key} takes no value (--${key}, or --no-${key}); got ${JSON.stringify(given)}`;
      continue;
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) break; // a missing value: yargs says so
    const shown = JSON.stringify(value);
    if (o.type === 'number') {
      // Anything not written in decimal digits (abc, 0x10, 1e3, "") is said so, with what was given.
      if (!/^-?\d+(?:\.\d+)?$/.test(value)) return `--${key} needs a number in decimal digits (such as 60 or 1.5); got ${shown}`;
      if (whole.has(key!) && !/^-?\d+$/.test(value)) return `--${key} needs a whole number (such as 20); got ${shown}`;
    } else if (o.choices === undefined && value.split(',').every((v) => v.trim() === '')) {
      return `--${key} needs a value; got ${shown} (an unset shell variable?)`;
    }
  }
  return undefined;
}

/** `--no-color is not an option: --color takes one of auto, always, never (--color never: no colour)`. */
export function negatedOptionError(name: string, choices?: readonly unknown[]): string {
  return `--no-${name} is not an option: --${name} takes ${choices ? `one of ${choices.join(', ')}` : 'a value'}${name === 'color' ? ' (--color never: no colour)' : ''}`;
}

/** A yargs check refusing a value badValue refuses. */
export function valuesChecked(table: Record<string, Options>, argv: string[], whole?: ReadonlySet<string>): () => true {
  return () => {
    const error = badValue(argv, table, whole);
    if (error !== undefined) throw new Error(error);
    return true;
  };
}

/** A yargs check refusing an option of the table that takes one value and was given more than once on this command line. */
export function onceOnly(table: Record<string, Options>, argv: string[]): () => true {
  return () => {
    const error = repeatedOption(argv, table);
    if (error !== undefined) throw new Error(error);
    return true;
  };
}

/**
 * The arguments yargs would give the command handler for this command line (kebab-case keys, defaults filled,
 * positionals under `files`), or the usage error yargs would report for an option that takes one value given more
 * than once (in an otherwise plain line), or undefined when the line needs yargs: help, version, unknown options,
 * missing or unusual values, anything else yargs would report as a usage error. A test holds the two to the same result.
 */
export function readPlainArgs(argv: string[], table: Record<string, Options>, whole?: ReadonlySet<string>): PlainArgs | undefined {
  const byName = optionNames(table);
  const out: Record<string, unknown> = {};
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      files.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      files.push(arg);
      continue;
    }
    let name: string;
    let value: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      value = eq === -1 ? undefined : arg.slice(eq + 1);
    } else {
      if (arg.length !== 2) return undefined; // -qf, -f=json: grouped or unusual short forms
      name = arg.slice(1);
    }
    let key = byName.get(name);
    let negated = false;
    if (key === undefined && name.startsWith('no-')) {
      key = byName.get(name.slice(3));
      negated = true;
    }
    if (key === undefined) return undefined;
    const o = table[key]!;
    if (negated && o.type !== 'boolean') return undefined;
    if (o.type === 'boolean') {
      if (key in out) return undefined; // a flag given twice: yargs keeps the last
      const next = argv[i + 1];
      if (value !== undefined || next === 'true' || next === 'false') return undefined;
      out[key] = !negated;
      continue;
    }
    if (value === undefined) {
      value = argv[++i];
      if (value === undefined || value.startsWith('-')) return undefined; // a missing value, or one yargs reads as an option
    }
    if (value === '') return undefined;
    let parsed: string | number = value;
    if (o.type === 'number') {
      if (!PLAIN_NUMBER.test(value)) return undefined;
      parsed = Number(value);
    }
    if (o.choices !== undefined && !(o.choices as unknown[]).includes(parsed)) return undefined;
    if (o.array) ((out[key] ??= []) as unknown[]).push(parsed);
    else out[key] ??= parsed;
  }
  // Given twice: a usage error, once the rest of the line is known to be plain (yargs would report anything else first).
  const repeated = repeatedOption(argv, table);
  if (repeated !== undefined) return { error: repeated };
  const bad = badValue(argv, table, whole);
  if (bad !== undefined) return { error: bad };
  for (const [name, o] of Object.entries(table)) if (!(name in out) && o.default !== undefined) out[name] = o.default;
  if (files.length > 0) out.files = files;
  return { args: out };
}
