import { createError } from '../../platform/errors/codes.ts'

/** The automations module's error codes (docs/api-conventions.md "Error codes"). */
export const AutomationErrors = {
  RUN_UNDER_WAY: createError('AUTOMATION_RUN_UNDER_WAY', 'conflict'),
  RUN_NOT_FAILED: createError('AUTOMATION_RUN_NOT_FAILED', 'conflict'),
  RUN_NOT_RESUMABLE: createError('AUTOMATION_RUN_NOT_RESUMABLE', 'conflict'),
  /** A real run on data the caller made up is a login's (an owner's or a manager's); an app may only dry-run. */
  MANUAL_RUN_NEEDS_LOGIN: createError('AUTOMATION_MANUAL_RUN_NEEDS_LOGIN', 'forbidden'),
} as const
