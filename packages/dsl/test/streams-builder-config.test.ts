import { expect } from 'chai'
import { ConfigError, Serdes } from '@kstreams/core'
import type { DslStoreSuppliers, StreamsConfig } from '@kstreams/core'
import { InMemoryDslStoreSuppliers } from '@kstreams/stores'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed } from '../src/consumed.js'
import { Materialized } from '../src/materialized.js'
import { StreamsBuilder } from '../src/streams-builder.js'

const S = Serdes.String()

describe('StreamsBuilder(config): dslStoreSuppliers', () => {
  it('builds every DSL store that names no supplier with the configured DslStoreSuppliers', () => {
    const asked: string[] = []
    const spy: DslStoreSuppliers = {
      keyValueStore: params => {
        asked.push(`kv:${params.name}:${String(params.isTimestamped)}`)
        return InMemoryDslStoreSuppliers.keyValueStore(params)
      },
      windowStore: params => InMemoryDslStoreSuppliers.windowStore(params),
      sessionStore: params => InMemoryDslStoreSuppliers.sessionStore(params)
    }
    const builder = new StreamsBuilder({ dslStoreSuppliers: spy })
    builder.stream('in', Consumed.with(S, S)).groupByKey().count(Materialized.as('counts'))
    builder.table('t', Consumed.with(S, S), Materialized.as('table-store'))
    const driver = new TopologyTestDriver(builder.build())
    driver.createInputTopic('in', S, S).pipeInput('k', 'v')
    expect(driver.getTimestampedKeyValueStore('counts')!.get('k')!.value).to.equal(1)
    driver.close()
    expect(asked).to.include.members(['kv:counts:true', 'kv:table-store:true'])
  })

  it('rejects a value that is not DslStoreSuppliers, naming the key', () => {
    try {
      new StreamsBuilder({ dslStoreSuppliers: {} } as unknown as StreamsConfig)
      expect.fail('expected a ConfigError')
    } catch (err) {
      expect(err).to.be.instanceOf(ConfigError)
      expect((err as ConfigError).code).to.equal('INVALID_CONFIG')
      expect((err as ConfigError).key).to.equal('dslStoreSuppliers')
    }
  })
})
