import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import type { Config } from '../config.ts'
import { type CatalogCache, createCatalogCache } from './cache/index.ts'
import { AccessTokens } from './crypto/access-tokens.ts'
import { DatabaseRevocations, MemoryRevocations, RedisRevocations, type Revocations } from './crypto/revocations.ts'
import { SecretBox } from './crypto/secret-box.ts'
import { boxForDeployment } from './crypto/secrets-sealed.ts'
import { SigningKeys } from './crypto/signing-keys.ts'
import { ensureAppLogin } from './db/app-login.ts'
import { Database } from './db/database.ts'
import { type EmbeddedServer, openEmbeddedServer } from './db/embedded.ts'
import { lockDataDir } from './db/instance-lock.ts'
import { migrate } from './db/migrate.ts'
import { readDeploymentName } from './deployment-name.ts'
import { type Admissions, createAdmissions } from './rate-limit/admission.ts'
import type { RateLimitStore } from './rate-limit/gcra.ts'
import { createRateLimitStore } from './rate-limit/store.ts'

/** Everything a process shares between its HTTP app, its workers and its commands. */
export interface Runtime {
  readonly config: Config
  readonly database: Database
  readonly accessTokens: AccessTokens
  readonly revocations: Revocations
  readonly redis: Redis | undefined
  /** Seals and opens secrets at rest (SECRETS_KEY). */
  readonly secrets: SecretBox
  /** The owner's connection string (migrations, tests); the app itself connects through `database`. */
  readonly ownerUrl: string
  /** The app's own login role's connection string (docs/operations.md, "Database roles"). */
  readonly appUrl: string
  /**
   * True when this process is the only API instance on its database (it holds the embedded data directory's
   * lock), so what instances would otherwise share through Redis may be kept in its memory.
   */
  readonly soleInstance: boolean
  /** This deployment's namespace on a shared Redis (deployment-name.ts). */
  readonly deploymentName: string
  /**
   * The per-process parts the API, the web app and GraphQL share, built once here: the rate-limit buckets, the
   * catalog cache (null when answers are not cached) and the guard's admissions.
   */
  readonly rateLimitStore: RateLimitStore
  readonly catalogCache: CatalogCache | null
  readonly admissions: Admissions
  /** The embedded server's data directory, when DATABASE_URL is unset (for the start banner). */
  readonly embeddedDir: string | undefined
  close(): Promise<void>
}

interface OpenOptions {
  /** Apply pending migrations first (under the migration lock). */
  migrate?: boolean
  /**
   * This process serves the embedded data directory (`opentill serve`): it takes the directory's lock (a second
   * server on it refuses to start) and stops the embedded PostgreSQL when it closes. Commands leave a server
   * they found running as it was, and stop one they started.
   */
  serving?: boolean
  log?: (message: string) => void
}

/** The database the configuration names: a server's URL, or the embedded server of DATA_DIR (started if need be). */
interface OpenedDatabase {
  url: string
  embeddedDir: string | undefined
  soleInstance: boolean
  close(): Promise<void>
}

export async function openDatabaseServer(config: Config, options: OpenOptions = {}): Promise<OpenedDatabase> {
  if (config.databaseUrl && !config.databaseUrl.startsWith('memory://')) {
    return { url: config.databaseUrl, embeddedDir: undefined, soleInstance: false, async close() {} }
  }
  // memory://: a throw-away cluster in a temporary folder, without fsync (nothing in it is meant to last).
  const throwAway = config.databaseUrl?.startsWith('memory://') === true
  const dataDir = throwAway ? mkdtempSync(join(tmpdir(), 'opentill-memory-')) : config.dataDir
  const lock = options.serving && !throwAway ? lockDataDir(dataDir) : undefined
  let server: EmbeddedServer
  try {
    server = await openEmbeddedServer(dataDir, {
      log: options.log,
      settings: throwAway ? { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } : undefined,
    })
  } catch (error) {
    lock?.release()
    if (throwAway) rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
  return {
    url: server.url,
    embeddedDir: throwAway ? undefined : dataDir,
    soleInstance: options.serving === true || throwAway,
    async close() {
      // A command stops only a server it started, and not if an `opentill serve` has since taken it over.
      if (lock || throwAway || (server.startedHere && !lockDataDir.isHeld(dataDir))) await server.stop()
      lock?.release()
      if (throwAway) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Applies pending migrations to the configured database; answers their names. */
export async function migrateConfigured(config: Config, log?: (message: string) => void): Promise<string[]> {
  const opened = await openDatabaseServer(config, { log })
  try {
    return await migrate(opened.url, log)
  } finally {
    await opened.close()
  }
}

/** Opens the database, migrates it, and loads keys and the revocation list. */
export async function openRuntime(config: Config, options: OpenOptions = {}): Promise<Runtime> {
  const opened = await openDatabaseServer(config, options)
  let database: Database | undefined
  let redis: Redis | undefined
  try {
    if (options.migrate !== false) await migrate(opened.url, options.log)
    const appUrl = await ensureAppLogin(opened.url)
    database = new Database({
      connectionString: appUrl,
      max: config.databasePoolMax,
      statementTimeoutMs: config.databaseStatementTimeoutMs,
      idleInTransactionTimeoutMs: config.databaseIdleInTransactionTimeoutMs,
    })
    redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 }) : undefined
    const secrets = await boxForDeployment(
      database,
      SecretBox.fromEnv({ SECRETS_KEY: config.secretsKey, SECRETS_KEY_PREVIOUS: config.secretsKeyPrevious }),
    )
    const keys = await SigningKeys.load(database, secrets)
    const accessTokens = new AccessTokens(keys, config.baseUrl, config.accessTokenTtlS)
    const deploymentName = await readDeploymentName(database)
    const revocations: Revocations = redis
      ? await RedisRevocations.load(database, redis, deploymentName)
      : opened.soleInstance
        ? await MemoryRevocations.load(database)
        : new DatabaseRevocations(database)
    const db = database
    const rateLimitStore = createRateLimitStore(redis, deploymentName)
    const catalogCache = createCatalogCache({ redis, soleInstance: opened.soleInstance, deploymentName })
    return {
      config,
      database: db,
      accessTokens,
      revocations,
      redis,
      secrets,
      ownerUrl: opened.url,
      appUrl,
      soleInstance: opened.soleInstance,
      deploymentName,
      rateLimitStore,
      catalogCache,
      admissions: createAdmissions({ redis, deploymentName, revocations, rateLimitStore, catalogCache }),
      embeddedDir: opened.embeddedDir,
      async close() {
        if (revocations instanceof RedisRevocations) revocations.close()
        await db.close()
        if (redis) redis.disconnect()
        await opened.close()
      },
    }
  } catch (error) {
    await database?.close().catch(() => {})
    redis?.disconnect()
    await opened.close().catch(() => {})
    throw error
  }
}
