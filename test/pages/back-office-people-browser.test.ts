import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import { parse } from 'csv-parse/sync'
import type { Browser, Page } from 'playwright-core'
import { MERCHANT_SCOPES } from '../../src/modules/auth/index.ts'
import { systemContext } from '../../src/platform/http/system-context.ts'
import { assertAccessible } from '../support/axe.ts'
import { sidewaysScroll, signedInPage } from '../support/back-office.ts'
import { launchChromium, skipWithoutChromium } from '../support/chromium.ts'
import { clientFor, createMerchant, type Merchant } from '../support/harness.ts'
import { invitedAndSignedIn, type Person } from '../support/people.ts'
import { type ListeningApps, startListeningApps } from '../support/web.ts'

const SCREENSHOTS = process.env.BACK_OFFICE_SCREENSHOTS ?? '/tmp/opentill-back-office'

/**
 * The back office's people and set-up pages (customers, gift cards, staff, settings, the audit log) as an owner
 * uses them in headless Chromium from the sign-in form, checked through the API.
 */
describe('the back office for people and settings, in headless Chromium', { skip: skipWithoutChromium }, () => {
  let apps: ListeningApps
  let browser: Browser
  let owner: Merchant
  let api: ReturnType<typeof clientFor>
  let coOwner: Person
  const cashiers: Record<number, Person> = {}
  let customer: { id: string }

  before(async () => {
    apps = await startListeningApps()
    owner = await createMerchant(apps.app, { name: 'Harbour Deli' })
    api = clientFor(apps.app.api, owner.token)
    coOwner = await invitedAndSignedIn(apps.app, api, 'owner')
    for (const width of [1280, 390]) cashiers[width] = await invitedAndSignedIn(apps.app, api, 'staff')
    await api.post('/api/v1/locations', { name: 'Quay', timezone: 'Pacific/Auckland' })
    customer = (
      await api.post('/api/v1/customers', { first_name: 'Ana', last_name: 'Ruiz', email: 'ana@deli.example' })
    ).body.data
    browser = await launchChromium()
  })
  after(async () => {
    await browser?.close()
    await apps?.close()
  })

  // Phones sign in as a second owner: each account's sign-ins are limited (burst 10, then 5 a minute).
  const signedIn = (width: number, person: { email: string; password: string } = width === 390 ? coOwner : owner) =>
    signedInPage(browser, apps.appUrl, person, width)

  const more = async (page: Page, name: string) => {
    await page.getByText('More', { exact: true }).click()
    await page.getByRole('link', { name, exact: true }).click()
    await page.getByRole('heading', { level: 1 }).waitFor()
  }

  for (const width of [1280, 390]) {
    it(`finds a customer and corrects their details, the API’s checks shown beside each field at ${width} px`, async () => {
      const { page, context, errors } = await signedIn(width)
      await more(page, 'Customers')
      await page.getByRole('searchbox', { name: 'Find customers' }).fill('Ruiz')
      await page.getByRole('button', { name: 'Search' }).click()
      await page.getByRole('link', { name: 'Ana Ruiz' }).click()
      await page.getByRole('heading', { level: 1, name: 'Ana Ruiz' }).waitFor()
      await page.getByLabel('Phone').fill('call me')
      await page.getByRole('button', { name: 'Save changes' }).click()
      await page
        .locator('.field-error')
        .filter({ hasText: /pattern|phone|must/ })
        .first()
        .waitFor()
      await page.getByLabel('Phone').fill('+64 21 555 0101')
      await page.getByLabel('Tags').fill('regular, vegan')
      await page.getByRole('button', { name: 'Save changes' }).click()
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
      const saved = (await api.get(`/api/v1/customers/${customer.id}`)).body.data
      assert.equal(saved.phone, '+64 21 555 0101')
      assert.deepEqual(saved.tags, ['regular', 'vegan'])
      assert.deepEqual(
        errors.filter((e) => !/^(422 PATCH|404 GET .*loyalty\/members)/.test(e)),
        [],
      )
      await context.close()
    })
  }

  for (const width of [1280, 390]) {
    it(`issues, loads, looks up and disables a gift card, after asking, and reads its ledger at ${width} px`, async () => {
      const { page, context, errors } = await signedIn(width)
      await more(page, 'Gift cards')
      await page.getByLabel('Amount (USD)').fill('20')
      await page.getByRole('button', { name: 'Issue a gift card' }).click()
      const heading = page.getByRole('heading', { level: 1, name: /^Gift card / })
      await heading.waitFor()
      const code = (await heading.innerText()).replace('Gift card ', '').trim()
      await page.getByLabel('Amount (USD)').fill('5')
      await page.getByRole('button', { name: 'Load' }).click()
      await page.getByRole('status').filter({ hasText: 'The balance is $25.00' }).waitFor()

      await page.getByRole('link', { name: 'Gift cards' }).last().click()
      await page.getByLabel('Gift card code').fill(code)
      await page.getByRole('button', { name: 'Look up' }).click()
      await page.getByRole('heading', { level: 1, name: `Gift card ${code}` }).waitFor()
      await page.getByRole('button', { name: 'Disable the card' }).click()
      const dialog = page.getByRole('dialog', { name: `Disable ${code}?` })
      assert.match(await dialog.innerText(), /its \$25\.00 stays recorded/)
      await dialog.getByLabel('Reason (optional)').fill('reported lost')
      await dialog.getByRole('button', { name: 'Disable the card' }).click()
      await page.getByRole('status').filter({ hasText: 'The card is disabled.' }).waitFor()
      const card = (await api.get(`/api/v1/gift-cards/lookup?code=${code}`)).body.data
      assert.equal(card.status, 'disabled')
      await page.getByRole('cell', { name: 'loaded' }).waitFor()
      await page.screenshot({ path: `${SCREENSHOTS}-gift-card-${width}.png`, fullPage: true })
      assert.deepEqual(errors, [])
      await context.close()
    })
  }

  for (const width of [1280, 390]) {
    it(`invites a manager, and deactivates a cashier, after saying what it ends: their token is refused at ${width} px`, async () => {
      const { page, context, errors } = await signedIn(width)
      await more(page, 'Staff')
      await page.getByLabel('E-mail').fill(`mia-${width}@deli.example`)
      await page.getByLabel('Role', { exact: true }).selectOption('manager')
      await page.getByRole('button', { name: 'Send the invitation' }).click()
      await page
        .getByRole('status')
        .filter({ hasText: `mia-${width}@deli.example` })
        .waitFor()
      const link = await page.locator('.notice code').innerText()
      assert.match(link, /\/invite\//)
      // The manager opens the link (handed over: the store sends no e-mail here), chooses a password and is in.
      const theirs = await (await browser.newContext({ viewport: { width: 390, height: 900 } })).newPage()
      await theirs.goto(link)
      await theirs.getByLabel('Password', { exact: true }).fill('a manager long passphrase')
      await theirs.getByLabel('Password again').fill('a manager long passphrase')
      await theirs.getByRole('button', { name: 'Create my account' }).click()
      await theirs.getByRole('heading', { level: 1, name: 'Home' }).waitFor()
      await theirs.context().close()
      const joined = (await api.get('/api/v1/users')).body.data.find(
        (u: { email: string }) => u.email === `mia-${width}@deli.example`,
      )
      assert.equal(joined?.role, 'manager')

      assert.equal((await clientFor(apps.app.api, cashiers[width].accessToken).get('/api/v1/products')).status, 200)
      const row = page.getByRole('listitem').filter({ hasText: cashiers[width].email })
      await row.getByRole('button', { name: 'Deactivate' }).click()
      const dialog = page.getByRole('dialog', { name: /^Deactivate / })
      assert.match(await dialog.innerText(), /signed out everywhere at once/)
      await dialog.getByRole('button', { name: 'Deactivate' }).click()
      await row.getByText('Cashier · deactivated').waitFor()
      assert.equal((await clientFor(apps.app.api, cashiers[width].accessToken).get('/api/v1/products')).status, 401)
      assert.deepEqual(errors, [])
      await context.close()
    })
  }

  for (const width of [1280, 390]) {
    it(`changes the store’s settings, seen by the API and in the back office’s header at ${width} px`, async () => {
      const { page, context, errors } = await signedIn(width)
      await more(page, 'Settings')
      await page.getByLabel('Store name (on receipts)').fill('Harbour Deli & Bakery')
      await page.getByLabel('Take tips').check()
      await page.getByLabel('Suggested percentages').fill('10, 15')
      await page.getByLabel('Country (two letters, e.g. NZ)').fill('nz')
      await page.getByRole('button', { name: 'Save settings' }).click()
      await page.locator('.field-error').first().waitFor()
      await page.getByLabel('Country (two letters, e.g. NZ)').fill('NZ')
      await page.getByRole('button', { name: 'Save settings' }).click()
      await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor()
      const settings = (await api.get('/api/v1/settings')).body.data
      assert.equal(settings.name, 'Harbour Deli & Bakery')
      assert.deepEqual(settings.tips.percentages, [10, 15])
      assert.equal(settings.tips.enabled, true)
      assert.equal(settings.address.country, 'NZ')
      await page.locator('.store').getByText('Harbour Deli & Bakery').waitFor()
      assert.deepEqual(
        errors.filter((e) => !e.startsWith('422 PATCH')),
        [],
      )
      await context.close()
    })
  }

  for (const width of [1280, 390]) {
    it(`reads who did what in the audit log, filtered by action, and downloads it as CSV at ${width} px`, async () => {
      const { page, context, errors } = await signedIn(width)
      await more(page, 'Audit log')
      // Each staff action of the tests before is there: the invitation, its acceptance, the deactivation.
      for (const action of ['Person invited', 'Person joined', 'Person deactivated'])
        await page.getByRole('listitem').filter({ hasText: action }).first().waitFor()
      await page.getByLabel('Action').selectOption('gift_card.disabled')
      await page.getByRole('button', { name: 'Show' }).click()
      const entries = page.getByRole('listitem')
      await entries.filter({ hasText: 'Gift card disabled' }).first().waitFor()
      assert.equal(await entries.filter({ hasText: 'Person deactivated' }).count(), 0)
      const download = page.waitForEvent('download')
      await page.getByRole('button', { name: 'Download CSV' }).click()
      const rows = parse(await readFile(await (await download).path(), 'utf8'), { columns: true }) as Record<
        string,
        string
      >[]
      assert.ok(rows.length >= 1)
      assert.ok(rows.every((r) => r.action === 'gift_card.disabled'))
      assert.deepEqual(errors, [])
      await context.close()
    })
  }

  it('builds a campaign on the page that discounts a sale made through the API exactly as its preview said', async () => {
    const location = (await api.get('/api/v1/locations')).body.data[0].id
    const bagel = (await api.post('/api/v1/products', { name: 'Bagel', sku: 'BAG', base_price: 4 })).body.data
    await api.post('/api/v1/inventory/adjust', {
      product_id: bagel.id,
      location_id: location,
      quantity: 20,
      reason: 'received',
    })
    const { page, context, errors } = await signedIn(1280)
    await more(page, 'Campaigns')
    await page.getByRole('link', { name: 'New campaign' }).click()
    await page.getByRole('heading', { level: 1, name: 'New campaign' }).waitFor()
    await page.getByLabel('Name', { exact: true }).fill('Bagel Tuesday')
    await page.getByLabel('Kind').selectOption('percentage')
    await page.getByLabel('Percentage off').fill('25')
    await page.getByLabel('Taken off').selectOption('line')
    await page.getByLabel('Only these items (none: every item)').fill('BAG')
    await page.getByRole('button', { name: /Bagel/ }).click()
    await page.getByRole('button', { name: 'Remove Bagel' }).waitFor()
    await page.getByLabel('Minimum number of items').fill('2')
    await page.getByLabel('Start it').selectOption('active')
    await page.getByRole('button', { name: 'Make the campaign' }).click()
    await page.getByRole('heading', { level: 1, name: 'Bagel Tuesday' }).waitFor()

    const preview = page.getByRole('region', { name: 'Preview' })
    await preview.getByLabel('Add an item to the sample sale').fill('BAG')
    await preview.getByRole('button', { name: /^Bagel BAG/ }).click()
    await preview
      .getByRole('status')
      .getByText(/does not apply/)
      .waitFor()
    await preview.getByLabel('Add an item to the sample sale').fill('BAG')
    await preview.getByRole('button', { name: /^Bagel BAG/ }).click()
    const said = await preview
      .getByRole('status')
      .getByText(/takes \$[\d.]+ off/)
      .innerText()
    const previewed = Number(/\$([\d.]+)/.exec(said)![1])
    assert.equal(previewed, 2)

    const sale = await api.post('/api/v1/orders', {
      location_id: location,
      lines: [{ product_id: bagel.id, quantity: 2 }],
    })
    assert.equal(sale.status, 201, JSON.stringify(sale.body))
    assert.equal(sale.body.data.discount_total, previewed)
    assert.equal(sale.body.data.total, 8 - previewed)
    await page.screenshot({ path: `${SCREENSHOTS}-campaign-1280.png`, fullPage: true })
    // Made on the page: in the audit log, by this owner.
    const campaignId = page.url().split('/').pop()
    await page.goto(`${apps.appUrl}/dashboard/audit?record_id=${campaignId}`)
    await page.getByRole('listitem').filter({ hasText: 'Campaign made' }).waitFor()
    assert.deepEqual(errors, [])
    await context.close()
  })

  it('sets up loyalty on a phone: a program with tiers, a reward at a price, points by hand, members by tier', async () => {
    const { page, context, errors } = await signedIn(390)
    await more(page, 'Loyalty')
    await page.getByRole('heading', { name: 'Start a loyalty program' }).waitFor()
    for (const [i, [name, threshold, multiplier]] of [
      ['Bronze', '0', '1'],
      ['Gold', '500', '2'],
    ].entries()) {
      await page.getByRole('button', { name: 'Add a tier' }).click()
      await page.getByLabel(`Tier ${i + 1} name`).fill(name)
      await page.getByLabel('From (points or spend)').nth(i).fill(threshold)
      await page.getByLabel('Earning multiplier').nth(i).fill(multiplier)
    }
    await page.getByRole('button', { name: 'Start the program' }).click()
    await page.getByRole('heading', { name: 'Rewards' }).waitFor()
    const program = (await api.get('/api/v1/loyalty/programs')).body.data[0]
    assert.equal(program.status, 'active')
    assert.deepEqual(
      program.tiers.map((tier: { name: string; threshold: number; multiplier: number }) => [
        tier.name,
        tier.threshold,
        tier.multiplier,
      ]),
      [
        ['Bronze', 0, 1],
        ['Gold', 500, 2],
      ],
    )

    await page.getByLabel('Reward name').fill('Coffee on us')
    await page.getByLabel('Its price in points').fill('100')
    await page.getByLabel('Amount off an order (USD)').fill('4.50')
    await page.getByRole('button', { name: 'Add a reward' }).click()
    await page.getByText('$4.50 off an order').waitFor()

    await page.getByLabel('Find a customer (name, e-mail or phone)').fill('Ana')
    await page.getByRole('button', { name: /Ana Ruiz/ }).click()
    await page.getByLabel('Points to give').fill('600')
    await page.getByLabel('Reason', { exact: true }).fill('welcome back')
    await page.getByRole('button', { name: 'Give points' }).click()
    await page.getByRole('status').filter({ hasText: 'Points given to Ana Ruiz.' }).waitFor()
    await page.getByRole('region', { name: 'Members by tier' }).getByRole('cell', { name: 'Gold' }).waitFor()
    const member = (await api.get(`/api/v1/loyalty/members/${customer.id}`)).body.data
    assert.equal(member.balance, 600)
    assert.equal(member.tier?.name ?? member.tier, 'Gold')
    await page.screenshot({ path: `${SCREENSHOTS}-loyalty-390.png`, fullPage: true })
    assert.deepEqual(errors, [])
    await context.close()
  })

  for (const width of [1280, 390]) {
    it(`finds the promotion's results and the members by tier, and gives points by hand, at ${width} px`, async () => {
      const { page, context, errors } = await signedIn(width)
      await more(page, 'Campaigns')
      await page.getByRole('link', { name: 'Bagel Tuesday' }).click()
      const results = page.getByRole('region', { name: 'Results' })
      await results.getByText('$2.00', { exact: true }).waitFor()
      assert.match(await results.innerText(), /Sales discounted\s*1\b/)
      await page.getByRole('link', { name: 'Loyalty', exact: true }).click()
      await page.getByRole('heading', { level: 1, name: 'Loyalty' }).waitFor()
      await page.getByLabel('Find a customer (name, e-mail or phone)').fill('Ana')
      await page.getByRole('button', { name: /Ana Ruiz/ }).click()
      await page.getByLabel('Points to give').fill('10')
      await page.getByLabel('Reason', { exact: true }).fill(`goodwill at ${width}`)
      await page.getByRole('button', { name: 'Give points' }).click()
      await page.getByRole('status').filter({ hasText: 'Points given to Ana Ruiz.' }).waitFor()
      await page.getByRole('region', { name: 'Members by tier' }).getByRole('cell', { name: 'Gold' }).waitFor()
      // Found from the customer's side too: their balance and tier on their profile.
      await page.getByRole('link', { name: 'Customers', exact: true }).click()
      await page.getByRole('searchbox', { name: 'Find customers' }).fill('Ruiz')
      await page.getByRole('button', { name: 'Search' }).click()
      await page.getByRole('link', { name: 'Ana Ruiz' }).click()
      await page
        .getByText(width === 1280 ? /\b610\b/ : /\b620\b/)
        .first()
        .waitFor()
      assert.deepEqual(
        errors.filter((e) => !/404 GET .*loyalty\/members/.test(e)),
        [],
      )
      await context.close()
    })
  }

  it('shows a new store its first steps, and sets up a location, a tax rate and payment methods', async () => {
    const fresh = await createMerchant(apps.app, { name: 'Fresh Juice' })
    const freshApi = clientFor(apps.app.api, fresh.token)
    const { page, context, errors } = await signedIn(1280, fresh)
    const steps = page.getByRole('region', { name: 'Get the shop ready' })
    await steps.getByRole('link', { name: 'Add the items you sell' }).waitFor()
    await steps.getByRole('link', { name: 'Ring up a test sale' }).waitFor()
    await steps.getByRole('link', { name: 'Set up tax rates and payment methods' }).click()
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor()
    const locations = page.getByRole('region', { name: 'Locations' })
    await locations.getByLabel('Location name').fill('Beach kiosk')
    await locations.getByLabel('Its time zone').selectOption('Pacific/Auckland')
    await locations.getByRole('button', { name: 'Add a location' }).click()
    await locations.getByText('Beach kiosk').waitFor()
    const taxes = page.getByRole('region', { name: 'Tax rates' })
    await taxes.getByLabel('Name (on receipts)').fill('GST')
    await taxes.getByLabel('Rate (%)').fill('15')
    await taxes.getByRole('button', { name: 'Add a tax rate' }).click()
    await taxes.getByText('GST · 15%').waitFor()
    const methods = page.getByRole('region', { name: 'Payment methods' })
    await methods.getByLabel('Other', { exact: true }).uncheck()
    await methods.getByRole('button', { name: 'Save payment methods' }).click()
    await methods.getByRole('status').filter({ hasText: 'Payment methods saved.' }).waitFor()
    assert.deepEqual(
      (await freshApi.get('/api/v1/locations')).body.data.map((l: { name: string; timezone: string }) => [
        l.name,
        l.timezone,
      ]),
      [['Beach kiosk', 'Pacific/Auckland']],
    )
    assert.equal((await freshApi.get('/api/v1/tax-rates')).body.data[0].rate, 15)
    assert.ok(!(await freshApi.get('/api/v1/payments/methods')).body.data.methods.includes('external'))
    await page.getByRole('link', { name: 'Home' }).click()
    const ready = page.getByRole('region', { name: 'Get the shop ready' })
    await ready.getByText('Set up tax rates and payment methods (done)').waitFor({ state: 'attached' })
    assert.equal(await ready.getByRole('link', { name: 'Set up tax rates and payment methods' }).count(), 0)
    await ready.getByRole('link', { name: 'Add the items you sell' }).waitFor()
    await page.screenshot({ path: `${SCREENSHOTS}-first-steps-1280.png`, fullPage: true })
    assert.deepEqual(errors, [])
    await context.close()
  })

  for (const width of [1280, 390]) {
    it(`registers an app with no scopes unless ticked, shows its secret once, and disconnects a partner after a warning at ${width} px`, async () => {
      const ctx = systemContext(apps.app.runtime.database, owner.orgId, MERCHANT_SCOPES)
      const partner = await apps.app.services.oauth.apps.create(ctx, {
        name: `Site builder ${width}`,
        redirectUris: ['https://builder.example/cb'],
        allowedScopes: ['catalog:read'],
        partner: true,
      })
      const clientId = partner.app.client_id
      const { grantId } = await apps.app.runtime.database.transaction(owner.orgId, (q) =>
        apps.app.services.oauth.connectApp(q, { orgId: owner.orgId, clientId, scopes: ['catalog:read'] }),
      )
      const partnerApi = clientFor(
        apps.app.api,
        await apps.app.runtime.accessTokens.sign({
          sub: clientId,
          orgId: owner.orgId,
          scopes: ['catalog:read'],
          sid: grantId,
          clientId,
          actorKind: 'app',
          userId: null,
        }),
      )

      const { page, context, errors } = await signedIn(width)
      await more(page, 'Developers')
      await page.getByLabel('App name').fill(`Stock sync ${width}`)
      await page.getByLabel('Redirect URIs').fill('https://sync.example/callback')
      await page.getByRole('checkbox', { name: /catalog:read/ }).check()
      await page.getByRole('button', { name: 'Register the app' }).click()
      const shown = page.getByRole('status').filter({ hasText: `Stock sync ${width} is registered.` })
      await shown.waitFor()
      const secret = await shown.locator('code').nth(1).innerText()
      assert.match(secret, /^ots_/)
      const registered = (await api.get('/api/v1/apps')).body.data.find(
        (a: { name: string }) => a.name === `Stock sync ${width}`,
      )
      assert.deepEqual(registered.allowed_scopes, ['catalog:read'])

      assert.equal((await partnerApi.get('/api/v1/products')).status, 200)
      await page.getByRole('button', { name: `Disconnect Site builder ${width}` }).click()
      const dialog = page.getByRole('dialog', { name: `Disconnect Site builder ${width}?` })
      assert.match(await dialog.innerText(), /partner app: it may have set the store up/)
      await dialog.getByRole('button', { name: 'Disconnect' }).click()
      await page
        .getByRole('status')
        .filter({ hasText: `Site builder ${width} is disconnected.` })
        .waitFor()
      assert.equal((await partnerApi.get('/api/v1/products')).status, 401)
      await page.screenshot({ path: `${SCREENSHOTS}-developers-${width}.png`, fullPage: true })
      assert.deepEqual(errors, [])
      await context.close()
    })
  }

  it('walks every page at both widths: axe-core clean, no sideways scrolling, a screenshot of each', async () => {
    const card = (await api.post('/api/v1/gift-cards', { initial_balance: 10 })).body.data
    for (const width of [1280, 390]) {
      const { page, context, errors } = await signedIn(width)
      const pages: [string, string][] = [
        ['customers', 'Customers'],
        [`customers/${customer.id}`, 'Ana Ruiz'],
        ['gift-cards', 'Gift cards'],
        [`gift-cards/${card.id}`, `Gift card ${card.code}`],
        ['staff', 'Staff'],
        ['settings', 'Settings'],
        ['audit', 'Audit log'],
        ['campaigns', 'Campaigns'],
        ['loyalty', 'Loyalty'],
        ['developers', 'Developers'],
        ['campaigns/new', 'New campaign'],
        ['automations', 'Automations'],
        ['automations/new', 'New automation'],
        ['webhooks', 'Webhooks'],
      ]
      for (const [path, heading] of pages) {
        await page.goto(`${apps.appUrl}/dashboard/${path}`)
        await page.getByRole('heading', { level: 1, name: heading }).waitFor()
        await page.waitForLoadState('networkidle')
        await assertAccessible(page)
        const { scroll, client } = await sidewaysScroll(page)
        assert.ok(scroll <= client, `${path} scrolls sideways at ${width} px`)
        await page.screenshot({
          path: `${SCREENSHOTS}-${path.replace(/(cus|gc|gift)_\w+/, 'one').replace(/[/?=]/g, '-')}-${width}.png`,
          fullPage: true,
        })
      }
      assert.deepEqual(
        errors.filter((e) => !/404 GET .*loyalty\/members/.test(e)),
        [],
      )
      await context.close()
    }
  })
})
