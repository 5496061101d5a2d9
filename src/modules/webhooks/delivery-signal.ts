import { EventEmitter } from 'node:events'

/**
 * In-process "a delivery was queued" signal: a worker in this process starts at once instead of at its next
 * poll. Only a latency shortcut; workers in other processes find the same rows by polling.
 */
export const deliverySignal = new EventEmitter()
deliverySignal.setMaxListeners(100)

export function signalDeliveryQueued(): void {
  deliverySignal.emit('queued')
}
