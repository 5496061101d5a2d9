import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { mayMove, moveLayby } from '../../src/modules/laybys/layby-status.ts'
import type { LaybyStatus } from '../../src/modules/laybys/laybys.schemas.ts'
import type { LaybyRow } from '../../src/modules/laybys/laybys.tables.ts'
import type { Queryable } from '../../src/platform/db/database.ts'
import type { RequestContext } from '../../src/platform/http/context.ts'

const STATUSES: LaybyStatus[] = ['open', 'cancelling', 'cancelled', 'completed']

describe("a lay-by's status moves", () => {
  test('only along the table: collected or cancelled in steps; completed and cancelled are final', () => {
    const allowed = STATUSES.flatMap((from) => STATUSES.filter((to) => mayMove(from, to)).map((to) => `${from}>${to}`))
    assert.deepEqual(allowed, [
      'open>cancelling',
      'open>completed',
      'cancelling>open',
      'cancelling>cancelling',
      'cancelling>cancelled',
    ])
  })

  test('refuses a move the table does not have before touching the database', async () => {
    const untouchable = {
      query: () => {
        throw new Error('no statement may run')
      },
    } as unknown as Queryable
    const ctx = { orgId: 'org_1' } as RequestContext
    const completed = { id: 'lay_1', status: 'completed' } as LaybyRow
    await assert.rejects(moveLayby(untouchable, ctx, completed, { to: 'cancelling' }), {
      message: 'a lay-by cannot move from completed to cancelling',
    })
    const open = { id: 'lay_2', status: 'open' } as LaybyRow
    await assert.rejects(moveLayby(untouchable, ctx, open, { to: 'cancelled' }), {
      message: 'a lay-by cannot move from open to cancelled',
    })
  })
})
