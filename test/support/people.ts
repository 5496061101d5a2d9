import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import type { Role } from '../../src/platform/http/context.ts'
import { clientFor, type TestApp } from './harness.ts'

export type Api = ReturnType<typeof clientFor>

export interface Person {
  id: string
  email: string
  password: string
  accessToken: string
  refreshToken: string
  api: Api
}

/** The token at the end of an invitation or reset link. */
export const tokenOf = (url: string) => url.split('/').pop()!

/**
 * A person invited through the API by `inviter` (no SMTP: the link is in the answer), who accepts with a password
 * and signs in: the whole path a new member of staff takes.
 */
export async function invitedAndSignedIn(app: TestApp, inviter: Api, role: Role): Promise<Person> {
  const email = `${role}-${randomBytes(5).toString('hex')}@staff.example`
  const password = `passphrase ${randomBytes(6).toString('hex')}`
  const invited = await inviter.post('/api/v1/users', { email, role, name: `A ${role}` })
  assert.equal(invited.status, 201, JSON.stringify(invited.body))
  const anonymous = clientFor(app.api)
  const accepted = await anonymous.post('/api/v1/auth/invitations/accept', {
    token: tokenOf(invited.body.data.url),
    password,
  })
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body))
  return { id: accepted.body.data.user_id, email, password, ...(await signIn(app, email, password)) }
}

export async function signIn(app: TestApp, email: string, password: string) {
  const login = await clientFor(app.api).post('/api/v1/auth/login', { email, password })
  assert.equal(login.status, 200, JSON.stringify(login.body))
  const { accessToken, refreshToken } = login.body.data
  return { accessToken, refreshToken, api: clientFor(app.api, accessToken) }
}
