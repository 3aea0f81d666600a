/** Debian's Chromium, which the browser tests drive (ensure-chromium.mjs installs it). */
export declare const CHROMIUM: string;
export declare function ensureChromium(): void;
