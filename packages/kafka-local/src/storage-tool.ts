/**
 * Formats a node's fresh log directory with Kafka's own `kafka.tools.StorageTool format`
 * (what `bin/kafka-storage.sh` runs). Static voters in the config, so no quorum flag is passed.
 * The JVM is short-lived: C1 only and the serial collector start it faster.
 */
import type { BrokerNode } from './broker-config.js'
import type { KafkaDistribution } from './kafka-distribution.js'
import { KafkaLocalError } from './kafka-local-error.js'
import { lastLines, runCommand } from './run-command.js'

const TOOL_JVM_ARGS = ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Djava.awt.headless=true']

/**
 * Formats one node's log directory for `clusterId`; FORMAT_FAILED with the tool's output, or
 * JAVA_NOT_FOUND. `extraArgs` go after the others (e.g. `--add-scram` for SCRAM users).
 */
export async function formatStorage(
  distribution: KafkaDistribution,
  node: BrokerNode,
  clusterId: string,
  jvmArgs: readonly string[] = distribution.classArchiveArgs('tool'),
  extraArgs: readonly string[] = []
): Promise<void> {
  const args = [
    ...TOOL_JVM_ARGS,
    ...jvmArgs,
    ...distribution.loggingJvmArgs(),
    '-cp',
    distribution.classpath,
    'kafka.tools.StorageTool',
    'format',
    '--cluster-id',
    clusterId,
    '--config',
    node.configPath,
    '--ignore-formatted',
    ...extraArgs
  ]
  let result
  try {
    result = await runCommand(distribution.javaCommand, args)
  } catch (error) {
    throw new KafkaLocalError(
      'JAVA_NOT_FOUND',
      `cannot start "${distribution.javaCommand}": install Java 17 or newer, or point JAVA_HOME or the javaCommand option at it`,
      {
        cause: error
      }
    )
  }
  if (result.exitCode !== 0) {
    throw new KafkaLocalError(
      'FORMAT_FAILED',
      `formatting ${node.dataDir} failed (exit ${String(result.exitCode)}):\n${lastLines(result.output)}`
    )
  }
}
