/**
 * The broker's jars on local disk. `KafkaDistribution.resolve` returns at once when the cache
 * holds a complete copy (marker file listing every jar); otherwise it writes a generated POM and
 * runs Maven's copy-dependencies into a private temporary folder, retries, and renames the folder
 * into place, so concurrent resolvers never see a half-filled `libs/`.
 *
 * Cache layout: <cacheDir>/kafka-<version>/{pom.xml, log4j2.properties, libs/*.jar, libs/.complete,
 * cds/{broker,tool}.jsa (class-data archives, see class-archives.ts)}
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { KafkaLocalError } from './kafka-local-error.js'
import { resolveKafkaVersion, type KafkaVersion } from './kafka-version.js'
import { loggingConfig, loggingConfigFileName, loggingJvmArgs, type BrokerLogLevel } from './logging-config.js'
import { DEPENDENCY_PLUGIN, brokerPom } from './maven-pom.js'
import { lastLines, runCommand } from './run-command.js'

const MARKER = '.complete'

/** Which JVM a class-data archive is for: the broker, or the short-lived StorageTool. */
export type ClassArchiveKind = 'broker' | 'tool'

/** Which Kafka to resolve, where to cache it, and the Java and Maven executables to use. */
export interface KafkaDistributionOptions {
  /** "4.1.1", "4.1" (default) or "3.9" (fallback). */
  readonly version?: string
  /** Root of the jar cache; default `defaultCacheDir()`. */
  readonly cacheDir?: string
  /** Maven executable; default `mvn`. */
  readonly mavenCommand?: string
  /** Java executable; default `$JAVA_HOME/bin/java` or `java`. */
  readonly javaCommand?: string
  /** Maven attempts before giving up (network hiccups); default 3. */
  readonly attempts?: number
  /** Progress lines (the first-run download); default silent. */
  readonly onProgress?: (message: string) => void
}

/** `$KAFKA_LOCAL_CACHE_DIR`, else `$XDG_CACHE_HOME/kstreams`, else `~/.cache/kstreams`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.KAFKA_LOCAL_CACHE_DIR !== undefined && env.KAFKA_LOCAL_CACHE_DIR !== '') return env.KAFKA_LOCAL_CACHE_DIR
  const xdg = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache')
  return join(xdg, 'kstreams')
}

/** `$JAVA_HOME/bin/java` when JAVA_HOME is set, else `java` (looked up on PATH). */
export function defaultJavaCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.JAVA_HOME !== undefined && env.JAVA_HOME !== '' ? join(env.JAVA_HOME, 'bin', 'java') : 'java'
}

/** The jars of one Kafka release in the cache, and how to run a JVM on them. */
export class KafkaDistribution {
  /** The resolved release. */
  readonly kafka: KafkaVersion
  /** <cacheDir>/kafka-<version> */
  readonly home: string
  /** <home>/libs: every jar of the broker. */
  readonly libsDir: string
  /** The Java executable the JVMs are started with. */
  readonly javaCommand: string
  /** True when this call ran Maven, false on a cache hit. */
  readonly downloaded: boolean

  private constructor(kafka: KafkaVersion, home: string, javaCommand: string, downloaded: boolean) {
    this.kafka = kafka
    this.home = home
    this.libsDir = join(home, 'libs')
    this.javaCommand = javaCommand
    this.downloaded = downloaded
  }

  /**
   * The release's jars in the cache: at once when a complete copy is there, else fetched with Maven
   * (MAVEN_FAILED when it cannot run or keeps failing).
   */
  static async resolve(options: KafkaDistributionOptions = {}): Promise<KafkaDistribution> {
    const kafka = resolveKafkaVersion(options.version)
    const home = join(options.cacheDir ?? defaultCacheDir(), `kafka-${kafka.version}`)
    const javaCommand = options.javaCommand ?? defaultJavaCommand()
    await mkdir(home, { recursive: true })
    await writeIfChanged(join(home, loggingConfigFileName(kafka)), loggingConfig(kafka))
    if (await isComplete(join(home, 'libs'))) return new KafkaDistribution(kafka, home, javaCommand, false)

    const progress = options.onProgress ?? (() => {})
    progress(`resolving Apache Kafka ${kafka.version} from Maven Central into ${home} (first run only)`)
    await writeIfChanged(join(home, 'pom.xml'), brokerPom(kafka))
    await copyDependencies(home, options.mavenCommand ?? 'mvn', options.attempts ?? 3, progress)
    return new KafkaDistribution(kafka, home, javaCommand, true)
  }

  /** Class path for `java -cp` (the JVM expands the wildcard). */
  get classpath(): string {
    return join(this.libsDir, '*')
  }

  /** Where the class-data sharing archive of one kind of JVM lives (it may not exist yet). */
  classArchivePath(kind: ClassArchiveKind): string {
    return join(this.home, 'cds', `${kind}.jsa`)
  }

  /** JVM flags that use the class-data archive when it exists (JDK 13+ dynamic AppCDS), else none. */
  classArchiveArgs(kind: ClassArchiveKind): string[] {
    const path = this.classArchivePath(kind)
    return existsSync(path) ? [`-XX:SharedArchiveFile=${path}`] : []
  }

  /** System properties that point the logging backend at our config file, with a root level. */
  loggingJvmArgs(level?: BrokerLogLevel): string[] {
    return loggingJvmArgs(this.kafka, join(this.home, loggingConfigFileName(this.kafka)), level)
  }
}

async function copyDependencies(home: string, mvn: string, attempts: number, progress: (m: string) => void): Promise<void> {
  const libs = join(home, 'libs')
  let failure = ''
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const tmp = join(home, `libs.tmp-${process.pid}-${randomBytes(4).toString('hex')}`)
    const args = [
      '-q',
      '-B',
      '-f',
      join(home, 'pom.xml'),
      '-Dmaven.wagon.http.retryHandler.count=3',
      '-Dmaven.wagon.httpconnectionManager.ttlSeconds=25',
      `${DEPENDENCY_PLUGIN}:copy-dependencies`,
      '-DincludeScope=runtime',
      `-DoutputDirectory=${tmp}`
    ]
    try {
      const result = await runCommand(mvn, args, { cwd: home })
      if (result.exitCode === 0) {
        await publish(tmp, libs)
        return
      }
      failure = lastLines(result.output)
    } catch (error) {
      await rm(tmp, { recursive: true, force: true })
      throw new KafkaLocalError(
        'MAVEN_FAILED',
        `cannot run Maven ("${mvn}"): install Maven 3.8+ (mvn on PATH) or point the mavenCommand option at it`,
        { cause: error }
      )
    }
    await rm(tmp, { recursive: true, force: true })
    if (attempt < attempts) {
      progress(`Maven attempt ${attempt} failed, retrying`)
      await new Promise(resolve => setTimeout(resolve, 2000 * attempt))
    }
  }
  throw new KafkaLocalError('MAVEN_FAILED', `Maven could not resolve the Kafka jars after ${attempts} attempts:\n${failure}`)
}

/** Writes the marker into the finished folder, then renames it to `libs` (atomic on one file system). */
async function publish(tmp: string, libs: string): Promise<void> {
  const jars = (await readdir(tmp)).filter(f => f.endsWith('.jar')).sort()
  if (jars.length === 0) throw new KafkaLocalError('MAVEN_FAILED', `Maven copied no jars into ${tmp}`)
  await writeFile(join(tmp, MARKER), JSON.stringify({ jars }, null, 2) + '\n')
  if (!(await isComplete(libs))) await rm(libs, { recursive: true, force: true })
  try {
    await rename(tmp, libs)
  } catch (error) {
    // Another process published first (ENOTEMPTY/EEXIST): keep theirs.
    await rm(tmp, { recursive: true, force: true })
    if (!(await isComplete(libs))) throw new KafkaLocalError('MAVEN_FAILED', `cannot move jars into ${libs}`, { cause: error })
  }
}

async function isComplete(libs: string): Promise<boolean> {
  let jars: unknown
  try {
    jars = (JSON.parse(await readFile(join(libs, MARKER), 'utf8')) as { jars?: unknown }).jars
  } catch {
    return false
  }
  if (!Array.isArray(jars) || jars.length === 0) return false
  const present = await Promise.all(
    jars.map(
      async jar =>
        await stat(join(libs, String(jar))).then(
          s => s.isFile(),
          () => false
        )
    )
  )
  return present.every(Boolean)
}

async function writeIfChanged(path: string, content: string): Promise<void> {
  const current = await readFile(path, 'utf8').catch(() => undefined)
  if (current === content) return
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`
  await writeFile(tmp, content)
  await rename(tmp, path)
}
