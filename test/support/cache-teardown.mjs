export { teardown as default } from './cache-folders.mjs';
