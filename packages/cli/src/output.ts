/** Where a command writes its output, line by line (the process' stdout, or a buffer in tests). @internal */
export interface Output {
  /** Writes one line (a newline is added). */
  line(text: string): void
  /** Writes text as it is. */
  write(text: string): void
}

/** An Output on a writable stream. */
export function streamOutput(stream: { write(text: string): unknown }): Output {
  return {
    line: text => {
      stream.write(`${text}\n`)
    },
    write: text => {
      stream.write(text)
    }
  }
}
