import { allInOrder } from '../all-in-order.ts'
import type { CommitNow } from './database.ts'

/**
 * A unit of work's last statements, already sent together (on a pipelined connection, one write), with COMMIT
 * sent right behind them when the caller owns the transaction and has nothing left to decide: the locks they take
 * are then held for the statements and the commit only, not for another round trip to this process
 * (docs/architecture.md "Round trips"). Answers their results; when several fail, the first in argument order is
 * the cause (a refused statement aborts the transaction, so the ones after it fail too).
 */
export function finishWith<T extends readonly unknown[]>(
  commitNow: CommitNow | null,
  statements: { readonly [K in keyof T]: Promise<T[K]> },
): Promise<T> {
  commitNow?.()
  return allInOrder<T>(...statements)
}
