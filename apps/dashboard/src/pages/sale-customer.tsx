import { unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api } from '../api.ts'
import { Field } from '../parts/field.tsx'
import { ErrorNote } from '../parts/notes.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.sale

export interface ChosenCustomer {
  id: string
  name: string
}

const nameOf = (c: { first_name: string | null; last_name: string | null; email: string | null }) =>
  [c.first_name, c.last_name].filter(Boolean).join(' ') || c.email || t.unnamed

/** A customer's points and tier (one read, shared by the customer line and the rewards). */
function useMemberPoints(customerId: string | undefined) {
  const shop = useShop()
  return useQuery({
    queryKey: ['customer-rewards', customerId],
    queryFn: () => unwrap(api().GET('/api/v1/customers/{id}/rewards', { params: { path: { id: customerId! } } })),
    enabled: customerId !== undefined && shop.can('loyalty:read'),
  })
}

/** The sale's customer, found by name, e-mail or phone; their points and tier once chosen. */
export function CustomerChooser({
  customer,
  onChoose,
}: {
  customer: ChosenCustomer | null
  onChoose: (customer: ChosenCustomer | null) => void
}) {
  const shop = useShop()
  const [text, setText] = useState('')
  const found = useQuery({
    queryKey: ['customers', 'search', text],
    queryFn: () => unwrap(api().GET('/api/v1/customers', { params: { query: { q: text, limit: 5 } } })),
    enabled: text.trim().length > 1,
  })
  const points = useMemberPoints(customer?.id)
  if (!shop.can('customers:read')) return null
  if (customer)
    return (
      <section aria-labelledby="customer-h">
        <h2 id="customer-h">{t.customer}</h2>
        <p className="row">
          <span>
            <strong>{customer.name}</strong>
            {points.data?.data.loyalty_member_id && (
              <small className="muted">
                {' '}
                {t.points(points.data.data.points_balance)}
                {points.data.data.tier && ` · ${points.data.data.tier}`}
              </small>
            )}
          </span>
          <button type="button" onClick={() => onChoose(null)}>
            {t.removeCustomer}
          </button>
        </p>
      </section>
    )
  return (
    <section aria-labelledby="customer-h">
      <h2 id="customer-h">{t.customer}</h2>
      <Field label={t.findCustomer} type="search" value={text} onChange={(e) => setText(e.target.value)} />
      <div aria-live="polite">
        {found.data && found.data.data.length === 0 && <p className="empty">{strings.common.nothingFound(text)}</p>}
        {found.data && found.data.data.length > 0 && (
          <ul className="results">
            {found.data.data.map((c) => (
              <li key={c.id}>
                <button
                  type="button"
                  onClick={() => {
                    onChoose({ id: c.id, name: nameOf(c) })
                    setText('')
                  }}
                >
                  {nameOf(c)} <span className="muted">{c.email ?? c.phone ?? ''}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  )
}

/** The rewards of the active loyalty program the customer can afford, taken off the open order before payment. */
export function RewardChooser({
  customer,
  orderId,
  onRedeemed,
}: {
  customer: ChosenCustomer
  orderId: string
  onRedeemed: () => Promise<void>
}) {
  const shop = useShop()
  const queries = useQueryClient()
  const balance = useMemberPoints(customer.id)
  // The active program's rewards that take an amount off an order: the same for every customer.
  const offered = useQuery({
    queryKey: ['order-rewards'],
    queryFn: async () => {
      const programs = await unwrap(api().GET('/api/v1/loyalty/programs', { params: { query: { limit: 10 } } }))
      const program = programs.data.find((p) => p.status === 'active')
      if (!program) return []
      const list = await unwrap(
        api().GET('/api/v1/loyalty/programs/{id}/rewards', { params: { path: { id: program.id } } }),
      )
      return list.data.filter((r) => r.active && r.gives.type === 'order_discount')
    },
    enabled: shop.can('loyalty:read'),
  })
  const redeem = useMutation({
    mutationFn: (rewardId: string) =>
      unwrap(
        api().POST('/api/v1/loyalty/points/redeem', {
          body: { customer_id: customer.id, reward_id: rewardId, order_id: orderId },
        }),
      ),
    onSuccess: async () => {
      await queries.invalidateQueries({ queryKey: ['customer-rewards', customer.id] })
      await onRedeemed()
    },
  })
  const error = balance.error ?? offered.error
  if (error) return <ErrorNote error={error} />
  const member = balance.data?.data
  if (!member?.loyalty_member_id || !offered.data?.length || !shop.can('loyalty:write')) return null
  const points = member.points_balance
  return (
    <section aria-labelledby="rewards-h">
      <h2 id="rewards-h">{t.rewards(points)}</h2>
      <ul className="plain">
        {offered.data.map((r) => (
          <li key={r.id} className="row">
            <span>
              {r.name} <small className="muted">{t.points(r.points)}</small>
            </span>
            <button type="button" disabled={r.points > points || redeem.isPending} onClick={() => redeem.mutate(r.id)}>
              {t.redeem}
            </button>
          </li>
        ))}
      </ul>
      <ErrorNote error={redeem.error} />
    </section>
  )
}
