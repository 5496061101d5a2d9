import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ANY_TOKEN } from '../../platform/http/authenticate.ts'
import { DataOf, EmptyBody, errorResponses, IdParams, ListOf, PageQuery } from '../../platform/http/schemas.ts'
import { type RateLimitStore, tillLimit } from '../../platform/rate-limit/index.ts'
import { AuthErrors } from './auth.errors.ts'
import { LoginSessionSchema } from './auth.schemas.ts'
import {
  CreatePairingBody,
  DeviceAccessTokenSchema,
  DeviceSchema,
  DeviceTokenBody,
  PairDeviceBody,
  PairedDeviceSchema,
  PairingSchema,
  PinSignInBody,
  SetPinBody,
  TillStaffSchema,
} from './devices.schemas.ts'
import type { DevicesService } from './devices.service.ts'

const tags = ['devices']

/** Paired tills and PIN sign-in (docs/people-and-settings.md "Sign-in at the till"). */
export const deviceRoutes: FastifyPluginAsyncTypebox<{ devices: DevicesService; store: RateLimitStore }> = async (
  app,
  { devices, store },
) => {
  for (const schema of [DeviceSchema, PairingSchema, PairedDeviceSchema, TillStaffSchema]) app.addSchema(schema)

  app.post(
    '/registers/:id/pairing',
    {
      config: { scope: 'users:write' },
      schema: {
        operationId: 'createPairingCode',
        tags,
        summary: 'A 6-digit code that pairs a till with this register (10 minutes, once)',
        params: IdParams,
        body: CreatePairingBody,
        response: { 201: DataOf(Type.Ref('Pairing')), ...errorResponses(404, AuthErrors.ROLE_NOT_ALLOWED) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await devices.createPairing(request.ctx, request.params.id, request.body.name) }),
  )

  app.post(
    '/devices/pair',
    {
      config: { scope: false },
      schema: {
        operationId: 'pairDevice',
        tags,
        summary: "Trade a pairing code for the till's device credential (shown once)",
        security: [],
        body: PairDeviceBody,
        response: { 201: DataOf(Type.Ref('PairedDevice')), ...errorResponses(401, 429) },
      },
    },
    async (request, reply) => {
      await tillLimit(store, request.ip, 'pairing')
      return reply.code(201).send({ data: await devices.pair(request.body.code) })
    },
  )

  app.get(
    '/devices',
    {
      config: { scope: 'users:read' },
      schema: {
        operationId: 'listDevices',
        tags,
        summary: 'Tills paired (or waiting to be) with the registers',
        querystring: Type.Object({ ...PageQuery }, { additionalProperties: false }),
        response: { 200: ListOf(Type.Ref('Device')) },
      },
    },
    async (request) => devices.list(request.ctx, request.query),
  )

  app.delete(
    '/devices/:id',
    {
      config: { scope: 'users:write' },
      schema: {
        operationId: 'unpairDevice',
        tags,
        summary: 'Unpair a till: its credential stops working and every session opened on it ends at once',
        params: IdParams,
        response: { 204: EmptyBody('unpaired'), ...errorResponses(404, AuthErrors.ROLE_NOT_ALLOWED) },
      },
    },
    async (request, reply) => {
      await devices.unpair(request.ctx, request.params.id)
      return reply.code(204).send(null)
    },
  )

  app.post(
    '/devices/:id/unlock',
    {
      config: { scope: 'users:write' },
      schema: {
        operationId: 'unlockDevice',
        tags,
        summary: 'Unlock a till locked after twenty wrong PINs in a row',
        params: IdParams,
        response: { 200: DataOf(Type.Ref('Device')), ...errorResponses(404, AuthErrors.ROLE_NOT_ALLOWED) },
      },
    },
    async (request) => ({ data: await devices.unlock(request.ctx, request.params.id) }),
  )

  app.post(
    '/devices/token',
    {
      config: { scope: false },
      schema: {
        operationId: 'deviceAccessToken',
        tags,
        summary: "The till's own access token for the sync endpoints, with its device credential (scope till:sync)",
        security: [],
        body: DeviceTokenBody,
        response: { 200: DataOf(DeviceAccessTokenSchema), ...errorResponses(401, 429) },
      },
    },
    async (request) => {
      await tillLimit(store, request.ip, 'pin')
      return { data: await devices.deviceAccessToken(request.body.device_token) }
    },
  )

  app.post(
    '/devices/staff',
    {
      config: { scope: false },
      schema: {
        operationId: 'listTillStaff',
        tags,
        summary: "The till's user picker, with its device credential: active users and whether each has a PIN",
        security: [],
        body: DeviceTokenBody,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref('TillStaff')) }), ...errorResponses(401, 429) },
      },
    },
    async (request) => {
      await tillLimit(store, request.ip, 'pin')
      return { data: await devices.staff(request.body.device_token) }
    },
  )

  app.post(
    '/auth/pin',
    {
      config: { scope: false },
      schema: {
        operationId: 'signInWithPin',
        tags: ['auth'],
        summary:
          "Sign a user in on a paired till with their PIN: tokens with the user's scopes and the till's register",
        description:
          'Five wrong PINs lock the user on this till for 15 minutes (429 PIN_LOCKED); twenty wrong in a row lock the till until a manager unlocks it (403 DEVICE_LOCKED). A PIN without the device credential signs in nowhere.',
        security: [],
        body: PinSignInBody,
        response: {
          200: LoginSessionSchema,
          ...errorResponses(401, AuthErrors.DEVICE_LOCKED, AuthErrors.PIN_LOCKED, 429),
        },
      },
    },
    async (request) => {
      await tillLimit(store, request.ip, 'pin')
      const { device_token, user_id, pin } = request.body
      return { data: await devices.signInWithPin(device_token, user_id, pin) }
    },
  )

  app.put(
    '/auth/pin',
    {
      config: { scope: ANY_TOKEN },
      schema: {
        operationId: 'setMyPin',
        tags: ['auth'],
        summary: 'Set the signed-in user’s own till PIN (4 to 6 digits)',
        body: SetPinBody,
        response: { 204: EmptyBody('set'), ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      await devices.setOwnPin(request.ctx, request.body.pin)
      return reply.code(204).send(null)
    },
  )

  app.delete(
    '/users/:id/pin',
    {
      config: { scope: 'users:write' },
      schema: {
        operationId: 'clearUserPin',
        tags: ['users'],
        summary: "Clear a user's PIN (a manager clears, never sets one); they set a new one themselves",
        params: IdParams,
        response: { 204: EmptyBody('cleared'), ...errorResponses(404, AuthErrors.ROLE_NOT_ALLOWED) },
      },
    },
    async (request, reply) => {
      await devices.clearPin(request.ctx, request.params.id)
      return reply.code(204).send(null)
    },
  )
}
