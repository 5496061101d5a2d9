import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import {
  nextTier,
  pointsFor,
  pointsToTakeBack,
  type Tier,
  takeFromLots,
  tierAt,
} from '../../src/modules/loyalty/loyalty.rules.ts'

const tiers: Tier[] = [
  { name: 'Gold', threshold: 1000n, multiplierE4: 20_000n, benefits: [] },
  { name: 'Silver', threshold: 0n, multiplierE4: 10_000n, benefits: [] },
  { name: 'Platinum', threshold: 5000n, multiplierE4: 30_000n, benefits: [] },
]

describe('points arithmetic', () => {
  it('earns points per currency unit, rounded once as the program says', () => {
    // 12.99 EUR at 1 point per euro: 12 (floor), 13 (nearest), 13 (ceil).
    assert.equal(pointsFor(1299n, 'EUR', 10_000n, 10_000n, 'floor'), 12n)
    assert.equal(pointsFor(1299n, 'EUR', 10_000n, 10_000n, 'nearest'), 13n)
    assert.equal(pointsFor(1250n, 'EUR', 10_000n, 10_000n, 'nearest'), 13n)
    assert.equal(pointsFor(1249n, 'EUR', 10_000n, 10_000n, 'nearest'), 12n)
    assert.equal(pointsFor(1201n, 'EUR', 10_000n, 10_000n, 'ceil'), 13n)
    // A tier's 1.5× and a campaign's double points multiply before the one rounding: 12.99 × 3 = 38.97 → 38.
    assert.equal(pointsFor(1299n, 'EUR', 10_000n, 30_000n, 'floor'), 38n)
    // Currencies without minor units: 1,500 JPY at 0.01 points per yen is 15 points.
    assert.equal(pointsFor(1500n, 'JPY', 100n, 10_000n, 'floor'), 15n)
    assert.equal(pointsFor(0n, 'EUR', 10_000n, 10_000n, 'ceil'), 0n)
  })

  it('finds the tier held and the next one, whatever order the tiers come in', () => {
    assert.equal(tierAt(tiers, 0n)?.name, 'Silver')
    assert.equal(tierAt(tiers, 999n)?.name, 'Silver')
    assert.equal(tierAt(tiers, 1000n)?.name, 'Gold')
    assert.equal(tierAt(tiers, 9999n)?.name, 'Platinum')
    assert.equal(tierAt([tiers[0]], 10n), null)
    assert.deepEqual([nextTier(tiers, 400n)?.tier.name, nextTier(tiers, 400n)?.remaining], ['Gold', 600n])
    assert.equal(nextTier(tiers, 5000n), null)
  })

  it('takes points from lots in order and refuses when they do not hold enough', () => {
    const lots = [
      { id: 'a', remaining: 10n },
      { id: 'b', remaining: 5n },
      { id: 'c', remaining: 20n },
    ]
    assert.deepEqual(takeFromLots(lots, 12n), [
      { id: 'a', take: 10n },
      { id: 'b', take: 2n },
    ])
    assert.equal(takeFromLots(lots, 36n), null)
  })

  it('properties: rounding stays within one point, lots never go negative, refunds take back exactly what was earned', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10_000_000n }),
        fc.bigInt({ min: 1n, max: 100_000n }),
        fc.bigInt({ min: 1n, max: 50_000n }),
        (spent, ppu, mult) => {
          const floor = pointsFor(spent, 'USD', ppu, mult, 'floor')
          const ceil = pointsFor(spent, 'USD', ppu, mult, 'ceil')
          const nearest = pointsFor(spent, 'USD', ppu, mult, 'nearest')
          assert.ok(floor >= 0n && ceil - floor <= 1n && nearest >= floor && nearest <= ceil)
        },
      ),
    )
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: 1000n }), { maxLength: 8 }),
        fc.bigInt({ min: 0n, max: 9000n }),
        (remaining, points) => {
          const lots = remaining.map((r, i) => ({ id: String(i), remaining: r }))
          const taken = takeFromLots(lots, points)
          const held = remaining.reduce((a, b) => a + b, 0n)
          if (points > held) return assert.equal(taken, null)
          assert.equal(
            taken!.reduce((a, t) => a + t.take, 0n),
            points,
          )
          for (const t of taken!) assert.ok(t.take > 0n && t.take <= lots[Number(t.id)].remaining)
        },
      ),
    )
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 100_000n }),
        fc.bigInt({ min: 1n, max: 1_000_000n }),
        fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 6 }),
        (earned, total, parts) => {
          // Refunds in any split: cumulative shares of the total, the last one completing it.
          const weight = parts.reduce((a, b) => a + b, 0)
          let refunded = 0n
          let reversed = 0n
          parts.forEach((p, i) => {
            refunded = i === parts.length - 1 ? total : refunded + (total * BigInt(p)) / BigInt(weight)
            const back = pointsToTakeBack(earned, reversed, refunded, total)
            assert.ok(back >= 0n)
            reversed += back
          })
          assert.equal(reversed, earned)
        },
      ),
    )
  })
})
