import { unwrap } from '@opentill/client'
import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useId, useState } from 'react'
import { api, fieldErrors } from '../api.ts'
import { Field, SelectField, TextAreaField } from '../parts/field.tsx'
import { ErrorNote } from '../parts/notes.tsx'
import { ProductPicker } from '../parts/product-picker.tsx'
import { useProductNames } from '../product-names.ts'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'
import {
  type ActionType,
  bodyOf,
  type Catalog,
  type CatalogTrigger,
  type Draft,
  draftProblems,
  opsFor,
  type RuleBody,
} from './automation-draft.ts'

const t = strings.automations

/** The fields the form shows for each kind of step, by the API's names (a wait's minutes are its seconds). */
const ACTION_FIELDS: Readonly<Record<ActionType, readonly string[]>> = {
  tag_customer: ['tag', 'customer_path'],
  accrue_points: ['points', 'customer_path', 'reason'],
  issue_voucher: ['campaign_id', 'customer_path'],
  adjust_inventory: ['product_id', 'location_id', 'quantity', 'reason'],
  send_webhook: ['webhook_id'],
  send_email: ['to', 'to_path', 'subject', 'text'],
  wait: ['seconds'],
}

/** The API's field names the form shows an error beside; any other error is shown above the button. */
function shownFields(draft: Draft): Set<string> {
  return new Set([
    'name',
    'trigger.event',
    'trigger.cron',
    'trigger.location_id',
    'actions',
    ...draft.conditions.flatMap((_, i) => ['path', 'op', 'value'].map((f) => `conditions.rules.${i}.${f}`)),
    ...draft.actions.flatMap((a, i) => ['type', ...ACTION_FIELDS[a.type]].map((f) => `actions.${i}.${f}`)),
  ])
}

/** The automations catalog: what the signed-in person may build a rule of (it changes only with their scopes). */
export function useCatalog() {
  return useQuery({
    queryKey: ['automation-catalog'],
    queryFn: () => unwrap(api().GET('/api/v1/automations/catalog')),
    staleTime: 10 * 60_000,
  })
}

/**
 * A rule built from the catalog: the events it can start on, the paths of their data a condition can test, and only
 * the actions the person may give it. The API's checks come back beside the field they concern.
 */
export function RuleForm({
  catalog,
  initial,
  submitLabel,
  busy,
  error,
  onSubmit,
}: {
  catalog: Catalog
  initial: Draft
  submitLabel: string
  busy: boolean
  error: unknown
  onSubmit: (body: RuleBody) => void
}): ReactNode {
  const shop = useShop()
  const [draft, setDraft] = useState(initial)
  const [problems, setProblems] = useState<Record<string, string>>({})
  const enabledId = useId()
  const errors = { ...fieldErrors(error), ...problems }
  const change = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }))
  const trigger = catalog.triggers.find((c) =>
    draft.triggerType === 'schedule'
      ? c.type === 'schedule'
      : c.event === draft.event || c.aliases.includes(draft.event),
  )
  const events = catalog.triggers.filter((c) => c.type === 'event')
  const shown = shownFields(draft)
  const elsewhere = Object.keys(errors).some((k) => !shown.has(k))
  return (
    <form
      className="panel"
      aria-label={submitLabel}
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        const found = draftProblems(draft, trigger)
        setProblems(found)
        if (Object.keys(found).length === 0) onSubmit(bodyOf(draft, trigger))
      }}
    >
      <Field
        label={t.name}
        name="name"
        value={draft.name}
        maxLength={200}
        error={errors.name}
        onChange={(e) => change({ name: e.target.value })}
      />
      <div className="check">
        <input
          id={enabledId}
          type="checkbox"
          checked={draft.enabled}
          onChange={(e) => change({ enabled: e.target.checked })}
        />
        <label htmlFor={enabledId}>{t.enabled}</label>
      </div>
      <fieldset>
        <legend>{t.when}</legend>
        <div className="choice">
          <label>
            <input
              type="radio"
              name="trigger-type"
              checked={draft.triggerType === 'event'}
              onChange={() => change({ triggerType: 'event', locationId: '' })}
            />{' '}
            {t.onEvent}
          </label>
          <label>
            <input
              type="radio"
              name="trigger-type"
              checked={draft.triggerType === 'schedule'}
              onChange={() => change({ triggerType: 'schedule', locationId: shop.locations[0]?.id ?? '' })}
            />{' '}
            {t.onSchedule}
          </label>
        </div>
        {draft.triggerType === 'event' ? (
          <>
            <SelectField
              label={t.event}
              value={draft.event}
              error={errors['trigger.event']}
              onChange={(e) => change({ event: e.target.value })}
            >
              {events.flatMap((c) =>
                // A rule saved under an event's other name keeps it (and its paths are the event's).
                [c.event, ...c.aliases.filter((alias) => alias === draft.event)].map((name) => (
                  <option key={name} value={name}>
                    {strings.common.eventWords(name)}
                  </option>
                )),
              )}
            </SelectField>
            <SelectField
              label={t.onlyAt}
              value={draft.locationId}
              error={errors['trigger.location_id']}
              onChange={(e) => change({ locationId: e.target.value })}
            >
              <option value="">{strings.common.everyLocation}</option>
              {shop.locations.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </SelectField>
          </>
        ) : (
          <>
            <Field
              label={t.cron}
              hint={t.cronHint}
              value={draft.cron}
              error={errors['trigger.cron']}
              onChange={(e) => change({ cron: e.target.value })}
            />
            <SelectField
              label={t.timeOf}
              value={draft.locationId}
              error={errors['trigger.location_id']}
              onChange={(e) => change({ locationId: e.target.value })}
            >
              {shop.locations.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name} ({l.timezone})
                </option>
              ))}
            </SelectField>
          </>
        )}
      </fieldset>
      <Conditions draft={draft} trigger={trigger} errors={errors} onChange={change} />
      <Actions draft={draft} catalog={catalog} trigger={trigger} errors={errors} onChange={change} />
      {errors.actions && (
        <p className="field-error" role="alert">
          {errors.actions}
        </p>
      )}
      {(elsewhere || Object.keys(errors).length === 0) && <ErrorNote error={error} />}
      {Object.keys(problems).length > 0 && (
        <p className="error" role="alert">
          {t.fixFirst}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  )
}

type Errors = Record<string, string>

function Conditions({
  draft,
  trigger,
  errors,
  onChange,
}: {
  draft: Draft
  trigger: CatalogTrigger | undefined
  errors: Errors
  onChange: (patch: Partial<Draft>) => void
}) {
  const set = (i: number, patch: Partial<Draft['conditions'][number]>) =>
    onChange({ conditions: draft.conditions.map((c, j) => (j === i ? { ...c, ...patch } : c)) })
  const paths = trigger?.paths ?? []
  // Another path keeps the test when it suits the path's kind of value; a yes-or-no starts at yes, as it shows.
  const withPath = (c: Draft['conditions'][number], path: string) => {
    const type = paths.find((p) => p.path === path)?.type
    const ops = opsFor(type)
    return {
      path,
      op: ops.includes(c.op) ? c.op : ops[0],
      value: type === 'boolean' && c.value !== 'false' ? 'true' : c.value,
    }
  }
  return (
    <fieldset>
      <legend>{t.onlyIf}</legend>
      {draft.conditions.length === 0 ? (
        <p className="muted">{t.always}</p>
      ) : (
        <SelectField
          label={t.match}
          value={draft.match}
          onChange={(e) => onChange({ match: e.target.value as Draft['match'] })}
        >
          <option value="all">{t.matchAll}</option>
          <option value="any">{t.matchAny}</option>
        </SelectField>
      )}
      {draft.conditions.map((c, i) => {
        const at = `conditions.rules.${i}`
        const n = i + 1
        const type = paths.find((p) => p.path === c.path)?.type
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a condition has no id; rows are added and removed by position
          <div key={i} className="panel">
            {trigger?.any_path ? (
              <Field
                label={t.conditionPath(n)}
                hint={t.anyPathHint}
                value={c.path}
                error={errors[`${at}.path`]}
                onChange={(e) => set(i, { path: e.target.value })}
              />
            ) : (
              <KeptChoice
                label={t.conditionPath(n)}
                value={c.path}
                error={errors[`${at}.path`]}
                options={paths.map((p) => ({ id: p.path, name: p.path }))}
                onChange={(path) => set(i, withPath(c, path))}
              />
            )}
            <SelectField
              label={t.conditionOp(n)}
              value={c.op}
              error={errors[`${at}.op`]}
              onChange={(e) => set(i, { op: e.target.value as Draft['conditions'][number]['op'] })}
            >
              {opsFor(type).map((op) => (
                <option key={op} value={op}>
                  {t.ops[op]}
                </option>
              ))}
            </SelectField>
            {c.op === 'exists' || type === 'boolean' ? (
              <SelectField
                label={t.conditionValue(n)}
                value={c.value === 'false' ? 'false' : 'true'}
                error={errors[`${at}.value`]}
                onChange={(e) => set(i, { value: e.target.value })}
              >
                <option value="true">{c.op === 'exists' ? t.present : t.yes}</option>
                <option value="false">{c.op === 'exists' ? t.absent : t.no}</option>
              </SelectField>
            ) : (
              <Field
                label={t.conditionValue(n)}
                hint={c.op === 'in' ? t.inHint : undefined}
                inputMode={type === 'number' && c.op !== 'in' ? 'decimal' : undefined}
                value={c.value}
                error={errors[`${at}.value`]}
                onChange={(e) => set(i, { value: e.target.value })}
              />
            )}
            <button type="button" onClick={() => onChange({ conditions: draft.conditions.filter((_, j) => j !== i) })}>
              {t.removeCondition(n)}
            </button>
          </div>
        )
      })}
      <button
        type="button"
        onClick={() =>
          onChange({
            conditions: [...draft.conditions, withPath({ path: '', op: 'eq', value: '' }, paths[0]?.path ?? '')],
          })
        }
      >
        {t.addCondition}
      </button>
    </fieldset>
  )
}

function Actions({
  draft,
  catalog,
  trigger,
  errors,
  onChange,
}: {
  draft: Draft
  catalog: Catalog
  trigger: CatalogTrigger | undefined
  errors: Errors
  onChange: (patch: Partial<Draft>) => void
}) {
  const allowed = trigger?.actions ?? []
  const set = (i: number, action: Draft['actions'][number]) =>
    onChange({ actions: draft.actions.map((a, j) => (j === i ? action : a)) })
  const move = (i: number, by: number) => {
    const next = [...draft.actions]
    const [moved] = next.splice(i, 1)
    next.splice(i + by, 0, moved)
    onChange({ actions: next })
  }
  return (
    <fieldset>
      <legend>{t.steps}</legend>
      {allowed.length < catalog.actions.length && <p className="muted">{t.someActionsNotYours}</p>}
      {draft.actions.map((a, i) => {
        const n = i + 1
        const types = allowed.includes(a.type) ? allowed : [a.type, ...allowed]
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: steps are ordered by position and have no id until saved
          <fieldset key={i} className="panel">
            <legend>{t.step(n)}</legend>
            <SelectField
              label={t.actionType(n)}
              value={a.type}
              error={errors[`actions.${i}.type`]}
              onChange={(e) => set(i, { type: e.target.value as ActionType, fields: {} })}
            >
              {types.map((type) => (
                <option key={type} value={type}>
                  {t.actionNames[type]}
                </option>
              ))}
            </SelectField>
            <small className="hint">{catalog.actions.find((c) => c.type === a.type)?.description}</small>
            <ActionFields
              n={n}
              action={a}
              trigger={trigger}
              errors={errors}
              at={`actions.${i}`}
              onChange={(fields) => set(i, { ...a, fields: { ...a.fields, ...fields } })}
            />
            <div className="actions">
              {i > 0 && (
                <button type="button" onClick={() => move(i, -1)}>
                  {t.moveUp(n)}
                </button>
              )}
              <button type="button" onClick={() => onChange({ actions: draft.actions.filter((_, j) => j !== i) })}>
                {t.removeAction(n)}
              </button>
            </div>
          </fieldset>
        )
      })}
      {allowed.length > 0 && (
        <button
          type="button"
          onClick={() => onChange({ actions: [...draft.actions, { type: allowed[0], fields: {} }] })}
        >
          {t.addAction}
        </button>
      )}
    </fieldset>
  )
}

/** The fields of one action, each named after its step so a screen reader tells the steps apart. */
function ActionFields({
  n,
  action,
  trigger,
  errors,
  at,
  onChange,
}: {
  n: number
  action: Draft['actions'][number]
  trigger: CatalogTrigger | undefined
  errors: Errors
  at: string
  onChange: (fields: Record<string, string>) => void
}) {
  const shop = useShop()
  const f = action.fields
  const input = (key: string, label: string, extra: { hint?: string; inputMode?: 'numeric' | 'decimal' } = {}) => (
    <Field
      label={t.fieldOf(n, label)}
      value={f[key] ?? ''}
      error={errors[`${at}.${key}`]}
      onChange={(e) => onChange({ [key]: e.target.value })}
      {...extra}
    />
  )
  const customer = (optional: boolean) => (
    <PathChoice
      label={t.fieldOf(n, t.customerPath)}
      value={f.customer_path ?? ''}
      trigger={trigger}
      emptyLabel={optional && trigger?.customer_path ? t.eventsCustomer(trigger.customer_path) : t.choose}
      error={errors[`${at}.customer_path`]}
      onChange={(customer_path) => onChange({ customer_path })}
    />
  )
  switch (action.type) {
    case 'tag_customer':
      return (
        <>
          {input('tag', t.tag)}
          {customer(true)}
        </>
      )
    case 'accrue_points':
      return (
        <>
          {input('points', t.points, { inputMode: 'numeric' })}
          {customer(false)}
          {input('reason', t.reason)}
        </>
      )
    case 'issue_voucher':
      return (
        <>
          <CampaignChoice
            label={t.fieldOf(n, t.campaign)}
            value={f.campaign_id ?? ''}
            error={errors[`${at}.campaign_id`]}
            onChange={(campaign_id) => onChange({ campaign_id })}
          />
          {customer(false)}
        </>
      )
    case 'adjust_inventory':
      return (
        <>
          <ProductChoice n={n} productId={f.product_id} error={errors[`${at}.product_id`]} onChange={onChange} />
          <SelectField
            label={t.fieldOf(n, strings.common.location)}
            value={f.location_id ?? ''}
            error={errors[`${at}.location_id`]}
            onChange={(e) => onChange({ location_id: e.target.value })}
          >
            <option value="">{t.choose}</option>
            {shop.locations.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </SelectField>
          {input('quantity', t.quantity, { hint: t.quantityHint, inputMode: 'numeric' })}
          <SelectField
            label={t.fieldOf(n, t.reason)}
            value={f.reason || 'correction'}
            error={errors[`${at}.reason`]}
            onChange={(e) => onChange({ reason: e.target.value })}
          >
            {Object.entries(t.stockReasons).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </SelectField>
        </>
      )
    case 'send_webhook':
      return (
        <WebhookChoice
          label={t.fieldOf(n, t.webhook)}
          value={f.webhook_id ?? ''}
          error={errors[`${at}.webhook_id`]}
          onChange={(webhook_id) => onChange({ webhook_id })}
        />
      )
    case 'send_email':
      return (
        <>
          {input('to', t.emailTo, { hint: t.emailToHint })}
          {!f.to && (
            <PathChoice
              label={t.fieldOf(n, t.emailToPath)}
              value={f.to_path ?? ''}
              trigger={trigger}
              emptyLabel={t.choose}
              error={errors[`${at}.to_path`]}
              onChange={(to_path) => onChange({ to_path })}
            />
          )}
          {input('subject', t.subject)}
          <TextAreaField
            label={t.fieldOf(n, t.body)}
            hint={t.bodyHint}
            rows={4}
            value={f.text ?? ''}
            error={errors[`${at}.text`]}
            onChange={(e) => onChange({ text: e.target.value })}
          />
        </>
      )
    case 'wait':
      return (
        <Field
          label={t.fieldOf(n, t.minutes)}
          inputMode="decimal"
          value={f.minutes ?? ''}
          error={errors[`${at}.seconds`]}
          onChange={(e) => onChange({ minutes: e.target.value })}
        />
      )
  }
}

/** A path of the trigger's data that names a text (a customer id, an e-mail address). */
function PathChoice({
  label,
  value,
  trigger,
  emptyLabel,
  error,
  onChange,
}: {
  label: string
  value: string
  trigger: CatalogTrigger | undefined
  emptyLabel: string
  error?: string
  onChange: (path: string) => void
}) {
  if (trigger?.any_path)
    return <Field label={label} value={value} error={error} onChange={(e) => onChange(e.target.value)} />
  const texts = (trigger?.paths ?? []).filter((p) => p.type === 'string')
  return (
    <KeptChoice
      label={label}
      value={value}
      error={error}
      emptyLabel={emptyLabel}
      options={texts.map((p) => ({ id: p.path, name: p.path }))}
      onChange={onChange}
    />
  )
}

/**
 * A choice among `options` (a path, a campaign, a webhook) that keeps showing a saved value they no longer offer
 * (a campaign ended or past the first page, a path of another trigger), so saving again keeps it.
 */
function KeptChoice(props: {
  label: string
  value: string
  error?: string
  options: readonly { id: string; name: string }[]
  emptyLabel?: string
  onChange: (id: string) => void
}) {
  return (
    <SelectField
      label={props.label}
      value={props.value}
      error={props.error}
      onChange={(e) => props.onChange(e.target.value)}
    >
      <option value="">{props.emptyLabel ?? t.choose}</option>
      {props.value && !props.options.some((o) => o.id === props.value) && (
        <option value={props.value}>{props.value}</option>
      )}
      {props.options.map((o) => (
        <option key={o.id} value={o.id}>
          {o.name}
        </option>
      ))}
    </SelectField>
  )
}

type Choice = { label: string; value: string; error?: string; onChange: (id: string) => void }

function CampaignChoice(props: Choice) {
  const campaigns = useQuery({
    queryKey: ['campaigns', 'choice'],
    queryFn: () => unwrap(api().GET('/api/v1/campaigns', { params: { query: { limit: 100 } } })),
  })
  const open = (campaigns.data?.data ?? []).filter((c) => c.status !== 'ended')
  return <KeptChoice {...props} options={open} />
}

function WebhookChoice(props: Choice) {
  const endpoints = useQuery({
    queryKey: ['webhook-endpoints', 'choice'],
    queryFn: () => unwrap(api().GET('/api/v1/webhooks/endpoints', { params: { query: { limit: 100 } } })),
  })
  const options = (endpoints.data?.data ?? []).map((e) => ({ id: e.id, name: e.description || e.url }))
  return <KeptChoice {...props} options={options} />
}

function ProductChoice({
  n,
  productId,
  error,
  onChange,
}: {
  n: number
  productId: string | undefined
  error?: string
  onChange: (fields: Record<string, string>) => void
}) {
  const names = useProductNames(productId ? [productId] : [])
  return (
    <>
      <ProductPicker label={t.fieldOf(n, t.item)} onPick={(p) => onChange({ product_id: p.id })} />
      <p className={error ? 'field-error' : 'muted'} role={error ? 'alert' : undefined}>
        {productId ? t.chosenItem(names[productId] ?? productId) : t.noItem}
        {error && ` ${error}`}
      </p>
    </>
  )
}
