import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { fromMinor, sum, toMinor } from '@opentill/client'

describe("the client's money helpers", () => {
  it('read amounts exactly, and refuse one finer than the currency (as the server does) rather than round it', () => {
    assert.equal(toMinor(4.5, 'USD'), 450n)
    assert.equal(toMinor('19.99', 'USD'), 1999n)
    assert.equal(toMinor(1500, 'JPY'), 1500n)
    assert.equal(toMinor(-0.3, 'USD'), -30n)
    // Before, a number was rounded first: 1.001 became 100n without a word.
    assert.throws(() => toMinor(1.001, 'USD'), /more than 2 decimals/)
    assert.throws(() => toMinor(1e21, 'USD'), /is not an amount/)
    assert.equal(fromMinor(450n, 'USD'), 4.5)
    assert.equal(sum([0.1, 0.2], 'USD'), 0.3)
  })
})
