/** True when `error` is PostgreSQL's unique violation on `constraint`. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string }
  return e?.code === '23505' && e.constraint === constraint
}
