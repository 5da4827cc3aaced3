import { expect } from 'chai'
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KafkaLocalError, KafkaTestCluster, type KafkaTestClusterOptions } from '@kstreams/kafka-local'

/** A jar cache that passes the completeness check but holds no Kafka classes. */
async function fakeCache(root: string): Promise<string> {
  const libs = join(root, 'cache', 'kafka-4.1.1', 'libs')
  await mkdir(libs, { recursive: true })
  await writeFile(join(libs, 'empty.jar'), '')
  await writeFile(join(libs, '.complete'), JSON.stringify({ jars: ['empty.jar'] }))
  return join(root, 'cache')
}

/** A stand-in for `java`: records every command line; "formats" fine, and a "broker" exits at once. */
async function fakeJava(dir: string): Promise<string> {
  const script = join(dir, 'java')
  await writeFile(
    script,
    [
      '#!/bin/sh',
      `echo "$*" >> "${dir}/java-calls"`,
      'case "$*" in *kafka.Kafka*) echo "fake broker exits"; exit 1;; esac',
      'exit 0',
      ''
    ].join('\n')
  )
  await chmod(script, 0o755)
  return script
}

async function failure(options: KafkaTestClusterOptions): Promise<KafkaLocalError> {
  const error = await KafkaTestCluster.start(options).then(
    async cluster => {
      await cluster.stop()
      return undefined
    },
    (e: unknown) => e
  )
  expect(error).to.be.instanceOf(KafkaLocalError)
  return error as KafkaLocalError
}

describe('KafkaTestCluster options (without a real broker)', function () {
  this.timeout(20_000)
  let dir: string

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kafka-test-cluster-options-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('runs the Maven of mavenCommand, and names that option when it cannot run it', async () => {
    const progress: string[] = []
    const error = await failure({
      cacheDir: join(dir, 'cache'),
      mavenCommand: join(dir, 'no-such-mvn'),
      runDir: join(dir, 'run'),
      onProgress: m => progress.push(m)
    })
    expect(error.code).to.equal('MAVEN_FAILED')
    expect(error.message).to.contain(join(dir, 'no-such-mvn')).and.to.contain('mavenCommand')
    expect(progress.some(m => m.includes('Maven Central'))).to.equal(true)
  })

  it('runs the Java of javaCommand, and names that option when it cannot run it', async () => {
    const error = await failure({
      cacheDir: await fakeCache(dir),
      javaCommand: join(dir, 'no-such-java'),
      classDataSharing: false,
      runDir: join(dir, 'run')
    })
    expect(error.code).to.equal('JAVA_NOT_FOUND')
    expect(error.message).to.contain(join(dir, 'no-such-java')).and.to.contain('javaCommand').and.to.contain('Java 17')
  })

  it('starts the broker JVM with javaCommand, heap, jvmArgs and logLevel', async () => {
    const error = await failure({
      cacheDir: await fakeCache(dir),
      javaCommand: await fakeJava(dir),
      classDataSharing: false,
      heap: '300m',
      jvmArgs: ['-Dkstreams.test.flag=1'],
      logLevel: 'DEBUG',
      runDir: join(dir, 'run')
    })
    expect(error.code).to.equal('BROKER_EXITED')
    expect(error.message).to.contain('fake broker exits')
    const calls = (await readFile(join(dir, 'java-calls'), 'utf8')).trim().split('\n')
    expect(calls.filter(c => c.includes('kafka.tools.StorageTool format'))).to.have.length(1)
    const broker = calls.find(c => c.includes('kafka.Kafka'))
    expect(broker).to.contain('-Xmx300m').and.to.contain('-Dkstreams.test.flag=1').and.to.contain('-Dkstreams.kafka.log.level=DEBUG')
    expect(broker).to.not.contain('SharedArchiveFile')
  })

  it('refuses security options that cannot work together before running anything', async () => {
    const error = await failure({
      cacheDir: await fakeCache(dir),
      javaCommand: await fakeJava(dir),
      runDir: join(dir, 'run'),
      security: { protocol: 'sasl_plaintext', mtls: true }
    })
    expect(error.code).to.equal('INVALID_OPTION')
    expect(error.message).to.contain('security.mtls needs TLS')
    expect(await readdir(dir)).to.not.include('java-calls')
  })

  it('writes the secured listener into server.properties and formats the SCRAM users with the storage', async () => {
    const error = await failure({
      cacheDir: await fakeCache(dir),
      javaCommand: await fakeJava(dir),
      classDataSharing: false,
      runDir: join(dir, 'run'),
      security: { protocol: 'sasl_ssl', saslMechanisms: ['scram-sha-256'], users: { alice: 'alice-pw' } }
    })
    expect(error.code).to.equal('BROKER_EXITED')
    const format = (await readFile(join(dir, 'java-calls'), 'utf8')).split('\n').find(c => c.includes('StorageTool format'))
    expect(format).to.match(/--add-scram SCRAM-SHA-256=\[name=admin,password=[0-9a-f]{24}\]/)
    expect(format).to.contain('--add-scram SCRAM-SHA-256=[name=alice,password=alice-pw]')
    const props = await readFile(join(dir, 'run', 'node-1', 'server.properties'), 'utf8')
    expect(props).to.contain('listeners=SASL_SSL://127.0.0.1:').and.to.contain('sasl.mechanism.inter.broker.protocol=SCRAM-SHA-256')
    expect(await readdir(join(dir, 'run', 'security'))).to.include.members(['ca.pem', 'broker.p12', 'truststore.p12', 'client.properties'])
  })

  it('removes the temporary run directory it made when the start fails', async () => {
    const before = (await readdir(tmpdir())).filter(f => f.startsWith('kstreams-kafka-'))
    await failure({ cacheDir: await fakeCache(dir), javaCommand: join(dir, 'no-such-java'), classDataSharing: false })
    const after = (await readdir(tmpdir())).filter(f => f.startsWith('kstreams-kafka-'))
    expect(after.filter(f => !before.includes(f))).to.deep.equal([])
  })
})
