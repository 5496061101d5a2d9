/** Row types and column lists of the integrations table. */

/** integrations (db/migrations/0050_integrations_webhooks.sql; uninstalled_at: 0055). */
export interface IntegrationRow {
  id: string
  org_id: string
  name: string
  type: string
  config: Record<string, unknown>
  version: number
  created_at: Date
  updated_at: Date
}

export const integrationColumns = 'id, org_id, name, type, config, version, created_at, updated_at'
