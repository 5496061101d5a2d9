import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

/**
 * A request's reads share one connection while any is in flight (platform/db/org-db.ts): reads sent at once are
 * pipelined on it rather than each taking a connection of the pool, and it goes back after the last.
 */
describe("a request's reads", () => {
  let app: TestApp
  let merchant: Merchant
  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
  })
  after(() => app.close())

  it('share one connection while they are in flight, and give it back after the last', async () => {
    const ctx = systemContext(app.runtime.database, merchant.orgId, [])
    const database = app.runtime.database
    const inUseBefore = database.poolStats().inUse
    const reads = 5
    let started = 0
    let allStarted!: () => void
    const together = new Promise<void>((resolve) => {
      allStarted = resolve
    })
    const inUse: number[] = []
    const answers = await Promise.all(
      Array.from({ length: reads }, (_, i) =>
        ctx.db.read(async (q) => {
          // Every read waits until all have started: each holds what it was given meanwhile.
          if (++started === reads) allStarted()
          await together
          inUse.push(database.poolStats().inUse - inUseBefore)
          const { rows } = await q.query<{ n: number }>('SELECT $1::int AS n', [i])
          return rows[0].n
        }),
      ),
    )
    assert.deepEqual(answers, [0, 1, 2, 3, 4])
    assert.deepEqual(inUse, [1, 1, 1, 1, 1], 'the five reads held one connection between them')
    assert.equal(database.poolStats().inUse, inUseBefore, 'the connection went back after the last read')
  })

  it('answers each read its own failure, and the others theirs', async () => {
    const ctx = systemContext(app.runtime.database, merchant.orgId, [])
    const [failed, answered] = await Promise.allSettled([
      ctx.db.read((q) => q.query('SELECT 1 / 0')),
      ctx.db.read(async (q) => (await q.query<{ n: number }>('SELECT 7 AS n')).rows[0].n),
    ])
    assert.equal(failed.status, 'rejected')
    assert.deepEqual(answered, { status: 'fulfilled', value: 7 })
  })
})
