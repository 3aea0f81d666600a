export { teardown as default } from './code-cache-folder.mjs';
