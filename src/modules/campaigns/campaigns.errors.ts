import { createError } from '../../platform/errors/codes.ts'

/** The campaigns module's error codes (docs/api-conventions.md "Error codes"). */
export const CampaignErrors = {
  ILLEGAL_MOVE: createError('CAMPAIGN_ILLEGAL_MOVE', 'conflict'),
  ENDED: createError('CAMPAIGN_ENDED', 'conflict'),
  VOUCHER_USED_UP: createError('VOUCHER_USED_UP', 'conflict'),
  USAGE_LIMIT_REACHED: createError('CAMPAIGN_USAGE_LIMIT_REACHED', 'conflict'),
  CUSTOMER_LIMIT_REACHED: createError('CAMPAIGN_CUSTOMER_LIMIT_REACHED', 'conflict'),
  VOUCHER_CODE_TAKEN: createError('VOUCHER_CODE_TAKEN', 'conflict'),
} as const

/** The error of a limit that campaign_claim refused, by the code it raised. */
export const claimErrors: Record<string, (typeof CampaignErrors)[keyof typeof CampaignErrors]> = {
  VOUCHER_USED_UP: CampaignErrors.VOUCHER_USED_UP,
  CAMPAIGN_USAGE_LIMIT_REACHED: CampaignErrors.USAGE_LIMIT_REACHED,
  CAMPAIGN_CUSTOMER_LIMIT_REACHED: CampaignErrors.CUSTOMER_LIMIT_REACHED,
}
