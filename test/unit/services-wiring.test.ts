import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { fromRoot } from '../../src/platform/paths.ts'

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

/** The sales modules, by the name services.ts gives each (reports, receipts and sync sit above the flows). */
const SALES = ['orders', 'payments', 'laybys', 'giftCards', 'campaigns', 'loyalty', 'registers', 'tax']

/**
 * The sales modules given another sales module when built: none may be, but through a flow (`create…Flow(…)`)
 * or a tender (`…Tender(…)`, the adapters of src/tenders), which are the sanctioned ways to compose them.
 */
function salesGivenSales(wiring: string): Map<string, string[]> {
  const body = wiring.slice(wiring.indexOf('export function createServices'))
  const found = new Map<string, string[]>()
  for (const statement of body.split(/\n(?= {2}\S)/)) {
    const name = /^ {2}const (\w+) = create\w+Service\(/.exec(statement)?.[1]
    if (!name || !SALES.includes(name)) continue
    const composed = statement.replace(/\bcreate\w+Flow\([^()]*\)|\b\w+Tender\([^()]*\)/g, '')
    const words = new Set(composed.match(/\b\w+\b/g) ?? [])
    const given = SALES.filter((other) => other !== name && words.has(other))
    if (given.length) found.set(name, given)
  }
  return found
}

describe('services wiring', () => {
  it('builds every service from services built before it (no late-bound getter)', () => {
    const wiring = readFileSync(fromRoot('src', 'services.ts'), 'utf8')
    assert.ok(wiring.includes('const flows = createFlows('), 'the flows are wired in services.ts')
    assert.deepEqual(lateReferences(wiring), [])
  })

  it('gives no sales module another: the flows compose them', () => {
    const wiring = readFileSync(fromRoot('src', 'services.ts'), 'utf8')
    assert.deepEqual(Object.fromEntries(salesGivenSales(wiring)), {})
  })

  it('finds a sales module given another, and lets a flow or a tender compose them', () => {
    const wiring = [
      'export function createServices(runtime: Runtime) {',
      '  const loyalty = createLoyaltyService({ orgs })',
      '  const campaigns = createCampaignsService({ orgs, tiers: loyalty })',
      '  const payments = createPaymentsService({',
      '    orderBalance: createTakePaymentFlow({ orders, completeSale }),',
      '    tenders: [cashTender(registers)],',
      '  })',
      '  return { loyalty, campaigns, payments }',
      '}',
    ].join('\n')
    assert.deepEqual(Object.fromEntries(salesGivenSales(wiring)), { campaigns: ['loyalty'] })
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
