/**
 * KStream.print(Printed) (Kafka's KStreamPrintTest and PrintedTest): `[label]: key, value` lines
 * to standard output or a file, the label defaulting to the name of the stream's node (as Kafka),
 * a custom key-value mapper, the file truncated when Printed.toFile is called and closed when the
 * driver closes, and a typed error naming a path that cannot be written.
 */
import { expect } from 'chai'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sinon from 'sinon'
import { Serdes, StreamsError } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Printed, StreamsBuilder } from '../src/index.js'

const S = Serdes.String()
const I = Serdes.Integer()

function run(printed: Printed<string | null, number>, pipe: Array<[string | null, number]>): string {
  const builder = new StreamsBuilder()
  builder.stream<string | null, number>('input', Consumed.with(S, I)).print(printed)
  const topology = builder.build()
  const description = topology.describe().toString()
  const driver = new TopologyTestDriver(topology, { defaultKeySerde: S, defaultValueSerde: I })
  try {
    const input = driver.createInputTopic('input', S, I)
    for (const [key, value] of pipe) input.pipeInput(key, value)
  } finally {
    driver.close()
  }
  return description
}

describe('KStream.print(Printed)', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kstreams-print-'))
  })
  afterEach(() => {
    sinon.restore()
    rmSync(dir, { recursive: true, force: true })
  })

  it('prints [<the stream node>]: key, value lines to stdout, one write per record, and adds a KSTREAM-PRINTER- node', () => {
    const write = sinon.stub(process.stdout, 'write').returns(true)
    let description: string
    try {
      description = run(Printed.toSysOut(), [
        ['a', 1],
        [null, 2]
      ])
    } finally {
      write.restore()
    }
    expect(write.args.map(args => args[0])).to.deep.equal(['[KSTREAM-SOURCE-0000000000]: a, 1\n', '[KSTREAM-SOURCE-0000000000]: null, 2\n'])
    expect(description).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-PRINTER-0000000001\n' +
        '    Processor: KSTREAM-PRINTER-0000000001 (stores: [])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n\n'
    )
  })

  it('uses the label and the key-value mapper given, and the name given with withName', () => {
    const write = sinon.stub(process.stdout, 'write').returns(true)
    let description: string
    try {
      description = run(
        Printed.toSysOut<string | null, number>()
          .withLabel('counts')
          .withKeyValueMapper((key, value) => `${key} -> ${value * 10}`)
          .withName('my-printer'),
        [['b', 3]]
      )
    } finally {
      write.restore()
    }
    expect(write.args.map(args => args[0])).to.deep.equal(['[counts]: b -> 30\n'])
    expect(description).to.contain('Processor: my-printer (stores: [])')
  })

  it('labels with the name of the stream printed, not the printer, also when the printer is named (as Kafka)', () => {
    const write = sinon.stub(process.stdout, 'write').returns(true)
    try {
      run(Printed.toSysOut<string | null, number>().withName('printer'), [['c', 4]])
    } finally {
      write.restore()
    }
    expect(write.args.map(args => args[0])).to.deep.equal(['[KSTREAM-SOURCE-0000000000]: c, 4\n'])
  })

  it('writes UTF-8 lines to a file it truncates when toFile is called', () => {
    const path = join(dir, 'out.txt')
    writeFileSync(path, 'old content that must go\n')
    const printed = Printed.toFile<string | null, number>(path).withLabel('größe')
    expect(readFileSync(path, 'utf8')).to.equal('')
    run(printed, [
      ['ключ', 1],
      ['k', 2]
    ])
    expect(readFileSync(path, 'utf8')).to.equal('[größe]: ключ, 1\n[größe]: k, 2\n')
  })

  it('creates a missing file, and writes each line before the next record (nothing buffered)', () => {
    const path = join(dir, 'new.txt')
    const builder = new StreamsBuilder()
    builder.stream<string, number>('input', Consumed.with(S, I)).print(Printed.toFile(path))
    const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: I })
    try {
      driver.createInputTopic('input', S, I).pipeInput('x', 7)
      expect(readFileSync(path, 'utf8')).to.equal('[KSTREAM-SOURCE-0000000000]: x, 7\n')
    } finally {
      driver.close()
    }
  })

  it('closes the file when the driver closes; a task started again with the same Printed appends', () => {
    const path = join(dir, 'reused.txt')
    const printed = Printed.toFile<string | null, number>(path).withLabel('p')
    run(printed, [['a', 1]])
    run(printed, [['b', 2]])
    expect(readFileSync(path, 'utf8')).to.equal('[p]: a, 1\n[p]: b, 2\n')
  })

  it('throws a TopologyError naming the path when the file cannot be opened, and one for an empty path', () => {
    const path = join(dir, 'missing-dir', 'out.txt')
    expect(() => Printed.toFile(path))
      .to.throw(StreamsError, `Unable to write stream to file at [${path}]`)
      .with.property('code', 'TOPOLOGY_INVALID')
    expect(() => Printed.toFile('  '))
      .to.throw(StreamsError)
      .with.property('code', 'TOPOLOGY_INVALID')
  })
})
