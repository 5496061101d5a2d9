import { Redis } from 'ioredis'
import { type Config, isEmbedded } from '../config.ts'
import { AccessTokens } from './crypto/access-tokens.ts'
import { DatabaseRevocations, MemoryRevocations, RedisRevocations, type Revocations } from './crypto/revocations.ts'
import { SigningKeys } from './crypto/signing-keys.ts'
import { Database } from './db/database.ts'
import { type EmbeddedDatabase, startEmbeddedDatabase } from './db/embedded.ts'
import { type Maintenance, startAnalyzing } from './db/maintenance.ts'
import { migrate } from './db/migrate.ts'

/** Everything a process shares between its HTTP app, its workers and its commands. */
export interface Runtime {
  readonly config: Config
  readonly database: Database
  readonly accessTokens: AccessTokens
  readonly revocations: Revocations
  readonly redis: Redis | undefined
  /** The owner's connection string (migrations, tests); the app itself connects through `database`. */
  readonly ownerUrl: string
  readonly embedded: boolean
  close(): Promise<void>
}

export interface OpenOptions {
  /** Apply pending migrations first (under the migration lock). */
  migrate?: boolean
  log?: (message: string) => void
}

/** Applies pending migrations to the configured database, embedded or server; answers their names. */
export async function migrateConfigured(config: Config, log?: (message: string) => void): Promise<string[]> {
  const embeddedDb = isEmbedded(config) ? await startEmbeddedDatabase(config.databaseUrl ?? config.dataDir) : undefined
  try {
    return await migrate(embeddedDb?.url ?? config.databaseUrl!, log)
  } finally {
    await embeddedDb?.stop()
  }
}

/** Opens the database (embedded or server), migrates it, and loads keys and the revocation list. */
export async function openRuntime(config: Config, options: OpenOptions = {}): Promise<Runtime> {
  const embedded = isEmbedded(config)
  let embeddedDb: EmbeddedDatabase | undefined
  let ownerUrl: string
  if (embedded) {
    embeddedDb = await startEmbeddedDatabase(config.databaseUrl ?? config.dataDir)
    ownerUrl = embeddedDb.url
  } else {
    ownerUrl = config.databaseUrl!
  }
  let database: Database | undefined
  let redis: Redis | undefined
  let maintenance: Maintenance | undefined
  try {
    if (options.migrate !== false) await migrate(ownerUrl, options.log)
    database = new Database({ connectionString: ownerUrl, max: embedded ? 4 : 20, sharedSession: embedded })
    // PGlite has no autovacuum: keep its planner statistics fresh (a server's autovacuum does this).
    if (embedded) maintenance = await startAnalyzing(database, options.log)
    redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 }) : undefined
    const keys = await SigningKeys.load(database)
    const accessTokens = new AccessTokens(keys, config.baseUrl, config.accessTokenTtlS)
    const revocations: Revocations = redis
      ? await RedisRevocations.load(database, redis)
      : embedded
        ? await MemoryRevocations.load(database)
        : new DatabaseRevocations(database)
    const db = database
    return {
      config,
      database: db,
      accessTokens,
      revocations,
      redis,
      ownerUrl,
      embedded,
      async close() {
        maintenance?.stop()
        await db.close()
        if (redis) redis.disconnect()
        if (embeddedDb) await embeddedDb.stop()
      },
    }
  } catch (error) {
    maintenance?.stop()
    await database?.close().catch(() => {})
    redis?.disconnect()
    await embeddedDb?.stop().catch(() => {})
    throw error
  }
}
