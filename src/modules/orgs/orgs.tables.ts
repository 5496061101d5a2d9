/** The orgs table's row type and column list, once (db/migrations/0001_platform.sql; prices_include_tax 0042). */
import type { Plan } from './orgs.plans.ts'
import type { Settings } from './settings.schemas.ts'

export interface OrgRow {
  id: string
  name: string
  plan: Plan
  currency: string
  allow_negative_stock: boolean
  prices_include_tax: boolean
  rate_limit_per_minute: number | null
  rate_limit_burst: number | null
  /** The store's settings (db/migrations/0139_people_and_settings.sql). */
  phone: string
  address: Settings['address']
  timezone: string
  receipt_header: string
  receipt_footer: string
  tips: Settings['tips']
  manager_approval: Settings['manager_approval']
  version: number
  created_at: Date
  updated_at: Date
}

export const orgColumns =
  'id, name, plan, currency, allow_negative_stock, prices_include_tax, rate_limit_per_minute, rate_limit_burst, phone, address, timezone, receipt_header, receipt_footer, tips, manager_approval, version, created_at, updated_at'
