/**
 * The back office's access to the API: the web app keeps the sign-in in an HttpOnly cookie and hands this page
 * short-lived access tokens through POST /dashboard/session (same origin, Origin checked). No refresh token ever
 * reaches the page; a token about to expire is fetched again, once for all the calls waiting on it.
 */
export interface Grant {
  access_token: string
  expires_in: number
  api_url: string
  email: string
  scopes: string[]
  csrf: string
}

let current: { grant: Grant; expiresAt: number } | undefined
let pending: Promise<Grant> | undefined

/** Off to the sign-in page, back here afterwards. */
function signInAgain(): never {
  window.location.assign(`/login?return_to=${encodeURIComponent(window.location.pathname + window.location.search)}`)
  throw new Error('signed out')
}

async function fetchGrant(): Promise<Grant> {
  const response = await fetch('/dashboard/session', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  })
  if (response.status === 401) signInAgain()
  if (!response.ok) throw new Error(`the back office could not start (${response.status})`)
  const grant = (await response.json()) as Grant
  current = { grant, expiresAt: Date.now() + grant.expires_in * 1000 }
  return grant
}

/** The grant, fetched again within a minute of its token's expiry. */
export function grant(): Promise<Grant> {
  if (current && current.expiresAt - Date.now() > 60_000) return Promise.resolve(current.grant)
  pending ??= fetchGrant().finally(() => {
    pending = undefined
  })
  return pending
}

export const accessToken = async () => (await grant()).access_token

/** A new grant whatever the last one's expiry: the API refused its token (signed out or revoked elsewhere). */
export function freshGrant(): Promise<Grant> {
  current = undefined
  return grant()
}
