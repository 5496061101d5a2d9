import { Algorithm, hash, verify } from '@node-rs/argon2'

// OWASP's argon2id minimum: m=19 MiB, t=2, p=1.
const options = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 }

export function hashPassword(password: string): Promise<string> {
  return hash(password, options)
}

let dummyHash: Promise<string> | undefined

/** Verifies a password; with no stored hash it still spends the same work, so unknown e-mails are not revealed. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword('opentill-timing-equaliser')
    await verify(await dummyHash, password).catch(() => false)
    return false
  }
  return verify(stored, password).catch(() => false)
}
