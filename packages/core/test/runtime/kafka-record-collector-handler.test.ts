/**
 * The production exception handler as Kafka Streams' RecordCollectorImpl asks it: per record,
 * about that record and its own error. A batch that fails is sent again in halves until the
 * records that fail on their own are found; only those the handler answers CONTINUE are dropped
 * (counted in their task's dropped records); fatal errors (authorization, a broken request)
 * and fencing ones (a fenced producer, a lost sequence: TASK_MIGRATED) never reach the handler;
 * RETRY is honoured for retriable errors only; a record over max.request.size or its topic's
 * max.message.bytes (headers counted) is never sent.
 */
import { expect } from 'chai'
import { Headers } from '../../src/record.js'
import { StreamsError } from '../../src/errors.js'
import { KafkaRecordCollector } from '../../src/runtime/kafka-record-collector.js'
import type { CollectedRecord } from '../../src/runtime/record-collector.js'
import { KafkaRequestError, type KafkaErrorName } from '../../src/runtime/kafka/kafka-request-error.js'
import type { ProducedRecord, ProducerPort, SendResult } from '../../src/runtime/kafka/ports.js'

/** A broker that rejects, with `error`, every request holding a record `rejects` picks; and logs what it appended. */
class PickyProducer implements ProducerPort {
  readonly appended: ProducedRecord[] = []
  requests = 0
  readonly #offsets = new Map<string, number>()
  constructor(
    public rejects: (r: ProducedRecord) => boolean,
    readonly error: () => Error
  ) {}
  async send(records: readonly ProducedRecord[]): Promise<SendResult> {
    this.requests++
    await new Promise(resolve => setImmediate(resolve))
    if (records.some(this.rejects)) throw this.error()
    const result: SendResult = new Map()
    for (const r of records) {
      const key = `${r.topic}-${r.partition}`
      const next = (this.#offsets.get(key) ?? -1) + 1
      this.#offsets.set(key, next)
      result.set(key, next)
      this.appended.push(r)
    }
    return result
  }

  async close(): Promise<void> {}
}

class Origin {
  dropped = 0
  constructor(readonly taskId: string) {}
  recordDroppedRecord(): void {
    this.dropped++
  }
}

const admin = { partitionCounts: async (topics: readonly string[]) => new Map(topics.map(t => [t, 1])) }
const rec = (topic: string, key: string, value = 'v', origin?: Origin): CollectedRecord => ({
  topic,
  partition: 0,
  key: Buffer.from(key),
  value: Buffer.from(value),
  headers: new Headers(),
  timestamp: 1,
  origin
})
const keys = (records: readonly ProducedRecord[]): string[] => records.map(r => `${r.topic}:${r.key!.toString()}`)

async function flushError(collector: KafkaRecordCollector): Promise<any> {
  try {
    await collector.flush()
  } catch (e) {
    return e
  }
  return undefined
}

describe('KafkaRecordCollector: the production exception handler, per record', () => {
  it('one record the broker rejects among 19: the handler is asked once, about that record; only it is dropped and counted; the changelog records all arrive', async () => {
    const producer = new PickyProducer(
      r => r.key!.toString() === 'poison',
      () => new KafkaRequestError('MESSAGE_TOO_LARGE', 'the record is too large')
    )
    const asked: Array<[string, string | undefined, string]> = []
    const task = new Origin('0_0')
    const collector = new KafkaRecordCollector({
      producer,
      admin,
      lingerMs: 1000,
      onRecordError: (record, error) => {
        asked.push([record.topic, (record as ProducedRecord).key?.toString(), (error as KafkaRequestError).errorName])
        return 'CONTINUE'
      }
    })
    for (let i = 0; i < 9; i++) collector.send(rec('app-S-changelog', `c${i}`, 'v', task))
    for (let i = 0; i < 9; i++) collector.send(rec('out', `o${i}`, 'v', task))
    collector.send(rec('out', 'poison', 'v', task))
    await collector.flush()
    expect(asked).to.deep.equal([['out', 'poison', 'MESSAGE_TOO_LARGE']])
    expect(keys(producer.appended)).to.deep.equal([
      ...Array.from({ length: 9 }, (_, i) => `app-S-changelog:c${i}`),
      ...Array.from({ length: 9 }, (_, i) => `out:o${i}`)
    ])
    expect(task.dropped).to.equal(1)
    expect(collector.ackedOffset('app-S-changelog', 0)).to.equal(8)
    expect(collector.sentRecords).to.equal(18)
  })

  it('a changelog record that fails on its own goes to the handler as any record (as Kafka); FAIL (the default) fails with SEND_FAILED naming its topic and partition', async () => {
    const producer = new PickyProducer(
      r => r.key!.toString() === 'c3',
      () => new KafkaRequestError('CORRUPT_MESSAGE', 'bad CRC', { retriable: false })
    )
    const asked: string[] = []
    const collector = new KafkaRecordCollector({
      producer,
      admin,
      lingerMs: 1000,
      onRecordError: r => {
        asked.push(r.topic)
        return 'FAIL'
      }
    })
    for (let i = 0; i < 6; i++) collector.send(rec('app-S-changelog', `c${i}`))
    const err = await flushError(collector)
    expect(asked).to.deep.equal(['app-S-changelog'])
    expect(err).to.have.property('code', 'SEND_FAILED')
    expect(err.message).to.contain('app-S-changelog-0')
    expect(err.cause).to.have.property('errorName', 'CORRUPT_MESSAGE')
    // Everything before the failing record went out, in order; nothing after it.
    expect(keys(producer.appended)).to.deep.equal(['app-S-changelog:c0', 'app-S-changelog:c1', 'app-S-changelog:c2'])
  })

  for (const [name, code, what] of [
    ['TOPIC_AUTHORIZATION_FAILED', 'SEND_FAILED', 'fatal'],
    ['CLUSTER_AUTHORIZATION_FAILED', 'SEND_FAILED', 'fatal'],
    ['INVALID_TOPIC_EXCEPTION', 'SEND_FAILED', 'fatal'],
    ['UNKNOWN_SERVER_ERROR', 'SEND_FAILED', 'fatal'],
    // Kafka's RecordCollectorImpl: fencing and a lost sequence are a TaskMigratedException.
    ['INVALID_PRODUCER_EPOCH', 'TASK_MIGRATED', 'fencing'],
    ['PRODUCER_FENCED', 'TASK_MIGRATED', 'fencing'],
    ['INVALID_PRODUCER_ID_MAPPING', 'TASK_MIGRATED', 'fencing'],
    ['UNKNOWN_PRODUCER_ID', 'TASK_MIGRATED', 'a lost sequence'],
    ['OUT_OF_ORDER_SEQUENCE_NUMBER', 'TASK_MIGRATED', 'a lost sequence']
  ] as const satisfies ReadonlyArray<readonly [KafkaErrorName, string, string]>) {
    it(`${name} (${what}) is ${code}: the handler is never asked, nothing is dropped, nothing more is sent until reset()`, async () => {
      const producer = new PickyProducer(
        () => true,
        () => new KafkaRequestError(name, 'no')
      )
      let asked = 0
      const collector = new KafkaRecordCollector({
        producer,
        admin,
        lingerMs: 1000,
        onRecordError: () => {
          asked++
          return 'CONTINUE'
        }
      })
      collector.send(rec('out', 'a'))
      collector.send(rec('out', 'b'))
      const err = await flushError(collector)
      expect(asked).to.equal(0)
      expect(err).to.have.property('code', code)
      expect(err.cause).to.have.property('errorName', name)
      expect(producer.requests).to.equal(1)
      expect(() => {
        collector.send(rec('out', 'c'))
      }).to.throw(StreamsError)
      // After the tasks were closed as lost (TASK_MIGRATED), the collector sends again.
      await collector.reset()
      producer.rejects = () => false
      collector.send(rec('out', 'd'))
      await collector.flush()
      expect(keys(producer.appended)).to.deep.equal(['out:d'])
    })
  }

  it('UNKNOWN_PRODUCER_ID reported retriable (the adapter started over with a new producer id) is sent again, not fatal', async () => {
    let failures = 1
    const producer = new PickyProducer(
      () => failures-- > 0,
      () => new KafkaRequestError('UNKNOWN_PRODUCER_ID', 'starts over', { retriable: true })
    )
    let asked = 0
    const collector = new KafkaRecordCollector({
      producer,
      admin,
      lingerMs: 1000,
      onRecordError: () => {
        asked++
        return 'FAIL'
      }
    })
    collector.send(rec('out', 'a'))
    await collector.flush()
    expect(asked).to.equal(0)
    expect(keys(producer.appended)).to.deep.equal(['out:a'])
  })

  it('RETRY for an error that is not retriable is taken as FAIL: not sent again', async () => {
    const producer = new PickyProducer(
      () => true,
      () => new KafkaRequestError('MESSAGE_TOO_LARGE', 'too large')
    )
    let asked = 0
    const collector = new KafkaRecordCollector({
      producer,
      admin,
      lingerMs: 1000,
      retryTimeoutMs: 5000,
      onRecordError: () => {
        asked++
        return 'RETRY'
      }
    })
    collector.send(rec('out', 'a'))
    const started = Date.now()
    const err = await flushError(collector)
    expect(err).to.have.property('code', 'SEND_FAILED')
    expect(asked).to.equal(1)
    expect(producer.requests).to.equal(1)
    expect(Date.now() - started).to.be.below(1000)
  })

  it('RETRY for a retriable error that outlasted the retry timeout sends the record again', async () => {
    let failures = 3
    const producer = new PickyProducer(
      () => failures-- > 0,
      () => new KafkaRequestError('NOT_ENOUGH_REPLICAS', 'not enough replicas')
    )
    let asked = 0
    const collector = new KafkaRecordCollector({
      producer,
      admin,
      lingerMs: 1000,
      retryTimeoutMs: 0,
      onRecordError: () => {
        asked++
        return 'RETRY'
      }
    })
    collector.send(rec('out', 'a'))
    await collector.flush()
    expect(asked).to.equal(3)
    expect(keys(producer.appended)).to.deep.equal(['out:a'])
  })

  it('a record over max.request.size, headers counted, is never sent: the handler hears of it naming topic, partition and size; CONTINUE drops only it', async () => {
    const producer = new PickyProducer(
      () => false,
      () => new Error('unused')
    )
    const errors: string[] = []
    const task = new Origin('0_1')
    const collector = new KafkaRecordCollector({
      producer,
      admin,
      lingerMs: 1000,
      maxRequestSize: 10_000,
      onRecordError: (_r, e) => {
        errors.push(e.message)
        return 'CONTINUE'
      }
    })
    const big = rec('out', 'big', 'v', task)
    for (let i = 0; i < 10; i++) big.headers.add(`h${i}`, Buffer.alloc(1000))
    collector.send(rec('out', 'a', 'v', task))
    collector.send(big)
    collector.send(rec('out', 'b', 'v', task))
    await collector.flush()
    expect(keys(producer.appended)).to.deep.equal(['out:a', 'out:b'])
    expect(task.dropped).to.equal(1)
    expect(errors).to.have.length(1)
    expect(errors[0])
      .to.match(/out-0/)
      .and.match(/10\d{3} bytes/)
      .and.match(/max\.request\.size/)
  })

  it("a record over its topic's max.message.bytes is never sent; with FAIL the error names topic, partition and size", async () => {
    const producer = new PickyProducer(
      () => false,
      () => new Error('unused')
    )
    const topicAdmin = {
      ...admin,
      topicConfigs: async (topics: readonly string[]) =>
        new Map(topics.map((t): [string, Record<string, string>] => [t, t === 'small' ? { 'max.message.bytes': '2000' } : {}]))
    }
    const collector = new KafkaRecordCollector({ producer, admin: topicAdmin, lingerMs: 1000 })
    collector.send(rec('out', 'a', 'x'.repeat(3000)))
    collector.send(rec('small', 'b', 'x'.repeat(3000)))
    const err = await flushError(collector)
    expect(err).to.have.property('code', 'SEND_FAILED')
    expect(err.message)
      .to.match(/small-0/)
      .and.match(/30\d\d bytes/)
      .and.match(/max\.message\.bytes/)
    expect(err.cause).to.have.property('errorName', 'MESSAGE_TOO_LARGE')
    expect(keys(producer.appended)).to.deep.equal(['out:a'])
  })

  it('the batch limit counts header bytes: records with large headers are not sent in one request', async () => {
    const producer = new PickyProducer(
      () => false,
      () => new Error('unused')
    )
    const sizes: number[] = []
    const send = producer.send.bind(producer)
    producer.send = async records => {
      sizes.push(records.length)
      return await send(records)
    }
    const collector = new KafkaRecordCollector({ producer, admin, lingerMs: 1000, maxRequestBytes: 100_000 })
    for (let i = 0; i < 10; i++) {
      const r = rec('out', `k${i}`)
      r.headers.add('h', Buffer.alloc(30_000))
      collector.send(r)
    }
    await collector.flush()
    expect(Math.max(...sizes)).to.be.at.most(4)
    expect(producer.appended).to.have.length(10)
  })
})
