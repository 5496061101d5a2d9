import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'

/**
 * The run-time half of the module walls (dependency-cruiser sees imports, not calls): every service is built from
 * services built before it. A closure naming one built later (a late-bound getter) would let two modules call
 * each other; the use cases that need both are flows (docs/architecture.md "Flows").
 */
function lateReferences(wiring: string): string[] {
  const body = wiring.slice(wiring.indexOf('export function createServices'))
  // Each statement of the function's body starts at two spaces of indentation.
  const statements = body.split(/\n(?= {2}\S)/)
  const declared = statements.map((s) => /^ {2}const (\w+) =/.exec(s)?.[1] ?? null)
  const found: string[] = []
  statements.forEach((statement, i) => {
    const words = new Set(statement.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '').match(/\b\w+\b/g) ?? [])
    declared.forEach((name, j) => {
      if (name && j > i && words.has(name))
        found.push(`${declared[i] ?? `statement ${i}`} uses ${name}, built after it`)
    })
  })
  return found
}

describe('services wiring', () => {
  it('builds every service from services built before it (no late-bound getter)', () => {
    const wiring = readFileSync(new URL('../../src/services.ts', import.meta.url), 'utf8')
    assert.ok(wiring.includes('const flows = createFlows('), 'the flows are wired in services.ts')
    assert.deepEqual(lateReferences(wiring), [])
  })

  it('finds a getter that reaches a service built later', () => {
    const wiring = [
      'export function createServices(runtime: Runtime) {',
      '  const orders = createOrdersService({ payments: () => payments.orderPort })',
      '  const payments = createPaymentsService({ orders })',
      '  return { orders, payments }',
      '}',
    ].join('\n')
    assert.deepEqual(lateReferences(wiring), ['orders uses payments, built after it'])
  })
})
