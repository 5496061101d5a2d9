import {
  type ASTVisitor,
  GraphQLError,
  type GraphQLField,
  GraphQLList,
  type GraphQLNamedType,
  GraphQLObjectType,
  getNamedType,
  getNullableType,
  Kind,
  type OperationDefinitionNode,
  SchemaMetaFieldDef,
  type SelectionSetNode,
  TypeMetaFieldDef,
  type ValidationContext,
  type ValueNode,
} from 'graphql'
import { MAX_LIMIT } from './schema.ts'

/** Fields nested deeper than this are refused (products > category > products > category > name is 5). */
const MAX_DEPTH = 6
/** Introspection's own nesting (a type's `ofType` chain): GraphiQL's standard introspection query is 13 deep. */
const MAX_INTROSPECTION_DEPTH = 15
/** Aliased fields in one request: aliases repeat work that cost alone does not see (a scalar asked 10,000 times). */
const MAX_ALIASES = 100
/** The most objects one request may ask for, estimated before it runs. */
const MAX_COST = 50_000
/** What a list without a `limit` argument (a product's modifier groups, a group's options) is assumed to hold. */
const UNBOUNDED_LIST_ESTIMATE = 10

interface Measure {
  depth: number
  /** Depth counted from the first introspection field (`__schema`, `__type`) down. */
  introspectionDepth: number
  cost: number
  aliases: number
}

const NONE: Measure = { depth: 0, introspectionDepth: 0, cost: 0, aliases: 0 }

/** The meta fields of introspection, which no object type lists among its fields. */
const META_FIELDS: Record<string, GraphQLField<unknown, unknown>> = {
  __schema: SchemaMetaFieldDef,
  __type: TypeMetaFieldDef,
}

/**
 * Refuses an abusive query during validation, before any resolver runs: its depth (fields within fields) and its
 * cost, the number of objects it could return, where a list field counts its `limit` (a variable counts as the
 * maximum, since validation results are cached per query text, not per variables), and its aliases.
 * Introspection counts too, with a depth of its own (type references nest deeply).
 */
export function queryLimits(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation: OperationDefinitionNode) {
      const schema = context.getSchema()
      const root =
        operation.operation === 'query'
          ? schema.getQueryType()
          : operation.operation === 'mutation'
            ? schema.getMutationType()
            : schema.getSubscriptionType()
      if (!root) return
      const { depth, introspectionDepth, cost, aliases } = measure(context, operation.selectionSet, root, new Set())
      if (introspectionDepth > MAX_INTROSPECTION_DEPTH) {
        context.reportError(
          new GraphQLError(
            `Introspection is too deep: depth ${introspectionDepth} exceeds the maximum of ${MAX_INTROSPECTION_DEPTH}`,
            {
              nodes: [operation],
              extensions: { code: 'QUERY_TOO_DEEP', depth: introspectionDepth, maxDepth: MAX_INTROSPECTION_DEPTH },
            },
          ),
        )
      }
      if (aliases > MAX_ALIASES) {
        context.reportError(
          new GraphQLError(`Query has too many aliases: ${aliases} exceeds the maximum of ${MAX_ALIASES}`, {
            nodes: [operation],
            extensions: { code: 'QUERY_TOO_MANY_ALIASES', aliases, maxAliases: MAX_ALIASES },
          }),
        )
      }
      if (depth > MAX_DEPTH) {
        context.reportError(
          new GraphQLError(`Query is too deep: depth ${depth} exceeds the maximum of ${MAX_DEPTH}`, {
            nodes: [operation],
            extensions: { code: 'QUERY_TOO_DEEP', depth, maxDepth: MAX_DEPTH },
          }),
        )
      }
      if (cost > MAX_COST) {
        context.reportError(
          new GraphQLError(`Query is too expensive: estimated cost ${cost} exceeds the maximum of ${MAX_COST}`, {
            nodes: [operation],
            extensions: { code: 'QUERY_TOO_COMPLEX', cost, maxCost: MAX_COST },
          }),
        )
      }
    },
  }
}

function measure(
  context: ValidationContext,
  selectionSet: SelectionSetNode,
  type: GraphQLNamedType,
  fragmentsOnPath: Set<string>,
): Measure {
  let depth = 0
  let introspectionDepth = 0
  let cost = 0
  let aliases = 0
  for (const selection of selectionSet.selections) {
    let inner: Measure = NONE
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value
      const alias = selection.alias ? 1 : 0
      const meta = META_FIELDS[name]
      const field = meta ?? (type instanceof GraphQLObjectType ? type.getFields()[name] : undefined)
      // __typename, and unknown fields (reported by the specified rules), cost nothing but their alias.
      if (!field) {
        aliases += alias
        continue
      }
      const child = getNamedType(field.type)
      const below = selection.selectionSet ? measure(context, selection.selectionSet, child, fragmentsOnPath) : NONE
      const isObject = selection.selectionSet !== undefined
      const multiplier =
        getNullableType(field.type) instanceof GraphQLList ? listSize(field, selection.arguments ?? []) : 1
      const inIntrospection = meta !== undefined || name.startsWith('__') || child.name.startsWith('__')
      inner = {
        depth: inIntrospection ? below.depth : below.depth + 1,
        introspectionDepth: inIntrospection ? below.introspectionDepth + 1 : below.introspectionDepth,
        cost: isObject ? multiplier * (1 + below.cost) : 0,
        aliases: below.aliases + alias,
      }
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const on = selection.typeCondition ? context.getSchema().getType(selection.typeCondition.name.value) : type
      inner = measure(context, selection.selectionSet, on ?? type, fragmentsOnPath)
    } else {
      const name = selection.name.value
      const fragment = context.getFragment(name)
      // A fragment cycle is reported by the specified rules; here it must only not recurse forever.
      if (!fragment || fragmentsOnPath.has(name)) continue
      const on = context.getSchema().getType(fragment.typeCondition.name.value) ?? type
      inner = measure(context, fragment.selectionSet, on, new Set([...fragmentsOnPath, name]))
    }
    depth = Math.max(depth, inner.depth)
    introspectionDepth = Math.max(introspectionDepth, inner.introspectionDepth)
    cost += inner.cost
    aliases += inner.aliases
  }
  return { depth, introspectionDepth, cost, aliases }
}

/** The number of items a list field may return, from its `limit` argument or its declared default. */
function listSize(
  field: GraphQLField<unknown, unknown>,
  args: readonly { name: { value: string }; value: ValueNode }[],
): number {
  const limitArg = field.args.find((a) => a.name === 'limit')
  if (!limitArg) return UNBOUNDED_LIST_ESTIMATE
  const given = args.find((a) => a.name.value === 'limit')
  if (!given) return typeof limitArg.defaultValue === 'number' ? clamp(limitArg.defaultValue) : MAX_LIMIT
  if (given.value.kind === Kind.INT) return clamp(Number(given.value.value))
  return MAX_LIMIT
}

function clamp(n: number): number {
  return Math.min(Math.max(n, 1), MAX_LIMIT)
}
