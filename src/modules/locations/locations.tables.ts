/** locations (db/migrations/0030_locations.sql): its row type and column lists. */

export interface LocationRow {
  id: string
  org_id: string
  name: string
  address_line1: string
  address_line2: string
  city: string
  region: string
  postal_code: string
  country: string | null
  timezone: string
  is_active: boolean
  version: number
  created_at: Date
  updated_at: Date
}

export const locationColumns =
  'id, org_id, name, address_line1, address_line2, city, region, postal_code, country, timezone, is_active, version, created_at, updated_at'

/** The columns a write may set, in a fixed order (the VALUES of an insert follow it). */
export const locationWriteColumns = [
  'name',
  'address_line1',
  'address_line2',
  'city',
  'region',
  'postal_code',
  'country',
  'timezone',
  'is_active',
] as const

export type LocationWrite = Partial<Pick<LocationRow, (typeof locationWriteColumns)[number]>>
