import { type Static, Type } from 'typebox'
import { type Dated, Money, PageQuery, Timestamp, Version } from '../../platform/http/schemas.ts'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])
const Birthday = Type.String({ format: 'date', description: 'YYYY-MM-DD' })

export const CustomerSchema = Type.Object(
  {
    id: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    email: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    preferences: Type.Record(Type.String(), Type.Unknown()),
    birthday: Nullable(Type.String()),
    loyalty_member_id: Nullable(Type.String()),
    note: Type.String(),
    tags: Type.Array(Type.String(), { description: 'set by the API or by automations (tag a customer)' }),
    erased_at: Nullable(
      Type.String({
        format: 'date-time',
        description: 'when the customer was erased on request: every personal field is blank; orders keep the id',
      }),
    ),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Customer' },
)
/** As the service builds it: Dates, which the serializer writes as ISO strings. */
export type Customer = Dated<Static<typeof CustomerSchema>, 'created_at' | 'updated_at' | 'erased_at'>

const PurchaseHistorySchema = Type.Object({
  order_count: Type.Integer(),
  total_spent: Money,
  total_refunded: Money,
  currency: Type.String(),
  first_order_at: Nullable(Timestamp),
  last_order_at: Nullable(Timestamp),
})

export const CustomerProfileSchema = Type.Object(
  {
    ...CustomerSchema.properties,
    purchase_history: PurchaseHistorySchema,
  },
  { $id: 'CustomerProfile' },
)

const fields = {
  first_name: Type.String({ maxLength: 100 }),
  last_name: Type.String({ maxLength: 100 }),
  email: Nullable(Type.String({ format: 'email', maxLength: 254 })),
  phone: Nullable(
    Type.String({ pattern: '^\\+?[0-9 ()./-]{4,30}$', description: 'digits with optional +, spaces, dashes' }),
  ),
  preferences: Type.Record(Type.String(), Type.Unknown(), {
    description: 'free-form preferences object (replaced whole)',
  }),
  birthday: Nullable(Birthday),
  loyalty_member_id: Nullable(Type.String({ minLength: 1, maxLength: 100 })),
  note: Type.String({ maxLength: 2000 }),
  tags: Type.Array(Type.String({ minLength: 1, maxLength: 50 }), {
    maxItems: 50,
    uniqueItems: true,
    description: 'replaced whole; campaigns can be limited to customers with a tag',
  }),
}

export const UpsertCustomerBody = Type.Object(
  {
    first_name: Type.Optional(fields.first_name),
    last_name: Type.Optional(fields.last_name),
    email: Type.Optional(fields.email),
    phone: Type.Optional(fields.phone),
    preferences: Type.Optional(fields.preferences),
    birthday: Type.Optional(fields.birthday),
    loyalty_member_id: Type.Optional(fields.loyalty_member_id),
    note: Type.Optional(fields.note),
    tags: Type.Optional(fields.tags),
  },
  { additionalProperties: false },
)
/** Also the fields of an update, its version taken apart by the route. */
export type UpsertCustomerBody = Static<typeof UpsertCustomerBody>

export const UpdateCustomerBody = Type.Object(
  { ...UpsertCustomerBody.properties, version: Type.Optional(Version) },
  { additionalProperties: false },
)

export const CustomerListQuery = Type.Object(
  {
    ...PageQuery,
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'search in name, e-mail and phone' })),
  },
  { additionalProperties: false },
)
export type CustomerListQuery = Static<typeof CustomerListQuery>

export const RewardsSchema = Type.Object({
  customer_id: Type.String(),
  loyalty_member_id: Nullable(Type.String()),
  points_balance: Type.Integer({ description: 'loyalty points the customer can redeem (0 when not a member)' }),
  tier: Nullable(Type.String()),
  member_url: Type.String({ description: 'the loyalty member lookup that replaces this endpoint' }),
})
