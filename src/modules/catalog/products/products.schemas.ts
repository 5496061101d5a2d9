import { type Static, Type } from 'typebox'
import { Money, PageQuery, Timestamp, Version } from '../../../platform/http/schemas.ts'

const Name = Type.String({ minLength: 1, maxLength: 200 })
const Sku = Type.String({ minLength: 1, maxLength: 100 })
const Strings = (max: number) => Type.Array(Type.String({ minLength: 1, maxLength: max }), { maxItems: 50 })

export const ProductSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    sku: Type.String(),
    barcodes: Type.Array(Type.String()),
    base_price: Money,
    cost: Type.Union([Money, Type.Null()], { description: 'what one unit costs the merchant (inventory valuation)' }),
    currency: Type.String({ description: 'ISO 4217 currency of base_price (the org currency)' }),
    category_id: Type.Union([Type.String(), Type.Null()]),
    tags: Type.Array(Type.String()),
    is_active: Type.Boolean({ description: 'false once archived (DELETE)' }),
    track_inventory: Type.Boolean({
      description: 'false: sold without a stock level and leaving no movement (drinks, services); default true',
    }),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Product' },
)
export type Product = Static<typeof ProductSchema>

const writable = {
  name: Name,
  description: Type.String({ maxLength: 5000 }),
  sku: Sku,
  barcodes: Strings(64),
  base_price: Type.Number({ minimum: 0, description: 'decimal amount in the org currency' }),
  cost: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: 'unit cost in the org currency' }),
  category_id: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  tags: Strings(64),
  is_active: Type.Boolean(),
  track_inventory: Type.Boolean({ description: 'false: sold without counting stock' }),
}

/** The fields a write may leave out (all but name and SKU on a create). */
const optional = {
  description: Type.Optional(writable.description),
  barcodes: Type.Optional(writable.barcodes),
  base_price: Type.Optional(writable.base_price),
  cost: Type.Optional(writable.cost),
  category_id: Type.Optional(writable.category_id),
  tags: Type.Optional(writable.tags),
  is_active: Type.Optional(writable.is_active),
  track_inventory: Type.Optional(writable.track_inventory),
}

export const CreateProductBody = Type.Object(
  { name: writable.name, sku: writable.sku, ...optional },
  { additionalProperties: false },
)
export type CreateProductBody = Static<typeof CreateProductBody>

export const UpdateProductBody = Type.Object(
  {
    name: Type.Optional(writable.name),
    sku: Type.Optional(writable.sku),
    ...optional,
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
)
/** The fields an update sets: its body less the version, which guards the write. */
export type ProductInput = Omit<Static<typeof UpdateProductBody>, 'version'>

export const ProductBatchBody = Type.Object(
  {
    products: Type.Array(
      Type.Object(
        {
          sku: writable.sku,
          name: Type.Optional(writable.name),
          ...optional,
          version: Type.Optional({
            ...Version,
            description: 'the version the change was made from: 409 STALE_VERSION if the product changed since',
          }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 500 },
    ),
  },
  {
    additionalProperties: false,
    description:
      'products by SKU: a product with that SKU gets the fields given, any other SKU is a new product (name and base_price required); all or none',
  },
)
export type ProductBatchBody = Static<typeof ProductBatchBody>

export const ProductBatchResultSchema = Type.Object(
  {
    created: Type.Integer({ description: 'products made' }),
    updated: Type.Integer({ description: 'products changed' }),
    products: Type.Array(Type.Ref('Product'), { description: 'every product of the batch, in its order' }),
  },
  { $id: 'ProductBatchResult' },
)
export type ProductBatchResult = Omit<Static<typeof ProductBatchResultSchema>, 'products'> & { products: Product[] }

export const ProductListQuery = Type.Object(
  {
    ...PageQuery,
    category_id: Type.Optional(Type.String({ minLength: 1 })),
    is_active: Type.Optional(Type.Boolean()),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'search: name or SKU containing the text (case-insensitive; three characters or more use an index), or a barcode equal to it',
      }),
    ),
    barcode: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'products one of whose barcodes is exactly this: a scan, found through an index at any catalog size',
      }),
    ),
    sku: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'the product whose SKU is exactly this (case-sensitive)',
      }),
    ),
    ids: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4000,
        pattern: '^[A-Za-z0-9_-]+(,[A-Za-z0-9_-]+){0,99}$',
        description:
          'these products only: up to 100 ids, comma-separated (names for a page of stock levels or lines); not with q or barcode',
      }),
    ),
  },
  { additionalProperties: false },
)
export type ProductListQuery = Static<typeof ProductListQuery>
