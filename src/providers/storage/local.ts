// Files on this machine's disk, under one folder. Written to a temporary name and renamed, so a
// reader never sees half a file and a crash leaves no partial document under its real key.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import { randomUUID } from 'node:crypto'
import type { DocumentStorage } from './provider.js'

const SAFE_KEY = /^[0-9a-f-]{36}\/[0-9a-f-]{36}$/

export class LocalDiskStorage implements DocumentStorage {
  readonly backend = 'local' as const
  private readonly root: string
  constructor(root: string) {
    this.root = resolve(root)
  }

  private path(key: string): string {
    // Keys are always company-uuid/document-uuid; anything else is a bug, never a path to follow.
    if (!SAFE_KEY.test(key)) throw new Error(`refusing storage key ${JSON.stringify(key)}`)
    const full = join(this.root, key)
    if (!full.startsWith(this.root + sep)) throw new Error('storage key escapes the documents folder')
    return full
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const full = this.path(key)
    await mkdir(dirname(full), { recursive: true })
    const temp = `${full}.${randomUUID()}.part`
    await writeFile(temp, bytes, { mode: 0o600 })
    await rename(temp, full)
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(key))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true })
  }
}
