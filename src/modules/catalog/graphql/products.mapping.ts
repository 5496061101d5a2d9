import type { FastifySchemaValidationError } from 'fastify'
import type { TSchema } from 'typebox'
import { fieldErrors } from '../../../platform/errors/validation.ts'
import { buildValidator } from '../../../platform/http/validator.ts'
import { CreateProductBody, type Product, type ProductInput, UpdateProductBody } from '../products/products.schemas.ts'
import { userInputError } from './errors.ts'

/** A product as the GraphQL schema shows it. */
export interface GraphqlProduct {
  id: string
  name: string
  description: string
  sku: string
  barcodes: string[]
  basePrice: number
  currency: string
  isActive: boolean
  categoryId: string | null
  tags: string[]
  version: number
  createdAt: string
  updatedAt: string
}

export function toGraphqlProduct(p: Product): GraphqlProduct {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    sku: p.sku,
    barcodes: p.barcodes,
    basePrice: p.base_price,
    currency: p.currency,
    isActive: p.is_active,
    categoryId: p.category_id,
    tags: p.tags,
    version: p.version,
    createdAt: p.created_at,
    updatedAt: p.updated_at,
  }
}

const fieldNames: Record<string, string> = {
  name: 'name',
  sku: 'sku',
  description: 'description',
  barcodes: 'barcodes',
  basePrice: 'base_price',
  categoryId: 'category_id',
  tags: 'tags',
  isActive: 'is_active',
  version: 'version',
}

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null }

const compileBody = buildValidator()

function compile(schema: TSchema): Validate {
  return compileBody({ schema, httpPart: 'body', method: 'POST', url: '/catalog/graphql' }) as unknown as Validate
}

const validateCreate = compile(CreateProductBody)
const validateUpdate = compile(UpdateProductBody)

/**
 * GraphQL input in the REST body's terms, checked against the REST body schema, so both APIs accept exactly the
 * same products and a refusal names the field (in camelCase).
 */
function toBody(input: Record<string, unknown>, validate: Validate): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(input)) {
    if (value !== undefined) body[fieldNames[key] ?? key] = value
  }
  if (!validate(body)) throw userInputError(fieldErrors(validate.errors ?? []))
  return body
}

export function createInput(input: Record<string, unknown>): CreateProductBody {
  return toBody(input, validateCreate) as unknown as CreateProductBody
}

export function updateInput(input: Record<string, unknown>): { fields: ProductInput; version: number | undefined } {
  const { version, ...fields } = toBody(input, validateUpdate)
  return { fields: fields as ProductInput, version: version as number | undefined }
}
