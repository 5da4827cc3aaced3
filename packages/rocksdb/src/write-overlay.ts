/**
 * The writes of a RocksDB store since its last flush: latin1 key -> value, or null for a delete.
 * Reads look here before the DB, so they see unflushed writes; iterators take a sorted snapshot
 * of the entries in their range and merge it with a DB iterator. A key written twice keeps only
 * its last value, so a flush writes each key once. The sorted key list is rebuilt lazily: keys
 * added since the last ordered read are sorted and merged in.
 * @internal
 */
import { bytesToKey } from '@kstreams/core/internal'

/** Bytes counted per entry on top of key and value: Map slot, string and Buffer headers. */
const ENTRY_OVERHEAD = 64

/** The entries of a key range at one moment, ascending; values are null for deletes. */
export interface OverlaySnapshot {
  readonly keys: readonly string[]
  readonly values: ReadonlyArray<Buffer | null>
}

export const EMPTY_SNAPSHOT: OverlaySnapshot = Object.freeze({ keys: [], values: [] })

export class WriteOverlay {
  #entries = new Map<string, Buffer | null>()
  /** Every key of #entries in order, valid when #unsorted is empty. */
  #sorted: string[] = []
  /** Keys added since #sorted was last brought up to date. */
  #unsorted: string[] = []
  #bytes = 0
  #deletes = 0

  get size(): number {
    return this.#entries.size
  }

  /** How many of the entries are deletes. */
  get deletes(): number {
    return this.#deletes
  }

  /** An estimate of the memory the pending writes hold. */
  get bytes(): number {
    return this.#bytes
  }

  /** The pending value: a Buffer, null for a pending delete, undefined when nothing is pending. */
  get(key: string): Buffer | null | undefined {
    return this.#entries.get(key)
  }

  set(key: string, value: Buffer | null): void {
    const entries = this.#entries
    const old = entries.get(key)
    entries.set(key, value)
    if (value === null && old !== null) this.#deletes++
    else if (value !== null && old === null) this.#deletes--
    if (old === undefined) {
      this.#unsorted.push(key)
      this.#bytes += key.length + ENTRY_OVERHEAD + (value === null ? 0 : value.length)
    } else {
      this.#bytes += (value === null ? 0 : value.length) - (old === null ? 0 : old.length)
    }
  }

  /** The pending entries, in insertion order of their keys. */
  entries(): IterableIterator<[string, Buffer | null]> {
    return this.#entries.entries()
  }

  clear(): void {
    this.#entries = new Map()
    this.#sorted = []
    this.#unsorted = []
    this.#bytes = 0
    this.#deletes = 0
  }

  /**
   * The entries with `from <= key <= to` (`key < to` when `toExclusive`), ascending. Undefined
   * bounds are open. The snapshot is the caller's: later writes do not change it.
   */
  snapshot(from: Buffer | undefined, to: Buffer | undefined, toExclusive = false): OverlaySnapshot {
    if (this.#entries.size === 0) return EMPTY_SNAPSHOT
    const sorted = this.#sortedKeys()
    const lower = from === undefined ? 0 : lowerBound(sorted, bytesToKey(from))
    let upper = sorted.length
    if (to !== undefined) {
      const bound = bytesToKey(to)
      upper = toExclusive ? lowerBound(sorted, bound) : upperBound(sorted, bound)
    }
    if (lower >= upper) return EMPTY_SNAPSHOT
    const keys = sorted.slice(lower, upper)
    const entries = this.#entries
    const values = keys.map(key => entries.get(key)!)
    return { keys, values }
  }

  #sortedKeys(): string[] {
    if (this.#unsorted.length === 0) return this.#sorted
    const added = this.#unsorted.sort()
    this.#unsorted = []
    this.#sorted = this.#sorted.length === 0 ? added : mergeSorted(this.#sorted, added)
    return this.#sorted
  }
}

function mergeSorted(a: readonly string[], b: readonly string[]): string[] {
  const out = new Array<string>(a.length + b.length)
  let i = 0
  let j = 0
  let k = 0
  while (i < a.length && j < b.length) out[k++] = a[i]! <= b[j]! ? a[i++]! : b[j++]!
  while (i < a.length) out[k++] = a[i++]!
  while (j < b.length) out[k++] = b[j++]!
  return out
}

/** The first index whose key is >= `key`. */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0
  let hi = keys.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (keys[mid]! < key) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The first index whose key is > `key`. */
function upperBound(keys: readonly string[], key: string): number {
  let lo = 0
  let hi = keys.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (keys[mid]! <= key) lo = mid + 1
    else hi = mid
  }
  return lo
}
