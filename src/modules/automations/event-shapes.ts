import { type TSchema, Type } from 'typebox'
import { Money, Timestamp } from '../../platform/http/schemas.ts'
import { CustomerSchema } from '../customers/index.ts'
import { GiftCardSchema } from '../gift-cards/index.ts'
import { LevelSchema, TransferSchema } from '../inventory/index.ts'
import { LaybySchema } from '../laybys/index.ts'
import { OrderSchema } from '../orders/index.ts'
import { PaymentSchema } from '../payments/index.ts'

/** What a schedule trigger's run carries as its data. */
export const ScheduleDataSchema = Type.Object({
  scheduled_for: Timestamp,
  location_id: Type.String(),
  time_zone: Type.String(),
  local_time: Type.String({ description: 'the slot in the location time zone, YYYY-MM-DDTHH:MM' }),
})

/** `automation.triggered`: the run that started, without its steps. */
const TriggeredSchema = Type.Object({
  automation_id: Type.String(),
  run_id: Type.String(),
  event: Type.String(),
  event_id: Type.Union([Type.String(), Type.Null()]),
  depth: Type.Integer(),
  data: Type.Unknown(),
})

const withFields = (schema: TSchema & { properties: Record<string, TSchema> }, extra: Record<string, TSchema>) =>
  Type.Object({ ...schema.properties, ...extra })

/**
 * The data of each catalog event (the resource as the REST API shows it), so a rule's paths are checked when
 * it is saved. Events whose data has no schema here (loyalty and campaign events) accept any path.
 */
const SHAPES: Readonly<Record<string, TSchema>> = {
  'order.created': OrderSchema,
  'order.completed': OrderSchema,
  'order.refunded': OrderSchema,
  'payment.captured': PaymentSchema,
  'payment.failed': PaymentSchema,
  'customer.created': CustomerSchema,
  'customer.updated': CustomerSchema,
  'inventory.low_stock': LevelSchema,
  'inventory.stockout': LevelSchema,
  'inventory.negative': LevelSchema,
  'inventory.transfer_completed': TransferSchema,
  'layby.created': LaybySchema,
  'layby.payment_received': withFields(LaybySchema, { amount: Money }),
  'layby.completed': LaybySchema,
  'layby.cancelled': withFields(LaybySchema, { amount_refunded: Money, reason: Type.String() }),
  'gift_card.issued': GiftCardSchema,
  'gift_card.redeemed': withFields(GiftCardSchema, { amount: Money, reference: Type.Unknown() }),
  'automation.triggered': TriggeredSchema,
}

export function shapeOfEvent(canonicalEvent: string): TSchema | undefined {
  return SHAPES[canonicalEvent]
}
