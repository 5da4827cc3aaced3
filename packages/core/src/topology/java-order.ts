/**
 * Iteration orders of the Java collections that Kafka Streams' `TopologyDescription` is built
 * from. `describe()` must print exactly what Kafka prints, and Kafka's text depends on them:
 * topic and store lists print a `HashSet` (hash-bucket order, not insertion or sorted order), and
 * the `-->` / `<--` lists are `TreeSet`s whose comparator reads subtree sizes that keep growing
 * while the sets are filled, so the final order depends on the red-black tree's shape and on the
 * `HashMap` order in which nodes were connected. This module reproduces those orders with the
 * `String.hashCode`, `HashMap` and `TreeMap` algorithms of OpenJDK 17, the Java Kafka Streams 4.x
 * is built for (checked against Kafka Streams 4.1.1 on OpenJDK 17; later JDKs size
 * `new HashSet<>(collection)` differently for a few collection sizes, from 24 elements up). @internal
 *
 * Not reproduced: `HashMap` bins that turn into trees (9+ names sharing one bucket of a table of
 * 64+ buckets, which takes deliberately colliding names); they are kept in insertion order here.
 */

/** Java's `String.hashCode()` (over UTF-16 code units, 32-bit wrap-around). */
export function javaStringHashCode(s: string): number {
  let h = 0
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0
  return h
}

const DEFAULT_CAPACITY = 16
const TREEIFY_THRESHOLD = 8
const MIN_TREEIFY_CAPACITY = 64

function tableSizeFor(capacity: number): number {
  let size = 1
  while (size < capacity) size *= 2
  return size
}

/**
 * The iteration order of a `HashSet<String>` (or the keys of a `HashMap<String, ?>`) filled by
 * adding `keys` in order. `initialCapacity` is the constructor argument; omitted means `new HashSet<>()`.
 */
export function javaHashOrder(keys: Iterable<string>, initialCapacity?: number): string[] {
  let capacity = initialCapacity === undefined ? DEFAULT_CAPACITY : tableSizeFor(initialCapacity)
  let bins: string[][] = Array.from({ length: capacity }, () => [])
  const seen = new Set<string>()
  const hashes = new Map<string, number>()

  const resize = (): void => {
    const old = bins
    capacity *= 2
    bins = Array.from({ length: capacity }, () => [])
    // Java splits each bin into a low and a high half keeping relative order: the same as re-adding in order.
    for (const bin of old) for (const key of bin) bins[hashes.get(key)! & (capacity - 1)]!.push(key)
  }

  for (const key of keys) {
    if (seen.has(key)) continue
    seen.add(key)
    const h = javaStringHashCode(key)
    const hash = h ^ (h >>> 16)
    hashes.set(key, hash)
    const bin = bins[hash & (capacity - 1)]!
    const lengthBefore = bin.length
    bin.push(key)
    // A bin reaching 9 entries is turned into a tree, or the table doubles while it is small.
    if (lengthBefore >= TREEIFY_THRESHOLD && capacity < MIN_TREEIFY_CAPACITY) resize()
    if (seen.size > Math.floor(capacity * 0.75)) resize()
  }
  return bins.flat()
}

/** The iteration order of `new HashSet<>(collection)` where `keys` is the collection's iteration order. */
export function javaHashSetCopyOrder(keys: Iterable<string>): string[] {
  const list = [...new Set(keys)]
  return javaHashOrder(list, Math.max(Math.floor(list.length / 0.75) + 1, DEFAULT_CAPACITY))
}

interface TreeEntry<T> {
  readonly key: T
  left: TreeEntry<T> | undefined
  right: TreeEntry<T> | undefined
  parent: TreeEntry<T> | undefined
  red: boolean
}

/**
 * A `java.util.TreeSet` with a comparator: a red-black tree with `TreeMap`'s insertion and
 * rebalancing steps, so that a comparator whose answers change between insertions yields the
 * same iteration order as in Java.
 */
export class JavaTreeSet<T> {
  readonly #compare: (a: T, b: T) => number
  #root: TreeEntry<T> | undefined
  #size = 0

  constructor(compare: (a: T, b: T) => number) {
    this.#compare = compare
  }

  get size(): number {
    return this.#size
  }

  /** Adds `key` unless the comparator finds an entry equal to it; returns whether it was added. */
  add(key: T): boolean {
    let t = this.#root
    if (t === undefined) {
      this.#compare(key, key)
      this.#root = { key, left: undefined, right: undefined, parent: undefined, red: false }
      this.#size = 1
      return true
    }
    let parent: TreeEntry<T>
    let cmp: number
    do {
      parent = t
      cmp = this.#compare(key, t.key)
      if (cmp < 0) t = t.left
      else if (cmp > 0) t = t.right
      else return false
    } while (t !== undefined)
    const entry: TreeEntry<T> = { key, left: undefined, right: undefined, parent, red: false }
    if (cmp < 0) parent.left = entry
    else parent.right = entry
    this.#fixAfterInsertion(entry)
    this.#size++
    return true
  }

  /** The keys in iteration (in-order) order. */
  values(): T[] {
    const result: T[] = []
    const stack: Array<TreeEntry<T>> = []
    let node = this.#root
    while (node !== undefined || stack.length > 0) {
      while (node !== undefined) {
        stack.push(node)
        node = node.left
      }
      const top = stack.pop()!
      result.push(top.key)
      node = top.right
    }
    return result
  }

  #fixAfterInsertion(inserted: TreeEntry<T>): void {
    let x: TreeEntry<T> | undefined = inserted
    x.red = true
    while (x !== undefined && x !== this.#root && isRed(x.parent)) {
      const parent: TreeEntry<T> | undefined = x.parent
      const grand: TreeEntry<T> | undefined = parent?.parent
      if (parent === grand?.left) {
        const uncle = grand?.right
        if (isRed(uncle)) {
          setRed(parent, false)
          setRed(uncle, false)
          setRed(grand, true)
          x = grand
        } else {
          if (x === parent?.right) {
            x = parent
            this.#rotateLeft(x)
          }
          setRed(x?.parent, false)
          setRed(x?.parent?.parent, true)
          this.#rotateRight(x?.parent?.parent)
        }
      } else {
        const uncle = grand?.left
        if (isRed(uncle)) {
          setRed(parent, false)
          setRed(uncle, false)
          setRed(grand, true)
          x = grand
        } else {
          if (x === parent?.left) {
            x = parent
            this.#rotateRight(x)
          }
          setRed(x?.parent, false)
          setRed(x?.parent?.parent, true)
          this.#rotateLeft(x?.parent?.parent)
        }
      }
    }
    this.#root!.red = false
  }

  #rotateLeft(p: TreeEntry<T> | undefined): void {
    if (p === undefined) return
    const r = p.right!
    p.right = r.left
    if (r.left !== undefined) r.left.parent = p
    r.parent = p.parent
    if (p.parent === undefined) this.#root = r
    else if (p.parent.left === p) p.parent.left = r
    else p.parent.right = r
    r.left = p
    p.parent = r
  }

  #rotateRight(p: TreeEntry<T> | undefined): void {
    if (p === undefined) return
    const l = p.left!
    p.left = l.right
    if (l.right !== undefined) l.right.parent = p
    l.parent = p.parent
    if (p.parent === undefined) this.#root = l
    else if (p.parent.right === p) p.parent.right = l
    else p.parent.left = l
    l.right = p
    p.parent = l
  }
}

function isRed<T>(entry: TreeEntry<T> | undefined): boolean {
  return entry !== undefined && entry.red
}

function setRed<T>(entry: TreeEntry<T> | undefined, red: boolean): void {
  if (entry !== undefined) entry.red = red
}
