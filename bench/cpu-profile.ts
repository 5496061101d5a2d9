// `npx tsx bench/cpu-profile.ts <profile.cpuprofile> [function]`: reads a V8 CPU profile (`node --cpu-prof`, or
// BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/p' for the bench server) and prints the functions with
// the most self time, idle left out; with a function name, also the call chains that lead to it.
import { readFileSync } from 'node:fs'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

const [file, traced] = process.argv.slice(2)
if (!file) {
  console.error('usage: npx tsx bench/cpu-profile.ts <profile.cpuprofile> [function]')
  process.exit(2)
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const nameOf = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`

// Self time per function: each sample's time delta goes to the node it was taken in.
const self = new Map<string, number>()
profile.samples.forEach((id, i) => {
  const node = byId.get(id)
  if (!node || node.callFrame.functionName === '(idle)') return
  const name = nameOf(node)
  self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0))
})
const total = [...self.values()].reduce((a, b) => a + b, 0)
for (const [name, time] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40))
  console.log(`${((time / total) * 100).toFixed(2).padStart(6)}%  ${name}`)

if (traced) {
  const parentOf = new Map<number, ProfileNode>()
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n)
  for (const node of profile.nodes.filter((n) => n.callFrame.functionName === traced).slice(0, 4)) {
    const chain: string[] = []
    for (let at: ProfileNode | undefined = node; at && chain.length < 12; at = parentOf.get(at.id))
      chain.push(nameOf(at))
    console.log(`\n${chain.join('\n   <- ')}`)
  }
}
