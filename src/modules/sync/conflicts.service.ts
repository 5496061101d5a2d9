import { notFound } from '../../platform/errors/app-error.ts'
import { actorOf, type RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, toPage } from '../../platform/http/pagination.ts'
import * as repo from './conflicts.repo.ts'
import type { ConflictListQuery } from './sync.schemas.ts'

/** The conflicts offline sales left (docs/sync.md): listed for a manager, resolved by saying what was done. */
export function createConflictsService() {
  return {
    async list(ctx: RequestContext, query: ConflictListQuery) {
      const rows = await ctx.db.read((q) =>
        repo.listConflicts(q, ctx.orgId, {
          resolved: query.status === 'resolved',
          afterId: afterIdOf(query.cursor),
          limit: query.limit + 1,
        }),
      )
      return toPage(
        rows,
        query.limit,
        (r) => [r.id],
        (r) => r,
      )
    },

    async resolve(ctx: RequestContext, id: string, resolution: string) {
      const row = await ctx.db.tx((q) => repo.resolveConflict(q, ctx.orgId, id, actorOf(ctx), resolution))
      if (!row) throw notFound('open conflict')
      return row
    },
  }
}

export type ConflictsService = ReturnType<typeof createConflictsService>
