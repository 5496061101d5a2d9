// The part of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  /** One request of a sequence, as `setupRequest` gets it and answers it. */
  interface Request {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
  }
  interface Options {
    url: string
    method?: string
    headers?: Record<string, string>
    body?: string
    connections?: number
    duration?: number
    /** Stops after this many requests instead of after `duration`. */
    amount?: number
    requests?: (Request & {
      setupRequest?: (request: Request) => Request
      onResponse?: (status: number, body: string) => void
    })[]
  }
  interface Histogram {
    average: number
    p50: number
    p90: number
    p99: number
    max: number
    total: number
  }
  interface Result {
    requests: Histogram
    latency: Histogram
    throughput: Histogram
    errors: number
    timeouts: number
    non2xx: number
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
