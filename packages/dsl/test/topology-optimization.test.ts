/**
 * topology.optimization (`topologyOptimization`) on the DSL: reuse.ktable.source.topics makes a
 * materialized table() use its source topic as its changelog (Kafka's TableSourceNode with
 * reuseSourceTopicForChangeLog): the store no longer logs, the topology names the source topic as
 * the store's changelog, and describe() is unchanged. Bad values are ConfigErrors naming the key.
 */
import { expect } from 'chai'
import { ConfigError, Serdes } from '@kstreams/core'
import { TOPOLOGY_DEF } from '@kstreams/core/internal'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Joined, Materialized, Produced, StreamsBuilder } from '../src/index.js'

const S = Serdes.String()
const APP = 'dummy-topology-test-driver-app-id'

function usersAndClicks(builder: StreamsBuilder, materialize: boolean): void {
  const users = materialize
    ? builder.table('users', Consumed.with(S, S), Materialized.as<string, string>('users-store'))
    : builder.table('users', Consumed.with(S, S))
  builder
    .stream('clicks', Consumed.with(S, S))
    .join(users, (click, user) => `${click}@${user}`, Joined.with(S, S, S))
    .to('out', Produced.with(S, S))
}

describe('StreamsBuilder: topologyOptimization', () => {
  for (const value of ['reuse.ktable.source.topics', 'all']) {
    it(`"${value}": a materialized table restores from its source topic and writes no changelog; describe() is unchanged`, () => {
      const optimized = new StreamsBuilder()
      usersAndClicks(optimized, true)
      const topology = optimized.build({ topologyOptimization: value })
      const plain = new StreamsBuilder()
      usersAndClicks(plain, true)
      const unoptimized = plain.build()
      expect(topology.describe().toString()).to.equal(unoptimized.describe().toString())
      expect([...topology[TOPOLOGY_DEF]().sourceChangelogs]).to.deep.equal([['users-store', 'users']])
      expect(topology[TOPOLOGY_DEF]().storeBuilders.get('users-store')!.loggingEnabled).to.equal(false)
      expect([...unoptimized[TOPOLOGY_DEF]().sourceChangelogs]).to.deep.equal([])

      const driver = new TopologyTestDriver(topology)
      driver.createInputTopic('users', S, S).pipeInput('u1', 'ann', 1)
      driver.createInputTopic('clicks', S, S).pipeInput('u1', 'home', 2)
      expect(driver.createOutputTopic('out', S, S).readKeyValuesToList()).to.deep.equal([{ key: 'u1', value: 'home@ann' }])
      expect(driver.getKeyValueStore<string, string>('users-store')!.get('u1')).to.equal('ann')
      expect(driver.producedTopicNames()).to.not.include(`${APP}-users-store-changelog`)
      driver.close()
    })
  }

  it("applies to a table materialized only because a join reads it; the constructor's config does not optimize (Kafka applies build(props) only)", () => {
    const ignored = new StreamsBuilder({ topologyOptimization: 'all' })
    usersAndClicks(ignored, true)
    expect([...ignored.build()[TOPOLOGY_DEF]().sourceChangelogs]).to.deep.equal([])
    const builder = new StreamsBuilder()
    usersAndClicks(builder, false)
    const def = builder.build({ topologyOptimization: 'reuse.ktable.source.topics' })[TOPOLOGY_DEF]()
    expect([...def.sourceChangelogs.values()]).to.deep.equal(['users'])
  })

  it('"none" (and no value) keeps the changelog topic', () => {
    for (const config of [{ topologyOptimization: 'none' }, {}]) {
      const builder = new StreamsBuilder()
      usersAndClicks(builder, true)
      const driver = new TopologyTestDriver(builder.build(config))
      driver.createInputTopic('users', S, S).pipeInput('u1', 'ann', 1)
      expect(driver.producedTopicNames()).to.include(`${APP}-users-store-changelog`)
      driver.close()
    }
  })

  it('rejects unknown optimizations and "all"/"none" mixed with others, naming the key', () => {
    for (const bad of ['bogus', 'all,reuse.ktable.source.topics', 'none,all', '']) {
      const err = (() => {
        try {
          new StreamsBuilder({ topologyOptimization: bad })
          return undefined
        } catch (e) {
          return e
        }
      })()
      expect(err, bad).to.be.instanceOf(ConfigError)
      expect((err as ConfigError).key).to.equal('topologyOptimization')
    }
    expect(() => new StreamsBuilder().build({ topologyOptimization: 'merge.repartition.topics,bogus' })).to.throw(ConfigError, /bogus/)
  })
})
