import { type Static, type TSchema, Type } from 'typebox'
import { Money } from '../../platform/http/schemas.ts'

const Day = Type.String({ format: 'date', description: 'a local day, YYYY-MM-DD (each location’s time zone)' })

export const ReportQuery = Type.Object(
  {
    from: Type.Optional(Day),
    to: Type.Optional(Day),
    location_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('csv')], { description: 'csv also with Accept: text/csv' }),
    ),
  },
  { additionalProperties: false },
)
export type ReportQuery = Static<typeof ReportQuery>

export const SalesQuery = Type.Object(
  {
    ...ReportQuery.properties,
    group_by: Type.Optional(
      Type.Union(
        [
          Type.Literal('day'),
          Type.Literal('hour'),
          Type.Literal('week'),
          Type.Literal('month'),
          Type.Literal('location'),
          Type.Literal('product'),
          Type.Literal('category'),
          Type.Literal('register'),
        ],
        {
          description:
            'default day; week starts on Monday; hour sums each hour of the day (00:00 to 23:00) over the period, in each location’s time zone',
        },
      ),
    ),
  },
  { additionalProperties: false },
)
export type SalesQuery = Static<typeof SalesQuery>

export const InventoryReportQuery = Type.Object(
  {
    location_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    format: ReportQuery.properties.format,
  },
  { additionalProperties: false },
)
export type InventoryReportQuery = Static<typeof InventoryReportQuery>

export const SnapshotQuery = Type.Object({ format: ReportQuery.properties.format }, { additionalProperties: false })

const Row = Type.Object({}, { additionalProperties: true, description: 'one row; its fields are the CSV columns' })

/** What every report's service answer has in common; each route answers its own named shape (below). */
const ReportSchema = Type.Object(
  {
    report: Type.String(),
    currency: Type.String(),
    from: Type.Optional(Type.String()),
    to: Type.Optional(Type.String()),
    group_by: Type.Optional(Type.String()),
    location_id: Type.Union([Type.String(), Type.Null()]),
    rows: Type.Array(Row),
    totals: Type.Object({}, { additionalProperties: true }),
  },
  { description: 'a report: its rows and their totals' },
)

/** A row or the totals: the schema leaves their fields open (the CSV columns); each cell is a string, number or null. */
type ReportRow = Record<string, string | number | null>
export type Report = Omit<Static<typeof ReportSchema>, 'rows' | 'totals'> & { rows: ReportRow[]; totals: ReportRow }

const Int = Type.Integer()
const NullableString = Type.Union([Type.String(), Type.Null()])

/** Sales figures of a period, location, product or category (money in the currency). */
const SalesFigures = {
  gross_sales: Money,
  discounts: Money,
  net_sales: Type.Number({ description: 'total less tax and tips' }),
  tax: Money,
  total: Money,
}
const WithRefunds = {
  orders: Int,
  ...SalesFigures,
  tips: Type.Number({ description: 'the tips in the total, apart from the sales' }),
  refunds: Int,
  refunded: Money,
  tips_refunded: Type.Number({ description: 'what of refunded was tips' }),
  total_after_refunds: Money,
}
const SalesTotals = Type.Object(WithRefunds)
const ProductTotals = Type.Object({ quantity: Int, ...SalesFigures })
const PaymentFigures = { payments: Int, captured: Money, refunded: Money, net: Money }

/** The envelope every report answers: what it is, its currency, its range, its rows and their totals. */
function reportOf<R extends TSchema, T extends TSchema>(
  report: string,
  rows: R,
  totals: T,
  extra: Record<string, TSchema> = {},
) {
  return Type.Object({
    report: Type.Literal(report),
    currency: Type.String(),
    from: Type.Optional(Type.String()),
    to: Type.Optional(Type.String()),
    location_id: NullableString,
    ...extra,
    rows: Type.Array(rows),
    totals,
  })
}

const grouped = (by: string[]) => (by.length === 1 ? Type.Literal(by[0]) : Type.Union(by.map((b) => Type.Literal(b))))

/** GET /reports/sales, one shape per `group_by`: a client narrows on it. */
const SalesReportSchema = Type.Union(
  [
    reportOf('sales', Type.Object({ period: Type.String(), ...WithRefunds }), SalesTotals, {
      group_by: grouped(['day', 'hour', 'week', 'month']),
    }),
    reportOf('sales', Type.Object({ location_id: Type.String(), ...WithRefunds }), SalesTotals, {
      group_by: grouped(['location']),
    }),
    reportOf(
      'sales',
      Type.Object({
        product_id: Type.String(),
        name: Type.String(),
        category_id: NullableString,
        quantity: Int,
        ...SalesFigures,
      }),
      ProductTotals,
      { group_by: grouped(['product']) },
    ),
    reportOf(
      'sales',
      Type.Object({ category_id: NullableString, name: Type.String(), quantity: Int, ...SalesFigures }),
      ProductTotals,
      { group_by: grouped(['category']) },
    ),
    reportOf('sales', Type.Object({ register_id: NullableString, ...PaymentFigures }), Type.Object(PaymentFigures), {
      group_by: grouped(['register']),
    }),
  ],
  { $id: 'SalesReport' },
)

const PaymentsReportSchema = Type.Object(
  reportOf('payments', Type.Object({ method: Type.String(), ...PaymentFigures }), Type.Object(PaymentFigures))
    .properties,
  { $id: 'PaymentsReport' },
)

const RefundsReportSchema = Type.Object(
  reportOf(
    'refunds',
    Type.Object({ day: Type.String(), refunds: Int, amount: Money, quantity: Int }),
    Type.Object({ refunds: Int, amount: Money, quantity: Int }),
  ).properties,
  { $id: 'RefundsReport' },
)

const TaxReportSchema = Type.Object(
  reportOf(
    'tax',
    Type.Object({ tax_rate: Type.Number({ description: 'percent' }), taxable: Money, tax: Money }),
    Type.Object({ taxable: Money, tax: Money }),
  ).properties,
  { $id: 'TaxReport' },
)

const DiscountsReportSchema = Type.Object(
  reportOf(
    'discounts',
    Type.Object({
      campaign_id: Type.String(),
      name: Type.String(),
      redemptions: Int,
      orders: Int,
      discount: Money,
      revenue: Money,
    }),
    Type.Object({ redemptions: Int, discount: Money }),
  ).properties,
  { $id: 'DiscountsReport' },
)

const InventoryReportSchema = Type.Object(
  reportOf(
    'inventory',
    Type.Object({
      product_id: Type.String(),
      variant_id: NullableString,
      name: Type.String(),
      on_hand: Int,
      cost: Type.Union([Money, Type.Null()]),
      value: Type.Union([Money, Type.Null()], { description: 'on hand at cost; null without a cost' }),
    }),
    Type.Object({ items: Int, on_hand: Int, value: Money, items_without_cost: Int }),
  ).properties,
  { $id: 'InventoryReport' },
)

const LoyaltyFigures = { members: Int, points_outstanding: Int, value: Money }
const LoyaltyReportSchema = Type.Object(
  reportOf(
    'loyalty',
    Type.Object({
      tier: Type.Union([Type.String(), Type.Null()], { description: 'null: members of no tier' }),
      ...LoyaltyFigures,
    }),
    Type.Object(LoyaltyFigures),
  ).properties,
  {
    $id: 'LoyaltyReport',
  },
)

const GiftCardFigures = Type.Object({ cards: Int, balance_outstanding: Money })
const GiftCardsReportSchema = Type.Object(reportOf('gift_cards', GiftCardFigures, GiftCardFigures).properties, {
  $id: 'GiftCardsReport',
})

/** Every named report shape, registered with the routes. */
export const StaffQuery = Type.Object(
  {
    ...ReportQuery.properties,
    group_by: Type.Optional(
      Type.Union([Type.Literal('user'), Type.Literal('register')], {
        description: 'user (default): who sold, refunded or voided; register: the till where they did',
      }),
    ),
  },
  { additionalProperties: false },
)
export type StaffQuery = Static<typeof StaffQuery>

const StaffFigures = {
  orders: Int,
  sales: Type.Number({ description: 'the completed orders’ totals' }),
  discounts: Money,
  tips: Type.Number({ description: 'the tips of their sales' }),
  refunds: Int,
  refunded: Money,
  voids: Int,
  voided: Type.Number({ description: 'the voided orders’ totals' }),
}
const UnknownWhenNull = (what: string) =>
  Type.Union([Type.String(), Type.Null()], {
    description: `the ${what}; null: unknown (before staff were recorded, or an app's)`,
  })

/** GET /reports/staff: what each member of staff, or each register, sold, refunded and voided. */
const StaffReportSchema = Type.Union(
  [
    reportOf('staff', Type.Object({ user_id: UnknownWhenNull('user'), ...StaffFigures }), Type.Object(StaffFigures), {
      group_by: grouped(['user']),
    }),
    reportOf(
      'staff',
      Type.Object({ register_id: UnknownWhenNull('register'), ...StaffFigures }),
      Type.Object(StaffFigures),
      { group_by: grouped(['register']) },
    ),
  ],
  { $id: 'StaffReport' },
)

export const REPORT_SCHEMAS = [
  StaffReportSchema,
  SalesReportSchema,
  PaymentsReportSchema,
  RefundsReportSchema,
  TaxReportSchema,
  DiscountsReportSchema,
  InventoryReportSchema,
  LoyaltyReportSchema,
  GiftCardsReportSchema,
]
