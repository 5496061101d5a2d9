import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { fromRoot } from '../../src/platform/paths.ts'

/**
 * "No sales module calls another; only flows compose them" (docs/architecture.md "Flows"), at the level of imports:
 * a sales module's code imports nothing but types from another sales module. dependency-cruiser cannot tell a type
 * import from a value import here (it reads TypeScript through swc), so this reads the imports itself. A route or a
 * schema may name another module's shapes and error codes: they are the HTTP contract of the flow it runs. Reports
 * sit above the flows and read the modules they report on.
 */
const SALES = ['orders', 'payments', 'laybys', 'gift-cards', 'campaigns', 'loyalty', 'registers', 'tax']

/** The imports of values (not `import type`, not `type` specifiers) from another sales module, in one file. */
function valueImportsOfOtherSales(module: string, text: string): string[] {
  const found: string[] = []
  for (const match of text.matchAll(/^import\s+(type\s+)?\{([^}]*)\}\s+from\s+'\.\.\/([\w-]+)\/index\.ts'/gm)) {
    const [, typeOnly, specifiers, target] = match
    if (typeOnly || target === module || !SALES.includes(target)) continue
    const values = specifiers
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s && !s.startsWith('type '))
    if (values.length) found.push(`${target}: ${values.join(', ')}`)
  }
  return found
}

describe('sales modules import no values of one another', () => {
  it('holds for every sales module of the project, routes and schemas aside', () => {
    const found: string[] = []
    for (const module of SALES) {
      const dir = fromRoot('src', 'modules', module)
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !/\.(routes|schemas)\.ts$/.test(f))) {
        for (const hit of valueImportsOfOtherSales(module, readFileSync(join(dir, file), 'utf8')))
          found.push(`${module}/${file} imports ${hit}`)
      }
    }
    assert.deepEqual(found, [])
  })

  it('finds a value import, and lets types through', () => {
    const text = [
      "import type { OrdersService } from '../orders/index.ts'",
      "import { type PricedOrder, stockChangesOf } from '../orders/index.ts'",
      "import { newId } from '../../platform/crypto/ids.ts'",
      "import { CustomersPort } from '../customers/index.ts'",
      "import {\n  type Payment,\n  PaymentErrors,\n} from '../payments/index.ts'",
    ].join('\n')
    assert.deepEqual(valueImportsOfOtherSales('laybys', text), ['orders: stockChangesOf', 'payments: PaymentErrors'])
  })
})
