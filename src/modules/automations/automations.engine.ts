import { DBOS, Error as DBOSErrors } from '@dbos-inc/dbos-sdk'
import type { FastifyBaseLogger } from 'fastify'
import { withCodesMasked } from '../../platform/crypto/masked-code.ts'
import type { Database } from '../../platform/db/database.ts'
import { AppError } from '../../platform/errors/app-error.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { systemContext } from '../../platform/http/system-context.ts'
import type { Mailer } from '../../platform/mail/index.ts'
import type { CampaignsService } from '../campaigns/index.ts'
import type { CustomersService } from '../customers/index.ts'
import type { InventoryService } from '../inventory/index.ts'
import type { LoyaltyService } from '../loyalty/index.ts'
import type { WebhooksService } from '../webhooks/index.ts'
import { missingScope } from './authors.ts'
import { AutomationErrors } from './automations.errors.ts'
import * as repo from './automations.repo.ts'
import type { Action } from './automations.schemas.ts'
import type { AutomationsService } from './automations.service.ts'
import { valuesAt } from './conditions.ts'

/** What the actions act through: other modules' services, entered through their index.ts. */
interface EngineDeps {
  database: Database
  /** Whether a rule's author can still act, and with which scopes. */
  automations: Pick<AutomationsService, 'authorStanding'>
  customers: CustomersService
  inventory: InventoryService
  webhooks: WebhooksService
  loyalty: LoyaltyService
  campaigns: CampaignsService
  mailer: Mailer
  log: FastifyBaseLogger
  /** A failed action is tried this often in all, waiting `retryIntervalS`, then twice as long each time. */
  maxAttempts: number
  retryIntervalS: number
}

/** A run as its workflow reads it once, at its start (checkpointed by DBOS with the first step). */
interface Plan {
  orgId: string
  runId: string
  automationId: string
  event: string
  eventId: string | null
  depth: number
  data: unknown
  actions: Action[]
}

/**
 * DBOS is one engine per process: its workflows reach this process's services through the deps bound when the
 * automation worker launched it.
 */
let bound: EngineDeps | undefined
function deps(): EngineDeps {
  if (!bound) throw new Error('the automation engine is not running in this process')
  return bound
}

export function bindEngine(engineDeps: EngineDeps | undefined): void {
  bound = engineDeps
}

const contextFor = (orgId: string, scopes: Iterable<string>): RequestContext =>
  systemContext(deps().database, orgId, [...scopes], deps().log)

/**
 * The context an action of the rule runs in: its author's scopes that they still hold, or a refusal when the author
 * can no longer act or lacks the action's scope (the rule was checked when saved; this is checked at each step).
 */
async function authorContext(orgId: string, plan: Plan, action: Action): Promise<RequestContext> {
  const standing = await deps().automations.authorStanding(contextFor(orgId, []), plan.automationId)
  if (standing.stopped) throw AutomationErrors.AUTHOR_STOPPED(`${standing.stopped.code}: ${standing.stopped.message}`)
  const scope = missingScope(action, standing.scopes, plan.event)
  if (scope !== null)
    throw AutomationErrors.AUTHOR_LACKS_SCOPE(
      `the ${action.type} action needs the ${scope} scope, which the rule's author no longer holds`,
    )
  return contextFor(orgId, standing.scopes)
}

/** Validation, refusals and missing rows will not mend by themselves; anything else (a conflict, the network) may. */
function isRetryable(error: unknown): boolean {
  return !(
    error instanceof AppError &&
    (error.kind === 'validation' || error.kind === 'not-found' || error.kind === 'forbidden')
  )
}

/**
 * What a run keeps of a failure, which `automations:read` shows: a stable code and a short message. An error of
 * the API's catalog says what the module answered (`INSUFFICIENT_STOCK: …`); anything else (a database error, an
 * SMTP server's answer) may carry detail no reader should see, and is a code alone, its detail in the log.
 */
function summaryOf(error: unknown): string {
  if (error instanceof AppError) return `${error.code}: ${error.message}`.slice(0, 300)
  // DBOS gives up on a step with an error that carries each attempt's (the last one is the step's).
  const attempts = error instanceof DBOSErrors.DBOSMaxStepRetriesError ? error.errors : []
  if (attempts.length > 0) return summaryOf(attempts[attempts.length - 1])
  const code = (error as { code?: unknown })?.code
  return `${typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code) ? code : 'STEP_FAILED'}: the action failed (its detail is in the log)`
}

/** `{{path}}` in a text becomes the value at that path of the event data (`steps.N.…`: an earlier step's output). */
function render(template: string, data: unknown, outputs: readonly unknown[]): string {
  const scope = { ...(data as object), steps: outputs }
  return template.replace(/\{\{\s*([A-Za-z0-9_.*]+)\s*\}\}/g, (_, path: string) => {
    const [value] = valuesAt(scope, path)
    return value === undefined || value === null
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value)
  })
}

function firstString(data: unknown, path: string, what: string): string {
  const value = valuesAt(data, path).find((v) => typeof v === 'string')
  if (typeof value !== 'string')
    throw new AppError('validation', `the event data has no ${what} at "${path}"`, {
      errors: [{ field: path, message: `has no ${what}`, code: 'missing' }],
    })
  return value
}

/** The effect of one action inside the step's transaction (joined by the services it calls). */
async function act(ctx: RequestContext, plan: Plan, action: Action): Promise<unknown> {
  const { customers, inventory, webhooks, loyalty, campaigns } = deps()
  switch (action.type) {
    case 'accrue_points': {
      const customerId = firstString(plan.data, action.customer_path, 'customer id')
      const { member, movement } = await loyalty.accrue(ctx, {
        customer_id: customerId,
        points: action.points,
        reason: action.reason,
      })
      return { customer_id: customerId, points: action.points, balance: member.balance, movement_id: movement.id }
    }
    case 'issue_voucher': {
      const customerId = firstString(plan.data, action.customer_path, 'customer id')
      const voucher = await campaigns.issueVoucher(ctx, action.campaign_id, customerId)
      return {
        campaign_id: action.campaign_id,
        customer_id: customerId,
        voucher_id: voucher.id,
        voucher_code: voucher.code,
      }
    }
    case 'tag_customer': {
      // Saved rules always carry the path (its default is filled in when the rule is saved); none finds nothing.
      const customerId = firstString(plan.data, action.customer_path ?? '', 'customer id')
      const { customer, added } = await customers.addTag(ctx, customerId, action.tag)
      return { customer_id: customer.id, tag: action.tag, added }
    }
    case 'adjust_inventory': {
      const movement = await inventory.adjust(ctx, {
        product_id: action.product_id,
        variant_id: action.variant_id ?? null,
        location_id: action.location_id,
        quantity: action.quantity,
        reason: action.reason,
        note: `automation ${plan.automationId}, run ${plan.runId}`,
      })
      return { movement_id: movement.id }
    }
    case 'send_webhook': {
      const delivery = await webhooks.endpoints.sendEvent(ctx, {
        webhookId: action.webhook_id,
        event: 'automation.triggered',
        data: {
          automation_id: plan.automationId,
          run_id: plan.runId,
          event: plan.event,
          event_id: plan.eventId,
          depth: plan.depth,
          data: plan.data,
        },
      })
      return { delivery_id: delivery.id }
    }
    default:
      throw new Error(`action ${action.type} has no effect inside a transaction`)
  }
}

/**
 * One attempt of an action. The step's row is the idempotency key of its effect: the effect and the row's
 * `succeeded` (with the attempt counted) commit in one transaction, a failed attempt is counted after its
 * rollback, so an attempt that DBOS replays after a crash (the effect committed, the
 * checkpoint not yet) finds the row done and answers its output instead of acting twice. E-mail cannot join a
 * transaction: it is sent at least once (docs/automations.md).
 */
async function perform(plan: Plan, position: number, outputs: readonly unknown[]): Promise<unknown> {
  const { database, mailer } = deps()
  const { orgId, runId } = plan
  const action = plan.actions[position]
  const dbosStep = DBOS.stepID ?? null
  try {
    if (action.type === 'send_email') {
      const step = await database.transaction(orgId, (q) => repo.lockStep(q, orgId, runId, position))
      if (step?.status === 'succeeded') return step.output
      await authorContext(orgId, plan, action)
      const to = action.to ?? firstString(plan.data, action.to_path ?? '', 'e-mail address')
      await mailer.send({
        to,
        subject: render(action.subject, plan.data, outputs),
        text: render(action.text, plan.data, outputs),
      })
      const output = { to, channel: mailer.channel }
      await database.transaction(orgId, (q) => repo.finishStep(q, orgId, runId, position, output, dbosStep))
      return output
    }
    return await contextFor(orgId, []).db.tx(async (q) => {
      const step = await repo.lockStep(q, orgId, runId, position)
      if (step?.status === 'succeeded') return step.output
      await repo.setDepth(q, plan.depth)
      // Joins this transaction: the action and its step's row commit together.
      const output = await act(await authorContext(orgId, plan, action), plan, action)
      // The run history keeps codes masked; the workflow (DBOS's checkpoint, its own schema) keeps the output
      // whole, so a later step may still send the code (`{{steps.N.voucher_code}}`).
      await repo.finishStep(q, orgId, runId, position, withCodesMasked(output), dbosStep)
      return output
    })
  } catch (error) {
    const status = DBOS.stepStatus
    const final = !isRetryable(error) || (status?.currentAttempt ?? 1) >= (status?.maxAttempts ?? 1)
    if (!(error instanceof AppError)) deps().log.warn({ err: error, runId, position }, 'automation step failed')
    await database.transaction(orgId, (q) =>
      repo.failAttempt(q, orgId, runId, position, summaryOf(error), final, dbosStep),
    )
    throw error
  }
}

/**
 * Starts the run and reads its plan. The run keeps event data with its codes masked; the plan takes the event's
 * own data from the outbox while the event is kept (EVENT_RETENTION_DAYS), so an action may still use a code.
 */
async function begin(orgId: string, runId: string): Promise<Plan | null> {
  return deps().database.transaction(orgId, async (q) => {
    const run = await repo.startRun(q, orgId, runId)
    if (!run) return null
    const [event] = run.event_id ? await repo.eventsByIds(q, orgId, [run.event_id]) : []
    return {
      orgId,
      runId,
      automationId: run.automation_id,
      event: run.event,
      eventId: run.event_id,
      depth: run.depth,
      data: event ? event.data : run.data,
      actions: run.actions as Action[],
    }
  })
}

async function beginWait(orgId: string, runId: string, position: number): Promise<void> {
  await deps().database.transaction(orgId, (q) => repo.startWait(q, orgId, runId, position))
}

async function endWait(orgId: string, runId: string, position: number, seconds: number): Promise<unknown> {
  const output = { waited_seconds: seconds }
  await deps().database.transaction(orgId, (q) => repo.finishStep(q, orgId, runId, position, output, null))
  return output
}

async function finish(orgId: string, runId: string, error: string | null): Promise<void> {
  await deps().database.transaction(orgId, (q) =>
    repo.finishRun(q, orgId, runId, error === null ? 'succeeded' : 'failed', error),
  )
}

/**
 * A run as a DBOS workflow: each action is a step (checkpointed when it succeeds, retried with back-off when it
 * fails), a wait is DBOS's durable sleep. After a crash DBOS resumes the workflow after its last checkpointed
 * step; a retry rewinds it to its failed step (automations.jobs.ts).
 */
async function automationRun(orgId: string, runId: string): Promise<void> {
  const plan = await DBOS.runStep(() => begin(orgId, runId), { name: 'begin' })
  if (!plan) return
  const outputs: unknown[] = []
  for (const [position, action] of plan.actions.entries()) {
    if (action.type === 'wait') {
      await DBOS.runStep(() => beginWait(orgId, runId, position), { name: `wait-${position}` })
      await DBOS.sleep(action.seconds * 1000)
      outputs.push(
        await DBOS.runStep(() => endWait(orgId, runId, position, action.seconds), { name: `waited-${position}` }),
      )
      continue
    }
    const { maxAttempts, retryIntervalS } = deps()
    try {
      outputs.push(
        await DBOS.runStep(() => perform(plan, position, outputs), {
          name: `${action.type}-${position}`,
          retriesAllowed: true,
          maxAttempts,
          intervalSeconds: retryIntervalS,
          backoffRate: 2,
          shouldRetry: isRetryable,
        }),
      )
    } catch (error) {
      await DBOS.runStep(() => finish(orgId, runId, `step ${position} (${action.type}) failed: ${summaryOf(error)}`), {
        name: 'fail',
      })
      return
    }
  }
  await DBOS.runStep(() => finish(orgId, runId, null), { name: 'succeed' })
}

export const automationRunWorkflow = DBOS.registerWorkflow(automationRun, { name: 'automationRun' })
