import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../platform/db/database.ts'
import { systemContext } from '../../platform/http/system-context.ts'
import { type Poller, startPoller } from '../../platform/queue/poller.ts'
import * as repo from './loyalty.repo.ts'
import type { LoyaltyService } from './loyalty.service.ts'

const INTERVAL_MS = 60_000
const BATCH = 500

/**
 * Expires the lots past their expiry of every member that has some, each in its org's scope with its movements;
 * answers how many members it handled. Reads never wait for it: a balance leaves out expired lots already.
 */
export async function expireDuePoints(database: Database, loyalty: LoyaltyService, now = new Date()) {
  const due = await database.unscoped((q) => repo.membersWithExpiredLots(q, now, BATCH))
  for (const { org_id: orgId, member_id: memberId } of due) {
    await loyalty.expireMember(systemContext(database, orgId, ['loyalty:write']), memberId, now)
  }
  return due.length
}

export function startPointsExpiry(database: Database, loyalty: LoyaltyService, log: FastifyBaseLogger): Poller {
  return startPoller({
    intervalMs: INTERVAL_MS,
    async tick() {
      const members = await expireDuePoints(database, loyalty)
      if (members > 0) log.info({ members }, 'loyalty points expired')
      return members === BATCH
    },
    onError: (error) => log.error({ err: error }, 'loyalty points expiry failed'),
  })
}
