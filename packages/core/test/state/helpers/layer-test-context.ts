/**
 * A StateStoreContext for the store-layer tests: a settable record context, an optional record
 * cache and metrics registry, and a changelog writer that captures what it is given.
 */
import type { StreamsConfig } from '../../../src/config/streams-config.js'
import type { StreamsMetricsRegistry } from '../../../src/metrics/streams-metrics-registry.js'
import { Headers } from '../../../src/record.js'
import type { ProcessorRecordContext } from '../../../src/runtime/record-context.js'
import type { ThreadCache } from '../../../src/state/cache/thread-cache.js'
import type { ChangelogWriter } from '../../../src/state/state-store.js'
import { TestStateStoreContext } from './test-state-store-context.js'

export interface ChangelogRecord {
  store: string
  key: string
  value: string | null
  timestamp: number
}

export interface LayerTestContextOptions {
  cache?: ThreadCache
  metrics?: StreamsMetricsRegistry
  /** Whether changelogWriter() returns a writer (default true). */
  logged?: boolean
  config?: StreamsConfig
}

export class LayerTestContext extends TestStateStoreContext {
  readonly cache: ThreadCache | undefined
  readonly metricsRegistry: StreamsMetricsRegistry | undefined
  readonly changelog: ChangelogRecord[] = []
  /** Raw changelog appends (values as given). */
  readonly rawChangelog: Array<{ key: Buffer; value: Buffer | null; timestamp: number }> = []
  current: ProcessorRecordContext = { topic: 'input', partition: 0, offset: 0, timestamp: 0, headers: new Headers() }
  readonly #logged: boolean

  constructor(options: LayerTestContextOptions = {}) {
    super(options.config)
    this.cache = options.cache
    this.metricsRegistry = options.metrics
    this.#logged = options.logged ?? true
  }

  recordContext(): ProcessorRecordContext {
    return this.current
  }

  /** Sets the record being processed. */
  at(timestamp: number, offset = this.current.offset + 1, topic = 'input'): this {
    this.current = { topic, partition: 0, offset, timestamp, headers: new Headers() }
    return this
  }

  override changelogWriter(storeName: string): ChangelogWriter | undefined {
    if (!this.#logged) return undefined
    return {
      append: (key, value, timestamp) => {
        this.rawChangelog.push({ key, value, timestamp })
        this.changelog.push({
          store: storeName,
          key: key.toString('utf8'),
          value: value === null ? null : value.toString('utf8'),
          timestamp
        })
      }
    }
  }
}
