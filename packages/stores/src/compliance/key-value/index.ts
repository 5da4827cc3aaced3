/// <reference types="mocha" />
/**
 * The key-value store compliance suite: registers, under one describe() per harness, the checks
 * of every operation module against the harness's stores. Call it at the top level of a test file.
 */
import { StreamsError } from '@kstreams/core'
import type { KeyValueStoreHarness } from '../harness.js'
import type { KeyValueOperationSuite } from './key-value-check.js'
import { allSuite } from './all.js'
import { approximateNumEntriesSuite } from './approximate-num-entries.js'
import { byteOrderSuite } from './byte-order.js'
import { closedStoreSuite } from './closed-store.js'
import { deleteSuite } from './delete.js'
import { getPutSuite } from './get-put.js'
import { iteratorLifecycleSuite } from './iterator-lifecycle.js'
import { prefixScanSuite } from './prefix-scan.js'
import { putAllSuite } from './put-all.js'
import { putIfAbsentSuite } from './put-if-absent.js'
import { rangeSuite } from './range.js'
import { reopenPersistenceSuite } from './reopen-persistence.js'
import { reverseAllSuite } from './reverse-all.js'
import { reverseRangeSuite } from './reverse-range.js'
import { runOperationSuite, trackHarness } from './run-operation-suite.js'

/** The operation modules, in the order their tests are listed. */
export function keyValueOperationSuites(harness: KeyValueStoreHarness): KeyValueOperationSuite[] {
  return [
    getPutSuite,
    putIfAbsentSuite,
    putAllSuite,
    deleteSuite,
    rangeSuite,
    reverseRangeSuite,
    allSuite,
    reverseAllSuite,
    prefixScanSuite,
    approximateNumEntriesSuite,
    byteOrderSuite,
    iteratorLifecycleSuite,
    closedStoreSuite(harness),
    reopenPersistenceSuite(harness)
  ]
}

/**
 * Registers the key-value compliance tests for `harness`. A persistent harness must be able to
 * reopen its stores (ILLEGAL_ARGUMENT otherwise). The harness is cleaned up after the last test.
 */
export function keyValueStoreCompliance(harness: KeyValueStoreHarness): void {
  if (harness.persistent && harness.reopen === undefined) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `Harness "${harness.name}" is persistent but cannot reopen stores`)
  }
  describe(`key-value store compliance: ${harness.name}`, () => {
    const tracked = trackHarness(harness)
    after(async () => {
      tracked.closeAll()
      await harness.cleanup()
    })
    for (const suite of keyValueOperationSuites(harness)) {
      if (suite.checks.length > 0 || suite.closedStoreCalls !== undefined) runOperationSuite(tracked, suite)
    }
  })
}
