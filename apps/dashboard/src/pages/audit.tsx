import { type components, unwrap } from '@opentill/client'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useNavigate, useSearch } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { api } from '../api.ts'
import { addDays, startOfDay } from '../format.ts'
import { downloadCsv } from '../parts/download.ts'
import { Field, SelectField } from '../parts/field.tsx'
import { Empty, ErrorNote } from '../parts/notes.tsx'
import { Pager, useCursor } from '../parts/pager.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.audit
type Action = components['schemas']['AuditEntry']['action']

export interface AuditSearch {
  user_id?: string
  action?: string
  record_id?: string
  from?: string
  to?: string
}

/** The audit log: who did what, filtered by person, action, record and days; its CSV. */
export function AuditPage() {
  const shop = useShop()
  const search = useSearch({ from: '/audit' })
  const navigate = useNavigate({ from: '/audit' })
  const pager = useCursor(JSON.stringify(search))
  const users = useQuery({
    queryKey: ['users'],
    queryFn: () => unwrap(api().GET('/api/v1/users', { params: { query: { limit: 200 } } })),
    enabled: shop.can('users:read'),
  })
  const query = {
    user_id: search.user_id,
    action: search.action as Action | undefined,
    record_id: search.record_id,
    from: search.from ? startOfDay(search.from, shop.timeZone) : undefined,
    to: search.to ? startOfDay(addDays(search.to, 1), shop.timeZone) : undefined,
  }
  const entries = useQuery({
    queryKey: ['audit', 'list', search, pager.cursor],
    queryFn: () =>
      unwrap(api().GET('/api/v1/audit-log', { params: { query: { ...query, limit: 50, cursor: pager.cursor } } })),
  })
  const csv = useMutation({
    mutationFn: async () => {
      const text = (await unwrap(
        api().GET('/api/v1/audit-log', { params: { query: { ...query, format: 'csv' } }, parseAs: 'text' }),
      )) as unknown as string
      downloadCsv(text, 'audit-log.csv')
    },
  })
  const who = (userId: string | null) => {
    const person = users.data?.data.find((u) => u.id === userId)
    return person ? person.name || person.email : (userId ?? t.system)
  }
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const value = (name: string) => String(form.get(name) ?? '').trim() || undefined
    navigate({
      search: {
        user_id: value('user_id'),
        action: value('action'),
        record_id: value('record_id'),
        from: value('from'),
        to: value('to'),
      },
    })
  }
  return (
    <>
      <Title text={t.title}>
        <button type="button" onClick={() => csv.mutate()} disabled={csv.isPending}>
          {t.csv}
        </button>
      </Title>
      <form className="filters" aria-label={t.filter} onSubmit={submit} key={JSON.stringify(search)}>
        <SelectField label={t.person} name="user_id" defaultValue={search.user_id ?? ''}>
          <option value="">{t.anyone}</option>
          {users.data?.data.map((u) => (
            <option key={u.id} value={u.id}>
              {u.name || u.email}
            </option>
          ))}
        </SelectField>
        <SelectField label={t.action} name="action" defaultValue={search.action ?? ''}>
          <option value="">{t.anyAction}</option>
          {Object.entries(t.actions).map(([action, label]) => (
            <option key={action} value={action}>
              {label}
            </option>
          ))}
        </SelectField>
        <Field label={t.record} name="record_id" hint={t.recordHint} defaultValue={search.record_id} />
        <Field label={strings.common.from} name="from" type="date" defaultValue={search.from} />
        <Field label={strings.common.to} name="to" type="date" defaultValue={search.to} />
        <div className="actions">
          <button type="submit" className="primary">
            {t.show}
          </button>
        </div>
      </form>
      <ErrorNote error={entries.error ?? csv.error} />
      {entries.data &&
        (entries.data.data.length === 0 ? (
          <Empty>{t.empty}</Empty>
        ) : (
          <>
            <ul className="plain">
              {entries.data.data.map((e) => (
                <li key={e.id}>
                  <span className="row">
                    <span>
                      <strong>{t.actions[e.action] ?? e.action}</strong> · {who(e.actor.user_id)}
                    </span>
                    <span className="muted">{shop.fmt.dateTime(e.occurred_at)}</span>
                  </span>
                  <small className="muted">
                    {e.record_type} {e.record_id}
                    {e.changes && Object.keys(e.changes).length > 0 && ` · ${Object.keys(e.changes).join(', ')}`}
                  </small>
                </li>
              ))}
            </ul>
            <Pager pager={pager} nextCursor={entries.data.pagination.nextCursor} />
          </>
        ))}
    </>
  )
}
