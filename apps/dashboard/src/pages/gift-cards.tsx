import { type components, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate, useParams } from '@tanstack/react-router'
import { type ReactNode, useState } from 'react'
import { api, fieldErrors, numberOf } from '../api.ts'
import { Confirm } from '../parts/confirm.tsx'
import { Field } from '../parts/field.tsx'
import { DoneNote, Empty, ErrorNote } from '../parts/notes.tsx'
import { Pager, useCursor } from '../parts/pager.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.giftCards
type GiftCard = components['schemas']['GiftCard']

/** Gift cards: look one up by its code, or issue one. */
export function GiftCardsPage(): ReactNode {
  const shop = useShop()
  const navigate = useNavigate()
  const lookup = useMutation({
    mutationFn: (code: string) => unwrap(api().GET('/api/v1/gift-cards/lookup', { params: { query: { code } } })),
    onSuccess: (answer) => navigate({ to: '/gift-cards/$cardId', params: { cardId: answer.data.id } }),
  })
  const issue = useMutation({
    mutationFn: (amount: string) =>
      unwrap(api().POST('/api/v1/gift-cards', { body: { initial_balance: numberOf(amount) } })),
    onSuccess: (answer) => navigate({ to: '/gift-cards/$cardId', params: { cardId: answer.data.id } }),
  })
  return (
    <>
      <Title text={t.title} />
      <form
        className="inline"
        aria-label={t.lookUp}
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          lookup.mutate(String(new FormData(e.currentTarget).get('code') ?? '').trim())
        }}
      >
        <Field label={t.code} name="code" autoComplete="off" error={fieldErrors(lookup.error).code} />
        <button type="submit" className="primary" disabled={lookup.isPending}>
          {t.lookUp}
        </button>
      </form>
      {lookup.error && !fieldErrors(lookup.error).code && <ErrorNote error={lookup.error} />}
      {shop.can('gift_cards:write') && (
        <form
          className="inline panel"
          aria-label={t.issue}
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            issue.mutate(String(new FormData(e.currentTarget).get('amount') ?? ''))
          }}
        >
          <Field
            label={t.amountIn(shop.currency)}
            name="amount"
            inputMode="decimal"
            error={fieldErrors(issue.error).initial_balance}
          />
          <button type="submit" disabled={issue.isPending}>
            {t.issue}
          </button>
          {Object.keys(fieldErrors(issue.error)).length === 0 && <ErrorNote error={issue.error} />}
        </form>
      )}
    </>
  )
}

/** One card: its balance and state, loading it, disabling it (asks first), its ledger. */
export function GiftCardPage(): ReactNode {
  const { cardId } = useParams({ from: '/gift-cards/$cardId' })
  const card = useQuery({
    queryKey: ['gift-card', cardId],
    queryFn: () => unwrap(api().GET('/api/v1/gift-cards/{id}', { params: { path: { id: cardId } } })),
  })
  if (card.error) return <ErrorNote error={card.error} />
  if (!card.data) return <p aria-busy="true">{strings.common.loading}</p>
  const c = card.data.data
  return (
    <>
      <Title text={t.cardTitle(c.code)}>
        <span className="status">{t.states[c.status] ?? c.status}</span>
      </Title>
      <CardActions card={c} />
      <Ledger card={c} />
      <p>
        <Link to="/gift-cards">{t.back}</Link>
      </p>
    </>
  )
}

function CardActions({ card }: { card: GiftCard }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [done, setDone] = useState('')
  const [disabling, setDisabling] = useState(false)
  const refresh = () => queries.invalidateQueries({ queryKey: ['gift-card', card.id] })
  const load = useMutation({
    mutationFn: (amount: string) =>
      unwrap(
        api().POST('/api/v1/gift-cards/{id}/load', {
          params: { path: { id: card.id } },
          body: { amount: numberOf(amount) },
        }),
      ),
    onSuccess: (answer) => {
      setDone(t.loaded(shop.fmt.money(answer.data.balance)))
      refresh()
    },
  })
  const disable = useMutation({
    mutationFn: (reason: string) =>
      unwrap(api().POST('/api/v1/gift-cards/{id}/disable', { params: { path: { id: card.id } }, body: { reason } })),
    onSuccess: () => {
      setDisabling(false)
      setDone(t.disabledDone)
      refresh()
    },
  })
  const [reason, setReason] = useState('')
  const writable = shop.can('gift_cards:write') && card.status === 'active'
  return (
    <section aria-labelledby="card-h">
      <h2 id="card-h" className="visually-hidden">
        {t.balance}
      </h2>
      {done && <DoneNote>{done}</DoneNote>}
      <dl className="figures">
        <div>
          <dt>{t.balance}</dt>
          <dd>{shop.fmt.money(card.balance)}</dd>
        </div>
        <div>
          <dt>{t.issuedWith}</dt>
          <dd>{shop.fmt.money(card.initial_balance)}</dd>
        </div>
        <div>
          <dt>{t.issuedOn}</dt>
          <dd>{shop.fmt.dateTime(card.created_at)}</dd>
        </div>
      </dl>
      {writable && (
        <>
          <form
            className="inline"
            aria-label={t.load}
            noValidate
            onSubmit={(e) => {
              e.preventDefault()
              setDone('')
              load.mutate(String(new FormData(e.currentTarget).get('amount') ?? ''))
            }}
          >
            <Field
              label={t.amountIn(shop.currency)}
              name="amount"
              inputMode="decimal"
              error={fieldErrors(load.error).amount}
            />
            <button type="submit" disabled={load.isPending}>
              {t.load}
            </button>
          </form>
          {Object.keys(fieldErrors(load.error)).length === 0 && <ErrorNote error={load.error} />}
          <div className="actions">
            <button type="button" className="danger" onClick={() => setDisabling(true)}>
              {t.disable}
            </button>
          </div>
        </>
      )}
      <Confirm
        open={disabling}
        title={t.disableTitle(card.code)}
        action={t.disable}
        busy={disable.isPending}
        onConfirm={() => disable.mutate(reason || t.defaultReason)}
        onCancel={() => setDisabling(false)}
      >
        <p>{t.disableWhat(shop.fmt.money(card.balance))}</p>
        <Field label={t.reason} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
        <ErrorNote error={disable.error} />
      </Confirm>
    </section>
  )
}

function Ledger({ card }: { card: GiftCard }) {
  const shop = useShop()
  const pager = useCursor(card.id)
  const ledger = useQuery({
    queryKey: ['gift-card-ledger', card.id, card.version, pager.cursor],
    queryFn: () =>
      unwrap(
        api().GET('/api/v1/gift-cards/{id}/ledger', {
          params: { path: { id: card.id }, query: { limit: 25, cursor: pager.cursor } },
        }),
      ),
  })
  return (
    <section aria-labelledby="ledger-h">
      <h2 id="ledger-h">{t.ledger}</h2>
      <ErrorNote error={ledger.error} />
      {ledger.data &&
        (ledger.data.data.length === 0 ? (
          <Empty>{t.noLedger}</Empty>
        ) : (
          <>
            <table className="list">
              <thead>
                <tr>
                  <th scope="col">{t.when}</th>
                  <th scope="col">{t.what}</th>
                  <th scope="col" className="num">
                    {t.amount}
                  </th>
                  <th scope="col" className="num">
                    {t.after}
                  </th>
                </tr>
              </thead>
              <tbody>
                {ledger.data.data.map((entry) => (
                  <tr key={entry.id}>
                    <td>{shop.fmt.dateTime(entry.created_at)}</td>
                    <td>{t.kinds[entry.kind] ?? entry.kind}</td>
                    <td className="num">{shop.fmt.money(entry.amount)}</td>
                    <td className="num">{shop.fmt.money(entry.balance_after)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager pager={pager} nextCursor={ledger.data.pagination.nextCursor} />
          </>
        ))}
    </section>
  )
}
