// The audit23 scenarios: one protocol mistake each, made by the hand-written server in lib.mjs.
import { reply, TOOLS, sleep } from './lib.mjs';

const send = (res, status, headers, body) => { res.writeHead(status, headers); res.end(body); };
const callResult = (ctx, extra = {}) => reply(ctx.id, { content: [{ type: 'text', text: `${ctx.rpc.params?.arguments?.sku}: 4 in stock` }], ...extra });
const json = (res, obj, headers = {}, status = 200) => { const b = typeof obj === 'string' ? obj : JSON.stringify(obj); send(res, status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(b), ...headers }, b); };
const sseHead = (res, extra = {}) => { res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...extra }); res.flushHeaders(); };
/** Answer `method` with fn(ctx); everything else gets the default answers. */
const on = (method, fn) => async (ctx) => (ctx.method === method ? (await fn(ctx), true) : false);
const sseWith = (frame) => on('tools/call', (ctx) => { sseHead(ctx.res); ctx.res.end(frame(JSON.stringify(callResult(ctx)))); });

export const SPECS = {
  's00-baseline': {},
  // 1. initialize
  's01a-init-version-2099': { answer: on('initialize', (ctx) => json(ctx.res, reply(ctx.id, { protocolVersion: '2099-01-01', capabilities: { tools: {} }, serverInfo: { name: 'hand-written', version: '0.1.0' } }), { 'mcp-session-id': 'sess-0001' })) },
  's01b-init-no-caps-serverinfo': { answer: on('initialize', (ctx) => json(ctx.res, reply(ctx.id, { protocolVersion: ctx.rpc.params.protocolVersion }), { 'mcp-session-id': 'sess-0001' })) },
  // 2. session id
  's02a-session-id-changes': { answer: on('tools/list', (ctx) => json(ctx.res, reply(ctx.id, { tools: TOOLS }), { 'mcp-session-id': 'sess-0002' })) },
  's02b-session-id-late': { sid: false, answer: on('tools/list', (ctx) => json(ctx.res, reply(ctx.id, { tools: TOOLS }), { 'mcp-session-id': 'sess-late' })) },
  // 3. empty bodies
  's03a-json-empty-body': { answer: on('tools/call', (ctx) => send(ctx.res, 200, { 'content-type': 'application/json', 'content-length': 0 }, '')) },
  's03b-204-to-request': { answer: on('tools/call', (ctx) => send(ctx.res, 204, {}, '')) },
  's03c-body-to-notification': { answer: on('notifications/initialized', (ctx) => json(ctx.res, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'notifications have no id' } })) },
  's03d-json-no-content-type': { answer: on('tools/call', (ctx) => { const b = JSON.stringify(callResult(ctx)); send(ctx.res, 200, { 'content-length': Buffer.byteLength(b) }, b); }) },
  // 4. SSE framing
  's04a-sse-crlf': { answer: sseWith((d) => `event: message\r\ndata: ${d}\r\n\r\n`) },
  's04b-sse-cr-only': { answer: sseWith((d) => `event: message\rdata: ${d}\r\r`) },
  's04c-sse-multi-data': { answer: on('tools/call', (ctx) => { sseHead(ctx.res); const d = JSON.stringify(callResult(ctx), null, 1); ctx.res.end(`event: message\n${d.split('\n').map((l) => `data: ${l}`).join('\n')}\n\n`); }) },
  's04d-sse-bom': { answer: sseWith((d) => `\uFEFFevent: message\ndata: ${d}\n\n`) },
  's04e-sse-no-space': { answer: sseWith((d) => `event:message\ndata:${d}\n\n`) },
  's04f-sse-comments-retry': { answer: sseWith((d) => `: keep-alive\n\nretry: 1000\n\n: ping\nevent: message\ndata: ${d}\n\n: bye\n\n`) },
  's04g-sse-second-response-same-id': { answer: on('tools/call', (ctx) => { sseHead(ctx.res); const err = reply(ctx.id, { content: [{ type: 'text', text: 'lookup failed: backend down' }], isError: true }); ctx.res.end(`event: message\ndata: ${JSON.stringify(err)}\n\nevent: message\ndata: ${JSON.stringify(callResult(ctx))}\n\n`); }) },
  's04h-sse-no-trailing-blank-line': { answer: sseWith((d) => `event: message\ndata: ${d}\n`) },
  // 5. JSON envelope
  's05a-json-bom': { answer: on('tools/call', (ctx) => json(ctx.res, '\uFEFF' + JSON.stringify(callResult(ctx)))) },
  's05b-json-batch-of-one': { answer: on('tools/call', (ctx) => json(ctx.res, [callResult(ctx)])) },
  's05c-result-and-error-null': { answer: on('tools/call', (ctx) => json(ctx.res, { ...callResult(ctx), error: null })) },
  's05d-id-null': { answer: on('tools/call', (ctx) => json(ctx.res, { ...callResult(ctx), id: null })) },
  's05e-id-as-string': { answer: on('tools/call', (ctx) => json(ctx.res, { ...callResult(ctx), id: String(ctx.id) })) },
  's05f-no-jsonrpc-member': { answer: on('tools/call', (ctx) => { const r = callResult(ctx); delete r.jsonrpc; json(ctx.res, r); }) },
  's05g-id-float': { answer: on('tools/call', (ctx) => json(ctx.res, JSON.stringify(callResult(ctx)).replace(`"id":${ctx.id}`, `"id":${ctx.id}.0`))) },
  // 6. tool results
  's06a-extra-fields-meta': { answer: on('tools/call', (ctx) => json(ctx.res, reply(ctx.id, { content: [{ type: 'text', text: 'A-1: 4', annotations: { audience: ['user'], priority: 0.5 }, _meta: { x: 1 }, extra: true }], _meta: { trace: 'abc' }, unknownField: 42 }))) },
  's06b-structured-no-output-schema': { answer: on('tools/call', (ctx) => json(ctx.res, callResult(ctx, { structuredContent: { sku: 'A-1', stock: 4 } }))) },
  's06c-large-result-8mb': { answer: on('tools/call', (ctx) => json(ctx.res, reply(ctx.id, { content: [{ type: 'text', text: 'x'.repeat(8 * 1024 * 1024) }] }))) },
  's06d-annotation-priority-out-of-range': { answer: on('tools/call', (ctx) => json(ctx.res, reply(ctx.id, { content: [{ type: 'text', text: 'A-1: 4', annotations: { priority: 5 } }] }))) },
  's06e-annotation-audience-bad': { answer: on('tools/call', (ctx) => json(ctx.res, reply(ctx.id, { content: [{ type: 'text', text: 'A-1: 4', annotations: { audience: ['everyone'] } }] }))) },
  's06f-annotation-lastmodified-bad': { answer: on('tools/call', (ctx) => json(ctx.res, reply(ctx.id, { content: [{ type: 'text', text: 'A-1: 4', annotations: { lastModified: 'yesterday' } }] }))) },
  's06g-structured-content-array': { answer: on('tools/call', (ctx) => json(ctx.res, callResult(ctx, { structuredContent: [1, 2] }))) },
  's06h-meta-not-object': { answer: on('tools/call', (ctx) => json(ctx.res, callResult(ctx, { _meta: 'trace-abc' }))) },
  's06i-tool-annotation-title-number': { answer: on('tools/list', (ctx) => json(ctx.res, reply(ctx.id, { tools: [{ ...TOOLS[0], annotations: { title: 7, readOnlyHint: true } }] }))) },
  's06j-tool-output-schema-no-structured': { answer: on('tools/list', (ctx) => json(ctx.res, reply(ctx.id, { tools: [{ ...TOOLS[0], outputSchema: { type: 'object', properties: { stock: { type: 'number' } } } }] }))) },
  's06k-image-block-no-mimetype': { answer: on('tools/call', (ctx) => json(ctx.res, reply(ctx.id, { content: [{ type: 'image', data: 'aGVsbG8=', mimeType: null }] }))) },
  's06l-content-null-text': { answer: on('tools/call', (ctx) => json(ctx.res, reply(ctx.id, { content: [{ type: 'text', text: null }] }))) },
  's06m-tool-icons-bad': { answer: on('tools/list', (ctx) => json(ctx.res, reply(ctx.id, { tools: [{ ...TOOLS[0], icons: [{ mimeType: 'image/png' }] }] }))) },
  's06n-tool-execution-bad': { answer: on('tools/list', (ctx) => json(ctx.res, reply(ctx.id, { tools: [{ ...TOOLS[0], execution: { taskSupport: 'sometimes' } }] }))) },
  // 7. response on the GET stream
  's07a-response-on-get-post-202': {
    answer: async (ctx) => {
      if (ctx.req.method === 'GET') { sseHead(ctx.res); ctx.state.get = ctx.res; return true; }
      if (ctx.method !== 'tools/call') return false;
      send(ctx.res, 202, {}, '');
      for (let i = 0; i < 20 && !ctx.state.get; i++) await sleep(50);
      ctx.state.get?.write(`event: message\ndata: ${JSON.stringify(callResult(ctx))}\n\n`);
      return true;
    },
  },
  's07b-response-on-get-post-empty-sse': {
    answer: async (ctx) => {
      if (ctx.req.method === 'GET') { sseHead(ctx.res); ctx.state.get = ctx.res; return true; }
      if (ctx.method !== 'tools/call') return false;
      sseHead(ctx.res); ctx.res.end();
      for (let i = 0; i < 20 && !ctx.state.get; i++) await sleep(50);
      ctx.state.get?.write(`event: message\ndata: ${JSON.stringify(callResult(ctx))}\n\n`);
      return true;
    },
  },
  // 8. stream lifetime
  's08a-sse-never-ends': { settleMs: 1000, answer: on('tools/call', (ctx) => { sseHead(ctx.res); ctx.res.write(`event: message\ndata: ${JSON.stringify(callResult(ctx))}\n\n`); }) },
  's08b-sse-ends-before-response': { answer: on('tools/call', (ctx) => { sseHead(ctx.res); ctx.res.end(': nothing\n\n'); }) },
  's08c-json-connection-reset-after-body': { answer: on('tools/call', (ctx) => { const b = JSON.stringify(callResult(ctx)); ctx.res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(b) + 10 }); ctx.res.write(b); setTimeout(() => ctx.req.socket.destroy(), 100); }) },
  // 9. status codes
  's09a-201-json': { answer: on('tools/call', (ctx) => json(ctx.res, callResult(ctx), {}, 201)) },
  's09b-203-json': { answer: on('tools/call', (ctx) => json(ctx.res, callResult(ctx), {}, 203)) },
  's09c-202-with-json': { answer: on('tools/call', (ctx) => json(ctx.res, callResult(ctx), {}, 202)) },
  's09d-400-with-result': { answer: on('tools/call', (ctx) => json(ctx.res, callResult(ctx), {}, 400)) },
  's09e-500-with-result': { answer: on('tools/call', (ctx) => json(ctx.res, callResult(ctx), {}, 500)) },
  's09f-200-sse-201': { answer: on('tools/call', (ctx) => { ctx.res.writeHead(201, { 'content-type': 'text/event-stream' }); ctx.res.end(`event: message\ndata: ${JSON.stringify(callResult(ctx))}\n\n`); }) },
  // own additions
  's10a-error-code-string': { answer: on('tools/call', (ctx) => json(ctx.res, { jsonrpc: '2.0', id: ctx.id, error: { code: '-32000', message: 'backend down' } })) },
  's10b-sse-content-type-charset': { answer: on('tools/call', (ctx) => { sseHead(ctx.res, { 'content-type': 'text/event-stream; charset=utf-8' }); ctx.res.end(`event: message\ndata: ${JSON.stringify(callResult(ctx))}\n\n`); }) },
  's10c-json-ct-uppercase': { answer: on('tools/call', (ctx) => json(ctx.res, callResult(ctx), { 'content-type': 'Application/JSON; charset=UTF-8' })) },
  's10d-initialize-sse-response': { answer: on('initialize', (ctx) => { sseHead(ctx.res, { 'mcp-session-id': 'sess-0001' }); ctx.res.end(`event: message\ndata: ${JSON.stringify(reply(ctx.id, { protocolVersion: ctx.rpc.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'h', version: '1' } }))}\n\n`); }) },
  's10e-json-then-trailing-garbage': { answer: on('tools/call', (ctx) => json(ctx.res, JSON.stringify(callResult(ctx)) + '\n{}')) },
  's10f-sse-event-id-no-priming-then-close': { answer: on('tools/call', (ctx) => { sseHead(ctx.res); ctx.res.end(`id: ev-1\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } })}\n\n`); }) },
  's10g-error-response-with-result-null': { answer: on('tools/call', (ctx) => json(ctx.res, { jsonrpc: '2.0', id: ctx.id, result: null, error: { code: -32000, message: 'backend down' } })) },
  's10h-tools-list-result-null': { answer: on('tools/call', (ctx) => json(ctx.res, { jsonrpc: '2.0', id: ctx.id, result: null })) },
  's08d-content-length-too-short': { answer: on('tools/call', (ctx) => { const b = JSON.stringify(reply(ctx.id, { content: [{ type: 'text', text: 'Größe 42: 4 Stück, je 9,50 €' }] })); ctx.res.writeHead(200, { 'content-type': 'application/json', 'content-length': b.length }); ctx.res.end(b); }) },
  's08e-content-length-too-long': { answer: on('tools/call', (ctx) => { const b = JSON.stringify(callResult(ctx)); ctx.res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(b) + 10 }); ctx.res.write(b); }) },
  's08f-sse-reset-after-response': { answer: on('tools/call', (ctx) => { sseHead(ctx.res); ctx.res.write(`event: message\ndata: ${JSON.stringify(callResult(ctx))}\n\n`); setTimeout(() => ctx.req.socket.destroy(), 100); }) },
  's11a-bogus-gzip-header': { answer: on('tools/call', (ctx) => json(ctx.res, callResult(ctx), { 'content-encoding': 'gzip' })) },
  's11b-initialize-serverinfo-no-version': { answer: on('initialize', (ctx) => json(ctx.res, reply(ctx.id, { protocolVersion: ctx.rpc.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'hand-written' } }), { 'mcp-session-id': 'sess-0001' })) },
  's11c-notification-answered-sse': { answer: on('notifications/initialized', (ctx) => { sseHead(ctx.res); ctx.res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } })}\n\n`); }) },
  's11d-call-result-empty-object': { answer: on('tools/call', (ctx) => json(ctx.res, reply(ctx.id, {}))) },
  's11e-iserror-null': { answer: on('tools/call', (ctx) => json(ctx.res, callResult(ctx, { isError: null }))) },
  's11f-structured-content-null': { answer: on('tools/call', (ctx) => json(ctx.res, callResult(ctx, { structuredContent: null }))) },
  's11g-content-null': { answer: on('tools/call', (ctx) => json(ctx.res, reply(ctx.id, { content: null }))) },
  's11h-tools-list-nextcursor-null': { answer: on('tools/list', (ctx) => json(ctx.res, reply(ctx.id, { tools: TOOLS, nextCursor: null }))) },
  's11i-initialize-capabilities-tools-null': { answer: on('initialize', (ctx) => json(ctx.res, reply(ctx.id, { protocolVersion: ctx.rpc.params.protocolVersion, capabilities: { tools: null }, serverInfo: { name: 'h', version: '1' } }), { 'mcp-session-id': 'sess-0001' })) },
  's11j-sse-server-request-then-result': { answer: on('tools/call', async (ctx) => { sseHead(ctx.res); ctx.res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' })}\n\n`); await sleep(300); ctx.res.end(`event: message\ndata: ${JSON.stringify(callResult(ctx))}\n\n`); }) },
  's11k-sse-server-request-numeric-id': { clients: ['ts'], answer: on('tools/call', async (ctx) => { sseHead(ctx.res); ctx.res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'roots/list' })}\n\n`); await sleep(300); ctx.res.end(`event: message\ndata: ${JSON.stringify(callResult(ctx))}\n\n`); }) },
  's11l-sse-server-ping-then-result': { clients: ['ts'], answer: on('tools/call', async (ctx) => { sseHead(ctx.res); ctx.res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' })}\n\n`); await sleep(300); ctx.res.end(`event: message\ndata: ${JSON.stringify(callResult(ctx))}\n\n`); }) },
};
