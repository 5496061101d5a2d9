import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import { SecretBox } from '../../src/platform/crypto/secret-box.ts'

const key = () => randomBytes(32).toString('base64')

describe('SecretBox: secrets sealed at rest with AES-256-GCM', () => {
  it('seals with a fresh nonce each time and opens what it sealed', () => {
    const box = SecretBox.fromEnv({ SECRETS_KEY: key() })
    const [a, b] = [box.seal('whsec_abc'), box.seal('whsec_abc')]
    assert.match(a, /^enc:v1:[0-9a-f]{16}:/)
    assert.notEqual(a, b)
    assert.equal(box.open(a), 'whsec_abc')
    assert.equal(box.open(b), 'whsec_abc')
    assert.equal(box.stale(a), false)
  })

  it('refuses a value that was tampered with, or sealed by a key it does not hold', () => {
    const box = SecretBox.fromEnv({ SECRETS_KEY: key() })
    const sealed = box.seal('whsec_abc')
    const raw = Buffer.from(sealed.split(':')[3], 'base64')
    raw[raw.length - 1] ^= 1
    const tampered = `${sealed.split(':').slice(0, 3).join(':')}:${raw.toString('base64')}`
    assert.throws(() => box.open(tampered))
    assert.throws(() => SecretBox.fromEnv({ SECRETS_KEY: key() }).open(sealed), /neither SECRETS_KEY nor/)
  })

  it('opens what the previous key sealed during a rotation, and calls it stale', () => {
    const [oldKey, newKey] = [key(), key()]
    const sealedBefore = SecretBox.fromEnv({ SECRETS_KEY: oldKey }).seal('whsec_old')
    const rotating = SecretBox.fromEnv({ SECRETS_KEY: newKey, SECRETS_KEY_PREVIOUS: oldKey })
    assert.equal(rotating.open(sealedBefore), 'whsec_old')
    assert.equal(rotating.stale(sealedBefore), true)
    assert.equal(rotating.stale('whsec_plain'), true)
    assert.equal(rotating.stale(rotating.seal('x')), false)
  })

  it('keeps values as given without a key (development), and refuses a key of the wrong size', () => {
    const none = SecretBox.fromEnv({})
    assert.equal(none.seal('whsec_abc'), 'whsec_abc')
    assert.equal(none.open('whsec_abc'), 'whsec_abc')
    assert.equal(none.stale('whsec_abc'), false)
    assert.throws(() => SecretBox.fromEnv({ SECRETS_KEY: randomBytes(16).toString('base64') }), /32 random bytes/)
  })
})
