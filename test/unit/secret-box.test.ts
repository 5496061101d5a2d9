import assert from 'node:assert/strict'
import { createCipheriv, createHash, randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import { rowBinding, SecretBox } from '../../src/platform/crypto/secret-box.ts'

const key = () => randomBytes(32).toString('base64')
const row = rowBinding('webhook_endpoints', 'org_a', 'wh_1')

describe('SecretBox: secrets sealed at rest with AES-256-GCM, bound to their row', () => {
  it('seals with a fresh nonce each time and opens what it sealed', () => {
    const box = SecretBox.fromEnv({ SECRETS_KEY: key() })
    const [a, b] = [box.seal('whsec_abc', row), box.seal('whsec_abc', row)]
    assert.match(a, /^enc:v2:[0-9a-f]{16}:/)
    assert.notEqual(a, b)
    assert.equal(box.open(a, row), 'whsec_abc')
    assert.equal(box.open(b, row), 'whsec_abc')
    assert.equal(box.stale(a), false)
  })

  it('refuses a value that was tampered with, sealed by a key it does not hold, or sealed for another row', () => {
    const box = SecretBox.fromEnv({ SECRETS_KEY: key() })
    const sealed = box.seal('whsec_abc', row)
    const raw = Buffer.from(sealed.split(':')[3], 'base64')
    raw[raw.length - 1] ^= 1
    const tampered = `${sealed.split(':').slice(0, 3).join(':')}:${raw.toString('base64')}`
    assert.throws(() => box.open(tampered, row))
    assert.throws(() => SecretBox.fromEnv({ SECRETS_KEY: key() }).open(sealed, row), /neither SECRETS_KEY nor/)
    // The additional data names table, org and id: the same value moved to another row, or org, does not open.
    assert.throws(() => box.open(sealed, rowBinding('webhook_endpoints', 'org_a', 'wh_2')))
    assert.throws(() => box.open(sealed, rowBinding('webhook_endpoints', 'org_b', 'wh_1')))
  })

  it('opens what the previous key sealed during a rotation, and calls it stale', () => {
    const [oldKey, newKey] = [key(), key()]
    const sealedBefore = SecretBox.fromEnv({ SECRETS_KEY: oldKey }).seal('whsec_old', row)
    const rotating = SecretBox.fromEnv({ SECRETS_KEY: newKey, SECRETS_KEY_PREVIOUS: oldKey })
    assert.equal(rotating.open(sealedBefore, row), 'whsec_old')
    assert.equal(rotating.stale(sealedBefore), true)
    assert.equal(rotating.stale('whsec_plain'), true)
    assert.equal(rotating.stale(rotating.seal('x', row)), false)
  })

  it('opens a value sealed before values were bound (enc:v1), stale, until every secret is sealed and bound', () => {
    const secret = key()
    const box = SecretBox.fromEnv({ SECRETS_KEY: secret })
    // An enc:v1 value: the same AES-256-GCM without additional data.
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(secret, 'base64'), iv)
    const body = Buffer.concat([cipher.update('whsec_v1', 'utf8'), cipher.final()])
    const id = createHash('sha256').update(Buffer.from(secret, 'base64')).digest('hex').slice(0, 16)
    const v1 = `enc:v1:${id}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`
    assert.equal(box.open(v1, row), 'whsec_v1')
    assert.equal(box.stale(v1), true)
    assert.equal(box.open('whsec_plain', row), 'whsec_plain')
    const strict = box.requireSealed()
    assert.throws(() => strict.open(v1, row), /not sealed and bound/)
    assert.throws(() => strict.open('whsec_plain', row), /not sealed and bound/)
    assert.equal(strict.open(box.seal('whsec_new', row), row), 'whsec_new')
  })

  it('keeps values as given without a key (development), and refuses a key of the wrong size', () => {
    const none = SecretBox.fromEnv({})
    assert.equal(none.seal('whsec_abc', row), 'whsec_abc')
    assert.equal(none.open('whsec_abc', row), 'whsec_abc')
    assert.equal(none.stale('whsec_abc'), false)
    assert.throws(() => SecretBox.fromEnv({ SECRETS_KEY: randomBytes(16).toString('base64') }), /32 random bytes/)
  })
})
