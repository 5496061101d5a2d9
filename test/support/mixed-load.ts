import assert from 'node:assert/strict'
import pg from 'pg'
import { eventually } from './eventually.ts'
import type { JsonBody } from './harness.ts'
import type { HttpsReceiver } from './https-receiver.ts'

/**
 * A mixed load on one or more `opentill serve` instances of one org (catalog reads, orders with stock, card and
 * gift card payments, refunds with and without restock, loyalty points, kitchen streams, webhooks), then an audit,
 * read as the database owner, that nothing acknowledged was lost or doubled. Used by test/e2e/platform/mixed-load.test.ts
 * (a short run in CI) and bench/mixed-load.ts (the sustained run and its figures).
 */

const SUBSCRIBED = ['order.created', 'order.completed', 'order.refunded']

export interface LoadShop {
  token: string
  orgId: string
  locationId: string
  products: string[]
  /** Products with little stock, which sell out during the run: the refusals must leave stock at zero, not below. */
  scarce: string[]
  customers: string[]
  giftCardCode: string
}

interface Ack {
  orders: Map<string, { total: number }>
  payments: Map<string, { orderId: string; amount: number }>
  /** Acknowledged refunds per order (a refund answers with its order). */
  refunds: Map<string, number>
  /** Completed orders with lines, candidates for a refund. */
  refundable: { id: string; lineId: string }[]
}

export interface LoadResult {
  requests: number
  durationS: number
  reqPerSec: number
  p99Ms: number
  /** Answers no client should ever get (any 5xx, or a 4xx the step does not expect), by "step status". */
  unexpected: Record<string, number>
  byStep: Record<string, number>
  ack: Ack
  /** Orders acknowledged during the run that a kitchen stream (one per instance) never showed. */
  kitchenMissed: number
}

function jsonClient(base: string, token?: string) {
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: JsonBody }> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : undefined }
  }
}

/** Logs in as the owner and prepares the shop through the API: stock, a loyalty program, members, a gift card, a webhook. */
export async function prepareShop(
  base: string,
  owner: { email: string; password: string; orgId: string },
  webhookUrl: string,
  options: { scarceStock: number } = { scarceStock: 25 },
): Promise<LoadShop> {
  const anonymous = jsonClient(base)
  const login = await anonymous('POST', '/api/v1/auth/login', { email: owner.email, password: owner.password })
  assert.equal(login.status, 200)
  const token = login.body.data.accessToken as string
  const call = jsonClient(base, token)
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await call(method, path, body)
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.data
  }
  const locationId = (await ok('POST', '/api/v1/locations', { name: 'Load shop' })).id as string
  const stocked = async (i: number, stock: number) => {
    const product = await ok('POST', '/api/v1/products', { name: `Item ${i}`, sku: `LOAD-${i}`, base_price: 2 + i })
    await ok('POST', '/api/v1/inventory/adjust', {
      product_id: product.id,
      location_id: locationId,
      quantity: stock,
      reason: 'received',
    })
    return product.id as string
  }
  const products: string[] = []
  for (let i = 0; i < 12; i++) products.push(await stocked(i, 1_000_000))
  const scarce: string[] = []
  for (let i = 12; i < 15; i++) scarce.push(await stocked(i, options.scarceStock))
  await ok('POST', '/api/v1/loyalty/programs', { name: 'Points' })
  const customers: string[] = []
  for (let i = 0; i < 10; i++)
    customers.push((await ok('POST', '/api/v1/customers', { first_name: `M${i}`, email: `m${i}@load.example` })).id)
  const giftCardCode = (await ok('POST', '/api/v1/gift-cards', { initial_balance: 400 })).code as string
  const integration = await ok('POST', '/api/v1/integrations', { name: 'Books', type: 'accounting' })
  await ok('POST', `/api/v1/integrations/${integration.id}/webhooks`, { url: webhookUrl, events: SUBSCRIBED })
  return { token, orgId: owner.orgId, locationId, products, scarce, customers, giftCardCode }
}

const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)]

/** Runs `clients` concurrent clients over the instances (round robin per request) for `durationMs`. */
export async function runLoad(
  instances: string[],
  shop: LoadShop,
  options: { durationMs: number; clients: number },
): Promise<LoadResult> {
  const calls = instances.map((base) => jsonClient(base, shop.token))
  let turn = 0
  const next = () => calls[turn++ % calls.length]
  const ack: Ack = { orders: new Map(), payments: new Map(), refunds: new Map(), refundable: [] }
  const unexpected: Record<string, number> = {}
  const byStep: Record<string, number> = {}
  const latencies: number[] = []

  async function step(name: string, expected: number[], method: string, path: string, body?: unknown) {
    const started = performance.now()
    const res = await next()(method, path, body)
    latencies.push(performance.now() - started)
    byStep[name] = (byStep[name] ?? 0) + 1
    if (!expected.includes(res.status)) {
      const key = `${name} ${res.status} ${res.body?.code ?? ''}`.trim()
      unexpected[key] = (unexpected[key] ?? 0) + 1
    }
    return res
  }

  async function sale() {
    const lines = new Map<string, number>()
    const count = 1 + Math.floor(Math.random() * 3)
    while (lines.size < count) lines.set(Math.random() < 0.15 ? pick(shop.scarce) : pick(shop.products), 1)
    const made = await step('order', [201, 409], 'POST', '/api/v1/orders', {
      location_id: shop.locationId,
      ...(Math.random() < 0.5 ? { customer_id: pick(shop.customers) } : {}),
      lines: [...lines].map(([product_id, quantity]) => ({ product_id, quantity })),
    })
    if (made.status !== 201) return
    const order = made.body.data
    ack.orders.set(order.id, { total: order.total })
    let due = order.total as number
    if (Math.random() < 0.3) {
      const amount = Math.min(due, 2)
      // The card runs dry during the run: its refusals are expected, and must not move its balance.
      const gift = await step('gift card payment', [201, 409, 422], 'POST', '/api/v1/payments', {
        order_id: order.id,
        amount,
        method: 'gift_card',
        gift_card_code: shop.giftCardCode,
      })
      if (gift.status === 201) {
        ack.payments.set(gift.body.data.id, { orderId: order.id, amount })
        due = Math.round((due - amount) * 100) / 100
      }
    }
    if (due > 0) {
      const card = await step('card payment', [201], 'POST', '/api/v1/payments', {
        order_id: order.id,
        amount: due,
        method: 'card',
        payment_method_token: 'pm_card_visa',
        capture: true,
      })
      if (card.status !== 201) return
      ack.payments.set(card.body.data.id, { orderId: order.id, amount: due })
    }
    ack.refundable.push({ id: order.id, lineId: order.lines[0].id })
  }

  async function refund() {
    const target = ack.refundable.pop()
    if (!target) return
    const res = await step('refund', [201], 'POST', `/api/v1/orders/${target.id}/refund`, {
      lines: [{ line_id: target.lineId, quantity: 1 }],
      restock: Math.random() < 0.5,
    })
    if (res.status === 201) ack.refunds.set(target.id, (ack.refunds.get(target.id) ?? 0) + 1)
  }

  const kitchen = instances.map((base) => openKitchenStream(base, shop.token))
  await Promise.all(kitchen.map((k) => k.opened))
  const started = performance.now()
  const deadline = Date.now() + options.durationMs
  await Promise.all(
    Array.from({ length: options.clients }, async () => {
      while (Date.now() < deadline) {
        const r = Math.random()
        if (r < 0.4) await step('catalog read', [200], 'GET', '/api/v1/products?limit=20')
        else if (r < 0.9) await sale()
        else await refund()
      }
    }),
  )
  const durationS = (performance.now() - started) / 1000
  // The kitchen screens get what was committed last a moment later.
  await eventually(async () => {
    for (const k of kitchen) for (const id of ack.orders.keys()) assert.ok(k.seen.has(id), `kitchen missed ${id}`)
  }, 15_000).catch(() => {})
  for (const k of kitchen) k.close()
  const kitchenMissed = kitchen.reduce((n, k) => n + [...ack.orders.keys()].filter((id) => !k.seen.has(id)).length, 0)
  latencies.sort((a, b) => a - b)
  return {
    requests: latencies.length,
    durationS,
    reqPerSec: latencies.length / durationS,
    p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    unexpected,
    byStep,
    ack,
    kitchenMissed,
  }
}

/** A kitchen screen: the `order.created` ids its SSE stream delivers. */
function openKitchenStream(base: string, token: string) {
  const seen = new Set<string>()
  const abort = new AbortController()
  let resolveOpened!: () => void
  const opened = new Promise<void>((r) => {
    resolveOpened = r
  })
  ;(async () => {
    const res = await fetch(`${base}/api/v1/kds/stream`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      signal: abort.signal,
    })
    assert.equal(res.status, 200)
    resolveOpened()
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ''
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      buffer += value
      let end = buffer.indexOf('\n\n')
      while (end >= 0) {
        const frame = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        if (/^event: order\.created$/m.test(frame)) {
          const data = /^data: (.*)$/m.exec(frame)?.[1]
          if (data) seen.add(JSON.parse(data).id ?? JSON.parse(data).data?.id)
        }
        end = buffer.indexOf('\n\n')
      }
    }
  })().catch(() => resolveOpened())
  return { seen, opened, close: () => abort.abort() }
}

/** One result of several runs on the same shop, for one audit at the end. */
export function combined(results: LoadResult[]): LoadResult {
  const ack: Ack = { orders: new Map(), payments: new Map(), refunds: new Map(), refundable: [] }
  const unexpected: Record<string, number> = {}
  const byStep: Record<string, number> = {}
  for (const r of results) {
    for (const [k, v] of r.ack.orders) ack.orders.set(k, v)
    for (const [k, v] of r.ack.payments) ack.payments.set(k, v)
    for (const [k, v] of r.ack.refunds) ack.refunds.set(k, (ack.refunds.get(k) ?? 0) + v)
    for (const [k, v] of Object.entries(r.unexpected)) unexpected[k] = (unexpected[k] ?? 0) + v
    for (const [k, v] of Object.entries(r.byStep)) byStep[k] = (byStep[k] ?? 0) + v
  }
  const requests = results.reduce((n, r) => n + r.requests, 0)
  const durationS = results.reduce((n, r) => n + r.durationS, 0)
  return {
    requests,
    durationS,
    reqPerSec: requests / durationS,
    p99Ms: Math.max(...results.map((r) => r.p99Ms)),
    unexpected,
    byStep,
    ack,
    kitchenMissed: results.reduce((n, r) => n + r.kitchenMissed, 0),
  }
}

export interface Audit {
  /** Each a sentence naming what does not reconcile; empty when everything does. */
  problems: string[]
  figures: Record<string, number>
}

/**
 * Waits for the worker to deliver everything, then reconciles, as the database owner: what clients were told
 * (acknowledged orders, payments, refunds) against what is stored; stock, gift card and points balances against
 * their ledgers; the outbox against deliveries and what the receiver got; the kitchen streams against the orders.
 */
export async function audit(
  ownerUrl: string,
  orgId: string,
  result: LoadResult,
  receiver: HttpsReceiver,
): Promise<Audit> {
  const db = new pg.Client({ connectionString: ownerUrl })
  await db.connect()
  const problems: string[] = []
  const rows = async (sql: string, params: unknown[] = [orgId]) => (await db.query(sql, params)).rows
  try {
    await eventually(async () => {
      const [open] = await rows(
        `SELECT (SELECT count(*) FROM webhook_relay_queue WHERE org_id = $1)::int
              + (SELECT count(*) FROM webhook_deliveries WHERE org_id = $1 AND status = 'pending')::int AS n`,
      )
      assert.equal(open.n, 0)
    }, 120_000)

    const orders = new Map(
      (await rows('SELECT id, total, captured_total, refunded_total, status FROM orders WHERE org_id = $1')).map(
        (o) => [o.id, o],
      ),
    )
    for (const [id, { total }] of result.ack.orders) {
      const stored = orders.get(id)
      if (!stored) problems.push(`acknowledged order ${id} is missing`)
      else if (Number(stored.total) !== Math.round(total * 100)) problems.push(`order ${id} total changed`)
    }
    const payments = new Map((await rows('SELECT * FROM payments WHERE org_id = $1')).map((p) => [p.id, p]))
    for (const [id, { amount }] of result.ack.payments) {
      const stored = payments.get(id)
      if (!stored) problems.push(`acknowledged payment ${id} is missing`)
      else if (Number(stored.amount) !== Math.round(amount * 100)) problems.push(`payment ${id} amount differs`)
    }
    for (const id of payments.keys())
      if (!result.ack.payments.has(id) && payments.get(id).status !== 'failed')
        problems.push(`payment ${id} exists but no client was told of it`)
    const refunds = await rows(
      `SELECT order_id, count(*)::int AS n FROM refunds WHERE org_id = $1 AND status = 'succeeded' GROUP BY order_id`,
    )
    const stored = new Map(refunds.map((r) => [r.order_id as string, r.n as number]))
    for (const [orderId, n] of result.ack.refunds)
      if (stored.get(orderId) !== n)
        problems.push(`order ${orderId}: ${n} refunds acknowledged, ${stored.get(orderId)} stored`)
    for (const [orderId, n] of stored)
      if (!result.ack.refunds.has(orderId)) problems.push(`order ${orderId}: ${n} refunds no client was told of`)

    for (const o of await rows(
      `SELECT o.id, o.captured_total, o.refunded_total,
              COALESCE((SELECT sum(amount) FROM payments p WHERE p.org_id = o.org_id AND p.order_id = o.id
                        AND p.status IN ('captured', 'partially_refunded', 'refunded')), 0) AS paid,
              COALESCE((SELECT sum(refunded_amount) FROM payments p WHERE p.org_id = o.org_id AND p.order_id = o.id), 0)
                AS refunded_from_payments,
              COALESCE((SELECT sum(amount) FROM refunds r WHERE r.org_id = o.org_id AND r.order_id = o.id
                        AND r.status = 'succeeded'), 0) AS refunded
       FROM orders o WHERE o.org_id = $1`,
    )) {
      if (o.captured_total !== o.paid) problems.push(`order ${o.id}: captured ${o.captured_total}, payments ${o.paid}`)
      if (o.refunded_total !== o.refunded || o.refunded !== o.refunded_from_payments)
        problems.push(
          `order ${o.id}: refunded ${o.refunded_total}, refunds ${o.refunded}, payments ${o.refunded_from_payments}`,
        )
    }

    for (const l of await rows(
      `SELECT l.product_id, l.on_hand,
              (SELECT COALESCE(sum(quantity), 0) FROM inventory_movements m WHERE m.org_id = l.org_id
                AND m.product_id = l.product_id AND m.location_id = l.location_id) AS moved,
              (SELECT count(*) FROM inventory_movements m WHERE m.org_id = l.org_id AND m.product_id = l.product_id
                AND m.location_id = l.location_id AND m.quantity_after < 0)::int AS below_zero
       FROM inventory_levels l WHERE l.org_id = $1`,
    )) {
      if (l.on_hand < 0 || l.below_zero > 0) problems.push(`stock of ${l.product_id} went below zero`)
      if (String(l.on_hand) !== String(l.moved))
        problems.push(`stock of ${l.product_id}: ${l.on_hand} on hand, movements sum to ${l.moved}`)
    }
    for (const c of await rows(
      `SELECT g.id, g.balance, (SELECT COALESCE(sum(amount), 0) FROM gift_card_ledger x
                                WHERE x.org_id = g.org_id AND x.gift_card_id = g.id) AS ledger
       FROM gift_cards g WHERE g.org_id = $1`,
    ))
      if (c.balance !== c.ledger || Number(c.balance) < 0)
        problems.push(`gift card ${c.id}: balance ${c.balance}, ledger ${c.ledger}`)
    for (const m of await rows(
      `SELECT m.id, m.balance, (SELECT COALESCE(sum(points), 0) FROM loyalty_movements x
                                WHERE x.org_id = m.org_id AND x.member_id = m.id) AS ledger
       FROM loyalty_members m WHERE m.org_id = $1`,
    ))
      if (m.balance !== m.ledger || Number(m.balance) < 0)
        problems.push(`points of member ${m.id}: balance ${m.balance}, ledger ${m.ledger}`)

    const [outbox] = await rows(
      `SELECT (SELECT count(*) FROM events WHERE org_id = $1 AND type = ANY($2))::int AS events,
              (SELECT count(*) FROM webhook_deliveries WHERE org_id = $1 AND NOT is_test)::int AS deliveries,
              (SELECT count(DISTINCT event_id) FROM webhook_deliveries WHERE org_id = $1 AND NOT is_test)::int AS distinct_events,
              (SELECT count(*) FROM webhook_deliveries WHERE org_id = $1 AND status <> 'succeeded')::int AS unsettled`,
      [orgId, SUBSCRIBED],
    )
    if (outbox.events !== outbox.deliveries || outbox.deliveries !== outbox.distinct_events)
      problems.push(`${outbox.events} events, ${outbox.deliveries} deliveries of ${outbox.distinct_events} events`)
    if (outbox.unsettled > 0) problems.push(`${outbox.unsettled} deliveries did not succeed`)
    const deliveryIds = new Set(
      (await rows(`SELECT id FROM webhook_deliveries WHERE org_id = $1 AND NOT is_test`)).map((d) => d.id as string),
    )
    const received = receiver.received.map((r) => String(r.headers['webhook-id']))
    const receivedIds = new Set(received)
    for (const id of deliveryIds) if (!receivedIds.has(id)) problems.push(`delivery ${id} never reached the receiver`)
    if (result.kitchenMissed > 0) problems.push(`kitchen streams missed ${result.kitchenMissed} orders`)
    return {
      problems,
      figures: {
        orders: result.ack.orders.size,
        payments: result.ack.payments.size,
        refunds: [...result.ack.refunds.values()].reduce((a, b) => a + b, 0),
        events: outbox.events,
        webhooksReceived: received.length,
        webhooksSentTwice: received.length - receivedIds.size,
      },
    }
  } finally {
    await db.end()
  }
}
