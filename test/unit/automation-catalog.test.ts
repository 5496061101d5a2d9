import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { MERCHANT_SCOPES } from '../../src/modules/auth/index.ts'
import { automationCatalog } from '../../src/modules/automations/catalog.ts'
import { conditionErrors, pathCanExist } from '../../src/modules/automations/conditions.ts'
import { ScheduleDataSchema, shapeOfEvent } from '../../src/modules/automations/event-shapes.ts'

const owner = automationCatalog(new Set(MERCHANT_SCOPES))
const trigger = (event: string) => owner.triggers.find((t) => t.event === event)

describe("the automations catalog: what a rule's form may offer", () => {
  test('offers only paths the API accepts in a condition, for every trigger', () => {
    for (const t of owner.triggers) {
      const shape = t.type === 'schedule' ? ScheduleDataSchema : shapeOfEvent(t.event)
      assert.equal(t.any_path, shape === undefined, t.event)
      for (const { path, type } of t.paths) {
        assert.ok(pathCanExist(shape, path), `${t.event}: ${path}`)
        const value = type === 'number' ? 1 : type === 'boolean' ? true : 'x'
        const op = type === 'list' ? 'contains' : 'eq'
        assert.deepEqual(conditionErrors({ match: 'all', rules: [{ path, op, value }] }, shape), [], path)
      }
    }
  })

  test("names an order's fields, its lines' fields through *, and lists of values as lists", () => {
    const paths = new Map(trigger('order.completed')?.paths.map((p) => [p.path, p.type]))
    assert.equal(paths.get('total'), 'number')
    assert.equal(paths.get('customer_id'), 'string')
    assert.equal(paths.get('lines.*.product_id'), 'string')
    assert.equal(paths.get('lines.*.quantity'), 'number')
    assert.equal(trigger('customer.created')?.paths.find((p) => p.path === 'tags')?.type, 'list')
    assert.deepEqual(
      trigger('schedule')?.paths.map((p) => p.path),
      ['scheduled_for', 'location_id', 'time_zone', 'local_time'],
    )
  })

  test('leaves out the event every run emits, and says where each event names its customer', () => {
    assert.equal(trigger('automation.triggered'), undefined)
    assert.equal(trigger('customer.updated')?.customer_path, 'id')
    assert.equal(trigger('order.completed')?.customer_path, 'customer_id')
    assert.equal(trigger('inventory.low_stock')?.customer_path, null)
    assert.equal(trigger('loyalty.points_earned')?.any_path, true)
    // SPEC's older names are the same events: a rule saved with one finds its trigger's paths.
    assert.deepEqual(trigger('payment.captured')?.aliases, ['payment.approved'])
    assert.deepEqual(trigger('order.created')?.aliases, [])
  })

  test('offers each trigger only the actions its caller may use: an e-mail also needs to read the data', () => {
    assert.deepEqual(
      trigger('order.completed')?.actions,
      owner.actions.map((a) => a.type),
    )
    const helper = automationCatalog(new Set(['automations:write', 'customers:write', 'customers:read']))
    const actionsOn = (event: string) => helper.triggers.find((t) => t.event === event)?.actions
    assert.deepEqual(actionsOn('customer.created'), ['tag_customer', 'send_email', 'wait'])
    assert.deepEqual(actionsOn('order.completed'), ['tag_customer', 'wait'])
    assert.equal(owner.actions.find((a) => a.type === 'accrue_points')?.scope, 'loyalty:adjust')
  })
})
