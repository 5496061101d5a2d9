import { BundleSchema } from './bundles/bundles.schemas.ts'
import { CategorySchema } from './categories/categories.schemas.ts'
import { MarkdownSchema } from './markdowns/markdowns.schemas.ts'
import { ModifierGroupSchema, ModifierOptionSchema } from './modifiers/modifiers.schemas.ts'
import { PriceListSchema } from './price-lists/price-lists.schemas.ts'
import { ProductSchema } from './products/products.schemas.ts'
import { SoldOutSchema } from './sold-out/sold-out.schemas.ts'
import { VariantSchema } from './variants/variants.schemas.ts'

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
