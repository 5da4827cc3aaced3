import { expect } from 'chai'
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KafkaDistribution, defaultCacheDir } from '../src/kafka-distribution.js'
import { KafkaLocalError } from '../src/kafka-local-error.js'

/** A stand-in for `mvn` that records each call and "copies" one jar, or fails the first `failures` times. */
async function fakeMaven(dir: string, failures = 0): Promise<string> {
  const script = join(dir, 'mvn')
  await writeFile(
    script,
    [
      '#!/bin/sh',
      `calls="${dir}/calls"`,
      'echo call >> "$calls"',
      `if [ "$(wc -l < "$calls")" -le ${failures} ]; then echo "[ERROR] Could not transfer artifact: boom" >&2; exit 1; fi`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell and log4j syntax, not a template
      'for a in "$@"; do case "$a" in -DoutputDirectory=*) out="${a#-DoutputDirectory=}";; esac; done',
      'mkdir -p "$out" && echo jar > "$out/kafka_2.13-fake.jar" && echo jar > "$out/scala-library-fake.jar"',
      ''
    ].join('\n')
  )
  await chmod(script, 0o755)
  return script
}

async function calls(dir: string): Promise<number> {
  return (await readFile(join(dir, 'calls'), 'utf8').catch(() => '')).split('\n').filter(Boolean).length
}

describe('KafkaDistribution', () => {
  let dir: string

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kafka-dist-test-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('runs Maven once, publishes libs with a marker, then hits the cache without Maven', async () => {
    const mvn = await fakeMaven(dir)
    const cacheDir = join(dir, 'cache')
    const first = await KafkaDistribution.resolve({ version: '4.1.1', cacheDir, mavenCommand: mvn })
    expect(first.downloaded).to.equal(true)
    expect(first.libsDir).to.equal(join(cacheDir, 'kafka-4.1.1', 'libs'))
    expect(first.classpath).to.equal(join(cacheDir, 'kafka-4.1.1', 'libs', '*'))
    expect((await readdir(first.libsDir)).sort()).to.deep.equal(['.complete', 'kafka_2.13-fake.jar', 'scala-library-fake.jar'])
    expect(await readFile(join(first.home, 'pom.xml'), 'utf8')).to.contain('<version>4.1.1</version>')
    expect((await readdir(join(cacheDir, 'kafka-4.1.1'))).filter(f => f.startsWith('libs.tmp'))).to.deep.equal([])

    const second = await KafkaDistribution.resolve({ version: '4.1', cacheDir, mavenCommand: join(dir, 'no-such-mvn') })
    expect(second.downloaded).to.equal(false)
    expect(await calls(dir)).to.equal(1)
  })

  it('resolves again when a listed jar went missing', async () => {
    const mvn = await fakeMaven(dir)
    const cacheDir = join(dir, 'cache')
    const first = await KafkaDistribution.resolve({ cacheDir, mavenCommand: mvn })
    await rm(join(first.libsDir, 'scala-library-fake.jar'))
    const second = await KafkaDistribution.resolve({ cacheDir, mavenCommand: mvn })
    expect(second.downloaded).to.equal(true)
    expect(await calls(dir)).to.equal(2)
  })

  it('retries a failed Maven run', async function () {
    this.timeout(10_000)
    const mvn = await fakeMaven(dir, 1)
    const progress: string[] = []
    const d = await KafkaDistribution.resolve({
      cacheDir: join(dir, 'cache'),
      mavenCommand: mvn,
      attempts: 2,
      onProgress: m => progress.push(m)
    })
    expect(d.downloaded).to.equal(true)
    expect(await calls(dir)).to.equal(2)
    expect(progress.some(m => m.includes('retrying'))).to.equal(true)
  })

  it("fails with MAVEN_FAILED and Maven's output after the last attempt", async () => {
    const mvn = await fakeMaven(dir, 5)
    const error = await KafkaDistribution.resolve({ cacheDir: join(dir, 'cache'), mavenCommand: mvn, attempts: 1 }).catch((e: unknown) => e)
    expect(error).to.be.instanceOf(KafkaLocalError).with.property('code', 'MAVEN_FAILED')
    expect((error as Error).message).to.contain('boom')
    expect(await readdir(join(dir, 'cache', 'kafka-4.1.1'))).to.not.include('libs')
  })

  it('fails with MAVEN_FAILED when Maven is not installed', async () => {
    const error = await KafkaDistribution.resolve({ cacheDir: join(dir, 'cache'), mavenCommand: join(dir, 'missing', 'mvn') }).catch(
      (e: unknown) => e
    )
    expect(error).to.be.instanceOf(KafkaLocalError).with.property('code', 'MAVEN_FAILED')
  })

  it('writes the logging config for the release line and points the JVM at it', async () => {
    const cacheDir = join(dir, 'cache')
    await mkdir(join(cacheDir, 'kafka-3.9.1', 'libs'), { recursive: true })
    await writeFile(join(cacheDir, 'kafka-3.9.1', 'libs', 'a.jar'), 'jar')
    await writeFile(join(cacheDir, 'kafka-3.9.1', 'libs', '.complete'), JSON.stringify({ jars: ['a.jar'] }))
    const d = await KafkaDistribution.resolve({ version: '3.9', cacheDir, mavenCommand: join(dir, 'no-such-mvn') })
    expect(d.downloaded).to.equal(false)
    expect(d.loggingJvmArgs('INFO')).to.deep.equal([
      `-Dlog4j.configuration=file:${join(d.home, 'log4j.properties')}`,
      '-Dkstreams.kafka.log.level=INFO'
    ])
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell and log4j syntax, not a template
    expect(await readFile(join(d.home, 'log4j.properties'), 'utf8')).to.contain('log4j.rootLogger=${kstreams.kafka.log.level}, stdout')
    expect(d.classArchiveArgs('broker')).to.deep.equal([])
  })

  it('takes the cache root from KAFKA_LOCAL_CACHE_DIR, then XDG_CACHE_HOME', () => {
    expect(defaultCacheDir({ KAFKA_LOCAL_CACHE_DIR: '/c' })).to.equal('/c')
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x' })).to.equal(join('/x', 'kstreams'))
    expect(defaultCacheDir({})).to.match(/\.cache[/\\]kstreams$/)
  })
})
