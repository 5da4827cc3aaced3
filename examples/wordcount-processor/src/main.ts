/**
 * Runs the Processor API WordCount on the TopologyTestDriver (no broker needed): pipes a few
 * lines with increasing timestamps and prints what each stream-time punctuation wrote to the
 * output topic, then the final contents of the "Counts" store.
 */
import { Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { INPUT_TOPIC, OUTPUT_TOPIC, STORE_NAME, buildWordCountTopology } from './topology.js'

const LINES: ReadonlyArray<{ timestampMs: number; line: string }> = [
  { timestampMs: 0, line: 'Hello Kafka Streams' },
  { timestampMs: 400, line: 'All streams lead to Kafka' },
  { timestampMs: 1000, line: 'Join Kafka Summit' },
  { timestampMs: 1500, line: 'Kafka Streams is a client library' },
  { timestampMs: 2300, line: 'streams of records, streams of words' },
  { timestampMs: 3000, line: 'hello again, Kafka' }
]

function main(): void {
  const topology = buildWordCountTopology()
  console.log(topology.describe().toString().trimEnd() + '\n')

  const driver = new TopologyTestDriver(topology, { applicationId: 'streams-wordcount-processor' })
  try {
    const input = driver.createInputTopic(INPUT_TOPIC, Serdes.String(), Serdes.String())
    const output = driver.createOutputTopic(OUTPUT_TOPIC, Serdes.String(), Serdes.Long())

    for (const { timestampMs, line } of LINES) {
      input.pipeInput(null, line, timestampMs)
      console.log(`t=${String(timestampMs).padStart(4)} ms  <- "${line}"`)
      const records = output.readRecordsToList()
      if (records.length === 0) {
        console.log('           (no punctuation due: nothing written)')
        continue
      }
      console.log(`           punctuation at stream time ${records[0]!.timestamp} wrote ${records.length} counts:`)
      console.log(formatColumns(records.map(r => `${r.key}=${r.value}`)))
    }

    const store = driver.getKeyValueStore<string, number>(STORE_NAME)!
    const counts: string[] = []
    const iterator = store.all()
    try {
      for (const { key, value } of iterator) counts.push(`${key}=${value}`)
    } finally {
      iterator.close()
    }
    console.log(`\nFinal contents of store "${STORE_NAME}" (${counts.length} words):`)
    console.log(formatColumns(counts))
  } finally {
    driver.close()
  }
}

/** Lays `cells` out four to a line, indented under the timeline. */
function formatColumns(cells: readonly string[]): string {
  const width = Math.max(...cells.map(c => c.length)) + 2
  const lines: string[] = []
  for (let i = 0; i < cells.length; i += 4) {
    lines.push(
      '             ' +
        cells
          .slice(i, i + 4)
          .map(c => c.padEnd(width))
          .join('')
          .trimEnd()
    )
  }
  return lines.join('\n')
}

main()
