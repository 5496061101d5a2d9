// `npx tsx bench/growth.ts`: how a till's reads grow with the catalog and the customer list. One org on a fresh
// database of DATABASE_URL (default postgres://127.0.0.1:5432/test), no Redis, no response cache (the services
// are called directly: the API's handlers minus HTTP). At each size of BENCH_SIZES (1000,10000,100000,1000000)
// it grows the org's products and customers by bulk SQL to that size, vacuums and analyses (as autovacuum would
// after a load), then times BENCH_SAMPLES (40)
// sequential calls of each read and prints p50 and p95 in ms as a JSON line per size. Each call asks for a
// different value (a barcode, a name), so no cache of any layer answers it. Then the events API at BENCH_EVENTS
// (1,000,000) events, and the product list of one org among BENCH_ORGS (1,100,10000) orgs.
import { loadConfig, withDefaultUser } from '../src/config.ts'
import { systemContext } from '../src/platform/http/system-context.ts'
import { openRuntime } from '../src/platform/runtime.ts'
import { createServices } from '../src/services.ts'
import { sql } from '../test/support/server-database.ts'
import { createBenchDatabase, createBenchOrg } from './lib/database.ts'

const sizes = (process.env.BENCH_SIZES ?? '1000,10000,100000,1000000').split(',').map(Number)
const samples = Number(process.env.BENCH_SAMPLES ?? 40)
const serverUrl = withDefaultUser(process.env.DATABASE_URL || 'postgres://127.0.0.1:5432/test')!

const database = await createBenchDatabase(serverUrl)
const databaseUrl = database.url
const runtime = await openRuntime(
  loadConfig({ NODE_ENV: 'test', DATABASE_URL: databaseUrl, REDIS_URL: '', LOG_LEVEL: 'warn' }),
  { migrate: true },
)
const services = createServices(runtime)

/** Grows the org to `size` products and customers. Names mix common words, so a word search finds many. */
async function grow(orgId: string, from: number, size: number): Promise<void> {
  const words = `ARRAY['Flat','Iced','Oat','Large','Small','Double','Vanilla','Caramel','Green','Black','Spiced','Honey']`
  const things = `ARRAY['Latte','Mocha','Tea','Scone','Muffin','Bagel','Cookie','Juice','Soda','Water','Cake','Wrap']`
  for (let start = from; start < size; start += 100_000) {
    const end = Math.min(size, start + 100_000) - 1
    await sql(
      databaseUrl,
      `INSERT INTO products (id, org_id, name, sku, barcodes, base_price)
       SELECT 'prod_' || lpad(i::text, 26, '0'), $1,
              (${words})[1 + i % 12] || ' ' || (${things})[1 + (i / 12) % 12] || ' ' || i,
              'SKU-' || i, ARRAY[(4000000000000 + i)::text], 100 + i % 900
       FROM generate_series($2::int, $3::int) AS i`,
      [orgId, start, end],
    )
    await sql(
      databaseUrl,
      `INSERT INTO customers (id, org_id, first_name, last_name, email, email_key, phone, phone_key)
       SELECT 'cus_' || lpad(i::text, 26, '0'), $1, (${words})[1 + i % 12], 'Family' || i,
              'person' || i || '@example.test', 'person' || i || '@example.test',
              '+64 21 ' || (1000000 + i), '+6421' || (1000000 + i)
       FROM generate_series($2::int, $3::int) AS i`,
      [orgId, start, end],
    )
  }
  // What autovacuum does after a bulk load: GIN's pending list merged into the index, statistics taken.
  await sql(databaseUrl, 'VACUUM ANALYZE products')
  await sql(databaseUrl, 'VACUUM ANALYZE customers')
}

async function time(fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const ms: number[] = []
  for (let i = 0; i < samples; i++) {
    const started = performance.now()
    await fn(i)
    ms.push(performance.now() - started)
  }
  ms.sort((a, b) => a - b)
  const at = (q: number) => Number(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(2))
  return { p50: at(0.5), p95: at(0.95) }
}

try {
  const org = await createBenchOrg(services)
  const ctx = systemContext(runtime.database, org.id, ['catalog:read', 'customers:read'])
  const { products } = services.catalog
  let grown = 0
  for (const size of sizes) {
    await grow(org.id, grown, size)
    grown = size
    // Values spread over the whole catalog, each asked once: a different row (and index page) every call.
    const nth = (i: number) => Math.floor(((i + 0.5) * size) / samples)
    const figures = {
      size,
      firstPage: await time(() => products.list(ctx, { limit: 50 })),
      barcodeFilter: await time((i) => products.list(ctx, { limit: 50, barcode: String(4000000000000 + nth(i)) })),
      barcodeAsQ: await time((i) => products.list(ctx, { limit: 50, q: String(4000000000000 + nth(i)) })),
      skuFilter: await time((i) => products.list(ctx, { limit: 50, sku: `SKU-${nth(i)}` })),
      rareNameQ: await time((i) => products.list(ctx, { limit: 50, q: `Latte ${nth(i)}` })),
      commonWordQ: await time(() => products.list(ctx, { limit: 50, q: 'mocha' })),
      customerByName: await time((i) => services.customers.list(ctx, { limit: 50, q: `Family${nth(i)}` })),
      customerByEmail: await time((i) => services.customers.list(ctx, { limit: 50, q: `person${nth(i)}@` })),
      customerByPhone: await time((i) => services.customers.list(ctx, { limit: 50, q: `21 ${1000000 + nth(i)}` })),
    }
    console.log(JSON.stringify(figures))
  }

  // The events API at BENCH_EVENTS (1,000,000) events of the org, written in transactions of 10,000.
  const events = Number(process.env.BENCH_EVENTS ?? 1_000_000)
  for (let start = 0; start < events; start += 10_000) {
    await sql(
      databaseUrl,
      `INSERT INTO events (id, org_id, type, data, created_at)
       SELECT 'evt_' || lpad(i::text, 26, '0'), $1, (ARRAY['order.created','payment.captured','order.completed'])[1 + i % 3],
              jsonb_build_object('id', 'ord_' || i), now() - make_interval(secs => ($3::int - i))
       FROM generate_series($2::int, $2::int + 9999) AS i`,
      [org.id, start, events],
    )
  }
  if (events > 0) {
    await sql(databaseUrl, 'VACUUM ANALYZE events')
    const eventsCtx = systemContext(runtime.database, org.id, ['webhooks:write'])
    const firstEvents = await services.events.list(eventsCtx, { limit: 100 })
    let middle = firstEvents.pagination.nextCursor ?? undefined
    for (let page = 0; page < 20 && middle; page++)
      middle =
        (await services.events.list(eventsCtx, { limit: 500, cursor: middle })).pagination.nextCursor ?? undefined
    console.log(
      JSON.stringify({
        events,
        firstPage: await time(() => services.events.list(eventsCtx, { limit: 100 })),
        laterPage: await time(() => services.events.list(eventsCtx, { limit: 100, cursor: middle })),
        oneType: await time(() => services.events.list(eventsCtx, { limit: 100, type: ['order.completed'] })),
      }),
    )
  }

  // The product list of one org among many: 10 products each for BENCH_ORGS (1,100,10000) orgs in all.
  let orgs = 1
  for (const count of (process.env.BENCH_ORGS ?? '1,100,10000').split(',').map(Number)) {
    if (count > orgs) {
      await sql(
        databaseUrl,
        `WITH made AS (
           INSERT INTO orgs (id, name, currency) SELECT 'org_bench' || lpad(o::text, 6, '0'), 'Shop ' || o, 'USD'
           FROM generate_series($1::int, $2::int) AS o RETURNING id)
         INSERT INTO products (id, org_id, name, sku, base_price)
         SELECT 'prod_' || made.id || '_' || p, made.id, 'Item ' || p, 'SKU-' || p, 100 FROM made, generate_series(1, 10) AS p`,
        [orgs, count - 1],
      )
      await sql(databaseUrl, 'VACUUM ANALYZE products')
      await sql(databaseUrl, 'VACUUM ANALYZE orgs')
      orgs = count
    }
    const other = systemContext(runtime.database, 'org_bench000001', ['catalog:read'])
    console.log(
      JSON.stringify({
        orgs,
        benchOrgFirstPage: await time(() => products.list(ctx, { limit: 50 })),
        smallOrgFirstPage: orgs > 1 ? await time(() => products.list(other, { limit: 50 })) : null,
      }),
    )
  }
} finally {
  await runtime.close()
  await database.drop()
}
