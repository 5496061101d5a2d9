import { type components, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, fieldErrors, numberOf } from '../api.ts'
import { Confirm } from '../parts/confirm.tsx'
import { Field, SelectField } from '../parts/field.tsx'
import { DoneNote, Empty, ErrorNote } from '../parts/notes.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.registers
type Register = components['schemas']['Register']
type Shift = components['schemas']['Shift']

/** Registers and shifts: open with a float, pay in and out, close with the counted cash and see the difference. */
export function RegistersPage() {
  const shop = useShop()
  const registers = useQuery({
    queryKey: ['registers'],
    queryFn: () => unwrap(api().GET('/api/v1/registers', { params: { query: { limit: 100 } } })),
  })
  return (
    <>
      <Title text={t.title} />
      <ErrorNote error={registers.error} />
      {registers.data &&
        (registers.data.data.length === 0 ? (
          <Empty>{t.noRegisters}</Empty>
        ) : (
          registers.data.data.map((r) => <RegisterCard key={r.id} register={r} />)
        ))}
      {shop.can('orders:write') && shop.locations.length > 0 && <NewRegister />}
    </>
  )
}

function NewRegister() {
  const shop = useShop()
  const queries = useQueryClient()
  const create = useMutation({
    mutationFn: (form: FormData) =>
      unwrap(
        api().POST('/api/v1/registers', {
          body: { name: String(form.get('name') ?? '').trim(), location_id: String(form.get('location_id')) },
        }),
      ),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['registers'] }),
  })
  const errors = fieldErrors(create.error)
  return (
    <details className="panel">
      <summary>{t.add}</summary>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          create.mutate(new FormData(e.currentTarget))
        }}
      >
        <Field label={t.name} name="name" maxLength={200} error={errors.name} />
        <SelectField label={strings.common.location} name="location_id" error={errors.location_id}>
          {shop.locations.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </SelectField>
        {Object.keys(errors).length === 0 && <ErrorNote error={create.error} />}
        <button type="submit" disabled={create.isPending}>
          {t.addButton}
        </button>
      </form>
    </details>
  )
}

function RegisterCard({ register }: { register: Register }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [closed, setClosed] = useState<Shift | null>(null)
  const shift = useQuery({
    queryKey: ['shift', register.open_shift_id],
    queryFn: () => unwrap(api().GET('/api/v1/shifts/{id}', { params: { path: { id: register.open_shift_id! } } })),
    enabled: register.open_shift_id !== null,
  })
  const refresh = () => {
    queries.invalidateQueries({ queryKey: ['registers'] })
    queries.invalidateQueries({ queryKey: ['shift'] })
    queries.invalidateQueries({ queryKey: ['shifts'] })
  }
  const open = useMutation({
    mutationFn: (float: string) =>
      unwrap(
        api().POST('/api/v1/registers/{id}/shifts/open', {
          params: { path: { id: register.id } },
          body: { opening_float: numberOf(float) },
        }),
      ),
    onSuccess: () => {
      setClosed(null)
      refresh()
    },
  })
  const location = shop.locations.find((l) => l.id === register.location_id)
  const headingId = `register-${register.id}`
  const history = useQuery({
    queryKey: ['shifts', 'closed', register.id],
    queryFn: () =>
      unwrap(
        api().GET('/api/v1/shifts', {
          params: { query: { register_id: register.id, status: 'closed', order: 'newest', limit: 5 } },
        }),
      ),
  })
  const recent = history.data?.data ?? []
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {register.name} <small className="muted">{location?.name}</small>
      </h2>
      {closed && <CloseOut shift={closed} />}
      <ErrorNote error={shift.error ?? history.error} />
      {register.open_shift_id === null ? (
        <form
          className="inline"
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            open.mutate(String(new FormData(e.currentTarget).get('float') ?? ''))
          }}
        >
          <Field
            label={t.openingFloat}
            name="float"
            inputMode="decimal"
            error={fieldErrors(open.error).opening_float}
          />
          <button type="submit" className="primary" disabled={open.isPending || !shop.can('orders:write')}>
            {t.open}
          </button>
          {Object.keys(fieldErrors(open.error)).length === 0 && <ErrorNote error={open.error} />}
        </form>
      ) : (
        shift.data && (
          <OpenShift
            shift={shift.data.data}
            onClosed={(s) => {
              setClosed(s)
              refresh()
            }}
            onChanged={refresh}
          />
        )
      )}
      {recent.length > 0 && (
        <details>
          <summary>{t.recent}</summary>
          <div className="scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">{t.closedAt}</th>
                  <th scope="col" className="num">
                    {t.expected}
                  </th>
                  <th scope="col" className="num">
                    {t.countedShort}
                  </th>
                  <th scope="col" className="num">
                    {t.difference}
                  </th>
                </tr>
              </thead>
              <tbody>
                {recent.map((s) => (
                  <tr key={s.id}>
                    <td>{shop.fmt.dateTime(s.closed_at, location?.timezone)}</td>
                    <td className="num">{shop.fmt.money(s.expected_amount)}</td>
                    <td className="num">{shop.fmt.money(s.counted_amount)}</td>
                    <td className="num">{shop.fmt.money(s.variance)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </section>
  )
}

function OpenShift({
  shift,
  onClosed,
  onChanged,
}: {
  shift: Shift
  onClosed: (shift: Shift) => void
  onChanged: () => void
}) {
  const shop = useShop()
  const f = shop.fmt
  const [done, setDone] = useState('')
  const [counted, setCounted] = useState('')
  const [confirming, setConfirming] = useState(false)
  const cash = useMutation({
    mutationFn: (form: FormData) =>
      unwrap(
        api().POST('/api/v1/shifts/{id}/cash', {
          params: { path: { id: shift.id } },
          body: {
            kind: String(form.get('kind')) as 'in' | 'out',
            amount: numberOf(String(form.get('amount') ?? '')),
            reason: String(form.get('reason') ?? '').trim(),
          },
        }),
      ),
    onSuccess: () => {
      setDone(t.cashRecorded)
      onChanged()
    },
  })
  const close = useMutation({
    mutationFn: () =>
      unwrap(
        api().POST('/api/v1/shifts/{id}/close', {
          params: { path: { id: shift.id } },
          body: { counted_amount: numberOf(counted) },
        }),
      ),
    onSuccess: (answer) => {
      setConfirming(false)
      onClosed(answer.data)
    },
    onError: () => setConfirming(false),
  })
  const cashErrors = fieldErrors(cash.error)
  const closeErrors = fieldErrors(close.error)
  return (
    <>
      <p>{t.openSince(f.dateTime(shift.opened_at))}</p>
      <dl className="figures">
        <div>
          <dt>{t.float}</dt>
          <dd>{f.money(shift.opening_float)}</dd>
        </div>
        <div>
          <dt>{t.cashSales}</dt>
          <dd>{f.money(shift.cash_sales)}</dd>
        </div>
        <div>
          <dt>{t.cashRefunds}</dt>
          <dd>{f.money(shift.cash_refunds)}</dd>
        </div>
        <div>
          <dt>{t.paidIn}</dt>
          <dd>{f.money(shift.cash_in)}</dd>
        </div>
        <div>
          <dt>{t.paidOut}</dt>
          <dd>{f.money(shift.cash_out)}</dd>
        </div>
        <div>
          <dt>{t.expected}</dt>
          <dd>
            <strong>{f.money(shift.expected_amount)}</strong>
          </dd>
        </div>
      </dl>
      {done && <DoneNote>{done}</DoneNote>}
      {shop.can('orders:write') && (
        <>
          <details className="panel">
            <summary>{t.payInOut}</summary>
            <form
              noValidate
              onSubmit={(e) => {
                e.preventDefault()
                setDone('')
                cash.mutate(new FormData(e.currentTarget))
              }}
            >
              <SelectField label={t.kind} name="kind" error={cashErrors.kind}>
                <option value="in">{t.payIn}</option>
                <option value="out">{t.payOut}</option>
              </SelectField>
              <Field label={t.amount} name="amount" inputMode="decimal" error={cashErrors.amount} />
              <Field label={t.reason} name="reason" maxLength={500} error={cashErrors.reason} />
              {Object.keys(cashErrors).length === 0 && <ErrorNote error={cash.error} />}
              <button type="submit" disabled={cash.isPending}>
                {t.recordCash}
              </button>
            </form>
          </details>
          <form
            className="inline"
            noValidate
            onSubmit={(e) => {
              e.preventDefault()
              setConfirming(true)
            }}
          >
            <Field
              label={t.counted}
              inputMode="decimal"
              value={counted}
              error={closeErrors.counted_amount}
              onChange={(e) => setCounted(e.target.value)}
            />
            <button type="submit" className="primary">
              {t.close}
            </button>
          </form>
          {Object.keys(closeErrors).length === 0 && <ErrorNote error={close.error} />}
          <Confirm
            open={confirming}
            title={t.closeTitle}
            action={t.close}
            busy={close.isPending}
            onConfirm={() => close.mutate()}
            onCancel={() => setConfirming(false)}
          >
            <p>{t.closeWhat(f.money(numberOf(counted)), f.money(shift.expected_amount))}</p>
          </Confirm>
        </>
      )}
    </>
  )
}

/** The close-out: what the drawer should have held against what was counted. */
function CloseOut({ shift }: { shift: Shift }) {
  const f = useShop().fmt
  const variance = Number(shift.variance ?? 0)
  return (
    <div className="panel" role="status">
      <h3>{t.closeOut}</h3>
      <dl className="figures">
        <div>
          <dt>{t.expected}</dt>
          <dd>{f.money(shift.expected_amount)}</dd>
        </div>
        <div>
          <dt>{t.countedShort}</dt>
          <dd>{f.money(shift.counted_amount)}</dd>
        </div>
        <div>
          <dt>{t.difference}</dt>
          <dd className={variance < 0 ? 'down' : variance > 0 ? 'up' : ''}>
            {f.money(shift.variance)} {variance < 0 ? t.short : variance > 0 ? t.over : t.even}
          </dd>
        </div>
      </dl>
    </div>
  )
}
