// Secret redaction for everything mcp-triage prints or records: headers, URLs, bodies, error data.
// Every pattern here is linear in its input (token scans and indexOf loops, no nested quantifiers that can
// backtrack), and a cheap pre-check skips strings that cannot hold a secret, because this runs on every printed string.
/** node:crypto is loaded at the first secret found (about 10 ms of start-up that most runs never need). */
let crypto: typeof import('node:crypto') | undefined;
const sha256Hex = (text: string): string => {
  crypto ??= process.getBuiltinModule('node:crypto');
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex');
};

const MARKER_PREFIX = '[redacted:';

/**
 * Replace a secret with a short stable marker that tells values apart without revealing them:
 * `[redacted:` + the first 8 hex digits of the SHA-256 of the secret + `]`. Equal secrets give equal markers.
 */
export function secretMarker(secret: string): string {
  return `${MARKER_PREFIX}${sha256Hex(secret).slice(0, 8)}]`;
}

/** True for a string that starts with a marker made by secretMarker: redaction never re-hashes its own output. */
function isMarker(text: string): boolean {
  return text.startsWith(MARKER_PREFIX);
}

/** Lowercase with separators removed: "X-Api-Key", "x_api_key" and "xApiKey" all become "xapikey". */
function squash(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Header names whose whole value is a credential (squashed form). */
const SECRET_HEADERS = new Set([
  'authorization', 'proxyauthorization', 'cookie', 'cookie2', 'setcookie', 'setcookie2', 'xapikey', 'apikey',
  'xauthtoken', 'xamzsecuritytoken', 'xgoogapikey', 'xfunctionskey', 'ocpapimsubscriptionkey', 'privatetoken',
  'xvaulttoken', 'xaccesstoken', 'xrefreshtoken', 'xcsrftoken', 'xxsrftoken', 'xclientsecret', 'xauth', 'xauthorization',
]);

/** Names that end like a credential but are protocol fields mcp-triage needs or harmless counters. */
const NOT_SECRET_NAMES = new Set([
  'secwebsocketkey', 'idempotencykey', 'mcpsessionid', 'sessionid', 'lasteventid', 'progresstoken', 'pagetoken',
  'nextpagetoken', 'cursor', 'nextcursor', 'tokentype', 'maxtokens', 'inputtokens', 'outputtokens', 'totaltokens',
  'cachekey', 'publickey', 'keyid',
]);

/** Suffixes (squashed) that make a header name, JSON key or URL parameter a credential. */
const SECRET_SUFFIXES = ['token', 'secret', 'password', 'passwd', 'passphrase', 'apikey', 'accesskey', 'secretkey',
  'privatekey', 'authkey', 'subscriptionkey', 'clientkey', 'signingkey', 'masterkey', 'credential', 'credentials'];

function hasSecretSuffix(squashed: string): boolean {
  for (const s of SECRET_SUFFIXES) if (squashed.endsWith(s)) return true;
  return false;
}

/** Every secret name (header, key or parameter) holds one of these; names without any are rejected cheaply. */
const SECRET_NAME_HINT = /auth|cookie|token|secret|pass|pwd|key|credential|jwt|bearer|assertion|sig|code/i;

/** Header names whose values are secrets (compared case-insensitively, "-" and "_" alike). */
export function isSecretHeader(name: string): boolean {
  return namesSecret(name, SECRET_HEADERS);
}

/** Whether a header name or JSON key names a secret: one of `known` (squashed), else not a known harmless name and saying authorization or ending like a secret. */
function namesSecret(name: string, known: ReadonlySet<string>): boolean {
  if (!SECRET_NAME_HINT.test(name)) return false;
  const s = squash(name);
  if (known.has(s)) return true;
  if (NOT_SECRET_NAMES.has(s)) return false;
  return s.includes('authorization') || hasSecretSuffix(s);
}

/** JSON keys (squashed) whose values are secrets. */
const SECRET_KEYS = new Set([
  'authorization', 'proxyauthorization', 'cookie', 'cookies', 'setcookie', 'password', 'passwd', 'pwd', 'passphrase',
  'secret', 'clientsecret', 'apikey', 'xapikey', 'bearer', 'jwt', 'privatekey', 'sessiontoken', 'accesstoken',
  'refreshtoken', 'idtoken', 'authtoken', 'token', 'credentials', 'credential',
]);

/** Whether a JSON object key names a secret ("Authorization", "client_secret", "apiKey", "x-api-key", ...). */
export function isSecretKey(key: string): boolean {
  return namesSecret(key, SECRET_KEYS);
}

/** URL query, fragment and form parameter names whose values are secrets wherever they appear (squashed). */
const SECRET_PARAMS = new Set([
  'accesstoken', 'refreshtoken', 'idtoken', 'token', 'apikey', 'secret', 'clientsecret', 'password', 'passwd', 'pwd',
  'sessiontoken', 'jwt', 'assertion', 'privatetoken', 'authorization', 'xamzsecuritytoken', 'xamzsignature',
  'xamzcredential', 'xgoogsignature', 'xgoogcredential',
]);

/** Short parameter names that are secrets only right after "?", "&", "#" or ";" (so "exit code=1" in prose stays). */
const URL_ONLY_PARAMS = new Set(['key', 'code', 'sig', 'signature', 'auth']);

/** Whether a URL or form parameter name carries a secret (access_token, api_key, client_secret, sig, code, ...). */
export function isSecretParam(name: string): boolean {
  if (!SECRET_NAME_HINT.test(name)) return false;
  const s = squash(name);
  if (SECRET_PARAMS.has(s) || URL_ONLY_PARAMS.has(s)) return true;
  if (NOT_SECRET_NAMES.has(s)) return false;
  return hasSecretSuffix(s);
}

/** Set an own property, also for the key "__proto__" (plain assignment would change the prototype instead). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** A copy of the headers with secret values replaced; other values go through redactText (a Location URL, say). */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(headers)) {
    const v = headers[k];
    if (typeof v !== 'string') setOwn(out, k, v);
    else setOwn(out, k, isSecretHeader(k) ? (isMarker(v) ? v : secretMarker(v)) : redactText(v));
  }
  return out;
}

/** A URL with credentials (user:password@, access_token=, api_key=, sig=, ...) replaced. */
export function redactUrl(url: string): string {
  return redactText(url);
}

/** A path segment that may be a key a hosted server takes in its URL (`/mcp/<key>/sse`): 20 or more token characters, letters and digits both. */
const KEY_LIKE_SEGMENT = /^(?=[^/]*[0-9])(?=[^/]*[A-Za-z])[A-Za-z0-9._~+=-]{20,}$/;

/**
 * An MCP endpoint (a URL without its query) as printed: redactUrl's rules, and also each path segment that may be a
 * key (KEY_LIKE_SEGMENT) and any `;parameter` of a segment (`;jsessionid=...`), by markers that still tell two apart.
 */
export function redactEndpoint(url: string): string {
  const out = redactText(url);
  const at = out.indexOf('://');
  const path = out.indexOf('/', at === -1 ? 0 : at + 3);
  if (path === -1) return out;
  const segments = out.slice(path + 1).split('/').map((seg) => {
    const semi = seg.indexOf(';');
    const head = semi === -1 ? seg : seg.slice(0, semi);
    const kept = isMarker(head) || !KEY_LIKE_SEGMENT.test(head) ? head : secretMarker(head);
    return semi === -1 ? kept : `${kept};${secretMarker(seg.slice(semi + 1))}`;
  });
  return `${out.slice(0, path)}/${segments.join('/')}`;
}

/**
 * Cheap gate: a string without any of these substrings cannot hold anything redactText replaces.
 * One linear pass over literal alternatives.
 */
const MAYBE_SECRET = /eyJ|bearer|basic|token|secret|passw|pwd|key|auth|cookie|credential|jwt|assertion|sk-|sk_|rk_|gh[pousr]_|github_pat_|glpat-|xox[abprs]-|AKIA|ASIA|AIza|:\/\/|=/i;

/** Free text (a body, an error message, a URL) with bearer tokens, JWTs, API keys and key=value secrets replaced. */
export function redactText(text: string): string {
  if (text.length < 8 || !MAYBE_SECRET.test(text)) return text;
  // Whole values first (so a header's marker is the same whether it came from a header map, JSON or text),
  // then credentials recognised by their shape.
  let out = redactPemKeys(text);
  out = redactUserinfo(out);
  out = redactJsonPairs(out);
  out = redactJsonArrays(out);
  out = redactPythonPairs(out);
  out = redactHeaderLines(out);
  out = redactParams(out);
  out = redactSpacedAssignments(out);
  out = redactFlags(out);
  out = redactAuthSchemes(out);
  out = redactTokenShapes(out);
  return out;
}

/**
 * Replace the matches of a global regex for which fn returns a string; the others are left as they are, and when
 * nothing changes the input string itself is returned (no copy: most printed strings hold no secret).
 */
function replaceMatches(text: string, re: RegExp, fn: (m: RegExpExecArray) => string | undefined): string {
  re.lastIndex = 0;
  let out = '';
  let copied = 0;
  let changed = false;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const r = fn(m);
    if (r !== undefined) {
      out += text.slice(copied, m.index) + r;
      copied = m.index + m[0].length;
      changed = true;
    }
    if (m[0].length === 0) re.lastIndex++;
  }
  return changed ? out + text.slice(copied) : text;
}

/**
 * A PEM private key block (`-----BEGIN [RSA |EC |OPENSSH |ENCRYPTED ]PRIVATE KEY-----` ... `-----END ...-----`), also
 * with its newlines written as `\n` inside JSON text: the body between the two labels is replaced (the labels stay,
 * so the report still says a private key was there). A block cut before its END label is replaced up to where its
 * base64 stops. One forward scan: each block's scan starts where the last one stopped.
 */
function redactPemKeys(text: string): string {
  let i = text.indexOf('-----BEGIN ');
  if (i === -1) return text;
  let out = '';
  let copied = 0;
  while (i !== -1) {
    const labelEnd = text.indexOf('-----', i + 11);
    if (labelEnd === -1) break; // no "-----" after it: no later BEGIN either
    if (labelEnd - i > 80) {
      i = text.indexOf('-----BEGIN ', i + 11);
      continue;
    }
    const bodyStart = labelEnd + 5;
    if (!text.slice(i + 11, labelEnd).includes('PRIVATE KEY')) {
      i = text.indexOf('-----BEGIN ', bodyStart);
      continue;
    }
    // Base64, whitespace, escaped newlines (\n, \r), and the Proc-Type/DEK-Info headers of an encrypted key.
    let j = bodyStart;
    while (j < text.length) {
      const c = text.charCodeAt(j);
      if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2b || c === 0x2f ||
        c === 0x3d || c === 0x5c || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x3a || c === 0x2c || c === 0x2d) {
        if (c === 0x2d && text.startsWith('-----END ', j)) break;
        j++;
      } else break;
    }
    // Leading and trailing line breaks (real or escaped) stay around the marker.
    let from = bodyStart;
    let bodyEnd = j;
    for (;;) {
      const c = text[from];
      if (c === '\n' || c === '\r' || c === ' ') from++;
      else if (c === '\\' && (text[from + 1] === 'n' || text[from + 1] === 'r')) from += 2;
      else break;
    }
    while (bodyEnd > from) {
      const c = text[bodyEnd - 1];
      if (c === '\n' || c === '\r' || c === ' ' || c === '\t') bodyEnd--;
      else if ((c === 'n' || c === 'r') && text[bodyEnd - 2] === '\\') bodyEnd -= 2;
      else break;
    }
    const body = text.slice(from, bodyEnd);
    if (body.trim() && !isMarker(body)) {
      out += text.slice(copied, from) + secretMarker(body);
      copied = bodyEnd;
    }
    i = text.indexOf('-----BEGIN ', Math.max(j, bodyStart));
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** `scheme://user:password@host` and `scheme://token@host`: the whole userinfo is replaced. */
function redactUserinfo(text: string): string {
  let i = text.indexOf('://');
  if (i === -1) return text;
  let out = '';
  let copied = 0;
  while (i !== -1) {
    const start = i + 3;
    let j = start;
    // Scan the authority; it stops at the first '/', so the next "://" (which holds a '/') bounds every scan.
    while (j < text.length) {
      const c = text.charCodeAt(j);
      if (c === 0x40 /* @ */ || c === 0x2f || c === 0x3f || c === 0x23 || c <= 0x20 || c === 0x22 || c === 0x27 ||
        c === 0x3c || c === 0x3e || c === 0x5c) break;
      j++;
    }
    if (j < text.length && text.charCodeAt(j) === 0x40 && j > start) {
      const userinfo = text.slice(start, j);
      if (!isMarker(userinfo)) {
        out += text.slice(copied, start) + secretMarker(userinfo);
        copied = j;
      }
    }
    i = text.indexOf('://', Math.max(j, start));
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * The start of a `"key": "value"` pair inside JSON text, up to the value's opening quote. The value itself is read
 * by jsonStringEnd, not by the pattern: a regular expression that walks a string of many megabytes with escapes in it
 * runs out of backtracking stack ("Maximum call stack size exceeded").
 */
const JSON_PAIR_HEAD = /"([^"\\\n]{1,64})"(\s{0,256}:\s{0,256})"/g;
/** The same pair inside a JSON string that itself holds JSON text: `\"key\":\"value\"` (values without escapes). */
const ESCAPED_JSON_PAIR = /\\"([^"\\\n]{1,64})\\"(\s{0,256}:\s{0,256})\\"([^"\\]*)\\"/g;

/** Where the JSON string whose body starts at `from` ends (the index of its closing quote), or -1 when it does not. */
function jsonStringEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i;
    if (c === 0x5c) i++;
  }
  return -1;
}

/** `"key": "value"` inside JSON text (the value may hold escapes): the value of a secret key is replaced. */
function redactJsonPairs(text: string): string {
  if (!text.includes('"')) return text;
  let out = '';
  let copied = 0;
  JSON_PAIR_HEAD.lastIndex = 0;
  for (let m = JSON_PAIR_HEAD.exec(text); m; m = JSON_PAIR_HEAD.exec(text)) {
    const start = JSON_PAIR_HEAD.lastIndex;
    const end = jsonStringEnd(text, start);
    if (end === -1) break; // no closing quote after this one: no later pair can have one either
    JSON_PAIR_HEAD.lastIndex = end + 1; // a pair's value is not searched for more pairs
    const key = m[1]!;
    const value = text.slice(start, end);
    if (!value || !isSecretKey(key) || isMarker(value)) continue;
    out += `${text.slice(copied, m.index)}"${key}"${m[2]}"${secretMarker(unescapeJson(value))}"`;
    copied = end + 1;
  }
  if (copied !== 0) out += text.slice(copied);
  else out = text;
  if (out.includes('\\"')) {
    out = replaceMatches(out, ESCAPED_JSON_PAIR, ([, key, sep, value]) => {
      if (!value || !isSecretKey(key!) || isMarker(value)) return undefined;
      return `\\"${key}\\"${sep}\\"${secretMarker(value)}\\"`;
    });
  }
  return out;
}

/** The start of a `"key": [` array inside JSON text, up to its opening bracket. */
const JSON_ARRAY_HEAD = /"([^"\\\n]{1,64})"(\s{0,256}:\s{0,256})\[/g;

/**
 * `"Cookie": ["sid=…", "csrf=…"]` inside JSON text (Node's `set-cookie` header is an array): each string of an array
 * under a secret key is replaced, as redactValue does for parsed JSON; the array stays an array. An array that holds
 * anything but strings (an object, a number, a nested array) is left from there on as it is.
 */
function redactJsonArrays(text: string): string {
  if (!text.includes('[')) return text;
  let out = '';
  let copied = 0;
  JSON_ARRAY_HEAD.lastIndex = 0;
  for (let m = JSON_ARRAY_HEAD.exec(text); m; m = JSON_ARRAY_HEAD.exec(text)) {
    if (!isSecretKey(m[1]!)) continue;
    let pos = JSON_ARRAY_HEAD.lastIndex;
    for (;;) {
      while (pos < text.length && /\s/.test(text[pos]!)) pos++;
      if (text.charCodeAt(pos) !== 0x22) break;
      const end = jsonStringEnd(text, pos + 1);
      if (end === -1) break;
      const value = text.slice(pos + 1, end);
      if (value && !isMarker(value)) {
        out += `${text.slice(copied, pos + 1)}${secretMarker(unescapeJson(value))}`;
        copied = end;
      }
      pos = end + 1;
      while (pos < text.length && /\s/.test(text[pos]!)) pos++;
      if (text.charCodeAt(pos) !== 0x2c) break;
      pos++;
    }
    JSON_ARRAY_HEAD.lastIndex = Math.max(pos, JSON_ARRAY_HEAD.lastIndex);
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * `'password': 'hunter2'` as Python prints a dict (the Python SDK's DEBUG log, a server's `logger.info(params)`):
 * the value of a secret key, in single or double quotes, is replaced. The value is read by a scan, not the pattern.
 */
const PY_PAIR_HEAD = /'([^'\\\n]{1,64})'([ \t]{0,256}:[ \t]{0,256})(['"])/g;

function redactPythonPairs(text: string): string {
  if (!text.includes("'")) return text;
  let out = '';
  let copied = 0;
  // Where a scan for each quote found its line unclosed: a later value starting before there is unclosed too (no
  // rescan, so a line of many `'k': "` heads stays linear).
  const unclosedUntil = { 0x22: -1, 0x27: -1 } as Record<number, number>;
  PY_PAIR_HEAD.lastIndex = 0;
  for (let m = PY_PAIR_HEAD.exec(text); m; m = PY_PAIR_HEAD.exec(text)) {
    const start = PY_PAIR_HEAD.lastIndex;
    const quote = m[3]!.charCodeAt(0);
    if (start < unclosedUntil[quote]!) continue;
    let end = -1;
    let i = start;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === quote) { end = i; break; }
      if (c === 0x5c) i++;
      else if (c === 0x0a) break;
    }
    if (end === -1) {
      unclosedUntil[quote] = i; // unclosed on its line: the scan goes on after the opening quote
      continue;
    }
    PY_PAIR_HEAD.lastIndex = end + 1;
    const value = text.slice(start, end);
    if (!value || !isSecretKey(m[1]!) || isMarker(value)) continue;
    out += text.slice(copied, start) + secretMarker(value);
    copied = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** The string a JSON string literal's body stands for (so the marker hashes the same secret redactValue sees). */
function unescapeJson(body: string): string {
  if (!body.includes('\\')) return body;
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return body;
  }
}

/**
 * `Authorization: ...`, `Cookie: ...` written as header lines in text: the value up to the end of the line (in JSON
 * text, up to a quote, backslash, comma or brace). Also a quoted key with a bare value, `"password": hunter2`, as
 * found in broken JSON.
 */
const HEADER_NAME = /(?<![A-Za-z0-9_-])([A-Za-z][A-Za-z0-9_-]{0,63})("?)[ \t]*:[ \t]*/g;

function redactHeaderLines(text: string): string {
  if (!text.includes(':')) return text;
  // In JSON text a value also ends at a quote or backslash (so the document stays valid); in plain text, at the line end.
  const json = /^\s*[[{"]/.test(text);
  HEADER_NAME.lastIndex = 0;
  let out = '';
  let copied = 0;
  for (let m = HEADER_NAME.exec(text); m; m = HEADER_NAME.exec(text)) {
    if (!isSecretHeader(m[1]!)) continue; // the scan goes on right after this colon, so "note: Cookie: x" is seen
    const start = HEADER_NAME.lastIndex;
    // A quoted key ("apiKey": ...) is JSON wherever it stands (an SSE data line, a log message): its value ends as
    // JSON values do. A header quoted as a whole (-H "Authorization: Bearer x") ends at its closing quote.
    const quotedKey = m[2] === '"';
    const opener = m.index > 0 ? text.charCodeAt(m.index - 1) : 0;
    const closer = !quotedKey && (opener === 0x22 || opener === 0x27) ? opener : -1;
    const jsonValue = json || quotedKey;
    if (jsonValue && !bareJsonSecret(text, start)) {
      HEADER_NAME.lastIndex = start;
      continue;
    }
    let end = start;
    while (end < text.length) {
      const c = text.charCodeAt(end);
      if (c === 0x0a || c === 0x0d || c === closer || (jsonValue && (c === 0x22 || c === 0x5c || c === 0x2c || c === 0x7d || c === 0x5d))) break;
      end++;
    }
    while (end > start && (text.charCodeAt(end - 1) === 0x20 || text.charCodeAt(end - 1) === 0x09)) end--;
    const value = text.slice(start, end);
    if (value && !isMarker(value)) {
      // A JSON number keeps the document valid as a string marker; a bare word of broken JSON stays bare.
      const marker = secretMarker(value);
      out += text.slice(copied, start) + (jsonValue && /^-?\d/.test(value) ? `"${marker}"` : marker);
      copied = end;
    }
    HEADER_NAME.lastIndex = Math.max(end, start);
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Whether a JSON key's value at `at` is one this pass may replace: a number or a bare word (broken JSON:
 * `"password": hunter2`). A string is redactJsonPairs' (or not a secret's); an object or array (a tool's inputSchema
 * entry for `apiKey`) holds its own pairs; true, false and null hide nothing. Replacing those broke the document.
 */
function bareJsonSecret(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  if (c === 0x22 || c === 0x7b || c === 0x5b || c === 0x5c || Number.isNaN(c)) return false;
  return !/^(?:true|false|null)(?![A-Za-z0-9_])/.test(text.slice(at, at + 6));
}

/**
 * `name=value` in query strings, fragments and form bodies; the value ends at &, #, quotes, space, ; or a backslash.
 * A value that is an auth scheme and its credential (`token=Bearer abc...`) is taken whole: the credential after the
 * space is the secret, not the word Bearer.
 */
const PARAM = /(^|[^A-Za-z0-9_.\-[\]])([A-Za-z0-9_.\-[\]]{1,64})=((?:[Bb](?:earer|EARER|asic|ASIC)[ \t]+[A-Za-z0-9\-._~+/]+=*)|[^&\s"'<>#\\;,)]+)/g;

function redactParams(text: string): string {
  if (!text.includes('=')) return text;
  return replaceMatches(text, PARAM, ([, before, name, value]) => {
    if (!isSecretParam(name!) || isMarker(value!) || /^=+$/.test(value!)) return undefined;
    const urlOnly = URL_ONLY_PARAMS.has(squash(name!));
    if (urlOnly && before !== '?' && before !== '&' && before !== '#' && before !== ';') return undefined;
    return `${before}${name}=${secretMarker(value!)}`;
  });
}

/**
 * `name = value` with spaces around the `=` (an ini or ~/.aws/credentials line, `export TOKEN = …` prose, a Python
 * repr of kwargs): the value of a secret name is replaced. `name=value` without spaces is redactParams'. The short
 * names that are secrets only in a URL (key, code, sig, auth) are not taken here.
 */
const SPACED_ASSIGN = /(?<![A-Za-z0-9_.-])([A-Za-z][A-Za-z0-9_.-]{0,63})([ \t]+=[ \t]*|=[ \t]+)("[^"\n]{1,1000}"|'[^'\n]{1,1000}'|[^\s"'&#;,<>\\]+)/g;

function redactSpacedAssignments(text: string): string {
  if (!text.includes('=')) return text;
  return replaceMatches(text, SPACED_ASSIGN, ([, name, sep, value]) => {
    if (!isSecretParam(name!) || URL_ONLY_PARAMS.has(squash(name!)) || /^=+$/.test(value!)) return undefined;
    return `${name}${sep}${quotedMarker(value!)}`;
  });
}

/** The marker of a value, inside its quotes when it was quoted; a marker is kept as it is. */
function quotedMarker(value: string): string {
  const q = value[0];
  if ((q === '"' || q === "'") && value.length >= 2 && value.endsWith(q)) {
    const inner = value.slice(1, -1);
    return isMarker(inner) ? value : `${q}${secretMarker(inner)}${q}`;
  }
  return isMarker(value) ? value : secretMarker(value);
}

/**
 * A command-line flag and its value, `--password hunter2` or `-api-key "x y"` (a server's command line in a stdio
 * client's log, a tool's shell command): the value after a secret-named flag is replaced. A next flag is no value.
 */
const FLAG = /(?<![A-Za-z0-9_-])(--?)([A-Za-z][A-Za-z0-9_-]{0,63})([ \t]+)("[^"\n]{1,1000}"|'[^'\n]{1,1000}'|[^\s"'<>\\-][^\s"'<>\\]*)/g;

function redactFlags(text: string): string {
  if (!text.includes('-')) return text;
  return replaceMatches(text, FLAG, ([, dashes, name, space, value]) => {
    if (!isSecretParam(name!) || URL_ONLY_PARAMS.has(squash(name!))) return undefined;
    return `${dashes}${name}${space}${quotedMarker(value!)}`;
  });
}

/** `Bearer <token>` and `Basic <base64>` (any case); the scheme word stays, the credential goes. */
const AUTH_SCHEME = /\b(bearer|basic)([ \t]+)([A-Za-z0-9\-._~+/]+=*)/gi;

function redactAuthSchemes(text: string): string {
  return replaceMatches(text, AUTH_SCHEME, ([, scheme, space, cred]) => {
    if (cred!.length < 8) return undefined;
    // Prose such as "Bearer authentication" is not a credential: real tokens are not only letters,
    // and a Basic credential is base64 of "user:password".
    if (/^[A-Za-z]+$/.test(cred!) && !(scheme!.toLowerCase() === 'basic' && isBasicCredential(cred!))) return undefined;
    return `${scheme}${space}${secretMarker(cred!)}`;
  });
}

/** Base64 of printable "user:password". */
function isBasicCredential(cred: string): boolean {
  const text = Buffer.from(cred, 'base64').toString('latin1');
  return text.includes(':') && /^[\x20-\x7e]+$/.test(text);
}

/**
 * Runs of token characters; each is checked for a JWT or a well-known API key shape. Linear: runs never overlap.
 * Bounded, because an unbounded run of many megabytes (a base64 blob) runs out of backtracking stack.
 */
const TOKEN_RUN = /[A-Za-z0-9_\-.]{16,1000000}/g;

function redactTokenShapes(text: string): string {
  return replaceMatches(text, TOKEN_RUN, ([run]) => {
    if (run.includes('eyJ')) {
      const out = redactJwtsInRun(run);
      return out === run ? undefined : out;
    }
    if (looksLikeApiKey(run)) return secretMarker(run);
    // A key glued to a name before it ("tool_sk-..."): the run's tail after a '_', '-' or '.' (keys are short, so only
    // the last KEY_TAIL characters are looked at: a run of many megabytes costs no more).
    for (let i = Math.max(1, run.length - KEY_TAIL); i < run.length - 15; i++) {
      const c = run.charCodeAt(i - 1);
      if ((c === 0x5f || c === 0x2d || c === 0x2e) && looksLikeApiKey(run.slice(i))) return run.slice(0, i) + secretMarker(run.slice(i));
    }
    return undefined;
  });
}

/** The longest tail of a token run looked at for a key glued to what comes before it. */
const KEY_TAIL = 256;

/** JWS/JWT: a base64url header "eyJ...", ".", a payload "eyJ..." and an optional signature segment. */
function redactJwtsInRun(run: string): string {
  const parts = run.split('.');
  const out: string[] = [];
  let changed = false;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const q = parts[i + 1];
    if (p.startsWith('eyJ') && p.length > 3 && q !== undefined && q.startsWith('eyJ') && q.length > 3) {
      let end = i + 2;
      if (end < parts.length && /^[A-Za-z0-9_-]+$/.test(parts[end]!)) end++;
      out.push(secretMarker(parts.slice(i, end).join('.')));
      i = end - 1;
      changed = true;
    } else {
      out.push(p);
    }
  }
  return changed ? out.join('.') : run;
}

/** Well-known API key shapes: sk-/sk_live_ (OpenAI, Anthropic, Stripe), ghp_/github_pat_, glpat-, xoxb-, AKIA, AIza. */
const API_KEY = /^(?:sk-[A-Za-z0-9_-]{16,}|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abprs]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[A-Z0-9]{16}|AIza[A-Za-z0-9_-]{30,})$/;

function looksLikeApiKey(run: string): boolean {
  const c = run.charCodeAt(0);
  // First letters of the shapes above; anything else is skipped without running the pattern.
  if (c !== 0x73 && c !== 0x72 && c !== 0x67 && c !== 0x78 && c !== 0x41) return false;
  // A trailing sentence period is not part of the key. Scanned by hand: /\.+$/ retries from every dot of a run of dots
  // ("sk-" and a 1 MB dotted line took minutes).
  let end = run.length;
  while (end > 0 && run.charCodeAt(end - 1) === 0x2e) end--;
  const r = end === run.length ? run : run.slice(0, end);
  return API_KEY.test(r);
}

/** A deep copy of a JSON value with secrets in keys and strings replaced (iterative: 100,000 levels deep is fine). */
export function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object' || value === null) return value;
  const root: unknown[] = [undefined];
  // Each task copies one node into a slot of its (already copied) parent.
  type Task = { src: unknown; dst: Record<string, unknown> | unknown[]; key: string | number; secret: boolean };
  const stack: Task[] = [{ src: value, dst: root, key: 0, secret: false }];
  while (stack.length) {
    const { src, dst, key, secret } = stack.pop()!;
    const copy = copyNode(src, secret);
    if (typeof key === 'number') (dst as unknown[])[key] = copy;
    else setOwn(dst as Record<string, unknown>, key, copy);
    if (typeof src !== 'object' || src === null) continue;
    if (Array.isArray(src)) {
      const arr = copy as unknown[];
      for (let i = src.length - 1; i >= 0; i--) stack.push({ src: src[i], dst: arr, key: i, secret });
      continue;
    }
    const obj = src as Record<string, unknown>;
    const target = copy as Record<string, unknown>;
    // HAR-style {name, value} pairs: headers, query strings and cookies.
    const pairSecret = typeof obj.name === 'string' && typeof obj.value === 'string' &&
      (isSecretHeader(obj.name) || isSecretParam(obj.name));
    const keys = Object.keys(obj);
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i]!;
      stack.push({ src: obj[k], dst: target, key: k, secret: secret || isSecretKey(k) || (pairSecret && k === 'value') });
    }
  }
  return root[0];
}

/** The copy of one node: a leaf's redacted value, or an empty container to be filled. */
function copyNode(src: unknown, secret: boolean): unknown {
  if (typeof src === 'string') return secret ? (src === '' || isMarker(src) ? src : secretMarker(src)) : redactText(src);
  if (typeof src !== 'object' || src === null) return src;
  if (Array.isArray(src)) return new Array<unknown>(src.length);
  return {};
}
