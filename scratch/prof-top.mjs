import { readFileSync, readdirSync } from 'node:fs'
const dir = '/tmp/prof'
const f = readdirSync(dir)[0]
const p = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'))
const self = new Map()
const dt = p.timeDeltas; const byId = new Map(p.nodes.map((n) => [n.id, n]))
const counts = new Map()
for (let i = 0; i < p.samples.length; i++) counts.set(p.samples[i], (counts.get(p.samples[i]) ?? 0) + (dt[i] ?? 0))
for (const [id, t] of counts) { const n = byId.get(id); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + t) }
const total = [...self.values()].reduce((a, b) => a + b, 0)
for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((t / total * 100).toFixed(2) + '%', k)
const camp = [...self].filter(([k]) => /campaign|local-clock|pricing|totals|money/.test(k)).reduce((a, [, t]) => a + t, 0)
console.log('campaigns+pricing files total', (camp / total * 100).toFixed(2) + '%')
