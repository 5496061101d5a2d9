import { type components, type operations, sum, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate, useParams } from '@tanstack/react-router'
import { stringify } from 'csv-stringify/browser/esm/sync'
import { type ReactNode, useEffect, useState } from 'react'
import { api, fieldErrors, numberOf } from '../api.ts'
import { BarChart } from '../parts/bar-chart.tsx'
import { Confirm } from '../parts/confirm.tsx'
import { downloadCsv } from '../parts/download.ts'
import { Field, SelectField } from '../parts/field.tsx'
import { DoneNote, ErrorNote } from '../parts/notes.tsx'
import { ProductPicker } from '../parts/product-picker.tsx'
import { Title } from '../parts/title.tsx'
import { useProductNames } from '../product-names.ts'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'
import type { Campaign } from './campaigns.tsx'

const t = strings.campaigns
type Body = operations['createCampaign']['requestBody']['content']['application/json']
type Rule = Body['rules'][number]
type RuleType = Rule['type']
const RULE_TYPES: RuleType[] = [
  'percentage',
  'fixed_amount',
  'buy_x_get_y',
  'multi_buy',
  'free_item',
  'points_multiplier',
]
const DAYS = [1, 2, 3, 4, 5, 6, 7] as const

/** A campaign: made or edited by its rule and conditions, started, paused or ended, previewed, its vouchers and results. */
export function CampaignPage(): ReactNode {
  const { campaignId } = useParams({ from: '/campaigns/$campaignId' })
  const campaign = useQuery({
    queryKey: ['campaign', campaignId],
    queryFn: () => unwrap(api().GET('/api/v1/campaigns/{id}', { params: { path: { id: campaignId } } })),
    enabled: campaignId !== 'new',
  })
  if (campaignId === 'new')
    return (
      <>
        <Title text={t.newTitle} />
        <Editor />
      </>
    )
  if (campaign.error) return <ErrorNote error={campaign.error} />
  if (!campaign.data) return <p aria-busy="true">{strings.common.loading}</p>
  const c = campaign.data.data
  return (
    <>
      <Title text={c.name}>
        <span className={`status status-${c.status}`}>{t.statuses[c.status]}</span>
      </Title>
      <StatusActions campaign={c} />
      <Preview campaign={c} />
      <Editor campaign={c} />
      <Vouchers campaign={c} />
      <Stats campaign={c} />
      <p>
        <Link to="/campaigns">{t.back}</Link>
      </p>
    </>
  )
}

const listOf = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

/** The editable rule's fields from the form (the campaign's other rules are kept as they are). */
function ruleOf(form: FormData, type: RuleType, freeItem: string | null, id?: string): Rule {
  const n = (name: string) => numberOf(String(form.get(name) ?? ''))
  const target = String(form.get('target') ?? 'order') as 'order' | 'line'
  const base = id ? { id } : {}
  switch (type) {
    case 'percentage':
      return { ...base, type, percent: n('percent'), target }
    case 'fixed_amount':
      return { ...base, type, amount: n('amount'), target }
    case 'buy_x_get_y':
      return {
        ...base,
        type,
        buy_quantity: n('buy_quantity'),
        get_quantity: n('get_quantity'),
        get_percent: n('get_percent'),
      }
    case 'multi_buy':
      return { ...base, type, quantity: n('quantity'), price: n('price') }
    case 'free_item':
      return { ...base, type, product_id: freeItem ?? '', quantity: n('free_quantity') }
    case 'points_multiplier':
      return { ...base, type, multiplier: n('multiplier') }
  }
}

function Editor({ campaign }: { campaign?: Campaign }) {
  const shop = useShop()
  const queries = useQueryClient()
  const navigate = useNavigate()
  const [done, setDone] = useState('')
  const first = campaign?.rules[0] as (Rule & Record<string, unknown>) | undefined
  const [type, setType] = useState<RuleType>(first?.type ?? 'percentage')
  const [items, setItems] = useState<string[]>(campaign?.conditions?.product_ids ?? [])
  const [freeItem, setFreeItem] = useState<string | null>((first?.product_id as string | undefined) ?? null)
  // A newer version (saved here or by someone else) replaces what is being edited, so it is never saved over.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the version says when the campaign changed
  useEffect(() => {
    setType(first?.type ?? 'percentage')
    setItems(campaign?.conditions?.product_ids ?? [])
    setFreeItem((first?.product_id as string | undefined) ?? null)
  }, [campaign?.version])
  const names = useProductNames([...items, ...(freeItem ? [freeItem] : [])])
  const save = useMutation({
    mutationFn: (form: FormData) => {
      const text = (name: string) => String(form.get(name) ?? '').trim()
      const optional = (name: string) => (text(name) === '' ? undefined : numberOf(text(name)))
      const days = DAYS.filter((d) => form.get(`day-${d}`) === 'on')
      const locations = shop.locations.filter((l) => form.get(`location-${l.id}`) === 'on').map((l) => l.id)
      // The conditions the form edits, over the ones it does not (categories; locations with one location).
      const kept: Record<string, unknown> = { ...(campaign?.conditions ?? {}) }
      const edited = [
        'product_ids',
        'min_spend',
        'min_quantity',
        'customer_tiers',
        'customer_tags',
        'days_of_week',
        'hours',
      ]
      for (const key of [...edited, ...(shop.locations.length > 1 ? ['location_ids'] : [])]) delete kept[key]
      const conditions = {
        ...kept,
        ...(items.length ? { product_ids: items } : {}),
        ...(optional('min_spend') !== undefined ? { min_spend: optional('min_spend') } : {}),
        ...(optional('min_quantity') !== undefined ? { min_quantity: optional('min_quantity') } : {}),
        ...(listOf(text('customer_tiers')).length ? { customer_tiers: listOf(text('customer_tiers')) } : {}),
        ...(listOf(text('customer_tags')).length ? { customer_tags: listOf(text('customer_tags')) } : {}),
        ...(locations.length ? { location_ids: locations } : {}),
        ...(days.length && days.length < 7 ? { days_of_week: days } : {}),
        ...(text('hours_from') || text('hours_to')
          ? { hours: { from: text('hours_from'), to: text('hours_to') } }
          : {}),
      }
      const when = (name: string) => (text(name) ? new Date(text(name)).toISOString() : null)
      const body = {
        name: text('name'),
        description: text('description'),
        rules: [ruleOf(form, type, freeItem, first?.id as string | undefined), ...(campaign?.rules.slice(1) ?? [])],
        conditions,
        requires_voucher: form.get('requires_voucher') === 'on',
        usage_limit: optional('usage_limit') ?? null,
        per_customer_limit: optional('per_customer_limit') ?? null,
        stacking: text('stacking') as 'exclusive' | 'stackable',
        priority: optional('priority') ?? 0,
        starts_at: when('starts_at'),
        ends_at: when('ends_at'),
      }
      return campaign
        ? unwrap(
            api().PATCH('/api/v1/campaigns/{id}', {
              params: { path: { id: campaign.id } },
              body: { ...body, version: campaign.version } as never,
            }),
          )
        : unwrap(
            api().POST('/api/v1/campaigns', {
              body: { ...body, status: text('status') as 'draft' | 'active' | 'scheduled' } as never,
            }),
          )
    },
    onSuccess: (answer) => {
      queries.invalidateQueries({ queryKey: ['campaigns'] })
      if (campaign) {
        queries.setQueryData(['campaign', campaign.id], answer)
        setDone(t.saved)
      } else navigate({ to: '/campaigns/$campaignId', params: { campaignId: answer.data.id } })
    },
  })
  const errors = fieldErrors(save.error)
  const ruleError = (field: string) => errors[`rules.0.${field}`]
  // A date-time field shows and takes the browser's local time.
  const local = (iso: string | null | undefined) => {
    if (!iso) return ''
    const d = new Date(iso)
    const two = (n: number) => String(n).padStart(2, '0')
    return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`
  }
  const c = campaign?.conditions
  return (
    <section aria-labelledby="editor-h">
      <h2 id="editor-h">{campaign ? t.edit : t.setUp}</h2>
      {done && <DoneNote>{done}</DoneNote>}
      <form
        key={campaign?.version ?? 'new'}
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          setDone('')
          save.mutate(new FormData(e.currentTarget))
        }}
      >
        <fieldset disabled={!shop.can('campaigns:write')}>
          <legend className="visually-hidden">{t.edit}</legend>
          <Field label={t.name} name="name" defaultValue={campaign?.name} maxLength={200} error={errors.name} />
          <Field
            label={t.description}
            name="description"
            defaultValue={campaign?.description ?? ''}
            error={errors.description}
          />
          <fieldset>
            <legend>{t.what}</legend>
            <SelectField label={t.rule} value={type} onChange={(e) => setType(e.target.value as RuleType)}>
              {RULE_TYPES.map((r) => (
                <option key={r} value={r}>
                  {t.ruleTypes[r]}
                </option>
              ))}
            </SelectField>
            {type === 'percentage' && (
              <Field
                label={t.percent}
                name="percent"
                inputMode="decimal"
                defaultValue={String(first?.percent ?? '')}
                error={ruleError('percent')}
              />
            )}
            {type === 'fixed_amount' && (
              <Field
                label={t.amount(shop.currency)}
                name="amount"
                inputMode="decimal"
                defaultValue={String(first?.amount ?? '')}
                error={ruleError('amount')}
              />
            )}
            {(type === 'percentage' || type === 'fixed_amount') && (
              <SelectField label={t.target} name="target" defaultValue={String(first?.target ?? 'order')}>
                <option value="order">{t.targets.order}</option>
                <option value="line">{t.targets.line}</option>
              </SelectField>
            )}
            {type === 'buy_x_get_y' && (
              <>
                <Field
                  label={t.buy}
                  name="buy_quantity"
                  inputMode="numeric"
                  defaultValue={String(first?.buy_quantity ?? 2)}
                  error={ruleError('buy_quantity')}
                />
                <Field
                  label={t.get}
                  name="get_quantity"
                  inputMode="numeric"
                  defaultValue={String(first?.get_quantity ?? 1)}
                  error={ruleError('get_quantity')}
                />
                <Field
                  label={t.getPercent}
                  name="get_percent"
                  inputMode="decimal"
                  defaultValue={String(first?.get_percent ?? 100)}
                  error={ruleError('get_percent')}
                />
              </>
            )}
            {type === 'multi_buy' && (
              <>
                <Field
                  label={t.multiQuantity}
                  name="quantity"
                  inputMode="numeric"
                  defaultValue={String(first?.quantity ?? 3)}
                  error={ruleError('quantity')}
                />
                <Field
                  label={t.multiPrice(shop.currency)}
                  name="price"
                  inputMode="decimal"
                  defaultValue={String(first?.price ?? '')}
                  error={ruleError('price')}
                />
              </>
            )}
            {type === 'free_item' && (
              <>
                <ProductPicker label={t.freeItem} onPick={(p) => setFreeItem(p.id)} />
                <p>{freeItem ? t.freeItemIs(names[freeItem] ?? freeItem) : t.noFreeItem}</p>
                {ruleError('product_id') && (
                  <small className="field-error" role="alert">
                    {ruleError('product_id')}
                  </small>
                )}
                <Field
                  label={t.freeQuantity}
                  name="free_quantity"
                  inputMode="numeric"
                  defaultValue={String(first?.quantity ?? 1)}
                  error={ruleError('quantity')}
                />
              </>
            )}
            {type === 'points_multiplier' && (
              <Field
                label={t.multiplier}
                name="multiplier"
                inputMode="decimal"
                defaultValue={String(first?.multiplier ?? 2)}
                error={ruleError('multiplier')}
              />
            )}
          </fieldset>
          <fieldset>
            <legend>{t.when}</legend>
            <ProductPicker
              label={t.onlyItems}
              onPick={(p) => setItems((list) => (list.includes(p.id) ? list : [...list, p.id]))}
            />
            {items.length > 0 && (
              <ul className="plain">
                {items.map((id) => (
                  <li key={id} className="row">
                    {names[id] ?? id}
                    <button type="button" onClick={() => setItems((list) => list.filter((x) => x !== id))}>
                      {t.removeItem(names[id] ?? id)}
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <Field
              label={t.minSpend(shop.currency)}
              name="min_spend"
              inputMode="decimal"
              defaultValue={c?.min_spend === undefined ? '' : String(c.min_spend)}
              error={errors['conditions.min_spend']}
            />
            <Field
              label={t.minQuantity}
              name="min_quantity"
              inputMode="numeric"
              defaultValue={c?.min_quantity === undefined ? '' : String(c.min_quantity)}
              error={errors['conditions.min_quantity']}
            />
            <Field
              label={t.tiers}
              name="customer_tiers"
              hint={t.commas}
              defaultValue={c?.customer_tiers?.join(', ') ?? ''}
            />
            <Field
              label={t.tags}
              name="customer_tags"
              hint={t.commas}
              defaultValue={c?.customer_tags?.join(', ') ?? ''}
            />
            {shop.locations.length > 1 && (
              <fieldset>
                <legend>{t.locations}</legend>
                {shop.locations.map((l) => (
                  <label key={l.id} className="choice">
                    <input type="checkbox" name={`location-${l.id}`} defaultChecked={c?.location_ids?.includes(l.id)} />
                    {l.name}
                  </label>
                ))}
              </fieldset>
            )}
            <fieldset>
              <legend>{t.days}</legend>
              <div className="days">
                {DAYS.map((d) => (
                  <label key={d} className="choice">
                    <input
                      type="checkbox"
                      name={`day-${d}`}
                      defaultChecked={!c?.days_of_week || c.days_of_week.includes(d)}
                    />
                    {t.dayNames[d - 1]}
                  </label>
                ))}
              </div>
            </fieldset>
            <div className="inline">
              <Field
                label={t.hoursFrom}
                name="hours_from"
                type="time"
                defaultValue={c?.hours?.from ?? ''}
                error={errors['conditions.hours.from']}
              />
              <Field
                label={t.hoursTo}
                name="hours_to"
                type="time"
                defaultValue={c?.hours?.to ?? ''}
                error={errors['conditions.hours.to']}
              />
            </div>
            <div className="inline">
              <Field
                label={t.starts}
                name="starts_at"
                type="datetime-local"
                defaultValue={local(campaign?.starts_at)}
                error={errors.starts_at}
              />
              <Field
                label={t.ends}
                name="ends_at"
                type="datetime-local"
                defaultValue={local(campaign?.ends_at)}
                error={errors.ends_at}
              />
            </div>
          </fieldset>
          <fieldset>
            <legend>{t.limits}</legend>
            <div className="check">
              <input
                id="requires-voucher"
                name="requires_voucher"
                type="checkbox"
                defaultChecked={campaign?.requires_voucher}
              />
              <label htmlFor="requires-voucher">{t.requiresVoucher}</label>
            </div>
            <Field
              label={t.usageLimit}
              name="usage_limit"
              inputMode="numeric"
              defaultValue={campaign?.usage_limit == null ? '' : String(campaign.usage_limit)}
              error={errors.usage_limit}
            />
            <Field
              label={t.perCustomer}
              name="per_customer_limit"
              inputMode="numeric"
              defaultValue={campaign?.per_customer_limit == null ? '' : String(campaign.per_customer_limit)}
              error={errors.per_customer_limit}
            />
            <SelectField label={t.stacking} name="stacking" defaultValue={campaign?.stacking ?? 'exclusive'}>
              <option value="exclusive">{t.exclusive}</option>
              <option value="stackable">{t.stackable}</option>
            </SelectField>
            <Field
              label={t.priority}
              name="priority"
              inputMode="numeric"
              hint={t.priorityHint}
              defaultValue={String(campaign?.priority ?? 0)}
              error={errors.priority}
            />
            {!campaign && (
              <SelectField label={t.startAs} name="status" defaultValue="draft">
                <option value="draft">{t.statuses.draft}</option>
                <option value="active">{t.startNow}</option>
                <option value="scheduled">{t.statuses.scheduled}</option>
              </SelectField>
            )}
          </fieldset>
          {Object.keys(errors).length > 0 ? (
            <p className="error" role="alert">
              {t.fix}
            </p>
          ) : (
            <ErrorNote error={save.error} />
          )}
          <button type="submit" className="primary" disabled={save.isPending}>
            {campaign ? t.save : t.create}
          </button>
        </fieldset>
      </form>
    </section>
  )
}

/** The moves of a campaign's state: start, pause, resume, end (asking first). */
function StatusActions({ campaign }: { campaign: Campaign }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [ending, setEnding] = useState(false)
  const move = useMutation({
    mutationFn: (status: Campaign['status']) =>
      unwrap(
        api().PATCH('/api/v1/campaigns/{id}', {
          params: { path: { id: campaign.id } },
          body: { status, version: campaign.version },
        }),
      ),
    onSuccess: (answer) => {
      setEnding(false)
      queries.setQueryData(['campaign', campaign.id], answer)
      queries.invalidateQueries({ queryKey: ['campaigns'] })
    },
  })
  if (!shop.can('campaigns:write') || campaign.status === 'ended') return null
  return (
    <div className="actions">
      {(campaign.status === 'draft' || campaign.status === 'paused' || campaign.status === 'scheduled') && (
        <button type="button" className="primary" onClick={() => move.mutate('active')} disabled={move.isPending}>
          {campaign.status === 'paused' ? t.resume : t.start}
        </button>
      )}
      {(campaign.status === 'active' || campaign.status === 'scheduled') && (
        <button type="button" onClick={() => move.mutate('paused')} disabled={move.isPending}>
          {t.pause}
        </button>
      )}
      <button type="button" className="danger" onClick={() => setEnding(true)}>
        {t.end}
      </button>
      {!ending && <ErrorNote error={move.error} />}
      <Confirm
        open={ending}
        title={t.endTitle(campaign.name)}
        action={t.end}
        busy={move.isPending}
        onConfirm={() => move.mutate('ended')}
        onCancel={() => setEnding(false)}
      >
        <p>{t.endWhat}</p>
        <ErrorNote error={move.error} />
      </Confirm>
    </div>
  )
}

/** What a sample basket would get now, through `calculate`: this campaign's discount, or why it does not apply. */
function Preview({ campaign }: { campaign: Campaign }) {
  const shop = useShop()
  const [locationId, setLocationId] = useState(shop.locations[0]?.id ?? '')
  const [lines, setLines] = useState<{ id: string; name: string; quantity: number }[]>([])
  const [voucher, setVoucher] = useState('')
  const quote = useQuery({
    queryKey: ['campaign-preview', campaign.id, campaign.version, locationId, lines, voucher],
    queryFn: () =>
      unwrap(
        api().POST('/api/v1/orders/calculate', {
          params: { query: { explain: 'all' } },
          body: {
            location_id: locationId,
            lines: lines.map((l) => ({ product_id: l.id, quantity: l.quantity })),
            voucher_codes: voucher.trim() ? [voucher.trim()] : undefined,
          },
        }),
      ),
    enabled: lines.length > 0 && locationId !== '',
  })
  const mine = quote.data?.data.campaigns.applied.filter((a) => a.campaign_id === campaign.id) ?? []
  const why = quote.data?.data.campaigns.not_applied.find((n) => n.campaign_id === campaign.id)
  return (
    <section aria-labelledby="preview-h" className="panel">
      <h2 id="preview-h">{t.preview}</h2>
      <p className="muted">{t.previewHelp}</p>
      {shop.locations.length > 1 && (
        <SelectField label={strings.common.location} value={locationId} onChange={(e) => setLocationId(e.target.value)}>
          {shop.locations.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </SelectField>
      )}
      <ProductPicker
        label={t.sampleItem}
        onPick={(p) =>
          setLines((list) =>
            list.some((l) => l.id === p.id)
              ? list.map((l) => (l.id === p.id ? { ...l, quantity: l.quantity + 1 } : l))
              : [...list, { id: p.id, name: p.name, quantity: 1 }],
          )
        }
      />
      {lines.length > 0 && (
        <ul className="plain">
          {lines.map((l) => (
            <li key={l.id} className="row">
              <span>
                {l.quantity} × {l.name}
              </span>
              <button type="button" onClick={() => setLines((list) => list.filter((x) => x.id !== l.id))}>
                {t.removeItem(l.name)}
              </button>
            </li>
          ))}
        </ul>
      )}
      {campaign.requires_voucher && (
        <Field label={t.sampleVoucher} value={voucher} onChange={(e) => setVoucher(e.target.value)} />
      )}
      <ErrorNote error={quote.error} />
      {quote.data && (
        <div role="status">
          {mine.length > 0 ? (
            <p>
              <strong>
                {t.previewGets(
                  shop.fmt.money(
                    sum(
                      mine.map((a) => a.amount),
                      shop.currency,
                    ),
                  ),
                )}
              </strong>{' '}
              {t.previewTotal(shop.fmt.money(quote.data.data.total))}
            </p>
          ) : (
            <p>{why ? t.previewWhyNot(why.reason) : t.previewNot}</p>
          )}
        </div>
      )}
    </section>
  )
}

function Vouchers({ campaign }: { campaign: Campaign }) {
  const shop = useShop()
  const queries = useQueryClient()
  // Every voucher, page after page: a campaign may have thousands, all of them counted and exported.
  const vouchers = useQuery({
    queryKey: ['vouchers', campaign.id],
    queryFn: async () => {
      const all: components['schemas']['Voucher'][] = []
      let cursor: string | undefined
      do {
        const page = await unwrap(
          api().GET('/api/v1/campaigns/{id}/vouchers', {
            params: { path: { id: campaign.id }, query: { limit: 200, cursor } },
          }),
        )
        all.push(...page.data)
        cursor = page.pagination.nextCursor ?? undefined
      } while (cursor)
      return { data: all }
    },
  })
  const make = useMutation({
    mutationFn: (form: FormData) => {
      const code = String(form.get('code') ?? '').trim()
      const count = String(form.get('count') ?? '').trim()
      return unwrap(
        api().POST('/api/v1/campaigns/{id}/vouchers', {
          params: { path: { id: campaign.id } },
          body: code ? { code } : { count: numberOf(count || '1') },
        }),
      )
    },
    onSuccess: () => queries.invalidateQueries({ queryKey: ['vouchers', campaign.id] }),
  })
  const exportCodes = () => {
    const text = stringify(
      (vouchers.data?.data ?? []).map((v) => ({ code: v.code, uses: v.uses, max_uses: v.max_uses ?? '' })),
      { header: true, columns: ['code', 'uses', 'max_uses'], escape_formulas: true },
    )
    downloadCsv(text, `vouchers-${campaign.id}.csv`)
  }
  const errors = fieldErrors(make.error)
  if (!campaign.requires_voucher) return null
  return (
    <section aria-labelledby="vouchers-h">
      <h2 id="vouchers-h">{t.vouchers}</h2>
      {shop.can('campaigns:write') && (
        <form
          className="inline"
          noValidate
          aria-label={t.makeVouchers}
          onSubmit={(e) => {
            e.preventDefault()
            make.mutate(new FormData(e.currentTarget))
          }}
        >
          <Field label={t.oneCode} name="code" autoComplete="off" error={errors.code} />
          <Field label={t.orMany} name="count" inputMode="numeric" error={errors.count} />
          <button type="submit" disabled={make.isPending}>
            {t.makeVouchers}
          </button>
        </form>
      )}
      {Object.keys(errors).length === 0 && <ErrorNote error={make.error ?? vouchers.error} />}
      {vouchers.data && vouchers.data.data.length > 0 && (
        <>
          <p>
            {t.voucherCount(vouchers.data.data.length)}{' '}
            <button type="button" onClick={exportCodes}>
              {t.exportCodes}
            </button>
          </p>
          <ul className="plain">
            {vouchers.data.data.slice(0, 20).map((v) => (
              <li key={v.id} className="row">
                <code>{v.code}</code>
                <span>{t.used(v.uses, v.max_uses)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}

function Stats({ campaign }: { campaign: Campaign }) {
  const shop = useShop()
  const stats = useQuery({
    queryKey: ['campaign-stats', campaign.id, campaign.version],
    queryFn: () => unwrap(api().GET('/api/v1/campaigns/{id}/stats', { params: { path: { id: campaign.id } } })),
  })
  const s = stats.data?.data
  return (
    <section aria-labelledby="stats-h">
      <h2 id="stats-h">{t.results}</h2>
      <ErrorNote error={stats.error} />
      {s && (
        <>
          <dl className="figures">
            <div>
              <dt>{t.redemptions}</dt>
              <dd>{shop.fmt.number(s.redemptions)}</dd>
            </div>
            <div>
              <dt>{t.discountGiven}</dt>
              <dd>{shop.fmt.money(s.discount_given)}</dd>
            </div>
            <div>
              <dt>{t.revenue}</dt>
              <dd>{shop.fmt.money(s.revenue)}</dd>
            </div>
            <div>
              <dt>{t.customers}</dt>
              <dd>{shop.fmt.number(s.unique_customers)}</dd>
            </div>
          </dl>
          {s.redemptions > 0 && (
            <BarChart
              labels={[t.discountGiven, t.revenue]}
              series={[
                { label: shop.currency, values: [Number(s.discount_given), Number(s.revenue)], colour: '#0a6b3d' },
              ]}
              format={(v) => shop.fmt.money(v)}
            />
          )}
        </>
      )}
    </section>
  )
}
