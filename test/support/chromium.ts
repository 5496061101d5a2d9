import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

/** Debian's Chromium: tests never download a browser. */
const CHROMIUM = '/usr/bin/chromium'

/** `describe`'s skip option: false, or why the browser tests cannot run here. */
export const skipWithoutChromium = existsSync(CHROMIUM)
  ? false
  : `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium)`

/** Headless Chromium talking to loopback only (no background traffic of its own). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
