import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { EventSource } from 'eventsource'
import { buildApp } from '../../../src/app.ts'
import { emitEvent } from '../../../src/platform/events/outbox.ts'
import { openRuntime } from '../../../src/platform/runtime.ts'
import { createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop } from '../../support/shop.ts'

// Set before the app is built: the service reads them once (docs/events-and-kds.md).
/** Fast intervals for the test (the defaults are seconds). */
// The fan-out test opens twenty screens on one token: more than a credential holds by default (10).
const KDS_ENV = {
  KDS_HEARTBEAT_MS: '150',
  KDS_POLL_MS: '50',
  KDS_RECONCILE_MS: '500',
  KDS_MAX_STREAMS_PER_CREDENTIAL: '20',
}

const ORDER_EVENTS = ['order.created', 'order.updated', 'order.completed', 'order.voided'] as const

interface Received {
  id: string
  event: string
  data: { id: string; location_id?: string; [k: string]: unknown }
}

/** An EventSource screen that records what it receives and lets a test wait for it. */
function openScreen(base: string, token: string, options: { query?: string; lastEventId?: string } = {}) {
  const received: Received[] = []
  let wake: (() => void) | undefined
  let opens = 0
  const es = new EventSource(`${base}/api/v1/kds/stream${options.query ? `?${options.query}` : ''}`, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: {
          ...(init?.headers as Record<string, string>),
          authorization: `Bearer ${token}`,
          // The first connection resumes from the given id; EventSource sends its own on reconnects.
          ...(options.lastEventId && opens === 0 ? { 'last-event-id': options.lastEventId } : {}),
        },
      }),
  })
  const opened = new Promise<void>((resolve, reject) => {
    es.addEventListener('open', () => {
      opens++
      resolve()
    })
    es.addEventListener('error', (e) => {
      if (opens === 0) reject(new Error(`stream failed: ${(e as { message?: string }).message ?? 'error'}`))
    })
  })
  for (const type of ORDER_EVENTS) {
    es.addEventListener(type, (e: MessageEvent) => {
      received.push({ id: e.lastEventId, event: type, data: JSON.parse(e.data) })
      wake?.()
    })
  }
  return {
    es,
    received,
    opened,
    get opens() {
      return opens
    },
    /** Resolves once at least `count` events arrived; fails after `ms`. */
    async waitFor(count: number, ms = 5_000): Promise<Received[]> {
      const deadline = Date.now() + ms
      while (received.length < count) {
        const left = deadline - Date.now()
        if (left <= 0) throw new Error(`expected ${count} events, got ${received.length}: ${JSON.stringify(received)}`)
        await new Promise<void>((resolve) => {
          wake = resolve
          setTimeout(resolve, Math.min(left, 100))
        })
      }
      return received
    },
    close: () => es.close(),
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the kitchen display feed', () => {
  let app: TestApp
  let base: string
  let merchant: Merchant
  let other: Merchant
  let closed = false

  async function order(
    m: Merchant,
    type: (typeof ORDER_EVENTS)[number],
    id: string,
    locationId = 'loc_main',
  ): Promise<void> {
    await app.runtime.database.transaction(m.orgId, (q) =>
      emitEvent(q, m.orgId, type, { id, location_id: locationId, status: 'open' }),
    )
  }

  before(async () => {
    app = await startTestApp(KDS_ENV)
    await app.api.listen({ port: 0, host: '127.0.0.1' })
    const address = app.api.server.address()
    assert.ok(address && typeof address === 'object')
    base = `http://127.0.0.1:${address.port}`
    merchant = await createMerchant(app)
    other = await createMerchant(app)
  })
  after(async () => {
    if (!closed) await app.close()
  })

  it('streams an order to an open screen as id, event and data', async () => {
    const screen = openScreen(base, merchant.token)
    await screen.opened
    await order(merchant, 'order.created', 'ord_live')
    await order(merchant, 'order.completed', 'ord_live')
    const [created, completed] = await screen.waitFor(2)
    screen.close()
    assert.equal(created.event, 'order.created')
    assert.deepEqual(created.data, { id: 'ord_live', location_id: 'loc_main', status: 'open' })
    assert.match(created.id, /^\d+-\d+$/)
    assert.equal(completed.event, 'order.completed')
    assert.notEqual(completed.id, created.id)
  })

  it('leaves out a sale a till made offline, live and on a replay: it was made and served already', async () => {
    const screen = openScreen(base, merchant.token)
    await screen.opened
    await app.runtime.database.transaction(merchant.orgId, (q) =>
      emitEvent(q, merchant.orgId, 'order.created', {
        id: 'ord_offline',
        location_id: 'loc_main',
        status: 'completed',
        client_sale_id: '01JD0000000000000000000000',
      }),
    )
    await order(merchant, 'order.created', 'ord_after_offline')
    const [first] = await screen.waitFor(1)
    screen.close()
    assert.equal(first.data.id, 'ord_after_offline')
    assert.ok(!screen.received.some((e) => e.data.id === 'ord_offline'))
    const replay = openScreen(base, merchant.token, { lastEventId: '0-0' })
    await replay.opened
    await order(merchant, 'order.created', 'ord_marker')
    const seen = await replay.waitFor(1)
    while (!seen.some((e) => e.data.id === 'ord_marker')) await replay.waitFor(seen.length + 1)
    replay.close()
    assert.ok(!seen.some((e) => e.data.id === 'ord_offline'))
  })

  it('answers with SSE headers that keep proxies from buffering', async () => {
    const controller = new AbortController()
    const res = await fetch(`${base}/api/v1/kds/stream`, {
      headers: { authorization: `Bearer ${merchant.token}` },
      signal: controller.signal,
    })
    assert.equal(res.status, 200)
    assert.match(String(res.headers.get('content-type')), /^text\/event-stream/)
    assert.match(String(res.headers.get('cache-control')), /no-cache/)
    assert.equal(res.headers.get('x-accel-buffering'), 'no')
    assert.ok(res.headers.get('x-request-id'))
    controller.abort()
  })

  it('never carries another org’s orders', async () => {
    const mine = openScreen(base, merchant.token)
    const theirs = openScreen(base, other.token)
    await Promise.all([mine.opened, theirs.opened])
    await order(other, 'order.created', 'ord_theirs')
    await order(merchant, 'order.created', 'ord_mine')
    await mine.waitFor(1)
    await theirs.waitFor(1)
    await sleep(300)
    mine.close()
    theirs.close()
    assert.deepEqual(
      mine.received.map((r) => r.data.id),
      ['ord_mine'],
    )
    assert.deepEqual(
      theirs.received.map((r) => r.data.id),
      ['ord_theirs'],
    )
  })

  it('shows one location’s orders when location_id is given', async () => {
    const bar = openScreen(base, merchant.token, { query: 'location_id=loc_bar' })
    const all = openScreen(base, merchant.token)
    await Promise.all([bar.opened, all.opened])
    await order(merchant, 'order.created', 'ord_kitchen', 'loc_kitchen')
    await order(merchant, 'order.created', 'ord_bar', 'loc_bar')
    await all.waitFor(2)
    await bar.waitFor(1)
    await sleep(200)
    bar.close()
    all.close()
    assert.deepEqual(
      bar.received.map((r) => r.data.id),
      ['ord_bar'],
    )
    assert.deepEqual(
      all.received.map((r) => r.data.id),
      ['ord_kitchen', 'ord_bar'],
    )
  })

  it('replays what a screen missed when it reconnects with Last-Event-ID, in order and once', async () => {
    const first = openScreen(base, merchant.token)
    await first.opened
    await order(merchant, 'order.created', 'ord_seen')
    const [seen] = await first.waitFor(1)
    first.close()
    await order(merchant, 'order.created', 'ord_missed_1', 'loc_bar')
    await order(merchant, 'order.voided', 'ord_missed_1', 'loc_bar')
    await order(merchant, 'order.created', 'ord_missed_2')

    const resumed = openScreen(base, merchant.token, { lastEventId: seen.id })
    await resumed.opened
    await resumed.waitFor(3)
    await order(merchant, 'order.updated', 'ord_after')
    await resumed.waitFor(4)
    const onlyBar = openScreen(base, merchant.token, { lastEventId: seen.id, query: 'location_id=loc_bar' })
    await onlyBar.waitFor(2)
    await sleep(200)
    resumed.close()
    onlyBar.close()
    assert.deepEqual(
      resumed.received.map((r) => `${r.event} ${r.data.id}`),
      [
        'order.created ord_missed_1',
        'order.voided ord_missed_1',
        'order.created ord_missed_2',
        'order.updated ord_after',
      ],
    )
    assert.deepEqual(
      onlyBar.received.map((r) => `${r.event} ${r.data.id}`),
      ['order.created ord_missed_1', 'order.voided ord_missed_1'],
    )
  })

  it('catches up by itself after the server cuts the connection', async () => {
    const screen = openScreen(base, merchant.token)
    await screen.opened
    await order(merchant, 'order.created', 'ord_before_cut')
    await screen.waitFor(1)
    // Cut every stream as a restart or network failure would; EventSource reconnects with its last id.
    for (const s of [
      ...(app.services.kds.hub as unknown as { byOrg: Map<string, Set<{ close(): void }>> }).byOrg.values(),
    ].flatMap((set) => [...set])) {
      s.close()
    }
    await order(merchant, 'order.created', 'ord_during_cut')
    await screen.waitFor(2, 8_000)
    screen.close()
    assert.ok(screen.opens >= 2)
    assert.deepEqual(
      screen.received.map((r) => r.data.id),
      ['ord_before_cut', 'ord_during_cut'],
    )
  })

  it('sends a comment heartbeat at the configured interval', async () => {
    const controller = new AbortController()
    const res = await fetch(`${base}/api/v1/kds/stream`, {
      headers: { authorization: `Bearer ${merchant.token}` },
      signal: controller.signal,
    })
    const reader = res.body!.getReader()
    let text = ''
    const deadline = Date.now() + 3_000
    while (!text.includes(': heartbeat\n\n') && Date.now() < deadline) {
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
    }
    controller.abort()
    assert.match(text, /^retry: \d+\n\n/)
    assert.match(text, /: heartbeat\n\n/)
  })

  it('refuses a malformed Last-Event-ID, a missing token and a token without orders:read', async () => {
    const bad = await fetch(`${base}/api/v1/kds/stream`, {
      headers: { authorization: `Bearer ${merchant.token}`, 'last-event-id': 'evt_nope' },
    })
    assert.equal(bad.status, 400)
    assert.equal((await bad.json()).errors[0].field, 'Last-Event-ID')
    assert.equal((await fetch(`${base}/api/v1/kds/stream`)).status, 401)
    const token = await app.runtime.accessTokens.sign({
      sub: merchant.userId,
      orgId: merchant.orgId,
      scopes: ['catalog:read'],
      sid: 'sess_scopeless',
      clientId: 'first-party',
      actorKind: 'user',
      userId: merchant.userId,
    })
    assert.equal(
      (await fetch(`${base}/api/v1/kds/stream`, { headers: { authorization: `Bearer ${token}` } })).status,
      403,
    )
  })

  it('runs one feed for many screens and stops it when the last one leaves', async () => {
    const screens = Array.from({ length: 20 }, () => openScreen(base, merchant.token))
    await Promise.all(screens.map((s) => s.opened))
    assert.equal(app.services.kds.hub.screens, 20)
    await order(merchant, 'order.created', 'ord_many')
    await Promise.all(screens.map((s) => s.waitFor(1)))
    for (const s of screens) s.close()
    const deadline = Date.now() + 3_000
    while (app.services.kds.hub.screens > 0 && Date.now() < deadline) await sleep(20)
    assert.equal(app.services.kds.hub.screens, 0)
  })

  it('shows an order placed through the orders API, at its location, and lists it in the events API', async () => {
    const shop = await openShop(app)
    const productId = await shop.product(4.5, { stock: 5 })
    const screen = openScreen(base, shop.merchant.token, { query: `location_id=${shop.locationId}` })
    await screen.opened
    const placed = await shop.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      lines: [{ product_id: productId, quantity: 1 }],
    })
    assert.equal(placed.status, 201, JSON.stringify(placed.body))
    const [created] = await screen.waitFor(1)
    screen.close()
    assert.equal(created.event, 'order.created')
    assert.equal(created.data.id, placed.body.data.id)
    assert.equal(created.data.location_id, shop.locationId)
    const events = await shop.api.get('/api/v1/events?type=order.created')
    assert.deepEqual(
      events.body.data.map((e: { data: { id: string } }) => e.data.id),
      [placed.body.data.id],
    )
  })

  it('feeds screens on a second instance of the same database (Redis pub/sub, or each instance polling)', async () => {
    // A long repair interval: what the second instance shows comes through the shared feed, not its own catch-up.
    const config = { ...app.runtime.config, kds: { ...app.runtime.config.kds, reconcileMs: 60_000 } }
    const runtime = await openRuntime(config, { migrate: false })
    const second = await buildApp(runtime)
    try {
      await second.api.listen({ port: 0, host: '127.0.0.1' })
      const address = second.api.server.address()
      assert.ok(address && typeof address === 'object')
      const here = openScreen(base, merchant.token)
      const there = openScreen(`http://127.0.0.1:${address.port}`, merchant.token)
      await Promise.all([here.opened, there.opened])
      await order(merchant, 'order.created', 'ord_cluster')
      const [a] = await here.waitFor(1)
      const [b] = await there.waitFor(1)
      here.close()
      there.close()
      assert.equal(b.data.id, 'ord_cluster')
      assert.equal(b.id, a.id)
    } finally {
      await second.api.close()
      await runtime.close()
    }
  })

  it('ends open streams when the app closes, so shutdown never hangs', async () => {
    const res = await fetch(`${base}/api/v1/kds/stream`, { headers: { authorization: `Bearer ${merchant.token}` } })
    const reader = res.body!.getReader()
    await reader.read()
    const started = Date.now()
    closed = true
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return Date.now() - started
    })()
    await app.close()
    assert.ok((await ended) < 2_000)
  })
})
