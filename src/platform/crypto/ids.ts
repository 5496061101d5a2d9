import { monotonicFactory } from 'ulidx'

const ulid = monotonicFactory()

/**
 * Opaque identifiers with a type prefix (`prod_…`, `ord_…`). The ULID part sorts by creation time, which keyset
 * pagination relies on.
 */
export function newId(prefix: string): string {
  return `${prefix}_${ulid().toLowerCase()}`
}
