/**
 * Promise.all for work sent together whose failures have a precedence: when several reject, the first in
 * argument order wins, not the first in time, so the same bad request always gets the same error.
 */
export async function allInOrder<T extends readonly unknown[]>(
  ...promises: { readonly [K in keyof T]: Promise<T[K]> }
): Promise<T> {
  const settled = await Promise.allSettled(promises)
  for (const result of settled) if (result.status === 'rejected') throw result.reason
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as T
}
