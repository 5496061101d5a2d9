import { type Static, Type } from 'typebox'
import { type Dated, Timestamp } from '../../platform/http/schemas.ts'

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()])

export const DeviceSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    register_id: Type.String(),
    location_id: Type.String(),
    status: Type.Union(
      [Type.Literal('pending'), Type.Literal('paired'), Type.Literal('locked'), Type.Literal('unpaired')],
      {
        description:
          'pending: a pairing code waits; paired; locked: 20 wrong PINs in a row, a manager unlocks it; unpaired',
      },
    ),
    paired_at: Nullable(Timestamp),
    last_seen_at: Nullable(Timestamp),
    created_at: Timestamp,
  },
  { $id: 'Device' },
)
export type Device = Dated<Static<typeof DeviceSchema>, 'paired_at' | 'last_seen_at' | 'created_at'>

export const PairingSchema = Type.Object(
  {
    device_id: Type.String(),
    register_id: Type.String(),
    code: Type.String({ description: 'six digits to type on the till; once, within 10 minutes' }),
    expires_at: Timestamp,
  },
  { $id: 'Pairing' },
)
export type Pairing = Dated<Static<typeof PairingSchema>, 'expires_at'>

export const CreatePairingBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 100, description: 'what the till is called, e.g. "Front counter"' })),
  },
  { additionalProperties: false },
)

export const PairDeviceBody = Type.Object(
  { code: Type.String({ pattern: '^[0-9]{6}$', description: 'the pairing code a manager made' }) },
  { additionalProperties: false },
)

export const PairedDeviceSchema = Type.Object(
  {
    device_id: Type.String(),
    device_token: Type.String({ description: 'the device credential: keep it on the till, shown only here' }),
    org_id: Type.String(),
    register_id: Type.String(),
    location_id: Type.String(),
  },
  { $id: 'PairedDevice' },
)
export type PairedDevice = Static<typeof PairedDeviceSchema>

export const DeviceTokenBody = Type.Object(
  { device_token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
)

export const DeviceAccessTokenSchema = Type.Object({
  access_token: Type.String({ description: "the till's bearer token for /sync (scope till:sync)" }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'seconds; ask again with the device credential' }),
  scope: Type.String(),
})

export const TillStaffSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    role: Type.String(),
    has_pin: Type.Boolean({ description: 'false: the user sets a PIN (PUT /auth/pin) before signing in at a till' }),
  },
  { $id: 'TillStaff' },
)
export type TillStaff = Static<typeof TillStaffSchema>

export const PinSignInBody = Type.Object(
  {
    device_token: Type.String({ minLength: 1, maxLength: 200, description: 'the credential of the paired till' }),
    user_id: Type.String({ minLength: 1, maxLength: 100, description: "chosen on the till's staff list" }),
    pin: Type.String({ minLength: 1, maxLength: 12 }),
  },
  { additionalProperties: false },
)

export const SetPinBody = Type.Object(
  { pin: Type.String({ minLength: 1, maxLength: 12, description: '4 to 6 digits, not all the same nor a run' }) },
  { additionalProperties: false },
)
