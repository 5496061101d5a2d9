import type { Browser, BrowserContext, Page } from 'playwright-core'

/**
 * A page of the back office at a width, signed in through the sign-in form as `person`; every failed load (4xx,
 * 5xx) and script error on it is collected in `errors` for the test to check.
 */
export async function signedInPage(
  browser: Browser,
  appUrl: string,
  person: { email: string; password: string },
  width: number,
): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${response.request().method()} ${response.url()}`)
  })
  await page.goto(`${appUrl}/dashboard`)
  await page.getByLabel('E-mail').fill(person.email)
  await page.getByLabel('Password').fill(person.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor()
  return { page, context, errors }
}

/** Whether the page fits its screen: nothing scrolls sideways. */
export async function sidewaysScroll(page: Page): Promise<{ scroll: number; client: number }> {
  return page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }))
}
