/**
 * A number per JSON Schema content, worked out once per schema object. Fastify adds a copy of every shared schema
 * to each app (and its contexts), so copies are told apart by content, never by identity: two apps of one process
 * (test files run one after another) then find each other's compiled validators and serializers.
 */
const contentIds = new Map<string, number>()
const copies = new WeakMap<object, number>()

export function contentIdOf(schema: unknown): number {
  const copy = typeof schema === 'object' && schema !== null ? schema : null
  let id = copy ? copies.get(copy) : undefined
  if (id === undefined) {
    // A boolean schema (Fastify takes `true` and `false`) has no identity to remember.
    const json = JSON.stringify(schema)
    id = contentIds.get(json)
    if (id === undefined) {
      id = contentIds.size
      contentIds.set(json, id)
    }
    if (copy) copies.set(copy, id)
  }
  return id
}
