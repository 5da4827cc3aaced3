/**
 * The data of an in-memory key-value store: a hash map from latin1 key to value for O(1) get and
 * put, plus a sorted key list for ranges. Writes only record which keys were added or removed;
 * the sorted list catches up when an ordered read needs it, one splice per changed key, or by a
 * full re-sort when most keys changed.
 */
import { SortedStringList } from './sorted-string-list.js'

/** Below this many pending changes the sorted list is always patched, never rebuilt. */
const MIN_REBUILD = 64

export class OrderedBytesMap {
  readonly #entries = new Map<string, Buffer>()
  readonly #sorted = new SortedStringList()
  /** Keys inserted into #entries since the last sync (a key may repeat). */
  #added: string[] = []
  /** Keys removed from #entries since the last sync (a key may repeat). */
  #removed: string[] = []
  /** When true the sorted list is rebuilt from #entries at the next sync; nothing is recorded. */
  #rebuild = false

  get size(): number {
    return this.#entries.size
  }

  get(key: string): Buffer | undefined {
    return this.#entries.get(key)
  }

  set(key: string, value: Buffer): void {
    const entries = this.#entries
    const before = entries.size
    entries.set(key, value)
    if (entries.size !== before && !this.#rebuild) {
      this.#added.push(key)
      this.#checkPending()
    }
  }

  /** Removes a key and returns its value, or undefined when it was absent. */
  delete(key: string): Buffer | undefined {
    const entries = this.#entries
    const old = entries.get(key)
    if (old === undefined) return undefined
    entries.delete(key)
    if (!this.#rebuild) {
      this.#removed.push(key)
      this.#checkPending()
    }
    return old
  }

  clear(): void {
    this.#entries.clear()
    this.#sorted.reset([])
    this.#added = []
    this.#removed = []
    this.#rebuild = false
  }

  /**
   * A sorted copy of the present keys k with `from <= k <= to` (`k < to` when `toExclusive`).
   * Undefined bounds are open. The copy is the caller's: later writes do not change it.
   */
  keys(from: string | undefined, to: string | undefined, toExclusive = false): string[] {
    this.#sync()
    return this.#sorted.slice(from, to, toExclusive)
  }

  /** Switches to a full rebuild when patching would cost more than re-sorting. */
  #checkPending(): void {
    const pending = this.#added.length + this.#removed.length
    if (pending > MIN_REBUILD && pending > this.#sorted.size) {
      this.#rebuild = true
      this.#added = []
      this.#removed = []
    }
  }

  /** Makes the sorted list hold exactly the keys of #entries. */
  #sync(): void {
    const entries = this.#entries
    if (this.#rebuild) {
      this.#sorted.reset([...entries.keys()].sort())
      this.#rebuild = false
      return
    }
    // Every key missing from the list was added and every stale key was removed since the last
    // sync, so checking each recorded key against the map gives the exact key set.
    if (this.#added.length === 0 && this.#removed.length === 0) return
    const sorted = this.#sorted
    for (const key of this.#removed) {
      if (!entries.has(key)) sorted.remove(key)
    }
    for (const key of this.#added) {
      if (entries.has(key)) sorted.insert(key)
    }
    this.#added = []
    this.#removed = []
  }
}
