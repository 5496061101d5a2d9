import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Ajv } from 'ajv'
import { Type } from 'typebox'
import { fieldErrors } from '../../src/platform/errors/validation.ts'

const ajv = new Ajv({ allErrors: true, strict: false })

/** The field errors a body gets against a schema, as the API answers them. */
function errorsOf(schema: object, body: unknown) {
  const validate = ajv.compile(schema)
  assert.equal(validate(body), false)
  return fieldErrors(validate.errors ?? [])
}

const Actions = Type.Object({
  actions: Type.Array(
    Type.Union([
      Type.Object({ type: Type.Literal('tag_customer'), tag: Type.String() }, { additionalProperties: false }),
      Type.Object({ type: Type.Literal('wait'), seconds: Type.Integer() }, { additionalProperties: false }),
    ]),
  ),
})

/** Before, each of these answered "must match a schema in anyOf" beside every branch's errors. */
describe('errors on union fields name what was expected', () => {
  it('a discriminator that names no branch lists the values it may take', () => {
    assert.deepEqual(errorsOf(Actions, { actions: [{ type: 'mint_points' }] }), [
      { field: 'actions.0.type', message: 'must be one of tag_customer, wait', code: 'invalid_enum' },
    ])
  })

  it('a value that chose its branch gets that branch’s errors alone', () => {
    assert.deepEqual(errorsOf(Actions, { actions: [{ type: 'wait', seconds: 'soon' }] }), [
      { field: 'actions.0.seconds', message: 'must be integer', code: 'invalid_type' },
    ])
    assert.deepEqual(errorsOf(Actions, { actions: [{ type: 'tag_customer' }] }), [
      { field: 'actions.0.tag', message: 'is required', code: 'required' },
    ])
  })

  it('a literal union and a nullable field say which values or types they take', () => {
    const Status = Type.Object({ status: Type.Union([Type.Literal('draft'), Type.Literal('scheduled')]) })
    assert.deepEqual(errorsOf(Status, { status: 'live' }), [
      { field: 'status', message: 'must be one of draft, scheduled', code: 'invalid_enum' },
    ])
    const Note = Type.Object({ note: Type.Union([Type.String(), Type.Null()]) })
    assert.deepEqual(errorsOf(Note, { note: 5 }), [
      { field: 'note', message: 'must be string or null', code: 'invalid_type' },
    ])
  })
})
