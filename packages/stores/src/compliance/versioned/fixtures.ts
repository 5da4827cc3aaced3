/**
 * What the versioned store checks share: the constants of Kafka's RocksDBVersionedStoreTest
 * (history retention 300 s, segment interval a third of it, base timestamp 10), and a fixture
 * that opens a String-typed store through the full builder stack (metered -> change-logging ->
 * the harness's backend) and checks put results and gets the way the Kafka test does.
 */
/// <reference types="mocha" />
import { expect } from 'chai'
import { PUT_RETURN_CODE_VALID_TO_UNDEFINED, Serdes, VersionedKeyValueStoreBuilder } from '@kstreams/core'
import type { ResultOrder, VersionedBytesStoreSupplier, VersionedKeyValueStore, VersionedRecord } from '@kstreams/core'
import { createTestStoreContext, type TestStoreContext } from '../test-context.js'

export const HISTORY_RETENTION = 300_000
export const GRACE_PERIOD = HISTORY_RETENTION
export const SEGMENT_INTERVAL = HISTORY_RETENTION / 3
export const BASE_TIMESTAMP = 10
export const STORE_NAME = 'myversionedstore'

/** What a backend gives the versioned store suite: its supplier, and a state directory per store. */
export interface VersionedStoreHarness {
  /** A display name for the test titles. */
  readonly name: string
  /** Whether the store keeps its data across close and reopen. */
  readonly persistent: boolean
  /** The backend's supplier of versioned bytes stores. */
  supplier(name: string, historyRetentionMs: number, segmentIntervalMs: number): VersionedBytesStoreSupplier
  /** A fresh task state directory (undefined for in-memory backends). */
  newStateDir(): Promise<string | undefined>
  /** Removes every directory the harness created. */
  cleanup(): Promise<void>
}

type Closing = { whenClosed?: () => Promise<void> }

/** One open store of the suite, with the context it was opened in. */
export class VersionedFixture {
  readonly #harness: VersionedStoreHarness
  readonly #historyRetention: number
  readonly #segmentInterval: number
  #stateDir: string | undefined
  store!: VersionedKeyValueStore<string, string>
  context!: TestStoreContext

  private constructor(harness: VersionedStoreHarness, historyRetention: number, segmentInterval: number) {
    this.#harness = harness
    this.#historyRetention = historyRetention
    this.#segmentInterval = segmentInterval
  }

  /** Opens a new store in a new state directory. */
  static async open(
    harness: VersionedStoreHarness,
    historyRetention = HISTORY_RETENTION,
    segmentInterval = SEGMENT_INTERVAL
  ): Promise<VersionedFixture> {
    const fixture = new VersionedFixture(harness, historyRetention, segmentInterval)
    fixture.#stateDir = await harness.newStateDir()
    await fixture.#start()
    return fixture
  }

  /** Closes the store and opens a new one on the same state directory (a restart). */
  async reopen(): Promise<void> {
    await this.close()
    await this.#start()
  }

  async close(): Promise<void> {
    this.store.close()
    await (this.store as Closing).whenClosed?.()
  }

  async #start(): Promise<void> {
    const supplier = this.#harness.supplier(STORE_NAME, this.#historyRetention, this.#segmentInterval)
    this.store = new VersionedKeyValueStoreBuilder(supplier, Serdes.String(), Serdes.String()).build()
    this.context = createTestStoreContext({ stateDir: this.#stateDir })
    await this.store.init(this.context, this.store)
  }

  put(key: string, value: string | null, timestamp: number, expectedValidTo: number): void {
    expect(this.store.put(key, value, timestamp), `put(${key}, ${String(value)}, ${timestamp})`).to.equal(expectedValidTo)
  }

  delete(key: string, timestamp: number): VersionedRecord<string> | null {
    return this.store.delete(key, timestamp)
  }

  /** Feeds (key, value, timestamp) changelog records to the store's restore callback as one batch. */
  restore(records: ReadonlyArray<readonly [string, string | null, number]>): void {
    this.context.restore(
      STORE_NAME,
      records.map(([key, value, timestamp]) => ({ key: Buffer.from(key), value: value === null ? null : Buffer.from(value), timestamp }))
    )
  }

  verifyLatest(key: string, value: string, timestamp: number): void {
    const record = this.store.get(key)
    expect(record, `get(${key})`).to.not.equal(null)
    expect([record?.value, record?.timestamp, record?.validTo]).to.deep.equal([value, timestamp, undefined])
  }

  verifyLatestNull(key: string): void {
    expect(this.store.get(key), `get(${key})`).to.equal(null)
  }

  verifyAsOf(key: string, asOf: number, value: string, timestamp: number, validTo: number): void {
    const record = this.store.get(key, asOf)
    expect(record, `get(${key}, ${asOf})`).to.not.equal(null)
    const expectedValidTo = validTo === PUT_RETURN_CODE_VALID_TO_UNDEFINED ? undefined : validTo
    expect([record?.value, record?.timestamp, record?.validTo], `get(${key}, ${asOf})`).to.deep.equal([value, timestamp, expectedValidTo])
  }

  verifyAsOfNull(key: string, asOf: number): void {
    expect(this.store.get(key, asOf), `get(${key}, ${asOf})`).to.equal(null)
  }

  /** The versions get(key, from, to, order) finds, as [value, timestamp, validTo] (-1: undefined). */
  versions(key: string, from: number, to: number, order: ResultOrder = 'ANY'): Array<[string, number, number]> {
    using iterator = this.store.get(key, from, to, order)
    return [...iterator].map(r => [r.value, r.timestamp, r.validTo ?? PUT_RETURN_CODE_VALID_TO_UNDEFINED])
  }
}

/**
 * Registers beforeEach/afterEach that open a fresh store for each test of the enclosing describe()
 * and close it; the returned function gives the current test's fixture.
 */
export function eachWithStore(harness: VersionedStoreHarness, historyRetention?: number, segmentInterval?: number): () => VersionedFixture {
  let fixture: VersionedFixture | undefined
  beforeEach(async () => {
    fixture = await VersionedFixture.open(harness, historyRetention, segmentInterval)
  })
  afterEach(async () => {
    await fixture?.close()
  })
  return () => fixture as VersionedFixture
}
