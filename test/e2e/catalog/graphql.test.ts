import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { countCatalogQueries, type GraphqlAnswer, graphqlClient, listen } from '../../support/graphql.ts'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

const PRODUCT_FIELDS =
  'id name description sku barcodes basePrice currency isActive categoryId tags version createdAt updatedAt'

describe('GraphQL catalog API: operations and nested selections', () => {
  let app: TestApp
  let merchant: Merchant
  let gql: (query: string, variables?: Record<string, unknown>) => Promise<GraphqlAnswer>
  let drinks: { id: string }
  let food: { id: string }
  let base: string

  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app, { currency: 'NZD' })
    base = await listen(app)
    gql = graphqlClient(`${base}/catalog/graphql`, merchant.token)
    const rest = clientFor(app.api, merchant.token)
    drinks = (await rest.post('/api/v1/categories', { name: 'Drinks', sort_order: 2 })).body.data
    food = (await rest.post('/api/v1/categories', { name: 'Food', sort_order: 1, description: 'Things to eat' })).body
      .data
    assert.ok(drinks?.id && food?.id, 'categories are created over REST')
  })
  after(() => app.close())

  it('creates a product with every SPEC field and reads it back by id', async () => {
    const created = await gql(
      `mutation Create($input: CreateProductInput!) { createProduct(input: $input) { ${PRODUCT_FIELDS} category { id name sortOrder } } }`,
      {
        input: {
          name: 'Flat white',
          description: 'Double shot',
          sku: 'FW-1',
          barcodes: ['9400000000017'],
          basePrice: 5.5,
          categoryId: drinks.id,
          tags: ['coffee', 'hot'],
          isActive: true,
        },
      },
    )
    assert.equal(created.errors, undefined)
    const product = created.data.createProduct
    assert.match(product.id, /^prod_/)
    assert.equal(product.basePrice, 5.5)
    assert.equal(product.currency, 'NZD')
    assert.deepEqual(product.barcodes, ['9400000000017'])
    assert.deepEqual(product.tags, ['coffee', 'hot'])
    assert.equal(product.isActive, true)
    assert.equal(product.version, 1)
    assert.match(product.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    assert.deepEqual(product.category, { id: drinks.id, name: 'Drinks', sortOrder: 2 })

    const read = await gql('query One($id: ID!) { product(id: $id) { id name sku basePrice categoryId } }', {
      id: product.id,
    })
    assert.deepEqual(read.data.product, {
      id: product.id,
      name: 'Flat white',
      sku: 'FW-1',
      basePrice: 5.5,
      categoryId: drinks.id,
    })

    const rest = await clientFor(app.api, merchant.token).get(`/api/v1/products/${product.id}`)
    assert.equal(rest.body.data.base_price, 5.5, 'REST sees the same product')
  })

  it('updates only the fields given and archives with deleteProduct', async () => {
    const created = await gql(
      'mutation { createProduct(input: {name: "Scone", sku: "SC-1", basePrice: 4, tags: ["baked"]}) { id version } }',
    )
    const { id } = created.data.createProduct
    const updated = await gql(
      'mutation Up($id: ID!, $input: UpdateProductInput!) { updateProduct(id: $id, input: $input) { name basePrice tags isActive version categoryId } }',
      { id, input: { basePrice: 4.25, tags: ['baked', 'sweet'], categoryId: food.id, version: 1 } },
    )
    assert.equal(updated.errors, undefined)
    assert.deepEqual(updated.data.updateProduct, {
      name: 'Scone',
      basePrice: 4.25,
      tags: ['baked', 'sweet'],
      isActive: true,
      version: 2,
      categoryId: food.id,
    })

    const deleted = await gql('mutation Del($id: ID!) { deleteProduct(id: $id) { id isActive version } }', { id })
    assert.deepEqual(deleted.data.deleteProduct, { id, isActive: false, version: 3 })
    const archived = await gql('query One($id: ID!) { product(id: $id) { isActive } }', { id })
    assert.equal(archived.data.product.isActive, false, 'soft deletion keeps the product, inactive')
  })

  it('refuses a stale version with a CONFLICT error and changes nothing', async () => {
    const { id } = (await gql('mutation { createProduct(input: {name: "Muffin", sku: "MU-1", basePrice: 3}) { id } }'))
      .data.createProduct
    await gql('mutation Up($id: ID!) { updateProduct(id: $id, input: {basePrice: 3.5}) { version } }', { id })
    const stale = await gql(
      'mutation Up($id: ID!) { updateProduct(id: $id, input: {basePrice: 9, version: 1}) { version } }',
      { id },
    )
    assert.equal(stale.data.updateProduct, null)
    assert.equal(stale.errors?.[0].extensions?.code, 'CONFLICT')
    const after = await gql('query One($id: ID!) { product(id: $id) { basePrice version } }', { id })
    assert.deepEqual(after.data.product, { basePrice: 3.5, version: 2 })
  })

  it('answers nested selections both ways: product.category and category.products', async () => {
    const nested = await gql(`{
      categories { id name description sortOrder parentId isActive products { sku category { name } } }
      products(categoryId: "${drinks.id}") { sku category { id name sortOrder } }
    }`)
    assert.equal(nested.errors, undefined)
    const byName = Object.fromEntries(nested.data.categories.map((c: { name: string }) => [c.name, c]))
    assert.deepEqual(
      byName.Drinks.products.map((p: { sku: string }) => p.sku),
      ['FW-1'],
    )
    assert.equal(byName.Drinks.products[0].category.name, 'Drinks')
    assert.equal(byName.Food.description, 'Things to eat')
    assert.equal(byName.Food.parentId, null)
    assert.deepEqual(nested.data.products, [{ sku: 'FW-1', category: { id: drinks.id, name: 'Drinks', sortOrder: 2 } }])

    // A product reads the same through category.products as through product(id), timestamps included.
    const stamps = await gql(`{ categories { name products { id createdAt updatedAt } } }`)
    const viaCategory = stamps.data.categories.find((c: { name: string }) => c.name === 'Drinks').products[0]
    const direct = await gql('query One($id: ID!) { product(id: $id) { id createdAt updatedAt } }', {
      id: viaCategory.id,
    })
    assert.deepEqual(viaCategory, direct.data.product)
    assert.match(viaCategory.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)

    const active = await gql(`{ categories { name products(isActive: true) { sku } } }`)
    const foodActive = active.data.categories.find((c: { name: string }) => c.name === 'Food')
    assert.deepEqual(foodActive.products, [], 'the archived scone is left out when isActive: true')
  })

  it('shows a product’s variants, and one variant by id (SPEC lists variants)', async () => {
    const rest = clientFor(app.api, merchant.token)
    const product = (await rest.post('/api/v1/products', { name: 'Tee', sku: 'TEE', base_price: 20 })).body.data
    const small = await rest.post(`/api/v1/products/${product.id}/variants`, {
      name: 'Small',
      sku: 'TEE-S',
      option_values: { size: 'S' },
    })
    assert.equal(small.status, 201, JSON.stringify(small.body))
    const large = (
      await rest.post(`/api/v1/products/${product.id}/variants`, {
        name: 'Large',
        sku: 'TEE-L',
        option_values: { size: 'L' },
        price: 22.5,
      })
    ).body.data
    const answer = await gql(
      'query V($id: ID!, $v: ID!) { product(id: $id) { variants { id sku optionValues { name value } price currency isActive } } variant(id: $v) { id productId name price } }',
      { id: product.id, v: large.id },
    )
    assert.equal(answer.errors, undefined)
    assert.deepEqual(answer.data.product.variants, [
      {
        id: small.body.data.id,
        sku: 'TEE-S',
        optionValues: [{ name: 'size', value: 'S' }],
        price: null,
        currency: 'NZD',
        isActive: true,
      },
      {
        id: large.id,
        sku: 'TEE-L',
        optionValues: [{ name: 'size', value: 'L' }],
        price: 22.5,
        currency: 'NZD',
        isActive: true,
      },
    ])
    assert.deepEqual(answer.data.variant, { id: large.id, productId: product.id, name: 'Large', price: 22.5 })
    const missing = await gql('{ variant(id: "var_missing") { id } }')
    assert.equal(missing.data.variant, null)
  })

  it('lists modifier groups with their options, for the org and for one product', async () => {
    const rest = clientFor(app.api, merchant.token)
    const milk = await rest.post('/api/v1/modifiers', {
      name: 'Milk',
      required: true,
      min_selections: 1,
      max_selections: 1,
      options: [
        { name: 'Whole', price_adjustment: 0, is_default: true },
        { name: 'Oat', price_adjustment: 0.8 },
      ],
    })
    assert.equal(milk.status, 201)
    const extras = await rest.post('/api/v1/modifiers', {
      name: 'Extras',
      options: [{ name: 'Extra shot', price_adjustment: 1 }],
    })
    const product = (await gql('mutation { createProduct(input: {name: "Latte", sku: "LA-1", basePrice: 6}) { id } }'))
      .data.createProduct
    const attached = await rest.put(`/api/v1/products/${product.id}/modifiers`, {
      modifier_group_ids: [milk.body.data.id],
    })
    assert.equal(attached.status, 200)

    const all = await gql(
      '{ modifierGroups { name required minSelections maxSelections options { name priceAdjustment isDefault } } }',
    )
    assert.equal(all.errors, undefined)
    assert.deepEqual(all.data.modifierGroups, [
      {
        name: 'Milk',
        required: true,
        minSelections: 1,
        maxSelections: 1,
        options: [
          { name: 'Whole', priceAdjustment: 0, isDefault: true },
          { name: 'Oat', priceAdjustment: 0.8, isDefault: false },
        ],
      },
      {
        name: 'Extras',
        required: false,
        minSelections: 0,
        maxSelections: null,
        options: [{ name: 'Extra shot', priceAdjustment: 1, isDefault: false }],
      },
    ])
    assert.ok(extras.body.data.id)

    const ofProduct = await gql('query M($p: ID) { modifierGroups(productId: $p) { name } }', { p: product.id })
    assert.deepEqual(ofProduct.data.modifierGroups, [{ name: 'Milk' }])
    const nested = await gql('query P($id: ID!) { product(id: $id) { modifierGroups { name options { name } } } }', {
      id: product.id,
    })
    assert.deepEqual(nested.data.product.modifierGroups, [
      { name: 'Milk', options: [{ name: 'Whole' }, { name: 'Oat' }] },
    ])
  })

  it('pages through products with limit and after, and filters by category, active flag and search', async () => {
    for (let i = 0; i < 5; i++) {
      await gql(
        `mutation { createProduct(input: {name: "Page item ${i}", sku: "PG-${i}", categoryId: "${food.id}"}) { id } }`,
      )
    }
    const seen: string[] = []
    let after: string | null = null
    for (;;) {
      const page: GraphqlAnswer = await gql(
        'query Page($after: ID) { products(categoryId: "' +
          food.id +
          '", isActive: true, limit: 2, after: $after) { id sku } }',
        {
          after,
        },
      )
      const rows = page.data.products as { id: string; sku: string }[]
      seen.push(...rows.map((r) => r.sku))
      if (rows.length < 2) break
      after = rows[rows.length - 1].id
    }
    assert.deepEqual(seen, ['PG-0', 'PG-1', 'PG-2', 'PG-3', 'PG-4'])

    const inactive = await gql('{ products(isActive: false) { sku } }')
    assert.deepEqual(inactive.data.products, [{ sku: 'SC-1' }])
    const searched = await gql('{ products(search: "page item 3") { sku } }')
    assert.deepEqual(searched.data.products, [{ sku: 'PG-3' }])
    await gql(
      'mutation { createProduct(input: {name: "Scanned", sku: "PG-SCAN", barcodes: ["9400000000024"]}) { id } }',
    )
    const scanned = await gql('{ products(barcode: "9400000000024") { sku } }')
    assert.deepEqual(scanned.data.products, [{ sku: 'PG-SCAN' }])
    const bySku = await gql('{ products(sku: "PG-SCAN") { sku } }')
    assert.deepEqual(bySku.data.products, [{ sku: 'PG-SCAN' }])
    assert.deepEqual((await gql('{ products(barcode: "94000") { sku } }')).data.products, [])

    // Categories come in REST's order, by sortOrder: Food (1) before Drinks (2).
    const first = await gql('{ categories(limit: 1) { id name } }')
    assert.deepEqual(
      first.data.categories.map((c: { name: string }) => c.name),
      ['Food'],
    )
    const second = await gql('query C($after: ID) { categories(limit: 1, after: $after) { name } }', {
      after: first.data.categories[0].id,
    })
    assert.deepEqual(second.data.categories, [{ name: 'Drinks' }])
    const unknown = await gql('{ categories(after: "cat_unknown") { name } }')
    assert.equal(unknown.errors?.[0].extensions?.field, 'after')
  })

  it('batches nested fields: the number of SQL queries stays the same for 3 or 60 products', async () => {
    const other = await createMerchant(app)
    const rest = clientFor(app.api, other.token)
    const otherGql = graphqlClient(`${base}/graphql`, other.token)
    const categories: string[] = []
    for (let i = 0; i < 3; i++) categories.push((await rest.post('/api/v1/categories', { name: `C${i}` })).body.data.id)
    const query = `{
      products(limit: 200) { id category { name products(limit: 5) { sku category { name } } } modifierGroups { name options { name } } }
      categories { name products { sku category { name } } }
    }`
    const create = async (n: number, from: number) => {
      for (let i = from; i < from + n; i++) {
        const made = await rest.post('/api/v1/products', {
          name: `P${i}`,
          sku: `B-${i}`,
          base_price: 1,
          category_id: categories[i % 3],
        })
        assert.equal(made.status, 201)
      }
    }
    await create(3, 0)
    const small = await countCatalogQueries(() => otherGql(query))
    assert.equal(small.result.errors, undefined)
    assert.equal(small.result.data.products.length, 3)
    await create(57, 3)
    const large = await countCatalogQueries(() => otherGql(query))
    assert.equal(large.result.errors, undefined)
    assert.equal(large.result.data.products.length, 60)
    assert.equal(large.result.data.products[59].category.products.length, 5)
    assert.equal(large.queries, small.queries, 'one query per level, whatever the number of rows')
    assert.ok(large.queries <= 8, `expected at most 8 catalog queries, saw ${large.queries}`)
  })
})
