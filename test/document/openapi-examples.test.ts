import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { EXAMPLES_FILE } from '../../src/platform/http/openapi-document.ts'
import { type Call, clientFor, createMerchant, type JsonBody, startTestApp, type TestApp } from '../support/harness.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

interface Example {
  request?: unknown
  response: unknown
}

/** A value's shape: its keys and the type of each value, recursively (ids and times differ from run to run). */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 0 ? [shapeOf(value[0])] : []
  if (value === null || typeof value !== 'object') return value === null ? 'null' : typeof value
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => [k, shapeOf(v)]),
  )
}

/**
 * The document's request and response examples are real answers of the main operations a till and a web shop call
 * first, recorded here (UPDATE_OPENAPI_EXAMPLES=1 writes them): the test fails when an answer's shape no longer
 * matches its example, and checks every example against the operation's schema, so they cannot drift.
 */
describe('the OpenAPI examples', () => {
  let app: TestApp
  const recorded: Record<string, Example> = {}

  before(async () => {
    app = await startTestApp()
  })
  after(() => app?.close())

  it('are real answers of a till and a web shop, and match the schemas they illustrate', async () => {
    const merchant = await createMerchant(app)
    const api = clientFor(app.api, merchant.token)
    const call = async (operationId: string, answer: Promise<Call>, request?: unknown) => {
      const res = await answer
      assert.ok(res.status < 300, `${operationId}: ${JSON.stringify(res.body)}`)
      recorded[operationId] = request === undefined ? { response: res.body } : { request, response: res.body }
      return res.body.data
    }
    const post = (operationId: string, path: string, body: unknown) => call(operationId, api.post(path, body), body)

    const login = { email: merchant.email, password: merchant.password }
    await call('login', clientFor(app.api).post('/api/v1/auth/login', login), login)
    const location = await post('createLocation', '/api/v1/locations', {
      name: 'High Street',
      timezone: 'Europe/London',
    })
    const product = await post('createProduct', '/api/v1/products', {
      name: 'Flat white',
      sku: 'FW-001',
      base_price: 3.5,
      barcodes: ['9400000000011'],
    })
    await post('adjustInventory', '/api/v1/inventory/adjust', {
      product_id: product.id,
      location_id: location.id,
      quantity: 24,
      reason: 'received',
    })
    await call('listProducts', api.get('/api/v1/products?limit=1'))
    await call('getProduct', api.get(`/api/v1/products/${product.id}`))
    await call('listInventoryLevels', api.get(`/api/v1/inventory/levels?location_id=${location.id}`))
    const customer = await post('createCustomer', '/api/v1/customers', {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
    })
    const sale = {
      location_id: location.id,
      customer_id: customer.id,
      lines: [{ product_id: product.id, quantity: 2 }],
    }
    await post('calculateOrder', '/api/v1/orders/calculate', sale)
    const order = await post('createOrder', '/api/v1/orders', sale)
    await post('createPayment', '/api/v1/payments', {
      order_id: order.id,
      amount: order.total,
      method: 'card',
      payment_method_token: 'pm_card_visa',
      capture: true,
    })
    await call('getOrder', api.get(`/api/v1/orders/${order.id}`))
    await post('refundOrder', `/api/v1/orders/${order.id}/refund`, {
      lines: [{ line_id: order.lines[0].id, quantity: 1 }],
      restock: true,
      reason: 'spilt',
    })
    await post('issueGiftCard', '/api/v1/gift-cards', { initial_balance: 25 })
    const today = new Date().toISOString().slice(0, 10)
    await call('getSalesReport', api.get(`/api/v1/reports/sales?from=${today}&to=${today}`))

    // No live secret in a document: the password and tokens are shown as placeholders.
    recorded.login = {
      request: { email: 'owner@example.com', password: 'correct horse battery staple' },
      response: {
        data: {
          ...(recorded.login.response as { data: object }).data,
          accessToken: 'eyJhbGciOiJFUzI1NiIsImtpZCI6ImtleV8wMW…',
          refreshToken: 'rt_4f0c2d…',
        },
      },
    }
    if (process.env.UPDATE_OPENAPI_EXAMPLES) writeFileSync(EXAMPLES_FILE, `${JSON.stringify(recorded, null, 2)}\n`)
    const committed = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Record<string, Example>
    assert.deepEqual(Object.keys(committed).sort(), Object.keys(recorded).sort())
    for (const [operationId, example] of Object.entries(recorded))
      assert.deepEqual(
        shapeOf(committed[operationId]),
        shapeOf(example),
        `${operationId}'s example no longer matches its answer: UPDATE_OPENAPI_EXAMPLES=1 npm test -- openapi-examples`,
      )

    // Every example the document shows fits the schema it illustrates.
    const document = (await app.api.inject({ method: 'GET', url: '/openapi.json' })).json()
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }))
    ajv.addSchema(document, 'openapi')
    let shown = 0
    for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, JsonBody>>))
      for (const [method, operation] of Object.entries(methods)) {
        const pointer = `openapi#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}`
        const body = operation.requestBody?.content?.['application/json']
        if (body?.example !== undefined) {
          const valid = ajv.validate({ $ref: `${pointer}/requestBody/content/application~1json/schema` }, body.example)
          assert.ok(valid, `${operation.operationId} request example: ${ajv.errorsText()}`)
          shown++
        }
        for (const [status, response] of Object.entries(operation.responses as Record<string, JsonBody>)) {
          const content = response.content?.['application/json']
          if (content?.example === undefined) continue
          const valid = ajv.validate(
            { $ref: `${pointer}/responses/${status}/content/application~1json/schema` },
            content.example,
          )
          assert.ok(valid, `${operation.operationId} ${status} example: ${ajv.errorsText()}`)
          shown++
        }
      }
    assert.ok(shown >= Object.keys(recorded).length, `the document shows ${shown} examples`)
  })
})
