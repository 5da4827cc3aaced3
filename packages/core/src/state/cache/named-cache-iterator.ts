/**
 * Iterates a snapshot of a named cache's keys (Kafka's MemoryLRUCacheBytesIterator), ascending or
 * descending, looking each entry up only when it is reached: a key evicted or deleted since the
 * snapshot is skipped, and a key read becomes the most recently used. Closing releases nothing.
 * @internal
 */
import type { CacheRow, NamedCache } from './named-cache.js'

export class NamedCacheIterator {
  readonly #keys: readonly string[]
  readonly #cache: NamedCache | undefined
  readonly #forward: boolean
  #index: number
  #next: CacheRow | undefined

  constructor(keys: readonly string[], cache: NamedCache | undefined, forward: boolean) {
    this.#keys = keys
    this.#cache = cache
    this.#forward = forward
    this.#index = forward ? 0 : keys.length - 1
  }

  static empty(): NamedCacheIterator {
    return new NamedCacheIterator([], undefined, true)
  }

  /** The next row without consuming it, or undefined at the end. */
  peek(): CacheRow | undefined {
    if (this.#next !== undefined) return this.#next
    const cache = this.#cache
    if (cache === undefined) return undefined
    const keys = this.#keys
    while (this.#next === undefined && this.#index >= 0 && this.#index < keys.length) {
      const id = keys[this.#index]!
      this.#index += this.#forward ? 1 : -1
      this.#next = cache.getRow(id)
    }
    return this.#next
  }

  next(): CacheRow | undefined {
    const row = this.peek()
    this.#next = undefined
    return row
  }

  close(): void {}
}
