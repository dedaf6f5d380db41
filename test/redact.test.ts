// Unit tests for src/redact.ts: what is redacted, how it is marked, what is left alone, and speed on hostile strings.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isSecretHeader, isSecretKey, isSecretParam, redactHeaders, redactText, redactUrl, redactValue, secretMarker } from '../src/redact.js';

const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTQyIiwiaWF0IjoxNzMzMTQ1NjAwfQ.Zq3bJ0m7c2vXyR8kT1nWq9pLs4dF6gH2jK5lM8nB0vC';
const GH = 'ghp_R8kT1nWq9pLs4dF6gH2jK5lM8nB0vCx7yZaQ';
const SK = 'sk-proj-4f8Qk2LmN7pR1sT9vX3zB6dH0jW5yC8e';

function hash8(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, 8);
}

describe('secretMarker', () => {
  it('is [redacted:<first 8 hex of sha256>] and never contains the secret', () => {
    expect(secretMarker('hunter2-hunter2')).toBe(`[redacted:${hash8('hunter2-hunter2')}]`);
    expect(secretMarker('hunter2-hunter2')).not.toContain('hunter2');
  });
  it('tells different secrets apart and keeps equal ones equal', () => {
    expect(secretMarker('token-a')).not.toBe(secretMarker('token-b'));
    expect(secretMarker('token-a')).toBe(secretMarker('token-a'));
  });
  it('does not reveal the length of the secret', () => {
    expect(secretMarker('x').length).toBe(secretMarker('x'.repeat(500)).length);
  });
});

describe('isSecretHeader', () => {
  it.each(['Authorization', 'proxy-authorization', 'Cookie', 'Set-Cookie', 'X-Api-Key', 'api-key', 'X-Auth-Token',
    'X-Amz-Security-Token', 'X-Goog-Api-Key', 'X-Vault-Token', 'X-Client-Secret', 'X-Csrf-Token', 'Ocp-Apim-Subscription-Key',
    'X_API_KEY', 'X-Upstream-Authorization'])('%s is secret', (name) => {
    expect(isSecretHeader(name)).toBe(true);
  });
  it.each(['Content-Type', 'Mcp-Session-Id', 'Last-Event-ID', 'Sec-WebSocket-Key', 'Idempotency-Key', 'Retry-After',
    'MCP-Protocol-Version', 'Accept', 'User-Agent'])('%s is not secret', (name) => {
    expect(isSecretHeader(name)).toBe(false);
  });
});

describe('isSecretKey and isSecretParam', () => {
  it('recognises secret JSON keys in any spelling, but not MCP protocol fields', () => {
    for (const k of ['password', 'clientSecret', 'client_secret', 'apiKey', 'access_token', 'refreshToken', 'Authorization', 'cookie', 'privateKey', 'db_password'])
      expect(isSecretKey(k), k).toBe(true);
    for (const k of ['progressToken', 'nextCursor', 'sessionId', 'max_tokens', 'name', 'code', 'key', 'signature', 'token_type'])
      expect(isSecretKey(k), k).toBe(false);
  });
  it('recognises secret URL parameters', () => {
    for (const k of ['access_token', 'token', 'api_key', 'apikey', 'key', 'secret', 'password', 'sig', 'signature', 'code', 'client_secret', 'X-Amz-Security-Token', 'X-Amz-Signature'])
      expect(isSecretParam(k), k).toBe(true);
    for (const k of ['page', 'q', 'state', 'redirect_uri', 'session'])
      expect(isSecretParam(k), k).toBe(false);
  });
});

describe('redactHeaders', () => {
  it('replaces secret values with their marker and keeps the rest', () => {
    const h = { Authorization: 'Bearer abc.def-123456', 'Content-Type': 'application/json', cookie: 'sid=s3cr3t; theme=dark', 'mcp-session-id': 'sess-1' };
    expect(redactHeaders(h)).toEqual({
      Authorization: secretMarker('Bearer abc.def-123456'),
      'Content-Type': 'application/json',
      cookie: secretMarker('sid=s3cr3t; theme=dark'),
      'mcp-session-id': 'sess-1',
    });
  });
  it('redacts credentials inside other header values (a Location URL)', () => {
    const out = redactHeaders({ Location: 'https://app.example/cb?code=4/0AfJohXk&state=xyz' });
    expect(out.Location).toBe(`https://app.example/cb?code=${secretMarker('4/0AfJohXk')}&state=xyz`);
  });
  it('keeps a header named __proto__ as an own property without touching prototypes', () => {
    const h = JSON.parse('{"__proto__":"x","Authorization":"Basic dXNlcjpwYXNzd29yZA=="}') as Record<string, string>;
    const out = redactHeaders(h);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'Authorization']);
    expect(JSON.stringify(out)).toBe(`{"__proto__":"x","Authorization":"${secretMarker('Basic dXNlcjpwYXNzd29yZA==')}"}`);
  });
  it('is idempotent', () => {
    const once = redactHeaders({ Authorization: 'Bearer zzzzzzzzzzzz1' });
    expect(redactHeaders(once)).toEqual(once);
  });
});

describe('redactUrl', () => {
  it('replaces user:password@ as one marker', () => {
    expect(redactUrl('https://alice:p%40ss@mcp.example.com/mcp')).toBe(`https://${secretMarker('alice:p%40ss')}@mcp.example.com/mcp`);
    expect(redactUrl(`https://${GH}@github.com/org/repo.git`)).toBe(`https://${secretMarker(GH)}@github.com/org/repo.git`);
  });
  it('replaces secret query and fragment parameters, keeping names and other parameters', () => {
    const u = 'https://mcp.example.com/mcp?access_token=ya29.a0Af_secret&page=2&api_key=AK-77&sig=abc%2Fdef#id_token=tok123';
    expect(redactUrl(u)).toBe(
      `https://mcp.example.com/mcp?access_token=${secretMarker('ya29.a0Af_secret')}&page=2&api_key=${secretMarker('AK-77')}` +
      `&sig=${secretMarker('abc%2Fdef')}#id_token=${secretMarker('tok123')}`,
    );
  });
  it('handles key, code, token, client_secret, password and signed-URL parameters', () => {
    const u = 'https://x.test/a?key=AIzaLike&code=oauthcode&token=t0k&client_secret=cs&password=pw&X-Amz-Signature=f00d';
    const out = redactUrl(u);
    for (const s of ['AIzaLike', 'oauthcode', 't0k', '=cs', 'pw&', 'f00d']) expect(out).not.toContain(s);
    expect(out).toContain('https://x.test/a?key=[redacted:');
  });
  it('leaves a URL without credentials unchanged (same string)', () => {
    const u = 'https://mcp.example.com/mcp?session=abc&cursor=2';
    expect(redactUrl(u)).toBe(u);
    expect(redactUrl('mailto:someone@example.com')).toBe('mailto:someone@example.com');
  });
});

describe('redactText', () => {
  it('replaces bearer and basic credentials, keeping the scheme word', () => {
    expect(redactText('sent Bearer abcDEF123.456-xyz to upstream')).toBe(`sent Bearer ${secretMarker('abcDEF123.456-xyz')} to upstream`);
    expect(redactText('auth=basic; Basic dXNlcjpwYXNz')).toContain(`Basic ${secretMarker('dXNlcjpwYXNz')}`);
  });
  it('leaves prose about bearer tokens alone', () => {
    expect(redactText('missing Bearer authentication header')).toBe('missing Bearer authentication header');
  });
  it('replaces JWTs anywhere, even without a scheme word', () => {
    const out = redactText(`token expired: ${JWT}.`);
    expect(out).toBe(`token expired: ${secretMarker(JWT)}.`);
  });
  it('replaces header lines written in text', () => {
    const out = redactText('GET /mcp\r\nAuthorization: Digest username="u", response="6629fae4"\r\nCookie: sid=1; csrf=2\r\nAccept: */*');
    expect(out).not.toContain('6629fae4');
    expect(out).not.toContain('sid=1');
    expect(out).toContain('Accept: */*');
    expect(out).toContain('GET /mcp\r\n');
  });
  it('finds a secret header after another name-colon on the same line', () => {
    expect(redactText('note: Cookie: sid=zz9plural')).toBe(`note: Cookie: ${secretMarker('sid=zz9plural')}`);
  });
  it('replaces the values of secret keys in JSON text, with the marker of the unescaped value', () => {
    const body = '{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"denied","data":{"authorization":"Bearer abc\\"q1234","user":"bob"}}}';
    const out = redactText(body);
    expect(out).toBe(`{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"denied","data":{"authorization":"${secretMarker('Bearer abc"q1234')}","user":"bob"}}}`);
    expect(JSON.parse(out)).toBeTruthy();
  });
  it('replaces secret keys in JSON held inside a JSON string (tool result text)', () => {
    const body = JSON.stringify({ content: [{ type: 'text', text: JSON.stringify({ password: 'correct-horse', ok: true }) }] });
    const out = redactText(body);
    expect(out).not.toContain('correct-horse');
    expect(JSON.parse(out)).toBeTruthy();
  });
  it('replaces well-known API key shapes', () => {
    const out = redactText(`keys: ${SK} and ${GH}, aws AKIAIOSFODNN7EXAMPLE, slack xoxb-1234567890-abcdefghij`);
    for (const s of [SK, GH, 'AKIAIOSFODNN7EXAMPLE', 'xoxb-1234567890-abcdefghij']) expect(out).not.toContain(s);
  });
  it('keeps "exit code=1" in prose but redacts code= in a query string', () => {
    expect(redactText('process ended, exit code=1')).toBe('process ended, exit code=1');
    expect(redactText('GET /cb?code=SplxlOBeZQQYbYS6WxSbIA')).toBe(`GET /cb?code=${secretMarker('SplxlOBeZQQYbYS6WxSbIA')}`);
  });
  it('returns the same string when there is nothing to redact', () => {
    const s = '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Sunny, 21 C"}],"isError":false}}';
    expect(redactText(s)).toBe(s);
  });
  it('is idempotent', () => {
    const s = `Authorization: Bearer ${JWT} https://u:p@h/x?access_token=abc123 {"password":"pw123456"}`;
    const once = redactText(s);
    expect(redactText(once)).toBe(once);
  });
});

describe('redactText: a key glued to a name before it', () => {
  it('redacts a key after a _, - or . at the end of a run of name characters, and keeps the name', () => {
    expect(redactText(`tool_tool_${SK}`)).toBe(`tool_tool_${secretMarker(SK)}`);
    expect(redactText(`m/m/m.${SK}`)).toBe(`m/m/m.${secretMarker(SK)}`);
  });

  it('leaves names that only contain the letters of a prefix inside a word', () => {
    for (const name of ['risk-assessment-calculator-v2', 'my_task-manager-service-prod-01', 'call task-scheduler-2026-12-05-nightly', 'desk-booking-assistant-tool']) expect(redactText(name)).toBe(name);
  });

  it('finds it at the end of a long run of boundaries and prefixes (only the run\'s tail is looked at)', () => {
    const key = `sk-${'a'.repeat(20)}`;
    const run = `${'_s'.repeat(200_000)}_${key}`;
    expect(redactText(run)).toBe(`${'_s'.repeat(200_000)}_${secretMarker(key)}`);
  });
});

describe('redactValue', () => {
  it('deep-copies, replacing values under secret keys and secrets inside strings', () => {
    const v = {
      jsonrpc: '2.0', id: 3,
      params: { name: 'login', arguments: { user: 'bob', password: 'pa55word', nested: { apiKey: ['k1', 'k2'] } }, _meta: { progressToken: 'p-17' } },
      error: { code: -32603, message: `upstream said Bearer ${'x'.repeat(4)}12345678`, data: { jwt: JWT, note: `see ${JWT}` } },
    };
    const before = JSON.stringify(v);
    const out = redactValue(v) as typeof v;
    expect(JSON.stringify(v)).toBe(before); // input untouched
    expect(out.params.arguments.password).toBe(secretMarker('pa55word'));
    expect(out.params.arguments.nested.apiKey).toEqual([secretMarker('k1'), secretMarker('k2')]);
    expect(out.params._meta.progressToken).toBe('p-17');
    expect(out.params.arguments.user).toBe('bob');
    expect(out.error.code).toBe(-32603);
    expect(out.error.message).toBe(`upstream said Bearer ${secretMarker('xxxx12345678')}`);
    expect(out.error.data.jwt).toBe(secretMarker(JWT));
    expect(out.error.data.note).toBe(`see ${secretMarker(JWT)}`);
  });
  it('redacts HAR {name, value} header, query and cookie entries', () => {
    const har = { request: { headers: [{ name: 'Authorization', value: 'Bearer tok-1234567' }, { name: 'Accept', value: 'text/event-stream' }],
      queryString: [{ name: 'access_token', value: 'qs-secret' }], cookies: [{ name: 'sid', value: 'cookie-secret' }] } };
    const s = JSON.stringify(redactValue(har));
    for (const secret of ['tok-1234567', 'qs-secret', 'cookie-secret']) expect(s).not.toContain(secret);
    expect(s).toContain('text/event-stream');
  });
  it('keeps __proto__ and constructor keys as plain own data, polluting nothing', () => {
    const v = JSON.parse('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"a":[{"__proto__":{"polluted":1}}]}');
    const out = redactValue(v) as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(out)).toBe(JSON.stringify(v));
  });
  it('copies a value nested 100,000 levels deep without overflowing the stack', () => {
    const depth = 100_000;
    const v = JSON.parse('{"a":'.repeat(depth) + '"Bearer abcdefgh12345"' + '}'.repeat(depth));
    let out = redactValue(v) as Record<string, unknown>;
    for (let i = 0; i < depth; i++) out = out.a as Record<string, unknown>;
    expect(out).toBe(`Bearer ${secretMarker('abcdefgh12345')}`);
  });
  it('passes primitives through', () => {
    expect(redactValue(12345678901234567890n as unknown)).toBe(12345678901234567890n);
    expect(redactValue(null)).toBeNull();
    expect(redactValue(3.5)).toBe(3.5);
  });
});

describe('speed and safety on hostile strings', () => {
  const hostile: Array<[string, string]> = [
    ['100 KB of one letter', 'a'.repeat(100_000)],
    ['repeated eyJ without dots', 'eyJ'.repeat(34_000)],
    ['repeated eyJ. segments', 'eyJa.'.repeat(20_000)],
    ['repeated ://', '://'.repeat(34_000)],
    ['repeated scheme without @', 'https://x'.repeat(11_000)],
    ['unterminated JSON strings', '"password":"\\"'.repeat(7_000)],
    ['unterminated escaped JSON', '\\"token\\":\\"'.repeat(8_000)],
    ['many = without &', 'token='.repeat(16_000)],
    ['long parameter names', `${'k'.repeat(99_000)}=v`],
    ['bearer bearer', 'Bearer '.repeat(14_000)],
    ['header names without colon', 'Authorization'.repeat(7_500)],
    ['header lines without newline', 'Cookie: '.repeat(12_000)],
    ['base64 blob', Buffer.alloc(75_000, 7).toString('base64')],
    ['sk- run', `sk-${'A'.repeat(100_000)}`],
  ];
  it.each(hostile)('%s: finishes in well under a second', (_name, s) => {
    const t0 = performance.now();
    const out = redactText(s);
    const ms = performance.now() - t0;
    expect(typeof out).toBe('string');
    expect(ms).toBeLessThan(2_000); // catastrophic backtracking would take minutes; this bound only absorbs a busy machine
  });
  it('a 1 MB string with no secrets costs about one scan', () => {
    const s = 'The weather in Lisbon is sunny, 21 degrees. '.repeat(24_000);
    const t0 = performance.now();
    for (let i = 0; i < 10; i++) redactText(s);
    expect((performance.now() - t0) / 10).toBeLessThan(200);
  });
});

describe('strings of many megabytes (a tool that returns a file or a dump)', () => {
  // A regular expression that walks one run of megabytes can run out of backtracking stack ("Maximum call stack size
  // exceeded"): a 12 MB tool error crashed the report. These must finish and still find the secrets around the run.
  const run = 'q'.repeat(12_000_000);
  it('a run of 12 MB of token characters next to a bearer token and an API key', () => {
    const out = redactText(`Bearer abcdefgh12345678 ${run} key ${GH}`);
    expect(out).toContain(`Bearer [redacted:${hash8('abcdefgh12345678')}]`);
    expect(out).not.toContain(GH);
    expect(out.length).toBeGreaterThan(12_000_000);
  });
  it('a JSON string value of 12 MB full of escapes, then a secret key', () => {
    const out = redactText(`{"blob":"${'\\n'.repeat(6_000_000)}","password":"hunter2-hunter2"}`);
    expect(out).toContain(`"password":"[redacted:${hash8('hunter2-hunter2')}]"`);
    expect(out.startsWith('{"blob":"\\n\\n')).toBe(true);
  });
  it('a header line after a run of megabytes of name characters', () => {
    const out = redactText(`${run} authorization: Bearer abcdefgh12345678`);
    expect(out.endsWith(`authorization: [redacted:${hash8('Bearer abcdefgh12345678')}]`)).toBe(true);
  });
});

describe('broken JSON', () => {
  it('redacts a bare value after a quoted secret key', () => {
    const out = redactText('{"password": hunter2xyz, "user": "bob"}');
    expect(out).toBe(`{"password": ${secretMarker('hunter2xyz')}, "user": "bob"}`);
    expect(redactText('{"authorization": Bearer abc123def456}')).not.toContain('abc123def456');
  });
});

describe('Basic credentials', () => {
  it('redacts base64 of user:password even when it is only letters, and leaves prose alone', () => {
    expect(redactText('Basic YWxpY2U6c2VjcmV0')).toBe(`Basic ${secretMarker('YWxpY2U6c2VjcmV0')}`);
    expect(redactText('Basic dXNlcjpwYXNz')).toBe(`Basic ${secretMarker('dXNlcjpwYXNz')}`);
    for (const prose of ['Basic authentication failed', 'basic configuration missing', 'Basic credentials rejected'])
      expect(redactText(prose)).toBe(prose);
  });
});

describe('redactText keeps JSON text JSON (a capture written with redaction must still parse)', () => {
  it('leaves an object, an array of objects, true, false or null under a secret-named key as it is (a tool\'s inputSchema entry for apiKey)', () => {
    // (An array of strings is values: its strings become markers, as redactValue does; see the 29th audit below.)
    for (const doc of ['{"apiKey":{"type":"string"}}', '{"token":null}', '{"secret":true}', '{"apiKey":[{"type":"string"}]}', '{"password":false}']) {
      expect(redactText(doc), doc).toBe(doc);
    }
  });
  it('replaces a number under a secret-named key with a string marker, and still a string value', () => {
    const out = redactText('{"password":123456,"pin":"x","token":"abc123secret","n":1}');
    expect(JSON.parse(out)).toEqual({ password: secretMarker('123456'), pin: 'x', token: secretMarker('abc123secret'), n: 1 });
  });
  it('reads a quoted key as JSON inside an SSE body: the tools/list schema stays parseable, a string token is redacted', () => {
    const data = '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"properties":{"apiKey":{"type":"string","description":"your key"}}}}],"token":"abc123secret"}}';
    const out = redactText(`event: message\ndata: ${data}\n\n`);
    const parsed = JSON.parse(out.split('\n')[1]!.slice('data: '.length)) as { result: { token: string; tools: unknown[] } };
    expect(parsed.result.token).toBe(secretMarker('abc123secret'));
    expect(parsed.result.tools).toEqual((JSON.parse(data) as { result: { tools: unknown[] } }).result.tools);
  });
  it('ends a header quoted as a whole at its closing quote: the rest of a curl line survives', () => {
    const out = redactText('curl -H "Authorization: Bearer abc.def" https://x.example/mcp?x=1 -d @body.json');
    expect(out).toBe(`curl -H "Authorization: ${secretMarker('Bearer abc.def')}" https://x.example/mcp?x=1 -d @body.json`);
  });
});

describe('redactText: a key=value secret whose value is an auth scheme and its credential', () => {
  it('replaces the credential after `token=Bearer`, not only the word Bearer', () => {
    for (const s of ['tool failed: token=Bearer abcdefSECRET42 password=x', 'auth_token=bearer abcdefSECRET42', 'api_key=Basic dXNlcjpwYXNzd29yZA==']) {
      const out = redactText(s);
      expect(out).not.toMatch(/abcdefSECRET42|dXNlcjpwYXNzd29yZA/);
      expect(out).toMatch(/\[redacted:[0-9a-f]{8}\]/);
    }
  });
  it('keeps a plain value as before', () => {
    expect(redactText('token=t0k123456 rest')).toBe(`token=${secretMarker('t0k123456')} rest`);
  });
});

describe('the 29th audit: secrets that reached the report with redaction on', () => {
  const PEM_BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nZmFrZWtleWRhdGFmYWtla2V5ZGF0YQ==';
  it('replaces the body of a PEM private key block, keeping its labels', () => {
    for (const label of ['PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'ENCRYPTED PRIVATE KEY']) {
      const text = `key file:\n-----BEGIN ${label}-----\n${PEM_BODY}\n-----END ${label}-----\nrest`;
      const out = redactText(text);
      expect(out, label).toBe(`key file:\n-----BEGIN ${label}-----\n${secretMarker(PEM_BODY)}\n-----END ${label}-----\nrest`);
      expect(redactText(out)).toBe(out);
    }
  });
  it('replaces a PEM key written with escaped newlines inside JSON text, and one cut before its END label', () => {
    const json = JSON.stringify({ text: `-----BEGIN PRIVATE KEY-----\n${PEM_BODY}\n-----END PRIVATE KEY-----` });
    const out = redactText(json);
    expect(out).not.toContain('MIIEvQIB');
    expect(JSON.parse(out)).toEqual({ text: `-----BEGIN PRIVATE KEY-----\n${secretMarker(PEM_BODY.replace('\n', '\\n'))}\n-----END PRIVATE KEY-----` });
    const cut = redactText(`{"text":"-----BEGIN RSA PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSj","n":1}`);
    expect(cut).not.toContain('MIIEvQIB');
    expect(JSON.parse(cut)).toMatchObject({ n: 1 });
  });
  it('leaves public keys and certificates alone', () => {
    const cert = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----';
    expect(redactText(cert)).toBe(cert);
    const pub = '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----';
    expect(redactText(pub)).toBe(pub);
  });
  it('replaces each string of an array under a secret key in JSON text (Node\'s set-cookie array), as redactValue does', () => {
    const text = '{"headers":{"set-cookie":["sid=abc123secret; HttpOnly", "csrf=def456secret"],"x":["keep"]}}';
    const out = redactText(text);
    expect(JSON.parse(out)).toEqual({ headers: { 'set-cookie': [secretMarker('sid=abc123secret; HttpOnly'), secretMarker('csrf=def456secret')], x: ['keep'] } });
    expect(JSON.parse(out)).toEqual(redactValue(JSON.parse(text)));
    expect(redactText(out)).toBe(out);
    // An array of objects or numbers is not values: it stays (schemas stay parseable).
    for (const doc of ['{"apiKey":[{"type":"string"}]}', '{"token":[1,2]}', '{"token":[]}']) expect(redactText(doc), doc).toBe(doc);
  });
  it('replaces secret values in a Python dict as its repr prints it (single or double quotes)', () => {
    const out = redactText("params: {'name': 'login', 'arguments': {'password': 'hunter2-hunter2', 'api_key': \"it's-a-key\"}}");
    expect(out).toBe(`params: {'name': 'login', 'arguments': {'password': '${secretMarker('hunter2-hunter2')}', 'api_key': "${secretMarker("it's-a-key")}"}}`);
    expect(redactText(out)).toBe(out);
    expect(redactText("{'progressToken': 'p-1', 'name': 'x'}")).toBe("{'progressToken': 'p-1', 'name': 'x'}");
  });
  it('replaces the value of a secret-named assignment written with spaces (ini, ~/.aws/credentials, env dumps)', () => {
    const out = redactText('[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nregion = eu-west-1');
    expect(out).not.toContain('wJalrXUtnFEMI');
    expect(out).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(out).toContain(`aws_secret_access_key = ${secretMarker('wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')}`);
    expect(out).toContain('region = eu-west-1');
    expect(redactText('DB_PASSWORD = "p4ss word"')).toBe(`DB_PASSWORD = "${secretMarker('p4ss word')}"`);
    // Prose and short URL-only names stay.
    for (const prose of ['exit code = 1', 'max_tokens = 4096', 'key = value of the map', 'a == b', 'token == null']) expect(redactText(prose), prose).toBe(prose);
  });
  it('replaces the value after a secret-named command-line flag', () => {
    const out = redactText('spawn npx -y @acme/mcp-server --api-key sk9-abcdef123456 --password "two words" --port 8080 --token=abc123xyz');
    expect(out).toBe(`spawn npx -y @acme/mcp-server --api-key ${secretMarker('sk9-abcdef123456')} --password "${secretMarker('two words')}" --port 8080 --token=${secretMarker('abc123xyz')}`);
    expect(redactText(out)).toBe(out);
    // A next flag is not a value; prose dashes and URL-only names stay.
    for (const s of ['run with --token --verbose', 'a well-known -- key point', '--key value', '--code 3']) expect(redactText(s), s).toBe(s);
  });
  const hostile: [string, string][] = [
    ['PEM heads without labels', '-----BEGIN '.repeat(50_000)],
    ['PEM body of megabytes', `-----BEGIN PRIVATE KEY-----${'A'.repeat(2_000_000)}`],
    ['PEM heads of private keys', '-----BEGIN PRIVATE KEY-----'.repeat(40_000)],
    ['python heads unclosed', `'password': "${"'k': \"".repeat(60_000)}`],
    ['python heads', "'password': '".repeat(60_000)],
    ['spaced assignments', 'token = '.repeat(60_000)],
    ['spaced names', `token${' '.repeat(1_000_000)}`],
    ['flags', '--token '.repeat(60_000)],
    ['flag quotes', `--token "${'x'.repeat(999)}`.repeat(500)],
    ['array heads', '"cookie":['.repeat(60_000)],
    ['array of strings', `{"cookie":[${'"a",'.repeat(100_000)}"b"]}`],
  ];
  it.each(hostile)('%s: finishes in well under a second', (_name, s) => {
    const t0 = performance.now();
    expect(typeof redactText(s)).toBe('string');
    expect(performance.now() - t0).toBeLessThan(2_000);
  });
});
