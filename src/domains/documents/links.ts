// Signed download links: HMAC-SHA256 over company, document and expiry, keyed by the document's own
// random link_secret. A link opens one document until it expires and cannot be turned into a link to
// another document; no deployment-wide secret has to be configured or rotated.
import { createHmac, timingSafeEqual } from 'node:crypto'

const signature = (secret: Buffer, companyId: string, documentId: string, expires: number) =>
  createHmac('sha256', secret).update(`${companyId}.${documentId}.${expires}`, 'utf8').digest('base64url')

export function signedFileUrl(apiBase: string, secret: Buffer, companyId: string, documentId: string, expires: number): string {
  const query = new URLSearchParams({ company: companyId, expires: String(expires), signature: signature(secret, companyId, documentId, expires) })
  return `${apiBase}/documents/${documentId}/file?${query}`
}

export function signatureValid(secret: Buffer, companyId: string, documentId: string, expires: number, given: string): boolean {
  const expected = Buffer.from(signature(secret, companyId, documentId, expires))
  const actual = Buffer.from(given)
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}
