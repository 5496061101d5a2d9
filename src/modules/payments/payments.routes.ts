import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { expectedVersion, STALE_VERSION } from '../../platform/http/concurrency.ts'
import { DataOf, errorResponses, IdParams } from '../../platform/http/schemas.ts'
import { GiftCardErrors } from '../gift-cards/index.ts'
import { PaymentErrors } from './payments.errors.ts'
import {
  CreatePaymentBody,
  EmptyBody,
  PaymentMethodsSchema,
  PaymentSchema,
  PutPaymentMethodsBody,
  TipAdjustmentBody,
} from './payments.schemas.ts'
import type { PaymentsService } from './payments.service.ts'

const tags = ['payments']
const Payment = Type.Ref('Payment')

export const paymentRoutes: FastifyPluginAsyncTypebox<{ payments: PaymentsService }> = async (app, { payments }) => {
  app.addSchema(PaymentSchema)

  app.post(
    '/payments',
    {
      // A retry resumes from the recorded payment id and authorization: the card is never charged twice.
      config: { scope: 'payments:write', idempotency: { resumable: true } },
      schema: {
        operationId: 'createPayment',
        tags,
        summary: 'Take a payment for an order (split tender: several payments); a declined card answers status failed',
        body: CreatePaymentBody,
        response: {
          201: DataOf(Payment),
          ...errorResponses(
            404,
            PaymentErrors.NOT_PAYABLE,
            PaymentErrors.EXCEEDS_BALANCE,
            PaymentErrors.CARD_DECLINED,
            PaymentErrors.PROCESSOR_TIMEOUT,
            GiftCardErrors.NOT_ACTIVE,
            GiftCardErrors.INSUFFICIENT_BALANCE,
          ),
        },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await payments.createForOrder(request.ctx, request.body) }),
  )

  app.get(
    '/payments/methods',
    {
      config: { scope: 'payments:read' },
      schema: {
        operationId: 'getPaymentMethods',
        tags,
        summary: 'The payment methods enabled for the org',
        response: { 200: DataOf(PaymentMethodsSchema) },
      },
    },
    async (request) => ({ data: await payments.methods(request.ctx) }),
  )

  app.put(
    '/payments/methods',
    {
      config: { scope: 'settings:write' },
      schema: {
        operationId: 'setPaymentMethods',
        tags,
        summary: 'Choose the payment methods the org accepts; If-Match or version guards against lost updates',
        body: PutPaymentMethodsBody,
        response: { 200: DataOf(PaymentMethodsSchema), ...errorResponses(STALE_VERSION) },
      },
    },
    async (request) => ({
      data: await payments.setMethods(
        request.ctx,
        request.body.methods,
        expectedVersion(request, request.body.version),
      ),
    }),
  )

  app.get(
    '/payments/:id',
    {
      config: { scope: 'payments:read' },
      schema: {
        operationId: 'getPayment',
        tags,
        summary: 'One payment',
        params: IdParams,
        response: { 200: DataOf(Payment), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await payments.get(request.ctx, request.params.id) }),
  )

  app.post(
    '/payments/:id/capture',
    {
      // A retry resumes from the processor's recorded answer: the payment is never captured twice.
      config: { scope: 'payments:write', idempotency: { resumable: true } },
      schema: {
        operationId: 'capturePayment',
        tags,
        summary: 'Capture an authorized payment',
        params: IdParams,
        body: Type.Optional(EmptyBody),
        response: {
          200: DataOf(Payment),
          ...errorResponses(
            404,
            PaymentErrors.NOT_CAPTURABLE,
            PaymentErrors.PROCESSOR_REFUSED,
            PaymentErrors.PROCESSOR_TIMEOUT,
            PaymentErrors.CHANGED_CONCURRENTLY,
          ),
        },
      },
    },
    async (request) => ({ data: await payments.capture(request.ctx, request.params.id) }),
  )

  app.post(
    '/payments/:id/tip',
    {
      // A retry resumes from the processor's recorded answer.
      config: { scope: 'payments:write', idempotency: { resumable: true } },
      schema: {
        operationId: 'adjustPaymentTip',
        tags,
        summary:
          "Set the tip of an authorized card payment before capture (tip adjustment): its amount and the order's total move with it",
        params: IdParams,
        body: TipAdjustmentBody,
        response: {
          200: DataOf(Payment),
          ...errorResponses(
            404,
            PaymentErrors.TIP_NOT_ADJUSTABLE,
            PaymentErrors.NOT_PAYABLE,
            PaymentErrors.PROCESSOR_REFUSED,
            PaymentErrors.PROCESSOR_TIMEOUT,
            PaymentErrors.CHANGED_CONCURRENTLY,
          ),
        },
      },
    },
    async (request) => ({ data: await payments.adjustTip(request.ctx, request.params.id, request.body.tip) }),
  )

  app.post(
    '/payments/:id/void',
    {
      config: { scope: 'payments:write', idempotency: { resumable: true } },
      schema: {
        operationId: 'voidPayment',
        tags,
        summary: 'Void an uncaptured payment (a captured one is 409)',
        params: IdParams,
        body: Type.Optional(EmptyBody),
        response: {
          200: DataOf(Payment),
          ...errorResponses(
            404,
            PaymentErrors.NOT_VOIDABLE,
            PaymentErrors.PROCESSOR_REFUSED,
            PaymentErrors.PROCESSOR_TIMEOUT,
            PaymentErrors.CHANGED_CONCURRENTLY,
          ),
        },
      },
    },
    async (request) => ({ data: await payments.void(request.ctx, request.params.id) }),
  )
}
