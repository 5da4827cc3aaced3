/**
 * exactly_once_v2 on a real broker: WordCount instances (Processor API, RocksDB store, one output
 * record per count update) on @kstreams/platformatic, run as child processes with the default
 * handlers, while input flows. Instances are SIGKILLed mid-transaction and restarted on their
 * state directories, or stopped past the session timeout (a zombie) and continued. A
 * read_committed reader must see every word's counts exactly 1, 2, ..., N: no value twice, none
 * missing; a read_uncommitted reader sees the aborted values too (evidence the faults hit open
 * transactions). The changelog read read_committed ends at the true counts.
 */
import { expect } from 'chai'
import type { Consumer } from 'kafkajs'
import { createTopics, kafka, sleep, tempDir, unique } from './helpers.js'
import { WordCountInstance, addCounts, makeLines, waitForInstances } from './wordcount-instances.js'

/** Every value of every key of a topic, in order, read read_committed or read_uncommitted. */
class SequenceCollector {
  readonly values = new Map<string, number[]>()
  readonly #consumer: Consumer

  private constructor(consumer: Consumer) {
    this.#consumer = consumer
  }

  static async start(topic: string, isolation: 'read_committed' | 'read_uncommitted'): Promise<SequenceCollector> {
    const consumer = kafka().consumer({ groupId: unique('sequences'), readUncommitted: isolation === 'read_uncommitted' })
    const collector = new SequenceCollector(consumer)
    await consumer.connect()
    await consumer.subscribe({ topics: [topic], fromBeginning: true })
    await consumer.run({
      eachMessage: async ({ message }) => {
        const key = message.key!.toString()
        let seen = collector.values.get(key)
        if (seen === undefined) collector.values.set(key, (seen = []))
        seen.push(message.value === null ? -1 : Number(message.value.readBigInt64BE()))
      }
    })
    return collector
  }

  last(key: string): number {
    return this.values.get(key)?.at(-1) ?? 0
  }

  /** Keys whose values are not exactly 1..N, with what they are. */
  notExactly(expected: ReadonlyMap<string, number>): Array<[string, string]> {
    const wrong: Array<[string, string]> = []
    for (const [key, n] of expected) {
      const seen = this.values.get(key) ?? []
      if (seen.length !== n || seen.some((v, i) => v !== i + 1)) wrong.push([key, describeSequence(seen, n)])
    }
    return wrong
  }

  /** How many values were seen beyond the exact 1..N sequences (values of aborted transactions). */
  extraValues(expected: ReadonlyMap<string, number>): number {
    let extra = 0
    for (const [key, n] of expected) extra += (this.values.get(key)?.length ?? 0) - n
    return extra
  }

  async stop(): Promise<void> {
    await this.#consumer.disconnect()
  }
}

/** A sequence shortened to where it first goes wrong. */
function describeSequence(seen: readonly number[], n: number): string {
  const at = seen.findIndex((v, i) => v !== i + 1)
  return `${seen.length} values for N=${n}; first wrong at index ${at}: ...${JSON.stringify(seen.slice(Math.max(0, at - 3), at + 4))}`
}

/** Produces a few lines every `everyMs` until stopped, adding their words to `expected`. */
function produceContinuously(topic: string, expected: Map<string, number>, everyMs = 100): { stop: () => Promise<void> } {
  let running = true
  let n = 0
  const producer = kafka().producer({ allowAutoTopicCreation: false, idempotent: true, maxInFlightRequests: 1 })
  const loop = (async () => {
    await producer.connect()
    try {
      while (running) {
        const { lines, counts } = makeLines(20)
        await producer.send({ topic, messages: lines.map(value => ({ key: String(n++), value })) })
        addCounts(expected, counts)
        await sleep(everyMs)
      }
    } finally {
      await producer.disconnect()
    }
  })()
  return {
    stop: async () => {
      running = false
      await loop
    }
  }
}

describe('exactly_once_v2 on a real broker (WordCount on @kstreams/platformatic)', function () {
  this.timeout(300000)

  async function setUp(name: string): Promise<{ prefix: string; env: (dir: string) => Record<string, string> }> {
    const prefix = unique(name) + '-'
    await createTopics(['input', 'words', 'output'].map(t => ({ topic: `${prefix}wordcount-${t}`, numPartitions: 4 })))
    return {
      prefix,
      env: dir => ({
        WORDCOUNT_APP_ID: `${prefix}app`,
        WORDCOUNT_TOPIC_PREFIX: prefix,
        WORDCOUNT_STATE_DIR: dir,
        WORDCOUNT_API: 'processor',
        WORDCOUNT_STORE: 'rocksdb',
        WORDCOUNT_GUARANTEE: 'exactly_once_v2',
        WORDCOUNT_CLIENT: 'platformatic',
        // A long commit interval keeps transactions open (with records sent) most of the time.
        WORDCOUNT_COMMIT_INTERVAL_MS: '1000',
        WORDCOUNT_TRANSACTION_TIMEOUT_MS: '10000',
        WORDCOUNT_SESSION_TIMEOUT_MS: '6000',
        WORDCOUNT_EXCEPTION_HANDLER: 'default',
        WORDCOUNT_LOG_LEVEL: 'info'
      })
    }
  }

  const reachedError = (i: WordCountInstance): boolean =>
    i.events.some(e => e.event === 'state' && (e.to === 'ERROR' || e.to === 'PENDING_ERROR'))

  it('SIGKILL mid-transaction, three times, restarting on the same state directory: read_committed sees every count exactly once; the aborted ones are visible read_uncommitted', async () => {
    const { prefix, env } = await setUp('eoskill')
    const dirs = [await tempDir('kstreams-eos-a'), await tempDir('kstreams-eos-b')]
    const committed = await SequenceCollector.start(`${prefix}wordcount-output`, 'read_committed')
    const uncommitted = await SequenceCollector.start(`${prefix}wordcount-output`, 'read_uncommitted')
    const a = new WordCountInstance(env(dirs[0]!.path))
    let b = new WordCountInstance(env(dirs[1]!.path))
    const restarted: WordCountInstance[] = []
    const expected = new Map<string, number>()
    let input: { stop: () => Promise<void> } | undefined
    try {
      await waitForInstances('both instances RUNNING', [a, b], () => a.state === 'RUNNING' && b.state === 'RUNNING', 90000)
      input = produceContinuously(`${prefix}wordcount-input`, expected)
      for (let kill = 0; kill < 3; kill++) {
        await sleep(3000)
        b.kill('SIGKILL')
        await b.exited
        await sleep(1000)
        const killedAt = Date.now()
        b = new WordCountInstance(env(dirs[1]!.path))
        restarted.push(b)
        await waitForInstances(`instance b RUNNING after kill ${kill + 1}`, [a, b], () => b.state === 'RUNNING', 120000)
        // Its tasks had no checkpoint (none under exactly-once while running): restored from the start.
        const restores = b.restoreEvents('restore-start')
        if (restores.length > 0)
          expect(
            restores.every(e => e.start === 0),
            JSON.stringify(restores)
          ).to.equal(true)
        // InitProducerId aborted the killed incarnation's transaction: no wait for its 10 s timeout.
        expect(Date.now() - killedAt, 'restart to RUNNING').to.be.below(60000)
      }
      await input.stop()
      input = undefined
      await waitForInstances('every count committed', [a, b], () => [...expected].every(([w, n]) => committed.last(w) >= n), 120000)
      await sleep(1500) // a value counted twice would arrive by now
      expect(committed.notExactly(expected), 'read_committed sequences that are not exactly 1..N').to.deep.equal([])
      const aborted = uncommitted.extraValues(expected)
      console.log(
        `      ${[...expected.values()].reduce((x, y) => x + y, 0)} words counted; ${aborted} aborted values seen read_uncommitted`
      )
      expect(aborted, 'values of aborted transactions (read_uncommitted)').to.be.greaterThan(0)
      for (const i of [a, b, ...restarted]) expect(reachedError(i), i.stderr.slice(-2000)).to.equal(false)
    } finally {
      await input?.stop()
      a.kill('SIGTERM')
      b.kill('SIGTERM')
      await Promise.all([a.exited, b.exited])
      await committed.stop()
      await uncommitted.stop()
      for (const d of dirs) await d.remove()
    }
  })

  it('a zombie (SIGSTOP past the session timeout, then SIGCONT) is fenced: its open transaction never commits, it rejoins without ERROR, counts exact', async () => {
    const { prefix, env } = await setUp('eoszombie')
    const dirs = [await tempDir('kstreams-eos-a'), await tempDir('kstreams-eos-b')]
    const committed = await SequenceCollector.start(`${prefix}wordcount-output`, 'read_committed')
    const a = new WordCountInstance(env(dirs[0]!.path))
    const b = new WordCountInstance(env(dirs[1]!.path))
    const expected = new Map<string, number>()
    let input: { stop: () => Promise<void> } | undefined
    try {
      await waitForInstances('both instances RUNNING', [a, b], () => a.state === 'RUNNING' && b.state === 'RUNNING', 90000)
      input = produceContinuously(`${prefix}wordcount-input`, expected)
      await sleep(3000)
      b.kill('SIGSTOP')
      await sleep(6000 + 4000) // past the session timeout: the group gives its tasks to a
      b.kill('SIGCONT')
      await sleep(5000)
      await input.stop()
      input = undefined
      await waitForInstances('every count committed', [a, b], () => [...expected].every(([w, n]) => committed.last(w) >= n), 120000)
      await waitForInstances('the zombie back in the group', [a, b], () => b.state === 'RUNNING', 60000)
      await sleep(1500)
      expect(committed.notExactly(expected), 'read_committed sequences that are not exactly 1..N').to.deep.equal([])
      for (const i of [a, b]) expect(reachedError(i), i.stderr.slice(-2000)).to.equal(false)
      // It learnt it was fenced (its generation or its producer) and closed its tasks as lost.
      expect(b.stderr, 'b closed its tasks as lost').to.match(/closing its active tasks as lost|closing them as lost/)
    } finally {
      await input?.stop()
      b.kill('SIGCONT')
      a.kill('SIGTERM')
      b.kill('SIGTERM')
      await Promise.all([a.exited, b.exited])
      await committed.stop()
      for (const d of dirs) await d.remove()
    }
  })
})
