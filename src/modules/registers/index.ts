/** Registers (tills) and their shifts: cash float, cash in and out, cash sales and refunds, close with variance. */
export { RegisterErrors } from './registers.errors.ts'
export { registerRoutes } from './registers.routes.ts'
export {
  createRegistersService,
  type RegistersService,
} from './registers.service.ts'
