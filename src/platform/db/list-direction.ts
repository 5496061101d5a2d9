/** The keyset comparison and sort of a list read oldest or newest first (by its ULID ids, which sort by time). */
export const listDirection = (order: 'oldest' | 'newest' | undefined) =>
  order === 'newest' ? ({ after: '<', sort: 'DESC' } as const) : ({ after: '>', sort: 'ASC' } as const)
