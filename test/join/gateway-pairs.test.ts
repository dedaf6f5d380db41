// SessionPairs: client and server session ids a gateway rewrote, kept while either session is open and released once both have closed.
import { describe, expect, it } from 'vitest';
import { SessionPairs } from '../../src/join/gateway.js';

describe('SessionPairs', () => {
  it('maps each way, and keeps a pair until both its sessions have closed', () => {
    const p = new SessionPairs();
    p.pair('gw-1', 'uuid-1');
    p.pair('gw-2', 'uuid-2');
    expect([p.serverOf('gw-1'), p.clientOf('uuid-2'), p.size]).toEqual(['uuid-1', 'gw-2', 2]);
    p.closed('client', 'gw-1');
    expect(p.serverOf('gw-1')).toBe('uuid-1');
    p.closed('server', 'uuid-1');
    expect([p.serverOf('gw-1'), p.clientOf('uuid-1'), p.size]).toEqual([undefined, undefined, 1]);
    // The server's session may close first too; a session of no pair changes nothing.
    p.closed('server', 'uuid-2');
    p.closed('client', 'other');
    expect(p.size).toBe(1);
    p.closed('client', 'gw-2');
    expect(p.size).toBe(0);
  });

  it('names the first few pairs in its note and counts the rest; nothing to say, no note', () => {
    const p = new SessionPairs();
    expect(p.note()).toBeUndefined();
    for (let i = 1; i <= 5; i++) p.pair(`gw-${i}`, `uuid-${i}`);
    p.leftApart('gw-9');
    const note = p.note()!;
    expect(note).toMatch(/^5 client session ids/);
    expect(note).toContain('"gw-3" with "uuid-3" and 2 more');
    expect(note).not.toContain('gw-4');
    expect(note).toContain('1 client session id the server\'s log does not show was not paired');
  });
});
