/** `kstreams reset`: the command line of the application reset (see application-reset.ts). @internal */
import { UsageError } from '../cli-error.js'
import { COMMAND_CONFIG_OPTION, commandConfigOption, kafkaClientFactory, withCredentials } from '../kafka-client.js'
import { integerOption, listOption, parse, stringOption, type CommandSpec } from '../options.js'
import type { Output } from '../output.js'
import { ApplicationReset, toolAdmin } from './application-reset.js'
import { resetPosition } from './reset-position.js'

export const RESET: CommandSpec = {
  name: 'reset',
  usage: 'kstreams reset --application-id <id> [--bootstrap-server <host:port>] [--input-topics <list>] [options]',
  summary: [
    "Resets a Kafka Streams application so that it reprocesses its input from scratch, as Kafka's",
    'kafka-streams-application-reset tool: commits new offsets for the input topics of the',
    "application's consumer group (the earliest by default), moves the intermediate topics to their",
    "end, and deletes the application's internal topics (<application-id>-...-changelog, -repartition,",
    'foreign-key subscription topics), but leaves those of another application whose id starts with',
    '<application-id>- (its consumer group exists, or the name after its id is one Kafka Streams',
    'generates) unless --internal-topics names them. It does not touch output topics, nor the local',
    'state of the instances: call KafkaStreams.cleanUp() (or delete <state.dir>/<application-id>) on',
    'each before restarting it. Refused while the group, or the group of such another application,',
    'has active members. Run it once with --dry-run first.'
  ].join('\n'),
  positionals: [],
  options: [
    {
      name: 'application-id',
      type: 'string',
      value: '<id>',
      description: 'REQUIRED: the application id (application.id), which is also its consumer group id.'
    },
    {
      name: 'bootstrap-server',
      type: 'string',
      value: '<host:port,...>',
      description: 'The brokers to connect to (default: bootstrap.servers of --command-config, else localhost:9092).'
    },
    COMMAND_CONFIG_OPTION,
    {
      name: 'client',
      type: 'string',
      value: '<kafkajs|platformatic>',
      description: 'The Kafka client (default: kafkajs; platformatic needs @kstreams/platformatic installed).'
    },
    {
      name: 'input-topics',
      type: 'string',
      list: true,
      value: '<list>',
      description: 'Comma-separated input topics: their committed offsets are reset (to the earliest unless another position is given).'
    },
    {
      name: 'intermediate-topics',
      type: 'string',
      list: true,
      value: '<list>',
      description:
        '(deprecated in Kafka 4) Comma-separated topics the application both writes and reads: their offsets are moved to the end.'
    },
    {
      name: 'internal-topics',
      type: 'string',
      list: true,
      value: '<list>',
      description:
        "Comma-separated internal topics to delete instead of all inferred ones; each must be one of those (see --dry-run). Also deletes the topics the reset would leave as another application's."
    },
    { name: 'to-earliest', type: 'boolean', description: 'Reset the input topics to their earliest offsets (the default).' },
    { name: 'to-latest', type: 'boolean', description: 'Reset the input topics to their latest offsets.' },
    {
      name: 'to-offset',
      type: 'string',
      value: '<offset>',
      description: 'Reset every input partition to this offset (kept within the partition).'
    },
    {
      name: 'shift-by',
      type: 'string',
      value: '<n>',
      description: 'Move the committed offsets by n (negative: back), kept within each partition.'
    },
    {
      name: 'to-datetime',
      type: 'string',
      value: '<YYYY-MM-DDThh:mm:ss.sss>',
      description: 'Reset to the first record at or after this time (local time unless it ends in Z or +hh:mm).'
    },
    {
      name: 'by-duration',
      type: 'string',
      value: '<PnDTnHnMnS>',
      description: 'Reset to the first record at or after now minus this ISO-8601 duration (e.g. PT1H).'
    },
    {
      name: 'force',
      type: 'boolean',
      description:
        'Remove the active members of the group instead of refusing (for members of stopped instances with a long session timeout). Stop every instance first.'
    },
    { name: 'dry-run', type: 'boolean', description: 'Print what the reset would do, change nothing.' },
    {
      name: 'state-dir',
      type: 'string',
      value: '<dir>',
      description: "The instances' state.dir on this machine: the cleanup hint names the application's directory in it."
    }
  ],
  notes: [
    'Exit codes: 0 done; 1 failed (group active, Kafka error), or the rest done but an input or intermediate',
    "topic does not exist (as Kafka's tool) or an internal topic was left as another application's; 2 invalid options.",
    '',
    'Important: you will get wrong results if the local state of the instances is not cleaned up after a reset.',
    'This tool makes changes that cannot be undone: run it with --dry-run first.'
  ].join('\n')
}

export async function runReset(args: readonly string[], out: Output, err: Output, cwd: string): Promise<number | 'help'> {
  const parsed = parse(RESET, args)
  if (parsed.help) return 'help'
  const applicationId = stringOption(parsed, 'application-id')
  if (applicationId === undefined || applicationId.trim() === '') throw new UsageError('reset', 'missing required option --application-id')
  const position = resetPosition({
    toEarliest: parsed.values['to-earliest'] === true,
    toLatest: parsed.values['to-latest'] === true,
    toOffset: integerOption(parsed, 'reset', 'to-offset'),
    shiftBy: integerOption(parsed, 'reset', 'shift-by'),
    toDatetime: stringOption(parsed, 'to-datetime'),
    byDuration: stringOption(parsed, 'by-duration')
  })
  const config = await commandConfigOption(parsed, err, cwd)
  const factory = await kafkaClientFactory('reset', {
    client: stringOption(parsed, 'client'),
    bootstrapServers: stringOption(parsed, 'bootstrap-server') ?? config?.bootstrapServers ?? 'localhost:9092',
    config
  })
  const admin = factory.admin({ clientId: config?.clientId ?? `kstreams-reset-${applicationId}` })
  try {
    return await withCredentials(
      config,
      err,
      async () =>
        await new ApplicationReset({ admin: toolAdmin(admin, factory.name), out }).run({
          applicationId,
          inputTopics: listOption(parsed, 'input-topics'),
          intermediateTopics: listOption(parsed, 'intermediate-topics'),
          internalTopics: listOption(parsed, 'internal-topics'),
          position,
          dryRun: parsed.values['dry-run'] === true,
          force: parsed.values.force === true,
          stateDir: stringOption(parsed, 'state-dir')
        })
    )
  } finally {
    await admin.close().catch(() => undefined)
  }
}
