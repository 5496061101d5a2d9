import { type components, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { api, fieldErrors } from '../api.ts'
import { Field, TextAreaField } from '../parts/field.tsx'
import { Empty, ErrorNote } from '../parts/notes.tsx'
import { Pager, useCursor } from '../parts/pager.tsx'
import { SearchForm } from '../parts/search-form.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.customers
type Customer = components['schemas']['Customer']

export const customerName = (c: Pick<Customer, 'first_name' | 'last_name' | 'email'>) =>
  [c.first_name, c.last_name].filter(Boolean).join(' ') || c.email || t.unnamed

/** Customers: search by name, e-mail or phone; open a profile; add one. */
export function CustomersPage() {
  const shop = useShop()
  const [search, setSearch] = useState('')
  const [adding, setAdding] = useState(false)
  const pager = useCursor(search)
  const customers = useQuery({
    queryKey: ['customers', 'list', search, pager.cursor],
    queryFn: () =>
      unwrap(
        api().GET('/api/v1/customers', {
          params: { query: { limit: 25, cursor: pager.cursor, q: search || undefined } },
        }),
      ),
  })
  return (
    <>
      <Title text={t.title}>
        {shop.can('customers:write') && (
          <button type="button" className="primary" onClick={() => setAdding(true)}>
            {t.add}
          </button>
        )}
      </Title>
      {adding && <NewCustomer onClose={() => setAdding(false)} />}
      <SearchForm label={t.search} hint={t.searchHint} value={search} onSearch={setSearch} />
      <ErrorNote error={customers.error} />
      {customers.data &&
        (customers.data.data.length === 0 ? (
          <Empty>{search ? strings.common.nothingFound(search) : t.noneYet}</Empty>
        ) : (
          <>
            <table className="list">
              <caption className="visually-hidden">{t.title}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.name}</th>
                  <th scope="col">{t.email}</th>
                  <th scope="col">{t.phone}</th>
                </tr>
              </thead>
              <tbody>
                {customers.data.data.map((c) => (
                  <tr key={c.id}>
                    <td>
                      <Link to="/customers/$customerId" params={{ customerId: c.id }}>
                        {customerName(c)}
                      </Link>
                    </td>
                    <td>{c.email ?? ''}</td>
                    <td>{c.phone ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager pager={pager} nextCursor={customers.data.pagination.nextCursor} />
          </>
        ))}
    </>
  )
}

/** The profile's fields as the API takes them: empty is none. */
export function customerFields(form: FormData) {
  const text = (name: string) => {
    const value = String(form.get(name) ?? '').trim()
    return value === '' ? null : value
  }
  return {
    first_name: text('first_name') ?? '',
    last_name: text('last_name') ?? '',
    note: text('note') ?? '',
    email: text('email'),
    phone: text('phone'),
    birthday: text('birthday'),
    tags: String(form.get('tags') ?? '')
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean),
  }
}

function NewCustomer({ onClose }: { onClose: () => void }) {
  const queries = useQueryClient()
  const navigate = useNavigate()
  const create = useMutation({
    mutationFn: (form: FormData) => unwrap(api().POST('/api/v1/customers', { body: customerFields(form) })),
    onSuccess: (answer) => {
      queries.invalidateQueries({ queryKey: ['customers'] })
      navigate({ to: '/customers/$customerId', params: { customerId: answer.data.id } })
    },
  })
  const errors = fieldErrors(create.error)
  return (
    <form
      className="panel"
      aria-labelledby="new-customer-h"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        create.mutate(new FormData(e.currentTarget))
      }}
    >
      <h2 id="new-customer-h">{t.newTitle}</h2>
      <CustomerFields errors={errors} />
      {Object.keys(errors).length === 0 && <ErrorNote error={create.error} />}
      <div className="actions">
        <button type="submit" className="primary" disabled={create.isPending}>
          {t.create}
        </button>
        <button type="button" onClick={onClose}>
          {strings.common.cancel}
        </button>
      </div>
    </form>
  )
}

export function CustomerFields({ customer, errors }: { customer?: Customer; errors: Record<string, string> }) {
  return (
    <>
      <Field
        label={t.firstName}
        name="first_name"
        maxLength={100}
        defaultValue={customer?.first_name ?? ''}
        error={errors.first_name}
      />
      <Field
        label={t.lastName}
        name="last_name"
        maxLength={100}
        defaultValue={customer?.last_name ?? ''}
        error={errors.last_name}
      />
      <Field label={t.email} name="email" type="email" defaultValue={customer?.email ?? ''} error={errors.email} />
      <Field label={t.phone} name="phone" type="tel" defaultValue={customer?.phone ?? ''} error={errors.phone} />
      <Field
        label={t.birthday}
        name="birthday"
        type="date"
        defaultValue={customer?.birthday ?? ''}
        error={errors.birthday}
      />
      <Field
        label={t.tags}
        name="tags"
        hint={t.tagsHint}
        defaultValue={customer?.tags.join(', ') ?? ''}
        error={Object.entries(errors).find(([k]) => k.startsWith('tags'))?.[1]}
      />
      <TextAreaField
        label={t.note}
        name="note"
        maxLength={2000}
        defaultValue={customer?.note ?? ''}
        error={errors.note}
      />
    </>
  )
}
