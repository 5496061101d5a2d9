import { type Static, Type } from 'typebox'

export const CatalogQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,20}$',
        description: 'the version of the snapshot the till holds: answer only what changed since, deletions included',
      }),
    ),
    location_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: "default: the location of the till's register" }),
    ),
  },
  { additionalProperties: false },
)
export type CatalogQuery = Static<typeof CatalogQuery>

const Ids = Type.Array(Type.String())

export const CatalogSnapshotSchema = Type.Object(
  {
    version: Type.String({ description: 'send it back as `since` for the next delta' }),
    full: Type.Boolean({ description: 'true: the whole catalog; false: only what changed since `since`' }),
    location_id: Type.String(),
    settings: Type.Ref('Settings'),
    products: Type.Array(
      Type.Intersect([Type.Ref('Product'), Type.Object({ modifier_group_ids: Ids })], {
        description: 'with the ids of its modifier groups, in order',
      }),
    ),
    variants: Type.Array(Type.Ref('Variant')),
    categories: Type.Array(Type.Ref('Category')),
    modifier_groups: Type.Array(Type.Ref('ModifierGroup')),
    price_lists: Type.Array(Type.Ref('PriceList'), { description: 'every price list; each says its location' }),
    bundles: Type.Array(Type.Ref('Bundle')),
    markdowns: Type.Array(Type.Ref('Markdown')),
    deleted: Type.Object(
      {
        products: Ids,
        variants: Ids,
        categories: Ids,
        modifier_groups: Ids,
        price_lists: Ids,
        bundles: Ids,
        markdowns: Ids,
      },
      { description: 'ids deleted since `since` (empty in a full snapshot)' },
    ),
    tax_rates: Type.Array(Type.Ref('TaxRate'), { description: 'always whole' }),
    campaigns: Type.Array(Type.Ref('Campaign'), { description: 'the active and scheduled ones, always whole' }),
    payment_methods: Type.Array(Type.String(), { description: 'the methods the store takes, always whole' }),
    staff: Type.Array(Type.Ref('TillStaff'), { description: "the till's user picker, no PIN hash; always whole" }),
    sold_out: Type.Array(Type.Ref('SoldOutItem'), { description: 'what is sold out at the location; always whole' }),
  },
  { $id: 'CatalogSnapshot' },
)
export type CatalogSnapshot = Static<typeof CatalogSnapshotSchema>
