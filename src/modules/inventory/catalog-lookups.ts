import { AppError } from '../../platform/errors/app-error.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import type { CatalogPort } from './ports.ts'

/** The org's variants among `ids` (others are simply absent), through the catalog's own look-up. */
export async function variantsByIds(catalog: CatalogPort, ctx: RequestContext, ids: readonly string[]) {
  const found = await Promise.all(
    [...new Set(ids)].map((id) =>
      catalog.variants.get(ctx, id).catch((error: unknown) => {
        if (error instanceof AppError && error.status === 404) return undefined
        throw error
      }),
    ),
  )
  return new Map(found.flatMap((v) => (v ? [[v.id, v] as const] : [])))
}
