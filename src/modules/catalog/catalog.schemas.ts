import { BundleSchema } from './bundles.schemas.ts'
import { CategorySchema } from './categories.schemas.ts'
import { MarkdownSchema } from './markdowns.schemas.ts'
import { ModifierGroupSchema, ModifierOptionSchema } from './modifiers.schemas.ts'
import { PriceListSchema } from './price-lists.schemas.ts'
import { ProductSchema } from './products.schemas.ts'
import { SoldOutSchema } from './sold-out.schemas.ts'
import { VariantSchema } from './variants.schemas.ts'

/** The catalog's named shapes, for a module above that answers them too (a till's snapshot). */
export const CATALOG_SCHEMAS = [
  ProductSchema,
  VariantSchema,
  CategorySchema,
  ModifierOptionSchema,
  ModifierGroupSchema,
  PriceListSchema,
  BundleSchema,
  MarkdownSchema,
  SoldOutSchema,
] as const
