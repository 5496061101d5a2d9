import { readFileSync } from 'node:fs'
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const self = new Map()
const dt = p.timeDeltas; const byId = new Map(p.nodes.map((n) => [n.id, n]))
const counts = new Map()
for (let i = 0; i < p.samples.length; i++) counts.set(p.samples[i], (counts.get(p.samples[i]) ?? 0) + (dt[i] ?? 0))
for (const [id, t] of counts) { const n = byId.get(id); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + t) }
const total = [...self.values()].reduce((a, b) => a + b, 0) - (self.get('(idle) :-1') ?? 0)
for (const [k, t] of [...self].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log((t / total * 100).toFixed(2) + '%', k)
const pick = (re) => [...self].filter(([k]) => re.test(k)).reduce((a, [, t]) => a + t, 0) / total * 100
console.log('campaigns files', pick(/campaigns\//).toFixed(2), 'pricing/orders', pick(/orders\//).toFixed(2), 'fast-json-stringify', pick(/fast-json-stringify|serializer/).toFixed(2), 'local-clock', pick(/local-clock/).toFixed(2))
