/**
 * PEM blocks as Kafka's PEM stores read them: anywhere in the text (other text around them is
 * ignored), white space inside the base64 allowed, so that a certificate chain written on one
 * properties line (`-----BEGIN CERTIFICATE----- MIIC... -----END CERTIFICATE-----`) reads as well
 * as a file; and written back as the 64-column PEM that Node's TLS reads. @internal
 */

/** One PEM block: its label (`CERTIFICATE`, `PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`, ...) and its DER bytes. */
export interface PemBlock {
  readonly label: string
  readonly der: Buffer
}

/** A PEM block that cannot be decoded; the message never holds the block. */
export class PemError extends Error {}

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END ([A-Z0-9 ]+)-----/g

/** The PEM blocks in `text`, in order. */
export function pemBlocks(text: string): PemBlock[] {
  const blocks: PemBlock[] = []
  for (const match of text.matchAll(BLOCK)) {
    const [, label, body, endLabel] = match
    if (label !== endLabel) throw new PemError(`a PEM block BEGIN ${label} ends with END ${endLabel}`)
    if (body!.includes(':'))
      throw new PemError(
        `a PEM ${label} block has headers (a traditional OpenSSL encrypted key): convert it to PKCS#8 (openssl pkcs8 -topk8)`
      )
    const base64 = body!.replace(/\s+/g, '')
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) throw new PemError(`a PEM ${label} block is not valid base64`)
    blocks.push({ label: label!, der: Buffer.from(base64, 'base64') })
  }
  return blocks
}

/** `der` as a PEM block with `label`. */
export function toPem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? []
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`
}
