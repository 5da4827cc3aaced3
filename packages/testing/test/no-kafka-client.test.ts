import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'chai'
import * as testing from '@kstreams/testing'

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..')
const CLIENTS = ['kafkajs', '@platformatic/kafka', '@kstreams/kafkajs', '@kstreams/platformatic', '@kstreams/kafka-local']

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

describe('@kstreams/testing loads no Kafka client and no broker launcher', () => {
  it('no file under src imports a Kafka client or @kstreams/kafka-local', () => {
    const files = sources(join(PACKAGE, 'src'))
    expect(files.length).to.be.greaterThan(10)
    for (const file of files) {
      const source = readFileSync(file, 'utf8')
      for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        const client = CLIENTS.some(name => specifier === name || specifier!.startsWith(`${name}/`))
        expect(client, `${relative(PACKAGE, file)} imports ${specifier}`).to.equal(false)
      }
    }
  })

  it('declares no dependency on kafkajs, and its main entry has no KafkaTestCluster (that is @kstreams/kafka-local)', () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>
    for (const section of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
      expect(Object.keys(manifest[section] ?? {}), section).to.not.include('kafkajs')
    }
    expect(Object.keys(testing)).to.include('TopologyTestDriver')
    expect(Object.keys(testing)).to.not.include('KafkaTestCluster')
  })
})
