import { createHash } from 'node:crypto'
import { constantTimeEqual } from '../../platform/crypto/tokens.ts'

/** RFC 7636 §4.1: 43 to 128 characters of the unreserved set. The challenge (§4.2) is base64url of 32 bytes. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/
const S256_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/

function isValidVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier)
}

export function isValidS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge)
}

/** RFC 7636 §4.6: BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge, compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!isValidVerifier(verifier)) return false
  const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url')
  return constantTimeEqual(computed, challenge)
}
