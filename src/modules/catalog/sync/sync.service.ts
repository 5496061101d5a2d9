import type { RequestContext } from '../../../platform/http/context.ts'
import type { OrgsService } from '../../orgs/index.ts'
import * as bundlesRepo from '../bundles/bundles.repo.ts'
import { toBundle } from '../bundles/bundles.service.ts'
import type { BundleRow } from '../bundles/bundles.tables.ts'
import { toCategory } from '../categories/categories.service.ts'
import type { CategoryRow } from '../categories/categories.tables.ts'
import { withChildren } from '../child-rows.ts'
import { modifierGroupsOfProducts } from '../graphql/loaders.repo.ts'
import * as markdownsRepo from '../markdowns/markdowns.repo.ts'
import { toMarkdown } from '../markdowns/markdowns.service.ts'
import type { MarkdownRow } from '../markdowns/markdowns.tables.ts'
import * as modifiersRepo from '../modifiers/modifiers.repo.ts'
import { toGroup } from '../modifiers/modifiers.service.ts'
import type { GroupRow } from '../modifiers/modifiers.tables.ts'
import * as priceListsRepo from '../price-lists/price-lists.repo.ts'
import { toPriceList } from '../price-lists/price-lists.service.ts'
import type { PriceListRow } from '../price-lists/price-lists.tables.ts'
import { toProduct } from '../products/products.service.ts'
import type { ProductRow } from '../products/products.tables.ts'
import * as soldOutRepo from '../sold-out/sold-out.repo.ts'
import { toSoldOut } from '../sold-out/sold-out.service.ts'
import { toVariant } from '../variants/variants.service.ts'
import type { VariantRow } from '../variants/variants.tables.ts'
import * as repo from './sync.repo.ts'

/**
 * The catalog a till carries (docs/sync.md): every tracked collection in full, or only what was written since a
 * version with what was deleted, plus the location's sold-out marks (always whole: they are few). One read, its
 * version taken first.
 */
export function createCatalogSyncService(orgs: Pick<OrgsService, 'currencyOf'>) {
  return {
    async changes(ctx: RequestContext, since: string | null, locationId: string) {
      const currency = await orgs.currencyOf(ctx)
      return ctx.db.read(async (q) => {
        const version = await repo.snapshotVersion(q)
        const rows = <R>(kind: repo.TrackedKind) => repo.changedRows<R>(q, kind, ctx.orgId, since)
        const products = await rows<ProductRow>('products')
        // One map for 10,000 products: filtering the links per product would be quadratic.
        const groupsOf = new Map<string, string[]>()
        const links = products.length
          ? await modifierGroupsOfProducts(
              q,
              ctx.orgId,
              products.map((p) => p.id),
            )
          : []
        // Read through a product, each link names it.
        for (const l of links) groupsOf.set(l.product_id!, [...(groupsOf.get(l.product_id!) ?? []), l.id])
        const variants = await rows<VariantRow>('variants')
        const categories = await rows<CategoryRow>('categories')
        const modifierGroups = await withChildren(
          await rows<GroupRow>('modifier_groups'),
          (ids) => modifiersRepo.optionsOf(q, ctx.orgId, ids),
          (g, options) => toGroup(g, options, currency),
        )
        const priceLists = await withChildren(
          await rows<PriceListRow>('price_lists'),
          (ids) => priceListsRepo.pricesOf(q, ctx.orgId, ids),
          (l, prices) => toPriceList(l, prices, currency),
        )
        const bundles = await withChildren(
          await rows<BundleRow>('bundles'),
          (ids) => bundlesRepo.componentsOf(q, ctx.orgId, ids),
          toBundle,
        )
        const markdowns = await withChildren(
          await rows<MarkdownRow>('markdowns'),
          (ids) => markdownsRepo.targetsOf(q, ctx.orgId, ids),
          (m, targets) => toMarkdown(m, targets, currency),
        )
        const deleted = since ? await repo.deletedSince(q, ctx.orgId, since) : []
        const soldOut = await soldOutRepo.soldOutAt(q, ctx.orgId, locationId)
        return {
          version,
          products: products.map((p) => ({ ...toProduct(p, currency), modifier_group_ids: groupsOf.get(p.id) ?? [] })),
          variants: variants.map((v) => toVariant(v, currency)),
          categories: categories.map(toCategory),
          modifier_groups: modifierGroups,
          price_lists: priceLists,
          bundles,
          markdowns,
          sold_out: soldOut.map(toSoldOut),
          deleted: Object.fromEntries(
            Object.keys(repo.TRACKED).map((kind) => [kind, deleted.filter((d) => d.kind === kind).map((d) => d.id)]),
          ) as Record<repo.TrackedKind, string[]>,
        }
      })
    },
  }
}
