/**
 * Promise.all for work sent together whose failures have a precedence: when several reject, the first in
 * argument order wins, not the first in time, so the same bad request always gets the same error.
 */
export async function allInOrder<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [ra, rb] = await Promise.allSettled([a, b])
  if (ra.status === 'rejected') throw ra.reason
  if (rb.status === 'rejected') throw rb.reason
  return [ra.value, rb.value]
}
