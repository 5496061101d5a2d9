import type { Database } from './database.ts'

/** Often enough to follow a store that grows by a day's sales, rarely enough to cost nothing. */
export const ANALYZE_EVERY_MS = 10 * 60_000

export interface Maintenance {
  stop(): void
}

async function mayAnalyze(database: Database): Promise<boolean> {
  const result = await database.statement<{ ok: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pg_maintain')
            AND pg_has_role(current_user, 'pg_maintain', 'USAGE') AS ok`,
  )
  return result.rows[0]?.ok === true
}

/**
 * PGlite has no autovacuum, so the embedded runtime refreshes the planner's statistics itself: once at start
 * (after migrations) and then every ten minutes, on an unref'd timer that never keeps the process alive.
 * Needs pg_maintain (migration 0007); without it (an older engine) nothing is scheduled.
 */
export async function startAnalyzing(
  database: Database,
  log: (message: string) => void = () => {},
  everyMs = ANALYZE_EVERY_MS,
): Promise<Maintenance> {
  if (!(await mayAnalyze(database))) return { stop() {} }
  const analyze = async () => {
    try {
      await database.statement('ANALYZE')
    } catch (error) {
      log(`ANALYZE failed: ${(error as Error).message}`)
    }
  }
  await analyze()
  let running: Promise<void> | undefined
  const timer = setInterval(() => {
    running ??= analyze().finally(() => {
      running = undefined
    })
  }, everyMs)
  timer.unref()
  return {
    stop() {
      clearInterval(timer)
    },
  }
}
