import { type components, type operations, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useEffect, useState } from 'react'
import { api, fieldErrors, numberOf } from '../api.ts'
import { Field, SelectField } from '../parts/field.tsx'
import { DoneNote, Empty, ErrorNote } from '../parts/notes.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'
import { type ChosenCustomer, CustomerChooser } from './sale-customer.tsx'

const t = strings.loyaltyPage
type Program = components['schemas']['LoyaltyProgram']
type ProgramBody = operations['createLoyaltyProgram']['requestBody']['content']['application/json']
interface TierDraft {
  name: string
  threshold: string
  multiplier: string
  benefits: string
}

/** Loyalty: the program and its tiers, its rewards and their prices, members by tier, points by hand. */
export function LoyaltyPage(): ReactNode {
  const programs = useQuery({
    queryKey: ['loyalty-programs'],
    queryFn: () => unwrap(api().GET('/api/v1/loyalty/programs', { params: { query: { limit: 20 } } })),
  })
  const program = programs.data?.data.find((p) => p.status === 'active') ?? programs.data?.data[0]
  return (
    <>
      <Title text={t.title} />
      <ErrorNote error={programs.error} />
      {programs.data && <ProgramForm program={program} />}
      {program && <Rewards program={program} />}
      {program && <Members />}
      {program && <PointsByHand />}
    </>
  )
}

function ProgramForm({ program }: { program?: Program }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [done, setDone] = useState('')
  const draftsOf = (p: Program | undefined): TierDraft[] =>
    (p?.tiers ?? []).map((tier) => ({
      name: tier.name,
      threshold: String(tier.threshold),
      multiplier: String(tier.multiplier ?? 1),
      benefits: (tier.benefits ?? []).join(', '),
    }))
  const [tiers, setTiers] = useState<TierDraft[]>(draftsOf(program))
  // A newer version (saved here or by someone else) replaces the tiers being edited, so it is never saved over.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the version says when the program changed
  useEffect(() => setTiers(draftsOf(program)), [program?.version])
  const save = useMutation({
    mutationFn: (form: FormData) => {
      const text = (name: string) => String(form.get(name) ?? '').trim()
      const body: ProgramBody = {
        name: text('name'),
        status: text('status') as 'active' | 'inactive',
        points_per_unit: numberOf(text('points_per_unit')),
        point_value: numberOf(text('point_value')),
        rounding: text('rounding') as 'floor' | 'nearest' | 'ceil',
        expiry_days: text('expiry_days') ? numberOf(text('expiry_days')) : null,
        auto_enroll: form.get('auto_enroll') === 'on',
        tier_basis: text('tier_basis') as 'lifetime_points' | 'lifetime_spend',
        tiers: tiers.map((tier) => ({
          name: tier.name.trim(),
          threshold: numberOf(tier.threshold),
          multiplier: numberOf(tier.multiplier || '1'),
          benefits: tier.benefits
            .split(',')
            .map((b) => b.trim())
            .filter(Boolean),
        })),
      }
      return program
        ? unwrap(
            api().PATCH('/api/v1/loyalty/programs/{id}', {
              params: { path: { id: program.id } },
              body: { ...body, version: program.version },
            }),
          )
        : unwrap(api().POST('/api/v1/loyalty/programs', { body }))
    },
    onSuccess: () => {
      setDone(t.saved)
      queries.invalidateQueries({ queryKey: ['loyalty-programs'] })
    },
  })
  const errors = fieldErrors(save.error)
  const tierChange = (i: number, patch: Partial<TierDraft>) =>
    setTiers((list) => list.map((tier, j) => (j === i ? { ...tier, ...patch } : tier)))
  return (
    <section aria-labelledby="program-h">
      <h2 id="program-h">{program ? t.program : t.startProgram}</h2>
      {!program && <p className="muted">{t.noProgram}</p>}
      {done && <DoneNote>{done}</DoneNote>}
      <form
        key={program?.version ?? 'new'}
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          setDone('')
          save.mutate(new FormData(e.currentTarget))
        }}
      >
        <fieldset disabled={!shop.can('loyalty:write')}>
          <legend className="visually-hidden">{t.program}</legend>
          <Field label={t.name} name="name" defaultValue={program?.name ?? t.defaultName} error={errors.name} />
          <SelectField label={t.status} name="status" defaultValue={program?.status ?? 'active'} error={errors.status}>
            <option value="active">{t.active}</option>
            <option value="inactive">{t.inactive}</option>
          </SelectField>
          <Field
            label={t.pointsPerUnit(shop.currency)}
            name="points_per_unit"
            inputMode="decimal"
            defaultValue={String(program?.points_per_unit ?? 1)}
            error={errors.points_per_unit}
          />
          <SelectField label={t.rounding} name="rounding" defaultValue={program?.rounding ?? 'floor'}>
            <option value="floor">{t.roundings.floor}</option>
            <option value="nearest">{t.roundings.nearest}</option>
            <option value="ceil">{t.roundings.ceil}</option>
          </SelectField>
          <Field
            label={t.pointValue(shop.currency)}
            name="point_value"
            inputMode="decimal"
            defaultValue={String(program?.point_value ?? 0.01)}
            error={errors.point_value}
          />
          <Field
            label={t.expiry}
            name="expiry_days"
            inputMode="numeric"
            hint={t.expiryHint}
            defaultValue={program?.expiry_days == null ? '' : String(program.expiry_days)}
            error={errors.expiry_days}
          />
          <div className="check">
            <input id="auto-enroll" name="auto_enroll" type="checkbox" defaultChecked={program?.auto_enroll ?? true} />
            <label htmlFor="auto-enroll">{t.autoEnroll}</label>
          </div>
          <SelectField label={t.tierBasis} name="tier_basis" defaultValue={program?.tier_basis ?? 'lifetime_points'}>
            <option value="lifetime_points">{t.bases.lifetime_points}</option>
            <option value="lifetime_spend">{t.bases.lifetime_spend}</option>
          </SelectField>
          <fieldset>
            <legend>{t.tiers}</legend>
            {tiers.length === 0 && <p className="empty">{t.noTiers}</p>}
            {tiers.map((tier, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: tiers are edited in place, in their order
              <div key={i} className="panel">
                <Field
                  label={t.tierName(i + 1)}
                  value={tier.name}
                  onChange={(e) => tierChange(i, { name: e.target.value })}
                  error={errors[`tiers.${i}.name`]}
                />
                <Field
                  label={t.threshold}
                  inputMode="decimal"
                  value={tier.threshold}
                  onChange={(e) => tierChange(i, { threshold: e.target.value })}
                  error={errors[`tiers.${i}.threshold`]}
                />
                <Field
                  label={t.multiplier}
                  inputMode="decimal"
                  value={tier.multiplier}
                  onChange={(e) => tierChange(i, { multiplier: e.target.value })}
                  error={errors[`tiers.${i}.multiplier`]}
                />
                <Field
                  label={t.benefits}
                  hint={t.commas}
                  value={tier.benefits}
                  onChange={(e) => tierChange(i, { benefits: e.target.value })}
                />
                <button type="button" onClick={() => setTiers((list) => list.filter((_, j) => j !== i))}>
                  {t.removeTier(tier.name || String(i + 1))}
                </button>
              </div>
            ))}
            <button
              type="button"
              onClick={() => setTiers((list) => [...list, { name: '', threshold: '0', multiplier: '1', benefits: '' }])}
            >
              {t.addTier}
            </button>
          </fieldset>
          {Object.keys(errors).length > 0 ? (
            <p className="error" role="alert">
              {strings.campaigns.fix}
            </p>
          ) : (
            <ErrorNote error={save.error} />
          )}
          <button type="submit" className="primary" disabled={save.isPending}>
            {program ? t.save : t.create}
          </button>
        </fieldset>
      </form>
    </section>
  )
}

function Rewards({ program }: { program: Program }) {
  const shop = useShop()
  const queries = useQueryClient()
  const rewards = useQuery({
    queryKey: ['loyalty-rewards', program.id],
    queryFn: () => unwrap(api().GET('/api/v1/loyalty/programs/{id}/rewards', { params: { path: { id: program.id } } })),
  })
  const refresh = () => queries.invalidateQueries({ queryKey: ['loyalty-rewards', program.id] })
  const create = useMutation({
    mutationFn: (form: FormData) =>
      unwrap(
        api().POST('/api/v1/loyalty/programs/{id}/rewards', {
          params: { path: { id: program.id } },
          body: {
            name: String(form.get('name') ?? '').trim(),
            points: numberOf(String(form.get('points') ?? '')),
            gives: { type: 'order_discount', amount: numberOf(String(form.get('amount') ?? '')) },
          },
        }),
      ),
    onSuccess: refresh,
  })
  const toggle = useMutation({
    mutationFn: (reward: components['schemas']['LoyaltyReward']) =>
      unwrap(
        api().PATCH('/api/v1/loyalty/programs/{id}/rewards/{rewardId}', {
          params: { path: { id: program.id, rewardId: reward.id } },
          body: { active: !reward.active, version: reward.version },
        }),
      ),
    onSuccess: refresh,
  })
  const errors = fieldErrors(create.error)
  return (
    <section aria-labelledby="rewards-h">
      <h2 id="rewards-h">{t.rewards}</h2>
      <ErrorNote error={rewards.error ?? toggle.error} />
      {rewards.data &&
        (rewards.data.data.length === 0 ? (
          <Empty>{t.noRewards}</Empty>
        ) : (
          <ul className="plain">
            {rewards.data.data.map((r) => (
              <li key={r.id} className="row">
                <span>
                  <strong>{r.name}</strong> · {t.points(r.points)} ·{' '}
                  {r.gives.type === 'order_discount' ? t.off(shop.fmt.money(r.gives.amount)) : t.voucherReward}
                  {!r.active && ` · ${t.inactive}`}
                </span>
                {shop.can('settings:write') && (
                  <button type="button" onClick={() => toggle.mutate(r)} disabled={toggle.isPending}>
                    {r.active ? t.stopOffering(r.name) : t.offerAgain(r.name)}
                  </button>
                )}
              </li>
            ))}
          </ul>
        ))}
      {shop.can('settings:write') && (
        <form
          className="inline"
          noValidate
          aria-label={t.addReward}
          onSubmit={(e) => {
            e.preventDefault()
            create.mutate(new FormData(e.currentTarget))
          }}
        >
          <Field label={t.rewardName} name="name" error={errors.name} />
          <Field label={t.rewardPoints} name="points" inputMode="numeric" error={errors.points} />
          <Field
            label={t.rewardAmount(shop.currency)}
            name="amount"
            inputMode="decimal"
            error={errors['gives.amount']}
          />
          <button type="submit" disabled={create.isPending}>
            {t.addReward}
          </button>
        </form>
      )}
      {Object.keys(errors).length === 0 && <ErrorNote error={create.error} />}
    </section>
  )
}

/** How many members each tier has, and the points they hold: the loyalty report. */
function Members() {
  const shop = useShop()
  const report = useQuery({
    queryKey: ['report', 'loyalty'],
    queryFn: () => unwrap(api().GET('/api/v1/reports/loyalty')),
    enabled: shop.can('reports:read'),
  })
  if (!shop.can('reports:read')) return null
  const data = report.data?.data
  return (
    <section aria-labelledby="members-h">
      <h2 id="members-h">{t.members}</h2>
      <ErrorNote error={report.error} />
      {data &&
        (data.rows.length === 0 ? (
          <Empty>{t.noMembers}</Empty>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">{t.tier}</th>
                <th scope="col" className="num">
                  {t.memberCount}
                </th>
                <th scope="col" className="num">
                  {t.pointsHeld}
                </th>
                <th scope="col" className="num">
                  {t.worth}
                </th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((row) => (
                <tr key={row.tier ?? ''}>
                  <td>{row.tier ?? t.noTier}</td>
                  <td className="num">{shop.fmt.number(row.members)}</td>
                  <td className="num">{shop.fmt.number(row.points_outstanding)}</td>
                  <td className="num">{shop.fmt.money(row.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </section>
  )
}

/** Points given by hand to a customer, with the reason the audit log keeps. */
function PointsByHand() {
  const shop = useShop()
  const queries = useQueryClient()
  const [customer, setCustomer] = useState<ChosenCustomer | null>(null)
  const [done, setDone] = useState('')
  const give = useMutation({
    mutationFn: (form: FormData) =>
      unwrap(
        api().POST('/api/v1/loyalty/points/accrue', {
          body: {
            customer_id: customer?.id ?? '',
            points: numberOf(String(form.get('points') ?? '')),
            reason: String(form.get('reason') ?? '').trim(),
          },
        }),
      ),
    onSuccess: () => {
      setDone(t.given(customer?.name ?? ''))
      queries.invalidateQueries({ queryKey: ['report', 'loyalty'] })
      queries.invalidateQueries({ queryKey: ['customer-rewards'] })
    },
  })
  if (!shop.can('loyalty:adjust')) return null
  const errors = fieldErrors(give.error)
  return (
    <section aria-labelledby="by-hand-h">
      <h2 id="by-hand-h">{t.byHand}</h2>
      {done && <DoneNote>{done}</DoneNote>}
      <CustomerChooser customer={customer} onChoose={setCustomer} />
      {customer && (
        <form
          className="inline"
          noValidate
          aria-label={t.give}
          onSubmit={(e) => {
            e.preventDefault()
            setDone('')
            give.mutate(new FormData(e.currentTarget))
          }}
        >
          <Field label={t.pointsToGive} name="points" inputMode="numeric" error={errors.points} />
          <Field label={t.reason} name="reason" maxLength={500} error={errors.reason} />
          <button type="submit" disabled={give.isPending}>
            {t.give}
          </button>
        </form>
      )}
      {Object.keys(errors).length === 0 && <ErrorNote error={give.error} />}
    </section>
  )
}
