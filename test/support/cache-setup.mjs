export { setup as default } from './cache-folders.mjs';
