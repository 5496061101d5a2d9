import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { allocate, currencyExponent, divRoundHalfUp, toMajor, toMinor } from '../../src/platform/money/money.ts'

describe('money', () => {
  it('knows currencies without minor units and with three', () => {
    assert.equal(currencyExponent('USD'), 2)
    assert.equal(currencyExponent('JPY'), 0)
    assert.equal(currencyExponent('KWD'), 3)
  })

  it('reads decimal amounts into minor units exactly', () => {
    assert.equal(toMinor(19.99, 'USD', 'x'), 1999n)
    assert.equal(toMinor(0.1, 'USD', 'x'), 10n)
    assert.equal(toMinor(1.005, 'KWD', 'x'), 1005n)
    assert.equal(toMinor(500, 'JPY', 'x'), 500n)
    assert.throws(() => toMinor(1.001, 'USD', 'price'), /price has more than 2 decimal places/)
    assert.throws(() => toMinor(-1, 'USD', 'price'), /must not be negative/)
    assert.equal(toMinor(-2.5, 'USD', 'x', { allowNegative: true }), -250n)
  })

  it('round-trips every cent amount through the API representation', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 13n }), (minor) => {
        assert.equal(toMinor(toMajor(minor, 'USD'), 'USD', 'x'), minor)
      }),
    )
  })

  it('rounds half up, away from zero', () => {
    assert.equal(divRoundHalfUp(5n, 2n), 3n)
    assert.equal(divRoundHalfUp(4n, 3n), 1n)
    assert.equal(divRoundHalfUp(-5n, 2n), -3n)
    assert.equal(divRoundHalfUp(1499n, 1000n), 1n)
    assert.equal(divRoundHalfUp(1500n, 1000n), 2n)
  })

  it('allocates a total over weights so the parts always sum to it', () => {
    assert.deepEqual(allocate(100n, [1n, 1n, 1n]), [34n, 33n, 33n])
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }),
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 6n }), { minLength: 1, maxLength: 10 }),
        (total, weights) => {
          const parts = allocate(total, weights)
          assert.equal(
            parts.reduce((a, b) => a + b, 0n),
            total,
          )
        },
      ),
    )
  })
})
