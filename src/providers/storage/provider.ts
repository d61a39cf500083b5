// Where filed documents' bytes live. Keys are ours (company/uuid), never a caller's filename, so no
// input can name a path or another company's object.
export interface DocumentStorage {
  readonly backend: 'local' | 's3'
  put(key: string, bytes: Buffer, mediaType: string): Promise<void>
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>
  delete(key: string): Promise<void>
}
