// Any S3-compatible store through the AWS SDK v3 (AWS S3, MinIO, R2, gofakes3 in the tests).
import type { S3Client } from '@aws-sdk/client-s3'
import type { DocumentStorage } from './provider.js'
import { loadOnce } from '../../core/load-once.js'

export interface S3Settings {
  endpoint?: string
  bucket: string
  region: string
  accessKeyId?: string
  secretAccessKey?: string
  forcePathStyle: boolean
}

// The SDK is large: loaded on the first call that needs it (not when this module is imported), then cached.
const loadS3 = loadOnce(() => import('@aws-sdk/client-s3'))

export class S3Storage implements DocumentStorage {
  readonly backend = 's3' as const
  /** The client, made on first use. */
  private readonly s3 = loadOnce(async (): Promise<S3Client> => {
    const { settings } = this
    return new (await loadS3()).S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      // Checksums only where S3 requires them: many S3-compatible stores refuse the SDK's newer default (trailing CRC32 checksums).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials: settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
    })
  })

  constructor(private readonly settings: S3Settings) {}

  async put(key: string, bytes: Buffer, mediaType: string): Promise<void> {
    const [client, { PutObjectCommand }] = await Promise.all([this.s3(), loadS3()])
    await client.send(new PutObjectCommand({ Bucket: this.settings.bucket, Key: key, Body: bytes, ContentType: mediaType }))
  }

  async get(key: string): Promise<Buffer | null> {
    const [client, { GetObjectCommand, NoSuchKey, S3ServiceException }] = await Promise.all([this.s3(), loadS3()])
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }))
      return Buffer.from(await answer.Body!.transformToByteArray())
    } catch (error) {
      if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)) return null
      throw error
    }
  }

  async delete(key: string): Promise<void> {
    const [client, { DeleteObjectCommand }] = await Promise.all([this.s3(), loadS3()])
    await client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }))
  }
}
