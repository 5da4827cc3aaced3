/**
 * The sorted keys of a named cache, for range reads, kept lazily: writes only note which keys
 * were added and how many were removed; the next range read merges the changes in (one pass) or,
 * when nothing is tracked, sorts every key. Tracking stops when the pending changes outgrow the
 * cache, so a cache that is never range-read pays almost nothing. @internal
 */

/** Pending changes beyond `2 * size + SLACK` drop the index until the next range read. */
const SLACK = 64

export class SortedKeyIndex {
  #sorted: string[] | undefined
  #added: string[] = []
  #removed = 0

  /** A key was added to the cache. */
  noteAdded(key: string, size: number): void {
    if (this.#sorted === undefined) return
    this.#added.push(key)
    this.#checkPending(size)
  }

  /** A key was removed from the cache. */
  noteRemoved(size: number): void {
    if (this.#sorted === undefined) return
    this.#removed++
    this.#checkPending(size)
  }

  /** Every live key, ascending; `has` says which keys are live, `keys` lists them all. */
  sorted(has: (key: string) => boolean, keys: () => Iterable<string>): string[] {
    let sorted = this.#sorted
    if (sorted === undefined) {
      sorted = [...keys()].sort()
    } else if (this.#added.length > 0 || this.#removed > 0) {
      const base = this.#removed > 0 ? sorted.filter(has) : sorted
      const added = this.#added.filter(has).sort()
      sorted = added.length === 0 ? base : mergeDistinct(base, added)
    }
    this.#sorted = sorted
    this.#added = []
    this.#removed = 0
    return sorted
  }

  clear(): void {
    this.#sorted = undefined
    this.#added = []
    this.#removed = 0
  }

  #checkPending(size: number): void {
    if (this.#added.length + this.#removed > 2 * size + SLACK) this.clear()
  }
}

/** Merges two ascending lists, keeping one copy of keys present in both or repeated. */
function mergeDistinct(a: string[], b: string[]): string[] {
  const out: string[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!
    if (out.length === 0 || out[out.length - 1] !== next) out.push(next)
  }
  return out
}

/** First index whose key is >= key. */
export function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]! < key) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** First index whose key is > key. */
export function upperBound(sorted: readonly string[], key: string): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]! <= key) lo = mid + 1
    else hi = mid
  }
  return lo
}
