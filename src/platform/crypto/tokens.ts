import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** A random opaque token: `prefix_` and 32 random bytes in base64url. */
export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`
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
