import { type components, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { api } from '../api.ts'
import { Confirm } from '../parts/confirm.tsx'
import { DoneNote, Empty, ErrorNote } from '../parts/notes.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.webhooks
type Endpoint = components['schemas']['WebhookEndpoint']
type Delivery = components['schemas']['WebhookDelivery']

/**
 * How often the page asks again while it is open: deliveries move on their own. While events are on their way
 * (just sent again, or queued) it asks every second, so their arrival shows as it happens.
 */
const WATCH_MS = 5_000
const MOVING_MS = 1_000
const watchEvery = (endpoints: readonly Endpoint[] | undefined) =>
  endpoints?.some((e) => e.events_pending > 0) ? MOVING_MS : WATCH_MS

/**
 * Webhooks: where the store's events go, each receiver's health in plain words (not answering since when, how many
 * events wait), the events that did not arrive with their replay, a new signing secret, and the raw attempts.
 */
export function WebhooksPage(): ReactNode {
  const shop = useShop()
  return (
    <>
      <Title text={t.title} />
      {shop.can('webhooks:write') ? <Receivers /> : <p className="notice">{t.ownersOnly}</p>}
    </>
  )
}

function Receivers() {
  const [done, setDone] = useState('')
  const endpoints = useQuery({
    queryKey: ['webhook-endpoints'],
    queryFn: () => unwrap(api().GET('/api/v1/webhooks/endpoints', { params: { query: { limit: 100 } } })),
    refetchInterval: (query) => watchEvery(query.state.data?.data),
  })
  const integrations = useQuery({
    queryKey: ['integrations'],
    queryFn: () => unwrap(api().GET('/api/v1/integrations', { params: { query: { limit: 100 } } })),
  })
  const failed = useQuery({
    queryKey: ['webhooks-failed'],
    queryFn: () => unwrap(api().GET('/api/v1/webhooks/failed', { params: { query: { limit: 100 } } })),
    refetchInterval: WATCH_MS,
  })
  const names = new Map((integrations.data?.data ?? []).map((i) => [i.id, i.name]))
  const all = endpoints.data?.data ?? []
  const byId = new Map(all.map((e) => [e.id, e]))
  // A receiver goes by its integration's name; one of several of an integration also by its own.
  const nameOf = (e: Endpoint | undefined) => {
    const integration = (e && names.get(e.integration_id)) ?? t.unnamed
    if (!e || all.filter((o) => o.integration_id === e.integration_id).length < 2) return integration
    return `${integration} (${e.description || new URL(e.url).host})`
  }
  return (
    <>
      {done && <DoneNote>{done}</DoneNote>}
      <section aria-labelledby="receivers-h">
        <h2 id="receivers-h">{t.receivers}</h2>
        <ErrorNote error={endpoints.error ?? integrations.error} />
        {endpoints.data &&
          (endpoints.data.data.length === 0 ? (
            <Empty>{t.noReceivers}</Empty>
          ) : (
            endpoints.data.data.map((e) => <Receiver key={e.id} endpoint={e} name={nameOf(e)} onDone={setDone} />)
          ))}
      </section>
      <section aria-labelledby="failed-h">
        <h2 id="failed-h">{t.failed}</h2>
        <ErrorNote error={failed.error} />
        {failed.data &&
          (failed.data.data.length === 0 ? (
            <Empty>{t.noFailed}</Empty>
          ) : (
            <FailedEvents
              failed={failed.data.data}
              receiverOf={(d) => byId.get(d.webhook_id)}
              nameOf={nameOf}
              onDone={setDone}
            />
          ))}
      </section>
    </>
  )
}

/** One receiver: its health in a sentence, what it gets, and what can be done to it. */
function Receiver({ endpoint: e, name, onDone }: { endpoint: Endpoint; name: string; onDone: (text: string) => void }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [rotating, setRotating] = useState(false)
  const [secret, setSecret] = useState('')
  const refresh = () => queries.invalidateQueries({ queryKey: ['webhook-endpoints'] })
  const enable = useMutation({
    mutationFn: () =>
      unwrap(api().POST('/api/v1/webhooks/endpoints/{webhookId}/enable', { params: { path: { webhookId: e.id } } })),
    onSuccess: () => {
      onDone(t.resumed(name))
      refresh()
      queries.invalidateQueries({ queryKey: ['webhooks-failed'] })
    },
  })
  const rotate = useMutation({
    mutationFn: () =>
      unwrap(
        api().POST('/api/v1/integrations/{id}/webhooks/{webhookId}/rotate-secret', {
          params: { path: { id: e.integration_id, webhookId: e.id } },
        }),
      ),
    onSuccess: (answer) => {
      setRotating(false)
      setSecret(answer.data.secret)
      refresh()
    },
  })
  const waiting = e.events_pending + e.events_failed
  const health =
    e.status === 'suspended'
      ? t.suspended(name, shop.fmt.dateTime(e.suspended_at), waiting)
      : e.failing_since
        ? t.notAnswering(name, shop.fmt.dateTime(e.failing_since), waiting)
        : t.answering(name, e.events_pending, e.events_failed)
  const trouble = e.status === 'suspended' || e.failing_since !== null
  return (
    <article className="panel" aria-labelledby={`wh-${e.id}`}>
      <h3 id={`wh-${e.id}`}>{name}</h3>
      <p className={trouble ? 'error' : 'notice'}>{health}</p>
      {e.status === 'suspended' && (
        <>
          <p>{t.suspendedWhy(e.suspension_reason ?? '')}</p>
          <button type="button" className="primary" disabled={enable.isPending} onClick={() => enable.mutate()}>
            {t.resume(name)}
          </button>
          <ErrorNote error={enable.error} />
        </>
      )}
      <dl className="facts">
        <dt>{t.address}</dt>
        <dd>
          <code>{e.url}</code>
        </dd>
        <dt>{t.events}</dt>
        <dd>{e.events.map(strings.common.eventWords).join(', ')}</dd>
        {e.previous_secret_expires_at && (
          <>
            <dt>{t.oldSecret}</dt>
            <dd>{t.oldSecretUntil(shop.fmt.dateTime(e.previous_secret_expires_at))}</dd>
          </>
        )}
      </dl>
      {secret && (
        <div className="notice" role="status">
          <p>{t.newSecretOnce}</p>
          <p>
            <code>{secret}</code>
          </p>
        </div>
      )}
      <button
        type="button"
        onClick={() => {
          setSecret('')
          setRotating(true)
        }}
      >
        {t.rotate(name)}
      </button>
      <Confirm
        open={rotating}
        title={t.rotateTitle(name)}
        action={t.rotateAction}
        busy={rotate.isPending}
        onConfirm={() => rotate.mutate()}
        onCancel={() => setRotating(false)}
      >
        <p>{t.rotateWhat}</p>
        <ErrorNote error={rotate.error} />
      </Confirm>
      <Attempts endpoint={e} name={name} />
    </article>
  )
}

/** The raw delivery attempts, read only once opened: what an integrator asks for when a receiver misbehaves. */
function Attempts({ endpoint, name }: { endpoint: Endpoint; name: string }) {
  const [open, setOpen] = useState(false)
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{t.attempts(name)}</summary>
      {open && <AttemptsTable webhookId={endpoint.id} name={name} moving={endpoint.events_pending > 0} />}
    </details>
  )
}

function AttemptsTable({ webhookId, name, moving }: { webhookId: string; name: string; moving: boolean }) {
  const shop = useShop()
  const attempts = useQuery({
    queryKey: ['webhook-attempts', webhookId],
    queryFn: () =>
      unwrap(api().GET('/api/v1/webhooks/deliveries', { params: { query: { webhook_id: webhookId, limit: 50 } } })),
    refetchInterval: moving ? MOVING_MS : WATCH_MS,
  })
  if (attempts.error) return <ErrorNote error={attempts.error} />
  if (!attempts.data) return null
  if (attempts.data.data.length === 0) return <Empty>{t.noAttempts}</Empty>
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways takes the focus, so a keyboard can scroll it
    <section className="scroll" aria-label={t.attemptsCaption(name)} tabIndex={0}>
      <table>
        <caption>{t.attemptsCaption(name)}</caption>
        <thead>
          <tr>
            <th scope="col">{t.time}</th>
            <th scope="col">{t.event}</th>
            <th scope="col">{t.latency}</th>
            <th scope="col">{t.result}</th>
          </tr>
        </thead>
        <tbody>
          {attempts.data.data.map((a) => (
            <tr key={a.id}>
              <td>{shop.fmt.dateTime(a.created_at)}</td>
              <td>
                {a.event} <code>{a.delivery_id}</code> #{a.attempt}
              </td>
              <td>{t.ms(a.latency_ms)}</td>
              <td>{a.succeeded ? t.delivered(a.status_code) : t.outcome(a.status_code, a.error)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

/** The events that did not arrive (kept 72 hours): each in words, with a replay; or all at once. */
function FailedEvents({
  failed,
  receiverOf,
  nameOf,
  onDone,
}: {
  failed: Delivery[]
  receiverOf: (d: Delivery) => Endpoint | undefined
  nameOf: (e: Endpoint | undefined) => string
  onDone: (text: string) => void
}) {
  const shop = useShop()
  const queries = useQueryClient()
  const refresh = () => {
    queries.invalidateQueries({ queryKey: ['webhooks-failed'] })
    queries.invalidateQueries({ queryKey: ['webhook-endpoints'] })
  }
  const replay = useMutation({
    mutationFn: (id: string) =>
      unwrap(
        api().POST('/api/v1/webhooks/failed/{eventDeliveryId}/replay', { params: { path: { eventDeliveryId: id } } }),
      ),
    onSuccess: (answer) => {
      onDone(t.replayed(strings.common.eventWords(answer.data.event)))
      refresh()
    },
  })
  const replayAll = useMutation({
    mutationFn: () => unwrap(api().POST('/api/v1/webhooks/failed/replay', { body: {} })),
    onSuccess: (answer) => {
      onDone(t.replayedAll(answer.data.replayed))
      refresh()
    },
  })
  return (
    <>
      <button type="button" disabled={replayAll.isPending} onClick={() => replayAll.mutate()}>
        {t.replayAll}
      </button>
      <ErrorNote error={replay.error ?? replayAll.error} />
      <ul className="plain">
        {failed.map((d) => {
          const receiver = receiverOf(d)
          const name = nameOf(receiver)
          return (
            <li key={d.id} className="row">
              <span>
                {t.failedEvent(strings.common.eventWords(d.event), name, shop.fmt.dateTime(d.failed_at), d.attempts)}{' '}
                <small className="muted">{t.outcome(d.last_status_code, d.last_error)}</small>
              </span>
              {receiver?.status === 'suspended' ? (
                <small>{t.resumeFirst(name)}</small>
              ) : (
                <button type="button" disabled={replay.isPending} onClick={() => replay.mutate(d.id)}>
                  {t.replay(strings.common.eventWords(d.event), name)}
                </button>
              )}
            </li>
          )
        })}
      </ul>
    </>
  )
}
