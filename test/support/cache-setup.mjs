import { setup as setupCaches } from './cache-folders.mjs';
import { ensureChromium } from './ensure-chromium.mjs';

export default function setup() {
  ensureChromium();
  setupCaches();
}
