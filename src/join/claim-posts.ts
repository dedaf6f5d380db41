// What a client's claim says of how many POSTs (or requests) its call made: shared by the claim join and the retry rules.
import type { Claim } from '../schema/record.js';

/** The number of POSTs a claim admits: the fewer of its postCount and its statuses; Infinity when it says neither. */
export function claimAdmits(c: Claim): number {
  return Math.min(c.postCount ?? Infinity, c.httpStatuses?.length ?? Infinity);
}

/** A claim for a whole call that went out more than once (postCount or statuses above one): compared with its final attempt. */
export function claimsSeveralPosts(c: Claim): boolean {
  const n = claimAdmits(c);
  return n > 1 && n !== Infinity;
}
