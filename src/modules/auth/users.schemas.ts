import { type Static, Type } from 'typebox'
import { type Dated, PageQuery, Timestamp, Version } from '../../platform/http/schemas.ts'

const RoleSchema = Type.Union([Type.Literal('owner'), Type.Literal('manager'), Type.Literal('staff')], {
  description: 'owner: everything; manager: all but integrations, and staff accounts only; staff: the till',
})

export const UserSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    role: RoleSchema,
    status: Type.Union([Type.Literal('active'), Type.Literal('deactivated')], {
      description: 'deactivated users sign in nowhere; their sessions ended when they were deactivated',
    }),
    has_pin: Type.Boolean({ description: 'whether the user has set a till PIN (never shown)' }),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'User' },
)
export type User = Dated<Static<typeof UserSchema>, 'created_at' | 'updated_at'>

export const InvitationSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    role: RoleSchema,
    status: Type.Union([Type.Literal('pending'), Type.Literal('expired')]),
    invited_by: Type.Union([Type.String(), Type.Null()], { description: 'the user who sent it' }),
    expires_at: Timestamp,
    created_at: Timestamp,
  },
  { $id: 'Invitation' },
)
export type Invitation = Dated<Static<typeof InvitationSchema>, 'created_at' | 'expires_at'>

export const SentInvitationSchema = Type.Object(
  {
    ...InvitationSchema.properties,
    delivery: Type.Union([Type.Literal('email'), Type.Literal('link')], {
      description: 'email: the link went to the invitee by e-mail; link: no SMTP server, pass on `url` yourself',
    }),
    url: Type.Optional(
      Type.String({ description: 'the one-time link, only when delivery is `link` (no SMTP server is configured)' }),
    ),
  },
  { $id: 'SentInvitation' },
)
export type SentInvitation = Dated<Static<typeof SentInvitationSchema>, 'created_at' | 'expires_at'>

export const InviteUserBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320 }),
    name: Type.Optional(Type.String({ maxLength: 200, default: '' })),
    role: RoleSchema,
  },
  { additionalProperties: false },
)
export type InviteUserBody = Static<typeof InviteUserBody>

export const UpdateUserBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    role: Type.Optional(RoleSchema),
    active: Type.Optional(
      Type.Boolean({ description: 'false deactivates: every session ends at once and their automations stop' }),
    ),
    version: Type.Optional(Version),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateUserBody = Static<typeof UpdateUserBody>

export const UserListQuery = Type.Object(
  {
    ...PageQuery,
    role: Type.Optional(RoleSchema),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('deactivated')])),
  },
  { additionalProperties: false },
)
export type UserListQuery = Static<typeof UserListQuery>

export const InvitationListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })
export type InvitationListQuery = Static<typeof InvitationListQuery>

export const AcceptInvitationBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, description: 'the last path segment of the invitation link' }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
)

export const AcceptedInvitationSchema = Type.Object({
  data: Type.Object({ user_id: Type.String(), email: Type.String(), org_id: Type.String() }),
})
export type AcceptedInvitation = Static<typeof AcceptedInvitationSchema>['data']

export const ChangePasswordBody = Type.Object(
  {
    current_password: Type.String({ minLength: 1, maxLength: 1024 }),
    new_password: Type.String({
      minLength: 1,
      maxLength: 1024,
      description: 'at least 10 characters, not a common one',
    }),
  },
  { additionalProperties: false },
)

export const PasswordResetBody = Type.Object(
  { email: Type.String({ format: 'email', maxLength: 320 }) },
  { additionalProperties: false },
)

export const PasswordResetConfirmBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, description: 'the last path segment of the reset link' }),
    password: Type.String({ minLength: 1, maxLength: 1024, description: 'at least 10 characters, not a common one' }),
  },
  { additionalProperties: false },
)
