import type { TSchema } from 'typebox'
import { AppError, type FieldError } from '../../platform/errors/app-error.ts'
import type { Condition, Conditions } from './automations.schemas.ts'

/**
 * The values at a dot path of the event data. A number segment indexes an array; `*` takes every element, so a
 * path may name several values (a condition holds when one of them satisfies it).
 */
export function valuesAt(data: unknown, path: string): unknown[] {
  let current: unknown[] = [data]
  for (const segment of path.split('.')) {
    const next: unknown[] = []
    for (const value of current) {
      if (Array.isArray(value)) {
        if (segment === '*') next.push(...value)
        else if (/^\d+$/.test(segment) && Number(segment) < value.length) next.push(value[Number(segment)])
      } else if (value !== null && typeof value === 'object' && Object.hasOwn(value, segment)) {
        next.push((value as Record<string, unknown>)[segment])
      }
    }
    current = next
  }
  return current.filter((v) => v !== undefined)
}

function equal(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'string') return a === Number(b) && b.trim() !== ''
  if (typeof a === 'string' && typeof b === 'number') return equal(b, a)
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object')
    return JSON.stringify(a) === JSON.stringify(b)
  return a === b
}

/** Orders numbers as numbers and strings (ISO timestamps, codes) as strings; mixed types never compare. */
function compare(a: unknown, b: unknown): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0
  return undefined
}

function holdsFor(value: unknown, op: Condition['op'], operand: unknown): boolean {
  switch (op) {
    case 'eq':
      return equal(value, operand)
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const order = compare(value, operand)
      if (order === undefined) return false
      return op === 'gt' ? order > 0 : op === 'gte' ? order >= 0 : op === 'lt' ? order < 0 : order <= 0
    }
    case 'in':
      return Array.isArray(operand) && operand.some((o) => equal(value, o))
    case 'contains':
      if (typeof value === 'string') return typeof operand === 'string' && value.includes(operand)
      return Array.isArray(value) && value.some((v) => equal(v, operand))
    default:
      return false
  }
}

/** Whether one condition holds for the event data. */
export function holds(condition: Condition, data: unknown): boolean {
  const values = valuesAt(data, condition.path)
  if (condition.op === 'exists') {
    const present = values.some((v) => v !== null)
    return condition.value === false ? !present : present
  }
  // `ne` holds when no value equals the operand, so a missing field is "not equal".
  if (condition.op === 'ne') return !values.some((v) => equal(v, condition.value))
  return values.some((v) => holdsFor(v, condition.op, condition.value))
}

/** `all`: every rule holds (true with none); `any`: at least one holds. */
export function conditionsHold(conditions: Conditions, data: unknown): boolean {
  if (conditions.match === 'any') return conditions.rules.some((c) => holds(c, data))
  return conditions.rules.every((c) => holds(c, data))
}

interface JsonSchema {
  type?: string
  properties?: Record<string, JsonSchema>
  patternProperties?: Record<string, JsonSchema>
  items?: JsonSchema
  anyOf?: JsonSchema[]
}

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null'])

/** Whether `segments` can name something inside a value of `schema` (unknown shapes accept every path). */
function pathFits(schema: JsonSchema, segments: readonly string[]): boolean {
  if (segments.length === 0) return true
  if (schema.anyOf) return schema.anyOf.some((s) => pathFits(s, segments))
  const [head, ...rest] = segments
  if (schema.type === 'array') return (head === '*' || /^\d+$/.test(head)) && pathFits(schema.items ?? {}, rest)
  if (schema.type === 'object' || schema.properties) {
    if (schema.properties && Object.hasOwn(schema.properties, head)) return pathFits(schema.properties[head], rest)
    return schema.patternProperties !== undefined
  }
  return schema.type === undefined || !SCALAR_TYPES.has(schema.type)
}

/** Whether a dot path can exist in data of this shape; a shape of `undefined` is not known and accepts any path. */
export function pathCanExist(shape: TSchema | undefined, path: string): boolean {
  return shape === undefined || pathFits(shape as JsonSchema, path.split('.'))
}

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v)

/** The problems of a rule's conditions against the shape of its trigger's data, as 422 field errors. */
export function conditionErrors(conditions: Conditions, shape: TSchema | undefined): FieldError[] {
  const errors: FieldError[] = []
  conditions.rules.forEach((c, i) => {
    const at = `conditions.rules.${i}`
    if (!pathCanExist(shape, c.path))
      errors.push({
        field: `${at}.path`,
        message: `"${c.path}" cannot exist in this event's data`,
        code: 'unknown_path',
      })
    if (c.op === 'exists') {
      if (c.value !== undefined && typeof c.value !== 'boolean')
        errors.push({ field: `${at}.value`, message: 'must be true or false for exists', code: 'invalid' })
    } else if (c.op === 'in') {
      if (!Array.isArray(c.value) || !c.value.every(isScalar))
        errors.push({ field: `${at}.value`, message: 'must be an array of values for in', code: 'invalid' })
    } else if (['gt', 'gte', 'lt', 'lte'].includes(c.op)) {
      if (typeof c.value !== 'number' && typeof c.value !== 'string')
        errors.push({ field: `${at}.value`, message: `must be a number or a string for ${c.op}`, code: 'invalid' })
    } else if (c.value === undefined || !isScalar(c.value)) {
      errors.push({
        field: `${at}.value`,
        message: `must be a string, number, boolean or null for ${c.op}`,
        code: 'invalid',
      })
    }
  })
  return errors
}

/** Throws a 422 naming every problem, if there is one. */
export function assertNoErrors(errors: FieldError[]): void {
  if (errors.length === 0) return
  throw new AppError('validation', `${errors[0].field} ${errors[0].message}`, { errors })
}
