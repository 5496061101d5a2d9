import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

/** v2 binds each value to its row (AES-GCM additional data); v1 values, sealed before, open until resealed. */
const PREFIX = 'enc:v2:'
const UNBOUND_PREFIX = 'enc:v1:'
const IV_BYTES = 12
const TAG_BYTES = 16

interface Key {
  id: string
  bytes: Buffer
}

/** A key's id: the first 8 bytes of its SHA-256, so the id names the key without revealing it. */
function keyOf(base64: string, variable: string): Key {
  const bytes = Buffer.from(base64, 'base64')
  if (bytes.length !== 32) throw new Error(`${variable} must be 32 random bytes in base64 (openssl rand -base64 32)`)
  return { id: createHash('sha256').update(bytes).digest('hex').slice(0, 16), bytes }
}

/**
 * The row a secret belongs to, as additional authenticated data: a sealed value opens only for the row it was
 * sealed for, so one copied into another row (another org's endpoint) is refused.
 */
export function rowBinding(table: string, orgId: string, id: string): string {
  return `${table}/${orgId}/${id}`
}

/**
 * Secrets at rest (webhook signing secrets, token-signing private keys): AES-256-GCM under `SECRETS_KEY`, each
 * value stored as `enc:v2:<key id>:<base64 of iv, tag and ciphertext>` and bound to its row (`rowBinding`), so that
 * the key can be rotated (`SECRETS_KEY_PREVIOUS` still opens what the old key sealed; `opentill rotate-secrets-key`
 * reseals it all) and a value cannot move between rows. Without a key (development only: production refuses to
 * start) values are kept as given. Once every stored secret has been sealed (`requireSealed`, after
 * rotate-secrets-key), a value that is not sealed and bound is refused rather than trusted.
 */
export class SecretBox {
  private constructor(
    private readonly active: Key | undefined,
    private readonly previous: Key | undefined,
    /** Whether a value must be sealed and bound to open (set once the deployment's secrets all are). */
    readonly sealedOnly = false,
  ) {}

  static fromEnv(env: { SECRETS_KEY?: string; SECRETS_KEY_PREVIOUS?: string }): SecretBox {
    return new SecretBox(
      env.SECRETS_KEY ? keyOf(env.SECRETS_KEY, 'SECRETS_KEY') : undefined,
      env.SECRETS_KEY_PREVIOUS ? keyOf(env.SECRETS_KEY_PREVIOUS, 'SECRETS_KEY_PREVIOUS') : undefined,
    )
  }

  /** This box refusing any value that is not sealed and bound (when the deployment's secrets all are). */
  requireSealed(): SecretBox {
    return new SecretBox(this.active, this.previous, true)
  }

  get encrypts(): boolean {
    return this.active !== undefined
  }

  /** The active key's id (what rotate-secrets-key records once it has sealed everything), if any. */
  get keyId(): string | undefined {
    return this.active?.id
  }

  /** Whether this box holds the key of this id (the active one or the previous one). */
  holds(keyId: string): boolean {
    return this.active?.id === keyId || this.previous?.id === keyId
  }

  seal(plain: string, binding: string): string {
    if (!this.active) return plain
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.active.bytes, iv)
    cipher.setAAD(Buffer.from(binding, 'utf8'))
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return `${PREFIX}${this.active.id}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`
  }

  open(stored: string, binding: string): string {
    const bound = stored.startsWith(PREFIX)
    if (!bound && this.sealedOnly)
      throw new Error(`a secret of ${binding} is not sealed and bound to its row, and SECRETS_KEY requires it`)
    if (!bound && !stored.startsWith(UNBOUND_PREFIX)) return stored
    const [id, payload] = stored.slice(PREFIX.length).split(':')
    const key = [this.active, this.previous].find((k) => k?.id === id)
    if (!key)
      throw new Error(`a secret is sealed with key ${id}, which neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS is`)
    const raw = Buffer.from(payload, 'base64')
    const decipher = createDecipheriv('aes-256-gcm', key.bytes, raw.subarray(0, IV_BYTES))
    if (bound) decipher.setAAD(Buffer.from(binding, 'utf8'))
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')
  }

  /** Whether a stored value is not sealed and bound with the active key (plain, unbound, or the previous key's). */
  stale(stored: string): boolean {
    return this.active !== undefined && !stored.startsWith(`${PREFIX}${this.active.id}:`)
  }
}
