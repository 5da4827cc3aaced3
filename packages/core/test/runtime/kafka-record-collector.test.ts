import { expect } from 'chai'
import { Headers } from '../../src/record.js'
import { partitionFor } from '../../src/partitioner/murmur2.js'
import { KafkaRecordCollector } from '../../src/runtime/kafka-record-collector.js'
import { KafkaRequestError } from '../../src/runtime/kafka/kafka-request-error.js'
import type { ProducedRecord, ProducerPort, SendResult } from '../../src/runtime/kafka/ports.js'

class FakeProducer implements ProducerPort {
  readonly batches: ProducedRecord[][] = []
  inflight = 0
  maxInflight = 0
  failNext: Error | undefined
  readonly offsets = new Map<string, number>()
  async send(records: readonly ProducedRecord[]): Promise<SendResult> {
    this.inflight++
    this.maxInflight = Math.max(this.maxInflight, this.inflight)
    await new Promise(resolve => setTimeout(resolve, 2))
    this.inflight--
    if (this.failNext !== undefined) {
      const e = this.failNext
      this.failNext = undefined
      throw e
    }
    this.batches.push([...records])
    const result: SendResult = new Map()
    for (const r of records) {
      const key = `${r.topic}-${r.partition}`
      const next = (this.offsets.get(key) ?? -1) + 1
      this.offsets.set(key, next)
      result.set(key, next)
    }
    return result
  }

  async close(): Promise<void> {}
}

const admin = { partitionCounts: async (topics: readonly string[]) => new Map(topics.map(t => [t, 4])) }
const rec = (topic: string, key: string | null, partition?: number) => ({
  topic,
  partition,
  key: key === null ? null : Buffer.from(key),
  value: Buffer.from('v'),
  headers: new Headers(),
  timestamp: 1
})

describe('KafkaRecordCollector', () => {
  it('batches sends with one batch in flight, partitions keys by murmur2, and tracks acknowledged offsets', async () => {
    const producer = new FakeProducer()
    const collector = new KafkaRecordCollector({ producer, admin, batchSize: 3, lingerMs: 1000 })
    for (let i = 0; i < 10; i++) collector.send(rec('out', `k${i}`))
    collector.send(rec('app-store-changelog', 'k', 2))
    await collector.flush()
    expect(producer.maxInflight).to.equal(1)
    const all = producer.batches.flat()
    expect(all.length).to.equal(11)
    for (const r of all.filter(r => r.topic === 'out')) expect(r.partition).to.equal(partitionFor(r.key!, 4))
    expect(collector.ackedOffset('app-store-changelog', 2)).to.equal(0)
    expect(collector.sentRecords).to.equal(11)
  })

  it('sends after the linger time without a flush', async () => {
    const producer = new FakeProducer()
    const collector = new KafkaRecordCollector({ producer, admin, lingerMs: 5 })
    collector.send(rec('out', 'a'))
    await new Promise(resolve => setTimeout(resolve, 40))
    expect(producer.batches.flat().length).to.equal(1)
  })

  it('a failed send is thrown at the next send and at flush; nothing is silently dropped', async () => {
    const producer = new FakeProducer()
    producer.failNext = new Error('broker down')
    const errors: string[] = []
    const collector = new KafkaRecordCollector({ producer, admin, lingerMs: 1000, onSendError: e => errors.push(e.code) })
    collector.send(rec('out', 'a'))
    let err: any
    try {
      await collector.flush()
    } catch (e) {
      err = e
    }
    expect(err).to.have.property('code', 'SEND_FAILED')
    expect(err.message).to.contain('out')
    expect(() => collector.send(rec('out', 'b')))
      .to.throw()
      .with.property('code', 'SEND_FAILED')
    expect(errors).to.deep.equal(['SEND_FAILED'])
  })

  it('a send to a topic that does not exist fails naming it', async () => {
    const collector = new KafkaRecordCollector({
      producer: new FakeProducer(),
      admin: { partitionCounts: async () => new Map() },
      lingerMs: 1000
    })
    collector.send(rec('missing-topic', 'a'))
    let err: any
    try {
      await collector.flush()
    } catch (e) {
      err = e
    }
    expect(err).to.have.property('code', 'UNKNOWN_TOPIC')
    expect(err.message).to.contain('missing-topic')
  })

  it('the production exception handler decides: RETRY sends a record that failed with a retriable error again, CONTINUE skips it, FAIL fails', async () => {
    const retrying = new FakeProducer()
    retrying.failNext = new KafkaRequestError('NOT_ENOUGH_REPLICAS', 'transient')
    const r = new KafkaRecordCollector({ producer: retrying, admin, lingerMs: 1000, retryTimeoutMs: 0, onRecordError: () => 'RETRY' })
    r.send(rec('out', 'a'))
    await r.flush()
    expect(retrying.batches.flat().length).to.equal(1)

    const skipping = new FakeProducer()
    skipping.failNext = new Error('too large')
    const c = new KafkaRecordCollector({ producer: skipping, admin, lingerMs: 1000, onRecordError: () => 'CONTINUE' })
    c.send(rec('out', 'a'))
    await c.flush()
    c.send(rec('out', 'b'))
    await c.flush()
    expect(skipping.batches.flat().map(x => x.key?.toString())).to.deep.equal(['b'])

    const failing = new FakeProducer()
    failing.failNext = new Error('fatal')
    const f = new KafkaRecordCollector({ producer: failing, admin, lingerMs: 1000, onRecordError: () => 'FAIL' })
    f.send(rec('out', 'a'))
    let err: any
    try {
      await f.flush()
    } catch (e) {
      err = e
    }
    expect(err).to.have.property('code', 'SEND_FAILED')
  })

  it('flush rejects (does not spin) when a send failed while more records were buffered', async () => {
    const producer = new FakeProducer()
    producer.failNext = new Error('broker down')
    const collector = new KafkaRecordCollector({ producer, admin, batchSize: 1, lingerMs: 1000 })
    collector.send(rec('out', 'a'))
    try {
      collector.send(rec('out', 'b'))
    } catch {
      /* the failure may already be known */
    }
    await new Promise(resolve => setTimeout(resolve, 20))
    let err: any
    try {
      await collector.flush()
    } catch (e) {
      err = e
    }
    expect(err).to.have.property('code', 'SEND_FAILED')
  })

  it('a retriable send error (a lost connection) is sent again without asking the handler', async () => {
    const producer = new FakeProducer()
    producer.failNext = new KafkaRequestError('NETWORK_EXCEPTION', 'connection lost')
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
    collector.send(rec('out', 'a'))
    await collector.flush()
    expect(producer.batches.flat().map(r => r.key?.toString())).to.deep.equal(['a'])
    expect(asked).to.deep.equal([])
  })

  it('stillOwner: a batch is not sent (nor sent again) once the thread no longer owns its tasks, and the buffer is dropped', async () => {
    const producer = new FakeProducer()
    let owner = true
    const collector = new KafkaRecordCollector({ producer, admin, batchSize: 1, lingerMs: 1000, stillOwner: async () => owner })
    collector.send(rec('out', 'a'))
    await collector.flush()
    producer.failNext = new KafkaRequestError('NETWORK_EXCEPTION', 'connection lost')
    collector.send(rec('out', 'b'))
    await new Promise(resolve => setImmediate(resolve)) // 'b' is in flight: it fails, and is not sent again
    owner = false
    collector.send(rec('out', 'c'))
    await collector.flush()
    expect(producer.batches.flat().map(r => r.key?.toString())).to.deep.equal(['a'])
    expect(collector.buffered).to.equal(0)
    owner = true
    collector.send(rec('out', 'd'))
    await collector.flush()
    expect(producer.batches.flat().map(r => r.key?.toString())).to.deep.equal(['a', 'd'])
  })
})
