import type { Tender } from '../modules/payments/index.ts'
import type { RegistersService } from '../modules/registers/index.ts'

/**
 * Cash: into the drawer of the register shift that takes it (`shift_id`), out of it for a refund; what the customer
 * handed over (`cash_tendered`) gives the change. A till's offline sale puts its cash into the shift it was sold in.
 */
export function cashTender(registers: RegistersService): Tender {
  return {
    method: 'cash',
    fields: ['shift_id', 'cash_tendered'],
    required: [],
    async take(ctx, payment) {
      if (payment.shiftId)
        await registers.recordCashMovement(ctx, {
          shiftId: payment.shiftId,
          kind: 'sale',
          amount: payment.amount,
          reference: { type: 'payment', id: payment.id },
        })
      return { giftCardId: null }
    },
    async giveBack(ctx, payment, amount, shiftId) {
      const shift = shiftId ?? payment.shift_id
      if (shift)
        await registers.recordCashMovement(ctx, {
          shiftId: shift,
          kind: 'refund',
          amount,
          reference: { type: 'payment', id: payment.id },
        })
    },
    takeOffline: (ctx, payment, shiftId) =>
      registers.recordOfflineCash(ctx, {
        shiftId,
        amount: payment.amount,
        reference: { type: 'payment', id: payment.id },
      }),
  }
}
