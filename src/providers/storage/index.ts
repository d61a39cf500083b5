// Chooses the documents store from configuration: local disk unless DOCUMENTS_STORAGE=s3.
import { join } from 'node:path'
import type { Config } from '../../config.js'
import { LocalDiskStorage } from './local.js'
import type { DocumentStorage } from './provider.js'
import { S3Storage } from './s3.js'

export function createDocumentStorage(config: Config): DocumentStorage {
  if (config.DOCUMENTS_STORAGE === 'local') return new LocalDiskStorage(config.DOCUMENTS_DIR ?? join(config.DATA_DIR, 'documents'))
  if (!config.DOCUMENTS_S3_BUCKET) throw new Error('DOCUMENTS_STORAGE=s3 needs DOCUMENTS_S3_BUCKET (and DOCUMENTS_S3_ENDPOINT for a store other than AWS).')
  return new S3Storage({
    endpoint: config.DOCUMENTS_S3_ENDPOINT,
    bucket: config.DOCUMENTS_S3_BUCKET,
    region: config.DOCUMENTS_S3_REGION,
    accessKeyId: config.DOCUMENTS_S3_ACCESS_KEY_ID,
    secretAccessKey: config.DOCUMENTS_S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.DOCUMENTS_S3_FORCE_PATH_STYLE,
  })
}
