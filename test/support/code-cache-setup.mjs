export { setup as default } from './code-cache-folder.mjs';
