/** The orgs table's row type and column list, once (db/migrations/0001_platform.sql; prices_include_tax 0042). */
import type { Plan } from './orgs.plans.ts'

export interface OrgRow {
  id: string
  name: string
  plan: Plan
  currency: string
  allow_negative_stock: boolean
  prices_include_tax: boolean
  rate_limit_per_minute: number | null
  rate_limit_burst: number | null
  version: number
  created_at: Date
  updated_at: Date
}

export const orgColumns =
  'id, name, plan, currency, allow_negative_stock, prices_include_tax, rate_limit_per_minute, rate_limit_burst, version, created_at, updated_at'
