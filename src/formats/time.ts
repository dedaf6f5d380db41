// Timestamp normalisation for every input format: ISO 8601 (any zone or none), epoch s/ms/µs/ns -> epoch milliseconds.

/** Epoch values below this are seconds (up to year 5138); below 1e14 milliseconds; below 1e17 microseconds; else nanoseconds. */
const SECONDS_BELOW = 1e11;
const MILLIS_BELOW = 1e14;
const MICROS_BELOW = 1e17;

/**
 * A point in time as epoch milliseconds (fractional when the source is finer), or undefined when `v` is not a time.
 * Accepts ISO 8601 with `Z`, with an offset (`+02:00`, `+0200`), or with no zone (read in `timezone`: an offset such
 * as "+02:00" or an IANA name such as "Europe/Paris"; default UTC), a space instead of `T`, any number of fraction
 * digits after a dot or a comma; and epoch seconds, milliseconds, microseconds or nanoseconds as numbers or digit strings (unit by magnitude).
 */
export function parseTimestamp(v: unknown, timezone?: string): number | undefined {
  const ms = parseAny(v, timezone);
  // Beyond what a Date can hold (1e22 read as nanoseconds is year 318857): no time, rather than a crash when printed.
  return ms !== undefined && ms <= MAX_TIME_MS && ms >= -MAX_TIME_MS ? ms : undefined;
}

/** The largest epoch milliseconds a Date holds (the year 275760). */
const MAX_TIME_MS = 8.64e15;

/** Longest duration taken from a log (about 31 years); a larger one is a broken value, not a call's length. */
const MAX_DURATION_MS = 1e12;

/** A duration as logged, when it is one: finite, not negative, not absurd. */
export function durationOf(v: number | undefined): number | undefined {
  return v !== undefined && v >= 0 && v <= MAX_DURATION_MS ? v : undefined;
}

/** ISO 8601 text of epoch milliseconds, or undefined when there is no such time (never throws). */
export function isoTime(ms: number | undefined): string | undefined {
  if (ms === undefined || !(ms <= MAX_TIME_MS && ms >= -MAX_TIME_MS)) return undefined;
  if (ms < 0) return new Date(ms).toISOString();
  // Report rows come in time order, many in one second: the text up to the second is made once per second.
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoPrefix = new Date(second * 1000).toISOString().slice(0, -4);
  }
  const milli = Math.floor(ms - second * 1000);
  if (milli < 0 || milli > 999) return new Date(ms).toISOString(); // a division that rounded up to the next second
  return `${isoPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
let isoSecond = NaN;
let isoPrefix = '';

function parseAny(v: unknown, timezone?: string): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? fromEpoch(v) : undefined;
  if (typeof v !== 'string' || v.length === 0) return undefined;
  const c0 = v.charCodeAt(0);
  if (c0 < 48 || c0 > 57) return v.length < 64 ? fallbackParse(v) : undefined;
  // Fast path: the common `2026-03-01T10:00:00.120Z` (toISOString) shape.
  if (v.length === 24 && v.charCodeAt(23) === 90 /* Z */ && v.charCodeAt(10) === 84 /* T */) {
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? undefined : ms;
  }
  if (isEpochDigits(v)) return epochString(v);
  if (v.length > 64 || v.charCodeAt(4) !== 45 /* - */) return fallbackParse(v);
  return parseIso(v, timezone);
}

function fromEpoch(n: number): number {
  if (n < SECONDS_BELOW) return n * 1000;
  if (n < MILLIS_BELOW) return n;
  if (n < MICROS_BELOW) return n / 1000;
  return n / 1e6;
}

function isEpochDigits(s: string): boolean {
  let dot = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46 /* . */ && !dot && i > 0 && i < s.length - 1) dot = true;
    else if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Digit strings keep sub-millisecond precision that Number() would lose on 19-digit nanosecond values. */
function epochString(s: string): number | undefined {
  const dot = s.indexOf('.');
  const intPart = dot === -1 ? s : s.slice(0, dot);
  if (intPart.length > 16) {
    // Nanoseconds (19 digits today): split so the millisecond part stays exact.
    const ms = Number(intPart.slice(0, -6));
    const rest = Number(intPart.slice(-6)) / 1e6;
    return ms + rest;
  }
  const n = Number(s);
  return Number.isFinite(n) ? fromEpoch(n) : undefined;
}

/** ISO 8601 date-time with or without zone, with fraction digits beyond milliseconds kept. */
function parseIso(raw: string, timezone?: string): number | undefined {
  let s = raw.charCodeAt(10) === 32 /* space */ ? `${raw.slice(0, 10)}T${raw.slice(11)}` : raw;
  // ISO 8601 allows a comma before the fraction; Python's logging writes its asctime so (2026-03-01 10:00:00,120).
  if (s.charCodeAt(19) === 44 /* , */) s = `${s.slice(0, 19)}.${s.slice(20)}`;
  if (s.length === 10) s += 'T00:00:00';
  const zoneAt = zoneStart(s);
  const local = zoneAt === -1 ? s : s.slice(0, zoneAt);
  let zone = zoneAt === -1 ? '' : s.slice(zoneAt);
  if (zone.length === 5 && zone.charCodeAt(0) !== 90) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`; // +0200 -> +02:00
  if (zone === 'z') zone = 'Z';
  // Fraction digits: Date.parse keeps milliseconds; add the finer part ourselves.
  let extra = 0;
  let base = local;
  const dot = local.indexOf('.', 19);
  if (dot !== -1) {
    const frac = local.slice(dot + 1);
    if (!/^\d+$/.test(frac)) return undefined;
    base = `${local.slice(0, dot)}.${(frac + '000').slice(0, 3)}`;
    if (frac.length > 3) extra = Number(`0.${frac.slice(3)}`);
  }
  if (zone) {
    const ms = Date.parse(base + zone);
    return Number.isNaN(ms) ? undefined : ms + extra;
  }
  const asUtc = Date.parse(`${base}Z`);
  if (Number.isNaN(asUtc)) return undefined;
  const offsetMs = zoneOffsetMs(timezone, asUtc);
  return offsetMs === undefined ? undefined : asUtc - offsetMs + extra;
}

/** Index where a trailing zone designator (Z, +hh:mm, -hhmm, +hh) starts, or -1. Only looks after the time part. */
function zoneStart(s: string): number {
  const last = s.charCodeAt(s.length - 1);
  if (last === 90 || last === 122) return s.length - 1; // Z or z
  for (let i = s.length - 1; i >= 16 && i >= s.length - 6; i--) {
    const c = s.charCodeAt(i);
    if (c === 43 || c === 45) return i; // + or -
  }
  return -1;
}

const OFFSET_RE = /^([+-])(\d{2}):?(\d{2})$/;
const zoneFormats = new Map<string, Intl.DateTimeFormat | null>();

/** Offset of `timezone` from UTC at (about) the given instant, in ms; undefined for an unknown zone. */
function zoneOffsetMs(timezone: string | undefined, approxUtc: number): number | undefined {
  if (!timezone || timezone === 'UTC' || timezone === 'Z' || timezone === 'utc') return 0;
  const m = OFFSET_RE.exec(timezone);
  if (m) return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000;
  const fmt = zoneFormat(timezone);
  if (!fmt) return undefined;
  // Offsets change at most on the quarter hour: cache per zone and wall-clock quarter hour (Intl is slow).
  const key = `${timezone}|${Math.floor(approxUtc / 900_000)}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  // Wall time read as UTC, shifted by the zone's offset; a second pass settles DST edges.
  const first = offsetAt(fmt, approxUtc);
  const second = offsetAt(fmt, approxUtc - first);
  if (offsetCache.size >= 4096) offsetCache.clear();
  offsetCache.set(key, second);
  return second;
}

const offsetCache = new Map<string, number>();

function zoneFormat(timezone: string): Intl.DateTimeFormat | null {
  let fmt = zoneFormats.get(timezone);
  if (fmt === undefined) {
    try {
      fmt = new Intl.DateTimeFormat('en-US', {
        timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
        hour: 'numeric', minute: 'numeric', second: 'numeric',
      });
    } catch {
      fmt = null;
    }
    zoneFormats.set(timezone, fmt);
  }
  return fmt;
}

function offsetAt(fmt: Intl.DateTimeFormat, utcMs: number): number {
  const parts: Record<string, number> = {};
  for (const p of fmt.formatToParts(new Date(utcMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wall = Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return wall - Math.floor(utcMs / 1000) * 1000;
}

/** True when `timezone` is usable by parseTimestamp (for validating a command-line option). */
export function isValidTimezone(timezone: string): boolean {
  return timezone === 'UTC' || OFFSET_RE.test(timezone) || zoneFormat(timezone) !== null;
}

/** Other textual dates (RFC 2822 and the like), only when they name their zone. */
function fallbackParse(s: string): number | undefined {
  if (!/(?:GMT|UTC|Z|[+-]\d{4})\s*$/.test(s)) return undefined;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? undefined : ms;
}
