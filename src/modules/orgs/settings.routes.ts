import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { bumpCatalogAfterWrite } from '../../platform/cache/index.ts'
import { ANY_TOKEN } from '../../platform/http/authenticate.ts'
import { expectedVersion, STALE_VERSION } from '../../platform/http/concurrency.ts'
import { DataOf, errorResponses } from '../../platform/http/schemas.ts'
import { SettingsSchema, UpdateSettingsBody } from './settings.schemas.ts'
import type { SettingsService } from './settings.service.ts'

const tags = ['settings']
const Settings = Type.Ref('Settings')

export const settingsRoutes: FastifyPluginAsyncTypebox<{ settings: SettingsService }> = async (app, { settings }) => {
  app.addSchema(SettingsSchema)
  // Whether prices include tax is priced from data kept under the catalog version: a change moves it on.
  app.addHook('onSend', bumpCatalogAfterWrite)

  app.get(
    '/settings',
    {
      // The till reads them (receipt texts, tips): any credential of the org may.
      config: { scope: ANY_TOKEN },
      schema: {
        operationId: 'getSettings',
        tags,
        summary: "The store's settings: name, address, time zone, receipt texts, tax-inclusive prices, tips",
        response: { 200: DataOf(Settings), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await settings.get(request.ctx) }),
  )

  app.patch(
    '/settings',
    {
      config: { scope: 'settings:write' },
      schema: {
        operationId: 'updateSettings',
        tags,
        summary:
          "Change the store's settings (the currency is not changed through the API); If-Match or version guards",
        body: UpdateSettingsBody,
        response: { 200: DataOf(Settings), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      return { data: await settings.update(request.ctx, fields, expectedVersion(request, version)) }
    },
  )
}
