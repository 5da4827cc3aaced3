#!/usr/bin/env node
/** The `kstreams` executable: runs the command line and exits with its code. */
import { runCli } from './cli.js'

// kafkajs 2.2.4 arms a timer with a negative delay on SASL connections (Node runs it after 1 ms,
// as kafkajs means); recent Node versions print a TimeoutNegativeWarning for it. The CLI drops that one
// warning and prints the others as Node does.
process.removeAllListeners('warning')
process.on('warning', warning => {
  if (warning.name !== 'TimeoutNegativeWarning') process.stderr.write(`(node:${process.pid}) ${warning.name}: ${warning.message}\n`)
})

process.exitCode = await runCli(process.argv.slice(2))
// The work is done: a Kafka client may still hold a socket open (kafkajs keeps the connection of a
// login whose token provider failed until the broker drops it). Exit rather than wait for it.
setTimeout(() => process.exit(), 1000).unref()
