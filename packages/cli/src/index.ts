/**
 * @kstreams/cli: the `kstreams` command (`npx kstreams --help`), and the same as a function for
 * scripts: `await runCli(['describe', './topology.js', '--format', 'mermaid'])` resolves with the
 * exit code.
 */
export { runCli, cliVersion } from './cli.js'
export type { CliEnvironment, TextSink } from './cli.js'
export { CliError, UsageError, EXIT_CODES } from './cli-error.js'
