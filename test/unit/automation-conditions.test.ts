import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Type } from 'typebox'
import type { Condition } from '../../src/modules/automations/automations.schemas.ts'
import {
  conditionErrors,
  conditionsHold,
  holds,
  pathCanExist,
  valuesAt,
} from '../../src/modules/automations/conditions.ts'
import { dueSlot } from '../../src/modules/automations/schedule.ts'

const order = {
  id: 'ord_1',
  total: 42.5,
  status: 'completed',
  note: 'gift wrap please',
  customer_id: null,
  location_id: 'loc_1',
  tags: ['vip', 'local'],
  created_at: '2026-03-01T10:00:00.000Z',
  lines: [
    { sku: 'A-1', quantity: 1 },
    { sku: 'B-2', quantity: 3 },
  ],
}

describe('automation conditions', () => {
  const cases: [Condition, boolean][] = [
    [{ path: 'status', op: 'eq', value: 'completed' }, true],
    [{ path: 'status', op: 'eq', value: 'open' }, false],
    [{ path: 'total', op: 'eq', value: '42.5' }, true],
    [{ path: 'status', op: 'ne', value: 'open' }, true],
    [{ path: 'status', op: 'ne', value: 'completed' }, false],
    [{ path: 'missing', op: 'ne', value: 'x' }, true],
    [{ path: 'total', op: 'gt', value: 42 }, true],
    [{ path: 'total', op: 'gt', value: 42.5 }, false],
    [{ path: 'total', op: 'gte', value: 42.5 }, true],
    [{ path: 'total', op: 'lt', value: 50 }, true],
    [{ path: 'total', op: 'lte', value: 42 }, false],
    [{ path: 'total', op: 'gt', value: '1' }, false],
    [{ path: 'created_at', op: 'gte', value: '2026-03-01T00:00:00Z' }, true],
    [{ path: 'status', op: 'in', value: ['completed', 'refunded'] }, true],
    [{ path: 'status', op: 'in', value: ['open'] }, false],
    [{ path: 'note', op: 'contains', value: 'gift' }, true],
    [{ path: 'note', op: 'contains', value: 'Gift' }, false],
    [{ path: 'tags', op: 'contains', value: 'vip' }, true],
    [{ path: 'tags', op: 'contains', value: 'new' }, false],
    [{ path: 'location_id', op: 'exists' }, true],
    [{ path: 'customer_id', op: 'exists' }, false],
    [{ path: 'customer_id', op: 'exists', value: false }, true],
    [{ path: 'nothing.here', op: 'exists' }, false],
    [{ path: 'lines.1.sku', op: 'eq', value: 'B-2' }, true],
    [{ path: 'lines.5.sku', op: 'exists' }, false],
    [{ path: 'lines.*.quantity', op: 'gte', value: 3 }, true],
    [{ path: 'lines.*.quantity', op: 'gt', value: 3 }, false],
    [{ path: 'lines.*.sku', op: 'in', value: ['Z-9', 'A-1'] }, true],
  ]
  for (const [condition, expected] of cases) {
    test(`${condition.path} ${condition.op} ${JSON.stringify(condition.value)} is ${expected}`, () => {
      assert.equal(holds(condition, order), expected)
    })
  }

  test('all needs every rule, any needs one, and no rules always hold', () => {
    const yes: Condition = { path: 'status', op: 'eq', value: 'completed' }
    const no: Condition = { path: 'total', op: 'gt', value: 100 }
    assert.equal(conditionsHold({ match: 'all', rules: [yes, no] }, order), false)
    assert.equal(conditionsHold({ match: 'any', rules: [yes, no] }, order), true)
    assert.equal(conditionsHold({ match: 'all', rules: [] }, order), true)
    assert.equal(conditionsHold({ match: 'any', rules: [] }, order), false)
  })

  test('a path names every value it reaches, through arrays and wildcards', () => {
    assert.deepEqual(valuesAt(order, 'lines.*.sku'), ['A-1', 'B-2'])
    assert.deepEqual(valuesAt(order, 'lines.0'), [order.lines[0]])
    assert.deepEqual(valuesAt(order, 'total.cents'), [])
  })

  const shape = Type.Object({
    id: Type.String(),
    customer_id: Type.Union([Type.String(), Type.Null()]),
    lines: Type.Array(Type.Object({ sku: Type.String() })),
    preferences: Type.Record(Type.String(), Type.Unknown()),
  })

  test('a path is checked against the shape of the event data', () => {
    assert.equal(pathCanExist(shape, 'customer_id'), true)
    assert.equal(pathCanExist(shape, 'lines.*.sku'), true)
    assert.equal(pathCanExist(shape, 'lines.0.sku'), true)
    assert.equal(pathCanExist(shape, 'preferences.anything.deeper'), true)
    assert.equal(pathCanExist(shape, 'customer'), false)
    assert.equal(pathCanExist(shape, 'id.length'), false)
    assert.equal(pathCanExist(shape, 'lines.first'), false)
    assert.equal(pathCanExist(undefined, 'whatever.goes'), true)
  })

  test('operands that cannot suit their operator are field errors', () => {
    const errors = conditionErrors(
      {
        match: 'all',
        rules: [
          { path: 'id', op: 'in', value: 'not a list' },
          { path: 'id', op: 'gt', value: true },
          { path: 'id', op: 'exists', value: 'yes' },
          { path: 'id', op: 'eq' },
          { path: 'nope', op: 'eq', value: 1 },
          { path: 'id', op: 'eq', value: 'fine' },
        ],
      },
      shape,
    )
    assert.deepEqual(
      errors.map((e) => [e.field, e.code]),
      [
        ['conditions.rules.0.value', 'invalid'],
        ['conditions.rules.1.value', 'invalid'],
        ['conditions.rules.2.value', 'invalid'],
        ['conditions.rules.3.value', 'invalid'],
        ['conditions.rules.4.path', 'unknown_path'],
      ],
    )
  })
})

describe('schedule slots', () => {
  test("the latest slot since the last look, read in the location's time zone", () => {
    const tz = 'America/New_York'
    // 09:00 in New York on 2 March 2026 (EST, UTC-5) is 14:00 UTC.
    assert.equal(
      dueSlot('0 9 * * *', tz, new Date('2026-03-02T13:00:00Z'), new Date('2026-03-02T13:59:59Z')),
      undefined,
    )
    assert.deepEqual(
      dueSlot('0 9 * * *', tz, new Date('2026-03-02T13:00:00Z'), new Date('2026-03-02T14:00:00Z')),
      new Date('2026-03-02T14:00:00Z'),
    )
    // Three missed days collapse into the latest slot.
    assert.deepEqual(
      dueSlot('0 9 * * *', tz, new Date('2026-03-01T00:00:00Z'), new Date('2026-03-04T15:00:00Z')),
      new Date('2026-03-04T14:00:00Z'),
    )
  })
})
