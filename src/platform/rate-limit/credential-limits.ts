import type { Limit } from './gcra.ts'

/** Login and token endpoints: per account (e-mail or client id) and per address (docs/decisions.md "Rate limits", issue 3 §7). */
export const CREDENTIAL_LIMITS = {
  loginPerAccount: { perMinute: 5, burst: 10 },
  loginPerAddress: { perMinute: 60, burst: 120 },
  tokenPerClient: { perMinute: 120, burst: 240 },
  tokenPerAddress: { perMinute: 300, burst: 600 },
  /** Password reset requests: an address cannot flood an inbox, nor probe many addresses quickly. */
  resetPerAccount: { perMinute: 1, burst: 3 },
  resetPerAddress: { perMinute: 10, burst: 20 },
  /** Pairing codes are 6 digits: an address gets few guesses. */
  pairingPerAddress: { perMinute: 10, burst: 20 },
  /** PIN sign-ins at a till; lock-outs per user and per device bound the guesses further. */
  pinPerAddress: { perMinute: 60, burst: 120 },
  /** GraphQL requests without a valid token: they can only read the refusal, so a few suffice. */
  anonymousGraphqlPerAddress: { perMinute: 60, burst: 120 },
} satisfies Record<string, Limit>
