/**
 * One application, Java Kafka Streams 4.1.1 and kstreams instances in one live group: the DSL
 * WordCount (store "Counts", RocksDB, a repartition topic) run by tests/java-streams'
 * JavaStreamsApp and by kstreams' examples/wordcount app under one application id. Either side
 * leads the group and assigns the other its tasks (Kafka Streams' SubscriptionInfo and
 * AssignmentInfo on both sides); counts are checked against the truth.
 */
import { expect } from 'chai'
import { createTopics, produce, tempDir, unique } from './helpers.js'
import { javaInstance, javaStreams } from './java-streams.js'
import { OutputCollector, WordCountInstance, addCounts, makeLines, waitForInstances } from './wordcount-instances.js'

type Side = 'java' | 'kstreams'
/** 4 input partitions: 4 tasks split lines (0_p), 4 count words (1_p). */
const ALL_TASKS = ['0_0', '0_1', '0_2', '0_3', '1_0', '1_1', '1_2', '1_3']

interface Group {
  readonly prefix: string
  readonly output: OutputCollector
  readonly expected: Map<string, number>
  start(side: Side, options?: { standbys?: number }): Promise<WordCountInstance>
  /** Produces `lines` random lines and adds their words to the truth. */
  produceLines(lines: number): Promise<void>
  /** Waits until the last output count of every word reaches the truth. */
  counted(what: string, instances: readonly WordCountInstance[]): Promise<void>
  close(): Promise<void>
}

async function group(): Promise<Group> {
  const prefix = unique('jmix') + '-'
  await createTopics(['input', 'output'].map(t => ({ topic: `${prefix}wordcount-${t}`, numPartitions: 4 })))
  const output = await OutputCollector.start(`${prefix}wordcount-output`)
  const expected = new Map<string, number>()
  const started: WordCountInstance[] = []
  const dirs: Array<{ remove: () => Promise<void> }> = []
  return {
    prefix,
    output,
    expected,
    async start(side, options = {}) {
      const dir = await tempDir(`jmix-${side}`)
      dirs.push(dir)
      const env = {
        WORDCOUNT_APP_ID: `${prefix}app`,
        WORDCOUNT_TOPIC_PREFIX: prefix,
        WORDCOUNT_STATE_DIR: dir.path,
        WORDCOUNT_COMMIT_INTERVAL_MS: '300',
        WORDCOUNT_SESSION_TIMEOUT_MS: '6000',
        WORDCOUNT_STANDBYS: String(options.standbys ?? 0),
        WORDCOUNT_LEAVE_GROUP_ON_CLOSE: '1',
        WORDCOUNT_API: 'dsl',
        WORDCOUNT_LOG_LEVEL: 'info'
      }
      const instance = side === 'java' ? await javaInstance(env) : new WordCountInstance(env)
      started.push(instance)
      return instance
    },
    async produceLines(count) {
      const { lines, counts } = makeLines(count)
      addCounts(expected, counts)
      await produce(
        `${prefix}wordcount-input`,
        lines.map((value, i) => ({ key: String(i), value }))
      )
    },
    async counted(what, instances) {
      await waitForInstances(what, instances, () => [...expected].every(([w, c]) => (output.last.get(w) ?? 0) >= c), 120_000)
    },
    async close() {
      for (const instance of started) if (!instance.hasExited) instance.kill('SIGKILL')
      await Promise.all(started.map(async instance => await instance.exited))
      await output.stop()
      for (const dir of dirs) await dir.remove()
    }
  }
}

/** The active (or standby) tasks an instance reported at its last RUNNING. */
function tasksOf(instance: WordCountInstance, kind: 'active' | 'standby' = 'active'): string[] {
  const last = instance.events.filter(e => e.event === 'tasks').at(-1)
  return last === undefined ? [] : (last[kind] as string[])
}

/** Every instance RUNNING, each with active tasks, together all tasks exactly once. */
function sharing(instances: readonly WordCountInstance[]): boolean {
  if (!instances.every(i => i.state === 'RUNNING' && tasksOf(i).length > 0)) return false
  const all = instances.flatMap(i => tasksOf(i)).sort()
  return JSON.stringify(all) === JSON.stringify(ALL_TASKS)
}

/** SIGTERM: a clean close (a JVM stopped by SIGTERM exits with 143 once its shutdown hook closed the app). */
async function stopGracefully(instance: WordCountInstance): Promise<void> {
  instance.kill('SIGTERM')
  expect(await instance.exited, `exit code; stderr: ${instance.stderr.slice(-2000)}`).to.be.oneOf([0, 143])
  expect(
    instance.events.some(e => e.event === 'closed'),
    'closed'
  ).to.equal(true)
  expect(
    instance.events.some(e => e.event === 'state' && e.to === 'ERROR'),
    'an instance went to ERROR'
  ).to.equal(false)
}

describe('Java Kafka Streams and kstreams in one application group', function () {
  this.timeout(600_000)

  before(async function () {
    this.timeout(600_000)
    await javaStreams() // Maven and javac, once
  })

  for (const leader of ['java', 'kstreams'] as const) {
    const member: Side = leader === 'java' ? 'kstreams' : 'java'
    it(`${leader} leader + ${member} member: both get tasks, every count exact`, async () => {
      const g = await group()
      try {
        const first = await g.start(leader)
        await waitForInstances(`the ${leader} leader RUNNING`, [first], () => sharing([first]), 120_000)
        await g.produceLines(400)
        await g.counted('the first lines counted', [first])
        const second = await g.start(member)
        await waitForInstances(`${leader} and ${member} sharing the tasks`, [first, second], () => sharing([first, second]), 120_000)
        await g.produceLines(400)
        await g.counted('every line counted by both', [first, second])
        await stopGracefully(second)
        await stopGracefully(first)
        expect(Object.fromEntries(g.output.last)).to.deep.equal(Object.fromEntries(g.expected))
      } finally {
        await g.close()
      }
    })
  }

  for (const killed of ['java', 'kstreams'] as const) {
    const survivor: Side = killed === 'java' ? 'kstreams' : 'java'
    it(`SIGKILL the ${killed} instance: the ${survivor} instance takes every task over from its standbys, no count below the truth`, async () => {
      const g = await group()
      try {
        const a = await g.start(survivor, { standbys: 1 })
        await waitForInstances(`the ${survivor} instance RUNNING`, [a], () => sharing([a]), 120_000)
        const b = await g.start(killed, { standbys: 1 })
        await waitForInstances(
          'both sharing the tasks, each a standby of the other',
          [a, b],
          () => sharing([a, b]) && tasksOf(a, 'standby').length > 0,
          120_000
        )
        await g.produceLines(600)
        await g.counted('the lines counted', [a, b])
        const restoredBefore = a.restoreEvents('restore-end').reduce((n, e) => n + Number(e.total), 0)
        b.kill('SIGKILL')
        await waitForInstances(`the ${survivor} instance running every task`, [a], () => sharing([a]), 120_000)
        await g.produceLines(600)
        await g.counted('every line counted by the survivor', [a])
        for (const [word, count] of g.expected) expect(g.output.last.get(word), word).to.be.at.least(count)
        // The standbys were current: taking over restores at most the few records written after their last update.
        const restoredAfter = a.restoreEvents('restore-end').reduce((n, e) => n + Number(e.total), 0) - restoredBefore
        expect(restoredAfter, 'records restored by the takeover').to.be.below(60)
        await stopGracefully(a)
      } finally {
        await g.close()
      }
    })
  }

  it('hands the application over: Java counts, stops; kstreams restores and resumes; Java takes over again; counts exact', async () => {
    const g = await group()
    try {
      const java1 = await g.start('java')
      await waitForInstances('Java RUNNING', [java1], () => sharing([java1]), 120_000)
      await g.produceLines(500)
      await g.counted('Java counted', [java1])
      await stopGracefully(java1)

      const kstreams = await g.start('kstreams')
      await waitForInstances('kstreams RUNNING on every task', [kstreams], () => sharing([kstreams]), 120_000)
      expect(
        kstreams.restoreEvents('restore-end').reduce((n, e) => n + Number(e.total), 0),
        "Java's changelog restored"
      ).to.be.greaterThan(0)
      await g.produceLines(500)
      await g.counted('kstreams counted on top of Java', [kstreams])
      await stopGracefully(kstreams)

      const java2 = await g.start('java')
      await waitForInstances('Java RUNNING again', [java2], () => sharing([java2]), 120_000)
      await g.produceLines(500)
      await g.counted('Java counted on top of kstreams', [java2])
      await stopGracefully(java2)
      expect(Object.fromEntries(g.output.last)).to.deep.equal(Object.fromEntries(g.expected))
    } finally {
      await g.close()
    }
  })

  it('a rolling migration: three Java instances replaced one by one by three kstreams instances while input flows', async () => {
    const g = await group()
    let flowing = true
    const flow = (async () => {
      while (flowing) {
        await g.produceLines(50)
        await new Promise(resolve => setTimeout(resolve, 200))
      }
    })()
    try {
      const javas: WordCountInstance[] = []
      for (let i = 0; i < 3; i++) javas.push(await g.start('java'))
      await waitForInstances('three Java instances sharing the tasks', javas, () => sharing(javas), 180_000)
      const live = [...javas]
      for (let i = 0; i < 3; i++) {
        const next = await g.start('kstreams')
        live.push(next)
        await waitForInstances(`kstreams instance ${i + 1} sharing the tasks`, live, () => sharing(live), 180_000)
        const leaving = live.shift()!
        await stopGracefully(leaving)
        await waitForInstances(`Java instance ${i + 1} gone, the rest sharing the tasks`, live, () => sharing(live), 180_000)
      }
      flowing = false
      await flow
      await g.counted('every line counted by the kstreams instances', live)
      for (const instance of live) await stopGracefully(instance)
      expect(Object.fromEntries(g.output.last)).to.deep.equal(Object.fromEntries(g.expected))
    } finally {
      flowing = false
      await flow
      await g.close()
    }
  })
})
