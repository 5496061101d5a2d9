import type { TSchema } from 'typebox'
import { aliasesOf, catalogEvents } from '../../platform/events/catalog.ts'
import { ACTION_SCOPES, missingScope } from './authors.ts'
import type { Action, AutomationCatalog, CatalogPath } from './automations.schemas.ts'
import { ScheduleDataSchema, shapeOfEvent } from './event-shapes.ts'

/** The event that no rule may trigger on: every run emits it (docs/automations.md "Loops"). */
export const RUN_EVENT = 'automation.triggered'

/** The event name a schedule trigger's runs carry. */
export const SCHEDULE_EVENT = 'schedule'

/** The resources whose events name their customer as `customer_id` (a customer event's own id is `id`). */
const CUSTOMER_ID_EVENTS = new Set(['order', 'layby', 'loyalty', 'gift_card'])

/** Where an event's data names its customer, when it has one: what a tag_customer action defaults to. */
export function defaultCustomerPath(event: string): string | null {
  const resource = event.split('.')[0]
  return resource === 'customer' ? 'id' : CUSTOMER_ID_EVENTS.has(resource) ? 'customer_id' : null
}

/** What each action does, for a person choosing one (the API's schema says the same in its descriptions). */
const ACTION_TEXTS: Readonly<Record<Action['type'], string>> = {
  tag_customer: "adds a tag to the event's customer",
  accrue_points: "gives the event's customer loyalty points",
  issue_voucher: "issues a single-use voucher of a campaign to the event's customer",
  adjust_inventory: 'adjusts the stock of an item at a location',
  send_webhook: 'sends a signed automation.triggered delivery to one of the store’s webhook endpoints',
  send_email: 'sends an e-mail (to an address, or to one in the event’s data)',
  wait: 'waits before the next action',
}

interface JsonSchema {
  type?: string
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  anyOf?: JsonSchema[]
}

const SCALARS = new Set(['string', 'number', 'integer', 'boolean'])
/** Deep enough for an order's lines' modifiers; a rule never needs to reach further. */
const MAX_DEPTH = 4

/** The paths a condition can test in data of `schema`: each scalar, each array of scalars, arrays through `*`. */
function pathsOf(schema: JsonSchema, prefix = '', depth = 0): CatalogPath[] {
  const branches = schema.anyOf ? schema.anyOf.filter((s) => s.type !== 'null') : [schema]
  const paths: CatalogPath[] = []
  for (const branch of branches) {
    if (branch.type && SCALARS.has(branch.type) && prefix) {
      paths.push({ path: prefix, type: branch.type === 'integer' ? 'number' : (branch.type as CatalogPath['type']) })
    } else if (branch.type === 'array' && prefix) {
      const item = branch.items ?? {}
      const itemType = item.anyOf ? item.anyOf.find((s) => s.type !== 'null')?.type : item.type
      if (itemType && SCALARS.has(itemType)) paths.push({ path: prefix, type: 'list' })
      else if (depth < MAX_DEPTH) paths.push(...pathsOf(item, `${prefix}.*`, depth + 1))
    } else if (branch.properties && depth < MAX_DEPTH) {
      for (const [name, property] of Object.entries(branch.properties))
        paths.push(...pathsOf(property, prefix ? `${prefix}.${name}` : name, depth + 1))
    }
  }
  // A nullable union can name a path twice; the first type wins.
  return paths.filter((p, i) => paths.findIndex((q) => q.path === p.path) === i)
}

/** In the order a person meets them: the customer's, the stock's, then messages and waiting. */
const ALL_ACTIONS = Object.keys(ACTION_TEXTS) as Action['type'][]

/**
 * What a rule can be made of, for the caller: each trigger with the paths of its data and the actions the caller
 * may give it (an e-mail needs the scope that reads the event's data too), and every action with the scope it needs.
 */
export function automationCatalog(scopes: ReadonlySet<string>): AutomationCatalog {
  const allowed = (event: string) =>
    ALL_ACTIONS.filter((type) => missingScope({ type } as Action, scopes, event) === null)
  return {
    triggers: triggerShapes().map((t) => ({ ...t, actions: allowed(t.event) })),
    actions: ALL_ACTIONS.map((type) => ({ type, scope: ACTION_SCOPES[type], description: ACTION_TEXTS[type] })),
  }
}

type TriggerShape = Omit<AutomationCatalog['triggers'][number], 'actions'>
let shapes: TriggerShape[] | undefined

/** What the triggers' data offers never changes in a process: walked once, not on every request. */
function triggerShapes(): TriggerShape[] {
  const trigger = (type: 'event' | 'schedule', event: string, shape: TSchema | undefined): TriggerShape => ({
    type,
    event,
    aliases: aliasesOf(event),
    paths: shape ? pathsOf(shape as JsonSchema) : [],
    any_path: shape === undefined,
    customer_path: type === 'event' ? defaultCustomerPath(event) : null,
  })
  shapes ??= [
    ...catalogEvents()
      .filter((event) => event !== RUN_EVENT)
      .map((event) => trigger('event', event, shapeOfEvent(event))),
    trigger('schedule', SCHEDULE_EVENT, ScheduleDataSchema),
  ]
  return shapes
}
