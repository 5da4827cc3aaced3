/// <reference types="mocha" />
/**
 * The versioned store compliance suite: registers, under one describe() per harness, the ports of
 * Kafka's RocksDBVersionedStoreTest (put/get, multi-version gets, changelog and restore) against
 * the harness's supplier, through the full builder stack. Call it at the top level of a test file.
 */
import { PUT_RETURN_CODE_VALID_TO_UNDEFINED } from '@kstreams/core'
import { expect } from 'chai'
import { codeOf } from '../expect-code.js'
import { VersionedFixture, type VersionedStoreHarness } from './fixtures.js'
import { versionedMultiVersionCompliance } from './multi-version.js'
import { versionedPutGetCompliance } from './put-get.js'
import { versionedRestoreCompliance } from './restore.js'

export type { VersionedStoreHarness } from './fixtures.js'

/** Registers the versioned store compliance tests for `harness`; the harness is cleaned up after the last test. */
export function versionedStoreCompliance(harness: VersionedStoreHarness): void {
  describe(`versioned store compliance: ${harness.name}`, () => {
    after(async () => {
      await harness.cleanup()
    })
    versionedPutGetCompliance(harness)
    versionedMultiVersionCompliance(harness)
    versionedRestoreCompliance(harness)

    it('refuses every operation once closed (STORE_NOT_OPEN)', async () => {
      const f = await VersionedFixture.open(harness)
      f.put('k', 'v', 1, PUT_RETURN_CODE_VALID_TO_UNDEFINED)
      await f.close()
      expect(codeOf(() => f.store.get('k'))).to.equal('STORE_NOT_OPEN')
      expect(codeOf(() => f.store.get('k', 1))).to.equal('STORE_NOT_OPEN')
      expect(codeOf(() => f.store.put('k', 'v', 2))).to.equal('STORE_NOT_OPEN')
      expect(codeOf(() => f.store.delete('k', 2))).to.equal('STORE_NOT_OPEN')
    })

    it('refuses a negative history retention and a segment interval below 1 (ILLEGAL_ARGUMENT)', () => {
      expect(codeOf(() => harness.supplier('bad', -1, 10))).to.equal('ILLEGAL_ARGUMENT')
      expect(codeOf(() => harness.supplier('bad', 10, 0))).to.equal('ILLEGAL_ARGUMENT')
    })
  })
}
