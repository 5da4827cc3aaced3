/**
 * The key-value compliance suite through the full stack with a real record cache: a roomy one
 * (writes stay cached until commit) and a tiny one (almost every write evicts and flushes), so
 * that reads, ranges and deletes are checked across the cache/store merge.
 */
import { ThreadCache } from '@kstreams/core/internal'
import { createKeyValueStackHarness, keyValueStoreCompliance } from '@kstreams/stores/compliance'
import { InMemoryKeyValueBytesStoreSupplier } from '@kstreams/stores'

for (const [label, maxCacheSizeBytes] of [
  ['roomy', 10 * 1024 * 1024],
  ['tiny', 300]
] as const) {
  keyValueStoreCompliance(
    createKeyValueStackHarness({
      name: `metered -> caching (${label} record cache) -> change-logging -> in-memory`,
      supplier: name => new InMemoryKeyValueBytesStoreSupplier(name),
      persistent: false,
      newCache: () => new ThreadCache({ maxCacheSizeBytes })
    })
  )
}
