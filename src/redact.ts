// Secret redaction for everything mcp-triage prints or records: headers, URLs, bodies, error data.
// (API fixed; implementation owned by the hostile-input work.)

/** Replace a secret with a short stable marker that tells values apart without revealing them. */
export function secretMarker(secret: string): string {
  return `[redacted:${secret.length}]`;
}

/** Header names whose values are secrets (compared lowercase). */
export function isSecretHeader(name: string): boolean {
  return /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|x-auth-token)$/i.test(name);
}

/** A copy of the headers with secret values replaced. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = isSecretHeader(k) ? secretMarker(v) : v;
  return out;
}

/** A URL with credentials (user:password@, access_token=, api_key=, ...) replaced. */
export function redactUrl(url: string): string {
  return url;
}

/** Free text (a body, an error message) with bearer tokens, JWTs and key=value secrets replaced. */
export function redactText(text: string): string {
  return text;
}

/** A deep copy of a JSON value with secrets in keys and strings replaced. */
export function redactValue(value: unknown): unknown {
  return value;
}
