/**
 * StreamsProducer, the stream thread's producer, on a recording fake of the transactional
 * ProducerPort: the order of the transaction steps, retriable commit steps sent again (up to
 * max.block.ms), what becomes TASK_MIGRATED and TASK_CORRUPTED, the refusal to commit without a
 * group generation, and the producer replaced when an abort fails.
 */
import { expect } from 'chai'
import { StreamsError } from '../../src/errors.js'
import { KafkaRequestError, type KafkaErrorName } from '../../src/runtime/kafka/kafka-request-error.js'
import type { KafkaClientFactory, ProducerPort } from '../../src/runtime/kafka/ports.js'
import { StreamsProducer } from '../../src/runtime/streams-producer.js'
import { silentLogger } from '../../src/logger.js'

interface FakeProducer {
  readonly calls: string[]
  /** Fails the next call of a step, once. */
  failNext: Map<string, KafkaErrorName>
  /** Fails every call of a step, until removed. */
  failing: Map<string, KafkaErrorName>
  closed: boolean
}

function fakeClients(): { clients: KafkaClientFactory; producers: FakeProducer[] } {
  const producers: FakeProducer[] = []
  const clients = {
    name: 'fake',
    exactlyOnceV2: true,
    producer: (options: { clientId: string; transactionalId?: string }): ProducerPort => {
      const p: FakeProducer = { calls: [], failNext: new Map(), failing: new Map(), closed: false }
      producers.push(p)
      const step = async (name: string): Promise<void> => {
        p.calls.push(name)
        const error = p.failNext.get(name) ?? p.failing.get(name)
        if (error !== undefined) {
          p.failNext.delete(name)
          throw new KafkaRequestError(error, `${name} failed`)
        }
      }
      return {
        send: async () => {
          await step('send')
          return new Map()
        },
        close: async () => {
          p.closed = true
        },
        ...(options.transactionalId === undefined
          ? {}
          : {
              transactions: {
                init: async () => {
                  await step('init')
                },
                begin: async () => {
                  await step('begin')
                },
                sendOffsets: async (_groupId, generation) => {
                  await step(`sendOffsets@${generation.generationId}`)
                },
                commit: async () => {
                  await step('commit')
                },
                abort: async () => {
                  await step('abort')
                }
              }
            })
      }
    }
  } as unknown as KafkaClientFactory
  return { clients, producers }
}

const RECORD = { topic: 't', partition: 0, key: null, value: Buffer.from('v'), headers: undefined as never, timestamp: 0 }
const GROUP = { groupId: 'app', generation: { generationId: 3, memberId: 'm-1' } }
const OFFSETS = [{ topic: 'in', partition: 0, offset: 10, metadata: 'x' }]

async function rejection(promise: Promise<unknown>): Promise<StreamsError> {
  try {
    await promise
  } catch (error) {
    return error as StreamsError
  }
  throw new Error('expected a rejection')
}

describe('StreamsProducer', () => {
  it('at_least_once: sends through the idempotent producer, no transaction step', async () => {
    const { clients, producers } = fakeClients()
    const producer = new StreamsProducer({ clients, clientId: 'c', logger: silentLogger })
    await producer.initTransactions()
    await producer.send([RECORD])
    expect(producer.eosEnabled).to.equal(false)
    expect(producers[0]!.calls).to.deep.equal(['send'])
  })

  it('exactly_once_v2: init once, begin at the first send, offsets with the generation, commit; the next send begins again', async () => {
    const { clients, producers } = fakeClients()
    const producer = new StreamsProducer({ clients, clientId: 'c', transactionalId: 'app-p-1', logger: silentLogger })
    await producer.initTransactions()
    await producer.send([RECORD])
    await producer.send([RECORD])
    expect(producer.transactionInFlight).to.equal(true)
    await producer.commitTransaction(OFFSETS, GROUP)
    expect(producer.transactionInFlight).to.equal(false)
    await producer.send([RECORD])
    expect(producers[0]!.calls).to.deep.equal(['init', 'begin', 'send', 'send', 'sendOffsets@3', 'commit', 'begin', 'send'])
  })

  it('refuses to commit without a group generation (TASK_MIGRATED, nothing sent): the coordinator would not fence such a commit', async () => {
    const { clients, producers } = fakeClients()
    const producer = new StreamsProducer({ clients, clientId: 'c', transactionalId: 'app-p-1', logger: silentLogger })
    await producer.send([RECORD])
    const error = await rejection(producer.commitTransaction(OFFSETS, { groupId: 'app', generation: { generationId: -1, memberId: '' } }))
    expect(error).to.be.instanceOf(StreamsError).with.property('code', 'TASK_MIGRATED')
    expect(producers[0]!.calls.filter(c => c.startsWith('sendOffsets') || c === 'commit')).to.deep.equal([])
  })

  for (const name of ['PRODUCER_FENCED', 'INVALID_PRODUCER_EPOCH', 'ILLEGAL_GENERATION', 'UNKNOWN_MEMBER_ID'] as const) {
    it(`${name} on the commit is TASK_MIGRATED`, async () => {
      const { clients, producers } = fakeClients()
      const producer = new StreamsProducer({ clients, clientId: 'c', transactionalId: 'app-p-1', logger: silentLogger })
      await producer.send([RECORD])
      producers[0]!.failNext.set(name === 'PRODUCER_FENCED' || name === 'INVALID_PRODUCER_EPOCH' ? 'commit' : 'sendOffsets@3', name)
      expect(await rejection(producer.commitTransaction(OFFSETS, GROUP))).to.have.property('code', 'TASK_MIGRATED')
    })
  }

  for (const [step, error] of [
    ['commit', 'REQUEST_TIMED_OUT'],
    ['commit', 'NOT_COORDINATOR'],
    ['commit', 'COORDINATOR_NOT_AVAILABLE'],
    ['commit', 'COORDINATOR_LOAD_IN_PROGRESS'],
    ['commit', 'CONCURRENT_TRANSACTIONS'],
    ['commit', 'NETWORK_EXCEPTION'],
    ['sendOffsets@3', 'NOT_COORDINATOR'],
    ['sendOffsets@3', 'REQUEST_TIMED_OUT']
  ] as const satisfies ReadonlyArray<readonly [string, KafkaErrorName]>) {
    it(`${error} on ${step.replace('@3', '')} (retriable) is sent again for the same transaction, which commits`, async () => {
      const { clients, producers } = fakeClients()
      const producer = new StreamsProducer({ clients, clientId: 'c', transactionalId: 'app-p-1', retryBackoffMs: 1, logger: silentLogger })
      await producer.send([RECORD])
      producers[0]!.failNext.set(step, error)
      await producer.commitTransaction(OFFSETS, GROUP)
      expect(producer.transactionInFlight).to.equal(false)
      const retried = step === 'commit' ? ['sendOffsets@3', 'commit', 'commit'] : ['sendOffsets@3', 'sendOffsets@3', 'commit']
      expect(producers[0]!.calls).to.deep.equal(['init', 'begin', 'send', ...retried])
      expect(producers).to.have.length(1)
    })
  }

  it('a retriable error that lasts past max.block.ms is TASK_CORRUPTED (Kafka: the TimeoutException under exactly-once)', async () => {
    const { clients, producers } = fakeClients()
    const producer = new StreamsProducer({
      clients,
      clientId: 'c',
      transactionalId: 'app-p-1',
      maxBlockMs: 300,
      retryBackoffMs: 10,
      logger: silentLogger
    })
    await producer.send([RECORD])
    producers[0]!.failing.set('commit', 'COORDINATOR_NOT_AVAILABLE')
    const started = Date.now()
    const error = await rejection(producer.commitTransaction(OFFSETS, GROUP))
    expect(Date.now() - started).to.be.at.least(300)
    expect(error).to.have.property('code', 'TASK_CORRUPTED')
    expect(error.message).to.contain('max.block.ms (300 ms)')
    expect(error.cause).to.have.property('errorName', 'COORDINATOR_NOT_AVAILABLE')
    expect(producers[0]!.calls.filter(c => c === 'commit').length).to.be.greaterThan(2)
    expect(producer.transactionInFlight).to.equal(true)
  })

  it('another failed commit is TASK_CORRUPTED at once; an abort that fails replaces the producer, which inits again', async () => {
    const { clients, producers } = fakeClients()
    const producer = new StreamsProducer({ clients, clientId: 'c', transactionalId: 'app-p-1', logger: silentLogger })
    await producer.send([RECORD])
    producers[0]!.failNext.set('commit', 'TRANSACTION_ABORTABLE')
    expect(await rejection(producer.commitTransaction(OFFSETS, GROUP))).to.have.property('code', 'TASK_CORRUPTED')
    expect(producers[0]!.calls.filter(c => c === 'commit')).to.have.length(1)
    producers[0]!.failNext.set('abort', 'INVALID_TXN_STATE')
    await producer.abortTransaction()
    expect(producers).to.have.length(2)
    expect(producers[0]!.closed).to.equal(true)
    await producer.send([RECORD])
    expect(producers[1]!.calls).to.deep.equal(['init', 'begin', 'send'])
  })

  it('a failed send in a transaction is TASK_CORRUPTED, fencing or a lost sequence on a send TASK_MIGRATED', async () => {
    const { clients, producers } = fakeClients()
    const producer = new StreamsProducer({ clients, clientId: 'c', transactionalId: 'app-p-1', logger: silentLogger })
    await producer.initTransactions()
    producers[0]!.failNext.set('send', 'NOT_LEADER_OR_FOLLOWER')
    expect(await rejection(producer.send([RECORD]))).to.have.property('code', 'TASK_CORRUPTED')
    await producer.abortTransaction()
    producers[0]!.failNext.set('send', 'PRODUCER_FENCED')
    expect(await rejection(producer.send([RECORD]))).to.have.property('code', 'TASK_MIGRATED')
    await producer.abortTransaction(true)
    producers[1]!.failNext.set('send', 'OUT_OF_ORDER_SEQUENCE_NUMBER')
    expect(await rejection(producer.send([RECORD]))).to.have.property('code', 'TASK_MIGRATED')
  })
})
