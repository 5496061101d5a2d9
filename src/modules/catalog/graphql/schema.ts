/**
 * The GraphQL catalog schema (SPEC (docs/decisions.md) "GraphQL catalog API"): camelCase fields, money as Float in the org currency's
 * major unit, timestamps as ISO 8601 UTC strings. Root fields are nullable so that one refused field (scope,
 * org, input) leaves the rest of the answer intact, as the GraphQL envelope intends.
 */
export const MAX_LIMIT = 200
export const DEFAULT_LIMIT = 50

export const typeDefs = /* GraphQL */ `
  "A sellable item of the catalog."
  type Product {
    id: ID!
    name: String!
    description: String!
    sku: String!
    barcodes: [String!]!
    "Decimal amount in the org currency's major unit (12.5)."
    basePrice: Float!
    "ISO 4217 currency of basePrice (the org currency)."
    currency: String!
    "false once archived (deleteProduct)."
    isActive: Boolean!
    categoryId: ID
    category: Category
    tags: [String!]!
    "Modifier groups offered with this product, in their display order."
    modifierGroups: [ModifierGroup!]!
    "The product's variants (sizes, colours…), in creation order, archived ones included (see isActive)."
    variants: [Variant!]!
    "Optimistic concurrency version; pass it to updateProduct to refuse lost updates."
    version: Int!
    "ISO 8601 UTC timestamp."
    createdAt: String!
    "ISO 8601 UTC timestamp."
    updatedAt: String!
  }

  type Category {
    id: ID!
    name: String!
    description: String!
    parentId: ID
    sortOrder: Int!
    isActive: Boolean!
    "The category's products in creation order (limit 1 to ${MAX_LIMIT})."
    products(isActive: Boolean, limit: Int = ${DEFAULT_LIMIT}): [Product!]!
    createdAt: String!
    updatedAt: String!
  }

  "A variant of a product: its own SKU and option values, and its own price or the product's."
  type Variant {
    id: ID!
    productId: ID!
    name: String!
    sku: String!
    "The options that make this variant, e.g. size: L."
    optionValues: [VariantOption!]!
    "Decimal amount in the org currency's major unit; null sells at the product's basePrice."
    price: Float
    "ISO 4217 currency of price (the org currency)."
    currency: String!
    barcodes: [String!]!
    isActive: Boolean!
    version: Int!
    createdAt: String!
    updatedAt: String!
  }

  type VariantOption {
    name: String!
    value: String!
  }

  type ModifierGroup {
    id: ID!
    name: String!
    required: Boolean!
    minSelections: Int!
    "null: no upper limit."
    maxSelections: Int
    options: [ModifierOption!]!
  }

  type ModifierOption {
    id: ID!
    name: String!
    "Decimal amount in the org currency's major unit; negative takes something off."
    priceAdjustment: Float!
    isDefault: Boolean!
  }

  type Query {
    """
    Products of the org in creation order. orgId, when given, must be the token's org.
    Page with after: the id of the last product of the previous page. limit 1 to ${MAX_LIMIT}.
    """
    products(orgId: ID, categoryId: ID, isActive: Boolean, search: String, barcode: String, sku: String, limit: Int = ${DEFAULT_LIMIT}, after: ID): [Product!]
    "One product of the org; null when the org has no such product."
    product(id: ID!): Product
    "One variant of the org; null when the org has no such variant."
    variant(id: ID!): Variant
    "Categories of the org in creation order, with their nested products. limit 1 to ${MAX_LIMIT}."
    categories(orgId: ID, parentId: ID, isActive: Boolean, limit: Int = ${MAX_LIMIT}, after: ID): [Category!]
    "Modifier groups with their options: all of the org's, or those attached to productId."
    modifierGroups(orgId: ID, productId: ID, limit: Int = ${MAX_LIMIT}, after: ID): [ModifierGroup!]
  }

  "name and sku are required; they are checked by the server so that the error names the field."
  input CreateProductInput {
    name: String
    sku: String
    description: String
    barcodes: [String!]
    basePrice: Float
    categoryId: ID
    tags: [String!]
    isActive: Boolean
  }

  "A partial update: only the fields given change. version, when given, must be current."
  input UpdateProductInput {
    name: String
    sku: String
    description: String
    barcodes: [String!]
    basePrice: Float
    categoryId: ID
    tags: [String!]
    isActive: Boolean
    version: Int
  }

  type Mutation {
    createProduct(input: CreateProductInput!): Product
    updateProduct(id: ID!, input: UpdateProductInput!): Product
    "Archives (soft-deletes) the product: isActive becomes false. Returns the archived product."
    deleteProduct(id: ID!, version: Int): Product
  }
`
