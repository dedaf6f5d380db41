// Checking the analysis options once for both doors, the CLI's flags and the library's options: a bad value is an OptionError naming the option, the value and what is allowed.
import { ALL_FORMATS, formatByName } from './formats/index.js';
import { isValidTimezone } from './formats/time.js';
import { nearest } from './suggest.js';
import type { AnalyzeOptions } from './analyze.js';
import type { AnalysisOptions } from './index.js';
import type { FilterOptions } from './filter.js';
import type { CallPolicy } from './findings/rules.js';
import type { InputSpec } from './ingest.js';

/**
 * An analysis option with a value it cannot take (thrown by analyze() and streamAnalysis() before anything is read;
 * the CLI reports it as a usage error, exit 2). `option` names it as the library spells it (`windowMs`,
 * `inputs[0].side`), `value` is the value given.
 */
export class OptionError extends TypeError {
  override name = 'OptionError';
  constructor(readonly option: string, readonly value: unknown, message: string) {
    super(message);
  }
}

/** The shortest --max-line-bytes / maxLineBytes: below it nearly every MCP line would be over the limit (unusable). */
export const MIN_LINE_BYTES = 1024;

/** Whose words a message uses: the library's option names, or the CLI's flags (whose messages stay as they were). */
type Naming = 'library' | 'cli';

/** The options the checks read: the library's analysis settings (the CLI converts its flags to these first). */
export type CheckedOptions = Pick<AnalyzeOptions, 'inputFormat' | 'maxLineBytes' | 'windowMs' | 'retryWindowMs' | 'skewMs' | 'orderToleranceMs' | 'timezone' | 'inputOrder' | 'idempotent' | 'policy'> & {
  inputs?: unknown;
};

interface NumberRule {
  option: string;
  flag: string;
  min: number;
  unit: string;
  /** The flag takes seconds where the option takes milliseconds. */
  flagInSeconds?: true;
  get: (o: CheckedOptions) => unknown;
}

/** The numeric settings, in the order the CLI has always checked them. */
const NUMBER_RULES: NumberRule[] = [
  { option: 'windowMs', flag: 'window', min: 0, unit: 'ms', flagInSeconds: true, get: (o) => o.windowMs },
  { option: 'retryWindowMs', flag: 'retry-window', min: 0, unit: 'ms', flagInSeconds: true, get: (o) => o.retryWindowMs },
  { option: 'skewMs', flag: 'skew', min: 0, unit: 'ms', flagInSeconds: true, get: (o) => o.skewMs },
  { option: 'orderToleranceMs', flag: 'order-tolerance', min: 0, unit: 'ms', flagInSeconds: true, get: (o) => o.orderToleranceMs },
  { option: 'maxLineBytes', flag: 'max-line-bytes', min: MIN_LINE_BYTES, unit: 'bytes', get: (o) => o.maxLineBytes },
  { option: 'policy.maxRetries', flag: 'max-retries', min: 0, unit: 'retries', get: (o) => o.policy?.maxRetries },
  { option: 'policy.minDelayMs', flag: 'min-retry-delay', min: 0, unit: 'ms', get: (o) => o.policy?.minDelayMs },
];

const INPUT_ORDERS = ['auto', 'oldest-first', 'newest-first'] as const;
const SIDES = ['client', 'server'] as const;

/** A value as a message quotes it: strings in double quotes (cut when long), NaN and -1 as such, objects by their JSON. */
function shown(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' || v === undefined || v === null) return String(v);
  if (typeof v === 'symbol' || typeof v === 'function') return typeof v;
  try {
    const json = JSON.stringify(v);
    return json.length > 80 ? `${json.slice(0, 80)}…` : json;
  } catch {
    return typeof v;
  }
}

const hint = (word: unknown, known: readonly string[]) => {
  const near = typeof word === 'string' ? nearest(word, known) : undefined;
  return near ? `; did you mean ${near}?` : '';
};

function checkNumbers(o: CheckedOptions, naming: Naming): OptionError | undefined {
  if (o.policy !== undefined && (typeof o.policy !== 'object' || o.policy === null)) {
    return new OptionError('policy', o.policy, `policy needs an object { maxRetries, minDelayMs }; got ${shown(o.policy)}`);
  }
  for (const r of NUMBER_RULES) {
    const v = r.get(o);
    if (v === undefined && !r.option.startsWith('policy.')) continue; // the default
    if (o.policy === undefined && r.option.startsWith('policy.')) continue;
    if (typeof v === 'number' && Number.isFinite(v) && v >= r.min) continue;
    const message = naming === 'cli' ? `--${r.flag} needs a number of ${r.min} or more; got ${shown(r.flagInSeconds && typeof v === 'number' ? v / 1000 : v)}` : `${r.option} needs a number of ${r.min} or more (${r.unit}); got ${shown(v)}`;
    return new OptionError(r.option, v, message);
  }
  return undefined;
}

function checkInputFormat(v: unknown, naming: Naming): OptionError | undefined {
  if (v === undefined || (typeof v === 'string' && (v === 'har' || formatByName(v)))) return undefined;
  const known = [...new Set(['har', ...ALL_FORMATS.map((f) => f.name)])];
  const what = typeof v === 'string' ? `"${v}"` : shown(v);
  return new OptionError('inputFormat', v, `${naming === 'cli' ? '--input-format' : 'inputFormat'}: unknown format ${what}${hint(v, known)}; known: ${known.join(', ')}`);
}

function checkTimezone(v: unknown, naming: Naming): OptionError | undefined {
  if (v === undefined || (typeof v === 'string' && isValidTimezone(v))) return undefined;
  const what = typeof v === 'string' ? `"${v}"` : shown(v);
  return new OptionError('timezone', v, `${naming === 'cli' ? '--timezone' : 'timezone'}: ${what} is neither an offset like +02:00 nor an IANA zone name`);
}

function checkInputOrder(v: unknown, naming: Naming): OptionError | undefined {
  if (v === undefined || (INPUT_ORDERS as readonly unknown[]).includes(v)) return undefined;
  return new OptionError('inputOrder', v, `${naming === 'cli' ? '--input-order' : 'inputOrder'}: ${shown(v)} is not one of ${INPUT_ORDERS.join(', ')}${hint(v, INPUT_ORDERS)}`);
}

/**
 * The names each options object takes. Typed as a Record of the option type's keys, so that an option added to the
 * type and not here (or here and not to the type) fails to compile: the list cannot drift from the type.
 */
const OPTION_NAMES: Record<keyof AnalysisOptions, true> = {
  inputs: true, stdin: true, redact: true, filter: true, now: true, inputFormat: true, maxLineBytes: true, windowMs: true,
  retryWindowMs: true, skewMs: true, orderToleranceMs: true, timezone: true, unwrap: true, strict: true, inputOrder: true,
  idempotent: true, policy: true, onDiagnostic: true, onProgress: true,
};
const FILTER_NAMES: Record<keyof FilterOptions, true> = { session: true, method: true, tool: true, target: true, outcome: true, code: true, since: true, until: true };
const POLICY_NAMES: Record<keyof CallPolicy, true> = { maxRetries: true, minDelayMs: true };
const INPUT_NAMES: Record<keyof InputSpec, true> = { path: true, side: true };

/** A name without case, dashes or underscores: `max-line-bytes`, `MaxLineBytes` and `max_line_bytes` are alike. */
const squashed = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');

/**
 * The known name an unknown one most likely meant: the same name in other case or kebab-case (`windowMS`,
 * `max-line-bytes`), a CLI flag whose name lacks the unit (`retry-window` for `retryWindowMs`), a filter or policy
 * setting given at the top (`session` for `filter.session`), else the nearest by edit distance.
 */
function meant(key: string, known: string[], nested: string[]): string | undefined {
  const k = squashed(key);
  return known.find((n) => squashed(n) === k || squashed(n) === `${k}ms`)
    ?? nested.find((n) => squashed(n.slice(n.indexOf('.') + 1)) === k)
    ?? nearest(key, known);
}

/** The first name of `o` (an options object) that `names` does not hold, as an OptionError that says what was meant. */
function unknownName(o: unknown, names: Record<string, true>, at = '', nested: string[] = []): OptionError | undefined {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return undefined;
  for (const key of Object.keys(o)) {
    if (Object.hasOwn(names, key)) continue;
    const known = Object.keys(names);
    const near = meant(key, known, nested);
    const said = near === undefined ? `known: ${known.join(', ')}` : `did you mean '${near.includes('.') ? near : at + near}'?`;
    return new OptionError(at + key, (o as Record<string, unknown>)[key], `unknown option '${at}${key}'; ${said}`);
  }
  return undefined;
}

/** Option names the library does not know, at the top and in `filter` and `policy` (an input's names: checkInputs). */
function checkNames(o: object): OptionError | undefined {
  const nested = [...Object.keys(FILTER_NAMES).map((n) => `filter.${n}`), ...Object.keys(POLICY_NAMES).map((n) => `policy.${n}`)];
  const { filter, policy } = o as { filter?: unknown; policy?: unknown };
  return unknownName(o, OPTION_NAMES, '', nested) ?? unknownName(filter, FILTER_NAMES, 'filter.') ?? unknownName(policy, POLICY_NAMES, 'policy.');
}

/** The inputs as data: a list of { path, side? }, path a file or "-", side client or server (none: stated by the records). */
function checkInputs(v: unknown): OptionError | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) return new OptionError('inputs', v, `inputs needs a list of { path, side? }; got ${shown(v)}`);
  for (const [i, spec] of v.entries()) {
    const at = `inputs[${i}]`;
    if (typeof spec !== 'object' || spec === null) return new OptionError(at, spec, `${at} needs an object { path, side? }; got ${shown(spec)}`);
    const { path, side } = spec as { path?: unknown; side?: unknown };
    if (typeof path !== 'string' || path === '') return new OptionError(`${at}.path`, path, `${at}.path needs a file path, or "-" for the stdin stream; got ${shown(path)}`);
    if (side !== undefined && !(SIDES as readonly unknown[]).includes(side)) {
      return new OptionError(`${at}.side`, side, `${at}.side: ${shown(side)} is not one of ${SIDES.join(', ')} (or leave it out: the records say)${hint(side, SIDES)}`);
    }
    const bad = unknownName(spec, INPUT_NAMES, `${at}.`);
    if (bad) return bad;
  }
  return undefined;
}

function checkIdempotent(v: unknown): OptionError | undefined {
  if (v === undefined || (Array.isArray(v) && v.every((t) => typeof t === 'string'))) return undefined;
  return new OptionError('idempotent', v, `idempotent needs a list of tool names; got ${shown(v)}`);
}

/**
 * What is wrong with the first option that has a value it cannot take, in the CLI's order (the numbers, the input
 * format, the time zone, then what only the library can be given wrong), or undefined when all are usable.
 */
export function optionError(o: CheckedOptions, naming: Naming = 'library'): OptionError | undefined {
  return checkNumbers(o, naming)
    ?? checkInputFormat(o.inputFormat, naming)
    ?? checkTimezone(o.timezone, naming)
    ?? checkInputOrder(o.inputOrder, naming)
    ?? checkInputs(o.inputs)
    ?? checkIdempotent(o.idempotent);
}

/**
 * Throw the OptionError of the first option name the library does not know (a typo, a CLI flag's name: it would be
 * ignored), else of the first option with a value it cannot take.
 */
export function checkOptions(o: CheckedOptions): void {
  const e = checkNames(o) ?? optionError(o, 'library');
  if (e) throw e;
}
