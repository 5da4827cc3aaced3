/**
 * The port contract (every *.contract.ts here) against each Kafka client adapter, with the
 * capabilities in which they differ. Fast retries, so a test expecting a failure does not wait
 * out a client's default back-off. Each adapter's own tests stay in its package.
 */
import { kafkajs } from '@kstreams/kafkajs'
import { platformatic } from '@kstreams/platformatic'
import type { AdapterUnderTest } from './adapter-under-test.js'
import { adminContract } from './admin.contract.js'
import { fetcherContract } from './fetcher.contract.js'
import { groupCoordinatorContract } from './group-coordinator.contract.js'
import { producerContract } from './producer.contract.js'
import { transactionsContract } from './transactions.contract.js'

const ADAPTERS: readonly AdapterUnderTest[] = [
  {
    name: 'kafkajs',
    client: kafkajs({ retry: { retries: 3, initialRetryTime: 100, maxRetryTime: 1000 } }),
    // kafkajs 2.2.4: headers kept in an object (grouped by key) and a null value cannot be
    // encoded; TxnOffsetCommit v0-1 and OffsetFetch up to v4; ListOffsets as read_committed; a
    // send skips partitions missing from its metadata; a transaction whose commit was tried is over.
    capabilities: {
      nullHeaderValues: false,
      interleavedHeaderOrder: false,
      txnOffsetCommitGeneration: false,
      requireStable: false,
      endOffsetsAreHighWatermarks: false,
      unknownPartitionRefusedBeforeSending: false,
      abortAfterFailedCommit: false
    }
  },
  {
    name: 'platformatic',
    client: platformatic({ retries: 3, retryDelayMs: 100 }),
    capabilities: {
      nullHeaderValues: true,
      interleavedHeaderOrder: true,
      txnOffsetCommitGeneration: true,
      requireStable: true,
      endOffsetsAreHighWatermarks: true,
      unknownPartitionRefusedBeforeSending: true,
      abortAfterFailedCommit: true
    }
  }
]

for (const adapter of ADAPTERS) {
  groupCoordinatorContract(adapter)
  fetcherContract(adapter)
  producerContract(adapter)
  transactionsContract(adapter)
  adminContract(adapter)
}
