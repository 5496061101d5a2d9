import { userInfo } from 'node:os'

/** Environment parsed once into a frozen, typed Config (docs/decisions.md "Running it"). */

export interface Config {
  readonly env: 'development' | 'production' | 'test'
  readonly port: number
  readonly appPort: number
  readonly host: string
  readonly baseUrl: string
  readonly appUrl: string
  /** undefined: the embedded PostgreSQL of dataDir; 'memory://': a throw-away embedded cluster; postgres://…: a server */
  readonly databaseUrl: string | undefined
  readonly dataDir: string
  readonly redisUrl: string | undefined
  readonly accessTokenTtlS: number
  readonly refreshTokenTtlS: number
  /** A consent's absolute lifetime: after it, refresh tokens are refused and the app asks again (GRANT_MAX_AGE_S). */
  readonly grantMaxAgeS: number
  /** The kitchen feed (docs/events-and-kds.md): heartbeat, poll and repair intervals, open streams per org. */
  readonly kds: Readonly<{
    heartbeatMs: number
    pollMs: number
    reconcileMs: number
    maxStreamsPerOrg: number
    maxStreamsPerCredential: number
  }>
  /** Days the events API serves and the outbox keeps (EVENT_RETENTION_DAYS; SPEC: 30). */
  readonly eventRetentionDays: number
  /** Days the audit log keeps its entries (AUDIT_RETENTION_DAYS, docs/people-and-settings.md). */
  readonly auditRetentionDays: number
  /** The most automation rules an org may hold (docs/automations.md "Limits"). */
  readonly automationsMaxRules: number
  /** Connections of each process's pool to the database (DATABASE_POOL_MAX). */
  readonly databasePoolMax: number
  readonly authCodeTtlS: number
  readonly webhookRetryDelaysMs: readonly number[]
  readonly webhookTimeoutMs: number
  readonly webhookAllowNetworks: readonly string[]
  /** smtp(s)://user:pass@host:port for e-mail notices (webhook suspensions); unset: notices go to the log. */
  readonly smtpUrl: string | undefined
  /** The From address of those e-mails (SMTP_FROM). */
  readonly mailFrom: string
  readonly bodyLimitBytes: number
  readonly logLevel: string
  readonly seedDemo: boolean
  /** Run the background workers (webhook delivery) inside `serve`; WORKERS=false leaves them to `opentill worker`. */
  readonly workers: boolean
  /**
   * Fastify's trustProxy (TRUST_PROXY): false; a hop count (`1` behind one proxy); or the proxies' addresses and
   * CIDR ranges, comma-separated. Client addresses (per-address limits, logs) come from X-Forwarded-For through it.
   */
  readonly trustProxy: boolean | string[] | ((address: string, hop: number) => boolean)
  /** DATABASE_STATEMENT_TIMEOUT_MS: a statement of the app's pool running longer is cancelled (a 503). */
  readonly databaseStatementTimeoutMs: number
  /** DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: a session of the pool idle inside a transaction longer is ended. */
  readonly databaseIdleInTransactionTimeoutMs: number
  /** When set, GET /metrics requires `Authorization: Bearer <METRICS_TOKEN>` (METRICS_TOKEN). */
  readonly metricsToken: string | undefined
  /** How long a card processor call may take before it is answered 503 PROCESSOR_TIMEOUT (under the 60 s key lock). */
  readonly processorTimeoutMs: number
  /** OFFLINE_CARD_MAX_AGE_HOURS: a card taken offline longer ago than this is declined at sync (docs/sync.md). */
  readonly offlineCardMaxAgeH: number
  /** How long one reading of the database's figures serves `/metrics` scrapes (docs/operations.md "Metrics"). */
  readonly metricsSnapshotMs: number
  /** Seals secrets at rest (SECRETS_KEY, base64 of 32 bytes); SECRETS_KEY_PREVIOUS opens what the last one sealed. */
  readonly secretsKey: string | undefined
  readonly secretsKeyPrevious: string | undefined
  /** Load shedding: the event-loop delay (ms) and the pool checkouts waiting beyond which requests get a 503. */
  readonly shedEventLoopDelayMs: number
  /** …and the share of a quarter second the event loop spent busy (0 to 1; 0, the default, does not look). */
  readonly shedEventLoopUtilization: number
  readonly shedPoolWaiting: number
  /** How long a stopping process waits for requests and workers before it exits anyway (SHUTDOWN_TIMEOUT_MS). */
  readonly shutdownTimeoutMs: number
}

function trustProxyOf(raw: string | undefined): Config['trustProxy'] {
  if (raw === undefined || raw === '' || raw === 'false') return false
  if (raw === 'true') return true
  if (/^\d+$/.test(raw)) {
    // Behind N proxies: the N nearest hops are trusted (proxy-addr's hop count, as a function Fastify's types take).
    const hops = Number(raw)
    return (_address: string, hop: number) => hop < hops
  }
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

const isLoopback = (url: string) => ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname)

/**
 * Production refuses what is only safe on a developer's machine, one line naming the variable for each: the demo
 * org (a published password), and public addresses that are not https.
 */
export function productionProblems(env: NodeJS.ProcessEnv, config: Config): string[] {
  if (config.env !== 'production') return []
  const problems: string[] = []
  if (env.SEED_DEMO !== 'false')
    problems.push('SEED_DEMO must be false in production: the demo org has a published password')
  if (!env.SECRETS_KEY)
    problems.push('SECRETS_KEY must be set in production: webhook secrets and signing keys are sealed with it')
  if (!env.METRICS_TOKEN)
    problems.push(
      "METRICS_TOKEN must be set in production: /metrics shows every org's traffic and the database's state",
    )
  for (const name of ['BASE_URL', 'APP_URL'] as const) {
    const value = env[name]
    if (!value) problems.push(`${name} must be set in production: the public https address clients use`)
    else if (!/^https:/.test(value) && !isLoopback(value))
      problems.push(`${name} must be an https address in production (got ${value})`)
  }
  return problems
}

/**
 * libpq falls back to the operating-system user when a URL names none; node-postgres reads only $USER, which
 * service managers and CI often leave unset. Name the OS user explicitly, as psql would use.
 */
export function withDefaultUser(url: string | undefined): string | undefined {
  if (!url || !/^postgres(ql)?:/.test(url)) return url
  const parsed = new URL(url)
  if (parsed.username || process.env.PGUSER) return url
  parsed.username = process.env.USER || userInfo().username
  return parsed.toString()
}

const durationUnits: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** Parses "1m,5m,25m,2h" into milliseconds. */
function parseDurations(text: string): number[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const match = /^(\d+)(ms|s|m|h|d)$/.exec(part)
      if (!match) throw new Error(`invalid duration "${part}" (expected e.g. 30s, 5m, 2h)`)
      return Number(match[1]) * durationUnits[match[2]]
    })
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`)
  return value
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = integer(env, name, fallback)
  if (value === 0) throw new Error(`${name} must be a positive integer, got "${env[name]}"`)
  return value
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' ? 'test' : 'development'
  const port = integer(env, 'PORT', 3000)
  const appPort = integer(env, 'APP_PORT', 3001)
  return Object.freeze({
    env: nodeEnv,
    port,
    appPort,
    host: env.HOST ?? '127.0.0.1',
    baseUrl: (env.BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    appUrl: (env.APP_URL ?? `http://localhost:${appPort}`).replace(/\/$/, ''),
    databaseUrl: withDefaultUser(env.DATABASE_URL || undefined),
    dataDir: env.DATA_DIR ?? './data',
    redisUrl: env.REDIS_URL || undefined,
    accessTokenTtlS: integer(env, 'ACCESS_TOKEN_TTL_S', 900),
    refreshTokenTtlS: integer(env, 'REFRESH_TOKEN_TTL_S', 2_592_000),
    grantMaxAgeS: integer(env, 'GRANT_MAX_AGE_S', 7_776_000),
    kds: Object.freeze({
      heartbeatMs: positiveInteger(env, 'KDS_HEARTBEAT_MS', 15_000),
      pollMs: positiveInteger(env, 'KDS_POLL_MS', 100),
      reconcileMs: positiveInteger(env, 'KDS_RECONCILE_MS', 5_000),
      maxStreamsPerOrg: positiveInteger(env, 'KDS_MAX_STREAMS_PER_ORG', 50),
      maxStreamsPerCredential: positiveInteger(env, 'KDS_MAX_STREAMS_PER_CREDENTIAL', 10),
    }),
    databasePoolMax: positiveInteger(env, 'DATABASE_POOL_MAX', 20),
    eventRetentionDays: positiveInteger(env, 'EVENT_RETENTION_DAYS', 30),
    auditRetentionDays: positiveInteger(env, 'AUDIT_RETENTION_DAYS', 400),
    automationsMaxRules: positiveInteger(env, 'AUTOMATIONS_MAX_RULES', 200),
    authCodeTtlS: integer(env, 'AUTH_CODE_TTL_S', 60),
    webhookRetryDelaysMs: Object.freeze(parseDurations(env.WEBHOOK_RETRY_DELAYS ?? '1m,5m,25m,2h')),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 30_000),
    webhookAllowNetworks: Object.freeze(
      (env.WEBHOOK_ALLOW_NETWORKS ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.SMTP_FROM || 'OpenTill <no-reply@opentill.invalid>',
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1_048_576),
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    seedDemo: env.SEED_DEMO !== 'false',
    workers: env.WORKERS !== 'false',
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 25_000),
    metricsToken: env.METRICS_TOKEN || undefined,
    processorTimeoutMs: Math.min(positiveInteger(env, 'PROCESSOR_TIMEOUT_MS', 20_000), 45_000),
    offlineCardMaxAgeH: positiveInteger(env, 'OFFLINE_CARD_MAX_AGE_HOURS', 24),
    metricsSnapshotMs: positiveInteger(env, 'METRICS_SNAPSHOT_MS', 5_000),
    databaseStatementTimeoutMs: positiveInteger(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 30_000),
    databaseIdleInTransactionTimeoutMs: positiveInteger(env, 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', 60_000),
    secretsKey: env.SECRETS_KEY || undefined,
    secretsKeyPrevious: env.SECRETS_KEY_PREVIOUS || undefined,
    // Off unless set (docs/operations.md): a process's own start (compiling every route's schemas) stalls the loop
    // for longer than any sane threshold, and would shed its first requests.
    shedEventLoopDelayMs: integer(env, 'SHED_EVENT_LOOP_DELAY_MS', 0),
    shedPoolWaiting: integer(env, 'SHED_POOL_WAITING', 200),
    // Off unless set: a throughput benchmark (or a burst the machine can take) keeps the loop near 100 % busy.
    shedEventLoopUtilization: Number(env.SHED_EVENT_LOOP_UTILIZATION || 0),
  })
}

/** The configuration to run with, or an error listing what production refuses. */
export function loadCheckedConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config = loadConfig(env)
  const problems = productionProblems(env, config)
  if (problems.length) throw new Error(problems.join('\n'))
  return config
}
