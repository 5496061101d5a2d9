import { createError } from '../../platform/errors/codes.ts'

/** The kitchen feed's error codes (docs/api-conventions.md "Error codes"). */
export const KdsErrors = {
  /** The org holds KDS_MAX_STREAMS_PER_ORG open streams already. */
  STREAM_LIMIT: createError('KDS_STREAM_LIMIT', 'rate-limited'),
  /** The stream's credential (session or OAuth grant) holds KDS_MAX_STREAMS_PER_CREDENTIAL open streams already. */
  CREDENTIAL_STREAM_LIMIT: createError('KDS_CREDENTIAL_STREAM_LIMIT', 'rate-limited'),
} as const
