/**
 * The kafkajs adapter's broker-free parts: secret redaction and log routing, configuration,
 * error mapping, positions after raw record batches, header conversion, serial execution.
 */
import { expect } from 'chai'
import { ConfigError, StreamsError } from '../../../../src/errors.js'
import { Headers } from '../../../../src/record.js'
import { createKafkajsClientFactory } from '../../../../src/runtime/kafka/kafkajs/index.js'
import { resolveKafkajsConfig } from '../../../../src/runtime/kafka/kafkajs/kafkajs-client-config.js'
import { GROUP_MIGRATED_TYPES, isRetriable, kafkaErrorType, toStreamsError } from '../../../../src/runtime/kafka/kafkajs/kafkajs-errors.js'
import { nextOffsetAfter, type RawMessage } from '../../../../src/runtime/kafka/kafkajs/kafkajs-internals.js'
import { createLogCreator, redact } from '../../../../src/runtime/kafka/kafkajs/kafkajs-log-creator.js'
import { fromKafkajsHeaders, toKafkajsHeaders } from '../../../../src/runtime/kafka/kafkajs/record-conversion.js'
import { SerialExecutor } from '../../../../src/runtime/kafka/kafkajs/serial-executor.js'
import { RecordingLogger, sleep } from './kafka-test-env.js'

const SECRET = 's3cr3t-pa55'

describe('kafkajs adapter parts', () => {
  describe('logging', () => {
    it('redacts SASL credentials and TLS material wherever they appear', () => {
      const safe = JSON.stringify(redact({
        sasl: { mechanism: 'scram-sha-512', username: 'u', password: SECRET },
        ssl: { key: SECRET, cert: SECRET, passphrase: SECRET },
        nested: [{ password: SECRET, accessToken: SECRET, ok: 1 }],
        buffer: Buffer.from(SECRET)
      }))
      expect(safe).not.to.include(SECRET)
      expect(safe).to.include('scram-sha-512')
      expect(safe).to.include('"ok":1')
    })

    it('routes kafkajs lines by level to the logger, without secrets', () => {
      const logger = new RecordingLogger()
      const write = createLogCreator(logger)(4)
      write({ namespace: 'Connection', level: 1, label: 'ERROR', log: { timestamp: 't', message: 'failed', sasl: { mechanism: 'plain', password: SECRET }, broker: 'b:1' } })
      write({ namespace: 'Consumer', level: 2, label: 'WARN', log: { timestamp: 't', message: 'w' } })
      write({ namespace: '', level: 4, label: 'INFO', log: { timestamp: 't', message: 'i' } })
      write({ namespace: 'X', level: 5, label: 'DEBUG', log: { timestamp: 't', message: 'd' } })
      expect(logger.lines.map(l => [l.level, l.message])).to.deep.equal([
        ['error', 'kafkajs Connection: failed'], ['warn', 'kafkajs Consumer: w'], ['info', 'kafkajs: i'], ['debug', 'kafkajs X: d']
      ])
      expect(logger.lines[0]!.fields).to.deep.include({ broker: 'b:1' })
      expect(JSON.stringify(logger.lines)).not.to.include(SECRET)
    })

    it('logs the factory config without the SASL password', () => {
      const logger = new RecordingLogger()
      createKafkajsClientFactory({ bootstrapServers: '127.0.0.1:1', sasl: { mechanism: 'plain', username: 'u', password: SECRET }, logger })
      expect(logger.lines.length).to.be.greaterThan(0)
      expect(JSON.stringify(logger.lines)).not.to.include(SECRET)
    })
  })

  describe('config', () => {
    it('splits bootstrap servers and applies Kafka Streams defaults', () => {
      const config = resolveKafkajsConfig({ bootstrapServers: ' a:1, b:2 ,', clientId: 'app' })
      expect(config.brokers).to.deep.equal(['a:1', 'b:2'])
      expect(config.sessionTimeoutMs).to.equal(45_000)
      expect(config.groupReadCommitted).to.equal(true)
      expect(resolveKafkajsConfig({ bootstrapServers: ['x:1'] }).brokers).to.deep.equal(['x:1'])
    })

    it('rejects an empty broker list, and a heartbeat interval not below the session timeout, with a ConfigError', () => {
      expect(() => resolveKafkajsConfig({ bootstrapServers: ' , ' })).to.throw(ConfigError).with.property('code', 'INVALID_CONFIG')
      expect(() => resolveKafkajsConfig({ bootstrapServers: 'a:1', sessionTimeoutMs: 6000, heartbeatIntervalMs: 6000 }))
        .to.throw(ConfigError).with.property('key', 'heartbeat.interval.ms')
    })
  })

  describe('errors', () => {
    const protocolError = (type: string, retriable: boolean): Error => Object.assign(new Error(type), { name: 'KafkaJSProtocolError', type, retriable })

    it('wraps as KAFKA with the cause and the type, and finds the type through the cause chain', () => {
      const cause = protocolError('NOT_LEADER_FOR_PARTITION', true)
      const outer = Object.assign(new Error('retries exceeded'), { name: 'KafkaJSNumberOfRetriesExceeded', retriable: false, cause })
      expect(kafkaErrorType(outer)).to.equal('NOT_LEADER_FOR_PARTITION')
      const wrapped = toStreamsError(outer, 'Send')
      expect(wrapped).to.be.instanceOf(StreamsError)
      expect(wrapped.code).to.equal('KAFKA')
      expect(wrapped.cause).to.equal(outer)
      expect(wrapped.retriable).to.equal(true)
      expect(wrapped.message).to.include('NOT_LEADER_FOR_PARTITION')
    })

    it('maps a lost generation to TASK_MIGRATED, and judges retriability by the root cause', () => {
      const lost = Object.assign(new Error('x'), { name: 'KafkaJSNonRetriableError', retriable: false, cause: protocolError('ILLEGAL_GENERATION', false) })
      expect(toStreamsError(lost, 'Commit', GROUP_MIGRATED_TYPES).code).to.equal('TASK_MIGRATED')
      expect(toStreamsError(lost, 'Commit').code).to.equal('KAFKA')
      expect(isRetriable(lost)).to.equal(false)
      const same = new StreamsError('ILLEGAL_STATE', 'x')
      expect(toStreamsError(same, 'y')).to.equal(same)
    })
  })

  describe('positions', () => {
    const raw = (offset: number, firstOffset: number, lastOffsetDelta: number): RawMessage => ({
      offset: String(offset), timestamp: '0', key: null, value: null, headers: {}, isControlRecord: false,
      batchContext: { firstOffset: String(firstOffset), lastOffsetDelta }
    })

    it('moves past the end of the last record batch (control records and compacted gaps included)', () => {
      expect(nextOffsetAfter([], 7)).to.equal(7)
      expect(nextOffsetAfter([raw(3, 3, 0), raw(4, 4, 5)], 3)).to.equal(10)
      expect(nextOffsetAfter([raw(0, 0, 9)], 5)).to.equal(10)
    })
  })

  describe('headers', () => {
    it('round-trips repeated keys and null values (grouped by key)', () => {
      const headers = new Headers().add('a', '1').add('b', null).add('a', '2')
      const back = fromKafkajsHeaders(toKafkajsHeaders(headers) as RawMessage['headers'])
      expect(back.toArray().map(h => [h.key, h.value?.toString() ?? null])).to.deep.equal([['a', '1'], ['a', '2'], ['b', null]])
    })
  })

  describe('SerialExecutor', () => {
    it('runs tasks one at a time in order, and a failure does not stop the next', async () => {
      const executor = new SerialExecutor()
      const log: string[] = []
      const task = (name: string, ms: number, fail = false) => executor.run(async () => {
        log.push(`start ${name}`); await sleep(ms); log.push(`end ${name}`)
        if (fail) throw new Error(name)
        return name
      })
      const results = await Promise.allSettled([task('a', 20), task('b', 5, true), task('c', 1)])
      expect(results.map(r => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled'])
      expect(log).to.deep.equal(['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
      await executor.idle()
    })
  })
})
