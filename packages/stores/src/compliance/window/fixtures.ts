/**
 * Data helpers of the window store compliance modules: text keys and values, the window starts
 * the checks use (spread well inside the retention period, so nothing expires unless a check
 * means it to), and iterator contents as comparable strings.
 */
import type { KeyValueIterator, WindowStore, Windowed } from '@kstreams/core'
import type { WindowStoreHarness } from '../harness.js'

export type BytesWindowStore = WindowStore<Buffer, Buffer>

export const s = (text: string): Buffer => Buffer.from(text, 'utf8')

/** Window starts and sizes derived from the harness. */
export interface WindowTimes {
  readonly retention: number
  readonly windowSize: number
  /** Distance between consecutive window starts of the checks; at least 2 ms. */
  readonly step: number
  /** The i-th window start (i = 0..9 stays within half the retention period). */
  t(i: number): number
}

export function windowTimes(harness: WindowStoreHarness): WindowTimes {
  const step = Math.max(2, Math.floor(harness.retentionPeriod / 20))
  return { retention: harness.retentionPeriod, windowSize: harness.windowSize, step, t: i => i * step }
}

/** Entries of a single-key fetch as `start=value`; closes the iterator. */
export function timeEntries(iterator: KeyValueIterator<number, Buffer>): string[] {
  try {
    return [...iterator].map(kv => `${kv.key}=${kv.value.toString()}`)
  } finally {
    iterator.close()
  }
}

/** Entries of a windowed iterator as `key@start/end=value`; closes the iterator. */
export function windowedEntries(iterator: KeyValueIterator<Windowed<Buffer>, Buffer>): string[] {
  try {
    return [...iterator].map(kv => `${kv.key.key.toString()}@${kv.key.window.start}/${kv.key.window.end}=${kv.value.toString()}`)
  } finally {
    iterator.close()
  }
}

/** The expected string of a window entry of a store with window size `windowSize`. */
export function windowEntry(key: string, start: number, value: string, windowSize: number): string {
  return `${key}@${start}/${start + windowSize}=${value}`
}

export const sorted = (entries: readonly string[]): string[] => [...entries].sort()

/** Puts text values: `[key, windowStart, value]` triples in order. */
export function putAll(store: BytesWindowStore, rows: ReadonlyArray<readonly [string, number, string]>): void {
  for (const [key, start, value] of rows) store.put(s(key), s(value), start)
}

/** The value of one window as text, or null. */
export function fetchText(store: BytesWindowStore, key: string, start: number): string | null {
  return store.fetch(s(key), start)?.toString() ?? null
}
