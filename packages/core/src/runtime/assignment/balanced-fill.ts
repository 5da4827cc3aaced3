/**
 * Sticky balanced placement, the building block of the task assignor (clients) and of the
 * per-client thread assignment (consumers). Every bin has a capacity (threads); with U units in
 * all and C capacity in all, a bin of capacity c ends with c*floor(U/C) units, plus at most c of
 * the U mod C extra units, so units per thread differ by at most one. Previous owners keep their
 * tasks up to that quota; the rest go where `choose` prefers among bins with room. @internal
 */
import { IllegalStateError } from '../../errors.js'

export interface Bin {
  readonly id: string
  readonly capacity: number
}

export interface BalancedFillOptions<B extends Bin> {
  /** The bins, in a stable order (ties are broken by this order). */
  readonly bins: readonly B[]
  /** Tasks to place, in the order they are considered. */
  readonly tasks: readonly string[]
  /** Units a bin already holds that count toward this balance (e.g. stateful tasks when placing stateless ones). */
  readonly initialCount: (bin: B) => number
  /** Tasks this bin owned before, in the order it should keep them. */
  readonly previousTasks: (bin: B) => readonly string[]
  /** Picks a bin for a task among candidates (all with room, or all bins when none has room). */
  readonly choose: (task: string, candidates: readonly B[], countOf: (bin: B) => number) => B
  readonly place: (bin: B, task: string) => void
}

export function fillBalanced<B extends Bin>(options: BalancedFillOptions<B>): void {
  const { bins, tasks } = options
  if (tasks.length === 0) return
  if (bins.length === 0) throw new IllegalStateError(`No client or thread to place ${tasks.length} tasks on`)
  const counts = new Map<B, number>(bins.map(bin => [bin, options.initialCount(bin)]))
  const totalCapacity = bins.reduce((sum, bin) => sum + bin.capacity, 0)
  let totalUnits = tasks.length
  for (const count of counts.values()) totalUnits += count
  const base = Math.floor(totalUnits / totalCapacity)
  const extra = totalUnits - base * totalCapacity
  let extrasUsed = 0
  for (const bin of bins) extrasUsed += Math.max(0, counts.get(bin)! - bin.capacity * base)

  const countOf = (bin: B): number => counts.get(bin)!
  const belowMinimum = (bin: B): boolean => countOf(bin) < bin.capacity * base
  const hasRoom = (bin: B): boolean => belowMinimum(bin) || (countOf(bin) < bin.capacity * (base + 1) && extrasUsed < extra)
  const remaining = new Set(tasks)
  const put = (bin: B, task: string): void => {
    if (!belowMinimum(bin)) extrasUsed++
    counts.set(bin, countOf(bin) + 1)
    remaining.delete(task)
    options.place(bin, task)
  }

  // Previous owners first keep up to their minimum, then share out the extra units.
  const previous = new Map(bins.map(bin => [bin, options.previousTasks(bin)]))
  for (const fits of [belowMinimum, hasRoom]) {
    for (const bin of bins) {
      for (const task of previous.get(bin)!) {
        if (remaining.has(task) && fits(bin)) put(bin, task)
      }
    }
  }

  for (const task of tasks) {
    if (!remaining.has(task)) continue
    const withRoom = bins.filter(hasRoom)
    put(options.choose(task, withRoom.length > 0 ? withRoom : bins, countOf), task)
  }
}

/** A `choose` that takes the least loaded bin (units per capacity), first in bin order on ties. */
export function leastLoaded<B extends Bin>(_task: string, candidates: readonly B[], countOf: (bin: B) => number): B {
  return minBy(candidates, bin => [countOf(bin) / bin.capacity])
}

/** The item with the smallest key (compared element by element), the first one on ties. */
export function minBy<T>(items: readonly T[], key: (item: T) => readonly number[]): T {
  let best = items[0]!
  let bestKey = key(best)
  for (let i = 1; i < items.length; i++) {
    const itemKey = key(items[i]!)
    if (compareKeys(itemKey, bestKey) < 0) {
      best = items[i]!
      bestKey = itemKey
    }
  }
  return best
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i]! !== b[i]!) return a[i]! < b[i]! ? -1 : 1
  }
  return 0
}
