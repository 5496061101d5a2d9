/**
 * Cache keys. Each starts with the org of the verified token and the org's catalog version, so one org's
 * answer can never be found by another, and a write makes every older key unreachable.
 */

/** REST: the path and the query parameters in sorted order (`?b=1&a=2` and `?a=2&b=1` are one answer). */
export function restKey(orgId: string, version: string, url: string): string {
  const mark = url.indexOf('?')
  if (mark < 0) return `rest\n${orgId}\n${version}\n${url}`
  const params = new URLSearchParams(url.slice(mark + 1))
  params.sort()
  return `rest\n${orgId}\n${version}\n${url.slice(0, mark)}?${params.toString()}`
}

/**
 * GraphQL: the query text, the variables and the operation name, plus the token's scopes, since a field the
 * token may not read answers with an error instead of data.
 */
export function graphqlKey(
  orgId: string,
  version: string,
  scopes: ReadonlySet<string>,
  query: string,
  variables: unknown,
  operationName: string | undefined,
): string {
  return `gql\n${orgId}\n${version}\n${scopeKey(scopes)}\n${operationName ?? ''}\n${canonicalJson(variables ?? null)}\n${query}`
}

/** A set of scopes in sorted order, kept per set: a verified token's set serves all of its requests. */
const scopeKeys = new WeakMap<ReadonlySet<string>, string>()
function scopeKey(scopes: ReadonlySet<string>): string {
  let key = scopeKeys.get(scopes)
  if (key === undefined) {
    key = [...scopes].sort().join(' ')
    scopeKeys.set(scopes, key)
  }
  return key
}

/** JSON with sorted keys, so the same variables in another key order are one answer. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
}
