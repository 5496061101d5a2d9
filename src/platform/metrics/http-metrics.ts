import type { Registry } from 'prom-client'

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

interface Series {
  labels: { method: string; route: string; status: string }
  count: number
  sum: number
  /** Observations per bucket, not cumulative; the last slot is above the largest bound (+Inf only). */
  inBucket: number[]
}

interface Sample {
  labels: Record<string, string | number>
  value: number
  metricName?: string
}

/**
 * `http_requests_total` and `http_request_duration_seconds` (histogram) by method, route pattern and status,
 * counted in plain numbers and turned into samples only when scraped. prom-client's Counter and Histogram validate
 * and hash the label set on every call, which cost more than the 5 % budget on the cheapest (cached) request
 * (docs/benchmarks.md "overheads"); the text they expose is the same.
 */
export class HttpMetrics {
  private readonly series = new Map<string, Series>()

  constructor(registry: Registry) {
    const all = () => [...this.series.values()]
    const metric = (name: string, help: string, type: string, values: () => Sample[]) => ({
      name,
      help,
      type,
      aggregator: 'sum',
      get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
      reset: () => this.series.clear(),
    })
    registry.registerMetric(
      metric('http_requests_total', 'HTTP requests answered', 'counter', () =>
        all().map((s) => ({ labels: s.labels, value: s.count })),
      ) as never,
    )
    registry.registerMetric(
      metric('http_request_duration_seconds', 'Time to answer an HTTP request', 'histogram', () =>
        all().flatMap((s) => {
          let cumulative = 0
          const buckets = BUCKETS.map((le, i) => {
            cumulative += s.inBucket[i]
            return {
              labels: { ...s.labels, le },
              value: cumulative,
              metricName: 'http_request_duration_seconds_bucket',
            }
          })
          return [
            ...buckets,
            { labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: 'http_request_duration_seconds_bucket' },
            { labels: s.labels, value: s.sum, metricName: 'http_request_duration_seconds_sum' },
            { labels: s.labels, value: s.count, metricName: 'http_request_duration_seconds_count' },
          ]
        }),
      ) as never,
    )
  }

  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`
    let s = this.series.get(key)
    if (!s) {
      s = {
        labels: { method, route, status: String(status) },
        count: 0,
        sum: 0,
        inBucket: new Array(BUCKETS.length + 1).fill(0),
      }
      this.series.set(key, s)
    }
    s.count++
    s.sum += seconds
    let i = 0
    while (i < BUCKETS.length && seconds > BUCKETS[i]) i++
    s.inBucket[i]++
  }
}
