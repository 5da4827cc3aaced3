/**
 * An idempotent producer whose sequence the broker no longer accepts starts over with a new
 * producer id, and the failed send is reported retriable (the runtime sends it again); one whose
 * producer id or epoch the broker refuses starts over too, the send failing as it did (the
 * runtime closes the tasks as migrated). Without a broker: kafkajs' producer is replaced by a
 * stand-in that fails like kafkajs does.
 */
import { expect } from 'chai'
import type { Kafka } from 'kafkajs'
import { Headers, isKafkaError } from '@kstreams/core'
import { KafkajsProducer } from '../src/kafkajs-producer.js'
import { resolveKafkajsConfig } from '../src/kafkajs-client-config.js'
import { testSettings } from '../../../tests/adapter-contract/contract-env.js'

/** kafkajs' protocol error shape (name, type, code, retriable). */
function protocolError(type: string, code: number): Error {
  return Object.assign(new Error(`broker said ${type}`), { name: 'KafkaJSProtocolError', type, code, retriable: false })
}

class StandInProducer {
  sent = 0
  disconnected = false
  constructor(readonly fail: Error | undefined) {}
  async connect(): Promise<void> {}
  async disconnect(): Promise<void> {
    this.disconnected = true
  }
  async sendBatch(): Promise<Array<{ topicName: string; partition: number; baseOffset: string }>> {
    if (this.fail !== undefined) throw this.fail
    this.sent++
    return [{ topicName: 't', partition: 0, baseOffset: '10' }]
  }
}

describe('kafkajs ProducerPort: a lost producer sequence, a refused producer epoch', () => {
  for (const [type, code, retriable] of [
    ['OUT_OF_ORDER_SEQUENCE_NUMBER', 45, true],
    ['UNKNOWN_PRODUCER_ID', 59, true],
    ['INVALID_PRODUCER_EPOCH', 47, false],
    ['PRODUCER_FENCED', 90, false]
  ] as const) {
    it(`${type}: the send fails${retriable ? ' retriably' : ''} and the next one goes through a new kafkajs producer`, async () => {
      const made: StandInProducer[] = []
      const kafka = {
        producer: () => {
          const p = new StandInProducer(made.length === 0 ? protocolError(type, code) : undefined)
          made.push(p)
          return p
        }
      } as unknown as Kafka
      const producer = new KafkajsProducer({
        kafka,
        clientId: 'p',
        transactionalId: undefined,
        config: resolveKafkajsConfig(testSettings())
      })
      const record = { topic: 't', partition: 0, key: null, value: Buffer.from('v'), headers: new Headers(), timestamp: 1 }
      const error = await producer.send([record]).then(
        () => undefined,
        (e: unknown) => e
      )
      expect(isKafkaError(error, type)).to.equal(true)
      expect(error).to.have.property('retriable', retriable)
      expect(made).to.have.length(2)
      expect(made[0]!.disconnected).to.equal(true)
      expect([...(await producer.send([record]))]).to.deep.equal([['t-0', 10]])
      expect(made[1]!.sent).to.equal(1)
      await producer.close()
    })
  }
})
