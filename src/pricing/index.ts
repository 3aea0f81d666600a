export { shippedTests } from './path-rules.js';
export type { PricingInput } from './price-change.js';
export { priceChange } from './price-change.js';
