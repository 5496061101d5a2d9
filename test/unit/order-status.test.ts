import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { mayMove } from '../../src/modules/orders/order-status.ts'
import type { OrderStatus } from '../../src/modules/orders/orders.schemas.ts'

const STATUSES: OrderStatus[] = ['open', 'completed', 'voided', 'partially_refunded', 'refunded']

describe("an order's status moves", () => {
  test('only along the table: open to completed or voided, then refunds; voided and refunded are final', () => {
    const allowed = STATUSES.flatMap((from) => STATUSES.filter((to) => mayMove(from, to)).map((to) => `${from}>${to}`))
    assert.deepEqual(allowed, [
      'open>completed',
      'open>voided',
      'completed>partially_refunded',
      'completed>refunded',
      'partially_refunded>refunded',
    ])
  })
})
