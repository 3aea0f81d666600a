import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { AureusError } from '../model/errors.js';
import type { ChartLibrary } from './render-dashboard-html.js';

/**
 * uPlot's minified script and stylesheet, read from the installed package at run time, to be
 * inlined in the page: the report opens with no network, and the library ships with AUREUS.
 */
export async function readChartLibrary(): Promise<ChartLibrary> {
  const require = createRequire(import.meta.url);
  try {
    const script = require.resolve('uplot/dist/uPlot.iife.min.js');
    const css = require.resolve('uplot/dist/uPlot.min.css');
    return { script: await readFile(script, 'utf8'), css: await readFile(css, 'utf8') };
  } catch {
    throw new AureusError(
      'the chart library uPlot, which aureus report inlines in the page, is not installed beside AUREUS.',
      'reinstall AUREUS (npm install) so that its dependency uplot is present.',
    );
  }
}
