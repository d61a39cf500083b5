// A file's real type from its first bytes (magic numbers), never from its name or a declared type:
// a renamed .exe stays an .exe. Only the types a business files are accepted.
export const ACCEPTED_TYPES = {
  'application/pdf': 'PDF',
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/heic': 'HEIC',
  'image/webp': 'WebP',
} as const
export type MediaType = keyof typeof ACCEPTED_TYPES

export const ACCEPTED_TYPES_TEXT = Object.values(ACCEPTED_TYPES).join(', ')

const starts = (bytes: Buffer, signature: number[], at = 0) => signature.every((b, i) => bytes[at + i] === b)
const ascii = (bytes: Buffer, from: number, to: number) => bytes.subarray(from, to).toString('latin1')
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1'])

/** The accepted type the bytes are, or null (anything else: executables, archives, text, ...). */
export function sniffMediaType(bytes: Buffer): MediaType | null {
  // %PDF- may follow a little junk (some scanners add a header); the PDF spec lets readers look within the first 1024 bytes.
  if (bytes.subarray(0, 1024).includes('%PDF-')) return 'application/pdf'
  if (starts(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (starts(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp'
  if (ascii(bytes, 4, 8) === 'ftyp' && HEIC_BRANDS.has(ascii(bytes, 8, 12))) return 'image/heic'
  return null
}

/** What the refused bytes look like, for the error message (best effort). */
export function describeRefused(bytes: Buffer): string {
  if (starts(bytes, [0x4d, 0x5a])) return 'a Windows executable'
  if (starts(bytes, [0x7f, 0x45, 0x4c, 0x46])) return 'an ELF executable'
  if (starts(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'a ZIP archive (or an Office document)'
  if (starts(bytes, [0x47, 0x49, 0x46, 0x38])) return 'a GIF image'
  return 'a type we do not file'
}
