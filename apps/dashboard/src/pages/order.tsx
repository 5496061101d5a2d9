import { type components, fromMinor, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useParams } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { api, fieldErrors } from '../api.ts'
import { Confirm } from '../parts/confirm.tsx'
import { Field } from '../parts/field.tsx'
import { DoneNote, ErrorNote } from '../parts/notes.tsx'
import { ReceiptText } from '../parts/receipt.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.order
type Order = components['schemas']['Order']

/** One order: lines, payments, refunds, its history; refund (whole or by line, with restock), void, the receipt. */
export function OrderPage() {
  const { orderId } = useParams({ from: '/orders/$orderId' })
  const shop = useShop()
  const order = useQuery({
    queryKey: ['order', orderId],
    queryFn: () => unwrap(api().GET('/api/v1/orders/{id}', { params: { path: { id: orderId } } })),
  })
  if (order.error) return <ErrorNote error={order.error} />
  if (!order.data) return <p aria-busy="true">{strings.common.loading}</p>
  const o = order.data.data
  const f = shop.fmt
  const location = shop.locations.find((l) => l.id === o.location_id)
  return (
    <>
      <Title text={t.title(o.number)}>
        <span className={`status status-${o.status}`}>{strings.orders.statuses[o.status]}</span>
      </Title>
      <p className="muted">
        {f.dateTime(o.sold_at ?? o.created_at, location?.timezone)} · {location?.name}
      </p>
      <section aria-labelledby="lines-h">
        <h2 id="lines-h">{t.lines}</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">{strings.common.item}</th>
              <th scope="col" className="num">
                {t.quantity}
              </th>
              <th scope="col" className="num">
                {strings.common.total}
              </th>
              <th scope="col" className="num">
                {t.refunded}
              </th>
            </tr>
          </thead>
          <tbody>
            {o.lines.map((l) => (
              <tr key={l.id}>
                <td>
                  {l.name}
                  {l.modifiers.length > 0 && (
                    <small className="muted"> ({l.modifiers.map((m) => m.name).join(', ')})</small>
                  )}
                </td>
                <td className="num">{f.number(l.quantity)}</td>
                <td className="num">{f.money(l.line_total)}</td>
                <td className="num">{l.refunded_quantity > 0 ? f.number(l.refunded_quantity) : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <dl className="totals">
          <dt>{t.subtotal}</dt>
          <dd>{f.money(o.subtotal)}</dd>
          {Number(o.discount_total) !== 0 && (
            <>
              <dt>{t.discounts}</dt>
              <dd>−{f.money(o.discount_total)}</dd>
            </>
          )}
          <dt>{t.tax}</dt>
          <dd>{f.money(o.tax_total)}</dd>
          {Number(o.tip) !== 0 && (
            <>
              <dt>{t.tip}</dt>
              <dd>{f.money(o.tip)}</dd>
            </>
          )}
          <dt>{strings.common.total}</dt>
          <dd>
            <strong>{f.money(o.total)}</strong>
          </dd>
          <dt>{t.paid}</dt>
          <dd>{f.money(o.amount_paid)}</dd>
          {Number(o.amount_refunded) !== 0 && (
            <>
              <dt>{t.refunded}</dt>
              <dd>{f.money(o.amount_refunded)}</dd>
            </>
          )}
        </dl>
      </section>
      <section aria-labelledby="payments-h">
        <h2 id="payments-h">{t.payments}</h2>
        {(o.payments ?? []).length === 0 ? (
          <p className="empty">{t.noPayments}</p>
        ) : (
          <ul className="plain">
            {(o.payments ?? []).map((p) => (
              <li key={p.id}>
                {strings.sale.methods[p.method as keyof typeof strings.sale.methods] ?? p.method} {f.money(p.amount)} ·{' '}
                {t.paymentStatuses[p.status] ?? p.status}
                {Number(p.amount_refunded) > 0 && ` · ${t.refundedAmount(f.money(p.amount_refunded))}`}
                {p.change_given !== null && Number(p.change_given) > 0 && ` · ${t.change(f.money(p.change_given))}`}
              </li>
            ))}
          </ul>
        )}
      </section>
      {(o.refunds ?? []).length > 0 && (
        <section aria-labelledby="refunds-h">
          <h2 id="refunds-h">{t.refunds}</h2>
          <ul className="plain">
            {(o.refunds ?? []).map((r) => (
              <li key={r.id}>
                {f.dateTime(r.created_at)} · {f.money(r.amount)} · {t.refundStatuses[r.status] ?? r.status}
                {r.restock && ` · ${t.restocked}`}
                {r.reason && ` · ${r.reason}`}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="history-h">
        <h2 id="history-h">{t.history}</h2>
        <ol className="plain">
          {(o.status_history ?? []).map((h) => (
            <li key={`${h.created_at}-${h.to_status}`}>
              {f.dateTime(h.created_at)} · {strings.orders.statuses[h.to_status]}
              {h.reason && ` · ${h.reason}`}
            </li>
          ))}
        </ol>
      </section>
      {shop.can('audit:read') && <Activity order={o} />}
      {shop.can('orders:write') && <OrderActions order={o} />}
      <Receipt order={o} />
      <p>
        <Link to="/orders">{t.back}</Link>
      </p>
    </>
  )
}

/** Who did what to the order, from the audit log: voids, refunds, discounts approved, a till's offline sale. */
function Activity({ order }: { order: Order }) {
  const shop = useShop()
  const entries = useQuery({
    queryKey: ['audit', order.id, order.version],
    queryFn: () => unwrap(api().GET('/api/v1/audit-log', { params: { query: { record_id: order.id, limit: 50 } } })),
  })
  const people = useQuery({
    queryKey: ['users'],
    queryFn: () => unwrap(api().GET('/api/v1/users', { params: { query: { limit: 200 } } })),
    enabled: shop.can('users:read'),
    staleTime: 5 * 60_000,
  })
  const who = (userId: string | null) => {
    const person = people.data?.data.find((u) => u.id === userId)
    return person ? person.name || person.email : t.someone
  }
  if (entries.error) return <ErrorNote error={entries.error} />
  if (!entries.data || entries.data.data.length === 0) return null
  return (
    <section aria-labelledby="activity-h">
      <h2 id="activity-h">{t.activity}</h2>
      <ol className="plain">
        {entries.data.data.map((e) => (
          <li key={e.id}>
            {shop.fmt.dateTime(e.occurred_at)} · {t.auditActions[e.action] ?? e.action} · {who(e.actor.user_id)}
          </li>
        ))}
      </ol>
    </section>
  )
}

function OrderActions({ order }: { order: Order }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [mode, setMode] = useState<'none' | 'refund' | 'void'>('none')
  const [done, setDone] = useState('')
  const [quantities, setQuantities] = useState<Record<string, number>>({})
  const [restock, setRestock] = useState(true)
  const [reason, setReason] = useState('')
  const left = (l: Order['lines'][number]) => l.quantity - l.refunded_quantity
  // What is still paid, exactly: in minor units.
  const stillPaid = fromMinor(
    shop.fmt.minor(order.amount_captured) - shop.fmt.minor(order.amount_refunded),
    shop.currency,
  )
  const refundable = stillPaid > 0
  const chosen = order.lines.filter((l) => (quantities[l.id] ?? 0) > 0)
  const refresh = () => {
    queries.invalidateQueries({ queryKey: ['order', order.id] })
    queries.invalidateQueries({ queryKey: ['orders'] })
    queries.invalidateQueries({ queryKey: ['report'] })
  }
  const refund = useMutation({
    mutationFn: (whole: boolean) =>
      unwrap(
        api().POST('/api/v1/orders/{id}/refund', {
          params: { path: { id: order.id } },
          body: {
            ...(whole ? {} : { lines: chosen.map((l) => ({ line_id: l.id, quantity: quantities[l.id] })) }),
            restock,
            reason: reason || undefined,
          },
        }),
      ),
    onSuccess: (answer) => {
      setMode('none')
      setQuantities({})
      setDone(t.refundDone(shop.fmt.money(answer.data.amount_refunded)))
      refresh()
    },
  })
  const voiding = useMutation({
    mutationFn: () =>
      unwrap(
        api().PATCH('/api/v1/orders/{id}/status', {
          params: { path: { id: order.id } },
          body: { status: 'voided', reason: reason || undefined, version: order.version },
        }),
      ),
    onSuccess: () => {
      setMode('none')
      setDone(t.voidDone)
      refresh()
    },
  })
  const errors = fieldErrors(refund.error)
  return (
    <section aria-labelledby="actions-h">
      <h2 id="actions-h">{t.actions}</h2>
      {done && <DoneNote>{done}</DoneNote>}
      <div className="actions">
        {refundable && (
          <button type="button" onClick={() => setMode('refund')}>
            {t.refund}
          </button>
        )}
        {order.status === 'open' && (
          <button type="button" className="danger" onClick={() => setMode('void')}>
            {t.void}
          </button>
        )}
      </div>
      {mode === 'refund' && (
        <form
          className="panel"
          aria-labelledby="refund-h"
          onSubmit={(e: FormEvent) => {
            e.preventDefault()
            refund.mutate(false)
          }}
        >
          <h3 id="refund-h">{t.refundTitle}</h3>
          <p>{t.refundHelp}</p>
          {order.lines
            .filter((l) => left(l) > 0)
            .map((l) => (
              <Field
                key={l.id}
                label={t.refundLine(l.name, left(l))}
                type="number"
                min={0}
                max={left(l)}
                value={quantities[l.id] ?? 0}
                // The request's lines are the chosen ones: its errors are numbered among them.
                error={errors[`lines.${chosen.findIndex((c) => c.id === l.id)}.quantity`]}
                onChange={(e) => setQuantities((q) => ({ ...q, [l.id]: Math.max(0, Number(e.target.value) || 0) }))}
              />
            ))}
          <div className="check">
            <input id="restock" type="checkbox" checked={restock} onChange={(e) => setRestock(e.target.checked)} />
            <label htmlFor="restock">{t.restock}</label>
          </div>
          <Field label={t.reason} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
          <ErrorNote error={refund.error} />
          <div className="actions">
            <button type="submit" className="primary" disabled={chosen.length === 0 || refund.isPending}>
              {t.refundLines}
            </button>
            <button type="button" className="danger" disabled={refund.isPending} onClick={() => refund.mutate(true)}>
              {t.refundWhole(shop.fmt.money(stillPaid))}
            </button>
            <button type="button" onClick={() => setMode('none')}>
              {strings.common.cancel}
            </button>
          </div>
        </form>
      )}
      <Confirm
        open={mode === 'void'}
        title={t.voidTitle(order.number)}
        action={t.void}
        busy={voiding.isPending}
        onConfirm={() => voiding.mutate()}
        onCancel={() => setMode('none')}
      >
        <p>{t.voidWhat}</p>
        <ErrorNote error={voiding.error} />
      </Confirm>
    </section>
  )
}

function Receipt({ order }: { order: Order }) {
  const shop = useShop()
  const [email, setEmail] = useState('')
  const send = useMutation({
    mutationFn: () =>
      unwrap(api().POST('/api/v1/orders/{id}/receipt/email', { params: { path: { id: order.id } }, body: { email } })),
  })
  const errors = fieldErrors(send.error)
  return (
    <section aria-labelledby="receipt-h">
      <h2 id="receipt-h">{t.receipt}</h2>
      <details>
        <summary>{t.showReceipt}</summary>
        <ReceiptText order={order} />
      </details>
      {shop.can('orders:write') && (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault()
            send.mutate()
          }}
        >
          <Field
            label={t.emailReceipt}
            type="email"
            required
            value={email}
            error={errors.email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <button type="submit" disabled={send.isPending}>
            {t.send}
          </button>
        </form>
      )}
      {send.isSuccess && <DoneNote>{t.sent(email)}</DoneNote>}
      {send.error && !errors.email ? <ErrorNote error={send.error} /> : null}
    </section>
  )
}
