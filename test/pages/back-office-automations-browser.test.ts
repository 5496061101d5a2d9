import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { type AutomationWorker, startAutomationWorker } from '../../src/modules/automations/index.ts'
import { assertAccessible } from '../support/axe.ts'
import { sidewaysScroll, signedInPage } from '../support/back-office.ts'
import { launchChromium, skipWithoutChromium } from '../support/chromium.ts'
import { eventually } from '../support/eventually.ts'
import { clientFor, createMerchant, type Merchant } from '../support/harness.ts'
import { invitedAndSignedIn } from '../support/people.ts'
import { type ListeningApps, startListeningApps } from '../support/web.ts'

const SCREENSHOTS = process.env.BACK_OFFICE_SCREENSHOTS ?? '/tmp/opentill-back-office'

/**
 * The back office's Automations in headless Chromium: a rule built from the catalog's events, paths and actions,
 * the API's checks beside the step they concern, a dry run against sample data, a real run on a customer made
 * through the API, and the rule deleted after asking.
 */
describe('the back office Automations pages, in headless Chromium', { skip: skipWithoutChromium }, () => {
  let apps: ListeningApps
  let browser: Browser
  let owner: Merchant
  let api: ReturnType<typeof clientFor>
  let worker: AutomationWorker

  before(async () => {
    apps = await startListeningApps()
    worker = startAutomationWorker(apps.app.runtime, apps.app.services, { pollMs: 30 })
    owner = await createMerchant(apps.app, { name: 'Harbour Deli' })
    api = clientFor(apps.app.api, owner.token)
    browser = await launchChromium()
  })
  after(async () => {
    await browser?.close()
    await worker?.stop()
    await apps?.close()
  })

  const openAutomations = async (page: Page) => {
    await page.getByText('More', { exact: true }).click()
    await page.getByRole('link', { name: 'Automations', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: 'Automations' }).waitFor()
  }

  const stepChoices = (page: Page) => page.getByLabel('Step 1: do').locator('option').allInnerTexts()

  it('builds a rule from the catalog, tries it on sample data, and it tags a customer made through the API', async () => {
    const { page, context, errors } = await signedInPage(browser, apps.appUrl, owner, 1280)
    await openAutomations(page)
    await page.getByText('No automations yet.').waitFor()
    await page.getByRole('link', { name: 'New automation' }).click()
    await page.getByRole('heading', { level: 1, name: 'New automation' }).waitFor()

    await page.getByLabel('Name').fill('Tag VIP customers')
    await page.getByLabel('What happens').selectOption('customer.created')
    await page.getByRole('button', { name: 'Add a condition' }).click()
    // Only the paths of a customer's data are offered.
    const paths = await page.getByLabel('Condition 1: field').locator('option').allInnerTexts()
    assert.ok(paths.includes('email') && paths.includes('tags'), paths.join(', '))
    assert.ok(!paths.includes('total'))
    await page.getByLabel('Condition 1: field').selectOption('email')
    await page.getByLabel('Condition 1: test').selectOption('contains')
    await page.getByLabel('Condition 1: value').fill('@vip.example')
    await page.getByRole('button', { name: 'Add a step' }).click()
    assert.deepEqual(await stepChoices(page), [
      'Tag the customer',
      'Give points',
      'Issue a voucher',
      'Adjust stock',
      'Send a webhook',
      'Send an e-mail',
      'Wait',
    ])
    await page.getByLabel('Step 1: do').selectOption('tag_customer')
    // Saved without its tag: the API's check shows beside the step's field, and nothing is made.
    await page.getByRole('button', { name: 'Make the automation' }).click()
    const tagError = page.getByLabel('Step 1: tag')
    await page.locator('.field-error').first().waitFor()
    assert.equal(await tagError.getAttribute('aria-invalid'), 'true')
    assert.equal((await api.get('/api/v1/automations')).body.data.length, 0)
    await tagError.fill('vip')
    await page.getByRole('button', { name: 'Make the automation' }).click()
    await page.getByRole('heading', { level: 1, name: 'Tag VIP customers' }).waitFor()
    await page.getByText('When: Customer created').waitFor()
    await assertAccessible(page)
    await page.screenshot({ path: `${SCREENSHOTS}-automation-1280.png`, fullPage: true })

    // Tried on sample data: the page offers the customer's shape; the rule runs for a VIP address only.
    const sample = page.getByLabel('Sample data of Customer created')
    const shape = JSON.parse(await sample.inputValue())
    assert.ok('email' in shape && 'tags' in shape)
    await sample.fill(JSON.stringify({ ...shape, email: 'ana@vip.example' }))
    await page.getByRole('button', { name: 'Try the rule' }).click()
    await page.getByRole('status').filter({ hasText: 'would run these steps' }).getByText('Tag the customer').waitFor()
    await sample.fill(JSON.stringify({ ...shape, email: 'ana@elsewhere.example' }))
    await page.getByRole('button', { name: 'Try the rule' }).click()
    await page.getByRole('status').filter({ hasText: 'its conditions do not hold' }).waitFor()
    assert.equal((await api.get('/api/v1/customers?q=ana')).body.data.length, 0, 'a dry run makes nothing')

    // A real customer: the rule runs and tags them; the run shows on the page with its step.
    const ana = (await api.post('/api/v1/customers', { first_name: 'Ana', email: 'ana@vip.example' })).body.data
    await eventually(async () =>
      assert.deepEqual((await api.get(`/api/v1/customers/${ana.id}`)).body.data.tags, ['vip']),
    )
    await page.reload()
    const run = page.getByRole('region', { name: 'Runs' }).getByText(/Customer created · done$/)
    await run.click()
    await page.getByText('Tag the customer: done').waitFor()
    // The one failed call: the save refused for its missing tag.
    assert.equal(errors.length, 1, errors.join('; '))
    assert.match(errors[0], /^422 POST .*\/api\/v1\/automations$/)
    await context.close()
  })

  it('changes the rule at 390 px, and deletes it after asking', async () => {
    const { page, context, errors } = await signedInPage(browser, apps.appUrl, owner, 390)
    await openAutomations(page)
    await page.getByRole('link', { name: 'Tag VIP customers' }).click()
    await page.getByRole('heading', { level: 1, name: 'Tag VIP customers' }).waitFor()
    await page.getByLabel('On: it runs when its trigger happens').uncheck()
    await page.getByRole('button', { name: 'Save the rule' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
    await page.getByText('Off', { exact: true }).first().waitFor()
    const [rule] = (await api.get('/api/v1/automations')).body.data
    assert.equal(rule.enabled, false)
    const fit = await sidewaysScroll(page)
    assert.ok(fit.scroll <= fit.client, `scrolls sideways: ${fit.scroll} > ${fit.client}`)
    await assertAccessible(page)
    await page.screenshot({ path: `${SCREENSHOTS}-automation-390.png`, fullPage: true })

    await page.getByRole('button', { name: 'Delete Tag VIP customers' }).click()
    await page
      .getByRole('dialog', { name: 'Delete Tag VIP customers?' })
      .getByRole('button', { name: 'Delete the automation' })
      .click()
    await page.getByRole('heading', { level: 1, name: 'Automations' }).waitFor()
    await page.getByText('No automations yet.').waitFor()
    const logged = (await api.get(`/api/v1/audit-log?record_id=${rule.id}`)).body.data.map(
      (e: { action: string }) => e.action,
    )
    assert.deepEqual(logged, ['automation.deleted', 'automation.updated', 'automation.created'])
    assert.deepEqual(errors, [])
    await context.close()
  })

  it('checks what it can before sending, keeps the tests that suit a field, and keeps what it does not show', async () => {
    const location = (await api.post('/api/v1/locations', { name: 'Quay' })).body.data.id
    const product = (await api.post('/api/v1/products', { name: 'Tee', sku: 'TEE', base_price: 20 })).body.data.id
    const restock = await api.post('/api/v1/automations', {
      name: 'Restock tees',
      trigger: { type: 'event', event: 'inventory.low_stock' },
      actions: [
        {
          type: 'adjust_inventory',
          product_id: product,
          variant_id: 'var_small',
          location_id: location,
          quantity: 5,
          reason: 'received',
        },
        { type: 'wait', seconds: 100 },
      ],
    })
    assert.equal(restock.status, 201, JSON.stringify(restock.body))
    const { page, context, errors } = await signedInPage(browser, apps.appUrl, owner, 1280)
    await page.goto(`${apps.appUrl}/dashboard/automations/${restock.body.data.id}`)
    await page.getByRole('heading', { level: 1, name: 'Restock tees' }).waitFor()
    // 100 seconds read as minutes to the hundredth, and saved back as 100 seconds.
    assert.equal(await page.getByLabel('Step 2: minutes').inputValue(), '1.67')
    await page.getByLabel('Name').fill('Restock small tees')
    await page.getByRole('button', { name: 'Save the rule' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
    const saved = (await api.get(`/api/v1/automations/${restock.body.data.id}`)).body.data
    assert.deepEqual(saved.actions, restock.body.data.actions, 'the variant and the wait are kept as they were')

    // A wait the API refuses shows beside its minutes; a number path refuses text before anything is sent.
    await page.getByLabel('Step 2: minutes').fill('')
    await page.getByRole('button', { name: 'Save the rule' }).click()
    await page.getByLabel('Step 2: minutes').and(page.locator('[aria-invalid="true"]')).waitFor()
    await page.getByLabel('Step 2: minutes').fill('2')
    await page.getByLabel('What happens').selectOption('order.completed')
    await page.getByRole('button', { name: 'Add a condition' }).click()
    await page.getByLabel('Condition 1: field').selectOption('total')
    await page.getByLabel('Condition 1: test').selectOption('gte')
    await page.getByLabel('Condition 1: value').fill('fifty')
    const calls = errors.length
    await page.getByRole('button', { name: 'Save the rule' }).click()
    await page.getByText('must be a number').waitFor()
    assert.equal(errors.length, calls, 'nothing was sent')
    // A list field takes only the tests that suit it.
    await page.getByLabel('What happens').selectOption('customer.created')
    await page.getByLabel('Condition 1: field').selectOption('tags')
    assert.deepEqual(await page.getByLabel('Condition 1: test').locator('option').allInnerTexts(), ['contains', 'is'])
    assert.equal(await page.getByLabel('Condition 1: test').inputValue(), 'contains')
    // A rule saved through the API under an event's older name keeps it, with the event's fields.
    const alias = await api.post('/api/v1/automations', {
      name: 'Card taken',
      trigger: { type: 'event', event: 'payment.approved' },
      actions: [{ type: 'wait', seconds: 60 }],
    })
    assert.equal(alias.status, 201, JSON.stringify(alias.body))
    await page.goto(`${apps.appUrl}/dashboard/automations/${alias.body.data.id}`)
    await page.getByRole('heading', { level: 1, name: 'Card taken' }).waitFor()
    assert.equal(await page.getByLabel('What happens').inputValue(), 'payment.approved')
    await page.getByRole('button', { name: 'Add a condition' }).click()
    const fields = await page.getByLabel('Condition 1: field').locator('option').allInnerTexts()
    assert.ok(fields.includes('amount') && fields.includes('method'), fields.join(', '))
    assert.equal(errors.length, 1, errors.join('; '))
    assert.match(errors[0], /^422 PATCH .*\/api\/v1\/automations\//)
    await context.close()
  })

  it('offers a manager only the steps a manager may take', async () => {
    const manager = await invitedAndSignedIn(apps.app, api, 'manager')
    const { page, context, errors } = await signedInPage(browser, apps.appUrl, manager, 1280)
    await openAutomations(page)
    await page.getByRole('link', { name: 'New automation' }).click()
    await page.getByRole('button', { name: 'Add a step' }).click()
    const choices = await stepChoices(page)
    assert.ok(!choices.includes('Send a webhook'), choices.join(', '))
    assert.ok(choices.includes('Tag the customer'))
    await page.getByText('Only the steps your role may take are offered.').waitFor()
    assert.deepEqual(errors, [])
    await context.close()
  })
})
