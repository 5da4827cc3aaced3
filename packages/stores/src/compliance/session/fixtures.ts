/**
 * Data helpers of the session store compliance modules: session keys from text, the times the
 * checks use (spread well inside the retention period), and iterator contents as strings
 * `key@start/end=value`.
 */
import { SessionWindow, Windowed } from '@kstreams/core'
import type { SessionStore } from '@kstreams/core'
import type { SessionStoreHarness } from '../harness.js'
import { s } from '../window/fixtures.js'

export { s, sorted, windowedEntries as sessionEntries } from '../window/fixtures.js'

export type BytesSessionStore = SessionStore<Buffer, Buffer>

/** The latest start bound that includes every session. */
export const ANY_START = Number.MAX_SAFE_INTEGER

/** Session times derived from the harness. */
export interface SessionTimes {
  readonly retention: number
  /** Distance between consecutive times of the checks; at least 2 ms. */
  readonly step: number
  /** The i-th time (i = 0..9 stays within half the retention period). */
  t(i: number): number
}

export function sessionTimes(harness: SessionStoreHarness): SessionTimes {
  const step = Math.max(2, Math.floor(harness.retentionPeriod / 20))
  return { retention: harness.retentionPeriod, step, t: i => i * step }
}

export function session(key: string, start: number, end: number): Windowed<Buffer> {
  return new Windowed(s(key), new SessionWindow(start, end))
}

/** Puts `[key, start, end, aggregate]` rows in order. */
export function putSessions(store: BytesSessionStore, rows: ReadonlyArray<readonly [string, number, number, string]>): void {
  for (const [key, start, end, value] of rows) store.put(session(key, start, end), s(value))
}

/** The expected string of a session entry. */
export function sessionEntry(key: string, start: number, end: number, value: string): string {
  return `${key}@${start}/${end}=${value}`
}

export function fetchSessionText(store: BytesSessionStore, key: string, start: number, end: number): string | null {
  return store.fetchSession(s(key), start, end)?.toString() ?? null
}
