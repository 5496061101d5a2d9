/** Registers (tills) and their shifts: cash float, cash in and out, cash sales and refunds, close with variance. */
export { registerRoutes } from './registers.routes.ts'
export {
  type CashMovement,
  createRegistersService,
  type Register,
  type RegistersService,
  type Shift,
} from './registers.service.ts'
