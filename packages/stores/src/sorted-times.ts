/**
 * Binary searches over an ascending array of timestamps, shared by the in-memory window and
 * session stores (which keep the times of their windows sorted), and the insert and remove that
 * keep the array sorted. Appends at the end, the common case, cost no search.
 */

/** The index of the first time >= t (the length when there is none). */
export function lowerBound(times: readonly number[], t: number): number {
  let lo = 0
  let hi = times.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (times[mid]! < t) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The index of the first time > t (the length when there is none). */
export function upperBound(times: readonly number[], t: number): number {
  let lo = 0
  let hi = times.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (times[mid]! <= t) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Inserts t, which must not be present. */
export function insertTime(times: number[], t: number): void {
  if (times.length === 0 || times[times.length - 1]! < t) times.push(t)
  else times.splice(lowerBound(times, t), 0, t)
}

/** Removes t when present. */
export function removeTime(times: number[], t: number): void {
  const index = lowerBound(times, t)
  if (times[index] === t) times.splice(index, 1)
}

/** Removes every time below `minTime` and returns them. */
export function removeTimesBelow(times: number[], minTime: number): number[] {
  const count = lowerBound(times, minTime)
  return count === 0 ? [] : times.splice(0, count)
}
