import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { allInOrder } from '../../src/platform/all-in-order.ts'

describe('allInOrder', () => {
  it('resolves with both values in argument order', async () => {
    assert.deepEqual(
      await allInOrder(
        sleep(5).then(() => 'a'),
        Promise.resolve(2),
      ),
      ['a', 2],
    )
  })

  it('rejects with the first failure in argument order, even when the second failed sooner', async () => {
    const first = sleep(10).then(() => {
      throw new Error('first')
    })
    const second = Promise.reject(new Error('second'))
    await assert.rejects(allInOrder(first, second), /first/)
  })

  it('rejects with the second failure when only the second fails', async () => {
    await assert.rejects(allInOrder(Promise.resolve(1), Promise.reject(new Error('second'))), /second/)
  })
})
