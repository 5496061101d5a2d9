import SerializerSelector from '@fastify/fast-json-stringify-compiler'
import type { FastifySerializerCompiler } from 'fastify'
import { contentIdOf } from './schema-content.ts'

type Serializer = (data: unknown) => string

/**
 * The answers' serializers compiled in this process, by what they are compiled from: building them with
 * fast-json-stringify was the largest part of an app's start (a quarter of its CPU), and an app built again in the
 * same process (a test file after another) would compile the same schemas again.
 */
const compiled = new Map<string, Serializer>()
const build = SerializerSelector()

/**
 * Fastify's serializer factory (schemaController.compilersFactory.buildSerializer), Fastify's own
 * (@fastify/fast-json-stringify-compiler) with its serializers kept per process: a serializer depends only on the
 * route's schema, the context's shared schemas and the serializer options, so those are its key.
 */
export function buildSharedSerializer(
  externalSchemas: Record<string, object> = {},
  options: object = {},
): FastifySerializerCompiler<unknown> {
  const compile = build(externalSchemas, options)
  const context = contentIdOf({
    options,
    shared: Object.entries(externalSchemas).map(([id, schema]) => [id, contentIdOf(schema)]),
  })
  return (route) => {
    const key = `${context}|${contentIdOf(route.schema)}`
    let serializer = compiled.get(key)
    if (!serializer) {
      serializer = compile(route as Parameters<typeof compile>[0]) as Serializer
      compiled.set(key, serializer)
    }
    return serializer
  }
}
