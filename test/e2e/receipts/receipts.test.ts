import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import type { Browser } from 'playwright-core'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { assertAccessible } from '../../support/axe.ts'
import { launchChromium, skipWithoutChromium } from '../../support/chromium.ts'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, type Shop } from '../../support/shop.ts'

/** The fonts pdf.js reads the standard 14 with, from its own package. */
const standardFontDataUrl = `${dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'))}/standard_fonts/`
const readPdf = (bytes: Buffer) => getDocument({ data: new Uint8Array(bytes), standardFontDataUrl }).promise

/** Where the screenshots a person looks at go (docs/commerce.md "Receipts"). */
const SHOTS = process.env.RECEIPT_SCREENSHOTS

describe('receipts', () => {
  let app: TestApp
  let shop: Shop
  let orderId: string
  let customerId: string

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
    const api = shop.api
    await api.patch('/api/v1/settings', {
      name: 'Corner Café',
      phone: '+64 9 555 0100',
      address: { line1: '1 Queen Street', city: 'Auckland', postal_code: '1010', country: 'NZ' },
      receipt_header: 'Fresh every morning',
      receipt_footer: 'Thank you! See you tomorrow.\nGST 123-456-789',
      tips: { enabled: true, percentages: [10, 15], base: 'before_tax' },
    })
    await api.post('/api/v1/tax-rates', { name: 'GST', rate: 15 })
    const milk = await api.post('/api/v1/modifiers', {
      name: 'Milk',
      options: [
        { name: 'Whole', is_default: true },
        { name: 'Oat milk', price_adjustment: 0.8 },
      ],
    })
    const latte = await api.post('/api/v1/products', {
      name: 'Flat white with a long name that wraps on a narrow roll',
      sku: `fw-${Date.now()}`,
      base_price: 4.5,
      track_inventory: false,
    })
    await api.put(`/api/v1/products/${latte.body.data.id}/modifiers`, { modifier_group_ids: [milk.body.data.id] })
    const muffin = await shop.product(3.2, { stock: 10, name: 'Muffin' })
    const campaign = await api.post('/api/v1/campaigns', {
      name: 'Morning 10% off',
      status: 'scheduled',
      rules: [{ type: 'percentage', percent: 10 }],
    })
    assert.equal(campaign.status, 201, JSON.stringify(campaign.body))
    await api.post('/api/v1/loyalty/programs', { name: 'Points', points_per_unit: 1 })
    customerId = (await api.post('/api/v1/customers', { email: 'ana@example.test', first_name: 'Ana' })).body.data.id
    await api.post('/api/v1/loyalty/members', { customer_id: customerId })
    const oat = milk.body.data.options.find((o: { name: string }) => o.name === 'Oat milk').id
    const made = await api.post('/api/v1/orders', {
      location_id: shop.locationId,
      customer_id: customerId,
      lines: [
        { product_id: latte.body.data.id, quantity: 2, modifier_option_ids: [oat] },
        { product_id: muffin, quantity: 1 },
      ],
      tip: { amount: 1.5 },
    })
    assert.equal(made.status, 201, JSON.stringify(made.body))
    orderId = made.body.data.id
    const paid = await api.post('/api/v1/payments', {
      order_id: orderId,
      amount: made.body.data.total,
      method: 'cash',
      cash_tendered: 50,
    })
    assert.equal(paid.status, 201, JSON.stringify(paid.body))
  })
  after(() => app.close())

  const receipt = (query: string) =>
    app.api.inject({
      method: 'GET',
      url: `/api/v1/orders/${orderId}/receipt${query}`,
      headers: { authorization: `Bearer ${shop.merchant.token}` },
    })

  it('prints text for thermal printers at 42 and 48 columns, no line wider', async () => {
    const order = (await shop.api.get(`/api/v1/orders/${orderId}`)).body.data
    for (const width of [42, 48]) {
      const res = await receipt(`?format=text&width=${width}`)
      assert.equal(res.statusCode, 200)
      assert.match(String(res.headers['content-type']), /^text\/plain/)
      const lines = res.body.split('\n')
      for (const line of lines) assert.ok([...line].length <= width, `${[...line].length} > ${width}: ${line}`)
      const text = res.body
      for (const expected of [
        'CORNER CAFÉ',
        'Fresh every morning',
        `ORDER ${order.number}`,
        'Oat milk',
        'Morning 10% off',
        'Tax 15%',
        'Tip',
        'TOTAL',
        'Cash given',
        'Change',
        'Points earned',
        'Points balance',
        'GST 123-456-789',
      ])
        assert.ok(text.includes(expected), `${expected} missing from\n${text}`)
      const total = lines.find((l: string) => l.startsWith('TOTAL'))!
      assert.ok(total.endsWith(`$${order.total.toFixed(2)}`), total)
      assert.equal(total.length, width)
    }
    assert.equal((await receipt('?format=text&width=40')).statusCode, 400)
  })

  it('prints a gift receipt without any amount, and in another language from its strings file', async () => {
    const gift = (await receipt('?format=text&gift=true')).body
    assert.ok(gift.includes('Gift receipt'))
    assert.ok(gift.includes('Muffin'))
    assert.ok(!gift.includes('$'), gift)
    const french = (await receipt('?format=text&lang=fr')).body
    assert.ok(french.includes('Sous-total'), french)
    assert.ok(french.includes('Pourboire'), french)
    const unknown = await receipt('?lang=xx')
    assert.equal(unknown.statusCode, 400)
    assert.equal(unknown.json().errors[0].field, 'lang')
  })

  it('makes a PDF whose totals read back', async () => {
    const order = (await shop.api.get(`/api/v1/orders/${orderId}`)).body.data
    const res = await receipt('?format=pdf')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'application/pdf')
    const pdf = await readPdf(res.rawPayload)
    const page = await pdf.getPage(1)
    const words = (await page.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).filter(Boolean)
    assert.ok(words.includes('Total'), words.join(' | '))
    assert.ok(words.includes(`$${order.total.toFixed(2)}`), words.join(' | '))
    assert.ok(words.includes(`$${order.tip.toFixed(2)}`), words.join(' | '))
    assert.ok(words.includes(`Order ${order.number}`), words.join(' | '))
    const a4 = await receipt('?format=pdf&paper=a4')
    const sheet = await (await readPdf(a4.rawPayload)).getPage(1)
    assert.deepEqual(
      sheet.view.map((v) => Math.round(v)),
      [0, 0, 595, 842],
    )
  })

  it('is kept from other orgs and from credentials without orders:read', async () => {
    const stranger = await openShop(app)
    assert.equal((await stranger.api.get(`/api/v1/orders/${orderId}/receipt`)).status, 404)
    assert.equal((await app.api.inject({ method: 'GET', url: `/api/v1/orders/${orderId}/receipt` })).statusCode, 401)
  })

  it('e-mails the receipt to the customer or an address given, a few times per order at most', async () => {
    const first = await shop.api.post(`/api/v1/orders/${orderId}/receipt/email`, {})
    assert.equal(first.status, 202, JSON.stringify(first.body))
    assert.deepEqual(first.body.data, {
      order_id: orderId,
      email: 'ana@example.test',
      channel: 'log',
      sent_for_order: 1,
    })
    const given = await shop.api.post(`/api/v1/orders/${orderId}/receipt/email`, {
      email: 'bo@example.test',
      gift: true,
    })
    assert.equal(given.body.data.email, 'bo@example.test')
    const ctx = systemContext(app.runtime.database, shop.merchant.orgId, [])
    const queued = await ctx.db.read((q) =>
      q.query<{ to_address: string; subject: string; html_sealed: string | null }>(
        'SELECT to_address, subject, html_sealed FROM mail_outbox WHERE org_id = $1 ORDER BY created_at, id',
        [shop.merchant.orgId],
      ),
    )
    const mine = queued.rows.filter((r) => r.subject.includes('Corner Café'))
    assert.deepEqual(
      mine.map((r) => r.to_address),
      ['ana@example.test', 'bo@example.test'],
    )
    assert.ok(mine.every((r) => r.html_sealed !== null))
    assert.equal((await shop.api.post(`/api/v1/orders/${orderId}/receipt/email`, {})).status, 202)
    const limited = await shop.api.post(`/api/v1/orders/${orderId}/receipt/email`, {})
    assert.equal(limited.status, 429)
    assert.equal(limited.body.code, 'RECEIPT_EMAIL_LIMIT')

    const anonymous = await shop.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      lines: [{ product_id: await shop.product(1, { stock: 1 }), quantity: 1 }],
    })
    const nobody = await shop.api.post(`/api/v1/orders/${anonymous.body.data.id}/receipt/email`, {})
    assert.equal(nobody.status, 422)
    assert.equal(nobody.body.errors[0].field, 'email')
  })

  describe('as a page in Chromium', { skip: skipWithoutChromium }, () => {
    let browser: Browser
    before(async () => {
      browser = await launchChromium()
    })
    after(() => browser?.close())

    for (const [label, width, paper] of [
      ['80 mm', 302, '80mm'],
      ['a phone', 390, '80mm'],
      ['A4', 794, 'a4'],
    ] as const) {
      it(`lays out on ${label}, accessible, nothing wider than the page`, async () => {
        const html = (await receipt(`?paper=${paper}`)).body
        const page = await browser.newPage({ viewport: { width, height: 900 } })
        await page.setContent(html)
        await assertAccessible(page)
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        assert.ok(overflow <= 0, `${overflow}px wider than the page`)
        assert.equal(await page.locator('h1').textContent(), 'Corner Café')
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/receipt-${paper}-${width}.png`, fullPage: true })
        await page.emulateMedia({ media: 'print' })
        const pdf = await page.pdf({ preferCSSPageSize: true })
        assert.ok(pdf.length > 1000)
        await page.close()
      })
    }
  })
})
