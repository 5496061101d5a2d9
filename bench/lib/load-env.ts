import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testPki } from '../../test/support/https-receiver.ts'

/**
 * The environment of the `opentill serve` and `worker` processes a sustained load runs (bench/mixed-load.ts,
 * bench/memory.ts): production mode on `databaseUrl` and `redisUrl`, webhooks to the test receiver on loopback,
 * whose certificate authority they trust, and a metrics token.
 */
export function loadProcessEnv(databaseUrl: string, redisUrl: string): NodeJS.ProcessEnv {
  const ca = join(tmpdir(), `opentill-load-ca-${process.pid}.pem`)
  writeFileSync(ca, testPki().ca)
  return {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'error',
    WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32',
    BASE_URL: 'https://api.load.example',
    APP_URL: 'https://app.load.example',
    METRICS_TOKEN: 'bench',
    SECRETS_KEY: randomBytes(32).toString('base64'),
    NODE_EXTRA_CA_CERTS: ca,
  }
}
