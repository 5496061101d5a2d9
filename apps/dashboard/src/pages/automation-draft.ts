import type { components, operations } from '@opentill/client'
import { numberOf } from '../api.ts'

/** A rule as the API takes it, and the pieces of it the form edits. */
export type RuleBody = operations['createAutomation']['requestBody']['content']['application/json']
export type Automation = components['schemas']['Automation']
export type Catalog = components['schemas']['AutomationCatalog']
export type CatalogTrigger = Catalog['triggers'][number]
export type ActionType = Catalog['actions'][number]['type']
type Condition = NonNullable<RuleBody['conditions']>['rules'][number]
export type Op = Condition['op']
type Action = RuleBody['actions'][number]

const OPS: Op[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'contains', 'exists']

/** The operators that make sense for a value of this kind (a list is tested with contains, or for its presence). */
export function opsFor(type: string | undefined): Op[] {
  if (type === 'list') return ['contains', 'exists']
  if (type === 'boolean') return ['eq', 'ne', 'exists']
  if (type === 'string') return ['eq', 'ne', 'in', 'contains', 'exists', 'gt', 'gte', 'lt', 'lte']
  return OPS
}

/** The form's state: every value as the text of its input, turned into the API's body on saving. */
export interface Draft {
  name: string
  enabled: boolean
  triggerType: 'event' | 'schedule'
  event: string
  locationId: string
  cron: string
  match: 'all' | 'any'
  conditions: { path: string; op: Op; value: string }[]
  actions: { type: ActionType; fields: Record<string, string> }[]
}

export const emptyDraft = (): Draft => ({
  name: '',
  enabled: true,
  triggerType: 'event',
  event: 'order.completed',
  locationId: '',
  cron: '0 9 * * *',
  match: 'all',
  conditions: [],
  actions: [],
})

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value))

export function draftOf(rule: Automation): Draft {
  const { trigger } = rule
  return {
    name: rule.name,
    enabled: rule.enabled,
    triggerType: trigger.type,
    event: trigger.type === 'event' ? trigger.event : 'order.completed',
    locationId: trigger.location_id ?? '',
    cron: trigger.type === 'schedule' ? trigger.cron : '0 9 * * *',
    match: rule.conditions.match,
    conditions: rule.conditions.rules.map((c) => ({
      path: c.path,
      op: c.op,
      value: Array.isArray(c.value) ? c.value.map(text).join(', ') : text(c.value),
    })),
    actions: rule.actions.map((a) => {
      const { type, ...fields } = a
      const texts = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, text(v)]))
      // A wait is shown in minutes (to the hundredth, which rounds back to the same seconds); the API counts seconds.
      if (a.type === 'wait') return { type, fields: { minutes: text(Math.round((a.seconds / 60) * 100) / 100) } }
      return { type, fields: texts }
    }),
  }
}

const NUMBER = /^-?\d+([.,]\d+)?$/

/**
 * One operand as the path's kind takes it: a number for a number, true or false for a yes-or-no. A path of data
 * with no fixed shape takes what the text looks like, as the API compares numbers only with numbers.
 */
function operand(value: string, type: string | undefined): unknown {
  if (type === 'number') return numberOf(value)
  if (type === 'boolean') return value !== 'false'
  if (type === undefined && NUMBER.test(value.trim())) return numberOf(value)
  if (type === undefined && (value === 'true' || value === 'false')) return value === 'true'
  return value
}

/**
 * What the form can tell before sending: a number a number path cannot take. (JSON has no NaN: sent, it would be
 * null, which `is` accepts as an operand.) Keyed as the API keys its field errors.
 */
export function draftProblems(draft: Draft, trigger: CatalogTrigger | undefined): Record<string, string> {
  const problems: Record<string, string> = {}
  draft.conditions.forEach((c, i) => {
    const type = trigger?.paths.find((p) => p.path === c.path)?.type
    if (type !== 'number' || c.op === 'exists') return
    const values = c.op === 'in' ? c.value.split(',').map((v) => v.trim()) : [c.value.trim()]
    if (values.some((v) => !NUMBER.test(v))) problems[`conditions.rules.${i}.value`] = 'must be a number'
  })
  return problems
}

function conditionOf(c: Draft['conditions'][number], type: string | undefined): Condition {
  if (c.op === 'exists') return { path: c.path, op: c.op, value: c.value !== 'false' }
  if (c.op === 'in')
    return {
      path: c.path,
      op: c.op,
      value: c.value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
        .map((v) => operand(v, type)),
    }
  return { path: c.path, op: c.op, value: operand(c.value, type === 'list' ? 'string' : type) }
}

/** An optional text field: left out when empty, so the API's default applies. */
const optional = (key: string, value: string | undefined) => (value ? { [key]: value } : {})

function actionOf({ type, fields: f }: Draft['actions'][number]): Action {
  switch (type) {
    case 'tag_customer':
      return { type, tag: f.tag ?? '', ...optional('customer_path', f.customer_path) }
    case 'accrue_points':
      return { type, points: numberOf(f.points ?? ''), customer_path: f.customer_path ?? '', reason: f.reason ?? '' }
    case 'issue_voucher':
      return { type, campaign_id: f.campaign_id ?? '', customer_path: f.customer_path ?? '' }
    case 'adjust_inventory':
      return {
        type,
        product_id: f.product_id ?? '',
        ...optional('variant_id', f.variant_id),
        location_id: f.location_id ?? '',
        quantity: numberOf(f.quantity ?? ''),
        reason: (f.reason || 'correction') as 'correction',
      }
    case 'send_webhook':
      return { type, webhook_id: f.webhook_id ?? '' }
    case 'send_email':
      return {
        type,
        ...optional('to', f.to),
        ...optional('to_path', f.to ? undefined : f.to_path),
        subject: f.subject ?? '',
        text: f.text ?? '',
      }
    case 'wait':
      return { type, seconds: Math.round(numberOf(f.minutes ?? '') * 60) }
  }
}

/** The API's body of the form's rule; the trigger's paths tell each condition's operand its kind. */
export function bodyOf(draft: Draft, trigger: CatalogTrigger | undefined): RuleBody {
  const typeOf = (path: string) => trigger?.paths.find((p) => p.path === path)?.type
  return {
    name: draft.name.trim(),
    enabled: draft.enabled,
    trigger:
      draft.triggerType === 'event'
        ? { type: 'event', event: draft.event, ...optional('location_id', draft.locationId) }
        : { type: 'schedule', cron: draft.cron.trim(), location_id: draft.locationId },
    conditions: { match: draft.match, rules: draft.conditions.map((c) => conditionOf(c, typeOf(c.path))) },
    actions: draft.actions.map(actionOf),
  }
}

/** Sample data in the shape of a trigger's data, to try a rule against: every path with a value of its kind. */
export function sampleData(trigger: CatalogTrigger | undefined): Record<string, unknown> {
  const sample: Record<string, unknown> = {}
  for (const { path, type } of trigger?.paths ?? []) {
    const value = type === 'number' ? 0 : type === 'boolean' ? false : type === 'list' ? [] : ''
    let node: Record<string, unknown> | unknown[] = sample
    const segments = path.split('.')
    segments.forEach((segment, i) => {
      const last = i === segments.length - 1
      const key = segment === '*' ? 0 : segment
      const next = segments[i + 1] === '*' ? [] : {}
      const container = node as Record<string | number, unknown>
      if (last) container[key] = value
      else {
        container[key] ??= next
        node = container[key] as Record<string, unknown>
      }
    })
  }
  return sample
}
