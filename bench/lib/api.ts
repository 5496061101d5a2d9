import assert from 'node:assert/strict'
import type { JsonBody } from '../../test/support/harness.ts'
import type { BenchTarget } from './types.ts'

/** The seeded owner's JSON calls against the app under test; a call that fails stops the benchmark. */
export function apiOf(t: Pick<BenchTarget, 'apiUrl' | 'token'>) {
  const headers = { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' }
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${t.apiUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const json = (await res.json()) as JsonBody
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
    return json
  }
  return { headers, call }
}
