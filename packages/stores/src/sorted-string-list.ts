/**
 * A sorted list of distinct strings kept in chunks (a flat B-tree of one level), so inserting or
 * removing one key costs a binary search plus a splice within one chunk instead of moving the
 * whole list. Strings compare by UTF-16 code unit, which for the latin1 keys of the in-memory
 * stores is unsigned byte order.
 */

/** Chunks are split when they grow past this size; halves are half of it. */
const MAX_CHUNK = 1024

export class SortedStringList {
  /** Non-empty sorted chunks; every key of chunk i is below every key of chunk i + 1. */
  #chunks: string[][] = []
  /** The last (greatest) key of each chunk, for the binary search over chunks. */
  #maxes: string[] = []
  #size = 0

  get size(): number {
    return this.#size
  }

  /** Replaces the contents with the given keys, which must be sorted and distinct. */
  reset(sortedKeys: readonly string[]): void {
    const chunks: string[][] = []
    const maxes: string[] = []
    const half = MAX_CHUNK >> 1
    for (let i = 0; i < sortedKeys.length; i += half) {
      const chunk = sortedKeys.slice(i, i + half)
      chunks.push(chunk)
      maxes.push(chunk[chunk.length - 1]!)
    }
    this.#chunks = chunks
    this.#maxes = maxes
    this.#size = sortedKeys.length
  }

  /** Adds a key; does nothing when it is already there. */
  insert(key: string): void {
    const chunks = this.#chunks
    if (chunks.length === 0) {
      chunks.push([key])
      this.#maxes.push(key)
      this.#size = 1
      return
    }
    let c = lowerBound(this.#maxes, key)
    if (c === chunks.length) c--
    const chunk = chunks[c]!
    const i = lowerBound(chunk, key)
    if (chunk[i] === key) return
    chunk.splice(i, 0, key)
    this.#size++
    if (i === chunk.length - 1) this.#maxes[c] = key
    if (chunk.length > MAX_CHUNK) {
      const upper = chunk.splice(chunk.length >> 1)
      chunks.splice(c + 1, 0, upper)
      this.#maxes.splice(c, 0, chunk[chunk.length - 1]!)
    }
  }

  /** Removes a key; does nothing when it is not there. */
  remove(key: string): void {
    const maxes = this.#maxes
    const c = lowerBound(maxes, key)
    if (c === maxes.length) return
    const chunk = this.#chunks[c]!
    const i = lowerBound(chunk, key)
    if (chunk[i] !== key) return
    chunk.splice(i, 1)
    this.#size--
    if (chunk.length === 0) {
      this.#chunks.splice(c, 1)
      maxes.splice(c, 1)
    } else if (i === chunk.length) {
      maxes[c] = chunk[i - 1]!
    }
  }

  /**
   * Returns, in ascending order, a copy of the keys k with `from <= k` and `k <= to` (or `k < to`
   * when `toExclusive`). An undefined bound is open.
   */
  slice(from: string | undefined, to: string | undefined, toExclusive = false): string[] {
    const out: string[] = []
    const chunks = this.#chunks
    const maxes = this.#maxes
    let c = from === undefined ? 0 : lowerBound(maxes, from)
    let i = from === undefined || c === chunks.length ? 0 : lowerBound(chunks[c]!, from)
    for (; c < chunks.length; c++, i = 0) {
      const chunk = chunks[c]!
      const max = maxes[c]!
      if (to === undefined || max < to || (!toExclusive && max === to)) {
        for (; i < chunk.length; i++) out.push(chunk[i]!)
        continue
      }
      for (; i < chunk.length; i++) {
        const key = chunk[i]!
        if (key > to || (toExclusive && key === to)) return out
        out.push(key)
      }
      return out
    }
    return out
  }
}

/** The index of the first element >= key (the length when there is none). */
function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]! < key) lo = mid + 1
    else hi = mid
  }
  return lo
}
