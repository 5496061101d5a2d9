import assert from 'node:assert/strict'
import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { createMerchant, type Merchant, startTestApp, type TestApp } from '../support/harness.ts'

const client = new URL('../../packages/client/', import.meta.url).pathname
const typescript = join(client, 'node_modules/typescript/bin/tsc')

/** A sale in a project of its own, which knows the API only through the packed client. */
const SALE = `import { createOpenTillClient, OpenTillProblem, reportCsv, toMinor, unwrap } from '@opentill/client'

const client = createOpenTillClient({ baseUrl: process.env.API_URL ?? '' })
await client.login(process.env.EMAIL ?? '', process.env.PASSWORD ?? '')
const { data: shop } = await unwrap(client.POST('/api/v1/locations', { body: { name: 'Kiosk' } }))
const { data: tea } = await unwrap(client.POST('/api/v1/products', { body: { name: 'Tea', sku: 'TEA', base_price: 3.2 } }))
await unwrap(client.POST('/api/v1/inventory/adjust', {
  body: { product_id: tea.id, location_id: shop.id, quantity: 5, reason: 'received' },
}))
const { data: order } = await unwrap(client.POST('/api/v1/orders', {
  body: { location_id: shop.id, lines: [{ product_id: tea.id, quantity: 2 }] },
}))
const { data: payment } = await unwrap(client.POST('/api/v1/payments', {
  body: { order_id: order.id, amount: order.total, method: 'card', payment_method_token: 'pm_card_visa', capture: true },
}))
const missing = await client.GET('/api/v1/orders/{id}', { params: { path: { id: 'ord_none' } } })
const code: string | undefined = missing.error?.code
const today = new Date().toISOString().slice(0, 10)
const csv = await reportCsv(client, '/api/v1/reports/sales', { from: today, to: today })
let problem = ''
try {
  await unwrap(client.POST('/api/v1/orders', { body: { location_id: shop.id, lines: [{ product_id: tea.id, quantity: 9 }] } }))
} catch (error) {
  if (error instanceof OpenTillProblem) problem = error.code
}
console.log(JSON.stringify({ total: toMinor(order.total, 'USD').toString(), status: payment.status, code, problem, csv: csv.split('\\n')[0] }))
`

/**
 * @opentill/client stands alone: built and packed as \`npm pack\` makes it, installed into a scratch project from the
 * tarball, type-checked there with strict TypeScript, and run against this server.
 */
describe('the packed client in a project of its own', () => {
  let app: TestApp
  let merchant: Merchant
  let scratch: string

  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
    scratch = mkdtempSync(join(tmpdir(), 'opentill-packed-client-'))
  })
  after(async () => {
    await app?.close()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('installs from its tarball, type-checks under strict TypeScript, and makes a sale', async () => {
    execFileSync('npm', ['run', 'build'], { cwd: client, stdio: 'pipe' })
    execFileSync('npm', ['pack', '--pack-destination', scratch], { cwd: client, stdio: 'pipe' })
    const tarball = readdirSync(scratch).find((f) => f.endsWith('.tgz'))
    assert.ok(tarball, 'npm pack made a tarball')
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({
        name: 'till',
        private: true,
        type: 'module',
        dependencies: { '@opentill/client': `file:./${tarball}` },
      }),
    )
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: false,
          outDir: 'out',
          lib: ['ES2023', 'DOM'],
          types: [],
        },
        files: ['sale.ts'],
      }),
    )
    writeFileSync(
      join(scratch, 'sale.ts'),
      `declare const process: { env: Record<string, string | undefined> }\n${SALE}`,
    )
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: scratch, stdio: 'pipe' })
    execFileSync(process.execPath, [typescript, '-p', 'tsconfig.json'], { cwd: scratch, stdio: 'pipe' })
    const address = await app.api.listen({ port: 0, host: '127.0.0.1' })
    // Not execFileSync: the sale calls this process's server, which must keep answering meanwhile.
    const { stdout: output } = await promisify(execFile)(process.execPath, ['out/sale.js'], {
      cwd: scratch,
      env: { ...process.env, API_URL: address, EMAIL: merchant.email, PASSWORD: merchant.password },
      encoding: 'utf8',
    })
    assert.deepEqual(JSON.parse(output), {
      total: '640',
      status: 'captured',
      code: 'NOT_FOUND',
      problem: 'INSUFFICIENT_STOCK',
      csv: 'period,orders,gross_sales,discounts,net_sales,tax,total,refunds,refunded,total_after_refunds',
    })
  })
})
