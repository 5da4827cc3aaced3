/**
 * Broker logging: WARN and above on the console (captured in the broker's log file), plus the
 * INFO line that says the server started. Log4j2 properties for 4.x, reload4j properties for
 * 3.x; `loggingJvmArgs` names the file the way each backend expects and sets the root level
 * through a system property the file refers to (INFO or DEBUG when diagnosing start-up).
 */
import type { KafkaVersion } from './kafka-version.js'

const STARTED_LOGGER = 'kafka.server.KafkaRaftServer'
const LEVEL_PROPERTY = 'kstreams.kafka.log.level'

/** Root log level of a broker's log file. */
export type BrokerLogLevel = 'ERROR' | 'WARN' | 'INFO' | 'DEBUG'

/** File name of the logging config in the cache directory of a release (log4j2 or reload4j). */
export function loggingConfigFileName(kafka: KafkaVersion): string {
  return kafka.logging === 'log4j2' ? 'log4j2.properties' : 'log4j.properties'
}

/** The logging config for a release: console output at the level of a system property, WARN by default. */
export function loggingConfig(kafka: KafkaVersion): string {
  if (kafka.logging === 'log4j2') {
    return [
      'status = warn',
      'appender.out.type = Console',
      'appender.out.name = OUT',
      'appender.out.layout.type = PatternLayout',
      'appender.out.layout.pattern = [%d] %p %m (%c)%n',
      `rootLogger.level = ${'$'}{sys:${LEVEL_PROPERTY}:-WARN}`,
      'rootLogger.appenderRef.out.ref = OUT',
      'logger.ready.name = ' + STARTED_LOGGER,
      'logger.ready.level = INFO',
      ''
    ].join('\n')
  }
  return [
    `log4j.rootLogger=${'$'}{${LEVEL_PROPERTY}}, stdout`,
    'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
    'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
    'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n',
    `log4j.logger.${STARTED_LOGGER}=INFO`,
    ''
  ].join('\n')
}

/** JVM flags that point the logging backend at `configPath` and set the root level. */
export function loggingJvmArgs(kafka: KafkaVersion, configPath: string, level: BrokerLogLevel = 'WARN'): string[] {
  const file = kafka.logging === 'log4j2' ? `-Dlog4j2.configurationFile=${configPath}` : `-Dlog4j.configuration=file:${configPath}`
  return [file, `-D${LEVEL_PROPERTY}=${level}`]
}
