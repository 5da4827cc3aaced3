/** `kstreams state <dir>`: the task directories, stores and checkpoints of a state directory, and with a broker the changelog lag. @internal */
import { parse, stringOption, type CommandSpec } from './options.js'
import type { Output } from './output.js'
import { UsageError } from './cli-error.js'
import { COMMAND_CONFIG_OPTION, commandConfigOption, kafkaClientFactory, withCredentials } from './kafka-client.js'
import { addLags, inspectStateDirectory, type ApplicationState } from './state-inspection.js'

export const STATE: CommandSpec = {
  name: 'state',
  usage: 'kstreams state <dir> [--bootstrap-server <host:port>] [--command-config <file>] [--json]',
  summary: [
    "Lists what a state directory holds: <dir> is an application's directory (<state.dir>/<application.id>)",
    'or a state.dir with applications in it. For each task directory (<subtopology>_<partition>, and global):',
    'its stores and the offsets of its .checkpoint file (the last changelog offset each store holds; only',
    'persistent stores are checkpointed, written when a task commits or closes). With --bootstrap-server,',
    "also each changelog partition's end offset and the store's lag behind it. Reads only; safe while the",
    'application runs (a running task may have moved past its last checkpoint).'
  ].join('\n'),
  positionals: ['dir'],
  options: [
    {
      name: 'bootstrap-server',
      type: 'string',
      value: '<host:port,...>',
      description: 'Also read the end offsets of the checkpointed changelog partitions from these brokers.'
    },
    COMMAND_CONFIG_OPTION,
    { name: 'client', type: 'string', value: '<kafkajs|platformatic>', description: 'The Kafka client (default: kafkajs).' },
    { name: 'json', type: 'boolean', description: 'Print JSON instead of text.' }
  ],
  notes: 'Exit codes: 0 listed; 1 the directory does not exist or Kafka failed; 2 invalid options.'
}

export async function runState(args: readonly string[], out: Output, err: Output, cwd: string): Promise<number | 'help'> {
  const parsed = parse(STATE, args)
  if (parsed.help) return 'help'
  const config = await commandConfigOption(parsed, err, cwd)
  const bootstrap = stringOption(parsed, 'bootstrap-server') ?? config?.bootstrapServers
  if (config !== undefined && bootstrap === undefined)
    throw new UsageError('state', '--command-config needs --bootstrap-server (or bootstrap.servers in the file)')
  const apps = await inspectStateDirectory(parsed.positionals[0]!)
  if (bootstrap !== undefined) {
    const factory = await kafkaClientFactory('state', { client: stringOption(parsed, 'client'), bootstrapServers: bootstrap, config })
    const admin = factory.admin({ clientId: config?.clientId ?? 'kstreams-state' })
    try {
      await withCredentials(config, err, async () => await addLags(apps, admin))
    } finally {
      await admin.close().catch(() => undefined)
    }
  }
  if (parsed.values.json === true) out.line(JSON.stringify({ applications: apps }, null, 2))
  else printText(apps, out, bootstrap !== undefined)
  return 0
}

function printText(apps: readonly ApplicationState[], out: Output, withLag: boolean): void {
  if (apps.length === 0) out.line('No application state directory found.')
  for (const app of apps) {
    out.line(`Application ${app.applicationId} (${app.dir}): ${app.tasks.length} task director${app.tasks.length === 1 ? 'y' : 'ies'}`)
    for (const task of app.tasks) {
      out.line(`  Task ${task.taskId}`)
      out.line(`    stores: ${task.stores.length === 0 ? '(no persistent store directory)' : task.stores.join(', ')}`)
      if (task.checkpointError !== null) out.line(`    checkpoint: unreadable: ${task.checkpointError}`)
      else if (task.checkpoint.length === 0) out.line('    checkpoint: none')
      for (const e of task.checkpoint) {
        const store = e.store === null ? '' : ` (store ${e.store})`
        const offset = e.offset === null ? 'unknown' : String(e.offset)
        const lag = withLag
          ? e.endOffset === null
            ? '  end: topic or partition missing'
            : `  end ${e.endOffset}  lag ${e.lag ?? 'unknown'}`
          : ''
        out.line(`    checkpoint ${e.topic}-${e.partition}${store}: offset ${offset}${lag}`)
      }
    }
  }
}
