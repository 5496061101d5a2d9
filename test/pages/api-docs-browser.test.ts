import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser } from 'playwright-core'
import { launchChromium, skipWithoutChromium } from '../support/chromium.ts'
import { type ListeningApps, startListeningApps } from '../support/web.ts'

const SCREENSHOTS = process.env.API_DOCS_SCREENSHOTS ?? '/tmp/opentill-api-docs'

/**
 * The developer surfaces in headless Chromium with every address but the server's blocked, as on a machine
 * offline: GraphiQL loaded React and its own bundle from unpkg before, and stayed blank.
 */
describe('the API docs and GraphiQL in headless Chromium, offline', { skip: skipWithoutChromium }, () => {
  let apps: ListeningApps
  let browser: Browser

  before(async () => {
    apps = await startListeningApps()
    browser = await launchChromium()
  })
  after(async () => {
    await browser?.close()
    await apps?.close()
  })

  async function offlinePage(width: number) {
    const context = await browser.newContext({ viewport: { width, height: 900 } })
    const elsewhere: string[] = []
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url())
      if (url.hostname === '127.0.0.1') return route.continue()
      elsewhere.push(url.href)
      return route.abort()
    })
    return { page: await context.newPage(), elsewhere }
  }

  it('renders GraphiQL, which asks the API for its schema, with nothing loaded from another host', async () => {
    for (const width of [1280, 390]) {
      const { page, elsewhere } = await offlinePage(width)
      await page.goto(`${apps.baseUrl}/graphiql`)
      await page.locator('.graphiql-container').waitFor()
      // Its first call, the schema's introspection, reached the API (which wants a token).
      await page.getByText('missing or invalid bearer token').first().waitFor()
      await page.screenshot({ path: `${SCREENSHOTS}-graphiql-${width}.png` })
      assert.deepEqual(elsewhere, [], 'GraphiQL asks no other host for anything')
      await page.context().close()
    }
  })

  it('opens the API at its docs, which start with getting started', async () => {
    const { page, elsewhere } = await offlinePage(1280)
    await page.goto(`${apps.baseUrl}/`)
    assert.match(page.url(), /\/docs/)
    await page.getByRole('heading', { name: 'Getting started' }).waitFor()
    await page.screenshot({ path: `${SCREENSHOTS}-docs-1280.png` })
    assert.deepEqual(elsewhere, [])
    await page.context().close()
  })
})
