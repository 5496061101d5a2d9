import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../platform/db/database.ts'
import { systemContext } from '../../platform/http/system-context.ts'
import { type Poller, startPoller } from '../../platform/queue/poller.ts'
import * as repo from './campaigns.repo.ts'
import type { CampaignsService } from './campaigns.service.ts'

/** How often time's moves are looked for: a campaign starts or ends within this of its time, with no request. */
const INTERVAL_MS = 5_000
const BATCH = 200

/**
 * Moves every campaign whose start or end has passed (scheduled → active, → ended), each in its org's scope with
 * its event; answers how many moved. Pricing does not wait for it: it reads a campaign's status at the moment of
 * the sale (statusAt), so the job only makes the stored status and the events catch up.
 */
export async function moveDueCampaigns(database: Database, campaigns: CampaignsService, now = new Date()) {
  const due = await database.unscoped((q) => repo.dueCampaigns(q, now, BATCH))
  for (const { org_id: orgId, id } of due) {
    const ctx = systemContext(database, orgId, ['campaigns:write'])
    await ctx.db.tx(async (q) => {
      const row = await repo.campaignById(q, orgId, id, true)
      if (row) await campaigns.settle(q, ctx, row, now)
    })
  }
  return due.length
}

/** The campaign clock: several workers may run it; a campaign another worker moved is simply settled already. */
export function startCampaignClock(database: Database, campaigns: CampaignsService, log: FastifyBaseLogger): Poller {
  return startPoller({
    intervalMs: INTERVAL_MS,
    async tick() {
      const moved = await moveDueCampaigns(database, campaigns)
      if (moved > 0) log.info({ moved }, 'campaigns moved by time')
      return moved === BATCH
    },
    onError: (error) => log.error({ err: error }, 'campaign clock failed'),
  })
}
