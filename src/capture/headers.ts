// Header shapes met while capturing (fetch Headers, Node incoming/outgoing headers, raw pairs) flattened to one record.

export type FlatHeaders = Record<string, string>;

/** fetch `Headers` (names already lowercase; repeated values joined by ", "). */
export function fromFetchHeaders(headers: Headers): FlatHeaders {
  const out: FlatHeaders = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/** Node `rawHeaders` ([name, value, name, value, ...]) with names lowercased and repeats joined by ", ". */
export function fromRawHeaders(raw: readonly string[]): FlatHeaders {
  const out: FlatHeaders = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = String(raw[i]).toLowerCase();
    const value = String(raw[i + 1]);
    out[name] = name in out ? `${out[name]}, ${value}` : value;
  }
  return out;
}

/** Node outgoing headers (`res.getHeaders()` or a writeHead argument: object, flat array or pairs). */
export function fromNodeHeaders(headers: unknown): FlatHeaders {
  if (headers === null || headers === undefined) return {};
  if (Array.isArray(headers)) {
    const flat = headers.every((h) => Array.isArray(h)) ? (headers as unknown[][]).flat() : headers;
    return fromRawHeaders(flat.map((v) => String(v)));
  }
  if (typeof headers !== 'object') return {};
  const out: FlatHeaders = {};
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.map(String).join(', ') : String(value);
  }
  return out;
}

/** The media type without parameters, lowercase ("text/event-stream; charset=utf-8" -> "text/event-stream"). */
export function mediaType(headers: FlatHeaders): string {
  return (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}
