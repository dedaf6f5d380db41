// The HTTP client's own re-sends of a request (after a 421, to a redirect's Location): POSTs of one call, not retries of the application's.

/** The start of the how of an HTTP client's re-send after 421 (retry-origin.ts, misdirectedResend). */
export const MISDIRECTED_RESEND = 'the same request posted again at once after HTTP 421 Misdirected Request';

/** The start of the how of a request its HTTP client sent to a redirect's Location (retry-origin.ts, redirectFollowUp). */
export const REDIRECT_FOLLOWED = 'the same request sent again to where HTTP';

/**
 * Whether a retry is its HTTP client's own re-send: after a 421 (the Fetch standard's), or to the Location of a redirect
 * it followed; below the application and its retry policy.
 */
export function httpClientResend(a: { retryOrigin?: { origin: string; how: string } | undefined }): boolean {
  return a.retryOrigin?.origin === 'sdk' && (a.retryOrigin.how.startsWith(MISDIRECTED_RESEND) || a.retryOrigin.how.startsWith(REDIRECT_FOLLOWED));
}

/** Whether a retry is its HTTP client's request to the Location of a redirect it followed. */
export function redirectFollowed(a: { retryOrigin?: { origin: string; how: string } | undefined }): boolean {
  return a.retryOrigin?.origin === 'sdk' && a.retryOrigin.how.startsWith(REDIRECT_FOLLOWED);
}
