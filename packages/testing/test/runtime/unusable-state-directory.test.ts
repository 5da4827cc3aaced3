/**
 * A state directory KafkaStreams cannot use fails the constructor with a ConfigError naming
 * `stateDir` (the OS error as its cause), as Kafka's StateDirectory does when it is built, not
 * start() with a raw ENOTDIR/ENAMETOOLONG; a usable one is created there, owner-only.
 */
import { expect } from 'chai'
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KafkaStreams, type ConfigError } from '@kstreams/core'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { countingTopology } from './streams-harness.js'

describe('KafkaStreams: a state directory it cannot use', () => {
  let root: string
  const kafka = new InMemoryKafka()
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'kstreams-unusable-'))
  })
  after(async () => {
    kafka.close()
    await rm(root, { recursive: true, force: true })
  })

  const build = (stateDir: string): KafkaStreams =>
    new KafkaStreams(countingTopology(), { applicationId: 'app', stateDir }, { client: kafka.client() })

  it('fails the constructor with a ConfigError naming stateDir, the OS error as its cause', async () => {
    await writeFile(join(root, 'file'), 'x')
    for (const [stateDir, cause] of [
      [join(root, 'file'), 'ENOTDIR'],
      [join(root, 'file', 'below'), 'ENOTDIR'],
      [join(root, 'x'.repeat(300)), 'ENAMETOOLONG']
    ] as const) {
      let err: ConfigError | undefined
      try {
        build(stateDir)
      } catch (e) {
        err = e as ConfigError
      }
      expect(err, stateDir).to.include({ code: 'INVALID_CONFIG', key: 'stateDir' })
      expect(err!.message).to.contain(stateDir)
      expect(err!.cause).to.have.property('code', cause)
    }
  })

  it('creates a usable one, owner-only, when it is built', async () => {
    const streams = build(join(root, 'state'))
    expect((await stat(join(root, 'state', 'app'))).mode & 0o777).to.equal(0o700)
    await streams.close()
  })
})
