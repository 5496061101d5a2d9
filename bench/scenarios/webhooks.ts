import { loadConfig } from '../../src/config.ts'
import { createIntegrationsService } from '../../src/modules/integrations/index.ts'
import { createWebhooksService, startWebhookWorker } from '../../src/modules/webhooks/index.ts'
import { SecretBox } from '../../src/platform/crypto/secret-box.ts'
import { Database } from '../../src/platform/db/database.ts'
import { emitEvent } from '../../src/platform/events/outbox.ts'
import { systemContext } from '../../src/platform/http/system-context.ts'
import type { Runtime } from '../../src/platform/runtime.ts'
import { HttpsReceiver, testPki } from '../../test/support/https-receiver.ts'
import type { BenchRow, BenchTarget } from '../lib/types.ts'

const EVENTS = 1000

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

/**
 * Issue 5 "Speed": 1,000 outbox events committed one by one while a delivery worker (in this process, on the
 * bench server's database) sends them to a local HTTPS receiver. Reports end-to-end events per second (first
 * commit to last receipt) and the delay from each event's commit to its first attempt arriving (p50, p99).
 */
export default async function webhooks(t: BenchTarget): Promise<BenchRow[]> {
  const receiver = await new HttpsReceiver().start()
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: t.ownerUrl,
    WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32',
    LOG_LEVEL: 'silent',
  })
  const database = new Database({
    connectionString: t.ownerUrl,
    max: 10,
  })
  // The worker needs only the configuration and the database of a runtime.
  const runtime = { config, database, secrets: SecretBox.fromEnv({}) } as unknown as Runtime
  const ctx = systemContext(database, t.orgId, ['webhooks:write'])
  const integrations = createIntegrationsService(createWebhooksService(runtime))
  const integration = await integrations.install(ctx, { name: 'Bench receiver', type: 'custom' })
  await integrations.registerWebhook(ctx, integration.id, { url: receiver.url('/bench'), events: ['order.created'] })
  const worker = startWebhookWorker(runtime, { ca: testPki().ca })
  try {
    const committedAt = new Map<string, number>()
    const first = performance.now()
    for (let i = 0; i < EVENTS; i++) {
      const ref = `ord_bench_${i}`
      await database.transaction(t.orgId, (q) => emitEvent(q, t.orgId, 'order.created', { id: ref }))
      committedAt.set(ref, Date.now())
    }
    await receiver.waitFor((received) => received.length >= EVENTS, 120_000)
    const last = performance.now()
    const delays = receiver.received.map((r) => r.at - committedAt.get(JSON.parse(r.body).data.id)!)
    const perSecond = EVENTS / ((last - first) / 1000)
    return [
      {
        engine: t.engine,
        scenario: `webhooks: ${EVENTS} events, commit to receipt over HTTPS`,
        reqPerSec: perSecond,
        p99Ms: percentile(delays, 99),
        note: `(events/s end to end; commit to first attempt p50 ${percentile(delays, 50)} ms, p99 ${percentile(delays, 99)} ms)`,
      },
    ]
  } finally {
    await worker.stop()
    await database.close()
    await receiver.close()
  }
}
