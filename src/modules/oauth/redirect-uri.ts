/**
 * Redirect URIs (docs/decisions.md "OAuth 2.0", RFC 9700 §2.1, RFC 8252 §7.3): `https` URLs, or `http` on a loopback
 * address for native apps; no fragment (RFC 6749 §3.1.2); no user info. Matching is exact string comparison.
 */
export function redirectUriProblem(uri: string): string | null {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return 'is not an absolute URL'
  }
  if (uri.length > 2000) return 'is too long'
  if (url.hash || uri.includes('#')) return 'must not contain a fragment'
  if (url.username || url.password) return 'must not contain user information'
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return null
  return 'must use https (or http on a loopback address)'
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname)
}

/** Exact match against the registered list: no prefix, wildcard or normalisation (RFC 9700 §4.1.3). */
export function isRegistered(registered: readonly string[], uri: string): boolean {
  return registered.includes(uri)
}

/** Appends the authorization response parameters to a registered redirect URI, keeping its own query. */
export function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri)
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value)
  return url.toString()
}
