export type { PricingInput } from './price-change.js';
export { priceChange } from './price-change.js';
