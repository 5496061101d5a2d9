import { badRequest } from '../errors/app-error.ts'

export interface Page<T> {
  data: T[]
  pagination: { nextCursor: string | null; hasMore: boolean }
}

/** Cursors are opaque to clients: base64url of the sort key of the last row served. */
export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url')
}

/** Decodes a cursor made by `encodeCursor` with `arity` parts; anything else is a 400 naming `cursor`. */
export function decodeCursor(cursor: string | undefined, arity: number): (string | number)[] | undefined {
  if (cursor === undefined) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    parsed = undefined
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== arity ||
    !parsed.every((p) => typeof p === 'string' || (typeof p === 'number' && Number.isFinite(p)))
  ) {
    throw badRequest('cursor is malformed', [
      { field: 'cursor', message: 'is not a cursor this API issued', code: 'invalid_cursor' },
    ])
  }
  return parsed
}

/** The id a one-part cursor (keyset by id) continues after, or null for the first page. */
export function afterIdOf(cursor: string | undefined): string | null {
  const [afterId] = decodeCursor(cursor, 1) ?? []
  return afterId === undefined ? null : String(afterId)
}

/**
 * Builds a page from rows fetched with `limit + 1`: the extra row only proves there is more, so a total that is
 * an exact multiple of the page size never yields an empty last page.
 */
export function toPage<R, T>(
  rows: R[],
  limit: number,
  keyOf: (row: R) => (string | number)[],
  map: (row: R) => T,
): Page<T> {
  const hasMore = rows.length > limit
  const served = hasMore ? rows.slice(0, limit) : rows
  return {
    data: served.map(map),
    pagination: { nextCursor: hasMore ? encodeCursor(keyOf(served[served.length - 1])) : null, hasMore },
  }
}

/** Every item of a paginated list, page after page (for a snapshot of a small collection). */
export async function everyPage<T>(page: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = []
  let cursor: string | undefined
  do {
    const next = await page(cursor)
    items.push(...next.data)
    cursor = next.pagination.nextCursor ?? undefined
  } while (cursor)
  return items
}
