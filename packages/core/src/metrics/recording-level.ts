/**
 * Kafka's metrics recording levels (`metrics.recording.level`): a sensor records only when its
 * level is enabled by the configured one (INFO < DEBUG < TRACE).
 */
import { ConfigError } from '../errors.js'

/** Kafka's metrics recording levels, from the fewest metrics to the most. */
export type RecordingLevel = 'INFO' | 'DEBUG' | 'TRACE'

const ORDER: Readonly<Record<RecordingLevel, number>> = { INFO: 0, DEBUG: 1, TRACE: 2 }

/** Whether a sensor of `sensorLevel` records under the `configured` level. */
export function shouldRecord(configured: RecordingLevel, sensorLevel: RecordingLevel): boolean {
  return ORDER[sensorLevel] <= ORDER[configured]
}

/** Returns the level, or throws INVALID_CONFIG naming `metricsRecordingLevel`. */
export function checkRecordingLevel(level: unknown): RecordingLevel {
  if (level === 'INFO' || level === 'DEBUG' || level === 'TRACE') return level
  throw new ConfigError(
    'metricsRecordingLevel',
    `Invalid value for config "metricsRecordingLevel": must be "INFO", "DEBUG" or "TRACE", got ${JSON.stringify(level)}`
  )
}
