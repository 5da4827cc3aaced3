/**
 * The in-memory baseline of the store bench: a plain sorted map with no kstreams code, a Map for
 * point reads and writes plus a key array sorted again when a range read follows new keys.
 */
export class SortedMap {
  readonly #entries = new Map<string, Buffer>()
  #sorted: string[] = []
  #dirty = false

  get(key: string): Buffer | undefined {
    return this.#entries.get(key)
  }

  set(key: string, value: Buffer): void {
    const entries = this.#entries
    const size = entries.size
    entries.set(key, value)
    if (entries.size !== size) this.#dirty = true
  }

  /** Calls `visit` for every entry with from <= key <= to, in order; returns how many. */
  range(from: string, to: string, visit: (key: string, value: Buffer) => void): number {
    if (this.#dirty) {
      this.#sorted = [...this.#entries.keys()].sort()
      this.#dirty = false
    }
    const keys = this.#sorted
    let lo = 0
    let hi = keys.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (keys[mid]! < from) lo = mid + 1
      else hi = mid
    }
    let count = 0
    for (let i = lo; i < keys.length && keys[i]! <= to; i++) {
      visit(keys[i]!, this.#entries.get(keys[i]!)!)
      count++
    }
    return count
  }
}
