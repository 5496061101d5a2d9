import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { expectedVersion, STALE_VERSION } from '../../platform/http/concurrency.ts'
import { DataOf, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import { AutomationErrors } from './automations.errors.ts'
import {
  AutomationCatalogSchema,
  AutomationListQuery,
  AutomationSchema,
  CreateAutomationBody,
  RunListQuery,
  RunParams,
  RunSchema,
  TriggerBody,
  TriggerResultSchema,
  UpdateAutomationBody,
} from './automations.schemas.ts'
import type { AutomationsService } from './automations.service.ts'

const tags = ['automations']
const Automation = Type.Ref('Automation')
const Run = Type.Ref('AutomationRun')

export const automationRoutes: FastifyPluginAsyncTypebox<{ automations: AutomationsService }> = async (
  app,
  { automations },
) => {
  app.addSchema(AutomationSchema)
  app.addSchema(RunSchema)

  app.get(
    '/automations',
    {
      config: { scope: 'automations:read' },
      schema: {
        operationId: 'listAutomations',
        tags,
        summary: 'List automation rules in creation order',
        querystring: AutomationListQuery,
        response: { 200: ListOf(Automation) },
      },
    },
    async (request) => automations.list(request.ctx, request.query),
  )

  app.post(
    '/automations',
    {
      config: { scope: 'automations:write' },
      schema: {
        operationId: 'createAutomation',
        tags,
        summary:
          "Create a rule: a trigger (event or schedule), conditions and ordered actions. The caller becomes its author: each action must be within the caller's scopes, and runs act with them",
        body: CreateAutomationBody,
        response: { 201: DataOf(Automation), ...errorResponses(AutomationErrors.RULE_LIMIT) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await automations.create(request.ctx, request.body) }),
  )

  app.get(
    '/automations/catalog',
    {
      config: { scope: 'automations:read' },
      schema: {
        operationId: 'getAutomationCatalog',
        tags,
        summary:
          'What a rule can be made of, for the caller: each trigger with the paths a condition can test in its data and the actions the caller may give it, and every action with the scope it needs',
        response: { 200: DataOf(AutomationCatalogSchema) },
      },
    },
    async (request) => ({ data: automations.catalog(request.ctx) }),
  )

  app.post(
    '/automations/trigger',
    {
      config: { scope: 'automations:write' },
      schema: {
        operationId: 'triggerAutomations',
        tags,
        summary:
          "Fire an event at the rules for testing (not published to webhooks); dry_run stores nothing. Real runs need an owner or manager login (apps may only dry-run), are marked manual and count against the plan's runs per minute",
        body: TriggerBody,
        response: {
          200: DataOf(TriggerResultSchema),
          ...errorResponses(404, AutomationErrors.MANUAL_RUN_NEEDS_LOGIN, AutomationErrors.RUN_LIMIT),
        },
      },
    },
    async (request) => ({ data: await automations.trigger(request.ctx, request.body) }),
  )

  app.get(
    '/automations/runs/:runId',
    {
      config: { scope: 'automations:read' },
      schema: {
        operationId: 'getAutomationRun',
        tags,
        summary: 'One run with every step: input, output, error and attempts',
        params: RunParams,
        response: { 200: DataOf(Run), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await automations.getRun(request.ctx, request.params.runId) }),
  )

  app.post(
    '/automations/runs/:runId/retry',
    {
      config: { scope: 'automations:write' },
      schema: {
        operationId: 'retryAutomationRun',
        tags,
        summary: 'Resume a failed run from its failed step (steps that succeeded are not done again)',
        params: RunParams,
        response: {
          200: DataOf(Run),
          ...errorResponses(404, AutomationErrors.RUN_NOT_FAILED, AutomationErrors.RUN_NOT_RESUMABLE),
        },
      },
    },
    async (request) => ({ data: await automations.retry(request.ctx, request.params.runId) }),
  )

  app.get(
    '/automations/:id',
    {
      config: { scope: 'automations:read' },
      schema: {
        operationId: 'getAutomation',
        tags,
        summary: 'One automation rule',
        params: IdParams,
        response: { 200: DataOf(Automation), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await automations.get(request.ctx, request.params.id) }),
  )

  app.patch(
    '/automations/:id',
    {
      config: { scope: 'automations:write' },
      schema: {
        operationId: 'updateAutomation',
        tags,
        summary:
          'Update a rule; If-Match or version guards against lost updates. The caller becomes its author (the whole rule must be within their scopes). Runs under way keep their actions',
        params: IdParams,
        body: UpdateAutomationBody,
        response: {
          200: DataOf(Automation),
          ...errorResponses(404, STALE_VERSION, AutomationErrors.RUN_UNDER_WAY),
        },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      return {
        data: await automations.update(request.ctx, request.params.id, fields, expectedVersion(request, version)),
      }
    },
  )

  app.delete(
    '/automations/:id',
    {
      config: { scope: 'automations:write' },
      schema: {
        operationId: 'deleteAutomation',
        tags,
        summary: 'Delete a rule and its run history (409 while a run is under way)',
        params: IdParams,
        response: {
          204: Type.Null({ description: 'deleted' }),
          ...errorResponses(404, AutomationErrors.RUN_UNDER_WAY),
        },
      },
    },
    async (request, reply) => {
      await automations.remove(request.ctx, request.params.id)
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/automations/:id/runs',
    {
      config: { scope: 'automations:read' },
      schema: {
        operationId: 'listAutomationRuns',
        tags,
        summary: "A rule's runs in creation order, each with its steps",
        params: IdParams,
        querystring: RunListQuery,
        response: { 200: ListOf(Run), ...errorResponses(404) },
      },
    },
    async (request) => automations.listRuns(request.ctx, request.params.id, request.query),
  )
}
