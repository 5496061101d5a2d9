import { type components, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { type ReactNode, useRef, useState } from 'react'
import { api, fieldErrors } from '../api.ts'
import { Confirm } from '../parts/confirm.tsx'
import { Field } from '../parts/field.tsx'
import { DoneNote, Empty, ErrorNote } from '../parts/notes.tsx'
import { Title } from '../parts/title.tsx'
import { grant } from '../session.ts'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.developers
type App = components['schemas']['App']
type ConnectedApp = components['schemas']['ConnectedApp']

/** Developers: the store's own apps (registered with no scopes unless chosen), the apps it let in, the API's docs. */
export function DevelopersPage(): ReactNode {
  const shop = useShop()
  const docs = useQuery({ queryKey: ['api-url'], queryFn: async () => (await grant()).api_url })
  return (
    <>
      <Title text={t.title} />
      {shop.can('apps:write') ? (
        <>
          <MyApps />
          <Connected />
        </>
      ) : (
        <p className="notice">{t.ownersOnly}</p>
      )}
      <section aria-labelledby="docs-h">
        <h2 id="docs-h">{t.docs}</h2>
        {docs.data && (
          <ul className="plain">
            <li>
              <a href={`${docs.data}/docs`}>{t.apiDocs}</a>
            </li>
            <li>
              <a href={`${docs.data}/graphiql`}>{t.graphiql}</a>
            </li>
            <li>
              <Link to="/webhooks">{t.webhooks}</Link>
            </li>
          </ul>
        )}
      </section>
    </>
  )
}

function MyApps() {
  const queries = useQueryClient()
  const [secret, setSecret] = useState<{
    name: string
    clientId: string
    secret: string | null
    rotated?: boolean
  } | null>(null)
  const [scopes, setScopes] = useState<string[]>([])
  const registerForm = useRef<HTMLFormElement>(null)
  const apps = useQuery({
    queryKey: ['apps'],
    queryFn: () => unwrap(api().GET('/api/v1/apps', { params: { query: { limit: 100 } } })),
  })
  const create = useMutation({
    mutationFn: (form: FormData) =>
      unwrap(
        api().POST('/api/v1/apps', {
          body: {
            name: String(form.get('name') ?? '').trim(),
            redirect_uris: String(form.get('redirect_uris') ?? '')
              .split(/\s+/)
              .filter(Boolean),
            allowed_scopes: scopes,
            client_type: form.get('public') === 'on' ? 'public' : 'confidential',
          },
        }),
      ),
    onSuccess: (answer) => {
      setSecret({ name: answer.data.name, clientId: answer.data.client_id, secret: answer.client_secret })
      setScopes([])
      // The form empties, so the same app is not registered twice by accident.
      for (const name of ['name', 'redirect_uris']) {
        const field = registerForm.current?.elements.namedItem(name)
        if (field instanceof HTMLInputElement) field.value = ''
      }
      queries.invalidateQueries({ queryKey: ['apps'] })
    },
  })
  const errors = fieldErrors(create.error)
  return (
    <section aria-labelledby="apps-h">
      <h2 id="apps-h">{t.myApps}</h2>
      {secret && (
        <div className="notice" role="status">
          <p>{secret.rotated ? t.newSecret(secret.name) : t.registered(secret.name)}</p>
          <p>
            {t.clientId} <code>{secret.clientId}</code>
          </p>
          {secret.secret ? (
            <p>
              {t.secretOnce} <code>{secret.secret}</code>
            </p>
          ) : (
            <p>{t.noSecret}</p>
          )}
        </div>
      )}
      <ErrorNote error={apps.error} />
      {apps.data &&
        (apps.data.data.length === 0 ? (
          <Empty>{t.noApps}</Empty>
        ) : (
          <ul className="plain">
            {apps.data.data.map((a) => (
              <AppRow key={a.client_id} app={a} onSecret={setSecret} />
            ))}
          </ul>
        ))}
      <form
        className="panel"
        ref={registerForm}
        aria-labelledby="register-h"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          setSecret(null)
          create.mutate(new FormData(e.currentTarget))
        }}
      >
        <h3 id="register-h">{t.register}</h3>
        <Field label={t.appName} name="name" maxLength={100} error={errors.name} />
        <Field
          label={t.redirectUris}
          name="redirect_uris"
          hint={t.redirectHint}
          error={Object.entries(errors).find(([k]) => k.startsWith('redirect_uris'))?.[1]}
        />
        <ScopeChoice chosen={scopes} onChange={setScopes} />
        <div className="check">
          <input id="public-app" name="public" type="checkbox" />
          <label htmlFor="public-app">{t.publicApp}</label>
        </div>
        {Object.keys(errors).length === 0 && <ErrorNote error={create.error} />}
        <button type="submit" className="primary" disabled={create.isPending}>
          {t.registerButton}
        </button>
      </form>
    </section>
  )
}

/** The scopes an app may ask for: none ticked to begin with, each with what it lets the app do. */
function ScopeChoice({ chosen, onChange }: { chosen: string[]; onChange: (scopes: string[]) => void }) {
  return (
    <fieldset>
      <legend>{t.scopes}</legend>
      <p className="muted">{t.scopesHint}</p>
      {Object.entries(t.scopeNames).map(([scope, text]) => (
        <label key={scope} className="choice">
          <input
            type="checkbox"
            checked={chosen.includes(scope)}
            onChange={(e) => onChange(e.target.checked ? [...chosen, scope] : chosen.filter((s) => s !== scope))}
          />
          <span>
            <code>{scope}</code> {text}
          </span>
        </label>
      ))}
    </fieldset>
  )
}

function AppRow({
  app,
  onSecret,
}: {
  app: App
  onSecret: (s: { name: string; clientId: string; secret: string | null; rotated?: boolean }) => void
}) {
  const [rotating, setRotating] = useState(false)
  const rotate = useMutation({
    mutationFn: () =>
      unwrap(api().POST('/api/v1/apps/{client_id}/rotate-secret', { params: { path: { client_id: app.client_id } } })),
    onSuccess: (answer) => {
      setRotating(false)
      onSecret({ name: app.name, clientId: app.client_id, secret: answer.client_secret, rotated: true })
    },
  })
  return (
    <li>
      <p className="row">
        <span>
          <strong>{app.name}</strong> <code>{app.client_id}</code>
        </span>
        <span className="muted">
          {app.client_type === 'public' ? t.public : t.confidential} ·{' '}
          {app.allowed_scopes.length === 0 ? t.noScopes : app.allowed_scopes.join(', ')}
        </span>
      </p>
      {app.client_type === 'confidential' && (
        <button type="button" onClick={() => setRotating(true)}>
          {t.rotate(app.name)}
        </button>
      )}
      <Confirm
        open={rotating}
        title={t.rotateTitle(app.name)}
        action={t.rotateAction}
        busy={rotate.isPending}
        onConfirm={() => rotate.mutate()}
        onCancel={() => setRotating(false)}
      >
        <p>{t.rotateWhat}</p>
        <ErrorNote error={rotate.error} />
      </Confirm>
    </li>
  )
}

/** The apps the store let in: their scopes and last use; disconnecting asks first, and warns about a partner. */
function Connected() {
  const shop = useShop()
  const queries = useQueryClient()
  const [leaving, setLeaving] = useState<ConnectedApp | null>(null)
  const [done, setDone] = useState('')
  const connected = useQuery({
    queryKey: ['connected-apps'],
    queryFn: () => unwrap(api().GET('/api/v1/connected-apps')),
  })
  const disconnect = useMutation({
    mutationFn: (clientId: string) =>
      unwrap(api().DELETE('/api/v1/connected-apps/{client_id}', { params: { path: { client_id: clientId } } })),
    onSuccess: () => {
      setDone(t.disconnected(leaving?.name ?? ''))
      setLeaving(null)
      queries.invalidateQueries({ queryKey: ['connected-apps'] })
    },
  })
  return (
    <section aria-labelledby="connected-h">
      <h2 id="connected-h">{t.connected}</h2>
      {done && <DoneNote>{done}</DoneNote>}
      <ErrorNote error={connected.error} />
      {connected.data &&
        (connected.data.data.length === 0 ? (
          <Empty>{t.noneConnected}</Empty>
        ) : (
          <ul className="plain">
            {connected.data.data.map((c) => (
              <li key={c.client_id} className="row">
                <span>
                  <strong>{c.name}</strong>
                  {c.partner && ` · ${t.partner}`}
                  <small className="muted">
                    {' '}
                    · {c.scopes.join(', ')} · {t.lastUsed(shop.fmt.dateTime(c.last_used_at))}
                  </small>
                </span>
                <button type="button" className="danger" onClick={() => setLeaving(c)}>
                  {t.disconnect(c.name)}
                </button>
              </li>
            ))}
          </ul>
        ))}
      <Confirm
        open={leaving !== null}
        title={t.disconnectTitle(leaving?.name ?? '')}
        action={t.disconnectAction}
        busy={disconnect.isPending}
        onConfirm={() => leaving && disconnect.mutate(leaving.client_id)}
        onCancel={() => setLeaving(null)}
      >
        <p>{t.disconnectWhat}</p>
        {leaving?.partner && <p className="error">{t.partnerWarning(leaving.name)}</p>}
        <ErrorNote error={disconnect.error} />
      </Confirm>
    </section>
  )
}
