/**
 * A small Java program compiled against jars from Maven Central, the way the broker's jars are
 * fetched: the program's pom.xml (dependencies only) drives `mvn dependency:copy-dependencies`
 * into a cache folder once, then `javac` compiles the sources into a folder named by the hash of
 * the sources and the jar list (an edit recompiles, a rerun does not). Runs nothing but Maven and
 * javac; the caller starts the JVM with the returned class path. Used for the Java Kafka Streams
 * side of the benchmarks and of the mixed Java/kstreams group tests.
 *
 * Cache layout: <cacheDir>/<name>/{pom.xml, libs/*.jar, libs/.complete, classes-<hash>/...}.
 */
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { defaultCacheDir, defaultJavaCommand } from './kafka-distribution.js'
import { KafkaLocalError } from './kafka-local-error.js'
import { runCommand } from './run-command.js'

/** maven-dependency-plugin, fully qualified (Maven 3.8's super-POM pins an old 2.8). */
const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1'
const MARKER = '.complete'

/** What buildJavaProgram compiles: a pom with the dependencies and the sources. */
export interface JavaProgramOptions {
  /** The cache folder's name, e.g. `bench-java-4.1.1`; one folder per pom. */
  readonly name: string
  /** The pom.xml text: the program's runtime dependencies. */
  readonly pom: string
  /** The .java files to compile. */
  readonly sources: readonly string[]
  /** Hears of the slow steps (the first fetch, a compile). */
  readonly log?: (line: string) => void
  /** Default: defaultCacheDir(). */
  readonly cacheDir?: string
}

/** How to start a compiled program: `<javaCommand> -cp <classpath> <main class>`. */
export interface JavaProgram {
  /** The java executable. */
  readonly javaCommand: string
  /** The compiled classes and every jar, for `java -cp`. */
  readonly classpath: string
  /** First line of `java -version`, e.g. 'openjdk version "17.0.15" 2025-04-15'. */
  readonly javaVersion: string
}

/** Fetches the jars (when the pom changed or on the first run) and compiles the sources (when they changed). */
export async function buildJavaProgram(options: JavaProgramOptions): Promise<JavaProgram> {
  const log = options.log ?? (() => {})
  const home = join(options.cacheDir ?? defaultCacheDir(), options.name)
  await mkdir(home, { recursive: true })
  const libs = join(home, 'libs')
  const pomHash = createHash('sha256').update(options.pom).digest('hex').slice(0, 16)
  let jars = await completeJars(libs, pomHash)
  if (jars === undefined) {
    log(`fetching the jars of ${options.name} from Maven Central into ${libs} (first run only)`)
    const pom = join(home, 'pom.xml')
    await writeFile(pom, options.pom)
    const tmp = join(home, `libs.tmp-${process.pid}-${randomBytes(4).toString('hex')}`)
    const args = ['-q', '-B', '-f', pom, `${DEPENDENCY_PLUGIN}:copy-dependencies`, '-DincludeScope=runtime', `-DoutputDirectory=${tmp}`]
    const mvn = await runCommand('mvn', args, { cwd: home })
    if (mvn.exitCode !== 0) {
      await rm(tmp, { recursive: true, force: true })
      throw new KafkaLocalError('MAVEN_FAILED', `mvn ${args.join(' ')} failed:\n${mvn.output}`)
    }
    jars = (await readdir(tmp)).filter(f => f.endsWith('.jar')).sort()
    await writeFile(join(tmp, MARKER), JSON.stringify({ pom: pomHash, jars }, null, 2) + '\n')
    await rm(libs, { recursive: true, force: true })
    await rename(tmp, libs)
  }
  const hash = createHash('sha256')
  for (const source of options.sources) hash.update(source).update(await readFile(source))
  const digest = hash.update(jars.join('\n')).digest('hex').slice(0, 16)
  const classes = join(home, `classes-${digest}`)
  const javaCommand = defaultJavaCommand()
  if (!existsSync(join(classes, MARKER))) {
    log(`compiling ${options.sources.join(', ')} into ${classes}`)
    const tmp = `${classes}.tmp-${process.pid}`
    await mkdir(tmp, { recursive: true })
    const javac = javaCommand.replace(/java$/, 'javac')
    const result = await runCommand(javac, ['--release', '17', '-Xlint:all', '-cp', join(libs, '*'), '-d', tmp, ...options.sources], {
      cwd: home
    })
    if (result.exitCode !== 0) {
      await rm(tmp, { recursive: true, force: true })
      throw new KafkaLocalError('JAVAC_FAILED', `javac failed:\n${result.output}`)
    }
    if (result.output.trim() !== '') log(`javac: ${result.output.trim()}`)
    await writeFile(join(tmp, MARKER), '')
    await rm(classes, { recursive: true, force: true })
    await rename(tmp, classes).catch(async (error: unknown) => {
      // Another process compiled the same sources first.
      if (existsSync(join(classes, MARKER))) await rm(tmp, { recursive: true, force: true })
      else throw error
    })
  }
  // Builds of earlier sources are of no more use.
  for (const entry of await readdir(home)) {
    if (/^classes-[0-9a-f]{16}$/.test(entry) && join(home, entry) !== classes) await rm(join(home, entry), { recursive: true, force: true })
  }
  const version = await runCommand(javaCommand, ['-version'], { cwd: home })
  return {
    javaCommand,
    classpath: `${classes}:${join(libs, '*')}`,
    javaVersion: version.output.split('\n')[0]?.trim() ?? 'unknown'
  }
}

/** The jar list of a finished copy made from this pom, or undefined. */
async function completeJars(libs: string, pomHash: string): Promise<string[] | undefined> {
  try {
    const { pom, jars } = JSON.parse(await readFile(join(libs, MARKER), 'utf8')) as { pom?: unknown; jars?: unknown }
    if (pom !== pomHash || !Array.isArray(jars) || jars.length === 0) return undefined
    const names = jars.map(String)
    return names.every(jar => existsSync(join(libs, jar))) ? names : undefined
  } catch {
    return undefined
  }
}
