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

const Amount = (description?: string) => Type.Number({ minimum: 0, ...(description ? { description } : {}) })
const Id = Type.String({ minLength: 1, maxLength: 100 })

const OfflineLine = Type.Object(
  {
    product_id: Id,
    variant_id: Type.Optional(Type.Union([Id, Type.Null()])),
    quantity: Type.Integer({ minimum: 1, maximum: 100000 }),
    modifiers: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Id,
            group_id: Type.Optional(Id),
            name: Type.String({ maxLength: 200 }),
            price_adjustment: Type.Number(),
          },
          { additionalProperties: false },
        ),
        { maxItems: 50, description: 'the options chosen, as the till priced them (in unit_price already)' },
      ),
    ),
    note: Type.Optional(Type.String({ maxLength: 500 })),
    unit_price: Amount('one unit with its modifiers, after price list and markdown'),
    tax_rate: Type.Number({ minimum: 0, maximum: 100, description: 'percent, the rates applied summed' }),
    line_subtotal: Amount('unit_price × quantity'),
    line_discount: Amount(),
    line_tax: Amount(),
    line_total: Amount('subtotal less discount, plus tax unless prices include it'),
  },
  { additionalProperties: false },
)

const OfflineDiscount = Type.Object(
  {
    type: Type.Union([Type.Literal('amount'), Type.Literal('percentage'), Type.Literal('campaign')]),
    reason: Type.String({ minLength: 1, maxLength: 200, description: "the till's reason, or the campaign's name" }),
    value: Type.Optional(Type.Number({ minimum: 0, description: 'what was asked (an amount or a percentage)' })),
    amount: Amount('what it came to'),
    campaign_id: Type.Optional(Id),
    voucher_code: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: 'a campaign discount: the voucher the customer gave' }),
    ),
  },
  { additionalProperties: false },
)

const OfflineTender = Type.Object(
  {
    method: Type.Union(
      [Type.Literal('cash'), Type.Literal('external'), Type.Literal('card'), Type.Literal('gift_card')],
      {
        description:
          'cash and external are recorded as taken; a gift card is redeemed at sync up to its balance; a card is authorized by the worker after sync',
      },
    ),
    amount: Type.Number({ exclusiveMinimum: 0 }),
    tip: Type.Optional(Amount('what of the amount was a tip')),
    cash_tendered: Type.Optional(Amount('cash: what the customer handed over')),
    gift_card_code: Type.Optional(Type.String({ minLength: 4, maxLength: 64, description: 'gift_card: the card' })),
    payment_method_token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        description: "card: what the processor's SDK stored on the till for a card taken offline",
      }),
    ),
  },
  { additionalProperties: false },
)

const OfflineSaleSchema = Type.Object(
  {
    client_sale_id: Type.String({
      pattern: '^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$',
      description: "the till's own id for the sale, a ULID: the key that makes sending it again a no-op",
    }),
    number: Type.Optional(
      Type.Integer({ minimum: 1, description: 'the order number the till printed, one it held (POST /sync/numbers)' }),
    ),
    sold_at: Type.String({ format: 'date-time', description: 'when it was sold, by the till’s clock' }),
    sold_by: Type.Optional(Type.Union([Id, Type.Null()], { description: 'the last user verified on the till' })),
    shift_id: Type.Optional(Type.Union([Id, Type.Null()], { description: 'the shift it was sold in' })),
    customer_id: Type.Optional(Type.Union([Id, Type.Null()])),
    catalog_version: Type.Optional(Type.String({ maxLength: 40, description: 'the snapshot it was priced with' })),
    lines: Type.Array(OfflineLine, { minItems: 1, maxItems: 200 }),
    discounts: Type.Optional(Type.Array(OfflineDiscount, { maxItems: 20, description: 'what made discount_total' })),
    tip: Type.Optional(Amount()),
    subtotal: Amount(),
    discount_total: Amount(),
    tax_total: Amount(),
    total: Amount('with the tip'),
    payments: Type.Array(OfflineTender, { maxItems: 10 }),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
)
export type OfflineSale = Static<typeof OfflineSaleSchema>

export const NumbersBody = Type.Object(
  {
    count: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, default: 200, description: 'how many unused numbers to hold' }),
    ),
  },
  { additionalProperties: false },
)

export const NumbersSchema = Type.Object({
  numbers: Type.Array(Type.Integer(), { description: 'the unused numbers the till holds, in order' }),
})

export const SyncOrdersBody = Type.Object(
  { sales: Type.Array(OfflineSaleSchema, { minItems: 1, maxItems: 500 }) },
  { additionalProperties: false },
)
export type SyncOrdersBody = Static<typeof SyncOrdersBody>

const Conflict = Type.Object({
  code: Type.String({
    description:
      'stock_negative, price_differs, gift_card_short, card_declined, balance_due, voucher_used_up, campaign_limit_reached, customer_limit_reached, unknown_campaign, unknown_voucher, number_not_held, unknown_staff, unknown_shift, unknown_customer (docs/sync.md)',
  }),
  message: Type.String(),
})

export const SaleResultSchema = Type.Object(
  {
    client_sale_id: Type.String(),
    result: Type.Union(
      [
        Type.Literal('recorded'),
        Type.Literal('recorded_with_conflicts'),
        Type.Literal('already_recorded'),
        Type.Literal('refused'),
      ],
      { description: 'refused: its figures do not add up (or it cannot be recorded yet); nothing of it was kept' },
    ),
    order_id: Type.Union([Type.String(), Type.Null()]),
    number: Type.Union([Type.Integer(), Type.Null()]),
    conflicts: Type.Array(Conflict),
    errors: Type.Array(Type.Object({ field: Type.String(), message: Type.String(), code: Type.String() }), {
      description: 'why a refused sale was refused, each naming its field',
    }),
  },
  { $id: 'SyncSaleResult' },
)
export type SaleResult = Static<typeof SaleResultSchema>

export const SyncConflictSchema = Type.Object(
  {
    id: Type.String(),
    order_id: Type.String(),
    client_sale_id: Type.String(),
    code: Type.String(),
    message: Type.String(),
    details: Type.Record(Type.String(), Type.Unknown()),
    created_at: Type.String({ format: 'date-time' }),
    resolved_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    resolved_by: Type.Union([Type.String(), Type.Null()]),
    resolution: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'SyncConflict' },
)

export const ConflictListQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
    status: Type.Optional(
      Type.Union([Type.Literal('open'), Type.Literal('resolved')], { description: 'default open' }),
    ),
  },
  { additionalProperties: false },
)
export type ConflictListQuery = Static<typeof ConflictListQuery>

export const ResolveConflictBody = Type.Object(
  { resolution: Type.String({ minLength: 1, maxLength: 500, description: 'what was done: a count, a transfer…' }) },
  { additionalProperties: false },
)
