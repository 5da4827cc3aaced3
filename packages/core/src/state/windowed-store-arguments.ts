/**
 * The argument rules of window and session stores (Kafka's `Stores` checks), shared by every
 * backend so that each rejects the same values with the same error: ILLEGAL_ARGUMENT naming the
 * store. Also the default segment interval of persistent (segmented) stores.
 */
import { StreamsError } from '../errors.js'

/** Kafka's default segment interval for persistent window and session stores: max(retention / 2, 60 s). */
export function defaultSegmentInterval(retentionPeriod: number): number {
  return Math.max(Math.floor(retentionPeriod / 2), 60_000)
}

function checkMillis(storeName: string, what: string, value: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      `Store "${storeName}": ${what} must be an integer number of milliseconds, got ${String(value)}`
    )
  }
  if (value < 0) throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${storeName}": ${what} cannot be negative, got ${value}`)
  return value
}

/** Checks retentionPeriod >= 0. */
export function checkRetentionPeriod(storeName: string, retentionPeriod: number): number {
  return checkMillis(storeName, 'retentionPeriod', retentionPeriod)
}

/** Checks retentionPeriod >= 0, windowSize >= 0 and retentionPeriod >= windowSize. */
export function checkWindowStoreArguments(storeName: string, retentionPeriod: number, windowSize: number): void {
  checkRetentionPeriod(storeName, retentionPeriod)
  checkMillis(storeName, 'windowSize', windowSize)
  if (windowSize > retentionPeriod) {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      `The retention period of the window store ${storeName} must be no smaller than its window size. Got size=[${windowSize}], retention=[${retentionPeriod}]`
    )
  }
}

/** Checks segmentInterval >= 1. */
export function checkSegmentInterval(storeName: string, segmentInterval: number): number {
  if (typeof segmentInterval !== 'number' || !Number.isSafeInteger(segmentInterval) || segmentInterval < 1) {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      `Store "${storeName}": segmentInterval cannot be zero or negative, got ${String(segmentInterval)}`
    )
  }
  return segmentInterval
}

/** Checks that retainDuplicates is a boolean. */
export function checkRetainDuplicates(storeName: string, retainDuplicates: boolean): boolean {
  if (typeof retainDuplicates !== 'boolean') {
    throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${storeName}": retainDuplicates must be a boolean, got ${String(retainDuplicates)}`)
  }
  return retainDuplicates
}
