// A quick reader for plain command lines (files and known options), from the same option table as yargs, so that a
// run need not load yargs (about 100 ms, as long as Node's own start); anything it is not sure of is left to yargs.
import type { Options } from 'yargs';

const PLAIN_NUMBER = /^\d+(?:\.\d+)?$/;

/**
 * The arguments yargs would give the command handler for this command line (kebab-case keys, defaults filled,
 * positionals under `files`), or undefined when the line needs yargs: help, version, unknown or repeated options,
 * missing or unusual values, anything yargs would report as a usage error. A test holds the two to the same result.
 */
export function readPlainArgs(argv: string[], table: Record<string, Options>): Record<string, unknown> | undefined {
  const byName = new Map<string, string>();
  for (const [name, o] of Object.entries(table)) {
    byName.set(name, name);
    for (const alias of o.alias === undefined ? [] : Array.isArray(o.alias) ? o.alias : [o.alias]) byName.set(alias, name);
  }
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
    if (key in out && !o.array) return undefined; // repeated single value: yargs makes an array of it, then complains
    if (o.type === 'boolean') {
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
    else out[key] = parsed;
  }
  for (const [name, o] of Object.entries(table)) if (!(name in out) && o.default !== undefined) out[name] = o.default;
  if (files.length > 0) out.files = files;
  return out;
}
