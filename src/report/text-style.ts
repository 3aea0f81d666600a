/** ANSI styles for the terminal report; with colour off every style is the identity. */
export type Style = 'plain' | 'bold' | 'dim' | 'red' | 'yellow' | 'green' | 'magenta' | 'boldRed';

const CODES: Readonly<Record<Exclude<Style, 'plain'>, readonly [string, string]>> = {
  bold: ['\u001b[1m', '\u001b[22m'],
  dim: ['\u001b[2m', '\u001b[22m'],
  red: ['\u001b[31m', '\u001b[39m'],
  yellow: ['\u001b[33m', '\u001b[39m'],
  green: ['\u001b[32m', '\u001b[39m'],
  magenta: ['\u001b[35m', '\u001b[39m'],
  boldRed: ['\u001b[1;31m', '\u001b[22;39m'],
};

export function paint(text: string, style: Style, color: boolean): string {
  if (!color || style === 'plain' || text === '') return text;
  const [open, close] = CODES[style];
  return `${open}${text}${close}`;
}
