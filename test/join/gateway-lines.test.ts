// GatewayLines: which attempt takes a gateway's line (HAProxy's, nginx's access and error logs), and that lines no attempt takes are bounded and counted.
import { describe, expect, it } from 'vitest';
import { GatewayLines, type GatewayLine, type GatewayProbe } from '../../src/join/gateway-lines.js';

const T = Date.parse('2026-12-06T04:32:04Z');
const line = (over: Partial<GatewayLine>): GatewayLine => ({
  log: 'nginx-access', session: null, method: 'POST', status: 502, ts: T, startKnown: false, endTs: undefined, lastTryTs: T, serverStatus: null,
  said: "nginx's access log has this POST answered with HTTP 502", state: '--', retries: 0, src: { file: 'access.log', line: 1 }, ...over,
});
const probe = (over: Partial<GatewayProbe>): GatewayProbe => ({
  side: 'client', session: null, sentSession: false, status: 502, startTs: T - 200, endTs: T + 10, open: false, answered: false, outcome: 'HTTP_ERROR', ...over,
});
const reason = (over: Partial<GatewayLine> = {}) => line({ log: 'nginx-error', status: null, said: "nginx's error log [error] *1: connect() failed (111: Connection refused) while connecting to upstream; ...", src: { file: 'error.log', line: 4 }, ...over });

describe('GatewayLines', () => {
  it("gives a failed attempt nginx's access line of its status and the error log's reason, once each", () => {
    const g = new GatewayLines();
    g.add(line({}));
    g.add(reason());
    const taken = g.take(probe({}));
    expect(taken.map((l) => l.log)).toEqual(['nginx-access', 'nginx-error']);
    expect(g.take(probe({}))).toEqual([]);
  });

  it('must not: an answered attempt, a server view or another time takes nothing; another status no access line', () => {
    const g = new GatewayLines();
    g.add(line({}));
    g.add(reason());
    expect(g.take(probe({ status: 200, answered: true, outcome: 'TOOL_SUCCESS' }))).toEqual([]);
    expect(g.take(probe({ side: 'server' }))).toEqual([]);
    expect(g.take(probe({ startTs: T - 5000, endTs: T - 4000 }))).toEqual([]);
    // another status: not the access line, but the reason (it explains any failure)
    expect(g.take(probe({ status: 504 })).map((l) => l.log)).toEqual(['nginx-error']);
  });

  it("a 2xx nginx re-sent is counted, never taken (whole seconds cannot say which call it was)", () => {
    const g = new GatewayLines();
    g.add(line({ status: 200, retries: 1, countOnly: true, said: "nginx's access log has this POST answered with HTTP 200 (upstreams tried ...)" }));
    expect(g.take(probe({ status: 200, answered: true, outcome: 'TOOL_SUCCESS' }))).toEqual([]);
    g.flush();
    expect(g.notes().join('\n')).toMatch(/access\.log: nginx's access log has 1 POST it sent to more than one upstream/);
  });

  it("HAProxy's line: the same status, started within a second, a captured session only for a request that sent it", () => {
    const g = new GatewayLines();
    const hap = line({ log: 'haproxy', startKnown: true, status: 200, state: 'SD', session: 'sess-1', said: "HAProxy's termination state SD: ...", src: { file: 'haproxy.log', line: 4 } });
    g.add(hap);
    expect(g.take(probe({ status: 200, outcome: 'STREAM_INCOMPLETE', session: 'sess-1', sentSession: false }))).toEqual([]);
    expect(g.take(probe({ status: 200, outcome: 'STREAM_INCOMPLETE', session: 'sess-1', sentSession: true }))).toEqual([hap]);
  });

  it('keeps at most 65,536 lines waiting, and counts the ones let go in the note', () => {
    const g = new GatewayLines();
    for (let i = 0; i < 70_000; i++) g.add(line({ src: { file: 'access.log', line: i + 1 } }));
    g.flush();
    expect(g.notes().join('\n')).toMatch(/access\.log: nginx's access log has 70000 POSTs it answered with an error \(HTTP 502 x70000; the first at access\.log:1\)/);
    const h = new GatewayLines();
    for (let i = 0; i < 70_000; i++) h.add(line({ src: { file: 'access.log', line: i + 1 } }));
    // the oldest were let go when the bound was passed: the attempt of line 1's time finds the nearest still kept
    const taken = h.take(probe({}));
    expect(taken[0]!.src.line).toBeGreaterThan(70_000 - 65_536);
  });

  it("Caddy's lines: the access line of the attempt's session and status, started within a second; near miss: another session's line is not taken", () => {
    const g = new GatewayLines();
    const caddy = (over: Partial<GatewayLine>) => line({ log: 'caddy-access', session: 'S1', startKnown: true, said: "Caddy's access log has this POST answered with HTTP 502 after 2 ms", src: { file: 'access.json', line: 1 }, ...over });
    g.add(caddy({}));
    expect(g.take(probe({ session: 'S2', sentSession: true }))).toEqual([]);
    expect(g.take(probe({ session: 'S1', sentSession: true, status: 504 }))).toEqual([]);
    expect(g.take(probe({ session: 'S1', sentSession: true })).map((l) => l.src.line)).toEqual([1]);
    // status 0 (the client left before any head): only an attempt that got no status
    g.add(caddy({ status: null, said: "Caddy's access log has this POST with status 0", src: { file: 'access.json', line: 2 } }));
    expect(g.take(probe({ session: 'S1', sentSession: true, status: 200, answered: true, outcome: 'TOOL_SUCCESS' }))).toEqual([]);
    expect(g.take(probe({ session: 'S1', sentSession: true, status: undefined, outcome: 'NO_RESPONSE', open: true, endTs: undefined })).map((l) => l.src.line)).toEqual([2]);
  });

  it("Caddy's cut of a stream names no request: it goes to the 2xx stream with no answer that ended nearest to it; near miss: an answered attempt, a stream that ended seconds away", () => {
    const g = new GatewayLines();
    const cut = line({ log: 'caddy-error', status: null, unnamed: true, ts: T, said: "Caddy's error log [error]: reverse_proxy aborting with incomplete response (unexpected EOF); ...", src: { file: 'error.log', line: 9 } });
    g.add(cut);
    expect(g.take(probe({ status: 200, answered: true, outcome: 'TOOL_SUCCESS', startTs: T - 1500, endTs: T }))).toEqual([]);
    expect(g.take(probe({ status: 200, outcome: 'STREAM_INCOMPLETE', startTs: T - 5000, endTs: T - 3000 }))).toEqual([]);
    expect(g.take(probe({ status: 200, outcome: 'STREAM_INCOMPLETE', startTs: T - 1800, endTs: T + 20 })).map((l) => l.log)).toEqual(['caddy-error']);
    g.add(cut);
    g.flush();
    expect(g.notes().join('\n')).toMatch(/error\.log: Caddy's error log has 1 line about POSTs and streams \(reverse_proxy aborting with incomplete response \(unexpected EOF\) x1/);
  });

  it("a server's view of Caddy's line: its own status, or none where Caddy answered itself; near miss: an answered server view, another start", () => {
    const g = new GatewayLines();
    const caddy = (over: Partial<GatewayLine>) => line({ log: 'caddy-access', session: null, startKnown: true, status: 504, said: "Caddy's access log has this POST answered with HTTP 504 after 3015 ms: Caddy answered it itself", src: { file: 'access.json', line: 4 }, ...over });
    g.add(caddy({}));
    expect(g.take(probe({ side: 'server', status: 200, answered: true, outcome: 'TOOL_SUCCESS' }))).toEqual([]);
    expect(g.take(probe({ side: 'server', status: undefined, outcome: 'NO_RESPONSE', startTs: T + 3000, endTs: T + 3100 }))).toEqual([]);
    expect(g.take(probe({ side: 'server', status: undefined, outcome: 'NO_RESPONSE', startTs: T + 5, endTs: T + 3015 })).map((l) => l.src.line)).toEqual([4]);
    // the server's own 404, passed on: only a server view of that status
    g.add(caddy({ status: 404, said: "Caddy's access log has this POST answered with HTTP 404 after 9 ms: the upstream's own answer", src: { file: 'access.json', line: 6 } }));
    expect(g.take(probe({ side: 'server', status: undefined, outcome: 'NO_RESPONSE', startTs: T + 5 }))).toEqual([]);
    expect(g.take(probe({ side: 'server', status: 404, outcome: 'HTTP_ERROR', startTs: T + 5 })).map((l) => l.src.line)).toEqual([6]);
  });
});

