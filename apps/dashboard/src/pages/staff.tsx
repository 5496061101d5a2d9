import { type components, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, fieldErrors } from '../api.ts'
import { Confirm } from '../parts/confirm.tsx'
import { Field, SelectField } from '../parts/field.tsx'
import { DoneNote, ErrorNote } from '../parts/notes.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.staff
type User = components['schemas']['User']
const ROLES = ['owner', 'manager', 'staff'] as const
type Role = (typeof ROLES)[number]

/** Staff: invite by e-mail, change a role, reset a PIN, deactivate (saying what it ends), pending invitations. */
export function StaffPage() {
  const shop = useShop()
  const queries = useQueryClient()
  const [done, setDone] = useState('')
  const users = useQuery({
    queryKey: ['users'],
    queryFn: () => unwrap(api().GET('/api/v1/users', { params: { query: { limit: 200 } } })),
  })
  const invitations = useQuery({
    queryKey: ['invitations'],
    queryFn: () => unwrap(api().GET('/api/v1/users/invitations', { params: { query: { limit: 100 } } })),
    enabled: shop.can('users:write'),
  })
  const invite = useMutation({
    mutationFn: (form: FormData) =>
      unwrap(
        api().POST('/api/v1/users', {
          body: {
            email: String(form.get('email') ?? '').trim(),
            name: String(form.get('name') ?? '').trim() || undefined,
            role: String(form.get('role')) as Role,
          },
        }),
      ),
    onSuccess: (answer) => {
      setDone(answer.data.delivery === 'email' ? t.invitedByEmail(answer.data.email) : t.invitedLink(answer.data.email))
      setLink(answer.data.url ?? '')
      queries.invalidateQueries({ queryKey: ['invitations'] })
    },
  })
  const [link, setLink] = useState('')
  const revoke = useMutation({
    mutationFn: (id: string) => unwrap(api().DELETE('/api/v1/users/invitations/{id}', { params: { path: { id } } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['invitations'] }),
  })
  const errors = fieldErrors(invite.error)
  return (
    <>
      <Title text={t.title} />
      {done && <DoneNote>{done}</DoneNote>}
      {link && (
        <p className="notice">
          {t.linkToHand} <code>{link}</code>
        </p>
      )}
      <ErrorNote error={users.error} />
      {users.data && (
        <ul className="plain">
          {users.data.data.map((u) => (
            <Person key={u.id} user={u} onDone={setDone} />
          ))}
        </ul>
      )}
      {shop.can('users:write') && (
        <form
          className="panel"
          aria-labelledby="invite-h"
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            setDone('')
            invite.mutate(new FormData(e.currentTarget))
          }}
        >
          <h2 id="invite-h">{t.invite}</h2>
          <Field label={t.email} name="email" type="email" error={errors.email} />
          <Field label={t.name} name="name" maxLength={200} error={errors.name} />
          <SelectField label={t.role} name="role" defaultValue="staff" error={errors.role}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t.roles[r]}
              </option>
            ))}
          </SelectField>
          {Object.keys(errors).length === 0 && <ErrorNote error={invite.error} />}
          <button type="submit" className="primary" disabled={invite.isPending}>
            {t.sendInvitation}
          </button>
        </form>
      )}
      {invitations.data && invitations.data.data.length > 0 && (
        <section aria-labelledby="pending-h">
          <h2 id="pending-h">{t.pending}</h2>
          <ul className="plain">
            {invitations.data.data.map((i) => (
              <li key={i.id} className="row">
                <span>
                  {i.email} · {t.roles[i.role as Role] ?? i.role} ·{' '}
                  <small className="muted">{t.expires(shop.fmt.dateTime(i.expires_at))}</small>
                </span>
                <button type="button" onClick={() => revoke.mutate(i.id)} disabled={revoke.isPending}>
                  {t.revoke(i.email)}
                </button>
              </li>
            ))}
          </ul>
          <ErrorNote error={revoke.error} />
        </section>
      )}
    </>
  )
}

function Person({ user, onDone }: { user: User; onDone: (text: string) => void }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [confirming, setConfirming] = useState<'deactivate' | 'pin' | 'role' | null>(null)
  const [role, setRole] = useState<Role>(user.role as Role)
  const refresh = () => queries.invalidateQueries({ queryKey: ['users'] })
  const update = useMutation({
    mutationFn: (body: { role?: Role; active?: boolean }) =>
      unwrap(
        api().PATCH('/api/v1/users/{id}', {
          params: { path: { id: user.id } },
          body: { ...body, version: user.version },
        }),
      ),
    onSuccess: (answer) => {
      setConfirming(null)
      onDone(t.updated(answer.data.name || answer.data.email))
      refresh()
    },
  })
  const clearPin = useMutation({
    mutationFn: () => unwrap(api().DELETE('/api/v1/users/{id}/pin', { params: { path: { id: user.id } } })),
    onSuccess: () => {
      setConfirming(null)
      onDone(t.pinCleared(user.name || user.email))
      refresh()
    },
  })
  const active = user.status === 'active'
  const who = user.name || user.email
  return (
    <li>
      <p className="row">
        <span>
          <strong>{who}</strong> {user.name && <small className="muted">{user.email}</small>}
        </span>
        <span>
          {t.roles[user.role as Role] ?? user.role} · {active ? t.active : t.deactivated}
          {user.has_pin && ` · ${t.hasPin}`}
        </span>
      </p>
      {shop.can('users:write') && (
        <div className="inline">
          <SelectField
            label={t.roleOf(who)}
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
            error={fieldErrors(update.error).role}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t.roles[r]}
              </option>
            ))}
          </SelectField>
          <button type="button" disabled={role === user.role || update.isPending} onClick={() => setConfirming('role')}>
            {t.changeRole}
          </button>
          {user.has_pin && (
            <button type="button" onClick={() => setConfirming('pin')}>
              {t.resetPin}
            </button>
          )}
          {active ? (
            <button type="button" className="danger" onClick={() => setConfirming('deactivate')}>
              {t.deactivate}
            </button>
          ) : (
            <button type="button" onClick={() => update.mutate({ active: true })}>
              {t.reactivate}
            </button>
          )}
        </div>
      )}
      {!confirming && <ErrorNote error={update.error} />}
      <Confirm
        open={confirming === 'deactivate'}
        title={t.deactivateTitle(who)}
        action={t.deactivate}
        busy={update.isPending}
        onConfirm={() => update.mutate({ active: false })}
        onCancel={() => setConfirming(null)}
      >
        <p>{t.deactivateWhat}</p>
        <ErrorNote error={update.error} />
      </Confirm>
      <Confirm
        open={confirming === 'role'}
        title={t.roleTitle(who, t.roles[role] ?? role)}
        action={t.changeRole}
        busy={update.isPending}
        onConfirm={() => update.mutate({ role })}
        onCancel={() => setConfirming(null)}
      >
        <p>{t.roleWhat}</p>
        <ErrorNote error={update.error} />
      </Confirm>
      <Confirm
        open={confirming === 'pin'}
        title={t.resetPinTitle(who)}
        action={t.resetPin}
        busy={clearPin.isPending}
        onConfirm={() => clearPin.mutate()}
        onCancel={() => setConfirming(null)}
      >
        <p>{t.resetPinWhat}</p>
        <ErrorNote error={clearPin.error} />
      </Confirm>
    </li>
  )
}
