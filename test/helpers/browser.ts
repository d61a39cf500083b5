// Debian's chromium through playwright-core, launched the one way this machine allows (headless, no
// sandbox as root, no background networking: the closed network refuses it), and a phone-sized page.
import { chromium, type Browser, type BrowserContext } from 'playwright-core'

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  })
}

/** A phone at 390 x 844 (an iPhone 14's CSS size), Australian locale. */
export function phoneContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'en-AU' })
}
