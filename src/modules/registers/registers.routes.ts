import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { DataOf, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import { RegisterErrors } from './registers.errors.ts'
import {
  CashBody,
  CashMovementListQuery,
  CashMovementSchema,
  CloseShiftBody,
  CreateRegisterBody,
  OpenShiftBody,
  RegisterListQuery,
  RegisterSchema,
  ShiftListQuery,
  ShiftSchema,
} from './registers.schemas.ts'
import type { RegistersService } from './registers.service.ts'

const Register = Type.Ref('Register')
const Shift = Type.Ref('Shift')
const CashMovement = Type.Ref('ShiftCashMovement')

/** Registers and shifts are the till, so they take the orders scopes that till staff carry. */
export const registerRoutes: FastifyPluginAsyncTypebox<{ registers: RegistersService }> = async (
  app,
  { registers },
) => {
  app.addSchema(RegisterSchema)
  app.addSchema(ShiftSchema)
  app.addSchema(CashMovementSchema)

  app.get(
    '/registers',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'listRegisters',
        tags: ['registers'],
        summary: 'List registers in creation order',
        querystring: RegisterListQuery,
        response: { 200: ListOf(Register) },
      },
    },
    async (request) => registers.listRegisters(request.ctx, request.query),
  )

  app.post(
    '/registers',
    {
      config: { scope: 'orders:write' },
      schema: {
        operationId: 'createRegister',
        tags: ['registers'],
        summary: 'Create a register at a location',
        body: CreateRegisterBody,
        response: { 201: DataOf(Register) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await registers.createRegister(request.ctx, request.body) }),
  )

  app.get(
    '/registers/:id',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'getRegister',
        tags: ['registers'],
        summary: 'One register',
        params: IdParams,
        response: { 200: DataOf(Register), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await registers.getRegister(request.ctx, request.params.id) }),
  )

  app.post(
    '/registers/:id/shifts/open',
    {
      config: { scope: 'orders:write' },
      schema: {
        operationId: 'openShift',
        tags: ['shifts'],
        summary: 'Open a shift with a cash float; one open shift per register',
        params: IdParams,
        body: OpenShiftBody,
        response: { 201: DataOf(Shift), ...errorResponses(404, RegisterErrors.SHIFT_ALREADY_OPEN) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await registers.openShift(request.ctx, request.params.id, request.body) }),
  )

  app.get(
    '/shifts',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'listShifts',
        tags: ['shifts'],
        summary: 'List shifts, filtered by register and status',
        querystring: ShiftListQuery,
        response: { 200: ListOf(Shift) },
      },
    },
    async (request) => registers.listShifts(request.ctx, request.query),
  )

  app.get(
    '/shifts/:id',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'getShift',
        tags: ['shifts'],
        summary: 'One shift with its running cash totals',
        params: IdParams,
        response: { 200: DataOf(Shift), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await registers.getShift(request.ctx, request.params.id) }),
  )

  app.get(
    '/shifts/:id/cash',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'listShiftCashMovements',
        tags: ['shifts'],
        summary: 'Every cash movement of a shift (in, out, sale, refund), oldest first',
        params: IdParams,
        querystring: CashMovementListQuery,
        response: { 200: ListOf(CashMovement), ...errorResponses(404) },
      },
    },
    async (request) => registers.listCashMovements(request.ctx, request.params.id, request.query),
  )

  app.post(
    '/shifts/:id/cash',
    {
      config: { scope: 'orders:write' },
      schema: {
        operationId: 'recordShiftCashMovement',
        tags: ['shifts'],
        summary: 'Put cash into (in) or take cash out of (out) the drawer of an open shift',
        params: IdParams,
        body: CashBody,
        response: {
          201: DataOf(CashMovement),
          ...errorResponses(404, RegisterErrors.SHIFT_NOT_OPEN),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await registers.moveCash(request.ctx, request.params.id, request.body) }),
  )

  app.post(
    '/shifts/:id/close',
    {
      config: { scope: 'orders:write' },
      schema: {
        operationId: 'closeShift',
        tags: ['shifts'],
        summary: 'Close an open shift with the counted cash; answers expected cash and the variance',
        params: IdParams,
        body: CloseShiftBody,
        response: { 200: DataOf(Shift), ...errorResponses(404, RegisterErrors.SHIFT_NOT_OPEN) },
      },
    },
    async (request) => ({ data: await registers.closeShift(request.ctx, request.params.id, request.body) }),
  )
}
