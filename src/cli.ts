import { parseArgs } from 'node:util'
import { loadCheckedConfig, loadConfig } from './config.ts'
import type { Queryable, Rows } from './platform/db/database.ts'
import type { Runtime } from './platform/runtime.ts'
import type { Services } from './services.ts'

// Each command loads only what it uses, after its arguments are checked: the whole app takes seconds to load, and
// `migrate` in a deploy step or a usage error need none of it.

/** The runtime and every service, for the commands that act on an org; closed after `fn`. */
async function withServices<T>(fn: (runtime: Runtime, services: Services) => Promise<T>): Promise<T> {
  const [{ openRuntime }, { createServices }] = await Promise.all([
    import('./platform/runtime.ts'),
    import('./services.ts'),
  ])
  const runtime = await openRuntime(loadConfig(), { migrate: true })
  try {
    return await fn(runtime, createServices(runtime))
  } finally {
    await runtime.close()
  }
}

/** A system context of the org with every merchant scope, as its owner acting from the command line. */
async function ownerContext(runtime: Runtime, orgId: string) {
  const [{ MERCHANT_SCOPES }, { systemContext }] = await Promise.all([
    import('./modules/auth/index.ts'),
    import('./platform/http/system-context.ts'),
  ])
  return systemContext(runtime.database, orgId, MERCHANT_SCOPES)
}

const usage = `usage: opentill <command> [options]
  serve                                  serve the API (what npm start runs)
  worker                                 run background jobs (webhook delivery) without HTTP
  migrate                                apply pending database migrations
  create-org --name N --email E --password P [--plan starter|growth|pro|enterprise] [--currency USD]
  create-app --org ORG_ID --name N --redirect-uri URI [--redirect-uri URI…] [--public] [--partner [--plans starter,growth,pro]]
  migrate-embedded                       move a PGlite-era DATA_DIR onto the embedded PostgreSQL (once)
  set-org-limits --org ORG_ID --per-minute N --burst N   an org's own rate limit (plan enterprise)
  rebuild-reports --org ORG_ID           compute an org's report aggregates again from its orders and payments
  rotate-secrets-key                     seal every stored secret with SECRETS_KEY (the old key in SECRETS_KEY_PREVIOUS)
Without DATABASE_URL every command uses the embedded PostgreSQL of DATA_DIR: the running server's, or one it
starts for the command and stops after.`

const commands: Record<string, (args: string[]) => Promise<void>> = {
  async serve() {
    const config = loadCheckedConfig()
    const { serve } = await import('./server.ts')
    await serve(config)
  },

  async worker() {
    const config = loadCheckedConfig()
    const { runWorker } = await import('./worker.ts')
    await runWorker(config)
  },

  async migrate() {
    // Not through openRuntime: it loads signing keys, whose table a fresh database does not have yet.
    const { migrateConfigured } = await import('./platform/runtime.ts')
    const applied = await migrateConfigured(loadConfig())
    process.stdout.write(`${JSON.stringify({ applied })}\n`)
  },

  async 'migrate-embedded'() {
    const config = loadConfig()
    if (config.databaseUrl) throw new Error('migrate-embedded moves the embedded DATA_DIR; unset DATABASE_URL')
    const { importPglite } = await import('./platform/db/pglite-import.ts')
    const result = await importPglite(config.dataDir, (m) => process.stderr.write(`${m}\n`))
    process.stdout.write(`${JSON.stringify(result)}\n`)
  },

  async 'create-org'(args) {
    const { values } = parseArgs({
      args,
      options: {
        name: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        plan: { type: 'string', default: 'starter' },
        currency: { type: 'string', default: 'USD' },
      },
    })
    if (!values.name || !values.email || !values.password)
      throw new Error('create-org needs --name, --email and --password')
    const { PLANS } = await import('./modules/orgs/index.ts')
    const plan = PLANS.find((p) => p === values.plan)
    if (!plan) throw new Error(`--plan must be one of ${PLANS.join(', ')}`)
    const { org, owner } = await withServices((_runtime, services) =>
      services.orgs.createOrg({
        name: values.name!,
        email: values.email!,
        password: values.password!,
        plan,
        currency: values.currency,
      }),
    )
    process.stdout.write(`${JSON.stringify({ orgId: org.id, userId: owner.id })}\n`)
  },
}

commands['create-app'] = async (args) => {
  const { values } = parseArgs({
    args,
    options: {
      org: { type: 'string' },
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      public: { type: 'boolean', default: false },
      partner: { type: 'boolean', default: false },
      plans: { type: 'string' },
    },
  })
  if (!values.org || !values.name || !values['redirect-uri']?.length) {
    throw new Error('create-app needs --org, --name and at least one --redirect-uri')
  }
  if (!/^org_[0-9a-z]{1,64}$/.test(values.org)) throw new Error('--org must be an org id (org_…)')
  if (values.plans && !values.partner) throw new Error('--plans applies to partner apps (--partner)')
  const { app, clientSecret } = await withServices(async (runtime, services) =>
    services.oauth.apps.create(await ownerContext(runtime, values.org!), {
      name: values.name!,
      redirectUris: values['redirect-uri']!,
      public: values.public,
      partner: values.partner,
      partnerPlans: values.plans?.split(',').map((p) => p.trim()),
    }),
  )
  process.stdout.write(
    `${JSON.stringify(clientSecret ? { clientId: app.client_id, clientSecret } : { clientId: app.client_id })}\n`,
  )
}

commands['set-org-limits'] = async (args) => {
  const { values } = parseArgs({
    args,
    options: { org: { type: 'string' }, 'per-minute': { type: 'string' }, burst: { type: 'string' } },
  })
  const positive = (name: string, raw: string | undefined) => {
    const n = Number(raw)
    if (!raw || !Number.isSafeInteger(n) || n < 1) throw new Error(`--${name} must be a positive whole number`)
    return n
  }
  if (!values.org || !/^org_[0-9a-z]{1,64}$/.test(values.org)) throw new Error('set-org-limits needs --org ORG_ID')
  const perMinute = positive('per-minute', values['per-minute'])
  const burst = positive('burst', values.burst)
  const result = await withServices(async (runtime, services) =>
    services.orgs.setCustomLimits(await ownerContext(runtime, values.org!), perMinute, burst),
  )
  process.stdout.write(`${JSON.stringify(result)}\n`)
}

commands['rotate-secrets-key'] = async () => {
  const config = loadConfig()
  if (!config.secretsKey)
    throw new Error('rotate-secrets-key needs SECRETS_KEY (the new key; the old one in SECRETS_KEY_PREVIOUS)')
  const [{ default: pg }, { openRuntime }, { resealWebhookSecrets }, { SigningKeys }, { recordAllSealed }] =
    await Promise.all([
      import('pg'),
      import('./platform/runtime.ts'),
      import('./modules/webhooks/index.ts'),
      import('./platform/crypto/signing-keys.ts'),
      import('./platform/crypto/secrets-sealed.ts'),
    ])
  const runtime = await openRuntime(config, { migrate: true })
  // As the owner, in one transaction: every org's rows, and nothing half done.
  const owner = new pg.Client({ connectionString: runtime.ownerUrl })
  try {
    await owner.connect()
    await owner.query('BEGIN')
    const query = <R>(text: string, params?: readonly unknown[]) =>
      owner.query(text, params as unknown[]) as unknown as Promise<Rows<R>>
    const q: Queryable = { query, prepared: (_name, text, params) => query(text, params) }
    const webhookSecrets = await resealWebhookSecrets(q, runtime.secrets)
    const signingKeys = await SigningKeys.reseal(q, runtime.secrets)
    // Everything is sealed and bound now: from the next start on, a secret that is not is refused.
    await recordAllSealed(q, runtime.secrets)
    await owner.query('COMMIT')
    process.stdout.write(`${JSON.stringify({ webhookSecrets, signingKeys })}\n`)
  } catch (error) {
    await owner.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    await owner.end()
    await runtime.close()
  }
}

commands['rebuild-reports'] = async (args) => {
  const { values } = parseArgs({ args, options: { org: { type: 'string' } } })
  if (!values.org || !/^org_[0-9a-z]{1,64}$/.test(values.org)) throw new Error('rebuild-reports needs --org ORG_ID')
  const ms = await withServices(async (runtime, services) => {
    const started = Date.now()
    await services.reports.rebuild(await ownerContext(runtime, values.org!))
    return Date.now() - started
  })
  process.stdout.write(`${JSON.stringify({ orgId: values.org, rebuilt: true, ms })}\n`)
}

const [command, ...rest] = process.argv.slice(2)
const run = command ? commands[command] : undefined
if (!run) {
  process.stderr.write(`${usage}\n`)
  process.exit(command ? 2 : 0)
}
run(rest).catch((error: Error) => {
  process.stderr.write(`opentill ${command}: ${error.message}\n`)
  process.exit(1)
})
