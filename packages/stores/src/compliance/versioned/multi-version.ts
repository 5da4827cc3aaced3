/// <reference types="mocha" />
/**
 * get(key, fromTime, toTime, order) of versioned stores (KIP-968): ports of Kafka's
 * RocksDBVersionedStoreTest multi-version cases (inputs, expected versions and their order).
 */
import { expect } from 'chai'
import { PUT_RETURN_CODE_VALID_TO_UNDEFINED as U } from '@kstreams/core'
import { eachWithStore, HISTORY_RETENTION as HR, SEGMENT_INTERVAL as S } from './fixtures.js'
import type { VersionedStoreHarness } from './fixtures.js'

const MIN = Number.MIN_SAFE_INTEGER
const MAX = Number.MAX_SAFE_INTEGER

export function versionedMultiVersionCompliance(harness: VersionedStoreHarness): void {
  describe('get(key, fromTime, toTime, order)', () => {
    const store = eachWithStore(harness)

    it('finds versions in older segments (shouldGetRecordVersionsFromOlderSegments)', () => {
      const f = store()
      f.put('ko', null, S - 10, U)
      f.put('ko', null, 2 * S - 10, U)
      f.put('ko', null, 3 * S - 10, U)
      expect(f.versions('k', S - 20, S)).to.deep.equal([])
      f.put('k', 'v1', S - 30, U)
      f.put('k', 'v2', S - 25, U)
      f.put('k', null, S - 20, U)
      f.put('k', null, S - 15, U)
      f.put('k', 'v3', S - 10, U)
      f.put('k', 'v4', S - 5, U)
      const all = [
        ['v4', S - 5, U],
        ['v3', S - 10, S - 5],
        ['v2', S - 25, S - 20],
        ['v1', S - 30, S - 25]
      ]
      expect(f.versions('k', S - 40, S - 35)).to.deep.equal([])
      expect(f.versions('k', S - 30, S - 5)).to.deep.equal(all)
      expect(f.versions('k', MIN, MAX)).to.deep.equal(all)
      expect(f.versions('k', S - 4, S)).to.deep.equal([['v4', S - 5, U]])
      expect(f.versions('k', S - 5, S - 5)).to.deep.equal([['v4', S - 5, U]])
      expect(f.versions('k', S - 4, S - 4)).to.deep.equal([['v4', S - 5, U]])
      expect(f.versions('k', S - 31, S - 21)).to.deep.equal([
        ['v2', S - 25, S - 20],
        ['v1', S - 30, S - 25]
      ])
      expect(f.versions('k', S - 24, S - 11)).to.deep.equal([['v2', S - 25, S - 20]])
      expect(f.versions('k', S - 11, S - 4)).to.deep.equal([
        ['v4', S - 5, U],
        ['v3', S - 10, S - 5]
      ])
      expect(f.versions('k', S - 26, S - 5)).to.deep.equal(all)
      expect(f.versions('k', S - 15, S - 10)).to.deep.equal([['v3', S - 10, S - 5]])
      expect(f.versions('k', S - 19, S - 16)).to.deep.equal([])
      f.put('k', 'v5', 3 * S - 30, U)
      f.put('k', null, 3 * S - 20, U)
      expect(f.versions('k', S - 40, S - 35)).to.deep.equal([])
      expect(f.versions('k', S - 30, S - 26)).to.deep.equal([['v1', S - 30, S - 25]])
      expect(f.versions('k', S - 19, S - 16)).to.deep.equal([])
    })

    it('returns versions in ascending order when asked (shouldGetRecordVersionsInAscendingOrder)', () => {
      const f = store()
      f.put('k', 'v1', S - 30, U)
      f.put('k', 'v2', S - 25, U)
      f.put('k', 'v3', S - 10, U)
      f.put('k', 'v4', S - 5, U)
      expect(f.versions('k', S - 30, S - 5, 'ASCENDING')).to.deep.equal([
        ['v1', S - 30, S - 25],
        ['v2', S - 25, S - 10],
        ['v3', S - 10, S - 5],
        ['v4', S - 5, U]
      ])
    })

    it('returns versions of several old segments in ascending order (shouldGetRecordVersionsFromMultipleOldSegmentsInAscendingOrder)', () => {
      const f = store()
      f.put('k', 'v1', S - 10, U)
      f.put('k', 'v2', S - 5, U)
      f.put('k', 'v3', 2 * S - 10, U)
      f.put('k', 'v4', 2 * S - 5, U)
      expect(f.versions('k', MIN, MAX, 'ASCENDING')).to.deep.equal([
        ['v1', S - 10, S - 5],
        ['v2', S - 5, 2 * S - 10],
        ['v3', 2 * S - 10, 2 * S - 5],
        ['v4', 2 * S - 5, U]
      ])
      expect(f.versions('k', MIN, MAX, 'DESCENDING').map(v => v[0])).to.deep.equal(['v4', 'v3', 'v2', 'v1'])
    })

    it('leaves out versions past the history retention (shouldNotGetExpiredRecordVersions)', () => {
      const f = store()
      f.put('k', 'v_old', 0, U)
      f.put('k', 'v', S - 10, U)
      expect(f.versions('k', 0, S - 11)).to.deep.equal([['v_old', 0, S - 10]])
      f.put('ko', 'vo', HR + S - 11, U)
      expect(f.versions('k', 0, S - 11)).to.deep.equal([['v_old', 0, S - 10]])
      f.put('ko', 'vo2', HR + S - 10, U)
      expect(f.versions('k', 0, S - 11)).to.deep.equal([])
    })

    it('still returns the latest version past the history retention (shouldGetExpiredIfLatestVersionValue)', () => {
      const f = store()
      f.put('k', 'v', 1, U)
      f.put('ko', 'vo_old', 1, U)
      f.put('ko', 'vo_new', HR + 12, U)
      expect(f.versions('k', 0, 10)).to.deep.equal([['v', 1, U]])
      expect(f.versions('ko', 0, 10)).to.deep.equal([])
    })

    it('finds a version valid at toTime that lives in a later segment', () => {
      const f = store()
      f.put('k', 'v1', S - 10, U)
      f.put('k', 'v2', 2 * S + 10, U)
      f.put('k', 'v3', 2 * S + 20, U)
      expect(f.versions('k', S - 5, S)).to.deep.equal([['v1', S - 10, 2 * S + 10]])
    })
  })
}
