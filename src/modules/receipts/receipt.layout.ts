import { currencyExponent } from '../../platform/money/money.ts'
import type { Order } from '../orders/index.ts'
import type { Translate } from './strings.ts'

/** What a receipt says, whatever it is printed on: each renderer (text, HTML, PDF) draws these blocks in order. */
export type Block =
  | { kind: 'title' | 'center' | 'note'; text: string }
  | { kind: 'rule' }
  | { kind: 'row'; left: string; right: string; strong?: boolean; indent?: boolean }

/** Everything a receipt prints, gathered by the service from the order's modules. */
export interface ReceiptData {
  store: { name: string; phone: string; address: string[]; header: string; footer: string }
  location: { name: string; address: string[]; timezone: string }
  order: Order
  /** The customer's points after this order, when they are a loyalty member. */
  pointsBalance: number | null
}

interface Format {
  language: string
  t: Translate
  gift: boolean
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)

/**
 * The receipt of an order as blocks: the store's header, the order's number and time, its lines and modifiers,
 * discounts by campaign and the till's own, the tax by rate, the tip, the total, the payments with the change
 * given, refunds, the loyalty points earned and the balance, the store's footer. A gift receipt leaves out every
 * amount.
 */
export function layoutReceipt(data: ReceiptData, { language, t, gift }: Format): Block[] {
  const { order } = data
  const money = new Intl.NumberFormat(language, { style: 'currency', currency: order.currency })
  const amount = (value: number) => money.format(value)
  const minus = (value: number) => money.format(-value)
  const when = new Intl.DateTimeFormat(language, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: data.location.timezone,
  }).format(new Date(order.sold_at ?? order.created_at))

  const blocks: Block[] = [{ kind: 'title', text: data.store.name }]
  for (const text of [...lines(data.store.header), ...data.store.address, data.store.phone].filter(Boolean))
    blocks.push({ kind: 'center', text })
  if (data.location.name !== data.store.name) blocks.push({ kind: 'center', text: data.location.name })
  for (const text of data.location.address) blocks.push({ kind: 'center', text })
  blocks.push({ kind: 'rule' })
  blocks.push({ kind: 'center', text: gift ? t('gift_receipt') : t('receipt') })
  blocks.push({ kind: 'row', left: t('order', { number: order.number }), right: when, strong: true })
  if (order.status === 'voided') blocks.push({ kind: 'center', text: t('voided') })
  blocks.push({ kind: 'rule' })

  for (const line of order.lines) {
    const name = `${line.quantity} ${line.name}`
    blocks.push({ kind: 'row', left: name, right: gift ? '' : amount(line.line_subtotal) })
    // A modifier's price is in the line's amount already: shown per unit, beside its name.
    for (const m of line.modifiers) {
      const price =
        gift || m.price_adjustment === 0 ? '' : ` (${m.price_adjustment > 0 ? '+' : ''}${amount(m.price_adjustment)})`
      blocks.push({ kind: 'row', left: `+ ${m.name}${price}`, right: '', indent: true })
    }
    if (!gift && line.quantity > 1)
      blocks.push({
        kind: 'row',
        left: t('each', { quantity: line.quantity, price: amount(line.unit_price) }),
        right: '',
        indent: true,
      })
    if (line.note) blocks.push({ kind: 'row', left: line.note, right: '', indent: true })
  }
  if (gift) {
    blocks.push({ kind: 'rule' }, { kind: 'note', text: t('gift_note') })
    return [...blocks, ...footer(data)]
  }

  blocks.push({ kind: 'rule' }, { kind: 'row', left: t('subtotal'), right: amount(order.subtotal) })
  for (const d of order.discounts) {
    if (Number(d.amount) === 0) continue
    const left = d.type === 'campaign' ? t('campaign', { name: d.reason }) : t('discount', { reason: d.reason })
    blocks.push({ kind: 'row', left, right: minus(d.amount) })
  }
  for (const [rate, tax] of taxByRate(order))
    blocks.push({
      kind: 'row',
      left: t(order.prices_include_tax ? 'tax_included' : 'tax', {
        rate: new Intl.NumberFormat(language).format(rate),
      }),
      right: amount(tax),
    })
  if (order.tip > 0) blocks.push({ kind: 'row', left: t('tip'), right: amount(order.tip) })
  blocks.push({ kind: 'row', left: t('total'), right: amount(order.total), strong: true })

  const paid = (order.payments ?? []).filter((p) => ['captured', 'partially_refunded', 'refunded'].includes(p.status))
  if (paid.length) blocks.push({ kind: 'rule' })
  for (const p of paid) {
    blocks.push({ kind: 'row', left: t(`method.${p.method}`), right: amount(p.amount) })
    if (p.cash_tendered !== null && p.change_given !== null && p.change_given > 0) {
      blocks.push({ kind: 'row', left: t('tendered'), right: amount(p.cash_tendered), indent: true })
      blocks.push({ kind: 'row', left: t('change'), right: amount(p.change_given), indent: true })
    }
  }
  if (order.amount_refunded > 0) blocks.push({ kind: 'row', left: t('refunded'), right: minus(order.amount_refunded) })

  if (order.loyalty_points_earned > 0 || data.pointsBalance !== null) {
    const count = new Intl.NumberFormat(language)
    blocks.push({ kind: 'rule' })
    if (order.loyalty_points_earned > 0)
      blocks.push({ kind: 'row', left: t('points_earned'), right: count.format(order.loyalty_points_earned) })
    if (data.pointsBalance !== null)
      blocks.push({ kind: 'row', left: t('points_balance'), right: count.format(data.pointsBalance) })
  }
  return [...blocks, ...footer(data)]
}

function footer(data: ReceiptData): Block[] {
  const text = lines(data.store.footer)
  return text.length ? [{ kind: 'rule' }, ...text.map((t) => ({ kind: 'center' as const, text: t }))] : []
}

/** The tax of the order's lines by rate, in the order the rates first appear. */
function taxByRate(order: Order): Map<number, number> {
  const minor = 10 ** currencyExponent(order.currency)
  const byRate = new Map<number, number>()
  for (const line of order.lines) {
    if (line.tax_rate === 0) continue
    // Summed in minor units: adding decimal amounts would drift.
    byRate.set(line.tax_rate, (byRate.get(line.tax_rate) ?? 0) + Math.round(line.line_tax * minor))
  }
  return new Map([...byRate].map(([rate, tax]) => [rate, tax / minor]))
}
