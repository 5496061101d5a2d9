import { allocate, divRoundHalfUp, zip } from '../../platform/money/money.ts'
import { PERCENT_E4 } from '../../platform/money/percent.ts'

/**
 * The pure arithmetic of an order, in integer minor units; nothing here touches the database so the property
 * tests can drive it directly. Rounding rule (docs/commerce.md): a percentage discount is rounded half-up once
 * on the order subtotal and spread over the lines by largest remainder; tax is computed per line on the line's
 * discounted amount and rounded half-up once per line.
 */

interface TotalsLine {
  /** Unit price including modifier adjustments. */
  unitPrice: bigint
  quantity: number
  /** Sum of the tax rates applying to this line, in percent x 10,000. */
  taxRateE4: number
  /** What campaigns already took off this line (at most its subtotal); order discounts apply to the rest. */
  campaignDiscount?: bigint
}

export type OrderDiscount = { type: 'amount'; amount: bigint } | { type: 'percentage'; percentE4: number }

interface LineTotals {
  lineSubtotal: bigint
  lineDiscount: bigint
  lineTax: bigint
  lineTotal: bigint
}

export interface OrderTotals {
  subtotal: bigint
  discountTotal: bigint
  /** What each order discount came to, in the order given (campaigns' discounts are in the lines). */
  discountAmounts: bigint[]
  taxTotal: bigint
  total: bigint
  lines: LineTotals[]
}

/** Tax of a line: on top of the amount (exclusive) or contained in it (inclusive), rounded half-up. */
function lineTax(taxable: bigint, rateE4: number, pricesIncludeTax: boolean): bigint {
  const rate = BigInt(rateE4)
  if (rate === 0n || taxable === 0n) return 0n
  return pricesIncludeTax
    ? divRoundHalfUp(taxable * rate, PERCENT_E4 + rate)
    : divRoundHalfUp(taxable * rate, PERCENT_E4)
}

/**
 * Order discounts apply one after another to what is left: a percentage of the remaining subtotal (rounded
 * half-up), an amount capped at the remaining subtotal, so the total discount never exceeds the subtotal.
 */
export function discountAmounts(subtotal: bigint, discounts: readonly OrderDiscount[]): bigint[] {
  let remaining = subtotal
  return discounts.map((d) => {
    const amount =
      d.type === 'amount'
        ? d.amount < remaining
          ? d.amount
          : remaining
        : divRoundHalfUp(remaining * BigInt(d.percentE4), PERCENT_E4)
    remaining -= amount
    return amount
  })
}

export function computeTotals(
  lines: readonly TotalsLine[],
  discounts: readonly OrderDiscount[],
  pricesIncludeTax: boolean,
): OrderTotals {
  // Each line's subtotal, the campaigns' share of it (never more than the line), and what order discounts may take.
  const priced = lines.map((line) => {
    const lineSubtotal = line.unitPrice * BigInt(line.quantity)
    const off = line.campaignDiscount ?? 0n
    const campaign = off < lineSubtotal ? off : lineSubtotal
    return { line, lineSubtotal, campaign, rest: lineSubtotal - campaign }
  })
  const subtotal = priced.reduce((a, p) => a + p.lineSubtotal, 0n)
  const amounts = discountAmounts(
    priced.reduce((a, p) => a + p.rest, 0n),
    discounts,
  )
  const orderDiscount = amounts.reduce((a, b) => a + b, 0n)
  const shares = allocate(
    orderDiscount,
    priced.map((p) => p.rest),
  )
  const out = zip(priced, shares).map(([p, share]) => {
    const lineDiscount = share + p.campaign
    const taxable = p.lineSubtotal - lineDiscount
    const tax = lineTax(taxable, p.line.taxRateE4, pricesIncludeTax)
    return {
      lineSubtotal: p.lineSubtotal,
      lineDiscount,
      lineTax: tax,
      lineTotal: pricesIncludeTax ? taxable : taxable + tax,
    }
  })
  const discountTotal = out.reduce((a, l) => a + l.lineDiscount, 0n)
  return {
    subtotal,
    discountTotal,
    discountAmounts: amounts,
    taxTotal: out.reduce((a, l) => a + l.lineTax, 0n),
    total: out.reduce((a, l) => a + l.lineTotal, 0n),
    lines: out,
  }
}

/**
 * What refunding `quantity` more units of a line returns. Each unit's share is the difference of two rounded
 * cumulative shares, so refunding every unit, in any split, returns exactly the line total.
 */
export function lineRefundAmount(
  lineTotal: bigint,
  lineQuantity: number,
  alreadyRefunded: number,
  quantity: number,
): bigint {
  const q = BigInt(lineQuantity)
  const share = (units: number) => divRoundHalfUp(lineTotal * BigInt(units), q)
  return share(alreadyRefunded + quantity) - share(alreadyRefunded)
}
