import { type Static, Type } from 'typebox'

export const LoginBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    org_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'the store to sign in to, when the e-mail belongs to several (409 ORG_REQUIRED lists them)',
      }),
    ),
  },
  { additionalProperties: false },
)

export const RefreshBody = Type.Object(
  { refreshToken: Type.String({ minLength: 1, maxLength: 512 }) },
  { additionalProperties: false },
)

/** SPEC's login session, camelCase as SPEC shows it. */
export const LoginSessionSchema = Type.Object({
  data: Type.Object({
    accessToken: Type.String(),
    refreshToken: Type.String(),
    expiresIn: Type.Integer(),
    user: Type.Object({ id: Type.String(), email: Type.String(), orgId: Type.String() }),
  }),
})
export type LoginSession = Static<typeof LoginSessionSchema>['data']

export const MeSchema = Type.Object({
  data: Type.Object({
    id: Type.String(),
    email: Type.String(),
    orgId: Type.String(),
    name: Type.String(),
    role: Type.String(),
    scopes: Type.Array(Type.String()),
    registerId: Type.Union([Type.String(), Type.Null()], {
      description: "the till's register, for a session opened there with a PIN",
    }),
  }),
})
export type Me = Static<typeof MeSchema>['data']
