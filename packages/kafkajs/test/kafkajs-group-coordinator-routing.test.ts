/**
 * How the GroupCoordinatorPort finds its coordinator, without a broker (a stand-in cluster and
 * broker): found once and cached; found again after NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE,
 * a lost connection or a timeout, but not after other errors; a failed search is not cached;
 * every request is sent once (no retries in the port).
 */
import { createRequire } from 'node:module'
import { expect } from 'chai'
import { KafkaJSConnectionError, KafkaJSRequestTimeoutError } from 'kafkajs'
import { isKafkaError } from '@kstreams/core'
import { KafkajsGroupCoordinator } from '../src/kafkajs-group-coordinator.js'
import { KafkajsInternals, type InternalBroker, type InternalCluster } from '../src/kafkajs-internals.js'
import { RecordingLogger, rejectionOf } from '../../../tests/adapter-contract/contract-env.js'

const require = createRequire(import.meta.url)
const { createErrorFromCode } = require('kafkajs/src/protocol/error.js') as { createErrorFromCode: (code: number) => Error }

/** A coordinator stand-in whose OffsetCommit answers come from `outcomes`, in order (undefined = success). */
class StandInCluster implements InternalCluster {
  searches = 0
  commits = 0
  readonly searchFailures: Error[] = []
  readonly outcomes: Array<Error | undefined> = []
  readonly brokerPool = { findConnectedBroker: async (): Promise<InternalBroker> => await this.findGroupCoordinator() }
  readonly #broker = {
    nodeId: 1,
    lookupRequest: () => {
      throw new Error('not used')
    },
    offsetCommit: async () => {
      this.commits++
      const outcome = this.outcomes.shift()
      if (outcome !== undefined) throw outcome
      return {}
    },
    offsetFetch: async () => ({ responses: [] }),
    listOffsets: async () => ({ responses: [] })
  } as unknown as InternalBroker

  async connect(): Promise<void> {}
  async disconnect(): Promise<void> {}
  async refreshMetadata(): Promise<void> {}
  async refreshMetadataIfNecessary(): Promise<void> {}
  async findBroker(): Promise<InternalBroker> {
    return this.#broker
  }
  async findGroupCoordinator(): Promise<InternalBroker> {
    this.searches++
    const failure = this.searchFailures.shift()
    if (failure !== undefined) throw failure
    return this.#broker
  }
}

describe('kafkajs GroupCoordinatorPort: finding the coordinator (no broker)', () => {
  const internals = KafkajsInternals.load(new RecordingLogger())
  const generation = { generationId: 1, memberId: 'm' }
  const offsets = [{ topic: 't', partition: 0, offset: 1 }]
  let cluster: StandInCluster
  let port: KafkajsGroupCoordinator

  beforeEach(() => {
    cluster = new StandInCluster()
    port = new KafkajsGroupCoordinator({ cluster, internals, groupId: 'g', clientId: 'c', logger: new RecordingLogger() })
  })
  afterEach(async () => {
    await port.close()
  })

  it('finds the coordinator once and keeps it while requests succeed or fail for other reasons', async () => {
    cluster.outcomes.push(undefined, createErrorFromCode(22), undefined)
    await port.commitOffsets(generation, offsets)
    expect(isKafkaError(await rejectionOf(port.commitOffsets(generation, offsets)), 'ILLEGAL_GENERATION')).to.equal(true)
    await port.commitOffsets(generation, offsets)
    expect(cluster.searches).to.equal(1)
    expect(cluster.commits).to.equal(3)
  })

  it('finds it again after NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, a lost connection and a timeout, sending each request once', async () => {
    const failures = [
      [createErrorFromCode(16), 'NOT_COORDINATOR'],
      [createErrorFromCode(15), 'COORDINATOR_NOT_AVAILABLE'],
      [new KafkaJSConnectionError('Connection error: ECONNRESET'), 'NETWORK_EXCEPTION'],
      [new KafkaJSRequestTimeoutError('Request OffsetCommit(key: 8, version: 5) timed out'), 'REQUEST_TIMED_OUT']
    ] as const
    await port.commitOffsets(generation, offsets)
    for (const [failure, name] of failures) {
      const searches = cluster.searches
      cluster.outcomes.push(failure)
      const error = await rejectionOf(port.commitOffsets(generation, offsets))
      expect(isKafkaError(error, name), String(error)).to.equal(true)
      await port.commitOffsets(generation, offsets)
      expect(cluster.searches, name).to.equal(searches + 1)
    }
    expect(cluster.commits).to.equal(1 + 2 * failures.length)
  })

  it('does not keep a failed search', async () => {
    cluster.searchFailures.push(createErrorFromCode(15))
    const error = await rejectionOf(port.commitOffsets(generation, offsets))
    expect(isKafkaError(error, 'COORDINATOR_NOT_AVAILABLE')).to.equal(true)
    cluster.searchFailures.push(new Error('something else'))
    expect(isKafkaError(await rejectionOf(port.commitOffsets(generation, offsets)))).to.equal(true)
    await port.commitOffsets(generation, offsets)
    expect(cluster.searches).to.equal(3)
    expect(cluster.commits).to.equal(1)
  })

  it('sends nothing for an empty commit or fetch', async () => {
    await port.commitOffsets(generation, [])
    expect((await port.fetchCommittedOffsets([])).size).to.equal(0)
    expect(cluster.searches).to.equal(0)
  })
})
