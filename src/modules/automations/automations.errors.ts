import { createError } from '../../platform/errors/codes.ts'

/** The automations module's error codes (docs/api-conventions.md "Error codes"). */
export const AutomationErrors = {
  RUN_UNDER_WAY: createError('AUTOMATION_RUN_UNDER_WAY', 'conflict'),
  RUN_NOT_FAILED: createError('AUTOMATION_RUN_NOT_FAILED', 'conflict'),
  RUN_NOT_RESUMABLE: createError('AUTOMATION_RUN_NOT_RESUMABLE', 'conflict'),
  /** A real run on data the caller made up is a login's (an owner's or a manager's); an app may only dry-run. */
  MANUAL_RUN_NEEDS_LOGIN: createError('AUTOMATION_MANUAL_RUN_NEEDS_LOGIN', 'forbidden'),
  /** The org holds AUTOMATIONS_MAX_RULES rules already. */
  RULE_LIMIT: createError('AUTOMATION_RULE_LIMIT', 'conflict'),
  /** A run started by hand while the org has used its plan's runs of the minute. */
  RUN_LIMIT: createError('AUTOMATION_RUN_LIMIT', 'rate-limited'),
  /** A step whose action needs a scope the rule's author no longer holds (a run step's error, not an answer). */
  AUTHOR_LACKS_SCOPE: createError('AUTOMATION_AUTHOR_LACKS_SCOPE', 'forbidden'),
  /** A step of a rule whose author can no longer act (deactivated, revoked): a run step's error. */
  AUTHOR_STOPPED: createError('AUTOMATION_AUTHOR_STOPPED', 'forbidden'),
} as const
