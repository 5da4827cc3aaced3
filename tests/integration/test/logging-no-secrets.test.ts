/**
 * What kstreams logs, through a logger of pino's shape (fields first, then the message; child
 * bindings): with a SASL password and a TLS passphrase in the config, no line at any level (the
 * client library's own lines included, kafkajs at debug) carries them, while the TLS handshake
 * against the plaintext test broker fails and is retried; the stream thread's lines carry the
 * thread in their bindings. On a secured broker, where the credentials are used for real (SCRAM,
 * OAUTHBEARER tokens, an mTLS client key): secured-cluster-sasl-ssl.test.ts and
 * secured-cluster-mtls.test.ts.
 */
import { expect } from 'chai'
import { KafkaStreams, Serdes, Topology, type StreamsConfig } from '@kstreams/core'
import { kafkajs } from '@kstreams/kafkajs'
import { platformatic } from '@kstreams/platformatic'
import { bootstrapServers, sleep, tempDir, unique } from './helpers.js'
import { logText, recordingLogger, type LogLine } from './secured-cluster.js'

const PASSWORD = 's3cret-Pa55word'
const PASSPHRASE = 'key-Pa55phrase'

describe('logging: no secret in any line, thread bindings', function () {
  this.timeout(60000)
  for (const [name, client] of [
    ['kafkajs', () => kafkajs({ logLevel: 'debug', retry: { retries: 1, initialRetryTime: 50 } })],
    ['platformatic', () => platformatic()]
  ] as const) {
    it(`${name}: SASL password and TLS passphrase never reach the logger`, async () => {
      const S = Serdes.String()
      const topology = new Topology()
        .addSource('source', unique('in'), { keyDeserializer: S, valueDeserializer: S })
        .addSink('sink', unique('out'), { keySerializer: S, valueSerializer: S }, 'source')
      const dir = await tempDir('kstreams-logging')
      const config: StreamsConfig = {
        applicationId: unique('logging'),
        bootstrapServers: bootstrapServers(),
        stateDir: dir.path,
        connectionTimeoutMs: 1000,
        requestTimeoutMs: 2000,
        sasl: { mechanism: 'plain', username: 'alice', password: PASSWORD },
        ssl: { passphrase: PASSPHRASE, rejectUnauthorized: false }
      }
      const lines: LogLine[] = []
      const streams = new KafkaStreams(topology, config, { client: client(), logger: recordingLogger(lines) })
      try {
        await Promise.race([streams.start().catch(() => undefined), sleep(4000)])
        await sleep(2000)
      } finally {
        await streams.close({ timeoutMs: 10000 })
        await dir.remove()
      }
      expect(lines.length).to.be.greaterThan(0)
      const text = logText(lines)
      expect(text).not.to.contain(PASSWORD)
      expect(text).not.to.contain(PASSPHRASE)
      expect(lines.some(l => /StreamThread-1$/.test(String((l.bindings as { thread?: unknown }).thread)))).to.equal(true)
    })
  }
})
