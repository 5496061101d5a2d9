import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import {
  computeTotals,
  discountAmounts,
  lineRefundAmount,
  type OrderDiscount,
} from '../../src/modules/orders/totals.ts'
import { allocateRefund } from '../../src/platform/money/money.ts'
import { e4ToPercent, PERCENT_E4, percentToE4 } from '../../src/platform/money/percent.ts'

const line = fc.record({
  unitPrice: fc.bigInt({ min: 0n, max: 5_000_000n }),
  quantity: fc.integer({ min: 1, max: 50 }),
  taxRateE4: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 300_000 })),
})
const discount: fc.Arbitrary<OrderDiscount> = fc.oneof(
  fc.record({ type: fc.constant('amount' as const), amount: fc.bigInt({ min: 1n, max: 10_000_000n }) }),
  fc.record({ type: fc.constant('percentage' as const), percentE4: fc.integer({ min: 1, max: 1_000_000 }) }),
)
const order = fc.record({
  lines: fc.array(line, { minLength: 1, maxLength: 12 }),
  discounts: fc.array(discount, { maxLength: 3 }),
  inclusive: fc.boolean(),
})

const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n)

describe('order totals', () => {
  it('reconcile to the cent: lines add up to the order and the total follows from subtotal, discount and tax', () => {
    fc.assert(
      fc.property(order, ({ lines, discounts, inclusive }) => {
        const t = computeTotals(lines, discounts, inclusive)
        assert.equal(sum(t.lines.map((l) => l.lineSubtotal)), t.subtotal)
        assert.equal(sum(t.lines.map((l) => l.lineDiscount)), t.discountTotal)
        assert.equal(sum(t.discountAmounts), t.discountTotal)
        assert.equal(sum(t.lines.map((l) => l.lineTax)), t.taxTotal)
        assert.equal(sum(t.lines.map((l) => l.lineTotal)), t.total)
        assert.equal(t.total, t.subtotal - t.discountTotal + (inclusive ? 0n : t.taxTotal))
        assert.ok(t.discountTotal >= 0n && t.discountTotal <= t.subtotal)
        for (const l of t.lines) {
          assert.ok(l.lineDiscount >= 0n && l.lineDiscount <= l.lineSubtotal)
          assert.ok(l.lineTax >= 0n && l.lineTotal >= 0n)
        }
      }),
      { numRuns: 500 },
    )
  })

  it('round each line tax half-up from the exact rational tax', () => {
    fc.assert(
      fc.property(order, ({ lines, discounts, inclusive }) => {
        const t = computeTotals(lines, discounts, inclusive)
        t.lines.forEach((l, i) => {
          const taxable = l.lineSubtotal - l.lineDiscount
          const rate = BigInt(lines[i].taxRateE4)
          // exact tax = num / den; the rounded value is within half a minor unit, ties going up.
          const num = taxable * rate
          const den = inclusive ? PERCENT_E4 + rate : PERCENT_E4
          const diff = l.lineTax * den - num
          assert.ok(2n * diff <= den && 2n * diff > -den, `line ${i}: tax ${l.lineTax} for ${num}/${den}`)
        })
      }),
      { numRuns: 500 },
    )
  })

  it('never discount more than what is left, whatever the order of discounts', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10_000_000n }), fc.array(discount, { maxLength: 5 }), (subtotal, ds) => {
        const amounts = discountAmounts(subtotal, ds)
        assert.ok(sum(amounts) <= subtotal)
        assert.ok(amounts.every((a) => a >= 0n))
      }),
    )
  })

  it('refund every unit of a line, in any split, for exactly the line total', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 100_000_000n }),
        fc
          .integer({ min: 1, max: 40 })
          .chain((q) => fc.tuple(fc.constant(q), fc.array(fc.integer({ min: 1, max: q }), { maxLength: 40 }))),
        (lineTotal, [quantity, chunks]) => {
          let refunded = 0
          let amount = 0n
          for (const c of chunks) {
            const take = Math.min(c, quantity - refunded)
            if (take === 0) break
            const part = lineRefundAmount(lineTotal, quantity, refunded, take)
            assert.ok(part >= 0n)
            amount += part
            refunded += take
          }
          if (refunded < quantity) amount += lineRefundAmount(lineTotal, quantity, refunded, quantity - refunded)
          assert.equal(amount, lineTotal)
        },
      ),
    )
  })

  it('split a refund over payments without exceeding any payment and to the exact amount', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: 1_000_000n }), { minLength: 1, maxLength: 6 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (lefts, share) => {
          const payments = lefts.map((left, i) => ({ id: `pay_${i}`, left }))
          const amount = (sum(lefts) * BigInt(Math.floor(share * 1000))) / 1000n
          const parts = allocateRefund(amount, payments)
          assert.equal(sum(parts.map((p) => p.amount)), amount)
          for (const p of parts) assert.ok(p.amount > 0n && p.amount <= payments.find((x) => x.id === p.id)!.left)
          assert.throws(() => allocateRefund(sum(lefts) + 1n, payments), RangeError)
        },
      ),
    )
  })

  it('read tax percentages exactly to four decimals and refuse more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (e4) => {
        assert.equal(percentToE4(e4ToPercent(e4)), e4)
      }),
    )
    assert.equal(percentToE4(8.875), 88750)
    assert.equal(percentToE4(12.34567), null)
  })

  it('computes the worked example of docs/commerce.md', () => {
    const t = computeTotals(
      [
        { unitPrice: 1999n, quantity: 2, taxRateE4: 150000 },
        { unitPrice: 35n, quantity: 3, taxRateE4: 150000 },
      ],
      [{ type: 'percentage', percentE4: 100000 }],
      false,
    )
    assert.deepEqual([t.subtotal, t.discountTotal, t.taxTotal, t.total], [4103n, 410n, 554n, 4247n])
    const inclusive = computeTotals([{ unitPrice: 1150n, quantity: 1, taxRateE4: 150000 }], [], true)
    assert.deepEqual([inclusive.taxTotal, inclusive.total], [150n, 1150n])
  })
})
