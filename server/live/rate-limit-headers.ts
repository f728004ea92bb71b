/**
 * The IETF draft's RateLimit headers (draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy`
 * and `RateLimit`) for the limits that hold one address's requests at once: the event feed's
 * streams and the read API's ledger-wide (asOf) reads. Each is a quota of concurrent requests
 * (`qu="concurrent-requests"`), so a client learns it before it hits it rather than by a 429.
 */

/** The headers saying a limit of `quota` at once from one address, with `remaining` of it left. */
export function rateLimitHeaders(policy: string, quota: number, remaining: number): Record<string, string> {
  return {
    'ratelimit-policy': `"${policy}";q=${quota};qu="concurrent-requests"`,
    ratelimit: `"${policy}";r=${Math.max(0, remaining)}`,
  };
}

/** The headers a page on another site must be allowed to read to see them. */
export const RATE_LIMIT_EXPOSED = 'RateLimit-Policy, RateLimit';
