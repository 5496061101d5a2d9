/**
 * A number per JSON Schema content, worked out once per schema object. Fastify adds a copy of every shared schema
 * to each app (and its contexts), so copies are told apart by content, never by identity: two apps of one process
 * (test files run one after another) then find each other's compiled validators and serializers.
 */
const contentIds = new Map<string, number>()
const copies = new WeakMap<object, number>()

export function contentIdOf(schema: object): number {
  let id = copies.get(schema)
  if (id === undefined) {
    const json = JSON.stringify(schema)
    id = contentIds.get(json) ?? contentIds.size
    contentIds.set(json, id)
    copies.set(schema, id)
  }
  return id
}
