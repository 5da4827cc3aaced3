/**
 * The sessions of an in-memory session store that end at one time: key (latin1) -> session start
 * -> aggregate, with the keys also kept in unsigned byte order for range scans.
 */
import { SortedStringList } from './sorted-string-list.js'

export class SessionSegment {
  readonly #keys = new Map<string, Map<number, Buffer>>()
  readonly #sorted = new SortedStringList()

  /** The number of keys with at least one session. */
  get size(): number {
    return this.#keys.size
  }

  /** The sessions of `key` by start time (the live map, not a copy). */
  get(key: string): Map<number, Buffer> | undefined {
    return this.#keys.get(key)
  }

  set(key: string, start: number, aggregate: Buffer): void {
    let starts = this.#keys.get(key)
    if (starts === undefined) {
      starts = new Map()
      this.#keys.set(key, starts)
      this.#sorted.insert(key)
    }
    starts.set(start, aggregate)
  }

  delete(key: string, start: number): void {
    const starts = this.#keys.get(key)
    if (starts === undefined) return
    starts.delete(start)
    if (starts.size === 0) {
      this.#keys.delete(key)
      this.#sorted.remove(key)
    }
  }

  /** A sorted copy of the keys in [from, to]; undefined bounds are open. */
  keys(from: string | undefined, to: string | undefined): string[] {
    return this.#sorted.slice(from, to)
  }
}
