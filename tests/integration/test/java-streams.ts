/**
 * The Java Kafka Streams side of the mixed-group tests: tests/java-streams (a Maven project on
 * Kafka Streams 4.1.1) compiled once per source change by @kstreams/kafka-local's
 * buildJavaProgram, and run as a WordCountInstance (JavaStreamsApp, configured by the same
 * environment variables as the kstreams WordCount app) or as a one-shot command (the topology
 * description, Kafka Streams' own encoders and decoders of the rebalance userData).
 */
import { execFile } from 'node:child_process'
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { buildJavaProgram, type JavaProgram } from '@kstreams/kafka-local'
import { WordCountInstance } from './wordcount-instances.js'

const PROJECT = fileURLToPath(new URL('../../java-streams/', import.meta.url))
const SOURCES = join(PROJECT, 'src/main/java/dev/kstreams/compat')

let built: Promise<JavaProgram> | undefined

/** Fetches Kafka Streams' jars (first run) and compiles the sources (when they changed). */
export async function javaStreams(): Promise<JavaProgram> {
  built ??= (async () => {
    const sources = (await readdir(SOURCES)).filter(f => f.endsWith('.java')).map(f => join(SOURCES, f))
    return await buildJavaProgram({ name: 'java-streams-tests', pom: await readFile(join(PROJECT, 'pom.xml'), 'utf8'), sources })
  })()
  return await built
}

/** A Java Kafka Streams instance of JavaStreamsApp; `env` as for the kstreams WordCount app (plus JAVA_TOPOLOGY). */
export async function javaInstance(env: Record<string, string>): Promise<WordCountInstance> {
  const java = await javaStreams()
  return new WordCountInstance(env, {
    file: java.javaCommand,
    args: ['-Xmx512m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-cp', java.classpath, 'dev.kstreams.compat.JavaStreamsApp']
  })
}

/** Runs a one-shot main class of the project; resolves with its stdout. */
export async function runJava(mainClass: string, args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  const java = await javaStreams()
  const { stdout } = await promisify(execFile)(java.javaCommand, ['-cp', java.classpath, `dev.kstreams.compat.${mainClass}`, ...args], {
    env: { ...process.env, ...env },
    maxBuffer: 16 * 1024 * 1024
  })
  return stdout
}
