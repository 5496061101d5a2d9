import type { Queryable } from '../../platform/db/database.ts'
import { notFound } from '../../platform/errors/app-error.ts'
import { staleVersion } from '../../platform/http/concurrency.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { deleteVersioned, versionOf } from './catalog.repo.ts'

/**
 * Explains a versioned write that matched no row: a 404 when the org has no such row (other orgs' rows
 * included), else a 409 carrying the current version.
 */
export async function missingOrStale(
  q: Queryable,
  table: string,
  orgId: string,
  id: string,
  what: string,
): Promise<never> {
  const version = await versionOf(q, table, orgId, id)
  if (version === undefined) throw notFound(what)
  throw staleVersion(version)
}

/** Deletes a catalog row when `expectedVersion` is absent or current; what hangs off it goes by ON DELETE CASCADE. */
export async function removeVersioned(
  ctx: RequestContext,
  table: string,
  what: string,
  id: string,
  expectedVersion: number | undefined,
): Promise<void> {
  await ctx.db.tx(async (q) => {
    if (await deleteVersioned(q, table, ctx.orgId, id, expectedVersion)) return
    await missingOrStale(q, table, ctx.orgId, id, what)
  })
}
