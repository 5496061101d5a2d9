/** Inventory: levels per item and location, the movements ledger, adjustments, transfers and alerts. */
export { inventoryRoutes } from './inventory.routes.ts'
export { LevelSchema, TransferSchema } from './inventory.schemas.ts'
export { createInventoryService, type InventoryService } from './inventory.service.ts'
export { ADJUST_REASONS, STOCK_REASONS, type StockChange } from './inventory.types.ts'
export type { Level, Movement, Transfer } from './inventory.views.ts'
