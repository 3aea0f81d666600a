import { AureusError } from '../model/errors.js';

/**
 * `.aureus/local/` is not AUREUS's to use in this checkout (store-paths.ts, checkedLocalDir): a
 * file of its own, so that a caller can tell it from other failures without loading the rest.
 */
export class LocalStoreRefused extends AureusError {}
