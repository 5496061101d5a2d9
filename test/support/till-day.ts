import assert from 'node:assert/strict'
import {
  each,
  fromMinor,
  type OpenTillClient,
  OpenTillProblem,
  reportCsv,
  sum,
  toMinor,
  unwrap,
} from '@opentill/client'

/**
 * A day at a till through @opentill/client, for a signed-in owner of a new org: a location, a product with a
 * variant and a modifier, stock, a register shift, a campaign seen in the calculation, an order paid by a gift card
 * and a card, a refund, the loyalty lookup, the sales report as JSON and CSV. Strict TypeScript, no `any`, no
 * casts: every body and answer is typed from the OpenAPI document, every problem by its codes. It imports nothing
 * but the client and node:assert, so the packed client runs it from a project of its own too
 * (test/document/client-packed.test.ts); test/e2e/platform/client-till-day.test.ts runs it against both engines.
 */
export async function tillDay(client: OpenTillClient): Promise<void> {
  const { data: location } = await unwrap(client.POST('/api/v1/locations', { body: { name: 'Corner shop' } }))
  const { data: milk } = await unwrap(
    client.POST('/api/v1/modifiers', {
      body: { name: 'Milk', options: [{ name: 'Oat', price_adjustment: 0.5 }, { name: 'Whole' }] },
    }),
  )
  const { data: coffee } = await unwrap(
    client.POST('/api/v1/products', { body: { name: 'Flat white', sku: 'FW-1', base_price: 4.5 } }),
  )
  await unwrap(
    client.PUT('/api/v1/products/{id}/modifiers', {
      params: { path: { id: coffee.id } },
      body: { modifier_group_ids: [milk.id] },
    }),
  )
  const { data: large } = await unwrap(
    client.POST('/api/v1/products/{id}/variants', {
      params: { path: { id: coffee.id } },
      body: { name: 'Large', sku: 'FW-1-L', price: 5.5 },
    }),
  )
  await unwrap(
    client.POST('/api/v1/inventory/adjust', {
      body: {
        product_id: coffee.id,
        variant_id: large.id,
        location_id: location.id,
        quantity: 20,
        reason: 'received',
      },
    }),
  )
  const { data: register } = await unwrap(
    client.POST('/api/v1/registers', { body: { location_id: location.id, name: 'Till 1' } }),
  )
  const { data: shift } = await unwrap(
    client.POST('/api/v1/registers/{id}/shifts/open', {
      params: { path: { id: register.id } },
      body: { opening_float: 100 },
    }),
  )
  assert.equal(shift.register_id, register.id)

  await unwrap(client.POST('/api/v1/loyalty/programs', { body: { name: 'Club', auto_enroll: true } }))
  // A campaign the calculation shows before the sale.
  await unwrap(
    client.POST('/api/v1/campaigns', {
      body: { name: 'Ten off', rules: [{ type: 'percentage', percent: 10 }], status: 'scheduled' },
    }),
  )
  const { data: customer } = await unwrap(
    client.POST('/api/v1/customers', { body: { first_name: 'Ada', email: 'ada@example.com' } }),
  )
  const oat = milk.options.find((o) => o.name === 'Oat')
  assert.ok(oat)
  const sale = {
    location_id: location.id,
    customer_id: customer.id,
    lines: [{ product_id: coffee.id, variant_id: large.id, quantity: 2, modifier_option_ids: [oat.id] }],
  }
  const { data: quote } = await unwrap(client.POST('/api/v1/orders/calculate', { body: sale }))
  assert.ok(quote.discount_total > 0, 'the campaign shows in the calculation')
  const { data: order } = await unwrap(client.POST('/api/v1/orders', { body: sale }))
  assert.equal(order.total, quote.total)

  // Split tender: a gift card for 5.00, the rest on a card. Sums stay exact in minor units.
  const { data: card } = await unwrap(client.POST('/api/v1/gift-cards', { body: { initial_balance: 5 } }))
  await unwrap(
    client.POST('/api/v1/payments', {
      body: { order_id: order.id, amount: 5, method: 'gift_card', gift_card_code: card.code },
    }),
  )
  const rest = fromMinor(toMinor(order.total, 'USD') - toMinor(5, 'USD'), 'USD')
  await unwrap(
    client.POST('/api/v1/payments', {
      body: { order_id: order.id, amount: rest, method: 'card', payment_method_token: 'pm_card_visa', capture: true },
    }),
  )
  const { data: paid } = await unwrap(client.GET('/api/v1/orders/{id}', { params: { path: { id: order.id } } }))
  assert.equal(paid.status, 'completed')
  assert.equal(sum([5, rest], 'USD'), paid.total)

  // A problem is a typed value: its code is one of the operation's.
  const declined = await client.POST('/api/v1/payments', {
    body: { order_id: order.id, amount: 1, method: 'card', payment_method_token: 'pm_card_declined' },
  })
  assert.ok(declined.error)
  assert.equal(declined.error.code, 'PAYMENT_NOT_ACCEPTED')
  await assert.rejects(
    unwrap(client.GET('/api/v1/orders/{id}', { params: { path: { id: 'ord_missing' } } })),
    (error: unknown) => error instanceof OpenTillProblem && error.code === 'NOT_FOUND' && error.status === 404,
  )

  const { data: refunded } = await unwrap(
    client.POST('/api/v1/orders/{id}/refund', {
      params: { path: { id: order.id } },
      body: { lines: [{ line_id: paid.lines[0].id, quantity: 1 }], restock: true },
    }),
  )
  assert.equal(refunded.status, 'partially_refunded')
  assert.ok(refunded.amount_refunded > 0)

  const { data: history } = await unwrap(
    client.GET('/api/v1/customers/{id}/orders', { params: { path: { id: customer.id } } }),
  )
  assert.deepEqual(
    history.map((o) => o.id),
    [order.id],
  )
  const { data: member } = await unwrap(
    client.GET('/api/v1/loyalty/members/{customerId}', { params: { path: { customerId: customer.id } } }),
  )
  assert.ok(member.lifetime_points > 0, 'the sale earned points')
  const products: string[] = []
  for await (const product of each((cursor) =>
    unwrap(client.GET('/api/v1/products', { params: { query: { limit: 1, cursor } } })),
  ))
    products.push(product.name)
  assert.deepEqual(products, ['Flat white'])

  const today = new Date().toISOString().slice(0, 10)
  const { data: report } = await unwrap(
    client.GET('/api/v1/reports/sales', { params: { query: { from: today, to: today, group_by: 'day' } } }),
  )
  assert.equal(report.report, 'sales')
  // Each group_by has its own row shape: narrowing on it types the rows.
  assert.ok(report.group_by === 'day' || report.group_by === 'week' || report.group_by === 'month')
  assert.equal(report.rows[0].period, today)
  assert.equal(report.totals.orders, 1)
  assert.equal(report.totals.total, paid.total)
  const csv = await reportCsv(client, '/api/v1/reports/sales', { from: today, to: today, group_by: 'day' })
  assert.match(csv.split('\n')[0], /^period,orders,/)
}
