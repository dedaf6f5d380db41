// Whether a client's claim (its own line about a call) fits an attempt on the wire: by session, tool and time.
import type { ClaimIn } from '../normalize.js';
import type { Attempt } from './match.js';

/** How far past a claim's end (logged by the client) a request of its call may start on the wire: clock granularity only. */
const CLAIM_END_SLACK_MS = 20;

/** Where the call a claim describes started: its end less the duration it states, else its end. */
export function claimStart(c: ClaimIn): number {
  return c.ts! - (c.claim.durationMs ?? 0);
}

export function timeGap(c: ClaimIn, a: Attempt): number {
  return Math.abs((a.startTs ?? Infinity) - claimStart(c));
}

/** An id-less claim fits a tools/call of its tool that started between (about) the call's start and its end. */
export function claimFitsByTime(c: ClaimIn, a: Attempt): boolean {
  if (a.method !== 'tools/call' || a.tool !== c.claim.tool || a.startTs === undefined || a.claim) return false;
  if (c.session && a.session && c.session !== a.session) return false;
  // a call over stdio never went over HTTP (Claude Code's stdio and HTTP servers may have tools of the same name)
  if (c.claim.transport === 'stdio' && (a.client ?? a.primary).http) return false;
  // The request went out after the call started and before the client logged its end; a start the claim had to take
  // from a duration floored to whole seconds may be up to a second late.
  return a.startTs >= claimStart(c) - 1000 && a.startTs <= c.ts! + CLAIM_END_SLACK_MS;
}

/** A claim fits an attempt of its session and tool that started before (about) the claim was logged. */
export function claimFits(c: ClaimIn, a: Attempt): boolean {
  if (c.session && a.session && c.session !== a.session) return false;
  if (c.claim.tool && a.tool && c.claim.tool !== a.tool) return false;
  if (c.ts !== undefined && a.startTs !== undefined && a.startTs > c.ts + 1000) return false;
  return true;
}
