/// <reference types="mocha" />
/**
 * Changelogging and restore of versioned stores: every put and delete is logged with its
 * timestamp (Kafka's ChangeLoggingVersionedKeyValueBytesStore), restore replays
 * put(key, value, timestamp) (ports of Kafka's RocksDBVersionedStoreTest restore cases), and a
 * persistent store keeps its versions across a reopen.
 */
import { expect } from 'chai'
import { PUT_RETURN_CODE_NOT_PUT as NOT_PUT, PUT_RETURN_CODE_VALID_TO_UNDEFINED as U } from '@kstreams/core'
import { eachWithStore, GRACE_PERIOD, HISTORY_RETENTION as HR, SEGMENT_INTERVAL as S, STORE_NAME, VersionedFixture } from './fixtures.js'
import type { VersionedStoreHarness } from './fixtures.js'
import { putMovedHistory, verifyMixedHistory, verifyMovedHistory } from './put-get.js'

export function versionedRestoreCompliance(harness: VersionedStoreHarness): void {
  describe('changelog and restore', () => {
    const store = eachWithStore(harness)

    it('logs every put and delete with its timestamp, also a put older than the grace period', () => {
      const f = store()
      f.put('k', 'v', HR + 10, U)
      f.put('k', 'old', HR + 9 - GRACE_PERIOD, NOT_PUT)
      f.delete('k', HR + 20)
      const logged = f.context.changelogOf(STORE_NAME).map(r => [r.key.toString(), r.value?.toString() ?? null, r.timestamp])
      expect(logged).to.deep.equal([
        ['k', 'v', HR + 10],
        ['k', 'old', HR + 9 - GRACE_PERIOD],
        ['k', null, HR + 20]
      ])
    })

    it('restores versions (shouldRestore)', () => {
      const f = store()
      f.restore([
        ['k', 'vp20', S + 20],
        ['k', 'vp10', S + 10],
        ['k', 'vn10', S - 10],
        ['k', 'vn2', S - 2],
        ['k', 'vn1', S - 1],
        ['k', 'vp1', S + 1]
      ])
      verifyMovedHistory(f)
    })

    it('restores deletes (shouldRestoreWithNulls)', () => {
      const f = store()
      f.restore([
        ['k', null, S + 20],
        ['k', null, S - 1],
        ['k', null, S + 1],
        ['k', null, S - 10],
        ['k', null, S + 10],
        ['k', 'vp5', S + 5],
        ['k', 'vn5', S - 5],
        ['k', 'vn6', S - 6]
      ])
      verifyMixedHistory(f)
    })

    it('restores deletes and repeated timestamps (shouldRestoreWithNullsAndRepeatTimestamps)', () => {
      const f = store()
      f.restore([
        ['k', 'to_be_replaced', S + 20],
        ['k', null, S - 10],
        ['k', 'to_be_replaced', S - 10],
        ['k', null, S - 10],
        ['k', 'to_be_replaced', S - 1],
        ['k', 'to_be_replaced', S + 1],
        ['k', null, S - 1],
        ['k', null, S + 1],
        ['k', null, S + 10],
        ['k', null, S + 5],
        ['k', 'vp5', S + 5],
        ['k', 'to_be_replaced', S - 5],
        ['k', 'vn5', S - 5],
        ['k', null, S + 20],
        ['k', null, S + 20],
        ['k', 'vn6', S - 6]
      ])
      verifyMixedHistory(f)
    })

    it('restores several batches (shouldRestoreMultipleBatches)', () => {
      const f = store()
      f.restore([
        ['k', null, S - 20],
        ['k', 'vn10', S - 10],
        ['k', null, S - 1]
      ])
      f.restore([
        ['k', null, S + 1],
        ['k', 'vp10', S + 10],
        ['k', null, S + 20]
      ])
      f.verifyLatestNull('k')
      f.verifyAsOfNull('k', S + 30)
      f.verifyAsOf('k', S + 15, 'vp10', S + 10, S + 20)
      for (const t of [S + 5, S + 2, S, S - 1]) f.verifyAsOfNull('k', t)
      f.verifyAsOf('k', S - 5, 'vn10', S - 10, S - 1)
      f.verifyAsOfNull('k', S - 15)
    })

    it('does not restore records older than the grace period (shouldNotRestoreExpired)', () => {
      const f = store()
      f.restore([
        ['k', 'v', HR + 10],
        ['k1', 'v1', HR + 10 - GRACE_PERIOD],
        ['k2', 'v2', HR + 9 - GRACE_PERIOD]
      ])
      f.verifyLatest('k', 'v', HR + 10)
      f.verifyLatest('k1', 'v1', HR + 10 - GRACE_PERIOD)
      f.verifyLatestNull('k2')
    })

    it('restores a latest version that the end of the batch makes old (shouldRestoreEvenIfRecordWouldBeExpiredByEndOfBatch)', () => {
      const f = store()
      f.restore([
        ['k2', 'v2', HR - GRACE_PERIOD],
        ['k', 'v', HR + 10]
      ])
      f.verifyLatest('k2', 'v2', HR - GRACE_PERIOD)
      f.verifyLatest('k', 'v', HR + 10)
    })

    it('replays its own changelog into a new store to the same versions', async () => {
      const f = store()
      putMovedHistory(f)
      const changelog = f.context.changelogOf(STORE_NAME)
      const fresh = await VersionedFixture.open(harness)
      try {
        fresh.restore(changelog.map(r => [r.key.toString(), r.value?.toString() ?? null, r.timestamp] as const))
        verifyMovedHistory(fresh)
      } finally {
        await fresh.close()
      }
    })

    if (harness.persistent) {
      it('keeps its versions across a reopen', async () => {
        const f = store()
        putMovedHistory(f)
        f.store.flush()
        await f.reopen()
        verifyMovedHistory(f)
        // The segments found on disk take writes again.
        f.put('k', 'vn3', S - 3, S - 2)
        f.verifyAsOf('k', S - 3, 'vn3', S - 3, S - 2)
      })
    }
  })
}
