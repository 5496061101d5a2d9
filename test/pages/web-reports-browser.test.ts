import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { parse } from 'csv-parse/sync'
import type { Browser, Page } from 'playwright-core'
import { payInFull } from '../e2e/orders.fixtures.ts'
import { launchChromium, skipWithoutChromium } from '../support/chromium.ts'
import { clientFor, createMerchant, type Merchant } from '../support/harness.ts'
import { type ListeningApps, startListeningApps } from '../support/web.ts'

/** Where the screenshot goes, to be looked at (CI keeps it in the temp directory). */
const SCREENSHOT = process.env.REPORTS_SCREENSHOT ?? '/tmp/opentill-reports.png'

describe('the Reports dashboard page in headless Chromium', { skip: skipWithoutChromium }, () => {
  let apps: ListeningApps
  let browser: Browser
  let merchant: Merchant
  let page: Page
  let total = 0

  before(async () => {
    apps = await startListeningApps()
    merchant = await createMerchant(apps.app)
    const api = clientFor(apps.app.api, merchant.token)
    const location = (await api.post('/api/v1/locations', { name: 'High Street' })).body.data.id
    const names = ['Flat white', 'Croissant', 'Sourdough loaf', 'Granola']
    const products: string[] = []
    for (const [i, name] of names.entries()) {
      const p = (await api.post('/api/v1/products', { name, sku: `rep-${i}`, base_price: 3.5 + i * 2.25 })).body.data.id
      await api.post('/api/v1/inventory/adjust', {
        product_id: p,
        location_id: location,
        quantity: 100,
        reason: 'received',
      })
      products.push(p)
    }
    for (let n = 0; n < 6; n++) {
      const order = (
        await api.post('/api/v1/orders', {
          location_id: location,
          lines: [
            { product_id: products[n % 4], quantity: 1 + (n % 3) },
            { product_id: products[(n + 1) % 4], quantity: 1 },
          ],
        })
      ).body.data
      if (n % 2) await payInFull(api, order.id, order.total)
      else
        await api.post('/api/v1/payments', { order_id: order.id, amount: order.total, method: 'cash', capture: true })
      total = Math.round((total + order.total) * 100) / 100
    }
    browser = await launchChromium()
    page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage()
    await page.goto(`${apps.appUrl}/dashboard/reports`)
    assert.match(page.url(), /\/login\?return_to=/)
    await page.getByLabel('E-mail').fill(merchant.email)
    await page.getByLabel('Password').fill(merchant.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor()
  })
  after(async () => {
    await browser?.close()
    await apps?.close()
  })

  it('draws the three charts from this origin’s scripts and shows the day’s sales to the cent', async () => {
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    await page.reload()
    await page.waitForSelector('body[data-charts-ready="true"]')
    assert.deepEqual(errors, [])
    // uPlot draws on a canvas per chart; the line chart's series has data points.
    assert.equal(await page.locator('.uplot canvas').count(), 3)
    assert.deepEqual(await page.locator('.uplot .u-title').allTextContents(), [
      'Sales by day',
      'Payments by method',
      'Top products',
    ])
    const summary = await page.locator('main p').filter({ hasText: 'orders' }).first().textContent()
    assert.match(summary ?? '', new RegExp(`6 orders, USD ${total.toFixed(2)} in sales`))
    const rows = await page.getByRole('table', { name: 'Payments by method' }).locator('tbody tr').allTextContents()
    assert.equal(rows.length, 2)
    // A chart with data paints pixels: the line chart's canvas is not blank.
    const painted = await page.evaluate(() => {
      const canvas = document.querySelector('#chart-sales canvas') as HTMLCanvasElement
      const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
      let ink = 0
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) ink++
      return ink
    })
    assert.ok(painted > 1000, `the sales chart painted ${painted} pixels`)
    await page.screenshot({ path: SCREENSHOT, fullPage: true })
  })

  it('downloads CSV that a CSV parser reads back, and narrows to a date range', async () => {
    const href = await page.getByRole('link', { name: 'Download sales by product (CSV)' }).getAttribute('href')
    const res = await page.context().request.get(`${apps.appUrl}${href}`)
    assert.equal(res.status(), 200)
    assert.match(res.headers()['content-type'], /^text\/csv/)
    const rows = parse(await res.text(), { columns: true, cast: true }) as { name: string; total: number }[]
    assert.equal(rows.length, 4)
    assert.equal(Math.round(rows.reduce((a, r) => a + r.total * 100, 0)), Math.round(total * 100))
    await page.getByLabel('From', { exact: true }).fill('2020-01-01')
    await page.getByLabel('To', { exact: true }).fill('2020-01-31')
    await Promise.all([
      page.waitForURL(/from=2020-01-01&to=2020-01-31/),
      page.getByRole('button', { name: 'Show' }).click(),
    ])
    await page.waitForSelector('body[data-charts-ready="true"]')
    assert.match((await page.locator('main').textContent()) ?? '', /Sales by day: nothing in this range/)
  })
})
