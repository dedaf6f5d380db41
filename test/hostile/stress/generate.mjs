// Stress corpus: extreme but plausible inputs in every format mcp-triage reads - strings of megabytes in every field a
// format reads, runs of one character class, JSON nested 25,000-100,000 levels deep, wide objects and arrays, batches,
// SSE bodies of many events, sessions of many requests, many open requests, huge ids, odd timestamps.
//   node test/hostile/stress/generate.mjs OUTDIR [SCALE]     (SCALE 1: 3 MB strings; 4: 12 MB, four times every count)
// Then run.mjs runs the built CLI on each file in each output format. Nothing here is committed data: files are
// generated where you say (they take about 1 GB at scale 1).
import fs from 'node:fs';
import path from 'node:path';
const out = process.argv[2]; const scale = Number(process.argv[3] || 1);
fs.mkdirSync(out, { recursive: true });
const S = Math.round(3e6 * scale);      // big string length (3 MB at 1x -> 12 MB at 4x)
const SECRET = 'sk-STRESSSECRET0123456789abcdef';
const rep = (u, n) => u.repeat(Math.ceil(n / u.length)).slice(0, n);
const T0 = Date.parse('2026-10-17T09:00:00.000Z');
const ts = (ms) => new Date(T0 + ms).toISOString();
const SID = 'stress-session-1';
const HDR = { 'content-type': 'application/json', 'mcp-session-id': SID, 'mcp-protocol-version': '2025-11-25' };
const classes = {
  letters: 'abcXYZ', digits: '0123456789', base64: 'QUJD+/9a', backslash: '\\', quotes: '"', escn: '\\n', spaces: ' ',
  pct: '%41%2F', eqamp: 'a=b&', scheme: '://', ctrl: '\u0001\u0007\u0008', ansi: '\u001b[31m\u001b]0;t\u0007', bidi: '\u202e\u2066',
  emoji: '😀', lone: '\ud800', tokeny: 'Bearer ', jsonpair: '"password": "x", ', escjson: '\\"token\\": \\"', nul: '\u0000', cr: '\r\n',
};
const files = [];
function write(name, lines) {
  const p = path.join(out, name);
  const fd = fs.openSync(p, 'w');
  for (const l of lines) fs.writeSync(fd, (typeof l === 'string' ? l : JSON.stringify(l)) + '\n');
  fs.closeSync(fd); files.push(name);
}
function* gen(n, f) { for (let i = 0; i < n; i++) yield f(i); }
const ex = (i, send, recvText, extra = {}) => ({ v: 1, kind: 'exchange', method: 'POST', url: 'https://h.example/mcp', ts: ts(i * 10), side: 'client', client: 'stress@1', requestHeaders: HDR, send, status: 200, responseHeaders: { 'content-type': 'application/json', 'mcp-session-id': SID }, recvText, durationMs: 5, ...extra });
const call = (id, name, args = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const ok = (id) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'ok' }] } });
const init = (name = 'c') => ex(0, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } } }, JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }));
const big = (cls) => `${SECRET} ${rep(classes[cls], S)} Bearer ${SECRET} end`;

// 1. tool errors (isError) and JSON-RPC errors, per character class
for (const c of Object.keys(classes)) {
  write(`toolerr-${c}.ndjson`, [init(), ex(1, call(1, 't'), JSON.stringify({ jsonrpc: '2.0', id: 1, result: { isError: true, content: [{ type: 'text', text: big(c) }] } }))]);
  write(`rpcerr-${c}.ndjson`, [init(), ex(1, call(1, 't'), JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: big(c), data: { detail: big(c) } } }))]);
}
// 2. huge strings in identity fields
write('huge-method.ndjson', [init(), ex(1, { jsonrpc: '2.0', id: 1, method: rep('m/', S) + SECRET }, JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'nf' } }))]);
write('huge-tool.ndjson', [init(), ex(1, call(1, rep('tool_', S) + SECRET), JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } }))]);
write('huge-session.ndjson', [init(), ex(1, call(1, 't'), ok(1), { requestHeaders: { ...HDR, 'mcp-session-id': rep('s', S) } }), ex(2, call(2, 't'), ok(2), { session: rep('\u001b[2J', S / 4) })]);
write('huge-headers.ndjson', [init(), ex(1, call(1, 't'), ok(1), { requestHeaders: { ...HDR, authorization: 'Bearer ' + rep('A', S), 'x-custom': big('letters'), cookie: rep('a=b; ', S), 'last-event-id': rep('9', S), 'retry-after': rep('1', S) }, responseHeaders: { 'content-type': 'application/json', 'retry-after': rep('9', S), 'www-authenticate': big('eqamp') } })]);
write('huge-url.ndjson', [init(), ex(1, call(1, 't'), ok(1), { url: 'https://u:p@h.example/mcp?' + rep('a=b&', S) + 'token=' + SECRET }), ex(2, call(2, 't'), ok(2), { url: 'https://h.example/' + rep('%2F', S) + '?session_id=' + rep('x', S) })]);
write('huge-client.ndjson', [init(rep('c', S) + SECRET), ex(1, call(1, 't'), ok(1), { client: rep('\u202e', S) })]);
write('huge-error-field.ndjson', [init(), ex(1, call(1, 't'), null, { status: null, recvText: undefined, error: big('spaces'), end: 'error' })]);
write('huge-note.ndjson', [init(), ex(1, call(1, 't'), ok(1), { note: { retryOrigin: 'app', attempt: 1, call: rep('k', S) } })]);
write('huge-claim.ndjson', [init(), ex(1, call(1, 't'), ok(1)), { v: 1, kind: 'claim', ts: ts(20), session: SID, claim: { client: rep('c', S), protocolVersion: rep('2', S), method: 'tools/call', postCount: 1, httpStatuses: [200], jsonrpc: { id: 1, errorCode: null }, resultType: rep('r', S), outcome: 'JSONRPC_ERROR', retryOrigin: 'none', scenario: big('letters') } }]);
// 3. SSE extremes
{
  const ev = (id, name, data) => `id: ${id}\nevent: ${name}\ndata: ${data}\n\n`;
  write('sse-huge-id.ndjson', [init(), ex(1, call(1, 't'), ev(rep('i', S), 'message', ok(1)), { responseHeaders: { 'content-type': 'text/event-stream' } })]);
  write('sse-huge-event.ndjson', [init(), ex(1, call(1, 't'), ev('1', rep('e', S), ok(1)), { responseHeaders: { 'content-type': 'text/event-stream' } })]);
  write('sse-huge-data.ndjson', [init(), ex(1, call(1, 't'), `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { isError: true, content: [{ type: 'text', text: big('escjson') }] } })}\n\n`, { responseHeaders: { 'content-type': 'text/event-stream' } })]);
  const n = Math.round(250000 * scale);
  let body = ''; for (let i = 0; i < n; i++) body += `data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${i}}}\n\n`;
  write('sse-many-events.ndjson', [init(), ex(1, call(1, 't'), body + ev('x', 'message', ok(1)), { responseHeaders: { 'content-type': 'text/event-stream' } })]);
  write('sse-many-blank.ndjson', [init(), ex(1, call(1, 't'), rep('\n', S) + rep(':\n', S) + 'data: ' + ok(1) + '\n\n', { responseHeaders: { 'content-type': 'text/event-stream' } })]);
  write('sse-many-data-lines.ndjson', [init(), ex(1, call(1, 't'), rep('data: x\n', S) + '\n' + 'data: ' + ok(1) + '\n\n', { responseHeaders: { 'content-type': 'text/event-stream' } })]);
}
// 4. deep nesting
{
  const d = Math.round(25000 * scale);
  const deep = (leaf) => '{"a":'.repeat(d) + leaf + '}'.repeat(d);
  const deepArr = '['.repeat(d) + '1' + ']'.repeat(d);
  const base = (i, sendTxt, recvTxt) => `{"v":1,"kind":"exchange","method":"POST","url":"https://h.example/mcp","ts":"${ts(i * 10)}","side":"client","requestHeaders":${JSON.stringify(HDR)},"send":${sendTxt},"status":200,"responseHeaders":{"content-type":"application/json"},"recvText":${JSON.stringify(recvTxt)},"durationMs":5}`;
  write('deep.ndjson', [init(),
    base(1, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":${deep('1')},"_meta":${deepArr}}}`, ok(1)),
    base(2, JSON.stringify(call(2, 't')), `{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"m","data":${deep('"' + SECRET + '"')}}}`),
    base(3, JSON.stringify(call(3, 't')), `{"jsonrpc":"2.0","id":3,"result":{"isError":true,"content":${deepArr},"_meta":${deep('1')}}}`),
    base(4, JSON.stringify(call(4, 't')), `{"jsonrpc":"2.0","id":4,"result":{"structuredContent":${deep('1')},"content":[]}}`),
    base(5, `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":${deep('1')}}}`, `{"jsonrpc":"2.0","id":5,"result":{"tools":[{"name":"t","inputSchema":${deep('1')},"outputSchema":${deep('1')},"annotations":${deep('1')}}]}}`),
    `{"v":1,"kind":"message","ts":"${ts(60)}","direction":"c2s","message":{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"t","arguments":${deep('1')}}}}`,
    `{"v":1,"kind":"message","ts":"${ts(61)}","direction":"s2c","message":{"jsonrpc":"2.0","id":9,"error":{"code":1,"message":"x","data":${deepArr}}}}`,
  ]);
  // deep at the top of a line (not a record)
  write('deep-line.ndjson', [deep('1'), deepArr, '{"v":1,"kind":"message","ts":"' + ts(1) + '","direction":"c2s","message":' + deep('1') + '}']);
  // retry with deep args (fingerprint)
  write('deep-retry.ndjson', [init(), base(1, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":${deep('1')}}}`, '').replace('"status":200', '"status":503'), base(2, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":${deep('1')}}}`, ok(2))]);
}
// 5. wide objects and arrays
{
  const k = Math.round(25000 * scale), n = Math.round(250000 * scale);
  const wide = {}; for (let i = 0; i < k; i++) wide['k' + i] = i;
  const arr = Array.from({ length: n }, (_, i) => i);
  const failed = JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'x', data: { wide, arr } } });
  write('wide-args-retry.ndjson', [init(), { ...ex(1, call(1, 't', { wide, arr }), ''), status: 503 }, ex(2, call(2, 't', { wide, arr }), failed)]);
  const tools = Array.from({ length: k }, (_, i) => ({ name: 't' + i, inputSchema: { type: 'object' }, annotations: { readOnlyHint: i % 2 === 0, idempotentHint: true, title: 'x'.repeat(10) } }));
  write('wide-tools-list.ndjson', [init(), ex(1, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools } })), ex(2, call(2, 't3'), JSON.stringify({ jsonrpc: '2.0', id: 2, result: { isError: true, content: [{ type: 'text', text: 'x' }] } }))]);
  const b = Math.round(25000 * scale);
  const batch = Array.from({ length: b }, (_, i) => call(i + 1, 't'));
  const resp = JSON.stringify(Array.from({ length: b }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, error: { code: -32000, message: 'e' + i } })));
  write('batch.ndjson', [init(), ex(1, batch, resp)]);
  write('batch-line.ndjson', [JSON.stringify(Array.from({ length: b }, (_, i) => ({ v: 1, kind: 'message', ts: ts(i), direction: i % 2 ? 's2c' : 'c2s', message: i % 2 ? { jsonrpc: '2.0', id: i - 1, result: {} } : call(i, 't') })))]);
  write('wide-record-keys.ndjson', [{ ...wide, v: 2 }, { ...wide }]);
}
// 6. many requests, many open
{
  const n = Math.round(250000 * scale);
  write('session-many.ndjson', gen(n, (i) => i === 0 ? init() : (i % 2 ? { v: 1, kind: 'message', ts: ts(i), session: SID, direction: 'c2s', message: call(i, 't') } : { v: 1, kind: 'message', ts: ts(i), session: SID, direction: 's2c', message: { jsonrpc: '2.0', id: i - 1, result: { content: [] } } })));
  const m = Math.round(25000 * scale);
  write('open-many.ndjson', [...gen(m, (i) => ({ v: 1, kind: 'message', ts: ts(i), session: SID, direction: 'c2s', message: call(i, 't') })), ...gen(m, (i) => ({ v: 1, kind: 'message', ts: ts(m + i), session: SID, direction: 's2c', message: { jsonrpc: '2.0', id: m - 1 - i, result: { isError: true, content: [] } } }))]);
  write('open-many-xid.ndjson', [...gen(m, (i) => ({ v: 1, kind: 'request', xid: 'x-' + i, ts: ts(i), method: 'POST', requestHeaders: HDR, send: call(i, 't') })), ...gen(m, (i) => ({ v: 1, kind: 'response', xid: 'x-' + i, ts: ts(m + i), status: 200, responseHeaders: { 'content-type': 'text/event-stream' } }))]);
}
// 7. ids and timestamps
{
  const digits = rep('9', S);
  const rid = (i, idTxt) => `{"v":1,"kind":"message","ts":"${ts(i)}","session":"${SID}","direction":"c2s","message":{"jsonrpc":"2.0","id":${idTxt},"method":"tools/call","params":{"name":"t"}}}`;
  const sid = (i, idTxt) => `{"v":1,"kind":"message","ts":"${ts(i)}","session":"${SID}","direction":"s2c","message":{"jsonrpc":"2.0","id":${idTxt},"error":{"code":1,"message":"e"}}}`;
  write('huge-ids.ndjson', [rid(1, digits), sid(2, digits), rid(3, '"' + rep('i', S) + '"'), sid(4, '"' + rep('i', S) + '"'), rid(5, '-' + digits + '.5e-99999'), sid(6, '1e999999'), rid(7, '"' + rep('1', S) + 'x"'), sid(8, '"' + rep('1', S) + 'x"')]);
  write('huge-init-id.ndjson', [ex(0, { jsonrpc: '2.0', id: rep('1', S) + 'x', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }, JSON.stringify({ jsonrpc: '2.0', id: rep('1', S) + 'x', result: {} })), ex(1, call(1, 't'), ok(1)), { ...ex(2, { jsonrpc: '2.0', id: rep('1', S) + 'x', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }, JSON.stringify({ jsonrpc: '2.0', id: rep('1', S) + 'x', result: {} })), requestHeaders: { ...HDR, 'mcp-session-id': 'other' }, responseHeaders: { 'mcp-session-id': 'other' } }, { ...ex(3, call(1, 't'), ok(1)), requestHeaders: { ...HDR, 'mcp-session-id': 'other' } }]);
  const odd = [rep('1', S), '2026-10-17T09:00:00.000Z' + rep('0', S), rep(' ', S) + '2026', '-' + rep('9', 400), 1e308, -1e308, 'NaN', 'Infinity', '', rep('2026-', S / 5), '2026-13-45T99:99:99Z', '1.' + rep('5', S), 0, -1, 1e-300, [], {}, true];
  write('odd-ts.ndjson', odd.map((t, i) => ({ v: 1, kind: 'message', ts: t, session: SID, direction: i % 2 ? 's2c' : 'c2s', message: i % 2 ? { jsonrpc: '2.0', id: i - 1, result: {} } : call(i, 't') })));
}
// 8. other formats
{
  const harE = (i, extra = {}) => ({ startedDateTime: ts(i * 10), time: 5, request: { method: 'POST', url: 'https://h.example/mcp?' + rep('q=1&', S) + 'api_key=' + SECRET, headers: [{ name: 'Authorization', value: 'Bearer ' + rep('A', S) }, { name: rep('X', S), value: big('letters') }, { name: 'mcp-session-id', value: SID }], cookies: [{ name: 'sid', value: rep('c', S) }], queryString: [{ name: 'token', value: rep('t', S) }], postData: { mimeType: 'application/json', text: JSON.stringify(call(i, rep('n', S))) } }, response: { status: 500, statusText: rep('S', S), headers: [{ name: 'content-type', value: 'application/json' }], cookies: [], content: { mimeType: 'application/json', text: JSON.stringify({ jsonrpc: '2.0', id: i, error: { code: -32000, message: big('ansi') } }) } }, ...extra });
  write('har-entries.ndjson', [harE(1)]);
  fs.writeFileSync(path.join(out, 'har-doc.har'), JSON.stringify({ log: { version: '1.2', creator: { name: rep('c', S), version: '1' }, entries: [harE(1), harE(2)] } })); files.push('har-doc.har');
  write('har-b64.ndjson', [harE(1, { response: { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }], content: { mimeType: 'text/event-stream', encoding: 'base64', text: Buffer.from('data: ' + JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: 1, message: big('bidi') } }) + '\n\n').toString('base64') } } })]);
  const attr = (key, v) => ({ key, value: { stringValue: v } });
  write('otlp.ndjson', [{ resourceSpans: [{ resource: { attributes: [attr('service.name', rep('s', S))] }, scopeSpans: [{ spans: [{ traceId: rep('a', S), spanId: 'b', name: 'MCP send tools/call ' + rep('x', S), kind: 3, startTimeUnixNano: rep('1', S), endTimeUnixNano: '1760691600000000000', attributes: [attr('mcp.method.name', 'tools/call'), attr('gen_ai.tool.name', rep('t', S)), attr('mcp.session.id', rep('s', S)), attr('jsonrpc.request.id', rep('1', S)), attr('error.type', big('letters')), attr('mcp.request.argument.x', big('jsonpair'))], status: { code: 2, message: 'MCP error -32000: ' + big('escn') + ' with response: [' + rep('[', S) }, events: [{ name: 'exception', attributes: [attr('exception.message', big('quotes')), attr('exception.stacktrace', big('cr'))] }] }] }] }] }]);
  write('mcpspy.ndjson', [{ timestamp: ts(1), transport_type: 'http', type: 'request', raw: JSON.stringify(call(1, 't')), pid: 1, comm: rep('c', S) }, { timestamp: ts(2), transport_type: 'http', type: 'response', raw: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: 1, message: big('emoji') } }) }]);
  write('mcpsnoop.ndjson', [{ session_id: rep('s', S), seq: 1, direction: 'client_to_server', ts: ts(1), frame: call(1, 't') }, { session_id: 'x', seq: 2, direction: 'server_to_client', ts: ts(2), frame: { jsonrpc: '2.0', id: 1, error: { code: 1, message: big('lone') } } }]);
  const cd = (t, dir, msg) => `${ts(t)} [notes] [info] Message from ${dir}: ${JSON.stringify(msg)}`;
  write('claude-desktop.log', [cd(1, 'client', call(1, 't')), cd(2, 'server', { jsonrpc: '2.0', id: 1, error: { code: 1, message: big('ctrl') } }), `${ts(3)} [${rep('n', S)}] [info] Message from server: {`, `${ts(4)} ` + rep('[x] ', S), ts(5) + rep('0', S), `2026-10-17T09:00:00` + rep(':', S)]);
  write('vscode.log', [`2026-10-17 09:00:00.000 [debug] [editor -> server] ${JSON.stringify(call(1, 't'))}`, `2026-10-17 09:00:00.100 [debug] [server -> editor] ${JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: 1, message: big('backslash') } })}`, `2026-10-17 09:00:00.200 [debug] ` + rep('[', S)]);
  write('claude-code.jsonl', [{ debug: 'Calling MCP tool: ' + rep('t', S), timestamp: ts(1), sessionId: 'c', cwd: '/' }, { error: `Tool '${rep("'", S)}' failed after 1s: ` + big('quotes'), timestamp: ts(2), sessionId: 'c', cwd: '/' }, { debug: `Tool '${rep('x', S)}' completed successfully in 1m 2s`, timestamp: ts(3), sessionId: 'c', cwd: '/' }, { error: 'MCP error -32000: ' + rep('MCP error 1: ', S / 13), timestamp: ts(4), sessionId: 'c', cwd: '/' }]);
  write('claude-code-debug.txt', [`${ts(1)} [DEBUG] MCP server "${rep('"', S)}": Calling MCP tool: t`, `${ts(2)} [ERROR] MCP server "notes": Tool 't' failed after 1s: ${big('pct')}`, `${ts(3)} [DEBUG] MCP server "` + rep('a', S), `${ts(4)} [DEBUG] ` + rep('MCP server "x": ', S / 16)]);
  write('gh-aw.jsonl', [{ timestamp: ts(1), server_id: rep('s', S), direction: 'OUT', type: 'REQUEST', payload: call(1, 't') }, { timestamp: ts(2), server_id: 'x', direction: 'IN', type: 'RESPONSE', payload: { jsonrpc: '2.0', id: 1, error: { code: 1, message: big('scheme') } } }]);
  write('inspector.json', [JSON.stringify([{ timestamp: ts(1), direction: 'request', origin: 'client', message: call(1, 't'), response: { jsonrpc: '2.0', id: 1, error: { code: 1, message: big('letters') } } }, { timestamp: ts(2), direction: 'request', origin: 'client', message: call(2, 't'), clientError: 'HTTP 500 ' + rep('x', S) + ': ' + big('spaces') }])]);
  write('inspector-network.json', [JSON.stringify([{ timestamp: ts(1), url: 'https://h/mcp?' + rep('a=', S), method: 'POST', requestHeaders: { authorization: rep('x', S) }, requestBody: JSON.stringify(call(1, 't')), responseStatus: 500, responseHeaders: {}, responseBody: big('digits') }])]);
  write('loki.jsonl', [{ line: `${ts(1)} [notes] [info] Message from server: ` + JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: 1, message: big('base64') } }), timestamp: ts(1), labels: { a: rep('l', S) } }, { line: rep('{', S) }]);
  write('cloud-logging.jsonl', [{ textPayload: rep(' ', S) + '{', timestamp: ts(1) }, { jsonPayload: { ts: ts(2), direction: 'c2s', message: call(1, rep('t', S)) }, timestamp: ts(2) }]);
  write('datadog.jsonl', [{ data: Array.from({ length: Math.round(20000 * scale) }, (_, i) => ({ attributes: { timestamp: ts(100000 - i), message: JSON.stringify({ ts: ts(100000 - i), direction: i % 2 ? 's2c' : 'c2s', message: i % 2 ? { jsonrpc: '2.0', id: i, error: { code: 1, message: 'e' } } : call(i + 1, 't') }) } })) }]);
  write('elastic.jsonl', [{ hits: { hits: [{ _source: { message: rep('x', S) } }, { _source: { json: { ts: ts(1), direction: 'c2s', message: call(1, 't') } } }] } }]);
  write('cloudwatch.log', [`${ts(1)} ${rep('stream', S / 6)} ${JSON.stringify({ ts: ts(1), direction: 'c2s', message: call(1, 't') })}`, ts(2) + rep(' ', S) + 'x']);
  write('kong.jsonl', [{ request: { method: 'POST', url: 'https://h/mcp?' + rep('x', S), headers: { authorization: rep('A', S) }, body: JSON.stringify(call(1, 't')) }, response: { status: 502, headers: {}, body: big('letters') }, started_at: T0, latencies: { request: 5 } }]);
  write('text-garbage.log', [rep('a', S), rep('{', S), rep('"', S), rep('\\', S), '{"v":1,"kind":"' + rep('x', S) + '"}', '{' + rep('"k":1,', S / 6) + '"z":1}', '{"' + rep('k', S) + '":1}', rep('\u001b[2J', S / 4), rep('\ud83d\ude00', S / 2)]);
}
// 9. one field at a time nested deep (ids, resultType, isError, schemas, claims, notes, headers, every format)
{
const D=Math.round(100000*Math.min(scale,1)); const deep='['.repeat(D)+']'.repeat(D); const deepO='{"a":'.repeat(D)+'1'+'}'.repeat(D);
const T=(i)=>new Date(Date.parse('2026-10-17T09:00:00Z')+i*10).toISOString();
const msg=(i,dir,m)=>`{"v":1,"kind":"message","ts":"${T(i)}","session":"s1","direction":"${dir}","message":${m}}`;
const call=(id,extra='')=>`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"t"${extra}}}`;
const cases={
  'req-id': [msg(1,'c2s',call(deep)), msg(2,'s2c',`{"jsonrpc":"2.0","id":${deep},"result":{}}`)],
  'resp-id': [msg(1,'c2s',call(1)), msg(2,'s2c',`{"jsonrpc":"2.0","id":${deep},"result":{}}`)],
  'resultType': [msg(1,'c2s',call(1)), msg(2,'s2c',`{"jsonrpc":"2.0","id":1,"result":{"resultType":${deepO}}}`)],
  'isError': [msg(1,'c2s',call(1)), msg(2,'s2c',`{"jsonrpc":"2.0","id":1,"result":{"isError":${deepO},"content":[]}}`)],
  'error-code': [msg(1,'c2s',call(1)), msg(2,'s2c',`{"jsonrpc":"2.0","id":1,"error":{"code":${deepO},"message":${deepO}}}`)],
  'error-obj': [msg(1,'c2s',call(1)), msg(2,'s2c',`{"jsonrpc":"2.0","id":1,"error":${deep}}`)],
  'jsonrpc-field': [msg(1,'c2s',call(1)), msg(2,'s2c',`{"jsonrpc":${deepO},"id":1,"result":{}}`)],
  'cancel-id': [msg(1,'c2s',call(1)), msg(2,'c2s',`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${deep},"reason":${deepO}}}`)],
  'progress': [msg(1,'c2s',call(1,`,"_meta":{"progressToken":${deep}}`)), msg(2,'s2c',`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${deep},"progress":${deepO}}}`), msg(3,'s2c','{"jsonrpc":"2.0","id":1,"result":{}}')],
  'callId': [msg(1,'c2s',call(1,`,"_meta":{"callId":${deepO}}`)), msg(2,'s2c','{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}'), msg(3,'c2s',call(2,`,"_meta":{"callId":${deepO}}`))],
  'task': [msg(1,'c2s',call(1,`,"task":${deepO}`)), msg(2,'s2c',`{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":${deepO},"status":${deepO}}}}`), msg(3,'c2s',`{"jsonrpc":"2.0","id":2,"method":"tasks/cancel","params":{"taskId":${deepO}}}`)],
  'server-req': [msg(1,'c2s',call(1)), msg(2,'s2c',`{"jsonrpc":"2.0","id":${deep},"method":"elicitation/create","params":${deepO}}`), msg(3,'c2s',`{"jsonrpc":"2.0","id":${deep},"error":{"code":${deepO},"message":${deepO}}}`), msg(4,'s2c','{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[]}}')],
  'method': [msg(1,'c2s',`{"jsonrpc":"2.0","id":1,"method":${deep}}`)],
  'name': [msg(1,'c2s',`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${deep}}}`)],
  'params-arr': [msg(1,'c2s',`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${deep}}`)],
  'outschema-const': [msg(0,'c2s','{"jsonrpc":"2.0","id":0,"method":"tools/list"}'), msg(1,'s2c','{"jsonrpc":"2.0","id":0,"result":{"tools":[{"name":"t","outputSchema":{"type":"object","properties":{"a":{"const":{"x":1}}}}}]}}'), msg(2,'c2s',call(1)), msg(3,'s2c',`{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"a":${deepO}}}}`)],
  'outschema-enum': [msg(0,'c2s','{"jsonrpc":"2.0","id":0,"method":"tools/list"}'), msg(1,'s2c','{"jsonrpc":"2.0","id":0,"result":{"tools":[{"name":"t","outputSchema":{"type":"object","properties":{"a":{"enum":[{"x":1},[1]]}}}}]}}'), msg(2,'c2s',call(1)), msg(3,'s2c',`{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"a":${deep}}}}`)],
  'ts': [`{"v":1,"kind":"message","ts":${deepO},"session":"s1","direction":"c2s","message":${call(1)}}`],
  'session': [`{"v":1,"kind":"message","ts":"${T(1)}","session":${deepO},"direction":"c2s","message":${call(1)}}`],
  'claim': [msg(1,'c2s',call(1)), `{"v":1,"kind":"claim","ts":"${T(2)}","session":"s1","claim":{"method":"tools/call","postCount":${deepO},"httpStatuses":${deep},"jsonrpc":{"id":${deep},"errorCode":${deepO}},"outcome":"JSONRPC_ERROR","retryOrigin":"none"}}`, `{"ts":"${T(3)}","session":"s1","method":"tools/call","postCount":1,"httpStatuses":[200],"jsonrpc":{"id":${deep},"errorCode":null},"outcome":"JSONRPC_ERROR","retryOrigin":${deepO}}`],
  'note': [`{"v":1,"kind":"request","xid":"x1","ts":"${T(1)}","method":"POST","requestHeaders":{"mcp-session-id":"s1"},"send":${call(1)},"note":{"retryOrigin":${deepO},"attempt":${deepO},"call":${deepO}}}`],
  'headers': [`{"v":1,"kind":"exchange","ts":"${T(1)}","method":"POST","url":"https://h/mcp","requestHeaders":{"mcp-session-id":${deepO},"x":${deep}},"send":${call(1)},"status":200,"responseHeaders":${deepO},"recvText":"{}"}`],
  'sse-events': [`{"v":1,"kind":"exchange","ts":"${T(1)}","method":"POST","url":"https://h/mcp","requestHeaders":{"mcp-session-id":"s1"},"send":${call(1)},"status":200,"responseHeaders":{"content-type":"text/event-stream"},"events":[{"id":${deepO},"event":${deep},"data":${deepO}}]}`],
  'event-rec': [`{"v":1,"kind":"request","xid":"x1","ts":"${T(1)}","method":"POST","requestHeaders":{"mcp-session-id":"s1"},"send":${call(1)}}`, `{"v":1,"kind":"event","xid":"x1","ts":"${T(2)}","id":${deepO},"data":${deep}}`, `{"v":1,"kind":"end","xid":${deep},"ts":"${T(3)}","end":${deepO}}`],
  'har': [`{"startedDateTime":"${T(1)}","time":5,"request":{"method":"POST","url":"https://h/mcp","headers":${deep},"postData":{"text":${JSON.stringify(call(1).replace('"t"', deepO))}}},"response":{"status":200,"headers":[{"name":"x","value":${deepO}}],"content":{"text":"{}"}}}`],
  'otlp': [`{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"kvlistValue":${deepO}}}]},"scopeSpans":[{"spans":[{"traceId":"a","spanId":"b","name":"tools/call t","kind":2,"startTimeUnixNano":"1760691600000000000","endTimeUnixNano":"1760691601000000000","attributes":[{"key":"mcp.method.name","value":{"stringValue":"tools/call"}},{"key":"x","value":{"arrayValue":{"values":[{"arrayValue":${deepO}}]}}},{"key":"jsonrpc.request.id","value":${deepO}}]}]}]}]}`],
  'mcpspy': [`{"timestamp":"${T(1)}","transport_type":"stdio","type":"request","raw":${JSON.stringify(call(1).replace('"t"', deep))}}`, `{"timestamp":"${T(2)}","transport_type":"stdio","type":${deepO},"raw":"x"}`],
  'gh-aw': [`{"timestamp":"${T(1)}","server_id":${deepO},"direction":"OUT","type":"REQUEST","payload":${call(1)}}`, `{"timestamp":"${T(1)}","server_id":"a","direction":${deepO},"type":"REQUEST","payload":${call(1)}}`],
  'mcpsnoop': [`{"session_id":"a","seq":1,"direction":${deepO},"ts":"${T(1)}","frame":${call(1)}}`],
  'inspector': [`[{"timestamp":"${T(1)}","direction":"request","origin":"client","message":${call(1)},"response":${deepO}},{"x":${deep}}]`],
  'unwrap': [`{"jsonPayload":${deepO},"timestamp":"${T(1)}"}`, `{"line":${deepO}}`, `{"data":${deep}}`, `{"hits":{"hits":${deep}}}`, `{"textPayload":${JSON.stringify(deepO)}}`],
  'batch-deep': [`[${deep}]`, `[${deepO},${deepO}]`],
};
for (const [k,v] of Object.entries(cases)) write(`deep-field-${k}.ndjson`, v);
}
fs.writeFileSync(path.join(out, 'files.json'), JSON.stringify(files));
console.log(files.length, 'files');
