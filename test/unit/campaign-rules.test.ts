import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import {
  applyCampaigns,
  type CampaignDef,
  type Cart,
  type CartLine,
  type CompiledRule,
  statusAt,
} from '../../src/modules/campaigns/campaigns.rules.ts'
import { computeTotals } from '../../src/modules/orders/totals.ts'
import { localClock } from '../../src/platform/time/local-clock.ts'

const noConditions = {
  productIds: null,
  categoryIds: null,
  minSpend: null,
  minQuantity: null,
  tiers: null,
  tags: null,
  locationIds: null,
  days: null,
  hours: null,
}

function campaign(id: string, rules: CompiledRule[], extra: Partial<CampaignDef> = {}): CampaignDef {
  return {
    id,
    name: extra.name ?? id,
    status: 'active',
    priority: 0,
    stacking: 'stackable',
    stackingClass: 'default',
    startsAt: null,
    endsAt: null,
    rules,
    requiresVoucher: false,
    usageLimit: null,
    usageCount: 0,
    perCustomerLimit: null,
    ...extra,
    conditions: { ...noConditions, ...extra.conditions },
  }
}

const line = (productId: string, unitPrice: bigint, quantity: number, categoryId: string | null = null): CartLine => ({
  productId,
  categoryId,
  unitPrice,
  quantity,
})

function cart(lines: readonly CartLine[], extra: Partial<Cart> = {}): Cart {
  return {
    currency: 'EUR',
    lines,
    locationId: 'loc_a',
    at: new Date('2026-11-25T12:00:00Z'),
    local: { isoDay: 3, minutes: 12 * 60 },
    customer: null,
    vouchers: new Map(),
    ...extra,
  }
}

const perLine = (r: ReturnType<typeof applyCampaigns>) =>
  r.applications.reduce<bigint[]>(
    (acc, a) => acc.map((v, i) => v + a.perLine[i]),
    r.applications[0]?.perLine.map(() => 0n) ?? [],
  )

describe('campaign rules, against totals computed by hand', () => {
  it('takes a percentage off the order once and spreads it over the lines by largest remainder', () => {
    const r = applyCampaigns(
      [campaign('c', [{ id: 'r', type: 'percentage', percentE4: 100_000, target: 'order' }])],
      cart([line('a', 333n, 1), line('b', 333n, 2)]),
    )
    // 10 % of 9.99 is 0.999, rounded half-up once: 1.00, split 1:2 as 0.33 and 0.67.
    assert.deepEqual(perLine(r), [33n, 67n])
  })

  it('takes a percentage off each line on its own when the target is the line', () => {
    const r = applyCampaigns(
      [campaign('c', [{ id: 'r', type: 'percentage', percentE4: 100_000, target: 'line' }])],
      cart([line('a', 333n, 1), line('b', 333n, 2)]),
    )
    // 0.333 → 0.33 and 0.666 → 0.67.
    assert.deepEqual(perLine(r), [33n, 67n])
  })

  it('takes a fixed amount off the order, never more than the order', () => {
    const r = applyCampaigns(
      [campaign('c', [{ id: 'r', type: 'fixed_amount', amount: 5000n, target: 'order' }])],
      cart([line('a', 1000n, 1), line('b', 3000n, 1)]),
    )
    assert.deepEqual(perLine(r), [1000n, 3000n])
  })

  it('takes a fixed amount off each unit of each eligible line, never below zero', () => {
    const r = applyCampaigns(
      [
        campaign('c', [{ id: 'r', type: 'fixed_amount', amount: 150n, target: 'line' }], {
          conditions: { ...noConditions, productIds: new Set(['a', 'b']) },
        }),
      ],
      cart([line('a', 1000n, 3), line('b', 100n, 2), line('x', 500n, 1)]),
    )
    assert.deepEqual(perLine(r), [450n, 200n, 0n])
  })

  it('gives the cheapest units free in buy 2 get 1 from one pool', () => {
    const r = applyCampaigns(
      [
        campaign('c', [
          {
            id: 'r',
            type: 'buy_x_get_y',
            buy: 2,
            get: 1,
            getProductIds: null,
            getCategoryIds: null,
            getPercentE4: 1_000_000,
            maxApplications: null,
          },
        ]),
      ],
      cart([line('a', 500n, 4), line('b', 300n, 2)]),
    )
    // 6 units make two groups of three: the two cheapest units (b at 3.00) are free.
    assert.deepEqual(perLine(r), [0n, 600n])
  })

  it('discounts the get items of buy X get Y at its percentage when they are another product', () => {
    const r = applyCampaigns(
      [
        campaign(
          'c',
          [
            {
              id: 'r',
              type: 'buy_x_get_y',
              buy: 1,
              get: 1,
              getProductIds: new Set(['fries']),
              getCategoryIds: null,
              getPercentE4: 500_000,
              maxApplications: null,
            },
          ],
          { conditions: { ...noConditions, productIds: new Set(['burger']) } },
        ),
      ],
      cart([line('burger', 900n, 2), line('fries', 350n, 3)]),
    )
    // Two burgers buy two portions of fries at half price: 7.00 × 50 %.
    assert.deepEqual(perLine(r), [0n, 350n])
  })

  it('prices a multi-buy set at its set price, on the dearest units', () => {
    const r = applyCampaigns(
      [campaign('c', [{ id: 'r', type: 'multi_buy', quantity: 3, price: 1000n, maxApplications: null }])],
      cart([line('a', 400n, 2), line('b', 450n, 2)]),
    )
    // Three of the four units (4.50, 4.50, 4.00 = 13.00) cost 10.00: 3.00 off, split 9:4 by value.
    const total = perLine(r).reduce((a, b) => a + b, 0n)
    assert.equal(total, 300n)
    assert.deepEqual(perLine(r), [92n, 208n])
  })

  it('prices each multi-buy set on its own, so a cheap set does not eat the saving of a dear one', () => {
    const r = applyCampaigns(
      [campaign('c', [{ id: 'r', type: 'multi_buy', quantity: 3, price: 1500n, maxApplications: null }])],
      cart([line('a', 333n, 4), line('b', 777n, 3)]),
    )
    // Sets by dearest units: b b b (23.31, 8.31 off) and a a a (9.99, already less than 15.00).
    assert.deepEqual(perLine(r), [0n, 831n])
  })

  it('gives one free item when it is in the order, and says so when it is not', () => {
    const rule: CompiledRule = { id: 'r', type: 'free_item', productId: 'cookie', quantity: 1 }
    const yes = applyCampaigns([campaign('c', [rule])], cart([line('coffee', 450n, 1), line('cookie', 250n, 2)]))
    assert.deepEqual(perLine(yes), [0n, 250n])
    const no = applyCampaigns([campaign('c', [rule])], cart([line('coffee', 450n, 1)]))
    assert.equal(no.applications.length, 0)
    assert.deepEqual(
      no.skipped.map((s) => [s.code, s.reason]),
      [['nothing_to_discount', 'the free item is not in the order']],
    )
  })
})

describe('stacking and priority', () => {
  const tenPercent = (id: string, extra: Partial<CampaignDef> = {}) =>
    campaign(id, [{ id: `${id}_r`, type: 'percentage', percentE4: 100_000, target: 'order' }], extra)

  it('applies an exclusive campaign alone and says why the others did not apply', () => {
    const r = applyCampaigns(
      [tenPercent('low'), tenPercent('high', { priority: 10, stacking: 'exclusive', name: 'Big sale' })],
      cart([line('a', 1000n, 1)]),
    )
    assert.deepEqual(
      r.applications.map((a) => a.campaignId),
      ['high'],
    )
    assert.deepEqual(r.skipped, [
      { campaignId: 'low', name: 'low', code: 'not_stackable', reason: 'does not combine with Big sale' },
    ])
  })

  it('stacks campaigns of one class, each on what the one before left', () => {
    const r = applyCampaigns(
      [tenPercent('a', { priority: 2 }), tenPercent('b', { priority: 1 })],
      cart([line('x', 1000n, 1)]),
    )
    assert.deepEqual(
      r.applications.map((a) => a.amount),
      [100n, 90n],
    )
  })

  it('does not stack campaigns of different classes', () => {
    const r = applyCampaigns(
      [tenPercent('a', { priority: 2 }), tenPercent('b', { priority: 1, stackingClass: 'loyalty' })],
      cart([line('x', 1000n, 1)]),
    )
    assert.deepEqual(
      r.skipped.map((s) => s.code),
      ['not_stackable'],
    )
  })
})

describe('conditions, each with its reason', () => {
  const base = (extra: Partial<CampaignDef>) =>
    campaign('c', [{ id: 'r', type: 'percentage', percentE4: 100_000, target: 'order' }], extra)
  const reasonOf = (c: CampaignDef, k: Cart) => {
    const r = applyCampaigns([c], k)
    return r.skipped[0] ? `${r.skipped[0].code}: ${r.skipped[0].reason}` : 'applied'
  }

  it('names each unmet condition', () => {
    const k = cart([line('a', 1000n, 1, 'cat_food')])
    assert.equal(
      reasonOf(base({ conditions: { ...noConditions, minSpend: 1250n } }), k),
      'min_spend: minimum spend 12.50 not reached',
    )
    assert.equal(
      reasonOf(base({ conditions: { ...noConditions, minQuantity: 2 } }), k),
      'min_quantity: minimum quantity 2 not reached',
    )
    assert.equal(
      reasonOf(base({ conditions: { ...noConditions, locationIds: new Set(['loc_b']) } }), k),
      'location: not at this location',
    )
    assert.equal(
      reasonOf(base({ conditions: { ...noConditions, days: new Set([6, 7]) } }), k),
      'schedule: only on Saturday, Sunday',
    )
    assert.equal(
      reasonOf(base({ conditions: { ...noConditions, hours: { from: 17 * 60, to: 19 * 60 } } }), k),
      'schedule: only between 17:00 and 19:00',
    )
    assert.equal(reasonOf(base({ requiresVoucher: true }), k), 'voucher_required: needs a voucher')
    assert.equal(
      reasonOf(base({ conditions: { ...noConditions, tiers: ['gold'] } }), k),
      'customer_required: only for a known customer',
    )
    const silver = { id: 'cus_1', tier: 'Silver', tags: ['vip'], uses: new Map() }
    assert.equal(
      reasonOf(base({ conditions: { ...noConditions, tiers: ['gold'] } }), cart(k.lines, { customer: silver })),
      'customer_tier: only for gold members',
    )
    assert.equal(
      reasonOf(base({ conditions: { ...noConditions, tags: ['staff'] } }), cart(k.lines, { customer: silver })),
      'customer_tag: only for customers tagged staff',
    )
    assert.equal(reasonOf(base({ usageLimit: 5, usageCount: 5 }), k), 'usage_limit: usage limit reached')
    assert.equal(
      reasonOf(base({ conditions: { ...noConditions, categoryIds: new Set(['cat_drinks']) } }), k),
      'no_eligible_items: no eligible product in the order',
    )
    assert.equal(reasonOf(base({ conditions: { ...noConditions, categoryIds: new Set(['cat_food']) } }), k), 'applied')
  })

  it('reads an hours window that spans midnight', () => {
    const late = base({ conditions: { ...noConditions, hours: { from: 22 * 60, to: 2 * 60 } } })
    const at = (minutes: number) => cart([line('a', 1000n, 1)], { local: { isoDay: 5, minutes } })
    assert.equal(reasonOf(late, at(23 * 60 + 30)), 'applied')
    assert.equal(reasonOf(late, at(60)), 'applied')
    assert.equal(reasonOf(late, at(2 * 60)), 'schedule: only between 22:00 and 02:00')
  })

  it('uses the selling location’s wall clock, around midnight and across a DST change', () => {
    // 2026-11-27 is a Friday. At 11:30 UTC it is already Saturday 00:30 in Auckland (UTC+13 in summer).
    assert.deepEqual(localClock(new Date('2026-11-27T11:30:00Z'), 'Pacific/Auckland'), { isoDay: 6, minutes: 30 })
    assert.deepEqual(localClock(new Date('2026-11-27T11:30:00Z'), 'UTC'), { isoDay: 5, minutes: 690 })
    // Europe/Berlin leaves summer time at 03:00 on 2026-10-25: 00:30 UTC is 02:30 (UTC+2), 01:30 UTC is 02:30 (UTC+1).
    assert.deepEqual(localClock(new Date('2026-10-25T00:30:00Z'), 'Europe/Berlin'), { isoDay: 7, minutes: 150 })
    assert.deepEqual(localClock(new Date('2026-10-25T01:30:00Z'), 'Europe/Berlin'), { isoDay: 7, minutes: 150 })
    assert.deepEqual(localClock(new Date('2026-10-25T02:30:00Z'), 'Europe/Berlin'), { isoDay: 7, minutes: 210 })
  })
})

describe('status by time', () => {
  const start = new Date('2026-12-01T00:00:00Z')
  const end = new Date('2026-12-02T00:00:00Z')
  it('starts a scheduled campaign at its start and ends any live one at its end', () => {
    const c = { status: 'scheduled' as const, startsAt: start, endsAt: end }
    assert.equal(statusAt(c, new Date('2026-11-30T23:59:59Z')), 'scheduled')
    assert.equal(statusAt(c, start), 'active')
    assert.equal(statusAt(c, end), 'ended')
    assert.equal(statusAt({ ...c, status: 'paused' }, start), 'paused')
    assert.equal(statusAt({ ...c, status: 'paused' }, end), 'ended')
    assert.equal(statusAt({ ...c, status: 'draft' }, end), 'draft')
  })
})

describe('properties', () => {
  const lineArb = fc.record({
    productId: fc.constantFrom('a', 'b', 'c'),
    categoryId: fc.constantFrom('x', 'y', null),
    unitPrice: fc.bigInt({ min: 0n, max: 100_000n }),
    quantity: fc.integer({ min: 1, max: 12 }),
  })
  const ruleArb: fc.Arbitrary<CompiledRule> = fc.oneof(
    fc.record({
      id: fc.constant('p'),
      type: fc.constant('percentage' as const),
      percentE4: fc.integer({ min: 1, max: 1_000_000 }),
      target: fc.constantFrom('order' as const, 'line' as const),
    }),
    fc.record({
      id: fc.constant('f'),
      type: fc.constant('fixed_amount' as const),
      amount: fc.bigInt({ min: 1n, max: 500_000n }),
      target: fc.constantFrom('order' as const, 'line' as const),
    }),
    fc.record({
      id: fc.constant('b'),
      type: fc.constant('buy_x_get_y' as const),
      buy: fc.integer({ min: 1, max: 4 }),
      get: fc.integer({ min: 1, max: 3 }),
      getProductIds: fc.constantFrom(null, new Set(['c'])),
      getCategoryIds: fc.constant(null),
      getPercentE4: fc.integer({ min: 1, max: 1_000_000 }),
      maxApplications: fc.constantFrom(null, 1, 2),
    }),
    fc.record({
      id: fc.constant('m'),
      type: fc.constant('multi_buy' as const),
      quantity: fc.integer({ min: 2, max: 5 }),
      price: fc.bigInt({ min: 0n, max: 200_000n }),
      maxApplications: fc.constantFrom(null, 1),
    }),
    fc.record({
      id: fc.constant('i'),
      type: fc.constant('free_item' as const),
      productId: fc.constantFrom('a', 'b'),
      quantity: fc.integer({ min: 1, max: 3 }),
    }),
  )
  const campaignArb = fc
    .record({
      rules: fc.array(ruleArb, { minLength: 1, maxLength: 3 }),
      priority: fc.integer({ min: 0, max: 3 }),
      stacking: fc.constantFrom('exclusive' as const, 'stackable' as const),
      onlyA: fc.boolean(),
    })
    .map((c) =>
      campaign(`c${c.priority}${c.rules.length}${c.onlyA}`, c.rules, {
        priority: c.priority,
        stacking: c.stacking,
        conditions: { ...noConditions, productIds: c.onlyA ? new Set(['a']) : null },
      }),
    )

  it('never makes a line or the order negative, and never takes off more than the lines are worth', () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 6 }),
        fc.array(campaignArb, { maxLength: 4 }),
        (lines, cs) => {
          const unique = [...new Map(cs.map((c, i) => [`${c.id}${i}`, { ...c, id: `${c.id}${i}` }])).values()]
          const r = applyCampaigns(unique, cart(lines))
          const off = perLine(r)
          lines.forEach((l, i) => {
            const worth = l.unitPrice * BigInt(l.quantity)
            const taken = off[i] ?? 0n
            assert.ok(taken >= 0n && taken <= worth, `line ${i}: ${taken} of ${worth}`)
          })
          for (const a of r.applications) {
            assert.ok(a.perLine.every((v) => v >= 0n))
            assert.equal(
              a.amount,
              a.perLine.reduce((x, y) => x + y, 0n),
            )
          }
          const totals = computeTotals(
            lines.map((l, i) => ({ ...l, taxRateE4: 150_000, campaignDiscount: off[i] ?? 0n })),
            [],
            false,
          )
          assert.ok(totals.total >= 0n)
          assert.ok(totals.lines.every((t) => t.lineTotal >= 0n))
        },
      ),
      { numRuns: 500 },
    )
  })

  it('never exceeds what a single rule allows', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 6 }), ruleArb, (lines, rule) => {
        const r = applyCampaigns([campaign('c', [rule])], cart(lines))
        const amount = r.applications.reduce((a, x) => a + x.amount, 0n)
        const worth = lines.reduce((a, l) => a + l.unitPrice * BigInt(l.quantity), 0n)
        switch (rule.type) {
          case 'percentage':
            // Rounded half-up per line at most: one minor unit per line above the exact share.
            assert.ok(amount * 1_000_000n <= worth * BigInt(rule.percentE4) + BigInt(lines.length) * 500_000n)
            break
          case 'fixed_amount':
            if (rule.target === 'order') assert.ok(amount <= rule.amount)
            else assert.ok(amount <= rule.amount * BigInt(lines.reduce((a, l) => a + l.quantity, 0)))
            break
          case 'free_item': {
            const max = lines.filter((l) => l.productId === rule.productId).map((l) => l.unitPrice)
            assert.ok(amount <= (max.length ? max.reduce((a, b) => (a > b ? a : b)) : 0n) * BigInt(rule.quantity))
            break
          }
          case 'multi_buy':
          case 'buy_x_get_y':
            assert.ok(amount <= worth)
            break
        }
      }),
      { numRuns: 500 },
    )
  })
})
