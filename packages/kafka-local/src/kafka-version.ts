/**
 * Which Apache Kafka release the local broker runs, and what differs between release lines:
 * the logging backend (log4j2 from 4.0, reload4j before) and the share coordinator (4.x only).
 * Short forms pick a tested patch release: "4.1" -> 4.1.1 (the default), "3.9" -> 3.9.1 (fallback).
 */
import { KafkaLocalError } from './kafka-local-error.js'

/** The release started when no version is given ("4.1" and "4" mean it too). */
export const DEFAULT_KAFKA_VERSION = '4.1.1'
/** The fallback release line ("3.9" and "3" mean it). */
export const FALLBACK_KAFKA_VERSION = '3.9.1'

/** A resolved Kafka release and the facts about it the launcher needs. */
export interface KafkaVersion {
  /** Full release, e.g. "4.1.1". */
  readonly version: string
  /** First number of the release, e.g. 4. */
  readonly major: number
  /** Second number of the release, e.g. 1. */
  readonly minor: number
  /** log4j2 (4.x) or reload4j (3.x); the SLF4J 1.7 binding is not in Kafka's POMs, we add it. */
  readonly logging: 'log4j2' | 'reload4j'
  /** Version of log4j2 (log4j-api, log4j-core, log4j-slf4j-impl) or of reload4j. */
  readonly loggingVersion: string
  /** 4.x always starts the share coordinator, whose internal topic needs RF settings. */
  readonly shareCoordinator: boolean
}

const SHORT_FORMS: Readonly<Record<string, string>> = {
  4: DEFAULT_KAFKA_VERSION,
  '4.1': DEFAULT_KAFKA_VERSION,
  '4.0': '4.0.1',
  3: FALLBACK_KAFKA_VERSION,
  '3.9': FALLBACK_KAFKA_VERSION
}

/** log4j2 versions Kafka's own build uses (gradle/dependencies.gradle) per release. */
const LOG4J2: Readonly<Record<string, string>> = {
  '4.0.0': '2.24.3',
  '4.0.1': '2.24.3',
  '4.0.2': '2.24.3',
  '4.1.0': '2.24.3',
  '4.1.1': '2.24.3',
  '4.1.2': '2.25.3'
}

/** The release a version spec means ("4.1", "3.9" or x.y.z); INVALID_OPTION for anything else or a release before 3.5. */
export function resolveKafkaVersion(spec: string = DEFAULT_KAFKA_VERSION): KafkaVersion {
  const version = SHORT_FORMS[spec] ?? spec
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(version)
  if (match === null) {
    throw new KafkaLocalError('INVALID_OPTION', `Kafka version "${spec}" is not x.y.z, "4.1" or "3.9"`)
  }
  const major = Number(match[1])
  const minor = Number(match[2])
  if (major === 4) {
    return { version, major, minor, logging: 'log4j2', loggingVersion: LOG4J2[version] ?? '2.25.3', shareCoordinator: true }
  }
  if (major === 3 && minor >= 5) {
    return { version, major, minor, logging: 'reload4j', loggingVersion: '1.2.25', shareCoordinator: false }
  }
  throw new KafkaLocalError(
    'INVALID_OPTION',
    `Kafka ${version} is not supported: use 4.x (default ${DEFAULT_KAFKA_VERSION}) or 3.5+ in KRaft mode (fallback ${FALLBACK_KAFKA_VERSION})`
  )
}
