/**
 * The `kstreams` bin without a broker, run as a user runs it (the built dist/src/bin.js with
 * plain node; the package is built first): help texts and exit codes, usage errors, and
 * `describe` on fixture modules (a StreamsBuilder, a function returning a Topology, a module with
 * no topology) in the three formats, compared with what the fixture's topology describes itself.
 */
import { expect } from 'chai'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { toMermaid, type Topology } from '@kstreams/core'

const PACKAGE = fileURLToPath(new URL('../', import.meta.url))
const BIN = fileURLToPath(new URL('../dist/src/bin.js', import.meta.url))
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url))
const TSC = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url))
/** The fixture's own Topology, loaded in this process (a path TypeScript does not resolve: the fixture is plain JS). */
const fixtureTopology = async (): Promise<Topology> => {
  const path = `${FIXTURES}processor-topology.mjs`
  return ((await import(path)) as { topology: () => Topology }).topology()
}

function kstreams(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const env = { ...process.env }
  delete env.NODE_OPTIONS
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd: FIXTURES, env, encoding: 'utf8', timeout: 60_000 })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

describe('kstreams (the built bin)', function () {
  this.timeout(120_000)
  before(() => {
    spawnSync(process.execPath, [TSC, '-b', PACKAGE], { stdio: 'ignore' })
    expect(existsSync(BIN), `${BIN} (npx tsc -b)`).to.equal(true)
  })

  it('prints the command list with --help (exit 0) and without a command (exit 2), and the version', () => {
    const help = kstreams('--help')
    expect(help.code).to.equal(0)
    for (const command of ['reset', 'describe', 'state', 'query']) expect(help.stdout).to.match(new RegExp(`^  ${command} `, 'm'))
    expect(kstreams().code).to.equal(2)
    expect(kstreams('--version').stdout.trim()).to.match(/^\d+\.\d+\.\d+/)
  })

  it("prints each command's options with <command> --help and help <command>", () => {
    const reset = kstreams('reset', '--help')
    expect(reset.code).to.equal(0)
    for (const option of [
      '--application-id',
      '--bootstrap-server',
      '--input-topics',
      '--intermediate-topics',
      '--internal-topics',
      '--to-earliest',
      '--to-latest',
      '--to-offset',
      '--to-datetime',
      '--by-duration',
      '--shift-by',
      '--dry-run',
      '--force',
      '--state-dir',
      '--client',
      '--command-config <file>'
    ])
      expect(reset.stdout).to.include(option)
    expect(kstreams('help', 'describe').stdout).to.include('--format <format>')
    expect(kstreams('state', '-h').stdout).to.include('Usage: kstreams state <dir>').and.include('--command-config <file>')
    expect(kstreams('query', '--help').stdout).to.include('--store <name>')
  })

  it('exits 2 naming what is wrong: an unknown command or option, a missing argument or option, excluding positions', () => {
    const cases: Array<[string[], string]> = [
      [['frobnicate'], "unknown command 'frobnicate'"],
      [['reset', '--application-id', 'a', '--bogus'], "Unknown option '--bogus'"],
      [['reset'], 'missing required option --application-id'],
      [['reset', '--application-id', 'a', '--to-latest', '--shift-by', '-3'], 'got --to-latest and --shift-by'],
      [['reset', '--application-id', 'a', '--to-offset', 'ten'], "--to-offset needs an integer, got 'ten'"],
      [['reset', '--application-id', 'a', '--by-duration', '1h'], '--by-duration needs an ISO-8601 duration'],
      [['reset', '--application-id', 'a', '--to-datetime', '2024-02-30T00:00:00'], '--to-datetime needs'],
      [['reset', '--application-id', 'a', '--client', 'librdkafka'], "--client must be one of kafkajs, platformatic, got 'librdkafka'"],
      [['describe'], 'missing argument <module>'],
      [['describe', 'a.mjs', '--format', 'svg'], "--format must be one of text, mermaid, html, got 'svg'"],
      [['query', '--url', 'http://127.0.0.1:1', '--store', 's'], 'missing required option --key'],
      [['query', '--url', 'nope', '--store', 's', '--key', 'k'], "--url is not a URL: 'nope'"]
    ]
    for (const [args, message] of cases) {
      const run = kstreams(...args)
      expect({ args, code: run.code }).to.deep.equal({ args, code: 2 })
      expect(run.stderr, args.join(' ')).to.include(message)
      expect(run.stderr).to.include('--help')
    }
  })

  it("describe prints a module's StreamsBuilder topology as Kafka's describe() text, the default format", async () => {
    const run = kstreams('describe', 'wordcount-topology.mjs')
    expect(run.code, run.stderr).to.equal(0)
    // Kafka's text for the DSL WordCount: two sub-topologies joined by the repartition topic named after the store.
    expect(run.stdout).to.include('Sink: Counts-repartition-sink (topic: Counts-repartition)')
    expect(run.stdout).to.include('Processor: KSTREAM-AGGREGATE-0000000003 (stores: [Counts])')
    expect(run.stdout).to.include('Sink: KSTREAM-SINK-0000000008 (topic: counts)')
    const path = `${FIXTURES}wordcount-topology.mjs`
    const builder = ((await import(path)) as { default: { build(): Topology } }).default
    expect(run.stdout.trimEnd()).to.equal(builder.build().describe().toString().trimEnd())
  })

  it("describe --format mermaid and --format html print what toMermaid() and describe() give for the exported function's Topology", async () => {
    const description = (await fixtureTopology()).describe()
    const mermaid = kstreams('describe', 'processor-topology.mjs', '--format', 'mermaid')
    expect(mermaid.code, mermaid.stderr).to.equal(0)
    expect(mermaid.stdout.trimEnd()).to.equal(toMermaid(description).trimEnd())
    expect(kstreams('describe', 'processor-topology.mjs').stdout.trimEnd()).to.equal(description.toString().trimEnd())

    const html = kstreams('describe', `${FIXTURES}processor-topology.mjs`, '-f', 'html')
    expect(html.code, html.stderr).to.equal(0)
    expect(html.stdout).to.match(/^<!doctype html>/)
    const escaped = (text: string): string =>
      text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;')
    expect(html.stdout).to.include(`<pre class="mermaid">\n${escaped(toMermaid(description))}</pre>`)
    expect(html.stdout).to.include(escaped(description.toString()))
    expect(html.stdout).to.include('Source&lt;in&gt;')
    // Self-contained: nothing loaded from anywhere.
    expect(html.stdout).not.to.match(/<script|<link|src=|href=|@import|url\(/i)
  })

  it('describe exits 1 naming the module when it does not exist or exports no topology', () => {
    const none = kstreams('describe', 'no-topology.mjs')
    expect(none.code).to.equal(1)
    expect(none.stderr).to.match(/ERROR \[TOPOLOGY_INVALID\]: Module .*no-topology\.mjs exports an object \(Object\), not a Topology/)
    const missing = kstreams('describe', 'missing.mjs')
    expect(missing.code).to.equal(1)
    expect(missing.stderr).to.match(/ERROR \[ILLEGAL_ARGUMENT\]: Module .*missing\.mjs does not exist/)
  })

  it('--command-config: a file the CLI cannot use exits 2 before connecting, naming the file, the line and the key, never a secret', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kstreams-bin-config-'))
    try {
      const file = (name: string, text: string): string => {
        writeFileSync(join(dir, name), text)
        return join(dir, name)
      }
      const jaas = 'sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="hunter2"'
      const cases: Array<[string, string]> = [
        [
          file('librdkafka.properties', 'sasl.mechanisms=PLAIN\n'),
          "librdkafka.properties: sasl.mechanisms (line 1) librdkafka's name: Kafka's tools take sasl.mechanism"
        ],
        [
          file('jaas.properties', `security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n${jaas}\n`),
          'jaas.properties: sasl.jaas.config (line 3) does not parse: the login module is not ended by a semicolon'
        ],
        [join(dir, 'missing.properties'), 'missing.properties cannot be read: ENOENT']
      ]
      for (const [path, message] of cases) {
        const run = kstreams('reset', '--application-id', 'a', '--bootstrap-server', '127.0.0.1:1', '--command-config', path)
        expect({ path, code: run.code }).to.deep.equal({ path, code: 2 })
        expect(run.stderr).to.match(/^ERROR \[INVALID_CONFIG\]: /)
        expect(run.stderr).to.include(message)
        expect(run.stderr).not.to.include('hunter2')
      }
      // Ignored keys are named on stderr (their values are not), then the command runs.
      const warned = kstreams(
        'state',
        '/nonexistent/kstreams-state',
        '--bootstrap-server',
        '127.0.0.1:1',
        '--command-config',
        file('warn.properties', 'acks=all\nbasic.auth.user.info=KEY:hunter2\n')
      )
      expect(warned.code).to.equal(1)
      expect(warned.stderr).to.include(
        `WARN: ${join(dir, 'warn.properties')}: ignoring acks: a tuning setting of the Java clients, not used by the CLI`
      )
      expect(warned.stderr).to.include('ignoring basic.auth.user.info')
      expect(warned.stderr).not.to.include('hunter2')
      const noBroker = kstreams('state', '/nonexistent/kstreams-state', '--command-config', join(dir, 'warn.properties'))
      expect(noBroker.code).to.equal(2)
      expect(noBroker.stderr).to.include('--command-config needs --bootstrap-server (or bootstrap.servers in the file)')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('state exits 1 for a directory that does not exist', () => {
    const run = kstreams('state', '/nonexistent/kstreams-state')
    expect(run.code).to.equal(1)
    expect(run.stderr).to.include('State directory /nonexistent/kstreams-state does not exist')
  })
})
