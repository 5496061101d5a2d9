import { ensureSystemDatabase, getDbosSchemaPermissionsSql } from '@dbos-inc/dbos-sdk/internal/system_database'
import { GlobalLogger } from '@dbos-inc/dbos-sdk/internal/telemetry/logs'
import type { FastifyBaseLogger } from 'fastify'
import pg from 'pg'
import { DBOS_LOGIN, ensureDbosLogin } from '../../platform/db/app-login.ts'

/** DBOS's log lines in the app's log: its info as debug, its debug as trace. */
export function dbosLogger(log: FastifyBaseLogger) {
  return {
    info: (entry: unknown) => log.debug({ dbos: entry }),
    debug: (entry: unknown) => log.trace({ dbos: entry }),
    warn: (entry: unknown) => log.warn({ dbos: entry }),
    error: (entry: unknown) => log.error({ err: entry }, 'DBOS'),
  }
}

/**
 * Readies DBOS's schema so that DBOS never runs as the database owner: the owner creates or migrates the schema
 * and grants DBOS's own login role its tables, and nothing else (the split DBOS documents for an application role
 * that cannot run DDL: `DBOS.migrate` with an application role, then `runMigrations: false`). Done here rather
 * than through `DBOS.migrate`, which logs every statement to the console, and under an advisory lock, since
 * instances starting at once would grant on the same rows. Answers the URL DBOS connects with.
 */
export async function readyDbosSchema(ownerUrl: string, schema: string, log: FastifyBaseLogger): Promise<string> {
  const dbosUrl = await ensureDbosLogin(ownerUrl)
  const logger = new GlobalLogger(undefined, { logger: dbosLogger(log) })
  await ensureSystemDatabase(ownerUrl, logger, undefined, schema)
  const owner = new pg.Client({ connectionString: ownerUrl })
  await owner.connect()
  try {
    await owner.query('BEGIN')
    await owner.query(`SELECT pg_advisory_xact_lock(hashtext('opentill dbos grants'))`)
    for (const statement of getDbosSchemaPermissionsSql(schema, DBOS_LOGIN)) await owner.query(statement)
    await owner.query('COMMIT')
  } catch (error) {
    await owner.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    await owner.end()
  }
  return dbosUrl
}
