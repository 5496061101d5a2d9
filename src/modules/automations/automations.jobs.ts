import { DBOS } from '@dbos-inc/dbos-sdk'
import type { FastifyBaseLogger } from 'fastify'
import pino from 'pino'
import { joiningTransaction } from '../../platform/db/org-db.ts'
import { systemContext } from '../../platform/http/system-context.ts'
import { type Mailer, mailerFor } from '../../platform/mail/index.ts'
import { listenForWakeups } from '../../platform/queue/pg-listener.ts'
import { type Poller, startPoller } from '../../platform/queue/poller.ts'
import type { Runtime } from '../../platform/runtime.ts'
import type { CampaignsService } from '../campaigns/index.ts'
import type { CustomersService } from '../customers/index.ts'
import type { InventoryService } from '../inventory/index.ts'
import type { LocationsService } from '../locations/index.ts'
import type { LoyaltyService } from '../loyalty/index.ts'
import type { WebhooksService } from '../webhooks/index.ts'
import { automationRunWorkflow, bindEngine } from './automations.engine.ts'
import * as repo from './automations.repo.ts'
import type { Trigger } from './automations.schemas.ts'
import { type AutomationsService, ruleOf, startRuns, type Triggered } from './automations.service.ts'
import type { AutomationRow } from './automations.tables.ts'
import { SCHEDULE_EVENT } from './catalog.ts'
import { dbosLogger, readyDbosSchema } from './dbos-schema.ts'
import { dueSlot, inTurnsByOrg, localTime } from './schedule.ts'

interface AutomationWorkerServices {
  automations: AutomationsService
  customers: CustomersService
  inventory: InventoryService
  loyalty: LoyaltyService
  campaigns: CampaignsService
  locations: LocationsService
  webhooks: WebhooksService
}

interface AutomationWorkerOptions {
  log?: FastifyBaseLogger
  pollMs?: number
  /** The clock of schedule triggers (tests move it); the real time by default. */
  now?: () => Date
  /** How often schedules are looked at; 0 looks at every tick. */
  scheduleEveryMs?: number
  /** Where send_email actions go; by default SMTP when SMTP_URL is set, else the log. */
  mailer?: Mailer
  /** Attempts of a failing action (default 5) and the first pause between them in seconds (default 2, doubling). */
  maxAttempts?: number
  retryIntervalS?: number
}

export interface AutomationWorker {
  /** Settles once DBOS has launched (and started recovering what a previous process left). */
  readonly launched: Promise<void>
  stop(): Promise<void>
}

/** A run handed to DBOS this long ago and still pending was lost with its worker: hand it over again. */
const REDISPATCH_AFTER_MS = 30_000
const BATCH = 200

/** DBOS keeps its own tables (workflow status, step checkpoints) in this schema of the app's database. */
const DBOS_SCHEMA = 'dbos'

/**
 * The automation worker: turns committed outbox events and due schedules into runs, and hands runs to DBOS
 * Transact, launched here on this database (one DBOS per process: run one automation worker per process).
 * DBOS recovers the workflows a killed process left unfinished when it launches again.
 */
export function startAutomationWorker(
  runtime: Runtime,
  services: AutomationWorkerServices,
  options: AutomationWorkerOptions = {},
): AutomationWorker {
  const { database } = runtime
  const log = options.log ?? (pino({ level: 'silent' }) as unknown as FastifyBaseLogger)
  const now = options.now ?? (() => new Date())
  const scheduleEveryMs = options.scheduleEveryMs ?? 15_000
  const mailer = options.mailer ?? mailerFor(runtime.config, log)
  let lastSchedule = Number.NEGATIVE_INFINITY

  bindEngine({
    database,
    automations: services.automations,
    customers: services.customers,
    inventory: services.inventory,
    webhooks: services.webhooks,
    loyalty: services.loyalty,
    campaigns: services.campaigns,
    mailer,
    log,
    maxAttempts: options.maxAttempts ?? 5,
    retryIntervalS: options.retryIntervalS ?? 2,
  })
  /** DBOS connects as its own login role, which reaches its schema and nothing else (dbos-schema.ts). */
  async function launch(): Promise<void> {
    const dbosUrl = await readyDbosSchema(runtime.ownerUrl, DBOS_SCHEMA, log)
    DBOS.setConfig({
      name: 'opentill',
      systemDatabaseUrl: dbosUrl,
      systemDatabaseSchemaName: DBOS_SCHEMA,
      systemDatabasePoolSize: 10,
      runMigrations: false,
      // Fixed, so a new release recovers the workflows the previous one left (the workflow reads its plan as data).
      applicationVersion: 'opentill-automations-1',
      logger: dbosLogger(log),
    })
    await DBOS.launch()
  }
  const launched = launch()

  async function relayEvents(): Promise<number> {
    return database.unscoped(async (q) => {
      const claimed = await repo.claimTriggers(q, BATCH)
      const byOrg = new Map<string, Map<string, number>>()
      for (const row of claimed) {
        const events = byOrg.get(row.org_id) ?? new Map<string, number>()
        events.set(row.event_id, row.depth)
        byOrg.set(row.org_id, events)
      }
      for (const [orgId, depths] of byOrg) {
        await repo.scopeTo(q, orgId)
        const ctx = systemContext(database, orgId, ['automations:read'], log)
        // The org's calls below (authors, plan) join this transaction, now scoped to the org.
        await joiningTransaction(q, orgId, async () => {
          // One read of the org's rules per event name in the batch.
          const rulesOf = new Map<string, AutomationRow[]>()
          const triggered: Triggered[] = []
          for (const event of await repo.eventsByIds(q, orgId, [...depths.keys()])) {
            let rules = rulesOf.get(event.type)
            if (!rules) {
              rules = await repo.rulesForEvent(q, orgId, event.type)
              rulesOf.set(event.type, rules)
            }
            triggered.push({
              rules,
              input: {
                event: event.type,
                eventId: event.id,
                scheduledFor: null,
                data: event.data,
                depth: depths.get(event.id) ?? 0,
              },
            })
          }
          const rules = [...rulesOf.values()].flat()
          if (rules.length === 0) return
          await startRuns(q, orgId, triggered, {
            perMinute: await services.automations.runsPerMinute(ctx),
            stopped: await services.automations.stoppedRules(ctx, rules),
          })
        })
      }
      return claimed.length
    })
  }

  /** Starts a run for each schedule whose latest slot (in its location's time zone) has come since last look. */
  async function runSchedules(): Promise<void> {
    const at = now()
    const rules = inTurnsByOrg(await database.unscoped((q) => repo.scheduleRules(q)))
    for (const { org_id: orgId, id } of rules) {
      const ctx = systemContext(database, orgId, ['automations:write'], log)
      await ctx.db.tx(async (q) => {
        const row = await repo.automationById(q, orgId, id, true)
        if (row?.trigger_type !== 'schedule' || !row.enabled) return
        const trigger = ruleOf(row).trigger as Extract<Trigger, { type: 'schedule' }>
        // A new (or changed) schedule counts from the first look, never from the past.
        if (!row.schedule_cursor) return repo.setScheduleCursor(q, orgId, id, at)
        const [location] = await services.locations.byIds(ctx, [trigger.location_id])
        if (!location?.is_active) return
        const slot = dueSlot(trigger.cron, location.timezone, row.schedule_cursor, at)
        if (!slot) return
        const data = {
          scheduled_for: slot.toISOString(),
          location_id: location.id,
          time_zone: location.timezone,
          local_time: localTime(slot, location.timezone),
        }
        await startRuns(
          q,
          orgId,
          [{ rules: [row], input: { event: SCHEDULE_EVENT, eventId: null, scheduledFor: slot, data, depth: 0 } }],
          {
            perMinute: await services.automations.runsPerMinute(ctx),
            stopped: await services.automations.stoppedRules(ctx, [row]),
          },
        )
        await repo.setScheduleCursor(q, orgId, id, at)
      })
    }
  }

  /** Hands pending runs to DBOS: a new run starts its workflow (id = run id), a retried one is rewound. */
  async function dispatch(): Promise<number> {
    const claimed = await database.unscoped((q) => repo.claimRuns(q, BATCH, REDISPATCH_AFTER_MS))
    await Promise.all(
      claimed.map(async (run) => {
        try {
          if (run.resume_from === null) {
            await DBOS.startWorkflow(automationRunWorkflow, { workflowID: run.id })(run.org_id, run.id)
            return
          }
          await DBOS.rewindWorkflow(run.id, { startStep: run.resume_from })
          await database.transaction(run.org_id, (q) => repo.clearResume(q, run.org_id, run.id))
        } catch (error) {
          // The run stays pending and is handed over again later; the others of the batch go on.
          log.error({ err: error, runId: run.id }, 'handing an automation run to DBOS failed')
        }
      }),
    )
    return claimed.length
  }

  async function tick(): Promise<boolean> {
    await launched
    const relayed = await relayEvents()
    if (Date.now() - lastSchedule >= scheduleEveryMs) {
      lastSchedule = Date.now()
      await runSchedules()
    }
    const dispatched = await dispatch()
    return relayed >= BATCH || dispatched >= BATCH
  }

  const poller: Poller = startPoller({
    intervalMs: options.pollMs ?? 250,
    tick,
    onError: (error) => log.error({ err: error }, 'automation worker tick failed'),
  })
  const listener = listenForWakeups({
    connectionString: runtime.appUrl,
    channel: 'automation_trigger',
    onWake: () => poller.nudge(),
    log,
  })

  return {
    launched,
    async stop() {
      await listener.close()
      await poller.stop()
      await launched.catch(() => {})
      await DBOS.shutdown()
      bindEngine(undefined)
      if (!options.mailer) mailer.close()
    },
  }
}
