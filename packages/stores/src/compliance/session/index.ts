/// <reference types="mocha" />
/**
 * The session store compliance suite: registers, under one describe() per harness, the checks of
 * every operation module against the harness's stores. Call it at the top level of a test file.
 * The harness needs a retention period of at least 20 ms (the checks place their sessions within
 * half of it).
 */
import { StreamsError } from '@kstreams/core'
import type { SessionStoreHarness } from '../harness.js'
import { sessionBackwardFindSessionsCompliance } from './backward-find-sessions.js'
import { sessionFetchCompliance } from './fetch.js'
import { sessionFindSessionsCompliance } from './find-sessions.js'
import { sessionIteratorCompliance } from './iterators.js'
import { sessionPutFetchCompliance } from './put-fetch-session.js'
import { sessionRemoveCompliance } from './remove.js'
import { sessionRetentionCompliance } from './retention.js'

/**
 * Registers the session store compliance tests for `harness` (under mocha; call it at the top level
 * of a test file). The harness is cleaned up after the last test.
 */
export function sessionStoreCompliance(harness: SessionStoreHarness): void {
  if (harness.persistent && harness.reopen === undefined) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `Harness "${harness.name}" is persistent but cannot reopen stores`)
  }
  if (!(harness.retentionPeriod >= 20)) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `Harness "${harness.name}" needs retentionPeriod >= 20`)
  }
  describe(`session store compliance: ${harness.name}`, () => {
    after(async () => {
      await harness.cleanup()
    })
    sessionPutFetchCompliance(harness)
    sessionRemoveCompliance(harness)
    sessionFindSessionsCompliance(harness)
    sessionBackwardFindSessionsCompliance(harness)
    sessionFetchCompliance(harness)
    sessionRetentionCompliance(harness)
    sessionIteratorCompliance(harness)
  })
}
