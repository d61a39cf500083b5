// The text of a filed document: a PDF's own text layer (unpdf, the PDF.js build for servers), or OCR
// for a photo (tesseract.js with the English model shipped in @tesseract.js-data/eng, read from
// node_modules: nothing is downloaded at run time). OCR is slow to start (about a second to load the
// model), so one worker is created on first use and reused for every photo after it; its jobs run
// one at a time, which also bounds the CPU one process spends on OCR.
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Worker } from 'tesseract.js'
import type { MediaType } from './sniff.js'
import { loadOnce } from '../../core/load-once.js'

export type TextSource = 'pdf_text' | 'ocr' | 'none'
export interface ReadText { text: string; source: TextSource; note: string | null }

/** Kept per document: enough for every field we read and a later search, bounded for the row. */
export const MAX_TEXT_CHARS = 20_000
const OCR_TIMEOUT_MS = 60_000

const require = createRequire(import.meta.url)
let ocrWorker: Promise<Worker> | null = null
// Both libraries are loaded on first use, not at start: they are large and most processes never read a document.
const loadUnpdf = loadOnce(() => import('unpdf'))
const loadTesseract = loadOnce(() => import('tesseract.js'))

function ocr(): Promise<Worker> {
  if (!ocrWorker) {
    const eng = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean }
    ocrWorker = loadTesseract().then(({ createWorker, OEM }) => createWorker('eng', OEM.LSTM_ONLY, { langPath: eng.langPath, gzip: eng.gzip, cachePath: join(tmpdir(), 'tradie-ocr'), cacheMethod: 'none' }))
    ocrWorker.catch(() => (ocrWorker = null))
  }
  return ocrWorker
}

/** Ends the OCR worker (tests, shutdown); the next photo starts a new one. */
export async function stopOcr(): Promise<void> {
  const worker = ocrWorker
  ocrWorker = null
  if (worker) await (await worker).terminate()
}

const withTimeout = <T>(work: Promise<T>, ms: number, what: string) =>
  Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms).unref())])

const tidy = (text: string) => text.replace(/\r/g, '').replace(/[ \t]+/g, ' ').replace(/\n{3,}/g, '\n\n').trim().slice(0, MAX_TEXT_CHARS)

/** Never throws: a file we cannot read is still filed, with source none and why. */
export async function readText(bytes: Buffer, mediaType: MediaType): Promise<ReadText> {
  try {
    if (mediaType === 'application/pdf') {
      const { extractText, getDocumentProxy } = await loadUnpdf()
      const pdf = await getDocumentProxy(new Uint8Array(bytes))
      const { text } = await extractText(pdf, { mergePages: true })
      const clean = tidy(text)
      return clean ? { text: clean, source: 'pdf_text', note: null } : { text: '', source: 'none', note: 'the PDF has no text layer (a scan); its text was not read' }
    }
    if (mediaType === 'image/heic') return { text: '', source: 'none', note: 'HEIC photos are stored but not read (OCR reads JPEG, PNG and WebP)' }
    const worker = await ocr()
    const { data } = await withTimeout(worker.recognize(bytes), OCR_TIMEOUT_MS, 'OCR')
    return { text: tidy(data.text), source: 'ocr', note: null }
  } catch (error) {
    return { text: '', source: 'none', note: `the text could not be read (${(error as Error).message.slice(0, 200)})` }
  }
}
