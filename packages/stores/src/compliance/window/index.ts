/// <reference types="mocha" />
/**
 * The window store compliance suite: registers, under one describe() per harness, the checks of
 * every operation module against the harness's stores. Call it at the top level of a test file.
 * The harness needs a retention period of at least 20 ms and a window size of at least 1 ms (the
 * checks place their windows within half the retention period).
 */
import { StreamsError } from '@kstreams/core'
import type { WindowStoreHarness } from '../harness.js'
import { windowAllCompliance } from './all.js'
import { windowBackwardFetchCompliance } from './backward-fetch.js'
import { windowFetchAllCompliance } from './fetch-all.js'
import { windowFetchKeyRangeCompliance } from './fetch-key-range.js'
import { windowFetchTimeRangeCompliance } from './fetch-time-range.js'
import { windowIteratorCompliance } from './iterators.js'
import { windowPutFetchCompliance } from './put-fetch.js'
import { windowRetainDuplicatesCompliance } from './retain-duplicates.js'
import { windowRetentionCompliance } from './retention.js'

/**
 * Registers the window store compliance tests for `harness` (under mocha; call it at the top level
 * of a test file). The harness is cleaned up after the last test.
 */
export function windowStoreCompliance(harness: WindowStoreHarness): void {
  if (harness.persistent && harness.reopen === undefined) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `Harness "${harness.name}" is persistent but cannot reopen stores`)
  }
  if (!(harness.retentionPeriod >= 20) || !(harness.windowSize >= 1) || harness.windowSize > harness.retentionPeriod) {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      `Harness "${harness.name}" needs retentionPeriod >= 20 and 1 <= windowSize <= retentionPeriod`
    )
  }
  const mode = harness.retainDuplicates ? ', retaining duplicates' : ''
  describe(`window store compliance: ${harness.name}${mode}`, () => {
    after(async () => {
      await harness.cleanup()
    })
    windowPutFetchCompliance(harness)
    windowFetchTimeRangeCompliance(harness)
    windowFetchKeyRangeCompliance(harness)
    windowBackwardFetchCompliance(harness)
    windowFetchAllCompliance(harness)
    windowAllCompliance(harness)
    windowRetentionCompliance(harness)
    windowRetainDuplicatesCompliance(harness)
    windowIteratorCompliance(harness)
  })
}
