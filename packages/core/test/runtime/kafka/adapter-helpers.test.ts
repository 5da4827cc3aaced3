/** The helpers the Kafka client adapters share: SerialExecutor and groupByTopic. */
import { expect } from 'chai'
import { SerialExecutor, groupByTopic } from '../../../src/runtime/kafka/adapter-helpers.js'

const sleep = async (ms: number): Promise<void> => {
  await new Promise(resolve => setTimeout(resolve, ms))
}

describe('Kafka adapter helpers', () => {
  describe('SerialExecutor', () => {
    it('runs tasks one at a time in order, and a failure does not stop the next', async () => {
      const executor = new SerialExecutor()
      const log: string[] = []
      const task = async (name: string, ms: number, fail = false): Promise<string> =>
        await executor.run(async () => {
          log.push(`start ${name}`)
          await sleep(ms)
          log.push(`end ${name}`)
          if (fail) throw new Error(name)
          return name
        })
      const results = await Promise.allSettled([task('a', 20), task('b', 5, true), task('c', 1)])
      expect(results.map(r => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled'])
      expect(log).to.deep.equal(['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
      await executor.idle()
    })
  })
  it('groupByTopic keeps the first-seen order of topics and items', () => {
    const items = [
      { topic: 'b', partition: 1 },
      { topic: 'a', partition: 0 },
      { topic: 'b', partition: 0 }
    ]
    expect(groupByTopic(items)).to.deep.equal([
      {
        topic: 'b',
        items: [
          { topic: 'b', partition: 1 },
          { topic: 'b', partition: 0 }
        ]
      },
      { topic: 'a', items: [{ topic: 'a', partition: 0 }] }
    ])
  })
})
