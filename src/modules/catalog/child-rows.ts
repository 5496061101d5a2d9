import { type Page, toPage } from '../../platform/http/pagination.ts'

/**
 * Maps parent rows together with their child rows (prices, targets, components, options), loaded in one query
 * for all parents rather than one per parent; no query at all when there are no parents.
 */
export async function withChildren<R extends { id: string }, C, T>(
  rows: readonly R[],
  childrenOf: (ids: string[]) => Promise<C[]>,
  map: (row: R, children: C[]) => T,
): Promise<T[]> {
  const children = rows.length ? await childrenOf(rows.map((r) => r.id)) : []
  return rows.map((r) => map(r, children))
}

/**
 * One page of parents fetched with `limit + 1` rows, keyed by id; children are loaded only for the rows served,
 * not for the extra row that merely proves there is more.
 */
export async function pageWithChildren<R extends { id: string }, C, T>(
  rows: R[],
  limit: number,
  childrenOf: (ids: string[]) => Promise<C[]>,
  map: (row: R, children: C[]) => T,
): Promise<Page<T>> {
  const page = toPage(
    rows,
    limit,
    (r) => [r.id],
    (r) => r,
  )
  return { data: await withChildren(page.data, childrenOf, map), pagination: page.pagination }
}
