import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'

/** A random opaque token: `prefix_` and 32 random bytes in base64url. */
export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`
}

// No 0/O, 1/I/L: codes are read aloud and typed at tills.
const READABLE = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'

/** A code people type (gift cards, vouchers): `length` random readable characters (~4.95 bits each), in groups of four. */
export function readableCode(length: number): string {
  const chars = Array.from({ length }, () => READABLE[randomInt(READABLE.length)]).join('')
  return chars.match(/.{1,4}/g)!.join('-')
}

/** Tokens are stored only as their SHA-256, so a database leak does not leak credentials. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
