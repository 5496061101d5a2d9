import { randomFillSync } from 'node:crypto'
import { encodeTime, monotonicFactory } from 'ulidx'

// ulidx asks for one random byte per character; a pooled buffer of CSPRNG bytes saves a system call for each.
const pool = new Uint8Array(4096)
let next = pool.length

/** A value in [0, 1) from the pool; bytes over 256 keep the 32 ULID characters equally likely. */
function pooledRandom(): number {
  if (next === pool.length) {
    randomFillSync(pool)
    next = 0
  }
  return pool[next++] / 256
}

const ulid = monotonicFactory(pooledRandom)

/**
 * Opaque identifiers with a type prefix (`prod_…`, `ord_…`). The ULID part sorts by creation time, which keyset
 * pagination relies on.
 */
export function newId(prefix: string): string {
  return `${prefix}_${ulid().toLowerCase()}`
}

/** The lowest id of `prefix` that `newId` could have made at `ms`: every id made earlier sorts below it. */
export function firstIdAt(prefix: string, ms: number): string {
  return `${prefix}_${encodeTime(ms, 10).toLowerCase()}${'0'.repeat(16)}`
}
