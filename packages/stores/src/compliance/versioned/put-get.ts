/// <reference types="mocha" />
/**
 * put, get and get-as-of of versioned stores: ports of Kafka's RocksDBVersionedStoreTest (the
 * same puts, expected validTo results and gets), run against any backend.
 */
import { expect } from 'chai'
import { PUT_RETURN_CODE_NOT_PUT as NOT_PUT, PUT_RETURN_CODE_VALID_TO_UNDEFINED as U } from '@kstreams/core'
import { BASE_TIMESTAMP as B, eachWithStore, GRACE_PERIOD, HISTORY_RETENTION as HR, SEGMENT_INTERVAL as S } from './fixtures.js'
import type { VersionedFixture, VersionedStoreHarness } from './fixtures.js'

export function versionedPutGetCompliance(harness: VersionedStoreHarness): void {
  describe('put and get', () => {
    const store = eachWithStore(harness)

    it('puts the latest version (shouldPutLatest)', () => {
      const f = store()
      f.put('k', 'v', B, U)
      f.put('k', 'v2', B + 1, U)
      f.verifyLatest('k', 'v2', B + 1)
      f.verifyAsOf('k', B, 'v', B, B + 1)
      f.verifyAsOf('k', B + 1, 'v2', B + 1, U)
      f.verifyAsOf('k', B + 2, 'v2', B + 1, U)
    })

    it('puts null as the latest version (shouldPutNullAsLatest)', () => {
      const f = store()
      f.put('k', null, B, U)
      f.put('k', null, B + 1, U)
      f.verifyLatestNull('k')
      for (const t of [B, B + 1, B + 2]) f.verifyAsOfNull('k', t)
    })

    it('puts older versions before a non-null latest (shouldPutOlderWithNonNullLatest)', () => {
      const f = store()
      f.put('k', 'v', B, U)
      f.put('k', 'v2', B - 2, B)
      f.put('k', 'v1', B - 1, B)
      f.put('k', 'v4', B - 4, B - 2)
      f.verifyLatest('k', 'v', B)
      f.verifyAsOf('k', B, 'v', B, U)
      f.verifyAsOf('k', B - 1, 'v1', B - 1, B)
      f.verifyAsOf('k', B - 2, 'v2', B - 2, B - 1)
      f.verifyAsOf('k', B - 3, 'v4', B - 4, B - 2)
    })

    it('puts older versions before a null latest (shouldPutOlderWithNullLatest)', () => {
      const f = store()
      f.put('k', null, B, U)
      f.put('k', 'v2', B - 2, B)
      f.put('k', 'v1', B - 1, B)
      f.put('k', 'v4', B - 4, B - 2)
      f.verifyLatestNull('k')
      f.verifyAsOfNull('k', B)
      f.verifyAsOf('k', B - 1, 'v1', B - 1, B)
      f.verifyAsOf('k', B - 2, 'v2', B - 2, B - 1)
      f.verifyAsOf('k', B - 3, 'v4', B - 4, B - 2)
    })

    it('puts older nulls before a non-null latest (shouldPutOlderNullWithNonNullLatest)', () => {
      const f = store()
      f.put('k', 'v', B, U)
      f.put('k', null, B - 2, B)
      f.put('k', null, B - 1, B)
      f.put('k', null, B - 4, B - 2)
      f.put('k', 'v5', B - 5, B - 4)
      f.put('k', 'v3', B - 3, B - 2)
      f.put('k', null, B - 6, B - 5)
      f.verifyLatest('k', 'v', B)
      f.verifyAsOf('k', B, 'v', B, U)
      verifyOlderNulls(f)
    })

    it('puts older nulls before a null latest (shouldPutOlderNullWithNullLatest)', () => {
      const f = store()
      f.put('k', null, B, U)
      f.put('k', null, B - 2, B)
      f.put('k', null, B - 1, B)
      f.put('k', null, B - 4, B - 2)
      f.put('k', 'v3', B - 3, B - 2)
      f.put('k', 'v5', B - 5, B - 4)
      f.put('k', null, B - 6, B - 5)
      f.verifyLatestNull('k')
      f.verifyAsOfNull('k', B)
      verifyOlderNulls(f)
    })

    it('replaces the latest version of the same timestamp (shouldPutRepeatTimestampAsLatest)', () => {
      const f = store()
      f.put('k', 'to_be_replaced', B, U)
      f.put('k', 'b', B, U)
      f.verifyLatest('k', 'b', B)
      f.verifyAsOf('k', B, 'b', B, U)
      f.verifyAsOfNull('k', B - 1)
      f.put('k', null, B, U)
      f.verifyLatestNull('k')
      f.verifyAsOfNull('k', B)
      f.verifyAsOfNull('k', B - 1)
      f.put('k', null, B, U)
      f.verifyLatestNull('k')
      f.verifyAsOfNull('k', B)
      f.verifyAsOfNull('k', B - 1)
      f.put('k', 'b', B, U)
      f.verifyLatest('k', 'b', B)
      f.verifyAsOf('k', B, 'b', B, U)
      f.verifyAsOfNull('k', B - 1)
    })

    it('replaces older versions of the same timestamp across segments (shouldPutRepeatTimestamps)', () => {
      const f = store()
      f.put('k', 'to_be_replaced', S + 20, U)
      f.put('k', null, S - 10, S + 20)
      f.put('k', 'to_be_replaced', S - 10, S + 20)
      f.put('k', null, S - 10, S + 20)
      f.put('k', 'to_be_replaced', S - 1, S + 20)
      f.put('k', 'to_be_replaced', S + 1, S + 20)
      f.put('k', null, S - 1, S + 1)
      f.put('k', null, S + 1, S + 20)
      f.put('k', null, S + 10, S + 20)
      f.put('k', null, S + 5, S + 10)
      f.put('k', 'vp5', S + 5, S + 10)
      f.put('k', 'to_be_replaced', S - 5, S - 1)
      f.put('k', 'vn5', S - 5, S - 1)
      f.put('k', null, S + 20, U)
      f.put('k', null, S + 20, U)
      f.put('k', 'vn6', S - 6, S - 5)
      verifyMixedHistory(f)
    })

    it('puts into several segments (shouldPutIntoMultipleSegments)', () => {
      const f = store()
      f.put('k', null, S - 20, U)
      f.put('k', 'vn10', S - 10, U)
      f.put('k', null, S - 1, U)
      f.put('k', null, S + 1, U)
      f.put('k', 'vp10', S + 10, U)
      f.put('k', null, S + 20, U)
      f.verifyLatestNull('k')
      f.verifyAsOfNull('k', S + 30)
      f.verifyAsOf('k', S + 15, 'vp10', S + 10, S + 20)
      for (const t of [S + 5, S + 2, S, S - 1]) f.verifyAsOfNull('k', t)
      f.verifyAsOf('k', S - 5, 'vn10', S - 10, S - 1)
      f.verifyAsOfNull('k', S - 15)
    })

    it('moves a version to an older segment when its validTo moves there (shouldMoveRecordToOlderSegmentDuringPut)', () => {
      const f = store()
      putMovedHistory(f)
      verifyMovedHistory(f)
    })

    it('moves deletes to an older segment (shouldMoveRecordToOlderSegmentWithNullsDuringPut)', () => {
      const f = store()
      f.put('k', null, S + 20, U)
      f.put('k', null, S - 1, S + 20)
      f.put('k', null, S + 1, S + 20)
      f.put('k', null, S - 10, S - 1)
      f.put('k', null, S + 10, S + 20)
      f.put('k', 'vp5', S + 5, S + 10)
      f.put('k', 'vn5', S - 5, S - 1)
      f.put('k', 'vn6', S - 6, S - 5)
      verifyMixedHistory(f)
    })

    it('falls through to an older segment as its latest (shouldFallThroughToExistingOlderSegmentAsLatestDuringPut)', () => {
      const f = store()
      f.put('k', null, S - 5, U)
      f.put('k', 'vn6', S - 6, S - 5)
      f.put('k', 'vp20', S + 20, U)
      f.put('k', null, S + 10, S + 20)
      f.put('k', null, S - 1, S + 10)
      f.put('k', 'vn2', S - 2, S - 1)
      f.verifyLatest('k', 'vp20', S + 20)
      f.verifyAsOf('k', S + 30, 'vp20', S + 20, U)
      f.verifyAsOfNull('k', S + 12)
      f.verifyAsOfNull('k', S)
      f.verifyAsOfNull('k', S - 1)
      f.verifyAsOf('k', S - 2, 'vn2', S - 2, S - 1)
      f.verifyAsOfNull('k', S - 5)
      f.verifyAsOf('k', S - 6, 'vn6', S - 6, S - 5)
    })

    it('puts an older delete into the segment of its validTo (shouldPutNonLatestTombstoneIntoNewSegmentWithValidTo)', () => {
      const f = store()
      f.put('k', 'vp30', S + 30, U)
      f.put('k', null, S - 10, S + 30)
      f.put('k', 'vn5', S - 5, S + 30)
      f.put('k', 'vn1', S - 1, S + 30)
      f.put('k', null, S - 2, S - 1)
      f.verifyLatest('k', 'vp30', S + 30)
      f.verifyAsOf('k', S + 10, 'vn1', S - 1, S + 30)
      f.verifyAsOf('k', S - 1, 'vn1', S - 1, S + 30)
      f.verifyAsOfNull('k', S - 2)
      f.verifyAsOf('k', S - 5, 'vn5', S - 5, S - 2)
      f.verifyAsOfNull('k', S - 10)
    })

    it('deletes and returns the version valid at the delete (shouldDelete)', () => {
      const f = store()
      f.put('k', 'vp20', S + 20, U)
      f.put('k', 'vp10', S + 10, S + 20)
      f.put('k', 'vn10', S - 10, S + 10)
      f.put('k', 'vn2', S - 2, S + 10)
      let deleted = f.delete('k', S - 5)
      expect([deleted?.value, deleted?.timestamp]).to.deep.equal(['vn10', S - 10])
      deleted = f.delete('k', S + 10)
      expect([deleted?.value, deleted?.timestamp]).to.deep.equal(['vp10', S + 10])
      expect(f.delete('k', S + 10)).to.equal(null)
      deleted = f.delete('k', S + 25)
      expect([deleted?.value, deleted?.timestamp]).to.deep.equal(['vp20', S + 20])
    })

    it('does not put a version older than the grace period (shouldNotPutExpired)', () => {
      const f = store()
      f.put('k', 'v', HR + 10, U)
      f.put('k1', 'v1', HR + 10 - GRACE_PERIOD, U)
      f.verifyLatest('k1', 'v1', HR + 10 - GRACE_PERIOD)
      f.put('k2', 'v2', HR + 9 - GRACE_PERIOD, NOT_PUT)
      f.verifyLatestNull('k2')
    })

    it('does not delete older than the grace period (shouldNotDeleteExpired)', () => {
      const f = store()
      f.put('k1', 'v1', 1, U)
      f.put('k2', 'v2', 1, U)
      f.put('kother', 'vother', HR + 10, U)
      const deleted = f.delete('k1', HR + 10 - GRACE_PERIOD)
      expect([deleted?.value, deleted?.timestamp]).to.deep.equal(['v1', 1])
      f.verifyLatestNull('k1')
      expect(f.delete('k2', HR + 9 - GRACE_PERIOD)).to.equal(null)
      f.verifyLatest('k2', 'v2', 1)
    })

    it('gets from older segments (shouldGetFromOlderSegments)', () => {
      const f = store()
      f.put('ko', null, S - 10, U)
      f.put('ko', null, 2 * S - 10, U)
      f.put('ko', null, 3 * S - 10, U)
      f.verifyAsOfNull('k', S - 20)
      f.put('k', 'v', S - 20, U)
      f.put('k', null, S - 10, U)
      f.verifyAsOfNull('k', S - 30)
      f.verifyAsOf('k', S - 15, 'v', S - 20, S - 10)
      f.verifyAsOfNull('k', S - 5)
      f.put('k', 'v2', 3 * S - 20, U)
      f.put('k', null, 3 * S - 10, U)
      f.verifyAsOfNull('k', S - 30)
      f.verifyAsOf('k', S - 15, 'v', S - 20, S - 10)
      f.verifyAsOfNull('k', S - 5)
    })

    it('answers null past the history retention (shouldNotGetExpired)', () => {
      const f = store()
      f.put('k', 'v_old', 0, U)
      f.put('k', 'v', S - 10, U)
      f.verifyAsOf('k', S - 11, 'v_old', 0, S - 10)
      f.put('ko', 'vo', HR + S - 11, U)
      f.verifyAsOf('k', S - 11, 'v_old', 0, S - 10)
      f.put('ko', 'vo2', HR + S - 10, U)
      f.verifyAsOfNull('k', S - 11)
    })

    it('still answers with the latest version past the history retention (shouldGetExpiredIfLatestValue)', () => {
      const f = store()
      f.put('k', 'v', 1, U)
      f.put('ko', 'vo_old', 1, U)
      f.put('ko', 'vo_new', HR + 12, U)
      f.verifyAsOf('k', 10, 'v', 1, U)
      f.verifyAsOfNull('ko', 10)
    })

    it('tells an empty value from a delete (shouldDistinguishEmptyAndNull)', () => {
      const f = store()
      f.put('k', null, S + 20, U)
      f.put('k', null, S - 10, S + 20)
      f.put('k', null, S - 1, S + 20)
      f.put('k', null, S + 1, S + 20)
      f.put('k', null, S + 10, S + 20)
      f.put('k', '', S + 5, S + 10)
      f.put('k', '', S - 5, S - 1)
      f.put('k', '', S - 6, S - 5)
      f.verifyLatestNull('k')
      f.verifyAsOfNull('k', S + 30)
      f.verifyAsOfNull('k', S + 15)
      f.verifyAsOf('k', S + 6, '', S + 5, S + 10)
      for (const t of [S + 2, S, S - 1]) f.verifyAsOfNull('k', t)
      f.verifyAsOf('k', S - 5, '', S - 5, S - 1)
      f.verifyAsOf('k', S - 6, '', S - 6, S - 5)
      f.verifyAsOfNull('k', S - 8)
    })
  })

  describe('zero history retention (shouldAllowZeroHistoryRetention)', () => {
    const store = eachWithStore(harness, 0, S)

    it('keeps only the latest versions and refuses older writes', () => {
      const f = store()
      f.put('k', 'v', B, U)
      f.verifyLatest('k', 'v', B)
      f.verifyAsOf('k', B, 'v', B, U)
      f.verifyAsOf('k', B + 1, 'v', B, U)
      f.put('k', 'updated', B, U)
      f.verifyLatest('k', 'updated', B)
      f.verifyAsOf('k', B, 'updated', B, U)
      f.put('k', 'v2', B + 2, U)
      f.verifyLatest('k', 'v2', B + 2)
      f.verifyAsOf('k', B + 2, 'v2', B + 2, U)
      f.verifyAsOfNull('k', B + 1)
      f.delete('k', B + 3)
      f.verifyLatestNull('k')
      f.put('k2', 'v', B + 2, NOT_PUT)
      f.verifyLatestNull('k2')
    })
  })
}

/** The history shouldPutRepeatTimestamps and shouldMoveRecordToOlderSegmentWithNullsDuringPut end with. */
export function verifyMixedHistory(f: VersionedFixture): void {
  f.verifyLatestNull('k')
  f.verifyAsOfNull('k', S + 30)
  f.verifyAsOfNull('k', S + 15)
  f.verifyAsOf('k', S + 6, 'vp5', S + 5, S + 10)
  for (const t of [S + 2, S, S - 1]) f.verifyAsOfNull('k', t)
  f.verifyAsOf('k', S - 5, 'vn5', S - 5, S - 1)
  f.verifyAsOf('k', S - 6, 'vn6', S - 6, S - 5)
  f.verifyAsOfNull('k', S - 8)
}

/** The versions before B both shouldPutOlderNull tests end with. */
function verifyOlderNulls(f: VersionedFixture): void {
  f.verifyAsOfNull('k', B - 1)
  f.verifyAsOfNull('k', B - 2)
  f.verifyAsOf('k', B - 3, 'v3', B - 3, B - 2)
  f.verifyAsOfNull('k', B - 4)
  f.verifyAsOf('k', B - 5, 'v5', B - 5, B - 4)
  f.verifyAsOfNull('k', B - 6)
}

/** The puts of shouldMoveRecordToOlderSegmentDuringPut, with their expected validTo results. */
export function putMovedHistory(f: VersionedFixture): void {
  f.put('k', 'vp20', S + 20, U)
  f.put('k', 'vp10', S + 10, S + 20)
  f.put('k', 'vn10', S - 10, S + 10)
  f.put('k', 'vn2', S - 2, S + 10)
  f.put('k', 'vn1', S - 1, S + 10)
  f.put('k', 'vp1', S + 1, S + 10)
}

/** The history shouldMoveRecordToOlderSegmentDuringPut (and shouldRestore) end with. */
export function verifyMovedHistory(f: VersionedFixture): void {
  f.verifyLatest('k', 'vp20', S + 20)
  f.verifyAsOf('k', S + 30, 'vp20', S + 20, U)
  f.verifyAsOf('k', S + 15, 'vp10', S + 10, S + 20)
  f.verifyAsOf('k', S + 5, 'vp1', S + 1, S + 10)
  f.verifyAsOf('k', S, 'vn1', S - 1, S + 1)
  f.verifyAsOf('k', S - 1, 'vn1', S - 1, S + 1)
  f.verifyAsOf('k', S - 2, 'vn2', S - 2, S - 1)
  f.verifyAsOf('k', S - 5, 'vn10', S - 10, S - 2)
}
