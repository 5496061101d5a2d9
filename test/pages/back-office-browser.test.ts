import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import { parse } from 'csv-parse/sync'
import type { Browser, Page } from 'playwright-core'
import { assertAccessible } from '../support/axe.ts'
import { sidewaysScroll, signedInPage } from '../support/back-office.ts'
import { launchChromium, skipWithoutChromium } from '../support/chromium.ts'
import { clientFor, createMerchant, type Merchant } from '../support/harness.ts'
import { invitedAndSignedIn, type Person } from '../support/people.ts'
import { type ListeningApps, startListeningApps } from '../support/web.ts'

const SCREENSHOTS = process.env.BACK_OFFICE_SCREENSHOTS ?? '/tmp/opentill-back-office'
const WIDTHS = [1280, 390] as const

/**
 * The back office as an owner uses it, in headless Chromium from sign-in: each weekly job of running the shop is a
 * path through its pages, on a desktop and on a 390 px phone, and what the pages do is checked in the API.
 */
describe('the back office in headless Chromium', { skip: skipWithoutChromium }, () => {
  let apps: ListeningApps
  let browser: Browser
  let owner: Merchant
  let coOwner: Person
  let api: ReturnType<typeof clientFor>
  let shop: string
  let latte: { id: string }
  let muffin: { id: string }

  before(async () => {
    apps = await startListeningApps()
    owner = await createMerchant(apps.app, { name: 'Corner Cafe' })
    api = clientFor(apps.app.api, owner.token)
    coOwner = await invitedAndSignedIn(apps.app, api, 'owner')
    const created = async (path: string, body: unknown) => {
      const res = await api.post(path, body)
      assert.equal(res.status, 201, `${path}: ${JSON.stringify(res.body)}`)
      return res.body.data
    }
    shop = (await created('/api/v1/locations', { name: 'High Street', timezone: 'Europe/London' })).id
    latte = await created('/api/v1/products', { name: 'Latte', sku: 'LAT', base_price: 4.5, cost: 1.2 })
    muffin = await created('/api/v1/products', { name: 'Blueberry muffin', sku: 'MUF', base_price: 3.25 })
    for (const product of [latte, muffin])
      await created('/api/v1/inventory/adjust', {
        product_id: product.id,
        location_id: shop,
        quantity: 20,
        reason: 'received',
      })
    await created('/api/v1/registers', { name: 'Front till', location_id: shop })
    const milk = await created('/api/v1/modifiers', {
      name: 'Milk',
      max_selections: 1,
      options: [
        { name: 'Whole', price_adjustment: 0, is_default: true },
        { name: 'Oat', price_adjustment: 0.5 },
      ],
    })
    const attached = await api.put(`/api/v1/products/${latte.id}/modifiers`, { modifier_group_ids: [milk.id] })
    assert.equal(attached.status, 200, JSON.stringify(attached.body))
    browser = await launchChromium()
  })
  after(async () => {
    await browser?.close()
    await apps?.close()
  })

  /**
   * A page at a width, signed in through the sign-in form: each job starts there. The phone signs in as the
   * store's second owner, so neither person's sign-ins meet the limit per account (10 at once, 5 a minute after).
   */
  const signedIn = (width: number) => signedInPage(browser, apps.appUrl, width === 390 ? coOwner : owner, width)

  /** Moves the focus with Tab alone until it reaches the control of that name (a keyboard-only path). */
  async function tabTo(page: Page, name: RegExp): Promise<void> {
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab')
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null
        if (!el) return ''
        const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : ''
        return `${el.getAttribute('aria-label') ?? ''} ${label ?? ''} ${el.textContent ?? ''}`.trim()
      })
      if (name.test(focused)) return
    }
    assert.fail(`Tab never reached ${name}`)
  }

  async function fitsTheScreen(page: Page): Promise<void> {
    const { scroll, client } = await sidewaysScroll(page)
    assert.ok(scroll <= client, `${page.url()} scrolls sideways: ${scroll} px wide on a ${client} px screen`)
  }

  it('rings up a whole sale by keyboard alone on New sale, then finds it in Orders and in the API', async () => {
    const { page, context, errors } = await signedIn(1280)
    await page.goto(`${apps.appUrl}/dashboard/sale`)
    await page.getByRole('heading', { level: 1, name: 'New sale' }).waitFor()
    await tabTo(page, /Add an item/)
    await page.keyboard.type('Latte')
    await page.getByRole('button', { name: /Latte/ }).waitFor()
    await page.keyboard.press('Enter')
    await page.getByText('× 1').waitFor()
    await page.keyboard.type('MUF')
    await page.getByRole('button', { name: /Blueberry muffin/ }).waitFor()
    await page.keyboard.press('Enter')
    await tabTo(page, /One more Latte/)
    await page.keyboard.press('Enter')
    await page.getByText('× 2').waitFor()
    // 2 × 4.50 + 3.25, no tax configured.
    await page.getByRole('button', { name: 'Charge $12.25' }).waitFor()
    await tabTo(page, /Charge \$12\.25/)
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: /Order #1: payment/ }).waitFor()
    await tabTo(page, /Take \$12\.25/)
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Sale complete' }).waitFor()
    const receipt = page.getByRole('figure', { name: 'Receipt' })
    await receipt.getByText(/TOTAL/).waitFor()
    assert.match(await receipt.innerText(), /Latte[\s\S]*TOTAL\s+\$12\.25/)
    await page.screenshot({ path: `${SCREENSHOTS}-sale-done-1280.png`, fullPage: true })

    const order = (await api.get('/api/v1/orders?number=1')).body.data[0]
    assert.equal(order.status, 'completed')
    assert.equal(order.total, 12.25)
    assert.deepEqual(
      order.lines.map((l: { name: string; quantity: number }) => [l.name, l.quantity]),
      [
        ['Latte', 2],
        ['Blueberry muffin', 1],
      ],
    )

    await findOrder(page, 1)
    assert.match(await page.locator('main').innerText(), /Card \$12\.25/)
    assert.deepEqual(errors, [])
    await context.close()
  })

  it('rings up a latte with oat milk on a phone and takes cash, giving change', async () => {
    const { page, context, errors } = await signedIn(390)
    await page.getByRole('link', { name: 'New sale' }).first().click()
    await page.getByRole('heading', { level: 1, name: 'New sale' }).waitFor()
    await page.getByLabel('Add an item (search or scan)').fill('Latte')
    await page.getByRole('button', { name: /Latte/ }).click()
    await page.getByRole('group', { name: 'Milk' }).getByLabel('Oat').check()
    await page.getByRole('button', { name: /^Charge \$5\.00$/ }).click()
    await page.getByRole('heading', { name: /: payment$/ }).waitFor()
    await page.getByLabel('Cash', { exact: true }).check()
    await page.getByLabel('Cash handed over (optional)').fill('20')
    await page.getByRole('button', { name: 'Take $5.00' }).click()
    await page.getByRole('status').filter({ hasText: 'Give $15.00 change.' }).waitFor()
    await page.getByRole('heading', { name: 'Sale complete' }).waitFor()
    const number = Number(/#(\d+)/.exec(await page.getByRole('heading', { level: 1 }).innerText())![1])
    const { id } = (await api.get(`/api/v1/orders?number=${number}`)).body.data[0]
    const order = (await api.get(`/api/v1/orders/${id}`)).body.data
    assert.equal(order.status, 'completed')
    assert.deepEqual(
      order.lines[0].modifiers.map((m: { name: string }) => m.name),
      ['Oat'],
    )
    assert.equal(order.payments[0].method, 'cash')
    assert.equal(order.payments[0].change_given, 15)
    await page.screenshot({ path: `${SCREENSHOTS}-sale-cash-390.png`, fullPage: true })
    assert.deepEqual(errors, [])
    await context.close()
  })

  /** Orders, the search by number, and the order found. */
  async function findOrder(page: Page, number: number) {
    await page.getByRole('link', { name: 'Orders', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor()
    await page.getByLabel('Order number').fill(String(number))
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('link', { name: `#${number}` }).click()
    await page.getByRole('heading', { level: 1, name: `Order #${number}` }).waitFor()
  }

  it('finds an order and refunds one of its lines with restocking on a phone, seen by the API and on Home', async () => {
    const { page, context, errors } = await signedIn(390)
    const order = (await api.get('/api/v1/orders?number=1')).body.data[0]
    await findOrder(page, 1)
    await page.getByRole('button', { name: 'Refund…' }).click()
    await page.getByLabel('Blueberry muffin (up to 1)').fill('1')
    await page.getByRole('button', { name: 'Refund the chosen items' }).click()
    await page.getByRole('status').filter({ hasText: 'Refunded' }).waitFor()
    const refunded = (await api.get(`/api/v1/orders/${order.id}`)).body.data
    assert.equal(refunded.status, 'partially_refunded')
    assert.equal(refunded.amount_refunded, 3.25)
    const level = (await api.get(`/api/v1/inventory/levels?product_id=${muffin.id}&location_id=${shop}`)).body.data[0]
    assert.equal(level.on_hand, 20, 'restocked')

    await page.getByRole('link', { name: 'Home' }).click()
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor()
    const today = page.getByRole('region', { name: 'Today', exact: true })
    // 12.25 and 5.00 sold today, 3.25 refunded.
    await today.getByText('$14.00').waitFor()
    assert.match(await today.innerText(), /Orders\s*2/)
    assert.deepEqual(errors, [])
    await context.close()
  })

  it('finds an order and refunds all of it on a desktop, seen by the API and on Home', async () => {
    const { page, context, errors } = await signedIn(1280)
    await findOrder(page, 2)
    await page.getByRole('button', { name: 'Refund…' }).click()
    await page.getByRole('button', { name: 'Refund everything ($5.00)' }).click()
    await page.getByRole('status').filter({ hasText: 'Refunded' }).waitFor()
    const order = (await api.get('/api/v1/orders?number=2')).body.data[0]
    assert.equal(order.status, 'refunded')
    assert.equal(order.amount_refunded, 5)
    // Who refunded it, from the audit log.
    await page
      .getByRole('region', { name: 'Activity' })
      .getByText(/refunded · /)
      .waitFor()
    await page.screenshot({ path: `${SCREENSHOTS}-order-refunded-1280.png`, fullPage: true })
    await page.getByRole('link', { name: 'Home' }).click()
    // 12.25 and 5.00 sold today, 3.25 and 5.00 refunded.
    await page.getByRole('region', { name: 'Today', exact: true }).getByText('$9.00').waitFor()
    assert.deepEqual(errors, [])
    await context.close()
  })

  for (const width of WIDTHS) {
    it(`changes a price, adds a drink and marks an item sold out on Items, at ${width} px`, async () => {
      const { page, context, errors } = await signedIn(width)
      const price = width === 390 ? '4.90' : '4.75'
      await page.getByRole('link', { name: 'Items', exact: true }).click()
      await page.getByRole('heading', { level: 1, name: 'Items' }).waitFor()
      await page.getByRole('link', { name: 'Latte' }).click()
      await page.getByRole('heading', { level: 1, name: 'Latte' }).waitFor()
      await page.getByLabel('Price (USD)').fill(price)
      await page.getByRole('button', { name: 'Save changes' }).click()
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
      const listed = (await api.get('/api/v1/products?sku=LAT')).body.data[0]
      assert.equal(listed.base_price, Number(price))

      // An empty price is the API's field error, shown beside the field; nothing changes.
      await page.getByLabel('Price (USD)').fill('')
      await page.getByRole('button', { name: 'Save changes' }).click()
      await page.locator('.field-error').first().waitFor()
      assert.equal((await api.get(`/api/v1/products/${latte.id}`)).body.data.base_price, Number(price))

      const soldOut = page.getByRole('button', { name: 'Mark sold out at High Street' })
      await soldOut.click()
      await page.getByRole('button', { name: 'Mark available at High Street' }).waitFor()
      const marks = (await api.get(`/api/v1/locations/${shop}/sold-out`)).body.data
      assert.deepEqual(
        marks.map((m: { item_id: string }) => m.item_id),
        [latte.id],
      )
      await page.getByRole('button', { name: 'Mark available at High Street' }).click()
      await soldOut.waitFor()
      assert.deepEqual((await api.get(`/api/v1/locations/${shop}/sold-out`)).body.data, [])

      const drink = width === 390 ? 'Iced tea' : 'Flat white'
      await page.getByRole('link', { name: 'All items' }).click()
      await page.getByRole('button', { name: 'Add an item' }).click()
      await page.getByLabel('Name').fill(drink)
      await page.getByLabel('SKU', { exact: true }).fill(drink.toUpperCase().replace(' ', '-'))
      await page.getByLabel('Price', { exact: true }).fill('3.80')
      await page.getByRole('button', { name: 'Add item' }).click()
      await page.getByRole('heading', { level: 1, name: drink }).waitFor()
      const added = (await api.get(`/api/v1/products?q=${encodeURIComponent(drink)}`)).body.data
      assert.equal(added.length, 1)
      assert.equal(added[0].base_price, 3.8)
      await page.screenshot({ path: `${SCREENSHOTS}-item-added-${width}.png`, fullPage: true })
      assert.deepEqual(
        errors.filter((e) => !e.startsWith('422 PATCH')),
        [],
      )
      await context.close()
    })

    it(`counts stock, sees it low on Home and records a delivery on Inventory, at ${width} px`, async () => {
      const { page, context, errors } = await signedIn(width)
      await page.getByRole('link', { name: 'Inventory' }).click()
      await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor()
      await page.getByLabel('Find an item').fill('muffin')
      await page.getByRole('button', { name: /Blueberry muffin/ }).click()
      await page.getByRole('heading', { name: /^Blueberry muffin.* at High Street$/ }).waitFor()
      const onHand = async () =>
        (await api.get(`/api/v1/inventory/levels?product_id=${muffin.id}&location_id=${shop}`)).body.data[0].on_hand
      await page.getByLabel('Reorder point').fill('10')
      await page.getByRole('button', { name: 'Save' }).click()
      await page.getByRole('status').filter({ hasText: 'Reorder point saved.' }).waitFor()

      await page.getByLabel('What happened').selectOption('count')
      await page.getByLabel('Quantity').fill('7')
      await page.getByRole('button', { name: 'Record' }).click()
      await page.getByRole('status').filter({ hasText: '7 on hand' }).waitFor()
      assert.equal(await onHand(), 7)
      const movements = (await api.get(`/api/v1/inventory/movements?product_id=${muffin.id}&reason=count`)).body.data
      assert.equal(movements.at(-1).quantity_after, 7)
      await page.getByRole('cell', { name: 'Stock count (set to)' }).first().waitFor()
      await page.screenshot({ path: `${SCREENSHOTS}-stock-count-${width}.png`, fullPage: true })

      // Low on Home, and from there the delivery.
      await page.getByRole('link', { name: 'Home' }).click()
      const low = page.getByRole('region', { name: 'Low stock' })
      await low.getByText('7 left (reorder at 10)').waitFor()
      await low.getByRole('link', { name: /Blueberry muffin/ }).click()
      await page.getByRole('heading', { name: /^Blueberry muffin.* at High Street$/ }).waitFor()
      await page.getByLabel('What happened').selectOption('received')
      await page.getByLabel('Quantity').fill('12')
      await page.getByLabel('Note (optional)').fill('Tuesday delivery')
      await page.getByRole('button', { name: 'Record' }).click()
      await page.getByRole('status').filter({ hasText: '19 on hand' }).waitFor()
      assert.equal(await onHand(), 19)
      await page.getByRole('link', { name: 'Home' }).click()
      await page
        .getByRole('region', { name: 'Low stock' })
        .getByText(/Every item with a reorder point/)
        .waitFor()
      assert.deepEqual(errors, [])
      await context.close()
    })

    it(`closes a register's shift with a cash difference, at ${width} px`, async () => {
      const till = (await api.post('/api/v1/registers', { name: `Till ${width}`, location_id: shop })).body.data
      const { page, context, errors } = await signedIn(width)
      await page.getByRole('link', { name: 'Registers' }).click()
      await page.getByRole('heading', { level: 1, name: 'Registers and shifts' }).waitFor()
      const card = page.getByRole('region', { name: new RegExp(`Till ${width}`) })
      await card.getByLabel('Cash in the drawer to start').fill('100')
      await card.getByRole('button', { name: 'Open a shift' }).click()
      await card.getByText('Expected in the drawer').waitFor()
      await card.getByText('Pay in or pay out').click()
      await card.getByLabel('Kind').selectOption('out')
      await card.getByLabel('Amount').fill('20')
      await card.getByLabel('Reason').fill('Milk from the corner shop')
      await card.getByRole('button', { name: 'Record' }).click()
      await card.getByRole('status').filter({ hasText: 'Recorded.' }).waitFor()
      await card.getByText('$80.00', { exact: true }).waitFor()
      await card.getByLabel('Cash counted in the drawer').fill('78.50')
      await card.getByRole('button', { name: 'Close the shift' }).click()
      const dialog = page.getByRole('dialog', { name: 'Close the shift?' })
      assert.match(await dialog.innerText(), /You counted \$78\.50; the drawer should hold \$80\.00/)
      await dialog.getByRole('button', { name: 'Close the shift' }).click()
      const closeOut = card.getByRole('status').filter({ hasText: 'Close-out' })
      await closeOut.getByText('Close-out').waitFor()
      assert.match(await closeOut.innerText(), /Difference\s*-\$1\.50 \(short\)/)
      const shift = (await api.get(`/api/v1/shifts?register_id=${till.id}&status=closed`)).body.data.at(-1)
      assert.equal(shift.variance, -1.5)
      assert.equal(shift.counted_amount, 78.5)
      await card.getByText('Recent close-outs').click()
      await card.getByRole('cell', { name: '-$1.50' }).waitFor()
      await page.screenshot({ path: `${SCREENSHOTS}-close-out-${width}.png`, fullPage: true })
      assert.deepEqual(errors, [])
      await context.close()
    })

    it(`reads last week against the week before, busy hours and best sellers, and downloads the CSV, at ${width} px`, async () => {
      const { page, context, errors } = await signedIn(width)
      await page.getByRole('link', { name: 'Reports' }).click()
      await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor()
      const monday = await page.evaluate(() => {
        const d = new Date()
        d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7) - 7)
        return d.toISOString().slice(0, 10)
      })
      const sunday = new Date(Date.parse(monday) + 6 * 86_400_000).toISOString().slice(0, 10)
      await page.goto(`${apps.appUrl}/dashboard/reports?report=sales&group_by=day&from=${monday}&to=${sunday}`)
      await page.getByRole('heading', { name: /Sales by day/ }).waitFor()
      // Last week had no sales here: its figures stand against the week before's, also none.
      await page.getByText('Nothing in this period.').waitFor()
      // The week before is read by a request of its own: its figures may come after the period's.
      await page
        .locator('.figures')
        .getByText(/vs \$0\.00 before/)
        .first()
        .waitFor()

      await page.getByLabel('By').selectOption('hour')
      await page.getByLabel('From').fill(monday)
      await page.getByLabel('To').fill(new Date().toISOString().slice(0, 10))
      await page.getByRole('button', { name: 'Show' }).click()
      await page.getByRole('heading', { name: /Sales by hour of the day/ }).waitFor()
      await page.getByRole('columnheader', { name: 'Period' }).waitFor()

      await page.getByLabel('By').selectOption('product')
      await page.getByRole('button', { name: 'Show' }).click()
      await page.getByRole('heading', { name: /Sales by item/ }).waitFor()
      await page.getByRole('cell', { name: 'Latte' }).waitFor()

      const download = page.waitForEvent('download')
      await page.getByRole('button', { name: 'Download CSV' }).click()
      const file = await (await download).path()
      const rows = parse(await readFile(file, 'utf8'), { columns: true }) as Record<string, string>[]
      const latteRow = rows.find((r) => r.name === 'Latte')
      assert.ok(latteRow, 'the CSV has the Latte row')
      // Two in the first sale, one with oat milk.
      assert.equal(Number(latteRow.quantity), 3)
      await page.screenshot({ path: `${SCREENSHOTS}-report-products-${width}.png`, fullPage: true })
      assert.deepEqual(errors, [])
      await context.close()
    })
  }

  it('sets a price for a location, marks an item down and makes a bundle, as the API then prices them', async () => {
    const { page, context, errors } = await signedIn(1280)
    const scone = (await api.post('/api/v1/products', { name: 'Cheese scone', sku: 'SCO', base_price: 3 })).body.data
    const quote = async (productId: string) =>
      (
        await api.post('/api/v1/orders/calculate', {
          location_id: shop,
          lines: [{ product_id: productId, quantity: 1 }],
        })
      ).body.data
    await page.goto(`${apps.appUrl}/dashboard/items/${scone.id}`)
    await page.getByRole('heading', { level: 1, name: 'Cheese scone' }).waitFor()
    const prices = page.getByRole('region', { name: 'Prices by location and price list' })
    await prices.getByLabel('Price at High Street').fill('2.60')
    await prices.getByRole('button', { name: 'Save' }).click()
    await prices.getByRole('status').filter({ hasText: 'Prices saved.' }).waitFor()
    assert.equal((await quote(scone.id)).lines[0].unit_price, 2.6)

    const markdowns = page.getByRole('region', { name: 'Markdowns' })
    await markdowns.getByLabel('Markdown', { exact: true }).selectOption('percentage')
    await markdowns.getByLabel('How much').fill('50')
    await markdowns.getByRole('button', { name: 'Mark down' }).click()
    await markdowns.getByText('50% off').waitFor()
    assert.equal((await quote(scone.id)).lines[0].unit_price, 1.3)
    await markdowns.getByRole('button', { name: 'End markdown' }).click()
    await page.getByRole('dialog', { name: 'End this markdown?' }).getByRole('button', { name: 'End markdown' }).click()
    await markdowns.getByText('No markdown').waitFor()
    assert.equal((await quote(scone.id)).lines[0].unit_price, 2.6)

    const box = (await api.post('/api/v1/products', { name: 'Breakfast box', sku: 'BOX', base_price: 9 })).body.data
    await page.goto(`${apps.appUrl}/dashboard/items/${box.id}`)
    const bundle = page.getByRole('region', { name: 'Bundle' })
    await bundle.getByRole('button', { name: 'Make it a bundle of other items' }).click()
    await bundle.getByLabel('Add an item to the bundle').fill('SCO')
    await bundle.getByRole('button', { name: /Cheese scone/ }).click()
    await bundle.getByLabel('How many Cheese scone').fill('2')
    await bundle.getByRole('button', { name: 'Save the bundle' }).click()
    await bundle.getByText('2 × Cheese scone').waitFor()
    const made = (await api.get(`/api/v1/bundles?product_id=${box.id}`)).body.data[0]
    assert.deepEqual(
      made.components.map((c: { product_id: string; quantity: number }) => [c.product_id, c.quantity]),
      [[scone.id, 2]],
    )
    await page.screenshot({ path: `${SCREENSHOTS}-item-bundle-1280.png`, fullPage: true })

    // A new choice at the till, offered on the scone.
    await page.goto(`${apps.appUrl}/dashboard/items/${scone.id}`)
    const choices = page.getByRole('region', { name: 'Choices at the till (modifiers)' })
    await choices.getByText('New choice (modifier group)').click()
    await choices.getByLabel('Name, as the till asks it (e.g. Milk)').fill('Serve')
    await choices.getByLabel('Options, one per line').fill('Warmed +0.30\nCold')
    await choices.getByRole('button', { name: 'Add and offer it on this item' }).click()
    await choices.getByRole('status').filter({ hasText: 'Choices saved.' }).waitFor()
    const offered = (await api.get(`/api/v1/products/${scone.id}/modifiers`)).body.data
    assert.deepEqual(
      offered.map((g: { name: string; options: { name: string; price_adjustment: number }[] }) => [
        g.name,
        g.options.map((o) => [o.name, o.price_adjustment]),
      ]),
      [
        [
          'Serve',
          [
            ['Warmed', 0.3],
            ['Cold', 0],
          ],
        ],
      ],
    )
    assert.ok(await choices.getByRole('checkbox', { name: /Serve/ }).isChecked())
    assert.deepEqual(errors, [])
    await context.close()
  })

  it('changes the prices of many items at once, and exports and imports the catalog as CSV', async () => {
    const { page, context, errors } = await signedIn(1280)
    const priceOf = async (id: string) => (await api.get(`/api/v1/products/${id}`)).body.data.base_price as number
    const [lattePrice, muffinPrice] = [await priceOf(latte.id), await priceOf(muffin.id)]
    await page.getByRole('link', { name: 'Items', exact: true }).click()
    await page.getByRole('checkbox', { name: 'Choose Latte' }).check()
    await page.getByRole('checkbox', { name: 'Choose Blueberry muffin' }).check()
    const panel = page.getByRole('form', { name: 'Change the price of 2 items' })
    await panel.getByLabel('How').selectOption('raise_percent')
    await panel.getByLabel('Percentage').fill('10')
    const raised = (price: number) => Math.round(price * 110) / 100
    await panel.getByText(`$${raised(muffinPrice).toFixed(2)}`).waitFor()
    await panel.getByRole('button', { name: 'Change 2 prices' }).click()
    await page.getByRole('status').filter({ hasText: '2 prices changed.' }).waitFor()
    assert.equal(await priceOf(latte.id), raised(lattePrice))
    // 3.25 × 1.1 = 3.575: half up to the cent.
    assert.equal(await priceOf(muffin.id), raised(muffinPrice))

    await page.getByText('Import or export a spreadsheet (CSV)').click()
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export every item' }).click()
    const exported = parse(await readFile(await (await download).path(), 'utf8'), { columns: true }) as Record<
      string,
      string
    >[]
    const row = exported.find((r) => r.sku === 'LAT')
    assert.equal(row?.name, 'Latte')
    assert.equal(Number(row?.base_price), raised(lattePrice))

    const file = (text: string) => ({ name: 'items.csv', mimeType: 'text/csv', buffer: Buffer.from(text) })
    const picker = page.getByLabel('Import items from a CSV file')
    const importing = page.getByRole('dialog', { name: 'Import items.csv?' })
    await picker.setInputFiles(file('sku,name,base_price\nMUF,Blueberry muffin (large),\nSCN,Scone,\n'))
    await importing.getByRole('button', { name: 'Import 2 rows' }).click()
    const refused = page.getByRole('alert')
    await refused.getByText(/Line 3, base_price/).waitFor()
    assert.deepEqual((await api.get('/api/v1/products?sku=SCN')).body.data, [])
    await picker.setInputFiles(
      file('sku,name,base_price,track_inventory\nMUF,Blueberry muffin (large),,\nSCN,Scone,2.95,no\n'),
    )
    await importing.getByRole('button', { name: 'Import 2 rows' }).click()
    await page.getByRole('status').filter({ hasText: '1 added, 1 changed.' }).waitFor()
    const scone = (await api.get('/api/v1/products?sku=SCN')).body.data[0]
    assert.equal(scone.base_price, 2.95)
    assert.equal(scone.track_inventory, false)
    assert.equal((await api.get(`/api/v1/products/${muffin.id}`)).body.data.name, 'Blueberry muffin (large)')
    await page.screenshot({ path: `${SCREENSHOTS}-items-bulk-1280.png`, fullPage: true })
    assert.deepEqual(
      errors.filter((e) => !e.startsWith('422 POST')),
      [],
    )
    await context.close()
  })

  it('sells to a loyalty member, takes a reward off, and splits the rest between a gift card and a card', async () => {
    const created = async (path: string, body: unknown) => {
      const res = await api.post(path, body)
      assert.equal(res.status, 201, `${path}: ${JSON.stringify(res.body)}`)
      return res.body.data
    }
    const program = await created('/api/v1/loyalty/programs', { name: 'Cafe club' })
    await created(`/api/v1/loyalty/programs/${program.id}/rewards`, {
      name: 'Four off',
      points: 100,
      gives: { type: 'order_discount', amount: 4 },
    })
    const rae = await created('/api/v1/customers', {
      first_name: 'Rae',
      last_name: 'Cole',
      email: 'rae@corner.example',
    })
    await created('/api/v1/loyalty/points/accrue', { customer_id: rae.id, points: 250, reason: 'welcome' })
    const card = await created('/api/v1/gift-cards', { initial_balance: 5 })
    const scone = (await api.get('/api/v1/products?sku=SCO')).body.data[0]
    await created('/api/v1/inventory/adjust', {
      product_id: scone.id,
      location_id: shop,
      quantity: 10,
      reason: 'received',
    })

    const { page, context, errors } = await signedIn(1280)
    await page.goto(`${apps.appUrl}/dashboard/sale`)
    await page.getByLabel('Add an item (search or scan)').fill('SCO')
    await page.getByRole('button', { name: /Cheese scone/ }).click()
    await page.getByRole('button', { name: /^Charge/ }).waitFor()
    await page.getByLabel('Find a customer (name, e-mail or phone)').fill('Rae')
    await page.getByRole('button', { name: /Rae Cole/ }).click()
    await page.getByText('250 points').waitFor()
    await page.getByRole('button', { name: /^Charge/ }).click()
    await page.getByRole('heading', { name: 'Rewards (250 points to spend)' }).waitFor()
    await page.getByRole('button', { name: 'Use' }).click()
    // The scone sells at 2.60 at High Street: the reward takes all of it but what a 4.00 reward cannot go below.
    await page.getByRole('heading', { name: 'Sale complete' }).waitFor()
    const number = Number(/#(\d+)/.exec(await page.getByRole('heading', { level: 1 }).innerText())![1])
    const { id } = (await api.get(`/api/v1/orders?number=${number}`)).body.data[0]
    let order = (await api.get(`/api/v1/orders/${id}`)).body.data
    assert.equal(order.total, 0)
    assert.equal(order.status, 'completed')
    assert.ok((await api.get(`/api/v1/loyalty/members/${rae.id}`)).body.data.balance < 250)

    // A split: part on a gift card, the rest on a card.
    await page.getByRole('button', { name: 'Start a new sale' }).click()
    await page.getByLabel('Add an item (search or scan)').fill('SCO')
    await page.getByRole('button', { name: /Cheese scone/ }).click()
    await page.getByRole('button', { name: 'Charge $2.60' }).click()
    await page.getByLabel('Gift card', { exact: true }).check()
    await page.getByLabel('Amount').fill('1.00')
    await page.getByLabel('Gift card code').fill(card.code)
    await page.getByRole('button', { name: 'Take $1.00' }).click()
    await page.getByRole('status').filter({ hasText: '$1.00 paid.' }).waitFor()
    await page.getByLabel('Card', { exact: true }).check()
    await page.getByRole('button', { name: 'Take $1.60' }).click()
    await page.getByRole('heading', { name: 'Sale complete' }).waitFor()
    const second = Number(/#(\d+)/.exec(await page.getByRole('heading', { level: 1 }).innerText())![1])
    order = (await api.get(`/api/v1/orders/${(await api.get(`/api/v1/orders?number=${second}`)).body.data[0].id}`)).body
      .data
    assert.deepEqual(
      order.payments.map((p: { method: string; amount: number }) => [p.method, p.amount]),
      [
        ['gift_card', 1],
        ['card', 1.6],
      ],
    )
    assert.equal((await api.get(`/api/v1/gift-cards/${card.id}`)).body.data.balance, 4)
    assert.deepEqual(errors, [])
    await context.close()
  })

  it('walks every page at both widths: axe-core clean, no sideways scrolling, a screenshot of each', async () => {
    const firstOrder = (await api.get('/api/v1/orders?number=1')).body.data[0].id
    for (const width of WIDTHS) {
      const { page, context, errors } = await signedIn(width)
      const pages: [string, string][] = [
        ['home', 'Home'],
        ['sale', 'New sale'],
        ['orders', 'Orders'],
        [`orders/${firstOrder}`, 'Order #1'],
        ['items', 'Items'],
        [`items/${latte.id}`, 'Latte'],
        ['inventory', 'Inventory'],
        [`inventory?product_id=${latte.id}`, 'Inventory'],
        ['registers', 'Registers and shifts'],
        ['reports', 'Reports'],
      ]
      for (const [path, heading] of pages) {
        await page.goto(`${apps.appUrl}/dashboard/${path === 'home' ? '' : path}`)
        await page.getByRole('heading', { level: 1, name: heading }).waitFor()
        await page.waitForLoadState('networkidle')
        await assertAccessible(page)
        await fitsTheScreen(page)
        await page.screenshot({
          path: `${SCREENSHOTS}-${path.replace(/(prod|ord)_\w+/, 'one').replace(/[/?=]/g, '-')}-${width}.png`,
          fullPage: true,
        })
      }
      assert.deepEqual(errors, [])
      await context.close()
    }
  })
})
