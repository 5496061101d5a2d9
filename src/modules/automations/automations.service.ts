import type { TSchema } from 'typebox'
import { newId } from '../../platform/crypto/ids.ts'
import { withCodesMasked } from '../../platform/crypto/masked-code.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { type FieldError, notFound } from '../../platform/errors/app-error.ts'
import { canonicalEvent, isSubscribableEvent } from '../../platform/events/catalog.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import { staleVersion } from '../../platform/http/concurrency.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import { changedFields, recordAudit } from '../audit/index.ts'
import type { CampaignsService } from '../campaigns/index.ts'
import type { LocationsService } from '../locations/index.ts'
import type { OrgsService } from '../orgs/index.ts'
import type { WebhooksService } from '../webhooks/index.ts'
import { type AuthorDirectory, authorOf, mayReadData, missingScope, type Standing, standingsOf } from './authors.ts'
import { AutomationErrors } from './automations.errors.ts'
import * as repo from './automations.repo.ts'
import type {
  Action,
  Automation,
  AutomationCatalog,
  AutomationInput,
  AutomationListQuery,
  AutomationRun,
  AutomationUpdate,
  Conditions,
  RunListQuery,
  Trigger,
  TriggerInput,
  TriggerResult,
} from './automations.schemas.ts'
import type { AutomationRow, RunRow, StepRow } from './automations.tables.ts'
import { automationCatalog, defaultCustomerPath, RUN_EVENT, SCHEDULE_EVENT } from './catalog.ts'
import { assertNoErrors, conditionErrors, conditionsHold, pathCanExist } from './conditions.ts'
import { ScheduleDataSchema, shapeOfEvent } from './event-shapes.ts'
import { cronProblem } from './schedule.ts'

/**
 * How deep a chain of automations may go: a run triggered by an event that an automation's own action emitted
 * is one level deeper than that automation's run; no run is started beyond this depth, so an action's events
 * trigger rules once and what those runs cause triggers nothing (docs/automations.md "Loops").
 */
const MAX_AUTOMATION_DEPTH = 2

/** The window of the runs-per-minute limit. */
const RUN_WINDOW_S = 60

const NO_CONDITIONS: Conditions = { match: 'all', rules: [] }

/** The rule a row holds: trigger, conditions and actions. */
export function ruleOf(row: AutomationRow): { trigger: Trigger; conditions: Conditions; actions: Action[] } {
  return { trigger: row.trigger as Trigger, conditions: row.conditions as Conditions, actions: row.actions as Action[] }
}

/**
 * What an automation's audit entries record of a rule (its author is the entry's actor): its shape, never the
 * values a condition compares or an e-mail's address and text, which may be a customer's (the log keeps no
 * personal data, docs/people-and-settings.md).
 */
const AUDITED_RULE_FIELDS = ['name', 'enabled', 'author', 'trigger', 'conditions', 'actions'] as const
function auditedRule(row: AutomationRow) {
  const { trigger, conditions, actions } = ruleOf(row)
  return {
    name: row.name,
    enabled: row.enabled,
    author: row.author_user_id ?? row.author_client_id,
    trigger,
    conditions: `${conditions.match}: ${conditions.rules.map((c) => `${c.path} ${c.op}`).join(', ')}`,
    actions: actions.map((a) => a.type),
  }
}

function toAutomation(row: AutomationRow, standing: Standing): Automation {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    ...ruleOf(row),
    author: {
      user_id: row.author_user_id,
      client_id: row.author_client_id,
      grant_id: row.author_grant_id,
      scopes: row.author_scopes,
    },
    stopped: standing.stopped,
    version: row.version,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

const iso = (d: Date | null) => (d ? d.toISOString() : null)

function toRun(row: RunRow, steps: readonly StepRow[], scopes: ReadonlySet<string>): AutomationRun {
  return {
    id: row.id,
    automation_id: row.automation_id,
    status: row.status,
    event: row.event,
    event_id: row.event_id,
    scheduled_for: iso(row.scheduled_for),
    data: mayReadData(row.event, scopes) ? row.data : null,
    depth: row.depth,
    error: row.error,
    retries: row.retries,
    dry_run: false,
    manual: row.manual,
    steps: steps
      .filter((s) => s.run_id === row.id)
      .map((s) => ({
        position: s.position,
        type: s.type,
        status: s.status,
        input: s.input,
        output: s.output,
        error: s.error,
        attempts: s.attempts,
        started_at: iso(s.started_at),
        finished_at: iso(s.finished_at),
      })),
    created_at: row.created_at.toISOString(),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  }
}

/** The shape of a trigger's data, for checking paths (undefined: not known, any path may exist). */
function shapeOf(trigger: Trigger): TSchema | undefined {
  return trigger.type === 'schedule' ? ScheduleDataSchema : shapeOfEvent(canonicalEvent(trigger.event))
}

/** A rule's actions with the customer path a tag_customer action left out: the event's customer, when it has one. */
function withCustomerPaths(trigger: Trigger, actions: readonly Action[]): Action[] {
  const path = trigger.type === 'event' ? defaultCustomerPath(canonicalEvent(trigger.event)) : null
  return actions.map((a) =>
    a.type === 'tag_customer' && a.customer_path === undefined && path !== null ? { ...a, customer_path: path } : a,
  )
}

/** Whether a rule's trigger admits an event (its location filter). */
function triggerAdmits(trigger: Trigger, data: unknown): boolean {
  if (trigger.type !== 'event' || trigger.location_id === undefined) return true
  return (data as { location_id?: unknown } | null)?.location_id === trigger.location_id
}

interface StartRunsInput {
  event: string
  eventId: string | null
  scheduledFor: Date | null
  data: unknown
  /** The automation depth of the event (0 for an event no automation caused). */
  depth: number
}

export interface Triggered {
  /** The enabled rules of the event's name (or the one schedule rule). */
  rules: readonly AutomationRow[]
  input: StartRunsInput
}

interface StartOptions {
  /** The org's runs per minute (its plan's): runs beyond it are due in a later minute. */
  perMinute: number
  /** Runs started by hand (POST /automations/trigger). */
  manual?: boolean
  /** The rules whose author can no longer act, which start no run. */
  stopped?: ReadonlySet<string>
}

/**
 * Starts a run of each rule each event triggers (trigger filter and conditions hold, author still able to act),
 * in the caller's transaction: the run, its pending steps and its `automation.triggered` event commit together; a
 * worker hands the run to DBOS after the commit, once it is due. No run starts beyond the depth limit, and no
 * rule listens to `automation.triggered`. Runs beyond the org's runs of the minute are due in later minutes, as
 * many per minute as the plan allows. Event data is kept with its codes masked (the workflow reads the event
 * itself). The statements of events of one depth go out together (pipelined). Answers the runs started.
 */
export async function startRuns(
  q: Queryable,
  orgId: string,
  triggered: readonly Triggered[],
  options: StartOptions,
): Promise<RunRow[]> {
  const byDepth = new Map<number, { rule: AutomationRow; input: StartRunsInput }[]>()
  for (const { rules, input } of triggered) {
    const depth = input.depth + 1
    if (depth > MAX_AUTOMATION_DEPTH || input.event === RUN_EVENT) continue
    for (const rule of rules) {
      const { trigger, conditions } = ruleOf(rule)
      if (options.stopped?.has(rule.id)) continue
      if (!triggerAdmits(trigger, input.data) || !conditionsHold(conditions, input.data)) continue
      byDepth.set(depth, [...(byDepth.get(depth) ?? []), { rule, input }])
    }
  }
  if (byDepth.size === 0) return []
  let due = await repo.runsDueSince(q, orgId, RUN_WINDOW_S)
  const started: RunRow[] = []
  for (const [depth, chosen] of byDepth) {
    // The triggered events belong to the runs' depth, so a rule on automation.triggered cannot loop either.
    await repo.setDepth(q, depth)
    const runs = await Promise.all(
      chosen.map(({ rule, input }) =>
        repo.insertRun(q, orgId, {
          id: newId('arun'),
          automationId: rule.id,
          event: input.event,
          eventId: input.eventId,
          scheduledFor: input.scheduledFor,
          data: withCodesMasked(input.data),
          depth,
          actions: rule.actions as Action[],
          manual: options.manual ?? false,
          // The n-th run of the window is due in minute floor(n / perMinute) from now.
          delayS: Math.floor(due++ / options.perMinute) * RUN_WINDOW_S,
        }),
      ),
    )
    const inserted = runs.filter((r): r is RunRow => r !== undefined)
    await Promise.all(
      inserted.map((run) =>
        emitEvent(q, orgId, 'automation.triggered', {
          automation_id: run.automation_id,
          run_id: run.id,
          event: run.event,
          event_id: run.event_id,
          depth: run.depth,
          data: run.data,
        }),
      ),
    )
    started.push(...inserted)
  }
  return started
}

interface AutomationsDeps {
  locations: LocationsService
  webhooks: WebhooksService
  /** Whether a campaign of the org exists (issue_voucher actions name one). */
  campaigns: Pick<CampaignsService, 'exists'>
  orgs: Pick<OrgsService, 'automationRunsPerMinute'>
  /** Users and grants: whether a rule's author can still act, and with which scopes. */
  authors: AuthorDirectory
  /** The most rules an org may hold (AUTOMATIONS_MAX_RULES). */
  maxRules: number
}

export function createAutomationsService(deps: AutomationsDeps) {
  /** Checks a whole rule (the stored one merged with a PATCH) against the org's data; 422 naming every problem. */
  async function validate(
    ctx: RequestContext,
    rule: { trigger: Trigger; conditions: Conditions; actions: Action[] },
  ): Promise<void> {
    const errors: FieldError[] = []
    const { trigger } = rule
    if (trigger.type === 'event' && !isSubscribableEvent(trigger.event))
      errors.push({
        field: 'trigger.event',
        message: `"${trigger.event}" is not an event of the catalog`,
        code: 'unknown_event',
      })
    else if (trigger.type === 'event' && canonicalEvent(trigger.event) === RUN_EVENT)
      errors.push({
        field: 'trigger.event',
        message: `${RUN_EVENT} triggers no rule: every run emits it (docs/automations.md "Loops")`,
        code: 'not_triggerable',
      })
    if (trigger.type === 'schedule') {
      const problem = cronProblem(trigger.cron)
      if (problem) errors.push({ field: 'trigger.cron', message: problem, code: 'invalid_cron' })
    }
    const locationIds = [
      ...(trigger.location_id ? [trigger.location_id] : []),
      ...rule.actions.flatMap((a) => (a.type === 'adjust_inventory' ? [a.location_id] : [])),
    ]
    const known = new Set((await deps.locations.byIds(ctx, locationIds)).map((l) => l.id))
    if (trigger.location_id && !known.has(trigger.location_id))
      errors.push({ field: 'trigger.location_id', message: 'does not name a location of this org', code: 'not_found' })
    const shape = errors.length === 0 ? shapeOf(trigger) : undefined
    errors.push(...conditionErrors(rule.conditions, shape))
    for (const [i, action] of rule.actions.entries()) {
      const at = `actions.${i}`
      const scope = missingScope(
        action,
        ctx.scopes,
        trigger.type === 'event' ? canonicalEvent(trigger.event) : SCHEDULE_EVENT,
      )
      if (scope !== null)
        errors.push({
          field: `${at}.type`,
          message: `the ${action.type} action needs the ${scope} scope, which the rule's author (this credential) does not hold`,
          code: 'missing_scope',
        })
      const path =
        action.type === 'tag_customer' || action.type === 'accrue_points' || action.type === 'issue_voucher'
          ? action.customer_path
          : action.type === 'send_email'
            ? action.to_path
            : undefined
      const pathField = action.type === 'send_email' ? 'to_path' : 'customer_path'
      if (action.type === 'tag_customer' && path === undefined)
        errors.push({
          field: `${at}.customer_path`,
          message: "is required: this trigger's events name no customer of their own",
          code: 'required',
        })
      if (path !== undefined && !pathCanExist(shape, path))
        errors.push({
          field: `${at}.${pathField}`,
          message: `"${path}" cannot exist in this event's data`,
          code: 'unknown_path',
        })
      if (action.type === 'send_email' && (action.to === undefined) === (action.to_path === undefined))
        errors.push({ field: `${at}.to`, message: 'give exactly one of to and to_path', code: 'invalid' })
      if (action.type === 'adjust_inventory' && !known.has(action.location_id))
        errors.push({ field: `${at}.location_id`, message: 'does not name a location of this org', code: 'not_found' })
      if (action.type === 'issue_voucher' && !(await deps.campaigns.exists(ctx, action.campaign_id)))
        errors.push({ field: `${at}.campaign_id`, message: 'does not name a campaign of this org', code: 'not_found' })
      if (action.type === 'send_webhook' && !(await deps.webhooks.endpoints.exists(ctx, action.webhook_id)))
        errors.push({
          field: `${at}.webhook_id`,
          message: 'does not name a webhook endpoint of this org',
          code: 'not_found',
        })
    }
    assertNoErrors(errors)
  }

  function triggerColumns(trigger: Trigger) {
    return {
      triggerType: trigger.type,
      triggerEvent: trigger.type === 'event' ? canonicalEvent(trigger.event) : null,
      trigger,
    }
  }

  async function runOf(ctx: RequestContext, runId: string): Promise<AutomationRun> {
    return ctx.db.read(async (q) => {
      const row = await repo.runById(q, ctx.orgId, runId)
      if (!row) throw notFound('automation run')
      return toRun(row, await repo.stepsOf(q, ctx.orgId, [row.id]), ctx.scopes)
    })
  }

  /** Rows as the API shows them, each with its author's standing. */
  async function withStandings(ctx: RequestContext, rows: readonly AutomationRow[]): Promise<Automation[]> {
    const standings = await standingsOf(deps.authors, ctx, rows)
    return rows.map((row, i) => toAutomation(row, standings[i]))
  }

  /** The ids of the rules whose author can no longer act. */
  async function stoppedOf(ctx: RequestContext, rows: readonly AutomationRow[]): Promise<Set<string>> {
    const standings = await standingsOf(deps.authors, ctx, rows)
    return new Set(rows.filter((_, i) => standings[i].stopped !== null).map((r) => r.id))
  }

  return {
    /** An erasure on request: runs started by the customer's own events keep only its id. */
    eraseCustomerRuns(ctx: RequestContext, customerId: string): Promise<void> {
      return ctx.db.tx((q) => repo.eraseCustomerRuns(q, ctx.orgId, customerId))
    },

    /** What the caller can make a rule of: triggers with their data's paths and allowed actions. */
    catalog(ctx: RequestContext): AutomationCatalog {
      return automationCatalog(ctx.scopes)
    },

    async list(ctx: RequestContext, query: AutomationListQuery): Promise<Page<Automation>> {
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read((q) =>
        repo.listAutomations(q, ctx.orgId, { afterId: afterId ?? undefined, limit: query.limit + 1 }),
      )
      const page = toPage(
        rows,
        query.limit,
        (r) => [r.id],
        (r) => r,
      )
      return { ...page, data: await withStandings(ctx, page.data) }
    },

    async get(ctx: RequestContext, id: string): Promise<Automation> {
      const row = await ctx.db.read((q) => repo.automationById(q, ctx.orgId, id))
      if (!row) throw notFound('automation')
      return (await withStandings(ctx, [row]))[0]
    },

    /** Saves a rule as the caller's: its actions run with the caller's scopes (those the caller keeps). */
    async create(ctx: RequestContext, input: AutomationInput): Promise<Automation> {
      const rule = {
        trigger: input.trigger,
        conditions: input.conditions ?? NO_CONDITIONS,
        actions: withCustomerPaths(input.trigger, input.actions),
      }
      await validate(ctx, rule)
      const row = await ctx.db.tx(async (q) => {
        if ((await repo.countAutomations(q, ctx.orgId)) >= deps.maxRules)
          throw AutomationErrors.RULE_LIMIT(
            `the org holds ${deps.maxRules} automation rules, the most it may; delete one to make another`,
          )
        const inserted = await repo.insertAutomation(q, ctx.orgId, newId('auto'), {
          author: authorOf(ctx),
          name: input.name.trim(),
          enabled: input.enabled ?? true,
          ...triggerColumns(rule.trigger),
          conditions: rule.conditions,
          actions: rule.actions,
        })
        await recordAudit(q, ctx, {
          action: 'automation.created',
          record: { type: 'automation', id: inserted.id },
          changes: auditedRule(inserted),
        })
        return inserted
      })
      return (await withStandings(ctx, [row]))[0]
    },

    /** Whoever saves a rule becomes its author: the whole rule must be within their scopes. */
    async update(
      ctx: RequestContext,
      id: string,
      input: AutomationUpdate,
      expectedVersion: number | undefined,
    ): Promise<Automation> {
      const stored = await ctx.db.read((q) => repo.automationById(q, ctx.orgId, id))
      if (!stored) throw notFound('automation')
      const current = ruleOf(stored)
      const trigger = input.trigger ?? current.trigger
      const rule = {
        trigger,
        conditions: input.conditions ?? current.conditions,
        actions: withCustomerPaths(trigger, input.actions ?? current.actions),
      }
      await validate(ctx, rule)
      const row = await ctx.db.tx(async (q) => {
        const row = await repo.updateAutomation(
          q,
          ctx.orgId,
          id,
          {
            author: authorOf(ctx),
            name: input.name?.trim(),
            enabled: input.enabled,
            ...(input.trigger ? triggerColumns(input.trigger) : {}),
            conditions: input.conditions,
            // A new trigger may give the actions' customer path another default.
            actions: input.actions || input.trigger ? rule.actions : undefined,
          },
          expectedVersion,
        )
        if (row) {
          const changes = changedFields(auditedRule(stored), auditedRule(row), AUDITED_RULE_FIELDS)
          // A change only to values the log leaves out is still a change, recorded without them.
          const valuesChanged = JSON.stringify(ruleOf(stored)) !== JSON.stringify(ruleOf(row))
          if (Object.keys(changes).length > 0 || valuesChanged)
            await recordAudit(q, ctx, { action: 'automation.updated', record: { type: 'automation', id }, changes })
          return row
        }
        const now = await repo.automationById(q, ctx.orgId, id)
        if (!now) throw notFound('automation')
        throw staleVersion(now.version)
      })
      return (await withStandings(ctx, [row]))[0]
    },

    /** Deletes a rule with its run history; refused while one of its runs is under way. */
    async remove(ctx: RequestContext, id: string): Promise<void> {
      await ctx.db.tx(async (q) => {
        const row = await repo.automationById(q, ctx.orgId, id, true)
        if (!row) throw notFound('automation')
        if (await repo.hasUnfinishedRuns(q, ctx.orgId, id))
          throw AutomationErrors.RUN_UNDER_WAY(
            'the automation has a run under way; disable it and delete it when the run has finished',
          )
        await repo.deleteAutomation(q, ctx.orgId, id)
        await recordAudit(q, ctx, {
          action: 'automation.deleted',
          record: { type: 'automation', id },
          changes: { name: row.name },
        })
      })
    },

    async listRuns(ctx: RequestContext, automationId: string, query: RunListQuery): Promise<Page<AutomationRun>> {
      const afterId = afterIdOf(query.cursor)
      return ctx.db.read(async (q) => {
        if (!(await repo.automationById(q, ctx.orgId, automationId))) throw notFound('automation')
        const rows = await repo.listRuns(q, ctx.orgId, {
          automationId,
          afterId: afterId ?? undefined,
          status: query.status,
          limit: query.limit + 1,
        })
        const steps = await repo.stepsOf(
          q,
          ctx.orgId,
          rows.slice(0, query.limit).map((r) => r.id),
        )
        return toPage(
          rows,
          query.limit,
          (r) => [r.id],
          (r) => toRun(r, steps, ctx.scopes),
        )
      })
    },

    getRun: runOf,

    /** The ids of the rules whose author can no longer act (they start no run). */
    stoppedRules: stoppedOf,

    /** How many runs the org may start per minute. */
    runsPerMinute: (ctx: RequestContext) => deps.orgs.automationRunsPerMinute(ctx),

    /** What a rule may do now: whether its author can still act, and the scopes its actions run with. */
    async authorStanding(ctx: RequestContext, automationId: string): Promise<Standing> {
      const row = await ctx.db.read((q) => repo.automationById(q, ctx.orgId, automationId))
      if (!row)
        return { stopped: { code: 'AUTOMATION_AUTHOR_MISSING', message: 'the rule was deleted' }, scopes: new Set() }
      return (await standingsOf(deps.authors, ctx, [row]))[0]
    },

    /** Resumes a failed run from its failed step: steps that succeeded are not done again (DBOS rewinds it). */
    async retry(ctx: RequestContext, runId: string): Promise<AutomationRun> {
      await ctx.db.tx(async (q) => {
        const run = await repo.runById(q, ctx.orgId, runId)
        if (!run) throw notFound('automation run')
        if (run.status !== 'failed')
          throw AutomationErrors.RUN_NOT_FAILED(`only a failed run can be retried; this one is ${run.status}`)
        const failed = (await repo.stepsOf(q, ctx.orgId, [runId])).find((s) => s.status === 'failed')
        if (!failed || failed.dbos_step === null)
          throw AutomationErrors.RUN_NOT_RESUMABLE('the run has no failed step to resume from')
        await repo.requestRetry(q, ctx.orgId, runId, failed.dbos_step)
        await repo.notifyWorkers(q)
      })
      return runOf(ctx, runId)
    },

    /**
     * Fires an event at the org's rules for testing, without putting it in the outbox (no webhook receives it).
     * A dry run stores nothing and answers what would run; otherwise the runs start as for a real event, marked
     * manual and counted against the org's runs per minute (refused beyond it).
     */
    async trigger(ctx: RequestContext, input: TriggerInput): Promise<TriggerResult> {
      if (!isSubscribableEvent(input.event))
        assertNoErrors([
          { field: 'event', message: `"${input.event}" is not an event of the catalog`, code: 'unknown_event' },
        ])
      const event = canonicalEvent(input.event)
      const dryRun = input.dry_run === true
      // Real runs act on data the caller supplies (points, vouchers, stock, e-mail): a person signed in as owner or
      // manager (the roles that hold automations:write) may start them; an app may only see what would run.
      if (!dryRun && ctx.actor.kind === 'app')
        throw AutomationErrors.MANUAL_RUN_NEEDS_LOGIN(
          'an app may only dry-run the rules (dry_run: true); real runs on supplied data need an owner or manager login',
        )
      const runs = await ctx.db.tx(async (q) => {
        let rules = event === RUN_EVENT ? [] : await repo.rulesForEvent(q, ctx.orgId, event)
        if (input.automation_id !== undefined) {
          const only = await repo.automationById(q, ctx.orgId, input.automation_id)
          if (!only) throw notFound('automation')
          rules = rules.filter((r) => r.id === only.id)
        }
        const stopped = await stoppedOf(ctx, rules)
        rules = rules.filter((r) => !stopped.has(r.id))
        const start = { event, eventId: null, scheduledFor: null, data: input.data, depth: 0 }
        if (!dryRun) {
          const perMinute = await deps.orgs.automationRunsPerMinute(ctx)
          if (rules.length > 0 && (await repo.runsDueSince(q, ctx.orgId, RUN_WINDOW_S)) >= perMinute)
            throw AutomationErrors.RUN_LIMIT(
              `the org has started its ${perMinute} automation runs of the minute (its plan's); try again shortly`,
              { headers: { 'retry-after': String(RUN_WINDOW_S) } },
            )
          const started = await startRuns(q, ctx.orgId, [{ rules, input: start }], { perMinute, manual: true })
          if (started.length > 0) await repo.notifyWorkers(q)
          const steps = await repo.stepsOf(
            q,
            ctx.orgId,
            started.map((r) => r.id),
          )
          return started.map((r) => toRun(r, steps, ctx.scopes))
        }
        const now = new Date().toISOString()
        return rules
          .map((row) => ({ id: row.id, ...ruleOf(row) }))
          .filter((a) => triggerAdmits(a.trigger, input.data) && conditionsHold(a.conditions, input.data))
          .map(
            (a): AutomationRun => ({
              id: null,
              automation_id: a.id,
              status: 'pending',
              event,
              event_id: null,
              scheduled_for: null,
              data: input.data,
              depth: 1,
              error: null,
              retries: 0,
              dry_run: true,
              manual: true,
              steps: a.actions.map((action, position) => ({
                position,
                type: action.type,
                status: 'pending',
                input: action,
                output: null,
                error: null,
                attempts: 0,
                started_at: null,
                finished_at: null,
              })),
              created_at: now,
              started_at: null,
              finished_at: null,
            }),
          )
      })
      return { event, dry_run: dryRun, runs }
    },
  }
}

export type AutomationsService = ReturnType<typeof createAutomationsService>
