import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { retriedOnDeadlock } from '../../src/platform/db/errors.ts'

/** What node-postgres throws when PostgreSQL rolled the transaction back to break a deadlock. */
const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' })

describe('retriedOnDeadlock', () => {
  it('runs the transaction again when it was a deadlock’s victim, and answers what the next attempt did', async () => {
    let calls = 0
    const answer = await retriedOnDeadlock(async () => {
      calls++
      if (calls === 1) throw deadlock()
      return 'written'
    })
    assert.deepEqual([answer, calls], ['written', 2])
  })

  it('gives up after three attempts with the deadlock, and never retries another error', async () => {
    let calls = 0
    await assert.rejects(
      retriedOnDeadlock(async () => {
        calls++
        throw deadlock()
      }),
      { code: '40P01' },
    )
    assert.equal(calls, 3)
    calls = 0
    await assert.rejects(
      retriedOnDeadlock(async () => {
        calls++
        throw Object.assign(new Error('duplicate key'), { code: '23505' })
      }),
      { code: '23505' },
    )
    assert.equal(calls, 1)
  })
})
