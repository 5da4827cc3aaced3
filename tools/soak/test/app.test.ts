/**
 * The soak application on the TopologyTestDriver (RocksDB stores): input shaped as the producer
 * writes it gives output that passes the output check exactly, including join pairs beyond a
 * click's own view; and the check catches the output of an application that lost a record.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { soakTopology } from '../app.js'
import { InputLedger } from '../input-ledger.js'
import { OutputCheck, type OutputKind } from '../output-check.js'
import { clickValue, keyOf, soakTopics, userValue, VIEW_DELAY_MS, viewValue } from '../records.js'

const S = Serdes.String()
const KEYS = 4
const topics = soakTopics('t')

describe('soak application (TopologyTestDriver)', function () {
  this.timeout(60_000)
  let stateDir: string
  let driver: TopologyTestDriver | undefined
  beforeEach(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'soak-app-'))
  })
  afterEach(async () => {
    driver?.close()
    driver = undefined
    await rm(stateDir, { recursive: true, force: true })
  })

  /** Runs `clicks` clicks (and views) `spacingMs` apart through the app; `skip`: a view not piped. */
  async function run(clicks: number, spacingMs: number, skip?: number): Promise<{ ledger: InputLedger; check: OutputCheck }> {
    driver = await TopologyTestDriver.create(soakTopology(topics), { applicationId: 'soak-app-test', stateDir })
    const input = (topic: string) => driver!.createInputTopic(topic, S, S)
    const [clickTopic, viewTopic, userTopic] = [input(topics.clicks), input(topics.views), input(topics.users)]
    const ledger = new InputLedger(KEYS)
    for (let k = 0; k < KEYS; k++) userTopic.pipeInput(keyOf(k, KEYS), userValue(keyOf(k, KEYS), 0), 0)
    ledger.users = KEYS
    for (let i = 0; i < clicks; i++) {
      const time = 1_000 + i * spacingMs
      const seq = ledger.addClick(time)
      const key = keyOf(seq, KEYS)
      clickTopic.pipeInput(key, clickValue(seq), time)
      if (seq !== skip) viewTopic.pipeInput(key, viewValue(seq), time + VIEW_DELAY_MS)
    }
    const check = new OutputCheck(ledger, true)
    const kinds: Array<[OutputKind, string]> = [
      ['counts', topics.counts],
      ['joined', topics.joined],
      ['enriched', topics.enriched]
    ]
    for (const [kind, topic] of kinds) {
      for (const { key, value } of driver.createOutputTopic(topic, S, S).readKeyValuesToList()) {
        check.add(kind, key!, value!)
      }
    }
    return { ledger, check }
  }

  it('gives exactly the output the check expects, join pairs of neighbouring clicks included', async () => {
    // Clicks of one key 4 x 20 ms apart: each joins its own view and those of its neighbours.
    const { ledger, check } = await run(1500, 20)
    let pairs = 0
    ledger.forEachExpectedPair(() => pairs++)
    const windows = [...ledger.expectedCounts().values()].reduce((n, perKey) => n + perKey.size, 0)
    expect(pairs).to.be.greaterThan(ledger.clicks)
    expect(windows).to.be.greaterThan(KEYS)
    const results = check.result()
    expect(results.flatMap(r => r.failures)).to.deep.equal([])
    expect(results.map(r => r.expected)).to.deep.equal([windows, pairs, 1500])
  })

  it('the check finds the join pairs and the table-join output of a view that was lost', async () => {
    const { check } = await run(40, 1000, 7)
    expect(check.result().flatMap(r => r.failures)).to.deep.equal([
      '1 of 40 join pairs have no joined output',
      '1 of 40 views have no enriched output'
    ])
  })
})
