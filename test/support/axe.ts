import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const axeSource: string = createRequire(import.meta.url)('axe-core').source

/**
 * Runs axe-core (WCAG 2.x A and AA rules) on the page as it is now and fails with what it found. The script is
 * evaluated through the DevTools protocol, which the pages' `script-src 'self'` does not apply to.
 */
export async function assertAccessible(page: Page): Promise<void> {
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(o: object): Promise<{ violations: unknown[] }> } }).axe
    const result = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    return result.violations as { id: string; help: string; nodes: { target: string[] }[] }[]
  })
  assert.deepEqual(
    violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    [],
    `axe-core found problems on ${page.url()}`,
  )
}
