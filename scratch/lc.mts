import { localClock } from '../src/platform/time/local-clock.ts'
const N = 200000
let t = performance.now()
for (let i = 0; i < N; i++) localClock(new Date(), 'Europe/Berlin')
console.log('µs', ((performance.now() - t) * 1000) / N)
