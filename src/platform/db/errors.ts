/** True when `error` is PostgreSQL's unique violation on `constraint`. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string }
  return e?.code === '23505' && e.constraint === constraint
}

/** True when PostgreSQL chose `error`'s transaction as the victim of a deadlock (it was rolled back). */
function isDeadlock(error: unknown): boolean {
  return (error as { code?: string })?.code === '40P01'
}

/**
 * Runs `transaction` again, up to `attempts` times in all, when PostgreSQL broke a deadlock by rolling it back:
 * the other transaction holds its locks by then, so the next attempt waits for it instead.
 */
export async function retriedOnDeadlock<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction()
    } catch (error) {
      if (!isDeadlock(error) || attempt >= attempts) throw error
    }
  }
}
