/**
 * A least-recently-used map of byte strings with a budget in bytes rather than entries: catalog pages differ
 * a hundredfold in size, so an entry count would either waste memory or hold almost nothing.
 */
export class ByteLru {
  /** A Map iterates in insertion order; re-inserting on every hit keeps the least recently used first. */
  private readonly entries = new Map<string, Buffer>()
  private used = 0

  constructor(
    private readonly budgetBytes: number,
    /** Larger answers are not kept: one of them would evict many small hot ones. */
    private readonly maxEntryBytes: number = Math.floor(budgetBytes / 16),
  ) {}

  get(key: string): Buffer | undefined {
    const value = this.entries.get(key)
    if (value === undefined) return undefined
    this.entries.delete(key)
    this.entries.set(key, value)
    return value
  }

  set(key: string, value: Buffer): void {
    const size = value.length + key.length
    if (size > this.maxEntryBytes) return
    const previous = this.entries.get(key)
    if (previous !== undefined) {
      this.entries.delete(key)
      this.used -= previous.length + key.length
    }
    this.entries.set(key, value)
    this.used += size
    for (const [oldest, bytes] of this.entries) {
      if (this.used <= this.budgetBytes) break
      this.entries.delete(oldest)
      this.used -= bytes.length + oldest.length
    }
  }

  get bytes(): number {
    return this.used
  }

  get size(): number {
    return this.entries.size
  }
}
