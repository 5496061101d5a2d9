import { type Static, Type } from 'typebox'
import { type Dated, PageQuery, Timestamp, Version } from '../../platform/http/schemas.ts'

const Text = (max: number) => Type.String({ maxLength: max })

export const LocationSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    address_line1: Type.String(),
    address_line2: Type.String(),
    city: Type.String(),
    region: Type.String(),
    postal_code: Type.String(),
    country: Type.Union([Type.String(), Type.Null()], { description: 'ISO 3166-1 alpha-2' }),
    timezone: Type.String({ description: 'IANA time zone name' }),
    is_active: Type.Boolean(),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Location' },
)
/** As the service builds it: Dates, which the serializer writes as ISO strings. */
export type Location = Dated<Static<typeof LocationSchema>, 'created_at' | 'updated_at'>

const fields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  address_line1: Text(200),
  address_line2: Text(200),
  city: Text(100),
  region: Text(100),
  postal_code: Text(20),
  country: Type.Union([Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2' }), Type.Null()]),
  timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone name, default UTC' }),
  is_active: Type.Boolean(),
}

const optional = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as {
  [K in keyof typeof fields]: ReturnType<typeof Type.Optional<(typeof fields)[K]>>
}

export const CreateLocationBody = Type.Object({ ...optional, name: fields.name }, { additionalProperties: false })
export type CreateLocationBody = Static<typeof CreateLocationBody>

export const UpdateLocationBody = Type.Object(
  { ...optional, version: Type.Optional(Version) },
  { additionalProperties: false },
)
/** The fields of an update, its version taken apart by the route. */
export type LocationFields = Omit<Static<typeof UpdateLocationBody>, 'version'>

export const LocationListQuery = Type.Object(
  { ...PageQuery, is_active: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
)
export type LocationListQuery = Static<typeof LocationListQuery>
