/** A list answer of the API: a page of items and where the next page starts. */
interface Page<T> {
  data: T[]
  pagination: { nextCursor: string | null; hasMore: boolean }
}

/**
 * Every item of a list, page after page: `page(cursor)` asks for one page (cursor undefined for the first).
 * `for await (const product of each((cursor) => unwrap(client.GET('/api/v1/products', { params: { query: { cursor } } }))))`.
 */
export async function* each<T>(page: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T> {
  let cursor: string | undefined
  do {
    const answer = await page(cursor)
    yield* answer.data
    cursor = answer.pagination.hasMore && answer.pagination.nextCursor ? answer.pagination.nextCursor : undefined
  } while (cursor !== undefined)
}
