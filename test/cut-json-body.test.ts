// A JSON response body cut on the way: broken off by its transfer (STREAM_INCOMPLETE) or ended cleanly (MALFORMED_JSON).
import { describe, expect, it } from 'vitest';
import { analyzeInputs, ok, post, toolText } from './helpers/analyze.js';

const whole = ok(3, toolText('sent'));
const half = whole.slice(0, Math.floor(whole.length / 2));
const outcome = async (o: Partial<Parameters<typeof post>[0]>) => {
  const r = await analyzeInputs([{ side: 'client', lines: [post({ id: 3, status: 200, body: half, headers: { 'content-length': String(whole.length) }, ...o })] }]);
  return [r.attempts[0]!.outcome, r.attempts[0]!.layer, (r.attempts[0] as { detail?: { why?: string } }).detail?.why];
};

describe('a JSON body that broke off', () => {
  it('is STREAM_INCOMPLETE (transport) when its transfer failed or was aborted before it ended (a reset under its Content-Length, a HAR net::ERR_*)', async () => {
    expect(await outcome({ end: 'error', error: 'the upstream connection closed before the response was complete' })).toEqual(['STREAM_INCOMPLETE', 'transport', expect.stringMatching(/^the JSON body broke off before it ended \(the upstream connection closed before the response was complete\)/)]);
    expect((await outcome({ end: 'aborted', error: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING' }))[0]).toBe('STREAM_INCOMPLETE');
  });

  it('must not: a body that ended cleanly and does not parse is MALFORMED_JSON, cut or not; so is broken SSE data', async () => {
    expect((await outcome({ end: 'complete' }))[0]).toBe('MALFORMED_JSON');
    expect((await outcome({}))[0]).toBe('MALFORMED_JSON');
    expect((await outcome({ end: 'error', ct: 'text/event-stream', body: `event: message\ndata: ${half}\n\n` }))[0]).toBe('MALFORMED_JSON');
  });
});
