import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { emitEvent } from '../../../src/platform/events/outbox.ts'
import { createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

/** Database.transaction's commitNow: COMMIT sent behind statements whose answers have not arrived yet. */
describe('commitNow', () => {
  let app: TestApp
  let merchant: Merchant
  const count = (type: string) =>
    app.runtime.database.read(merchant.orgId, async (q) => {
      const { rows } = await q.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM events WHERE org_id = $1 AND type = $2',
        [merchant.orgId, type],
      )
      return rows[0].n
    })

  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
  })
  after(() => app.close())

  it('commits the statements sent before it, whose answers arrive afterwards', async () => {
    await app.runtime.database.transaction(merchant.orgId, async (q, commitNow) => {
      const written = emitEvent(q, merchant.orgId, 'test.committed', {})
      commitNow()
      await written
    })
    assert.equal(await count('test.committed'), 1)
  })

  it('refuses a statement issued after it', async () => {
    await assert.rejects(
      app.runtime.database.transaction(merchant.orgId, async (q, commitNow) => {
        commitNow()
        await emitEvent(q, merchant.orgId, 'test.late', {})
      }),
      /after its transaction sent COMMIT/,
    )
    assert.equal(await count('test.late'), 0)
  })

  it('rolls everything back when a statement sent before it fails', async () => {
    await assert.rejects(
      app.runtime.database.transaction(merchant.orgId, async (q, commitNow) => {
        const written = emitEvent(q, merchant.orgId, 'test.rolled-back', {})
        const failing = q.query('SELECT 1 / 0')
        commitNow()
        await Promise.all([written, failing])
      }),
      /division by zero/,
    )
    assert.equal(await count('test.rolled-back'), 0)
  })
})
