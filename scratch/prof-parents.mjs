import { readFileSync, readdirSync } from 'node:fs'
const p = JSON.parse(readFileSync(`/tmp/prof/${readdirSync('/tmp/prof')[0]}`, 'utf8'))
const parent = new Map()
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n)
const name = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`
for (const n of p.nodes.filter((n) => n.callFrame.functionName === process.argv[2]).slice(0, 4)) {
  const chain = []; let c = n; while (c && chain.length < 12) { chain.push(name(c)); c = parent.get(c.id) }
  console.log(chain.join('\n   <- ')); console.log('---')
}
